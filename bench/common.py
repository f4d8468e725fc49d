"""Figures every benchmark prints: medians, percentiles, win shares with their margins."""

import math
import time


def median(values):
    """Return the median of a non-empty list of numbers."""
    ordered = sorted(values)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2


def percentile(values, fraction):
    """Return the nearest-rank percentile (fraction in 0..1) of a non-empty list."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))
    return ordered[index]


def share_with_margin(points, games):
    """Return (share, 95 % margin) of a win share where ties were split into fractional points."""
    share = points / games
    margin = 1.96 * math.sqrt(max(share * (1 - share), 1e-12) / games)
    return share, margin


def format_share(label, points, games, target=None, baseline=None):
    """Return one printed line: label, share ± margin, and how it stands against target and baseline."""
    share, margin = share_with_margin(points, games)
    line = "%-48s %6.1f %% ± %4.1f  (%d games)" % (label, 100 * share, 100 * margin, games)
    if baseline is not None:
        line += "  baseline %.1f %%, ratio %.2f" % (100 * baseline, share / baseline)
    if target is not None:
        line += "  target ≥ %.0f %%: %s" % (100 * target, "met" if share >= target else "MISSED")
    return line


class DecisionTimer:
    """Wrap a bot's choose function and record how long each decision took."""

    def __init__(self, choose):
        self.choose = choose
        self.seconds = []

    def __call__(self, view, rng):
        start = time.perf_counter()
        action = self.choose(view, rng)
        self.seconds.append(time.perf_counter() - start)
        return action

    def summary(self, label):
        """Return a printed line with median, p99 and worst decision time in milliseconds."""
        ms = [s * 1000 for s in self.seconds]
        return "%-48s median %.3f ms  p99 %.3f ms  worst %.3f ms  (%d decisions)" % (
            label, median(ms), percentile(ms, 0.99), max(ms), len(ms))

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
    """Wrap a bot's choose function and record each decision's wall time and thread CPU time.

    CPU time is printed too because other load on a shared machine inflates wall time only.
    """

    def __init__(self, choose):
        self.choose = choose
        self.seconds = []
        self.cpu_seconds = []

    def __call__(self, view, rng):
        wall_start = time.perf_counter()
        cpu_start = time.thread_time()
        action = self.choose(view, rng)
        self.cpu_seconds.append(time.thread_time() - cpu_start)
        self.seconds.append(time.perf_counter() - wall_start)
        return action

    def summary(self, label):
        """Return a printed line with median, p99 and worst decision time in milliseconds."""
        ms = [s * 1000 for s in self.seconds]
        return "%-48s median %.3f ms  p99 %.3f ms  worst %.3f ms  (%d decisions)" % (
            label, median(ms), percentile(ms, 0.99), max(ms), len(ms))

    def cpu_summary(self, label):
        """Return the same line for CPU time per decision."""
        ms = [s * 1000 for s in self.cpu_seconds]
        return "%-48s median %.3f ms  p99 %.3f ms  worst %.3f ms  (CPU time)" % (
            label, median(ms), percentile(ms, 0.99), max(ms))


def rotated_points(strategies, games, play_one):
    """Play `games` games rotating the seats; return the win points per entry of `strategies`.

    `play_one(lineup, game_number)` plays one game and returns each seat's share of the win.
    """
    count = len(strategies)
    points = [0.0] * count
    for game in range(games):
        shift = game % count
        lineup = [strategies[(seat + shift) % count] for seat in range(count)]
        shares = play_one(lineup, game)
        for seat in range(count):
            points[(seat + shift) % count] += shares[seat]
    return points

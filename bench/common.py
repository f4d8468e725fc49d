"""What every benchmark shares: its prerequisites checked up front, and the figures it prints
(medians, percentiles, win shares with their margins).

Standard library only, so that a benchmark can check what it needs before importing any of it.
"""

import importlib.util
import math
import os
import shutil
import sys
import time


# -- prerequisites: say what is missing instead of failing halfway ------------------------------------
class Requirement:
    """One thing a benchmark needs: `missing()` returns what to tell the person, or None when it is there."""

    def __init__(self, describe, present):
        self.describe = describe
        self.present = present

    def missing(self):
        return None if self.present() else self.describe


def python_package(module, extra=None):
    """Require an importable Python package that the project (or its `extra`, pyproject) installs."""
    how = "install the project (pip install -e .)" if extra is None else \
        "install the project's %s extra (pip install -e '.[%s]')" % (extra, extra)
    return Requirement("the Python package %s: %s" % (module, how), lambda: importlib.util.find_spec(module) is not None)


def chromium():
    """Require the Chromium the browser benchmarks drive ($CHROMIUM, else /usr/bin/chromium)."""
    path = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if path == "playwright":
        return Requirement("Playwright's Chromium: run python -m playwright install chromium", lambda: True)
    return Requirement("Chromium at %s: install Debian's chromium package or set CHROMIUM=/path/to/chrome" % path,
                       lambda: os.access(path, os.X_OK))


def program(name, hint):
    """Require a program on PATH (`hint` says where to get it)."""
    return Requirement("the program %s: %s" % (name, hint), lambda: shutil.which(name) is not None)


def missing_prerequisites(requirements):
    """Return one line per requirement that is not met."""
    return [line for line in (requirement.missing() for requirement in requirements) if line]


def require(bench, *requirements):
    """Exit with status 2 and one line per missing prerequisite before a benchmark starts anything."""
    lines = missing_prerequisites(requirements)
    if lines:
        print("%s cannot run; missing:\n%s" % (bench, "\n".join("  - " + line for line in lines)), file=sys.stderr)
        raise SystemExit(2)


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


def two_seat_exploit_line(engine, computer, make, games, seed_base, winners):
    """Return a probing player's share of seeded two-seat games of a game where all choose at once.

    `make(state, seat)` returns the prober's choose(view, rng) (it may read the
    whole state to work out the computer); `computer` is the level's choose;
    `winners(state)` the seats sharing the win. Seats alternate, ties split.
    """
    from spieleabend.games.common import Rng

    points = 0.0
    for game in range(games):
        me = game % 2
        state = engine.new_game({"seats": 2}, Rng(seed_base + game))
        players = [None, None]
        players[me] = make(state, me)
        players[1 - me] = computer
        rng = Rng((seed_base + game) * 7919 + 17)
        while engine.outcome(state) is None:
            chosen = [(seat, players[seat](engine.view(state, seat), rng)) for seat in engine.to_move(state)]
            for seat, action in chosen:  # all choose before anything is revealed
                engine.apply_action(state, seat, action)
        top = winners(state)
        points += 1.0 / len(top) if me in top else 0.0
    return points


def paired_gain(won, other):
    """Return the mean gain of one line over another on the same games, in points, with its 95 % margin ("+1.2 ± 0.9")."""
    gain = [a - b for a, b in zip(won, other)]
    mean = sum(gain) / len(gain)
    spread = (sum((g - mean) ** 2 for g in gain) / max(len(gain) - 1, 1)) ** 0.5
    return "%+.1f ± %.1f" % (100 * mean, 196 * spread / len(gain) ** 0.5)

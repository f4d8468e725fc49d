"""The computers' ladder of one game: every pair of levels, one against the rest, random against a table of one level.

Whole games with the engine's default options, seeded, seats rotated, ties
split. Lines at the smallest table put one level against copies of another;
lines at the usual table put one seat against all the others; the copy lines
of the games where all choose at once count how often two computers of one
level play the same card, against two random players at the same kind of
table. Where the issue asks more of Stark (Mau-Mau: 40 % of whole games
against 3 Mittel; Pao De Kuai: 50 % of single deals against 2 Mittel, the
greedy player) the line carries that target; Pao De Kuai gets a line of single
deals for it. Half of each line may run in one extra process (`--jobs 2`).
"""

import multiprocessing

from bench.common import DecisionTimer, format_share, median, percentile
from spieleabend.games import load, load_bots, run_bots
from spieleabend.games.common import Rng

# The usual table of each game (the "usual table sizes").
USUAL_SEATS = {"punktejagd": 4, "kartenkampf": 4, "maumau": 4, "paodekuai": 3, "golf": 4}
# Games where every seat chooses at once: the copy check applies.
SIMULTANEOUS = {"punktejagd": "cards", "kartenkampf": "played"}
# The "stronger Stark" targets beyond 1.2x: Mau-Mau's whole games against 3 Mittel,
# Pao De Kuai's single deals against 2 Mittel (the greedy player).
STARK_TARGETS = {"maumau": 0.40}
SINGLE_DEAL_TARGETS = {"paodekuai": 0.50}


def options_for(name, seats, single_deal=False):
    """Return the default options of a game at a table size (Pao De Kuai has only one size), or one deal only."""
    if name == "paodekuai":
        return {"deals": 1} if single_deal else {}
    return {"seats": seats}


def winners_of(name, state):
    """Return the seats that share the win of a finished game (Kartenkampf's full tie-break applied)."""
    result = load(name).outcome(state)
    if result["winners"]:
        return result["winners"]
    if name == "kartenkampf":
        keys = [[result["scores"][s], result["best_round"][s], result["rounds_won"][s]]
                for s in range(len(result["scores"]))]
        top = max(keys)
        return [s for s in range(len(keys)) if keys[s] == top]
    return list(range(len(result["scores"])))


def play_game(name, players, seed, single_deal=False):
    """Play one whole seeded game (or one deal) with `players[seat]` choosing; return (win share per seat, final state)."""
    engine = load(name)
    state = engine.new_game(options_for(name, len(players), single_deal), Rng(seed))
    run_bots(engine, state, players, Rng(seed * 7919 + 17))
    if single_deal:
        # A single deal is won by going out first (bench.strength_paodekuai counts the same), not by the
        # table total, which a bomb bonus can give to another seat.
        top = [s["seat"] for s in state["log"][-1]["settlements"] if s["kind"] == "out"]
    else:
        top = winners_of(name, state)
    shares = [0.0] * len(players)
    for seat in top:
        shares[seat] = 1.0 / len(top)
    return shares, state


def same_card_pairs(name, state, seats):
    """Return (pairs that played the same card, pairs looked at) among `seats` over a game's rounds."""
    key = SIMULTANEOUS[name]
    same = 0
    pairs = 0
    for entry in state["log"]:
        cards = entry[key]
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                pairs += 1
                if cards[seats[i]] == cards[seats[j]]:
                    same += 1
    return same, pairs


def run_line(name, entries, first, last, seed_base, timers=None, single_deal=False):
    """Play games first..last-1 of a line; return (points per entry, same-card pairs, pairs) for entry 0's copies.

    `entries[seat]` is a level key; the lineup rotates one seat per game.
    """
    strengths = load_bots(name).STRENGTHS
    count = len(entries)
    points = [0.0] * count
    same = 0
    pairs = 0
    for game in range(first, last):
        shift = game % count
        lineup = [entries[(seat + shift) % count] for seat in range(count)]
        players = [timers[key] if timers is not None and key in timers else strengths[key] for key in lineup]
        shares, state = play_game(name, players, seed_base + game, single_deal)
        for seat in range(count):
            points[(seat + shift) % count] += shares[seat]
        if name in SIMULTANEOUS:
            copies = [seat for seat in range(count) if lineup[seat] == entries[-1]]
            if len(copies) > 1:
                found, looked = same_card_pairs(name, state, copies)
                same += found
                pairs += looked
    return points, same, pairs


def run_split(name, entries, games, seed_base, jobs, timers, single_deal=False):
    """Run one line, the second half in one extra process when jobs > 1."""
    if jobs < 2 or games < 20:
        return run_line(name, entries, 0, games, seed_base, timers, single_deal)
    half = games // 2
    with multiprocessing.Pool(1) as pool:
        pending = pool.apply_async(run_line, (name, entries, half, games, seed_base, None, single_deal))
        mine = run_line(name, entries, 0, half, seed_base, timers, single_deal)
        theirs = pending.get()
    points = [a + b for a, b in zip(mine[0], theirs[0])]
    return points, mine[1] + theirs[1], mine[2] + theirs[2]


def ladder_lines(name):
    """Return the ladder's lines as (label, entries, baseline, target share or None, kind)."""
    bots = load_bots(name)
    levels = list(bots.STRENGTHS)
    engine = load(name)
    small = engine.MIN_SEATS
    usual = USUAL_SEATS[name]
    lines = []
    for i in range(len(levels)):
        for j in range(i + 1, len(levels)):
            weak, strong = levels[i], levels[j]
            others = small - 1
            lines.append(("%s vs %d %s (%d seats)" % (strong, others, weak, small),
                          [strong] + [weak] * others, 1.0 / small, "above", "pair"))
    for i in range(len(levels)):
        for j in range(i + 1, len(levels)):
            weak, strong = levels[i], levels[j]
            others = usual - 1
            target = "above"
            if (weak, strong) == (levels[1], levels[2]):
                target = max(1.2 / usual, STARK_TARGETS.get(name, 0.0))
            if usual == small:
                # One table size only (Pao De Kuai): the pair line is this line; it gets both targets.
                if target != "above":
                    lines[[line[0] for line in lines].index(
                        "%s vs %d %s (%d seats)" % (strong, others, weak, small))] = (
                        "%s vs %d %s (%d seats)" % (strong, others, weak, small),
                        [strong] + [weak] * others, 1.0 / small, target, "pair")
                continue
            lines.append(("%s vs %d %s (%d seats)" % (strong, others, weak, usual),
                          [strong] + [weak] * others, 1.0 / usual, target, "rest"))
    for level in levels[1:]:
        others = usual - 1
        lines.append(("%s vs %d %s (%d seats)" % (levels[0], others, level, usual),
                      [levels[0]] + [level] * others, 1.0 / usual, "below", "random"))
    if name in SINGLE_DEAL_TARGETS:
        others = usual - 1
        lines.append(("%s vs %d %s (%d seats, single deals)" % (levels[2], others, levels[1], usual),
                      [levels[2]] + [levels[1]] * others, 1.0 / usual, SINGLE_DEAL_TARGETS[name], "deal"))
    if name in SIMULTANEOUS:
        # Same-card rate of random copies: the yardstick for the copies of every level.
        lines.append(("%s vs %d %s (%d seats)" % (levels[0], usual - 1, levels[0], usual),
                      [levels[0]] * usual, 1.0 / usual, None, "random"))
    return lines


def verdict(share, margin, baseline, target):
    """Return how a share stands: 'above' and 'below' need the 95 % margin clear of the baseline."""
    if target is None:
        return ""
    if target == "above":
        return "  above equal share: %s" % ("met" if share - margin > baseline else "MISSED")
    if target == "below":
        return "  below equal share: %s" % ("met" if share + margin < baseline else "MISSED")
    above = "met" if share - margin > baseline else "MISSED"
    return "  above equal share: %s, target ≥ %.1f %%: %s" % (above, 100 * target, "met" if share >= target else "MISSED")


def main(name, games, jobs=1, seed=1000000):
    """Print the ladder of one game, then each level's decision times (CPU time, this process)."""
    from bench.common import share_with_margin

    bots = load_bots(name)
    timers = {key: DecisionTimer(choose) for key, choose in bots.STRENGTHS.items()}
    print("%s ladder: %d seeded whole games a line, default options, seats rotated, ties split" % (
        load(name).NAME, games))
    for number, (label, entries, baseline, target, kind) in enumerate(ladder_lines(name)):
        points, same, pairs = run_split(name, entries, games, seed + 100003 * number, jobs, timers, kind == "deal")
        share, margin = share_with_margin(points[0], games)
        line = format_share(label, points[0], games, baseline=baseline) + verdict(share, margin, baseline, target)
        if pairs:
            line += "  same card, two %s: %.1f %%" % (entries[-1], 100.0 * same / pairs)
        print(line, flush=True)
    for key, timer in timers.items():
        if timer.cpu_seconds:
            ms = [s * 1000 for s in timer.cpu_seconds]
            print("decision CPU time %-10s median %.3f ms  p99 %.3f ms  worst %.3f ms  (%d decisions)" % (
                key, median(ms), percentile(ms, 0.99), max(ms), len(ms)))

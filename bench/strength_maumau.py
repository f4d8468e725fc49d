"""Strength and speed of the Mau-Mau computer players.

Measure: the share of deals a seat wins, where winning a deal means being the first to
empty its hand. Each line plays seeded deals from a fresh game; the measured seat moves
round the table from deal to deal so that starting first is spread evenly. A deal that
runs past the action bound counts as a tie and is split evenly among the seats.

    python -m bench.strength_maumau [--games N] [--seed S]
"""

import argparse

from bench import ladder

from bench.common import DecisionTimer, format_share
from spieleabend.bots import maumau as bots
from spieleabend.games import maumau
from spieleabend.games.common import Rng

ACTION_BOUND = 20000

# (candidate, opponent, seats, target share or None)
MATCHUPS = [
    ("stark", "leicht", 4, 0.31),
    ("stark", "leicht", 2, 0.60),
    ("mittel", "leicht", 4, None),
    ("mittel", "leicht", 2, None),
    ("stark", "mittel", 4, 0.40),
    ("stark", "mittel", 2, None),
    ("leicht", "leicht", 4, None),
]


def play_deal(players, seed):
    """Play the first deal of a fresh seeded game; return the winning seat, or None past the bound."""
    state = maumau.new_game({"seats": len(players)}, Rng(seed))
    rng = Rng(seed ^ 0x5EED)
    for _ in range(ACTION_BOUND):
        if state["phase"] != "play":
            return state["last_deal"]["winner"]
        seat = state["turn"]
        action = players[seat](maumau.view(state, seat), rng)
        maumau.apply_action(state, seat, action)
    return None


def measure(candidate, opponent, seats, deals, seed, timers):
    """Return the candidate's points over `deals` deals (a won deal 1, a tie split evenly)."""
    points = 0.0
    for index in range(deals):
        seat_of_candidate = index % seats
        players = [timers[opponent]] * seats
        players[seat_of_candidate] = timers[candidate]
        winner = play_deal(players, seed + index)
        if winner is None:
            points += 1.0 / seats
        elif winner == seat_of_candidate:
            points += 1.0
    return points


def main(argv=None):
    """Print one line per matchup and the decision times per strength."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="deals per line (default 2000)")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the ladder (at most 2)")
    parser.add_argument("--ladder-only", action="store_true", help="print the ladder and stop")
    parser.add_argument("--seed", type=int, default=20240601)
    args = parser.parse_args(argv)
    ladder.main('maumau', args.games, args.jobs)
    if args.ladder_only:
        return
    timers = {name: DecisionTimer(choose) for name, choose in bots.STRENGTHS.items()}
    print("Mau-Mau: share of deals won (first to empty the hand), seats rotated")
    for number, (candidate, opponent, seats, target) in enumerate(MATCHUPS):
        points = measure(candidate, opponent, seats, args.games, args.seed + 100003 * number, timers)
        others = seats - 1
        label = "%s vs %d %s (%d seats)" % (candidate, others, opponent, seats)
        print(format_share(label, points, args.games, target=target, baseline=1.0 / seats))
    print("Decision time per strength (CPython):")
    for name, timer in timers.items():
        print(timer.summary("  " + name))


if __name__ == "__main__":
    main()

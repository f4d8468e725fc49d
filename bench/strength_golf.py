"""Strength and speed of the Golf computer players: python -m bench.strength_golf [--games N]."""

import argparse

from bench import ladder

from bench.common import DecisionTimer, format_share, rotated_points
from spieleabend.bots import golf as bots
from spieleabend.games import golf as engine
from spieleabend.games import run_bots
from spieleabend.games.common import Rng

choose_threshold = bots.choose_threshold


def play(lineup, seed, decks=1):
    """Play one seeded game; return the share of the win per seat (shared wins split)."""
    state = engine.new_game({"seats": len(lineup), "decks": decks}, Rng(seed))
    run_bots(engine, state, lineup, Rng(seed * 7919 + 17))
    winners = engine.outcome(state)["winners"]
    shares = [0.0] * len(lineup)
    for seat in winners:
        shares[seat] = 1.0 / len(winners)
    return shares


def match(strategies, games, seed_base, decks=1):
    """Play `games` games with seats rotated; return the win points per entry of `strategies`."""
    return rotated_points(strategies, games, lambda lineup, game: play(lineup, seed_base + game, decks))


def main(argv=None):
    """Run every matchup and print win shares against their targets, then decision times."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per matchup line")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the ladder (at most 2)")
    parser.add_argument("--ladder-only", action="store_true", help="print the ladder and stop")
    args = parser.parse_args(argv)
    ladder.main('golf', args.games, args.jobs)
    if args.ladder_only:
        return
    games = args.games
    strong = DecisionTimer(bots.STRENGTHS["stark"])
    rand = bots.STRENGTHS["leicht"]
    print("Golf strength, %d seeded games per line, seats rotated, ties split" % games)

    points = match([strong, rand, rand, rand], games, 1000000)
    print(format_share("strong vs 3 random", points[0], games, target=0.70, baseline=0.25))
    points = match([strong, rand], games, 2000000)
    print(format_share("strong vs 1 random", points[0], games, target=0.90, baseline=0.5))
    points = match([strong, choose_threshold, choose_threshold, choose_threshold], games, 3000000)
    print(format_share("strong vs 3 threshold(8)", points[0], games, target=0.29, baseline=0.25))
    points = match([strong, choose_threshold], games, 4000000)
    print(format_share("strong vs 1 threshold(8) (no target)", points[0], games, baseline=0.5))
    # The largest table with two decks: the slowest case for card counting.
    match([strong] * 4 + [choose_threshold] * 4, max(games // 10, 50), 5000000, decks=2)
    print(strong.summary("decision time strong (tables above + 8 seats)"))
    print(strong.cpu_summary("decision CPU time strong (same decisions)"))


if __name__ == "__main__":
    main()

"""Strength and speed of the Kartenkampf computer players: python -m bench.strength_kartenkampf [--games N]."""

import argparse

from bench import ladder

from bench.common import DecisionTimer, format_share, rotated_points
from spieleabend.bots import kartenkampf as bots
from spieleabend.games import kartenkampf as engine
from spieleabend.games import run_bots
from spieleabend.games.common import Rng


def choose_highest(view, rng):
    """Always play the highest card left."""
    return max(view["legal"], key=lambda action: int(action.split()[1]))


def choose_lowest(view, rng):
    """Always play the lowest card left."""
    return min(view["legal"], key=lambda action: int(action.split()[1]))


def leaders(result):
    """Return the seats that share first place (all tie-breakers applied)."""
    if result["winners"]:
        return result["winners"]
    keys = [[result["scores"][s], result["best_round"][s], result["rounds_won"][s]]
            for s in range(len(result["scores"]))]
    top = max(keys)
    return [s for s in range(len(keys)) if keys[s] == top]


def play(lineup, seed):
    """Play one seeded game with `lineup[seat]` choosing; return the share of the win per seat."""
    state = engine.new_game({"seats": len(lineup)}, Rng(seed))
    run_bots(engine, state, lineup, Rng(seed * 7919 + 17))
    top = leaders(engine.outcome(state))
    shares = [0.0] * len(lineup)
    for seat in top:
        shares[seat] = 1.0 / len(top)
    return shares


def match(names, strategies, games, seed_base):
    """Play `games` games with seats rotated; return the win points per entry of `names`."""
    return rotated_points(strategies, games, lambda lineup, game: play(lineup, seed_base + game))


def main(argv=None):
    """Run every matchup and print win shares against their targets, then decision times."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per matchup line")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the ladder (at most 2)")
    parser.add_argument("--ladder-only", action="store_true", help="print the ladder and stop")
    args = parser.parse_args(argv)
    ladder.main('kartenkampf', args.games, args.jobs)
    if args.ladder_only:
        return
    games = args.games
    strong = DecisionTimer(bots.STRENGTHS["stark"])
    print("Kartenkampf strength, %d seeded games per line, seats rotated, ties split" % games)

    points = match(["strong", "random"], [strong, bots.STRENGTHS["leicht"]], games, 1000000)
    print(format_share("strong vs 1 random", points[0], games, target=0.60, baseline=0.5))

    points = match(["highest", "lowest", "random", "strong"],
                   [choose_highest, choose_lowest, bots.STRENGTHS["leicht"], strong],
                   games, 2000000)
    for name, value in zip(["always highest", "always lowest", "random", "strong"], points):
        print(format_share("4 seats: %s" % name, value, games, baseline=0.25))
    best = max(range(4), key=lambda i: points[i])
    print("4 seats: strong wins the most: %s" % ("met" if best == 3 else "MISSED"))

    # Full tables are the slowest case for the strong player's sampling.
    match(["strong"] * 8, [strong] * 8, max(games // 10, 50), 3000000)
    print(strong.summary("decision time strong (tables above + 8 seats)"))
    print(strong.cpu_summary("decision CPU time strong (same decisions)"))


if __name__ == "__main__":
    main()

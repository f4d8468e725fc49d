"""Strength and speed of the Kartenkampf computer players: python -m bench.strength_kartenkampf [--games N]."""

import argparse

from bench import ladder

from bench.common import DecisionTimer, format_share, rotated_points, two_seat_exploit_line
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


def one_above(predict):
    """Return a player for two seats that plays the lowest card above its guess of the other seat's card
    (else its lowest): `predict(state, other, rng)` guesses. At two seats everything in the other seat's
    view but its random numbers is public (both hands start as 1 to 10 and every played card is shown),
    so a person with patience, or a script, can work out what a computer would play."""
    def make(state, me):
        def choose(view, rng):
            guess = predict(state, 1 - me, rng)
            mine = sorted(int(action.split()[1]) for action in view["legal"])
            above = [card for card in mine if card > guess]
            return "play %d" % (above[0] if above else mine[0])
        return choose
    return make


def predicted_by_level(level, samples=9):
    """Guess the other seat's card as the most frequent choice of `level` from that seat's view."""
    def predict(state, other, rng):
        view = engine.view(state, other)
        counts = {}
        for _ in range(samples):
            card = int(bots.STRENGTHS[level](view, Rng(rng.next32())).split()[1])
            counts[card] = counts.get(card, 0) + 1
        return max(sorted(counts), key=lambda card: counts[card])
    return predict


def solved_reply(level, samples=16):
    """Return a player for two seats that samples `level`'s choice from the other seat's view and plays the
    card that does best against those samples, each card valued by the exactly solved game (the round's
    points plus the value of the position after it): what a patient person who learned the computer's
    habits could reach at best, round by round."""
    from bench.kartenkampf_duel import exact_values, without

    values = {}

    def make(state, me):
        if not values:
            values["of"] = exact_values()[1]
        value = values["of"]

        def choose(view, rng):
            other = 1 - me
            other_view = engine.view(state, other)
            counts = {}
            for _ in range(samples):
                card = int(bots.STRENGTHS[level](other_view, Rng(rng.next32())).split()[1])
                counts[card] = counts.get(card, 0) + 1
            mine = sum(1 << (card - 1) for card in view["hand"])
            theirs = sum(1 << (card - 1) for card in other_view["hand"])
            rounds_left = engine.ROUNDS - len(view["log"])
            best = None
            for action in view["legal"]:
                b = int(action.split()[1])
                worth = 0.0
                for a, count in counts.items():
                    if a == b:
                        after = value(mine, theirs, rounds_left - 1)
                    else:
                        after = value(without(mine, b), without(theirs, a), rounds_left - 1)
                        after += (a + b) if b > a else -(a + b)
                    worth += count * after
                if best is None or worth > best[0]:
                    best = (worth, action)
            return best[1]
        return choose
    return make


def guessed_at_random(state, other, rng):
    """Guess the other seat's card as any card it still holds."""
    return int(rng.choice(engine.legal_actions(state, other)).split()[1])


def exploit_line(level, make, games, seed_base):
    """Return the probing player's share of two-seat games against `level` (seats alternate)."""
    return two_seat_exploit_line(engine, bots.STRENGTHS[level], make, games, seed_base,
                                 lambda state: leaders(engine.outcome(state)))


def match(names, strategies, games, seed_base):
    """Play `games` games with seats rotated; return the win points per entry of `names`."""
    return rotated_points(strategies, games, lambda lineup, game: play(lineup, seed_base + game))


def main(argv=None):
    """Run every matchup and print win shares against their targets, then decision times."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="games per matchup line")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the ladder (at most 2)")
    parser.add_argument("--ladder-only", action="store_true", help="print the ladder and stop")
    parser.add_argument("--exploit", action="store_true",
                        help="only how players who work out the computer's card fare at two seats")
    parser.add_argument("--levels", nargs="*", help="with --exploit: only these levels")
    args = parser.parse_args(argv)
    if args.exploit:
        games = min(args.games, 1000)
        print("Kartenkampf, two seats, %d games a line: players who work out the computer's card" % games)
        for level in args.levels or ("leicht", "mittel", "stark"):
            for name, make in (("one above its likeliest card", one_above(predicted_by_level(level))),
                               ("one above any card it holds", one_above(guessed_at_random)),
                               ("best reply, solved game", solved_reply(level))):
                points = exploit_line(level, make, games, 6000000)
                print(format_share("%s vs %s" % (name, level), points, games, baseline=0.5), flush=True)
        return
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

"""Strength and speed of the Mau-Mau computer players.

Measure: the share of deals a seat wins, where winning a deal means being the first to
empty its hand. Each line plays seeded deals from a fresh game; the measured seat moves
round the table from deal to deal so that starting first is spread evenly. A deal that
runs past the action bound counts as a tie and is split evenly among the seats.

    python -m bench.strength_maumau [--games N] [--seed S] [--phases] [--rollouts K [--from-size N]]

`--phases` takes Stark's whole games against 3 Mittel apart: how often it is the first
seat out, how often it reaches the last two and how often it wins from there, by its
standing (its minus points less the other's) when the last two are left.

`--rollouts K` measures what a search would add (not a level the app offers): Stark against 3
Mittel in whole games, paired with plain Stark on the same seeds, where Stark's seat weighs each of
its plays by K playouts of the rest of the deal (the unseen cards dealt anew at random, every
seat playing on by its own level's rule), once an opponent holds `--from-size` cards or fewer.
"""

import argparse
import time

from bench import ladder

from bench.common import DecisionTimer, format_share, paired_gain
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
    if not play_to_deal_end(state, players, Rng(seed ^ 0x5EED)):
        return None
    return state["last_deal"]["winner"]


def play_to_deal_end(state, players, rng):
    """Play the running deal on; return False if it runs past the action bound."""
    for _ in range(ACTION_BOUND):
        if state["phase"] != "play":
            return True
        seat = state["turn"]
        maumau.apply_action(state, seat, players[seat](maumau.view(state, seat), rng))
    return False


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


def final_two(seats, candidate, opponent, seed):
    """Play one whole seeded game; return (among the first out, reached the last two, difference there or None, won).

    Two seats can go out in one deal: from three seats the game may end at once, and then
    "reached the last two" means the candidate outlived the others without a difference to tell.
    """
    me = seed % seats
    players = [opponent] * seats
    players[me] = candidate
    state = maumau.new_game({"seats": seats}, Rng(seed))
    rng = Rng(seed * 7919 + 17)
    difference = None
    first_out = None
    reached = False
    while True:
        if state["phase"] == "between":
            left = maumau.active_seats(state)
            if first_out is None and len(left) < seats:
                first_out = me not in left
            if len(left) == 2 and difference is None and me in left:
                other = left[0] if left[1] == me else left[1]
                difference = state["minus"][me] - state["minus"][other]
            if len(left) <= 2 and me in left:
                reached = True
            if maumau.outcome(state) is not None:
                break
            maumau.start_next_deal(state)
            continue
        seat = state["turn"]
        maumau.apply_action(state, seat, players[seat](maumau.view(state, seat), rng))
    return bool(first_out), reached, difference, me in maumau.outcome(state)["winners"]


def phases(games, seed, seats=4):
    """Print where Stark's whole-game share against Mittel comes from: out first, the last two, by standing there."""
    first = 0
    finals = 0
    final_wins = 0
    wins = 0
    by_standing = {}
    for game in range(games):
        first_out, reached, difference, won = final_two(seats, bots.choose_strong, bots.choose_medium, seed + game)
        first += first_out
        wins += won
        finals += reached
        final_wins += reached and won
        if difference is not None:
            bucket = max(-60, min(60, (difference // 20) * 20))
            tally = by_standing.setdefault(bucket, [0, 0])
            tally[0] += 1
            tally[1] += won
    print("Mau-Mau: stark vs %d mittel, %d whole games from seed %d, phase by phase" % (seats - 1, games, seed))
    print("  wins the game %.1f %%, among the first seats out %.1f %%, reaches the last two (or wins outright from three) %.1f %%, "
          "wins %.1f %% of those" % (
        100.0 * wins / games, 100.0 * first / games, 100.0 * finals / games, 100.0 * final_wins / max(finals, 1)))
    for bucket in sorted(by_standing):
        count, won = by_standing[bucket]
        print("  last two, its minus points less the other's %+4d%s: %4d games, wins %.1f %%" % (
            bucket, " or less" if bucket == -60 else (" or more" if bucket == 60 else " to %+d" % (bucket + 19)),
            count, 100.0 * won / count))


def unseen_dealt_anew(state, me, rng):
    """Return a copy of the state for `me` to play on: the cards it cannot see (other hands, stock) dealt anew."""
    copy = _fresh(state)
    hands = copy["hands"]
    unseen = copy["stock"]
    for seat, hand in enumerate(hands):
        if seat != me:
            unseen.extend(hand)
    rng.shuffle(unseen)
    for seat, hand in enumerate(hands):
        if seat != me:
            hands[seat] = [unseen.pop() for _ in hand]
    # The playouts' own reshuffles (the documented figures were drawn with these words).
    copy["rng"] = [rng.next32() | 1, rng.next32(), rng.next32(), rng.next32()]
    return copy


def playout_worth(state, me, action, players, rng, others_weight=1.0):
    """Play `action` and the rest of the deal; return the others' mean minus points gained (times
    `others_weight`) less this seat's."""
    before = list(state["minus"])
    maumau.apply_action(state, me, action)
    play_to_deal_end(state, players, rng)
    others = [seat for seat in range(len(before)) if seat != me and not (state["out"][seat] and before[seat] > state["limit"])]
    gained = [state["minus"][seat] - before[seat] for seat in range(len(before))]
    return others_weight * sum(gained[seat] for seat in others) / max(len(others), 1) - gained[me]


def choose_by_playouts(state, me, players, rollouts, from_size, rng, spent, others_weight=1.0, draw_by_choice=False):
    """Return Stark's choice, or the play with the best mean playout worth once an opponent is close to out."""
    view = maumau.view(state, me)
    plain = bots.choose_strong(view, rng)
    legal = view["legal"]
    options = [action for action in legal if action + " mau" not in legal and (action != "draw" or draw_by_choice)]  # always say Mau
    sizes = view["hand_sizes"]
    closest = min(sizes[seat] for seat in range(len(sizes)) if seat != me and not view["out"][seat])
    if len(options) < 2 or closest > from_size or view["pending"]:
        return plain
    started = time.process_time()
    best = best_worth = None
    guesses = [unseen_dealt_anew(state, me, rng) for _ in range(rollouts)]
    for action in options:
        total = 0.0
        for guess in guesses:
            total += playout_worth(_fresh(guess), me, action, players, rng, others_weight)
        if best_worth is None or total > best_worth:
            best, best_worth = action, total
    spent.append(time.process_time() - started)
    return best


def _fresh(guess):
    """Return a copy of a state whose lists a playout may change."""
    copy = dict(guess)
    copy["hands"] = [list(hand) for hand in guess["hands"]]
    for key in ("stock", "discard", "minus", "out", "log"):
        copy[key] = list(guess[key])
    copy["rng"] = list(guess["rng"])
    return copy


def rollouts_line(games, seed, rollouts, from_size, others_weight=1.0, draw_by_choice=False, seats=4):
    """Print Stark's whole-game share against 3 Mittel with and without the playouts, paired on the same seeds."""
    shares = []
    spent = []
    for game in range(games):
        me = game % seats
        results = []
        for searching in (False, True):
            players = [bots.choose_medium] * seats
            players[me] = bots.choose_strong
            state = maumau.new_game({"seats": seats}, Rng(seed + game))
            rng = Rng((seed + game) * 7919 + 17)
            while maumau.outcome(state) is None:
                if state["phase"] == "between":
                    maumau.start_next_deal(state)
                    continue
                seat = state["turn"]
                if searching and seat == me:
                    action = choose_by_playouts(state, me, players, rollouts, from_size, rng, spent, others_weight,
                                                draw_by_choice)
                else:
                    action = players[seat](maumau.view(state, seat), rng)
                maumau.apply_action(state, seat, action)
            winners = maumau.outcome(state)["winners"]
            results.append(1.0 / len(winners) if me in winners else 0.0)
        shares.append(results)
    base = sum(pair[0] for pair in shares) / games
    searched = sum(pair[1] for pair in shares) / games
    spent.sort()
    print("Mau-Mau: stark vs %d mittel, %d whole games from seed %d; %d playouts an option once an opponent holds %d or fewer,"
          " the others' points weighted %g, %s" % (seats - 1, games, seed, rollouts, from_size, others_weight,
                                                  "drawing by choice" if draw_by_choice else "drawing only when nothing fits"))
    print("  as it is %.1f %%, with playouts %.1f %% (%s points paired)" % (
        100 * base, 100 * searched, paired_gain([pair[1] for pair in shares], [pair[0] for pair in shares])))
    if spent:
        print("  CPU per searched decision: median %.1f ms, p99 %.1f ms, %d decisions" % (
            1000 * spent[len(spent) // 2], 1000 * spent[min(len(spent) - 1, int(len(spent) * 0.99))], len(spent)))


def main(argv=None):
    """Print one line per matchup and the decision times per strength."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="deals per line (default 2000)")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the ladder (at most 2)")
    parser.add_argument("--ladder-only", action="store_true", help="print the ladder and stop")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--phases", action="store_true", help="take Stark's whole games against 3 Mittel apart and stop")
    parser.add_argument("--rollouts", type=int, default=0, help="measure K playouts an option (see above) and stop")
    parser.add_argument("--from-size", type=int, default=2, help="with --rollouts: search once an opponent holds this many cards or fewer")
    parser.add_argument("--others-weight", type=float, default=1.0,
                        help="with --rollouts: what the others' minus points count against the seat's own")
    parser.add_argument("--draw-by-choice", action="store_true",
                        help="with --rollouts: weigh drawing too when a card fits (Stark never does)")
    args = parser.parse_args(argv)
    if args.rollouts:
        rollouts_line(args.games, args.seed, args.rollouts, args.from_size, args.others_weight, args.draw_by_choice)
        return
    if args.phases:
        phases(args.games, args.seed)
        return
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

"""Strength and speed of the Punktejagd computer players.

Run: python -m bench.strength_punktejagd [--games N] [--workers W] [--exploit]

`--exploit` measures the two-seat game against a player who predicts the
computer: it samples the computer's choice from its view and plays the best
reply in the round; a control line samples a random player's choices instead.

Every line plays N seeded games (default 2,000) with the seats rotated, so the
measured player sits in every seat equally often; shared wins count as a
fraction. Besides the targets against "random" it runs an exploit probe: a
plain Monte Carlo player (for each legal action, 20 random playouts of the rest
of the game with the opponents' remaining cards dealt at random; best mean
result wins) against three "vorausschauend" copies. It also prints how often
three copies at one table play the same card in a round, against the same
figure for three random players, and the decision times per strength.
"""

import argparse
import copy

from bench import ladder
import random
from concurrent.futures import ProcessPoolExecutor

from bench.common import DecisionTimer, format_share, median, percentile, two_seat_exploit_line
from spieleabend.bots import punktejagd as bots
from spieleabend.games import punktejagd as engine
from spieleabend.games import resolve_strength
from spieleabend.games.common import Rng

ROUND_MIX_COUNTS = {"normal": 7, "kopfstand": 2, "gold": 1}
MC_PLAYOUTS = 20
# A pool of random orders per hand size lets a playout deal a hand in one list comprehension.
PERMUTATION_POOL = 2048


class MonteCarloPlayer:
    """Plain Monte Carlo: score each legal action by random playouts of the rest of the game.

    It sees only its view: the opponents' remaining cards come from the public
    list of played cards and are dealt in random order; every seat, itself
    included, plays the rest of its hand at random and without the chip.
    The result of a playout is its share of the win (1, 1/k for a k-way tie, 0).
    """

    def __init__(self, playouts=MC_PLAYOUTS):
        self.playouts = playouts
        self.pools = {}

    def _orders(self, size, rand):
        """Return the pool of random index orders for hands of this size."""
        pool = self.pools.get(size)
        if pool is None:
            pool = []
            for _ in range(PERMUTATION_POOL):
                order = list(range(size))
                rand.shuffle(order)
                pool.append(order)
            self.pools[size] = pool
        return pool

    def __call__(self, view, rng):
        legal = view["legal"]
        if len(legal) == 1:
            return legal[0]
        rand = random.Random(rng.next32())
        me = view["seat"]
        seats = view["seats"]
        hands = []
        for seat in range(seats):
            used = view["played"][seat]
            hands.append([card for card in range(1, 11) if card not in used])
        hands[me] = list(view["hand"])
        left = dict(ROUND_MIX_COUNTS)
        for entry in view["log"]:
            left[entry["type"]] -= 1
        left[view["round_type"]] -= 1
        upcoming = view["next_round_type"]
        if upcoming is not None:
            left[upcoming] -= 1
        later = []
        for round_type, count in left.items():
            later += [round_type] * count
        future_size = len(hands[me]) - 1
        orders = self._orders(future_size, rand) if future_size > 1 else None
        best_actions = []
        best_value = None
        for action in legal:
            words = action.split(" ")
            card = int(words[1])
            risk = len(words) == 3
            value = 0.0
            for _ in range(self.playouts):
                value += self._playout(view, hands, me, card, risk, upcoming, later, orders, rand)
            if best_value is None or value > best_value:
                best_value = value
                best_actions = [action]
            elif value == best_value:
                best_actions.append(action)
        return best_actions[rand.randrange(len(best_actions))]

    def _playout(self, view, hands, me, card, risk, upcoming, later, orders, rand):
        """Play the rest of the game at random after this action; return this seat's share of the win."""
        seats = len(hands)
        totals = list(view["totals"])
        cards = []
        rests = []
        for seat in range(seats):
            hand = hands[seat]
            played = card if seat == me else hand[int(rand.random() * len(hand))]
            cards.append(played)
            rests.append([other for other in hand if other != played])
        _add_points(totals, cards, view["round_type"], me if risk else -1)
        if upcoming is not None:
            types = list(later)
            rand.shuffle(types)
            types.insert(0, upcoming)
            if orders is None:
                dealt = rests
            else:
                dealt = []
                for rest in rests:
                    order = orders[int(rand.random() * PERMUTATION_POOL)]
                    dealt.append([rest[i] for i in order])
            for index, round_type in enumerate(types):
                _add_points(totals, [hand[index] for hand in dealt], round_type, -1)
        top = max(totals)
        if totals[me] != top:
            return 0.0
        return 1.0 / totals.count(top)


def _add_points(totals, cards, round_type, risk_seat):
    """Add one round's points to the totals (fast inline scoring; risk only for risk_seat)."""
    best_points, second_points, base_points = engine.POINTS[round_type]
    counts = [0] * 11
    for card in cards:
        counts[card] += 1
    best = second = 0
    order = range(1, 11) if round_type == "kopfstand" else range(10, 0, -1)
    for value in order:
        if counts[value] == 1:
            if best == 0:
                best = value
            else:
                second = value
                break
    for seat in range(len(cards)):
        card = cards[seat]
        if seat == risk_seat:
            totals[seat] += best_points + engine.RISK_BONUS if card == best else 0
        elif card == best:
            totals[seat] += best_points
        elif card == second:
            totals[seat] += second_points
        else:
            totals[seat] += base_points


def make_player(name):
    """Return a fresh player function for a strength name (or "montecarlo")."""
    if name == "montecarlo":
        return MonteCarloPlayer()
    return bots.STRENGTHS[resolve_strength(bots, name)]


def play_game(players, seed):
    """Play one seeded game with these player functions; return the final state."""
    state = engine.new_game({"seats": len(players)}, Rng(seed))
    bot_rng = Rng(seed * 2 + 1)
    while engine.outcome(state) is None:
        for seat in engine.to_move(state):
            action = players[seat](engine.view(state, seat), bot_rng)
            engine.apply_action(state, seat, action)
    return state


def reply_to(model, samples=16):
    """Return a maker of a two-seat player that samples `model`'s choice from the other seat's view (public at
    two seats but for the round order) and plays what scores best against those samples in this round."""
    def make(state, me):
        def choose(view, rng):
            other = 1 - me
            other_view = engine.view(state, other)
            guesses = [bots.STRENGTHS[model](other_view, Rng(rng.next32())) for _ in range(samples)]
            best = None
            for action in view["legal"]:
                margin = 0
                for guess in guesses:
                    trial = copy.deepcopy(state)
                    engine.apply_action(trial, me, action)
                    engine.apply_action(trial, other, guess)
                    totals = engine.view(trial, me)["totals"]
                    margin += totals[me] - totals[other]
                if best is None or margin > best[0]:
                    best = (margin, action)
            return best[1]
        return choose
    return make


def exploit_line(level, make, games, seed_base=6_000_000):
    """Return the replying player's share of two-seat games against `level` (seats alternate, ties split)."""
    return two_seat_exploit_line(engine, bots.STRENGTHS[level], make, games, seed_base,
                                 lambda state: engine.outcome(state)["winners"] or [0, 1])


def run_chunk(job):
    """Play games first..last-1 of one line; return the hero's points, collision counts and timings."""
    hero, opponent, seats, first, last, seed_base, copies = job
    timers = {}

    def timed(name):
        if name not in timers:
            timers[name] = DecisionTimer(make_player(name))
        return timers[name]

    points = 0.0
    rounds = 0
    collisions = 0
    hero_player = timed(hero)
    opponent_player = timed(opponent)
    for game in range(first, last):
        hero_seat = game % seats
        players = [opponent_player] * seats
        if copies:
            # Collision runs: the first `copies` seats (rotated) are hero copies.
            for k in range(copies):
                players[(hero_seat + k) % seats] = hero_player
        else:
            players[hero_seat] = hero_player
        state = play_game(players, seed_base + game)
        result = engine.outcome(state)
        if hero_seat in result["winners"]:
            points += 1.0 / len(result["winners"])
        if copies:
            group = [(hero_seat + k) % seats for k in range(copies)]
            for entry in state["log"]:
                played = [entry["cards"][seat] for seat in group]
                rounds += 1
                if len(set(played)) < len(played):
                    collisions += 1
    seconds = {name: (timer.seconds, timer.cpu_seconds) for name, timer in timers.items()}
    return points, rounds, collisions, seconds


def run_line(pool, hero, opponent, seats, games, seed_base, copies=0, chunk=50):
    """Run one line in parallel chunks; return (points, rounds, collisions, timings per strength)."""
    jobs = [(hero, opponent, seats, first, min(games, first + chunk), seed_base, copies)
            for first in range(0, games, chunk)]
    points = 0.0
    rounds = 0
    collisions = 0
    seconds = {}
    for part_points, part_rounds, part_collisions, part_seconds in pool.map(run_chunk, jobs):
        points += part_points
        rounds += part_rounds
        collisions += part_collisions
        for name, (wall, cpu) in part_seconds.items():
            both = seconds.setdefault(name, ([], []))
            both[0].extend(wall)
            both[1].extend(cpu)
    return points, rounds, collisions, seconds


def timing_line(label, values):
    """Return a printed line with median, p99 and worst of a list of seconds."""
    ms = [value * 1000 for value in values]
    return "%-48s median %.3f ms  p99 %.3f ms  worst %.3f ms  (%d decisions)" % (
        label, median(ms), percentile(ms, 0.99), max(ms), len(ms))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per line (default 2000)")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the ladder (at most 2)")
    parser.add_argument("--ladder-only", action="store_true", help="print the ladder and stop")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--exploit", action="store_true",
                        help="only how a player who predicts the computer's choice fares at two seats")
    args = parser.parse_args()
    if args.exploit:
        games = min(args.games, 1000)
        print("Punktejagd, two seats, %d games a line: the best reply in the round to 16 samples of a model" % games)
        for level in ("leicht", "mittel", "stark"):
            for model in sorted({level, "leicht"}):
                label = "reply to %s's own choices vs %s" % (model, level) if model == level else \
                    "reply to %s's choices (control) vs %s" % (model, level)
                print(format_share(label, exploit_line(level, reply_to(model), games), games, baseline=0.5),
                      flush=True)
        return
    ladder.main('punktejagd', args.games, args.jobs)
    if args.ladder_only:
        return
    games = args.games
    all_seconds = {}

    def collect(seconds):
        for name, (wall, cpu) in seconds.items():
            both = all_seconds.setdefault(name, ([], []))
            both[0].extend(wall)
            both[1].extend(cpu)

    print("Punktejagd strength, %d games per line, seats rotated, ties split" % games)
    with ProcessPoolExecutor(args.workers) as pool:
        lines = [
            ("vorausschauend vs 3 random", "vorausschauend", "random", 4, 0.65, 1_000_000),
            ("vorausschauend vs 1 random", "vorausschauend", "random", 2, 0.90, 2_000_000),
            ("vorausschauend vs 5 random", "vorausschauend", "random", 6, 0.45, 3_000_000),
            ("random vs 3 random (control)", "random", "random", 4, None, 4_000_000),
        ]
        for label, hero, opponent, seats, target, seed_base in lines:
            points, _, _, seconds = run_line(pool, hero, opponent, seats, games, seed_base)
            collect(seconds)
            print(format_share(label, points, games, target=target, baseline=1.0 / seats), flush=True)
        points, _, _, seconds = run_line(pool, "montecarlo", "random", 4, games, 5_000_000)
        print(format_share("montecarlo vs 3 random (probe's own strength)", points, games,
                           baseline=0.25), flush=True)
        mc_seconds = seconds["montecarlo"]
        points, _, _, seconds = run_line(pool, "montecarlo", "vorausschauend", 4, games, 6_000_000)
        collect({"vorausschauend": seconds["vorausschauend"]})
        share = points / games
        print(format_share("exploit probe: montecarlo vs 3 vorausschauend", points, games, baseline=0.25)
              + "  limit ≤ 40 %%: %s" % ("met" if share <= 0.40 else "MISSED"), flush=True)
        for hero in ("vorausschauend", "random"):
            _, rounds, collisions, _ = run_line(pool, hero, "random", 4, games, 7_000_000, copies=3)
            print("%-48s %6.1f %% of %d rounds" % (
                "collisions among 3 %s copies (+1 random)" % hero, 100.0 * collisions / rounds, rounds), flush=True)
    for name in ("random", "vorausschauend"):
        wall, cpu = all_seconds[name]
        print(timing_line("decision time %s (wall clock)" % name, wall))
        print(timing_line("decision time %s (CPU time)" % name, cpu))
    print(timing_line("decision time montecarlo (CPU time)", mc_seconds[1]))


if __name__ == "__main__":
    main()

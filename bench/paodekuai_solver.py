"""What exact search and reading the opponents are worth to Pao De Kuai's Stark: python -m bench.paodekuai_solver MODE ...

Every earlier attempt at Stark's 50 % (bench.paodekuai_distill, bench.paodekuai_value,
bench.paodekuai_real, `bench.strength_paodekuai --oracle/--posterior/--reading`) kept its own later
moves to the greedy rule's plan inside the playouts. This bench searches them instead. Against
opponents who move by a fixed rule, a guessed deal is a one-player puzzle: at each of Stark's turns
every play it may make is tried, the opponents answer as greedy_choose would with the guessed hands
(`greedy_reply`, the same choice on rank counts), and the search says whether some line takes Stark out
first. Transpositions are kept; a search that passes NODES positions is given up (that guess is
dropped). With INNER > 0 Stark's later turns try only its INNER plays that leave the fewest plays.

Modes (PYTHONPATH=web/py:. python -m bench.paodekuai_solver ...), each printing the shares of single deals
against 2 greedy players (Stark's seat = deal mod 3, seeds from `--seed`, 2,000,000 by default) paired
with the bot on the same deals, and the CPU ms per decision with a choice (median / p99 / worst):

`--cheat T [T ...]`: Stark TOLD the opponents' true hands once one of them holds T cards or fewer, and
searching its own moves exactly (NODES 20,000): the ceiling of any search from that phase on. It plays the
first option, by fewest plays left, after which some line wins; where none does, the bot decides.

`--search SPEC [SPEC ...]`, SPEC = T,GUESSES,TRIES,DEPTH,SWAPS,NODES,INNER[,ROOT]: once an opponent holds T
cards or fewer, GUESSES guessed deals, each drawn again (or with SWAPS changed by trading cards) up to
TRIES times until both opponents' last DEPTH decisions fit it (the greedy rule replayed on rank counts,
bench.strength_paodekuai.fits_history), are searched for every option (ROOT > 0: only the first ROOT by
fewest plays left); the option that wins on the most guesses is played (the bot decides when none wins).

`--teach FILE [--deals N] [--seed S] [--below T]` writes, for each of the bot's decisions with a choice once
an opponent holds T (10) cards or fewer, the bot's network inputs of its 3 shortlisted options and, per
option, whether it won each of 10 guesses under `--search T,10,200,6,2,20000,3` (seeds from 60,000,000):
the line format of bench.paodekuai_real, so that `bench.paodekuai_real --train FILE ...` fits a network
to it.

Figures (2026-12-05, docs/benchmarks.md; 1,000 deals each): told the hands from 8 cards +8.2 points, from
12 +20.6; `--search 8,10,200,6,2,2000,2` +5.4 ± 1.7 (seeds 2 M, 54.2 %) and +5.9 ± 1.7 (5 M, 51.7 %), at a
p99 of 46 to 47 ms and a worst of 86 to 92 ms of CPython per decision, 60 to 100 times what the phone's
budget allows (about 1 ms); the same with random guesses (only what passes show) +0.7 ± 1.5; a network
fitted to the search's results (57,624 decisions, --teach) chooses no better than the bot (held out,
−0.19 ± 0.20 points of the search's win rate; played, −0.4 and −0.8 ± 1.1).
"""

import argparse
import json
import time

from bench.paodekuai_distill import prepare, print_paired
from bench.paodekuai_real import decision_inputs
from bench.strength_paodekuai import (decision_history, fits_history, lead_candidates, play_stark_deal, rank_after,
                                      swap_cards)
from spieleabend.bots import paodekuai as bots
from spieleabend.games.common import Rng


class OutOfNodes(Exception):
    """The search passed its node limit."""


def greedy_reply(counts, key, top, memo):
    """Return the play greedy_choose makes from a hand of rank counts (None: it must pass)."""
    candidates = lead_candidates(counts) if top is None else bots.answers(counts, top)
    if len(candidates) < 2:
        return candidates[0] if candidates else None
    best = None
    best_rank = 0
    for play in candidates:  # the engine's order: the first of the lowest rank, as greedy_choose takes it
        rank = rank_after(counts, key, play, memo)
        if best is None or rank < best_rank:
            best = play
            best_rank = rank
    return best


def fewest_first(counts, key, plays, keep, memo):
    """Return the `keep` plays that leave the fewest plays (lowest top first on ties)."""
    ranked = sorted((rank_after(counts, key, play, memo), index) for index, play in enumerate(plays))
    return [plays[index] for _, index in ranked[:keep]]


class Search:
    """One guessed deal: can Stark (`me`) force going out first against the greedy rule?"""

    def __init__(self, hands, me, node_limit, inner):
        self.hands = hands
        self.keys = [bots.key_of(hand) for hand in hands]
        self.sizes = [sum(hand) for hand in hands]
        self.me = me
        self.nodes_left = node_limit
        self.inner = inner
        self.memo = {}
        self.known = {}

    def wins(self, turn, top, top_seat, passes):
        """Return whether Stark can force going out first from this position."""
        entry = (self.keys[0], self.keys[1], self.keys[2], turn, top_seat, passes,
                 None if top is None else (top[0], top[1], top[2], top[3], top[4]))
        if entry in self.known:
            return self.known[entry]
        self.nodes_left -= 1
        if self.nodes_left < 0:
            raise OutOfNodes()
        counts = self.hands[turn]
        if turn == self.me:
            plays = lead_candidates(counts) if top is None else bots.answers(counts, top)
            if self.inner and len(plays) > self.inner:
                plays = fewest_first(counts, self.keys[turn], plays, self.inner, self.memo)
        else:
            reply = greedy_reply(counts, self.keys[turn], top, self.memo)
            plays = [] if reply is None else [reply]
        if not plays:  # no answer: a pass (a leader always has a play)
            if passes == 1:
                result = self.wins(top_seat, None, top_seat, 0)
            else:
                result = self.wins(bots.NEXT_SEAT[turn], top, top_seat, passes + 1)
        else:
            result = turn != self.me
            for play in plays:
                if self.play(turn, play) == (turn == self.me):
                    result = turn == self.me
                    break
        self.known[entry] = result
        return result

    def play(self, seat, play):
        """Return whether Stark wins after `seat` makes `play`."""
        cards = (play[2] - play[1] + 1) * play[3]
        if cards >= self.sizes[seat]:
            return seat == self.me
        counts = self.hands[seat]
        key = self.keys[seat]
        for value in range(play[1], play[2] + 1):
            counts[value] -= play[3]
            self.keys[seat] -= play[3] * bots.POW[value]
        self.sizes[seat] -= cards
        try:
            return self.wins(bots.NEXT_SEAT[seat], play, seat, 0)
        finally:
            self.sizes[seat] += cards
            for value in range(play[1], play[2] + 1):
                counts[value] += play[3]
            self.keys[seat] = key


def option_results(view, options, guessed, node_limit, inner):
    """Return for each option (a ranked entry of prepare) whether some line wins on this guess, or None."""
    seat = view["seat"]
    hands = [None, None, None]
    hands[seat] = bots.counts_of(view["hand"])
    for k in range(2):
        hands[(seat + 1 + k) % 3] = list(guessed[k])
    search = Search(hands, seat, node_limit, inner)
    # After Stark's play the trick's earlier plays no longer matter: the next seat must beat that play.
    results = []
    try:
        for option in options:
            results.append(search.play(seat, option[3]))
    except OutOfNodes:
        return None
    return results


def all_options(context):
    """Return one ranked entry per distinct play of the view (prepare's ranked list holds one per action)."""
    seen = set()
    options = []
    for option in context["ranked"]:
        shape = tuple(option[3])
        if shape not in seen:
            seen.add(shape)
            options.append(option)
    return options


def told_choose(below, node_limit=20000):
    """Return a stark_move(state, view, rng): told the true hands from `below` cards on, searching exactly."""

    def move(state, view, rng):
        decided, context = prepare(view)
        if decided is not None:
            return decided
        seat = view["seat"]
        if min(context["opp_sizes"]) > below:
            return bots.strong_choose(view, rng)
        truth = [bots.counts_of(state["hands"][(seat + 1 + k) % 3]) for k in range(2)]
        options = all_options(context)
        results = option_results(view, options, truth, node_limit, 0)
        if results:
            for option, won in zip(options, results):
                if won:
                    return option[2]
        return bots.strong_choose(view, rng)

    return move


def reading_guesser(view, context, rng, tries, depth, swaps):
    """Return a function drawing guesses that fit both opponents' last `depth` decisions (up to `tries` draws)."""
    histories = decision_history(view, view["seat"])
    memo = {}
    sizes = context["opp_sizes"]

    def fits(guessed):
        return fits_history(guessed[0], histories[0], depth, memo) and fits_history(guessed[1], histories[1], depth, memo)

    def draw():
        guessed = bots.sample_hands(context["unseen"], sizes, context["caps"], rng)
        for _ in range(tries - 1):
            if fits(guessed):
                break
            if swaps:
                guessed = swap_cards(guessed, context["caps"], rng, swaps)
            else:
                guessed = bots.sample_hands(context["unseen"], sizes, context["caps"], rng)
        return guessed

    return draw


def search_tallies(view, context, options, rng, spec):
    """Return per option the list of guesses it won (1) or lost (0) under a search SPEC."""
    draw = reading_guesser(view, context, rng, spec["tries"], spec["depth"], spec["swaps"])
    results = [[] for _ in options]
    for _ in range(spec["guesses"]):
        won = option_results(view, options, draw(), spec["nodes"], spec["inner"])
        if won is None:
            continue
        for index in range(len(options)):
            results[index].append(1 if won[index] else 0)
    return results


def searched_choose(spec):
    """Return a choose(view, rng): the bot, but searching guessed deals once an opponent holds spec's T or fewer."""

    def choose(view, rng):
        decided, context = prepare(view)
        if decided is not None:
            return decided
        if min(context["opp_sizes"]) > spec["below"]:
            return bots.strong_choose(view, rng)
        options = all_options(context)
        if spec["root"]:
            options = options[:spec["root"]]
        wins = [sum(won) for won in search_tallies(view, context, options, rng, spec)]
        best = 0
        for index in range(1, len(options)):
            if wins[index] > wins[best]:
                best = index
        return options[best][2] if wins[best] else bots.strong_choose(view, rng)

    return choose


def parse_search(text):
    """Return the search a SPEC names: T,GUESSES,TRIES,DEPTH,SWAPS,NODES,INNER[,ROOT]."""
    numbers = [int(part) for part in text.split(",")]
    names = ["below", "guesses", "tries", "depth", "swaps", "nodes", "inner", "root"]
    if len(numbers) not in (7, 8):
        raise SystemExit("a search SPEC is T,GUESSES,TRIES,DEPTH,SWAPS,NODES,INNER[,ROOT]: %s" % text)
    return dict(zip(names, numbers + [0]))


def teach(path, deals, seed_base, below):
    """Write the search's results for the bot's shortlisted options, one JSON line per decision (bench.paodekuai_real's format)."""
    spec = parse_search("%d,10,200,6,2,20000,3" % below)
    started = time.time()
    written = 0
    with open(path, "w") as out:
        for deal in range(deals):
            seed = seed_base + deal

            def move(state, view, bot_rng):
                nonlocal written
                decided, context = prepare(view)
                action = bots.strong_choose(view, bot_rng)
                if decided is not None or min(context["opp_sizes"]) > below:
                    return action
                ranked = context["ranked"][:bots.SHORTLIST]
                if len(ranked) < 2:
                    return action
                results = search_tallies(view, context, ranked, Rng(seed * 131 + written), spec)
                if not results[0]:
                    return action
                out.write(json.dumps({"deal": seed, "leading": context["leading"], "sizes": context["opp_sizes"],
                                      "cards": ranked[0][6],
                                      "inputs": [[round(x, 5) for x in row] for row in decision_inputs(context, ranked)],
                                      "results": results, "chosen": [o[2] for o in ranked].index(action)}) + "\n")
                written += 1
                return action

            play_stark_deal(seed, deal % 3, move)
            if deal % 1000 == 999:
                print("%d deals, %d decisions, %.0f s" % (deal + 1, written, time.time() - started), flush=True)
    print("wrote %d decisions of %d deals in %.0f s" % (written, deals, time.time() - started))


def main():
    """Run the mode asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cheat", nargs="+", type=int, metavar="T")
    parser.add_argument("--search", nargs="+", metavar="SPEC")
    parser.add_argument("--teach", metavar="FILE")
    parser.add_argument("--below", type=int, default=10)
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int)
    args = parser.parse_args()
    if args.teach:
        teach(args.teach, args.deals, 60000000 if args.seed is None else args.seed, args.below)
        return
    lines = [("bot", bots.strong_choose, False)]
    lines += [("told the hands from %d cards, exact search" % below, told_choose(below), True)
              for below in args.cheat or []]
    lines += [("search " + text, searched_choose(parse_search(text)), False) for text in args.search or []]
    if len(lines) == 1:
        parser.error("give --cheat, --search or --teach")
    print_paired(lines, args.games, 2000000 if args.seed is None else args.seed)


if __name__ == "__main__":
    main()

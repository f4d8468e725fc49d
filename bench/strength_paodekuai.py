"""Strength and speed of the Pao De Kuai computers: python -m bench.strength_paodekuai [--games N].

Each line plays N seeded single deals, the tested player in one seat and two
copies of the opponent in the others, seats rotated deal by deal. It reports
the share of deals the tested player won (went out first) with its 95 %
margin, against the 1/3 baseline, and its mean settlement points per deal.
Decision times are printed per strength as wall time and as CPU time (other
load on a shared machine inflates wall time only); for the strong player also
over the decisions that had a real choice (more than one legal action).

`--oracle N [N ...]` measures what the hidden hands are worth, by phase: Stark against 2
greedy players on the same deals, once as it is and once told the opponents' true hands
(its one guessed deal is the truth) from the moment an opponent holds N cards or fewer
(16: the whole deal). No search over guessed holdings can do better than this, so a line
that stays below 50 % rules such a search out for that phase.

`--posterior TRIES` measures what reading the opponents' decisions is worth: on the same deals,
Stark as it is, Stark whose guesses fit every earlier decision of both greedy opponents (drawn
again until they do, at most TRIES times a guess; the model is exact, the greedy rule itself),
and both again with a search of 6 options, 40 guesses and 10 times the work budget. It prints each
share with the paired gain and the CPU time per decision: what 50 % would cost a phone.

`--reading TRIES,DEPTH,BELOW[,WORK[,SWAPS]] ...` is the cheaper reading: once an opponent holds BELOW
cards or fewer, each guess is drawn again (or, with SWAPS, changed by that many trades of a card
between the two guessed hands, two draws of the generator instead of a shuffle) up to TRIES times
until both opponents' last DEPTH decisions fit it, replayed on rank counts; Stark's work budget is
raised by WORK there. The reading's own work is not charged to that budget (its CPU time is in the
figures). `1,0,16,WORK` is the control: the larger budget without reading. Each spec is paired with
Stark as it is and with the spec before it on the same deals (`--seed`, seats rotated), with the CPU
time per decision.
"""

import argparse

from bench import ladder
import time

from bench.common import DecisionTimer, format_share, median, paired_gain, percentile, rotated_points
from spieleabend.bots import paodekuai as bots
from spieleabend.games import paodekuai as engine
from spieleabend.games.common import Rng


greedy_choose = bots.greedy_choose


def play_deal(players, seed):
    """Play one deal with one choose function per seat; return (winner seat, points per seat)."""
    state = engine.new_game({"deals": 1}, Rng(seed))
    bot_rng = Rng(seed * 7919 + 17)
    while engine.outcome(state) is None:
        seat = engine.to_move(state)[0]
        action = players[seat](engine.view(state, seat), bot_rng)
        engine.apply_action(state, seat, action)
    record = state["log"][-1]
    winner = [s for s in record["settlements"] if s["kind"] == "out"][0]["seat"]
    return winner, engine.deal_points(record)


def matchup(label, tested, opponent, games, target, seed_base):
    """Play `games` deals of one tested player against two copies of an opponent; print the line."""
    points = [0]

    def play_one(lineup, game):
        players = [tested if entry == 0 else opponent for entry in lineup]
        winner, deal = play_deal(players, seed_base + game)
        points[0] += deal[players.index(tested)]
        return [1.0 if seat == winner else 0.0 for seat in range(3)]

    # Entries 1 and 2 are the two opponent copies; only entry 0 (the tested player) is reported.
    wins = rotated_points([0, 1, 2], games, play_one)[0]
    print(format_share(label, wins, games, target=target, baseline=1 / 3)
          + "  mean points %+.2f" % (points[0] / games))
    return wins / games


def choice_summary(timer, label):
    """Return decision-time figures over the decisions that had more than one legal action."""
    ms = [s * 1000 for s, n in zip(timer.cpu_seconds, timer.choices) if n > 1]
    return "%-48s median %.3f ms  p99 %.3f ms  worst %.3f ms  (CPU time, %d decisions)" % (
        label, median(ms), percentile(ms, 0.99), max(ms), len(ms))


class ChoiceTimer(DecisionTimer):
    """A DecisionTimer that also records how many legal actions each decision had."""

    def __init__(self, choose):
        super().__init__(choose)
        self.choices = []

    def __call__(self, view, rng):
        self.choices.append(len(view["legal"]))
        return super().__call__(view, rng)


def play_stark_deal(seed, stark_seat, stark_move):
    """Play one deal of Stark against 2 greedy players, Stark's moves by `stark_move(state, view, rng)`;
    return 1.0 if Stark went out first."""
    state = engine.new_game({"deals": 1}, Rng(seed))
    bot_rng = Rng(seed * 7919 + 17)
    while engine.outcome(state) is None:
        seat = engine.to_move(state)[0]
        view = engine.view(state, seat)
        if seat != stark_seat:
            action = greedy_choose(view, bot_rng)
        else:
            action = stark_move(state, view, bot_rng)
        engine.apply_action(state, seat, action)
    record = state["log"][-1]
    winner = [s for s in record["settlements"] if s["kind"] == "out"][0]["seat"]
    return 1.0 if winner == stark_seat else 0.0


def play_deal_told(seed, stark_seat, told_below):
    """Play one deal of Stark against 2 greedy players, Stark told the true hands once an opponent holds `told_below` cards or fewer; return 1.0 if Stark went out first."""
    guess = bots.sample_hands

    def told_move(state, view, bot_rng):
        """Stark's move, its one guess the truth once the phase has come."""
        seat = view["seat"]
        first, second = (state["hands"][(seat + 1) % 3], state["hands"][(seat + 2) % 3])
        if min(len(first), len(second)) > told_below:
            return bots.strong_choose(view, bot_rng)
        truth = [bots.counts_of(first), bots.counts_of(second)]
        bots.sample_hands = lambda *unused: [list(truth[0]), list(truth[1])]
        try:
            return bots.strong_choose(view, bot_rng, max_samples=1)
        finally:
            bots.sample_hands = guess

    return play_stark_deal(seed, stark_seat, told_move)


def oracle(games, phases, seed_base=2000000):
    """Print Stark's share of deals against 2 greedy players, told the true hands from each phase on, paired with the plain Stark."""
    plain = [play_deal_told(seed_base + game, game % 3, -1) for game in range(games)]
    print(format_share("stark vs 2 greedy (deals won), as it is", sum(plain), games, baseline=1 / 3))
    for below in phases:
        told = [play_deal_told(seed_base + game, game % 3, below) for game in range(games)]
        print(format_share("  told the hands from %d cards or fewer" % below, sum(told), games, baseline=1 / 3)
              + "  gain %s points (paired)" % paired_gain(told, plain), flush=True)


def opponent_decisions(view, opponent):
    """Return (play to beat or None, opening, trick entry) for each of an opponent's decisions this deal, oldest first."""
    found = []
    opening = True
    for trick in view["tricks"] + [view["trick"]]:
        previous = None
        for entry in trick:
            if entry["seat"] == opponent:
                found.append((previous, opening, entry))
            if not entry["pass"]:
                previous = entry["play"]
                opening = False
    return found


def greedy_combination(counts, opening, previous):
    """Return the combination (shape, low, high, per rank) greedy_choose itself picks from a hand of
    rank counts, or None when it must pass."""
    options = engine._combinations(counts, opening, previous)
    if not options:
        return None
    # greedy_choose reads only the ranks of the cards, so any suit will do.
    hand = [engine.RANK_LABEL[value] + "S" for value in range(3, 16) for _ in range(counts[value])]
    legal = ["play " + " ".join(engine.RANK_LABEL[value] + "S" for value in range(low, high + 1)
                                for _ in range(per)) for _, low, high, per in options]
    return options[legal.index(greedy_choose({"legal": legal, "hand": hand}, None))]


def fits_decisions(counts, decisions):
    """Return whether a greedy player holding `counts` now would have made each of its decisions."""
    hand = list(counts)
    for previous, opening, entry in reversed(decisions):  # the hand grows back card by card
        played = bots.counts_of(entry["cards"])
        for value in range(16):
            hand[value] += played[value]
        picked = greedy_combination(hand, opening, previous)
        if entry["pass"]:
            if picked is not None:
                return False
            continue
        low = min(value for value in range(16) if played[value])
        high = max(value for value in range(16) if played[value])
        if picked is None or (picked[1], picked[2], picked[3]) != (low, high, played[low]):
            return False
    return True


def play_deal_reading(seed, stark_seat, tries, search, tally):
    """Play one deal of Stark against 2 greedy players, its guesses fitting the opponents' decisions
    (up to `tries` draws a guess; 0: plain guesses); return 1.0 if Stark went out first."""
    guess = bots.sample_hands
    decisions = []

    def fitting_guess(unseen, sizes, caps, rng):
        """Draw guesses until both opponents' decisions fit (or the tries run out)."""
        for _ in range(tries):
            hands = guess(unseen, sizes, caps, rng)
            if fits_decisions(hands[0], decisions[0]) and fits_decisions(hands[1], decisions[1]):
                tally["fitted"] += 1
                return hands
        tally["unfitted"] += 1
        return guess(unseen, sizes, caps, rng)

    def reading_move(state, view, bot_rng):
        """Stark's move, its guesses fitting the decisions the opponents made so far."""
        decisions[:] = [opponent_decisions(view, (view["seat"] + k) % 3) for k in (1, 2)]
        bots.sample_hands = fitting_guess if tries else guess
        started = time.process_time()
        try:
            return bots.strong_choose(view, bot_rng, *search)
        finally:
            bots.sample_hands = guess
            if len(view["legal"]) > 1:
                tally["cpu"].append(time.process_time() - started)

    return play_stark_deal(seed, stark_seat, reading_move)


def posterior(games, tries, seed_base=2000000):
    """Print Stark's share against 2 greedy players with and without guesses that fit the opponents'
    decisions, at its own search and at a 10 times larger one, paired on the same deals."""
    own = (bots.SHORTLIST, bots.MAX_SAMPLES, bots.WORK_BUDGET)
    larger = (6, 40, 10 * bots.WORK_BUDGET)
    plain = None
    for label, reading, search in (("as it is", 0, own), ("guesses fit the decisions", tries, own),
                                   ("larger search", 0, larger),
                                   ("larger search, guesses fit the decisions", tries, larger)):
        tally = {"fitted": 0, "unfitted": 0, "cpu": []}
        won = [play_deal_reading(seed_base + game, game % 3, reading, search, tally) for game in range(games)]
        line = format_share("stark vs 2 greedy (deals won), " + label, sum(won), games, baseline=1 / 3)
        if plain is None:
            plain = won
        else:
            line += "  gain %s points (paired)" % paired_gain(won, plain)
        cpu = [seconds * 1000 for seconds in tally["cpu"]]
        line += "  CPU per decision median %.2f ms, p99 %.1f ms" % (median(cpu), percentile(cpu, 0.99))
        if reading:
            line += ", %d %% of guesses fit" % (100 * tally["fitted"] // max(1, tally["fitted"] + tally["unfitted"]))
        print(line, flush=True)


# -- the reading of --reading: greedy_choose's decisions replayed on rank counts ------------------------
# fits_decisions above replays greedy_choose itself on card strings: exact, but it builds every legal
# action's text and plans each. These functions replay the same rule on rank counts with the bot's
# plan and look up a rival play's plan only when its top rank alone does not settle it (a test checks
# that both readings agree).

def decision_history(view, seat):
    """Return both opponents' decisions this deal (next seat first), newest first, as
    [play to beat or None, play made or None] in the bot's simulated form; the deal's first play is left out."""
    histories = [[], []]
    opening = True
    for trick in view["tricks"] + [view["trick"]]:
        previous = None
        for entry in trick:
            made = None
            if not entry["pass"]:
                made = bots.play_of(bots.counts_of(entry["cards"]))
                if entry["play"]["heavenly"]:
                    made[4] = bots.HEAVENLY
            other = (entry["seat"] - seat) % 3 - 1
            if other >= 0 and not opening:
                histories[other].append([previous, made])
            if made is not None:
                previous = made
                opening = False
    for history in histories:
        history.reverse()
    return histories


def lead_candidates(counts):
    """Return every play a hand may lead (not the deal's first), in the engine's order."""
    candidates = []
    for kind in (bots.SINGLE, bots.PAIR, bots.TRIPLE):
        limit = 16 if kind == bots.SINGLE else (15 if kind == bots.PAIR else 14)
        candidates += [[kind, value, value, kind, 0] for value in range(3, limit) if counts[value] >= kind]
    for per, min_len in ((1, 5), (2, 2)):
        for low in range(3, bots.SEQUENCE_TOP + 1):
            high = low
            while high <= bots.SEQUENCE_TOP and counts[high] >= per:
                if high - low + 1 >= min_len:
                    candidates.append([bots.STRAIGHT if per == 1 else bots.RUN, low, high, per, 0])
                high += 1
    candidates += [[bots.BOMB, value, value, 4, value] for value in range(3, 14) if counts[value] == 4]
    if counts[bots.ACE] == 3:
        candidates.append([bots.BOMB, bots.ACE, bots.ACE, 3, bots.ACE])
    return candidates


def rank_after(counts, key, play, memo):
    """Return the greedy rule's rank of a play: the plays it leaves * 100 + its top rank."""
    sub = key
    for value in range(play[1], play[2] + 1):
        counts[value] -= play[3]
        sub -= play[3] * bots.POW[value]
    rank = bots.plan(counts, sub, memo)[0] * 100 + play[2]
    for value in range(play[1], play[2] + 1):
        counts[value] += play[3]
    return rank


def greedy_picks(counts, key, candidates, made, memo):
    """Return whether greedy_choose, offered `candidates` (engine order), plays `made`: the first of the lowest rank.

    No play leaves fewer than the plan's plays less one, so a rival whose top rank alone rules it out
    costs no plan lookup.
    """
    made_rank = rank_after(counts, key, made, memo)
    least = bots.plan(counts, key, memo)[0] * 100 - 100
    before = True
    found = False
    for play in candidates:
        if play[1] == made[1] and play[2] == made[2] and play[3] == made[3]:
            before = False
            found = True
            continue
        bound = least + play[2]
        if bound > made_rank or (bound == made_rank and not before):
            continue
        rank = rank_after(counts, key, play, memo)
        if rank < made_rank or (rank == made_rank and before):
            return False
    return found


def fits_history(counts, history, depth, memo):
    """Return whether a greedy player holding `counts` now would have made its last `depth` decisions."""
    hand = list(counts)
    key = bots.key_of(hand)
    for top, made in history[:depth]:
        if made is None:
            # A pass: the hand then (this one: the cards played later were still in it) had no answer.
            if bots.can_beat(hand, top, 16):
                return False
            continue
        for value in range(made[1], made[2] + 1):
            hand[value] += made[3]
            key += made[3] * bots.POW[value]
        candidates = lead_candidates(hand) if top is None else bots.answers(hand, top)
        if len(candidates) > 1 and not greedy_picks(hand, key, candidates, made, memo):
            return False
    return True


def swap_cards(hands, caps, rng, swaps):
    """Return a nearby guess: `swaps` random cards of the first hand traded for cards of the second, caps kept."""
    first = list(hands[0])
    second = list(hands[1])
    first_cards = [value for value in range(3, 16) for _ in range(first[value])]
    second_cards = [value for value in range(3, 16) for _ in range(second[value])]
    if not first_cards or not second_cards:
        return [first, second]
    for _ in range(swaps):
        i = rng.below(len(first_cards))
        j = rng.below(len(second_cards))
        given = first_cards[i]
        taken = second_cards[j]
        if given == taken or first[taken] >= caps[0][taken] or second[given] >= caps[1][given]:
            continue
        first_cards[i], second_cards[j] = taken, given
        first[given] -= 1
        first[taken] += 1
        second[taken] -= 1
        second[given] += 1
    return [first, second]


def reading_variant(text):
    """Return the reading a --reading spec names: TRIES,DEPTH,BELOW[,WORK[,SWAPS]] (missing ones 0)."""
    numbers = [int(part) for part in text.split(",")] + [0, 0]
    return {"tries": numbers[0], "depth": numbers[1], "below": numbers[2], "work": numbers[3], "swaps": numbers[4]}


def play_deal_fast_reading(seed, stark_seat, reading, cpu):
    """Play one deal of Stark against 2 greedy players, its guesses fitting each opponent's last decisions
    once an opponent holds `below` cards or fewer; return 1.0 if Stark went out first. Records the CPU
    milliseconds of each decision with a choice in `cpu` as (ms, in the reading's phase)."""
    guess = bots.sample_hands
    histories = []
    memo = {}

    def fitting_guess(unseen, sizes, caps, rng):
        """A guess, drawn again (or traded card by card) until both opponents' last decisions fit it."""
        guessed = guess(unseen, sizes, caps, rng)
        tries = 1
        while tries < reading["tries"] and not (fits_history(guessed[0], histories[0], reading["depth"], memo)
                                                and fits_history(guessed[1], histories[1], reading["depth"], memo)):
            tries += 1
            if reading["swaps"]:
                guessed = swap_cards(guessed, caps, rng, reading["swaps"])
            else:
                guessed = guess(unseen, sizes, caps, rng)
        return guessed

    def reading_move(state, view, bot_rng):
        """Stark's move, reading the opponents' decisions in the phase."""
        started = time.process_time()
        seat = view["seat"]
        late = min(view["hand_sizes"][(seat + 1) % 3], view["hand_sizes"][(seat + 2) % 3]) <= reading["below"]
        budget = bots.WORK_BUDGET
        if late and reading["tries"]:
            histories[:] = decision_history(view, seat)
            memo.clear()
            bots.sample_hands = fitting_guess
            budget += reading["work"]
        try:
            action = bots.strong_choose(view, bot_rng, budget=budget)
        finally:
            bots.sample_hands = guess
        if len(view["legal"]) > 1:
            cpu.append((1000 * (time.process_time() - started), late))
        return action

    return play_stark_deal(seed, stark_seat, reading_move)


def reading(games, specs, seed_base=2000000):
    """Print Stark's share against 2 greedy players as it is and with each reading of the opponents'
    decisions, paired on the same deals, with the CPU time of the decisions that had a choice."""
    plain = None
    last = None
    for spec in ["0,0,0"] + specs:
        options = reading_variant(spec)
        cpu = []
        won = [play_deal_fast_reading(seed_base + game, game % 3, options, cpu) for game in range(games)]
        label = "as it is" if plain is None else "reading " + spec
        line = format_share("stark vs 2 greedy, " + label, sum(won), games, baseline=1 / 3)
        if plain is None:
            plain = won
        else:
            line += "  gain %s, over the line before %s (paired)" % (paired_gain(won, plain), paired_gain(won, last))
        last = won
        every = [ms for ms, _ in cpu]
        line += "  CPU ms median / p99 / worst %.3f / %.3f / %.3f" % (median(every), percentile(every, 0.99), max(every))
        late = [ms for ms, in_phase in cpu if in_phase]
        if late and options["tries"]:
            line += " (in the phase %.3f / %.3f / %.3f, %d decisions)" % (
                median(late), percentile(late, 0.99), max(late), len(late))
        print(line, flush=True)


def main():
    """Run every matchup, then print the decision times."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=1, help="processes for the ladder (at most 2)")
    parser.add_argument("--ladder-only", action="store_true", help="print the ladder and stop")
    parser.add_argument("--oracle", type=int, nargs="+", metavar="N",
                        help="what the hidden hands are worth: told from N cards or fewer on (then stop)")
    parser.add_argument("--posterior", type=int, metavar="TRIES",
                        help="what reading the opponents' decisions is worth, TRIES draws a guess (then stop)")
    parser.add_argument("--reading", nargs="+", metavar="TRIES,DEPTH,BELOW[,WORK[,SWAPS]]",
                        help="guesses that fit each opponent's last DEPTH decisions (at most TRIES draws, once an "
                             "opponent holds BELOW cards or fewer, WORK more work budget, a new try SWAPS trades "
                             "of cards instead of a fresh guess), paired with Stark (then stop)")
    parser.add_argument("--seed", type=int, default=2000000, help="first deal's seed of --reading")
    args = parser.parse_args()
    if args.reading:
        reading(args.games, args.reading, args.seed)
        return
    if args.posterior:
        posterior(args.games, args.posterior)
        return
    if args.oracle:
        oracle(args.games, args.oracle)
        return
    ladder.main('paodekuai', args.games, args.jobs)
    if args.ladder_only:
        return
    started = time.time()
    strong = ChoiceTimer(bots.STRENGTHS["stark"])
    greedy = ChoiceTimer(greedy_choose)
    rand = ChoiceTimer(bots.STRENGTHS["leicht"])
    matchup("strong vs 2 random (deals won)", strong, bots.STRENGTHS["leicht"],
            args.games, 0.85, 1000000)
    matchup("stark vs 2 greedy (deals won)", strong, greedy_choose, args.games, 0.50, 2000000)
    matchup("greedy vs 2 random (deals won, reference)", greedy, bots.STRENGTHS["leicht"],
            args.games, None, 3000000)
    matchup("random vs 2 strong (deals won, reference)", rand, bots.STRENGTHS["stark"],
            max(300, args.games // 4), None, 4000000)
    for label, timer in (("strong", strong), ("greedy", greedy), ("random", rand)):
        print(timer.summary("decision time %s (wall)" % label))
        print(timer.cpu_summary("decision time %s" % label))
    print(choice_summary(strong, "decision time strong, real choices only"))
    print("total %.1f s" % (time.time() - started))


if __name__ == "__main__":
    main()

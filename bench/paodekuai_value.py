"""A learned value of a cut playout for Pao De Kuai's Stark: python -m bench.paodekuai_value MODE ...

Stark's playouts are cut off by a work budget, so early in a deal it plays out about one guess per
option. Earlier sessions cut playouts after a few moves and scored the cut position by "fewest plays
left" (2 to 6 points worse). Here the cut position is scored by a LEARNED perfect-information value:
inside a playout all three hands are known (guessed), so a small model V(state) -> chance that the
bot's seat goes out first may read every hand. The cut playouts are cheaper, so the budget buys more
guesses, and a soft result has less variance than 0/1.

Modes (PYTHONPATH=web/py:. python -m bench.paodekuai_value ...):

`--generate FILE [--deals N] [--seed S] [--guesses G]` plays N single deals (seeds from S,
40,000,000 by default: disjoint from the evaluation seeds 2,000,000 and 5,000,000, from the ladder's
and from bench.paodekuai_distill's 30,000,000) of Stark as it is against 2 greedy players (Stark's
seat = deal mod 3). At each of Stark's decisions with two or more shortlisted options and no sure
win, it plays each of the (up to 3) shortlisted options out on G guesses (3 by default) to the end
with the playouts' own rules (as bots.rollout, no budget) and writes one JSON line per state the
playout passed after 2, 4, 6, 8, 10, 12, 16, 20 and 24 moves: the three hands as rank counts (the
bot's seat first, then the next seat, then the one after), their sizes, whose turn it is, the play to
beat and who made it, whether one seat has passed on it, the move count, the smaller opponent hand
at the decision, and the label (1 if the bot's seat went out first in that playout). V fitted on
these states estimates what the rest of the playout would have given.

`--generate-real FILE [--deals N] [--seed S]` (seeds from 42,000,000 by default) writes the same kind
of line for every move (after the deal's first play) of N real deals of the bot against 2 greedy
players, with the true hands, and the real result as the label: V fitted on these estimates the real
continuation (Stark and the greedy players), not the playouts' rules.

`--train FILE [FILE ...] [--hidden H] [--epochs E] [--batch B] [--json FILE] [--module FILE]` fits V on
the states of deals whose seed is not a multiple of 5 (logistic regression with H = 0, else H
rectified hidden units and a logistic output; E Adam steps on random batches of B states, 8,192 by
default, 0: all states; numpy, the tools extra; set OPENBLAS_NUM_THREADS=1 on a shared machine, or
the fit crawls) and prints, on the held-out states, the log loss and the Brier score of V, of a
logistic fit on the three seats' plays left and whose turn alone, and of the constant, overall and
per move count. V's inputs (`value_inputs`, 45): per seat (the bot's, the next, the one after) plays
left by `plan`, cards held, bombs, 2s, aces, plays either other seat could beat, "1 play left", "at
most 1 beatable play"; whose turn; the play to beat (none, its kind, its top rank, who made it,
whether one seat has passed, which seats could beat it); the bot's plays left less the fewest of the
opponents'. `--json` writes the fit for `--weights`, `--module` a weights module in thousandths (as
bots/paodekuai_weights.py).

`--evaluate SPEC [SPEC ...] [--games N] [--seed S] [--repeat R] [--weights FILE]` plays N deals (2,000;
seeds from S, 2,000,000 by default; Stark's seat = deal mod 3) of the bot's strong_choose and of each
variant against 2 greedy players on the same deals; prints each share, its paired gain over the bot
and the CPython CPU time per decision with a choice, median / p99 / worst ms (with `--repeat R` the
least of R runs of each decision on copies of the generator). A SPEC is `plain` (the bench's copy of
the bot, no cut: it must match the bot exactly) or comma-separated key=value:
`depth` (cut a playout after this many moves and add V(cut state) instead of 0/1; 0: never cut),
`cost` (work units charged per V evaluation, 0; the bot's work unit is about 1 microsecond of
CPython, V's inputs cost about 15 to 20 and the 24-unit network about 26 more), `tail` (1: a playout
cut by the work budget is scored by V instead of dropping its guess), `below` (cut only while the
smaller opponent hand holds at most this many cards, 99), `late` (0: cut only while the learned
option score is used while both opponents hold more than `above` cards), `worth` (the learned option
score counts as this many guesses there, 20 as in the bot; the table in docs/benchmarks.md was measured
with the bot before bench.paodekuai_real, whose score counted 30), `above` (4), `lateworth` (its worth
once an opponent holds `above` cards or fewer, 3 as in the bot; it was 0), `short` (cut the shortlist
to this many by the score where it counts `worth`, 2), `budget` (the work budget, 300), `mean` (1: compare the
playouts' mean result plus worth / 30 times the score), `weak` (0: V without the beatable-play
counts), `lead` (1: the guesses also respect what the opponents' leads showed if they lead as the
greedy player does, see `lead_caps`; 2: the learned score's "may hold" figures as well).

`--regret SPEC [SPEC ...] [--deals N] [--seed S] [--guesses G] [--weights FILE]` plays N deals of the
bot (seeds from 41,000,000 by default) and at each decision with a shortlist plays its 3 options out
on G guesses (100) with no budget; prints for `plain` and each SPEC the mean regret in win-rate
points (the best option's rate less the chosen one's, label noise included) and the guesses played
out per decision, while the smaller opponent hand holds 10 or more / 5 to 9 / 4 or fewer cards.

Reproduce (data in any scratch directory):
  --generate play.jsonl --deals 2000                          (525,367 states, 20 s)
  --generate-real real.jsonl --deals 12000                    (361,907 states, 50 s)
  --train play.jsonl --hidden 0 --epochs 800 --batch 0 --json lin.json
  --train play.jsonl --hidden 24 --epochs 3000 --json mlp24.json
  --train real.jsonl --hidden 24 --epochs 3000 --json real24.json
  --evaluate plain depth=8 depth=12 depth=12,below=9 depth=12,cost=40 lead=1 budget=1200 budget=3000
      --weights mlp24.json --repeat 3 --seed 2000000 (and --seed 5000000)
  --evaluate depth=12 depth=12,cost=16 --weights lin.json --repeat 3 --seed ...
  --evaluate tail=1 tail=1,late=0 --weights mlp24.json --repeat 3 --seed ...
  --evaluate depth=10 depth=10,below=9 depth=16,cost=40 depth=1,cost=40 --weights real24.json --repeat 3 --seed ...
  --regret depth=8 depth=8,worth=3 depth=4,worth=3 depth=2,worth=3 worth=3 budget=3000,worth=3
      budget=3000,worth=0 budget=3000,worth=10 --weights mlp24.json --deals 300
"""

import argparse
import json
import math
import time

from bench.common import python_package, require
from bench.paodekuai_distill import mlp_score, prepare, print_paired, save_network
from bench.strength_paodekuai import play_stark_deal
from spieleabend.bots import paodekuai as bots
from spieleabend.games.common import Rng

NEXT_SEAT = bots.NEXT_SEAT
POW = bots.POW
RECORD_STEPS = (2, 4, 6, 8, 10, 12, 16, 20, 24)


# -- the value's inputs (pure Python, as the bot would compute them) ------------------------------------

def value_inputs(hands, keys, sizes, turn, top, top_seat, passes, me, memo, weak_too=True):
    """Return V's inputs of a playout state: per seat (the bot's, the next, the one after) and of the trick."""
    seats = [me, NEXT_SEAT[me], NEXT_SEAT[NEXT_SEAT[me]]]
    inputs = []
    plays = [0, 0, 0]
    weaks = [0, 0, 0]
    for r in range(3):
        seat = seats[r]
        counts = hands[seat]
        entry = bots.plan(counts, keys[seat], memo)
        plays[r] = entry[0]
        bombs = 0
        for value in range(3, 14):
            if counts[value] == 4:
                bombs += 1
        if counts[14] == 3:
            bombs += 1
        weak = 0
        if weak_too:
            one = hands[seats[(r + 1) % 3]]
            two = hands[seats[(r + 2) % 3]]
            for group in bots.plan_groups(counts, keys[seat], memo):
                if bots.can_beat(one, group, 16) or bots.can_beat(two, group, 16):
                    weak += 1
        weaks[r] = weak
        inputs += [entry[0] / 8.0, sizes[seat] / 16.0, bombs, counts[15], counts[14] / 3.0, weak / 8.0,
                   1 if entry[0] <= 1 else 0, 1 if weak <= 1 else 0]
    rel_turn = 0 if turn == me else (1 if turn == seats[1] else 2)
    inputs += [1 if rel_turn == 0 else 0, 1 if rel_turn == 1 else 0, 1 if rel_turn == 2 else 0]
    if top is None:
        inputs += [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    else:
        kind = top[0]
        rel_top = 0 if top_seat == me else (1 if top_seat == seats[1] else 2)
        inputs += [0, 1 if rel_top == 0 else 0, 1 if rel_top == 1 else 0, 1 if rel_top == 2 else 0, passes,
                   1 if kind == bots.SINGLE else 0, 1 if kind == bots.PAIR else 0, 1 if kind == bots.TRIPLE else 0,
                   1 if kind == bots.STRAIGHT or kind == bots.RUN else 0, 1 if kind == bots.BOMB else 0,
                   (top[2] - 3) / 12.0]
        for r in range(3):
            seat = seats[r]
            inputs.append(1 if seat != top_seat and bots.can_beat(hands[seat], top, sizes[seat]) else 0)
    least = plays[1] if plays[1] < plays[2] else plays[2]
    inputs += [(plays[0] - least) / 4.0, 1 if plays[0] < least else 0, 1 if plays[0] == least else 0,
               (weaks[0] - min(weaks[1], weaks[2])) / 4.0]
    return inputs


def value_of(model, inputs):
    """Return V of some inputs (model: logistic weights or a one-hidden-layer network with a logistic output)."""
    if model["hidden"]:
        total = mlp_score(model, inputs)
    else:
        total = model["b"]
        w = model["w"]
        for index in range(len(inputs)):
            if inputs[index]:
                total += w[index] * inputs[index]
    if total > 30:
        return 1.0
    if total < -30:
        return 0.0
    return 1.0 / (1.0 + math.exp(-total))


# -- playouts cut after `depth` moves ---------------------------------------------------------------------

def rollout_cut(hands, keys, sizes, turn, top, top_seat, me, memo, work_left, depth, value, tail):
    """Play a deal out like bots.rollout, but after `depth` moves (or, with `tail`, when the work runs
    out) return V of the state; return (the bot's result 0..1, or -1 when cut off unscored, moves simulated)."""
    passes = 0
    steps = 0
    first = hands[NEXT_SEAT[me]]
    second = hands[NEXT_SEAT[NEXT_SEAT[me]]]
    while True:
        if steps >= depth or 2 * steps + len(memo) >= work_left:
            if steps >= depth or tail:
                return value(hands, keys, sizes, turn, top, top_seat, passes, me, memo), steps
            return -1, steps
        steps += 1
        counts = hands[turn]
        if turn == me and top is None:
            play = bots.sure_first_lead(counts, keys[turn], first, second, memo)
        else:
            play = bots.greedy_move(counts, keys[turn], top, memo)
        if play is None:
            passes += 1
            if passes == 2:
                top = None
                turn = top_seat
                passes = 0
            else:
                turn = NEXT_SEAT[turn]
            continue
        per = play[3]
        key = keys[turn]
        for v in range(play[1], play[2] + 1):
            counts[v] -= per
            key -= per * POW[v]
        keys[turn] = key
        sizes[turn] -= (play[2] - play[1] + 1) * per
        if sizes[turn] <= 0:
            return (1.0 if turn == me else 0.0), steps
        top = play
        top_seat = turn
        passes = 0
        turn = NEXT_SEAT[turn]


def play_out_cut(ranked, seat, others, sizes, unseen, caps, memo, rng, max_samples, budget, depth, value, cost,
                 tail):
    """bots.play_out with playouts cut after `depth` moves and scored by V (charged `cost` work units each)."""
    wins = [0.0] * len(ranked)
    steps = 0
    samples = 0
    done = 0
    limit = bots.HARD_BUDGET_FACTOR * budget
    evaluations = [0]

    def counted(*state):
        evaluations[0] += 1
        return value(*state)

    while samples < max_samples and 2 * steps + cost * evaluations[0] + len(memo) < budget:
        samples += 1
        guessed = bots.sample_hands(unseen, [sizes[others[0]], sizes[others[1]]], caps, rng)
        guessed_keys = [bots.key_of(guessed[0]), bots.key_of(guessed[1])]
        sample_wins = [0.0] * len(ranked)
        cut = False
        for index in range(len(ranked)):
            option = ranked[index]
            hands = [None, None, None]
            keys = [0, 0, 0]
            option_sizes = [0, 0, 0]
            hands[seat] = list(option[4])
            keys[seat] = option[5]
            option_sizes[seat] = option[6]
            for k in range(2):
                hands[others[k]] = list(guessed[k])
                keys[others[k]] = guessed_keys[k]
                option_sizes[others[k]] = sizes[others[k]]
            result, used = rollout_cut(hands, keys, option_sizes, others[0], option[3], seat, seat, memo,
                                       limit - 2 * steps - cost * evaluations[0], depth, counted, tail)
            steps += used
            if result < 0:
                cut = True
                break
            sample_wins[index] = result
        if cut:
            break
        done += 1
        for index in range(len(ranked)):
            wins[index] += sample_wins[index]
    return wins, done


def lead_caps(view, seat, caps):
    """Lower `caps` (as bots.pass_caps returns them) by what the opponents' leads showed, if they lead as the
    greedy player does: after leading a single, pair, triple or run whose lowest rank is L (not the deal's
    first play), a greedy seat holds at most 1 card of each rank below L; after a straight, none. (Measured
    on 3,000 deals of greedy players: 40 of 12,655 group leads had 2 cards of a lower rank, none 3.)"""
    # The deal's first trick (the first closed one, or the open one while none has closed) is skipped.
    for trick in (view["tricks"] + [view["trick"]])[1:]:
        if not trick:
            continue
        entry = trick[0]
        if entry["pass"]:
            continue
        other = (entry["seat"] - seat) % 3 - 1
        if other < 0:
            continue
        low = 16
        for card in entry["cards"]:
            value = bots.RANK_VALUE[card[:-1]]
            if value < low:
                low = value
        most = 0 if entry["play"]["shape"] == "straight" else 1
        cap = caps[other]
        for value in range(3, low):
            if cap[value] > most:
                cap[value] = most
    return caps


def value_choose(model, depth=0, worth=bots.LEARNED_WORTH, above=bots.LEARNED_ABOVE, short=2, budget=bots.WORK_BUDGET,
                 cost=0, tail=0, late=1, mean=0, weak=None, below=99, lead=0, lateworth=bots.LEARNED_LATE_WORTH):
    """Return a choose function: the bot's strong_choose whose playouts are cut after `depth` moves and scored by V.

    With `mean`, the values compared are the playouts' mean result plus `worth` / 30 times the learned
    score (as if the score were worth `worth` of 30 guesses, however many guesses were played out).
    """

    if weak is None:
        weak = model.get("weak", True) if model else True

    def value(hands, keys, sizes, turn, top, top_seat, passes, me, memo):
        return value_of(model, value_inputs(hands, keys, sizes, turn, top, top_seat, passes, me, memo, weak))

    def choose(view, rng):
        decided, context = prepare(view)
        if decided is not None:
            return decided
        if lead:
            context["caps"] = lead_caps(view, context["seat"], context["caps"])
            if lead == 2:
                caps = context["caps"]
                context["possible"] = [[min(context["unseen"][v], caps[k][v]) for v in range(16)] for k in range(2)]
        return decide(context, rng)

    def decide(context, rng):
        ranked = context["ranked"][:bots.SHORTLIST]
        if len(ranked) == 1:
            return ranked[0][2]
        opp_sizes = context["opp_sizes"]
        learned = None
        early = opp_sizes[0] > above and opp_sizes[1] > above
        weight = worth if early else lateworth
        if weight:
            learned = bots.learned_scores(ranked, context["mine"], context["possible"], opp_sizes,
                                          context["leading"], context["memo"])
            if early and short:
                order = sorted(range(len(ranked)), key=lambda i: -learned[i])[:short]
                ranked = [ranked[i] for i in order]
                learned = [learned[i] for i in order]
        cut_here = depth if (depth and (late or early) and min(opp_sizes) <= below) else 10 ** 9
        args = (ranked, context["seat"], context["others"], context["sizes"], context["unseen"], context["caps"],
                context["memo"], rng, bots.MAX_SAMPLES, budget)
        if cut_here < 10 ** 9 or tail:
            wins, done = play_out_cut(*args, depth=cut_here, value=value, cost=cost, tail=tail)
        else:
            wins, done = bots.play_out(*args)
        choose.guesses.append(done)
        values = [float(w) for w in wins]
        if mean:
            values = [w / done if done else 0.0 for w in values]
        if learned is not None:
            scale = weight / 30.0 if mean else weight
            values = [values[i] + scale * learned[i] for i in range(len(ranked))]
        best = 0
        for index in range(1, len(ranked)):
            if values[index] > values[best]:
                best = index
        return ranked[best][2]

    choose.decide = decide
    choose.guesses = []
    return choose


# -- data -------------------------------------------------------------------------------------------------

def rollout_recording(hands, keys, sizes, turn, top, top_seat, me, memo, record):
    """Play a deal out as bots.rollout does (no budget), calling record(state) after RECORD_STEPS moves;
    return the first seat out."""
    passes = 0
    steps = 0
    first = hands[NEXT_SEAT[me]]
    second = hands[NEXT_SEAT[NEXT_SEAT[me]]]
    while True:
        if steps in RECORD_STEPS:
            record(steps, hands, sizes, turn, top, top_seat, passes)
        steps += 1
        counts = hands[turn]
        if turn == me and top is None:
            play = bots.sure_first_lead(counts, keys[turn], first, second, memo)
        else:
            play = bots.greedy_move(counts, keys[turn], top, memo)
        if play is None:
            passes += 1
            if passes == 2:
                top = None
                turn = top_seat
                passes = 0
            else:
                turn = NEXT_SEAT[turn]
            continue
        per = play[3]
        key = keys[turn]
        for v in range(play[1], play[2] + 1):
            counts[v] -= per
            key -= per * POW[v]
        keys[turn] = key
        sizes[turn] -= (play[2] - play[1] + 1) * per
        if sizes[turn] <= 0:
            return turn
        top = play
        top_seat = turn
        passes = 0
        turn = NEXT_SEAT[turn]


def generate(path, deals, seed_base, guesses):
    """Write one JSON line per recorded playout state of Stark's decisions (see the module docstring)."""
    started = time.time()
    written = [0]
    with open(path, "w") as out:
        for deal in range(deals):
            seed = seed_base + deal
            label_rng = Rng(seed * 37 + 11)

            def move(state, view, bot_rng):
                decided, context = prepare(view)
                if decided is None:
                    ranked = context["ranked"][:bots.SHORTLIST]
                    if len(ranked) > 1:
                        record_decision(out, seed, context, ranked, label_rng, guesses, written)
                return bots.strong_choose(view, bot_rng)

            play_stark_deal(seed, deal % 3, move)
            if deal % 100 == 99:
                print("%d deals, %d states, %.0f s" % (deal + 1, written[0], time.time() - started), flush=True)
    print("wrote %d states of %d deals in %.0f s" % (written[0], deals, time.time() - started))


def record_decision(out, seed, context, ranked, rng, guesses, written):
    """Play each option out on `guesses` guesses to the end and write the states passed on the way."""
    seat = context["seat"]
    others = context["others"]
    sizes = context["sizes"]
    memo = {}
    order = [seat, others[0], others[1]]
    smaller = min(context["opp_sizes"])
    for _ in range(guesses):
        guessed = bots.sample_hands(context["unseen"], [sizes[others[0]], sizes[others[1]]], context["caps"], rng)
        for option in ranked:
            hands = [None, None, None]
            keys = [0, 0, 0]
            option_sizes = [0, 0, 0]
            hands[seat] = list(option[4])
            keys[seat] = option[5]
            option_sizes[seat] = option[6]
            for k in range(2):
                hands[others[k]] = list(guessed[k])
                keys[others[k]] = bots.key_of(guessed[k])
                option_sizes[others[k]] = sizes[others[k]]
            states = []

            def record(steps, hands, sizes_now, turn, top, top_seat, passes):
                states.append({"step": steps, "hands": [hands[s][3:16] for s in order],
                               "sizes": [sizes_now[s] for s in order], "turn": order.index(turn),
                               "top": None if top is None else list(top), "top_seat": order.index(top_seat),
                               "passes": passes})

            winner = rollout_recording(hands, keys, option_sizes, others[0], option[3], seat, seat, memo, record)
            for entry in states:
                entry.update(deal=seed, smaller=smaller, label=1 if winner == seat else 0)
                out.write(json.dumps(entry, separators=(",", ":")) + "\n")
                written[0] += 1


def generate_real(path, deals, seed_base):
    """Write one JSON line per move of N real deals of the bot against 2 greedy players (the true hands, as
    `--generate` writes them; the label: the bot went out first), for a V of the real continuation."""
    from spieleabend.games import paodekuai as engine

    started = time.time()
    written = 0
    with open(path, "w") as out:
        for deal in range(deals):
            seed = seed_base + deal
            me = deal % 3
            state = engine.new_game({"deals": 1}, Rng(seed))
            bot_rng = Rng(seed * 7919 + 17)
            rows = []
            moves = 0
            order = [me, NEXT_SEAT[me], NEXT_SEAT[NEXT_SEAT[me]]]
            while engine.outcome(state) is None:
                seat = engine.to_move(state)[0]
                view = engine.view(state, seat)
                if not view["opening"] and not view["deal_over"]:
                    top = None
                    top_seat = seat
                    passes = 0
                    for entry in view["trick"]:
                        if entry["pass"]:
                            passes += 1
                        else:
                            top = bots.play_of(bots.counts_of(entry["cards"]))
                            top_seat = entry["seat"]
                            passes = 0
                    hands = [bots.counts_of(state["hands"][s]) for s in order]
                    rows.append({"step": moves, "hands": [h[3:16] for h in hands],
                                 "sizes": [len(state["hands"][s]) for s in order], "turn": order.index(seat),
                                 "top": top, "top_seat": order.index(top_seat), "passes": passes, "deal": seed,
                                 "smaller": min(len(state["hands"][s]) for s in order[1:])})
                if seat == me:
                    action = bots.strong_choose(view, bot_rng)
                else:
                    action = bots.greedy_choose(view, bot_rng)
                engine.apply_action(state, seat, action)
                moves += 1
            record = state["log"][-1]
            winner = [s for s in record["settlements"] if s["kind"] == "out"][0]["seat"]
            for row in rows:
                row["label"] = 1 if winner == me else 0
                out.write(json.dumps(row, separators=(",", ":")) + "\n")
            written += len(rows)
            if deal % 1000 == 999:
                print("%d deals, %d states, %.0f s" % (deal + 1, written, time.time() - started), flush=True)
    print("wrote %d states of %d deals in %.0f s" % (written, deals, time.time() - started))


def state_inputs(row, memo, weak=True):
    """Return V's inputs of a recorded state (seat 0 is the bot's)."""
    hands = [[0, 0, 0] + list(h) for h in row["hands"]]
    keys = [bots.key_of(h) for h in hands]
    return value_inputs(hands, keys, list(row["sizes"]), row["turn"], row["top"], row["top_seat"], row["passes"], 0,
                        memo, weak)


# -- fitting ----------------------------------------------------------------------------------------------

def fit_logistic(x, y, hidden, epochs, seed=1, rate=0.01, decay=1e-5, batch=8192):
    """Return a model (dict of lists) fitted to labels y by log loss: logistic (hidden 0) or one hidden layer
    (Adam; `epochs` steps on random batches of `batch` states, the whole set when it is smaller)."""
    import numpy

    rng = numpy.random.default_rng(seed)
    mean = x.mean(axis=0)
    std = x.std(axis=0) + 1e-6
    everything = (x - mean) / std
    labels = y
    n, width = everything.shape
    n = min(n, batch)
    if hidden:
        params = {"w1": rng.normal(0, 1 / numpy.sqrt(width), (hidden, width)), "b1": numpy.zeros(hidden),
                  "w2": rng.normal(0, 1 / numpy.sqrt(hidden), hidden), "b2": numpy.zeros(1)}
    else:
        params = {"w": numpy.zeros(width), "b": numpy.zeros(1)}
    moments = {k: [numpy.zeros_like(v), numpy.zeros_like(v)] for k, v in params.items()}
    for step in range(1, epochs + 1):
        if n < len(labels):
            pick = rng.integers(0, len(labels), n)
            xs = everything[pick]
            y = labels[pick]
        else:
            xs = everything
        if hidden:
            pre = xs @ params["w1"].T + params["b1"]
            act = numpy.maximum(pre, 0)
            out = act @ params["w2"] + params["b2"][0]
        else:
            out = xs @ params["w"] + params["b"][0]
        p = 1 / (1 + numpy.exp(-numpy.clip(out, -30, 30)))
        g = (p - y) / n
        if hidden:
            grads = {"w2": act.T @ g + decay * params["w2"], "b2": numpy.array([g.sum()])}
            ga = numpy.outer(g, params["w2"]) * (pre > 0)
            grads["w1"] = ga.T @ xs + decay * params["w1"]
            grads["b1"] = ga.sum(axis=0)
        else:
            grads = {"w": xs.T @ g + decay * params["w"], "b": numpy.array([g.sum()])}
        for k in params:
            m, v = moments[k]
            m *= 0.9
            m += 0.1 * grads[k]
            v *= 0.999
            v += 0.001 * grads[k] ** 2
            params[k] -= rate * (m / (1 - 0.9 ** step)) / (numpy.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    # Fold the standardisation into the first layer, so the model reads raw inputs.
    if hidden:
        w1 = params["w1"] / std
        b1 = params["b1"] - w1 @ mean
        return {"hidden": hidden, "w1": [[float(w) for w in row] for row in w1], "b1": [float(b) for b in b1],
                "w2": [float(w) for w in params["w2"]], "b2": float(params["b2"][0])}
    w = params["w"] / std
    return {"hidden": 0, "w": [float(v) for v in w], "b": float(params["b"][0] - w @ mean)}


def losses(model, x, y):
    """Return (log loss, Brier score) of a model on inputs x (pure-Python evaluation) and labels y."""
    import numpy

    p = numpy.array([value_of(model, list(row)) for row in x])
    p = numpy.clip(p, 1e-6, 1 - 1e-6)
    return float(-(y * numpy.log(p) + (1 - y) * numpy.log(1 - p)).mean()), float(((p - y) ** 2).mean())


def train(paths, hidden, epochs, weak=True, batch=8192):
    """Fit V on the states of deals whose seed is not a multiple of 5; print the held-out losses; return the fit."""
    import numpy

    rows = []
    for path in paths:
        with open(path) as source:
            for line in source:
                rows.append(json.loads(line))
    memo = {}
    started = time.time()
    x = numpy.array([state_inputs(row, memo, weak) for row in rows], dtype=float)
    y = numpy.array([row["label"] for row in rows], dtype=float)
    steps = numpy.array([row["step"] for row in rows])
    held = numpy.array([row["deal"] % 5 == 0 for row in rows])
    print("%d states (%d held out), %d inputs, features %.0f s" % (len(rows), held.sum(), x.shape[1],
                                                                   time.time() - started), flush=True)
    started = time.time()
    model = fit_logistic(x[~held], y[~held], hidden, epochs, batch=batch or len(y))
    # "Plays left" alone: the bot's plays left less the fewest of the opponents', and whose turn.
    plain_columns = [0, 8, 16, 24, 25, 26]
    plain = fit_logistic(x[~held][:, plain_columns], y[~held], 0, epochs, batch=batch or len(y))
    print("fitted in %.0f s" % (time.time() - started))
    base = float(y[~held].mean())
    for label, mask in [("all", held)] + [("after %d moves" % s, held & (steps == s)) for s in RECORD_STEPS]:
        if not mask.any():
            continue
        yy = y[mask]
        const = float(-(yy * math.log(base) + (1 - yy) * math.log(1 - base)).mean()), float(((base - yy) ** 2).mean())
        fitted = losses(model, x[mask], yy)
        few = losses(plain, x[mask][:, plain_columns], yy)
        print("  %-15s %6d states, label mean %.3f: log loss / Brier  V %.4f / %.4f   plays left %.4f / %.4f   "
              "constant %.4f / %.4f" % (label, mask.sum(), yy.mean(), fitted[0], fitted[1], few[0], few[1],
                                         const[0], const[1]))
    return model


def write_module(model, path):
    """Write a fitted model as a bot weights module, in thousandths."""
    lines = ['"""Generated by `python -m bench.paodekuai_value --train ... --module FILE`: do not edit.',
             "",
             "Pao De Kuai's Stark scores a cut playout with this small model (bench/paodekuai_value.py).",
             "Every weight is in thousandths.",
             '"""', ""]
    if model["hidden"]:
        lines.append("VALUE_HIDDEN = [")
        for row in model["w1"]:
            lines.append("    %s," % json.dumps([round(1000 * w) for w in row]).replace(" ", ""))
        lines.append("]")
        lines.append("VALUE_BIAS = %s" % json.dumps([round(1000 * b) for b in model["b1"]]).replace(" ", ""))
        lines.append("VALUE_OUTPUT = %s" % json.dumps([round(1000 * w) for w in model["w2"]]).replace(" ", ""))
        lines.append("VALUE_OUTPUT_BIAS = %d" % round(1000 * model["b2"]))
    else:
        lines.append("VALUE_WEIGHTS = %s" % json.dumps([round(1000 * w) for w in model["w"]]).replace(" ", ""))
        lines.append("VALUE_BIAS = %d" % round(1000 * model["b"]))
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


# -- evaluation -------------------------------------------------------------------------------------------

def parse_spec(spec, model):
    """Return (label, choose function) of a SPEC (see the module docstring)."""
    if spec == "bot":
        return "the bot's strong_choose", bots.strong_choose
    if spec == "plain":
        return "bench copy, no cut", value_choose(model)
    params = {}
    for part in spec.split(","):
        key, text = part.split("=")
        params[key] = float(text) if key == "worth" else int(text)
    return spec, value_choose(model, **params)


def evaluate(specs, games, seed_base, model, repeat=1):
    """Print the bot's share and each variant's, paired on the same deals, with the CPU time per decision."""
    print_paired([parse_spec("bot", model)] + [parse_spec(spec, model) for spec in specs], games, seed_base, repeat)


def regret(specs, deals, seed_base, model, guesses):
    """Print each variant's mean regret (win-rate points below the best of the 3 shortlisted options, rates
    from `guesses` full playouts without budget) over the decisions of N deals of the bot, by phase."""
    lines = [parse_spec(spec, model) for spec in ["plain"] + specs]
    totals = [[0.0] * 3 for _ in lines]
    done = [[0] * 3 for _ in lines]
    counts = [0] * 3
    started = time.time()
    for deal in range(deals):
        seed = seed_base + deal
        label_rng = Rng(seed * 41 + 3)

        def move(state, view, bot_rng):
            decided, context = prepare(view)
            if decided is None:
                ranked = context["ranked"][:bots.SHORTLIST]
                if len(ranked) > 1:
                    wins, played = bots.play_out(ranked, context["seat"], context["others"], context["sizes"],
                                                 context["unseen"], context["caps"], {}, label_rng, guesses, 10 ** 12,
                                                 10 ** 12)
                    rates = {ranked[i][2]: wins[i] / played for i in range(len(ranked))}
                    best = max(rates.values())
                    smaller = min(context["opp_sizes"])
                    phase = 0 if smaller >= 10 else (1 if smaller >= 5 else 2)
                    counts[phase] += 1
                    for n, (label, choose) in enumerate(lines):
                        action = choose.decide(dict(context, memo=dict(context["memo"])), Rng(list(bot_rng.state)))
                        totals[n][phase] += best - rates[action]
                        done[n][phase] += choose.guesses.pop()
            return bots.strong_choose(view, bot_rng)

        play_stark_deal(seed, deal % 3, move)
        if deal % 100 == 99:
            print("%d deals, %.0f s" % (deal + 1, time.time() - started), flush=True)
    print("regret, win-rate points (decisions: %d with 10 or more cards, %d with 5 to 9, %d with 4 or fewer)" % tuple(
        counts))
    for n, (label, _) in enumerate(lines):
        print("  %-40s all %.2f   10+ %.2f   5-9 %.2f   4- %.2f   guesses %s" % (
            label, 100 * sum(totals[n]) / max(1, sum(counts)),
            *[100 * totals[n][k] / max(1, counts[k]) for k in range(3)],
            " / ".join("%.1f" % (done[n][k] / max(1, counts[k])) for k in range(3))), flush=True)


def main():
    """Run the mode asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generate", metavar="FILE")
    parser.add_argument("--generate-real", metavar="FILE")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--guesses", type=int, default=3)
    parser.add_argument("--train", nargs="+", metavar="FILE")
    parser.add_argument("--hidden", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=1500, help="Adam steps")
    parser.add_argument("--batch", type=int, default=8192, help="states per step (0: all)")
    parser.add_argument("--no-weak", action="store_true", help="leave out the weak-play counts (cheaper inputs)")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--module", metavar="FILE")
    parser.add_argument("--evaluate", nargs="+", metavar="SPEC")
    parser.add_argument("--weights", metavar="FILE")
    parser.add_argument("--regret", nargs="+", metavar="SPEC")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    if args.train:
        require("bench.paodekuai_value --train", python_package("numpy", "tools"))
    if args.generate_real:
        generate_real(args.generate_real, args.deals, 42000000 if args.seed is None else args.seed)
    elif args.generate:
        generate(args.generate, args.deals, 40000000 if args.seed is None else args.seed, args.guesses)
    elif args.train:
        model = train(args.train, args.hidden, args.epochs, not args.no_weak, args.batch)
        model["weak"] = not args.no_weak
        save_network(model, args.json, args.module, write_module)
    elif args.evaluate or args.regret:
        model = None
        if args.weights:
            with open(args.weights) as source:
                model = json.load(source)
        if args.regret:
            regret(args.regret, args.deals, 41000000 if args.seed is None else args.seed, model, args.guesses)
            return
        evaluate(args.evaluate, args.games, 2000000 if args.seed is None else args.seed, model, args.repeat)


if __name__ == "__main__":
    main()

"""Distil a playout search into a cheap learned score for Mau-Mau's Stark: python -m bench.maumau_distill MODE ...

The eighth step (docs/benchmarks.md) found that playing each option out on 64 to 128 guessed deals
once an opponent is near out gains about 3 points of whole games over Stark, at 6,000 to 13,000
times its CPU. Here the search is run offline and a small score of (view, option) is fitted to it,
the way bench/paodekuai_distill.py did for Pao De Kuai.

Modes (PYTHONPATH=web/py:. python -m bench.maumau_distill ...):

`--generate FILE [--games N] [--seed S] [--guesses G] [--near M]` plays N whole games (seeds from S,
40,000,000 by default: disjoint from the evaluation seeds 9,000,000 and 5,000,000 and from the
ladder's) of Stark against 3 Mittel with the default options (Stark's seat = game mod 4). At each of
Stark's decisions with two or more plays (a Jack's four named suits count as four), no open 7 and no
way to empty its hand this turn, while an opponent holds M cards or fewer (3 by default), every play
is played out on the same G guesses (64 by default; each guess: the unseen cards dealt anew, every
seat playing on by its own level's rule, scored by the others' mean minus points gained less its own:
`playout_worth` of bench/strength_maumau.py). It writes one JSON line per decision: the view's
figures the features need, the plays, each play's mean worth and Stark's choice. The game goes on
with Stark's choice.

`--generate FILE --real G [--games N] [--seed S] [--near M]` labels from real continuations instead:
the game is the bot's own (choose_strong, learned score included) against 3 Mittel, and every play is
continued from the true state, the opponents' true hands kept, on the same G copies with only the
stock's order (and the later reshuffles) drawn anew, every seat playing on by its own rule (Stark's
seat by the bot), scored as above. The hands are a draw from their real distribution given the view,
not uniformly guessed, but one draw only: the labels are unbiased and noisy.

`--train FILE [FILE ...] [--hidden H] [--epochs E] [--json FILE] [--fits K]` fits a score to the plays' worth
centred within each decision: a linear score (`--hidden 0`) or a network of H rectified units (Adam,
whole batch), on the decisions of games whose seed is not a multiple of 5, and prints for the others
the mean regret in minus points (the best play's worth less the chosen one's; label noise keeps even
a perfect choice above 0) of Stark's choice, the score alone and Stark's own score plus W times the
learned one, overall and by the nearest opponent's hand size. `--json` writes the fitted score for
`--evaluate --weights`.

`--fits K` fits K networks (seeds 1 to K) and keeps the mean of their scores, written as one
network of K times H units (each output weight divided by K); with `--json FILE` each fit alone is
written to FILE.fit1 and on.

`--train ... --hidden H --module FILE` also writes the network as the bot's weights module.

`--average FILE [FILE ...] [--json FILE] [--module FILE]` writes the mean of the networks' scores
(each as `--train --json` writes, e.g. fits on different data) as one network, the same way.

`--evaluate SPEC [SPEC ...] [--weights FILE] [--games N] [--seed S]` plays N whole games (20,000;
seeds from S, 9,000,000 by default; Stark's seat = game mod 4, bots' generator as in
`strength_maumau --rollouts`) of Stark as it was before the learned score and of each variant against
3 Mittel on the same seeds, and prints each share with its paired gain over the first line and the
CPU time per decision of that line (median / p99 / worst ms, thread CPU). A SPEC is `W,M` or `W,M,FILE`: the
learned score, times W, is added to Stark's own score of each play (W = `inf`: the learned score
alone) while an opponent holds M cards or fewer; `bot` plays the bot's choose_strong itself. The
weights are FILE's (as `--train --json` writes), else `--weights FILE`'s, else the bot's weights
module's. `--base bot` makes the bot's choose_strong the first line, so the paired gains are over it.

The bot's weights (bots/maumau_weights.py; the bot plays `inf,4`) are the mean of two networks of 16
units, one fitted to 64 guesses a play, one to 16 real continuations a play:
    --generate G.jsonl --games 1400 --seed 40000000 --guesses 64 --near 3  (19,339 decisions, 25 min CPU)
    --train G.jsonl --hidden 16 --epochs 2000 --json G.json                (3 to 4 minutes)
    --generate R.jsonl --real 16 --games 3000 --seed 60000000 --near 4     (57,900 decisions, 30 min CPU)
    --train R.jsonl --hidden 16 --epochs 2000 --json R.json                (10 minutes)
    --average G.json R.json --module web/py/spieleabend/bots/maumau_weights.py
(each fitted on the 80 % of decisions that are not held out). G.json alone was the bot's weights
before (40.5 % on the seeds from 9,000,000, 40.2 % from 5,000,000); the mean plays 40.9 % and 41.0 %,
paired +0.5 +- 0.7 and +0.7 +- 0.7 points over it; the network of R.json alone lost 0.7 +- 0.8 points,
the mean of three fits to G.jsonl (`--fits 3`) gained 0.1 +- 0.6 on the seeds from 9,000,000.
"""

import argparse
import json
import math
import time

from bench import paodekuai_distill
from bench.common import format_share, paired_gain, percentile, median, require, python_package
from bench.strength_maumau import playout_worth, unseen_dealt_anew, _fresh
from spieleabend.bots import maumau as bots
from spieleabend.games import maumau
from spieleabend.games.common import Rng


FEATURES = ["card points", "a 7", "an 8", "a 9", "an Ace", "a Jack", "a 10, Queen or King",
            "cards left", "points left", "Jacks left", "only a Jack left", "cards left that fit the new top",
            "cards left of the new suit", "cards left of the rank", "next seat drew on the new suit",
            "nearest seat drew on the new suit", "Jack names the suit held most", "Stark's score",
            "Stark's choice", "next seat holds 1", "next seat holds 2", "next seat's cards",
            "previous seat holds 2 or fewer", "heads-up", "7 or 8 against a next seat near out",
            "9 towards the larger hand", "suits left", "8 heads-up",
            "nearest holds 1", "nearest holds 2", "cards held", "seats in", "nearest is the next seat"]


def gaps_of(view):
    """Return per seat the suits it drew on instead of following (the bot's own reading)."""
    return bots._opponent_gaps(view)


def neighbours(view):
    """Return (the next seat, the previous seat) of the view's seat in the current direction."""
    me = view["seat"]
    return maumau.step_seat(view, me, view["direction"]), maumau.step_seat(view, me, -view["direction"])


def stark_scores(view, gaps):
    """Return Stark's score of each card it may play (the bot's own play_scores, no pending, no chain)."""
    nxt, prev = neighbours(view)
    sizes = view["hand_sizes"]
    min_other = 99
    for seat in range(len(sizes)):
        if seat != view["seat"] and not view["out"][seat] and sizes[seat] < min_other:
            min_other = sizes[seat]
    cards = {}
    for action in view["legal"]:
        if action != "draw":
            cards[bots._split(action)[0]] = True
    return bots.play_scores(view, cards, gaps, nxt, prev, min_other <= bots.DANGER_SIZE)


def plays_of(view):
    """Return the distinct plays as "card" or "card:suit" (Mau always said, drawing left out)."""
    plays = []
    for action in view["legal"]:
        if action == "draw" or action.endswith(" mau"):
            continue
        plays.append(action.split(" ")[1])
    return plays


def option_inputs(view, gaps, play, stark, chosen):
    """Return the inputs of one play: the bot's own learned_inputs, so the fit and the bot read the same."""
    nxt, prev = neighbours(view)
    return bots.learned_inputs(view, gaps, nxt, prev, play, stark, chosen)


def stark_as_it_was(view, rng):
    """Return Stark's choice before the learned score (the bot without it)."""
    return bots.choose_strong(view, rng, learned_near=0)


def stark_play(view):
    """Return Stark's choice before the learned score as a play ("card" or "card:suit")."""
    action = stark_as_it_was(view, None)
    return action.split(" ")[1]


def nearest_size(view):
    """Return the hand size of the opponent nearest to out."""
    me = view["seat"]
    sizes = view["hand_sizes"]
    return min(sizes[seat] for seat in range(len(sizes)) if seat != me and not view["out"][seat])


def searchable(view):
    """Return True at a decision the learned score may change: two or more plays, no 7 open, no sure empty."""
    if view["pending"] or len(plays_of(view)) < 2:
        return False
    extra = {"A": True}
    me = view["seat"]
    if maumau.step_seat(view, me, view["direction"]) == maumau.step_seat(view, me, -view["direction"]):
        extra["8"] = True
    return bots._can_empty(view["hand"], view["suit"], view["top"][:-1] if not view["wish"] else "J", extra) is None


def raw_of(view):
    """Return the view's figures the features need (the events only as the seats' gaps)."""
    gaps = gaps_of(view)
    return {"hand": view["hand"], "top": view["top"], "suit": view["suit"], "wish": view["wish"],
            "pending": view["pending"], "direction": view["direction"], "seat": view["seat"],
            "hand_sizes": view["hand_sizes"], "out": view["out"], "legal": view["legal"],
            "gaps": {str(seat): sorted(suits) for seat, suits in gaps.items()}}


def gaps_from_raw(raw):
    """Return the gaps dict of a stored decision."""
    return {int(seat): {suit: True for suit in suits} for seat, suits in raw["gaps"].items()}


def generate(path, games, seed_base, copies, near, real=False, seats=4):
    """Play whole games and write each searched decision's plays with their mean playout worth.

    The playouts start from `copies` guesses of the hidden cards (Stark as it was before the learned
    score plays the game), or with `real` from the true state with only the stock reshuffled (the bot
    plays the game)."""
    players = [bots.choose_medium] * seats
    written = 0
    started = time.process_time()
    with open(path, "a") as out:
        for game in range(games):
            seed = seed_base + game
            me = game % seats
            seat_players = list(players)
            seat_players[me] = bots.choose_strong if real else stark_as_it_was
            state = maumau.new_game({"seats": seats}, Rng(seed))
            rng = Rng(seed * 7919 + 17)
            search_rng = Rng(seed * 104729 + 3)
            while maumau.outcome(state) is None:
                if state["phase"] == "between":
                    maumau.start_next_deal(state)
                    continue
                seat = state["turn"]
                view = maumau.view(state, seat)
                action = seat_players[seat](view, rng)
                if seat == me and searchable(view) and nearest_size(view) <= near:
                    plays = plays_of(view)
                    starts = [stock_reshuffled(state, search_rng) if real else unseen_dealt_anew(state, me, search_rng)
                              for _ in range(copies)]
                    worth = []
                    for play in plays:
                        legal_action = "play " + play
                        if legal_action + " mau" in view["legal"]:
                            legal_action += " mau"
                        total = 0.0
                        for start in starts:
                            total += playout_worth(_fresh(start), me, legal_action, seat_players, search_rng)
                        worth.append(round(total / copies, 3))
                    out.write(json.dumps({"game": seed, "raw": raw_of(view), "plays": plays, "worth": worth,
                                          "stark": stark_play(view), "minus": state["minus"][me]}) + "\n")
                    written += 1
                maumau.apply_action(state, seat, action)
            if (game + 1) % 50 == 0:
                out.flush()
                print("  %d games, %d decisions, %.0f s CPU" % (game + 1, written, time.process_time() - started),
                      flush=True)
    print("wrote %d decisions of %d games to %s (%.0f s CPU)" % (written, games, path, time.process_time() - started))


def stock_reshuffled(state, rng):
    """Return a copy of the state with only the stock's order (and the later reshuffles) drawn anew."""
    copy = _fresh(state)
    rng.shuffle(copy["stock"])
    copy["rng"] = [rng.next32() | 1, rng.next32(), rng.next32(), rng.next32()]
    return copy


def decision_inputs(raw, plays):
    """Return the inputs of each play of a stored decision."""
    gaps = gaps_from_raw(raw)
    scores = stark_scores(raw, gaps)
    chosen = stark_play(_view_for_stark(raw))
    return [option_inputs(raw, gaps, play, scores[play.partition(":")[0]], play == chosen) for play in plays], \
        [scores[play.partition(":")[0]] for play in plays], chosen


def _view_for_stark(raw):
    """Return a view Stark can decide on from a stored decision (events rebuilt from the gaps)."""
    view = dict(raw)
    events = []
    for seat, suits in raw["gaps"].items():
        for suit in suits:
            events.append({"type": "draw", "seat": int(seat), "obligation": False, "suit": suit})
    view["events"] = events
    return view


def load(paths):
    """Return the stored decisions as (seed, plays, worth, inputs, Stark's scores, its choice, nearest size)."""
    items = []
    for path in paths:
        with open(path) as lines:
            for line in lines:
                row = json.loads(line)
                inputs, scores, chosen = decision_inputs(row["raw"], row["plays"])
                index = row["plays"].index(row["stark"])
                items.append((row["game"], row["plays"], row["worth"], inputs, scores, index,
                              nearest_size(row["raw"])))
    return items


def fit(items, hidden, epochs, seed=1, rate=0.003, decay=1e-4):
    """Return a score (linear if hidden is 0) fitted to the plays' worth centred within each decision."""
    import numpy

    if hidden:
        return paodekuai_distill.fit_network([item[3] for item in items], [item[2] for item in items], hidden,
                                             epochs, seed, rate, decay)
    width = len(items[0][3][0])
    count = max(len(item[3]) for item in items)
    x = numpy.zeros((len(items), count, width))
    y = numpy.zeros((len(items), count))
    mask = numpy.zeros((len(items), count))
    for n, item in enumerate(items):
        k = len(item[3])
        x[n, :k] = item[3]
        y[n, :k] = numpy.array(item[2]) - numpy.mean(item[2])
        mask[n, :k] = 1
    mean = (x * mask[..., None]).sum(axis=(0, 1)) / mask.sum()
    std = numpy.sqrt((((x - mean) ** 2) * mask[..., None]).sum(axis=(0, 1)) / mask.sum()) + 1e-6
    xs = (x - mean) / std
    counts = mask.sum(axis=1, keepdims=True)
    # Least squares on the inputs centred within each decision (ridge 1).
    xc = (xs - (xs * mask[..., None]).sum(axis=1, keepdims=True) / counts[..., None]) * mask[..., None]
    a = xc.reshape(-1, width)
    weights = numpy.linalg.solve(a.T @ a + numpy.eye(width), a.T @ y.reshape(-1))
    return {"linear": [round(float(w), 6) for w in weights / std]}


def learned(net, inputs):
    """Return the learned score of one play's inputs (pure Python)."""
    if "linear" in net:
        return sum(w * x for w, x in zip(net["linear"], inputs))
    return paodekuai_distill.mlp_score(net, inputs)


def regret(items, pick):
    """Return the mean regret in minus points of a picking rule over some decisions."""
    total = 0.0
    for item in items:
        worth = item[2]
        total += max(worth) - worth[pick(item)]
    return total / max(1, len(items))


def combined_pick(net, weight):
    """Return a picking rule: Stark's score plus `weight` times the learned one (inf: learned alone)."""
    def pick(item):
        values = []
        for index, inputs in enumerate(item[3]):
            value = learned(net, inputs)
            if weight != math.inf:
                value = item[4][index] + weight * value
                if index == item[5]:
                    value += 1e-9  # ties: Stark's own choice
            values.append(value)
        return values.index(max(values))
    return pick


WEIGHTS_SHOWN = (0.3, 1, 3, 10, math.inf)


def averaged(nets):
    """Return the mean of several networks' scores as one network (their hidden units side by side)."""
    return {"w1": [row for net in nets for row in net["w1"]], "b1": [b for net in nets for b in net["b1"]],
            "w2": [w / len(nets) for net in nets for w in net["w2"]], "b2": 0.0}


def train(paths, hidden, epochs, json_path=None, module_path=None, fits=1):
    """Fit on the games whose seed is not a multiple of 5 and print the held-out regret table."""
    items = load(paths)
    held = [item for item in items if item[0] % 5 == 0]
    used = [item for item in items if item[0] % 5 != 0]
    started = time.time()
    if hidden and fits > 1:
        nets = [fit(used, hidden, epochs, seed=seed) for seed in range(1, fits + 1)]
        for seed, one in enumerate(nets, 1):
            print("  fit %d alone, held out: W=inf %.3f" % (seed, regret(held, combined_pick(one, math.inf))))
            if json_path:
                with open("%s.fit%d" % (json_path, seed), "w") as out:
                    json.dump(one, out)
        net = averaged(nets)
    else:
        net = fit(used, hidden, epochs)
    label = "linear score" if not hidden else "network of %d units, %d epochs" % (hidden, epochs)
    if hidden and fits > 1:
        label = "mean of %d networks of %d units (seeds 1 to %d), %d epochs" % (fits, hidden, fits, epochs)
    print("%s (%.0f s), %d decisions fitted, %d held out" % (label, time.time() - started, len(used), len(held)))

    def line(name, part):
        cells = ["Stark %.2f" % regret(part, lambda item: item[5]),
                 "best of Stark's score %.2f" % regret(part, lambda item: item[4].index(max(item[4])))]
        cells += ["W=%g %.2f" % (w, regret(part, combined_pick(net, w))) for w in WEIGHTS_SHOWN]
        print("  %-28s %5d decisions: %s" % (name, len(part), ", ".join(cells)))

    line("held out", held)
    line("fitted part", used)
    for size in (1, 2, 3, 4):
        part = [item for item in held if item[6] == size]
        if part:
            line("held out, nearest holds %d" % size, part)
    paodekuai_distill.save_network(net, json_path, module_path, write_module)
    return net


def write_module(net, path):
    """Write a fitted network as the bot's weights module, in thousandths."""
    paodekuai_distill.write_network_module(net, path, [
        '"""Generated by `python -m bench.maumau_distill --train/--average ... --module FILE`: do not edit.',
        "",
        "Near the end of a deal Mau-Mau's Stark takes the play this small network scores best (Stark's own",
        "score is one of its inputs), fitted to the plays' worth in a playout search (the mean of fits'",
        "scores, their hidden units side by side; see bench/maumau_distill.py). Every weight is in thousandths.",
        '"""',
        "",
        "# HIDDEN[unit]: one weight per input (bots/maumau.py learned_inputs); HIDDEN_BIAS[unit];",
        "# OUTPUT[unit]: the weight of each rectified hidden unit in the score (minus points)."])


def variant_chooser(net, weight, near):
    """Return a choose(view, rng) that adds the learned score to Stark's at the decisions it may change."""
    def choose(view, rng):
        if view["legal"] and len(view["legal"]) > 1 and searchable(view) and nearest_size(view) <= near:
            gaps = gaps_of(view)
            scores = stark_scores(view, gaps)
            chosen = stark_play(view)
            best = best_value = None
            for play in plays_of(view):
                stark = scores[play.partition(":")[0]]
                value = learned(net, option_inputs(view, gaps, play, stark, play == chosen))
                if weight != math.inf:
                    value = stark + weight * value + (1e-9 if play == chosen else 0)
                if best_value is None or value > best_value:
                    best, best_value = play, value
            action = "play " + best
            return action + " mau" if action + " mau" in view["legal"] else action
        return stark_as_it_was(view, rng)
    return choose


def play_game(seed, me, chooser, seats=4, spent=None):
    """Play one whole game of `chooser` at seat `me` against Mittel; return its share of the win."""
    players = [bots.choose_medium] * seats
    state = maumau.new_game({"seats": seats}, Rng(seed))
    rng = Rng(seed * 7919 + 17)
    while maumau.outcome(state) is None:
        if state["phase"] == "between":
            maumau.start_next_deal(state)
            continue
        seat = state["turn"]
        view = maumau.view(state, seat)
        if seat == me:
            started = time.thread_time()
            action = chooser(view, rng)
            if spent is not None:
                spent.append(time.thread_time() - started)
        else:
            action = players[seat](view, rng)
        maumau.apply_action(state, seat, action)
    winners = maumau.outcome(state)["winners"]
    return 1.0 / len(winners) if me in winners else 0.0


def module_net():
    """Return the bot's weights module as a network for `learned` (thousandths back to units)."""
    from spieleabend.bots import maumau_weights as module
    return paodekuai_distill.read_network_module(vars(module))


def evaluate(specs, weights_path, games, seed_base, base="stark"):
    """Print Stark's share and each variant's, paired on the same seeds, with CPU per decision."""
    if weights_path:
        with open(weights_path) as source:
            net = json.load(source)
    else:
        net = module_net()
    if base == "bot":
        lines = [("the bot's choose_strong", bots.choose_strong)]
    else:
        lines = [("stark as it was", stark_as_it_was)]
    for spec in specs:
        if spec == "bot":
            lines.append(("the bot's choose_strong", bots.choose_strong))
            continue
        weight, near, *path = spec.split(",", 2)
        label = "W=%s, nearest <= %s" % (weight, near)
        if path:
            with open(path[0]) as source:
                lines.append((label + ", " + path[0].rpartition("/")[2],
                              variant_chooser(json.load(source), float(weight), int(near))))
            continue
        lines.append((label, variant_chooser(net, float(weight), int(near))))
    results = []
    for label, chooser in lines:
        spent = []
        won = [play_game(seed_base + game, game % 4, chooser, spent=spent) for game in range(games)]
        results.append(won)
        line = format_share("%s (seeds from %d)" % (label, seed_base), sum(won), games)
        if len(results) > 1:
            line += "  paired %s points" % paired_gain(won, results[0])
        print(line)
        print("    CPU per decision: median %.3f ms, p99 %.3f ms, worst %.2f ms (%d decisions)" % (
            1000 * median(spent), 1000 * percentile(spent, 0.99), 1000 * max(spent), len(spent)), flush=True)


def main(argv=None):
    """Parse the mode and run it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generate", metavar="FILE")
    parser.add_argument("--train", nargs="+", metavar="FILE")
    parser.add_argument("--evaluate", nargs="+", metavar="SPEC")
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--guesses", type=int, default=64)
    parser.add_argument("--near", type=int, default=3)
    parser.add_argument("--hidden", type=int, default=0)
    parser.add_argument("--epochs", type=int, default=2000)
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--weights", metavar="FILE")
    parser.add_argument("--module", metavar="FILE", help="with --train --hidden H: write the bot's weights module")
    parser.add_argument("--real", type=int, metavar="G", default=0,
                        help="with --generate: label by G real continuations (true hands, stock reshuffled)")
    parser.add_argument("--fits", type=int, default=1, help="with --train --hidden H: average this many fits")
    parser.add_argument("--average", nargs="+", metavar="FILE",
                        help="write the mean of these networks (as --train --json writes) with --json or --module")
    parser.add_argument("--base", choices=("stark", "bot"), default="stark",
                        help="with --evaluate: the first line, the others' paired gains are over it")
    args = parser.parse_args(argv)
    if args.generate:
        generate(args.generate, args.games or 100, 40000000 if args.seed is None else args.seed,
                 args.real or args.guesses, args.near, real=bool(args.real))
    elif args.train:
        require("bench.maumau_distill --train", python_package("numpy", "the tools extra: pip install -e '.[tools]'"))
        train(args.train, args.hidden, args.epochs, args.json, args.module, args.fits)
    elif args.average:
        nets = []
        for path in args.average:
            with open(path) as source:
                nets.append(json.load(source))
        paodekuai_distill.save_network(averaged(nets), args.json, args.module, write_module)
    elif args.evaluate:
        evaluate(args.evaluate, args.weights, args.games or 20000, 9000000 if args.seed is None else args.seed,
                 args.base)
    else:
        parser.error("one of --generate, --train, --average, --evaluate")


if __name__ == "__main__":
    main()

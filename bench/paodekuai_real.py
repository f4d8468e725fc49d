"""Pao De Kuai's Stark learns from real continuations: python -m bench.paodekuai_real MODE ...

Stark's playouts and the long search bench.paodekuai_distill learned from both ASSUME things: random
guesses of the hidden hands and everybody (Stark itself too) moving by the greedy rule. Here the labels
come from the real thing: in the data generator the true hands are known, so at each of Stark's
decisions every labelled option is played on a copy of the real deal, and the deal is played on to its
end by the real players (the greedy opponents with their true hands, Stark's seat by the bot's own
strong_choose, or with `--stark` a variant as `--evaluate` reads it). Averaged over many deals this is
the value Stark should maximise: the real posterior over the hidden hands and Stark's real future play.

Modes (PYTHONPATH=web/py:. python -m bench.paodekuai_real ...):

`--generate FILE [--deals N] [--seed S] [--options O] [--runs K] [--stark SPEC [--weights FILE]]` plays
N single deals (seeds from S, 50,000,000 by default: disjoint from the evaluation seeds 2,000,000 and
5,000,000, from the ladder's and from the earlier data seeds 30,000,000, 40,000,000 and 42,000,000) of
the bot's strong_choose against 2 greedy players (Stark's seat = deal mod 3). At each of Stark's
decisions with two or more shortlisted options and no sure win (the filter of bench.paodekuai_distill
--generate), each of the first O options by fewest plays left (3 by default: the bot's shortlist; O must
cover every option `--stark` may choose) is played on a copy of the real state and the deal continued to
its end K times (2 by default), Stark's seat with a fresh generator per run, the same K generators for
every option (paired; the greedy players use no generator, and 97 % of options gave the same result in
both runs: K = 1 and more deals is the better use of the time). One JSON line per decision: the network
inputs of every labelled option (the bot's option_inputs and the decision's inputs learned_scores reads),
the K results per option (1: Stark's seat went out first), which option Stark chose, the hand sizes.
Prints its progress.

`--train FILE [FILE ...] [--hidden H] [--epochs E] [--options O] [--residual C [--reference FILE]]
[--json FILE] [--module FILE] [--all]` fits a network of H rectified units (16 by default, with
bench.paodekuai_distill.fit_network) on the first O labelled options of each decision (all by default),
to the mean result less C times the reference network's score (C = 0 by default; a negative C adds it),
centred within each decision, on the deals whose seed is not a multiple of 5 (all with `--all`). The
reference network is the bot's weights module or the weights module file `--reference` names. It
prints for the held-out decisions (seed a multiple of 5) the mean real result of the option each rule
picks among the first 3 (win-rate points; the same decisions, so the differences to the bot's own
choice are paired, with their 95 % margins): the bot's own choice, fewest plays left, the reference
network alone, the new network alone, the same among the first O and (with C) the new network plus C
times the reference; overall and by the smaller opponent hand. `--json` writes the network for `--evaluate --weights`,
`--module` as the bot's weights module.

`--evaluate SPEC [SPEC ...] [--games N] [--seed S] [--repeat R] [--weights FILE] [--reference FILE]`
plays N deals (2,000; seeds from S, 2,000,000 by default; Stark's seat = deal mod 3) of the bot's
strong_choose and of each variant against 2 greedy players on the same deals, and prints each share, its
paired gain over the bot and the CPU time per decision with a choice, median / p99 / worst ms (with
`--repeat R` the least of R runs; bench.paodekuai_distill.timed). A SPEC is `bot` or comma-separated
key=value: `net` (`old`: the reference network; `new`: the `--weights` file), `old` (that many times the
reference network's score is added to the new one's, 0), `worth` (guesses' worth of the score while both
opponents hold more than `above` cards, 30; `inf`: the score alone picks), `above` (4), `short` (the
best-scored options played out there, 2; 0: all), `late` (the score's worth at `above` cards or fewer,
0: the playouts alone), `options` (how many options by fewest plays left are scored, 3 as the bot's
shortlist). `net=old` with the defaults is the bot as it was before this bench (with `--reference` the
weights module of commit 8280e79); `net=new,worth=20,late=3` is the bot as it is now.

The bot's weights (bots/paodekuai_weights.py), from 42,000 deals and 183,219 decisions:
    --generate FILE1 --deals 12000 --seed 50000000 --options 5 --runs 2
    --generate FILE2 --deals 30000 --seed 51000000 --options 3 --runs 1
    --train FILE1 FILE2 --options 3 --residual -0.5 --reference OLD --module FILE
where OLD is the weights module the bot had before (`git show 8280e79:web/py/spieleabend/bots/paodekuai_weights.py`).
The data were generated with the bot as it was then (strong_choose at commit 37fb0dc); with the bot as it
is, add `--stark net=old --reference OLD` to both --generate lines: the bench's copy of that bot (it gave
the same shares as the bot on both evaluation seed sets). The fit uses numpy (the tools extra; set
OPENBLAS_NUM_THREADS=1 on a shared machine): about 6 minutes; generating took 14 minutes per file.
"""

import argparse
import json
import math
import pickle
import runpy
import time

from bench.common import python_package, require
from bench.paodekuai_distill import (context_inputs, fit_network, load, mlp_score, playouts, prepare, print_paired,
                                     read_network_module, save_network, timed, write_network_module)
from bench.strength_paodekuai import play_stark_deal
from spieleabend.bots import paodekuai as bots
from spieleabend.games import paodekuai as engine
from spieleabend.games.common import Rng


def decision_inputs(context, ranked):
    """Return the network inputs of each option as the bot's learned_scores reads them."""
    least = ranked[0][0] // 100
    shared = context_inputs(context["mine"], context["opp_sizes"], context["leading"], least)
    return [bots.option_inputs(option, least, context["mine"], context["possible"], context["opp_sizes"],
                               context["memo"]) + shared for option in ranked]


def continue_deal(state, seat, action, rng, stark):
    """Play `action` for `seat` on a copy of the real state and the deal on to its end with the real players
    (greedy opponents, Stark's choose function `stark` on `seat`); return 1 if `seat` went out first."""
    state = pickle.loads(pickle.dumps(state, -1))
    engine.apply_action(state, seat, action)
    while engine.outcome(state) is None:
        turn = engine.to_move(state)[0]
        view = engine.view(state, turn)
        if turn == seat:
            move = stark(view, rng)
        else:
            move = bots.greedy_choose(view, rng)
        engine.apply_action(state, turn, move)
    record = state["log"][-1]
    winner = [s for s in record["settlements"] if s["kind"] == "out"][0]["seat"]
    return 1 if winner == seat else 0


def generate(path, deals, seed_base, options, runs, stark=bots.strong_choose):
    """Write one JSON line per decision of the bot with a choice: option inputs and real-continuation results."""
    started = time.time()
    written = 0
    with open(path, "w") as out:
        for deal in range(deals):
            seed = seed_base + deal
            seat = deal % 3
            number = [0]

            def move(state, view, bot_rng):
                nonlocal written
                decided, context = prepare(view)
                action = stark(view, bot_rng)
                if decided is not None or len(context["ranked"][:bots.SHORTLIST]) < 2:
                    return action
                number[0] += 1
                ranked = context["ranked"][:options]
                results = []
                for option in ranked:
                    results.append([continue_deal(state, seat, option[2], Rng(seed * 4099 + number[0] * 37 + run), stark)
                                    for run in range(runs)])
                chosen = [option[2] for option in ranked].index(action)
                out.write(json.dumps({"deal": seed, "leading": context["leading"],
                                      "sizes": context["opp_sizes"], "cards": ranked[0][6],
                                      "inputs": [[round(x, 5) for x in row] for row in decision_inputs(context, ranked)],
                                      "results": results, "chosen": chosen}) + "\n")
                written += 1
                return action

            play_stark_deal(seed, seat, move)
            if deal % 100 == 99:
                print("%d deals, %d decisions, %.0f s" % (deal + 1, written, time.time() - started), flush=True)
    print("wrote %d decisions of %d deals in %.0f s" % (written, deals, time.time() - started))


# -- training --------------------------------------------------------------------------------------------

REFERENCE = [None]  # --reference: a weights module file read instead of the bot's own


def old_network():
    """Return the reference network for mlp_score: the bot's weights module or the --reference file."""
    if REFERENCE[0] is None:
        from spieleabend.bots import paodekuai_weights as module
        tables = vars(module)
    else:
        tables = runpy.run_path(REFERENCE[0])
    return read_network_module(tables)


def rates(row):
    """Return each labelled option's mean real result."""
    return [sum(r) / len(r) for r in row["results"]]


def report(rows, rules):
    """Print the mean real result (win-rate points) of each rule's pick, overall and by the smaller hand."""
    buckets = [("all", lambda s: True), ("smaller 10+", lambda s: s >= 10), ("5-9", lambda s: 5 <= s <= 9),
               ("4 or fewer", lambda s: s <= 4)]
    for label, test in buckets:
        part = [row for row in rows if test(min(row["sizes"]))]
        if not part:
            continue
        best = sum(max(rates(row)[:3]) for row in part) / len(part)
        line = "  %-12s %6d decisions:" % (label, len(part))
        base = None
        for name, pick in rules:
            values = [100 * rates(row)[pick(row)] for row in part]
            if base is None:
                base = values
                line += " %s %.2f" % (name, sum(values) / len(part))
            else:
                diffs = [a - b for a, b in zip(values, base)]
                mean = sum(diffs) / len(part)
                spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(part) - 1) / len(part))
                line += ", %s %+.2f ± %.2f" % (name, mean, 1.96 * spread)
        base = sum(base) / len(part)
        print(line + "  (best of 3 in hindsight %+.2f)" % (100 * best - base))


def argmax(values):
    """Return the index of the largest value (the first on ties)."""
    best = 0
    for index in range(1, len(values)):
        if values[index] > values[best]:
            best = index
    return best


def train(paths, hidden, epochs, options, everything, residual=0.0, decay=1e-4):
    """Fit the network on the real-continuation results and print the held-out figures."""
    rows = load(paths)
    held = [row for row in rows if row["deal"] % 5 == 0]
    used = rows if everything else [row for row in rows if row["deal"] % 5 != 0]
    limit = options or 99
    old = old_network()
    started = time.time()
    targets = []
    for row in used:
        values = rates(row)[:limit]
        if residual:
            values = [v - residual * mlp_score(old, x) for v, x in zip(values, row["inputs"][:limit])]
        targets.append(values)
    net = fit_network([row["inputs"][:limit] for row in used], targets, hidden, epochs, decay=decay)
    print("%d decisions fitted (%d options labelled, %.1f runs), %d held out; %d units, %d epochs, %.0f s" % (
        len(used), sum(len(row["results"]) for row in rows), sum(len(row["results"][0]) for row in rows) / len(rows),
        len(held), hidden, epochs, time.time() - started))

    def scorer(model, count, share=0.0):
        def pick(row):
            return argmax([mlp_score(model, x) + (share * mlp_score(old, x) if share else 0)
                           for x in row["inputs"][:count]])
        return pick

    rules = [("bot's choice", lambda row: row["chosen"]), ("fewest", lambda row: 0),
             ("reference net alone", scorer(old, 3)), ("new net alone", scorer(net, 3)),
             ("new net of all", scorer(net, limit))]
    if residual:
        rules.append(("new net %+g x reference" % residual, scorer(net, 3, residual)))
    print("held-out mean real result of the pick (%), then each rule less the bot's choice:")
    report(held, rules)
    print("fitted decisions:")
    report(used, rules)
    return net


# -- evaluation ------------------------------------------------------------------------------------------

def real_choose(net, worth, above, short, late, options, old=None, mix=0.0):
    """Return a choose function: Stark with a learned score `net` (see the module docstring's SPEC)."""

    def choose(view, rng):
        decided, context = prepare(view)
        if decided is not None:
            return decided
        if len(context["ranked"][:bots.SHORTLIST]) == 1:
            return context["ranked"][0][2]
        ranked = context["ranked"][:options]
        early = min(context["opp_sizes"]) > above
        weight = worth if early else late
        scores = None
        if weight:
            inputs = decision_inputs(context, ranked)
            scores = [mlp_score(net, x) + (mix * mlp_score(old, x) if mix else 0) for x in inputs]
            if weight == math.inf:
                return ranked[argmax(scores)][2]
            if early and short:
                order = sorted(range(len(ranked)), key=lambda i: -scores[i])[:short]
                ranked = [ranked[i] for i in order]
                scores = [scores[i] for i in order]
        if not weight and len(ranked) > bots.SHORTLIST:
            ranked = ranked[:bots.SHORTLIST]
        wins = playouts(context, ranked, rng, bots.MAX_SAMPLES, bots.WORK_BUDGET)[0]
        values = [float(w) for w in wins]
        if scores is not None:
            values = [values[i] + weight * scores[i] for i in range(len(ranked))]
        return ranked[argmax(values)][2]

    return choose


def parse_spec(spec, new):
    """Return the choose function of a SPEC."""
    if spec == "bot":
        return bots.strong_choose
    fields = {"net": "old", "worth": "30", "above": "4", "short": "2", "late": "0", "options": "3", "old": "0"}
    for part in spec.split(","):
        key, value = part.split("=")
        if key not in fields:
            raise SystemExit("unknown SPEC key %s" % key)
        fields[key] = value
    net = old_network() if fields["net"] == "old" else new
    number = lambda text: math.inf if text == "inf" else float(text)
    return real_choose(net, number(fields["worth"]), int(fields["above"]), int(fields["short"]),
                       number(fields["late"]), int(fields["options"]), old_network(), float(fields["old"]))


def evaluate(specs, games, seed_base, new, repeat):
    """Print the bot's share and each variant's, paired on the same deals, with the CPU time per decision."""
    print_paired([(spec, parse_spec(spec, new)) for spec in ["bot"] + list(specs)], games, seed_base, repeat)


def write_module(net, path):
    """Write a fitted network as the bot's weights module (thousandths)."""
    write_network_module(net, path, [
        '"""Generated by `python -m bench.paodekuai_real --train ... --module FILE`: do not edit.',
        "",
        "Pao De Kuai's Stark scores its shortlisted options with this small network, fitted to the results of",
        "real continuations of its decisions (with --residual, plus that share of the score of the network before",
        "it; see bench/paodekuai_real.py). Every weight is in thousandths.",
        '"""',
        "",
        "# HIDDEN[unit]: one weight per input (the option's figures, then the decision's); HIDDEN_BIAS[unit];",
        "# OUTPUT[unit]: the weight of each rectified hidden unit in the score."])


def main():
    """Run the mode asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generate", metavar="FILE")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--options", type=int, default=0, help="options labelled (--generate, 3 by default) or fitted (--train, all by default)")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--stark", default="bot", help="--generate: Stark as this SPEC (with --weights), the bot by default")
    parser.add_argument("--train", nargs="+", metavar="FILE")
    parser.add_argument("--hidden", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=2000)
    parser.add_argument("--residual", type=float, default=0.0, help="fit the results less this times the reference network's score")
    parser.add_argument("--reference", metavar="FILE", help="a weights module file: the old network of --residual and net=old")
    parser.add_argument("--decay", type=float, default=1e-4, help="weight decay of the fit")
    parser.add_argument("--all", action="store_true", help="fit on every decision (the held-out figures are then fitted ones)")
    parser.add_argument("--json", metavar="FILE")
    parser.add_argument("--module", metavar="FILE")
    parser.add_argument("--evaluate", nargs="+", metavar="SPEC")
    parser.add_argument("--weights", metavar="FILE")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    REFERENCE[0] = args.reference
    if args.train:
        require("bench.paodekuai_real --train", python_package("numpy", "tools"))
    if args.generate:
        new = None
        if args.weights:
            with open(args.weights) as source:
                new = json.load(source)
        generate(args.generate, args.deals, 50000000 if args.seed is None else args.seed, args.options or 3, args.runs,
                 parse_spec(args.stark, new))
    elif args.train:
        net = train(args.train, args.hidden, args.epochs, args.options, args.all, args.residual, args.decay)
        save_network(net, args.json, args.module, write_module)
    elif args.evaluate:
        new = None
        if args.weights:
            with open(args.weights) as source:
                new = json.load(source)
        evaluate(args.evaluate, args.games, 2000000 if args.seed is None else args.seed, new, args.repeat)


if __name__ == "__main__":
    main()

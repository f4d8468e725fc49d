"""Distil Pao De Kuai's long search into a cheap learned score: python -m bench.paodekuai_distill MODE ...

The DouZero line on a small scale: instead of playing options out on guessed
deals at every decision, learn a value of (hand, option) from a search with
budget enough, and let Stark use it where its own search sees about one guess.

Modes (PYTHONPATH=web/py:. python -m bench.paodekuai_distill ...):

`--generate FILE [--deals N] [--seed S] [--guesses G]` plays N single deals (seeds from S,
30,000,000 by default: disjoint from the evaluation seeds 2,000,000 and 5,000,000 and from the
ladder's) of Stark as it was before the learned score against 2 greedy players (Stark's seat = deal
mod 3). At each of Stark's decisions with two or more shortlisted options (and no sure win) it plays
the same 3 options Stark shortlists out on G guesses (100 by default) with no work budget, and writes
one JSON line: each option's playout wins out of G (the target), what Stark's own playouts found (on
copies of its generator, so the deal goes on as Stark plays it), the first feature set and the raw
figures (hand, option, what the opponents may hold, their hand sizes) from which other features are
computed at training time. Prints its progress and how many decisions it wrote.

`--train FILE [FILE ...] --hidden H [--epochs E] [--json FILE] [--module FILE] [--all]` fits the
learned score: a network of H rectified hidden units (Adam, whole batch) whose output, centred within a
decision, is fitted to the options' win rates centred the same way. Inputs: the bot's option_inputs
(28 figures of the option: plays left more than the fewest, weak and sure plays left, whether the play
and how many ranks could beat it, ranks, bombs, 2s and aces kept, broken groups, kind...) and 7 of the
decision (hand sizes, leading or not). It fits on the decisions of deals whose seed is not a multiple
of 5 (all with `--all`) and prints for the others the mean regret in win-rate points (the best
option's rate less the chosen one's; label noise keeps even a perfect choice above 0) of: the network
alone, "fewest plays left", Stark's own playouts, and Stark's playout wins plus the score counted as K
guesses, overall and per phase (phase = 3 if leading, plus 0 / 1 / 2 when the smaller opponent hand
holds 10 or more / 5 to 9 / 4 or fewer cards). `--json` writes the network for `--evaluate
--weights`, `--module` as the bot's weights module. Without `--hidden`, one linear score per phase
(`--phases 6` or `12`, ridge `--ridge`; `--version 1`: the first feature set) is fitted the same way.

`--evaluate SPEC [SPEC ...] [--games N] [--seed S] [--repeat R] [--weights FILE]` plays N deals (2,000;
seeds from S, 2,000,000 by default; Stark's seat = deal mod 3) of Stark as it was before the learned
score (the bench's copy of its search) and of each variant against 2 greedy players on the same deals,
and prints each share with its paired gain over the first line and the CPU time per decision with a
choice, median / p99 / worst ms (with `--repeat R` the least of R runs of each decision on copies of
the generator, so that other load on a shared machine counts less). A SPEC is
`K[,BELOW[,WORK[,SHORT[,KEARLY,EARLY]]]]`: the learned score counts as K guesses' worth of playout wins
(`inf`: the score alone decides, no playout) once the smaller opponent hand holds more than BELOW cards
(default 0: always), as KEARLY guesses' worth while it holds more than EARLY; WORK adds to the work
budget where the score is not used; SHORT (if not 0) reorders the shortlist by the score and cuts it
to SHORT options before the playouts. The bot's strong_choose was `30,4,0,2` with this bench's network
(commit 8280e79); it now uses bench.paodekuai_real's network, worth 20 guesses there and 3 later, which
no SPEC here expresses; the SPEC `bot` plays it itself. The weights are the bot's weights module's
unless `--weights FILE` (as `--train --json` writes) names others.

The network this bench fitted (the bot's weights at commit 8280e79, and the reference that
bench.paodekuai_real's fit adds half of): `--generate` with `--seed 30005000 --deals 6000` and
`--seed 30011000 --deals 6000`, then `--train` on both files with `--hidden 16 --epochs 2000 --module
FILE` (fitted on the 80 % of decisions that are not held out).
"""

import argparse
import json
import math
import time

from bench.common import format_share, median, paired_gain, percentile, python_package, require
from bench.strength_paodekuai import play_stark_deal
from spieleabend.bots import paodekuai as bots
from spieleabend.games.common import Rng

FEATURES = ["plays left more than the fewest", "weak plays left", "weak plays left, 2 or more", "play beatable",
            "top rank", "cards played", "bomb played", "bombs kept", "2s kept", "aces kept",
            "breaks a bomb", "breaks a group", "cards left", "sure plays left", "next seat's hand small",
            "play beatable, opponent near out", "single played", "pair played", "sequence played",
            "highest weak play's rank"]


def phase_of(leading, smaller):
    """Return the weights table's phase: leading or answering, times the smaller opponent hand."""
    bucket = 0 if smaller >= 10 else (1 if smaller >= 5 else 2)
    return bucket + (3 if leading else 0)


def option_features(option, least, mine, possible, opp_sizes, memo):
    """Return the features of one shortlisted option (a `ranked` entry of strong_choose)."""
    play = option[3]
    rest = option[4]
    weak = 0
    sure = 0
    weak_top = 0
    for group in bots.plan_groups(rest, option[5], memo):
        if bots.beatable(group, possible, opp_sizes):
            weak += 1
            if group[2] > weak_top:
                weak_top = group[2]
        else:
            sure += 1
    beatable = 1 if bots.beatable(play, possible, opp_sizes) else 0
    bombs = 0
    for value in range(3, 14):
        if rest[value] == 4:
            bombs += 1
    if rest[bots.ACE] == 3:
        bombs += 1
    breaks_bomb = 0
    breaks_group = 0
    if play[0] != bots.BOMB:
        for value in range(play[1], play[2] + 1):
            if mine[value] == 4 or (value == bots.ACE and mine[value] == 3):
                breaks_bomb = 1
            elif rest[value]:
                breaks_group = 1
    smaller = opp_sizes[0] if opp_sizes[0] < opp_sizes[1] else opp_sizes[1]
    near = 1 if smaller <= 2 else 0
    cards = (play[2] - play[1] + 1) * play[3]
    return [option[0] // 100 - least, weak, 1 if weak >= 2 else 0, beatable,
            (play[2] - 3) / 12.0, cards / 4.0, 1 if play[0] == bots.BOMB else 0, bombs,
            rest[15], rest[bots.ACE], breaks_bomb, breaks_group, option[6] / 16.0, sure,
            1 if opp_sizes[0] <= 2 else 0, beatable * near,
            1 if play[0] == bots.SINGLE else 0, 1 if play[0] == bots.PAIR else 0,
            1 if play[0] == bots.STRAIGHT or play[0] == bots.RUN else 0, (weak_top - 3) / 12.0 if weak else 0]


# The second feature set is the bot's own (the bench computed the same figures before the bot had them;
# both agreed on every option of 3,000 recorded decisions).
option_features2 = bots.option_inputs


FEATURES2 = ["plays left more than the fewest", "weak plays left", "2 or more weak", "at most 1 weak", "sure plays left",
             "play beatable", "ranks that may beat it", "top rank", "cards played", "bomb played", "bombs kept",
             "breaks a bomb", "breaks a group", "2s kept", "aces kept", "highest weak play's rank",
             "highest rank kept", "plays my lowest rank", "single", "pair", "sequence", "beatable, near out",
             "weak x smaller hand", "plays more x smaller hand", "beatable x smaller hand", "cards x smaller hand",
             "next seat near out", "beatable, next seat near out"]


def raw_features(row, version):
    """Return the features of a decision's options recomputed from its raw record."""
    if version == 1:
        return row["features"]
    raw = row["raw"]
    memo = {}
    least = raw["options"][0][0] // 100
    return [option_features2([o[0], 0, "", o[1], list(o[2]), o[3], o[4]], least, raw["mine"], raw["possible"],
                             raw["opp_sizes"], memo) for o in raw["options"]]


def context_inputs(mine, opp_sizes, leading, least):
    """Return the decision's inputs the small network reads besides the option's features."""
    held = 0
    for value in range(3, 16):
        held += mine[value]
    smaller = opp_sizes[0] if opp_sizes[0] < opp_sizes[1] else opp_sizes[1]
    return [smaller / 16.0, opp_sizes[0] / 16.0, 1 if leading else 0, held / 16.0, least / 8.0,
            1 if smaller <= 2 else 0, 1 if smaller <= 5 else 0]


def mlp_score(net, inputs):
    """Return a small network's output for some inputs (one rectified hidden layer; zero inputs skipped, most are 0 or 1)."""
    total = net["b2"]
    w1 = net["w1"]
    b1 = net["b1"]
    w2 = net["w2"]
    width = len(inputs)
    for unit in range(len(b1)):
        row = w1[unit]
        act = b1[unit]
        for index in range(width):
            if inputs[index]:
                act += row[index] * inputs[index]
        if act > 0:
            total += w2[unit] * act
    return total


def prepare(view):
    """Return strong_choose's steps up to its playouts: (action decided, or None; context of the search)."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0], None
    if "next" in legal:
        return "next", None
    seat = view["seat"]
    hand = view["hand"]
    mine = bots.counts_of(hand)
    my_key = bots.key_of(mine)
    memo = {}
    ranked = []
    for action in legal:
        cards = bots.action_cards(action)
        if len(cards) == len(hand):
            return action, None
        removed = bots.counts_of(cards)
        play = bots.play_of(removed)
        if view["opening"] and play[0] == bots.BOMB and play[1] == 3:
            play[4] = bots.HEAVENLY
        rest = [mine[value] - removed[value] for value in range(16)]
        rest_key = my_key - bots.key_of(removed)
        plays = bots.plan(rest, rest_key, memo)[0]
        ranked.append([plays * 100 + play[2], len(ranked), action, play, rest, rest_key, len(hand) - len(cards)])
    ranked.sort()
    unseen = list(bots.FULL_COUNTS)
    for card in hand:
        unseen[bots.RANK_VALUE[card[:-1]]] -= 1
    for card in view["played"]:
        unseen[bots.RANK_VALUE[card[:-1]]] -= 1
    sizes = view["hand_sizes"]
    others = [(seat + 1) % 3, (seat + 2) % 3]
    caps = bots.pass_caps(view, seat)
    possible = [[min(unseen[v], caps[k][v]) for v in range(16)] for k in range(2)]
    opp_sizes = [sizes[others[0]], sizes[others[1]]]
    sure = bots.sure_win(ranked, possible, opp_sizes, memo)
    if sure is not None:
        return sure, None
    return None, {"ranked": ranked, "memo": memo, "unseen": unseen, "sizes": sizes, "others": others,
                  "caps": caps, "possible": possible, "opp_sizes": opp_sizes, "seat": seat, "mine": mine,
                  "leading": view["top"] is None,
                  "top_seat": -1 if view["top"] is None else (view["top"]["seat"] - seat) % 3 - 1}


def playouts(context, ranked, rng, max_samples, budget, hard_limit=None):
    """Play the options out as strong_choose does; return (wins per option, guesses played out for every option)."""
    return bots.play_out(ranked, context["seat"], context["others"], context["sizes"], context["unseen"],
                         context["caps"], context["memo"], rng, max_samples, budget, hard_limit)


def features_of(context, ranked):
    """Return the features of each shortlisted option."""
    least = ranked[0][0] // 100
    return [option_features(option, least, context["mine"], context["possible"], context["opp_sizes"],
                            context["memo"]) for option in ranked]


# -- data -----------------------------------------------------------------------------------------------

def generate(path, deals, seed_base, guesses):
    """Write one JSON line per decision of Stark (as it is) with a choice: option features and long-search wins."""
    started = time.time()
    written = 0
    plain = learned_choose(None, 0, 99, 0)  # Stark without the learned score
    with open(path, "w") as out:
        for deal in range(deals):
            seed = seed_base + deal
            label_rng = Rng(seed * 31 + 5)

            def move(state, view, bot_rng):
                nonlocal written
                decided, context = prepare(view)
                if decided is None:
                    ranked = context["ranked"][:bots.SHORTLIST]
                    if len(ranked) > 1:
                        # Stark's own playouts on copies of its generator and memo (the deal goes on as Stark plays it).
                        own, own_done = playouts(dict(context, memo=dict(context["memo"])), ranked,
                                                 Rng(list(bot_rng.state)), bots.MAX_SAMPLES, bots.WORK_BUDGET)
                        features = features_of(context, ranked)
                        wins, done = playouts(context, ranked, label_rng, guesses, 10 ** 12, 10 ** 12)
                        smaller = min(context["opp_sizes"])
                        out.write(json.dumps({"deal": seed, "leading": context["leading"], "smaller": smaller,
                                              "next": context["opp_sizes"][0], "cards": ranked[0][6],
                                              "features": features, "wins": wins, "guesses": done,
                                              "stark_wins": own, "stark_guesses": own_done,
                                              "raw": raw_of(context, ranked)}) + "\n")
                        written += 1
                return plain(view, bot_rng)

            play_stark_deal(seed, deal % 3, move)
            if deal % 200 == 199:
                print("%d deals, %d decisions, %.0f s" % (deal + 1, written, time.time() - started), flush=True)
    print("wrote %d decisions of %d deals in %.0f s" % (written, deals, time.time() - started))


def raw_of(context, ranked):
    """Return what the features are computed from, so that other features can be tried on the same data."""
    return {"options": [[option[0], option[3], option[4], option[5], option[6]] for option in ranked],
            "mine": context["mine"], "possible": context["possible"], "opp_sizes": context["opp_sizes"],
            "leading": context["leading"], "top_seat": context["top_seat"]}


def load(paths):
    """Return the decisions of some data files."""
    rows = []
    for path in paths:
        with open(path) as source:
            for line in source:
                rows.append(json.loads(line))
    return rows


def phase_fine(leading, smaller):
    """Return a finer phase: leading or answering, times the smaller opponent hand in 6 steps."""
    bucket = 0 if smaller >= 13 else (1 if smaller >= 10 else (2 if smaller >= 7 else (3 if smaller >= 5 else (
        4 if smaller >= 3 else 5))))
    return bucket + (6 if leading else 0)


PHASES = {6: phase_of, 12: phase_fine}


def prepared(rows, version, phases):
    """Return (phase, features, win rates) of each decision."""
    phase = PHASES[phases]
    return [(phase(row["leading"], row["smaller"]), raw_features(row, version),
             [w / max(1, row["guesses"]) for w in row["wins"]], row) for row in rows]


def fit(items, phases, ridge=1.0):
    """Return one weight list per phase, fitted to the options' win rates centred within each decision."""
    import numpy

    width = len(items[0][1][0])
    tables = []
    for phase in range(phases):
        xs = []
        ys = []
        for number, features, rates, _ in items:
            if number != phase:
                continue
            x = numpy.array(features, dtype=float)
            y = numpy.array(rates, dtype=float)
            xs.append(x - x.mean(axis=0))
            ys.append(y - y.mean())
        if not xs:
            tables.append([0.0] * width)
            continue
        x = numpy.vstack(xs)
        y = numpy.concatenate(ys)
        weights = numpy.linalg.solve(x.T @ x + ridge * numpy.eye(width), x.T @ y)
        tables.append([round(float(w), 4) for w in weights])
    return tables


def score(weights, features):
    """Return the learned score of an option."""
    total = 0.0
    for index in range(len(features)):
        total += weights[index] * features[index]
    return total


def regret(items, pick):
    """Return the mean regret in win-rate points of a picking rule over some decisions."""
    total = 0.0
    for item in items:
        rates = item[2]
        total += max(rates) - rates[pick(item)]
    return 100 * total / max(1, len(items))


def network_inputs(row, features):
    """Return the network inputs of each option of a decision: its features, then the decision's."""
    raw = row["raw"]
    extra = context_inputs(raw["mine"], raw["opp_sizes"], raw["leading"], raw["options"][0][0] // 100)
    return [list(f) + extra for f in features]


def fit_mlp(items, hidden, epochs, seed=1, rate=0.003, decay=1e-4):
    """Return a network fitted (Adam, whole batch) to the options' win rates centred within each decision."""
    return fit_network([item[4] for item in items], [item[2] for item in items], hidden, epochs, seed, rate, decay)


def fit_network(inputs, targets, hidden, epochs, seed=1, rate=0.003, decay=1e-4):
    """Return a network of `hidden` rectified units fitted (Adam, whole batch) to the targets centred within
    each decision: inputs[n] holds one input list per option of decision n, targets[n] one figure per option.
    Bench.maumau_distill fits its score with it too."""
    import numpy

    rng = numpy.random.default_rng(seed)
    width = len(inputs[0][0])
    count = max(len(options) for options in inputs)
    x = numpy.zeros((len(inputs), count, width))
    y = numpy.zeros((len(inputs), count))
    mask = numpy.zeros((len(inputs), count))
    for n, options in enumerate(inputs):
        k = len(options)
        x[n, :k] = options
        y[n, :k] = numpy.array(targets[n]) - numpy.mean(targets[n])
        mask[n, :k] = 1
    mean = (x * mask[..., None]).sum(axis=(0, 1)) / mask.sum()
    std = numpy.sqrt((((x - mean) ** 2) * mask[..., None]).sum(axis=(0, 1)) / mask.sum()) + 1e-6
    xs = (x - mean) / std
    params = {"w1": rng.normal(0, 1 / numpy.sqrt(width), (hidden, width)), "b1": numpy.zeros(hidden),
              "w2": rng.normal(0, 1 / numpy.sqrt(hidden), hidden)}
    moments = {k: [numpy.zeros_like(v), numpy.zeros_like(v)] for k, v in params.items()}
    counts = mask.sum(axis=1, keepdims=True)
    for step in range(1, epochs + 1):
        pre = xs @ params["w1"].T + params["b1"]
        act = numpy.maximum(pre, 0)
        out = act @ params["w2"]
        centred = (out - (out * mask).sum(axis=1, keepdims=True) / counts) * mask
        err = (centred - y) * mask
        loss_grad = 2 * err / len(inputs)
        # the centring's own gradient: d centred_i / d out_j = mask_i (delta_ij - mask_j / count)
        grad_out = (loss_grad - (loss_grad.sum(axis=1, keepdims=True)) * mask / counts) * mask
        grads = {"w2": numpy.einsum("nk,nkh->h", grad_out, act) + decay * params["w2"]}
        grad_act = grad_out[..., None] * params["w2"] * (pre > 0)
        grads["w1"] = numpy.einsum("nkh,nkw->hw", grad_act, xs) + decay * params["w1"]
        grads["b1"] = grad_act.sum(axis=(0, 1))
        for k in params:
            m, v = moments[k]
            m *= 0.9
            m += 0.1 * grads[k]
            v *= 0.999
            v += 0.001 * grads[k] ** 2
            params[k] -= rate * (m / (1 - 0.9 ** step)) / (numpy.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    # Fold the standardisation into the first layer, so the bot reads raw inputs.
    w1 = params["w1"] / std
    b1 = params["b1"] - w1 @ mean
    return {"w1": [[round(float(w), 5) for w in row] for row in w1], "b1": [round(float(b), 5) for b in b1],
            "w2": [round(float(w), 5) for w in params["w2"]], "b2": 0.0}


def train_mlp(paths, hidden, epochs, version, everything=False):
    """Fit the small network on 80 % of the decisions (or all) and print the held-out regret next to Stark's."""
    items = [item + (network_inputs(item[3], item[1]),) for item in prepared(load(paths), version, 6)]
    held = [item for item in items if item[3]["deal"] % 5 == 0]
    used = [item for item in items if item[3]["deal"] % 5 != 0]
    if everything:
        used = items
    started = time.time()
    net = fit_mlp(used, hidden, epochs)

    def model(item):
        scores = [mlp_score(net, f) for f in item[4]]
        return scores.index(max(scores))

    def combined(worth):
        def pick(item):
            values = [w + worth * mlp_score(net, f) for w, f in zip(item[3]["stark_wins"], item[4])]
            return values.index(max(values))
        return pick

    print("network %d hidden, %d epochs (%.0f s): held-out regret model %.2f (fitted part %.2f), fewest %.2f, "
          "Stark %.2f, Stark + model worth K: %s" % (
              hidden, epochs, time.time() - started, regret(held, model), regret(used, model),
              regret(held, lambda item: 0), regret(held, combined(0)),
              " ".join("%g:%.2f" % (k, regret(held, combined(k))) for k in (1, 3, 10, 30, 100))))
    for phase in range(6):
        part = [item for item in held if item[0] == phase]
        print("  phase %d: %d decisions, model %.2f, Stark %.2f, Stark + model: %s" % (
            phase, len(part), regret(part, model), regret(part, combined(0)),
            " ".join("%g:%.2f" % (k, regret(part, combined(k))) for k in (1, 3, 10, 30))))
    return net


def write_module(net, path):
    """Write a fitted network as the bot's weights module, in thousandths (ints compress better: the
    app's first visit has a byte budget)."""
    write_network_module(net, path, [
        '"""Generated by `python -m bench.paodekuai_distill --train ... --hidden N --module FILE`: do not edit.',
        "",
        "Pao De Kuai's Stark scores its shortlisted options with this small network, fitted to the win rates",
        "of a long search (see bench/paodekuai_distill.py). Every weight is in thousandths.",
        '"""',
        "",
        "# HIDDEN[unit]: one weight per input (the option's figures, then the decision's); HIDDEN_BIAS[unit];",
        "# OUTPUT[unit]: the weight of each rectified hidden unit in the score."])


def read_network_module(tables):
    """Return the network a weights module holds (its names as a dict: vars(module)), thousandths back to units."""
    return {"w1": [[w / 1000 for w in row] for row in tables["HIDDEN"]], "b1": [b / 1000 for b in tables["HIDDEN_BIAS"]],
            "w2": [w / 1000 for w in tables["OUTPUT"]], "b2": 0.0}


def save_network(net, json_path, module_path, write_module, stored=None):
    """Write a fitted network as JSON (`stored`, the network itself by default; for --evaluate --weights) and
    as a bot's weights module with `write_module`, each where a path is given."""
    if json_path:
        with open(json_path, "w") as out:
            json.dump(net if stored is None else stored, out)
    if module_path:
        write_module(net, module_path)


def write_network_module(net, path, header):
    """Write `header` (the module's docstring and comments) and the network's HIDDEN, HIDDEN_BIAS and OUTPUT
    in thousandths; bench.maumau_distill writes its bot's weights with it too."""
    lines = list(header) + ["HIDDEN = ["]
    for row in net["w1"]:
        lines.append("    %s," % json.dumps([round(1000 * w) for w in row]).replace(" ", ""))
    lines.append("]")
    lines.append("HIDDEN_BIAS = %s" % json.dumps([round(1000 * b) for b in net["b1"]]).replace(" ", ""))
    lines.append("OUTPUT = %s" % json.dumps([round(1000 * w) for w in net["w2"]]).replace(" ", ""))
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")


def train(paths, write, ridge, version, phases):
    """Fit the weights and print the held-out regret (or, with `write`, the weights fitted on everything)."""
    items = prepared(load(paths), version, phases)
    if write:
        tables = fit(items, phases, ridge)
        print("WEIGHTS = [")
        for table in tables:
            print("    %s," % json.dumps(table))
        print("]")
        return tables
    held = [item for item in items if item[3]["deal"] % 5 == 0]
    used = [item for item in items if item[3]["deal"] % 5 != 0]
    tables = fit(used, phases, ridge)

    def model(item):
        scores = [score(tables[item[0]], f) for f in item[1]]
        return scores.index(max(scores))

    def combined(worth):
        def pick(item):
            values = [w + worth * score(tables[item[0]], f) for w, f in zip(item[3]["stark_wins"], item[1])]
            return values.index(max(values))
        return pick

    def fewest(item):
        return 0

    print("features v%d, %d phases: %d decisions to fit, %d held out (ridge %g)" % (
        version, phases, len(used), len(held), ridge))
    print("held-out regret, win-rate points: model %.2f, fewest plays left %.2f" % (
        regret(held, model), regret(held, fewest)))
    own = [item for item in held if "stark_wins" in item[3]]
    for phase in range(phases):
        part = [item for item in own if item[0] == phase]
        if part:
            print("  phase %2d: %5d decisions, regret: model %.2f, fewest %.2f, Stark %.2f (%.1f guesses), "
                  "Stark + model worth K: %s" % (
                      phase, len(part), regret(part, model), regret(part, fewest), regret(part, combined(0)),
                      sum(item[3]["stark_guesses"] for item in part) / len(part),
                      " ".join("%g:%.2f" % (k, regret(part, combined(k))) for k in (1, 3, 10, 30))))
    if own:
        print("  all with Stark's playouts (%d): model %.2f, fewest %.2f, Stark %.2f, Stark + model worth K: %s" % (
            len(own), regret(own, model), regret(own, fewest), regret(own, combined(0)),
            " ".join("%g:%.2f" % (k, regret(own, combined(k))) for k in (1, 3, 10, 30, 100))))
    return tables


# -- evaluation -----------------------------------------------------------------------------------------

def scores_of(model, context, ranked):
    """Return the learned score of each shortlisted option (model: a JSON object as --train --json writes)."""
    least = ranked[0][0] // 100
    extract = option_features if model["version"] == 1 else option_features2
    features = [extract(option, least, context["mine"], context["possible"], context["opp_sizes"], context["memo"])
                for option in ranked]
    if model["kind"] == "mlp":
        extra = context_inputs(context["mine"], context["opp_sizes"], context["leading"], least)
        return [mlp_score(model, f + extra) for f in features]
    phase = PHASES[model["phases"]](context["leading"], min(context["opp_sizes"]))
    return [score(model["tables"][phase], f) for f in features]


def learned_choose(model, worth, below, work, short=0, early_worth=None, early=99):
    """Return a choose function: Stark whose playout wins get the learned score, worth `worth` guesses, added.

    Only once the smaller opponent hand holds more than `below` cards; `work` more budget otherwise; with
    `short`, the shortlist is first reordered by the score and cut to `short` options.
    """

    def choose(view, rng):
        decided, context = prepare(view)
        if decided is not None:
            return decided
        ranked = context["ranked"][:bots.SHORTLIST]
        if len(ranked) == 1:
            return ranked[0][2]
        smaller = min(context["opp_sizes"])
        use = smaller > below
        scores = None
        weight = early_worth if smaller > early else worth
        if use:
            scores = scores_of(model, context, ranked)
            if weight == math.inf:
                return ranked[scores.index(max(scores))][2]
            if short:
                order = sorted(range(len(ranked)), key=lambda i: -scores[i])[:short]
                ranked = [ranked[i] for i in order]
                scores = [scores[i] for i in order]
        wins, done = playouts(context, ranked, rng, bots.MAX_SAMPLES, bots.WORK_BUDGET + (0 if use else work))
        values = [float(w) for w in wins]
        if use and weight:
            for index in range(len(ranked)):
                values[index] += weight * scores[index]
        best = 0
        for index in range(1, len(ranked)):
            if values[index] > values[best]:
                best = index
        return ranked[best][2]

    return choose


def timed(choose, cpu, repeat=1, with_state=False):
    """Return a stark_move for play_stark_deal that records the CPU ms of each decision with a choice
    (the least of `repeat` runs on copies of the generator, so that other load on the machine counts less).
    With `with_state` the choose function is itself a stark_move (it also reads the true state)."""

    def move(state, view, rng):
        def call(generator):
            return choose(state, view, generator) if with_state else choose(view, generator)

        least = None
        for _ in range(repeat - 1):
            started = time.process_time()
            call(Rng(list(rng.state)))
            spent = time.process_time() - started
            least = spent if least is None or spent < least else least
        started = time.process_time()
        action = call(rng)
        spent = time.process_time() - started
        least = spent if least is None or spent < least else least
        if len(view["legal"]) > 1:
            cpu.append(1000 * least)
        return action

    return move


def evaluate(specs, games, seed_base, weights, repeat=1):
    """Print Stark's share and each variant's, paired on the same deals, with the CPU time per decision."""
    # Stark as it was before the learned score: the bench's copy of its search (the bot may have changed).
    lines = [("as it was", learned_choose(None, 0, 99, 0))]
    for spec in specs:
        if spec == "bot":
            lines.append(("the bot's strong_choose", bots.strong_choose))
            continue
        parts = spec.split(",")
        parts += ["0", "0", "0", "0", "99"][len(parts) - 1:]
        worth = math.inf if parts[0] == "inf" else float(parts[0])
        early_worth = math.inf if parts[4] == "inf" else float(parts[4])
        lines.append(("learned " + spec, learned_choose(weights, worth, int(parts[1]), int(parts[2]), int(parts[3]),
                                                        early_worth, int(parts[5]))))
    print_paired(lines, games, seed_base, repeat)


def print_paired(lines, games, seed_base, repeat=1):
    """Play `games` deals (seeds from seed_base, Stark's seat = deal mod 3) against 2 greedy players for each
    (label, choose) and print its share, its paired gain over the first line and its CPU per decision. A line
    (label, stark_move, True) is a stark_move(state, view, rng) that may read the true state (an oracle)."""
    first = None
    for label, choose, *with_state in lines:
        cpu = []
        won = [play_stark_deal(seed_base + game, game % 3, timed(choose, cpu, repeat, bool(with_state and with_state[0])))
               for game in range(games)]
        line = format_share("stark vs 2 greedy, " + label, sum(won), games, baseline=1 / 3)
        if first is None:
            first = won
        else:
            line += "  gain %s (paired)" % paired_gain(won, first)
        line += "  CPU ms %.3f / %.3f / %.3f" % (median(cpu), percentile(cpu, 0.99), max(cpu))
        print(line, flush=True)


def main():
    """Run the mode asked for."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generate", metavar="FILE")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--guesses", type=int, default=100)
    parser.add_argument("--train", nargs="+", metavar="FILE")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--ridge", type=float, default=1.0)
    parser.add_argument("--version", type=int, default=2, help="feature set (1: the stored one)")
    parser.add_argument("--hidden", type=int, default=0, help="fit a network of this many hidden units instead")
    parser.add_argument("--epochs", type=int, default=1500)
    parser.add_argument("--all", action="store_true", help="fit the network on every decision (the held-out figures are then fitted ones)")
    parser.add_argument("--phases", type=int, default=6, help="6 or 12 weight tables")
    parser.add_argument("--json", metavar="FILE", help="also write the fitted weights as JSON")
    parser.add_argument("--module", metavar="FILE", help="also write the fitted network as the bot's weights module")
    parser.add_argument("--evaluate", nargs="+", metavar="SPEC")
    parser.add_argument("--weights", metavar="FILE")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--repeat", type=int, default=1, help="time each decision as the least of this many runs")
    args = parser.parse_args()
    if args.train:  # fitting needs numpy (the tools extra); generating and evaluating do not
        require("bench.paodekuai_distill --train", python_package("numpy", "tools"))
    if args.generate:
        generate(args.generate, args.deals, 30000000 if args.seed is None else args.seed, args.guesses)
    elif args.train and args.hidden:
        net = train_mlp(args.train, args.hidden, args.epochs, args.version, args.all)
        save_network(net, args.json, args.module, write_module, dict(net, kind="mlp", version=args.version))
    elif args.train:
        tables = train(args.train, args.write, args.ridge, args.version, args.phases)
        if args.json:
            with open(args.json, "w") as out:
                json.dump({"kind": "linear", "version": args.version, "phases": args.phases, "tables": tables}, out)
    elif args.evaluate:
        if args.weights:
            with open(args.weights) as source:
                weights = json.load(source)
        else:
            from spieleabend.bots import paodekuai_weights as module
            weights = dict(read_network_module(vars(module)), kind="mlp", version=2)
        evaluate(args.evaluate, args.games, 2000000 if args.seed is None else args.seed, weights, args.repeat)


if __name__ == "__main__":
    main()

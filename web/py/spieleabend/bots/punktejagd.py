"""Computer players for Punktejagd; each sees only its seat's view.

"random" (Locker & zufällig) plays a uniform random card and risks rarely.
"vorausschauend" estimates, from sampled opponent cards (each opponent holds
the cards it has not played yet), how often each of its cards ends up on the
best or second position in the current round and in the round types still to
come, plans which card to keep for which round type (a small dynamic program
over Normal/Kopfstand/Gold counts and the risk chip), and then samples among
its near-best actions so that several copies at one table rarely collide.
"""

CARDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
ROUND_MIX_COUNTS = {"normal": 7, "kopfstand": 2, "gold": 1}
# Round points as (best, second, base) and the risk bonus; mirrors the engine's rules.
POINTS = {"normal": (5, 3, 1), "kopfstand": (5, 3, 1), "gold": (10, 6, 2)}
RISK_BONUS = 3

RANDOM_RISK_PERCENT = 5
# At most this many joint opponent plays are looked at; fewer combinations are enumerated exactly.
SAMPLE_LIMIT = 160
# Table slots for drawing a card from a non-uniform opponent model.
TABLE_SLOTS = 64
# Opponent model for Gold and Kopfstand rounds: prior chance that an opponent goes for the
# extreme card, and the chance of playing the 1st, 2nd, ... most extreme card if it does.
GREEDY_PRIOR = 0.5
GREEDY_RANK_WEIGHTS = [0.55, 0.25, 0.12, 0.05, 0.03]
GREEDY_FLOOR = 0.005
HIGH_ORDER = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
# Actions within this many points of the best one may be chosen (weight falls linearly to 0).
NEAR_BEST_MARGIN = 0.6

COORDINATE_PERCENT = 0

NEG = -1000000.0


def choose_random(view, rng):
    """Play a uniform random card from the hand; spend the chip on about one decision in twenty."""
    legal = view["legal"]
    plain = [action for action in legal if not action.endswith(" risk")]
    action = plain[rng.below(len(plain))]
    if not view["chip_spent"] and rng.below(100) < RANDOM_RISK_PERCENT:
        risky = action + " risk"
        if risky in legal:
            return risky
    return action


def _opponent_hands(view):
    """Return the cards each other seat still holds, derived from the public list of played cards."""
    me = view["seat"]
    hands = []
    for seat in range(view["seats"]):
        if seat != me:
            used = view["played"][seat]
            hands.append([card for card in CARDS if card not in used])
    return hands


def _future_type_counts(view):
    """Return the counts of normal, kopfstand and gold rounds after the current one."""
    left = dict(ROUND_MIX_COUNTS)
    for entry in view["log"]:
        left[entry["type"]] -= 1
    left[view["round_type"]] -= 1
    return left["normal"], left["kopfstand"], left["gold"]


def _greedy_shares(view):
    """Return per opponent the posterior chance that it plays the obvious card in special rounds.

    Two hypotheses per opponent, judged on its Gold and Kopfstand plays so far:
    it picks uniformly, or it leans to the extreme card (highest for Gold,
    lowest for Kopfstand) with GREEDY_RANK_WEIGHTS by rank.
    """
    me = view["seat"]
    odds = []
    for seat in range(view["seats"]):
        if seat == me:
            continue
        ratio = GREEDY_PRIOR / (1.0 - GREEDY_PRIOR)
        hand = list(CARDS)
        for entry in view["log"]:
            card = entry["cards"][seat]
            if entry["type"] != "normal":
                rank = _extreme_rank(hand, card, entry["type"] == "gold")
                ratio *= len(hand) * _greedy_weights(len(hand))[rank]
            hand.remove(card)
        odds.append(ratio / (1.0 + ratio))
    return odds


def _extreme_rank(hand, card, high):
    """Return how many cards of the hand are more extreme than card (0 = the highest/lowest)."""
    rank = 0
    for other in hand:
        if (other > card) if high else (other < card):
            rank += 1
    return rank


def _greedy_weights(size):
    """Return the greedy hypothesis' chance per extreme rank for a hand of this size."""
    weights = [GREEDY_RANK_WEIGHTS[r] if r < len(GREEDY_RANK_WEIGHTS) else GREEDY_FLOOR for r in range(size)]
    total = 0.0
    for weight in weights:
        total += weight
    return [weight / total for weight in weights]


def _model_tables(opp_hands, round_type, greedy):
    """Return per opponent (cards, probabilities) for the current round under the mixed opponent model."""
    models = []
    high = round_type == "gold"
    for hand, share in zip(opp_hands, greedy):
        size = len(hand)
        weights = _greedy_weights(size)
        probs = []
        for card in hand:
            rank = _extreme_rank(hand, card, high)
            probs.append((1.0 - share) / size + share * weights[rank])
        models.append((hand, probs))
    return models


def _position_stats(models, rng):
    """Return [best_high, second_high, best_low, second_low]: per card value the chance of that place.

    models: per opponent (cards, probabilities or None for uniform). Joint
    plays are enumerated exactly when there are few, else sampled.
    """
    stats = [[0.0] * 12 for _ in range(4)]
    combos = 1
    for cards, _ in models:
        combos *= len(cards)
    if combos <= SAMPLE_LIMIT:
        _enumerate(models, stats)
        return stats
    tables = []
    for cards, probs in models:
        if probs is None:
            tables.append(cards)
        else:
            table = []
            for card, prob in zip(cards, probs):
                table += [card] * int(prob * TABLE_SLOTS + 0.5)
            tables.append(table if table else cards)
    # An inline xorshift32: one generator call per decision keeps the hot loop free of method calls.
    x = rng.next32() | 1
    best_high, second_high, best_low, second_low = stats
    for _ in range(SAMPLE_LIMIT):
        counts = [0] * 12
        half = 0
        for table in tables:
            if half == 0:
                x ^= (x << 13) & 0xFFFFFFFF
                x ^= x >> 17
                x ^= (x << 5) & 0xFFFFFFFF
                bits = x
                half = 2
            counts[table[((bits & 0xFFFF) * len(table)) >> 16]] += 1
            bits >>= 16
            half -= 1
        _walk(counts, 1.0, best_high, second_high, best_low, second_low)
    scale = 1.0 / SAMPLE_LIMIT
    for row in stats:
        for value in CARDS:
            row[value] *= scale
    return stats


def _enumerate(models, stats):
    """Add every joint opponent play with its probability to the stats."""
    best_high, second_high, best_low, second_low = stats
    size_list = [len(cards) for cards, _ in models]
    prob_list = []
    for cards, probs in models:
        prob_list.append(probs if probs is not None else [1.0 / len(cards)] * len(cards))
    index = [0] * len(models)
    while True:
        counts = [0] * 12
        weight = 1.0
        for j in range(len(models)):
            counts[models[j][0][index[j]]] += 1
            weight *= prob_list[j][index[j]]
        _walk(counts, weight, best_high, second_high, best_low, second_low)
        j = 0
        while j < len(models):
            index[j] += 1
            if index[j] < size_list[j]:
                break
            index[j] = 0
            j += 1
        if j == len(models):
            return


def _walk(counts, weight, best_high, second_high, best_low, second_low):
    """Record where a card of each value would place against these opponent card counts."""
    # From the top: a free value before any opponent's unique number is best, after one it is second.
    ahead = 0
    for value in HIGH_ORDER:
        seen = counts[value]
        if seen == 0:
            if ahead == 0:
                best_high[value] += weight
            else:
                second_high[value] += weight
        elif seen == 1:
            ahead += 1
            if ahead == 2:
                break
    ahead = 0
    for value in CARDS:
        seen = counts[value]
        if seen == 0:
            if ahead == 0:
                best_low[value] += weight
            else:
                second_low[value] += weight
        elif seen == 1:
            ahead += 1
            if ahead == 2:
                break


def _value_tables(current, future, round_type):
    """Return {type: (plain values, risk values)} per card value; the current type uses its own stats."""
    tables = {}
    for kind in ("normal", "kopfstand", "gold"):
        stats = current if kind == round_type else future
        best, second, base = POINTS[kind]
        if kind == "kopfstand":
            my_best, my_second = stats[2], stats[3]
        else:
            my_best, my_second = stats[0], stats[1]
        plain = [0.0] * 11
        risky = [0.0] * 11
        for value in CARDS:
            plain[value] = base + (best - base) * my_best[value] + (second - base) * my_second[value]
            risky[value] = (best + RISK_BONUS) * my_best[value]
        tables[kind] = (plain, risky)
    return tables


def _future_values(hand, counts, tables, chip):
    """Return per hand index the best planned value of the other cards over the future rounds.

    Result: (with_chip, without_chip) lists; with_chip lets the plan spend the
    risk chip once (only meaningful when the chip is still free).
    """
    size = len(hand)
    normal_left, kopf_left, gold_left = counts
    kinds = (("normal", normal_left), ("kopfstand", kopf_left), ("gold", gold_left))
    # A state is (kopfstand used, gold used, chip used) packed as kopf * 4 + gold * 2 + chip.
    prefix = [None] * (size + 1)
    prefix[0] = {0: 0.0}
    for i in range(size):
        prefix[i + 1] = _extend(prefix[i], hand[i], i, kinds, tables, chip)
    suffix = [None] * (size + 1)
    suffix[size] = {0: 0.0}
    for i in range(size - 1, -1, -1):
        suffix[i] = _extend(suffix[i + 1], hand[i], size - 1 - i, kinds, tables, chip)
    with_chip = []
    without_chip = []
    for i in range(size):
        best_free = NEG
        best_plain = NEG
        after = suffix[i + 1]
        for key, value in prefix[i].items():
            kopf = key >> 2
            gold = (key >> 1) & 1
            used = key & 1
            need = ((kopf_left - kopf) << 2) | ((gold_left - gold) << 1)
            if used:
                other = after.get(need)
                if other is not None and value + other > best_free:
                    best_free = value + other
            else:
                other = after.get(need)
                if other is not None:
                    if value + other > best_plain:
                        best_plain = value + other
                    if value + other > best_free:
                        best_free = value + other
                other = after.get(need | 1)
                if other is not None and value + other > best_free:
                    best_free = value + other
        with_chip.append(best_free)
        without_chip.append(best_plain)
    return with_chip, without_chip


def _extend(states, card, placed, kinds, tables, chip):
    """Return the plan states after giving one more card a future round type (or the chip)."""
    result = {}
    for key, value in states.items():
        kopf = key >> 2
        gold = (key >> 1) & 1
        used = key & 1
        normal = placed - kopf - gold
        for round_type, limit in kinds:
            if round_type == "normal":
                if normal >= limit:
                    continue
                new_key = key
            elif round_type == "kopfstand":
                if kopf >= limit:
                    continue
                new_key = key + 4
            else:
                if gold >= limit:
                    continue
                new_key = key + 2
            plain, risky = tables[round_type]
            total = value + plain[card]
            if total > result.get(new_key, NEG):
                result[new_key] = total
            if chip and not used:
                total = value + risky[card]
                if total > result.get(new_key | 1, NEG):
                    result[new_key | 1] = total
    return result


def choose_lookahead(view, rng):
    """Pick the card (and risk) with the best planned value, sampling among near-best actions."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    hand = view["hand"]
    chip = not view["chip_spent"]
    round_type = view["round_type"]
    opp_hands = _opponent_hands(view)
    uniform = [(cards, None) for cards in opp_hands]
    future = _position_stats(uniform, rng)
    if round_type == "normal":
        current = future
    else:
        current = _position_stats(_model_tables(opp_hands, round_type, _greedy_shares(view)), rng)
    tables = _value_tables(current, future, round_type)
    plain_now, risky_now = tables[round_type]
    with_chip, without_chip = _future_values(hand, _future_type_counts(view), tables, chip)
    options = []
    for i in range(len(hand)):
        card = hand[i]
        options.append((plain_now[card] + (with_chip[i] if chip else without_chip[i]), "play %d" % card))
        if chip:
            options.append((risky_now[card] + without_chip[i], "play %d risk" % card))
    return _pick_near_best(options, rng, view["seat"] + view["round"])


def _pick_near_best(options, rng, offset=0):
    """Return one action, weighted by how close its value is to the best (linear falloff)."""
    best = NEG
    for value, _ in options:
        if value > best:
            best = value
    weights = []
    total = 0
    for value, action in options:
        weight = int(1000 * (1.0 - (best - value) / NEAR_BEST_MARGIN))
        if weight > 0:
            weights.append((weight, action))
            total += weight
    if COORDINATE_PERCENT and len(weights) > 1 and rng.below(100) < COORDINATE_PERCENT:
        ranked = sorted(weights, reverse=True)
        return ranked[offset % len(ranked)][1]
    pick = rng.below(total)
    for weight, action in weights:
        if pick < weight:
            return action
        pick -= weight
    return weights[-1][1]


STRENGTHS = {"random": choose_random, "vorausschauend": choose_lookahead}

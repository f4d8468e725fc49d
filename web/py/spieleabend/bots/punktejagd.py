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
# Weight of the opponents' mean points against the bot's own points (1 = pure points difference).
OPPONENT_WEIGHT = 0.5
# Actions within this many points of the best one may be chosen (weight falls linearly to 0).
NEAR_BEST_MARGIN = 0.6

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
        if seat == me:
            continue
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


def _position_stats(opp_hands, rng):
    """Return per card value and order (0 high, 1 low) the chances of best/second place, mine and the opponents'.

    Result: [stats_high, stats_low], each a list of 4 lists indexed by card
    value: my best, my second, opponents hold best, opponents hold second.
    """
    size = len(opp_hands[0])
    count = len(opp_hands)
    combos = 1
    for _ in range(count):
        combos *= size
    high = [[0.0] * 11 for _ in range(4)]
    low = [[0.0] * 11 for _ in range(4)]
    if combos <= SAMPLE_LIMIT:
        total = combos
        for index in range(combos):
            counts = [0] * 12
            rest = index
            for hand in opp_hands:
                counts[hand[rest % size]] += 1
                rest //= size
            _accumulate(counts, high, low)
    else:
        total = SAMPLE_LIMIT
        for _ in range(SAMPLE_LIMIT):
            counts = [0] * 12
            bits = 0
            left = 0
            for hand in opp_hands:
                if left == 0:
                    bits = rng.next32()
                    left = 2
                counts[hand[((bits & 0xFFFF) * size) >> 16]] += 1
                bits >>= 16
                left -= 1
            _accumulate(counts, high, low)
    scale = 1.0 / total
    for table in (high, low):
        for row in table:
            for value in CARDS:
                row[value] *= scale
    return [high, low]


def _accumulate(counts, high, low):
    """Add one joint opponent play (card counts) to the position statistics of every card value."""
    uniques = 0
    for value in CARDS:
        if counts[value] == 1:
            uniques += 1
    # Opponents' best/second when my card blocks a duplicate (>= 2) or one of their uniques (== 1).
    dup_best = 1 if uniques >= 1 else 0
    dup_second = 1 if uniques >= 2 else 0
    hit_best = 1 if uniques >= 2 else 0
    hit_second = 1 if uniques >= 3 else 0
    for table, order in ((high, (10, 9, 8, 7, 6, 5, 4, 3, 2, 1)), (low, CARDS)):
        my_best, my_second, opp_best, opp_second = table
        ahead = 0
        for value in order:
            seen = counts[value]
            if seen == 0:
                if ahead == 0:
                    my_best[value] += 1
                    if uniques:
                        opp_second[value] += 1
                elif ahead == 1:
                    my_second[value] += 1
                    opp_best[value] += 1
                else:
                    opp_best[value] += 1
                    opp_second[value] += 1
            elif seen == 1:
                ahead += 1
                opp_best[value] += hit_best
                opp_second[value] += hit_second
            else:
                opp_best[value] += dup_best
                opp_second[value] += dup_second


def _value_tables(stats, opponents):
    """Return {type: (plain values, risk values)} per card value for each round type."""
    tables = {}
    weight = OPPONENT_WEIGHT / opponents
    for round_type in ("normal", "kopfstand", "gold"):
        best, second, base = POINTS[round_type]
        my_best, my_second, opp_best, opp_second = stats[1 if round_type == "kopfstand" else 0]
        plain = [0.0] * 11
        risky = [0.0] * 11
        for value in CARDS:
            against = weight * ((best - base) * opp_best[value] + (second - base) * opp_second[value])
            plain[value] = base + (best - base) * my_best[value] + (second - base) * my_second[value] - against
            risky[value] = (best + RISK_BONUS) * my_best[value] - against
        tables[round_type] = (plain, risky)
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
    opp_hands = _opponent_hands(view)
    stats = _position_stats(opp_hands, rng)
    tables = _value_tables(stats, len(opp_hands))
    plain_now, risky_now = tables[view["round_type"]]
    with_chip, without_chip = _future_values(hand, _future_type_counts(view), tables, chip)
    options = []
    for i in range(len(hand)):
        card = hand[i]
        options.append((plain_now[card] + (with_chip[i] if chip else without_chip[i]), "play %d" % card))
        if chip:
            options.append((risky_now[card] + without_chip[i], "play %d risk" % card))
    return _pick_near_best(options, rng)


def _pick_near_best(options, rng):
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
    pick = rng.below(total)
    for weight, action in weights:
        if pick < weight:
            return action
        pick -= weight
    return weights[-1][1]


STRENGTHS = {"random": choose_random, "vorausschauend": choose_lookahead}

"""Computer players for Punktejagd; each sees only its seat's view.

"leicht" (Locker & zufällig) plays a uniform random card and risks rarely.

"mittel" (Aufmerksam) values its cards for the current round only, from the
cards the opponents have left, and samples among the near-best ones.

"stark" (Vorausschauend) looks at the cards every opponent still holds (from the public
list of played cards) and works out, for each card value, how often it would be
the best or the second unique number against the opponents' possible cards:
exactly when the combinations are few (and from a precomputed table in the
first round), otherwise from a bounded sample. From that it values each of its
cards in every round type, plans which of the remaining cards to keep for the
Gold and Kopfstand rounds still to come and when the risk chip pays, and scores
each action as "this round now + the best plan for the rest". It then picks
among the actions close to the best: mostly the one at its "turn" (its seat plus
the sum of all cards played so far, a number every copy at the table shifts
alike, so copies on different seats take different good cards), otherwise at
random weighted by closeness. So several copies at one table do not keep
playing the same card, and no seat sticks to a fixed choice.

Budget: the bot also runs in Brython (10x to 100x slower than CPython), so the
hot paths avoid method calls, dicts and big-integer arithmetic, and the work per
decision is bounded (at most SAMPLE_COUNT sampled opponent plays).
"""

from spieleabend.bots import pick_mixed, table_quantile
from spieleabend.games.punktejagd import CARDS, POINTS, RISK_BONUS

HIGH_ORDER = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
ROUND_MIX_COUNTS = {"normal": 7, "kopfstand": 2, "gold": 1}

RANDOM_RISK_PERCENT = 5
# Joint opponent plays up to this many are enumerated exactly; beyond, SAMPLE_COUNT are sampled.
EXACT_LIMIT = 81
SAMPLE_COUNT = 64
# Actions within this many points of the best one may be chosen (weight falls linearly to 0).
NEAR_BEST_MARGIN = 0.6
# In this share of decisions the bot instead takes the card at its "turn" among the cards within
# SPREAD_MARGIN of the best: copies at one table have different turns (their seats differ), so
# they spread over the good cards instead of all playing the same one.
SPREAD_PERCENT = 80
SPREAD_MARGIN = 0.6
# The middle level takes the chip only when it adds this much in the round itself.
PRESENT_RISK_MARGIN = 0.5
# Points per factor e in the middle level's mixed choice, and the private share of its draw.
PRESENT_TEMPERATURE = 2.0
LOOKAHEAD_TEMPERATURE = 1.0
QUANTILE_NOISE = 0.5

# First round: every opponent holds 1..10. Chance that a card value is the highest unique
# number (best) or the second highest (second), against 1..5 opponents, by exact enumeration
# of all their first cards. Kopfstand mirrors it (value v there is 11 - v here).
FIRST_ROUND_BEST = [
    None,
    [0.0, 0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
    [0.0, 0.09, 0.09, 0.11, 0.15, 0.21, 0.29, 0.39, 0.51, 0.65, 0.81],
    [0.0, 0.009, 0.033, 0.057, 0.087, 0.129, 0.189, 0.273, 0.387, 0.537, 0.729],
    [0.0, 0.0225, 0.0257, 0.0373, 0.0573, 0.0881, 0.1345, 0.2037, 0.3053, 0.4513, 0.6561],
    [0.0, 0.0073, 0.0161, 0.0263, 0.0415, 0.0653, 0.1025, 0.1603, 0.2495, 0.3857, 0.5905],
]
FIRST_ROUND_SECOND = [
    None,
    [0.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0],
    [0.0, 0.0, 0.16, 0.28, 0.36, 0.4, 0.4, 0.36, 0.28, 0.16, 0.0],
    [0.0, 0.216, 0.192, 0.21, 0.252, 0.3, 0.336, 0.342, 0.3, 0.192, 0.0],
    [0.0, 0.0288, 0.0928, 0.14, 0.1848, 0.232, 0.2768, 0.3048, 0.292, 0.2048, 0.0],
    [0.0, 0.0792, 0.0816, 0.1064, 0.1428, 0.186, 0.2312, 0.2676, 0.2724, 0.2048, 0.0],
]

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
            held = [True] * 11
            for card in view["played"][seat]:
                held[card] = False
            hands.append([card for card in CARDS if held[card]])
    return hands


def _future_type_counts(view):
    """Return the counts of normal, kopfstand and gold rounds after the current one."""
    left = dict(ROUND_MIX_COUNTS)
    for entry in view["log"]:
        left[entry["type"]] -= 1
    left[view["round_type"]] -= 1
    return left["normal"], left["kopfstand"], left["gold"]


def position_chances(opp_hands, rng):
    """Return [best_high, second_high, best_low, second_low], each indexed by card value 0..10.

    best_high[v]: chance that a card of value v is the highest unique number
    when every opponent plays a uniformly random card of its hand; second_high:
    the second highest; *_low the same for the lowest numbers (Kopfstand).
    All opponents hold the same number of cards (they all play one per round).
    """
    count = len(opp_hands)
    size = len(opp_hands[0])
    if size == 10:
        best = FIRST_ROUND_BEST[count]
        second = FIRST_ROUND_SECOND[count]
        return [best, second, [0.0] + best[10:0:-1], [0.0] + second[10:0:-1]]
    # Whole-number tallies: in Brython every float result is a new object, ints are not.
    best_high = [0] * 11
    second_high = [0] * 11
    best_low = [0] * 11
    second_low = [0] * 11
    combos = 1
    for _ in range(count):
        combos *= size
    exact = combos <= EXACT_LIMIT
    total = combos if exact else SAMPLE_COUNT
    # A 31-bit linear congruential generator inline: no method calls and no numbers above 2**53
    # in the hot loop (Brython turns those into slow big integers).
    seed = rng.below(2147483647)
    for index in range(total):
        counts = [0] * 11
        if exact:
            rest = index
            for hand in opp_hands:
                counts[hand[rest % size]] += 1
                rest //= size
        else:
            for hand in opp_hands:
                seed = (seed * 16807 + 12345) & 0x7FFFFFFF
                counts[hand[((seed >> 15) * size) >> 16]] += 1
        # From the top: a free value before any opponent's unique number is best, after one second.
        ahead = 0
        for value in HIGH_ORDER:
            seen = counts[value]
            if seen == 0:
                if ahead == 0:
                    best_high[value] += 1
                else:
                    second_high[value] += 1
            elif seen == 1:
                ahead += 1
                if ahead == 2:
                    break
        ahead = 0
        for value in CARDS:
            seen = counts[value]
            if seen == 0:
                if ahead == 0:
                    best_low[value] += 1
                else:
                    second_low[value] += 1
            elif seen == 1:
                ahead += 1
                if ahead == 2:
                    break
    scale = 1.0 / total
    return [[tally * scale for tally in row] for row in (best_high, second_high, best_low, second_low)]


def value_tables(chances):
    """Return {type: (plain, risky)}: expected points of each card value in that round type."""
    tables = {}
    for kind in ("normal", "kopfstand", "gold"):
        best, second, base = POINTS[kind]
        if kind == "kopfstand":
            my_best, my_second = chances[2], chances[3]
        else:
            my_best, my_second = chances[0], chances[1]
        plain = [0.0] * 11
        risky = [0.0] * 11
        for value in CARDS:
            plain[value] = base + (best - base) * my_best[value] + (second - base) * my_second[value]
            risky[value] = (best + RISK_BONUS) * my_best[value]
        tables[kind] = (plain, risky)
    return tables


def plan_values(hand, counts, tables):
    """Return per hand card the value of the best plan for the other cards over the future rounds.

    Result: (with_chip, without_chip). A plan gives every other card one
    future round: the Gold round (if still to come) and the Kopfstand rounds
    take the cards that gain most there over a normal round, the rest play
    normal. with_chip adds the best single risk gain among those cards.
    """
    normal_left, kopf_left, gold_left = counts
    normal_plain, normal_risky = tables["normal"]
    kopf_plain, kopf_risky = tables["kopfstand"]
    gold_plain, gold_risky = tables["gold"]
    base = 0.0
    for card in hand:
        base += normal_plain[card]
    # Cards ranked by what a Kopfstand or Gold round adds over a normal one. A few of each are
    # enough: at most two Kopfstand cards and one Gold card are taken, and the card played now
    # plus the other special round's picks are all that can be excluded.
    kopf_ranked = sorted(hand, key=lambda card: normal_plain[card] - kopf_plain[card])[:kopf_left + 2]
    gold_ranked = sorted(hand, key=lambda card: normal_plain[card] - gold_plain[card])[:kopf_left + 2]
    if not gold_left:
        gold_ranked = [0]
    # The chip goes to the card where it gains most; keep the two best so one may be played now.
    first_gain = second_gain = 0.0
    first_card = 0
    for card in hand:
        gain = 0.0
        if normal_left:
            gain = normal_risky[card] - normal_plain[card]
        if kopf_left and kopf_risky[card] - kopf_plain[card] > gain:
            gain = kopf_risky[card] - kopf_plain[card]
        if gold_left and gold_risky[card] - gold_plain[card] > gain:
            gain = gold_risky[card] - gold_plain[card]
        if gain > first_gain:
            second_gain = first_gain
            first_gain = gain
            first_card = card
        elif gain > second_gain:
            second_gain = gain
    with_chip = []
    without_chip = []
    for played in hand:
        best_special = NEG
        for gold_card in gold_ranked:
            if gold_card == played:
                continue
            special = gold_plain[gold_card] - normal_plain[gold_card] if gold_card else 0.0
            taken = 0
            for card in kopf_ranked:
                if taken == kopf_left:
                    break
                if card != played and card != gold_card:
                    special += kopf_plain[card] - normal_plain[card]
                    taken += 1
            if special > best_special:
                best_special = special
        value = base - normal_plain[played] + best_special
        without_chip.append(value)
        with_chip.append(value + (second_gain if played == first_card else first_gain))
    return with_chip, without_chip


def choose_lookahead(view, rng):
    """Pick the card (and risk) with the best planned value, sampling among near-best actions."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    hand = view["hand"]
    chip = not view["chip_spent"]
    round_type = view["round_type"]
    opp_hands = _opponent_hands(view)
    tables = value_tables(position_chances(opp_hands, rng))
    plain_now, risky_now = tables[round_type]
    with_chip, without_chip = plan_values(hand, _future_type_counts(view), tables)
    # One entry per card: its better variant (with or without the chip) as (value, card, action).
    options = []
    for i in range(len(hand)):
        card = hand[i]
        value = plain_now[card] + (with_chip[i] if chip else without_chip[i])
        action = "play %d" % card
        if chip and risky_now[card] + without_chip[i] > value:
            value = risky_now[card] + without_chip[i]
            action = "play %d risk" % card
        options.append((value, card, action))
    if LOOKAHEAD_TEMPERATURE > 0:
        return pick_mixed([option[2] for option in options], [option[0] for option in options],
                          LOOKAHEAD_TEMPERATURE, _quantile(view, rng))
    # Copies at one table see the same public log, so its card sum shifts all their turns alike:
    # different seats keep picking different close cards, yet no seat sticks to a fixed rank.
    return _pick_near_best(options, rng, _table_turn(view))


def choose_present(view, rng):
    """Pick the card (and risk) worth most in this round alone, sampling among near-best actions.

    The middle level: it reads the opponents' cards left like the lookahead
    player, but plans nothing for the rounds to come.
    """
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    hand = view["hand"]
    chip = not view["chip_spent"]
    plain_now, risky_now = value_tables(position_chances(_opponent_hands(view), rng))[view["round_type"]]
    options = []
    for card in hand:
        value = plain_now[card]
        action = "play %d" % card
        if chip and risky_now[card] > value + PRESENT_RISK_MARGIN:
            value = risky_now[card]
            action = "play %d risk" % card
        options.append((value, card, action))
    return pick_mixed([option[2] for option in options], [option[0] for option in options],
                      PRESENT_TEMPERATURE, _quantile(view, rng))


def _quantile(view, rng):
    """Return where in [0, 1) this seat draws its mixed choice (copies at a table draw spread apart).

    At two seats the draw is private. The table's shared part comes from the
    public cards, so the only other seat could work it out: a reply to the
    computer's own samples beat Stark in 93 % of two-seat games with it, 46 %
    without (bench.strength_punktejagd --exploit). Two copies at two seats
    would be computers only.
    """
    if view["seats"] == 2:
        return rng.random()
    numbers = [len(view["log"])]
    for entry in view["log"]:
        numbers.extend(entry["cards"])
    return table_quantile(numbers, view["seat"], view["seats"], rng, QUANTILE_NOISE)


def _table_turn(view):
    """Return the seat plus every card played so far: copies on different seats shift alike."""
    turn = view["seat"]
    for entry in view["log"]:
        for card in entry["cards"]:
            turn += card
    return turn


def hint(view, rng):
    """Return the lookahead choice for this view with a one-line reason (German, English)."""
    action = choose_lookahead(view, rng)
    card = int(action.split()[1])
    hand = view["hand"]
    if len(hand) == 1:
        return action, "Deine letzte Karte.", "Your last card."
    if action.endswith(" risk"):
        return (action, "Gute Aussicht auf die beste Zahl: jetzt lohnt der Risiko-Chip.",
                "A good chance of the best number: the risk chip pays now.")
    place = hand.index(card) * 3 // len(hand)  # 0: among its lowest third, 2: among its highest
    kind = view["round_type"]
    if kind == "kopfstand":
        if place == 0:
            return action, "Kopfstand: die niedrigste einmalige Zahl gewinnt – eine deiner kleinsten Karten.", \
                "Upside down: the lowest unique number wins – one of your lowest cards."
        played = [entry["type"] for entry in view["log"]]
        if played.count("kopfstand") + 1 < ROUND_MIX_COUNTS["kopfstand"]:  # another upside-down round to come
            return action, "Kopfstand: diese Runde lässt du ziehen und hebst deine kleinsten Karten auf.", \
                "Upside down: let this round go and keep your lowest cards for the next one."
        return action, "Kopfstand: die kleinsten Zahlen liegen oft doppelt und blockieren sich.", \
            "Upside down: the lowest numbers often block each other."
    if place == 2:
        if kind == "gold":
            return action, "Goldrunde, doppelte Punkte: jetzt lohnt eine deiner höchsten Karten.", \
                "Gold round, double points: one of your highest cards pays now."
        return action, "Eine deiner höchsten Karten: gute Aussicht, die beste einmalige Zahl zu sein.", \
            "One of your highest cards: a good chance of the best unique number."
    if kind != "gold" and "gold" not in [entry["type"] for entry in view["log"]]:  # the Gold round is to come
        return action, "Spart die hohen Karten für die Goldrunde.", "Keeps the high cards for the Gold round."
    if kind == "gold":  # after "keep the high cards for the Gold round", say why not the highest now
        return (action, "Goldrunde: alle haben hohe Karten aufgehoben, die sich blockieren – eine kleinere hat "
                "bessere Aussichten.",
                "Gold round: everyone kept their high cards, and they block each other – a smaller one has better "
                "chances.")
    return action, "Die höchsten Zahlen liegen oft doppelt und blockieren sich – eine kleinere hat bessere Aussichten.", \
        "The highest numbers often block each other – a smaller one has better chances."


def _pick_near_best(options, rng, turn):
    """Return the action of one option close to the best value.

    Usually a random pick weighted by closeness (linear falloff to 0 at
    NEAR_BEST_MARGIN); in SPREAD_PERCENT of the decisions the option at index
    `turn` among those within SPREAD_MARGIN, best first.
    """
    best = NEG
    for value, _, _ in options:
        if value > best:
            best = value
    if rng.below(100) < SPREAD_PERCENT:
        close = sorted([option for option in options if option[0] >= best - SPREAD_MARGIN], reverse=True)
        return close[turn % len(close)][2]
    weights = []
    total = 0
    for value, _, action in options:
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


STRENGTHS = {"leicht": choose_random, "mittel": choose_present, "stark": choose_lookahead}
# Keys saved by earlier releases (games, settings, rooms) and the level they mean now.
STRENGTH_ALIASES = {"random": "leicht", "medium": "mittel", "strong": "stark", "vorausschauend": "stark"}
LEVEL_INFO = {
    "leicht": ("Wählt seine Karten zufällig.", "Picks its cards at random."),
    "mittel": ("Schaut, welche Karten die anderen noch haben, und denkt nur an diese Runde.",
               "Looks at the cards the others have left and thinks of this round only."),
    "stark": ("Bewertet mögliche Ergebnisse und denkt an die nächste Rundenart. Trotzdem nicht immer gleich.",
              "Weighs possible outcomes and plans for the round types to come. Still not always the same."),
}

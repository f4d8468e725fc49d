"""Computer players for Kartenkampf: leicht (random), mittel and stark, both mixing their choices.

Mittel values its cards against opponents that play at random; stark learns
the opponents' habits. Both draw their card from a mixed strategy over those
values (sharper at two seats), at a point of the circle that copies at one
table share but see from different seats: copies spread over the good cards
instead of blocking each other (three copies playing the same card handed a
random player most games before).

The strong player reads only its view: the round log tells it which cards every
opponent has left and how each opponent has chosen so far. It keeps a belief
over three simple habits per opponent (plays its highest card, plays its
lowest, plays at random), predicts the opponents' cards from that belief,
and picks the card with the best expected value: points won, minus points an
opponent wins, minus what the card would have been worth in later rounds.

The future cost is steep on purpose: solving the two-seat game against a
random opponent exactly showed that the best play keeps the top cards for the
last rounds and spends the lowest card that will still matter, counting a
couple of rounds that end without a winner (their cards come back).

At two seats the strong player is different: everything but a choice is public
there, so any player with a favourite card for a position is worked out and
beaten by one above it. It plays the duel's optimal mix (kartenkampf_duel),
bet part of the way on its model of the other seat: a medium player, random
play, or always the highest or the lowest card.
"""

from spieleabend.bots import mixed_weights, pick_mixed
from spieleabend.bots import table_quantile as mixing_quantile
from spieleabend.bots.kartenkampf_duel import draw, duel_strategy
from spieleabend.games.kartenkampf import CARDS as ALL_CARDS
from spieleabend.games.kartenkampf import ROUNDS


# Tuned with bench/strength_kartenkampf.py.
HABIT_SLIP = 0.06        # how often a "highest"/"lowest" habit is allowed to deviate
FUTURE_WEIGHT = 20.0     # worth of one pip kept for later rounds, two seats
FUTURE_WEIGHT_TABLE = 4.0  # ... at three seats or more (rounds are won by many cards, not one)
SLACK = 2                # later rounds that will not use up a card (ties give cards back)
SAMPLES_FEW = 32         # joint opponent samples per decision with 2 or 3 opponents
SAMPLES_MANY = 8         # ... with 4 or more (each sample costs more; the mixed choice hides the noise)
TABLE_SIZE = 32          # a predicted distribution as 32 equally likely cards
RIVAL_WEIGHT_MANY = 0.55  # how much an opponent's win hurts at a table of 3+
DUEL_TRUST = 0.3           # two seats: how far the strong player bets on its model of the other seat
DUEL_TRUST_SHARP = 0.4     # ... and further, by the belief in a model that predicts sharply (medium, habits)
# Points per factor e in the mixed choice: sharp at two seats (exploit a random
# opponent), flat at larger tables, where a table of copies that all chase the
# same best card hands the pots to anyone who plays differently. (The strong
# player at two seats plays the duel's mix instead.)
MEDIUM_TEMPERATURE_DUEL = 3.0
MEDIUM_TEMPERATURE = 15.0
STRONG_TEMPERATURE = 15.0
COPY_WEIGHT = 0.9          # share of a medium copy's choice in the strong player's predictions
COPY_SAMPLES = 8           # joint samples when working out a copy's choice (a rough guess is enough)
COPY_MODEL_MAX_SEATS = 4   # ... up to this table size (beyond, the phone budget allows habits only)
HABIT_SURE = 0.9           # belief in a highest/lowest habit from which it outweighs the copy model
QUANTILE_NOISE = 0.5       # private share of a seat's draw (of its 1/seats slice of the circle)


def choose_random(view, rng):
    """Play a uniformly random card."""
    return rng.choice(view["legal"])


def _card(action):
    return int(action[5:])


def _hands_over_time(view, seat):
    """Return [(hand before the round, card played)] for every logged round of one seat."""
    hand = list(ALL_CARDS)
    result = []
    for entry in view["log"]:
        card = entry["played"][seat]
        result.append((list(hand), card))
        if entry["winner"] is not None:
            hand.remove(card)
    return result


def habit_belief(view, seat):
    """Return the belief [highest, lowest, random] over the habits of one seat, from its history."""
    # A normalised prior: before any history the three habits are equally likely.
    weights = [1.0 / 3, 1.0 / 3, 1.0 / 3]
    for hand, card in _hands_over_time(view, seat):
        size = len(hand)
        if size < 2:
            continue
        top = hand[-1]
        low = hand[0]
        uniform = 1.0 / size
        other = HABIT_SLIP / (size - 1)
        weights[0] *= (1.0 - HABIT_SLIP) if card == top else other
        weights[1] *= (1.0 - HABIT_SLIP) if card == low else other
        weights[2] *= uniform
        total = weights[0] + weights[1] + weights[2]
        weights = [w / total for w in weights]
    return weights


def predicted_distribution(view, seat, uniform=False, belief=None):
    """Return (cards, probabilities) of the card a seat is expected to play this round (from `belief` if given)."""
    spent = view["spent"][seat]
    hand = [card for card in ALL_CARDS if card not in spent]
    if belief is None:
        belief = [0.0, 0.0, 1.0] if uniform else habit_belief(view, seat)
    size = len(hand)
    probs = [belief[2] / size] * size
    probs[-1] += belief[0]
    probs[0] += belief[1]
    return hand, probs


def _sampling_table(hand, probs):
    """Return TABLE_SIZE cards whose frequencies follow probs (rounded to 1/TABLE_SIZE)."""
    table = []
    running = 0.0
    for card, prob in zip(hand, probs):
        running += prob * TABLE_SIZE
        while len(table) < int(running + 0.5) and len(table) < TABLE_SIZE:
            table.append(card)
    while len(table) < TABLE_SIZE:
        table.append(hand[-1])
    return table


def _future_cost(hand, card, rounds_after):
    """Return what giving up `card` costs in later rounds: only the best few cards count."""
    keep = rounds_after - SLACK
    if keep <= 0:
        return 0.0
    ordered = sorted(hand, reverse=True)
    if card not in ordered[:keep]:
        return 0.0
    replacement = ordered[keep] if len(ordered) > keep else 0
    return card - replacement


def _rival_weights(view, me):
    """Return how much each opponent's win counts against me (the leader counts most)."""
    seats = view["seats"]
    if seats == 2:
        return [1.0] * seats
    scores = view["scores"]
    best_other = max(scores[s] for s in range(seats) if s != me)
    weights = []
    for seat in range(seats):
        if seat == me:
            weights.append(0.0)
        elif scores[seat] == best_other:
            weights.append(RIVAL_WEIGHT_MANY + 0.25)
        else:
            weights.append(RIVAL_WEIGHT_MANY)
    return weights


def _evaluate_sample(counts, opp_sum, owner_of, candidates, rivals, totals, winners):
    """Add one opponent sample's value to each candidate's total (and its winner-exists weight)."""
    uniques = [v for v in range(10, 0, -1) if counts[v] == 1]
    # Index loops, not enumerate: Brython ends every iterator with a raised StopIteration, which is slow.
    for index in range(len(candidates)):
        card = candidates[index]
        points = opp_sum + card
        seen = counts[card]
        if seen == 0:
            if not uniques or card > uniques[0]:
                totals[index] += points
                winners[index] += 1.0
            else:
                totals[index] -= rivals[owner_of[uniques[0]]] * points
                winners[index] += 1.0
        else:
            top = None
            for value in uniques:
                if value != card:
                    top = value
                    break
            if top is not None:
                totals[index] -= rivals[owner_of[top]] * points
                winners[index] += 1.0


def card_values(view, rng, uniform=False, future_weight=None, models=None, samples=None):
    """Return each legal card's expected round value minus its worth for later rounds.

    `uniform` models every opponent as a random player instead of learning its habits;
    `models` gives (cards, probabilities) per opponent instead; `samples` bounds the joint samples.
    """
    legal = view["legal"]
    me = view["seat"]
    seats = view["seats"]
    candidates = [_card(action) for action in legal]
    rounds_after = ROUNDS - view["round"]
    rivals = [1.0] * seats if uniform else _rival_weights(view, me)
    opponents = [s for s in range(seats) if s != me]
    if models is None:
        models = [predicted_distribution(view, s, uniform) for s in opponents]
    totals = [0.0] * len(candidates)
    winners = [0.0] * len(candidates)
    if len(opponents) == 1:
        # One opponent card at a time, exactly as _evaluate_sample scores it (same sums in the same order),
        # written out: the strong player at two seats runs this for every round it has seen.
        hand, probs = models[0]
        rival = rivals[opponents[0]]
        for i in range(len(candidates)):
            card = candidates[i]
            for k in range(len(hand)):
                other = hand[k]
                if other != card:
                    prob = probs[k]
                    if card > other:
                        totals[i] += prob * (card + other)
                    else:
                        totals[i] -= prob * (rival * (card + other))
                    winners[i] += prob
    else:
        tables = [_sampling_table(hand, probs) for hand, probs in models]
        if samples is None:
            samples = SAMPLES_FEW if len(opponents) <= 3 else SAMPLES_MANY
        x = rng.next32() | 1
        for _ in range(samples):
            counts = [0] * 11
            owner_of = {}
            opp_sum = 0
            for j in range(len(tables)):
                # xorshift32 inline: far cheaper than a method call per draw in Brython.
                x ^= (x << 13) & 0xFFFFFFFF
                x ^= x >> 17
                x ^= (x << 5) & 0xFFFFFFFF
                card = tables[j][x >> 27]
                counts[card] += 1
                owner_of[card] = opponents[j]
                opp_sum += card
            _evaluate_sample(counts, opp_sum, owner_of, candidates, rivals, totals, winners)
        scale = 1.0 / samples
        totals = [t * scale for t in totals]
        winners = [w * scale for w in winners]
    hand = view["hand"]
    weight = future_weight if future_weight is not None else FUTURE_WEIGHT
    return [totals[i] - winners[i] * weight * _future_cost(hand, candidates[i], rounds_after)
            for i in range(len(candidates))]


def table_quantile(view, rng):
    """Return where in [0, 1) this seat draws its mixed choice (copies at a table draw spread apart)."""
    numbers = [view["round"]]
    for entry in view["log"]:
        numbers.extend(entry["played"])
    return mixing_quantile(numbers, view["seat"], view["seats"], rng, QUANTILE_NOISE)


def choose_medium(view, rng):
    """Value the cards against random opponents and pick at random among the good ones."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    duel = view["seats"] == 2
    values = card_values(view, rng, True, FUTURE_WEIGHT if duel else FUTURE_WEIGHT_TABLE)
    return pick_mixed(legal, values, MEDIUM_TEMPERATURE_DUEL if duel else MEDIUM_TEMPERATURE,
                      table_quantile(view, rng))


def seat_view(view, seat):
    """Return the part of the view another seat sees that card_values reads (hands are public here)."""
    spent = view["spent"][seat]
    hand = [card for card in ALL_CARDS if card not in spent]
    return {"legal": ["play %d" % card for card in hand], "hand": hand, "seat": seat,
            "seats": view["seats"], "round": view["round"], "spent": view["spent"], "log": view["log"]}


def copy_model(view, rng, seat):
    """Return (cards, probabilities) of a seat played by a medium copy: its own mixed choice."""
    other = seat_view(view, seat)
    weights, total = mixed_weights(card_values(other, rng, True, FUTURE_WEIGHT_TABLE, None, COPY_SAMPLES),
                                   MEDIUM_TEMPERATURE)
    return other["hand"], [weight / total for weight in weights]


def strong_models(view, rng):
    """Return the strong player's prediction per opponent at a small table: habits mixed with a copy's choice.

    Computers of one level at a table are common (and a table of copies is the
    case that went wrong before): part of each prediction is what a medium
    player in that seat would draw.
    """
    me = view["seat"]
    models = []
    for seat in range(view["seats"]):
        if seat == me:
            continue
        belief = habit_belief(view, seat)
        hand, habits = predicted_distribution(view, seat, belief=belief)
        _, copied = copy_model(view, rng, seat)
        # A seat that surely keeps playing its highest (or lowest) card is no copy: the copy's share goes to the
        # habit (always-highest won the most games at a table with Stark otherwise). Below sure, a medium seat
        # that often plays low would be mistaken for the habit.
        habit = belief[0] if belief[0] > belief[1] else belief[1]
        weight = COPY_WEIGHT * (1.0 - habit) if habit > HABIT_SURE else COPY_WEIGHT
        models.append((hand, [(1.0 - weight) * habits[k] + weight * copied[k]
                              for k in range(len(hand))]))
    return models


def medium_duel_distribution(view, rng):
    """Return the probabilities (cards high first) with which a medium player in this two-seat view plays."""
    weights, total = mixed_weights(card_values(view, rng, True, FUTURE_WEIGHT), MEDIUM_TEMPERATURE_DUEL)
    return [weights[k] / total for k in range(len(weights) - 1, -1, -1)]  # legal is low first


def _habit_models(view, seat, rng):
    """Return the other seat's play under each duel model, cards high first: medium, random, highest, lowest."""
    other = seat_view(view, seat)
    size = len(other["hand"])
    models = [medium_duel_distribution(other, rng) if size > 1 else [1.0], [1.0 / size] * size,
              [1.0] + [0.0] * (size - 1), [0.0] * (size - 1) + [1.0]]
    for model in models:  # every model allows a slip, so one surprise does not rule it out for good
        for k in range(size):
            model[k] = (1.0 - HABIT_SLIP) * model[k] + HABIT_SLIP / size
    return models


def duel_expectation(view, rng):
    """Return (how the other seat is expected to play this round, cards high first; the belief).

    The belief is over four models (a medium player, random, always highest,
    always lowest), each weighed by how likely it made the other seat's past choices.
    """
    other = 1 - view["seat"]
    log = view["log"]
    belief = [0.25, 0.25, 0.25, 0.25]
    for played in range(len(log)):
        past = {"seat": view["seat"], "seats": 2, "round": played + 1, "log": log[:played],
                "spent": _spent_after(log[:played])}
        models = _habit_models(past, other, rng)
        hand = [card for card in reversed(ALL_CARDS) if card not in past["spent"][other]]
        position = hand.index(log[played]["played"][other])
        belief = [belief[m] * models[m][position] for m in range(4)]
        total = sum(belief)
        belief = [b / total for b in belief]
    models = _habit_models(view, other, rng)
    return [sum(belief[m] * models[m][k] for m in range(4)) for k in range(len(models[0]))], belief


def _spent_after(log):
    """Return each of two seats' used-up cards after the logged rounds."""
    spent = [[], []]
    for entry in log:
        if entry["winner"] is not None:
            spent[0].append(entry["played"][0])
            spent[1].append(entry["played"][1])
    return spent


def strong_duel_mix(view, rng):
    """Return (cards high first, probabilities) of the strong player at two seats: the duel's optimal mix,
    bet part of the way on what it expects of the other seat (the further, the better a model fits)."""
    if not view["log"]:
        return duel_strategy(view)  # nothing seen yet: the solved opening, nothing to bet on
    expected, belief = duel_expectation(view, rng)
    # Only a model that predicts sharply earns more trust: a player that works me out fits none of them and
    # looks most like the random one (trusting that cost 6 points of games against such a player).
    trust = DUEL_TRUST + DUEL_TRUST_SHARP * (1.0 - belief[1])
    return duel_strategy(view, expected, trust)


def choose_strong(view, rng):
    """At two seats the duel's optimal mix; at a table, value the cards against the opponents' observed
    habits and spread copies over the near-best cards."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    if view["seats"] == 2:
        cards, probabilities = strong_duel_mix(view, rng)
        return draw(cards, probabilities, rng)
    models = strong_models(view, rng) if view["seats"] <= COPY_MODEL_MAX_SEATS else None
    values = card_values(view, rng, False, FUTURE_WEIGHT_TABLE, models)
    return pick_mixed(legal, values, STRONG_TEMPERATURE, table_quantile(view, rng))


def hint(view, rng):
    """Return the strong choice for this view with a one-line reason (German, English)."""
    hand = view["hand"]
    if len(view["legal"]) == 1:
        return view["legal"][0], "Deine letzte Karte.", "Your last card."
    if view["seats"] == 2:
        cards, probabilities = strong_duel_mix(view, rng)
        action = draw(cards, probabilities, rng)
        share = int(100 * probabilities[cards.index(_card(action))] + 0.5)
        return (action, "Zu zweit zählt der Zufall: diese Karte in %d %% der Fälle, sonst rechnet dein Gegenüber "
                        "dich aus." % share,
                "With two players chance counts: this card %d%% of the time, or the other works you out." % share)
    action = choose_strong(view, rng)
    card = _card(action)
    if card == max(hand):
        return action, "Deine höchste Karte: jetzt lohnt sie sich.", "Your highest card: it pays now."
    if card <= sorted(hand)[len(hand) // 2]:
        return (action, "Eine deiner niedrigeren Karten: die hohen bleiben für später.",
                "One of your lower cards: the high ones stay for later.")
    return action, "Gute Gewinnchance, ohne die besten Karten zu verbrauchen.", \
        "A fair chance to win without spending the best cards."


STRENGTHS = {"leicht": choose_random, "mittel": choose_medium, "stark": choose_strong}
# Keys saved by earlier releases (games, settings, rooms) and the level they mean now.
STRENGTH_ALIASES = {"random": "leicht", "medium": "mittel", "strong": "stark", "vorausschauend": "stark"}
LEVEL_INFO = {
    "leicht": ("Legt jede Runde eine zufällige Karte.", "Plays a random card every round."),
    "mittel": ("Wägt ab, was eine Karte jetzt bringt und später fehlt.",
               "Weighs what a card wins now against what it would be worth later."),
    "stark": ("Beobachtet, wie die anderen spielen, hebt hohe Karten auf und lässt sich nicht ausrechnen.",
              "Watches how the others play, keeps high cards for later and cannot be worked out."),
}

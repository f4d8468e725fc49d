"""Computer players for Kartenkampf: a random one and a strong one that models its opponents.

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
"""

ROUNDS = 10
ALL_CARDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]

# Tuned with bench/strength_kartenkampf.py.
HABIT_SLIP = 0.06        # how often a "highest"/"lowest" habit is allowed to deviate
FUTURE_WEIGHT = 20.0     # worth of one pip kept for later rounds
SLACK = 2                # later rounds that will not use up a card (ties give cards back)
SAMPLES_FEW = 32         # joint opponent samples per decision with 2 or 3 opponents
SAMPLES_MANY = 20        # ... with 4 or more (each sample costs more, and the future cost dominates)
TABLE_SIZE = 64          # a predicted distribution as 64 equally likely cards
RIVAL_WEIGHT_MANY = 0.55  # how much an opponent's win hurts at a table of 3+


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
    weights = [1.0, 1.0, 1.0]
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


def predicted_distribution(view, seat):
    """Return (cards, probabilities) of the card a seat is expected to play this round."""
    spent = view["spent"][seat]
    hand = [card for card in ALL_CARDS if card not in spent]
    belief = habit_belief(view, seat)
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
    return FUTURE_WEIGHT * (card - replacement)


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


def choose_strong(view, rng):
    """Pick the card with the best expected round value minus its worth for later rounds."""
    legal = view["legal"]
    if len(legal) == 1:
        return legal[0]
    me = view["seat"]
    seats = view["seats"]
    candidates = [_card(action) for action in legal]
    rounds_after = ROUNDS - view["round"]
    rivals = _rival_weights(view, me)
    opponents = [s for s in range(seats) if s != me]
    models = [predicted_distribution(view, s) for s in opponents]
    totals = [0.0] * len(candidates)
    winners = [0.0] * len(candidates)
    if len(opponents) == 1:
        hand, probs = models[0]
        for card, prob in zip(hand, probs):
            counts = [0] * 11
            counts[card] = 1
            part_totals = [0.0] * len(candidates)
            part_winners = [0.0] * len(candidates)
            _evaluate_sample(counts, card, {card: opponents[0]}, candidates, rivals,
                             part_totals, part_winners)
            for i in range(len(candidates)):
                totals[i] += prob * part_totals[i]
                winners[i] += prob * part_winners[i]
    else:
        tables = [_sampling_table(hand, probs) for hand, probs in models]
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
                card = tables[j][x >> 26]
                counts[card] += 1
                owner_of[card] = opponents[j]
                opp_sum += card
            _evaluate_sample(counts, opp_sum, owner_of, candidates, rivals, totals, winners)
        scale = 1.0 / samples
        totals = [t * scale for t in totals]
        winners = [w * scale for w in winners]
    hand = view["hand"]
    best_index = 0
    best_value = None
    for i in range(len(candidates)):
        card = candidates[i]
        value = totals[i] - winners[i] * _future_cost(hand, card, rounds_after)
        # A tiny random nudge breaks exact ties without favouring one card.
        value += rng.random() * 1e-6
        if best_value is None or value > best_value:
            best_value = value
            best_index = i
    return legal[best_index]


STRENGTHS = {"random": choose_random, "strong": choose_strong}

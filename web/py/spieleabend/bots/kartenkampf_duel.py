"""Kartenkampf at two seats: a mixed strategy from the whole game's values, so a person cannot work it out.

At two seats everything but a seat's choice is public (both hands start as 1 to
10 and every played card is shown), so a computer that plays one card for a
given position is read and beaten by anyone who plays one above it. This player
solves each round as a matrix game: its card against the other's, worth the
round's points plus the value of the position after it, and draws its card
from the game's optimal mixed strategy with private random numbers.

The values of later positions come from a model fitted offline to the exact
values of every position (backward induction over both hands and the rounds
left, about 460,000 positions, `python -m bench.kartenkampf_duel`): per hand
size and rounds left, a linear function of which cards each side holds and of
who wins each pairing of one hand's card against the other's (with its pot).
The values are the expected point margin; the game is won by points, so the
margin is what a round is worth.
"""

from spieleabend.bots.kartenkampf_duel_weights import OPENING, WEIGHTS
from spieleabend.bots.zero_sum import solve
from spieleabend.games.kartenkampf import CARDS, ROUNDS


def position_value(mine, theirs, rounds_left):
    """Return the modelled point margin of the rest of the game for the holder of `mine` (both sorted high first)."""
    if rounds_left == 0 or mine == theirs:
        return 0.0
    size = len(mine)
    weights = WEIGHTS[size][rounds_left]
    total = 0.0
    for card in mine:
        total += weights[card - 1]
    for card in theirs:
        total -= weights[card - 1]
    index = 10
    for a in mine:
        for b in theirs:
            if a > b:
                total += weights[index] * (a + b)
            elif a < b:
                total -= weights[index] * (a + b)
            index += 1
    return total


def round_matrix(mine, theirs, rounds_left):
    """Return the round's payoff matrix: my card (row) against theirs (column), points plus what follows."""
    tie_value = position_value(mine, theirs, rounds_left - 1)
    matrix = []
    for a in mine:
        rest_mine = [card for card in mine if card != a]
        row = []
        for b in theirs:
            if a == b:
                row.append(tie_value)
                continue
            rest_theirs = [card for card in theirs if card != b]
            after = position_value(rest_mine, rest_theirs, rounds_left - 1)
            row.append(after + (a + b) if a > b else after - (a + b))
        matrix.append(row)
    return matrix


def duel_strategy(view, expected=None, trust=0.0):
    """Return (my cards high first, their probabilities) for a two-seat view: the round's optimal mix.

    `expected` (the other seat's cards high first, with probabilities) and `trust`
    in [0, 1) make it a restricted response: the best mix when the other seat
    plays as expected with probability `trust` and as badly for me as it can
    otherwise. It exploits a predictable player and stays hard to exploit itself.
    """
    me = view["seat"]
    spent_other = view["spent"][1 - me]
    mine = sorted(view["hand"], reverse=True)
    theirs = [card for card in reversed(CARDS) if card not in spent_other]
    rounds_left = ROUNDS - len(view["log"])
    if rounds_left == ROUNDS and (expected is None or trust == 0.0):
        return mine, list(OPENING)  # the first round is always the same position: solved offline
    matrix = round_matrix(mine, theirs, rounds_left)
    if expected is not None and trust > 0.0:
        # Row i against the expected play is a constant per row: blending it into every entry keeps a matrix game.
        for row in matrix:
            against_expected = 0.0
            for j in range(len(theirs)):
                against_expected += row[j] * expected[j]
            for j in range(len(theirs)):
                row[j] = (1.0 - trust) * row[j] + trust * against_expected
    strategy, _ = solve(matrix)
    return mine, strategy


def choose_duel(view, rng, expected=None, trust=0.0):
    """Draw a card from the round's (restricted) optimal mix with this seat's private random numbers."""
    cards, probabilities = duel_strategy(view, expected, trust)
    pick = rng.random()
    for k in range(len(cards)):
        if pick < probabilities[k]:
            return "play %d" % cards[k]
        pick -= probabilities[k]
    for k in range(len(cards) - 1, -1, -1):  # rounding left a sliver: the last card with any weight
        if probabilities[k] > 0.0:
            return "play %d" % cards[k]
    return "play %d" % cards[-1]

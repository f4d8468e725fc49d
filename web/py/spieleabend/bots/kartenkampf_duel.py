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
    """Return the round's payoff matrix: my card (row) against theirs (column), points plus what follows.

    Each entry needs the value of the position after the round; computing each
    from scratch costs a phone tens of milliseconds at ten cards. The pairings'
    part of every such value is a sum over a rectangle of products, so 2D prefix
    sums give each in a few lookups (the same numbers as position_value).
    """
    size = len(mine)
    tie_value = position_value(mine, theirs, rounds_left - 1)
    after = [[0.0] * size for _ in range(size)]
    if rounds_left > 1 and size > 1:
        weights = WEIGHTS[size - 1][rounds_left - 1]
        held = 0.0
        for card in mine:
            held += weights[card - 1]
        for card in theirs:
            held -= weights[card - 1]
        sums = _shifted_prefix_sums(mine, theirs, weights)
        for p in range(size):
            row = after[p]
            for q in range(size):
                row[q] = held - weights[mine[p] - 1] + weights[theirs[q] - 1] + _pairings_after(sums, size, p, q)
    matrix = []
    for p in range(size):
        a = mine[p]
        row = []
        for q in range(size):
            b = theirs[q]
            if a == b:
                row.append(tie_value)
            elif a > b:
                row.append(after[p][q] + (a + b))
            else:
                row.append(after[p][q] - (a + b))
        matrix.append(row)
    return matrix


def _shifted_prefix_sums(mine, theirs, weights):
    """Return four 2D prefix sums of pairing products, one per way a removed row and column shift the weights."""
    size = len(mine)
    smaller = size - 1
    sums = []
    for row_shift in (0, 1):
        for col_shift in (0, 1):
            prefix = [[0.0] * (size + 1) for _ in range(size + 1)]
            for i in range(size):
                line = prefix[i + 1]
                above = prefix[i]
                running = 0.0
                wi = i - row_shift
                for j in range(size):
                    wj = j - col_shift
                    if 0 <= wi < smaller and 0 <= wj < smaller:
                        a = mine[i]
                        b = theirs[j]
                        weight = weights[10 + wi * smaller + wj]
                        if a > b:
                            running += weight * (a + b)
                        elif a < b:
                            running -= weight * (a + b)
                    line[j + 1] = above[j + 1] + running
            sums.append(prefix)
    return sums


def _rectangle(prefix, top, bottom, left, right):
    """Return the sum over rows [top, bottom) and columns [left, right) from a 2D prefix sum."""
    return prefix[bottom][right] - prefix[top][right] - prefix[bottom][left] + prefix[top][left]


def _pairings_after(sums, size, p, q):
    """Return the pairings' part of the value after my p-th and their q-th card leave (rows and columns shift)."""
    return (_rectangle(sums[0], 0, p, 0, q) + _rectangle(sums[1], 0, p, q + 1, size)
            + _rectangle(sums[2], p + 1, size, 0, q) + _rectangle(sums[3], p + 1, size, q + 1, size))


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


def draw(cards, probabilities, rng):
    """Return the action of the card drawn from the mix with one private random number."""
    pick = rng.random()
    for k in range(len(cards)):
        if pick < probabilities[k]:
            return "play %d" % cards[k]
        pick -= probabilities[k]
    for k in range(len(cards) - 1, -1, -1):  # rounding left a sliver: the last card with any weight
        if probabilities[k] > 0.0:
            return "play %d" % cards[k]
    return "play %d" % cards[-1]

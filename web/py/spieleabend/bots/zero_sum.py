"""Optimal mixed strategies of small two-player zero-sum matrix games (a simplex, no libraries).

Only + - * / on floats: the same strategy in CPython and in Brython, so a seeded
game replays identically in both.
"""

EPSILON = 1e-9


def solve(matrix):
    """Return (row strategy, value) of the game `matrix[i][j]` paid by the column player to the row player.

    The row player's strategy maximises its guaranteed expected payoff. Solved as
    the column player's linear programme (maximise sum w, M w <= 1, w >= 0, with M
    shifted to be positive); the row strategy is read from the slack columns of the
    final tableau. Bland's rule: these games are often degenerate (symmetric hands).
    """
    rows = len(matrix)
    cols = len(matrix[0])
    low = matrix[0][0]
    for line in matrix:
        for entry in line:
            if entry < low:
                low = entry
    shift = 1.0 - low
    # Tableau: rows x (cols + rows slack + right-hand side); objective row last.
    width = cols + rows + 1
    tableau = []
    for i in range(rows):
        line = [0.0] * width
        source = matrix[i]
        for j in range(cols):
            line[j] = source[j] + shift
        line[cols + i] = 1.0
        line[width - 1] = 1.0
        tableau.append(line)
    objective = [0.0] * width
    for j in range(cols):
        objective[j] = -1.0
    basis = [cols + i for i in range(rows)]
    while True:
        entering = -1
        for j in range(width - 1):
            if objective[j] < -EPSILON:
                entering = j  # Bland: the first improving column
                break
        if entering < 0:
            break
        leaving = -1
        best_ratio = 0.0
        for i in range(rows):
            entry = tableau[i][entering]
            if entry > EPSILON:
                ratio = tableau[i][width - 1] / entry
                if leaving < 0 or ratio < best_ratio - EPSILON or (
                        ratio < best_ratio + EPSILON and basis[i] < basis[leaving]):
                    leaving = i
                    best_ratio = ratio
        pivot_line = tableau[leaving]
        pivot = pivot_line[entering]
        for j in range(width):
            pivot_line[j] /= pivot
        for i in range(rows):
            if i != leaving:
                line = tableau[i]
                factor = line[entering]
                if factor != 0.0:
                    for j in range(width):
                        line[j] -= factor * pivot_line[j]
        factor = objective[entering]
        for j in range(width):
            objective[j] -= factor * pivot_line[j]
        basis[leaving] = entering
    total = objective[width - 1]  # sum of w = 1 / (value + shift)
    strategy = [objective[cols + i] / total for i in range(rows)]
    cleaned = [p if p > EPSILON else 0.0 for p in strategy]
    mass = 0.0
    for p in cleaned:
        mass += p
    return [p / mass for p in cleaned], 1.0 / total - shift

"""Computer players: one module per game.

Each offers `STRENGTHS = {"leicht": ..., "mittel": ..., "stark": ...}` (choose(view, rng) -> action,
weakest first), `STRENGTH_ALIASES` (old saved keys -> level), `LEVEL_INFO` (level -> one line
German, English) and `hint(view, rng) -> (action, reason_de, reason_en or None)`.
Below: the mixed choice the levels of the games where all choose at once share, and the small
learned networks Mau-Mau's and Pao De Kuai's Stark score their options with.
"""


def table_quantile(numbers, seat, seats, rng, noise):
    """Return where in [0, 1) a seat draws its mixed choice.

    `numbers` are public (the cards played so far): every seat hashes them
    alike, adds its own share of the circle and a little private noise. Each
    seat alone draws uniformly, but copies of one player at a table draw spread
    apart (stratified), so they rarely land on the same card.
    """
    h = 2166136261
    for number in numbers:
        h = ((h ^ number) * 16777619) & 0xFFFFFFFF
    u = h / 4294967296.0 + (seat + rng.random() * noise) / seats
    return u - int(u)


def exp_of_negative(x):
    """Return about exp(x) for x <= 0, as (1 + x/1024) ** 1024 by ten squarings.

    Only + * / : exactly the same double in CPython and in Brython's JavaScript
    (a library exp or pow may differ in the last bit, and a seeded game must
    replay identically in both); the bots import no standard-library module.
    """
    if x < -60.0:
        return 0.0
    y = 1.0 + x / 1024.0
    for _ in range(10):
        y = y * y
    return y


def mixed_weights(values, temperature):
    """Return (weights, their total) of the distribution proportional to exp(value / temperature)."""
    best = max(values)
    weights = []
    total = 0.0
    for value in values:
        weight = exp_of_negative((value - best) / temperature)
        weights.append(weight)
        total += weight
    return weights, total


def pick_mixed(actions, values, temperature, u):
    """Return the action at quantile `u` of the distribution proportional to exp(value / temperature)."""
    weights, total = mixed_weights(values, temperature)
    pick = u * total
    for k in range(len(actions)):
        if pick < weights[k]:
            return actions[k]
        pick -= weights[k]
    return actions[-1]


def network_score(inputs, hidden, start, output):
    """Return a small learned network's score of `inputs` (one rectified hidden layer, weights in thousandths).

    `start[unit]` is where each hidden unit begins: its bias, plus what the inputs shared by every option
    of a decision add (summed once per decision). Zero inputs are skipped: most are 0 or 1."""
    total = 0.0
    for unit in range(len(hidden)):
        row = hidden[unit]
        act = start[unit]
        for index in range(len(inputs)):
            if inputs[index]:
                act += row[index] * inputs[index]
        if act > 0:
            total += output[unit] * act
    return total / 1000000.0  # both layers in thousandths

"""Computer players: one module per game.

Each offers `STRENGTHS = {"leicht": ..., "mittel": ..., "stark": ...}` (choose(view, rng) -> action,
weakest first), `STRENGTH_ALIASES` (old saved keys -> level), `LEVEL_INFO` (level -> one line
German, English) and `hint(view, rng) -> (action, reason_de, reason_en or None)`.
Below: the mixed choice the levels of the games where all choose at once share.
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


def pick_mixed(actions, values, temperature, u):
    """Return the action at quantile `u` of the distribution proportional to exp(value / temperature)."""
    best = max(values)
    weights = []
    total = 0.0
    for value in values:
        # 2 ** (x / ln 2) is exp(x): the bots import no standard-library module (no `math`).
        weight = 2.0 ** ((value - best) / temperature * 1.4426950408889634)
        weights.append(weight)
        total += weight
    pick = u * total
    for k in range(len(actions)):
        if pick < weights[k]:
            return actions[k]
        pick -= weights[k]
    return actions[-1]

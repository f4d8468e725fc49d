"""The rules engines, one flat module per game, all with the same verbs.

Every engine module is pure Python (no standard-library or `browser` imports)
and offers:

    NAME, MIN_SEATS, MAX_SEATS
    new_game(options: dict, rng: Rng) -> state      # plain data; raises BadOptions
    to_move(state) -> list[int]                     # seats that may act now; [] once over
    legal_actions(state, seat) -> list[str]         # actions are short strings
    apply_action(state, seat, action) -> None       # mutates; raises IllegalAction first, so
                                                    # an illegal action changes nothing
    view(state, seat) -> dict                       # what that seat may see, including
                                                    # "legal": legal_actions(state, seat);
                                                    # seat None = the table (infoscreen):
                                                    # public facts only
    outcome(state) -> dict | None                   # None while running, else at least
                                                    # {"winners": [seats], "scores": [...]}

Randomness comes only from the `Rng` passed to `new_game`; its state is kept in
`state["rng"]`, so a saved game continues exactly. Computer players live in
`spieleabend.bots.<module>` and see only a seat's view.
"""

# Module name per game, in the order the home screen lists them.
GAME_MODULES = ["punktejagd", "kartenkampf", "maumau", "paodekuai", "golf"]


def load(name):
    """Import and return the engine module of one game (imported only when needed)."""
    if name not in GAME_MODULES:
        raise KeyError("unknown game: %s" % name)
    return __import__("spieleabend.games." + name, fromlist=["NAME"])


def load_bots(name):
    """Import and return the computer-player module of one game."""
    if name not in GAME_MODULES:
        raise KeyError("unknown game: %s" % name)
    return __import__("spieleabend.bots." + name, fromlist=["STRENGTHS"])


def resolve_strength(bots, key):
    """Return the STRENGTHS key that `key` names: itself, its new name for an old key, else the strongest.

    Saved games, settings and rooms of earlier releases name levels by old keys
    ("random", "strong", ...); the bot module's STRENGTH_ALIASES maps them.
    """
    strengths = bots.STRENGTHS
    if key in strengths:
        return key
    aliases = bots.STRENGTH_ALIASES
    if key in aliases:
        return aliases[key]
    return list(strengths)[-1]


def strength_choice(bots, key):
    """Return the choose function of the level `key` names (see resolve_strength)."""
    return bots.STRENGTHS[resolve_strength(bots, key)]


def run_bots(engine, state, players, rng, limit=100000):
    """Apply computer actions while only computers are to move; return how many were applied.

    `players` maps a seat to a bot `choose(view, rng)` function or None for a person.
    Stops when a person is to move or the game is over.
    """
    applied = 0
    while applied < limit:
        seats = [seat for seat in engine.to_move(state) if players[seat] is not None]
        if not seats:
            return applied
        seat = seats[0]
        action = players[seat](engine.view(state, seat), rng)
        engine.apply_action(state, seat, action)
        applied += 1
    raise RuntimeError("bots did not finish within %d actions" % limit)


class _EverySeat:
    """A players table that gives the same bot to any seat (seats may join in some games)."""

    def __init__(self, choose):
        self.choose = choose

    def __getitem__(self, seat):
        return self.choose


def self_play(name, options, seed, strength=None):
    """Play one whole seeded game with computers only and return its final state.

    The same call in CPython and in Brython must give the same state (tested in e2e).
    """
    from spieleabend.games.common import Rng

    engine = load(name)
    choose = strength_choice(load_bots(name), strength)
    state = engine.new_game(options, Rng(seed))
    run_bots(engine, state, _EverySeat(choose), Rng(seed + 1))
    return state

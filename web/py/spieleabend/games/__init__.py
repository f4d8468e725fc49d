"""The rules engines, one flat module per game, all with the same verbs.

Every engine module is pure Python (no standard-library or `browser` imports)
and offers:

    NAME
    INFO                                            # the game's facts, declared once (below)
    new_game(options: dict, rng: Rng) -> state      # plain data; raises BadOptions
    to_move(state) -> list[int]                     # seats that may act now; [] once over
    legal_actions(state, seat) -> list[str]         # actions are short strings
    parse_action(text) -> parts                     # raises MalformedAction for a text that
                                                    # is no action of this game
    apply_action(state, seat, action) -> None       # mutates; raises MalformedAction or
                                                    # IllegalAction first, so a refused
                                                    # action changes nothing
    view(state, seat) -> dict                       # what that seat may see, including
                                                    # "legal": legal_actions(state, seat);
                                                    # seat None = the table (infoscreen):
                                                    # public facts only
    outcome(state) -> dict | None                   # None while running, else the one shape
                                                    # of common.game_outcome: winners, scores,
                                                    # ranking (shared places), night_point,
                                                    # no_point, lower_wins, the game's figures
    check_action(view, action) -> action            # optional: when the legal list holds one
                                                    # spelling of several (Pao De Kuai's cards)
    check_state(state) -> None                      # optional: ValueError unless the engine could
                                                    # have produced this state (a saved game)
    between_deals(state), add_seat, remove_seat     # when INFO["joins_between_deals"]

INFO (OpenSpiel's GameType/GameInfo are the model): {"name", "seats": {"min",
"max", "default"}, "options": [{"key", "default", "choices", "label": (de, en)}]
beyond seats and names, "secret_choices" (all seats choose at once, in secret:
rooms commit first), "lower_wins", "joins_between_deals", "round": what one
round is called ("round" or "deal")}. The setup screen, the lobby, the room host
and the tests read these facts; nothing else states them.

Randomness comes only from the `Rng` passed to `new_game`; its state is kept in
`state["rng"]`, so a saved game continues exactly. Computer players live in
`spieleabend.bots.<module>` and see only a seat's view.
"""

# Every game, registered once, in the order the home screen lists them: its module name (engine
# spieleabend.games.<module>, computers spieleabend.bots.<module>, table spieleabend.ui.<module>, rules
# docs/rules/<module>.md), its title and one line about it (German, English), the suit on its tile and, where
# it is not "Runde", the word its table uses for a round ("round": German, English), for every screen to say,
# and how its table writes a score where that is not a plain number ("scores": "minus" −12, "signed" +3 / −3);
# a one-word title may say where it breaks in a narrow column ("hyphenated", with a soft hyphen), and a game may
# name its computers' levels its own way ("levels").
# Read at start, so the home screen imports no engine.
GAMES = [
    {"module": "punktejagd", "title": ("Punktejagd", "Point Hunt"), "hyphenated": ("Punkte\u00adjagd", "Point Hunt"), "suit": "♦",
     # The rule text's own names for its computers' levels (the other games say Leicht, Mittel, Stark).
     "levels": {"leicht": ("Locker & zufällig", "Relaxed & random"), "mittel": ("Aufmerksam", "Attentive"),
                "stark": ("Vorausschauend", "Thinking ahead")},
     "blurb": ("Zehn Runden, eine Karte pro Runde: die höchste einmalige Zahl gewinnt.",
               "Ten rounds, one card each: the highest unique number wins.")},
    {"module": "kartenkampf", "title": ("Kartenkampf", "Card Clash"), "hyphenated": ("Karten\u00adkampf", "Card Clash"),
     "suit": "♠",
     "blurb": ("Geheim wählen, gleichzeitig aufdecken, der Sieger nimmt alles.",
               "Choose in secret, reveal together, the winner takes all.")},
    {"module": "maumau", "title": ("Mau-Mau", "Mau-Mau"), "suit": "♥", "round": ("Runde", "Deal"), "scores": "minus",
     "blurb": ("Farbe auf Farbe, Bild auf Bild – und Mau nicht vergessen.",
               "Suit on suit, rank on rank – and don't forget to say Mau.")},
    {"module": "paodekuai", "title": ("Pao De Kuai", "Pao De Kuai"), "suit": "♣", "round": ("Austeilung", "Deal"),
     "scores": "signed",
     "blurb": ("Zu dritt die Hand leeren, Bomben inklusive.",
               "Three players race to empty their hands, bombs included.")},
    {"module": "golf", "title": ("Golf", "Golf"), "suit": "♠", "round": ("Durchgang", "Round"),
     "blurb": ("Vier verdeckte Karten, möglichst wenig Punkte, gut merken.",
               "Four hidden cards, as few points as possible, remember well.")},
]
GAME_MODULES = [game["module"] for game in GAMES]


def score_style(game):
    """Return how the game's table writes a score ("minus", "signed"), or None for a plain number."""
    style = None
    for entry in GAMES:  # a loop, not next() over a generator: Brython pays for the StopIteration
        if entry["module"] == game and "scores" in entry:
            style = entry["scores"]
    return style


def score_text(game, score):
    """Return a score as the game's own table writes it: Mau-Mau's minus points "−12", Pao De Kuai's "+3"."""
    style = score_style(game)
    if not isinstance(score, int) or isinstance(score, bool) or style is None or score == 0:
        return str(score)
    if style == "minus":
        return "−%d" % score
    return "+%d" % score if score > 0 else "−%d" % -score


def register_game(entry):
    """Add a game to the registry (a game that ships is listed in GAMES above; the tests add their own).

    An entry may name where its parts live ("engine", "bots", "screen": module paths) instead of the
    spieleabend.games / .bots / .ui module of its name.
    """
    GAMES.append(entry)
    GAME_MODULES.append(entry["module"])


def unregister_game(name):
    """Take a game added by register_game out of the registry again."""
    GAMES[:] = [game for game in GAMES if game["module"] != name]
    GAME_MODULES[:] = [game["module"] for game in GAMES]


def module_path(name, part):
    """Return the module path of one part of a game ("engine", "bots", "screen"); KeyError if unknown."""
    for game in GAMES:
        if game["module"] == name:
            if part in game:
                return game[part]
            return {"engine": "spieleabend.games.", "bots": "spieleabend.bots.", "screen": "spieleabend.ui."}[part] + name
    raise KeyError("unknown game: %s" % name)


def load(name):
    """Import and return the engine module of one game (imported only when needed)."""
    return __import__(module_path(name, "engine"), fromlist=["NAME"])


def load_bots(name):
    """Import and return the computer-player module of one game."""
    return __import__(module_path(name, "bots"), fromlist=["STRENGTHS"])


def info(name):
    """Return the declared facts of one game (its engine's INFO)."""
    return load(name).INFO


def check_action(engine, view, action):
    """Return the action as the engine spells it if the view's seat may take it now (phones check before
    sending, with the same rules the host applies); raise MalformedAction or IllegalAction."""
    from spieleabend.games.common import IllegalAction

    if hasattr(engine, "check_action"):
        return engine.check_action(view, action)
    engine.parse_action(action)
    if "legal" not in view or action not in view["legal"]:
        raise IllegalAction("%r is not allowed now" % (action,))
    return action


def check_saved_game(document):
    """Raise ValueError unless the engine can show this game to every seat and list what each may do, and
    the meta fits it: a damaged or made-up save is set aside, never opened to fail halfway."""
    from spieleabend.games.common import is_whole

    meta = document["meta"]
    state = document["state"]
    try:
        engine = load(document["game"])
        # The engine's own check first: its cards are its deck(s), its numbers in range (a card cut short or
        # a card too many passes a view and a move, and crashed the game at a later move, at every reload).
        if hasattr(engine, "check_state"):
            engine.check_state(state)
        seats = len(engine.view(state, None)["names"])
        seat = meta.get("seat", 0)
        if seat is not None and not (is_whole(seat) and 0 <= seat < seats):
            raise ValueError("seat")
        players = meta.get("players")
        if players is not None and (not isinstance(players, list) or not all(
                isinstance(p, dict) and isinstance(p.get("name"), str) and isinstance(p.get("kind"), str) for p in players)):
            raise ValueError("players")
        rng = meta.get("bot_rng")
        if rng is not None and (not isinstance(rng, list) or len(rng) != 4 or not all(is_whole(w) for w in rng)):
            raise ValueError("bot_rng")
        # Every seat's view and choices, as the table, its computers and a reload will ask for them.
        for other in range(seats):
            engine.view(state, other)
            engine.legal_actions(state, other)
        for other in engine.to_move(state):
            if not (is_whole(other) and 0 <= other < seats):
                raise ValueError("to_move")
        engine.outcome(state)
        # A round of secret choices is one move a seat and scores at its last (where edited numbers fail);
        # the turn games score at a deal's end, out of a few moves' reach: one move shows the state moves.
        play_on_a_copy(engine, state, seats if engine.INFO["secret_choices"] else 1)
    except ValueError:
        raise
    except Exception as error:  # any engine error on a foreign state: not a game this app can go on with
        raise ValueError("%s: %s" % (type(error).__name__, error))


def play_on_a_copy(engine, state, moves):
    """Play up to `moves` first legal moves on a copy of `state`, as the table will: a state whose numbers
    were edited into words fails here (at the round's scoring), not at the person's next move."""
    from spieleabend.games.common import IllegalAction, copy_data

    trial = copy_data(state)
    for _ in range(moves):
        moving = engine.to_move(trial)
        if engine.outcome(trial) is not None or not moving:
            return
        actions = engine.legal_actions(trial, moving[0])
        if not actions:
            return
        try:
            engine.apply_action(trial, moving[0], actions[0])
        except IllegalAction:
            raise ValueError("a legal action was refused")
        engine.progress(engine.view(trial, moving[0]))


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


# What a start screen offers before anyone chose, the same in every game: a first evening meets neither a random
# player nor the strongest one (an audit met Stark in three games and Leicht in Punktejagd).
DEFAULT_STRENGTH = "mittel"


def default_strength(bots):
    """Return the level a start screen offers first: Mittel, or the middle level of a game without one."""
    levels = list(bots.STRENGTHS)
    return DEFAULT_STRENGTH if DEFAULT_STRENGTH in levels else levels[len(levels) // 2]


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

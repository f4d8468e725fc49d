"""Saved games made here with the engines and computers, to open a game's table in a given phase at once.

A document is what LocalTable writes ({"format": 1, "game", "state", "meta"}): the tester at seat 0,
computers after it. Computers play every seat (the tester's too) until `stop(state)` says so.
"""

import json

from spieleabend.games import load, load_bots, strength_choice
from spieleabend.games.common import Rng
from spieleabend.testing import open_app, reopen

NAMES = ["Testerin", "Anna", "Ben", "Clara", "Deniz", "Emil", "Frieda", "Gustav"]
SEATS = {"punktejagd": 4, "kartenkampf": 4, "maumau": 3, "paodekuai": 3, "golf": 4}
FULL = {"punktejagd": 6, "kartenkampf": 8, "maumau": 5, "paodekuai": 3, "golf": 8}  # the most seats each game takes
OPTIONS = {"maumau": {"limit": 30}, "paodekuai": {"deals": 2}, "golf": {"rounds": 2}}


def new_state(game, seed=1, seats=None):
    """Return a new game of `game` for the tester and computers (SEATS of them unless `seats`)."""
    engine = load(game)
    seats = seats or SEATS[game]
    options = {"seats": seats, "names": NAMES[:seats]}
    options.update(OPTIONS.get(game, {}))
    return engine.new_game(options, Rng(seed))


def play(game, state, stop, seed=1):
    """Let computers play every seat until stop(state) is true or the game is over; return the state."""
    engine = load(game)
    choose = strength_choice(load_bots(game), "leicht")
    rng = Rng(seed + 100)
    for _ in range(20000):
        if engine.outcome(state) is not None or stop(state):
            return state
        seat = engine.to_move(state)[0]
        engine.apply_action(state, seat, choose(engine.view(state, seat), rng))
    raise AssertionError("%s did not stop" % game)


def document(game, state, seen=None):
    """Return the save LocalTable would write for this state; `seen`: the scored rounds already shown."""
    engine = load(game)
    names = engine.view(state, None)["names"]
    players = [{"name": names[0], "kind": "person", "strength": None}] + [
        {"name": name, "kind": "computer", "strength": "leicht"} for name in names[1:]]
    meta = {"players": players, "seat": 0, "options": {"seats": len(names), "names": names},
            "bot_rng": Rng(77).state, "started_at": 1, "night": "n1", "history": [], "round": 1}
    if seen is not None:
        meta["seen"] = {"0": seen}  # per seat
    return {"format": 1, "game": game, "state": state, "meta": meta}


def open_saved(page, url, doc, shown="main"):
    """Store a prepared game and open it as "Fortsetzen" does (computers at ?pace=0)."""
    open_app(page, url + "/?pace=0")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  ["spieleabend.save." + doc["game"], json.dumps(doc)])
    reopen(page, url + "/?pace=0#/play/%s/continue" % doc["game"])
    page.wait_for_selector(shown)

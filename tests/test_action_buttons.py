"""Every action button a game screen shows enabled does something when tapped (issue 31).

A tester's rule: a visible control is either live or marked disabled (`disabled`, or
`aria-disabled="true"`, whose tap explains why), never enabled and dead. The browser check
`dead_controls` (spieleabend.testing) only sees whether a button has a `data-action`; this test
sees whether the screen's handler does anything with it. It plays each of the five games with
random legal moves, and at states along the way draws the game's screen as it is alone (a local
table), on a room's phone (the seat's view) and on a table screen (the public view). For every
enabled `[data-action]` control it builds that screen afresh, taps the control once (and, for a tap
that stays on the screen, every enabled control of the screen it leads to once the computers have
moved: a selection's confirm, a reveal's next round, an open panel's close) and requires a change
a person would notice or that leaves the device: the drawn screen, a route, a toast, the game, an
action sent to the host, a timer started (a flight, a computer), focus moved, storage written.
CSS is not applied here, so every enabled control counts, visible or not, except behind an open
modal panel.
Nothing is clicked in a browser: the screens run in CPython, as their own tests do.
"""

import copy
import json
import re

import pytest

from spieleabend.games import load as load_engine
from spieleabend.games.common import Rng
from spieleabend.ui import i18n
from spieleabend.ui.setup import SetupScreen
from spieleabend.ui.table import LocalTable, screen_module, solo_players, table_screen
from tests.fake_app import ScreenApp, ViewTable

GAMES = {  # a short game of each: what the e2e scenarios play
    "punktejagd": {},
    "kartenkampf": {},
    "maumau": {"limit": 30},
    "paodekuai": {"deals": 1},
    "golf": {},
}
SNAPSHOTS = 8  # states per game, spread over the whole game, the final standings included
CONTROL = re.compile(r"<(?:button|a|div|span|li)\b[^>]*\bdata-action=\"[^\"]*\"[^>]*>")


def attribute(tag, name):
    """Return an attribute's value in an opening tag, None when it is absent ("" for a bare one)."""
    match = re.search(r'\s%s(?:="([^"]*)")?(?=[\s>/])' % re.escape(name), tag)
    if match is None:
        return None
    return match.group(1) if match.group(1) is not None else ""


def enabled_controls(html):
    """Return (action, value, testid, pressed) of every control with data-action not marked disabled.

    An open modal dialog (a panel drawn last, over a backdrop) leaves only its own controls in reach.
    """
    modal = html.find('aria-modal="true"')
    if modal >= 0:
        html = html[html.rfind("<", 0, modal):]
    found = []
    for tag in CONTROL.findall(html):
        if attribute(tag, "disabled") is not None or attribute(tag, "aria-disabled") == "true" \
                or attribute(tag, "hidden") is not None:
            continue
        value = attribute(tag, "data-value")
        found.append((attribute(tag, "data-action"), None if value is None else value.replace("&amp;", "&"),
                      attribute(tag, "data-testid"), attribute(tag, "aria-pressed") == "true"))
    return found


def played_states(game, options, seed):
    """Play a whole solo game with random legal moves; return (state, meta) copies spread over it."""
    app = ScreenApp(seed=seed, first_seed=1)
    engine = load_engine(game)
    seats = engine.INFO["seats"]["default"] if "seats" in engine.INFO else 3
    table = LocalTable.new(app, game, dict(options, seats=seats), solo_players("Testerin", seats, "random"))
    rng = Rng(seed)
    taken = []
    for _ in range(5000):
        app.run_timers()
        if table.over():
            break
        legal = engine.legal_actions(table.state, 0) if 0 in table.to_move() else []
        if not legal:
            raise AssertionError("%s: nobody here can move and the game is not over" % game)
        taken.append((copy.deepcopy(table.state), copy.deepcopy(table.meta)))
        table.act(legal[rng.below(len(legal))])
    assert table.over(), "%s did not end" % game
    step = max(1, len(taken) // (SNAPSHOTS - 1))
    return taken[::step][:SNAPSHOTS - 1] + [(copy.deepcopy(table.state), copy.deepcopy(table.meta))]


def build(game, where, state, meta):
    """Return (app, table, screen) for a state: alone, on a room's phone (seat 0) or on a table screen."""
    app = ScreenApp(seed=5, first_seed=1)
    if where == "alone":
        table = LocalTable(app, game, copy.deepcopy(state), copy.deepcopy(meta))
    else:
        table = ViewTable(game, copy.deepcopy(state), 0 if where == "phone" else None, apply=True, kind="person")
    screen = table_screen(app, table) if where == "alone" else screen_module(game).TableScreen(app, table)
    app.show(screen)
    return app, table, screen


def noticed(app, table, screen):
    """Return what a tap may change, as comparable data."""
    return {"html": screen.render(app), "routes": list(app.routes), "toasts": list(app.toasts),
            "game": json.dumps(table.state if table is not None else None, sort_keys=True),
            "sent": list(getattr(table, "sent", [])), "timers": sorted(app.timers),
            "focus": list(app.focus_requests), "room": app.room, "storage": dict(app.backend.items)}


def dead_taps(make, path=()):
    """Return the taps (as paths of controls) that change nothing on the screens `make()` builds afresh
    as (app, table or None, screen), following a tap that stays on the screen one level deeper."""
    def replayed():
        app, table, screen = make()
        for action, value, _testid, _pressed in path:
            screen.handle(app, action, value)
            app.run_timers()  # computers and flights at pace 0, as the app runs them
        return app, table, screen

    app, table, screen = replayed()
    found = []
    for control in enabled_controls(screen.render(app)):
        app, table, screen = replayed()
        before = noticed(app, table, screen)
        shown = app.screen
        screen.handle(app, control[0], control[1])
        after = noticed(app, table, screen)
        if after == before and app.screen is shown:
            if not control[3]:  # a choice already pressed may stay as it is when tapped again
                found.append(path + (control,))
            continue
        left = app.screen is not shown or after["routes"] != before["routes"] or after["room"] != before["room"]
        if not left and not path:
            found += dead_taps(make, (control,))
    return found


def described(taps):
    """Return a path of taps as a tester reads it: test ids (values) joined by arrows."""
    return " → ".join("%s(%s)" % (testid, value or "") for _action, value, testid, _pressed in taps)


@pytest.fixture(autouse=True)
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("de")


@pytest.mark.parametrize("where", ["alone", "phone", "screen"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_enabled_action_button_does_something(game, where):
    dead = []
    checked = 0
    for state, meta in played_states(game, GAMES[game], seed=11):
        _app, _table, screen = build(game, where, state, meta)
        checked += len(enabled_controls(screen.render(_app)))
        dead += [described(taps) for taps in dead_taps(lambda: build(game, where, state, meta))]
    assert checked > 0 or where == "screen"
    assert dead == [], "enabled buttons that do nothing on the %s %s screen: %s" % (where, game, sorted(set(dead)))


@pytest.mark.parametrize("saved", [False, True], ids=["first", "with-a-saved-game"])
@pytest.mark.parametrize("game", list(GAMES))
def test_every_enabled_action_button_of_the_start_screen_does_something(game, saved):
    state, meta = played_states(game, GAMES[game], seed=11)[1]

    def make():
        app = ScreenApp(seed=5, first_seed=1)
        if saved:  # "Fortsetzen" is offered and "Partie starten" asks first
            LocalTable(app, game, copy.deepcopy(state), copy.deepcopy(meta)).after_change(notify=False)
        screen = SetupScreen(app, game)
        app.show(screen)
        return app, None, screen

    app, _table, screen = make()
    assert enabled_controls(screen.render(app))
    dead = [described(taps) for taps in dead_taps(make)]
    assert dead == [], "enabled buttons that do nothing on the start screen of %s: %s" % (game, sorted(set(dead)))

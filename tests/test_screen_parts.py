"""A game screen that keeps parts of its last drawing (ui.html.Parts) draws exactly what it would draw
building every part afresh: at every step of seeded games of all five, on a room's phone and on a
table screen, with the person's own taps between other seats' moves, in German and English."""

import copy

import pytest

from spieleabend.games import load as load_engine
from spieleabend.games.common import Rng
from spieleabend.ui import i18n
from spieleabend.ui.html import Parts
from spieleabend.ui.table import screen_module
from tests.fake_app import ScreenApp, ViewTable
from tests.test_action_buttons import GAMES, enabled_controls

STEPS = 160  # moves and taps per game and device: a few rounds or deals of each game


class BuildEverything(Parts):
    """Parts that never keep anything: every drawing builds every part."""

    def part(self, name, inputs, build, *args):
        return build(*args)


@pytest.fixture(autouse=True)
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("de")


def device(game, state, seat):
    """Return (app, table, screen) of a room's phone (a seat) or table screen (None) showing `state`."""
    app = ScreenApp(seed=5, first_seed=1)
    table = ViewTable(game, copy.deepcopy(state), seat, apply=True, kind="person")
    screen = screen_module(game).TableScreen(app, table)
    app.show(screen)
    return app, table, screen


@pytest.mark.parametrize("seat", [1, None], ids=["phone", "table-screen"])
@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_screen_keeping_its_parts_draws_what_it_would_draw_afresh(game, seat):
    engine = load_engine(game)
    seats = engine.INFO["seats"]["default"] if "seats" in engine.INFO else 3
    options = dict(GAMES[game], seats=seats, names=["Anna", "Ben", "Clara", "Deniz", "Emil", "Frieda"][:seats])
    state = engine.new_game(options, Rng(11))
    kept = device(game, state, seat)
    fresh = device(game, state, seat)
    fresh[2].parts = BuildEverything()
    rng = Rng(29)
    drawings = 0
    for step in range(STEPS):
        if step == STEPS // 2:
            i18n.set_language("en")
        html = kept[2].render(kept[0])
        assert html == fresh[2].render(fresh[0]), "%s, step %d: a kept part differs from the one built afresh" % (
            game, step)
        drawings += 1
        table = kept[1]
        if engine.outcome(table.state) is not None:
            break
        controls = [control for control in enabled_controls(html) if control[0] not in ("pause", "new-game")]
        keys = [key.split("@")[0] for key in kept[2].keys.split()]
        if seat is not None and keys and rng.below(5) == 0:
            # The person moves through the hand with the arrow keys (or picks with Space).
            key = keys[rng.below(len(keys))]
            for app, _table, screen in (kept, fresh):
                screen.on_key(app, key)
        elif seat is not None and controls and rng.below(3) == 0:
            # The person taps something on the phone: a card to select, Mau, a pile, a confirm.
            action, value = controls[rng.below(len(controls))][:2]
            for app, _table, screen in (kept, fresh):
                screen.handle(app, action, value)
        else:
            moving = engine.to_move(table.state)
            mover = moving[rng.below(len(moving))]
            legal = engine.legal_actions(table.state, mover)
            action = legal[rng.below(len(legal))]
            for _app, device_table, _screen in (kept, fresh):
                device_table.arrive(mover, action)  # another seat's move, or this one's as the host applied it
        for app, _table, _screen in (kept, fresh):
            app.run_timers()
    assert drawings > 20

"""The browser runs the same engines and bots: a seeded game gives the same final state as in CPython."""

import json

import pytest

from e2e.conftest import open_app
from spieleabend.games import GAME_MODULES, self_play

OPTIONS = {"seats": 3}
SEED = 2024

PLAY_IN_PAGE = """
from browser import window
import javascript
from spieleabend.games import self_play
window.selfPlayResult = javascript.JSON.stringify(self_play(%r, %r, %d, %r))
"""


def play_in_browser(page, game, strength):
    page.evaluate("() => { window.selfPlayResult = null; }")
    page.evaluate("src => __BRYTHON__.runPythonSource(src)", PLAY_IN_PAGE % (game, OPTIONS, SEED, strength))
    page.wait_for_function("window.selfPlayResult !== null", timeout=120000)
    return json.loads(page.evaluate("window.selfPlayResult"))


@pytest.mark.parametrize("game", GAME_MODULES)
def test_seeded_game_is_identical_in_brython_and_cpython(page, live_server, game):
    open_app(page, live_server.url)
    for strength in ("random", None):  # None: the strongest computer
        expected = self_play(game, OPTIONS, SEED, strength)
        assert play_in_browser(page, game, strength) == expected, (game, strength)

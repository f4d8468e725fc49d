"""The browser runs the same engines and bots: a seeded game gives the same final state as in CPython."""

import json

import pytest

from spieleabend.testing import app_worker, open_app
from spieleabend.games import GAME_MODULES, self_play

OPTIONS = {"seats": 3}
SEED = 2024

PLAY_IN_WORKER = """
from browser import self as scope
import javascript
from spieleabend.games import self_play
scope.selfPlayResult = javascript.JSON.stringify(self_play(%r, %r, %d, %r))
"""


def play_in_browser(page, game, strength):
    """Play a whole seeded game in the app's worker, where the app's Python runs."""
    worker = app_worker(page)
    worker.evaluate("src => { self.selfPlayResult = null; __BRYTHON__.runPythonSource(src); }",
                    PLAY_IN_WORKER % (game, OPTIONS, SEED, strength))
    return json.loads(worker.evaluate("self.selfPlayResult"))


@pytest.mark.parametrize("game", GAME_MODULES)
def test_seeded_game_is_identical_in_brython_and_cpython(page, live_server, game):
    open_app(page, live_server.url)
    for strength in ("random", None):  # None: the strongest computer
        expected = self_play(game, OPTIONS, SEED, strength)
        assert play_in_browser(page, game, strength) == expected, (game, strength)

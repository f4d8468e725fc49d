"""The browser runs the same engines and bots: a seeded game gives the same final state as in CPython."""

import hashlib
import json

import pytest

from spieleabend.testing import app_worker, open_app
from spieleabend.testing.vectors import SHA256_VECTORS
from spieleabend.games import GAME_MODULES, self_play

OPTIONS = {"seats": 3}
SEED = 2024

PLAY_IN_WORKER = """
from browser import self as scope
import javascript
from spieleabend.games import self_play
scope.selfPlayResult = javascript.JSON.stringify(self_play(%r, %r, %d, %r))
"""


def play_in_browser(page, game, strength, options=OPTIONS, seed=SEED):
    """Play a whole seeded game in the app's worker, where the app's Python runs."""
    worker = app_worker(page)
    worker.evaluate("src => { self.selfPlayResult = null; __BRYTHON__.runPythonSource(src); }",
                    PLAY_IN_WORKER % (game, options, seed, strength))
    return json.loads(worker.evaluate("self.selfPlayResult"))


@pytest.mark.parametrize("game", GAME_MODULES)
def test_seeded_game_is_identical_in_brython_and_cpython(page, live_server, game):
    open_app(page, live_server.url)
    for strength in ("random", None):  # None: the strongest computer
        expected = self_play(game, OPTIONS, SEED, strength)
        assert play_in_browser(page, game, strength) == expected, (game, strength)


@pytest.mark.parametrize("game", ["kartenkampf", "punktejagd"])
def test_two_seat_games_where_all_choose_at_once_are_identical_in_brython_and_cpython(page, live_server, game):
    """At two seats the strong computers draw privately (Kartenkampf's solves a matrix game in floats each
    round): the same cards in both runtimes."""
    open_app(page, live_server.url)
    for seed in (SEED, SEED + 1, SEED + 2):
        expected = self_play(game, {"seats": 2}, seed, None)
        assert play_in_browser(page, game, None, {"seats": 2}, seed) == expected, seed


HASH_IN_WORKER = """
from browser import self as scope
import javascript
from spieleabend.sha256 import commitment, hexdigest
texts = javascript.JSON.parse(scope.hashTexts)
scope.hashResult = javascript.JSON.stringify([hexdigest(text) for text in texts] + [commitment("play 7 risk", "00ff")])
"""


def test_the_browser_sha256_gives_hashlib_digests(page, live_server):
    """The rooms' commitments in the browser (noble-hashes in the worker) match CPython's hashlib."""
    open_app(page, live_server.url)
    texts = list(SHA256_VECTORS) + ["x" * length for length in range(200)] + ["Größe ♠ 🂡", "play 10 risk|" + "f" * 32]
    worker = app_worker(page)
    worker.evaluate("texts => { self.hashResult = null; self.hashTexts = texts; }", json.dumps(texts))
    worker.evaluate("src => __BRYTHON__.runPythonSource(src)", HASH_IN_WORKER)
    digests = json.loads(worker.evaluate("self.hashResult"))
    expected = [hashlib.sha256(text.encode("utf-8")).hexdigest() for text in texts]
    assert digests[:len(texts)] == expected
    assert [digests[index] for index in range(len(SHA256_VECTORS))] == list(SHA256_VECTORS.values())
    assert digests[-1] == hashlib.sha256(b"play 7 risk|00ff").hexdigest()


# The shipped brython.js joins a list or tuple of strings at once (server/build.py, BRYTHON_JOIN_FAST):
# every kind of argument must still join as in CPython, and a wrong one fail the same way.
JOIN_IN_WORKER = """
from browser import self as scope
import javascript


class Backwards(list):
    def __iter__(self):
        return iter(list(reversed(self)))


def error_of(call):
    try:
        call()
    except TypeError as error:
        return "TypeError: " + str(error)
    return "no error"


out = ["-".join(["a", "b", "c"]), "".join(("x", "y")), ", ".join([]), "".join(()), "".join(str(n) for n in range(5)),
       "+".join({"k": 1, "l": 2}), "/".join(Backwards(["1", "2", "3"])), "".join(["Größe ", "♠", " 🂡"]),
       " ".join("abc"), error_of(lambda: "".join(["a", 1])), error_of(lambda: "".join(("a", None))),
       error_of(lambda: "".join(5))]
scope.joinResult = javascript.JSON.stringify(out)
"""


def test_the_shipped_brython_joins_like_cpython(page, live_server):
    """str.join's fast path for lists and tuples changes nothing a program can see, errors included."""
    open_app(page, live_server.url)
    worker = app_worker(page)
    worker.evaluate("src => { self.joinResult = null; __BRYTHON__.runPythonSource(src); }", JOIN_IN_WORKER)
    got = json.loads(worker.evaluate("self.joinResult"))
    namespace = {}
    exec(JOIN_IN_WORKER.split("out = ")[0].replace("from browser import self as scope\nimport javascript\n", ""), namespace)
    expected = eval(JOIN_IN_WORKER.split("out = ")[1].split("\nscope.")[0], namespace)
    assert got[:9] == expected[:9]
    assert got[9:11] == ["TypeError: sequence item 1: expected str instance, int found",
                         "TypeError: sequence item 1: expected str instance, NoneType found"]
    assert got[11].startswith("TypeError") and expected[11].startswith("TypeError")

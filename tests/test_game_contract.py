"""The one game contract: every engine declares its facts, judges every outcome in one shape and parses
actions one way, and a sixth game that exists only in the tests (tests/sixth_game) plays through the
shared table, standings, results, saves and rooms without a line of its own outside this folder."""

import json
import re

import pytest

from spieleabend import games
from spieleabend.games import GAME_MODULES, check_action, load, load_bots, register_game, unregister_game
from spieleabend.games.common import IllegalAction, MalformedAction, Rng, copy_data
from tests.relay_fixtures import relay_server, relay_servers, shared_relay_server  # noqa: F401  (fixtures)
from tests.room_harness import FakeApp as RoomApp, Loop
from tests.sixth_game import ENTRY as SIXTH

OUTCOME_KEYS = {"winners", "scores", "ranking", "lower_wins", "night_point", "no_point"}
MALFORMED = ["", "nonsense", "play", "play 07", "play ²", "PLAY 7", " draw", "draw ", "play  7", 7, None, ["draw"]]
SHORT_OPTIONS = {"maumau": {"limit": 30}, "paodekuai": {"deals": 1}, "golf": {}}


@pytest.fixture
def sixth_game():
    """Register Höchste Karte for one test, as a game that ships is registered in spieleabend.games.GAMES."""
    register_game(dict(SIXTH))
    yield SIXTH["module"]
    unregister_game(SIXTH["module"])


def every_game():
    return list(GAME_MODULES) + [SIXTH["module"]]


def first_strength(game):
    """Return the weakest computer of a game (its STRENGTHS are listed weakest first)."""
    strengths = load_bots(game).STRENGTHS
    return strengths[list(strengths)[0]]


def playout(game, seed, on_step=None):
    """Play one seeded game with the weakest computers; call on_step(engine, state, seat, view) first each step."""
    engine = load(game)
    options = dict(SHORT_OPTIONS.get(game, {}))
    state = engine.new_game(options, Rng(seed))
    choose, rng = first_strength(game), Rng(seed + 1)
    for _ in range(100000):
        movers = engine.to_move(state)
        if not movers:
            return engine, state
        seat = movers[rng.below(len(movers))]
        view = engine.view(state, seat)
        if on_step is not None:
            on_step(engine, state, seat, view)
        engine.apply_action(state, seat, choose(view, rng))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", every_game())
def test_every_game_declares_its_facts_once(game, sixth_game):
    engine = load(game)
    info = engine.INFO
    assert set(info) == {"name", "seats", "options", "secret_choices", "lower_wins", "joins_between_deals", "round",
                         "version"}
    assert isinstance(info["version"], int) and info["version"] >= 1, "the rules' version that records replay"
    assert info["name"] == engine.NAME and info["round"] in ("round", "deal")
    seats = info["seats"]
    assert 2 <= seats["min"] <= seats["default"] <= seats["max"]
    state = engine.new_game({}, Rng(1))
    assert len(engine.view(state, None)["names"]) == seats["default"], "the engine deals the declared default"
    for option in info["options"]:
        assert set(option) >= {"key", "default", "label"} and len(option["label"]) == 2
        for choice in option.get("choices", []):
            engine.new_game({option["key"]: choice}, Rng(2))  # every offered choice is a game the rules allow
    if info["joins_between_deals"]:
        assert all(hasattr(engine, verb) for verb in ("between_deals", "add_seat", "remove_seat"))
    if info["secret_choices"]:
        assert hasattr(engine, "pending_view"), "rooms show a committed choice before the reveal"
    bots = load_bots(game)
    assert list(bots.STRENGTHS) == ["leicht", "mittel", "stark"], "the same three levels, weakest first"
    assert set(bots.LEVEL_INFO) == set(bots.STRENGTHS) and hasattr(bots, "hint")


@pytest.mark.parametrize("game", every_game())
def test_every_engine_judges_in_one_outcome_shape(game, sixth_game):
    for seed in range(6):
        engine, state = playout(game, seed)
        result = engine.outcome(state)
        assert OUTCOME_KEYS <= set(result) and result["lower_wins"] == engine.INFO["lower_wins"]
        seats = len(result["scores"])
        assert sorted(row["seat"] for row in result["ranking"]) == list(range(seats))
        places = [row["place"] for row in result["ranking"]]
        assert places == sorted(places) and places[0] == 1
        assert set(result["winners"]) <= {row["seat"] for row in result["ranking"] if row["place"] == 1}
        if len(result["winners"]) == 1:
            assert result["night_point"] == result["winners"][0] and result["no_point"] is None
        else:
            assert result["night_point"] is None and result["no_point"] in ("shared", "undecided")
        assert engine.progress(engine.view(state, None))["scores"] == result["scores"]
        assert json.loads(json.dumps(result)) == result


@pytest.mark.parametrize("game", every_game())
def test_actions_parse_one_way_with_two_typed_errors(game, sixth_game):
    def check(engine, state, seat, view):
        for action in view["legal"]:
            engine.parse_action(action)
            assert check_action(engine, view, action) == action, "a listed action is the engine's own spelling"
        before = copy_data(state)
        for text in MALFORMED:
            if text in view["legal"]:
                continue
            with pytest.raises(MalformedAction):
                engine.apply_action(state, seat, text)
            with pytest.raises(MalformedAction):
                check_action(engine, view, text)
        assert state == before, "a refused action changes nothing"
        # A well-formed action of another seat's moment is illegal, not malformed.
        others = [other for other in range(len(view["names"])) if other not in engine.to_move(state)]
        if others and view["legal"]:
            with pytest.raises(IllegalAction) as refused:
                engine.apply_action(state, others[0], view["legal"][0])
            assert not isinstance(refused.value, MalformedAction)
            assert state == before

    for seed in range(2):
        playout(game, seed, check)


def test_the_sixth_game_plays_alone_through_the_shared_table_standings_and_results(sixth_game):
    from spieleabend.ui.setup import SetupScreen
    from spieleabend.ui.table import LocalTable
    from tests.fake_app import ScreenApp

    app = ScreenApp()
    setup = SetupScreen(app, "hoechste")  # the shared start screen, from the game's INFO and levels
    setup.render(app)
    assert 'data-testid="rounds-5"' in setup.render(app), "its declared option is offered"
    app.fields = {"setup-name": "Testerin"}
    setup.on_input(app, "rounds", "1", True)
    setup.handle(app, "start", None)
    assert app.screen.table.state["rounds"] == 1
    screen = app.screen
    for _ in range(200):
        app.run_timers()
        view = screen.table.view()
        if view["outcome"] is not None:
            break
        if "draw" in view["legal"]:
            screen.handle(app, "draw", None)
            saved = LocalTable.load(app, "hoechste")  # saved after every move, continues exactly
            assert saved.state == screen.table.state
    app.rerender()
    assert 'data-testid="final"' in app.html and "Testerin" in app.html
    # The shared final standings, with nothing of the game's own: headline, night point, a row per seat.
    for testid in ("final-headline", "night-point", "standing-0", "standing-2", "new-game", "to-results"):
        assert 'data-testid="%s"' % testid in app.html, testid
    result = app.storage.results()[0]
    assert result["game"] == "hoechste" and result["players"][0] == "Testerin"
    outcome = screen.table.outcome()
    assert result["winners"] == [result["players"][seat] for seat in outcome["winners"]]
    assert app.storage.load_game("hoechste") is None, "a finished game leaves Fortsetzen"


def test_the_sixth_game_plays_in_a_room_with_a_phone_and_a_screen(sixth_game, relay_server):
    from spieleabend.ui.rooms import HostRoom, RemoteTable, ScreenTable

    loop = Loop()
    host_app = RoomApp(loop, relay_server.url)
    room = HostRoom(host_app, "hoechste")
    room.start()
    loop.pump(lambda: room.code() is not None)
    devices = {}
    for name, kind in (("Anna", RemoteTable), ("TV", ScreenTable)):
        app = RoomApp(loop, relay_server.url)
        doc = {"role": "screen" if kind is ScreenTable else "seat", "code": room.code(), "name": name,
               "secret": room.doc["secret"]}
        devices[name] = (app, kind(app, doc))
        devices[name][1].start()
        loop.pump(lambda: devices[name][1].link.state == "online")
    loop.pump(lambda: len(room.seat_places()) == 1 and len(room.screens) == 1)
    table = room.start_game({}, 3, "random", True, "Hosti")
    anna, tv = devices["Anna"][1], devices["TV"][1]
    loop.pump(lambda: anna.view() is not None and tv.view() is not None)
    assert table.names() == ["Hosti", "Anna", "Ben"] and anna.seat == 1 and tv.seat is None
    for _ in range(100):
        if table.outcome() is not None:
            break
        moving = table.engine.to_move(table.state)
        if moving == [0]:
            table.act("draw")
        elif moving == [1]:
            loop.pump(lambda: anna.view()["legal"] == ["draw"] and anna.acted_on is None)  # the host answered
            with pytest.raises(MalformedAction):
                anna.act("Draw")  # checked on the phone with the engine's rules, nothing sent
            anna.act("draw")
        loop.pump(lambda: table.engine.to_move(table.state) != moving or table.outcome() is not None)
    loop.pump(lambda: anna.view()["outcome"] is not None and tv.view()["outcome"] is not None)
    assert anna.view()["outcome"] == tv.view()["outcome"] == table.outcome()
    # No frame gave a device the stock: the one secret of this game.
    for app, _device in devices.values():
        assert all('"stock"' not in frame for frame in app.frames)


@pytest.mark.parametrize("game", every_game())
def test_a_seat_not_at_the_table_is_refused_in_the_same_words(game, sixth_game):
    """A view or an action asked for a number that is no seat here (-1 would index the last hand; an off-by-one
    script would otherwise read a blank view) is refused, in one wording in every game; it has no actions."""
    engine = load(game)
    state = engine.new_game(dict(SHORT_OPTIONS.get(game, {})), Rng(5))
    seats = len(engine.view(state, None)["names"])
    some_action = engine.legal_actions(state, engine.to_move(state)[0])[0]
    before = copy_data(state)
    for seat in (-1, -seats, seats, True, "0", 1.0):
        with pytest.raises(IllegalAction, match="there is no seat %s at this table" % re.escape(repr(seat))):
            engine.view(state, seat)
        with pytest.raises(IllegalAction, match="there is no seat"):
            engine.apply_action(state, seat, some_action)
        assert engine.legal_actions(state, seat) == []
    assert state == before


def test_the_testers_cpython_example_plays_every_game_as_written(capsys):
    """e2e/README.md's script that plays a whole seeded game of each game runs as it is written there."""
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "e2e" / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(from spieleabend.games import GAME_MODULES.*?)```", readme, re.S).group(1)
    exec(compile(example, "e2e/README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in printed] == GAME_MODULES


@pytest.mark.parametrize("game", GAME_MODULES)
def test_a_seat_count_that_is_no_whole_number_is_refused_by_what_the_game_needs(game):
    """{"seats": "3"} from a script: every game says how many seats it takes (Punktejagd said "a whole number")."""
    from spieleabend.games.common import BadOptions

    with pytest.raises(BadOptions, match=r"(needs \d+ to \d+|exactly \d+) seats"):
        load(game).new_game({"seats": "3"}, Rng(1))

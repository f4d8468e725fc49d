"""One seeded random-playout run over every engine: the invariants all five games share.

Per-game tests (tests/test_<game>.py) add what only one game has (cards conserved,
settlements, secrecy of its views); this file holds every engine to the common verbs.
"""

import json

import pytest

from spieleabend.games import GAME_MODULES, load, load_bots
from spieleabend.games.common import IllegalAction, Rng, copy_data

# Seat counts to cover per game, and options that keep a whole game short enough to run often.
SEAT_COUNTS = {"punktejagd": [2, 4, 6], "kartenkampf": [2, 5, 8], "maumau": [2, 3, 5],
               "paodekuai": [3], "golf": [2, 4, 8]}
EXTRA_OPTIONS = {"maumau": {"limit": 30}}
GAMES_PER_SEAT_COUNT = {"punktejagd": 400, "kartenkampf": 400, "maumau": 25, "paodekuai": 150, "golf": 60}
ACTION_BOUND = 60000
JUNK_ACTIONS = ["", "nonsense", "play", "play 999", 7, None, "pass pass"]


def seat_count(engine, state):
    """Return the number of seats (Pao De Kuai always has three and does not store it)."""
    return state.get("seats", engine.MIN_SEATS)


def options_for(game, seats):
    options = {"seats": seats}
    options.update(EXTRA_OPTIONS.get(game, {}))
    return options


def play_checked(engine, choose, options, seed, deep_checks):
    """Play one seeded game with random computers, checking the shared invariants at every step."""
    state = engine.new_game(options, Rng(seed))
    rng = Rng(seed + 7)
    steps = 0
    while True:
        running = engine.outcome(state) is None
        movers = engine.to_move(state)
        assert bool(movers) == running, "seats are to move exactly while the game runs"
        if not running:
            for seat in range(seat_count(engine, state)):
                assert engine.legal_actions(state, seat) == []
            return state, steps
        seat = movers[rng.below(len(movers))]
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        assert legal, "a seat that is to move has a legal action"
        assert view["legal"] == legal
        if deep_checks:
            before = copy_data(state)
            junk = JUNK_ACTIONS[steps % len(JUNK_ACTIONS)]
            if junk not in legal:
                with pytest.raises(IllegalAction):
                    engine.apply_action(state, seat, junk)
                assert state == before, "an illegal action changes nothing"
            assert json.loads(json.dumps(state)) == state, "the state is plain JSON data"
            json.dumps(engine.view(state, None))
        action = choose(view, rng)
        assert action in legal, "computers only choose legal actions"
        engine.apply_action(state, seat, action)
        steps += 1
        assert steps < ACTION_BOUND, "the game ends within its bound"


@pytest.mark.parametrize("game", GAME_MODULES)
def test_random_playouts_keep_the_shared_invariants(game):
    engine = load(game)
    choose = load_bots(game).STRENGTHS["leicht"]
    for seats in SEAT_COUNTS[game]:
        for number in range(GAMES_PER_SEAT_COUNT[game]):
            seed = 1000 * seats + number
            state, _ = play_checked(engine, choose, options_for(game, seats), seed, deep_checks=number < 5)
            result = engine.outcome(state)
            assert set(result["winners"]) <= set(range(seat_count(engine, state)))
            assert len(result["scores"]) == seat_count(engine, state)


@pytest.mark.parametrize("game", GAME_MODULES)
def test_the_same_seed_replays_the_same_game(game):
    engine = load(game)
    choose = load_bots(game).STRENGTHS["leicht"]
    seats = SEAT_COUNTS[game][-1]
    first, steps_first = play_checked(engine, choose, options_for(game, seats), 77, deep_checks=False)
    again, steps_again = play_checked(engine, choose, options_for(game, seats), 77, deep_checks=False)
    assert (first, steps_first) == (again, steps_again)
    other, _ = play_checked(engine, choose, options_for(game, seats), 78, deep_checks=False)
    assert other != first


@pytest.mark.parametrize("game", GAME_MODULES)
def test_a_game_continues_exactly_after_a_json_round_trip(game):
    engine = load(game)
    choose = load_bots(game).STRENGTHS["leicht"]
    options = options_for(game, SEAT_COUNTS[game][0])
    straight = engine.new_game(options, Rng(5))
    saved = engine.new_game(options, Rng(5))
    rng_a, rng_b = Rng(9), Rng(9)
    while engine.outcome(straight) is None:
        seat = engine.to_move(straight)[0]
        engine.apply_action(straight, seat, choose(engine.view(straight, seat), rng_a))
        saved = json.loads(json.dumps(saved))  # as if saved and loaded after every action
        seat = engine.to_move(saved)[0]
        engine.apply_action(saved, seat, choose(engine.view(saved, seat), rng_b))
        assert saved == straight


@pytest.mark.parametrize("game", GAME_MODULES)
def test_bad_seats_and_options_are_refused(game):
    engine = load(game)
    state = engine.new_game(options_for(game, SEAT_COUNTS[game][0]), Rng(1))
    before = copy_data(state)
    legal_seat = engine.to_move(state)[0]
    action = engine.legal_actions(state, legal_seat)[0]
    for seat in (-1, seat_count(engine, state), "0", None, True):
        with pytest.raises(IllegalAction):
            engine.apply_action(state, seat, action)
    assert state == before
    from spieleabend.games.common import BadOptions
    for seats in (engine.MIN_SEATS - 1, engine.MAX_SEATS + 1, "3"):
        with pytest.raises(BadOptions):
            engine.new_game({"seats": seats}, Rng(1))

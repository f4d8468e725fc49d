"""Saved games: each engine's check_state refuses a state it could not have produced, before Fortsetzen opens it.

A damaged save (a card cut short, a card too many, a number out of range) used to pass check_saved_game's
views and one move, and crash the game at a later move, at every Fortsetzen. Three kinds of tests:
mutated real saves (a seeded fuzz: each is refused, or plays to its end with the Leicht computers),
hand-made saves with one clear defect (refused), and every state of whole games (never refused).
"""

import json
import random

import pytest

from spieleabend.games import check_saved_game, load, load_bots, strength_choice
from spieleabend.games.common import Rng, copy_data

GAMES = ["punktejagd", "kartenkampf", "maumau", "paodekuai", "golf"]

# Per game: the tables the fuzz deals (the largest included; Pao De Kuai's open table is not one: the
# computers never stop it) and how many moves it plays at most before saving (fewer where the game ended).
FUZZ_TABLES = {
    "punktejagd": ([{"seats": 2}, {"seats": 4}, {"seats": 6}], 60),
    "kartenkampf": ([{"seats": 2}, {"seats": 5}, {"seats": 8}], 80),
    "maumau": ([{"seats": 2, "limit": 30}, {"seats": 3, "limit": 50}, {"seats": 5, "limit": 30},
                {"seats": 4, "limit": 30}, {"seats": 5, "limit": 50}], 400),
    "paodekuai": ([{"deals": 1}, {"deals": 2}, {"deals": 3}], 150),
    "golf": ([{"seats": 2}, {"seats": 4}, {"seats": 8, "decks": 2}, {"seats": 8, "decks": 1}], 400),
}
FUZZ_SAVES = 300
# Sound Mau-Mau games of Leicht computers run to 13,000 moves and more (at a limit of 100): a bound for a
# game that never ends, far above that.
MOVE_LIMIT = 100000


def play_moves(engine, state, choose, rng, moves):
    """Play up to `moves` moves (every seat of a secret round counts) with `choose`; stop at the game's end."""
    played = 0
    while played < moves and engine.outcome(state) is None:
        for seat in list(engine.to_move(state)):
            if seat in engine.to_move(state):
                engine.apply_action(state, seat, choose(engine.view(state, seat), rng))
                played += 1
    return played


def play_to_end(engine, state, choose, rng):
    """Play a game to its end as the table does, or fail: a seat to move with nothing to do, no end. (A save
    may turn into Pao De Kuai's open table, which the computers never stop: a person stops it after deal 20.)"""
    for _ in range(MOVE_LIMIT):
        if engine.outcome(state) is not None:
            return
        moving = engine.to_move(state)
        assert moving, "nobody to move and no outcome"
        for seat in list(moving):
            if seat in engine.to_move(state):
                view = engine.view(state, seat)
                stop = "stop" in view["legal"] and view["deal"] >= 20
                engine.apply_action(state, seat, "stop" if stop else choose(view, rng))
                engine.progress(engine.view(state, seat))
    raise AssertionError("no end after %d moves" % MOVE_LIMIT)


def paths(value, prefix=()):
    """Yield the path of every value inside a state (keys and indexes)."""
    yield prefix
    if isinstance(value, dict):
        for key in value:
            yield from paths(value[key], prefix + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, prefix + (index,))


def mutate(state, r):
    """Change one value of the state as damage would: a number off, a list cut or grown, a value replaced
    by None, "", True, 99, [] or {}, a string cut short, two list items swapped. Return what was done."""
    path = r.choice([p for p in paths(state) if p])
    parent = state
    for key in path[:-1]:
        parent = parent[key]
    old = parent[path[-1]]
    kind = r.randrange(7)
    if kind == 0 and isinstance(old, int) and not isinstance(old, bool):
        new = old + r.choice([-1, 1, 2, -2, 5, 50, -50])
    elif kind == 1 and isinstance(old, list) and old:
        new = old[:-1]
    elif kind == 2 and isinstance(old, list):
        new = old + ([copy_data(old[0])] if old else [0])
    elif kind == 3:
        new = None
    elif kind == 4 and isinstance(old, str):
        new = old[:-1] if old else "x"
    elif kind == 5 and isinstance(parent, list) and len(parent) > 1:
        other = r.randrange(len(parent))
        parent[path[-1]], parent[other] = parent[other], parent[path[-1]]
        return path, "swapped with %r" % (other,)
    else:
        new = r.choice([0, -1, 1, 99, True, "", [], {}])
    parent[path[-1]] = new
    return path, repr(new)[:30]


def refused(document):
    """Return True when check_saved_game refuses the document (ValueError), False when it accepts it."""
    try:
        check_saved_game(document)
    except ValueError:
        return True
    return False


@pytest.mark.parametrize("game", GAMES)
def test_a_damaged_save_is_refused_or_plays_to_its_end(game):
    """Seeded fuzz: one value of a real mid-game save changed. The check refuses it, or the game goes on to
    its end with the Leicht computers without an error (a save is never opened to fail halfway)."""
    engine = load(game)
    choose = strength_choice(load_bots(game), "leicht")
    tables, most_moves = FUZZ_TABLES[game]
    r = random.Random(GAMES.index(game) + 1)
    counts = {"refused": 0, "accepted": 0}
    for trial in range(FUZZ_SAVES):
        options = tables[trial % len(tables)]
        moves = r.randrange(1, most_moves)
        while True:
            rng = Rng(trial)
            state = engine.new_game(options, rng)
            play_moves(engine, state, choose, rng, moves)
            if engine.outcome(state) is None:
                break
            moves //= 2  # the game ended before: save it earlier
        state = json.loads(json.dumps(state))  # as localStorage keeps it
        path, change = mutate(state, r)
        document = {"format": 1, "game": game, "state": state, "meta": {"seat": 0}}
        if refused(document):
            counts["refused"] += 1
            continue
        counts["accepted"] += 1
        try:
            play_to_end(engine, state, choose, Rng(trial + 1))
        except (Exception, AssertionError) as error:
            raise AssertionError("save %d of %r, %r set to %s: accepted, then %s: %s" % (
                trial, options, path, change, type(error).__name__, error))
    assert counts["accepted"] > 0 and counts["refused"] > 0, counts


def mid_game(game, options, moves, seed=5):
    """Return (engine, a JSON copy of the state after `moves` moves of the Leicht computers)."""
    engine = load(game)
    rng = Rng(seed)
    state = engine.new_game(options, rng)
    play_moves(engine, state, strength_choice(load_bots(game), "leicht"), rng, moves)
    assert engine.outcome(state) is None
    return engine, json.loads(json.dumps(state))


def set_path(state, path, value):
    get(state, path[:-1])[path[-1]] = value


def _duplicate(place):
    def damage(state):
        cards = get(state, place)
        cards.insert(0, cards[0])
    return damage


def _drop(place):
    def damage(state):
        get(state, place).pop()
    return damage


def _set(path, value):
    def damage(state):
        set_path(state, path, value)
    return damage


def get(state, path):
    for key in path:
        state = state[key]
    return state


# Per game: (options, moves played first, [(defect, damage)]): each damage makes one clear defect.
DEFECTS = {
    "punktejagd": ({"seats": 6}, 20, [
        ("a card duplicated", _duplicate(("hands", 0))),
        ("a card missing", _drop(("hands", 1))),
        ("a card ''", _set(("hands", 0, 0), "")),
        ("a card 99", _set(("hands", 2, 1), 99)),
        ("a card True", _set(("hands", 0, 0), True)),
        ("a scored card 99", _set(("log", 0, "cards", 3), 99)),
        ("seats one too many", _set(("seats",), 7)),
        ("a total off by one", _set(("totals", 2), 1)),
        ("a plan of a card not held", _set(("plans", 0), {"card": 11, "risk": False})),
        ("round types of two Gold rounds", _set(("round_types", 0), "gold")),
        ("rng None", _set(("rng",), None)),
        ("an rng word None", _set(("rng", 2), None)),
    ]),
    "kartenkampf": ({"seats": 8}, 30, [
        ("a card duplicated", _duplicate(("hands", 0))),
        ("a card missing", _drop(("hands", 7))),
        ("a card ''", _set(("hands", 0, 0), "")),
        ("a card 99", _set(("hands", 3, 0), 99)),
        ("a card True", _set(("hands", 0, 0), True)),
        ("a winner out of range", _set(("log", 0, "winner"), 8)),
        ("a round's points off", _set(("log", 1, "points"), 1)),
        ("a choice not held", _set(("choices", 0), 11)),
        ("rng None", _set(("rng",), None)),
    ]),
    "maumau": ({"seats": 5}, 30, [
        ("a card duplicated", _duplicate(("stock",))),
        ("a card missing", _drop(("stock",))),
        ("a card ''", _set(("hands", 0, 0), "")),
        ("a card cut short", _set(("discard", 0), "1")),
        ("a card 99", _set(("stock", 3), 99)),
        ("a card True", _set(("hands", 1, 0), True)),
        ("the turn out of range", _set(("turn",), 5)),
        ("the starter out of range", _set(("starter",), -1)),
        ("seats not the number of hands", _set(("seats",), 4)),
        ("a direction of 0", _set(("direction",), 0)),
        ("minus points None", _set(("minus", 1), None)),
        ("a seat out below the limit", _set(("out", 2), True)),
        ("an odd draw obligation", _set(("pending",), 3)),
        ("a wish of no suit", _set(("wish",), "X")),
        ("rng None", _set(("rng",), None)),
    ]),
    "paodekuai": ({"deals": 3}, 20, [
        ("a card duplicated", _duplicate(("hands", 0))),
        ("a card missing", _drop(("hands", 1))),
        ("a card ''", _set(("hands", 0, 0), "")),
        ("a card 99", _set(("hands", 2, 0), 99)),
        ("a card True", _set(("hands", 0, 1), True)),
        ("a played card missing", _drop(("played",))),
        ("the turn out of range", _set(("turn",), 3)),
        ("a trick's seat out of range", _set(("tricks", 0, 0, "seat"), 3)),
        ("a settlement's points None", _set(("log", 0, "settlements"), [{"kind": "out", "seat": 0, "points": None,
                                                                          "losers": []}])),
        ("deals None", _set(("options", "deals"), None)),
        ("rng None", _set(("rng",), None)),
    ]),
    "golf": ({"seats": 8, "decks": 2}, 120, [
        ("a card duplicated", _duplicate(("stock",))),
        ("a card missing", _drop(("stock",))),
        ("a card ''", _set(("grids", 0, 1), "")),
        ("a card cut short", _set(("discard", 0), "1")),
        ("a card 99", _set(("grids", 1, 0), 99)),
        ("a card True", _set(("grids", 0, 0), True)),
        ("the turn out of range", _set(("turn",), 8)),
        ("a knocker out of range", _set(("knocker",), 8)),
        ("a round's total None", _set(("results", 0, "totals", 2), None)),
        ("one deck of two", _set(("decks",), 1)),
        ("a drawn card 99", _set(("drawn",), 99)),
        ("rng None", _set(("rng",), None)),
        ("rng all zero", _set(("rng",), [0, 0, 0, 0])),
    ]),
}


@pytest.mark.parametrize("game", GAMES)
def test_a_save_with_one_clear_defect_is_refused_by_the_engines_check(game):
    options, moves, defects = DEFECTS[game]
    engine, sound = mid_game(game, options, moves)
    engine.check_state(sound)
    check_saved_game({"format": 1, "game": game, "state": copy_data(sound), "meta": {"seat": 0}})
    for defect, damage in defects:
        state = copy_data(sound)
        damage(state)
        assert json.dumps(state) != json.dumps(sound), defect
        with pytest.raises(ValueError):
            engine.check_state(state)
        with pytest.raises(ValueError):
            check_saved_game({"format": 1, "game": game, "state": state, "meta": {"seat": 0}})


def test_the_engines_reasons_say_what_is_wrong():
    engine, state = mid_game("golf", {"seats": 4}, 20)
    state["stock"].pop()
    with pytest.raises(ValueError, match="missing"):
        engine.check_state(state)
    engine, state = mid_game("maumau", {"seats": 3}, 10)
    state["hands"][0][0] = state["hands"][0][0][:-1]
    with pytest.raises(ValueError, match="no card of the game"):
        engine.check_state(state)


# Per game: the tables whole games are played at, with the levels of their computers.
SOUND_TABLES = {
    "punktejagd": [{"seats": 2}, {"seats": 3}, {"seats": 6}],
    "kartenkampf": [{"seats": 2}, {"seats": 4}, {"seats": 8}],
    "maumau": [{"seats": 2, "limit": 30}, {"seats": 3, "limit": 50}, {"seats": 5, "limit": 30}],
    "paodekuai": [{"deals": 1}, {"deals": 3}, {"deals": 0}],  # the open table: the first seat stops after deal 3
    "golf": [{"seats": 2}, {"seats": 5, "decks": 1}, {"seats": 8, "decks": 2}, {"seats": 8, "decks": 1}],
}


@pytest.mark.parametrize("game", GAMES)
def test_every_state_of_whole_games_passes_the_engines_check(game):
    """No false alarm: after every move of several seeded games (every table size, Leicht and Mittel
    computers), the state passes check_state, and every tenth as saved passes check_saved_game."""
    engine = load(game)
    bots = load_bots(game)
    checked = 0
    for number, options in enumerate(SOUND_TABLES[game]):
        for seed, level in ((number, "leicht"), (number + 10, "mittel")):
            choose = strength_choice(bots, level)
            rng = Rng(seed)
            state = engine.new_game(options, rng)
            engine.check_state(state)
            for _ in range(MOVE_LIMIT):
                if engine.outcome(state) is not None:
                    break
                seat = engine.to_move(state)[0]
                view = engine.view(state, seat)
                stop = "stop" in view["legal"] and view["deal"] >= 3
                engine.apply_action(state, seat, "stop" if stop else choose(view, rng))
                engine.check_state(state)
                checked += 1
                if checked % 10 == 0:
                    check_saved_game({"format": 1, "game": game, "state": json.loads(json.dumps(state)),
                                      "meta": {"seat": 0}})
            assert engine.outcome(state) is not None
            engine.check_state(json.loads(json.dumps(state)))
    assert checked > 200


def test_mau_mau_states_after_seats_join_and_leave_pass_the_check():
    """Seats leave mid-deal (their cards go back into the stock) and join between deals: still sound."""
    engine = load("maumau")
    choose = strength_choice(load_bots("maumau"), "leicht")
    for seed in range(6):
        rng = Rng(seed)
        state = engine.new_game({"seats": 4, "limit": 40}, rng)
        left = joined = 0
        for move in range(MOVE_LIMIT):
            if engine.outcome(state) is not None:
                break
            if move % 37 == 36 and left < 2 and state["seats"] > 2:
                engine.remove_seat(state, (seed + move) % state["seats"])
                left += 1
            elif engine.between_deals(state) and joined < 2 and state["seats"] < 5:
                engine.add_seat(state, "Neu %d" % joined)
                joined += 1
            else:
                seat = engine.to_move(state)[0]
                engine.apply_action(state, seat, choose(engine.view(state, seat), rng))
            engine.check_state(state)
            if move % 7 == 0 or move % 37 == 36:
                check_saved_game({"format": 1, "game": "maumau", "state": json.loads(json.dumps(state)),
                                  "meta": {"seat": 0}})
        assert left or joined


def test_every_shipped_engine_has_the_verb():
    """check_state is optional (a game without it is checked by its views and one move); the five games have it."""
    assert all(hasattr(load(game), "check_state") for game in GAMES)

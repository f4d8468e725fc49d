"""The storage module: versioned documents, damaged and newer data set aside, settings kept."""

import json

import pytest

from spieleabend.storage import (DAMAGED_PREFIX, DEFAULT_SETTINGS, RESULTS_KEY, SAVE_PREFIX,
                                 SETTINGS_KEY, Storage, night_table)
from tests.fake_storage import Clock, FakeLocalStorage


@pytest.fixture()
def backend():
    return FakeLocalStorage()


@pytest.fixture()
def storage(backend):
    return Storage(backend, json, Clock())


def test_settings_default_when_nothing_is_stored(storage):
    assert storage.load_settings() == DEFAULT_SETTINGS
    assert storage.notices == []


def test_settings_round_trip_and_carry_a_format_number(storage, backend):
    settings = dict(DEFAULT_SETTINGS, language="en", contrast=80, motion="reduce")
    assert storage.save_settings(settings)
    stored = json.loads(backend.getItem(SETTINGS_KEY))
    assert stored["format"] == 1
    assert Storage(backend, json, Clock()).load_settings() == settings


def test_out_of_range_settings_fall_back_one_by_one(storage, backend):
    backend.setItem(SETTINGS_KEY, json.dumps({"format": 1, "settings": {
        "language": "fr", "contrast": 250, "grain": 10, "motion": "wild", "unknown": 1}}))
    settings = storage.load_settings()
    assert settings["language"] == "de" and settings["contrast"] == 50
    assert settings["grain"] == 10 and settings["motion"] == "system"
    assert "unknown" not in settings


@pytest.mark.parametrize("raw, reason", [
    ("{not json", "unreadable"),
    ("[1, 2, 3]", "no format number"),
    ('{"format": 99, "settings": {}}', "newer format 99"),
    ('{"format": 1, "settings": "dark"}', "settings missing"),
    ('"just a string"', "no format number"),
])
def test_damaged_or_newer_settings_are_set_aside_not_lost(storage, backend, raw, reason):
    backend.setItem(SETTINGS_KEY, raw)
    assert storage.load_settings() == DEFAULT_SETTINGS
    assert len(storage.notices) == 1
    notice = storage.notices[0]
    assert notice["key"] == SETTINGS_KEY and notice["reason"].startswith(reason)
    assert backend.getItem(SETTINGS_KEY) is None
    assert backend.getItem(notice["aside"]) == raw, "the original text is kept byte for byte"
    assert storage.damaged_keys() == [notice["aside"]]


def test_a_damaged_save_leaves_the_other_saves_alone(storage, backend):
    storage.save_game("punktejagd", {"round": 3}, {"round": 4})
    backend.setItem(SAVE_PREFIX + "golf", '{"format": 1, "game": "golf", "state": [')
    saves = storage.saved_games(["punktejagd", "golf"])
    assert [save["game"] for save in saves] == ["punktejagd"]
    assert saves[0]["state"] == {"round": 3}
    assert [n["key"] for n in storage.notices] == [SAVE_PREFIX + "golf"]


def test_setting_aside_twice_keeps_both_copies(backend):
    clock = Clock()
    storage = Storage(backend, json, clock)
    backend.setItem(RESULTS_KEY, "broken one")
    assert storage.results() == []
    clock.now += 1
    backend.setItem(RESULTS_KEY, "broken two")
    assert storage.results() == []
    kept = sorted(backend.getItem(key) for key in storage.damaged_keys())
    assert kept == ["broken one", "broken two"]


def test_full_storage_reports_failure_and_keeps_the_old_save(backend):
    storage = Storage(backend, json, Clock())
    storage.save_game("punktejagd", {"round": 1}, {"round": 1})
    backend.quota = sum(len(k) + len(v) for k, v in backend.items.items()) + 10
    assert storage.save_game("punktejagd", {"round": 2, "padding": "x" * 500}, {"round": 2}) is False
    assert storage.load_game("punktejagd")["state"] == {"round": 1}


def test_results_newest_first_and_capped(storage):
    for number in range(205):
        storage.add_result({"game": "punktejagd", "n": number})
    results = storage.results()
    assert len(results) == 200
    assert results[0]["n"] == 204


def test_night_table_counts_unique_wins_only():
    results = [
        {"night": "a", "players": ["Ada", "Bo"], "winners": ["Ada"]},
        {"night": "a", "players": ["Ada", "Bo"], "winners": ["Ada", "Bo"]},
        {"night": "a", "players": ["Ada", "Bo", "Cy"], "winners": ["Bo"]},
        {"night": "a", "players": ["Ada", "Cy"], "winners": ["Ada"]},
        {"night": "b", "players": ["Ada"], "winners": ["Ada"]},
    ]
    assert night_table(results, "a") == [
        {"name": "Ada", "points": 2, "games": 4},
        {"name": "Bo", "points": 1, "games": 3},
        {"name": "Cy", "points": 0, "games": 2},
    ]


def test_new_night_starts_a_fresh_table(storage):
    clock_night = storage.night()
    assert storage.night() == clock_night
    storage.clock = lambda: 1_800_000_000_000
    fresh = storage.new_night()
    assert fresh["id"] != clock_night["id"] and storage.night() == fresh

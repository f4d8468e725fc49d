"""The storage module: versioned documents, damaged and newer data set aside, settings kept."""

import json

import pytest

from spieleabend.storage import (DAMAGED_PREFIX, DEFAULT_SETTINGS, MAX_RESULTS, RESULTS_KEY, SAVE_PREFIX,
                                 SETTINGS_KEY, Storage, evening_table)
from tests.fake_storage import JSON_CODEC, Clock, FakeLocalStorage


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


def test_settings_missing_or_unreadable_take_the_browsers_language(storage, backend):
    assert storage.load_settings("en")["language"] == "en"
    backend.setItem(SETTINGS_KEY, "{{{nope")
    assert storage.load_settings("en")["language"] == "en", "not German for good after damaged settings"
    backend.setItem(SETTINGS_KEY, json.dumps({"format": 1, "settings": {"language": "de"}}))
    assert storage.load_settings("en")["language"] == "de", "a chosen language wins over the browser's"
    assert storage.load_settings("fr")["language"] == "de"


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


def test_a_save_of_another_game_under_a_games_key_is_set_aside(storage, backend):
    """Its home tile would have said "Golf" and led to Punktejagd's continue screen, which has no Golf: a dead tile."""
    raw = json.dumps({"format": 1, "game": "golf", "state": {"round": 2}, "meta": {}, "saved_at": 5})
    backend.setItem(SAVE_PREFIX + "punktejagd", raw)
    assert storage.saved_games(["punktejagd", "golf"]) == []
    assert [n["key"] for n in storage.notices] == [SAVE_PREFIX + "punktejagd"]
    assert backend.getItem(storage.notices[0]["aside"]) == raw, "kept byte for byte"


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


def test_only_the_newest_copies_set_aside_from_one_document_are_kept(backend):
    """A document damaged again and again (a bad release, a buggy sync) does not fill storage with copies."""
    clock = Clock()
    storage = Storage(backend, json, clock)
    backend.setItem(SAVE_PREFIX + "golf", "a save of its own")
    for number in range(6):
        clock.now += 1
        backend.setItem(RESULTS_KEY, "broken %d" % number)
        assert storage.results() == []
    storage.set_aside(SAVE_PREFIX + "golf", "cannot be continued")
    kept = [backend.getItem(key) for key in storage.damaged_keys()]
    assert sorted(kept) == ["a save of its own", "broken 3", "broken 4", "broken 5"]


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
    for result in results:
        result["game"] = "punktejagd"
    rows = evening_table(results, "a")["rows"]
    assert [(row["name"], row["points"], row["games"]) for row in rows] == [
        ("Ada", 2, 4), ("Bo", 1, 3), ("Cy", 0, 2)]


def test_new_night_starts_a_fresh_table(storage):
    clock_night = storage.night()
    assert storage.night() == clock_night
    storage.clock = lambda: 1_800_000_000_000
    fresh = storage.new_night()
    assert fresh["id"] != clock_night["id"] and storage.night() == fresh


# -- game nights: format 2, migration from format 1 ---------------------------------------------
from spieleabend.storage import (BACKUP_KIND, GAME_FILE_KIND, NIGHT_KEY, ImportProblem,  # noqa: E402
                                 clean_names)

GAMES = ["punktejagd", "kartenkampf", "maumau", "paodekuai", "golf"]


def test_a_format_1_night_is_migrated_with_its_id_kept(storage, backend):
    backend.setItem(NIGHT_KEY, json.dumps({"format": 1, "id": "n123", "started_at": 123}))
    assert storage.night() == {"id": "n123", "started_at": 123, "people": []}
    assert storage.notices == []
    storage.set_people(["Ada", "Bo"])
    stored = json.loads(backend.getItem(NIGHT_KEY))
    assert stored["format"] == 2 and stored["current"]["id"] == "n123"
    assert stored["current"]["people"] == ["Ada", "Bo"]


def test_a_damaged_format_1_night_is_set_aside(storage, backend):
    backend.setItem(NIGHT_KEY, json.dumps({"format": 1, "id": 5}))
    night = storage.night()
    assert night["id"].startswith("n")
    assert [n["key"] for n in storage.notices] == [NIGHT_KEY]


def test_a_newer_night_document_is_set_aside_not_overwritten(storage, backend):
    raw = json.dumps({"format": 3, "anything": True})
    backend.setItem(NIGHT_KEY, raw)
    storage.night()
    assert storage.notices[0]["reason"] == "newer format 3"
    assert backend.getItem(storage.notices[0]["aside"]) == raw


def test_new_night_keeps_the_old_one_as_past_with_its_people(backend):
    clock = Clock()
    storage = Storage(backend, json, clock)
    first = storage.new_night(["Ada", " Bo ", "ada", ""])
    assert first["people"] == ["Ada", "Bo"], "trimmed, empty left out, the same person once"
    storage.add_result({"game": "golf", "players": ["Ada", "Bo"], "winners": ["Ada"], "scores": [1, 2],
                        "finished_at": clock.now, "night": first["id"]})  # an evening with a game
    clock.now += 1000
    second = storage.new_night(["Cy"])
    nights = storage.nights()
    assert nights["current"] == second
    assert [n["id"] for n in nights["past"]] == [first["id"]]
    assert nights["past"][0]["people"] == ["Ada", "Bo"] and nights["past"][0]["ended_at"] == clock.now
    assert storage.find_night(first["id"])["people"] == ["Ada", "Bo"]


def test_two_nights_in_the_same_millisecond_get_different_ids(storage):
    assert storage.new_night()["id"] != storage.new_night()["id"]


def test_clean_names_caps_length_and_count():
    assert clean_names(["x" * 40]) == ["x" * 24]
    assert len(clean_names(["p%d" % n for n in range(20)])) == 12


def test_old_result_entries_are_filled_in_and_kept_when_adding(storage, backend):
    backend.setItem(RESULTS_KEY, json.dumps({"format": 1, "results": [
        {"game": "punktejagd", "players": ["Ada"], "winners": ["Ada"], "night": "n1"}]}))
    [old] = storage.results()
    assert old["history"] == [] and old["finished_at"] == 0 and old["my_score"] is None
    storage.add_result({"game": "golf", "players": ["Bo"], "winners": [], "finished_at": 5})
    assert [r["game"] for r in storage.results()] == ["golf", "punktejagd"]


# -- a game carried to another device ---------------------------------------------------------
def saved_storage(backend=None):
    storage = Storage(backend or FakeLocalStorage(), json, Clock())
    storage.save_game("punktejagd", {"round": 3, "rng": [1, 2, 3, 4]},
                      {"players": [{"name": "Ada", "kind": "person"}], "seat": 0, "bot_rng": [5, 6, 7, 8],
                       "night": "n1", "history": [[0], [5]]})
    return storage


def test_a_game_file_round_trips_exactly_and_joins_the_receivers_night():
    sender = saved_storage()
    text = json.dumps(sender.export_game("punktejagd"))
    receiver = Storage(FakeLocalStorage(), json, Clock())
    document = receiver.parse_game_file(text, GAMES)
    assert document["kind"] == GAME_FILE_KIND
    assert receiver.import_game(document, "n-here")
    received = receiver.load_game("punktejagd")
    assert received["state"] == {"round": 3, "rng": [1, 2, 3, 4]}
    assert received["meta"]["bot_rng"] == [5, 6, 7, 8] and received["meta"]["history"] == [[0], [5]]
    assert received["meta"]["night"] == "n-here"


@pytest.mark.parametrize("change, reason", [
    (lambda d: "{broken" + d, "damaged"),
    (lambda d: "", "damaged"),
    (lambda d: "[1, 2]", "damaged"),
    (lambda d: d.replace('"format": 1', '"format": 7'), "newer"),
    (lambda d: d.replace('"game": "punktejagd"', '"game": "skat"'), "unknown_game"),
    (lambda d: d.replace(GAME_FILE_KIND, "something.else"), "foreign"),
    (lambda d: json.dumps({"format": 1, "hello": 1}), "foreign"),
    (lambda d: d.replace('"state": {', '"state": [{').replace('"meta"', '"x": 1}], "meta"', 1), "damaged"),
    (lambda d: d[:-1] + ', "pad": "%s"}' % ("x" * 300000), "too_large"),
    (lambda d: json.dumps({"format": 1, "kind": BACKUP_KIND, "results": [], "nights": {}}), "backup"),
])
def test_bad_game_files_are_refused_with_a_reason_and_write_nothing(change, reason):
    text = change(json.dumps(saved_storage().export_game("punktejagd")))
    backend = FakeLocalStorage()
    receiver = saved_storage(backend)
    before = dict(backend.items)
    with pytest.raises(ImportProblem) as problem:
        receiver.parse_game_file(text, GAMES)
    assert problem.value.reason == reason
    assert backend.items == before


def test_replacing_a_save_that_does_not_fit_keeps_the_old_one():
    backend = FakeLocalStorage()
    receiver = saved_storage(backend)
    big = {"format": 1, "kind": GAME_FILE_KIND, "game": "punktejagd", "state": {"pad": "y" * 2000}, "meta": {}}
    backend.quota = sum(len(k) + len(v) for k, v in backend.items.items()) + 100
    assert receiver.import_game(big, "n2") is False
    assert receiver.load_game("punktejagd")["state"]["round"] == 3


# -- backups of every result and night ----------------------------------------------------------
def backup_source():
    clock = Clock()
    storage = Storage(FakeLocalStorage(), json, clock)
    night = storage.new_night(["Ada", "Bo"])
    storage.add_result({"game": "punktejagd", "players": ["Ada", "Bo"], "winners": ["Ada"],
                        "scores": [9, 4], "finished_at": 10, "night": night["id"], "history": [[0, 0], [9, 4]]})
    clock.now += 5000
    storage.new_night(["Cy"])
    storage.add_result({"game": "golf", "players": ["Cy", "Bo"], "winners": ["Cy", "Bo"],
                        "scores": [3, 3], "finished_at": 20, "night": storage.night()["id"]})
    return storage


def test_backup_round_trip_merges_without_duplicates():
    source = backup_source()
    text = json.dumps(source.export_backup())
    target = Storage(FakeLocalStorage(), json, Clock(1_600_000_000_000))
    target.add_result({"game": "maumau", "players": ["Zoe"], "winners": ["Zoe"], "finished_at": 15})
    backup = target.parse_backup(text)
    assert target.import_backup(backup) == (2, 0)
    assert [r["game"] for r in target.results()] == ["golf", "maumau", "punktejagd"]
    assert target.import_backup(target.parse_backup(text)) == (0, 0), "importing twice adds nothing"
    assert len(target.results()) == 3
    ids = [n["id"] for n in target.nights()["past"]]
    assert set(ids) == {n["id"] for n in [source.nights()["current"]] + source.nights()["past"]}
    assert target.find_night(source.nights()["past"][0]["id"])["people"] == ["Ada", "Bo"]


def test_a_backup_of_games_older_than_the_kept_results_says_they_were_left_out():
    target = Storage(FakeLocalStorage(), json, Clock(1_600_000_000_000))
    for number in range(MAX_RESULTS):
        target.add_result({"game": "golf", "players": ["Ada"], "winners": ["Ada"], "scores": [1],
                           "finished_at": 1000 + number})
    source = backup_source()  # its two games finished long before these
    assert target.import_backup(target.parse_backup(json.dumps(source.export_backup()))) == (0, 2)
    assert len(target.results()) == MAX_RESULTS


def test_a_result_that_drops_out_of_the_kept_ones_takes_its_replay_along():
    storage = Storage(FakeLocalStorage(), json, Clock(1_600_000_000_000))
    record = {"format": 1, "kind": "spieleabend.replay", "game": "golf", "finished_at": 5}
    oldest = storage.add_replay(record)
    storage.add_result({"game": "golf", "players": ["Ada"], "winners": ["Ada"], "scores": [1], "finished_at": 5,
                        "replay": oldest})
    for number in range(MAX_RESULTS - 1):
        storage.add_result({"game": "golf", "players": ["Ada"], "winners": ["Ada"], "scores": [1],
                            "finished_at": 10 + number})
    assert storage.replay_ids() == [oldest], "still reachable from Ergebnisse"
    storage.add_result({"game": "golf", "players": ["Ada"], "winners": ["Ada"], "scores": [1], "finished_at": 999})
    assert storage.replay_ids() == [], "nothing leads to it any more"


def test_a_backup_on_a_new_device_goes_on_with_tonights_evening():
    """Moving to a new phone mid-evening: tonight's games and people are tonight's there too, not a past evening."""
    source = backup_source()
    target = Storage(FakeLocalStorage(), json, Clock(1_600_000_000_000))
    assert target.import_backup(target.parse_backup(json.dumps(source.export_backup()))) == (2, 0)
    tonight = target.night()
    assert tonight["id"] == source.night()["id"] and tonight["people"] == ["Cy"]
    table = evening_table(target.results(), tonight["id"], tonight["people"])
    assert [(row["name"], row["games"]) for row in table["rows"]] == [("Cy", 1), ("Bo", 1)]
    assert [night["people"] for night in target.nights()["past"]] == [["Ada", "Bo"]]
    # A device that has played tonight keeps its own evening; the backup's is a past one there.
    busy = Storage(FakeLocalStorage(), json, Clock(1_600_000_000_000))
    busy.add_result({"game": "maumau", "players": ["Zoe"], "winners": ["Zoe"], "scores": [0], "finished_at": 15})
    own = busy.night()["id"]
    busy.import_backup(busy.parse_backup(json.dumps(source.export_backup())))
    assert busy.night()["id"] == own and len(busy.nights()["past"]) == 2


@pytest.mark.parametrize("text, reason", [
    ("not json at all", "damaged"),
    (json.dumps({"format": 2, "kind": BACKUP_KIND, "results": [], "nights": {"current": None, "past": []}}), "newer"),
    (json.dumps({"format": 1, "kind": BACKUP_KIND, "results": "x", "nights": {}}), "damaged"),
    (json.dumps({"format": 1, "kind": BACKUP_KIND, "results": [{"no": "game"}],
                 "nights": {"current": None, "past": []}}), "damaged"),
    (json.dumps({"format": 1, "kind": BACKUP_KIND, "results": [], "nights": {"current": None, "past": [{"id": 1}]}}),
     "damaged"),
    # a result with odd fields: it would stay for good as "Golf · 01.01.1970 · Kein Sieger"
    (json.dumps({"format": 1, "kind": BACKUP_KIND, "results": [{"game": "golf", "scores": "x"}],
                 "nights": {"current": None, "past": []}}), "damaged"),
    (json.dumps({"format": 1, "kind": BACKUP_KIND, "results": [{"game": "golf", "players": ["A"], "winners": [],
                 "scores": ["9"], "finished_at": 5}], "nights": {"current": None, "past": []}}), "damaged"),
    (json.dumps({"format": 1, "kind": GAME_FILE_KIND, "game": "golf", "state": {}, "meta": {}}), "game_file"),
    (json.dumps({"spreadsheet": True}), "foreign"),
])
def test_bad_backups_are_refused_and_change_nothing(text, reason):
    backend = FakeLocalStorage()
    storage = Storage(backend, json, Clock())
    storage.add_result({"game": "golf", "players": ["Cy"], "winners": ["Cy"], "finished_at": 1})
    before = dict(backend.items)
    with pytest.raises(ImportProblem) as problem:
        storage.parse_backup(text)
    assert problem.value.reason == reason
    assert backend.items == before


class NightRefusingStorage(FakeLocalStorage):
    """Storage that takes the results but has no room left for the nights once `full` is set."""

    full = False
    results_written = False

    def setItem(self, key, value):
        if self.full and key == NIGHT_KEY:
            raise RuntimeError("QuotaExceededError")
        if self.full and key == RESULTS_KEY:
            self.results_written = True
        FakeLocalStorage.setItem(self, key, value)


def test_a_backup_that_does_not_fit_leaves_results_and_nights_as_they_were():
    source = backup_source()
    backup = source.parse_backup(json.dumps(source.export_backup()))
    backend = NightRefusingStorage()
    target = Storage(backend, json, Clock())
    target.new_night(["Zoe"])
    target.add_result({"game": "maumau", "players": ["Zoe"], "winners": ["Zoe"], "finished_at": 15})
    before = dict(backend.items)
    backend.full = True
    assert target.import_backup(backup) is None
    assert backend.results_written, "the results went in first and were taken back"
    assert backend.items == before, "nothing half-written"


# -- a moved game of every kind goes on exactly as it would have -------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_a_game_moved_by_file_goes_on_identically_for_every_game(game):
    from spieleabend.games import load
    from spieleabend.ui.table import COMPUTER, PERSON, LocalTable, seat_player
    from tests.fake_app import FakeApp

    engine = load(game)
    seats = 3 if engine.MIN_SEATS <= 3 <= engine.MAX_SEATS else engine.MIN_SEATS
    first = FakeApp(seed=3)
    players = [seat_player("Ich", PERSON)] + [seat_player("C%d" % n, COMPUTER) for n in range(1, seats)]
    here = LocalTable.new(first, game, {"seats": seats}, players)

    def play(app, table, moves):
        for _ in range(moves):
            app.run_timers()
            if table.outcome() is not None:
                return
            legal = table.view()["legal"]
            if legal:
                table.act(legal[len(legal) // 2])
        app.run_timers()

    play(first, here, 4)
    text = json.dumps(first.storage.export_game(game))
    second = FakeApp(seed=99)  # another device: its own seed must not matter
    assert second.storage.import_game(second.storage.parse_game_file(text, GAMES), "n-there")
    saved = second.storage.load_game(game)
    there = LocalTable(second, game, saved["state"], saved["meta"])
    there.schedule_computers()
    play(first, here, 6)
    play(second, there, 6)
    assert there.state == here.state, "same deal, same moves"
    assert there.meta["bot_rng"] == here.meta["bot_rng"], "the computers' generator went on in step"
    assert there.meta["history"] == here.meta["history"]


def test_start_screen_choices_are_kept_per_game_and_bad_ones_dropped():
    from spieleabend.ui.shell import remember_setup, setup_choices

    class App:
        def __init__(self, storage):
            self.storage = storage
            self.settings = storage.load_settings()

        def save_settings(self):
            self.storage.save_settings(self.settings)

    backend = FakeLocalStorage()
    first = App(Storage(backend, JSON_CODEC, Clock()))
    defaults = {"seats": 3, "strength": "medium", "limit": 100}
    assert setup_choices(first, "maumau", defaults) == defaults
    remember_setup(first, "maumau", {"seats": 5, "strength": "strong", "limit": 50})
    again = App(Storage(backend, JSON_CODEC, Clock()))
    assert setup_choices(again, "maumau", defaults) == {"seats": 5, "strength": "strong", "limit": 50}
    assert setup_choices(again, "golf", {"seats": 4}) == {"seats": 4}, "each game keeps its own"
    assert DEFAULT_SETTINGS["setup"] == {}, "the defaults never change"
    # A stored value of the wrong type falls back to the default; a hostile shape drops the whole entry.
    remember_setup(again, "golf", {"seats": "many"})
    assert setup_choices(App(Storage(backend, JSON_CODEC, Clock())), "golf", {"seats": 4}) == {"seats": 4}
    document = json.loads(backend.getItem(SETTINGS_KEY))
    document["settings"]["setup"] = {"golf": {"seats": {"nested": 1}}}
    backend.setItem(SETTINGS_KEY, json.dumps(document))
    assert App(Storage(backend, JSON_CODEC, Clock())).settings["setup"] == {}


def test_a_change_from_another_tab_updates_the_copy_and_a_removal_removes():
    from spieleabend.storage import MemoryStorage

    copy = MemoryStorage()
    copy.setItem("spieleabend.results", "old")
    copy.changed_elsewhere("spieleabend.results", "newer")
    copy.changed_elsewhere("spieleabend.save.golf", "{}")
    assert copy.getItem("spieleabend.results") == "newer" and copy.length == 2
    copy.changed_elsewhere("spieleabend.save.golf", None)
    assert copy.getItem("spieleabend.save.golf") is None and copy.length == 1


def test_a_change_read_before_the_page_wrote_our_later_write_is_dropped():
    """A late storage event (the page read the key before carrying out our removal) must not bring a
    damaged save back into the copy: the app would set it aside again and repeat a dismissed notice."""
    from spieleabend.storage import MemoryStorage

    copy = MemoryStorage({"spieleabend.save.golf": "{damaged", "spieleabend.results": "old"})
    copy.removeItem("spieleabend.save.golf")  # write 1: the app set the save aside
    copy.changed_elsewhere("spieleabend.save.golf", "{damaged", writes_done=0)  # read before write 1
    assert copy.getItem("spieleabend.save.golf") is None
    copy.changed_elsewhere("spieleabend.results", "newer", writes_done=0)  # a key we never wrote
    assert copy.getItem("spieleabend.results") == "newer"
    copy.changed_elsewhere("spieleabend.save.golf", "{}", writes_done=1)  # another tab wrote after ours
    assert copy.getItem("spieleabend.save.golf") == "{}" and copy.length == 2


def test_a_change_that_changes_nothing_is_not_taken_as_another_tab_playing_on():
    """A page can receive the storage event of its own tab's last write before a reload: the value is
    what the copy holds, so no other tab played on and the running game must not be set aside."""
    from spieleabend.storage import MemoryStorage

    copy = MemoryStorage({"spieleabend.save.golf": "{\"format\": 1}"})
    assert copy.changed_elsewhere("spieleabend.save.golf", "{\"format\": 1}") is False
    assert copy.changed_elsewhere("spieleabend.save.punktejagd", None) is False  # absent before and after
    assert copy.changed_elsewhere("spieleabend.save.golf", "{\"format\": 1, \"x\": 2}") is True
    assert copy.getItem("spieleabend.save.golf") == "{\"format\": 1, \"x\": 2}"
    assert copy.changed_elsewhere("spieleabend.save.golf", None) is True
    assert copy.getItem("spieleabend.save.golf") is None


def test_settings_show_what_storage_holds_and_delete_replays_after_a_second_tap():
    from spieleabend.ui import i18n
    from spieleabend.ui.settings import SettingsScreen
    from tests.fake_app import ScreenApp

    i18n.set_language("de")
    app = ScreenApp()
    storage = app.storage
    storage.add_result({"game": "golf", "players": ["Ada"], "winners": ["Ada"], "scores": [1], "finished_at": 5})
    for number in range(3):
        storage.add_replay({"format": 1, "kind": "spieleabend.replay", "game": "golf", "finished_at": number})
    app.backend.limit = 10 * storage.used_chars()
    screen = app.screen = SettingsScreen()
    html = screen.render(app)
    assert "Belegt: 10\u00a0% des Speicherplatzes" in html and "3 Aufzeichnungen beendeter Partien" in html
    assert 'data-testid="storage-aside"' not in html, "nothing set aside, nothing to say"
    screen.handle(app, "clear-storage", "replays")
    assert len(storage.replay_ids()) == 3 and "Wirklich löschen? Noch einmal tippen" in app.html
    screen.handle(app, "clear-storage", "replays")
    assert storage.replay_ids() == [] and app.toasts[-1] == "Gelöscht: 3 Aufzeichnungen beendeter Partien."
    assert len(storage.results()) == 1, "the results stay"


class LimitedStorage(FakeLocalStorage):
    """Storage that refuses, as the app's copy of the page's does, any write past `limit` characters."""

    def __init__(self, limit):
        FakeLocalStorage.__init__(self)
        self.limit = limit

    def setItem(self, key, value):
        used = sum(len(k) + len(v) for k, v in self.items.items() if k != key)
        if used + len(key) + len(str(value)) > self.limit:
            raise ValueError("storage full")
        FakeLocalStorage.setItem(self, key, value)


def test_a_result_that_would_not_fit_even_without_the_replays_drops_none_of_them():
    """A shared replay went for nothing: the result did not fit after it either."""
    backend = LimitedStorage(10 ** 9)
    storage = Storage(backend, json, Clock())
    storage.night()  # tonight's evening is there already
    shared = storage.add_replay({"format": 1, "kind": "spieleabend.replay", "game": "golf", "finished_at": 1,
                                 "received": True})
    backend.items["spieleabend.otherapp"] = "x" * 5000
    backend.limit = storage.used_chars() + 100
    entry = {"game": "golf", "players": ["Ada"] * 40, "winners": ["Ada"], "scores": [1] * 40, "finished_at": 5}
    assert not storage.add_result(entry)
    assert storage.replay_ids() == [shared] and storage.dropped_replays() == 0


def test_a_backup_the_browser_then_refuses_is_taken_back_whole_and_said():
    """The app's copy took the backup; the browser refused the evenings after taking the results. Both go back."""
    from spieleabend.ui import i18n
    from spieleabend.ui.results import ResultsScreen
    from tests.fake_app import ScreenApp

    i18n.set_language("de")
    app = ScreenApp()
    app.format_time = str
    app.storage.add_result({"game": "maumau", "players": ["Zoe"], "winners": ["Zoe"], "scores": [0], "finished_at": 15})
    before = {key: app.backend.getItem(key) for key in (RESULTS_KEY, "spieleabend.night")}
    screen = app.screen = ResultsScreen()
    screen.take_backup(app, json.dumps(backup_source().export_backup()))
    assert len(app.storage.results()) == 3
    assert screen.storage_refused(app, "spieleabend.night")
    assert {key: app.backend.getItem(key) for key in before} == before
    assert "die Sicherung wurde nicht geladen" in screen.render(app)
    assert not screen.storage_refused(app, RESULTS_KEY), "taken back once; a later refusal is not the backup's"

"""The table layer in CPython: a local table plays any game, paces computers, saves, and records results."""

import types

import pytest

from spieleabend.games import GAME_MODULES, load
from spieleabend.games.common import IllegalAction
from spieleabend.storage import RESULTS_KEY
from spieleabend.ui.table import COMPUTER, PERSON, LocalTable, seat_player, solo_players
from tests.fake_app import FakeApp, ScreenApp
from tests.fake_storage import FakeLocalStorage


@pytest.fixture()
def any_screen(monkeypatch):
    """Let the table run games whose screen module is not built yet (a minimal progress hook)."""
    import spieleabend.ui.table as table_module

    class Plugin:
        @staticmethod
        def progress(view):
            return {"round": 1, "done": 0, "scores": [0] * len(view["names"])}

    real = table_module.screen_module

    def screen_or_plugin(name):
        try:
            module = real(name)
        except ImportError:
            return Plugin
        return module if hasattr(module, "progress") else Plugin

    monkeypatch.setattr(table_module, "screen_module", screen_or_plugin)


def players(count, strength="random"):
    return [seat_player("Ich", PERSON)] + [seat_player("C%d" % n, COMPUTER, strength) for n in range(1, count)]


def new_punktejagd(app, seats=3):
    return LocalTable.new(app, "punktejagd", {"seats": seats}, players(seats))


def test_new_game_is_saved_and_computers_of_a_secret_round_have_committed():
    app = FakeApp()
    table = new_punktejagd(app)
    view = table.view()
    assert view["seat"] == 0 and view["hand"] == list(range(1, 11))
    assert view["committed"] == [False, True, True], "computers fix their plan when the round starts"
    saved = app.storage.load_game("punktejagd")
    assert saved["state"] == table.state
    assert saved["meta"]["players"][0] == {"name": "Ich", "kind": "person", "strength": None}
    assert app.timers == {}, "secret choices need no paced timer"


def test_an_action_scores_the_round_saves_and_tells_listeners():
    app = FakeApp()
    table = new_punktejagd(app)
    events = []
    table.listen(events.append)
    table.act("play 7")
    assert len(table.view()["log"]) == 1
    assert events, "the screen is told"
    assert app.storage.load_game("punktejagd")["state"]["log"] == table.state["log"]
    assert table.meta["history"][0] == [0, 0, 0]
    assert table.meta["history"][1] == table.view()["totals"]
    assert table.meta["round"] == 2


def test_an_illegal_action_changes_nothing_not_even_the_save():
    app = FakeApp()
    table = new_punktejagd(app)
    before = app.backend.items["spieleabend.save.punktejagd"]
    with pytest.raises(IllegalAction):
        table.act("play 11")
    with pytest.raises(IllegalAction):
        table.act("play 3", seat=1)  # seat 1 has already committed
    assert app.backend.items["spieleabend.save.punktejagd"] == before


def test_a_whole_game_ends_in_ergebnisse_with_its_history_and_no_save():
    app = FakeApp()
    table = new_punktejagd(app, seats=4)
    while table.outcome() is None:
        table.act(table.view()["legal"][0])
    assert app.storage.load_game("punktejagd") is None
    [result] = app.storage.results()
    assert result["game"] == "punktejagd"
    assert result["players"] == ["Ich", "C1", "C2", "C3"]
    assert result["scores"] == table.outcome()["scores"]
    assert result["my_score"] == result["scores"][0]
    assert len(result["history"]) == 11 and result["history"][-1] == result["scores"]
    table.after_change()
    assert len(app.storage.results()) == 1, "recorded once"


@pytest.mark.parametrize("game", GAME_MODULES)
def test_computers_alone_finish_every_game_one_paced_move_at_a_time(game, any_screen):
    app = FakeApp(seed=3)
    engine = load(game)
    seats = 3
    everyone = [seat_player("C%d" % n, COMPUTER) for n in range(seats)]
    options = {"seats": seats}
    if game == "maumau":
        options["limit"] = 30
    if game == "paodekuai":
        options = {"deals": 1}
    table = LocalTable.new(app, game, options, everyone, seat=None)
    secret = getattr(engine, "SECRET_CHOICES", False)
    fired = app.run_timers()
    assert table.outcome() is not None
    assert (fired == 0) == bool(secret), "turn games move by timer, secret games commit at once"
    assert app.storage.load_game(game) is None
    assert app.storage.results()[0]["game"] == game


def test_closing_the_table_stops_computer_timers_and_load_resumes_them(any_screen):
    app = FakeApp(seed=5)
    table = LocalTable.new(app, "golf", {"seats": 2},
                           [seat_player("C0", COMPUTER), seat_player("C1", COMPUTER)], seat=None)
    assert app.timers, "a computer move is waiting"
    table.close()
    assert app.timers == {}
    again = LocalTable.load(app, "golf")
    assert again.state == table.state
    assert app.timers, "continuing lets the computers go on"


def test_storage_refusal_is_reported_not_swallowed():
    app = FakeApp(backend=FakeLocalStorage(quota=10))
    new_punktejagd(app)
    assert "storage full" in app.toasts


def test_continue_without_a_save_says_so_and_an_old_punktejagd_save_is_upgraded():
    from spieleabend.ui.table import MissingSaveScreen, continue_screen

    app = FakeApp()
    assert isinstance(continue_screen(app, "golf"), MissingSaveScreen)
    table = new_punktejagd(app)
    document = app.storage.load_game("punktejagd")
    meta = {"style": "vorausschauend", "bot_rng": document["meta"]["bot_rng"], "round": 1}
    app.storage.save_game("punktejagd", table.state, meta)  # as saved before tables existed
    again = LocalTable.load(app, "punktejagd")
    assert [p["kind"] for p in again.players()] == ["person", "computer", "computer"]
    assert again.players()[1]["strength"] == "stark" and again.seat == 0  # the old key, as a level


def damage_saved_hand(app, game, hand):
    """Store the running save of `game` again with this device's hand replaced (a made-up save)."""
    document = app.storage.load_game(game)
    state = document["state"]
    if hand is None:
        del state["hands"]  # as a bug might leave it
    else:
        state["hands"][0] = hand
    app.storage.save_game(game, state, document["meta"])


@pytest.mark.parametrize("hand", [[11, 11, -1, "A", None], None])
def test_a_save_its_engine_cannot_go_on_with_is_set_aside_with_the_notice_not_failing_at_every_reload(hand):
    from spieleabend.ui.table import MissingSaveScreen, check_drawable, continue_screen

    app = ScreenApp()
    LocalTable.new(app, "kartenkampf", {"seats": 3}, solo_players("Anna", 3, "stark"))
    damage_saved_hand(app, "kartenkampf", hand)
    damaged = app.backend.getItem("spieleabend.save.kartenkampf")
    with pytest.raises(ValueError):
        check_drawable(app, app.storage.load_game("kartenkampf"))  # a received game like it never replaces a save
    screen = continue_screen(app, "kartenkampf")
    assert isinstance(screen, MissingSaveScreen)
    assert app.storage.load_game("kartenkampf") is None, "nothing left to fail again after a reload"
    aside = app.storage.damaged_keys()
    assert len(aside) == 1 and app.backend.getItem(aside[0]) == damaged, "kept aside as it was, not deleted"
    html = screen.render(app)
    assert 'data-testid="damaged-notice"' in html and 'data-testid="no-save"' in html


def test_a_reload_on_the_final_standings_shows_how_the_game_ended():
    """The save is gone once the final was shown: a reload says how the game ended (as Ergebnisse keeps it),
    not "no saved game"; an hour on, or after another game, the plain words."""
    from spieleabend.ui.table import MissingSaveScreen

    app = ScreenApp()
    app.format_time = str
    app.storage.add_result({"game": "golf", "players": ["Anna", "Ben"], "computers": ["Ben"], "winners": ["Ben"],
                            "scores": [30, 12], "finished_at": app.now() - 60000})
    html = MissingSaveScreen("golf").render(app)
    assert 'data-testid="game-ended"' in html and 'data-testid="result-item"' in html and "Ben\u00a012" in html
    assert 'data-testid="no-save"' not in html
    assert 'data-testid="no-save"' in MissingSaveScreen("maumau").render(app), "the last game was another game"
    app.clock.now += 3600000
    assert 'data-testid="no-save"' in MissingSaveScreen("golf").render(app)


def test_a_save_whose_numbers_were_edited_into_words_is_refused_before_a_move_fails_on_them():
    """Punktejagd's totals as text: the views still draw ("a Punkte"), but the round's scoring would fail at
    the person's next move, and at every move after a reload. The check plays on a copy and finds it."""
    from spieleabend.games import check_saved_game
    from spieleabend.ui.table import MissingSaveScreen, continue_screen

    app = ScreenApp()
    LocalTable.new(app, "punktejagd", {"seats": 3}, solo_players("Anna", 3, "stark"))
    document = app.storage.load_game("punktejagd")
    check_saved_game(document)  # as saved: sound
    document["state"]["totals"] = ["a", "b", "c"]
    with pytest.raises(ValueError):
        check_saved_game(document)
    app.storage.save_game("punktejagd", document["state"], document["meta"])
    assert isinstance(continue_screen(app, "punktejagd"), MissingSaveScreen)
    assert len(app.storage.damaged_keys()) == 1, "set aside with the notice, not failing at every move"


def test_a_save_the_engine_goes_on_with_but_the_table_cannot_draw_stays_for_a_release_that_can():
    """Likelier the app's fault than the data's: the failure is shown (App.fail), the save is not touched;
    a received game like it is refused before it could replace one."""
    from spieleabend.ui.table import check_drawable, continue_screen

    app = ScreenApp()
    LocalTable.new(app, "maumau", {"seats": 3}, solo_players("Anna", 3, "stark"))
    # The engine's check_state refuses cards that are not its decks; it leaves the words of its events, which
    # only the table reads, to the table: an event without its figure is a save the engine goes on with.
    document = app.storage.load_game("maumau")
    document["state"]["log"].append({"type": "out", "seat": 1})
    app.storage.save_game("maumau", document["state"], document["meta"])
    kept = app.backend.getItem("spieleabend.save.maumau")
    with pytest.raises(ValueError):
        check_drawable(app, app.storage.load_game("maumau"))
    screen = continue_screen(app, "maumau")
    with pytest.raises(KeyError):
        screen.render(app)
    assert app.backend.getItem("spieleabend.save.maumau") == kept and app.storage.damaged_keys() == []


def test_a_sound_save_is_drawable_and_the_check_writes_nothing():
    from spieleabend.ui.table import check_drawable

    for game in GAME_MODULES:
        app = ScreenApp()
        seats = load(game).INFO["seats"]["default"]
        LocalTable.new(app, game, {"seats": seats}, solo_players("Anna", seats, "stark"))
        before = app.backend.getItem("spieleabend.save." + game), dict(app.timers)
        check_drawable(app, app.storage.load_game(game))
        assert (app.backend.getItem("spieleabend.save." + game), app.timers) == before


def test_the_tests_stand_in_for_a_phone_has_exactly_the_real_phone_tables_verbs():
    from spieleabend.ui.rooms import RemoteTable
    from tests.fake_app import ViewTable

    def verbs(cls):
        return {name for name in dir(cls) if not name.startswith("_") and callable(getattr(cls, name))}

    assert verbs(ViewTable) - verbs(RemoteTable) == {"arrive"}, "the stand-in offers nothing a phone's table lacks"
    for verb in ("view", "seats", "names", "act", "listen", "to_move", "outcome", "over", "close", "computers_busy",
                 "can_pause", "can_rematch", "can_transfer", "can_edit_seats"):
        assert verb in verbs(ViewTable), verb


def test_capabilities_follow_where_the_game_runs_not_its_role_name():
    from tests.fake_app import ViewTable

    app = ScreenApp()
    table = LocalTable.new(app, "maumau", {"seats": 3}, solo_players("Mia", 3, "leicht"))
    assert table.can_pause() and table.can_rematch() and table.can_transfer() and table.can_edit_seats()
    golf = LocalTable.new(app, "golf", {"seats": 2}, solo_players("Mia", 2, "leicht"))
    assert not golf.can_edit_seats(), "Golf seats nobody between rounds"
    phone = ViewTable("maumau", table.state, 1)
    assert not (phone.can_pause() or phone.can_rematch() or phone.can_transfer() or phone.can_edit_seats())


def test_a_rematch_deals_the_same_game_again_with_the_same_people_options_and_levels():
    app = ScreenApp()
    players = solo_players("Mia", 4, "mittel")
    players[2]["strength"] = "stark"
    table = LocalTable.new(app, "golf", {"seats": 4, "decks": 2}, players)
    again = table.rematch()
    assert again is not table and again.names() == table.names() and again.state["decks"] == 2
    assert [p["strength"] for p in again.players()] == [None, "mittel", "stark", "mittel"]
    assert again.state != table.state, "a new deal"
    assert app.storage.load_game("golf")["state"] == again.state


def test_a_rematch_fills_seats_that_left_between_deals_up_to_the_games_minimum():
    app = ScreenApp()
    table = LocalTable.new(app, "maumau", {"seats": 2, "limit": 30}, solo_players("Mia", 2, "leicht"))
    table.meta["players"] = table.meta["players"][:1]  # as after the other seat left between deals
    again = table.rematch()
    assert len(again.names()) == 2 and again.names()[0] == "Mia" and again.state["limit"] == 30
    assert again.players()[1]["kind"] == "computer"


def test_a_listener_an_earlier_one_removed_hears_no_more():
    """A room phone moving on to the next game drops the old game's screen while the change is told: that
    screen must not read the new game's view (a Punktejagd screen failed on Golf's, KeyError 'plan')."""
    from spieleabend.ui.table import Table

    table = Table()
    heard = []

    def frame(event):
        heard.append("frame")
        table.listeners = [frame]  # as room_screens.GuestScreen.changed does when the game changes

    table.listen(frame)
    table.listen(lambda event: heard.append("old game's screen"))
    table.changed()
    assert heard == ["frame"]


@pytest.mark.parametrize("game", GAME_MODULES)
def test_every_save_of_a_game_played_through_passes_the_check_fortsetzen_makes(game):
    """No false alarm: a save written at any point of a real game is never set aside as one to not go on with."""
    from spieleabend.games import check_saved_game
    from spieleabend.games.common import Rng
    from spieleabend.ui.table import MissingSaveScreen, continue_screen, game_screen

    for seed in (1, 2):
        app = ScreenApp(seed=seed)
        seats = 3
        options = {"deals": 2} if game == "paodekuai" else {"seats": seats, "limit": 30} if game == "maumau" else {"seats": seats}
        table = LocalTable.new(app, game, options, solo_players("Anna", seats, "leicht"))
        rng = Rng(seed)
        checked = 0
        for _ in range(3000):
            document = app.storage.load_game(game)
            if document is None or table.over():
                break
            check_saved_game(document)
            checked += 1
            if checked % 5 == 0:  # play on with the continued table, as after a reload
                table.close()
                screen = continue_screen(app, game)
                assert not isinstance(screen, MissingSaveScreen), checked
                table = game_screen(screen)[1]
            legal = table.view()["legal"] if 0 in table.to_move() else []
            if legal:
                table.act(legal[rng.below(len(legal))])
            elif app.timers:
                timer = min(app.timers)
                app.timers.pop(timer)[1]()
        assert checked >= 10 and app.storage.damaged_keys() == []


class RefusingResults(FakeLocalStorage):
    """Storage that refuses the results document while `refuse` is set (the rest of its quota is free)."""

    refuse = True

    def setItem(self, key, value):
        if self.refuse and key == RESULTS_KEY:
            raise RuntimeError("QuotaExceededError")
        FakeLocalStorage.setItem(self, key, value)


def finished_golf(app):
    table = LocalTable.new(app, "golf", {"seats": 2}, [seat_player("C0", COMPUTER), seat_player("C1", COMPUTER)],
                           seat=None)
    app.run_timers()
    assert table.outcome() is not None
    return table


def test_a_finished_game_whose_result_storage_refused_keeps_its_save_and_is_recorded_when_continued():
    from spieleabend.ui.table import continue_screen

    backend = RefusingResults()
    app = FakeApp(backend=backend)
    finished_golf(app)
    assert app.storage.results() == [] and "storage full" in app.toasts
    assert app.storage.load_game("golf") is not None, "the game is not lost"
    backend.refuse = False  # room again (the person deleted old replays)
    continue_screen(app, "golf")
    assert [entry["game"] for entry in app.storage.results()] == ["golf"]
    assert app.storage.load_game("golf") is None, "recorded once: the save goes"


def test_after_the_browser_refused_a_result_the_table_writes_it_again_and_keeps_the_save_when_it_cannot():
    """The app's copy took the result and dropped the save; the browser refused the result and held the removal
    back. Once the copy holds storage as it is again, the shown table records its game again: refused now
    too, so the save stays and the person is told, instead of a game gone after the next reload."""
    from spieleabend.ui.table import write_again

    app = ScreenApp()
    table = finished_golf(app)
    save = app.storage.load_game("golf")
    assert save is None and app.storage.results(), "as the app's copy had it"
    app.backend.items.pop(RESULTS_KEY)  # storage as the browser holds it: no result, the save still there
    table.meta["recorded"] = False
    app.storage.save_game("golf", table.state, table.meta)
    table.meta["recorded"] = True
    for key in [key for key in app.backend.items if key.startswith("spieleabend.replay.")]:
        app.backend.items.pop(key)  # no replay to drop for room: the rest of storage fills it
    app.backend.quota = sum(len(key) + len(value) for key, value in app.backend.items.items())
    app.screen = types.SimpleNamespace(table=table)
    assert write_again(app, RESULTS_KEY)
    assert app.storage.results() == [] and app.storage.load_game("golf") is not None
    assert "storage full" in app.toasts
    assert not write_again(app, "spieleabend.settings"), "a refused setting is not the table's to write again"


def test_the_drawing_of_a_move_that_hands_the_turn_to_a_computer_already_says_the_screen_moves_by_itself():
    """The testers' kit audit: data-turn named a computer's seat without data-animating for a moment (the move was
    drawn before the computer's timer was set), so a script waiting for a settled screen read one mid-sequence."""
    from spieleabend.ui.table import LocalTable, page_marks, solo_players
    from tests.fake_app import ScreenApp

    class Shown:
        def __init__(self, table):
            self.table = table

    app = ScreenApp(seed=2)
    table = LocalTable.new(app, "maumau", {"seats": 3}, solo_players("Ich", 3, "mittel"))
    app.run_timers()
    assert table.engine.to_move(table.state) == [0] and not page_marks(Shown(table))["animating"]
    drawn = []
    table.listen(lambda _event: drawn.append(page_marks(Shown(table))))
    while table.engine.to_move(table.state) == [0]:  # a drawn card may keep the turn here
        table.act(table.view()["legal"][0])
    handed = [marks for marks in drawn if marks["turn"] == "1"]
    assert handed and all(marks["animating"] for marks in handed), drawn
    app.run_timers()
    assert not page_marks(Shown(table))["animating"] or table.over()

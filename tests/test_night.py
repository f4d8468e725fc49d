"""The game night across games: points for unique wins, shared and undecided games, one row per name."""

from spieleabend.storage import evening_table, verdict


def result(game, players, winners, at, night="n1"):
    return {"game": game, "players": players, "winners": winners, "finished_at": at, "night": night,
            "scores": [0] * len(players)}


EVENING = [
    result("punktejagd", ["Ada", "Anna", "Ben"], ["Ada"], 1),
    result("kartenkampf", ["ada", "Bo", "Anna"], [], 2),           # undecided: nobody gets anything
    result("maumau", ["Bo", "Ada "], ["Bo"], 3),
    result("golf", ["Ada", "Bo"], ["Ada", "Bo"], 4),               # shared: won, but no point
    result("punktejagd", ["Ada", "Anna"], ["Anna"], 5),
    result("punktejagd", ["Ada"], ["Ada"], 6, night="n0"),         # another evening
]


def rows_by_name(table):
    return {row["name"]: row for row in table["rows"]}


def test_unique_wins_give_one_point_shared_and_undecided_none():
    table = evening_table(EVENING, "n1")
    rows = rows_by_name(table)
    assert rows["Ada"]["points"] == 1 and rows["Ada"]["wins"] == 2 and rows["Ada"]["games"] == 5
    assert rows["Bo"]["points"] == 1 and rows["Bo"]["wins"] == 2 and rows["Bo"]["games"] == 3
    assert rows["Anna"]["points"] == 1 and rows["Anna"]["wins"] == 1 and rows["Anna"]["games"] == 3
    assert rows["Ben"]["points"] == 0 and rows["Ben"]["games"] == 1
    assert sum(row["points"] for row in table["rows"]) == 3, "five games, three unique winners"
    assert [g["verdict"] for g in table["games"]] == ["win", "none", "win", "shared", "win"]


def test_the_same_name_across_games_is_one_row():
    table = evening_table(EVENING, "n1")
    names = [row["name"] for row in table["rows"]]
    assert len([n for n in names if n.lower() == "ada"]) == 1
    assert len(names) == 4


def test_points_per_game_and_in_total():
    rows = rows_by_name(evening_table(EVENING, "n1"))
    assert rows["Ada"]["per_game"]["punktejagd"] == {"points": 1, "games": 2, "wins": 1}
    assert rows["Ada"]["per_game"]["golf"] == {"points": 0, "games": 1, "wins": 1}
    assert rows["Bo"]["per_game"]["maumau"] == {"points": 1, "games": 1, "wins": 1}
    assert "golf" not in rows["Anna"]["per_game"]
    for row in rows.values():
        assert row["points"] == sum(g["points"] for g in row["per_game"].values())
        assert row["games"] == sum(g["games"] for g in row["per_game"].values())


def test_order_points_then_wins_then_games_then_first_seen():
    table = evening_table(EVENING, "n1")
    assert [row["name"] for row in table["rows"]] == ["Ada", "Bo", "Anna", "Ben"]
    assert table["played"] == ["punktejagd", "kartenkampf", "maumau", "golf"]


def test_named_people_have_a_row_before_they_play():
    table = evening_table(EVENING, "n-empty", people=["Ada", "Cem"])
    assert [(r["name"], r["points"], r["games"]) for r in table["rows"]] == [("Ada", 0, 0), ("Cem", 0, 0)]
    assert table["games"] == []


def test_a_tie_for_first_earns_nobody_a_point():
    table = evening_table([result("kartenkampf", ["Ada", "Bo"], ["Ada", "Bo"], 1)], "n1")
    assert [r["points"] for r in table["rows"]] == [0, 0]
    assert [r["wins"] for r in table["rows"]] == [1, 1]


def test_a_computer_is_never_the_person_of_the_same_name():
    """A family plays without naming the evening: the computer "Anna" of the first game and its win are not
    the real Anna's, who plays later."""
    first = result("maumau", ["Mia", "Anna"], ["Anna"], 1)
    first["computers"] = ["Anna"]
    later = result("golf", ["Anna", "Mia", "Deniz"], ["Mia"], 2)
    later["computers"] = ["Deniz"]
    table = evening_table([first, later], "n1")
    anna = [(row["computer"], row["points"], row["games"]) for row in table["rows"] if row["name"] == "Anna"]
    assert sorted(anna) == [(False, 0, 1), (True, 1, 1)]
    assert [row["name"] for row in table["rows"] if row["computer"]] == ["Anna", "Deniz"]


def test_the_evening_marks_a_computer_in_its_tables_and_games():
    from spieleabend.ui.night import per_game_html, table_html, verdict_text

    won = result("maumau", ["Mia", "Deniz"], ["Deniz"], 1)
    won["computers"] = ["Deniz"]
    table = evening_table([won], "n1")
    html = table_html(table)
    assert 'data-player="Deniz" data-computer="true"' in html and '<span class="tag">Computer</span>' in html
    assert 'data-player="Mia" data-points' in html, "a person's row is not marked"
    assert 'data-computer="true"' in per_game_html(table)
    assert verdict_text(table["games"][0]) == "Sieg: Deniz (Computer) – 1 Punkt"


def test_verdict_names_the_three_cases():
    assert verdict({"winners": ["A"]}) == "win"
    assert verdict({"winners": ["A", "B"]}) == "shared"
    assert verdict({"winners": []}) == "none"


# -- finished games join tonight's evening; a full storage loses no game -------------------------
from spieleabend.ui.table import COMPUTER, PERSON, LocalTable, seat_player  # noqa: E402
from tests.fake_app import FakeApp  # noqa: E402


def finish_punktejagd(app):
    table = LocalTable.new(app, "punktejagd", {"seats": 2}, [seat_player("Ich", PERSON), seat_player("Anna", COMPUTER, "random")])
    while table.outcome() is None:
        table.act("play %d" % table.view()["hand"][0])
    return table


def test_a_finished_game_counts_in_tonights_table():
    app = FakeApp()
    night = app.storage.new_night(["Ich"])
    table = finish_punktejagd(app)
    rows = {row["name"]: row for row in evening_table(app.storage.results(), night["id"], night["people"])["rows"]}
    assert rows["Ich"]["games"] == 1 and rows["Anna"]["games"] == 1
    winners = table.outcome()["winners"]
    assert sum(row["points"] for row in rows.values()) == (1 if len(winners) == 1 else 0)


def test_a_finished_game_says_which_players_were_computers():
    app = FakeApp()
    app.storage.new_night([])
    finish_punktejagd(app)
    entry = app.storage.results()[0]
    assert entry["players"] == ["Ich", "Anna"] and entry["computers"] == ["Anna"]


def test_no_computer_takes_the_name_of_someone_who_played_tonight():
    """Nobody was named for the evening; Mia and Anna played Mau-Mau on one device. A later solo game's
    computers are named neither Mia nor Anna."""
    from spieleabend.ui.table import new_computer_names

    app = FakeApp()
    night = app.storage.new_night([])
    app.storage.add_result({"game": "maumau", "players": ["Mia", "anna", "Ben"], "computers": ["Ben"],
                            "winners": ["Ben"], "finished_at": 5, "night": night["id"]})
    app.storage.add_result({"game": "golf", "players": ["Clara"], "winners": [], "finished_at": 1, "night": "old"})
    names = [name.lower() for name in new_computer_names(app, ["Noah"], 3)]
    assert "mia" not in names and "anna" not in names
    assert "ben" in names and "clara" in names, "a computer's name and another evening's people stay free"


def test_a_result_without_a_night_joins_tonight():
    app = FakeApp()
    night = app.storage.night()
    app.storage.add_result({"game": "golf", "players": ["Ich"], "winners": ["Ich"], "finished_at": 3, "night": None})
    assert app.storage.results()[0]["night"] == night["id"]


def test_when_the_result_does_not_fit_the_finished_game_stays_saved():
    app = FakeApp()
    table = LocalTable.new(app, "punktejagd", {"seats": 2}, [seat_player("Ich", PERSON), seat_player("Anna", COMPUTER, "random")])
    while len(table.view()["hand"]) > 1:
        table.act("play %d" % table.view()["hand"][0])
    real_add = app.storage.add_result
    app.storage.add_result = lambda result: False  # the browser refused: quota exceeded
    table.act("play %d" % table.view()["hand"][0])
    assert table.outcome() is not None
    assert app.storage.load_game("punktejagd") is not None, "the game is not lost"
    assert app.storage.results() == []
    assert app.toasts, "the person is told"
    app.storage.add_result = real_add


# -- what a received game must be before it is stored -----------------------------------------------
import json  # noqa: E402

import pytest  # noqa: E402

from spieleabend.storage import ImportProblem  # noqa: E402
from spieleabend.ui.transfer import check_game, clean_code, receive  # noqa: E402


def exported(app):
    LocalTable.new(app, "punktejagd", {"seats": 3}, [seat_player("Ich", PERSON)] + [
        seat_player(n, COMPUTER, "random") for n in ("Anna", "Ben")]).act("play 4")
    return app.storage.export_game("punktejagd")


def test_a_received_game_is_checked_by_its_engine():
    app = FakeApp()
    document = exported(app)
    assert receive(app.storage, json.dumps(document))["state"] == document["state"]
    for broken in ({"names": ["x"]}, {}, dict(document["state"], hands="nope")):
        with pytest.raises(ImportProblem) as problem:
            check_game(dict(document, state=broken))
        assert problem.value.reason == "damaged"
    for meta in (dict(document["meta"], seat=7), dict(document["meta"], bot_rng=[1, 2]),
                 dict(document["meta"], players="Ich")):
        with pytest.raises(ImportProblem):
            check_game(dict(document, meta=meta))


def test_a_received_game_its_table_cannot_draw_is_refused_and_the_save_here_stays():
    from spieleabend.ui.table import solo_players
    from spieleabend.ui.i18n import t
    from spieleabend.ui.transfer import OpenScreen
    from tests.fake_app import ScreenApp

    sender, here = ScreenApp(seed=3), ScreenApp(seed=4)
    LocalTable.new(sender, "maumau", {"seats": 3}, solo_players("Anna", 3, "stark"))
    LocalTable.new(here, "maumau", {"seats": 3}, solo_players("Ben", 3, "stark"))
    kept = here.backend.getItem("spieleabend.save.maumau")
    document = sender.storage.export_game("maumau")
    document["state"]["hands"][0][0] = "ZZ"  # the engine lists it, no table can draw it
    screen = OpenScreen()
    screen.take(here, json.dumps(document))
    assert screen.problem == t("tr.problem.damaged") and screen.pending is None
    assert here.backend.getItem("spieleabend.save.maumau") == kept and here.route is None


def test_keeping_mine_after_a_code_says_the_received_game_is_dropped_and_clears_the_used_code():
    """An audit: "Behalten" used the code up without a word; "Spiel holen" again said the code did not exist,
    and the question named the round of the game here only."""
    from spieleabend.ui.table import solo_players
    from spieleabend.ui.transfer import OpenScreen
    from tests.fake_app import ScreenApp

    sender, here = ScreenApp(seed=3), ScreenApp(seed=4)
    LocalTable.new(sender, "maumau", {"seats": 3}, solo_players("Anna", 3, "stark"))
    LocalTable.new(here, "maumau", {"seats": 3}, solo_players("Ben", 3, "stark"))
    kept = here.backend.getItem("spieleabend.save.maumau")
    document = sender.storage.export_game("maumau")
    document["meta"]["round"] = 5
    screen = OpenScreen("ABCD2345")
    here.screen = screen
    screen.got(here, 200, json.dumps({"found": True, "file": document}))
    html = screen.render(here)
    assert "(Runde 1). Soll die übertragene (Runde 5) sie ersetzen?" in html
    assert "Der Code ist eingelöst" in html
    screen.handle(here, "keep", None)
    assert here.toasts[-1] == "Deine Partie bleibt; die übertragene ist verworfen."
    assert screen.code == "" and 'value=""' in screen.render(here)
    assert here.backend.getItem("spieleabend.save.maumau") == kept
    screen.take(here, json.dumps(document))  # from a file: the file is still there, nothing about a code
    assert "Der Code ist eingelöst" not in screen.render(here)
    screen.handle(here, "keep", None)
    assert here.toasts[-1] == "Nichts geändert: deine Partie bleibt."


def code_shown(asked):
    """Return (app, its transfer screen) of a saved Mau-Mau whose code ABCD2345 the server just gave (600 s);
    the screen's requests to the server go to the list `asked` as (method, url, on_done)."""
    from spieleabend.ui.table import solo_players
    from spieleabend.ui.transfer import TransferScreen
    from tests.fake_app import ScreenApp

    app = ScreenApp(seed=3)
    LocalTable.new(app, "maumau", {"seats": 3}, solo_players("Anna", 3, "stark"))
    screen = TransferScreen("maumau")
    screen.shareable = False
    app.screen = screen
    app.request = lambda method, url, body, on_done: asked.append((method, url, on_done))
    screen.state = "waiting"  # as after "Code erzeugen"; the server answers:
    screen.got_code(app, 201, json.dumps({"code": "ABCD2345", "expires_in": 600}))
    return app, screen


def test_a_code_on_the_screen_counts_down_and_says_when_it_has_expired():
    """An audit: a code screen left open showed a dead code as if it still worked."""
    app, screen = code_shown([])
    html = screen.render(app)
    assert 'data-code="ABCD2345"' in html
    assert 'data-countdown="%d" data-clock>10:00</span> Minuten' % (app.now() + 600000) in html
    app.run_timers()  # ten minutes on
    html = screen.render(app)
    assert 'data-testid="transfer-expired"' in html and "abgelaufen" in html and "ABCD" not in html
    assert 'data-testid="transfer-make-code"' in html, "a new code is one tap away"


def test_once_the_other_device_has_fetched_the_game_this_one_offers_to_delete_its_copy():
    """An audit: after a move both devices kept the game, and both counted it in their evenings when finished."""
    from spieleabend.ui.table import solo_players
    from spieleabend.ui.transfer import TransferScreen

    asked = []
    app, screen = code_shown(asked)

    def fire_ask():
        """Fire the pending "was it fetched?" timer (not the expiry one) and return the request it made."""
        ask = [timer for timer, (ms, _h) in app.timers.items() if ms == 4000]
        assert len(ask) == 1
        app.timers.pop(ask[0])[1]()
        return asked.pop()

    method, url, answer = fire_ask()
    assert (method, url) == ("GET", "/api/transfer/ABCD2345/state")
    answer(200, json.dumps({"state": "live"}))
    answer = fire_ask()[2]
    answer(0, "")  # offline a moment: asked again later, nothing said
    answer = fire_ask()[2]
    answer(200, json.dumps({"state": "taken"}))
    html = screen.render(app)
    assert 'data-testid="transfer-taken"' in html and "übernommen" in html and "ABCD" not in html
    assert app.focus_requests[-1] == '[data-testid="transfer-keep-here"]', "the safe answer first"
    assert not [ms for ms, _h in app.timers.values() if ms == 4000], "no more asking"
    screen.handle(app, "delete-here", None)
    assert app.backend.getItem("spieleabend.save.maumau") is None
    assert app.toasts[-1].startswith("Hier gelöscht")

    LocalTable.new(app, "maumau", {"seats": 3}, solo_players("Anna", 3, "stark"))
    screen = TransferScreen("maumau")
    screen.shareable = False
    app.screen = screen
    screen.state = "taken"
    screen.handle(app, "keep-here", None)
    assert app.backend.getItem("spieleabend.save.maumau") is not None, "kept on request"


def test_typed_codes():
    assert clean_code("abcd 2345") == "ABCD2345"
    assert clean_code("ABCD-2345") == "ABCD2345"
    assert clean_code("ABCD 0000") == "" and clean_code("ABC") == ""


# -- charts as SVG text ---------------------------------------------------------------------------
from spieleabend.ui.charts import score_chart, standings_chart, ticks  # noqa: E402


def test_score_chart_draws_one_line_per_player_with_a_text_alternative():
    html = score_chart(["Ada", "Bo"], [[0, 0], [5, -3], [9, -8]])
    assert html.count("<polyline") == 2
    assert 'role="img"' in html and "Ada 9" in html and "Bo \u22128" in html
    assert html.count("<tr>") == 4, "header and three rows in the table alternative"
    assert 'data-testid="score-chart"' in html
    assert '<th scope="col">Runde</th>' in html
    __import__("spieleabend.ui.golf")  # the game's word for a round comes with its module
    assert '<th scope="col">Durchgang</th>' in score_chart(["Ada", "Bo"], [[0, 0], [5, 3]], game="golf")
    # Mau-Mau's minus points go down and read as its table writes them (an audit found "+52" in the chart).
    minus = score_chart(["Ada", "Bo"], [[0, 0], [21, 0], [52, 13]], game="maumau")
    assert "Am Ende: Ada \u221252, Bo \u221213" in minus and "<td>\u221252</td>" in minus
    assert "<strong>\u221252</strong>" in minus


def test_score_chart_without_history_says_so():
    assert "<svg" not in score_chart(["Ada"], [[0]])
    assert "<svg" not in score_chart(["Ada", "Bo"], [[0, 0], [1]])


def test_ticks_cover_the_range_in_round_steps():
    assert ticks(0, 39) == [0, 10, 20, 30, 40]
    assert ticks(-8, 9) == [-10, -5, 0, 5, 10]
    assert ticks(0, 0) == [0, 1]


def test_standings_bars_carry_each_persons_points():
    html = standings_chart([{"name": "Ada", "points": 2}, {"name": "Bo", "points": 0}])
    assert 'data-player="Ada" data-points="2"' in html and 'data-player="Bo" data-points="0"' in html
    assert "Ada 2, Bo 0" in html


def test_people_are_taken_from_the_room_this_device_hosts():
    from spieleabend.ui.night import room_people

    app = FakeApp()
    assert room_people(app.storage) == []
    players = [{"name": "Host", "kind": "person"}, {"name": "Mia", "kind": "remote"},
               {"name": "Jo", "kind": "remote", "stand_in": True}, {"name": "Anna", "kind": "computer"}]
    app.storage.save_game("punktejagd", {"names": ["Host", "Mia", "Jo", "Anna"]},
                          {"players": players, "seat": 0, "room": {"code": "ABCD"}})
    assert room_people(app.storage) == ["Host", "Mia", "Jo"], "people in the room (also one away), not computers"


def test_past_nights_include_evenings_known_only_from_results():
    from spieleabend.ui.results import filtered, past_nights

    results = [{"game": "golf", "night": "old", "finished_at": 50}, {"game": "maumau", "night": "now", "finished_at": 90},
               {"game": "golf", "night": "older", "finished_at": 10}, {"game": "golf", "night": None, "finished_at": 5}]
    nights = {"current": {"id": "now", "started_at": 80, "people": []},
              "past": [{"id": "old", "started_at": 40, "people": ["Ada"]}]}
    assert [n["id"] for n in past_nights(nights, results, "now")] == ["old", "older"]
    assert past_nights(nights, results, "now")[1]["started_at"] == 10
    assert [r["game"] for r in filtered(results, "golf")] == ["golf", "golf", "golf"]
    assert filtered(results, "") == results


def test_a_room_game_is_not_moved():
    app = FakeApp()
    document = exported(app)
    document["meta"]["room"] = {"code": "ABCD", "token": "secret"}
    with pytest.raises(ImportProblem) as problem:
        receive(app.storage, json.dumps(document))
    assert problem.value.reason == "room"


# -- in a room: the host sends tonight's table with the lobby; phones and screens show it ------------
def test_the_lobby_message_carries_tonights_table_and_guests_show_it_safely():
    from spieleabend.ui.night import room_night_html
    from spieleabend.ui.rooms import HostRoom

    app = FakeApp()
    night = app.storage.new_night(["Host", "Mia"])
    app.storage.add_result({"game": "golf", "players": ["Host", "Mia"], "winners": ["Mia"], "finished_at": 5,
                            "night": night["id"]})
    message = HostRoom(app, "punktejagd").lobby_message()
    assert message["night"] == [
        {"name": "Mia", "computer": False, "points": 1, "games": 1, "wins": 1,
         "per_game": {"golf": {"points": 1, "games": 1, "wins": 1}}},
        {"name": "Host", "computer": False, "points": 0, "games": 1, "wins": 0,
         "per_game": {"golf": {"points": 0, "games": 1, "wins": 0}}}]
    html = room_night_html(message["night"])
    assert 'data-testid="room-night-table"' in html and 'data-player="Mia" data-points="1"' in html
    assert 'data-testid="room-night-chart"' in html  # the bar chart of points, as in Ergebnisse
    assert '<tr data-player="Mia"><th scope="row">Mia</th><td data-game="golf">1 / 1</td></tr>' in html
    hostile = [{"name": "<b>x</b>", "points": 1, "games": 1, "wins": 1}, {"name": "y", "points": "9"}, "z"]
    html = room_night_html(hostile)
    assert "<b>x</b>" not in html and 'data-player="y"' not in html
    odd = [{"name": "z", "points": 0, "games": 1, "wins": 0, "per_game": {"golf": {"points": "1"}, "chess": {}}}]
    assert 'data-game=' not in room_night_html(odd), "a cell of the wrong shape or an unknown game is left out"
    assert room_night_html([]) == "" and room_night_html(None) == ""


def test_results_or_an_evening_that_cannot_be_read_are_said_on_the_screen_that_read_them():
    from spieleabend.ui.night import NightScreen
    from spieleabend.ui.results import ResultsScreen
    from tests.fake_app import ScreenApp

    for key, screen, words in (("spieleabend.results", ResultsScreen(), "Deine Ergebnisse konnten nicht gelesen werden."),
                               ("spieleabend.night", NightScreen(), "Der Stand des Spieleabends konnte nicht gelesen werden.")):
        app = ScreenApp()
        app.format_time = str  # the browser's clock words are not what is checked here
        app.backend.setItem(key, '{"format": 1, "resu')
        html = screen.render(app)
        assert 'data-testid="damaged-notice"' in html and words in html, key
        assert app.storage.damaged_keys(), "kept aside, not deleted"


def test_results_write_scores_as_each_games_table_does():
    from spieleabend.games import score_text

    assert [score_text("maumau", n) for n in (64, 0)] == ["−64", "0"], "minus points, as the table writes them"
    assert [score_text("paodekuai", n) for n in (25, -22, 0)] == ["+25", "−22", "0"]
    assert score_text("golf", 17) == "17" and score_text("punktejagd", 40) == "40"


def test_a_game_this_release_does_not_know_is_named_by_its_key_not_a_text_key():
    """A result or replay written by a newer release (a sixth game) on a device that is not updated yet."""
    from spieleabend.ui import i18n
    from spieleabend.ui.night import per_game_html

    i18n.set_language("de")
    table = evening_table([result("skat", ["Mia", "Ben"], ["Mia"], 1), result("golf", ["Mia", "Ben"], ["Ben"], 2)],
                          "n1")
    html = per_game_html(table)
    assert ">Skat<" in html and ">Golf<" in html and "game.skat" not in html
    assert i18n.game_name("maumau") == "Mau-Mau"


def test_an_evening_whose_games_dropped_out_of_ergebnisse_says_so_and_the_past_list_shows_more():
    """Ergebnisse keeps the last 200 games and 100 evenings: an old evening says its games are gone instead of
    shrinking without a word, a past evening without a game says it in the past, and every evening is listed."""
    from spieleabend.storage import MAX_RESULTS
    from spieleabend.ui.night import PastNightScreen
    from spieleabend.ui.results import PAST_SHOWN, ResultsScreen
    from tests.fake_app import ScreenApp

    app = ScreenApp()
    app.format_time = str
    storage = app.storage
    for number in range(PAST_SHOWN + 5):  # evenings of three games each, one every ten minutes
        app.clock.now += 600000
        night = storage.new_night(["Ada"])
        for game in range(3):
            app.clock.now += 1000
            storage.add_result({"game": "golf", "players": ["Ada", "Bo"], "winners": ["Ada"], "scores": [1, 2],
                                "finished_at": app.clock.now, "night": night["id"]})
    app.clock.now += 600000
    storage.new_night(["Ada"])
    app.clock.now += 600000
    storage.new_night(["Ada"])  # the evening before had no game at all: it is no earlier evening
    assert len(storage.nights()["past"]) == PAST_SHOWN + 5
    storage.save_game("golf", {"round": 1}, {"night": storage.night()["id"]})  # a game begun, never finished
    app.clock.now += 600000
    storage.new_night(["Ada"])  # that evening is kept: its game may still finish and count there
    past = storage.nights()["past"]
    assert len(past) == PAST_SHOWN + 6 and len(storage.results()) == 3 * (PAST_SHOWN + 5) < MAX_RESULTS
    empty = PastNightScreen(past[0]["id"]).render(app)
    assert "An diesem Abend wurde keine Partie beendet." in empty and "Noch keine Partie" not in empty
    for number in range(MAX_RESULTS):  # the oldest evenings' games drop out
        storage.add_result({"game": "golf", "players": ["Ada"], "winners": ["Ada"], "scores": [1],
                            "finished_at": app.clock.now + number, "night": past[0]["id"]})
    oldest = PastNightScreen(past[-1]["id"]).render(app)
    assert 'data-testid="night-games-gone"' in oldest and "die letzten 200 Partien" in oldest
    screen = app.screen = ResultsScreen()
    html = screen.render(app)
    assert html.count('data-testid="past-night"') == PAST_SHOWN and 'data-testid="past-more"' in html
    screen.handle(app, "more-past", None)
    assert app.html.count('data-testid="past-night"') == len(past) and 'data-testid="past-more"' not in app.html
    assert app.focus_requests[-1] == "ul.past-nights > li:nth-child(%d) .past-toggle" % (PAST_SHOWN + 1)

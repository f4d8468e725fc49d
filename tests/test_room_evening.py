"""One room for the whole evening (issue 30), the host's side in CPython against the real relay.

A host, two phones and a table screen play a Kartenkampf, then a Golf and a Pao De Kuai in the same
room without joining again; a latecomer joins between games, one person watches the game of three,
a phone reloads during the switch. The tables are those of tests/test_room_tables.py.
"""

import json

import pytest

from spieleabend.games import load_bots, strength_choice
from spieleabend.games.common import Rng
from spieleabend.testing.frames import check_frames, games_played
from spieleabend.ui import room_screens
from spieleabend.ui.night import night_summary
from spieleabend.ui.rooms import HostRoom, RemoteTable, ScreenTable
from tests.relay_fixtures import relay_server, relay_servers, shared_relay_server  # noqa: F401  (fixtures)
from tests.room_harness import FakeApp, Loop


@pytest.fixture
def loop():
    return Loop()


def open_room(loop, relay_server, game):
    app = FakeApp(loop, relay_server.url)
    app.screen = None  # no page draws here
    room = HostRoom(app, game)
    room.start()
    loop.pump(lambda: room.code() is not None)
    return app, room


def join(loop, relay_server, room, name, role="seat"):
    app = FakeApp(loop, relay_server.url)
    table = (ScreenTable if role == "screen" else RemoteTable)(app, {"role": role, "code": room.code(), "name": name,
                                                                     "secret": room.doc["secret"]})
    table.start()
    loop.pump(lambda: table.link.state == "online")
    return app, table


def phone_ready(phone):
    """Return True when a phone's seat has something to do now, as its last view says."""
    view = phone.view()
    return phone.seat is not None and view is not None and bool(view.get("legal")) and phone.seat in phone.to_move()


def play_out(loop, table, phones, limit=4000):
    """Play a room game to its end: the host's person and each phone choose as the game's computer would."""
    choose = strength_choice(load_bots(table.game), None)
    rng = Rng(11)
    for _ in range(limit):
        loop.pump(lambda: table.outcome() is not None or (table.seat is not None and table.seat in table.to_move())
                  or any(phone_ready(phone) for phone in phones), timeout=20)
        if table.outcome() is not None:
            loop.pump(lambda: all(phone.over() for phone in phones))
            return
        if table.seat is not None and table.seat in table.to_move():
            table.act(choose(table.view(), rng))
            continue
        for phone in phones:
            if phone_ready(phone):
                before = json.dumps(phone.message)
                phone.act(choose(phone.view(), rng))
                loop.pump(lambda: json.dumps(phone.message) != before or phone.notice is not None)
    raise AssertionError("the game did not end")


def table_messages(app):
    """Return the table messages the host sent this device, in order."""
    out = []
    for text in app.frames:
        frame = json.loads(text)
        if frame.get("type") == "msg" and isinstance(frame.get("data"), dict) and frame["data"].get("k") == "table":
            out.append(frame["data"])
    return out


def rows_by_name(rows):
    return dict((row["name"], (row["points"], row["games"], row["wins"])) for row in rows)


def test_a_whole_evening_in_one_room(loop, relay_server):
    host_app, room = open_room(loop, relay_server, "kartenkampf")
    anna_app, anna = join(loop, relay_server, room, "Anna")
    ben_app, ben = join(loop, relay_server, room, "Ben")
    tv_app, tv = join(loop, relay_server, room, "TV", role="screen")
    loop.pump(lambda: len(room.seat_places()) == 2 and len(room.screens) == 1 and tv.lobby is not None)
    tokens = (anna.doc["token"], ben.doc["token"], tv.doc["token"])
    # The screen shows how to join: the code, the PIN and the link (for its QR code) come with the lobby,
    # the link once the server said its address (the host's lobby screen asks it).
    room.base = host_app.page_origin()
    room.send_lobby()
    loop.pump(lambda: tv.lobby["invite"]["code"] == room.code() and tv.lobby["invite"]["url"] is not None)
    assert tv.lobby["invite"]["pin"] == room.doc["pin"] and room.doc["secret"] in tv.lobby["invite"]["url"]

    # 1. Kartenkampf with the host, Anna, Ben and a computer.
    table = room.start_game({}, 4, "random", True, "Hosti")
    play_out(loop, table, [anna, ben])
    assert table.names() == ["Hosti", "Anna", "Ben", "Clara"]

    # 2. Back to the lobby; Carl joins between games with the same link; the host chooses Golf.
    last = room.back_to_lobby()
    assert last["seats"] == 4 and last["host_plays"] is True
    loop.pump(lambda: anna.message is None and anna.lobby["game"] == "kartenkampf")
    carl_app, carl = join(loop, relay_server, room, "Carl")
    room.choose_game("golf")
    loop.pump(lambda: all(t.lobby is not None and t.lobby["game"] == "golf" and len(t.lobby["places"]) == 3
                          for t in (anna, ben, carl, tv)))
    assert [p["name"] for p in carl.lobby["places"]] == ["Anna", "Ben", "Carl"]
    assert host_app.storage.load_room()["game"] == "golf", "a reload between games comes back to Golf"
    table = room.start_game({}, 4, "random", True, "Hosti")
    loop.pump(lambda: all(t.message is not None and t.game == "golf" for t in (anna, ben, carl, tv)))
    assert (anna.seat, ben.seat, carl.seat, tv.seat) == (1, 2, 3, None)
    assert (anna.doc["token"], ben.doc["token"], tv.doc["token"]) == tokens, "nobody joined again"
    play_out(loop, table, [anna, ben, carl])

    # 3. Pao De Kuai is for exactly three: four people are one too many until Ben watches.
    room.back_to_lobby()
    room.choose_game("paodekuai")
    host_app.screen = None
    lobby = room_screens.LobbyScreen(host_app, room)
    assert lobby.too_many() == 1 and "Eine Person zu viel" in lobby.render(host_app)
    with pytest.raises(ValueError):
        room.start_game({}, 3, "random", True, "Hosti")
    room.set_watching(ben.link.welcome["seat"], True)
    assert lobby.too_many() == 0 and lobby.seat_count == 3
    loop.pump(lambda: [p["watching"] for p in anna.lobby["places"]] == [False, True, False])
    # Anna's phone reloads during the switch: it takes its place back with its token.
    anna.disconnect()
    anna = RemoteTable(anna_app, anna_app.storage.load_room())
    anna.start()
    table = room.start_game({}, 3, "random", True, "Hosti")
    loop.pump(lambda: all(t.message is not None and t.game == "paodekuai" for t in (anna, ben, carl, tv)))
    assert table.names() == ["Hosti", "Anna", "Carl"] and (anna.seat, carl.seat) == (1, 2)
    assert ben.seat is None and ben.watching() == "game", "Ben watches this game and plays the next"
    play_out(loop, table, [anna, carl])
    loop.pump(lambda: ben.over())

    # Every frame each phone and the screen received, game by game: nothing its seat may not see; Ben's
    # phone got the public view only while he watched.
    for app, name, seats in ((anna_app, "anna", [1, 1, 1]), (ben_app, "ben", [2, 2, None]),
                             (carl_app, "carl", [3, 2]), (tv_app, "tv", [None, None, None])):
        parts = games_played(app.frames)
        games = ["kartenkampf", "golf", "paodekuai"][-len(seats):]
        assert [(game, seat) for game, seat, _ in parts] == list(zip(games, seats)), name
        for game, seat, frames in parts:
            assert check_frames(game, frames, seat, name)
    watched = [m for m in table_messages(ben_app) if m["game"] == "paodekuai"]
    assert watched and all(m["seat"] is None and m["watch"] == "game" for m in watched)

    # The evening's table is the host's, sent with the lobby to every phone and the screen.
    room.back_to_lobby()
    loop.pump(lambda: all(t.lobby is not None and t.message is None for t in (anna, ben, carl, tv)))
    rows = rows_by_name(night_summary(host_app.storage))
    assert [rows[name][1] for name in ("Hosti", "Anna", "Ben", "Carl")] == [3, 3, 2, 2]
    assert sum(points for points, games, wins in rows.values()) <= 3
    for device in (anna, ben, carl, tv):
        assert device.lobby["night"] == night_summary(host_app.storage)
    per_game = dict((row["name"], row["per_game"]) for row in night_summary(host_app.storage))
    assert sorted(per_game["Ben"]) == ["golf", "kartenkampf"] and sorted(per_game["Carl"]) == ["golf", "paodekuai"]
    # Each phone keeps the games it played in its own Ergebnisse, not the one it watched.
    assert [r["game"] for r in anna_app.storage.results()] == ["paodekuai", "golf", "kartenkampf"] or \
        sorted(r["game"] for r in anna_app.storage.results()) == ["golf", "kartenkampf", "paodekuai"]
    assert sorted(r["game"] for r in ben_app.storage.results()) == ["golf", "kartenkampf"]
    assert sorted(r["game"] for r in carl_app.storage.results()) == ["golf", "paodekuai"]


def test_the_host_reloading_after_a_finished_game_comes_back_to_the_same_rooms_lobby(loop, relay_server):
    host_app, room = open_room(loop, relay_server, "golf")
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1)
    table = room.start_game({}, 2, "random", True, "Hosti")
    play_out(loop, table, [anna])
    assert host_app.storage.load_game("golf") is None, "the finished game is recorded, its save gone"
    room.stop()  # the host's page reloads on the final standings
    screen = room_screens.host_screen(host_app, "golf")
    assert isinstance(screen, room_screens.LobbyScreen)
    loop.pump(lambda: screen.room.link.state == "online" and len(screen.room.seat_places()) == 1)
    assert screen.room.code() == room.code() and screen.room.seat_places()[0]["name"] == "Anna"
    loop.pump(lambda: anna.message is None and anna.lobby is not None, timeout=15)


def test_the_hosts_typed_name_stays_from_game_to_game_and_across_a_reload(loop, relay_server):
    """The host types "Mama" once: the next game's lobby and a reload keep it (the field came back empty
    and the next games were played as "Gastgeber", a second person on the evening's table)."""
    host_app, room = open_room(loop, relay_server, "golf")
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1)
    host_app.screen = None
    lobby = room_screens.LobbyScreen(host_app, room)
    assert lobby.host_name_value == ""
    lobby.on_input(host_app, "room-host-name", "Mama", True)
    table = room.start_game({}, 2, "random", True, room.host_name)
    play_out(loop, table, [anna])
    last = room.back_to_lobby()
    lobby = room_screens.LobbyScreen(host_app, room, last)
    assert lobby.host_name_value == "Mama"
    loop.pump(lambda: anna.lobby is not None and anna.lobby["host"]["name"] == "Mama")
    room.stop()  # the host's page reloads in the lobby
    screen = room_screens.host_screen(host_app, "golf")
    assert isinstance(screen, room_screens.LobbyScreen) and screen.host_name_value == "Mama"


def test_the_lobby_sends_the_join_link_only_with_the_servers_address(loop, relay_server):
    """Before the server said its address the link would be the page's own (a host reloaded on 127.0.0.1 sent
    http://127.0.0.1… for a moment, and a table screen's QR code could show it)."""
    host_app, room = open_room(loop, relay_server, "golf")
    assert room.lobby_message()["invite"]["url"] is None and room.lobby_message()["invite"]["code"] == room.code()
    room.base = "http://192.168.1.5:8000"
    assert room.lobby_message()["invite"]["url"] == "http://192.168.1.5:8000" + room.doc["link"]
    # A server started for this machine only: the lobby says that phones cannot join (its link was a LAN
    # address where nothing listened).
    host_app.screen = None
    lobby = room_screens.LobbyScreen(host_app, room)
    room.base, room.base_source = "http://127.0.0.1:8151", "loopback"
    assert "Handys können nicht beitreten" in lobby.render(host_app)


def test_any_games_together_button_takes_the_kept_room_and_switches_its_game(loop, relay_server):
    host_app, room = open_room(loop, relay_server, "punktejagd")
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1)
    room.stop()  # the host went home and chose Mau-Mau there
    host_app.room_request = {"game": "maumau", "options": {}, "seats": 3, "strength": None}
    screen = room_screens.host_screen(host_app, "maumau")
    loop.pump(lambda: screen.room.link.state == "online" and anna.lobby is not None and anna.lobby["game"] == "maumau")
    assert screen.room.code() == room.code() and screen.game == "maumau" and screen.seat_count == 3


def test_the_lobby_says_how_many_computers_fill_in_both_languages(loop, relay_server):
    from spieleabend.ui.i18n import set_language

    host_app, room = open_room(loop, relay_server, "golf")
    join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1)
    lobby = room_screens.LobbyScreen(host_app, room, {"seats": 3})
    try:
        assert lobby.fill_text() == "2 Personen, 1 Computer füllt den freien Platz"
        set_language("en")
        assert lobby.fill_text() == "2 people, 1 computer fills the free seat"
        lobby.choices["seats"] = 2
        assert lobby.fill_text() == "2 people, no computer"
        lobby.host_plays = False
        assert lobby.fill_text() == "1 person, 1 computer fills the free seat", "at least two seats: one computer"
    finally:
        set_language("de")


def test_only_a_table_screen_is_drawn_for_reading_from_afar(loop, relay_server):
    host_app, room = open_room(loop, relay_server, "golf")
    anna_app, anna = join(loop, relay_server, room, "Anna")
    tv_app, tv = join(loop, relay_server, room, "TV", role="screen")
    loop.pump(lambda: len(room.seat_places()) == 1)
    table = room.start_game({}, 2, "random", True, "Hosti")
    assert (tv.reads_from_afar(), anna.reads_from_afar(), table.reads_from_afar()) == (True, False, False)


def test_a_phone_away_at_the_next_games_start_is_covered_by_a_computer(loop, relay_server):
    host_app = FakeApp(loop, relay_server.url, stand_in_ms=500)
    host_app.screen = None
    room = HostRoom(host_app, "punktejagd")
    room.start()
    loop.pump(lambda: room.code() is not None)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    ben_app, ben = join(loop, relay_server, room, "Ben")
    loop.pump(lambda: len(room.seat_places()) == 2)
    room.start_game({}, 3, "random", True, "Hosti")
    loop.pump(lambda: ben.message is not None)
    room.back_to_lobby()  # stopped for another game
    loop.pump(lambda: ben.message is None and ben.lobby is not None)
    ben.disconnect()  # Ben's phone is away as the host starts Golf
    loop.pump(lambda: not room.places[2]["online"])
    room.choose_game("golf")
    table = room.start_game({}, 3, "random", True, "Hosti")
    assert table.names() == ["Hosti", "Anna", "Ben"] and table.seats()[2]["away"]
    loop.advance(600)
    loop.pump(lambda: table.players()[2].get("stand_in"))
    loop.pump(lambda: anna.message is not None and anna.seats()[2]["stand_in"])  # every device shows it


def join_screen(loop, relay_server, room, secret=None):
    """Open the room's join link on a new phone; return its app and join screen once the relay answered."""
    app = FakeApp(loop, relay_server.url)
    screen = room_screens.JoinScreen(room.code(), secret or room.doc["secret"])
    app.screen = screen
    app.redraws = []
    app.rerender = lambda: app.redraws.append(screen.render(app))
    screen.render(app)
    loop.pump(lambda: screen.looked is not None)
    return app, screen


def test_the_join_link_says_what_the_room_plays_now_also_after_the_host_changed_it(loop, relay_server):
    from spieleabend.ui.i18n import set_language

    host_app, room = open_room(loop, relay_server, "kartenkampf")
    loop.pump()  # the host's "about" reached the relay
    phone_app, screen = join_screen(loop, relay_server, room)
    assert 'data-game="kartenkampf"' in phone_app.redraws[-1] and "Als Nächstes: Kartenkampf" in phone_app.redraws[-1]
    # The link went out with Kartenkampf; the host chose Golf since: the same link now says Golf.
    room.choose_game("golf")
    loop.pump()
    phone_app, screen = join_screen(loop, relay_server, room)
    assert "Als Nächstes: Golf" in screen.render(phone_app) and "Kartenkampf" not in screen.render(phone_app)
    join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1)
    room.start_game({}, 2, "random", True, "Hosti")
    loop.pump()
    phone_app, screen = join_screen(loop, relay_server, room)
    html = screen.render(phone_app)
    assert 'data-running="yes"' in html and "Gerade läuft: Golf" in html and "ab der nächsten Partie" in html
    try:
        set_language("en")
        assert "Now playing: Golf" in screen.render(phone_app) and "from the next game" in screen.render(phone_app)
    finally:
        set_language("de")
    room.back_to_lobby()
    room.choose_game("maumau")
    room.start_game({}, 3, "random", True, "Hosti")
    loop.pump()
    phone_app, screen = join_screen(loop, relay_server, room)
    assert "Gerade läuft: Mau-Mau" in screen.render(phone_app) and "ab der nächsten Runde" in screen.render(phone_app)


def test_the_join_link_keeps_the_typed_name_and_says_at_once_when_it_cannot_join(loop, relay_server):
    host_app, room = open_room(loop, relay_server, "golf")
    loop.pump()  # the host's "about" reached the relay
    app = FakeApp(loop, relay_server.url)
    screen = room_screens.JoinScreen(room.code(), room.doc["secret"])
    app.screen = screen
    app.rerender = lambda: None
    screen.render(app)
    screen.on_input(app, "join-name", "Anna", False)  # typed while the relay's answer is on its way
    loop.pump(lambda: screen.looked is not None)
    assert 'value="Anna"' in screen.render(app) and "Als Nächstes: Golf" in screen.render(app)
    room.set_joining(False)
    loop.pump(lambda: not room.joining)
    _, screen = join_screen(loop, relay_server, room)
    assert "Der Gastgeber hat den Beitritt geschlossen." in screen.render(app)
    _, wrong = join_screen(loop, relay_server, room, secret="x" + room.doc["secret"])
    assert 'data-testid="join-link-error"' in wrong.render(app) and "ungültiger Link" in wrong.render(app)
    room.end()
    loop.pump(lambda: relay_server.relay.room_count() == 0)
    _, gone = join_screen(loop, relay_server, room)
    assert "Diesen Raum gibt es nicht (mehr)" in gone.render(app)


@pytest.mark.parametrize("code, pin, said", [
    ("", "1234", "Bitte Code und PIN eingeben."),
    ("K7M.2Q", "1234", "Der Raum-Code hat 6 Zeichen"),
    ("k7m 2qx", "12a4", "Die PIN hat 4 Ziffern."),
])
def test_a_typed_code_or_pin_that_cannot_be_one_says_which(code, pin, said):
    from tests.fake_app import ScreenApp

    app = ScreenApp()
    screen = room_screens.JoinScreen()
    app.fields = {"join-name": "Anna", "join-code": code, "join-pin": pin}
    screen.handle(app, "join-seat", None)
    assert said in screen.render(app) and app.shown is None, "nothing sent, the fields as typed"


def test_another_game_in_the_lobby_keeps_the_table_size_and_the_evening_can_end_there(loop, relay_server):
    host_app, room = open_room(loop, relay_server, "maumau")
    anna_app, anna = join(loop, relay_server, room, "Anna")
    ben_app, ben = join(loop, relay_server, room, "Ben")
    loop.pump(lambda: len(room.seat_places()) == 2)
    shown = []
    host_app.rerender = lambda: None
    host_app.show = lambda screen, route=None: shown.append(screen)
    host_app.settings["setup"] = {"golf": {"seats": 4}}  # the start screen last dealt Golf to four
    lobby = room_screens.LobbyScreen(host_app, room, {"seats": 3})
    lobby.on_input(host_app, "room-game", "golf", True)
    assert lobby.game == "golf" and lobby.seat_count == 3, "three people, no computer joins unasked"
    assert lobby.fill_text() == "3 Personen, kein Computer"
    html = lobby.render(host_app)
    assert 'data-testid="end-room"' in html
    host_app.storage.add_result({"game": "maumau", "players": ["Hosti", "Anna", "Ben"], "winners": ["Anna"],
                                 "scores": [30, 0, 12], "finished_at": 5, "night": host_app.storage.night()["id"]})
    lobby.handle(host_app, "room-end", None)
    assert not shown and "Noch einmal tippen" in lobby.render(host_app), "one tap only asks"
    lobby.handle(host_app, "room-end", None)
    assert isinstance(shown[-1], room_screens.EndedScreen)
    loop.pump(lambda: anna.link.state == "closed" and ben.link.state == "closed")
    assert anna.link.status() == ("closed", "ended") and host_app.storage.load_room() is None
    ended = shown[-1].render(host_app)
    assert 'data-testid="room-night"' in ended and 'data-player="Anna" data-points="1"' in ended, "tonight's table"
    assert 'data-testid="room-final"' not in ended, "no game was under way"

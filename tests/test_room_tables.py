"""Host, remote and screen tables in CPython against the real relay (tests/room_harness.py)."""

import json
import sys
import types

import pytest

from spieleabend.games.common import IllegalAction
from spieleabend.sha256 import commitment
from spieleabend.ui import room_screens, rooms
from spieleabend.ui.table import reveal_due, reveal_shown
from spieleabend.ui.rooms import HostRoom, RemoteTable, ScreenTable, backoff_ms, check_reveal, parse_join
from tests.relay_fixtures import relay_server, relay_servers, shared_relay_server  # noqa: F401  (fixtures)
from tests.room_harness import FakeApp, Loop

GAME = "punktejagd"


@pytest.fixture
def loop():
    return Loop()


def open_room(loop, relay_server, stand_in_ms=45000):
    app = FakeApp(loop, relay_server.url, stand_in_ms=stand_in_ms)
    room = HostRoom(app, GAME)
    room.start()
    loop.pump(lambda: room.code() is not None)
    return app, room


def join(loop, relay_server, room, name, role="seat", pin=False):
    app = FakeApp(loop, relay_server.url)
    doc = {"role": role, "code": room.code(), "name": name}
    if pin:
        doc["pin"] = room.doc["pin"]
    else:
        doc["secret"] = room.doc["secret"]
    table = (ScreenTable if role == "screen" else RemoteTable)(app, doc)
    table.start()
    loop.pump(lambda: table.link.state == "online")
    return app, table


def start_four(loop, relay_server, stand_in_ms=45000):
    """Host (seat 0), Anna and Ben on phones (seats 1, 2), one computer (seat 3), a TV."""
    host_app, room = open_room(loop, relay_server, stand_in_ms)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    ben_app, ben = join(loop, relay_server, room, "Ben", pin=True)
    tv_app, tv = join(loop, relay_server, room, "TV", role="screen")
    loop.pump(lambda: len(room.seat_places()) == 2 and len(room.screens) == 1)
    table = room.start_game({}, 4, "random", True, "Hosti")
    loop.pump(lambda: all(t.view() is not None and t.view()["committed"][3] for t in (anna, ben, tv)))
    return {"host": (host_app, room, table), "anna": (anna_app, anna), "ben": (ben_app, ben), "tv": (tv_app, tv)}


def test_link_backoff_and_join_text():
    assert [backoff_ms(n) for n in range(8)] == [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]
    assert parse_join("k7qm-2x.Z65vjw-_a") == ("K7QM2X", "Z65vjw-_a")
    assert parse_join(" k7 qm2x ") == ("K7QM2X", None)


def test_lobby_sees_places_and_phones_get_their_own_view_only(loop, relay_server):
    setup = start_four(loop, relay_server)
    host_app, room, table = setup["host"]
    anna, ben, tv = setup["anna"][1], setup["ben"][1], setup["tv"][1]
    assert room.join_url() == "http://192.0.2.7:8000/#/join/%s.%s" % (room.code(), room.doc["secret"])
    assert [p["name"] for p in table.seats()] == ["Hosti", "Anna", "Ben", "Clara"]
    assert [p["kind"] for p in table.seats()] == ["person", "remote", "remote", "computer"]
    assert (anna.seat, ben.seat, tv.seat) == (1, 2, None)
    assert anna.role == "remote" and tv.role == "screen" and table.role == "host"
    assert anna.view()["seat"] == 1 and anna.view()["hand"] == list(range(1, 11))
    assert tv.view()["seat"] is None and tv.view()["hand"] is None
    assert [s["me"] for s in anna.seats()] == [False, True, False, False]
    # The computer committed at once; the engine has no action yet.
    assert table.state["plans"] == [None] * 4
    assert anna.view()["committed"] == [False, False, False, True]
    # Joining stays open during the game: a latecomer watches it (the public view) and plays in the next one.
    late_app = FakeApp(loop, relay_server.url)
    late = RemoteTable(late_app, {"role": "seat", "code": room.code(), "secret": room.doc["secret"], "name": "Zu spät"})
    late.start()
    loop.pump(lambda: late.message is not None)
    assert late.link.state == "online" and late.watching() == "game"
    assert late.seat is None and late.view()["hand"] is None and late.view() == tv.view()
    assert [p["name"] for p in table.seats()] == ["Hosti", "Anna", "Ben", "Clara"], "nobody lost a seat"


def commit_round(loop, setup, cards):
    """Each person commits a card (host, Anna, Ben); return after the round is scored everywhere."""
    host_app, room, table = setup["host"]
    anna, ben, tv = setup["anna"][1], setup["ben"][1], setup["tv"][1]
    done = len(table.state["log"])
    table.act("play %d" % cards[0])
    anna.act("play %d" % cards[1])
    loop.pump(lambda: table.view()["committed"][1])
    assert table.state["plans"] == [None] * 4, "the engine gets no action before every seat committed"
    assert table.view()["committed"] == [True, True, False, True]
    ben.act("play %d" % cards[2])
    loop.pump(lambda: all(len(t.view()["log"]) == done + 1 for t in (anna, ben, tv)) and len(table.state["log"]) == done + 1)
    return table.state["log"][-1]


def test_commit_reveal_round_checks_every_reveal(loop, relay_server):
    setup = start_four(loop, relay_server)
    host_app, room, table = setup["host"]
    anna_app, anna = setup["anna"]
    ben_app, ben = setup["ben"]
    tv_app, tv = setup["tv"]
    entry = commit_round(loop, setup, [9, 8, 7])
    assert entry["cards"][:3] == [9, 8, 7]
    for device in (anna, ben, tv):
        assert device.mismatch == []
        assert device.last_reveal["entries"][1][1] == "play 8"
        assert device.view()["log"][-1]["cards"] == entry["cards"]
    assert anna.view()["hand"] == [1, 2, 3, 4, 5, 6, 7, 9, 10]
    # Until every seat had committed, no frame to Anna held another seat's choice.
    assert_no_early_choices(anna_app.frames, 1)
    assert_no_early_choices(ben_app.frames, 2)
    assert_no_early_choices(tv_app.frames, None)


def assert_no_early_choices(frames, my_seat):
    """Views hold only this seat's hand; a reveal comes only after a frame showed every commitment."""
    all_committed = set()
    for text in frames:
        frame = json.loads(text)
        if frame.get("type") != "msg":
            continue
        data = frame["data"]
        if data["k"] == "table":
            view = data["view"]
            assert view["seat"] == my_seat
            if my_seat is None:
                assert view["hand"] is None and view["plan"] is None
            cr = data["cr"]
            if cr["want"] == "reveal":
                all_committed.add(cr["id"])
        if data["k"] == "reveal":
            assert data["id"] in all_committed, "a reveal before every seat had committed"


def test_a_wrong_reveal_is_shown_and_not_played_and_an_illegal_one_goes_to_that_phone_only(loop, relay_server):
    setup = start_four(loop, relay_server)
    host_app, room, table = setup["host"]
    anna_app, anna = setup["anna"]
    ben_app, ben = setup["ben"]
    table.act("play 5")
    ben.act("play 4")
    # Anna's phone cheats: it commits to 3 but reveals 10.
    anna.revealed = 0  # this phone will not reveal by itself
    anna.act("play 3")
    loop.pump(lambda: anna.message["cr"]["want"] == "reveal" and table.meta["cr"]["reveals"].get("2"))
    anna.link.send({"type": "to_host", "data": {"k": "reveal", "id": 0, "action": "play 10", "nonce": "x"}})
    loop.pump(lambda: "1" in table.meta["cr"]["bad"] and ben.message["cr"]["bad"] == ["1"])
    assert table.state["log"] == [] and table.state["plans"] == [None] * 4, "a mismatch is not played"
    loop.pump(lambda: anna.notice is not None)
    assert anna.notice[0] == "mismatch" and ben.notice is None
    # The phone's own reveal still settles it.
    pending = anna.pending()
    anna.link.send({"type": "to_host", "data": {"k": "reveal", "id": 0, "action": pending["action"], "nonce": pending["nonce"]}})
    loop.pump(lambda: len(table.state["log"]) == 1 and len(ben.view()["log"]) == 1)
    assert table.state["log"][0]["cards"][:3] == [5, 3, 4]
    assert table.meta["cr"]["bad"] == []
    # Anything but the rules' actions never reaches the engine.
    with pytest.raises(IllegalAction):
        anna.act("play 3")  # played already: refused on the phone
    anna.link.send({"type": "to_host", "data": {"k": "commit", "id": 1, "hash": commitment("play 11", "n")}})
    loop.pump(lambda: table.meta["cr"]["commits"].get("1"))
    anna.revealed = 1
    ben.act("play 6")
    table.act("play 6")
    loop.pump(lambda: table.want() == "reveal" or table.meta["cr"]["reveals"].get("2"))
    anna.link.send({"type": "to_host", "data": {"k": "reveal", "id": 1, "action": "play 11", "nonce": "n"}})
    loop.pump(lambda: anna.notice is not None and anna.notice[0] == "illegal")
    assert "1" not in table.meta["cr"]["commits"], "Anna commits again"
    assert ben.notice is None
    assert len(table.state["log"]) == 1


def test_reveal_check_finds_a_changed_commitment():
    entries = [[0, "play 3", "a", commitment("play 3", "a")], [1, "play 4", "b", commitment("play 4", "b")]]
    assert check_reveal(entries, {"0": entries[0][3], "1": entries[1][3]}) == []
    assert check_reveal(entries, {"0": entries[0][3], "1": commitment("play 5", "b")}) == [1]
    entries[0][1] = "play 9"
    assert check_reveal(entries, {}) == [0]


def test_whole_game_ends_in_every_devices_results(loop, relay_server):
    setup = start_four(loop, relay_server)
    host_app, room, table = setup["host"]
    anna_app, anna = setup["anna"]
    ben_app, ben = setup["ben"]
    tv_app, tv = setup["tv"]
    for round_number in range(10):
        card = 10 - round_number
        commit_round(loop, setup, [card, card, card])
    loop.pump(lambda: anna.outcome() is not None and ben.outcome() is not None and tv.outcome() is not None)
    assert table.outcome() is not None
    for app, seat in ((host_app, 0), (anna_app, 1), (ben_app, 2)):
        results = app.storage.results()
        assert len(results) == 1, seat
        assert results[0]["players"] == ["Hosti", "Anna", "Ben", "Clara"]
        assert results[0]["seat"] == seat and results[0]["room"] == room.code()
        assert len(results[0]["history"]) == 11
    screen_result = tv_app.storage.results()[0]  # the screen keeps the game too, with no seat of its own
    assert screen_result["seat"] is None and screen_result["my_score"] is None
    room.end()
    loop.pump(lambda: anna.link.state == "closed" and tv.link.state == "closed")
    assert anna.link.reason == "ended"
    assert anna_app.storage.load_room() is None and host_app.storage.load_room() is None


def test_phone_reload_keeps_its_commitment_and_host_reload_takes_the_room_back(loop, relay_server):
    setup = start_four(loop, relay_server)
    host_app, room, table = setup["host"]
    anna_app, anna = setup["anna"]
    ben_app, ben = setup["ben"]
    anna.act("play 2")
    loop.pump(lambda: table.view()["committed"][1])
    # Anna's phone reloads: a new table from the token in its storage.
    anna.disconnect()
    doc = anna_app.storage.load_room()
    assert doc["token"] and doc["pending"]["action"] == "play 2"
    anna2 = RemoteTable(anna_app, doc)
    anna2.start()
    loop.pump(lambda: anna2.view() is not None and anna2.seat == 1)
    assert anna2.view()["pending"] == "play 2" and anna2.view()["legal"] == []
    # The host reloads: its save holds the room and the commitments so far.
    room.link.stop()
    table.close()
    document = host_app.storage.load_game(GAME)
    assert document["meta"]["room"]["token"] and "1" in document["meta"]["cr"]["commits"]
    room2 = HostRoom.resume_game(host_app, GAME, document)
    room2.start()
    loop.pump(lambda: room2.link.state == "online" and anna2.host == "online" and ben.host == "online")
    table2 = room2.table
    table2.act("play 7")
    ben.act("play 9")
    loop.pump(lambda: len(table2.state["log"]) == 1 and len(anna2.view()["log"]) == 1 and len(ben.view()["log"]) == 1)
    assert table2.state["log"][0]["cards"][:3] == [7, 2, 9]
    assert anna2.mismatch == [] and ben.mismatch == []


def test_a_seat_away_too_long_is_played_by_a_computer_and_handed_back(loop, relay_server):
    setup = start_four(loop, relay_server, stand_in_ms=45000)
    host_app, room, table = setup["host"]
    anna_app, anna = setup["anna"]
    ben_app, ben = setup["ben"]
    doc = anna_app.storage.load_room()
    anna.disconnect()
    loop.pump(lambda: table.players()[1]["away"] and ben.seats()[1]["away"])
    # Every device knows when the computer takes over, to count down to it.
    assert 44000 <= ben.seats()[1]["stand_in_in"] <= 45000
    assert abs(ben.seats()[1]["stand_in_at"] - table.seats()[1]["stand_in_at"]) < 1000
    assert "stand_in_in" not in ben.seats()[0], "only seats that are away"
    loop.advance(30000)
    loop.pump()
    assert not table.players()[1].get("stand_in"), "not before the away time"
    loop.advance(16000)
    loop.pump(lambda: table.players()[1].get("stand_in") and ben.seats()[1]["stand_in"])
    assert table.is_computer(1)
    assert table.view()["committed"][1], "the stand-in committed for Anna"
    table.act("play 1")
    ben.act("play 1")
    loop.pump(lambda: len(table.state["log"]) == 1 and len(ben.view()["log"]) == 1)
    # Anna comes back: her seat is hers again, everywhere.
    anna2 = RemoteTable(anna_app, doc)
    anna2.start()
    loop.pump(lambda: anna2.view() is not None and not table.players()[1].get("stand_in")
              and not ben.seats()[1]["stand_in"] and len(anna2.view()["log"]) == 1)
    assert not table.is_computer(1)
    assert anna2.view()["legal"], "she chooses again herself"
    # She is told what the computer played for her; nobody else is.
    loop.pump(lambda: anna2.stood_in is not None)
    played = [entry[1] for entry in ben.last_reveal["entries"] if entry[0] == 1]
    assert anna2.stood_in == played
    assert ben.stood_in is None
    # Her phone says it in words under the room bar; after a long absence the count and the last three, not every move.
    frame = room_screens.RoomFrame(anna_app, rooms.game_module(GAME).TableScreen(anna_app, anna2), anna2)
    assert "hat der Computer für dich gespielt: " in frame.render(anna_app)
    assert "stood-in-note" not in frame.bar(anna_app), "under the bar, not in it: it scrolls away"
    anna2.stood_in = played * 7
    note = frame.render(anna_app).split('data-testid="stood-in-note">', 1)[1].split("</p>", 1)[0]
    assert note.startswith("Während du weg warst, hat der Computer 7 Züge für dich gemacht, zuletzt: ")
    assert note.split("zuletzt: ")[1].count(", ") == 2, note
    anna2.stood_in = played
    assert "stand_in_in" not in ben.seats()[1]


def test_relay_errors_reach_the_table_as_codes(loop, relay_server):
    host_app, room = open_room(loop, relay_server)
    wrong = RemoteTable(FakeApp(loop, relay_server.url), {"role": "seat", "code": room.code(), "pin": "99999", "name": "X"})
    wrong.start()
    loop.pump(lambda: wrong.link.state == "closed")
    assert wrong.link.status() == ("closed", "bad_token")
    unknown = RemoteTable(FakeApp(loop, relay_server.url), {"role": "seat", "code": "ZZZZZZ", "secret": "x", "name": "X"})
    unknown.start()
    loop.pump(lambda: unknown.link.state == "closed")
    assert unknown.link.error == "unknown_room"
    # No server at all: the link keeps trying, with a growing wait, and says why.
    nowhere = HostRoom(FakeApp(loop, "ws://127.0.0.1:9/relay"), GAME)
    nowhere.start()
    loop.pump(lambda: nowhere.link.state == "retrying")
    assert nowhere.link.error == "no_server"
    first = nowhere.link.retry_at - loop.now
    loop.advance(first)
    loop.pump(lambda: nowhere.link.attempt == 2)
    assert 1500 < nowhere.link.retry_at - loop.now <= 2000 and 500 < first <= 1000
    state, text = room_screens.status_of(nowhere.link, now=loop.now)
    assert "Neuer Versuch in " in text and "Verbindung weg" not in text, "there never was a connection to lose"
    nowhere.stop()


def test_a_phone_whose_network_drops_is_told_briefly_not_that_rooms_need_the_server(loop, relay_server):
    """The long "Räume brauchen den Spieleabend-Server …" is for a device that never reached it; a phone that was
    in the room and lost its network says "Verbindung weg – neuer Versuch in … s" (the long words filled a
    quarter of its screen, over the cards)."""
    host_app, room = open_room(loop, relay_server)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    anna_app.relay_url = "ws://127.0.0.1:9/relay"  # the network is gone: no socket opens any more
    anna_app.cut_network()
    loop.pump(lambda: anna.link.state == "retrying" and anna.link.attempt >= 1 and not anna.link.opened)
    loop.advance(anna.link.retry_at - loop.now)
    loop.pump(lambda: anna.link.attempt >= 2 and anna.link.state == "retrying")
    assert anna.link.error is None
    state, text = room_screens.status_of(anna.link, now=loop.now)
    assert state == "retrying" and text.startswith("Verbindung weg – neuer Versuch in ") and "Server" not in text
    anna.disconnect()


def test_an_unnamed_host_is_host_on_an_english_phone_and_gastgeber_on_a_german_one(loop, relay_server):
    """A German host that typed no name plays as "Gastgeber"; an English phone showed that German word at the
    table, in its feed and on the evening's table. It now shows its own word; a computer keeps its name."""
    from spieleabend.ui import i18n

    host_app, room = open_room(loop, relay_server)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1)
    table = room.start_game({}, 3, "random", True, "Gastgeber")
    try:
        i18n.set_language("en")  # what the phone's frames meet from here on: an English device
        loop.pump(lambda: anna.view() is not None)
        assert anna.view()["names"][0] == "Host" and anna.seats()[0]["name"] == "Host"
        assert anna.view()["names"][1] == "Anna" and table.names()[0] == "Gastgeber"
        i18n.set_language("de")
        anna.link.send({"type": "to_host", "data": {"k": "sync"}})
        loop.pump(lambda: anna.view()["names"][0] == "Gastgeber")
    finally:
        i18n.set_language("de")


def test_removed_place_is_not_seated(loop, relay_server):
    host_app, room = open_room(loop, relay_server)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    ben_app, ben = join(loop, relay_server, room, "Berta")  # one name in a room once (test_room_names.py)
    loop.pump(lambda: len(room.seat_places()) == 2)
    room.remove_place(anna.link.welcome["seat"])
    loop.pump(lambda: anna.removed and anna.link.state == "closed")
    loop.pump(lambda: len(room.places) == 1 or len(room.seat_places()) == 1)
    table = room.start_game({}, 3, "random", False, "")
    loop.pump(lambda: ben.view() is not None)
    assert table.seat is None and ben.seat == 0
    assert [s["name"] for s in table.seats()] == ["Berta", "Anna", "Ben"]


def golf_with_anna(loop, relay_server, monkeypatch):
    """Open a Golf room, let Anna's phone join and start at two seats (the host's person first); return
    (Anna's app, her table, the host's table). Golf's screen module is stood in for (no drawing here)."""
    screen = types.ModuleType("spieleabend.ui.golf")
    screen.progress = lambda view: {"round": 1, "done": 0, "scores": [0] * len(view["names"])}
    monkeypatch.setitem(sys.modules, "spieleabend.ui.golf", screen)
    app = FakeApp(loop, relay_server.url)
    room = HostRoom(app, "golf")
    room.start()
    loop.pump(lambda: room.code() is not None)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1)
    return anna_app, anna, room.start_game({}, 2, "random", True, "Hosti")


def test_moves_one_at_a_time_go_through_the_engine_and_illegal_ones_back_to_the_phone(loop, relay_server, monkeypatch):
    """Games without secret choices: a phone's action is applied at once or answered with an error."""
    anna_app, anna, table = golf_with_anna(loop, relay_server, monkeypatch)
    loop.pump(lambda: anna.view() is not None)
    assert not anna.secret_choices()
    # Whoever is to move: play legal actions until Anna has moved once; then an illegal one.
    moved = False
    for _ in range(40):
        moving = table.engine.to_move(table.state)
        if not moving:
            break
        if moving[0] == 0:
            table.act(table.view()["legal"][0])
        else:
            loop.pump(lambda: anna.view()["legal"])
            before = len(json.dumps(table.state))
            anna.act(anna.view()["legal"][0])
            # One move at a time: a second tap before the host's answer is refused, and a slow answer is said.
            __import__("spieleabend.ui.room_screens")  # its texts (the app has them loaded)
            with pytest.raises(IllegalAction, match="schon unterwegs"):
                anna.act(anna.view()["legal"][0])
            assert not anna.move_slow(anna_app.now()) and anna.move_slow(anna_app.now() + 1000)
            loop.pump(lambda: table.engine.to_move(table.state) != [1] or json.dumps(table.state) != before)
            loop.pump(lambda: anna.acted_on is None)
            assert not anna.move_slow(anna_app.now() + 1000)
            moved = True
            break
    assert moved
    anna.link.send({"type": "to_host", "data": {"k": "act", "action": "fly away"}})
    loop.pump(lambda: anna.notice is not None)
    assert anna.notice[0] == "illegal"
    # The host's reason is the engine's English, kept in the frame for testers; the person reads German.
    bar = room_screens.RoomFrame(anna_app, None, anna).bar(anna_app)
    assert anna.notice[1] and anna.notice[1] not in bar, bar
    assert "Der Gastgeber hat den Zug nicht angenommen" in bar



def test_a_move_sent_into_a_dead_line_is_sent_again_when_the_host_is_back(loop, relay_server, monkeypatch):
    """A move that went out to a host whose line was already dead (the relay had not noticed yet) goes nowhere.
    When the host is back, its view is the one the move was made from: the phone sends the move again by itself,
    once, and the host plays it; the person is not asked to tap again."""
    anna_app, anna, table = golf_with_anna(loop, relay_server, monkeypatch)
    loop.pump(lambda: anna.view() is not None)
    for _ in range(40):
        moving = table.engine.to_move(table.state)
        if 1 in moving and anna.view()["legal"] and 1 in anna.to_move():
            break
        if 0 in moving:
            table.act(table.view()["legal"][0])
        loop.pump()
    assert 1 in anna.to_move()
    before = json.dumps(table.state)
    action = anna.view()["legal"][0]
    sent = []
    send = anna.link.send

    def into_a_dead_line(frame):
        sent.append(frame)
        if len(sent) > 1 or frame.get("data", {}).get("k") != "act":
            send(frame)
    monkeypatch.setattr(anna.link, "send", into_a_dead_line)
    anna.act(action)
    loop.pump()
    assert json.dumps(table.state) == before and anna.acted_on is not None, "the move went nowhere"
    anna.on_frame({"type": "presence", "role": "host", "status": "away"})
    anna.on_frame({"type": "presence", "role": "host", "status": "back"})
    loop.pump(lambda: json.dumps(table.state) != before and anna.acted_on is None)
    acts = [frame["data"] for frame in sent if frame.get("data", {}).get("k") == "act"]
    assert [data["action"] for data in acts] == [action, action] and acts[1]["n"] == acts[0]["n"] + 1
    assert anna.notice is None and anna.unanswered is None


def test_a_lost_move_that_can_no_longer_go_is_said(loop, relay_server, monkeypatch):
    """The same, when the phone cannot send it again (its own line is down by then): it says the move did not
    arrive, so the person taps again once they can."""
    anna_app, anna, table = golf_with_anna(loop, relay_server, monkeypatch)
    loop.pump(lambda: anna.view() is not None)
    anna.unanswered = (anna.message["view"], "draw")
    monkeypatch.setattr(anna.link, "state", "connecting")
    anna.take_table(anna.message)
    assert anna.notice == ("lost", "") and anna.acted_on is None and anna.unanswered is None


def test_a_move_on_its_way_is_not_offered_again_when_another_seat_moves_first(loop, relay_server, monkeypatch):
    """Golf's peek: Anna's "Gemerkt" is on its way when the host's own arrives first. The view the host sends
    then (the host ready, Anna not yet) does not offer Anna "Gemerkt" again: a second tap would be refused. The
    host's answer to her act ("acted") ends the wait."""
    anna_app, anna, table = golf_with_anna(loop, relay_server, monkeypatch)
    loop.pump(lambda: anna.view() is not None and anna.view()["legal"] == ["ready"])
    seen = []  # after each table message Anna takes: (the host ready, Anna offered a move)
    take = anna.take_table

    def take_and_look(data):
        take(data)
        seen.append((data["view"]["ready"][0], 1 in anna.to_move()))
    monkeypatch.setattr(anna, "take_table", take_and_look)
    anna.act("ready")
    table.act("ready")  # before the host has read Anna's frame
    loop.pump(lambda: table.engine.to_move(table.state) == [] or table.state["ready"] == [True, True])
    loop.pump(lambda: anna.acted_on is None and anna.view()["ready"] == [True, True])
    assert (True, False) in seen, "the host's ready reached Anna while her own was on its way"
    assert not any(offered for _, offered in seen), seen
    assert anna.notice is None


def pick(legal):
    """A quick player: say Mau when offered, else play the first card that fits, else draw."""
    plays = [a for a in legal if a.startswith("play")]
    mau = [a for a in plays if a.endswith(" mau")]
    return (mau or plays or legal)[0]


def drive_maumau(loop, table, phones, until, limit=3000):
    """Play Mau-Mau: the host's person and each phone pick quickly, computers move on their own."""
    for _ in range(limit):
        loop.pump(lambda: until() or any(
            seat == table.seat or (seat in phones and phones[seat].view() is not None
                                   and phones[seat].view()["legal"] and phones[seat].seat == seat)
            for seat in table.engine.to_move(table.state)))
        if until():
            return
        moving = table.engine.to_move(table.state)
        if table.seat in moving:
            table.act(pick(table.view()["legal"]))
            continue
        for seat in moving:
            if seat in phones:
                phone = phones[seat]
                # What a person sees, once the host answered this phone's last move (one move at a time).
                loop.pump(lambda: phone.view()["legal"] == table.view_of(seat)["legal"] and phone.acted_on is None)
                before = json.dumps(table.state)
                phone.act(pick(phone.view()["legal"]))
                loop.pump(lambda: json.dumps(table.state) != before or phone.notice is not None)
                assert phone.notice is None, phone.notice
                break
    raise AssertionError("Mau-Mau did not get there")


def maumau_with_anna(loop, relay_server, seats):
    """Open a Mau-Mau room, let Anna's phone join and start with `seats` seats; return (room, anna, table)."""
    app = FakeApp(loop, relay_server.url)
    room = HostRoom(app, "maumau")
    room.start()
    loop.pump(lambda: room.code() is not None)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1)
    table = room.start_game({}, seats, "random", True, "Hosti")
    loop.pump(lambda: anna.view() is not None)
    return room, anna, table


def test_maumau_seats_a_newcomer_and_removes_a_leaver_between_deals(loop, relay_server):
    room, anna, table = maumau_with_anna(loop, relay_server, 3)
    assert room.joining, "joining stays open during the game"
    # Dora joins during the first deal: she watches it (public view) and is told she plays from the next deal.
    ben_app, ben = join(loop, relay_server, room, "Dora")
    loop.pump(lambda: ben.message is not None)
    assert ben.watching() == "deal" and ben.seat is None and ben.view()["hand"] is None
    assert table.names() == ["Hosti", "Anna", "Ben"]
    drive_maumau(loop, table, {1: anna}, lambda: table.state["phase"] == "between")
    loop.pump(lambda: ben.seat is not None and anna.view() is not None and len(anna.view()["names"]) == 4)
    assert table.names() == ["Hosti", "Anna", "Ben", "Dora"] and ben.seat == 3 and ben.watching() is None
    assert table.players()[3]["kind"] == "remote"
    # Anna leaves for good during the next deal.
    drive_maumau(loop, table, {1: anna, 3: ben}, lambda: table.state["phase"] == "play")
    anna.leave_room()
    loop.pump(lambda: table.players()[1].get("leaving"))
    drive_maumau(loop, table, {3: ben}, lambda: "Anna" not in table.names() or table.outcome() is not None)
    if table.outcome() is None:
        assert table.names() == ["Hosti", "Ben", "Dora"]
        loop.pump(lambda: ben.seat == 2)
        assert [p["name"] for p in table.players()] == ["Hosti", "Ben", "Dora"]


def test_a_newcomer_given_a_leavers_relay_number_watches_and_never_gets_the_leavers_cards(loop, relay_server):
    """The relay may give a gone seat's number to the next phone (docs/rooms.md): that phone is someone else.
    Found in a family evening: Quentin joined after Paul left and got Paul's hand and turns."""
    room, anna, table = maumau_with_anna(loop, relay_server, 3)
    anna.leave_room()
    loop.pump(lambda: table.players()[1].get("gone"))
    quentin_app, quentin = join(loop, relay_server, room, "Quentin")
    loop.pump(lambda: quentin.message is not None)
    assert quentin.seat is None and quentin.watching() == "deal" and quentin.view()["hand"] is None
    assert table.players()[1]["name"] == "Anna" and table.players()[1]["stand_in"], "a computer plays Anna's seat"
    for frame in quentin_app.frames:
        data = json.loads(frame).get("data") or {}
        view = data.get("view") if isinstance(data, dict) else None
        assert not (isinstance(view, dict) and view.get("hand")), "Quentin was sent a hand: %s" % frame[:200]
    # Between deals Mau-Mau seats him as a new seat of his own; Anna's seat goes with her.
    drive_maumau(loop, table, {}, lambda: table.state["phase"] == "between" or table.outcome() is not None)
    if table.outcome() is None:
        loop.pump(lambda: quentin.seat is not None)
        assert table.names()[quentin.seat] == "Quentin" and "Anna" not in table.names()


def test_a_phone_that_left_for_good_is_said_to_have_left_not_to_be_away(loop, relay_server):
    """The table screen said "Computer spielt für Dora" for a seat whose phone had left the room for good."""
    room, anna, table = maumau_with_anna(loop, relay_server, 3)
    tv_app, tv = join(loop, relay_server, room, "TV", role="screen")
    loop.pump(lambda: tv.message is not None)
    anna.leave_room()
    loop.pump(lambda: tv.seats()[1].get("gone") and tv.seats()[1]["stand_in"])
    tv_app.screen = None
    frame = room_screens.RoomFrame(tv_app, rooms.game_module("maumau").TableScreen(tv_app, tv), tv)
    note = frame.bar(tv_app).split('data-testid="stand-in-note">', 1)[1].split("</span>", 1)[0]
    assert note == "Anna hat den Raum verlassen – der Computer spielt weiter"


def test_a_newcomer_given_a_leavers_number_while_the_host_was_away_is_not_taken_for_the_leaver(loop, relay_server):
    """The same while the host's device was away: it learns of both from the room's places when it is back."""
    room, anna, table = maumau_with_anna(loop, relay_server, 3)
    host_app = room.app
    room.link.stop()
    table.close()
    anna.leave_room()
    quentin_app, quentin = join(loop, relay_server, room, "Quentin")
    document = host_app.storage.load_game("maumau")
    again = HostRoom.resume_game(host_app, "maumau", document)
    again.start()
    loop.pump(lambda: again.link.state == "online" and quentin.message is not None)
    players = again.table.players()
    assert players[1]["name"] == "Anna" and players[1]["gone"] and players[1]["stand_in"]
    assert quentin.seat is None and quentin.view()["hand"] is None
    assert [place["name"] for place in again.seat_places()] == ["Quentin"]
    for frame in quentin_app.frames:
        data = json.loads(frame).get("data") or {}
        view = data.get("view") if isinstance(data, dict) else None
        assert not (isinstance(view, dict) and view.get("hand")), "Quentin was sent a hand: %s" % frame[:200]


def test_a_latecomer_at_a_full_mau_mau_table_is_promised_the_next_game_not_the_next_deal(loop, relay_server):
    """Five seats are all Mau-Mau has: "ab der nächsten Runde" could not be kept (an audit watched a whole game)."""
    room, anna, table = maumau_with_anna(loop, relay_server, 5)
    emil_app, emil = join(loop, relay_server, room, "Emil")
    loop.pump(lambda: emil.message is not None)
    assert emil.seat is None and emil.watching() == "game"
    assert room.table.joins_at() == "game"


def test_a_locked_pin_is_no_longer_offered_by_the_host_or_the_table_screen(loop, relay_server):
    """After too many wrong PINs only the link and the QR code work: nobody is told to type code and PIN."""
    host_app, room = open_room(loop, relay_server)
    tv_app, tv = join(loop, relay_server, room, "TV", role="screen")
    loop.pump(lambda: tv.lobby is not None and tv.lobby["invite"]["pin"] == room.doc["pin"])
    tv_app.screen = host_app.screen = None
    face = room_screens.GuestScreen(tv_app, tv).render(tv_app)
    assert "Code und PIN eintippen" in face and room.doc["pin"] in face
    room.on_frame({"type": "pin_locked"})  # as the relay says it after the last wrong PIN
    loop.pump(lambda: tv.lobby["invite"]["pin"] is None)
    face = room_screens.GuestScreen(tv_app, tv).render(tv_app)
    assert "PIN" not in face and "QR-Code mit dem Handy scannen" in face
    lobby = room_screens.LobbyScreen(host_app, room).render(host_app)
    assert 'data-testid="pin-locked"' in lobby and "Code und PIN unter" not in lobby and "PIN ist gesperrt" in lobby


def test_a_pin_locked_during_a_game_is_told_to_the_host_who_can_issue_a_new_one_there(loop, relay_server):
    """The lobby said it, but during a game the host heard nothing while latecomers were turned away."""
    room, anna, table = maumau_with_anna(loop, relay_server, 3)
    host_app = room.app
    host_app.rerender = lambda: None
    frame = room_screens.RoomFrame(host_app, rooms.game_module("maumau").TableScreen(host_app, table), table, room)
    assert 'data-testid="pin-locked-note"' not in frame.bar(host_app)
    old_pin = room.doc["pin"]
    room.on_frame({"type": "pin_locked"})  # as the relay says it after the last wrong PIN
    bar = frame.bar(host_app)
    assert "Beitritt per PIN gesperrt" in bar and 'data-testid="room-new-pin"' not in bar, "the button waits in the menu"
    frame.handle(host_app, "room-menu", None)
    assert 'data-testid="room-new-pin"' in frame.bar(host_app)
    frame.handle(host_app, "room-new-pin", None)
    loop.pump(lambda: not room.pin_locked)
    bar = frame.bar(host_app)
    assert room.doc["pin"] != old_pin and "Neue PIN: %s" % room.doc["pin"] in bar
    assert 'data-testid="pin-locked-note"' not in bar and 'data-testid="room-new-pin"' not in bar
    frame.handle(host_app, "room-menu", None)
    assert "Neue PIN" not in frame.bar(host_app), "said until the menu closes"


def test_maumau_of_two_keeps_a_leavers_seat_with_a_computer_rather_than_hand_the_host_the_game(loop, relay_server):
    room, anna, table = maumau_with_anna(loop, relay_server, 2)
    anna.leave_room()
    loop.pump(lambda: table.players()[1].get("gone"))
    drive_maumau(loop, table, {}, lambda: table.state["phase"] == "between" or table.outcome() is not None)
    loop.pump(lambda: table.state["phase"] != "between" or not table.players()[1].get("leaving"))
    assert table.names() == ["Hosti", "Anna"] and table.outcome() is None, "nobody wins by the other one leaving"
    assert table.players()[1]["stand_in"], "a computer plays Anna's seat"


def test_kartenkampf_room_plays_to_the_end_with_commit_reveal(loop, relay_server):
    """The table layer has no per-game code: Kartenkampf's secret choices go through commit-reveal too."""
    app = FakeApp(loop, relay_server.url)
    room = HostRoom(app, "kartenkampf")
    room.start()
    loop.pump(lambda: room.code() is not None)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1)
    table = room.start_game({}, 3, "random", True, "Hosti")
    loop.pump(lambda: anna.view() is not None and anna.secret_choices())
    rounds = 0
    while table.outcome() is None and rounds < 20:
        done = len(table.state["log"]) if "log" in table.state else rounds
        loop.pump(lambda: anna.view()["legal"] and anna.message["cr"]["id"] == table.meta["cr"]["id"])
        anna.act(anna.view()["legal"][-1])
        loop.pump(lambda: table.view()["committed"][1])
        assert not any(table.engine.view(table.state, None)["committed"]), "the engine has no choice before the reveal"
        table.act(table.view()["legal"][0])
        loop.pump(lambda: table.meta["cr"]["id"] > rounds)
        rounds += 1
    loop.pump(lambda: anna.outcome() is not None)
    assert table.outcome() is not None and anna.mismatch == []
    assert anna_app.storage.results()[0]["game"] == "kartenkampf"


def test_host_reload_in_the_lobby_keeps_the_room_and_its_places(loop, relay_server):
    host_app, room = open_room(loop, relay_server)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1 and anna.lobby is not None)
    room.stop()
    stored = host_app.storage.load_room()
    assert stored["role"] == "host" and stored["code"] == room.code() and not stored.get("started")
    again = HostRoom(host_app, GAME, stored)
    again.start()
    loop.pump(lambda: again.link.state == "online" and len(again.seat_places()) == 1)
    assert again.seat_places()[0]["name"] == "Anna" and again.doc["pin"] == room.doc["pin"]
    assert again.join_url() == room.join_url()
    table = again.start_game({}, 2, "random", True, "Hosti")
    loop.pump(lambda: anna.view() is not None)
    assert anna.seat == 1 and table.names() == ["Hosti", "Anna"]


def test_a_host_whose_room_is_gone_goes_on_alone(loop, relay_server):
    from spieleabend.ui.room_screens import go_on_alone
    from spieleabend.ui.table import LocalTable

    setup = start_four(loop, relay_server)
    host_app, room, table = setup["host"]
    table.act("play 4")
    routes = []
    host_app.go = lambda route, replace=False: routes.append(route)
    go_on_alone(host_app, room)
    assert routes == ["play/punktejagd/continue"]
    document = host_app.storage.load_game(GAME)
    assert "room" not in document["meta"] and "cr" not in document["meta"]
    assert [p["kind"] for p in document["meta"]["players"]] == ["person", "computer", "computer", "computer"]
    alone = LocalTable(host_app, GAME, document["state"], document["meta"])
    alone.schedule_computers()
    loop.pump()
    alone.act("play 4")
    assert len(alone.state["log"]) == 1, "the computers chose at once, the round is scored"


class ScriptedSocket:
    """A socket whose events the test plays by hand."""

    def __init__(self, on_open, on_message, on_close):
        self.on_open, self.on_message, self.on_close = on_open, on_message, on_close
        self.sent = []

    def send(self, frame):
        self.sent.append(frame)
        return True

    def close(self):
        pass


class Owner:
    def __init__(self):
        self.welcomes, self.frames, self.links = [], [], 0

    def on_welcome(self, frame):
        self.welcomes.append(frame)

    def on_frame(self, frame):
        self.frames.append(frame)

    def on_link(self):
        self.links += 1


def scripted_link(loop, line_check=None):
    """Return (link, its sockets, owner): a seat's link on scripted sockets, its first one opened and welcomed."""
    app = FakeApp(loop, "unused")
    app.line_check = line_check
    sockets = []
    app.room_socket = lambda *callbacks: sockets.append(ScriptedSocket(*callbacks)) or sockets[-1]
    owner = Owner()
    link = rooms.RoomLink(app, {"type": "resume", "v": 1, "room": "K7QM2X", "token": "t"}, owner)
    link.start()
    sockets[0].on_open()
    assert sockets[0].sent == [{"type": "resume", "v": 1, "room": "K7QM2X", "token": "t"}]
    sockets[0].on_message({"type": "resumed", "v": 1, "room": "K7QM2X", "role": "seat", "seat": 1, "host": "online"})
    assert link.state == "online" and owner.welcomes
    return link, sockets, owner


@pytest.mark.parametrize("events, state, detail", [
    ([("close", 4000)], "closed", "replaced"),
    ([("msg", {"type": "error", "code": "bad_token"}), ("close", 4003)], "closed", "bad_token"),
    ([("close", 4004)], "closed", "unknown_room"),
    ([("msg", {"type": "error", "code": "pin_locked"}), ("close", 4007)], "closed", "pin_locked"),
    ([("close", 4007)], "closed", "pin_locked"),
    ([("msg", {"type": "closed", "reason": "ended"}), ("close", 1000)], "closed", "ended"),
    ([("msg", {"type": "error", "code": "server_full"}), ("close", 1013)], "retrying", "server_full"),
    ([("msg", {"type": "error", "code": "rate_limited"}), ("close", 1008)], "retrying", "rate_limited"),
    ([("close", 1006)], "retrying", None),
])
def test_link_gives_up_only_where_the_protocol_says(loop, events, state, detail):
    link, sockets, owner = scripted_link(loop)
    for kind, value in events:
        if kind == "msg":
            sockets[0].on_message(value)
        else:
            sockets[0].on_close(value)
    assert link.status() == (state, detail)
    loop.advance(1000)
    assert len(sockets) == (2 if state == "retrying" else 1), "reconnects only when it may"


@pytest.mark.parametrize("tries_left, words", [
    (9, "Falsche PIN. Noch 9 Versuche"),
    (1, "Falsche PIN. Noch ein Versuch"),
    (0, "Beitritt per PIN ist jetzt gesperrt"),
    ("9", "Falsche PIN oder ungültiger Link."),  # a damaged field: the plain words, never a wrong count
    (-1, "Falsche PIN oder ungültiger Link."),
    (True, "Falsche PIN oder ungültiger Link."),
    (None, "Falsche PIN oder ungültiger Link."),
])
def test_a_wrong_pin_says_how_many_tries_are_left(loop, tries_left, words):
    app = FakeApp(loop, "unused")
    sockets = []
    app.room_socket = lambda *callbacks: sockets.append(ScriptedSocket(*callbacks)) or sockets[-1]
    link = rooms.RoomLink(app, {"type": "join", "v": 1, "room": "K7QM2X", "pin": "0000", "role": "seat"}, Owner())
    link.start()
    sockets[0].on_open()
    error = {"type": "error", "code": "bad_token", "detail": "wrong PIN"}
    if tries_left is not None:
        error["pin_tries_left"] = tries_left
    sockets[0].on_message(error)
    sockets[0].on_close(4003)
    state, text = room_screens.status_of(link, now=loop.now)
    assert state == "closed" and words in text
    link.start()  # "Nochmal": the next attempt starts without the old count
    assert link.pin_tries_left is None


def test_a_line_that_goes_silent_is_given_up_and_tried_again_and_a_late_close_of_it_changes_nothing(loop):
    link, sockets, owner = scripted_link(loop, line_check=2500)
    # A quiet line that answers: a ping every 2.5 s or so, each pong keeps the socket.
    answered = 0
    for _ in range(40):
        loop.advance(500)
        if sockets[0].sent[-1] == {"type": "ping"}:
            sockets[0].sent.append("answered")
            sockets[0].on_message({"type": "pong"})
            answered += 1
    assert link.state == "online" and len(sockets) == 1 and owner.frames == [], "a pong is not the owner's frame"
    assert 6 <= answered <= 8, answered
    # Frames coming anyway: no ping needed.
    pings = sockets[0].sent.count({"type": "ping"})
    for _ in range(8):
        loop.advance(1000)
        sockets[0].on_message({"type": "from_host", "data": {"k": "x"}})
    assert sockets[0].sent.count({"type": "ping"}) == pings
    # The network goes silently: the unanswered ping gives the socket up (within 3 checks), the link retries.
    waited = 0
    while link.state == "online" and waited < 20000:
        loop.advance(500)
        waited += 500
    assert link.state == "retrying" and link.socket is None and 5000 <= waited <= 10000, waited
    assert sockets[0].sent[-1] == {"type": "ping"}
    loop.advance(1000)
    assert len(sockets) == 2 and link.state == "connecting"
    sockets[1].on_open()
    assert sockets[1].sent == [{"type": "resume", "v": 1, "room": "K7QM2X", "token": "t"}]
    sockets[0].on_close(1006)  # the old socket's close, late: the new one stays
    assert link.socket is sockets[1] and link.state == "connecting"
    sockets[1].on_message({"type": "resumed", "v": 1, "room": "K7QM2X", "role": "seat", "seat": 1, "host": "online"})
    assert link.state == "online" and len(owner.welcomes) == 2


def test_final_standings_rank_by_the_games_direction():
    from spieleabend.ui.room_screens import error_text, final_rows

    from spieleabend.games.common import game_outcome

    names = ["Anna", "Ben", "Clara"]
    golf = {"names": names, "outcome": game_outcome([5, 2, 9], [-5, -2, -9], lower_wins=True)}
    assert final_rows(golf, {"scores": [5, 2, 9]}, True) == [(1, "Ben", 2), (2, "Anna", 5), (3, "Clara", 9)]
    points = {"names": names, "outcome": game_outcome([5, 2, 9], [5, 2, 9])}
    assert final_rows(points, {"scores": [5, 2, 9]}, False)[0] == (1, "Clara", 9)
    running = {"names": names, "outcome": None}
    assert final_rows(running, {"scores": [5, 5, 9]}, False) == [(1, "Clara", 9), (2, "Anna", 5), (2, "Ben", 5)]
    # A Mau-Mau room ended mid-game: fewest minus points first (it once ranked the most first).
    assert final_rows(running, {"scores": [40, 12, 70]}, True) == [(1, "Ben", 12), (2, "Anna", 40), (3, "Clara", 70)]
    # The engine's ranking decides, tie-breaks included (Kartenkampf: level on points, best round decides).
    decided = {"names": names, "outcome": game_outcome([30, 30, 10], [[30, 20], [30, 25], [10, 10]])}
    assert final_rows(decided, {"scores": [30, 30, 10]}, False) == [(1, "Ben", 30), (2, "Anna", 30), (3, "Clara", 10)]
    # Relay codes are never shown raw.
    for code in ["room_full", "unknown_room", "bad_token", "joining_closed", "server_full", "rate_limited",
                 "unsupported_version", "malformed", "forbidden", "too_large", "binary_frame", "hello_timeout",
                 "no_server", "replaced", "ended", "host_gone", "idle", "interrupted", "address_limit",
                 "something_new", None]:
        text = error_text(code)
        assert text and (code is None or code not in text) and not text.startswith("room."), code
        if code not in ("something_new", None):
            assert text != error_text("something_new"), "%s has words of its own" % code
    assert error_text("bad_token", resumed=True) != error_text("bad_token")


def test_a_start_that_fails_leaves_the_same_room_for_the_reload(loop, relay_server, monkeypatch):
    """A host whose game could not start (issue 22: its computers failed to import) takes the same
    room back when the page reloads, so the phones that joined are not stranded in an old one."""
    from spieleabend.ui import room_screens, table as table_module

    host_app, room = open_room(loop, relay_server)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1 and anna.lobby is not None)

    def broken_bots(game):
        raise ImportError("spieleabend.bots." + game)

    monkeypatch.setattr(table_module, "load_bots", broken_bots)
    with pytest.raises(ImportError):
        room.start_game({}, 3, "random", True, "Hosti")
    assert room.table is None and not host_app.storage.load_room().get("started")
    assert host_app.storage.load_game(GAME) is None
    room.stop()  # the page failed and reloads
    monkeypatch.undo()

    host_app.screen = None  # the lobby draws nothing here
    screen = room_screens.host_screen(host_app, GAME)
    loop.pump(lambda: screen.room.link.state == "online" and len(screen.room.seat_places()) == 1)
    assert isinstance(screen, room_screens.LobbyScreen)
    assert screen.room.code() == room.code() and screen.room.seat_places()[0]["name"] == "Anna"
    table = screen.room.start_game({}, 3, "random", True, "Hosti")
    loop.pump(lambda: anna.view() is not None)
    assert anna.seat == 1 and table.names() == ["Hosti", "Anna", "Ben"]


class ShownTable:
    """A game screen as page_marks sees it: anything holding a table."""

    def __init__(self, table):
        self.table = table


def marks_of(table):
    from spieleabend.ui.table import page_marks
    return page_marks(ShownTable(table))


def test_every_device_says_whose_turn_it_is_and_a_committed_seat_is_no_longer_waited_for(loop, relay_server):
    setup = start_four(loop, relay_server)
    table, anna, tv = setup["host"][2], setup["anna"][1], setup["tv"][1]
    # The computer (seat 3) committed at once; the others still choose.
    assert marks_of(table)["turn"] == "0 1 2 you" and marks_of(table)["seat"] == "0"
    assert marks_of(anna)["turn"] == "0 1 2 you" and marks_of(anna)["seat"] == "1"
    assert marks_of(tv)["turn"] == "0 1 2" and marks_of(tv)["seat"] == ""
    assert marks_of(tv)["scores"] == "0 0 0 0"
    anna.act("play 5")
    assert "you" not in marks_of(anna)["turn"].split(), "her choice is on its way"
    loop.pump(lambda: marks_of(tv)["turn"] == "0 2")
    assert marks_of(anna)["turn"] == "0 2" and marks_of(table)["turn"] == "0 2 you"


def test_a_phone_that_sent_its_move_is_not_on_turn_until_the_host_answers(loop, relay_server):
    app = FakeApp(loop, relay_server.url)
    room = HostRoom(app, "maumau")
    room.start()
    loop.pump(lambda: room.code() is not None)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: len(room.seat_places()) == 1)
    table = room.start_game({}, 2, "random", True, "Hosti")
    for _ in range(20):  # the host plays until it is Anna's turn, as her phone knows it
        loop.pump(lambda: anna.view() == table.view_of(1))
        if table.engine.to_move(table.state) == [1]:
            break
        table.act(pick(table.view()["legal"]))
    assert marks_of(anna)["turn"] == "1 you" and marks_of(table)["turn"] == "1"
    before = anna.view()
    anna.act(pick(anna.view()["legal"]))
    assert marks_of(anna)["turn"] == "", "sent, not yet answered: nobody to wait for on this phone"
    loop.pump(lambda: anna.view() != before)
    assert marks_of(anna)["turn"] == marks_of(table)["turn"].replace(" you", "")


def test_a_computers_moves_are_said_in_words_for_the_phone_that_was_away():
    from spieleabend.ui.room_screens import action_words

    assert action_words("play 5D") == "Karo 5"
    assert action_words("play JH:S") == "Herz Bube (wünscht Pik)"
    assert action_words("play 3H 4H 5H") == "Herz 3, Herz 4, Herz 5"
    assert action_words("play 7 risk") == "7 mit Risiko"
    assert action_words("draw") == "eine Karte gezogen"
    assert action_words("swap 2") == "gezogene Karte an Platz 3 gelegt"
    assert action_words("next") == "" and action_words("play") == ""


def test_a_name_that_is_too_long_or_empty_is_said():
    from spieleabend.ui.room_screens import name_problem

    assert name_problem("Anna") == ("", "Anna")
    problem, name = name_problem("Maximiliane-Theresa von Hohenstein")
    assert name == "Maximiliane-Theresa von" and "24" in problem and name in problem
    assert name_problem("")[0] and name_problem("", required=False) == ("", "")


def test_a_reloaded_phone_shows_its_last_view_at_once_and_plays_only_from_the_fresh_one(loop, relay_server):
    """Issue 28: a phone's reload draws its own last view at once (marked as reconnecting); nothing can be
    chosen from it, so commit-reveal never starts from a stale view; the host's fresh view makes it playable."""
    setup = start_four(loop, relay_server)
    host_app, room, table = setup["host"]
    anna_app, anna = setup["anna"]
    loop.advance(rooms.SHOWN_SAVE_MS)
    loop.pump()
    before = anna.view()
    assert before["legal"]
    anna.disconnect()  # the page goes away (a reload)
    again = RemoteTable(anna_app, anna_app.storage.load_room())
    assert again.stale and again.seat == 1
    assert again.view()["hand"] == before["hand"] and again.view()["legal"] == []
    assert again.to_move() == [] and again.seats()[1]["me"]
    with pytest.raises(IllegalAction):
        again.act("play %d" % before["hand"][0])
    assert again.pending() is None, "no commitment was made from the old view"
    again.start()
    loop.pump(lambda: not again.stale)
    assert again.view()["legal"] and 1 in again.to_move()
    again.act("play %d" % before["hand"][0])
    loop.pump(lambda: table.view()["committed"][1])
    # A place that was left keeps nothing: the next visit draws no table.
    again.leave_room()
    loop.advance(rooms.SHOWN_SAVE_MS)
    loop.pump()
    assert anna_app.storage.load_room() is None


def test_a_phone_reloaded_after_going_on_from_a_reveal_does_not_show_that_reveal_again(loop, relay_server):
    """A phone that went on from round 1's reveal and chose in round 2, then reloaded before its last table
    was kept (that save waits for the messages to pause), comes back to its round-2 choice: the older
    table drawn at once must not take back what the phone had already shown."""
    setup = start_four(loop, relay_server)
    anna_app, anna = setup["anna"]
    loop.advance(rooms.SHOWN_SAVE_MS)
    loop.pump()  # the table before round 1 is kept
    assert not reveal_due(anna, anna.view())  # Anna's screen drew round 1: nothing scored to show yet
    commit_round(loop, setup, [9, 8, 7])
    assert reveal_due(anna, anna.view()), "round 1's reveal waits to be shown on Anna's phone"
    reveal_shown(anna, anna.view())  # Anna taps "Nächste Runde"
    anna.act("play 1")
    loop.pump(lambda: setup["host"][2].view()["committed"][1])
    anna.link.stop()  # the page is gone at once: no save on the way out
    again = RemoteTable(anna_app, anna_app.storage.load_room())
    assert again.stale and not reveal_due(again, again.view())
    again.start()
    loop.pump(lambda: not again.stale)
    assert not reveal_due(again, again.view()), "the reveal Anna went on from is not shown again"
    assert again.pending() is not None and 1 not in again.view()["hand"], "her round-2 choice is shown"


def test_a_kept_table_that_is_not_whole_is_not_drawn(loop, relay_server):
    app = FakeApp(loop, relay_server.url)
    base = {"role": "seat", "code": "K7QM2X", "token": "t"}
    for shown in [None, "x", {"k": "table"}, {"k": "table", "game": "schach", "view": {}, "seats": [], "seat": 1},
                  {"k": "table", "game": GAME, "view": {}, "seats": [], "seat": "1"}]:
        remote = RemoteTable(app, dict(base, shown=shown))
        assert not remote.stale and remote.view() is None
    assert RemoteTable(app, dict(base, shown={"k": "table", "game": GAME, "view": {}, "seats": [], "seat": 1})).stale


def test_a_reloaded_phone_whose_room_ended_meanwhile_shows_why_not_its_old_table(loop, relay_server):
    setup = start_four(loop, relay_server)
    host_app, room, table = setup["host"]
    anna_app, anna = setup["anna"]
    loop.advance(rooms.SHOWN_SAVE_MS)
    loop.pump()
    anna.disconnect()
    kept = anna_app.storage.load_room()
    room.end()
    again = RemoteTable(anna_app, kept)
    assert again.stale
    again.start()
    loop.pump(lambda: again.link.state == "closed")
    assert again.view() is None and not again.stale
    assert again.link.status()[1] in ("unknown_room", "ended")


class QuietRoom:
    """A room without a relay for a host table: what the host sends is kept in `sent`."""

    def __init__(self):
        self.sent = []
        self.link = self
        self.screens = {}
        self.places = {}
        self.stand_in_ms = 45000

    def send(self, frame):
        self.sent.append(frame)
        return True

    def watching(self):
        return []


def test_the_host_sends_a_burst_of_views_at_once_and_a_long_run_within_the_relays_rate(loop):
    from spieleabend.ui.rooms import HostTable
    from spieleabend.ui.table import seat_player

    app = FakeApp(loop, "ws://127.0.0.1:9/relay")
    room = QuietRoom()
    players = [seat_player("Hosti", "person")]
    for relay in (1, 2):
        player = seat_player("Phone %d" % relay, "remote", "random")
        player["relay"] = relay
        players.append(player)
    table = HostTable.new(app, GAME, {"seats": 3}, players, 0, {"cr": rooms.new_round(0)}, room=room)
    room.sent.clear()
    # A round's commitments, its reveal and the next round: a few broadcasts in a row go out at once.
    for _ in range(5):
        table.broadcast()
    assert len(room.sent) == 10 and table.broadcast_timer is None, "two phones, five broadcasts, none held back"
    # Computers at pace 0: one broadcast per ms for five seconds stays within the relay's limit for the
    # host (100 frames a second, bursts of 200), and the last change still goes out.
    for _ in range(5000):
        table.broadcast()
        loop.advance(1)
    loop.advance(1000)
    assert len(room.sent) <= 200 + 100 * 6
    assert len(room.sent) >= 5000 // rooms.FRAME_MS - 20, "about a frame per FRAME_MS"
    assert table.broadcast_timer is None and room.sent[-1]["data"]["view"] == table.view_of(2)


def test_the_host_holds_its_drawing_while_the_phones_reveals_come(loop, relay_server):
    """Once every seat committed, the host does not draw that moment (tens of ms in Brython, which would
    delay the phones' reveals behind it): it draws the scored round as soon as the reveals are in."""
    from spieleabend.ui.table import drawing_due

    setup = start_four(loop, relay_server)
    host_app, room, table = setup["host"]
    anna, ben = setup["anna"][1], setup["ben"][1]
    drawn = []
    table.listen(lambda _event: drawn.append(len(table.state["log"])))
    table.act("play 5")
    anna.act("play 4")
    loop.pump(lambda: table.view()["committed"][1])
    loop.pump(lambda: not drawing_due(ShownTable(table)))  # seats still choose: drawn at once
    ben.act("play 3")
    loop.pump(lambda: table.want() == "reveal")
    assert table.render_held and drawing_due(ShownTable(table)), "every seat committed: the host waits for the reveals"
    loop.pump(lambda: len(table.state["log"]) == 1)
    assert not table.render_held, "the reveals are in: drawn at once"
    loop.pump(lambda: drawn and drawn[-1] == 1)


def test_a_phones_move_reaches_the_other_phone_and_the_screen_before_the_mover(loop):
    """Each view takes the host milliseconds to make and send: the devices that learn something new from a
    phone's move come first, the phone that made it (which shows its move already) last."""
    from spieleabend.ui.rooms import HostTable
    from spieleabend.ui.table import seat_player

    app = FakeApp(loop, "ws://127.0.0.1:9/relay")
    room = QuietRoom()
    room.screens = {1: {"screen": 1, "name": "TV", "online": True}}
    room.joining = False
    players = [seat_player("Hosti", "person")]
    for relay in (1, 2):
        player = seat_player("Phone %d" % relay, "remote", "random")
        player["relay"] = relay
        players.append(player)
    table = HostTable.new(app, "maumau", {"seats": 3}, players, 0, {"cr": rooms.new_round(0)}, room=room)
    for _ in range(200):  # the host's person plays until a phone is to move
        moving = table.engine.to_move(table.state)
        if moving and moving[0] != 0:
            break
        table.act(table.view()["legal"][0])
    mover = table.engine.to_move(table.state)[0]
    other = 3 - mover
    room.sent.clear()
    table.on_remote(mover, {"k": "act", "action": table.view_of(mover)["legal"][0]})
    addressed = [(frame["type"], frame.get("seat")) for frame in room.sent]
    assert addressed == [("to_seat", other), ("to_screens", None), ("to_seat", mover)]
    assert [frame["data"]["view"] for frame in room.sent] == [table.view_of(other), table.view_of(None),
                                                              table.view_of(mover)], "the views after the move"

"""Names in a room: nobody joins with a name someone in the room has already, and the host is listed too.

The host's device is the authority for seats: it turns a second "Anna" away (`name_taken`), whose phone
gives its place up and asks its person for another name; the same phone coming back with its token is no
second Anna. Host and phones in CPython against the real relay (tests/room_harness.py).
"""

import pytest

from spieleabend.ui import room_screens
from spieleabend.ui.i18n import set_language
from spieleabend.ui.rooms import HostRoom, RemoteTable, name_key
from tests.relay_fixtures import relay_server, relay_servers, shared_relay_server  # noqa: F401  (fixtures)
from tests.room_harness import FakeApp, Loop

GAME = "golf"


@pytest.fixture
def loop():
    return Loop()


@pytest.fixture(autouse=True)
def german():
    set_language("de")
    yield
    set_language("de")


def open_room(loop, relay_server, host_name="", game=GAME):
    app = FakeApp(loop, relay_server.url)
    app.screen = None
    room = HostRoom(app, game)
    room.set_host(host_name, True)
    room.start()
    loop.pump(lambda: room.code() is not None)
    return app, room


def join(loop, relay_server, room, name, pin=False, app=None):
    app = app or FakeApp(loop, relay_server.url)
    app.screen = None
    doc = {"role": "seat", "code": room.code(), "name": name}
    if pin:
        doc["pin"] = room.doc["pin"]
    else:
        doc["secret"] = room.doc["secret"]
    table = RemoteTable(app, doc)
    table.start()
    loop.pump(lambda: table.link.state == "online" or table.name_taken is not None)
    return app, table


def names_in(room):
    return [place["name"] for place in room.seat_places()]


def turned_away(loop, room, phone):
    """Wait until the host told the phone its name is taken and the phone gave its place up."""
    loop.pump(lambda: phone.name_taken is not None and phone.link.state == "closed")
    loop.pump(lambda: not [p for p in room.places.values() if p.get("refused") and not p.get("gone")])
    return phone.name_taken


def test_names_are_compared_trimmed_and_case_aside():
    assert name_key("  Anna ") == name_key("anna") == name_key("ANNA") == "anna"
    assert name_key("Anna  B.") == name_key("anna b.")
    assert name_key("Anna") != name_key("Anna B.") and name_key("") == name_key(None) == ""


def test_a_second_anna_is_asked_for_another_name_and_joins_with_it(loop, relay_server):
    host_app, room = open_room(loop, relay_server)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: names_in(room) == ["Anna"] and anna.lobby is not None)
    other_app, other = join(loop, relay_server, room, " anna ", pin=True)
    assert turned_away(loop, room, other) == "Anna", "the name as the room has it"
    assert other_app.storage.load_room() is None, "the refused place is not kept"
    loop.pump(lambda: len(room.places) == 1)
    assert names_in(room) == ["Anna"] and other.message is None
    loop.pump()
    assert [p["name"] for p in anna.lobby["places"]] == ["Anna"], "the others never saw a second Anna"
    # The person types another name: a new join with the same code and PIN, and it is in.
    again_app, again = join(loop, relay_server, room, "Anna B.", pin=True, app=other_app)
    loop.pump(lambda: names_in(room) == ["Anna", "Anna B."] and again.lobby is not None)
    assert again.name_taken is None and again.link.state == "online"
    table = room.start_game({}, 3, "random", True, "Hosti")
    loop.pump(lambda: anna.view() is not None and again.view() is not None)
    assert table.names()[:3] == ["Hosti", "Anna", "Anna B."] and (anna.seat, again.seat) == (1, 2)


def test_the_same_phone_coming_back_with_its_token_is_no_second_anna(loop, relay_server):
    host_app, room = open_room(loop, relay_server)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: names_in(room) == ["Anna"])
    number = room.seat_places()[0]["seat"]
    # Anna's phone reloads: a new table from the stored place, which resumes with its token.
    anna.disconnect()
    stored = anna_app.storage.load_room()
    assert stored["name"] == "Anna" and "token" in stored and stored["secret"] == room.doc["secret"]
    back = RemoteTable(anna_app, stored)
    back.start()
    loop.pump(lambda: back.link.state == "online" and back.lobby is not None)
    loop.pump()
    assert back.name_taken is None and back.link.state == "online"
    assert [(p["seat"], p["name"], p["online"]) for p in room.seat_places()] == [(number, "Anna", True)]
    # The same during a game: her reload takes her seat back.
    table = room.start_game({}, 2, "random", True, "Hosti")
    loop.pump(lambda: back.view() is not None)
    back.disconnect()
    again = RemoteTable(anna_app, anna_app.storage.load_room())
    again.start()
    loop.pump(lambda: again.link.state == "online" and again.view() is not None and not again.stale)
    assert again.name_taken is None and again.seat == 1 and table.names() == ["Hosti", "Anna"]


def test_the_hosts_own_name_is_taken_while_it_plays(loop, relay_server):
    host_app, room = open_room(loop, relay_server, host_name="Hosti")
    _, hosti = join(loop, relay_server, room, "HOSTI")
    assert turned_away(loop, room, hosti) == "Hosti" and names_in(room) == []
    # A host device that only shows the table (a tablet in the middle): its owner may play on a phone by that name.
    room.set_host("Hosti", False)
    _, phone = join(loop, relay_server, room, "Hosti")
    loop.pump(lambda: names_in(room) == ["Hosti"] and phone.lobby is not None)
    assert phone.name_taken is None and phone.lobby["host"] == {"name": "Hosti", "plays": False}


def test_a_latecomer_with_a_taken_name_during_a_game_does_not_watch_it(loop, relay_server):
    host_app, room = open_room(loop, relay_server)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: names_in(room) == ["Anna"])
    table = room.start_game({}, 2, "random", True, "Hosti")
    loop.pump(lambda: anna.view() is not None)
    late_app, late = join(loop, relay_server, room, "anna")
    turned_away(loop, room, late)
    assert late.message is None, "no table reached the refused phone"
    _, hosti = join(loop, relay_server, room, "Hosti")  # the host's name at the table
    turned_away(loop, room, hosti)
    _, ben = join(loop, relay_server, room, "Ben")
    loop.pump(lambda: ben.message is not None)
    assert ben.watching() == "game" and table.names() == ["Hosti", "Anna"]


def test_a_second_anna_who_joined_while_the_host_was_away_is_turned_away_when_it_is_back(loop, relay_server):
    host_app, room = open_room(loop, relay_server)
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: names_in(room) == ["Anna"])
    room.stop()  # the host's page reloads; the relay lets phones join meanwhile
    _, other = join(loop, relay_server, room, "ANNA")
    assert other.link.state == "online" and other.name_taken is None
    again = HostRoom(host_app, GAME, host_app.storage.load_room())
    again.start()
    turned_away(loop, again, other)
    assert names_in(again) == ["Anna"] and again.seat_places()[0]["seat"] == anna.link.welcome["seat"]


def test_the_phone_asks_for_another_name_in_both_languages(loop, relay_server):
    host_app, room = open_room(loop, relay_server)
    join(loop, relay_server, room, "Anna")
    loop.pump(lambda: names_in(room) == ["Anna"])
    for language, said in (("de", "Den Namen „Anna“ hat schon jemand in diesem Raum"),
                           ("en", "Someone in this room already has the name “Anna”")):
        set_language(language)
        app = FakeApp(loop, relay_server.url)
        app.screen = None
        shown = []
        app.show = lambda screen, route=None: shown.append((screen, route))
        app.focus = lambda selector: shown.append(selector)
        app.rerender = lambda: None
        screen = room_screens.place_screen(app, {"role": "seat", "code": room.code(), "name": "Anna",
                                                 "secret": room.doc["secret"]})
        app.screen = screen
        loop.pump(lambda: len(shown) == 2)
        join_screen, route = shown[0]
        assert isinstance(join_screen, room_screens.JoinScreen) and shown[1] == "#join-name"
        assert route == "join/%s.%s" % (room.code(), room.doc["secret"])
        page = join_screen.render(app)
        assert said in page and 'data-testid="join-error"' in page and 'value="Anna"' in page
    set_language("de")


def test_the_host_is_in_every_list_of_who_is_in_the_room(loop, relay_server):
    from tests.fake_app import ScreenApp

    host_app, room = open_room(loop, relay_server, host_name="Hosti")
    anna_app, anna = join(loop, relay_server, room, "Anna")
    loop.pump(lambda: anna.lobby is not None and [p["name"] for p in anna.lobby["places"]] == ["Anna"])
    assert anna.lobby["host"] == {"name": "Hosti", "plays": True}
    for language, tag in (("de", "Gastgeber"), ("en", "host")):
        set_language(language)
        guest = room_screens.GuestScreen.__new__(room_screens.GuestScreen)
        guest.table = anna
        people = guest.people_list()
        assert people.index("Hosti") < people.index("Anna") and ">%s<" % tag in people
        assert 'data-testid="room-host"' in people
    set_language("de")
    # The host's own lobby lists it first, marked, and says when it only shows the table.
    app = ScreenApp()
    app.settings = {"name": "Hosti"}
    lobby = room_screens.LobbyScreen.__new__(room_screens.LobbyScreen)
    lobby.room, lobby.host_name_value, lobby.host_plays = room, "Hosti", True
    row = lobby.host_row()
    assert 'data-testid="lobby-host"' in row and "Hosti" in row and ">Gastgeber<" in row
    lobby.host_plays = False
    assert "zeigt den Tisch" in lobby.host_row()
    # Without a name the host is "Gastgeber" on every phone, in the phone's language.
    room.set_host("", True)
    loop.pump(lambda: anna.lobby["host"]["name"] == "")
    set_language("en")
    assert ">Host<" in guest.people_list()
    set_language("de")
    # The lobby message of a host during a game carries its seat's name.
    room.set_host("Hosti", True)
    table = room.start_game({}, 2, "random", True, "Hosti")
    assert room.host_entry() == {"name": "Hosti", "plays": True} and table.names()[0] == "Hosti"


def test_the_host_cannot_start_under_a_name_a_phone_has(loop, relay_server):
    host_app, room = open_room(loop, relay_server)
    join(loop, relay_server, room, "Anna")
    loop.pump(lambda: names_in(room) == ["Anna"])
    shown = []
    host_app.rerender = lambda: None
    host_app.focus = lambda selector: shown.append(selector)
    host_app.show = lambda screen, route=None: shown.append(screen)
    host_app.request = lambda *args: None
    host_app.field = lambda name: " anna" if name == "room-host-name" else None
    lobby = room_screens.LobbyScreen(host_app, room)
    lobby.start(host_app)
    assert room.table is None and "„Anna“ ist schon im Raum" in lobby.name_error and shown == ["#room-host-name"]
    host_app.field = lambda name: "Anna K." if name == "room-host-name" else None
    lobby.start(host_app)
    assert room.table is not None and room.table.names()[:2] == ["Anna K.", "Anna"]

"""Room relay against a real server with real websockets: delivery, reconnect, expiry."""

import threading

import pytest

from server.relay import CODE_ALPHABET
from tests.relay_client import RelayClosed, parse_link
from tests.relay_fixtures import (  # noqa: F401  (fixtures)
    make_relay_server, relay_server, relay_servers, shared_relay_server)


def next_data(client):
    """Return the data of the next relayed message, skipping presence notices."""
    return client.recv_type("msg")["data"]


def settle(client):
    """Return once the relay has handled every frame this client sent (ping, then pong)."""
    client.send({"type": "ping"})
    client.recv_type("pong")


def assert_only_marker_next(host, *clients):
    """Send a broadcast marker; each client's next message must be it, so nothing was misdelivered.

    Frames from one sender arrive in order, so anything the host's earlier frames
    had wrongly delivered would show up before the marker.
    """
    host.to_all("marker")
    for client in clients:
        assert next_data(client) == "marker"


# ----- create and join ---------------------------------------------------------------

def test_create_gives_a_typable_code_an_unguessable_link_a_pin_and_a_host_token(relay_server):
    first = relay_server.host().welcome
    second = relay_server.host().welcome
    assert first["v"] == 1
    assert len(first["room"]) == 6 and set(first["room"]) <= set(CODE_ALPHABET)
    assert parse_link(first["link"]) == (first["room"], first["secret"])
    assert first["link"].startswith("/#/join/")  # the secret sits in the fragment
    assert len(first["secret"]) >= 11  # base64url: 11 characters carry 64 bits
    assert len(first["token"]) >= 22  # 128 bits
    assert len(first["pin"]) == 4 and first["pin"].isdigit()
    for key in ("room", "secret", "token"):
        assert first[key] != second[key]


def test_join_by_link_gives_numbered_seats_with_own_tokens_and_tells_the_host(relay_server):
    host = relay_server.host()
    anna = relay_server.client()
    anna.join_link("https://example.test" + host.welcome["link"], name="Anna")
    assert host.recv_type("presence") == {
        "type": "presence", "role": "seat", "status": "joined", "seat": 1, "name": "Anna"}
    ben = relay_server.seat(host, name="Ben")
    assert (anna.welcome["seat"], ben.welcome["seat"]) == (1, 2)
    assert anna.welcome["token"] != ben.welcome["token"]
    assert len(anna.welcome["token"]) >= 22
    assert anna.welcome["host"] == "online"


def test_join_by_typed_code_and_pin(relay_server):
    host = relay_server.host()
    code = host.welcome["room"]
    typed = code[:3].lower() + " " + code[3:].lower()
    seat = relay_server.client()
    seat.join(typed, pin=host.welcome["pin"], name="Cem")
    assert seat.welcome["room"] == code and seat.welcome["seat"] == 1


def test_wrong_pins_switch_off_joining_by_pin_but_not_by_link(make_relay_server):
    server = make_relay_server({"RELAY_PIN_ATTEMPTS": 3})
    host = server.host()
    wrong = "%04d" % ((int(host.welcome["pin"]) + 1) % 10000)
    for tries_left in (2, 1, 0):
        guesser = server.client()
        with pytest.raises(RelayClosed) as closed:
            guesser.join(host.welcome["room"], pin=wrong)
        assert (closed.value.error_code, closed.value.close_code) == ("bad_token", 4003)
        assert closed.value.error["pin_tries_left"] == tries_left  # for the guesser's words: "Noch 2 Versuche"
    assert host.recv_type("pin_locked") == {"type": "pin_locked"}
    late = server.client()
    with pytest.raises(RelayClosed) as closed:
        late.join(host.welcome["room"], pin=host.welcome["pin"])
    # Even the right PIN is refused now, and told apart from a wrong one: use the link or QR code.
    assert (closed.value.error_code, closed.value.close_code) == ("pin_locked", 4007)
    assert server.seat(host).welcome["seat"] == 1
    again = server.client()
    assert again.resume(host.welcome["room"], host.welcome["token"])["pin_locked"] is True


def test_a_new_pin_unlocks_joining_by_pin_and_the_old_one_no_longer_joins(make_relay_server):
    server = make_relay_server({"RELAY_PIN_ATTEMPTS": 2})
    host = server.host()
    code, old_pin = host.welcome["room"], host.welcome["pin"]
    wrong = "%04d" % ((int(old_pin) + 1) % 10000)
    for _ in range(2):
        with pytest.raises(RelayClosed):
            server.client().join(code, pin=wrong)
    assert host.recv_type("pin_locked") == {"type": "pin_locked"}
    host.send({"type": "new_pin"})
    new_pin = host.recv_type("pin")["pin"]
    assert len(new_pin) == 4 and new_pin.isdigit()
    if new_pin != old_pin:  # 1 in 10,000 it is the same four digits again
        with pytest.raises(RelayClosed) as closed:
            server.client().join(code, pin=old_pin)
        assert closed.value.error_code == "bad_token" and closed.value.error["pin_tries_left"] == 1, "every try back"
    cem = server.client()
    cem.join(code, pin=new_pin, name="Cem")
    assert cem.welcome["seat"] == 1
    again = server.client()
    assert again.resume(code, host.welcome["token"])["pin"] == new_pin, "a host that reloads shows the new PIN"
    seat = server.client()
    seat.join(code, pin=new_pin, name="Dora")
    seat.send({"type": "new_pin"})  # only the host may
    with pytest.raises(RelayClosed) as closed:
        seat.recv_type("pin")
    assert closed.value.error_code == "forbidden"


def test_a_link_holder_looks_at_the_room_before_joining_and_sees_what_the_host_published(relay_server):
    host = relay_server.host()
    code, secret = host.welcome["room"], host.welcome["secret"]
    first = relay_server.client()
    assert first.look(code.lower(), secret) == {
        "type": "looked", "v": 1, "room": code, "about": None, "joining": True, "host": "online"}
    assert first.wait_closed().close_code == 1000, "a look takes no place: the socket closes"
    host.about({"game": "golf", "running": False})
    settle(host)
    assert relay_server.client().look(code, secret)["about"] == {"game": "golf", "running": False}
    # The host changes the game after the link went out: the next look says the new one.
    host.about({"game": "paodekuai", "running": True, "joins_at": "game"})
    host.set_joining(False)
    host.recv_type("joining")
    looked = relay_server.client().look(code, secret)
    assert looked["about"] == {"game": "paodekuai", "running": True, "joins_at": "game"}
    assert looked["joining"] is False
    host.set_joining(True)
    host.recv_type("joining")
    # Nobody took a place by looking: the first to join is seat 1, and the host heard of no one before it.
    seat = relay_server.client()
    seat.join(code, secret=secret, name="Anna")
    assert seat.welcome["seat"] == 1
    assert host.recv_type("presence")["name"] == "Anna"


def test_a_look_needs_the_link_secret(relay_server):
    host = relay_server.host()
    guesser = relay_server.client()
    guesser.send({"type": "look", "v": 1, "room": host.welcome["room"], "secret": "x" + host.welcome["secret"]})
    closed = guesser.wait_closed()
    assert (closed.error_code, closed.close_code) == ("bad_token", 4003)
    by_pin = relay_server.client()
    by_pin.send({"type": "look", "v": 1, "room": host.welcome["room"], "pin": host.welcome["pin"]})
    assert by_pin.wait_closed().error_code == "malformed"


def test_a_look_sees_the_host_away(relay_server):
    host = relay_server.host()
    code, secret = host.welcome["room"], host.welcome["secret"]
    seat = relay_server.seat(host)
    host.about({"game": "maumau"})
    settle(host)
    host.close()
    assert seat.recv_type("presence") == {"type": "presence", "role": "host", "status": "away"}
    looked = relay_server.client().look(code, secret)
    assert (looked["host"], looked["about"]) == ("away", {"game": "maumau"})


def test_a_host_tells_a_line_about_its_room_not_a_table(relay_server):
    host = relay_server.host()
    host.about({"game": "golf", "padding": "x" * 3000})
    closed = host.wait_closed()
    assert (closed.error_code, closed.close_code) == ("too_large", 1009)


def test_names_are_passed_as_text_and_limited(relay_server):
    host = relay_server.host()
    seat = relay_server.client()
    seat.join(host.welcome["room"], secret=host.welcome["secret"], name="<b>Ä&ö</b>")
    # The relay neither escapes nor strips markup: whoever renders a name escapes it.
    assert host.recv_type("presence")["name"] == "<b>Ä&ö</b>"
    for name in ("x" * 25, "Anna\nBen", "\x1b[31m"):
        bad = relay_server.client()
        with pytest.raises(RelayClosed) as closed:
            bad.join(host.welcome["room"], secret=host.welcome["secret"], name=name)
        assert (closed.value.error_code, closed.value.close_code) == ("malformed", 1007)


# ----- delivery -------------------------------------------------------------------------

def test_addressed_message_reaches_only_that_seat(relay_server):
    host = relay_server.host()
    seats = [relay_server.seat(host, name=n) for n in ("A", "B", "C")]
    tv = relay_server.seat(host, name="TV", role="screen")
    host.to_seat(2, {"hand": ["H7", "SK"]})
    assert seats[1].recv_type("msg") == {
        "type": "msg", "from": "host", "to": 2, "data": {"hand": ["H7", "SK"]}}
    assert_only_marker_next(host, seats[0], seats[2], tv)


def test_broadcast_reaches_every_seat_and_screen(relay_server):
    host = relay_server.host()
    clients = [relay_server.seat(host), relay_server.seat(host),
               relay_server.seat(host, role="screen")]
    host.to_all({"table": [1, 2, 3]})
    for client in clients:
        assert client.recv_type("msg") == {
            "type": "msg", "from": "host", "to": "all", "data": {"table": [1, 2, 3]}}


def test_screen_message_reaches_screens_and_no_seat(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    screens = [relay_server.seat(host, role="screen"), relay_server.seat(host, role="screen")]
    assert [s.welcome["screen"] for s in screens] == [1, 2]
    host.to_screens("table view")
    for screen in screens:
        assert screen.recv_type("msg")["to"] == "screens"
    assert_only_marker_next(host, seat)


def test_seat_message_reaches_the_host_stamped_with_the_real_seat(relay_server):
    host = relay_server.host()
    relay_server.seat(host)
    second = relay_server.seat(host)
    second.send({"type": "to_host", "from": "host", "seat": 1, "data": {"play": "SK"}})
    assert host.recv_type("msg") == {"type": "msg", "from": 2, "to": "host", "data": {"play": "SK"}}


@pytest.mark.parametrize("frame, code, close_code", [
    ({"type": "to_seat", "seat": 1, "data": "peek"}, "forbidden", 1008),
    ({"type": "to_all", "data": "fake deal"}, "forbidden", 1008),
    ({"type": "to_screens", "data": "fake table"}, "forbidden", 1008),
    ({"type": "to_seat", "seat": 1, "from": "host", "data": "as host"}, "forbidden", 1008),
    ({"type": "joining", "open": False}, "forbidden", 1008),
    ({"type": "about", "data": {"game": "golf"}}, "forbidden", 1008),
    ({"type": "end"}, "forbidden", 1008),
    ({"type": "create", "v": 1}, "malformed", 1007),
    ({"type": "resume", "v": 1, "room": "X", "token": "y"}, "malformed", 1007),
])
def test_seat_can_neither_address_a_seat_nor_act_as_host(relay_server, frame, code, close_code):
    host = relay_server.host()
    victim = relay_server.seat(host)
    attacker = relay_server.seat(host)
    if frame.get("type") == "resume":
        frame = dict(frame, room=host.welcome["room"], token=host.welcome["token"])
    attacker.send(frame)
    closed = attacker.wait_closed()
    assert (closed.error_code, closed.close_code) == (code, close_code)
    assert host.recv_type("presence") == {
        "type": "presence", "role": "seat", "status": "away", "seat": 2, "name": ""}
    # The room goes on: joining still open, nothing reached the victim but the marker.
    assert_only_marker_next(host, victim)
    assert relay_server.seat(host).welcome["seat"] == 3


def test_screen_is_watch_only(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    tv = relay_server.seat(host, role="screen")
    tv.to_host("hello")
    closed = tv.wait_closed()
    assert (closed.error_code, closed.close_code) == ("forbidden", 1008)
    assert host.recv_type("presence")["status"] == "away"
    seat.to_host("after")
    assert host.recv_type("msg") == {"type": "msg", "from": 1, "to": "host", "data": "after"}


def test_messages_from_one_sender_arrive_in_order(relay_server):
    host = relay_server.host()
    seats = [relay_server.seat(host), relay_server.seat(host)]
    for n in range(300):
        if n % 3:
            host.to_seat(1, n)
        else:
            host.to_all(n)
    assert [next_data(seats[0]) for _ in range(300)] == list(range(300))
    assert [next_data(seats[1]) for _ in range(100)] == list(range(0, 300, 3))

    def send_many(seat):
        for n in range(200):
            seat.to_host(n)

    senders = [threading.Thread(target=send_many, args=(seat,)) for seat in seats]
    for thread in senders:
        thread.start()
    for thread in senders:
        thread.join()
    received = {1: [], 2: []}
    for _ in range(400):
        frame = host.recv_type("msg")
        received[frame["from"]].append(frame["data"])
    assert received == {1: list(range(200)), 2: list(range(200))}


def test_ping_gets_pong(relay_server):
    host = relay_server.host()
    host.send({"type": "ping"})
    assert host.recv() == {"type": "pong"}


# ----- reconnect, away and back -------------------------------------------------------------

def test_seat_reconnects_with_its_token_and_the_old_socket_is_closed(relay_server):
    host = relay_server.host()
    old = relay_server.seat(host, name="Anna")
    other = relay_server.seat(host)
    new = relay_server.client()
    new.resume(host.welcome["room"], old.welcome["token"])
    assert new.welcome["seat"] == 1 and new.welcome["name"] == "Anna"
    closed = old.wait_closed()
    assert closed.close_code == 4000
    assert host.recv_type("presence") == {
        "type": "presence", "role": "seat", "status": "back", "seat": 1, "name": "Anna"}
    host.to_seat(1, "your view again")
    assert next_data(new) == "your view again"
    assert_only_marker_next(host, other, new)


def test_seat_away_is_told_to_the_host_and_misses_nothing_meant_for_others(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    seat.close()
    assert host.recv_type("presence")["status"] == "away"
    host.to_seat(1, "while away")  # dropped: the host resends the view on "back"
    settle(host)
    back = relay_server.client()
    back.resume(host.welcome["room"], seat.welcome["token"])
    assert host.recv_type("presence")["status"] == "back"
    host.to_seat(1, "fresh view")
    assert next_data(back) == "fresh view"


def test_host_away_and_back(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host, name="Anna")
    tv = relay_server.seat(host, name="TV", role="screen")
    host.close()
    for guest in (seat, tv):
        assert guest.recv_type("presence") == {"type": "presence", "role": "host", "status": "away"}
    seat.to_host("nobody hears this")
    settle(seat)
    relay_server.clock.advance(599)
    relay_server.relay.sweep()
    back = relay_server.client()
    welcome = back.resume(host.welcome["room"], host.welcome["token"])
    assert welcome["role"] == "host" and welcome["secret"] == host.welcome["secret"]
    assert welcome["places"] == [
        {"role": "seat", "seat": 1, "name": "Anna", "online": True},
        {"role": "screen", "screen": 1, "name": "TV", "online": True}]
    for guest in (seat, tv):
        assert guest.recv_type("presence") == {"type": "presence", "role": "host", "status": "back"}
    back.to_seat(1, "view")
    assert next_data(seat) == "view"
    seat.to_host("heard")
    assert next_data(back) == "heard"


def test_host_replaced_by_a_second_socket_with_its_token(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    second = relay_server.client()
    second.resume(host.welcome["room"], host.welcome["token"])
    assert host.wait_closed().close_code == 4000
    assert seat.recv_type("presence")["status"] == "back"
    second.to_seat(1, "from the new host socket")
    assert next_data(seat) == "from the new host socket"


# ----- expiry (the clock is moved by the test, the sweep is called by the test) -------

def test_room_closes_when_the_host_stays_away_past_the_grace_time(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    host.close()
    assert seat.recv_type("presence")["status"] == "away"
    relay_server.clock.advance(599)
    relay_server.relay.sweep()
    assert relay_server.relay.room_count() == 1
    relay_server.clock.advance(1)
    relay_server.relay.sweep()
    assert seat.recv_type("closed") == {"type": "closed", "reason": "host_gone"}
    assert seat.wait_closed().close_code == 1001
    late = relay_server.client()
    with pytest.raises(RelayClosed) as closed:
        late.resume(host.welcome["room"], host.welcome["token"])
    assert (closed.value.error_code, closed.value.close_code) == ("unknown_room", 4004)


def test_seat_loses_its_place_after_the_grace_time_and_the_number_is_free_again(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host, name="Anna")
    seat.close()
    assert host.recv_type("presence")["status"] == "away"
    relay_server.clock.advance(300)
    relay_server.relay.sweep()
    assert host.recv_type("presence") == {
        "type": "presence", "role": "seat", "status": "gone", "seat": 1, "name": "Anna",
        "reason": "timeout"}
    late = relay_server.client()
    with pytest.raises(RelayClosed) as closed:
        late.resume(host.welcome["room"], seat.welcome["token"])
    assert (closed.value.error_code, closed.value.close_code) == ("bad_token", 4003)
    assert relay_server.seat(host).welcome["seat"] == 1


def test_expired_seat_cannot_resume_even_before_a_sweep(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    seat.close()
    assert host.recv_type("presence")["status"] == "away"
    relay_server.clock.advance(301)
    late = relay_server.client()
    with pytest.raises(RelayClosed) as closed:
        late.resume(host.welcome["room"], seat.welcome["token"])
    assert closed.value.error_code == "bad_token"
    assert host.recv_type("presence")["status"] == "gone"


@pytest.mark.parametrize("send", ["to_all", "to_seat"])
def test_idle_room_expires_and_activity_keeps_it(relay_server, send):
    host = relay_server.host()
    seat = relay_server.seat(host)
    relay_server.clock.advance(3599)
    if send == "to_all":
        host.to_all("still playing")
    else:  # with Redis this one never leaves the process: the room is marked active all the same
        host.to_seat(1, "still playing")
    assert next_data(seat) == "still playing"
    # The seat is written to before the host's thread tells Redis the room is active: wait until
    # that thread is done with the frame, so the sweep (which waits for Redis) counts it.
    settle(host)
    relay_server.clock.advance(3599)
    relay_server.relay.sweep()
    assert relay_server.relay.room_count() == 1
    relay_server.clock.advance(1)
    relay_server.relay.sweep()
    for client in (host, seat):
        assert client.recv_type("closed") == {"type": "closed", "reason": "idle"}
        assert client.wait_closed().close_code == 1001


def test_seat_leaves_for_good(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host, name="Anna")
    seat.send({"type": "leave"})
    assert seat.recv_type("closed") == {"type": "closed", "reason": "left"}
    assert seat.wait_closed().close_code == 1000
    assert host.recv_type("presence") == {
        "type": "presence", "role": "seat", "status": "gone", "seat": 1, "name": "Anna",
        "reason": "left"}
    again = relay_server.client()
    with pytest.raises(RelayClosed) as closed:
        again.resume(host.welcome["room"], seat.welcome["token"])
    assert closed.value.error_code == "bad_token"


def test_host_ends_the_room(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    host.send({"type": "end"})
    for client in (host, seat):
        assert client.recv_type("closed") == {"type": "closed", "reason": "ended"}
        assert client.wait_closed().close_code == 1000
    late = relay_server.client()
    with pytest.raises(RelayClosed) as closed:
        late.join(host.welcome["room"], secret=host.welcome["secret"])
    assert closed.value.error_code == "unknown_room"


def test_compression_is_negotiated_only_when_configured(make_relay_server):
    plain = make_relay_server().client()
    assert plain.ws.protocol.extensions == []
    deflating = make_relay_server({"RELAY_COMPRESSION": True}).client()
    assert [e.name for e in deflating.ws.protocol.extensions] == ["permessage-deflate"]
    deflating.create()
    deflating.to_all("x" * 1000)
    settle(deflating)


def test_background_sweeper_expires_rooms_by_itself(make_relay_server):
    server = make_relay_server({"RELAY_SWEEP_INTERVAL": 0.05})
    host = server.host()
    seat = server.seat(host)
    host.close()
    assert seat.recv_type("presence")["status"] == "away"
    server.clock.advance(600)
    # No sweep() call here: the relay's own sweeper thread notices the expiry.
    assert seat.recv_type("closed") == {"type": "closed", "reason": "host_gone"}


@pytest.mark.parametrize("size", [0, 125, 126, 65535, 65536])
def test_a_prebuilt_frame_is_the_frame_the_websocket_library_would_send(size):
    from wsproto.connection import Connection, ConnectionType
    from wsproto.events import TextMessage

    from server.relay import wire_frame

    library = Connection(ConnectionType.SERVER)  # the open connection after the handshake
    text = "ä" * (size // 2) + "x" * (size % 2)  # `size` bytes of UTF-8
    assert wire_frame(text) == library.send(TextMessage(data=text))

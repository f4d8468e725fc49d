"""Room relay hardening: frames that could not go out again, names that imitate others,
per-address limits, handshakes that are not websockets. Every relay test runs in memory and on Redis."""

import http.client
import json
import time
from types import SimpleNamespace

import pytest

from server.relay import RelayError, address_key
from tests.relay_client import RelayClosed, create_frame, join_frame, look_frame, resume_frame
from tests.relay_fixtures import (  # noqa: F401  (fixtures)
    make_relay_server, relay_server, relay_servers, session_redis, shared_relay_server)
from tests.test_relay_errors import RawClient, expect_error, refuse_host_frame, settle


# ----- strings that are not Unicode text, numbers JSON does not have -------------------------

LONE = "\ud800x"  # json.dumps writes it as the escape \ud800, as a hostile client would


def test_a_lone_surrogate_in_a_name_is_malformed_and_the_room_goes_on(relay_server):
    host = relay_server.host()
    room, secret = host.welcome["room"], host.welcome["secret"]
    bad = relay_server.client()
    # The raw text of the audit: the escape as JSON text, not a character.
    bad.send_raw('{"type":"join","v":1,"room":"%s","secret":"%s","name":"\\ud800x"}' % (room, secret))
    expect_error(bad, "malformed", 1007)
    for name in (LONE, "\udc00", "a\udfffb"):
        bad = relay_server.client()
        bad.send(join_frame(room, secret=secret, name=name))
        expect_error(bad, "malformed", 1007)
    # Nothing was stored: the next seat is seat 1 and the host hears of it and only of it.
    seat = relay_server.seat(host, name="Anna")
    assert seat.welcome["seat"] == 1
    host.close()
    assert seat.recv_type("presence")["status"] == "away"
    back = relay_server.client()
    resumed = back.resume(room, host.welcome["token"])
    assert resumed["places"] == [{"role": "seat", "seat": 1, "name": "Anna", "online": True}]
    back.to_seat(1, "weiter")
    assert seat.recv_type("msg")["data"] == "weiter"


@pytest.mark.parametrize("frame", [
    {"type": "to_all", "data": LONE},
    {"type": "to_seat", "seat": 1, "data": {"hand": [LONE]}},
    {"type": "to_screens", "data": {LONE: 1}},
    {"type": "about", "data": {"game": LONE}},
    {"type": "to_all", "data": 1, "extra": LONE},
])
def test_a_lone_surrogate_in_a_host_frame_is_malformed(relay_server, frame):
    host = refuse_host_frame(relay_server, json.dumps(frame))
    looker = relay_server.client()
    assert looker.look(host.welcome["room"], host.welcome["secret"])["about"] is None


def test_a_lone_surrogate_from_a_seat_is_malformed(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    seat.to_host({"play": LONE})
    expect_error(seat, "malformed", 1007)
    assert host.recv_type("presence")["status"] == "away"
    settle(host)


@pytest.mark.parametrize("make", [
    lambda room, secret, token: join_frame(room, secret=secret + LONE),
    lambda room, secret, token: join_frame(room, pin="12\udc0034"),
    lambda room, secret, token: join_frame(room + LONE, secret=secret),
    lambda room, secret, token: look_frame(room, LONE),
    lambda room, secret, token: resume_frame(room, token + LONE),
    lambda room, secret, token: dict(create_frame(), note=LONE),
])
def test_a_lone_surrogate_in_a_hello_is_malformed(relay_server, make):
    host = relay_server.host()
    client = relay_server.client()
    client.send(make(host.welcome["room"], host.welcome["secret"], host.welcome["token"]))
    expect_error(client, "malformed", 1007)
    assert relay_server.relay.room_count() == 1
    settle(host)


def test_surrogate_pairs_and_escaped_backslashes_pass(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host, name="Anna \U0001F600")
    # A pair as escapes is one character; "\\ud800" is a backslash and five letters.
    host.send_raw('{"type": "to_all", "data": ["\\ud83d\\ude00", "\\\\ud800", "\\uD83C\\uDCA1"]}')
    assert seat.recv_type("msg")["data"] == ["\U0001F600", "\\ud800", "\U0001F0A1"]
    settle(host)


@pytest.mark.parametrize("text", [
    '{"type": "to_all", "data": 1e400}',
    '{"type": "to_seat", "seat": 1, "data": {"score": [1, -1E+400]}}',
    '{"type": "to_screens", "data": 1%s.0}' % ("0" * 400),
    '{"type": "about", "data": {"x": 1e999}}',
])
def test_a_number_too_large_for_a_float_is_malformed(relay_server, text):
    host = refuse_host_frame(relay_server, text)
    looker = relay_server.client()
    assert looker.look(host.welcome["room"], host.welcome["secret"])["about"] is None


def test_a_number_too_large_from_a_seat_is_malformed_and_large_finite_ones_pass(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    seat.send_raw('{"type": "to_host", "data": [1e308, -2.5e-300, 1%s]}' % ("0" * 400))
    assert host.recv_type("msg")["data"] == [1e308, -2.5e-300, 10 ** 400]
    seat.send_raw('{"type": "to_host", "data": 2e308}')
    expect_error(seat, "malformed", 1007)
    assert host.recv_type("presence")["status"] == "away"


# ----- names -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [
    "Anna\u202e", "\u202aBert", "Ca\u202brl", "Dora\u202c", "\u202dEva", "\u2066Fritz\u2069",
    "Gabi\u2067", "\u2068Hans", "Ida\u200e", "Jan\u200f", "Karl\u061c", "\u202enna", "Anna\x07",
])
def test_names_with_bidi_or_control_characters_are_malformed(relay_server, name):
    host = relay_server.host()
    client = relay_server.client()
    client.send(join_frame(host.welcome["room"], secret=host.welcome["secret"], name=name))
    expect_error(client, "malformed", 1007)
    assert relay_server.seat(host, name="Anna").welcome["seat"] == 1


def test_names_with_joiners_and_emoji_pass(relay_server):
    host = relay_server.host()
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467 Zoë"  # a family emoji is joined by ZWJs
    seat = relay_server.seat(host, name=family)
    assert seat.welcome["name"] == family
    arabic = "\u0644\u064a\u0644\u0649"  # right-to-left letters are fine; only the controls are not
    assert relay_server.seat(host, name=arabic).welcome["name"] == arabic


# ----- per-address limits ------------------------------------------------------------------

LIMITS = {"RELAY_ADDRESS_EXEMPT": (), "RELAY_MAX_SOCKETS_PER_ADDRESS": 3,
          "RELAY_MAX_ROOMS_PER_ADDRESS": 3, "RELAY_ADDRESS_WINDOW": 600.0}


def eventually(check, seconds=5.0):
    """Retry `check` (which raises while not yet true) until it passes or time runs out."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return check()
        except (AssertionError, RelayClosed):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def test_one_address_may_hold_only_so_many_sockets(make_relay_server):
    server = make_relay_server(LIMITS)
    host = server.host()
    seat = server.seat(host)
    silent = server.client()  # never says hello: it counts all the same
    # The relay counts a socket once its handshake is done, in the socket's own thread: wait for it, or
    # the fourth could be counted first and the silent one refused instead.
    def silent_counted():
        assert len(server.relay.connections) == 3
    eventually(silent_counted)
    fourth = server.client()
    expect_error(fourth, "address_limit", 1013)
    # Another address is not held up by this one.
    other = server.client(source="127.0.0.2")
    assert other.create()["type"] == "created"
    # A socket that closes gives its place back.
    silent.close()
    eventually(lambda: server.client().create())
    host.to_seat(1, "still here")
    assert seat.recv_type("msg")["data"] == "still here"


def test_one_address_may_create_only_so_many_rooms_in_a_window(make_relay_server):
    server = make_relay_server(LIMITS)
    for _ in range(3):  # create, then close: the rooms stay and wait for their hosts
        server.host().close()
    refused = server.client()
    refused.send(create_frame())
    expect_error(refused, "address_limit", 1013)
    assert server.relay.room_count() == 3
    # Joining is not creating; another address creates; the window passes and this one creates again.
    host = server.client(source="127.0.0.2")
    host.create()
    assert server.seat(host).welcome["seat"] == 1
    server.clock.advance(599)
    refused = server.client()
    refused.send(create_frame())
    expect_error(refused, "address_limit", 1013)
    server.clock.advance(1)
    assert server.host().welcome["room"]


def test_the_machine_itself_is_exempt_by_default(make_relay_server):
    server = make_relay_server({"RELAY_MAX_SOCKETS_PER_ADDRESS": 1, "RELAY_MAX_ROOMS_PER_ADDRESS": 1})
    hosts = [server.host() for _ in range(3)]
    assert len({h.welcome["room"] for h in hosts}) == 3
    assert server.client(source="127.0.0.2").create()["type"] == "created"
    expect_error(server.client(source="127.0.0.2"), "address_limit", 1013)


def test_redis_counts_an_address_across_processes_and_forgets_a_dead_process(
        make_relay_server, session_redis):
    server = make_relay_server(LIMITS)
    if server.backend != "redis":
        pytest.skip("one process in memory")
    from server.relay_redis import RedisRelay

    first = server.relay
    second = RedisRelay(dict(first.config, RELAY_CLOCK=server.clock), session_redis.url)
    try:
        for relay, process in ((first, "first"), (second, "second")):
            relay.process = process
            relay._beat()

        def conn(peer="203.0.113.9"):
            return SimpleNamespace(peer=peer, peer_counted=False)

        held = [conn(), conn()]
        assert all(first._count_socket(c) for c in held)
        assert second._count_socket(conn())
        assert not second._count_socket(conn())
        assert second._count_socket(conn("203.0.113.10"))
        first._uncount_socket(held[0])
        assert second._count_socket(conn())
        # The first process dies without giving its counts back: they no longer count.
        first.redis.delete(first._process_key("first"))
        assert second._count_socket(conn())
        assert not second._count_socket(conn())
        for relay in (first, second, first):
            relay._count_room(conn(), server.clock())
        with pytest.raises(RelayError) as refused:
            second._count_room(conn(), server.clock())
        assert refused.value.code == "address_limit"
    finally:
        second.close_all()


def test_a_socket_whose_handshake_crosses_the_shutdown_is_told_shutdown_too(relay_server):
    # close_all lists the sockets it closes; one whose handshake came through just after was left waiting for a
    # hello and closed 10 s later as hello_timeout (a full run with three test workers met it on Ctrl+C).
    relay_server.relay.close_all()
    late = relay_server.client()
    closed = late.wait_closed()
    assert (closed.close_code, closed.reason) == (1001, "shutdown")


# ----- handshakes that are not websockets ----------------------------------------------------

KEY = "dGhlIHNhbXBsZSBub25jZQ=="


def get_relay(server, headers):
    """GET the relay's path with these headers; return (status, Sec-WebSocket-Version header)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", server.app.config["RELAY_PATH"], headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Sec-WebSocket-Version")
    finally:
        connection.close()


@pytest.mark.parametrize("headers, expected", [
    ({"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": KEY}, (400, "13")),
    ({"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13"}, (400, None)),
    ({"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": KEY,
      "Sec-WebSocket-Version": "8"}, (426, "13")),
])
def test_a_broken_websocket_handshake_is_a_bad_request_not_a_server_error(relay_server, headers, expected):
    assert get_relay(relay_server, headers) == expected
    assert relay_server.client().create()["type"] == "created"


def test_a_plain_get_of_the_relay_is_no_server_error(relay_server):
    status, _ = get_relay(relay_server, {})
    assert status < 500


# ----- a line that goes silent ---------------------------------------------------------------

def test_a_host_whose_line_goes_silent_is_shown_away_to_its_seats(make_relay_server):
    # The relay's websocket pings find a silent line (no close, no reset, nothing read or written):
    # the app's own pings are not needed for that, and a device that only receives sends none.
    server = make_relay_server({"RELAY_PING_INTERVAL": 1.0}, own_app=True)
    host = RawClient(server.port, "/relay")
    host.send(create_frame())
    created = json.loads(host.next_event().data)
    seat = server.client()
    assert seat.join(created["room"], secret=created["secret"])["host"] == "online"
    # The raw host answers nothing and reads nothing, like a phone whose Wi-Fi went away: it is
    # closed at the second ping, 2 s after it opened.
    assert seat.recv_type("presence", timeout=5) == {"type": "presence", "role": "host", "status": "away"}
    back = server.client()
    assert back.resume(created["room"], created["token"])["places"][0]["online"] is True


@pytest.mark.parametrize("peer, key", [
    ("203.0.113.9", "203.0.113.9"),
    ("2001:db8:1:2:a:b:c:d", "2001:db8:1:2::/64"),
    ("2001:db8:1:2::ffff", "2001:db8:1:2::/64"),  # the same network: one address for the limits
    ("::ffff:203.0.113.9", "203.0.113.9"),
    ("fe80::1%eth0", "fe80::/64"),
    ("unix-socket", "unix-socket"),
    (None, None),
])
def test_ipv6_addresses_count_by_their_network(peer, key):
    assert address_key(peer) == key

"""Room relay bad input: every error arrives as a frame with its code, then the matching close."""

import json
import os
import socket

import pytest
from websockets.exceptions import InvalidStatus
from wsproto import ConnectionType, WSConnection
from wsproto.events import (AcceptConnection, CloseConnection, Ping, Request,
                            TextMessage)

from tests.relay_client import create_frame, join_frame
from server import create_app
from tests.relay_fixtures import (  # noqa: F401  (fixtures)
    TEST_CONFIG, make_relay_server, relay_server, relay_servers, shared_relay_server)


def expect_error(client, code, close_code):
    """Read until the relay closes; check the error frame's code and the close code."""
    closed = client.wait_closed()
    assert (closed.error_code, closed.close_code) == (code, close_code)


def settle(client):
    """Return once the relay has handled every frame this client sent."""
    client.send({"type": "ping"})
    client.recv_type("pong")


# ----- joining -------------------------------------------------------------------------------

def test_unknown_room(relay_server):
    host = relay_server.host()
    unknown = "22222" + ("3" if host.welcome["room"] != "222223" else "4")
    for frame in (join_frame(unknown, secret=host.welcome["secret"]),
                  {"type": "resume", "v": 1, "room": unknown, "token": host.welcome["token"]}):
        client = relay_server.client()
        client.send(frame)
        expect_error(client, "unknown_room", 4004)


def altered(secret):
    """Return the secret with its last character changed (never the secret itself)."""
    return secret[:-1] + ("B" if secret.endswith("A") else "A")


def test_wrong_secret_and_wrong_token(relay_server):
    host = relay_server.host()
    room = host.welcome["room"]
    seat = relay_server.seat(host)
    for frame in (join_frame(room, secret=altered(host.welcome["secret"])),
                  join_frame(room, secret=""),
                  {"type": "resume", "v": 1, "room": room, "token": seat.welcome["token"] + "x"},
                  {"type": "resume", "v": 1, "room": room, "token": host.welcome["secret"]}):
        client = relay_server.client()
        client.send(frame)
        expect_error(client, "bad_token", 4003)
    host.to_seat(1, "still here")
    assert seat.recv_type("msg")["data"] == "still here"


def test_room_full_at_eight_seats_and_at_the_screen_limit(make_relay_server):
    server = make_relay_server({"RELAY_MAX_SCREENS": 2})
    host = server.host()
    seats = [server.seat(host) for _ in range(8)]
    assert [s.welcome["seat"] for s in seats] == list(range(1, 9))
    ninth = server.client()
    ninth.send(join_frame(host.welcome["room"], secret=host.welcome["secret"]))
    expect_error(ninth, "room_full", 4005)
    screens = [server.seat(host, role="screen") for _ in range(2)]
    third = server.client()
    third.send(join_frame(host.welcome["room"], secret=host.welcome["secret"], role="screen"))
    expect_error(third, "room_full", 4005)
    host.to_all("all eight and two screens")
    for client in seats + screens:
        assert client.recv_type("msg")["data"] == "all eight and two screens"


def test_host_closes_and_reopens_joining(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    host.set_joining(False)
    assert host.recv_type("joining") == {"type": "joining", "open": False}
    for role in ("seat", "screen"):
        late = relay_server.client()
        late.send(join_frame(host.welcome["room"], secret=host.welcome["secret"], role=role))
        expect_error(late, "joining_closed", 4006)
    seat.close()
    assert host.recv_type("presence")["status"] == "away"
    back = relay_server.client()
    assert back.resume(host.welcome["room"], seat.welcome["token"])["seat"] == 1
    assert host.recv_type("presence")["status"] == "back"
    host.set_joining(True)
    assert host.recv_type("joining") == {"type": "joining", "open": True}
    assert relay_server.seat(host).welcome["seat"] == 2


# ----- malformed frames -----------------------------------------------------------------

HELLO_ERRORS = [
    ("not json", "malformed"),
    ("{\"type\": \"create\", \"v\": 1", "malformed"),
    ("[1, 2]", "malformed"),
    ("\"create\"", "malformed"),
    ("{}", "malformed"),
    ('{"type": 7, "v": 1}', "malformed"),
    ('{"type": "dance", "v": 1}', "malformed"),
    ('{"type": "create"}', "malformed"),
    ('{"type": "create", "v": "1"}', "malformed"),
    ('{"type": "create", "v": true}', "malformed"),
    ('{"type": "create", "v": NaN}', "malformed"),
    ('{"type": "to_host", "data": 1}', "malformed"),
    ('{"type": "ping"}', "malformed"),
    ('{"type": "join", "v": 1, "secret": "s"}', "malformed"),
    ('{"type": "join", "v": 1, "room": 123456, "secret": "s"}', "malformed"),
    ('{"type": "join", "v": 1, "room": "ABCDEF"}', "malformed"),
    ('{"type": "join", "v": 1, "room": "ABCDEF", "secret": 5}', "malformed"),
    ('{"type": "join", "v": 1, "room": "ABCDEF", "pin": 1234}', "malformed"),
    ('{"type": "join", "v": 1, "room": "ABCDEF", "secret": "s", "name": ["A"]}', "malformed"),
    ('{"type": "join", "v": 1, "room": "ABCDEF", "secret": "s", "role": "host"}', "malformed"),
    ('{"type": "resume", "v": 1, "room": "ABCDEF"}', "malformed"),
    ('{"type": "resume", "v": 1, "room": "ABCDEF", "token": null}', "malformed"),
    ('{"type": "create", "v": 2}', "unsupported_version"),
]


@pytest.mark.parametrize("text, code", HELLO_ERRORS)
def test_bad_hello(relay_server, text, code):
    client = relay_server.client()
    client.send_raw(text)
    expect_error(client, code, {"malformed": 1007, "unsupported_version": 4001}[code])
    assert relay_server.relay.room_count() == 0


HOST_FRAME_ERRORS = [
    "{",
    '{"type": "to_seat", "data": 1}',
    '{"type": "to_seat", "seat": "1", "data": 1}',
    '{"type": "to_seat", "seat": true, "data": 1}',
    '{"type": "to_seat", "seat": 1.0, "data": 1}',
    '{"type": "to_seat", "seat": 0, "data": 1}',
    '{"type": "to_seat", "seat": 9, "data": 1}',
    '{"type": "to_seat", "seat": 1}',
    '{"type": "to_all"}',
    '{"type": "to_screens", "seat": 1}',
    '{"type": "joining", "open": "no"}',
    '{"type": "joining"}',
    '{"type": "to_all", "data": Infinity}',
]


def refuse_host_frame(relay_server, text):
    """Send a bad host frame: the host's socket closes as malformed, the seat hears nothing of it, and the
    host resumes and relays again. Return the host's first client (its welcome has the room and secret)."""
    host = relay_server.host()
    seat = relay_server.seat(host)
    host.send_raw(text)
    expect_error(host, "malformed", 1007)
    assert seat.recv_type("presence") == {"type": "presence", "role": "host", "status": "away"}
    # Nothing reached the seat; the room waits for its host, who resumes.
    back = relay_server.client()
    back.resume(host.welcome["room"], host.welcome["token"])
    back.to_all("marker")
    assert seat.recv_type("msg")["data"] == "marker"
    return host


@pytest.mark.parametrize("text", HOST_FRAME_ERRORS)
def test_bad_host_frame_closes_the_host_socket_only(relay_server, text):
    refuse_host_frame(relay_server, text)


@pytest.mark.parametrize("text", [
    '{"type": "to_host"}', '{"type": "leave", "v": 1, "x": []} x', "null"])
def test_bad_seat_frame(relay_server, text):
    host = relay_server.host()
    seat = relay_server.seat(host)
    seat.send_raw(text)
    expect_error(seat, "malformed", 1007)
    assert host.recv_type("presence")["status"] == "away"


def test_binary_frame(relay_server):
    host = relay_server.host()
    host.send_raw(json.dumps({"type": "to_all", "data": 1}).encode())
    expect_error(host, "binary_frame", 1003)


def test_deeply_nested_json_is_malformed_not_a_crash(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    host.send_raw('{"type": "to_all", "data": ' + "[" * 20000 + "]" * 20000 + "}")
    expect_error(host, "malformed", 1007)
    assert seat.recv_type("presence")["status"] == "away"


# ----- size and rate limits --------------------------------------------------------------

def frame_of_size(size, seat=1):
    """Return a to_seat frame whose JSON text is exactly `size` bytes, using 2-byte characters."""
    empty = json.dumps({"type": "to_seat", "seat": seat, "data": ""}, ensure_ascii=False)
    room = size - len(empty.encode())
    data = "ä" * (room // 2) + "x" * (room % 2)
    text = json.dumps({"type": "to_seat", "seat": seat, "data": data}, ensure_ascii=False)
    assert len(text.encode()) == size
    return text, data


def test_message_at_the_limit_passes_and_one_byte_more_is_too_large(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    text, data = frame_of_size(64 * 1024)
    host.send_raw(text)
    assert seat.recv_type("msg")["data"] == data
    text, _ = frame_of_size(64 * 1024 + 1)
    host.send_raw(text)
    expect_error(host, "too_large", 1009)
    assert seat.recv_type("presence")["status"] == "away"


def test_seat_message_too_large(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    seat.to_host("y" * (64 * 1024))
    expect_error(seat, "too_large", 1009)
    assert host.recv_type("presence")["status"] == "away"


def test_huge_frame_is_cut_off_while_arriving(relay_server):
    host = relay_server.host()
    seat = relay_server.seat(host)
    # Past four times the limit the websocket layer stops reading: close 1009, no error frame.
    host.to_seat(1, os.urandom(200 * 1024).hex())
    closed = host.wait_closed()
    assert closed.close_code == 1009
    assert seat.recv_type("presence")["status"] == "away"


def test_too_many_messages(make_relay_server):
    server = make_relay_server({"RELAY_SEAT_RATE": 2.0, "RELAY_SEAT_BURST": 3,
                                "RELAY_HOST_RATE": 5.0, "RELAY_HOST_BURST": 5})
    host = server.host()  # the hello spends one of the seat-sized bucket's frames
    seat = server.client()
    seat.join(host.welcome["room"], secret=host.welcome["secret"])
    assert host.recv_type("presence")["status"] == "joined"
    seat.to_host(1)
    seat.to_host(2)
    assert [host.recv_type("msg")["data"] for _ in range(2)] == [1, 2]
    server.clock.advance(0.5)  # refills one frame
    seat.to_host(3)
    assert host.recv_type("msg")["data"] == 3
    seat.to_host(4)
    expect_error(seat, "rate_limited", 1008)
    assert host.recv_type("presence")["status"] == "away"
    for n in range(5):
        host.to_all(n)
    host.to_all("one too many")
    expect_error(host, "rate_limited", 1008)


# ----- server limits, origin, hello timeout ------------------------------------------------

def test_server_full_by_connections(make_relay_server):
    server = make_relay_server({"RELAY_MAX_CONNECTIONS": 2})
    host = server.host()
    server.seat(host)
    third = server.client()
    expect_error(third, "server_full", 1013)


def test_server_full_by_rooms(make_relay_server):
    server = make_relay_server({"RELAY_MAX_ROOMS": 2})
    first = server.host()
    server.host()
    third = server.client()
    third.send(create_frame())
    expect_error(third, "server_full", 1013)
    first.send({"type": "end"})
    assert first.recv_type("closed")["reason"] == "ended"
    assert server.host().welcome["room"] != first.welcome["room"]


def test_foreign_origin_is_refused_at_the_handshake(relay_server):
    with pytest.raises(InvalidStatus) as refused:
        relay_server.client(origin="http://evil.example")
    assert refused.value.response.status_code == 403
    same = relay_server.client(origin="http://127.0.0.1:%d" % relay_server.port)
    assert same.create()["type"] == "created"
    no_origin = relay_server.client()  # not a browser: nothing for the check to protect
    assert no_origin.create()["type"] == "created"


def test_allowed_origins_from_the_config(make_relay_server):
    server = make_relay_server({"RELAY_ALLOWED_ORIGINS": ["https://spiele.example"]})
    assert server.client(origin="https://spiele.example").create()["type"] == "created"
    for origin in ("http://127.0.0.1:%d" % server.port, "https://spiele.example.evil"):
        with pytest.raises(InvalidStatus):
            server.client(origin=origin)


def test_silent_socket_gets_a_hello_timeout(make_relay_server):
    server = make_relay_server({"RELAY_HELLO_TIMEOUT": 0.2})
    expect_error(server.client(), "hello_timeout", 1008)


# ----- keepalive and stuck phones (raw websocket clients built with wsproto) --------------

class RawClient:
    """A bare websocket client that answers nothing by itself: no pongs, no reads unless asked."""

    def __init__(self, port, path, receive_buffer=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if receive_buffer:
            # Set before connecting: it caps the window the server may fill, whatever the
            # machine's tcp_rmem (some allow 32 MB, more than a test should send).
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.connect(("127.0.0.1", port))
        self.sock.settimeout(10)  # a hang guard, not a measurement
        self.ws = WSConnection(ConnectionType.CLIENT)
        self.sock.sendall(self.ws.send(Request(host="127.0.0.1", target=path)))
        assert isinstance(self.next_event(), AcceptConnection)

    def send(self, frame):
        self.sock.sendall(self.ws.send(TextMessage(data=json.dumps(frame))))

    def next_event(self):
        while True:
            for event in self.ws.events():
                return event
            self.ws.receive_data(self.sock.recv(65536))


def test_server_pings_and_drops_a_phone_that_stops_answering(make_relay_server):
    server = make_relay_server({"RELAY_PING_INTERVAL": 0.2}, own_app=True)
    host = server.host()  # this client answers pings, so it stays
    phone = RawClient(server.port, "/relay")
    phone.send(join_frame(host.welcome["room"], secret=host.welcome["secret"]))
    assert json.loads(phone.next_event().data)["type"] == "joined"
    assert host.recv_type("presence")["status"] == "joined"
    assert isinstance(phone.next_event(), Ping)
    # No pong: at the next interval the server gives up on the phone and tells the host.
    event = phone.next_event()
    assert isinstance(event, CloseConnection) and event.code == 1008
    assert host.recv_type("presence") == {
        "type": "presence", "role": "seat", "status": "away", "seat": 1, "name": ""}
    settle(host)


def test_a_phone_that_stops_reading_is_dropped_without_stalling_the_room(make_relay_server):
    server = make_relay_server({"RELAY_SEND_TIMEOUT": 0.3})
    host = server.host()
    stuck = RawClient(server.port, "/relay", receive_buffer=4096)
    stuck.send(join_frame(host.welcome["room"], secret=host.welcome["secret"]))
    assert host.recv_type("presence")["seat"] == 1
    reader = server.seat(host)
    view = os.urandom(20 * 1024).hex()  # random: compression cannot shrink it much
    notice = None
    for _ in range(2000):  # bounded: the server's send buffer (at most a few MB) fills long before
        host.to_seat(1, view)
        try:
            notice = host.recv(timeout=0)
        except TimeoutError:
            continue
        if notice.get("type") == "presence":
            break
    if notice is None or notice.get("type") != "presence":
        notice = host.recv_type("presence")
    assert notice == {"type": "presence", "role": "seat", "status": "away", "seat": 1, "name": ""}
    host.to_seat(2, "you still get yours")
    assert reader.recv_type("msg")["data"] == "you still get yours"


def test_healthz_says_whether_this_process_can_serve_rooms(relay_server):
    """An operator's audit: a load balancer or a monitor had nothing to ask (/healthz was a 404)."""
    answer = relay_server.app.test_client().get("/healthz")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"
    facts = answer.get_json()
    assert facts["ok"] is True and facts["rooms"] in ("memory", "redis")
    assert facts.get("redis", "ok") == "ok"


def test_healthz_is_503_while_redis_is_out_of_reach():
    from server.relay_redis import RedisRelay
    from spieleabend.testing.redis import free_port

    app = create_app(dict(TEST_CONFIG))
    app.extensions["relay"] = RedisRelay(dict(app.config), "redis://127.0.0.1:%d/0" % free_port())
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503
    assert answer.get_json() == {"ok": False, "rooms": "redis", "redis": "out of reach"}

"""Room relay: a host and its seats exchange JSON frames over websockets; the server only relays.

One `Relay` object owns every room behind one lock. Each websocket is served by
its own thread (werkzeug threaded or gunicorn gthread), which reads frames,
checks them, and writes the relayed frame straight to the recipients' sockets,
so frames from one sender leave in the order they arrived. The protocol is
described in docs/rooms.md; keep the two in step.
"""

import ipaddress
import json
import re
import secrets
import select
import socket
import struct
import threading
import time
import unicodedata
from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, current_app, jsonify, request
from flask_sock import Sock
from simple_websocket import ConnectionClosed
from wsproto.connection import ConnectionState
from wsproto.events import Ping, TextMessage
from wsproto.utilities import LocalProtocolError, RemoteProtocolError

from spieleabend.protocol import (  # noqa: F401  (re-exported for tests and tools)
    CODE_ALPHABET, CODE_LENGTH, PROTOCOL_VERSION, REPLACED_CLOSE, normalize_code)


DEFAULTS = {
    "RELAY_PATH": "/relay",
    "RELAY_ALLOWED_ORIGINS": None,  # None: only the page's own origin; or a list of origins
    "RELAY_MAX_ROOMS": 500,
    "RELAY_MAX_CONNECTIONS": 1500,  # keep below gunicorn --threads: each socket holds one
    "RELAY_MAX_SEATS": 8,
    "RELAY_MAX_SCREENS": 4,
    "RELAY_MAX_NAME": 24,
    "RELAY_MAX_MESSAGE_BYTES": 64 * 1024,
    "RELAY_HOST_GRACE": 600.0,  # seconds a room waits for its host to come back
    "RELAY_SEAT_GRACE": 600.0,  # seconds a seat keeps its place while disconnected
    "RELAY_IDLE_EXPIRY": 7200.0,  # seconds without a relayed message before a room closes
    "RELAY_HELLO_TIMEOUT": 10.0,
    # Websocket pings: a socket that leaves one unanswered by the next is closed and its place is away,
    # so a phone whose network went silent (no close, no reset) is noticed within two intervals and
    # shown away on every device within 2 s (issue 28); they also keep proxies from dropping quiet
    # phones. Browsers answer by themselves. Cost at the relay (bench.relay_load --ping-intervals):
    # 101 us of CPU per socket and second at 1 s, 144 us at 0.75 s (1,250 sockets, a loaded machine).
    "RELAY_PING_INTERVAL": 0.75,
    "RELAY_SEND_TIMEOUT": 10.0,  # a recipient that blocks a send this long is dropped
    "RELAY_COMPRESSION": False,  # permessage-deflate: small JSON frames gain little from it
    "RELAY_HOST_RATE": 100.0,  # frames per second, sustained
    "RELAY_HOST_BURST": 200,
    "RELAY_SEAT_RATE": 20.0,
    "RELAY_SEAT_BURST": 40,
    "RELAY_PIN_ATTEMPTS": 10,  # wrong PINs per room before joining by PIN is switched off
    "RELAY_SWEEP_INTERVAL": 5.0,  # None: no background sweeper (tests call Relay.sweep)
    "RELAY_CLOCK": time.monotonic,
    "RELAY_REDIS_URL": None,  # redis://host:port/db: rooms shared by every process using it
    # Per client address (the WSGI request's, i.e. the phone's behind a proxy whose address the app
    # trusts): sockets open at once, and rooms created per RELAY_ADDRESS_WINDOW seconds. A family
    # behind one router needs a socket per device and a room now and then; one address can no
    # longer fill RELAY_MAX_ROOMS or RELAY_MAX_CONNECTIONS for everybody. None: no limit.
    "RELAY_MAX_SOCKETS_PER_ADDRESS": 100,
    "RELAY_MAX_ROOMS_PER_ADDRESS": 20,
    "RELAY_ADDRESS_WINDOW": 600.0,
    # Addresses without these limits: the machine itself (tests, benchmarks, and a proxy on the
    # same machine that does not pass on the phone's address yet, rather than one limit for all).
    "RELAY_ADDRESS_EXEMPT": ("127.0.0.1", "::1"),
}

# Error code -> websocket close code sent after the error frame.
CLOSE_CODES = {
    "unknown_room": 4004,
    "bad_token": 4003,
    "room_full": 4005,
    "joining_closed": 4006,
    "pin_locked": 4007,  # too many wrong PINs: only the link (QR code) joins now
    "unsupported_version": 4001,
    "malformed": 1007,
    "binary_frame": 1003,
    "forbidden": 1008,
    "rate_limited": 1008,
    "hello_timeout": 1008,
    "too_large": 1009,
    "server_full": 1013,
    "address_limit": 1013,  # too many sockets or new rooms from one address: try again later
}

# Reason of a "closed" notice -> close code.
END_CLOSE_CODES = {
    "ended": 1000,
    "left": 1000,
    "host_gone": 1001,
    "idle": 1001,
    "shutdown": 1001,
    "replaced": REPLACED_CLOSE,
    "interrupted": 1012,  # Redis out of reach: come back soon (not a code the app gives up on)
}

HOST_TYPES = {"to_seat", "to_all", "to_screens", "joining", "new_pin", "about", "end", "ping"}
SEAT_TYPES = {"to_host", "leave", "ping"}
SCREEN_TYPES = {"leave", "ping"}
HELLO_TYPES = {"create", "join", "resume", "look"}
ALL_TYPES = HOST_TYPES | SEAT_TYPES | HELLO_TYPES

# Bidirectional controls (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI, LRM, RLM, ALM): in a name they
# turn its text around and so imitate another player's name. Zero-width joiners stay: emoji need them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                          "\u200e\u200f\u061c")
CLOSE_WAIT = 2.0  # seconds to wait for the client's close reply before ending TCP
# What a host tells the holders of its link before they join (the game it plays): a line, not a table.
ABOUT_MAX_BYTES = 2048


class RelayError(Exception):
    """A protocol error: sent to the client as an error frame, then the socket closes."""

    def __init__(self, code, detail="", **fields):
        super().__init__(code, detail)
        self.code = code
        self.detail = detail
        self.fields = fields  # more for the device's words, e.g. how many PIN tries are left
        self.close_code = CLOSE_CODES[code]


# Made once: json.dumps and json.loads with options build a new encoder or decoder per call.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def encode(frame):
    """Serialize one outgoing frame compactly (UTF-8 on the wire, no NaN)."""
    return _ENCODER.encode(frame)


def encode_data(frame):
    """Serialize an outgoing frame that carries a client's `data`, or raise RelayError.

    JSON has no infinity, but a number literal too large for a float (1e400) parses as one;
    it is refused here, where the data is encoded anyway, instead of on every frame.
    """
    try:
        return _ENCODER.encode(frame)
    except (ValueError, RecursionError):
        raise RelayError("malformed", "data is no JSON: a number out of range (1e400) or nested too deep") from None


def wire_frame(text):
    """Return the bytes of one unmasked, uncompressed websocket text frame (RFC 6455, 5.2).

    A server's frames are never masked, so without compression the bytes are the same
    for every recipient: a broadcast builds them once instead of once per socket.
    """
    return wire_frame_bytes(text.encode("utf-8"))


def wire_frame_bytes(payload):
    """Return the websocket text frame that carries these UTF-8 bytes."""
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x81, size)
    elif size < 65536:
        header = struct.pack("!BBH", 0x81, 126, size)
    else:
        header = struct.pack("!BBQ", 0x81, 127, size)
    return header + payload


def _reject_constant(name):
    """Refuse NaN and Infinity, which JSON does not have."""
    raise ValueError("%s is not JSON" % name)


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
# The JSON escape of a UTF-16 surrogate (a backslash, u, D800 to DFFF). json decodes a valid pair
# into one character, but a lone one stays a surrogate, which no UTF-8 frame (nor a Redis command)
# can carry: stored in a name it would break every frame that names it.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
# Only for that check: Infinity passes here (the check is about strings).
_CHECKER = json.JSONEncoder(ensure_ascii=False, allow_nan=True)


def _encodable(frame):
    """Tell whether a decoded frame can go out again as UTF-8 (no lone surrogate in any string)."""
    try:
        _CHECKER.encode(frame).encode("utf-8")
    except (UnicodeEncodeError, RecursionError):
        return False
    return True


def decode(text, limit):
    """Parse one incoming text frame into a dict with a string "type", or raise RelayError."""
    # Only encode when the character count alone cannot tell (a character is at most 4 bytes).
    if len(text) > limit or (len(text) * 4 > limit and len(text.encode("utf-8")) > limit):
        raise RelayError("too_large", "a frame may hold at most %d bytes" % limit)
    try:
        frame = _DECODER.decode(text)
    except (ValueError, RecursionError):
        raise RelayError("malformed", "not JSON") from None
    if not isinstance(frame, dict):
        raise RelayError("malformed", "a frame is a JSON object")
    # The text arrived as valid UTF-8, so a surrogate can only come from an escape: a search for a
    # backslash (memchr) spares almost every frame the closer look.
    if "\\" in text and _SURROGATE_ESCAPE.search(text) and not _encodable(frame):
        raise RelayError("malformed", "a string is not Unicode text (a lone surrogate)")
    kind = frame.get("type")
    if not isinstance(kind, str):
        raise RelayError("malformed", "missing field: type")
    if kind not in ALL_TYPES:
        raise RelayError("malformed", "unknown type")
    return frame


def _field(frame, name, kinds, required=True):
    """Return frame[name] if it has one of the given types (bool is never an int here)."""
    if name not in frame:
        if required:
            raise RelayError("malformed", "missing field: %s" % name)
        return None
    value = frame[name]
    if isinstance(value, bool) and bool not in kinds:
        raise RelayError("malformed", "wrong type: %s" % name)
    if not isinstance(value, kinds):
        raise RelayError("malformed", "wrong type: %s" % name)
    return value


def new_code(taken):
    """Return a fresh short room code that is not in `taken`."""
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


class InlineReader:
    """Stands in for simple_websocket's reading thread: the serving thread reads its own socket.

    With the library's thread every frame passes from the reading thread to the serving
    thread (an event, a wake-up, a switch of the GIL), and every socket costs two threads.
    `Connection.receive` reads, parses (wsproto) and answers pings in the serving thread.
    """

    name = "relay-inline-reader"

    def __init__(self, target=None, **kwargs):
        self.websocket = getattr(target, "__self__", None)

    def start(self):
        """Start nothing: the serving thread reads."""

    def join(self, timeout=None):
        """Nothing to wait for."""

    def is_alive(self):
        return False


class TokenBucket:
    """Allow `rate` frames per second with bursts up to `burst`."""

    def __init__(self, rate, burst, clock):
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def take(self):
        """Spend one token; return False when the sender is over its rate."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Connection:
    """One accepted websocket: serialized sends, its rate bucket, and where it sits."""

    def __init__(self, ws, bucket, send_timeout, plain=True):
        self.ws = ws
        self.plain = plain  # no permessage-deflate: frames may be prebuilt with wire_frame
        self.bucket = bucket
        # Re-entrant: a hello holds it while it registers the place and sends the welcome,
        # so nothing relayed to the new place can overtake the welcome.
        self.send_lock = threading.RLock()
        self.closed = False
        self.room = None
        self.place = None
        self.reader = threading.current_thread()  # the serving thread reads this socket
        self.poller = select.poll()  # not select(): socket numbers pass 1024 under load
        self.poller.register(ws.sock, select.POLLIN)
        self.next_ping = (time.monotonic() + ws.ping_interval) if ws.ping_interval else None
        self.eof = False
        self.close_timer = None
        try:
            # Frames are small and latency matters; werkzeug leaves Nagle's algorithm on,
            # which holds a frame back until the previous one is acknowledged.
            ws.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except (OSError, AttributeError):
            pass
        if send_timeout:
            seconds = int(send_timeout)
            micros = int((send_timeout - seconds) * 1e6)
            try:
                ws.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO,
                                   struct.pack("ll", seconds, micros))
            except (OSError, AttributeError):
                pass  # not a plain kernel socket (e.g. gevent); sends simply block

    def send(self, text, wire=None):
        """Send one text frame (`wire`: its prebuilt bytes); on failure drop the connection."""
        if self.plain:
            data = wire if wire is not None else wire_frame(text)
        with self.send_lock:
            if self.closed or not self.ws.connected:
                return False
            try:
                # sendall, not the library's send: a partial write must never go unnoticed.
                # (The reader thread writes pongs on its own; those are small control
                # frames and can only interleave with a partial write to a stuck peer,
                # which is dropped anyway.)
                if not self.plain:
                    data = self.ws.ws.send(TextMessage(data=text))
                self.ws.sock.sendall(data)
                return True
            except (OSError, LocalProtocolError):
                self._abandon()
                return False

    def receive(self, timeout):
        """Return the next message (text or bytes), None after `timeout` seconds or once closed.

        Raises ConnectionClosed when the socket is gone. Sends the websocket pings when
        they are due and closes a socket that left the last one unanswered.
        """
        ws = self.ws
        deadline = None if timeout is None else time.monotonic() + timeout
        while not ws.input_buffer:
            if self.closed:
                return None
            if not ws.connected or self.eof:
                raise ConnectionClosed(ws.close_reason, ws.close_message)
            now = time.monotonic()
            waits = []
            if self.next_ping is not None:
                if now >= self.next_ping:
                    self._ping(now)
                    continue
                waits.append(self.next_ping - now)
            if deadline is not None:
                if now >= deadline:
                    return None
                waits.append(deadline - now)
            if not self.poller.poll(int(min(waits) * 1000) + 1 if waits else None):
                continue
            self._read()
        return ws.input_buffer.pop(0)

    def _read(self):
        """Read what the socket has and let the websocket layer handle it."""
        ws = self.ws
        try:
            data = ws.sock.recv(ws.receive_bytes)
        except OSError:
            data = b""
        if not data:
            self.eof = True
            ws.connected = False
            return
        try:
            ws.ws.receive_data(data)
            with self.send_lock:  # it may answer a ping or a close frame
                ws.connected = ws._handle_events() and ws.connected
        except LocalProtocolError:
            ws.connected = False

    def _ping(self, now):
        """Send the next websocket ping, or close a socket that did not answer the last one."""
        ws = self.ws
        if not ws.pong_received and self.poller.poll(0):
            self._read()  # this thread woke late on a busy server: the pong may be waiting unread
            if not ws.connected or self.eof:
                return  # receive() reports the closed socket
        if not ws.pong_received:
            self.close(1008, "Ping/Pong timeout")
            ws.connected = False
            return
        ws.pong_received = False
        with self.send_lock:
            try:
                ws.sock.sendall(ws.ws.send(Ping()))
            except (OSError, LocalProtocolError):
                self._abandon()
        self.next_ping = max(now, self.next_ping) + ws.ping_interval

    def close(self, close_code, reason=""):
        """Send a close frame; a socket served by another thread is ended after CLOSE_WAIT."""
        with self.send_lock:
            if self.closed:
                return
            self.closed = True
            try:
                self.ws.close(reason=close_code, message=reason)
            except (OSError, ConnectionClosed, LocalProtocolError):
                pass
        if threading.current_thread() is not self.reader:
            # The serving thread waits in receive() until the client answers the close
            # frame; a client that never answers is cut off so the thread is freed.
            self.close_timer = threading.Timer(CLOSE_WAIT, self._abandon)
            self.close_timer.daemon = True
            self.close_timer.start()

    def fail(self, error):
        """Send an error frame, then close with the error's close code."""
        self.send(encode(dict(error.fields, type="error", code=error.code, detail=error.detail)))
        self.close(error.close_code, error.code)

    def finish(self):
        """End the TCP connection once the close handshake had its chance.

        Werkzeug drains the socket until EOF after the handler returns, and a client
        waits for the server to end TCP after the close handshake; without this both
        could wait on each other.
        """
        self.closed = True
        if self.close_timer is not None:
            self.close_timer.cancel()
        # Read the client's answer to our close frame (or its EOF) before ending TCP.
        deadline = time.monotonic() + CLOSE_WAIT
        while not self.eof and self.ws.ws.state is not ConnectionState.CLOSED:
            left = deadline - time.monotonic()
            if left <= 0 or not self.poller.poll(int(left * 1000) + 1):
                break
            self._read()
        try:
            self.ws.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

    def _abandon(self):
        """Give up on a socket that cannot take data: shut it so its serving thread wakes."""
        self.closed = True
        try:
            self.ws.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.ws.connected = False


class Place:
    """A host, seat or screen in a room; it outlives its socket for the grace time."""

    def __init__(self, role, number, name, token):
        self.role = role
        self.number = number
        self.name = name
        self.token = token
        self.conn = None
        self.away_since = None

    def summary(self):
        """Describe this place for the host's resume snapshot."""
        return {"role": self.role, self.role: self.number, "name": self.name,
                "online": self.conn is not None}


class Room:
    """A room's places and secrets; only touched under the relay lock."""

    def __init__(self, code, now):
        self.code = code
        self.secret = secrets.token_urlsafe(12)  # 96 bits, travels only in the URL fragment
        self.pin = "%04d" % secrets.randbelow(10000)
        self.host = Place("host", 0, "", secrets.token_urlsafe(16))
        self.seats = {}
        self.screens = {}
        self.joining_open = True
        self.pin_failures = 0
        self.last_active = now
        self.about = None  # the host's `about` data as JSON text

    def places(self):
        """Return every place: host first, then seats and screens by number."""
        return ([self.host] + [self.seats[n] for n in sorted(self.seats)]
                + [self.screens[n] for n in sorted(self.screens)])

    def guests(self):
        """Return the live connections of seats and screens."""
        return [p.conn for p in self.places()[1:] if p.conn is not None]


class Relay:
    """Owns all rooms; each websocket thread calls `serve`, the sweeper calls `sweep`."""

    unavailable_errors = ()  # exceptions that mean the shared room state is out of reach

    def health(self):
        """Return (True when rooms can be served now, what /healthz says of the rooms' store)."""
        return True, {"rooms": "memory"}

    def __init__(self, config):
        self.config = {key: config[key] for key in DEFAULTS}
        self.clock = self.config["RELAY_CLOCK"]
        self.lock = threading.Lock()
        self.rooms = {}
        self.connections = set()
        self.peer_sockets = {}  # client address -> its open sockets (per-address limit)
        self.peer_rooms = {}  # client address -> [start of its window, rooms created in it]
        self._sweeper = None
        self._stopping = threading.Event()
        self.closed_for = None  # close_all's reason, once it began: a socket that arrives after it is closed so too

    # ----- connection lifecycle -------------------------------------------------

    def serve(self, ws, peer=None):
        """Serve one websocket from its hello to its close (`peer`: the client's address)."""
        self._start_sweeper()
        conn = Connection(ws, TokenBucket(self.config["RELAY_SEAT_RATE"],
                                          self.config["RELAY_SEAT_BURST"], self.clock),
                          self.config["RELAY_SEND_TIMEOUT"],
                          plain=not self.config["RELAY_COMPRESSION"])
        conn.peer = None if peer in self.config["RELAY_ADDRESS_EXEMPT"] else address_key(peer)
        conn.peer_counted = False
        if conn.peer is not None and self.config["RELAY_MAX_SOCKETS_PER_ADDRESS"] is not None \
                and not self._count_socket(conn):
            conn.fail(RelayError("address_limit", "too many sockets from this address"))
            conn.finish()
            return
        with self.lock:
            closed_for = self.closed_for
            admitted = closed_for is None and len(self.connections) < self.config["RELAY_MAX_CONNECTIONS"]
            if admitted:
                self.connections.add(conn)
        if closed_for is not None:
            # Its handshake crossed the shutdown (close_all had listed the sockets already): told as they were.
            self._uncount_socket(conn)
            conn.close(END_CLOSE_CODES[closed_for], closed_for)
            conn.finish()
            return
        if not admitted:
            self._uncount_socket(conn)
            conn.fail(RelayError("server_full", "too many connections"))
            conn.finish()
            return
        try:
            frame = self._receive(conn, self.config["RELAY_HELLO_TIMEOUT"])
            if frame is None:
                raise RelayError("hello_timeout", "send a hello first")
            self._hello(conn, frame)
            while not conn.closed:
                frame = self._receive(conn, None)
                if frame is None or conn.closed:
                    break
                self._dispatch(conn, frame)
        except RelayError as error:
            conn.fail(error)
        except ConnectionClosed:
            pass
        except self.unavailable_errors:
            # The shared state is out of reach (Redis): the device retries until it is back.
            conn.send(encode({"type": "closed", "reason": "interrupted"}))
            conn.close(END_CLOSE_CODES["interrupted"], "interrupted")
        finally:
            self._release(conn)
            conn.finish()

    def _receive(self, conn, timeout):
        """Return the next frame as a dict, None on timeout, or raise RelayError."""
        text = conn.receive(timeout)
        if text is None or conn.closed:
            return None
        if not conn.bucket.take():
            raise RelayError("rate_limited", "too many frames")
        if isinstance(text, bytes):
            raise RelayError("binary_frame", "frames are JSON text")
        return decode(text, self.config["RELAY_MAX_MESSAGE_BYTES"])

    def _count_socket(self, conn):
        """Count a new socket against its address's limit; False if the address has too many."""
        with self.lock:
            count = self.peer_sockets.get(conn.peer, 0)
            if count >= self.config["RELAY_MAX_SOCKETS_PER_ADDRESS"]:
                return False
            self.peer_sockets[conn.peer] = count + 1
        conn.peer_counted = True
        return True

    def _uncount_socket(self, conn):
        """Give a finished socket's count back to its address."""
        if not conn.peer_counted:
            return
        conn.peer_counted = False
        with self.lock:
            count = self.peer_sockets.get(conn.peer, 0) - 1
            if count > 0:
                self.peer_sockets[conn.peer] = count
            else:
                self.peer_sockets.pop(conn.peer, None)

    def _count_room(self, conn, now):
        """Count a new room against its creator's address (lock held); raise over the limit.

        A fixed window per address: RELAY_MAX_ROOMS_PER_ADDRESS rooms, then none until
        RELAY_ADDRESS_WINDOW seconds after the window's first room.
        """
        limit = self.config["RELAY_MAX_ROOMS_PER_ADDRESS"]
        if conn.peer is None or limit is None:
            return
        window = self.peer_rooms.get(conn.peer)
        if window is None or now - window[0] >= self.config["RELAY_ADDRESS_WINDOW"]:
            window = self.peer_rooms[conn.peer] = [now, 0]
        if window[1] >= limit:
            raise RelayError("address_limit", "too many new rooms from this address")
        window[1] += 1

    def _release(self, conn):
        """Forget a finished socket; tell the others that its place is away."""
        self._uncount_socket(conn)
        notices = []
        with self.lock:
            self.connections.discard(conn)
            place, room = conn.place, conn.room
            if place is not None and place.conn is conn:
                place.conn = None
                place.away_since = self.clock()
                if self.rooms.get(room.code) is room:
                    notices = self._presence_notices(room, place, "away")
        self._deliver(notices)

    # ----- hello: create, join, resume ----------------------------------------

    def _hello(self, conn, frame):
        """Handle the first frame: create a room, join one, or resume a place."""
        kind = frame["type"]
        if kind not in HELLO_TYPES:
            raise RelayError("malformed", "the first frame is a hello: create, join, resume or look")
        version = _field(frame, "v", (int,))
        if version != PROTOCOL_VERSION:
            raise RelayError("unsupported_version", "this server speaks v%d" % PROTOCOL_VERSION)
        handler = {"create": self._create, "join": self._join, "resume": self._resume,
                   "look": self._look}[kind]
        notices = []
        try:
            # Held through registration and welcome: a frame relayed to this socket by
            # another thread waits until the welcome has gone out. Notices to others go
            # out after it is released, so two hellos never wait on each other's sockets.
            with conn.send_lock:
                handler(conn, frame, notices)
        finally:
            self._deliver(notices)

    def _create(self, conn, frame, notices):
        """Open a new room with this socket as its host."""
        with self.lock:
            if len(self.rooms) >= self.config["RELAY_MAX_ROOMS"]:
                raise RelayError("server_full", "too many rooms")
            self._count_room(conn, self.clock())
            room = Room(new_code(self.rooms), self.clock())
            self.rooms[room.code] = room
            self._attach(conn, room, room.host)
        conn.bucket = self._host_bucket()
        conn.send(encode({
            "type": "created", "v": PROTOCOL_VERSION, "room": room.code,
            "secret": room.secret, "link": room_link(room), "pin": room.pin,
            "token": room.host.token, "max_seats": self.config["RELAY_MAX_SEATS"],
        }))

    def _join(self, conn, frame, notices):
        """Give this socket a new seat or screen, by link secret or PIN."""
        code, secret, pin, role, name = self._join_request(frame)
        with self.lock:
            room = self._live_room(code, notices)
            if secret is not None:
                check_secret(secret, room.secret)
            elif room.pin_failures >= self.config["RELAY_PIN_ATTEMPTS"]:
                raise RelayError("pin_locked", "joining by PIN is off after too many wrong PINs")
            elif not secrets.compare_digest(pin.encode(), room.pin.encode()):
                room.pin_failures += 1
                if room.pin_failures == self.config["RELAY_PIN_ATTEMPTS"] and room.host.conn:
                    notices.append((room.host.conn, encode({"type": "pin_locked"}), None))
                raise RelayError("bad_token", "wrong PIN", pin_tries_left=self.config["RELAY_PIN_ATTEMPTS"] - room.pin_failures)
            if not room.joining_open:
                raise RelayError("joining_closed", "the host has closed joining")
            places = room.seats if role == "seat" else room.screens
            limit = self.config["RELAY_MAX_SEATS" if role == "seat" else "RELAY_MAX_SCREENS"]
            free = [n for n in range(1, limit + 1) if n not in places]
            if not free:
                raise RelayError("room_full", "all %d %s places are taken" % (limit, role))
            place = Place(role, free[0], name, secrets.token_urlsafe(16))
            places[place.number] = place
            room.last_active = self.clock()
            self._attach(conn, room, place)
            notices += self._presence_notices(room, place, "joined")
            host_online = room.host.conn is not None
        conn.send(encode({
            "type": "joined", "v": PROTOCOL_VERSION, "room": room.code, "role": role,
            role: place.number, "name": name, "token": place.token,
            "host": "online" if host_online else "away",
        }))

    def _resume(self, conn, frame, notices):
        """Give a place back to the socket that shows its token."""
        code = normalize_code(_field(frame, "room", (str,)))
        token = _field(frame, "token", (str,))
        with self.lock:
            room = self._live_room(code, notices)
            place = next((p for p in room.places()
                          if secrets.compare_digest(token.encode(), p.token.encode())), None)
            if place is None:
                raise RelayError("bad_token", "no place with this token (left or expired)")
            old = place.conn
            room.last_active = self.clock()
            self._attach(conn, room, place)
            if old is not None:
                notices.append((old, encode({"type": "closed", "reason": "replaced"}),
                                "replaced"))
            notices += self._presence_notices(room, place, "back")
            welcome = {"type": "resumed", "v": PROTOCOL_VERSION, "room": room.code,
                       "role": place.role, "name": place.name}
            if place.role == "host":
                welcome.update(secret=room.secret, pin=room.pin, link=room_link(room),
                               joining=room.joining_open,
                               pin_locked=room.pin_failures >= self.config["RELAY_PIN_ATTEMPTS"],
                               places=[p.summary() for p in room.places()[1:]])
            else:
                welcome[place.role] = place.number
                welcome["host"] = "online" if room.host.conn is not None else "away"
        if place.role == "host":
            conn.bucket = self._host_bucket()
        conn.send(encode(welcome))

    def _look(self, conn, frame, notices):
        """Tell the holder of a join link what the host published about the room; take no place."""
        code = normalize_code(_field(frame, "room", (str,)))
        secret = _field(frame, "secret", (str,))
        with self.lock:
            room = self._live_room(code, notices)
            check_secret(secret, room.secret)
            answer = looked_frame(room.code, room.about, room.joining_open, room.host.conn is not None)
        conn.send(encode(answer))
        conn.close(1000, "looked")

    def _host_bucket(self):
        """Return a fresh rate bucket with the host's limits."""
        return TokenBucket(self.config["RELAY_HOST_RATE"], self.config["RELAY_HOST_BURST"],
                           self.clock)

    def _join_request(self, frame):
        """Return (code, secret, pin, role, name) of a join frame, or raise RelayError on a malformed one."""
        code = normalize_code(_field(frame, "room", (str,)))
        secret = _field(frame, "secret", (str,), required=False)
        pin = _field(frame, "pin", (str,), required=False)
        if secret is None and pin is None:
            raise RelayError("malformed", "missing field: secret or pin")
        role = _field(frame, "role", (str,), required=False) or "seat"
        if role not in ("seat", "screen"):
            raise RelayError("malformed", "role is seat or screen")
        return code, secret, pin, role, self._check_name(_field(frame, "name", (str,), required=False) or "")

    def _check_name(self, name):
        """Return the trimmed name, or raise if it is too long or has control characters."""
        name = name.strip()
        if len(name) > self.config["RELAY_MAX_NAME"]:
            raise RelayError("malformed", "name longer than %d characters"
                             % self.config["RELAY_MAX_NAME"])
        if any(unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS for ch in name):
            raise RelayError("malformed", "control characters in name")
        return name

    def _live_room(self, code, notices):
        """Return the room with this code after applying due expiries (lock held)."""
        room = self.rooms.get(code)
        if room is not None:
            notices += self._expire(room, self.clock())
        if room is None or self.rooms.get(code) is not room:
            raise RelayError("unknown_room", "no room with this code")
        return room

    def _attach(self, conn, room, place):
        """Bind a socket and a place to each other (lock held)."""
        place.conn = conn
        place.away_since = None
        conn.room = room
        conn.place = place

    # ----- frames after the hello ----------------------------------------------

    def _dispatch(self, conn, frame):
        """Handle one frame after the hello, as the sender's role allows."""
        place = conn.place
        kind = frame["type"]
        allowed = {"host": HOST_TYPES, "seat": SEAT_TYPES, "screen": SCREEN_TYPES}[place.role]
        if kind not in allowed:
            if kind in HELLO_TYPES:
                raise RelayError("malformed", "already said hello")
            raise RelayError("forbidden", "a %s may not send %s" % (place.role, kind))
        if kind == "ping":
            conn.send(encode({"type": "pong"}))
        elif kind == "to_seat":
            seat = _field(frame, "seat", (int,))
            if not 1 <= seat <= self.config["RELAY_MAX_SEATS"]:
                raise RelayError("malformed", "seat out of range")
            self._relay(conn, frame, seat)
        elif kind in ("to_all", "to_screens", "to_host"):
            self._relay(conn, frame, kind[3:])
        elif kind == "joining":
            is_open = _field(frame, "open", (bool,))
            self._set_joining(conn, is_open)
            conn.send(encode({"type": "joining", "open": is_open}))
        elif kind == "new_pin":
            conn.send(encode({"type": "pin", "pin": self._new_pin(conn)}))
        elif kind == "about":
            self._set_about(conn, about_text(frame))
        elif kind == "end":
            self._end_room(conn.room, "ended")
        elif kind == "leave":
            self._leave(conn)

    def _set_joining(self, conn, is_open):
        """Open or close joining in the sender's room."""
        with self.lock:
            conn.room.joining_open = is_open

    def _new_pin(self, conn):
        """Give the sender's room a fresh PIN with every try back (after a lock, or a PIN seen by a stranger)."""
        pin = "%04d" % secrets.randbelow(10000)
        with self.lock:
            conn.room.pin = pin
            conn.room.pin_failures = 0
        return pin

    def _set_about(self, conn, text):
        """Keep what the host tells a phone before it joins (JSON text, answered to `look`)."""
        with self.lock:
            conn.room.about = text

    def _relay(self, conn, frame, target):
        """Stamp the sender and pass `data` to the addressed places only."""
        if "data" not in frame:
            raise RelayError("malformed", "missing field: data")
        place, room = conn.place, conn.room
        with self.lock:
            room.last_active = self.clock()
            if target == "host":
                recipients = [room.host.conn]
            elif target == "all":
                recipients = room.guests()
            elif target == "screens":
                recipients = [p.conn for p in room.screens.values()]
            else:
                seat = room.seats.get(target)
                recipients = [seat.conn if seat else None]
        sender = "host" if place.role == "host" else place.number
        text = encode_data({"type": "msg", "from": sender, "to": target, "data": frame["data"]})
        wire = wire_frame(text)
        for recipient in recipients:
            # A place that is away misses the frame; its owner resends views on "back".
            if recipient is not None:
                recipient.send(text, wire)

    def _leave(self, conn):
        """Free a seat or screen for good and close its socket."""
        notices = []
        with self.lock:
            room, place = conn.room, conn.place
            places = room.seats if place.role == "seat" else room.screens
            if places.get(place.number) is place:
                del places[place.number]
                notices = self._presence_notices(room, place, "gone", reason="left")
            conn.place = None
        self._deliver(notices)
        conn.send(encode({"type": "closed", "reason": "left"}))
        conn.close(END_CLOSE_CODES["left"], "left")

    # ----- presence, expiry, shutdown ------------------------------------------

    def _presence_notices(self, room, place, status, reason=None):
        """Build the presence frames for a place's change (lock held)."""
        frame = {"type": "presence", "role": place.role, "status": status}
        if place.role == "host":
            text = encode(frame)
            return [(c, text, None) for c in room.guests()]
        frame[place.role] = place.number
        frame["name"] = place.name
        if reason:
            frame["reason"] = reason
        host = room.host.conn
        return [(host, encode(frame), None)] if host is not None else []

    def _expire(self, room, now):
        """Apply due expiries to one room; return the notices to send (lock held)."""
        host = room.host
        if host.conn is None and now - host.away_since >= self.config["RELAY_HOST_GRACE"]:
            return self._remove_room(room, "host_gone")
        if now - room.last_active >= self.config["RELAY_IDLE_EXPIRY"]:
            return self._remove_room(room, "idle")
        notices = []
        for places in (room.seats, room.screens):
            for number, place in list(places.items()):
                if (place.conn is None
                        and now - place.away_since >= self.config["RELAY_SEAT_GRACE"]):
                    del places[number]
                    notices += self._presence_notices(room, place, "gone", reason="timeout")
        return notices

    def _remove_room(self, room, reason):
        """Drop a room and build the closing notice for every live socket in it (lock held)."""
        del self.rooms[room.code]
        text = encode({"type": "closed", "reason": reason})
        return [(p.conn, text, reason) for p in room.places()
                if p.conn is not None]

    def _end_room(self, room, reason):
        """Close a room and every socket in it."""
        with self.lock:
            notices = self._remove_room(room, reason) if self.rooms.get(room.code) is room else []
        self._deliver(notices)

    def sweep(self):
        """Expire rooms whose host stayed away too long, idle rooms, and lapsed seats."""
        now = self.clock()
        notices = []
        with self.lock:
            for room in list(self.rooms.values()):
                notices += self._expire(room, now)
            window = self.config["RELAY_ADDRESS_WINDOW"]
            for peer in [p for p, (start, _) in self.peer_rooms.items() if now - start >= window]:
                del self.peer_rooms[peer]
        self._deliver(notices)

    def close_all(self, reason="shutdown"):
        """Close every room and socket (server shutdown)."""
        with self.lock:
            self.closed_for = reason
            notices = []
            for room in list(self.rooms.values()):
                notices += self._remove_room(room, reason)
            strays = [c for c in self.connections if c.place is None or c.room is None]
        self._deliver(notices)
        for conn in strays:
            conn.close(END_CLOSE_CODES[reason], reason)
        self._stopping.set()

    def room_count(self):
        """Return how many rooms are open."""
        with self.lock:
            return len(self.rooms)

    def _deliver(self, notices):
        """Send (connection, text, closing reason or None) notices; call without the lock."""
        for conn, text, closing in notices:
            conn.send(text)
            if closing is not None:
                conn.close(END_CLOSE_CODES[closing], closing)

    def _start_sweeper(self):
        """Start the expiry sweeper thread once, if the config asks for one."""
        interval = self.config["RELAY_SWEEP_INTERVAL"]
        if not interval or self._sweeper is not None:
            return
        with self.lock:
            if self._sweeper is not None:
                return
            # Started on the first socket, not in init_app: a forking server would lose it.
            self._sweeper = threading.Thread(target=self._sweep_loop, args=(interval,),
                                             name="relay-sweeper", daemon=True)
        self._sweeper.start()

    def _sweep_loop(self, interval):
        """Sweep every `interval` seconds until the relay stops."""
        while not self._stopping.wait(interval):
            self.sweep()


def address_key(peer):
    """Return what the per-address limits count a client address as: an IPv4 address itself, an
    IPv6 address by its /64 (one household's or phone's network: it picks addresses in it freely)."""
    if peer is None:
        return None
    try:
        address = ipaddress.ip_address(peer.split("%", 1)[0])
    except ValueError:
        return peer  # not an IP address (a Unix socket, a test): counted as it is
    if address.version == 6:
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network((address, 64), strict=False))
    return str(address)


def check_secret(secret, expected):
    """Refuse a join link's secret that is not the room's."""
    if not secrets.compare_digest(secret.encode(), expected.encode()):
        raise RelayError("bad_token", "wrong secret")


def about_text(frame):
    """Return the `about` frame's data as JSON text, or raise if it is missing or too large."""
    if "data" not in frame:
        raise RelayError("malformed", "missing field: data")
    text = encode_data(frame["data"])
    if len(text.encode("utf-8")) > ABOUT_MAX_BYTES:
        raise RelayError("too_large", "`about` may hold at most %d bytes" % ABOUT_MAX_BYTES)
    return text


def looked_frame(code, about, joining_open, host_online):
    """Return the answer to `look`: the host's `about` data (None before it sent any) and the room's state."""
    return {"type": "looked", "v": PROTOCOL_VERSION, "room": code,
            "about": json.loads(about) if about is not None else None,
            "joining": joining_open, "host": "online" if host_online else "away"}


def room_link(room):
    """Return the join link's path and fragment; the secret never reaches a server log."""
    return "/#/join/%s.%s" % (room.code, room.secret)


def origin_allowed(origin, host, allowed):
    """Tell whether a websocket handshake's Origin may open the relay."""
    if origin is None:
        # Not a browser: the Origin check only protects browsers from cross-site use.
        return True
    if allowed is not None:
        return origin.rstrip("/") in {a.rstrip("/") for a in allowed}
    # Same origin by host:port; the scheme may differ behind a TLS-terminating proxy.
    return urlsplit(origin).netloc.lower() == (host or "").lower()


def _before_handshake():
    """Refuse what is no websocket handshake and foreign origins; leave compression out unless asked."""
    headers = request.headers
    if (headers.get("Upgrade", "").lower() != "websocket"
            or "upgrade" not in headers.get("Connection", "").lower()
            or not headers.get("Sec-WebSocket-Key")):
        abort(400)  # not a websocket handshake (the websocket layer would fail with a traceback)
    if headers.get("Sec-WebSocket-Version") != "13":
        # RFC 6455, 4.2.2: tell the client the version this server speaks.
        abort(Response("Sec-WebSocket-Version: 13 only\n", 426 if "Sec-WebSocket-Version" in headers
                       else 400, {"Sec-WebSocket-Version": "13"}))
    relay = current_app.extensions["relay"]
    if not origin_allowed(request.headers.get("Origin"), request.host,
                          relay.config["RELAY_ALLOWED_ORIGINS"]):
        abort(403)
    if not relay.config["RELAY_COMPRESSION"]:
        # simple_websocket accepts permessage-deflate whenever the client offers it and
        # reads the offer from this environ; without the offer it answers plainly.
        request.environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)


def shown_redis_url(url):
    """Return a Redis URL fit to print: a password in it is replaced by ***."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc="%s:***@%s" % (user, host)))


def make_relay(config):
    """Return the relay for this config: rooms in Redis when a URL is set, else in memory."""
    url = config.get("RELAY_REDIS_URL")
    if url:
        from server.relay_redis import RedisRelay

        return RedisRelay(config, url)
    return Relay(config)


def init_app(app):
    """Attach the relay's websocket route and its defaults to the app."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("SOCK_SERVER_OPTIONS", {
        "ping_interval": app.config["RELAY_PING_INTERVAL"],
        # Hard cap enforced while the frame is still arriving (counted in characters);
        # frames between the protocol limit and this cap get an explicit error frame.
        "max_message_size": 4 * app.config["RELAY_MAX_MESSAGE_BYTES"],
        "thread_class": InlineReader,
    })
    app.extensions["relay"] = make_relay(app.config)

    @app.get("/healthz")
    def health():
        """For a load balancer or a monitor: 200 while this process can serve rooms, 503 while Redis is out of reach."""
        ok, facts = current_app.extensions["relay"].health()
        response = jsonify(dict(facts, ok=ok))
        response.status_code = 200 if ok else 503
        response.headers["Cache-Control"] = "no-store"
        return response

    blueprint = Blueprint("relay", __name__)
    blueprint.before_request(_before_handshake)
    # Anything else the websocket layer refuses in a handshake is the client's error, not the server's.
    blueprint.register_error_handler(RemoteProtocolError, lambda error: ("bad websocket handshake\n", 400))
    sock = Sock()

    @sock.route(app.config["RELAY_PATH"], bp=blueprint)
    def relay_socket(ws):
        """Serve one relay websocket."""
        # The address the WSGI server gives: behind a proxy the phone's only where the app is set
        # to trust the proxy's forwarded address (never read from a header here).
        current_app.extensions["relay"].serve(ws, request.remote_addr)

    app.register_blueprint(blueprint)

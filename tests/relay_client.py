"""Python client for the room relay (protocol v1, see docs/rooms.md): used by tests and benchmarks."""

import inspect
import json
import socket
from urllib.parse import urlsplit

from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as sync_connect

from spieleabend.protocol import PROTOCOL_VERSION

# websockets 17 warns when connect() is not a context manager unless legacy=True; older
# releases do not know the flag.
_SYNC_LEGACY = {"legacy": True} if "legacy" in inspect.signature(sync_connect).parameters else {}


class RelayClosed(Exception):
    """The relay closed the socket; carries the close code and the last error frame, if any."""

    def __init__(self, close_code, reason="", error=None):
        super().__init__(close_code, reason, error)
        self.close_code = close_code
        self.reason = reason
        self.error = error

    @property
    def error_code(self):
        """Return the code of the error frame sent before the close, or None."""
        return self.error["code"] if self.error else None


def parse_link(link):
    """Split a join link ("…/#/join/CODE.SECRET") into (code, secret)."""
    fragment = link.split("#", 1)[1]
    prefix = "/join/"
    if not fragment.startswith(prefix):
        raise ValueError("not a join link: %r" % link)
    code, _, secret = fragment[len(prefix):].partition(".")
    return code, secret


def create_frame():
    """Return the hello that opens a new room (the sender becomes its host)."""
    return {"type": "create", "v": PROTOCOL_VERSION}


def join_frame(room, secret=None, pin=None, name="", role="seat"):
    """Return the hello that takes a new seat (or screen) with the link's secret or the PIN."""
    frame = {"type": "join", "v": PROTOCOL_VERSION, "room": room, "name": name, "role": role}
    if secret is not None:
        frame["secret"] = secret
    if pin is not None:
        frame["pin"] = pin
    return frame


def look_frame(room, secret):
    """Return the hello that asks what the host published about a room (the join link's secret)."""
    return {"type": "look", "v": PROTOCOL_VERSION, "room": room, "secret": secret}


def resume_frame(room, token):
    """Return the hello that takes a place back with its token."""
    return {"type": "resume", "v": PROTOCOL_VERSION, "room": room, "token": token}


def _closed(exc, error):
    """Turn a websockets ConnectionClosed into RelayClosed."""
    rcvd = exc.rcvd
    return RelayClosed(rcvd.code if rcvd else 1006, rcvd.reason if rcvd else "", error)


class RelayClient:
    """A blocking relay client: one socket, one place (host, seat or screen)."""

    def __init__(self, url, origin=None, compression="deflate", open_timeout=10, source=None):
        """`source`: the local address to connect from (another loopback address, e.g. 127.0.0.2,
        is another client address to the relay)."""
        extra = {}
        if source is not None:
            parts = urlsplit(url)
            extra["sock"] = socket.create_connection((parts.hostname, parts.port), open_timeout,
                                                     source_address=(source, 0))
        self.ws = sync_connect(url, origin=origin, compression=compression, proxy=None,
                               open_timeout=open_timeout, ping_interval=None,
                               close_timeout=2, max_size=None, **extra, **_SYNC_LEGACY)
        self.welcome = None
        self.last_error = None

    # hellos
    def create(self):
        """Open a room as its host; return the "created" welcome."""
        return self._hello(create_frame(), "created")

    def join(self, room, secret=None, pin=None, name="", role="seat"):
        """Join a room as a seat or screen; return the "joined" welcome."""
        return self._hello(join_frame(room, secret, pin, name, role), "joined")

    def join_link(self, link, name="", role="seat"):
        """Join through a join link as shown in a QR code."""
        code, secret = parse_link(link)
        return self.join(code, secret=secret, name=name, role=role)

    def resume(self, room, token):
        """Take a place back with its token; return the "resumed" welcome."""
        return self._hello(resume_frame(room, token), "resumed")

    def look(self, room, secret):
        """Ask what the host published about a room, without joining; return the "looked" answer."""
        return self._hello(look_frame(room, secret), "looked")

    def _hello(self, frame, expected):
        """Send a hello; return the welcome or raise RelayClosed on an error."""
        self.send(frame)
        welcome = self.recv()
        if welcome.get("type") == "error":
            raise self.wait_closed()
        if welcome.get("type") != expected:
            raise AssertionError("expected %s, got %r" % (expected, welcome))
        self.welcome = welcome
        return welcome

    # frames
    def to_seat(self, seat, data):
        """Host: send data to one seat."""
        self.send({"type": "to_seat", "seat": seat, "data": data})

    def to_all(self, data):
        """Host: send data to every seat and screen."""
        self.send({"type": "to_all", "data": data})

    def to_screens(self, data):
        """Host: send data to the watch-only screens."""
        self.send({"type": "to_screens", "data": data})

    def to_host(self, data):
        """Seat: send data to the host."""
        self.send({"type": "to_host", "data": data})

    def set_joining(self, is_open):
        """Host: open or close joining."""
        self.send({"type": "joining", "open": is_open})

    def about(self, data):
        """Host: publish what a phone with the link sees before it joins."""
        self.send({"type": "about", "data": data})

    def send(self, frame):
        """Send one frame (a dict) as JSON."""
        self.send_raw(json.dumps(frame))

    def send_raw(self, payload):
        """Send text or bytes exactly as given."""
        try:
            self.ws.send(payload)
        except ConnectionClosed as exc:
            raise _closed(exc, self.last_error) from None

    def recv(self, timeout=10):
        """Return the next frame as a dict; raise RelayClosed once the relay has closed."""
        try:
            frame = json.loads(self.ws.recv(timeout=timeout))
        except ConnectionClosed as exc:
            raise _closed(exc, self.last_error) from None
        if frame.get("type") == "error":
            self.last_error = frame
        return frame

    def recv_type(self, kind, timeout=10):
        """Return the next frame of this type, skipping others (e.g. presence notices)."""
        while True:
            frame = self.recv(timeout)
            if frame.get("type") == kind:
                return frame

    def wait_closed(self, timeout=10):
        """Read until the relay closes; return the RelayClosed with its code and error."""
        try:
            while True:
                self.recv(timeout)
        except RelayClosed as closed:
            return closed

    def close(self):
        """Close the socket from this side."""
        self.ws.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class AsyncRelayClient:
    """The asyncio twin of RelayClient, for many sockets in one process (benchmarks)."""

    def __init__(self, ws):
        self.ws = ws
        self.welcome = None

    @classmethod
    async def connect(cls, url, origin=None, compression="deflate", open_timeout=10,
                      create_connection=None):
        """Open a socket to the relay (`create_connection`: websockets' connection class to use)."""
        ws = await async_connect(url, origin=origin, compression=compression, proxy=None,
                                 open_timeout=open_timeout, ping_interval=None,
                                 close_timeout=2, max_size=None,
                                 create_connection=create_connection)
        return cls(ws)

    async def create(self):
        """Open a room as its host; return the "created" welcome."""
        return await self._hello(create_frame(), "created")

    async def join(self, room, secret=None, pin=None, name="", role="seat"):
        """Join a room as a seat or screen; return the "joined" welcome."""
        return await self._hello(join_frame(room, secret, pin, name, role), "joined")

    async def resume(self, room, token):
        """Take a place back with its token; return the "resumed" welcome."""
        return await self._hello(resume_frame(room, token), "resumed")

    async def _hello(self, frame, expected):
        """Send a hello; return the welcome or raise RelayClosed on an error."""
        await self.send(frame)
        welcome = await self.recv()
        if welcome.get("type") == "error":
            await self.ws.wait_closed()
            raise RelayClosed(self.ws.close_code, self.ws.close_reason, welcome)
        if welcome.get("type") != expected:
            raise AssertionError("expected %s, got %r" % (expected, welcome))
        self.welcome = welcome
        return welcome

    async def to_seat(self, seat, data):
        """Host: send data to one seat."""
        await self.send({"type": "to_seat", "seat": seat, "data": data})

    async def to_all(self, data):
        """Host: send data to every seat and screen."""
        await self.send({"type": "to_all", "data": data})

    async def to_host(self, data):
        """Seat: send data to the host."""
        await self.send({"type": "to_host", "data": data})

    async def send(self, frame):
        """Send one frame (a dict) as JSON."""
        try:
            await self.ws.send(json.dumps(frame))
        except ConnectionClosed as exc:
            raise _closed(exc, None) from None

    async def recv(self):
        """Return the next frame as a dict; raise RelayClosed once the relay has closed."""
        try:
            return json.loads(await self.ws.recv())
        except ConnectionClosed as exc:
            raise _closed(exc, None) from None

    async def close(self):
        """Close the socket from this side."""
        await self.ws.close()

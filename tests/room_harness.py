"""Run the browser's room tables in CPython against the real relay.

Each `FakeApp` is one device (its own storage, timers and sockets). Socket events
arrive on reader threads and are queued; `Loop.pump` runs them, and due timers,
on the test's thread, one at a time, as the browser's event loop would.
"""

import json
import os
import queue
import threading
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.relay_client import _SYNC_LEGACY

from spieleabend.games.common import Rng
from spieleabend.storage import Storage
from tests.fake_storage import FakeLocalStorage


class Loop:
    """One event loop shared by every device of a test; its clock (ms) runs with real time plus `advance`."""

    def __init__(self):
        self.events = queue.Queue()
        self.base = 1_700_000_000_000
        self.started = time.monotonic()
        self.offset = 0
        self.timers = {}
        self.next_id = 1

    @property
    def now(self):
        return self.base + int((time.monotonic() - self.started) * 1000) + self.offset

    def later(self, handler, ms):
        timer = self.next_id
        self.next_id += 1
        self.timers[timer] = (self.now + ms, timer, handler)
        return timer

    def cancel(self, timer):
        self.timers.pop(timer, None)

    def run_due(self):
        """Run timers that are due now; return True if one ran."""
        due = sorted(t for t in self.timers.values() if t[0] <= self.now)
        if not due:
            return False
        _, timer, handler = due[0]
        del self.timers[timer]
        handler()
        return True

    def advance(self, ms):
        """Move the clock on by ms at once, running timers in order as they fall due."""
        end = self.now + ms
        while True:
            upcoming = sorted(t for t in self.timers.values() if t[0] <= end)
            if not upcoming:
                break
            if upcoming[0][0] > self.now:
                self.offset += upcoming[0][0] - self.now
            self.run_due()
        if end > self.now:
            self.offset += end - self.now

    def pump(self, until=None, timeout=10.0, settle=0.05):
        """Run socket events and due timers until `until()` holds (or, without it, until quiet)."""
        deadline = time.monotonic() + timeout
        quiet_since = None
        while True:
            if until is not None and until():
                return True
            ran = self.run_due()
            try:
                handler = self.events.get(timeout=0.01 if not ran else 0)
                handler()
                quiet_since = None
                continue
            except queue.Empty:
                pass
            if ran:
                quiet_since = None
                continue
            if until is None:
                quiet_since = quiet_since or time.monotonic()
                if time.monotonic() - quiet_since >= settle:
                    return True
            if time.monotonic() > deadline:
                if until is None:
                    return True
                raise AssertionError("condition not met within %.1f s" % timeout)


class ThreadSocket:
    """The relay websocket as ui/dom's RelaySocket behaves: callbacks queued on the loop."""

    def __init__(self, loop, url, on_open, on_message, on_close, log=None):
        self.loop = loop
        self.ws = None
        self.closed = False
        self.log = log
        self.thread = threading.Thread(target=self.run, args=(url, on_open, on_message, on_close), daemon=True)
        self.thread.start()

    def run(self, url, on_open, on_message, on_close):
        try:
            self.ws = connect(url, proxy=None, ping_interval=None, close_timeout=1, open_timeout=5, **_SYNC_LEGACY)
        except Exception:
            self.loop.events.put(lambda: on_close(1006))
            return
        self.loop.events.put(on_open)
        code = 1006
        try:
            while True:
                text = self.ws.recv()
                if self.log is not None:
                    self.log.append(text)
                frame = json.loads(text)
                self.loop.events.put(lambda frame=frame: on_message(frame))
        except ConnectionClosed as exc:
            code = exc.rcvd.code if exc.rcvd else 1006
        except Exception:
            code = 1006
        self.loop.events.put(lambda: on_close(code))

    def send(self, frame):
        if self.ws is None or self.closed:
            return False
        try:
            self.ws.send(json.dumps(frame))
        except Exception:
            return False
        return True

    def close(self):
        self.closed = True
        if self.ws is not None:
            try:
                self.ws.close()
            except Exception:
                pass


class FakeApp:
    """The parts of ui.app.App that tables and rooms use, for one device."""

    def __init__(self, loop, relay_url, seed=7, stand_in_ms=45000, storage_items=None):
        self.loop = loop
        self.relay_url = relay_url
        self.backend = FakeLocalStorage(storage_items)
        self.storage = Storage(self.backend, json, lambda: loop.now)
        self.settings = {"name": "", "language": "de", "setup": {}}
        self.seed = seed
        self.seed_uses = 0
        self.stand_in = stand_in_ms
        # No line checks unless a test asks: Loop.advance jumps the clock without the socket's answers.
        self.line_check = None
        self.sockets = []
        self.frames = []  # every text frame this device received
        self.toasts = []

    def now(self):
        return self.loop.now

    def later(self, handler, ms):
        return self.loop.later(handler, ms)

    def cancel(self, timer):
        self.loop.cancel(timer)

    def new_rng(self):
        self.seed_uses += 1
        return Rng(self.seed * 1000 + self.seed_uses - 1)

    def computer_pace(self):
        return 0

    def toast_storage_full(self):
        self.toasts.append("storage full")

    def room_socket(self, on_open, on_message, on_close):
        socket = ThreadSocket(self.loop, self.relay_url, on_open, on_message, on_close, self.frames)
        self.sockets.append(socket)
        return socket

    def room_nonce(self):
        return os.urandom(16).hex()

    def stand_in_ms(self):
        return self.stand_in

    def line_check_ms(self):
        return self.line_check

    def page_origin(self):
        return "http://192.0.2.7:8000"

    def cut_network(self):
        """Drop this device's sockets as a lost network would."""
        for socket in self.sockets:
            if socket.ws is not None:
                try:
                    socket.ws.socket.shutdown(2)
                except OSError:
                    pass

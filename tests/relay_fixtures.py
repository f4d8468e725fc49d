"""Fixtures for relay tests: a real server on a free loopback port, a clock the test moves."""

import itertools
import threading

import pytest
from werkzeug.serving import make_server

from server import create_app
from server.relay import Relay
from server.relay_redis import RedisRelay
from spieleabend.testing.redis import RedisServer
from tests.relay_client import RelayClient

BACKENDS = ["memory", "redis"]
_prefixes = itertools.count(1)
_redis = {}


def shared_redis():
    """Return the session's redis-server, started on first use (stopped by stop_redis)."""
    if "server" not in _redis:
        _redis["server"] = RedisServer()
    return _redis["server"]


def stop_redis():
    """Stop the session's redis-server if one was started."""
    server = _redis.pop("server", None)
    if server is not None:
        server.stop()


class FakeClock:
    """A monotonic clock that only moves when the test says so."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        """Move time forward."""
        self.now += seconds


# Generous rates so that ordinary tests never meet the rate limit under a frozen clock.
TEST_CONFIG = {
    "TESTING": True,
    "RELAY_SWEEP_INTERVAL": None,
    "RELAY_HOST_RATE": 1e6, "RELAY_HOST_BURST": 100000,
    "RELAY_SEAT_RATE": 1e6, "RELAY_SEAT_BURST": 100000,
    "RELAY_HOST_GRACE": 600.0, "RELAY_SEAT_GRACE": 300.0, "RELAY_IDLE_EXPIRY": 3600.0,
}


class RelayServer:
    """A running app with the relay, its clock, and helpers to open clients."""

    def __init__(self, overrides=None, backend="memory"):
        self.backend = backend
        self.app = create_app(dict(TEST_CONFIG, **(overrides or {})))
        self.http = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.port = self.http.server_port
        self.url = "ws://127.0.0.1:%d%s" % (self.port, self.app.config["RELAY_PATH"])
        self.clients = []
        self.relay = None
        self.reset(overrides)
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def reset(self, overrides=None):
        """Start over with a fresh relay (no rooms, a new clock) on the same running server.

        Building the app builds the web assets, which is slow, so tests share one
        server and swap the relay, which holds all room state, between tests.
        """
        if self.relay is not None:
            self.relay.close_all()
        self.clock = FakeClock()
        config = dict(self.app.config, RELAY_CLOCK=self.clock)
        config.update(overrides or {})
        if self.backend == "redis":
            # A fresh key prefix per test: no room of an earlier test is visible.
            config["RELAY_REDIS_PREFIX"] = fresh_prefix()
            self.relay = RedisRelay(config, shared_redis().url)
        else:
            self.relay = Relay(config)
        self.app.extensions["relay"] = self.relay

    def client(self, **options):
        """Open a socket to the relay (closed when the test ends)."""
        client = RelayClient(self.url, **options)
        self.clients.append(client)
        return client

    def host(self):
        """Open a room; return its host client."""
        host = self.client()
        host.create()
        return host

    def seat(self, host, name="", role="seat"):
        """Join the host's room by its secret; drain the host's presence notice."""
        seat = self.client()
        seat.join(host.welcome["room"], secret=host.welcome["secret"], name=name, role=role)
        notice = host.recv_type("presence")
        assert notice["status"] == "joined" and notice[role] == seat.welcome[role]
        return seat

    def close_clients(self):
        """Close every client a test opened."""
        for client in self.clients:
            try:
                client.close()
            except Exception:  # the relay may already have closed it
                pass
        self.clients = []

    def stop(self):
        """Close clients and rooms, then stop the server."""
        self.close_clients()
        self.relay.close_all()
        self.http.shutdown()
        self.http.server_close()


def fresh_prefix():
    """Return a key prefix no earlier test used: nothing of another test is visible under it."""
    return "test%d:" % next(_prefixes)


@pytest.fixture(scope="session")
def session_redis():
    """The session's redis-server (started on first use, stopped at the end)."""
    yield shared_redis()
    stop_redis()


@pytest.fixture(scope="session")
def relay_servers():
    """One running server per backend for the whole session; see RelayServer.reset."""
    servers = {}
    yield servers
    for server in servers.values():
        server.stop()
    stop_redis()


@pytest.fixture(params=BACKENDS)
def shared_relay_server(request, relay_servers):
    """The session's server of one backend: every relay test runs in memory and on Redis."""
    if request.param not in relay_servers:
        relay_servers[request.param] = RelayServer(backend=request.param)
    return relay_servers[request.param]


@pytest.fixture
def relay_server(shared_relay_server):
    """A relay with default test settings and no rooms."""
    shared_relay_server.reset()
    yield shared_relay_server
    shared_relay_server.close_clients()


@pytest.fixture
def make_relay_server(shared_relay_server):
    """Relays with config overrides: make_relay_server({"RELAY_MAX_ROOMS": 1}).

    Overrides of the relay's own settings reuse the shared server; settings of the
    websocket layer (ping interval, frame cap) need an app of their own.
    """
    own = []

    def make(overrides=None, own_app=False):
        if own_app:
            server = RelayServer(overrides, backend=shared_relay_server.backend)
            own.append(server)
            return server
        shared_relay_server.reset(overrides)
        return shared_relay_server

    yield make
    shared_relay_server.close_clients()
    for server in own:
        server.stop()

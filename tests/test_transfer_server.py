"""The transfer code store: single use, expiry, size and rate limits, and its HTTP routes.

Every test runs against both stores: process memory (the default) and a real redis-server (what
several processes behind a load balancer share); tests/test_relay_processes.py takes a code made
on one real server process on another.
"""

import json
import threading

import pytest

from server import create_app
from server.transfer import (ALPHABET, CODE_LENGTH, CodeStore, RateLimiter, RedisCodeStore, RedisRateLimiter,
                             StoreFull, Transfers, normalize_code, open_address, redis_client)
from spieleabend.testing.redis import free_port
from tests.relay_fixtures import BACKENDS, fresh_prefix, session_redis  # noqa: F401  (fixture)


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


GAME = {"format": 1, "kind": "spieleabend.game", "game": "punktejagd", "state": {"round": 2},
        "meta": {"bot_rng": [1, 2, 3, 4]}}


@pytest.fixture(params=BACKENDS)
def backend(request):
    """The store's backend: "memory" or "redis"."""
    return request.param


@pytest.fixture()
def redis_url(backend, request):
    """The session's redis-server for the redis backend, None in memory."""
    return request.getfixturevalue("session_redis").url if backend == "redis" else None


@pytest.fixture()
def make_store(redis_url):
    """Make a code store of the test's backend (in Redis under keys of its own)."""
    def make(clock, **options):
        if redis_url is None:
            return CodeStore(clock, **options)
        return RedisCodeStore(redis_client(redis_url), fresh_prefix(), clock, **options)
    return make


@pytest.fixture()
def make_limiter(redis_url):
    """Make a rate limiter of the test's backend."""
    def make(clock, limit, window=60):
        if redis_url is None:
            return RateLimiter(clock, limit, window)
        return RedisRateLimiter(redis_client(redis_url), fresh_prefix(), clock, limit, window)
    return make


# -- the store -------------------------------------------------------------------------------------
def test_a_code_is_long_enough_and_single_use(make_store):
    store = make_store(Clock())
    code = store.put(b"save")
    assert len(code) == CODE_LENGTH and all(ch in ALPHABET for ch in code)
    assert len(ALPHABET) ** CODE_LENGTH > 10 ** 11
    assert store.has(code) and store.held() == (1, 4)
    assert store.take(code) == b"save"
    assert store.take(code) is None, "a used code is refused"
    assert not store.has(code) and store.held() == (0, 0)


def test_two_devices_taking_one_code_at_once_get_it_once(make_store):
    store = make_store(Clock())
    code = store.put(b"the game")
    start = threading.Barrier(8)
    got = []

    def redeem():
        start.wait()
        got.append(store.take(code))

    devices = [threading.Thread(target=redeem) for _ in range(8)]
    for device in devices:
        device.start()
    for device in devices:
        device.join()
    assert sorted(got, key=bool) == [None] * 7 + [b"the game"]


def test_a_code_expires_after_its_time(make_store):
    clock = Clock()
    store = make_store(clock, ttl=600)
    early, late = store.put(b"a"), None
    clock.now += 599
    late = store.put(b"b")
    assert store.take(early) == b"a"
    early = store.put(b"c")
    clock.now += 600
    assert store.take(late) is None and store.take(early) is None
    assert store.held() == (0, 0), "expired saves are forgotten"


def test_the_store_is_bounded_in_count_and_bytes(make_store):
    store = make_store(Clock(), max_items=2, max_total=10)
    store.put(b"1234")
    with pytest.raises(StoreFull):
        store.put(b"1234567")
    store.put(b"123456")
    with pytest.raises(StoreFull):
        store.put(b"")


def test_codes_never_repeat_while_alive(make_store):
    picks = iter("A" * CODE_LENGTH + "A" * CODE_LENGTH + "B" * CODE_LENGTH)
    store = make_store(Clock(), choose=lambda alphabet: next(picks))
    assert store.put(b"x") == "A" * CODE_LENGTH
    assert store.put(b"y") == "B" * CODE_LENGTH


def test_the_sender_learns_that_its_code_was_redeemed_until_the_codes_time_is_up(make_store):
    clock = Clock()
    store = make_store(clock, ttl=600)
    code = store.put(b"the game")
    assert store.state(code) == "live"
    clock.now += 100
    assert store.take(code) == b"the game"
    assert store.state(code) == "taken" and store.held() == (0, 0), "the file is gone, the fact stays"
    assert store.take(code) is None, "still used once"
    clock.now += 499
    assert store.state(code) == "taken"
    clock.now += 2
    assert store.state(code) == "unknown" and store.state("ABCDEFGH") == "unknown"
    expired = store.put(b"never fetched")
    clock.now += 601
    assert store.state(expired) == "unknown", "expired, not taken"


def test_a_redeemed_code_is_not_given_out_again_while_its_sender_may_ask(make_store):
    picks = iter("A" * CODE_LENGTH + "A" * CODE_LENGTH + "B" * CODE_LENGTH)
    store = make_store(Clock(), choose=lambda alphabet: next(picks))
    assert store.take(store.put(b"x")) == b"x"
    assert store.put(b"y") == "B" * CODE_LENGTH


def test_typed_codes_are_forgiving_about_spaces_dashes_and_case():
    assert normalize_code(" abcd-efgh ") == "ABCDEFGH"
    assert normalize_code("ABCD EFGH") == "ABCDEFGH"
    assert normalize_code("ABCDEFG") == "" and normalize_code("ABCDEFG0") == "" and normalize_code(None) == ""


def test_rate_limiter_forgets_after_the_window(make_limiter):
    clock = Clock()
    limiter = make_limiter(clock, 2, window=60)
    assert limiter.allow("a") and limiter.allow("a") and not limiter.allow("a")
    assert limiter.allow("b")
    clock.now += 61
    assert limiter.allow("a")


# -- over HTTP ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server_app():
    """One app for the module (building the assets takes seconds); each test gets a fresh store."""
    return create_app({"TESTING": True, "TRANSFER_MAX_BYTES": 4096, "TRANSFER_CREATE_LIMIT": 5,
                       "TRANSFER_REDEEM_LIMIT": 8, "LAN_ADDRESS_LOOKUP": lambda: "192.168.1.5"})


@pytest.fixture()
def clock():
    return Clock()


@pytest.fixture()
def client(server_app, clock, redis_url):
    """The app's test client with a fresh store of the test's backend."""
    config = dict(server_app.config, TRANSFER_CLOCK=clock, RELAY_REDIS_URL=redis_url, RELAY_REDIS_PREFIX=fresh_prefix())
    server_app.extensions["spieleabend_transfer"] = Transfers(config)
    return server_app.test_client()


def create(client, document=GAME):
    return client.post("/api/transfer", data=json.dumps(document), content_type="application/json")


def test_post_then_redeem_once_gives_the_save_back_byte_for_byte(client):
    answer = create(client)
    assert answer.status_code == 201
    code = answer.get_json()["code"]
    assert answer.get_json()["expires_in"] == 600
    first = client.get("/api/transfer/" + code.lower())
    assert first.status_code == 200 and json.loads(first.data) == GAME
    assert first.headers["Cache-Control"] == "no-store"
    again = client.get("/api/transfer/" + code)
    assert again.status_code == 404 and again.get_json()["error"] == "unknown_or_used"


def test_redeem_by_post_body(client):
    code = create(client).get_json()["code"]
    answer = client.post("/api/transfer/redeem", json={"code": code[:4] + "-" + code[4:]})
    assert answer.status_code == 200 and answer.get_json() == {"found": True, "file": GAME}
    again = client.post("/api/transfer/redeem", json={"code": code})
    assert again.status_code == 200 and again.get_json() == {"found": False, "error": "unknown_or_used"}
    assert client.post("/api/transfer/redeem", data="nonsense").get_json()["found"] is False


def test_an_expired_code_is_refused(client, clock):
    code = create(client).get_json()["code"]
    clock.now += 601
    assert client.get("/api/transfer/" + code).status_code == 404


def test_too_large_damaged_and_foreign_bodies_are_refused(client):
    big = dict(GAME, state={"pad": "x" * 5000})
    assert create(client, big).status_code == 413
    assert client.post("/api/transfer", data="{nope", content_type="application/json").status_code == 400
    assert create(client, {"kind": "something"}).get_json()["error"] == "foreign"


def test_creating_and_guessing_are_rate_limited(client):
    for _ in range(5):
        assert create(client).status_code == 201
    assert create(client).status_code == 429
    statuses = [client.get("/api/transfer/ABCDEFGH").status_code for _ in range(9)]
    assert statuses[:8] == [404] * 8 and statuses[8] == 429


def test_qr_code_of_a_live_code_only(client):
    code = create(client).get_json()["code"]
    answer = client.get("/api/transfer/%s/qr.svg" % code)
    assert answer.status_code == 200 and answer.content_type.startswith("image/svg+xml")
    assert b"<svg" in answer.data
    assert client.get("/api/transfer/%s" % code).status_code == 200, "drawing it did not use it up"
    assert client.get("/api/transfer/%s/qr.svg" % code).status_code == 404


def test_the_qr_address_opens_the_app_at_the_code_on_a_reachable_host(server_app):
    with server_app.test_request_context(base_url="http://localhost:8000"):
        assert open_address("ABCD2345") == "http://192.168.1.5:8000/#/open/ABCD2345"
    with server_app.test_request_context(base_url="http://spiele.example:8000"):
        assert open_address("ABCD2345") == "http://spiele.example:8000/#/open/ABCD2345"


def test_a_lost_redis_is_a_clear_refusal_that_keeps_nothing_and_uses_nothing_up(server_app, clock):
    # A port nobody listens on: as when Redis is down or out of reach.
    config = dict(server_app.config, RELAY_REDIS_URL="redis://127.0.0.1:%d/0" % free_port(), TRANSFER_CLOCK=clock)
    server_app.extensions["spieleabend_transfer"] = Transfers(config)
    client = server_app.test_client()
    made = create(client)
    assert made.status_code == 503 and made.get_json() == {"error": "unavailable"}
    taken = client.post("/api/transfer/redeem", json={"code": "ABCD2345"})
    assert taken.status_code == 503 and taken.get_json() == {"error": "unavailable"}
    assert client.get("/api/transfer/ABCD2345").status_code == 503
    assert client.get("/api/transfer/ABCD2345/qr.svg").status_code == 503


# -- behind a proxy -----------------------------------------------------------------------------------
def guess(client, forwarded_for, **headers):
    """Redeem a wrong code as a device behind nginx (127.0.0.1) whose address nginx appended."""
    headers["X-Forwarded-For"] = forwarded_for
    return client.get("/api/transfer/ABCDEFGH", headers=headers, environ_base={"REMOTE_ADDR": "127.0.0.1"})


def test_behind_a_trusted_proxy_each_device_has_its_own_rate_limit():
    app = create_app({"TESTING": True, "TRANSFER_REDEEM_LIMIT": 2, "PROXIES": 1})
    client = app.test_client()
    # A device's own X-Forwarded-For (spoofed "9.9.9.9") comes first; nginx appends the real address.
    assert [guess(client, "9.9.9.9, 203.0.113.5").status_code for _ in range(3)] == [404, 404, 429]
    assert guess(client, "9.9.9.9, 203.0.113.5").status_code == 429, "the spoofed part is not the key"
    assert guess(client, "203.0.113.6").status_code == 404, "another device is not slowed down"
    # The scheme the device used reaches the app; a client's X-Forwarded-Host does not.
    answer = client.get("/api/join-base", headers={"Host": "karten.example.org", "X-Forwarded-Proto": "https",
                                                   "X-Forwarded-Host": "evil.example"})
    assert answer.get_json()["base"] == "https://karten.example.org"


def test_without_the_proxy_setting_x_forwarded_for_is_ignored(server_app, clock):
    assert server_app.config["PROXIES"] == 0
    server_app.extensions["spieleabend_transfer"] = Transfers(dict(server_app.config, TRANSFER_CLOCK=clock))
    client = server_app.test_client()
    statuses = [guess(client, "198.51.100.%d" % number).status_code for number in range(9)]
    assert statuses[:8] == [404] * 8 and statuses[8] == 429, "a made-up X-Forwarded-For gets no fresh limit"
    answer = client.get("/api/join-base", headers={"Host": "karten.example.org", "X-Forwarded-Proto": "https"})
    assert answer.get_json()["base"] == "http://karten.example.org"


def test_the_proxy_count_comes_from_the_environment(monkeypatch):
    from server import proxies_from_environment

    monkeypatch.setenv("SPIELEABEND_PROXIES", "2")
    assert proxies_from_environment() == 2
    monkeypatch.delenv("SPIELEABEND_PROXIES")
    assert proxies_from_environment() == 0
    monkeypatch.setenv("SPIELEABEND_PROXIES", "yes")
    with pytest.raises(ValueError, match="SPIELEABEND_PROXIES"):
        proxies_from_environment()


def test_head_tells_whether_a_code_is_live_without_using_it_up(client):
    code = create(client).get_json()["code"]
    for _ in range(2):  # a link preview, then another
        looked = client.head("/api/transfer/" + code)
        assert looked.status_code == 200 and looked.data == b""
        assert looked.headers["Cache-Control"] == "no-store"
    taken = client.get("/api/transfer/" + code)
    assert taken.status_code == 200 and json.loads(taken.data) == GAME
    assert client.head("/api/transfer/" + code).status_code == 404


def test_state_tells_the_sender_live_then_taken_and_counts_as_trying(client, clock):
    code = create(client).get_json()["code"]
    answer = client.get("/api/transfer/%s/state" % code.lower())
    assert answer.get_json() == {"state": "live"} and answer.headers["Cache-Control"] == "no-store"
    client.post("/api/transfer/redeem", json={"code": code})
    assert client.get("/api/transfer/%s/state" % code).get_json() == {"state": "taken"}
    assert client.get("/api/transfer/not-a-code/state").get_json() == {"state": "unknown"}
    clock.now += 601
    assert client.get("/api/transfer/%s/state" % code).get_json() == {"state": "unknown"}
    statuses = [client.get("/api/transfer/%s/state" % code).status_code for _ in range(30)]
    assert 429 in statuses, "asking is rate limited like trying a code"


def test_drawing_codes_counts_as_trying_them(client):
    statuses = [client.get("/api/transfer/ABCDEFGH/qr.svg").status_code for _ in range(9)]
    assert statuses[:8] == [404] * 8 and statuses[8] == 429

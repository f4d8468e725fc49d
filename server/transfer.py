"""Carry a saved game (or a replay) to another device: a short one-time code for it, kept a few minutes.

POST /api/transfer             body: the game file (JSON)  -> 201 {"code", "expires_in"}
GET  /api/transfer/<code>      -> 200 the game file, once; 404 when unknown, used or expired
                               (HEAD: the same status, never using the code up: link previews send it)
POST /api/transfer/redeem      body: {"code"}  -> 200 {"found": true, "file": the game file} once, else
                               200 {"found": false, "error": "unknown_or_used"} (the app's way: a wrong
                               code is an answer, not a failed request the browser logs as an error)
GET  /api/transfer/<code>/qr.svg  -> the code as a QR code (an address that opens the app at it)
GET  /api/transfer/<code>/state   -> 200 {"state": "live" | "taken" | "unknown"}: the sending device asks
                               whether its code was redeemed (until the code's time is up), to offer
                               removing its own copy of a game that moved
Refusals: 413 too_large, 400 damaged / foreign, 429 slow_down (too many attempts from one address),
503 busy (the store is full) or unavailable (Redis is out of reach: nothing was kept or used up).

The server never runs or reads a game: it checks only that the body is a JSON object of the
game-file or replay kind and not too large. A code's file is forgotten when it is redeemed or when it
expires; that it was redeemed is kept until its time is up (no file, only the code). Codes are 8 characters from 31 that cannot be mixed up (about 8.5e11 codes), and each
address may try only a few per minute.

Where codes live follows the relay: in this process's memory by default, in Redis when
RELAY_REDIS_URL is set, so that with several processes behind a load balancer a code made on one
is redeemed on any other, once. With Redis every step is one Lua script (atomic): two devices
redeeming the same code at once get it once, and the count and byte limits and each address's
rate limits hold for all processes together. Keys (one hash tag, so a cluster keeps them on one
slot): <prefix>{transfer}:files (hash code -> file), <prefix>{transfer}:expiry (sorted set
code -> expiry time), <prefix>{transfer}:bytes (bytes held), <prefix>{transfer}:taken (sorted set
of redeemed codes -> their expiry time); <prefix>transfer-rate:<kind>:<address>
(sorted set of an address's recent attempts). All of them expire by themselves once unused.
"""

import io
import json
import secrets
import threading
import time

from flask import Blueprint, Response, current_app, jsonify, request

bp = Blueprint("transfer", __name__, url_prefix="/api/transfer")

ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH = 8
GAME_FILE_KIND = "spieleabend.game"
FILE_KINDS = (GAME_FILE_KIND, "spieleabend.replay")  # a saved game, or a finished game's replay

DEFAULTS = {
    "TRANSFER_TTL": 600,                      # seconds a code lives
    "TRANSFER_MAX_BYTES": 256 * 1024,         # one save
    "TRANSFER_MAX_ITEMS": 2000,               # codes held at once
    "TRANSFER_MAX_TOTAL": 64 * 1024 * 1024,   # bytes held at once
    "TRANSFER_CREATE_LIMIT": 20,              # new codes per address per minute
    "TRANSFER_REDEEM_LIMIT": 30,              # redeem attempts per address per minute
    "TRANSFER_CLOCK": time.monotonic,
}


class StoreFull(Exception):
    """The server holds as many saves as it may."""


class StoreUnavailable(Exception):
    """The shared store (Redis) cannot be reached; nothing was kept or taken."""


def normalize_code(text):
    """Return a code as stored: capitals, without spaces or dashes; '' when it cannot be one."""
    code = "".join(str(text or "").split()).replace("-", "").upper()
    if len(code) != CODE_LENGTH or any(ch not in ALPHABET for ch in code):
        return ""
    return code


class CodeStore:
    """Saves under one-time codes: single use, forgotten after `ttl` seconds, bounded in count and bytes."""

    def __init__(self, clock=time.monotonic, ttl=600, max_items=2000, max_total=64 * 1024 * 1024,
                 choose=secrets.choice):
        self.clock = clock
        self.ttl = ttl
        self.max_items = max_items
        self.max_total = max_total
        self.choose = choose
        self.items = {}  # code -> (expires, payload)
        self.taken = {}  # redeemed code -> its expiry: the sender may ask until then
        self.total = 0
        self.lock = threading.Lock()

    def purge(self):
        """Forget every expired code (callers hold the lock)."""
        now = self.clock()
        for code in [code for code, (expires, _p) in self.items.items() if expires <= now]:
            self.total -= len(self.items.pop(code)[1])
        for code in [code for code, expires in self.taken.items() if expires <= now]:
            del self.taken[code]

    def put(self, payload):
        """Keep payload (bytes) and return its new code; raise StoreFull when there is no room."""
        with self.lock:
            self.purge()
            if len(self.items) >= self.max_items or self.total + len(payload) > self.max_total:
                raise StoreFull()
            code = self.new_code()
            self.items[code] = (self.clock() + self.ttl, payload)
            self.total += len(payload)
            return code

    def new_code(self):
        while True:
            code = "".join(self.choose(ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.items and code not in self.taken:
                return code

    def take(self, code):
        """Return the payload of a live code and forget it; None when unknown, used or expired."""
        with self.lock:
            self.purge()
            if code not in self.items:
                return None
            expires, payload = self.items.pop(code)
            self.total -= len(payload)
            self.taken[code] = expires
            return payload

    def has(self, code):
        """Return True while a code can still be redeemed (it is not used up by asking)."""
        with self.lock:
            self.purge()
            return code in self.items

    def state(self, code):
        """Return "live" (it can be redeemed), "taken" (it was, and its time is not up) or "unknown"."""
        with self.lock:
            self.purge()
            return "live" if code in self.items else "taken" if code in self.taken else "unknown"

    def held(self):
        """Return (codes, bytes) held now."""
        with self.lock:
            self.purge()
            return len(self.items), self.total


class RateLimiter:
    """At most `limit` events per key in any `window` seconds (a sliding log per key)."""

    def __init__(self, clock, limit, window=60):
        self.clock = clock
        self.limit = limit
        self.window = window
        self.events = {}
        self.lock = threading.Lock()

    def allow(self, key):
        """Count one event for key; return False when it is over the limit."""
        with self.lock:
            now = self.clock()
            recent = [at for at in self.events.get(key, []) if at > now - self.window]
            if len(recent) >= self.limit:
                self.events[key] = recent
                return False
            recent.append(now)
            self.events[key] = recent
            if len(self.events) > 10000:  # forget quiet addresses
                self.events = {k: v for k, v in self.events.items() if v and v[-1] > now - self.window}
            return True


# Forgets every code whose time is up (the head of every store script). KEYS: files, expiry, bytes, taken.
PURGE_LUA = """
local function purge(now)
  local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
  for _, code in ipairs(due) do
    local size = redis.call('HSTRLEN', KEYS[1], code)
    redis.call('HDEL', KEYS[1], code)
    redis.call('DECRBY', KEYS[3], size)
  end
  if #due > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now) end
  redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
end
"""

# ARGV: now, code, file, expires, max codes, max bytes, key lifetime (ms). Returns 1 kept, 0 the code
# is taken (choose another), -1 full.
PUT_SCRIPT = PURGE_LUA + """
purge(ARGV[1])
if redis.call('HEXISTS', KEYS[1], ARGV[2]) == 1 or redis.call('ZSCORE', KEYS[4], ARGV[2]) then return 0 end
local size = string.len(ARGV[3])
local total = tonumber(redis.call('GET', KEYS[3]) or '0')
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) or total + size > tonumber(ARGV[6]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[2], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
redis.call('INCRBY', KEYS[3], size)
for i = 1, 4 do redis.call('PEXPIRE', KEYS[i], ARGV[7]) end
return 1
"""

# ARGV: now, code, key lifetime (ms). Returns the file and forgets it (keeping that the code was
# redeemed until its time is up), or nil: one device gets it, never two.
TAKE_SCRIPT = PURGE_LUA + """
purge(ARGV[1])
local file = redis.call('HGET', KEYS[1], ARGV[2])
if not file then return false end
redis.call('HDEL', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[4], redis.call('ZSCORE', KEYS[2], ARGV[2]), ARGV[2])
redis.call('PEXPIRE', KEYS[4], ARGV[3])
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('DECRBY', KEYS[3], string.len(file))
return file
"""

# ARGV: now, code (or ''). Returns {1 if the code is live, codes held, bytes held, 1 if it was redeemed}.
LOOK_SCRIPT = PURGE_LUA + """
purge(ARGV[1])
local live = 0
local taken = 0
if ARGV[2] ~= '' then
  live = redis.call('HEXISTS', KEYS[1], ARGV[2])
  if redis.call('ZSCORE', KEYS[4], ARGV[2]) then taken = 1 end
end
return {live, redis.call('ZCARD', KEYS[2]), tonumber(redis.call('GET', KEYS[3]) or '0'), taken}
"""

# KEYS[1]: an address's recent attempts. ARGV: now, window, limit, a unique member, key lifetime (ms).
RATE_SCRIPT = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ARGV[2])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""


def redis_client(url):
    """Return a client for the transfer store: short timeouts, so a lost Redis is an answer, not a hang."""
    import redis  # only with a Redis URL: the embedded default needs no Redis client

    return redis.Redis.from_url(url, socket_timeout=2.0, socket_connect_timeout=2.0,
                                retry_on_timeout=False, health_check_interval=30)


class RedisCodeStore:
    """CodeStore's contract in Redis: one store for every process that uses the same URL and prefix."""

    def __init__(self, client, prefix, clock=time.time, ttl=600, max_items=2000,
                 max_total=64 * 1024 * 1024, choose=secrets.choice):
        import redis

        self.errors = (redis.RedisError, OSError)
        self.clock = clock
        self.ttl = ttl
        self.max_items = max_items
        self.max_total = max_total
        self.choose = choose
        self.keys = ["%s{transfer}:%s" % (prefix, name) for name in ("files", "expiry", "bytes", "taken")]
        # The keys outlive their newest code a little, in Redis's own time, then go by themselves.
        self.keep_ms = int(1000 * (ttl + 60))
        self._put = client.register_script(PUT_SCRIPT)
        self._take = client.register_script(TAKE_SCRIPT)
        self._look = client.register_script(LOOK_SCRIPT)

    def run(self, script, *args):
        """Run one store script at this store's time; raise StoreUnavailable when Redis is out of reach."""
        try:
            return script(keys=self.keys, args=[repr(self.clock()), *args])
        except self.errors as problem:
            raise StoreUnavailable(str(problem)) from None

    def put(self, payload):
        """Keep payload (bytes) and return its new code; raise StoreFull when there is no room."""
        while True:
            code = "".join(self.choose(ALPHABET) for _ in range(CODE_LENGTH))
            kept = self.run(self._put, code, payload, repr(self.clock() + self.ttl), self.max_items,
                            self.max_total, self.keep_ms)
            if kept == 1:
                return code
            if kept == -1:
                raise StoreFull()

    def take(self, code):
        """Return the payload of a live code and forget it; None when unknown, used or expired."""
        return self.run(self._take, code, self.keep_ms)

    def has(self, code):
        """Return True while a code can still be redeemed (it is not used up by asking)."""
        return self.run(self._look, code)[0] == 1

    def state(self, code):
        """Return "live" (it can be redeemed), "taken" (it was, and its time is not up) or "unknown"."""
        live, _count, _total, taken = self.run(self._look, code)
        return "live" if live == 1 else "taken" if taken == 1 else "unknown"

    def held(self):
        """Return (codes, bytes) held now, by every process together."""
        _live, count, total, _taken = self.run(self._look, "")
        return count, total


class RedisRateLimiter:
    """RateLimiter's contract in Redis: the attempts of an address count on every process."""

    def __init__(self, client, prefix, clock, limit, window=60):
        import redis

        self.errors = (redis.RedisError, OSError)
        self.clock = clock
        self.limit = limit
        self.window = window
        self.prefix = prefix
        self._count = client.register_script(RATE_SCRIPT)

    def allow(self, key):
        """Count one event for key; return False when it is over the limit."""
        now = self.clock()
        try:
            return self._count(keys=[self.prefix + key], args=[
                repr(now), self.window, self.limit, "%r/%s" % (now, secrets.token_hex(4)),
                int(1000 * (self.window + 1))]) == 1
        except self.errors as problem:
            raise StoreUnavailable(str(problem)) from None


class Transfers:
    """The code store and the rate limits of one app: in Redis when the relay is, else in memory."""

    def __init__(self, config):
        settings = {key: config.get(key, value) for key, value in DEFAULTS.items()}
        self.config = settings
        clock = settings["TRANSFER_CLOCK"]
        size = (settings["TRANSFER_TTL"], settings["TRANSFER_MAX_ITEMS"], settings["TRANSFER_MAX_TOTAL"])
        url = config.get("RELAY_REDIS_URL")
        if not url:
            self.store = CodeStore(clock, *size)
            self.creates = RateLimiter(clock, settings["TRANSFER_CREATE_LIMIT"])
            self.redeems = RateLimiter(clock, settings["TRANSFER_REDEEM_LIMIT"])
            return
        from server.relay_redis import REDIS_DEFAULTS

        if clock is time.monotonic:
            clock = time.time  # expiry times are compared across processes and machines
        prefix = config.get("RELAY_REDIS_PREFIX", REDIS_DEFAULTS["RELAY_REDIS_PREFIX"])
        client = redis_client(url)
        self.store = RedisCodeStore(client, prefix, clock, *size)
        rates = prefix + "transfer-rate:"
        self.creates = RedisRateLimiter(client, rates + "create:", clock, settings["TRANSFER_CREATE_LIMIT"])
        self.redeems = RedisRateLimiter(client, rates + "redeem:", clock, settings["TRANSFER_REDEEM_LIMIT"])


def init_app(app):
    """Register the transfer routes with their own store."""
    app.extensions["spieleabend_transfer"] = Transfers(app.config)
    app.register_blueprint(bp)


def transfers():
    return current_app.extensions["spieleabend_transfer"]


def error(status, reason):
    response = jsonify({"error": reason})
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def client_key():
    return request.remote_addr or "?"


@bp.errorhandler(StoreUnavailable)
def unavailable(_problem):
    """Redis is out of reach: say so (503); no code was made or used up, so trying again later works."""
    return error(503, "unavailable")


@bp.post("")
def create():
    """Keep a game file under a new one-time code."""
    state = transfers()
    limit = state.config["TRANSFER_MAX_BYTES"]
    if request.content_length is not None and request.content_length > limit:
        return error(413, "too_large")
    payload = request.get_data(cache=False)
    if len(payload) > limit:
        return error(413, "too_large")
    if not state.creates.allow(client_key()):
        return error(429, "slow_down")
    try:
        document = json.loads(payload.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return error(400, "damaged")
    if not isinstance(document, dict) or document.get("kind") not in FILE_KINDS:
        return error(400, "foreign")
    try:
        code = state.store.put(payload)
    except StoreFull:
        return error(503, "busy")
    response = jsonify({"code": code, "expires_in": state.config["TRANSFER_TTL"]})
    response.status_code = 201
    response.headers["Cache-Control"] = "no-store"
    return response


def take(text):
    """Return (payload or None, error response or None) for a typed code, counting the attempt."""
    state = transfers()
    if not state.redeems.allow(client_key()):
        return None, error(429, "slow_down")
    code = normalize_code(text)
    return (state.store.take(code) if code else None), None


@bp.get("/<code>")
def redeem_get(code):
    """Hand out the save of a code once (HEAD only tells whether it is live: a link preview uses nothing up)."""
    if request.method == "HEAD":
        return look(code)
    payload, refused = take(code)
    if refused is not None:
        return refused
    if payload is None:
        return error(404, "unknown_or_used")
    response = Response(payload, content_type="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


def live_code(text):
    """Return (the code, None) when `text` names a live code, else (None, the refusal): counted as a redeem
    attempt, since the answer tells whether a code is live."""
    state = transfers()
    if not state.redeems.allow(client_key()):
        return None, error(429, "slow_down")
    code = normalize_code(text)
    if not code or not state.store.has(code):
        return None, error(404, "unknown_or_used")
    return code, None


def look(text):
    """Answer HEAD for a code as GET would, without the file and without using the code up."""
    _code, refused = live_code(text)
    if refused is not None:
        return refused
    response = Response(b"", content_type="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/<code>/state")
def code_state(code):
    """Tell the sending device whether its code was redeemed (counted as a redeem attempt, as HEAD is)."""
    state = transfers()
    if not state.redeems.allow(client_key()):
        return error(429, "slow_down")
    code = normalize_code(code)
    response = jsonify({"state": state.store.state(code) if code else "unknown"})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/redeem")
def redeem_post():
    """Hand out the save of a code once (the code in a JSON body); a wrong code is a normal answer."""
    body = request.get_json(silent=True)
    payload, refused = take(body.get("code") if isinstance(body, dict) else "")
    if refused is not None:
        return refused
    if payload is None:
        response = jsonify({"found": False, "error": "unknown_or_used"})
    else:
        response = Response(b'{"found": true, "file": ' + payload + b"}", content_type="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


def open_address(code):
    """Return the address that opens the app at a code, reachable from a phone (never localhost)."""
    from server import rooms_api  # the same address phones get for join links

    public = current_app.config.get("PUBLIC_URL")
    lan_lookup = current_app.config.get("LAN_ADDRESS_LOOKUP") or rooms_api.lan_address
    name, _port = rooms_api.split_host(request.host)
    lan = lan_lookup() if rooms_api.is_local_host(name) and not public else None
    base, _source = rooms_api.join_base(request.host, request.scheme, public, lan)
    return base.rstrip("/") + "/#/open/" + code


@bp.get("/<code>/qr.svg")
def qr(code):
    """Draw a live code as a QR code of the address that opens the app at it (counted as a redeem attempt:
    the answer tells whether a code is live)."""
    code, refused = live_code(code)
    if refused is not None:
        return refused
    import segno  # imported here: only this route needs it

    address = open_address(code)
    out = io.BytesIO()
    segno.make(address, error="m").save(out, kind="svg", scale=4, border=2, dark="#000", light="#fff",
                                        title="QR-Code " + code)
    response = Response(out.getvalue(), content_type="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response

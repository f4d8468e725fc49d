"""Carry a saved game (or a replay) to another device: a short one-time code for it, kept a few minutes.

POST /api/transfer             body: the game file (JSON)  -> 201 {"code", "expires_in"}
GET  /api/transfer/<code>      -> 200 the game file, once; 404 when unknown, used or expired
POST /api/transfer/redeem      body: {"code"}  -> 200 {"found": true, "file": the game file} once, else
                               200 {"found": false, "error": "unknown_or_used"} (the app's way: a wrong
                               code is an answer, not a failed request the browser logs as an error)
GET  /api/transfer/<code>/qr.svg  -> the code as a QR code (an address that opens the app at it)

The server never runs or reads a game: it checks only that the body is a JSON object of the
game-file or replay kind and not too large. Codes live in process memory (run one worker, as the relay
needs anyway); a code is forgotten when it is redeemed or when it expires. Codes are 8 characters
from 31 that cannot be mixed up (about 8.5e11 codes), and each address may try only a few per minute.
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
        self.total = 0
        self.lock = threading.Lock()

    def purge(self):
        """Forget every expired code (callers hold the lock)."""
        now = self.clock()
        for code in [code for code, (expires, _p) in self.items.items() if expires <= now]:
            self.total -= len(self.items.pop(code)[1])

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
            if code not in self.items:
                return code

    def take(self, code):
        """Return the payload of a live code and forget it; None when unknown, used or expired."""
        with self.lock:
            self.purge()
            if code not in self.items:
                return None
            payload = self.items.pop(code)[1]
            self.total -= len(payload)
            return payload

    def has(self, code):
        """Return True while a code can still be redeemed (it is not used up by asking)."""
        with self.lock:
            self.purge()
            return code in self.items


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


class Transfers:
    """The code store and the rate limits of one app."""

    def __init__(self, config):
        settings = {key: config.get(key, value) for key, value in DEFAULTS.items()}
        self.config = settings
        clock = settings["TRANSFER_CLOCK"]
        self.store = CodeStore(clock, settings["TRANSFER_TTL"], settings["TRANSFER_MAX_ITEMS"],
                               settings["TRANSFER_MAX_TOTAL"])
        self.creates = RateLimiter(clock, settings["TRANSFER_CREATE_LIMIT"])
        self.redeems = RateLimiter(clock, settings["TRANSFER_REDEEM_LIMIT"])


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
    """Hand out the save of a code once."""
    payload, refused = take(code)
    if refused is not None:
        return refused
    if payload is None:
        return error(404, "unknown_or_used")
    response = Response(payload, content_type="application/json")
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
    """Draw a live code as a QR code of the address that opens the app at it."""
    code = normalize_code(code)
    if not code or not transfers().store.has(code):
        return error(404, "unknown_or_used")
    import segno  # imported here: only this route needs it

    address = open_address(code)
    out = io.BytesIO()
    segno.make(address, error="m").save(out, kind="svg", scale=4, border=2, dark="#000", light="#fff",
                                        title="QR-Code " + code)
    response = Response(out.getvalue(), content_type="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response

"""Rooms in Redis: the relay's state and message bus, shared by any number of processes.

`RedisRelay` speaks the same protocol as the in-memory `Relay` (it reuses its frame
checks, limits and sockets) but keeps everything a room is in Redis, so any process
can serve any socket and a process that dies costs its devices one reconnect.

Keys (`{code}` is a Redis Cluster hash tag: a room's keys share one slot):
  <prefix>room:{code}  hash: secret, pin, joining, pin_failures, last_active, about and one
                       JSON record per place ("p:h", "p:s1", "p:c1": role, number,
                       name, token, when it went away, its rate bucket)
  <prefix>at:{code}    hash: place ("h", "s1", "c1") -> "<process>/<socket>" for
                       every place with a live socket
  <prefix>rooms        set of open room codes (for the sweep and the room limit)
  <prefix>proc:<id>    a process's heartbeat (expires when the process dies)
  <prefix>sockets:<address>  hash: process -> its open sockets from this client address
  <prefix>created:<address>  hash: start of the address's window, rooms it created in it
Both room keys expire by themselves after the idle time plus the grace time.

Transport: one pub/sub channel per process (<prefix>bus:<id>). A relayed frame goes
straight from the sender's serving thread to the addressees whose sockets are on the
same process (`placed`: room -> place -> socket, kept by the hellos and departures
here). For addressees elsewhere the thread PUBLISHes the frame once to each process
that holds one, where one bus thread reads the channel and writes to the sockets. It
knows where they sit from `routes` (room -> place -> address): read by a hello, then
kept by the presence notices, which carry the place's new address to exactly the
processes that send to it. A place whose address is not known here (away, or a
notice still on its way) is looked up by a Lua script that also publishes the frame.
The commands go out on one connection per process that awaits no replies
(`CommandStream`): no round trip and no thread hand-over per frame. Why this and not
a channel per room or streams, and why frames stay in order: docs/rooms.md.
"""

import functools
import itertools
import json
import logging
import random
import secrets
import threading
import time

import redis
from redis.backoff import ExponentialBackoff

try:  # redis-py 7 and later
    from redis.maint_notifications import MaintNotificationsConfig
except ImportError:  # pragma: no cover
    MaintNotificationsConfig = None
from redis.retry import Retry

from server.relay import (END_CLOSE_CODES, PROTOCOL_VERSION, Relay, RelayError,
                          _field, check_secret, encode, encode_data, looked_frame, new_code,
                          normalize_code, shown_redis_url, wire_frame, wire_frame_bytes)

log = logging.getLogger(__name__)


# Relays a frame to the addressed places on other processes than the sender's (ARGV[7]), whose own
# sockets get it straight from the sender's thread, when the sender does not know where they sit;
# when ARGV[4] is a time, marks the room active.
# An empty target (ARGV[3]) only marks the room. Returns how many processes it published to, or -1
# when the sender no longer holds its place (replaced, removed, room gone): then nothing is sent.
RELAY_SCRIPT = """
local target = ARGV[3]
local map = {}
if target == 'all' or target == 'screens' then
  local at = redis.call('HGETALL', KEYS[1])
  for i = 1, #at, 2 do map[at[i]] = at[i + 1] end
else
  local pair = redis.call('HMGET', KEYS[1], ARGV[1], target)
  map[ARGV[1]] = pair[1]
  if pair[2] then map[target] = pair[2] end
end
if map[ARGV[1]] ~= ARGV[2] then return -1 end
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[2], 'last_active', ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[5])
  redis.call('PEXPIRE', KEYS[2], ARGV[5])
end
if target == '' then return 0 end
local groups = {}
for key, address in pairs(map) do
  local take
  if target == 'all' then take = key ~= 'h'
  elseif target == 'screens' then take = string.sub(key, 1, 1) == 'c'
  else take = key == target end
  if take then
    local slash = string.find(address, '/', 1, true)
    local process = string.sub(address, 1, slash - 1)
    if process ~= ARGV[7] then
      local id = string.sub(address, slash + 1)
      if groups[process] then groups[process] = groups[process] .. ',' .. id
      else groups[process] = id end
    end
  end
end
local sent = 0
for process, ids in pairs(groups) do
  redis.call('PUBLISH', ARGV[6] .. process, ids .. '\\n' .. ARGV[8])
  sent = sent + 1
end
return sent
"""

# Sets fields of a room's hash (ARGV: field, value, ...) only while the room exists (never re-creates a room).
SET_IF_ROOM_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  redis.call('HSET', KEYS[1], unpack(ARGV))
  return 1
end
return 0
"""

# Counts a socket of process ARGV[1] for a client address (KEYS[1]: process -> its sockets from
# there) unless the address has ARGV[2] already; the counts of processes without a heartbeat (key
# prefix ARGV[4]) are dropped first, so sockets of a process that died are not counted for ever.
# Returns 1 when counted, 0 over the limit.
COUNT_SOCKET_SCRIPT = """
local counts = redis.call('HGETALL', KEYS[1])
local total = 0
for i = 1, #counts, 2 do
  local process = counts[i]
  if process == ARGV[1] or redis.call('EXISTS', ARGV[4] .. process) == 1 then
    total = total + tonumber(counts[i + 1])
  else
    redis.call('HDEL', KEYS[1], process)
  end
end
if total >= tonumber(ARGV[2]) then return 0 end
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

# Gives a socket's count back (KEYS[1] as above, ARGV[1] the process).
UNCOUNT_SOCKET_SCRIPT = """
if redis.call('HINCRBY', KEYS[1], ARGV[1], -1) <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 0
"""

# Counts a new room of a client address (KEYS[1]: start of its window, rooms in it) at time ARGV[1]
# unless it made ARGV[3] in the window of ARGV[2] seconds; the key lives as long as the window
# (ARGV[4] ms). Returns 1 when counted, 0 over the limit.
COUNT_ROOM_SCRIPT = """
local start = tonumber(redis.call('HGET', KEYS[1], 'start'))
if start == nil or tonumber(ARGV[1]) - start >= tonumber(ARGV[2]) then
  redis.call('DEL', KEYS[1])
  redis.call('HSET', KEYS[1], 'start', ARGV[1], 'n', 0)
  redis.call('PEXPIRE', KEYS[1], ARGV[4])
end
if tonumber(redis.call('HGET', KEYS[1], 'n')) >= tonumber(ARGV[3]) then return 0 end
redis.call('HINCRBY', KEYS[1], 'n', 1)
return 1
"""

REDIS_DEFAULTS = {
    "RELAY_REDIS_PREFIX": "spieleabend:",
    "RELAY_REDIS_HEARTBEAT": 2.0,  # seconds between a process's heartbeats
    "RELAY_REDIS_PROCESS_TTL": 10.0,  # a process without a heartbeat this long counts as dead
    "RELAY_REDIS_POOL": 64,  # connections per process; threads wait for a free one
    "RELAY_REDIS_TIMEOUT": 2.0,  # seconds a Redis command may take before the room is interrupted
    # False: every frame to another process is looked up by the relay script, as before the
    # routes (bench.relay_load compares both ways in one run).
    "RELAY_REDIS_ROUTES": True,
    # Seconds a frame for another process may wait while frames keep coming, so that several go
    # out in one write and wake the other process once: at 1,000 msg/s a crossing delivery cost
    # 1.5 to 1.9x one in memory with 5 ms, a median 1.45x over fourteen rounds with 15 ms, for
    # frames about 10 ms later at the median (docs/deploy.md). A frame after a quiet spell goes at once.
    "RELAY_REDIS_HOLD": 0.015,
    # Every this many sweep intervals (on average) one process reads every room for the grace
    # and idle expiry; the sweeps between read no room unless a process died or lost a socket
    # while Redis was away (reading 250 rooms cost 10 to 15 ms of CPU a second).
    "RELAY_REDIS_EXPIRY_EVERY": 6,
}


class CommandStream:
    """One connection to Redis that runs commands from any thread in order, without awaiting replies.

    The connection says CLIENT REPLY OFF, so a thread writes its command and goes on: no
    round trip, no other thread to wake. Commands that arrive while one thread writes are
    written by that thread next, in one system call (under load, many frames per write).
    Redis runs one connection's commands in order, so frames of one sender stay in order.
    Frames for one process that wait in a row go out as one PUBLISH (`publish_lines`).
    `sync` waits until Redis has run everything written so far.
    """

    def __init__(self, pool, script, hold=0.0, on_lost=None):
        self.script = script  # loaded on every (re)connect: a Redis restarted has lost it
        # Seconds a write waits when the last one is that recent (frames keep coming): the
        # frames other threads queue meanwhile go out with it, one write here and one message
        # to read on the other process. A frame after a quiet spell goes at once.
        self.hold = hold
        # Called when a held write finds Redis gone: the threads that queued those frames have
        # gone on, so nobody else would tell their devices.
        self.on_lost = on_lost
        self._written_at = 0.0
        self._connection = pool.make_connection()
        self._connection.register_connect_callback(self._on_connect)
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._pending = []
        self._writing = False
        self._closed = False
        self._syncs = 0  # threads waiting in sync: the hold's thread then gives up the writing
        # The held writes are made by a thread of their own, never by a thread that queued a
        # frame: a serving thread sending many frames in a row must not wait the hold for each.
        self._held = threading.Event()
        if hold:
            threading.Thread(target=self._write_held, name="relay-stream-hold", daemon=True).start()

    def _on_connect(self, connection):
        """Load the script, then switch replies off on a fresh connection."""
        connection.send_command("SCRIPT", "LOAD", self.script, check_health=False)
        connection.read_response()
        connection.send_command("CLIENT", "REPLY", "OFF", check_health=False)

    def send(self, *args):
        """Write one command now, or hand it to the thread that is writing (raises if Redis is away)."""
        self._queue(b"".join(self._connection.pack_command(*args)))

    def publish_lines(self, channel, text):
        """PUBLISH lines of text; published together with the lines to the same channel that wait
        right before them (one message for several frames when threads write at once)."""
        self._queue((channel, text))

    def _queue(self, item):
        """Add packed commands or lines to publish; write them unless another thread is writing
        or they are held back for a moment (then the hold's thread writes them)."""
        with self._lock:
            self._pending.append(item)
            if self._writing:
                return
            self._writing = True
            now = time.monotonic()
            if self.hold and now - self._written_at < self.hold:
                self._held.set()
                return
            self._written_at = now
        self._write_pending()

    def _write_held(self):
        """The hold's own thread: while frames keep coming, write what gathered every `hold` seconds."""
        while not self._closed:
            self._held.wait()
            self._held.clear()  # nobody sets it again until this thread gives up the writing
            try:
                while True:
                    time.sleep(self.hold)
                    with self._lock:
                        if self._syncs or self._closed or not self._pending:
                            break  # a quiet hold, or a sync waits for the connection
                        items, self._pending = self._pending, []
                    self._written_at = time.monotonic()
                    self._connection.send_packed_command([self._packed(items)], check_health=False)
                if self._closed:
                    with self._lock:
                        self._pending.clear()
                self._written_at = 0.0  # the next frame after this goes at once
                self._write_pending()  # what a sync found waiting; then give up the writing
            except Exception:  # Redis is gone, or the connection broke mid-write: frames lost
                with self._lock:
                    self._pending.clear()
                    self._writing = False
                    self._idle.notify_all()
                if self.on_lost is not None and not self._closed:
                    self.on_lost()

    def _packed(self, items):
        """Return pending items in Redis's protocol: lines for one channel in a row in one PUBLISH."""
        packed = []
        channel = lines = None
        for item in items:
            if isinstance(item, tuple) and item[0] == channel:
                lines.append(item[1])
                continue
            if channel is not None:
                packed.extend(self._connection.pack_command("PUBLISH", channel, "\n".join(lines)))
                channel = None
            if isinstance(item, tuple):
                channel, lines = item[0], [item[1]]
            else:
                packed.append(item)
        if channel is not None:
            packed.extend(self._connection.pack_command("PUBLISH", channel, "\n".join(lines)))
        return b"".join(packed)

    def _write_pending(self):
        """Write what is pending until nothing is, then give up the writing (caller holds it)."""
        try:
            while True:
                with self._lock:
                    items = list(self._pending)
                    self._pending.clear()
                    if not items:
                        self._writing = False
                        self._idle.notify_all()
                        return
                self._connection.send_packed_command([self._packed(items)], check_health=False)
        except BaseException:
            with self._lock:
                self._pending.clear()  # lost with the connection: the devices are interrupted
                self._writing = False
                self._idle.notify_all()
            raise

    def sync(self, timeout):
        """Return once Redis has run every command written before this call."""
        with self._lock:
            self._syncs += 1
            try:
                if not self._idle.wait_for(lambda: not self._writing, timeout):
                    raise redis.TimeoutError("commands to Redis are still being written")
            finally:
                self._syncs -= 1
            self._writing = True
            data = self._packed(self._pending)
            self._pending.clear()
        try:
            # Replies on for a PING: its answer comes after everything written before it.
            self._connection.send_packed_command(
                [data, *self._connection.pack_commands(
                    [("CLIENT", "REPLY", "ON"), ("PING",), ("CLIENT", "REPLY", "OFF")])],
                check_health=False)
            self._connection.read_response()
            self._connection.read_response()
        finally:
            self._write_pending()

    def close(self):
        """Close the connection and end the hold's thread."""
        self._closed = True
        self._held.set()
        self._connection.disconnect()


def _as_it_is(message):
    """Return a message pushed by Redis unchanged."""
    return message


def place_key(role, number):
    """Return a place's short key: "h", "s<seat>" or "c<screen>"."""
    return "h" if role == "host" else ("s%d" if role == "seat" else "c%d") % number


class LocalPlace:
    """Where a socket of this process sits: enough for the relay's role checks."""

    def __init__(self, role, number):
        self.role = role
        self.number = number
        self.key = place_key(role, number)


class RoomState:
    """A room as read from Redis: its settings, place records and live sockets."""

    def __init__(self, code, fields, at):
        self.code = code
        self.secret = fields["secret"]
        self.pin = fields["pin"]
        self.joining_open = fields.get("joining", "1") == "1"
        self.pin_failures = int(fields.get("pin_failures", "0"))
        self.last_active = float(fields.get("last_active", "0"))
        self.about = fields.get("about")  # the host's `about` data as JSON text
        self.fields = fields
        self.at = at
        # Counts the changes of `at`: tells a newer address of a place from an older one.
        self.version = int(fields.get("v", "0"))

    @functools.cached_property
    def places(self):
        """Return the place records by key (read when first asked: the sweep seldom needs them)."""
        return {name[2:]: json.loads(value) for name, value in self.fields.items()
                if name.startswith("p:")}

    def away(self):
        """Return (key, record) of each place that has no live socket."""
        return [(name[2:], json.loads(value)) for name, value in self.fields.items()
                if name.startswith("p:") and name[2:] not in self.at]

    def ordered(self):
        """Return the place keys: host first, then seats and screens by number."""
        def order(key):
            return (0, 0) if key == "h" else ((1 if key[0] == "s" else 2), int(key[1:]))
        return sorted(self.places, key=order)

    def guests(self):
        """Return the socket addresses of seats and screens that are online."""
        return [self.at[key] for key in self.ordered()[1:] if key in self.at]

    def numbers(self, role):
        """Return the numbers taken by places of one role."""
        return {place["number"] for place in self.places.values() if place["role"] == role}


def summary(record, online):
    """Describe a place for the host's resume snapshot (as Place.summary does)."""
    return {"role": record["role"], record["role"]: record["number"], "name": record["name"],
            "online": online}


class RedisRelay(Relay):
    """The relay with its rooms in Redis; one per process, any number of processes."""

    unavailable_errors = (redis.RedisError, OSError)

    def __init__(self, config, url):
        super().__init__(config)
        for key, value in REDIS_DEFAULTS.items():
            self.config[key] = config.get(key, value)
        if self.clock is time.monotonic:
            # Stamps are compared across processes and machines: a monotonic clock is
            # per boot, so use the wall clock unless a test brings its own.
            self.clock = time.time
        self.url = url
        self.redis = redis.Redis(connection_pool=redis.BlockingConnectionPool.from_url(
            url, max_connections=self.config["RELAY_REDIS_POOL"],
            timeout=self.config["RELAY_REDIS_TIMEOUT"], **self._connection_options()))
        # The frames' connection: no health-check PINGs, their answers would never come.
        self._stream_pool = redis.ConnectionPool.from_url(
            url, **dict(self._connection_options(), health_check_interval=0))
        self.prefix = self.config["RELAY_REDIS_PREFIX"]
        self.process = None  # this process's id, made with its bus (after a server's fork)
        self.local = {}  # socket id -> Connection, for this process's sockets
        # room code -> {place key: Connection} for the places held by this process's sockets;
        # replaced, never changed, so a relaying thread reads it without the lock.
        self.placed = {}
        # room code -> (version, {place key: (version, "<process>/<socket>" or "" when away)}):
        # where the places of the rooms with a socket here sit, so that a frame to another process
        # is one PUBLISH to it. Taken from Redis by a hello, then kept by the presence notices,
        # which carry the place's new address and the room's count of address changes (an older
        # notice that arrives late changes nothing). Replaced, never changed, as `placed`.
        self.routes = {}
        self.route_frames = self.config["RELAY_REDIS_ROUTES"]
        self._ids = itertools.count(1)
        self._relay_script = self.redis.register_script(RELAY_SCRIPT)
        self._set_if_room = self.redis.register_script(SET_IF_ROOM_SCRIPT)
        self._count_socket_script = self.redis.register_script(COUNT_SOCKET_SCRIPT)
        self._uncount_socket_script = self.redis.register_script(UNCOUNT_SOCKET_SCRIPT)
        self._count_room_script = self.redis.register_script(COUNT_ROOM_SCRIPT)
        self._bus = None
        self._stream = None  # the frames' way to Redis (CommandStream), made with the bus
        self._bus_up = threading.Event()
        self._outage = False  # an outage was logged: its end is logged too
        # Rooms where a socket of this process closed while Redis was out of reach: its place
        # may still name it there, and only this process can tell. The next sweep reads them.
        self._lost = set()
        # Idle expiry counts in hours: a socket marks its room active at most this often.
        self.touch_interval = min(60.0, self.config["RELAY_IDLE_EXPIRY"] / 60)
        self.ttl_ms = int(1000 * (self.config["RELAY_IDLE_EXPIRY"]
                                  + max(self.config["RELAY_HOST_GRACE"],
                                        self.config["RELAY_SEAT_GRACE"]) + 60))

    def health(self):
        """Return (True when Redis answers now, what /healthz says of the rooms' store)."""
        try:
            self.redis.ping()
        except self.unavailable_errors:
            return False, {"rooms": "redis", "redis": "out of reach"}
        return True, {"rooms": "redis", "redis": "ok"}

    # ----- keys ---------------------------------------------------------------------------

    def _room_key(self, code):
        return "%sroom:{%s}" % (self.prefix, code)

    def _at_key(self, code):
        return "%sat:{%s}" % (self.prefix, code)

    def _rooms_key(self):
        return self.prefix + "rooms"

    def _processes_key(self):
        return self.prefix + "procs"

    def _process_key(self, process):
        return "%sproc:%s" % (self.prefix, process)

    def _channel(self, process=""):
        return "%sbus:%s" % (self.prefix, process)

    def _peer_key(self, kind, peer):
        """Return the key of a client address's count ("sockets" or "created")."""
        return "%s%s:%s" % (self.prefix, kind, peer)

    def _lock(self, code):
        """Return the room's lock: hellos, departures and expiry change a room one at a time."""
        return self.redis.lock("%slock:{%s}" % (self.prefix, code), timeout=10,
                               blocking_timeout=10)

    # ----- sockets of this process ----------------------------------------------------------

    def serve(self, ws, peer=None):
        """Serve one websocket; the bus must be up before a hello can be answered."""
        self._start_bus()
        super().serve(ws, peer)

    def _count_socket(self, conn):
        """Count a new socket against its address's limit on every process; False if over it."""
        try:
            counted = self._count_socket_script(
                keys=[self._peer_key("sockets", conn.peer)],
                args=[self.process, self.config["RELAY_MAX_SOCKETS_PER_ADDRESS"], self.ttl_ms,
                      self._process_key("")])
        except self.unavailable_errors:
            return True  # Redis is away: the hello will say so ("interrupted")
        conn.peer_counted = bool(counted)
        return conn.peer_counted

    def _uncount_socket(self, conn):
        """Give a finished socket's count back to its address."""
        if not conn.peer_counted:
            return
        conn.peer_counted = False
        try:
            self._uncount_socket_script(keys=[self._peer_key("sockets", conn.peer)],
                                        args=[self.process])
        except self.unavailable_errors:
            pass  # the count expires with its key

    def _count_room(self, conn, now):
        """Count a new room against its creator's address on every process; raise over the limit."""
        limit = self.config["RELAY_MAX_ROOMS_PER_ADDRESS"]
        if conn.peer is None or limit is None:
            return
        window = self.config["RELAY_ADDRESS_WINDOW"]
        if not self._count_room_script(keys=[self._peer_key("created", conn.peer)],
                                       args=[repr(now), window, limit, max(1, int(1000 * window))]):
            raise RelayError("address_limit", "too many new rooms from this address")

    def _hello(self, conn, frame):
        """Give the socket its address, then handle its hello as the in-memory relay does."""
        if not self._bus_up.wait(self.config["RELAY_REDIS_TIMEOUT"]):
            raise redis.ConnectionError("the message bus is not connected")
        conn.id = str(next(self._ids))
        conn.touched = self.clock()  # the hello marks the room active
        conn.address = "%s/%s" % (self.process, conn.id)
        self.local[conn.id] = conn
        super()._hello(conn, frame)

    def _release(self, conn):
        """Forget a finished socket; mark its place away in Redis if it still held it."""
        self._uncount_socket(conn)
        with self.lock:
            self.connections.discard(conn)
        if getattr(conn, "id", None) is not None:
            self.local.pop(conn.id, None)
        place, code = conn.place, conn.room
        if place is None or code is None:
            return
        self._unplace(conn, code, place.key)
        notices = []
        try:
            self._sync()  # frames it sent before it went are relayed while it still holds its place
            with self._lock(code):
                state = self._read(code)
                if state is None or state.at.get(place.key) != conn.address:
                    return
                record = state.places[place.key]
                record["away"] = self.clock()
                record["bucket"] = [conn.bucket.tokens, conn.bucket.stamp]
                pipe = self.redis.pipeline()
                pipe.hdel(self._at_key(code), place.key)
                pipe.hset(self._room_key(code), "p:" + place.key, json.dumps(record))
                pipe.hincrby(self._room_key(code), "v", 1)
                state.version = pipe.execute()[-1]
                del state.at[place.key]
                notices = self._presence(state, place.key, "away")
        except self.unavailable_errors:
            self._lost.add(code)  # this process's next sweep or the next resume puts it right
            return
        self._deliver(notices)

    # ----- hello: create, join, resume ----------------------------------------------------

    def _create(self, conn, frame, notices):
        """Open a new room in Redis with this socket as its host."""
        if self.redis.scard(self._rooms_key()) >= self.config["RELAY_MAX_ROOMS"]:
            raise RelayError("server_full", "too many rooms")
        self._count_room(conn, self.clock())
        secret = secrets.token_urlsafe(12)
        pin = "%04d" % secrets.randbelow(10000)
        token = secrets.token_urlsafe(16)
        while True:
            code = new_code(())
            if self.redis.hsetnx(self._room_key(code), "secret", secret):
                break
        host = {"role": "host", "number": 0, "name": "", "token": token, "away": None,
                "bucket": None}
        pipe = self.redis.pipeline()
        pipe.hset(self._room_key(code), mapping={
            "pin": pin, "joining": "1", "pin_failures": "0", "last_active": repr(self.clock()),
            "p:h": json.dumps(host), "v": "1"})
        pipe.hset(self._at_key(code), "h", conn.address)
        pipe.pexpire(self._room_key(code), self.ttl_ms)
        pipe.pexpire(self._at_key(code), self.ttl_ms)
        pipe.sadd(self._rooms_key(), code)
        pipe.execute()
        conn.room, conn.place = code, LocalPlace("host", 0)
        self._place_here(conn, 1, {"h": conn.address})
        conn.bucket = self._host_bucket()
        conn.send(encode({
            "type": "created", "v": PROTOCOL_VERSION, "room": code, "secret": secret,
            "link": "/#/join/%s.%s" % (code, secret), "pin": pin, "token": token,
            "max_seats": self.config["RELAY_MAX_SEATS"],
        }))

    def _join(self, conn, frame, notices):
        """Give this socket a new seat or screen, by link secret or PIN."""
        code, secret, pin, role, name = self._join_request(frame)
        self._check_code(code)
        with self._lock(code):
            state = self._live(code, notices)
            room_key = self._room_key(code)
            if secret is not None:
                check_secret(secret, state.secret)
            elif state.pin_failures >= self.config["RELAY_PIN_ATTEMPTS"]:
                raise RelayError("pin_locked", "joining by PIN is off after too many wrong PINs")
            elif not secrets.compare_digest(pin.encode(), state.pin.encode()):
                failures = self.redis.hincrby(room_key, "pin_failures", 1)
                if failures == self.config["RELAY_PIN_ATTEMPTS"] and "h" in state.at:
                    notices.append((state.at["h"], encode({"type": "pin_locked"}), None, None))
                # Two devices guessing at once may both pass the check above: never say fewer than none are left.
                raise RelayError("bad_token", "wrong PIN",
                                 pin_tries_left=max(0, self.config["RELAY_PIN_ATTEMPTS"] - failures))
            if not state.joining_open:
                raise RelayError("joining_closed", "the host has closed joining")
            limit = self.config["RELAY_MAX_SEATS" if role == "seat" else "RELAY_MAX_SCREENS"]
            taken = state.numbers(role)
            free = [n for n in range(1, limit + 1) if n not in taken]
            if not free:
                raise RelayError("room_full", "all %d %s places are taken" % (limit, role))
            place = LocalPlace(role, free[0])
            record = {"role": role, "number": place.number, "name": name,
                      "token": secrets.token_urlsafe(16), "away": None, "bucket": None}
            pipe = self.redis.pipeline()
            pipe.hset(room_key, mapping={"p:" + place.key: json.dumps(record),
                                         "last_active": repr(self.clock())})
            pipe.hset(self._at_key(code), place.key, conn.address)
            pipe.hincrby(room_key, "v", 1)
            state.version = pipe.execute()[-1]
            state.places[place.key] = record
            state.at[place.key] = conn.address
            conn.room, conn.place = code, place
            self._place_here(conn, state.version, state.at)
            notices += self._presence(state, place.key, "joined")
            host_online = "h" in state.at
        conn.send(encode({
            "type": "joined", "v": PROTOCOL_VERSION, "room": code, "role": role,
            role: place.number, "name": name, "token": record["token"],
            "host": "online" if host_online else "away",
        }))

    def _resume(self, conn, frame, notices):
        """Give a place back to the socket that shows its token, on whichever process."""
        code = normalize_code(_field(frame, "room", (str,)))
        token = _field(frame, "token", (str,))
        self._check_code(code)
        with self._lock(code):
            state = self._live(code, notices)
            key = next((k for k in state.ordered() if secrets.compare_digest(
                token.encode(), state.places[k]["token"].encode())), None)
            if key is None:
                raise RelayError("bad_token", "no place with this token (left or expired)")
            record = state.places[key]
            old = state.at.get(key)
            bucket = record.get("bucket")
            record["away"] = None
            record["bucket"] = None
            pipe = self.redis.pipeline()
            pipe.hset(self._room_key(code), mapping={"p:" + key: json.dumps(record),
                                                     "last_active": repr(self.clock())})
            pipe.hset(self._at_key(code), key, conn.address)
            pipe.hincrby(self._room_key(code), "v", 1)
            state.version = pipe.execute()[-1]
            state.at[key] = conn.address
            place = LocalPlace(record["role"], record["number"])
            conn.room, conn.place = code, place
            self._place_here(conn, state.version, state.at)
            if old is not None and old != conn.address:
                notices.append((old, encode({"type": "closed", "reason": "replaced"}),
                                "replaced", None))
            notices += self._presence(state, key, "back")
            welcome = {"type": "resumed", "v": PROTOCOL_VERSION, "room": code,
                       "role": place.role, "name": record["name"]}
            if place.role == "host":
                welcome.update(secret=state.secret, pin=state.pin,
                               link="/#/join/%s.%s" % (code, state.secret),
                               joining=state.joining_open,
                               pin_locked=state.pin_failures >= self.config["RELAY_PIN_ATTEMPTS"],
                               places=[summary(state.places[k], k in state.at)
                                       for k in state.ordered()[1:]])
            else:
                welcome[place.role] = place.number
                welcome["host"] = "online" if "h" in state.at else "away"
        if place.role == "host":
            conn.bucket = self._host_bucket()
        if bucket is not None:
            # A rate limit holds across reconnects, to this process or another.
            conn.bucket.tokens, conn.bucket.stamp = bucket
        conn.send(encode(welcome))

    def _look(self, conn, frame, notices):
        """Tell the holder of a join link what the host published about the room; take no place."""
        code = normalize_code(_field(frame, "room", (str,)))
        secret = _field(frame, "secret", (str,))
        self._check_code(code)
        with self._lock(code):
            state = self._live(code, notices)
        check_secret(secret, state.secret)
        conn.send(encode(looked_frame(code, state.about, state.joining_open, "h" in state.at)))
        conn.close(1000, "looked")

    def _check_code(self, code):
        """Refuse a code that cannot name a room before it reaches a Redis key."""
        if not code or len(code) > 16 or not code.isalnum():
            raise RelayError("unknown_room", "no room with this code")

    # ----- frames after the hello ---------------------------------------------------------

    def _relay(self, conn, frame, target):
        """Write `data` to the addressees on this process; publish it to the processes of the others."""
        if "data" not in frame:
            raise RelayError("malformed", "missing field: data")
        place, code = conn.place, conn.room
        here = self.placed.get(code, {})
        if here.get(place.key) is not conn:
            return  # another socket of this process has taken its place back
        sender = "host" if place.role == "host" else place.number
        text = encode_data({"type": "msg", "from": sender, "to": target, "data": frame["data"]})
        key = "h" if target == "host" else (target if isinstance(target, str) else "s%d" % target)
        # The frame's time is taken before anyone can read it: a recipient that answers at once
        # must not find its room marked active later than this frame.
        now = self.clock()
        touch = now - conn.touched >= self.touch_interval
        if touch:
            conn.touched = now
        routes = self.routes.get(code) if self.route_frames else None
        local = []
        elsewhere = {}  # process -> the places there to write to
        ask = False  # an addressee with no known address: the relay script looks it up
        if key == "all" or key == "screens":
            wanted = "sc" if key == "all" else "c"
            for place_key, recipient in here.items():
                if place_key[0] in wanted:
                    local.append(recipient)
            if routes is None:
                ask = True
            else:
                for place_key, (_, address) in routes[1].items():
                    # A place held here is written here; one without a socket misses the frame.
                    if place_key[0] in wanted and address and place_key not in here:
                        process = address.partition("/")[0]
                        if process != self.process:
                            elsewhere.setdefault(process, []).append(place_key)
        elif key in here:
            local.append(here[key])  # a place is held by one socket: it is nowhere else
        else:
            entry = routes[1].get(key) if routes is not None else None
            process = entry[1].partition("/")[0] if entry is not None else ""
            if process and process != self.process:
                elsewhere[process] = [key]
            else:
                ask = True  # away, or its address not known here yet
        if local:
            wire = wire_frame(text)
            for recipient in local:
                recipient.send(text, wire)
        if not (elsewhere or ask or touch):
            return
        try:
            for process, keys in elsewhere.items():
                # Named by place: a device that took its place back on that process gets it.
                self._stream.publish_lines(self._channel(process),
                                           "%s %s\n%s" % (code, ",".join(keys), text))
            if ask or touch:
                self._stream.send("EVALSHA", self._relay_script.sha, 2, self._at_key(code),
                                  self._room_key(code), place.key, conn.address, key if ask else "",
                                  repr(now) if touch else "", self.ttl_ms, self._channel(),
                                  self.process, text if ask else "")
        except self.unavailable_errors:
            self._interrupt()  # those frames are lost: the devices resume and resync

    def _sync(self):
        """Wait until Redis has relayed every frame handed to it so far (before a leave or an end)."""
        if self._stream is not None:
            self._stream.sync(self.config["RELAY_REDIS_TIMEOUT"] * 2)

    def _place_here(self, conn, version, at):
        """Note that this socket holds its place now, and where the room's places sit (by a hello,
        under the room's lock: no change of the room can come between reading `at` and this)."""
        with self.lock:
            room = dict(self.placed.get(conn.room, {}))
            room[conn.place.key] = conn
            self.placed[conn.room] = room
            self.routes[conn.room] = (version, {key: (version, address) for key, address in at.items()})

    def _route(self, code, key, version, address):
        """Take a place's address from a presence notice unless a newer one is known here."""
        with self.lock:
            known = self.routes.get(code)
            if known is None:
                return  # no socket of the room here: a hello reads the room afresh
            floor, entries = known
            entry = entries.get(key)
            if version <= floor or (entry is not None and version <= entry[0]):
                return
            entries = dict(entries)
            entries[key] = (version, address)
            self.routes[code] = (floor, entries)

    def _unplace(self, conn, code, key):
        """Forget that this socket holds a place, unless another socket holds it now."""
        with self.lock:
            room = self.placed.get(code)
            if room is None or room.get(key) is not conn:
                return
            room = {k: c for k, c in room.items() if k != key}
            if room:
                self.placed[code] = room
            else:
                del self.placed[code]
                self.routes.pop(code, None)

    def _connection_options(self):
        """Return the options of every connection to Redis."""
        timeout = self.config["RELAY_REDIS_TIMEOUT"]
        # Short timeouts and one quick retry: a relay that waits long for Redis holds every
        # device in the room; better tell them it is interrupted and let them come back.
        options = {"socket_timeout": timeout, "socket_connect_timeout": timeout,
                   "health_check_interval": 30,
                   "retry": Retry(ExponentialBackoff(cap=0.1, base=0.02), 1)}
        if MaintNotificationsConfig is not None:
            # Notices of managed Redis services' maintenance: not used here, and not free.
            options["maint_notifications_config"] = MaintNotificationsConfig(enabled=False)
        return options

    def _set_joining(self, conn, is_open):
        """Open or close joining in the sender's room."""
        self._set_if_room(keys=[self._room_key(conn.room)], args=["joining", "1" if is_open else "0"])

    def _new_pin(self, conn):
        """Give the sender's room a fresh PIN with every try back, for every process at once."""
        pin = "%04d" % secrets.randbelow(10000)
        self._set_if_room(keys=[self._room_key(conn.room)], args=["pin", pin, "pin_failures", "0"])
        return pin

    def _set_about(self, conn, text):
        """Keep what the host tells a phone before it joins (answered to `look`)."""
        self._set_if_room(keys=[self._room_key(conn.room)], args=["about", text])

    def _leave(self, conn):
        """Free a seat or screen for good and close its socket."""
        self._sync()  # what it sent before reaches the host before it is gone
        notices = []
        code, place = conn.room, conn.place
        self._unplace(conn, code, place.key)
        with self._lock(code):
            state = self._read(code)
            if state is not None and state.at.get(place.key) == conn.address:
                pipe = self.redis.pipeline()
                pipe.hdel(self._room_key(code), "p:" + place.key)
                pipe.hdel(self._at_key(code), place.key)
                pipe.hincrby(self._room_key(code), "v", 1)
                state.version = pipe.execute()[-1]
                del state.at[place.key]
                notices = self._presence(state, place.key, "gone", reason="left")
            conn.place = None
        self._deliver(notices)
        conn.send(encode({"type": "closed", "reason": "left"}))
        conn.close(END_CLOSE_CODES["left"], "left")

    def _end_room(self, code, reason):
        """Close a room and every socket in it, on every process."""
        self._sync()  # the host's last frames arrive before the room closes
        with self._lock(code):
            state = self._read(code)
            notices = self._remove(state, reason) if state is not None else []
        self._deliver(notices)

    # ----- room state ---------------------------------------------------------------------

    def _read(self, code):
        """Return the room as it stands in Redis, or None."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self._room_key(code))
        pipe.hgetall(self._at_key(code))
        fields, at = pipe.execute()
        return self._state(code, fields, at)

    def _state(self, code, fields, at):
        """Build a RoomState from the two hashes' raw replies (None if the room is gone)."""
        if b"secret" not in fields or b"pin" not in fields:
            return None
        return RoomState(code, {k.decode(): v.decode() for k, v in fields.items()},
                         {k.decode(): v.decode() for k, v in at.items()})

    def _live(self, code, notices):
        """Return the room after applying due expiries (room lock held), or raise."""
        state = self._read(code)
        if state is not None:
            notices += self._expire(state, self.clock())
        if state is None or state.code is None:
            raise RelayError("unknown_room", "no room with this code")
        return state

    def _expire(self, state, now, stale=()):
        """Apply due expiries and dead sockets to a room (room lock held); return notices."""
        notices = []
        for key in [k for k in state.at if state.at[k] in stale]:
            # The socket's process died or lost it without telling Redis: the place is away.
            record = state.places.get(key)
            del state.at[key]
            pipe = self.redis.pipeline()
            pipe.hdel(self._at_key(state.code), key)
            pipe.hincrby(self._room_key(state.code), "v", 1)
            state.version = pipe.execute()[-1]
            if record is not None:
                record["away"] = now
                self.redis.hset(self._room_key(state.code), "p:" + key, json.dumps(record))
                notices += self._presence(state, key, "away")
        host = state.places.get("h")
        if "h" not in state.at and host is not None and host["away"] is not None \
                and now - host["away"] >= self.config["RELAY_HOST_GRACE"]:
            return notices + self._remove(state, "host_gone")
        if now - state.last_active >= self.config["RELAY_IDLE_EXPIRY"]:
            return notices + self._remove(state, "idle")
        for key in state.ordered()[1:]:
            record = state.places[key]
            if key not in state.at and record["away"] is not None \
                    and now - record["away"] >= self.config["RELAY_SEAT_GRACE"]:
                notices += self._presence(state, key, "gone", reason="timeout")
                del state.places[key]
                self.redis.hdel(self._room_key(state.code), "p:" + key)
        return notices

    def _remove(self, state, reason):
        """Delete a room from Redis; return the closing notice for each live socket."""
        pipe = self.redis.pipeline()
        pipe.delete(self._room_key(state.code), self._at_key(state.code))
        pipe.srem(self._rooms_key(), state.code)
        pipe.execute()
        text = encode({"type": "closed", "reason": reason})
        notices = [(state.at[k], text, reason, None) for k in state.ordered() if k in state.at]
        state.code = None
        return notices

    def _presence(self, state, key, status, reason=None):
        """Build the presence notices for a place's change, addressed by socket.

        Each carries the place's address now (its route): the processes that get a presence
        notice are those that send to that place (the host's to its guests, the guests' to
        the host), and they route by it before the device hears of the change.
        """
        record = state.places[key]
        frame = {"type": "presence", "role": record["role"], "status": status}
        route = (state.code, key, state.version, state.at.get(key, ""))
        if key == "h":
            text = encode(frame)
            return [(address, text, None, route) for address in state.guests()]
        frame[record["role"]] = record["number"]
        frame["name"] = record["name"]
        if reason:
            frame["reason"] = reason
        return [(state.at["h"], encode(frame), None, route)] if "h" in state.at else []

    # ----- delivery -----------------------------------------------------------------------

    def _deliver(self, notices):
        """Send (socket address, text, closing reason or None, route or None) notices, local or
        through Redis; a route (room, place, version, address) is taken before the text goes out."""
        for address, text, closing, route in notices:
            process, _, socket_id = address.partition("/")
            if process == self.process:
                if route is not None:
                    self._route(*route)
                conn = self.local.get(socket_id)
                self._hand_over([conn] if conn is not None else [], text.encode("utf-8"), closing)
                continue
            if route is not None:
                code, key, version, place_address = route
                header = "\t".join((socket_id, closing or "", code, key, str(version), place_address))
            elif closing is not None:
                header = "%s\t%s" % (socket_id, closing)
            else:
                header = socket_id
            try:
                self.redis.publish(self._channel(process), header + "\n" + text)
            except self.unavailable_errors:
                pass  # that device learns the news when it resumes

    def _addressees(self, header):
        """Return the sockets here that a frame's first line names: "<room> <places>" (whichever
        socket holds each place here now) or "<socket ids>" (from the relay script)."""
        code, _, keys = header.decode().partition(" ")
        if keys:
            here = self.placed.get(code, {})
            return [here[key] for key in keys.split(",") if key in here]
        local = self.local
        return [local[socket_id] for socket_id in code.split(",") if socket_id in local]

    def _hand_over(self, conns, payload, closing=None):
        """Write one frame (UTF-8 bytes) to these sockets of this process; close them if asked."""
        wire = None
        for conn in conns:
            if conn.plain:
                if wire is None:
                    wire = wire_frame_bytes(payload)
                conn.send(None, wire)
            else:
                conn.send(payload.decode("utf-8"))
            if closing is not None:
                conn.close(END_CLOSE_CODES[closing], closing)

    def _hand_over_batch(self, lines):
        """Write frames (lines naming addressees and frames, in turn) to this process's sockets,
        in their order, with one write per socket."""
        wires = {}
        for index in range(0, len(lines), 2):
            payload = lines[index + 1]
            wire = None
            for conn in self._addressees(lines[index]):
                if not conn.plain:
                    conn.send(payload.decode("utf-8"))
                    continue
                if wire is None:
                    wire = wire_frame_bytes(payload)
                if conn in wires:
                    wires[conn].append(wire)
                else:
                    wires[conn] = [wire]
        for conn, parts in wires.items():
            conn.send(None, parts[0] if len(parts) == 1 else b"".join(parts))

    def _start_bus(self):
        """Start this process's bus thread once (after a fork, on the first socket)."""
        if self._bus is not None:
            return
        with self.lock:
            if self._bus is not None:
                return
            # Made here, not in __init__: a server that loads the app before forking its
            # workers would otherwise give every worker the same id.
            self.process = secrets.token_hex(6)
            self._stream = CommandStream(self._stream_pool, RELAY_SCRIPT,
                                         self.config["RELAY_REDIS_HOLD"], on_lost=self._interrupt)
            self._bus = threading.Thread(target=self._bus_loop, name="relay-bus", daemon=True)
        self._bus.start()

    def _bus_loop(self):
        """Receive frames for this process's sockets; beat the heart; survive Redis outages."""
        heartbeat = self.config["RELAY_REDIS_HEARTBEAT"]
        while not self._stopping.is_set():
            # The client's own handler of pushed messages formats each one for a debug log line.
            pubsub = self.redis.pubsub(push_handler_func=_as_it_is)
            try:
                pubsub.subscribe(self._channel(self.process))
                while pubsub.get_message(timeout=2.0) is None:  # the subscription's answer
                    pass
                self._beat()
                self._bus_up.set()
                if self._outage:
                    self._outage = False
                    log.warning("Redis at %s answers again: rooms go on", shown_redis_url(self.url))
                beat_at = time.monotonic() + heartbeat
                # Read the replies straight off the subscribed connection: get_message wraps
                # each one in a health check, a retry and a dict, which costs more than the frame.
                # No timeout of its own either (two system calls per wake-up to set and reset
                # it): the connection's (RELAY_REDIS_TIMEOUT) wakes the thread for the heartbeat.
                connection = pubsub.connection
                while not self._stopping.is_set():
                    try:
                        reply = connection.read_response(push_request=True, disconnect_on_error=False)
                    except redis.TimeoutError:
                        reply = None  # nothing for a while; a part read stays in the buffer
                    if reply is not None and reply[0] == b"message":  # RESP3: a push
                        self._received(reply[2])
                    if time.monotonic() >= beat_at:
                        self._beat()
                        beat_at = time.monotonic() + heartbeat
            except self.unavailable_errors as problem:
                devices = 0
                if self._bus_up.is_set():
                    self._bus_up.clear()
                    devices = self._interrupt()
                if not self._outage:
                    # Once per outage, not per retry: an operator learns why every room went quiet.
                    self._outage = True
                    log.warning("Redis at %s is out of reach (%s): rooms on this process are interrupted "
                                "(%d device(s) told); retrying every 0.5 s", shown_redis_url(self.url),
                                str(problem) or type(problem).__name__, devices)
                self._stopping.wait(0.5)
            finally:
                try:
                    pubsub.close()
                except self.unavailable_errors:
                    pass

    def _received(self, message):
        """Hand one message of this process's channel to its sockets.

        A frame is "<room> <places>\n<frame>" (from a sender that knows where its addressees
        sit) or "<socket ids>\n<frame>" (from the relay script); several frames are such
        lines one after the other (compact JSON has no line break). A notice's first line
        has tab-separated fields: socket id, closing reason or nothing, and for a presence
        notice the place's route.
        """
        header, _, payload = message.partition(b"\n")
        if b"\t" not in header:
            self._hand_over_batch(message.split(b"\n"))
            return
        socket_id, closing, *route = header.decode().split("\t")
        if route:
            code, key, version, address = route
            self._route(code, key, int(version), address)
        conn = self.local.get(socket_id)
        self._hand_over([conn] if conn is not None else [], payload, closing or None)

    def _beat(self):
        """Tell the other processes that this one is alive (and that it exists, for the sweep)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.set(self._process_key(self.process), "1",
                 px=int(1000 * self.config["RELAY_REDIS_PROCESS_TTL"]))
        pipe.sadd(self._processes_key(), self.process)
        pipe.execute()

    def _interrupt(self):
        """Redis is out of reach: tell every device here (each resumes once it is back); return how many."""
        text = encode({"type": "closed", "reason": "interrupted"})
        devices = list(self.local.values())
        for conn in devices:
            conn.send(text)
            conn.close(END_CLOSE_CODES["interrupted"], "interrupted")
        return len(devices)

    # ----- expiry, shutdown -----------------------------------------------------------------

    def _sweep_loop(self, interval):
        """Sweep about every `interval` seconds, taking turns with the other processes.

        Each process waits a random 0.5 to 1.5 intervals between its turns, and a short key in
        Redis says a turn is taken, so one sweep per interval runs whatever the number of
        processes (`_sweep_turn`).
        """
        jitter = random.Random()  # its own generator: never moves the process's global random state
        while not self._stopping.wait(interval * jitter.uniform(0.5, 1.5)):
            try:
                self._sweep_turn(interval)
            except self.unavailable_errors:
                pass  # the next turn after Redis is back catches up

    def _sweep_turn(self, interval):
        """Read every room when the expiry is due or a process died; else only this process's lost rooms.

        The grace and idle expiry count in minutes, so every `RELAY_REDIS_EXPIRY_EVERY`
        intervals is soon enough for them. A dead process is found within an interval from
        the set of processes and their heartbeats (two commands), without reading a room.
        """
        every = self.config["RELAY_REDIS_EXPIRY_EVERY"]
        if self.redis.set(self.prefix + "expired", self.process, nx=True,
                          px=max(1, int(1000 * interval * every))):
            self._sweep()
            return
        if self.redis.set(self.prefix + "swept", self.process, nx=True,
                          px=max(1, int(800 * interval))):
            dead = self._dead_processes()
            if dead:
                self._sweep()
                self.redis.srem(self._processes_key(), *dead)  # their sockets are all away now
                return
        lost = list(self._lost)
        if lost:
            self._sweep(lost)

    def _dead_processes(self):
        """Return the processes that beat once and have stopped (their sockets may still hold places)."""
        processes = sorted(p.decode() for p in self.redis.smembers(self._processes_key()))
        pipe = self.redis.pipeline(transaction=False)
        for process in processes:
            pipe.exists(self._process_key(process))
        return [p for p, alive in zip(processes, pipe.execute()) if not alive]

    def sweep(self):
        """Expire rooms, lapsed places and the sockets of dead processes, in every room."""
        try:
            self._sweep()
        except self.unavailable_errors:
            pass  # the next sweep after Redis is back catches up

    def _sweep(self, codes=None):
        """Sweep these rooms (all when None); raises if Redis is out of reach."""
        now = self.clock()
        self._sync()  # rooms marked active by the frames written so far count as active
        lost = set(self._lost)
        if codes is None:
            codes = sorted(c.decode() for c in self.redis.smembers(self._rooms_key()))
        pipe = self.redis.pipeline(transaction=False)
        for code in codes:
            pipe.hgetall(self._room_key(code))
            pipe.hgetall(self._at_key(code))
        replies = pipe.execute()
        states = {}
        gone = []
        for index, code in enumerate(codes):
            state = self._state(code, replies[2 * index], replies[2 * index + 1])
            if state is None:
                gone.append(code)  # its keys expired by themselves
            else:
                states[code] = state
        if gone:
            self.redis.srem(self._rooms_key(), *gone)
        stale = self._stale_addresses(states.values())
        for code, state in states.items():
            if self._due(state, now, stale):
                notices = []
                with self._lock(code):
                    fresh = self._read(code)
                    if fresh is not None:
                        notices = self._expire(fresh, now, stale)
                self._deliver(notices)
        self._lost -= lost.intersection(codes)  # a room lost meanwhile waits for the next sweep

    def _stale_addresses(self, states):
        """Return the addresses of sockets that are gone: dead processes, or closed here."""
        addresses = {a for state in states for a in state.at.values()}
        processes = sorted({a.partition("/")[0] for a in addresses} - {self.process})
        pipe = self.redis.pipeline(transaction=False)
        for process in processes:
            pipe.exists(self._process_key(process))
        dead = {p for p, alive in zip(processes, pipe.execute()) if not alive}
        stale = set()
        for address in addresses:
            process, _, socket_id = address.partition("/")
            if process in dead or (process == self.process and socket_id not in self.local):
                stale.add(address)
        return stale

    def _due(self, state, now, stale):
        """Tell whether a room has anything to expire (read without its lock)."""
        if any(address in stale for address in state.at.values()):
            return True
        if now - state.last_active >= self.config["RELAY_IDLE_EXPIRY"]:
            return True
        for key, record in state.away():
            grace = self.config["RELAY_HOST_GRACE" if key == "h" else "RELAY_SEAT_GRACE"]
            if record["away"] is not None and now - record["away"] >= grace:
                return True
        return False

    def close_all(self, reason="shutdown"):
        """Close this process's sockets; the rooms stay in Redis for the other processes."""
        with self.lock:
            self.closed_for = reason
        text = encode({"type": "closed", "reason": reason})
        for conn in list(self.local.values()):
            conn.send(text)
            conn.close(END_CLOSE_CODES[reason], reason)
        with self.lock:
            strays = list(self.connections)
        for conn in strays:
            conn.close(END_CLOSE_CODES[reason], reason)
        self._stopping.set()
        if self._stream is not None:
            self._stream.close()

    def end_every_room(self):
        """Delete every room under this relay's prefix (tests and operators starting over)."""
        for key in self.redis.scan_iter(match=self.prefix + "*"):
            self.redis.delete(key)

    def room_count(self):
        """Return how many rooms are open (across every process)."""
        codes = [c.decode() for c in self.redis.smembers(self._rooms_key())]
        pipe = self.redis.pipeline(transaction=False)
        for code in codes:
            pipe.exists(self._room_key(code))
        return sum(pipe.execute())

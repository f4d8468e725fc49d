"""Relay load benchmark: many rooms on one server process, loopback only; prints figures.

Run: python -m bench.relay_load            (memory, Redis with 1 and 2 processes, baseline)
     python -m bench.relay_load --setups werkzeug,baseline --rates 500 --seconds 10
     python -m bench.relay_load --setups redis --processes 2 --redis redis://127.0.0.1:6379/0
     python -m bench.relay_load --setups gthread --ping-intervals 25,1,0.75 --rates 500   (what pings cost)
     python -m bench.relay_load --setups gthread,redis --rates 1000,2000 --rounds 4   (ratios over rounds)

Each setup is started as its own process on 127.0.0.1. The load generator (this
process, asyncio) opens 250 rooms: 250 hosts and 4 seats each (1,250 sockets),
then, for each rate, the hosts send addressed and broadcast messages on a steady
schedule for a fixed time. The `redis` setup runs gunicorn processes (one worker
each, own port) sharing one Redis, first 1 then `--processes` of them with each room's
host and seats spread over the processes (some deliveries stay on the sender's process,
which writes them straight to the socket, the others cross through Redis), then
`--processes` of them with every seat on another process than its host: there every
delivery crosses through Redis, which is what a delivery through Redis costs
(then that line once more with every crossing frame looked up by the relay script, the
way before the sender routed them, and once more with every crossing frame written at once
instead of held while frames keep coming; `--no-script-per-frame` and `--no-hold-line` leave
them out).
Without `--redis` the benchmark starts its own redis-server (Debian's package) on
a free port; the CPU per delivery then counts the relay processes and Redis. Seats check every message they receive (was it meant
for me? in order?) and measure its latency, as websockets parses each frame (no task woken per
message), and one task sends every host's messages: the load generator shares the machine with
the relay, so what it spends per delivery is CPU the relay processes do not get. A minimal asyncio relay
(bench/baseline_relay.py) takes the same load in the same run for comparison.
"""

import argparse
import asyncio
import contextlib
import heapq
import json
import logging
import os
import random
import resource
import socket
import subprocess
import sys
import time

from bench.common import median, percentile, python_package, require

# Host send pattern: four addressed messages, then one to all (8 deliveries per 5 sends).
PATTERN = [1, 2, 3, 4, "all"]
PAD = "x" * 300  # a small view's worth of payload

BENCH_CONFIG = {
    "RELAY_MAX_CONNECTIONS": 5000,
    "RELAY_MAX_ROOMS": 2000,
    # This one process answers the pings of 1,250 sockets: on a busy machine it cannot within the
    # relay's 1 s, and the relay would drop it. What pings cost is measured apart (--ping-intervals).
    "RELAY_PING_INTERVAL": 25.0,
}

TARGET_SOCKETS = 1000
TARGET_RATE = 500
TARGET_P99_MS = 100.0


# What each setup needs besides the load generator's own websockets client (the test extra).
SETUP_NEEDS = {
    "gthread": [python_package("gunicorn")],  # a dependency of the project since the relay runs on it
    "gevent": [python_package("gunicorn"), python_package("gevent")],
}


def prerequisites(setups):
    """Return the requirements of a run of these setups."""
    needs = [python_package("websockets", "test")]
    for setup in setups:
        needs.extend(SETUP_NEEDS.get(setup, []))
    return needs


def raise_fd_limit():
    """Allow as many open files as the hard limit permits (sockets are files)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def bench_app():
    """Return the Flask app with limits raised for the load (gunicorn entry point)."""
    from server import create_app

    raise_fd_limit()
    config = dict(BENCH_CONFIG)
    if os.environ.get("SPIELEABEND_BENCH_PING_INTERVAL"):
        config["RELAY_PING_INTERVAL"] = float(os.environ["SPIELEABEND_BENCH_PING_INTERVAL"])
    if os.environ.get("SPIELEABEND_BENCH_HOLD"):
        config["RELAY_REDIS_HOLD"] = float(os.environ["SPIELEABEND_BENCH_HOLD"])
    if os.environ.get("SPIELEABEND_BENCH_SCRIPT_PER_FRAME"):
        config["RELAY_REDIS_ROUTES"] = False  # the way before: the relay script finds every addressee
    if os.environ.get("SPIELEABEND_BENCH_PREFIX"):
        # Each run's rooms under their own prefix: a shared Redis keeps nobody else's.
        config["RELAY_REDIS_PREFIX"] = os.environ["SPIELEABEND_BENCH_PREFIX"]
    return create_app(config)


def serve_werkzeug(port):
    """Serve the app with werkzeug's threaded server until killed."""
    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", port, bench_app(), threaded=True)
    server.serve_forever()


def free_port():
    """Return a free loopback port."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def gevent_available():
    """Tell whether gevent is installed (it is not a project dependency)."""
    try:
        import gevent  # noqa: F401
    except ImportError:
        return False
    return True


SETUPS = {
    "werkzeug": ("flask-sock, werkzeug threaded", "/relay"),
    "gthread": ("flask-sock, gunicorn 1 worker gthread", "/relay"),
    "gevent": ("flask-sock, gunicorn 1 worker gevent", "/relay"),
    "baseline": ("baseline: asyncio websockets", "/"),
    "redis": ("gthread + Redis, %d process%s", "/relay"),
}

# Where a room's places sit when there are several processes: "spread" puts place p of room r
# on process (r + p) mod n; "apart" puts every seat on the process after its host's ("apart-script"
# too, with every crossing frame looked up by the relay script instead of routed by the sender;
# "apart-nohold" with every crossing frame written at once, RELAY_REDIS_HOLD 0).
PLACEMENTS = {"spread": "", "apart": ", seats apart", "apart-script": ", seats apart, script",
              "apart-nohold": ", seats apart, no hold"}


def server_command(setup, port):
    """Return the command line that starts one setup on the port."""
    python = sys.executable
    gunicorn = [python, "-m", "gunicorn", "-w", "1", "-b", "127.0.0.1:%d" % port,
                "--backlog", "2048", "--log-level", "warning"]
    if setup == "werkzeug":
        return [python, "-m", "bench.relay_load", "--serve-werkzeug", str(port)]
    if setup in ("gthread", "redis"):
        return gunicorn + ["-k", "gthread", "--threads", "1600", "--worker-connections", "1700",
                           "bench.relay_load:bench_app()"]
    if setup == "gevent":
        return gunicorn + ["-k", "gevent", "--worker-connections", "1700",
                           "bench.relay_load:bench_app()"]
    return [python, "-m", "bench.baseline_relay", "--port", str(port)]


def wait_listening(port, process, seconds=60):
    """Block until the server accepts TCP connections (bounded)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("server exited with %s" % process.returncode)
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.1)
    raise RuntimeError("server did not start listening")


def process_tree(pid):
    """Return pid and all its descendants."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError), open("/proc/%s/stat" % entry) as stat:
                parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(children.get(current, []))
    return found


def server_resources(pid):
    """Return (RSS in MB, threads, open sockets) summed over the server's processes."""
    rss_kb = threads = sockets = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError):
            with open("/proc/%d/status" % member) as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        rss_kb += int(line.split()[1])
                    elif line.startswith("Threads:"):
                        threads += int(line.split()[1])
            for fd in os.listdir("/proc/%d/fd" % member):
                with contextlib.suppress(OSError):
                    if os.readlink("/proc/%d/fd/%s" % (member, fd)).startswith("socket:"):
                        sockets += 1
    return rss_kb / 1024, threads, sockets


def server_cpu_seconds(pid):
    """Return user+system CPU seconds used so far by the server's processes."""
    ticks = 0
    for member in process_tree(pid):
        with contextlib.suppress(OSError), open("/proc/%d/stat" % member) as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds():
    """Return user+system CPU seconds used so far by this load generator."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def machine_busy_seconds():
    """Return CPU seconds all processes on the machine have used so far (from /proc/stat)."""
    with open("/proc/stat") as stat:
        fields = [int(v) for v in stat.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


_TAPPED = []


def tapped_connection_class():
    """Return a websockets client connection that hands each whole text frame to `on_text`, if set."""
    if not _TAPPED:
        from websockets.asyncio.client import ClientConnection
        from websockets.frames import Opcode

        class TappedConnection(ClientConnection):
            """A client connection whose text frames go to a callback instead of recv()."""

            on_text = None

            def process_event(self, event):
                """Hand a whole text frame to on_text; anything else as websockets would."""
                if self.on_text is not None and getattr(event, "opcode", None) is Opcode.TEXT and event.fin:
                    self.on_text(bytes(event.data))
                    return
                super().process_event(event)

        _TAPPED.append(TappedConnection)
    return _TAPPED[0]


class Stage:
    """Counters of one load stage."""

    def __init__(self, name):
        self.name = name
        self.expected = {}
        self.received = {}
        self.latencies = []
        self.misdelivered = 0
        self.out_of_order = 0
        self.sent = 0

    def lost(self):
        """Return how many expected deliveries never arrived."""
        return sum(max(0, n - self.received.get(key, 0)) for key, n in self.expected.items())


class Load:
    """The rooms of one run: hosts, seats, and the stage their readers count into."""

    def __init__(self, urls, rooms, seats, placement="spread"):
        self.urls = urls  # one per server process; room i's host on urls[i % n]
        self.placement = placement
        self.rooms = rooms
        self.seats_per_room = seats
        self.hosts = []
        self.seats = []  # (room index, seat number, client)
        self.stage = Stage("idle")
        self.connect_failures = 0
        self.readers = []
        self.seq = 0  # across stages, so seats can check the order

    def url_for(self, room, place):
        """Return the process a room's host (place 0) or seat joins (see PLACEMENTS)."""
        if self.placement == "apart":
            place = min(place, 1)
        return self.urls[(room + place) % len(self.urls)]

    async def connect(self, concurrency=50):
        """Open every room and seat, a bounded number of handshakes at a time."""
        from tests.relay_client import AsyncRelayClient

        gate = asyncio.Semaphore(concurrency)
        seat_connection = tapped_connection_class()

        async def open_client(url, create_connection=None):
            """Open one socket, at most `concurrency` handshakes at a time."""
            async with gate:
                return await AsyncRelayClient.connect(url, compression=None, open_timeout=20,
                                                      create_connection=create_connection)

        async def open_room(index):
            """Create one room and join its seats."""
            try:
                host = await open_client(self.url_for(index, 0))
                welcome = await host.create()
            except Exception:
                self.connect_failures += 1 + self.seats_per_room
                return
            self.hosts.append((index, host))
            for place in range(1, self.seats_per_room + 1):
                try:
                    seat = await open_client(self.url_for(index, place), seat_connection)
                    joined = await seat.join(welcome["room"], secret=welcome["secret"])
                except Exception:
                    self.connect_failures += 1
                    continue
                self.seats.append((index, joined["seat"], seat))

        await asyncio.gather(*(open_room(i) for i in range(self.rooms)))
        self.hosts.sort(key=lambda pair: pair[0])
        for index, seat_number, seat in self.seats:
            seat.ws.on_text = self.seat_reader(index, seat_number)
        for _, host in self.hosts:
            self.readers.append(asyncio.ensure_future(self.drain(host)))

    async def drain(self, client):
        """Read and drop what a host receives (presence notices)."""
        with contextlib.suppress(Exception):
            while True:
                await client.ws.recv()

    def seat_reader(self, room, seat_number):
        """Return the function that checks and times every message one seat receives.

        It runs as the frame is parsed, with no task to wake per message: the load generator
        shares the machine with the relay, and every microsecond it spends is one the relay lacks.
        """
        loads = json.loads
        clock = time.perf_counter
        last_seq = [-1]

        def read(payload):
            """Check one text frame: meant for this seat, in order, of which stage, how late."""
            now = clock()
            frame = loads(payload)
            if frame.get("type") != "msg":
                return
            data = frame["data"]
            stage = self.stage
            if data["room"] != room or data["for"] not in (seat_number, "all"):
                stage.misdelivered += 1
                return
            if data["seq"] <= last_seq[0]:
                stage.out_of_order += 1
            last_seq[0] = data["seq"]
            if data["stage"] == stage.name:
                key = (room, seat_number)
                stage.received[key] = stage.received.get(key, 0) + 1
                stage.latencies.append(now - data["t"])

        return read

    def sockets_open(self):
        """Count client sockets that are still open."""
        from websockets.protocol import State

        clients = [h for _, h in self.hosts] + [s for _, _, s in self.seats]
        return sum(1 for c in clients if c.ws.protocol.state is State.OPEN)

    async def run_stage(self, name, rate, seconds):
        """Send at `rate` deliveries per second for `seconds`; return the finished Stage."""
        stage = self.stage = Stage(name)
        loop = asyncio.get_running_loop()
        deliveries_per_send = sum(self.seats_per_room if t == "all" else 1
                                  for t in PATTERN) / len(PATTERN)
        period = len(self.hosts) * deliveries_per_send / rate
        end = loop.time() + seconds

        # One task sends every host's messages on its steady schedule (a task per host cost a
        # wake-up per message): a heap of (when, host, step in PATTERN).
        due = [(loop.time() + random.random() * period, position, random.randrange(len(PATTERN)))
               for position in range(len(self.hosts))]
        heapq.heapify(due)
        while due:
            at, position, step = due[0]
            now = loop.time()
            if at > now + 0.0005:
                await asyncio.sleep(at - now)
                continue
            if at >= end:
                heapq.heappop(due)
                continue
            heapq.heapreplace(due, (at + period, position, step + 1))
            index, host = self.hosts[position]
            target = PATTERN[step % len(PATTERN)]
            self.seq += 1
            data = {"room": index, "for": target, "seq": self.seq, "stage": name,
                    "t": time.perf_counter(), "pad": PAD}
            targets = range(1, self.seats_per_room + 1) if target == "all" else [target]
            for seat in targets:
                stage.expected[(index, seat)] = stage.expected.get((index, seat), 0) + 1
            stage.sent += 1
            if target == "all":
                await host.to_all(data)
            else:
                await host.to_seat(target, data)
        expected = sum(stage.expected.values())
        drain_until = loop.time() + 10
        while sum(stage.received.values()) < expected and loop.time() < drain_until:
            await asyncio.sleep(0.05)
        stage.seconds = seconds  # every send fell inside this window
        return stage

    async def close(self):
        """Stop the readers and close every socket."""
        for reader in self.readers:
            reader.cancel()
        clients = [h for _, h in self.hosts] + [s for _, _, s in self.seats]
        await asyncio.gather(*(c.close() for c in clients), return_exceptions=True)


def stage_line(label, stage, rate):
    """Return the printed lines of one stage."""
    ms = [s * 1000 for s in stage.latencies] or [float("nan")]
    delivered = sum(stage.received.values())
    return ("%-40s %5d/s: offered %6.1f, relayed %6.1f msg/s  latency p50 %6.2f  p95 %6.2f  p99 %7.2f  "
            "max %7.2f ms  lost %d  misdelivered %d  out of order %d\n"
            "%-40s %5d/s: server CPU %.0f %% (%.0f us per delivery, %.0f of them Redis), "
            "load generator CPU %.0f %%, other processes %.0f %% (of %d00 %%)" % (
                label, rate, sum(stage.expected.values()) / stage.seconds,
                delivered / stage.seconds, median(ms), percentile(ms, 0.95),
                percentile(ms, 0.99), max(ms), stage.lost(), stage.misdelivered,
                stage.out_of_order,
                label, rate, 100 * stage.server_cpu / stage.wall,
                1e6 * stage.server_cpu / max(1, delivered),
                1e6 * getattr(stage, "store_cpu", 0.0) / max(1, delivered),
                100 * stage.own_cpu / stage.wall,
                100 * stage.other_cpu / stage.wall, os.cpu_count()))


def redis_pid(url):
    """Return the pid of the redis-server behind the URL if it runs on this machine, else None."""
    import redis

    client = redis.Redis.from_url(url)
    try:
        pid = client.info("server")["process_id"]
    finally:
        client.close()
    return pid if os.path.exists("/proc/%d" % pid) else None


def start_servers(setup, processes, redis_url, ping_interval=None, script_per_frame=False, hold=None):
    """Start a setup's server processes; return them with their ports."""
    env = dict(os.environ)
    env.pop("SPIELEABEND_REDIS_URL", None)
    env.pop("SPIELEABEND_BENCH_SCRIPT_PER_FRAME", None)
    env.pop("SPIELEABEND_BENCH_HOLD", None)
    if script_per_frame:
        env["SPIELEABEND_BENCH_SCRIPT_PER_FRAME"] = "1"
    if hold is not None:
        env["SPIELEABEND_BENCH_HOLD"] = str(hold)
    if ping_interval is not None:
        env["SPIELEABEND_BENCH_PING_INTERVAL"] = str(ping_interval)
    if setup == "redis":
        env["SPIELEABEND_REDIS_URL"] = redis_url
        env["SPIELEABEND_BENCH_PREFIX"] = "bench%d:" % time.time_ns()
    servers = []
    for _ in range(processes):
        port = free_port()
        servers.append((port, subprocess.Popen(
            server_command(setup, port), preexec_fn=raise_fd_limit, env=env,
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)))
    return servers


async def measure(setup, rooms, seats, rates, seconds, processes=1, redis_url=None, ping_interval=None,
                  placement="spread", hold=None):
    """Start one setup, load it, print its figures; return a summary dict."""
    label, path = SETUPS[setup]
    if setup == "redis":
        label = label % (processes, "" if processes == 1 else "es") + PLACEMENTS[placement]
    if ping_interval is not None and setup != "baseline":
        label += ", pings every %g s" % ping_interval
    if hold is not None and setup == "redis" and placement != "apart-nohold":
        label += ", hold %g s" % hold
    servers = start_servers(setup, processes, redis_url, ping_interval,
                            script_per_frame=placement == "apart-script",
                            hold=0 if placement == "apart-nohold" else hold)
    pids = [process.pid for _, process in servers]
    store = redis_pid(redis_url) if setup == "redis" else None
    if store is not None:
        pids.append(store)  # Redis's CPU is part of what a delivery costs

    def cpu():
        return sum(server_cpu_seconds(pid) for pid in pids)

    def store_cpu():
        return server_cpu_seconds(store) if store is not None else 0.0

    def resources():
        figures = [server_resources(process.pid) for _, process in servers]
        return tuple(sum(f[i] for f in figures) for i in range(3))

    summary = {"label": label, "stages": {}}
    try:
        for port, process in servers:
            await asyncio.get_running_loop().run_in_executor(None, wait_listening, port, process)
        idle_rss, idle_threads, _ = resources()
        load = Load(["ws://127.0.0.1:%d%s" % (port, path) for port, _ in servers], rooms, seats,
                    placement.split("-")[0])
        started = time.perf_counter()
        await asyncio.wait_for(load.connect(), timeout=300)
        held = load.sockets_open()
        print("%-40s connect: %d sockets held (%d hosts + %d seats), %d connect failures, "
              "%.1f s; idle server RSS %.0f MB, %d threads" % (
                  label, held, len(load.hosts), len(load.seats), load.connect_failures,
                  time.perf_counter() - started, idle_rss, idle_threads), flush=True)
        summary.update(held=held, failures=load.connect_failures)
        # The sockets held and nothing relayed: what keeping them costs (the websocket pings that
        # notice a phone whose network went silent).
        server_cpu, wall = cpu(), time.monotonic()
        await asyncio.sleep(seconds)
        idle = (cpu() - server_cpu) / (time.monotonic() - wall)
        print("%-40s idle: server CPU %.1f %% holding %d sockets (%.0f us per socket and second)" % (
            label, 100 * idle, held, 1e6 * idle / max(1, held)), flush=True)
        summary.update(idle_cpu=idle)
        await load.run_stage("warmup", rates[0], 2)
        for rate in rates:
            server_cpu, own, wall = cpu(), own_cpu_seconds(), time.monotonic()
            redis_cpu = store_cpu()
            busy = machine_busy_seconds()
            stage = await asyncio.wait_for(load.run_stage("r%d" % rate, rate, seconds),
                                           timeout=seconds + 120)
            stage.server_cpu = cpu() - server_cpu
            stage.store_cpu = store_cpu() - redis_cpu
            stage.own_cpu = own_cpu_seconds() - own
            stage.wall = time.monotonic() - wall  # sending plus draining
            # Other work on the machine takes CPU from both sides and skews every figure.
            stage.other_cpu = machine_busy_seconds() - busy - stage.server_cpu - stage.own_cpu
            print(stage_line(label, stage, rate), flush=True)
            summary["stages"][rate] = stage
        rss, threads, sockets = resources()
        summary.update(rss=rss, threads=threads, held_end=load.sockets_open())
        print("%-40s server under load: RSS %.0f MB, %d threads, %d open sockets; "
              "client sockets still open %d" % (label, rss, threads, sockets, summary["held_end"]),
              flush=True)
        await load.close()
    except Exception as exc:  # report and go on with the other setups
        print("%-40s FAILED: %r" % (label, exc), flush=True)
        summary["error"] = repr(exc)
    finally:
        for _, process in servers:
            process.terminate()
        for _, process in servers:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
    return summary


def best_rate(summary, p99_ms=50.0):
    """Return the highest relayed msg/s of a setup at a p99 within `p99_ms`, or 0."""
    rates = [sum(stage.received.values()) / stage.seconds
             for stage in summary.get("stages", {}).values()
             if stage.latencies and percentile(stage.latencies, 0.99) * 1000 <= p99_ms
             and stage.lost() == 0]
    return max(rates, default=0.0)


def table(summaries, rates, reference="gthread"):
    """Return the comparison table: per rate the CPU per delivery (Redis's share) and its ratio to memory."""
    lines = ["", "CPU per delivery in us, relay processes and Redis (of it Redis), and the ratio to "
             "1 process in memory at the same rate; msg/s at p99 <= 50 ms; errors over all rates"]
    width = max([40] + [len(summary["label"]) for summary in summaries.values()])
    lines.append("%-*s %s %10s %18s" % (width, "setup", " ".join("%22s" % ("%d/s" % r) for r in rates),
                                         "msg/s", "lost/misd./order"))
    for summary in summaries.values():
        stages = summary.get("stages", {})
        if not stages:
            lines.append("%-*s not measured" % (width, summary["label"]))
            continue
        cells = []
        for rate in rates:
            stage = stages.get(rate)
            if stage is None:
                cells.append("%22s" % "-")
                continue
            cell = "%4.0f" % cpu_per_delivery(stage)
            if getattr(stage, "store_cpu", 0.0):
                cell += " (%3.0f)" % (1e6 * stage.store_cpu / max(1, sum(stage.received.values())))
            ratio = ratio_to_memory(summary, summaries.get(reference, {}), rate)
            if ratio is not None:
                cell += " x%.2f" % ratio
            cells.append("%22s" % cell)
        lines.append("%-*s %s %10.0f %18s" % (
            width, summary["label"], " ".join(cells), best_rate(summary),
            "%d/%d/%d" % (sum(s.lost() for s in stages.values()),
                          sum(s.misdelivered for s in stages.values()),
                          sum(s.out_of_order for s in stages.values()))))
    return "\n".join(lines)


def ratio_to_memory(summary, memory, rate):
    """Return a setup's CPU per delivery at a rate over memory's in the same round, or None."""
    stage = summary.get("stages", {}).get(rate)
    reference = memory.get("stages", {}).get(rate)
    if stage is None or reference is None or summary is memory:
        return None
    return cpu_per_delivery(stage) / cpu_per_delivery(reference)


def cpu_per_delivery(stage):
    """Return a stage's server CPU (relay processes and Redis) per delivery, in microseconds."""
    return 1e6 * stage.server_cpu / max(1, sum(stage.received.values()))


def verdict(summary):
    """Return the targets line of one setup."""
    if "error" in summary or TARGET_RATE not in summary["stages"]:
        return "%-40s targets: not measured" % summary["label"]
    stage = summary["stages"][TARGET_RATE]
    p99 = percentile([s * 1000 for s in stage.latencies], 0.99) if stage.latencies else float("inf")
    checks = [
        ("%d sockets held" % TARGET_SOCKETS, summary["held_end"] >= TARGET_SOCKETS
         and summary["failures"] == 0),
        ("p99 %.1f ms <= %.0f ms at %d/s" % (p99, TARGET_P99_MS, TARGET_RATE), p99 <= TARGET_P99_MS),
        ("0 lost", all(s.lost() == 0 for s in summary["stages"].values())),
        ("0 misdelivered", all(s.misdelivered == 0 for s in summary["stages"].values())),
    ]
    return "%-40s targets: %s" % (summary["label"], "; ".join(
        "%s: %s" % (name, "met" if ok else "MISSED") for name, ok in checks))


def ratio_line(summary, baseline, rate):
    """Return how a setup compares with the baseline at one rate."""
    if "error" in summary or "error" in baseline or rate not in summary["stages"] \
            or rate not in baseline["stages"]:
        return None
    ours, base = summary["stages"][rate], baseline["stages"][rate]
    p50 = median([s * 1000 for s in ours.latencies]) / median([s * 1000 for s in base.latencies])
    p99 = percentile(ours.latencies, 0.99) / percentile(base.latencies, 0.99)
    return "%-40s vs baseline at %5d/s: p50 x%.2f  p99 x%.2f  RSS x%.2f  threads %d vs %d" % (
        summary["label"], rate, p50, p99, summary["rss"] / baseline["rss"],
        summary["threads"], baseline["threads"])


async def main(args):
    """Measure every chosen setup, then print targets, ratios and the comparison table."""
    raise_fd_limit()
    setups = [s for s in args.setups.split(",") if s]
    if "gevent" in setups and not gevent_available():
        print("gevent is not installed: skipping the gevent setup")
        setups.remove("gevent")
    rates = [int(r) for r in args.rates.split(",")]
    ping_intervals = [float(p) for p in args.ping_intervals.split(",")] if args.ping_intervals else [None]
    print("Relay load: %d rooms x (1 host + %d seats) = %d sockets on 127.0.0.1, "
          "%d s per rate, rates %s deliveries/s, %d cores, load average %.2f" % (
              args.rooms, args.seats, args.rooms * (1 + args.seats), args.seconds,
              args.rates, os.cpu_count(), os.getloadavg()[0]), flush=True)
    own_redis = None
    redis_url = args.redis
    if "redis" in setups and not redis_url:
        from spieleabend.testing.redis import RedisServer

        own_redis = RedisServer()
        redis_url = own_redis.url
    # Every line of a round, as (name, setup, keyword arguments of measure).
    jobs = []
    for setup in setups:
        if setup == "redis":
            runs = [(1, "spread")]
            if args.processes > 1:
                runs += [(args.processes, "spread"), (args.processes, "apart")]
                if args.script_per_frame:
                    runs.append((args.processes, "apart-script"))
                if args.hold_line:
                    runs.append((args.processes, "apart-nohold"))
            for count, placement in runs:
                jobs.append(("redis%d%s" % (count, placement), setup,
                             dict(processes=count, redis_url=redis_url, placement=placement, hold=args.hold)))
        else:
            for interval in ping_intervals if setup != "baseline" else [None]:
                name = setup if interval is None or len(ping_intervals) == 1 else "%s@%g" % (setup, interval)
                jobs.append((name, setup, dict(ping_interval=interval)))
    rounds = []
    try:
        for round_number in range(args.rounds):
            # Every other round runs the lines backwards: a machine that drifts during a run then
            # favours no line over the rounds.
            order = jobs if round_number % 2 == 0 else jobs[::-1]
            if args.rounds > 1:
                print("round %d of %d, load average %.2f" % (round_number + 1, args.rounds,
                                                             os.getloadavg()[0]), flush=True)
            measured = {}
            for name, setup, options in order:
                measured[name] = await measure(setup, args.rooms, args.seats, rates, args.seconds, **options)
            rounds.append({name: measured[name] for name, _, _ in jobs})
    finally:
        if own_redis is not None:
            own_redis.stop()
    for summaries in rounds:
        report(summaries, rates)
    if len(rounds) > 1:
        print(ratios_over_rounds(rounds, rates))
    print("load average at the end (1, 5, 15 min): %.2f %.2f %.2f on %d cores" % (
        os.getloadavg() + (os.cpu_count(),)))


def report(summaries, rates):
    """Print one round's targets, its ratios to the baseline and its comparison table."""
    print()
    for name, summary in summaries.items():
        if name != "baseline":
            print(verdict(summary))
    if "baseline" in summaries:
        for name, summary in summaries.items():
            if name != "baseline":
                for rate in rates:
                    line = ratio_line(summary, summaries["baseline"], rate)
                    if line:
                        print(line)
    print(table(summaries, rates))


def ratios_over_rounds(rounds, rates, reference="gthread"):
    """Return, per setup and rate, the median and range over the rounds of CPU per delivery / memory's."""
    lines = ["", "CPU per delivery / 1 process in memory's of the same round, over %d rounds: "
                 "median (lowest to highest)" % len(rounds)]
    width = max([40] + [len(summary["label"]) for summary in rounds[0].values()])
    lines.append("%-*s %s" % (width, "setup", " ".join("%24s" % ("%d/s" % rate) for rate in rates)))
    for name, first in rounds[0].items():
        if name == reference:
            continue
        cells = []
        for rate in rates:
            ratios = sorted(ratio for ratio in (
                ratio_to_memory(summaries[name], summaries.get(reference, {}), rate)
                for summaries in rounds) if ratio is not None)
            cells.append("%24s" % ("x%.2f (%.2f to %.2f)" % (median(ratios), ratios[0], ratios[-1])
                                   if ratios else "-"))
        lines.append("%-*s %s" % (width, first["label"], " ".join(cells)))
    return "\n".join(lines)


def parse_args(argv=None):
    """Read the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setups", default="gthread,redis,baseline",
                        help="comma-separated: werkzeug, gthread, gevent, redis, baseline")
    parser.add_argument("--processes", type=int, default=2,
                        help="the redis setup runs with 1 and with this many processes, seats spread "
                             "and seats apart from their host (default 2)")
    parser.add_argument("--script-per-frame", action=argparse.BooleanOptionalAction, default=True,
                        help="also run seats apart with every crossing frame looked up by the relay "
                             "script, the way before the sender routed them (default: yes)")
    parser.add_argument("--hold-line", action=argparse.BooleanOptionalAction, default=True,
                        help="also run seats apart with every crossing frame written at once "
                             "(RELAY_REDIS_HOLD 0), the way before the hold (default: yes)")
    parser.add_argument("--hold", type=float, default=None, metavar="S",
                        help="RELAY_REDIS_HOLD for the redis lines (default: the relay's own)")
    parser.add_argument("--redis", default=None, metavar="URL",
                        help="Redis for the redis setup (default: start a redis-server here)")
    parser.add_argument("--rooms", type=int, default=250)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--rates", default="500,1000,2000",
                        help="deliveries per second to hold, comma-separated")
    parser.add_argument("--seconds", type=int, default=15, help="duration of each rate (and of the idle stage)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="measure every line this many times, every other round in reverse order, "
                             "and print the ratios to memory over the rounds (default 1)")
    parser.add_argument("--ping-intervals", default=None, metavar="S,S",
                        help="RELAY_PING_INTERVAL values to run each relay setup with (default: the relay's own)")
    parser.add_argument("--serve-werkzeug", type=int, metavar="PORT", help=argparse.SUPPRESS)
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse_args()
    if arguments.serve_werkzeug:
        serve_werkzeug(arguments.serve_werkzeug)
    else:
        chosen = [setup for setup in arguments.setups.split(",") if setup and (setup != "gevent" or gevent_available())]
        require("bench.relay_load", *prerequisites(chosen))
        asyncio.run(main(arguments))

"""Where a room move's time goes: `python -m bench.room_latency --profile` prints it.

Each device's worker gets its app's Python functions wrapped with a clock (through
`__BRYTHON__.runPythonSource`, before its room link exists) and its websocket sends timed; each
page times every message from its worker (the op and how long the page took to carry it out). All
clocks are performance.timeOrigin + performance.now(), so they compare across pages and workers.

For every timed move (the tap on the sender, the first DOM change on a receiver) the receiver's
drawing is followed back: the page op that changed the DOM, the worker's post of it, the drawing
that made it, the frame that came in before it, the host's send of that frame, what the host did
since its own trigger (the tap, or the phone's frame), the phone's send. Each stage's median is
printed per kind of move and receiver.
"""

import json
import sys

from bench.common import median, percentile
from spieleabend.testing.browser import app_worker

# The page: every message from the app's worker, timed (the op's name and how long carrying it out took).
PAGE_CLOCK = """(() => {
  const Real = self.Worker;
  if (!Real || self.benchSpans) return;
  self.benchSpans = [];
  const clock = () => performance.timeOrigin + performance.now();
  self.Worker = function (url, options) {
    const worker = new Real(url, options);
    let handler = null;
    Object.defineProperty(worker, "onmessage", {get: () => handler, set: fn => { handler = fn; }});
    worker.addEventListener("message", event => {
      const start = clock();
      if (handler) handler.call(worker, event);
      const data = typeof event.data === "string" ? event.data : "";
      self.benchSpans.push(["page " + data.slice(2, data.indexOf('"', 2)), start, clock()]);
    });
    return worker;
  };
  self.Worker.prototype = Real.prototype;
})();"""

# The worker: websocket sends (with the frame's address) in JavaScript, the app's functions in Python.
WORKER_CLOCK = """() => {
  if (self.benchSpans) return;
  self.benchSpans = [];
  const clock = () => performance.timeOrigin + performance.now();
  self.benchSpan = (label, start) => { self.benchSpans.push([label, start, clock()]); };
  self.benchNow = clock;
  // A message from the page (a tap): app-worker.js hands it to ui/dom.py's listener by this name.
  const receive = self.spieleabendReceive;
  if (receive) self.spieleabendReceive = function (text) {
    const start = clock();
    try { return receive(text); } finally { self.benchSpans.push(["tap handled", start, clock()]); }
  };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    const start = clock();
    send.call(this, data);
    const text = String(data), address = text.match(/"type":"(to_\\w+)"(,"seat":(\\d+))?/);
    self.benchSpans.push(["ws send " + (address ? address[1] + (address[3] || "") : "?"), start, clock()]);
  };
}"""

WRAP = """
from browser import self as scope
import spieleabend.sha256
import spieleabend.storage as storage
import spieleabend.ui.app as app_module
import spieleabend.ui.dom as dom
import spieleabend.ui.html as html
import spieleabend.ui.rooms as rooms
import spieleabend.ui.table as table


def timed(owner, name, label):
    original = getattr(owner, name, None)
    if original is None or getattr(original, "bench_timed", False):
        return  # another release's code, or wrapped already

    def wrapper(*args, **kwargs):
        start = scope.benchNow()
        try:
            return original(*args, **kwargs)
        finally:
            scope.benchSpan(label, start)
    wrapper.bench_timed = True
    setattr(owner, name, wrapper)


for owner, name, label in [
        (app_module.App, "draw" if hasattr(app_module.App, "draw") else "rerender", "draw"),
        (dom, "set_html", "post drawing"), (dom.RelaySocket, "receive", "frame in"),
        (rooms.RoomLink, "send", "frame out"), (table.LocalTable, "apply", "engine step"),
        (rooms.HostTable, "save", "save"), (table.LocalTable, "note_progress", "progress"),
        (rooms.HostTable, "message_for", "view"), (rooms.HostTable, "table_facts", "view"),
        (rooms.HostTable, "send_views", "broadcast"),
        (rooms, "commitment", "sha256"), (rooms.RemoteTable, "take_table", "take table"),
        (rooms.RemoteTable, "take_reveal", "take reveal"), (storage.Storage, "save_room", "save place"),
        (rooms.HostTable, "schedule_computers", "computers"), (table, "page_marks", "build: marks"),
        (html, "french_card", "build: french_card"), (html, "number_card", "build: number_card")]:
    timed(owner, name, label)
# The drawing's parts: the room's bar and every render method of the game's screen.
import spieleabend.ui.room_screens as room_screens
timed(room_screens.RoomFrame, "bar", "build: room bar")
screen = __import__("spieleabend.ui." + GAME, fromlist=["x"])
for name in dir(screen.TableScreen):
    if name.startswith("render") and name != "render":
        timed(screen.TableScreen, name, "build: " + name)
for name in dir(screen):
    if name.endswith("_html") or name.startswith("render_"):
        timed(screen, name, "build: " + name)
# The engine's views, inside a drawing (a host's or a solo table's screen asks its table for them).
engine = __import__("spieleabend.games." + GAME, fromlist=["x"])
for name in ("view", "legal_actions", "outcome", "to_move"):
    timed(engine, name, "build: engine " + name)
"""

# Stages of one receiver's drawing, in the order they happen.
STAGES = [
    ("tap", "sender page: tap -> its worker"),
    ("phone", "phone worker: tap -> frame out"),
    ("relay_in", "socket + relay: phone -> host"),
    ("host", "host worker: trigger -> frame out to the receiver"),
    ("relay_out", "socket + relay: host -> receiver"),
    ("wait", "receiver worker: frame in -> drawing starts"),
    ("build", "receiver worker: build the screen's HTML"),
    ("post", "receiver: encode + post to the page"),
    ("dom", "receiver page: apply the drawing"),
    ("observe", "-> observer"),
]
HOST_PARTS = ["engine step", "save", "progress", "view", "frame out", "sha256", "draw", "computers"]


def instrument_page(context):
    """Time every message from the app's worker on every page of `context` (before its scripts run)."""
    context.add_init_script(PAGE_CLOCK)


def instrument_worker(page, game):
    """Wrap the app's functions in the page's worker with the clock (again after a reload)."""
    worker = app_worker(page)
    worker.evaluate(WORKER_CLOCK)
    worker.evaluate("src => __BRYTHON__.runPythonSource(src)", "GAME = %r\n%s" % (game, WRAP))


class Profiler:
    """The spans of every device, and the moves to follow back through them."""

    def __init__(self):
        self.spans = {}   # device name -> [(label, start, end)]
        self.moves = []   # (step, game, sender, receiver, at, seen)

    def collect(self, name, page):
        """Take the spans the page and its worker hold so far (before a reload, after a room)."""
        kept = self.spans.setdefault(name, [])
        for source in (page, app_worker(page)):
            kept.extend([tuple(span) for span in source.evaluate("(self.benchSpans || []).splice(0)")])

    def note(self, step, game, sender, receiver, at, seen):
        self.moves.append((step, game, sender, receiver, at, seen))

    def follow(self, sender, receiver, at, seen):
        """Return {stage: ms} for one receiver's drawing, or None when its chain is not whole."""
        rx = self.spans.get(receiver, [])
        host = self.spans.get("host", [])
        page_op = latest(rx, lambda label: label in ("page html", "page text"), at, seen + 0.5, by_end=True)
        posted = page_op and latest(rx, "post drawing", at, page_op[1])
        drawn = posted and latest(rx, "draw", at, posted[1])
        came = drawn and latest(rx, "frame in", at, drawn[1])
        if not came:
            return None
        out = {"wait": drawn[1] - came[1], "build": posted[1] - drawn[1], "post": page_op[1] - posted[1],
               "dom": page_op[2] - page_op[1], "observe": seen - page_op[2]}
        tx = self.spans.get(sender, [])
        handled = earliest(tx, "tap handled", at)
        if handled:
            out["tap"] = handled[1] - at
        if receiver == "host":
            phone_sent = latest(tx, lambda label: label.startswith("ws send"), at, came[1])
            if phone_sent:
                out["phone"] = phone_sent[1] - at
                out["relay_in"] = came[1] - phone_sent[1]
            self.parts(out, rx, "build", drawn[1], posted[1])
            return out
        host_sent = latest(host, lambda label: label.startswith("ws send"), at, came[1])
        if not host_sent:
            return None
        out["relay_out"] = came[1] - host_sent[1]
        if sender == "host":
            begun = handled[1] if handled else at
        else:
            host_in = latest(host, "frame in", at, host_sent[1])
            phone_sent = host_in and latest(tx, lambda label: label.startswith("ws send"), at, host_in[1])
            if not phone_sent:
                return None
            out["phone"] = phone_sent[1] - at
            out["relay_in"] = host_in[1] - phone_sent[1]
            begun = host_in[1]
        self.parts(out, rx, "build", drawn[1], posted[1])
        out["host"] = host_sent[1] - begun
        for part in HOST_PARTS:
            out["host: " + part] = sum([end - start for label, start, end in host
                                        if label == part and start >= begun and end <= host_sent[1]])
        return out

    @staticmethod
    def parts(out, spans, prefix, start, end):
        """Add the time of every "<prefix>: ..." span within [start, end] (nested ones count in each)."""
        for label, begun, ended in spans:
            if label.startswith(prefix + ": ") and begun >= start and ended <= end:
                out[label] = out.get(label, 0) + ended - begun

    def report(self):
        print("Where the time goes (medians over the moves; each receiver's drawing followed back to the tap):")
        groups = {}
        builds = {}
        for step, game, sender, receiver, at, seen in self.moves:
            chain = self.follow(sender, receiver, at, seen)
            role = "host" if receiver == "host" else "screen" if receiver == "screen" else "phone"
            groups.setdefault((step, role), []).append((seen - at, chain))
            if chain is not None:
                builds.setdefault((game, role), []).append(chain)
        labels = dict(STAGES)
        for key in sorted(groups):
            entries = groups[key]
            whole = [chain for _total, chain in entries if chain is not None]
            totals = [total for total, _chain in entries]
            print(" %s -> %s: n=%d (%d followed), total median %.1f / p95 %.1f ms" % (
                "host's move" if key[0] == "action" else "a phone's move", key[1], len(entries), len(whole),
                median(totals), percentile(totals, 0.95)))
            for name in [name for name, _label in STAGES] + ["host: " + part for part in HOST_PARTS]:
                # A part of the host's work missing from a chain took no time there.
                values = [chain[name] if name in chain else 0 for chain in whole] if ": " in name else \
                    [chain[name] for chain in whole if name in chain]
                if values and max(values) > 0.05:
                    print("   %-52s median %6.1f  p95 %6.1f ms" % (
                        labels.get(name, "  of which " + name), median(values), percentile(values, 0.95)))
        print("The receiver's build stage per game (inclusive times of the render functions, largest first):")
        for game, role in sorted(builds):
            chains = builds[(game, role)]
            print(" %s, %s: n=%d, build median %.1f / p95 %.1f ms" % (
                game, role, len(chains), median([chain["build"] for chain in chains]),
                percentile([chain["build"] for chain in chains], 0.95)))
            parts = sorted(set([name for chain in chains for name in chain if name.startswith("build: ")]))
            rows = [(median([chain[name] if name in chain else 0 for chain in chains]), name) for name in parts]
            for value, name in sorted(rows, reverse=True)[:8]:
                print("   %-40s median %6.1f ms" % (name[len("build: "):], value))

    def dump(self, path):
        """Write the spans and moves to a JSON file (python -m bench.room_profile FILE reports it again)."""
        with open(path, "w") as out:
            json.dump({"spans": self.spans, "moves": self.moves}, out)

    @classmethod
    def load(cls, path):
        with open(path) as source:
            data = json.load(source)
        profiler = cls()
        profiler.spans = {name: [tuple(span) for span in spans] for name, spans in data["spans"].items()}
        profiler.moves = [tuple(move) for move in data["moves"]]
        return profiler


def latest(spans, label, after, before, by_end=False):
    """Return the span with `label` (or label(name) true) starting at or after `after` whose start (end) is
    the latest at or before `before`."""
    best = None
    for span in spans:
        if not (span[0] == label if isinstance(label, str) else label(span[0])):
            continue
        moment = span[2] if by_end else span[1]
        if span[1] >= after and moment <= before and (best is None or moment > (best[2] if by_end else best[1])):
            best = span
    return best


def earliest(spans, label, after):
    """Return the first span with `label` starting at or after `after`."""
    best = None
    for span in spans:
        if span[0] == label and span[1] >= after and (best is None or span[1] < best[1]):
            best = span
    return best


if __name__ == "__main__":
    Profiler.load(sys.argv[1]).report()

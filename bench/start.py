"""Start time of the app in headless Chromium, cold and warm, against a bare Brython page.

Measure: milliseconds from navigation start to the moment `<html>` gets the
`data-app-ready` attribute, read from `performance.now()` inside the page by a
MutationObserver (so the harness's polling adds no noise). Each line is run
with no throttling and with 4x CPU throttling (Chrome DevTools Protocol), and
reports median, min and max of the runs.

- cold: a brand-new browser context per run (empty HTTP cache, no service
  worker, empty IndexedDB).
- warm, app: one on-disk profile (an off-the-record context keeps no V8 code
  cache for HTTP-cached scripts, a real browser does); first visit, service
  worker active, reload so it controls the page, one more visit (Brython's
  IndexedDB compiled-code cache is then filled); each measured run is a fresh
  page served by the worker.
- warm, bare: one on-disk profile; two visits first; each measured run is a
  fresh page whose brython.js comes from the HTTP cache (immutable); only the
  small HTML page is revalidated over the loopback.

The floor is a bare page on a second tiny server that loads the same brython.js
bytes (one file, brotli or gzip like the app) and runs one line of Python.
A third page, the worker floor, does what any offline app with Python in a
module worker pays before its own code: a service worker serves the page and
brython.js from its cache (static routes, like the app's), the page starts a
module worker at once, the worker imports brython.js and runs one line of
Python. App minus worker floor is what the app itself adds.

Rounds: every round visits every line once, starting with a different page
each round (a round's first visit measured ~20 ms slower).

Each app visit also opens a game the way a person does, at the same
throttling: tap the Punktejagd tile on the home screen (time until its start
screen is drawn), then "Partie starten" (time until the hand is there to
play). Cold, the game's modules are compiled then; warm, they come from
Brython's IndexedDB cache (the warm-up opened the game once). Also per line:
main-thread blocking from navigation to ready, the sum over long tasks of
their time beyond 50 ms (what Lighthouse's total blocking time adds up).

The app's Python runs in a Web Worker, and CDP's CPU throttling slows only the
page's main thread, not workers (checked: a fixed loop took 4x as long in the
page, the same in a worker; a worker target refuses
Emulation.setCPUThrottlingRate). So for the app the "4x" lines throttle its
page, not its Python: compare builds at 4x only for what the page does, and
take the unthrottled lines for the whole start.

`--baseline URL` adds another build of the app, served elsewhere (e.g. an
older checkout started with `scripts/start --port 8101`), as a third page in
the same interleaved rounds: before/after figures from one run.

    python -m bench.start [--runs N] [--time-limit SECONDS] [--baseline URL]
"""

import argparse
import logging
import os
import tempfile
import threading
import time

from bench.common import chromium, python_package, require

if __name__ == "__main__":  # before Playwright is imported: say what is missing, not an ImportError
    require("bench.start", python_package("playwright", "test"), chromium())

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

from bench.common import median
from server import create_app
from server.build import BRYTHON_DATA, COLD_TRANSFER_BUDGET_BYTES, Asset
from server.web import asset_response
from spieleabend.testing.browser import CHROMIUM_FLAGS, PHONE, chromium_executable

THROTTLE_RATES = [1, 4]
STEP_TIMEOUT_MS = 60000  # one visit or one worker activation; a slower step is a failure, not a figure

# Targets of DESIGN.md's start budget (the warm ratio tightened from 1.5 by issue 15).
WARM_RATIO_TARGET = 1.3
COLD_START_TARGET_MS = 3000

# Records the in-page time at which data-app-ready appears, and the long tasks; installed before any
# page script runs.
READY_OBSERVER_SCRIPT = """
(() => {
  window.__benchLongTasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__benchLongTasks.push([entry.startTime, entry.duration]);
    }).observe({type: "longtask", buffered: true});
  } catch (e) {}
  const mark = () => {
    const root = document.documentElement;
    if (window.__benchReadyAt === undefined && root && root.hasAttribute("data-app-ready")) {
      window.__benchReadyAt = performance.now();
    }
  };
  new MutationObserver(mark).observe(document,
    {attributes: true, attributeFilter: ["data-app-ready"], subtree: true, childList: true});
})();
"""

# What a visit reports after it is ready: what the screen shows and how fast the CPU runs now.
PAGE_FACTS_SCRIPT = """
() => {
  const start = performance.now();
  let sum = 0;
  for (let i = 0; i < 3000000; i++) { sum = (sum + i * 7) % 1000003; }
  const nav = performance.getEntriesByType("navigation")[0];
  return {
    loopMs: performance.now() - start + (sum < 0 ? 1 : 0),
    loadEventMs: nav ? nav.loadEventStart : null,
    loadingScreenGone: document.getElementById("loading") === null,
    appChildren: document.getElementById("app") ? document.getElementById("app").children.length : 0,
    gameTiles: document.querySelectorAll(".game-tile").length,
    controlled: !!(navigator.serviceWorker && navigator.serviceWorker.controller),
    blockingMs: window.__benchLongTasks.filter(([start]) => start < window.__benchReadyAt)
      .reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0),
  };
}
"""

# Taps an element and returns the ms until `target` is in the page (a MutationObserver sees it).
TAP_SCRIPT = """
([selector, target]) => new Promise((resolve) => {
  const begin = performance.now();
  let observer = null;
  const check = () => {
    if (document.querySelector(target)) {
      if (observer) observer.disconnect();
      resolve(performance.now() - begin);
      return true;
    }
    return false;
  };
  observer = new MutationObserver(check);
  observer.observe(document, {subtree: true, childList: true, attributes: true});
  document.querySelector(selector).click();
  check();
})
"""
GAME_TILE = '[data-testid="game-punktejagd"]'
GAME_START_SCREEN = '[data-testid="start-game"]'
GAME_TABLE = '[data-testid="hand"] button:not([disabled])'


BARE_PAGE = """<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Brython floor</title>
<link rel="icon" href="data:,">
</head>
<body>
<script src="/brython.js"></script>
<script type="text/python">
from browser import document; document.documentElement.setAttribute("data-app-ready", "")
</script>
</body>
</html>
"""


# The worker floor: what any page that runs Brython in a module worker and starts offline (service
# worker cache) pays before its own code, one line of Python in the worker.
WORKER_FLOOR_PAGE = """<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Brython worker floor</title>
<link rel="icon" href="data:,">
<script>
var python = new Worker("/floor-worker.js", {type: "module"});
python.onmessage = function () {
  document.documentElement.setAttribute("data-app-ready", "");
  if (!navigator.serviceWorker.controller) navigator.serviceWorker.register("/sw.js");
};
</script>
</head>
<body></body>
</html>
"""
WORKER_FLOOR_SCRIPT = """globalThis.__BRYTHON__ = globalThis.$B = globalThis.__BRYTHON__ || {};
import("/brython.js").then(function () {
  __BRYTHON__.brython({});
  __BRYTHON__.runPythonSource('from browser import self as scope; scope.postMessage("ready")');
});
"""
WORKER_FLOOR_SERVICE_WORKER = """const CACHE = "floor";
const FILES = ["/", "/brython.js", "/floor-worker.js"];
self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
  if (event.addRoutes) event.waitUntil(event.addRoutes(FILES.map((path) => (
    {condition: {urlPattern: {pathname: path, search: ""}}, source: {cacheName: CACHE}}))));
});
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  event.respondWith(caches.match(event.request).then((hit) => hit || fetch(event.request)));
});
"""


class TrafficLog:
    """WSGI wrapper that records every response the server sends: path, kind, status, body bytes."""

    def __init__(self, app):
        self.app = app
        self.entries = []
        self.lock = threading.Lock()

    def __call__(self, environ, start_response):
        entry = {"path": environ.get("PATH_INFO", ""), "dest": environ.get("HTTP_SEC_FETCH_DEST", ""),
                 "worker_script": environ.get("HTTP_SERVICE_WORKER", ""), "status": 0, "bytes": 0}

        def recording_start(status, headers, exc_info=None):
            entry["status"] = int(status.split()[0])
            return start_response(status, headers, exc_info)

        return self._counted(self.app(environ, recording_start), entry)

    def _counted(self, body, entry):
        try:
            for chunk in body:
                entry["bytes"] += len(chunk)
                yield chunk
        finally:
            if hasattr(body, "close"):
                body.close()
            with self.lock:
                self.entries.append(entry)

    def mark(self):
        """Return a position to read the entries logged after it."""
        with self.lock:
            return len(self.entries)

    def since(self, position):
        """Return the entries logged since a mark."""
        with self.lock:
            return list(self.entries[position:])


class ThreadedServer:
    """A WSGI app on 127.0.0.1 at a free port, served by werkzeug in a daemon thread."""

    def __init__(self, wsgi_app):
        self.traffic = TrafficLog(wsgi_app)
        self.server = make_server("127.0.0.1", 0, self.traffic, threaded=True)
        self.url = "http://127.0.0.1:%d" % self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(5)


def floor_page_app(brython_bytes, worker=False):
    """Return a WSGI app serving a floor page and brython.js (brotli/gzip, immutable), like the app server does.

    worker=False: the bare page. worker=True: the worker floor, brython.js in a module worker of an
    offline page (service worker, static routes to its cache), as the app delivers it.
    """
    files = {"/brython.js": Asset(brython_bytes, "text/javascript; charset=utf-8", immutable=True)}
    if worker:
        files["/"] = Asset(WORKER_FLOOR_PAGE.encode("utf-8"), "text/html; charset=utf-8", immutable=False)
        files["/floor-worker.js"] = Asset(WORKER_FLOOR_SCRIPT.encode("utf-8"), "text/javascript; charset=utf-8",
                                          immutable=True)
        files["/sw.js"] = Asset(WORKER_FLOOR_SERVICE_WORKER.encode("utf-8"), "text/javascript; charset=utf-8",
                                immutable=False)
    else:
        files["/"] = Asset(BARE_PAGE.encode("utf-8"), "text/html; charset=utf-8", immutable=False)

    @Request.application
    def application(request):
        asset = files.get(request.path)
        if asset is None:
            return Response("not found", status=404)
        return asset_response(asset, request)

    return application


class Visit:
    """One navigation: its ready time, what the page showed, its console errors and its requests."""

    def __init__(self, ready_ms, facts, errors, requests_by_id):
        self.ready_ms = ready_ms
        self.facts = facts
        self.game_ms = None  # tap on the game tile -> its start screen
        self.table_ms = None  # tap on "Partie starten" -> the hand to play
        self.errors = errors
        self.requests_by_id = requests_by_id  # still filled while the page stays open

    @property
    def requests(self):
        """Return the requests that got a response: url, status, source and encoded bytes."""
        return [dict(r, encoded=r.get("encoded", 0)) for r in self.requests_by_id.values() if "url" in r]

    def bytes_over_network(self):
        """Return the encoded bytes (headers and compressed body) that came over the network."""
        return sum(r["encoded"] for r in self.requests if r["source"] == "network")


class RemoteServer:
    """A page served elsewhere (another build of the app): its URL, no traffic log."""

    def __init__(self, url):
        self.url = url.rstrip("/")
        self.traffic = TrafficLog(None)


class Target:
    """One page under test: where it lives and how a visit proves it really started."""

    def __init__(self, name, server, is_app, offline=None):
        self.name = name
        self.server = server
        self.is_app = is_app
        self.offline = is_app if offline is None else offline  # served by a service worker when warm

    def check(self, visit, warm):
        """Raise if a visit did not reach the state its figure claims."""
        facts = visit.facts
        if self.is_app:
            if not facts["loadingScreenGone"] or facts["appChildren"] == 0:
                raise RuntimeError("%s: data-app-ready set but no screen drawn: %r" % (self.name, facts))
        if self.offline and warm and not facts["controlled"]:
            raise RuntimeError("%s: warm visit not controlled by the service worker" % self.name)


CONTEXT_OPTIONS = {"viewport": PHONE, "device_scale_factor": 2, "locale": "de-DE", "service_workers": "allow"}


def new_context(browser):
    """Return a fresh phone-sized context (own HTTP cache, service workers, IndexedDB)."""
    context = browser.new_context(**CONTEXT_OPTIONS)
    context.add_init_script(READY_OBSERVER_SCRIPT)
    return context


def new_profile_context(playwright, profile_dir):
    """Return a phone-sized context on an on-disk profile, as an installed app has.

    In an off-the-record context V8 compiles brython.js from source on every
    visit even when the HTTP cache holds it (a trace shows no consumed code
    cache), whereas an on-disk profile reuses V8's code cache; measuring the
    bare floor off the record would make it slower than in a real browser.
    """
    context = playwright.chromium.launch_persistent_context(
        profile_dir, executable_path=chromium_path(), args=CHROMIUM_FLAGS, **CONTEXT_OPTIONS)
    context.add_init_script(READY_OBSERVER_SCRIPT)
    return context


def chromium_path():
    return chromium_executable()


def visit(context, url, rate):
    """Open url in a fresh page of context at the given CPU throttling; return (Visit, open page)."""
    page = context.new_page()
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append("pageerror: %s" % exc))
    cdp = context.new_cdp_session(page)
    requests = {}

    def on_response(event):
        response = event["response"]
        source = "network"
        if response["url"].startswith("data:"):
            source = "data url"
        elif response.get("fromServiceWorker"):
            source = "service worker"
        elif response.get("fromDiskCache") or response.get("fromPrefetchCache"):
            source = "http cache"
        requests.setdefault(event["requestId"], {})
        requests[event["requestId"]].update(url=response["url"], status=response["status"], source=source)

    def on_finished(event):
        requests.setdefault(event["requestId"], {"url": "?", "status": 0, "source": "network"})
        requests[event["requestId"]]["encoded"] = event["encodedDataLength"]

    cdp.on("Network.responseReceived", on_response)
    cdp.on("Network.loadingFinished", on_finished)
    cdp.send("Network.enable")
    # Set before navigating, so the whole start runs throttled.
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    try:
        page.goto(url, wait_until="commit", timeout=STEP_TIMEOUT_MS)
        wait_until_ready(page, errors)
        ready_ms = page.evaluate("window.__benchReadyAt")
        facts = page.evaluate(PAGE_FACTS_SCRIPT)
        return Visit(ready_ms, facts, errors, requests), page
    except Exception:
        page.close()
        raise


def open_game(page, result):
    """Tap the game tile, then "Partie starten"; record both times on the visit.

    The tap comes 300 ms after the home screen is ready, as a person's would at the earliest (the
    page reads Brython's IndexedDB cache of the games' compiled modules right after the start).
    """
    page.wait_for_timeout(300)
    result.game_ms = page.evaluate(TAP_SCRIPT, [GAME_TILE, GAME_START_SCREEN])
    result.table_ms = page.evaluate(TAP_SCRIPT, [GAME_START_SCREEN, GAME_TABLE])


def wait_until_ready(page, errors):
    """Wait for data-app-ready; a page that never gets there is reported with its console errors."""
    try:
        page.wait_for_function("window.__benchReadyAt !== undefined", polling=100,
                               timeout=STEP_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        raise RuntimeError("%s never set data-app-ready within %d ms; console errors: %s" % (
            page.url, STEP_TIMEOUT_MS, errors or "none")) from None


def wait_for_worker(page):
    """Wait until the page's service worker is active (its precache is complete), bounded in time."""
    active = page.evaluate("""ms => Promise.race([
        navigator.serviceWorker.ready.then(() => true),
        new Promise(resolve => setTimeout(() => resolve(false), ms))])""", STEP_TIMEOUT_MS)
    if not active:
        raise RuntimeError("the service worker did not become active in %d ms" % STEP_TIMEOUT_MS)


def cold_visit(browser, target, rate):
    """Measure one start in a brand-new context; also log what the server sent meanwhile."""
    context = new_context(browser)
    try:
        mark = target.server.traffic.mark()
        result, page = visit(context, target.server.url + "/", rate)
        target.check(result, warm=False)
        if target.is_app:
            # The worker's precache is part of what a first start downloads.
            wait_for_worker(page)
            open_game(page, result)
        result.server_log = target.server.traffic.since(mark)
        page.close()
        return result
    finally:
        context.close()


def warm_context(playwright, target, profile_dir):
    """Return (context whose caches hold the page, the warm-up visits): worker controlling, IndexedDB filled."""
    context = new_profile_context(playwright, profile_dir)
    url = target.server.url + "/"
    first, page = visit(context, url, 1)
    target.check(first, warm=False)
    if target.offline:
        wait_for_worker(page)
        page.reload(wait_until="commit", timeout=STEP_TIMEOUT_MS)
        wait_until_ready(page, first.errors)
        if not page.evaluate("!!navigator.serviceWorker.controller"):
            raise RuntimeError("%s: the service worker does not control the page after a reload" % target.name)
    page.close()
    again, page = visit(context, url, 1)
    target.check(again, warm=True)
    if target.is_app:
        open_game(page, again)  # Brython's IndexedDB cache then holds the game's compiled modules
        page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('spieleabend.save.'))"
                      ".forEach(k => localStorage.removeItem(k))")
        page.wait_for_timeout(500)  # let the cache writes finish
    page.close()
    return context, [first, again]


def warm_visit(context, target, rate):
    """Measure one start in a fresh page of a warmed context."""
    result, page = visit(context, target.server.url + "/", rate)
    target.check(result, warm=True)
    if target.is_app:
        open_game(page, result)
        # The next warm visit is a first start of the day again: no saved game on the home screen.
        page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('spieleabend.save.'))"
                      ".forEach(k => localStorage.removeItem(k))")
    page.close()
    return result


class Line:
    """The visits of one (page, cache, throttling) combination."""

    def __init__(self, target, cache, rate):
        self.target = target
        self.cache = cache
        self.rate = rate
        self.visits = []

    def times(self):
        return [v.ready_ms for v in self.visits]

    def median_ms(self):
        return median(self.times())

    def label(self):
        return "%-5s %-4s  %-4s" % (self.target.name, self.cache, "4x" if self.rate == 4 else "none")

    def sources(self):
        """Return how the visits' requests were served, e.g. 'network 3, service worker 9'."""
        counts = {}
        for v in self.visits:
            for r in v.requests:
                counts[r["source"]] = counts.get(r["source"], 0) + 1
        runs = len(self.visits)
        return ", ".join("%s %.1f" % (k, n / runs) for k, n in sorted(counts.items()))


def kb(count):
    return "%.1f KB" % (count / 1000)


def verdict(ok):
    return "met" if ok else "MISSED"


def print_report(lines, warmups, runs, elapsed):
    """Print the table, the cold transfer, the ratios, the targets and any console error."""
    by_key = {(line.target.name, line.cache, line.rate): line for line in lines}
    print()
    print("Start to data-app-ready, headless Chromium, %d runs per line (after one unmeasured warm-up visit per page)" % runs)
    print("%-15s %9s %9s %9s %4s  %10s %9s %9s  %s" % (
        "page  cache cpu", "median", "min", "max", "runs", "load event", "blocking", "cpu loop", "requests per run by source"))
    for line in lines:
        times = line.times()
        load = median([v.facts["loadEventMs"] for v in line.visits])
        loop = median([v.facts["loopMs"] for v in line.visits])
        blocking = median([v.facts["blockingMs"] for v in line.visits])
        print("%-15s %6.0f ms %6.0f ms %6.0f ms %4d  %7.0f ms %6.0f ms %6.1f ms  %s" % (
            line.label(), median(times), min(times), max(times), len(times), load, blocking, loop, line.sources()))
    print("(load event: median. blocking: median sum of long tasks' time beyond 50 ms, navigation to ready.")
    print(" cpu loop: median time of a fixed JS loop after start, a check that the throttling took effect)")

    print()
    print("Opening a game (Punktejagd) after the start, same throttling: median [min-max]")
    print("%-15s %-24s %-24s" % ("page  cache cpu", "tile -> start screen", "start -> playable hand"))
    for line in lines:
        if not line.target.is_app:
            continue
        game = [v.game_ms for v in line.visits]
        table = [v.table_ms for v in line.visits]
        print("%-15s %-24s %-24s" % (line.label(), "%.0f ms [%.0f-%.0f]" % (median(game), min(game), max(game)),
                                      "%.0f ms [%.0f-%.0f]" % (median(table), min(table), max(table))))

    print()
    print("Transfer on a cold start (compressed as sent: brotli, or gzip where a browser takes no brotli):")
    for name in ("app", "bare"):
        cold = by_key[(name, "cold", 1)].visits + by_key[(name, "cold", 4)].visits
        page_bytes = median([v.bytes_over_network() for v in cold])
        server_bytes = median([sum(e["bytes"] for e in v.server_log) for v in cold])
        print("  %-5s page requests (CDP encodedDataLength, with headers): %s; all bodies the server sent, "
              "service worker precache included: %s" % (name, kb(page_bytes), kb(server_bytes)))
    app_cold = by_key[("app", "cold", 1)].visits[0]
    print("  app cold start, what the server sent (first run):")
    for e in app_cold.server_log:
        who = "worker script" if e["worker_script"] else (e["dest"] or "?")
        print("    %3d %8d B  %-13s %s" % (e["status"], e["bytes"], who, e["path"]))
    sent = {}
    for e in app_cold.server_log:
        if e["status"] == 200:
            sent.setdefault(e["path"], []).append(e["bytes"])
    twice = {path: sizes for path, sizes in sent.items() if len(sizes) > 1}
    if twice:
        print("  sent more than once in that cold start: %d files, %s extra (%s)" % (
            len(twice), kb(sum(sum(sizes[1:]) for sizes in twice.values())), ", ".join(sorted(twice))))

    print()
    ratios = {}
    for rate in THROTTLE_RATES:
        for cache in ("warm", "cold"):
            ratios[(cache, rate)] = by_key[("app", cache, rate)].median_ms() / by_key[("bare", cache, rate)].median_ms()
    print("Ratios of medians, app / bare: warm %.2f (no throttling), %.2f (4x); cold %.2f (no throttling), %.2f (4x)" % (
        ratios[("warm", 1)], ratios[("warm", 4)], ratios[("cold", 1)], ratios[("cold", 4)]))
    if ("base", "warm", 1) in by_key:
        print("Ratios of medians, base / bare: warm %.2f (no throttling), %.2f (4x); cold %.2f (no throttling), %.2f (4x)" % tuple(
            by_key[("base", cache, rate)].median_ms() / by_key[("bare", cache, rate)].median_ms()
            for cache, rate in (("warm", 1), ("warm", 4), ("cold", 1), ("cold", 4))))
    if ("floor", "warm", 1) in by_key:
        floor = {key: by_key[("floor",) + key].median_ms() for key in (("warm", 1), ("cold", 1))}
        print("Worker floor (brython.js in a module worker of an offline page, one line of Python), no throttling:")
        print("  floor / bare: warm %.2f, cold %.2f; app / floor: warm %.2f, cold %.2f; app - floor: warm %+.0f ms" % (
            floor[("warm", 1)] / by_key[("bare", "warm", 1)].median_ms(),
            floor[("cold", 1)] / by_key[("bare", "cold", 1)].median_ms(),
            by_key[("app", "warm", 1)].median_ms() / floor[("warm", 1)],
            by_key[("app", "cold", 1)].median_ms() / floor[("cold", 1)],
            by_key[("app", "warm", 1)].median_ms() - floor[("warm", 1)]))
    print("Targets:")
    for rate in THROTTLE_RATES:
        # At 4x the app's Python (in its worker) is not slowed and the bare page's is: no fair verdict.
        print("  warm start <= %.1f x bare warm (%s): %.3f x  %s" % (
            WARM_RATIO_TARGET, "4x CPU" if rate == 4 else "no throttling", ratios[("warm", rate)],
            verdict(ratios[("warm", rate)] <= WARM_RATIO_TARGET) if rate == 1
            else "not comparable (the app's worker is not throttled)"))
    cold_ms = by_key[("app", "cold", 1)].median_ms()
    print("  cold start <= %d ms (no throttling): %.0f ms  %s" % (
        COLD_START_TARGET_MS, cold_ms, verdict(cold_ms <= COLD_START_TARGET_MS)))
    cold_app = by_key[("app", "cold", 1)].visits + by_key[("app", "cold", 4)].visits
    page_bytes = median([v.bytes_over_network() for v in cold_app])
    all_bytes = median([sum(e["bytes"] for e in v.server_log) for v in cold_app])
    print("  cold transfer <= %s compressed (all a first start downloads, worker precache included): %s  %s"
          "  (the page's own requests: %s)" % (
              kb(COLD_TRANSFER_BUDGET_BYTES), kb(all_bytes), verdict(all_bytes <= COLD_TRANSFER_BUDGET_BYTES),
              kb(page_bytes)))

    visits = [v for line in lines for v in line.visits] + warmups
    errors = sorted({e for v in visits for e in v.errors})
    print()
    print("Console errors in all %d visits (measured and warm-up): %s" % (len(visits), len(errors) or "none"))
    for e in errors:
        print("  " + e)
    print("Total time %.0f s" % elapsed)


def main(argv=None):
    """Measure cold and warm starts of the app and of the bare floor page, then print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="measured visits per line (at least 5, default 5)")
    parser.add_argument("--time-limit", type=int, default=600,
                        help="seconds after which no further run starts (default 600; a run takes 30 to 60 s)")
    parser.add_argument("--baseline", metavar="URL",
                        help="another build of the app served at URL, measured as 'base' in the same rounds")
    args = parser.parse_args(argv)
    if args.runs < 5:
        parser.error("--runs must be at least 5")

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # one log line per request would bury the report
    began = time.monotonic()
    load_at_start = os.getloadavg()[0]
    app = create_app({"TESTING": True})
    # The bare page gets brython.js as one file, the installed one.
    app_server = ThreadedServer(app)
    brython_js = (BRYTHON_DATA / "brython.js").read_bytes()
    bare_server = ThreadedServer(floor_page_app(brython_js))
    floor_server = ThreadedServer(floor_page_app(brython_js, worker=True))
    targets = [Target("app", app_server, True), Target("floor", floor_server, False, offline=True),
               Target("bare", bare_server, False)]
    if args.baseline:
        targets.insert(1, Target("base", RemoteServer(args.baseline), True))
    lines = [Line(t, cache, rate) for t in targets for cache in ("cold", "warm") for rate in THROTTLE_RATES]
    by_key = {(line.target.name, line.cache, line.rate): line for line in lines}
    warmups = []
    deadline = began + args.time_limit
    runs_done = 0
    try:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory(prefix="bench-start-") as profiles:
            browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_FLAGS)
            warmed = {}
            try:
                # The first context of a new browser pays process start-up; keep it out of the figures.
                for target in targets:
                    warmups.append(cold_visit(browser, target, 1))
                for target in targets:
                    context, visits = warm_context(playwright, target, os.path.join(profiles, target.name))
                    warmed[target.name] = context
                    warmups.extend(visits)
                for run in range(args.runs):
                    if run > 0 and time.monotonic() > deadline:
                        break
                    # Every round visits every line, so drift of the machine spreads over all of them, and
                    # each round starts with the next page: the first visit of a round was measured ~20 ms
                    # slower (the browser still busy with the round before), which a fixed order puts on
                    # one page.
                    order = targets[run % len(targets):] + targets[:run % len(targets)]
                    for rate in THROTTLE_RATES:
                        for target in order:
                            by_key[(target.name, "cold", rate)].visits.append(cold_visit(browser, target, rate))
                            by_key[(target.name, "warm", rate)].visits.append(
                                warm_visit(warmed[target.name], target, rate))
                    runs_done += 1
                    print("run %d/%d done (%.0f s)" % (run + 1, args.runs, time.monotonic() - began), flush=True)
            finally:
                for context in warmed.values():
                    context.close()
                browser.close()
    finally:
        app_server.stop()
        floor_server.stop()
        bare_server.stop()
    if runs_done < args.runs:
        print("STOPPED at the time limit of %d s after %d of %d runs: the figures below rest on fewer runs." % (
            args.time_limit, runs_done, args.runs))
    print_report(lines, warmups, runs_done, time.monotonic() - began)
    print()
    print("cold: a new browser context per run (empty HTTP cache, no service worker, empty IndexedDB).")
    print("warm app: one on-disk profile after a first visit, a reload under the active service worker and one")
    print("  more visit; each run is a fresh page served by the worker, compiled Python from Brython's IndexedDB cache.")
    print("warm bare: one on-disk profile after two visits; each run is a fresh page, brython.js from the HTTP cache")
    print("  (immutable; V8's code cache reused), the HTML revalidated over the loopback (304); its one line of Python")
    print("  imports nothing from a bundle, so Brython's IndexedDB cache has nothing to hold for it.")
    print("4x: CDP throttles the page's main thread only; the app's Python runs in a Web Worker at full speed,")
    print("  so the app's 4x lines understate a slow phone (the bare page runs all of Brython on the throttled thread).")
    print("Machine: %d CPUs, load average %.1f at the start, %.1f at the end (other work on it skews the figures)." % (
        os.cpu_count(), load_at_start, os.getloadavg()[0]))


if __name__ == "__main__":
    main()

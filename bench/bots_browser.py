"""Computer decision time in the browser: every game and strength, in Chromium, with 4x CPU throttling.

Runs the real bundle in headless Chromium, plays seeded games with computers only
and times each `choose(view, rng)` with performance.now() inside the page. The
app runs its Python in a Web Worker, which CDP's CPU throttling does not slow;
so this benchmark loads the same brython.js and bundle into the page itself,
where 4x throttling stands for a slow phone's core (the worker's thread runs at
that core's speed).
Prints median, p99 and worst per game and strength, unthrottled and throttled,
next to CPython's figures for the same games (the ratio shows Brython's cost).

    python -m bench.bots_browser [--games N] [--only GAME] [--seats N|max]

Seats default to 3 (or the nearest count a game allows); "max" measures every
game at its largest table, the slowest case for computers that model each
opponent.
"""

import argparse
import json
import re
import time

from bench.common import chromium, python_package, require

if __name__ == "__main__":  # before Playwright is imported: say what is missing, not an ImportError
    require("bench.bots_browser", python_package("playwright", "test"), chromium())

from playwright.sync_api import sync_playwright

from bench.common import median, percentile
from spieleabend.testing.browser import LiveServer, launch_chromium
from spieleabend.games import GAME_MODULES, load, load_bots, run_bots
from spieleabend.games.common import Rng

BROWSER_TARGET_MS = 100.0         # worst decision at 4x throttling (issue 27)
BROWSER_MEDIAN_TARGET_MS = 20.0   # median decision at 4x throttling

TIMED_GAMES = """
from browser import window
import javascript
from spieleabend.games import load, load_bots, run_bots
from spieleabend.games.common import Rng

class Timed:
    def __init__(self, choose):
        self.choose = choose
        self.ms = []
    def __call__(self, view, rng):
        start = window.performance.now()
        action = self.choose(view, rng)
        self.ms.append(window.performance.now() - start)
        return action

class Everyone:
    def __init__(self, choose):
        self.choose = choose
    def __getitem__(self, seat):
        return self.choose

engine = load(%(game)r)
timed = Timed(load_bots(%(game)r).STRENGTHS[%(strength)r])
for number in range(%(games)d):
    state = engine.new_game(%(options)r, Rng(7000 + number))
    run_bots(engine, state, Everyone(timed), Rng(9000 + number))
window.benchResult = javascript.JSON.stringify(timed.ms)
"""


class Everyone:
    """Give the same bot to every seat."""

    def __init__(self, choose):
        self.choose = choose

    def __getitem__(self, seat):
        return self.choose


def cpython_times(game, strength, games, options):
    """Return per-decision milliseconds of the same games in CPython."""
    engine = load(game)
    choose = load_bots(game).STRENGTHS[strength]
    times = []

    def timed(view, rng):
        start = time.perf_counter()
        action = choose(view, rng)
        times.append((time.perf_counter() - start) * 1000)
        return action

    for number in range(games):
        state = engine.new_game(options, Rng(7000 + number))
        run_bots(engine, state, Everyone(timed), Rng(9000 + number))
    return times


def load_python_into_page(page):
    """Load the app's brython.js and bundle (what its worker loads) into the page and start Brython."""
    page.wait_for_load_state("load")
    html = page.evaluate("document.documentElement.outerHTML")
    worker_url = json.loads(re.search(r'new Worker\(("[^"]+")', html).group(1))
    worker = page.evaluate("url => fetch(url).then(response => response.text())", worker_url)
    found = re.search(r'var BRYTHON = ("[^"]+"), BUNDLE = ("[^"]+");', worker)
    page.add_script_tag(url=json.loads(found.group(1)))
    # As the worker installs it (app-worker.js install): the sources, the compiled start modules.
    page.evaluate("""url => fetch(url).then(response => response.json()).then(bundle => {
        __BRYTHON__.loadBrythonPackage(bundle.modules);
        if (bundle.compiled && __BRYTHON__.timestamp === bundle.brython_timestamp)
            Object.assign(__BRYTHON__.precompiled, bundle.compiled);
    })""", json.loads(found.group(2)))
    page.evaluate("__BRYTHON__.brython({})")


def browser_times(page, game, strength, games, options):
    """Return per-decision milliseconds measured inside the page."""
    page.evaluate("() => { window.benchResult = null; }")
    source = TIMED_GAMES % {"game": game, "strength": strength, "games": games, "options": options}
    page.evaluate("src => __BRYTHON__.runPythonSource(src)", source)
    page.wait_for_function("window.benchResult !== null", timeout=600000)
    return json.loads(page.evaluate("window.benchResult"))


def table_seats(game, wanted):
    """Return the seat count to measure a game at: `wanted` within the game's limits, or its maximum."""
    engine = load(game)
    if wanted == "max":
        return engine.MAX_SEATS
    return min(engine.MAX_SEATS, max(engine.MIN_SEATS, int(wanted)))


def line(label, ms, target=None):
    text = "%-44s median %7.2f ms  p99 %7.2f ms  worst %7.2f ms  (%d decisions)" % (
        label, median(ms), percentile(ms, 0.99), max(ms), len(ms))
    if target is not None:
        met = max(ms) <= target and median(ms) <= BROWSER_MEDIAN_TARGET_MS
        text += "  median ≤ %.0f, worst ≤ %.0f ms: %s" % (BROWSER_MEDIAN_TARGET_MS, target, "met" if met else "MISSED")
    return text


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="seeded games per game and strength (default 2)")
    parser.add_argument("--only", choices=GAME_MODULES, help="measure one game only")
    parser.add_argument("--seats", default="3", help="seats per table, or 'max' for each game's largest (default 3)")
    args = parser.parse_args(argv)
    games = [args.only] if args.only else GAME_MODULES
    server = LiveServer()
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page()
            page.goto(server.url + "/")
            page.wait_for_selector("html[data-app-ready]", timeout=60000)
            load_python_into_page(page)
            cdp = page.context.new_cdp_session(page)
            print("Computer decision time per decision (%d seeded games each)" % args.games)
            for game in games:
                options = {"seats": table_seats(game, args.seats)}
                print("%s: %d seats" % (game, options["seats"]))
                for strength in load_bots(game).STRENGTHS:
                    print(line("%s/%s CPython" % (game, strength), cpython_times(game, strength, args.games, options)))
                    for rate in (1, 4):
                        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                        ms = browser_times(page, game, strength, args.games, options)
                        print(line("%s/%s browser %dx" % (game, strength, rate), ms,
                                   BROWSER_TARGET_MS if rate == 4 else None), flush=True)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()

"""What "Fortsetzen" pays for checking a save in the browser: `games.check_saved_game` in the app's worker.

The check asks the engine for every seat's view and legal actions before a saved game opens (a save its
engine cannot go on with is set aside instead of failing at every reload). This times it in headless
Chromium for each game at its largest table in the middle of a game, beside one view of one seat (what
the table's first drawing needs anyway), with `--throttle N` as Chrome's CPU throttling (4 stands for a
slow phone). CDP's throttling does not slow a Web Worker, so, as bench.bots_browser does, the app's
brython.js and bundle are loaded into the page itself and timed there:

    python -m bench.continue_browser [--checks 20] [--throttle 4]
"""

import argparse
import json

from bench.common import chromium, python_package, require

if __name__ == "__main__":  # before Playwright is imported: say what is missing, not an ImportError
    require("bench.continue_browser", python_package("playwright", "test"), chromium())

from playwright.sync_api import sync_playwright

from bench.bots_browser import load_python_into_page
from bench.common import median, percentile
from bench.room_latency import load_average
from bench.screens_browser import POSITION, app_page
from spieleabend.testing.browser import LiveServer, launch_chromium

# (game, options at its largest table, moves played first)
POSITIONS = [("punktejagd", {"seats": 6}, 24), ("kartenkampf", {"seats": 8}, 32), ("maumau", {"seats": 5}, 20),
             ("paodekuai", {}, 12), ("golf", {"seats": 8, "decks": 2}, 30)]

CHECK_IN_PAGE = """
from browser import window as scope
import javascript
from spieleabend.games import check_saved_game

out = {}
clock = scope.performance
for game, options, moves in POSITIONS:
    engine, state = position(game, options, moves)
    names = engine.view(state, None)["names"]
    document = {"game": game, "state": state, "meta": {"seat": 0, "bot_rng": [1, 2, 3, 4],
                "players": [{"name": name, "kind": "computer"} for name in names]}}
    check_saved_game(document)  # the first call compiles what it needs
    checks, views = [], []
    for _ in range(CHECKS):
        start = clock.now()
        check_saved_game(document)
        checks.append(clock.now() - start)
        start = clock.now()
        engine.view(state, 0)
        views.append(clock.now() - start)
    out[game] = [len(names), checks, views]
scope.benchContinue = javascript.JSON.stringify(out)
"""


def measure(browser, url, checks, throttle):
    """Return {game: [seats, [ms per check], [ms per view]]}, timed in a page running the app's bundle."""
    context, page = app_page(browser, url, 300000)
    load_python_into_page(page)
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
    source = "POSITIONS = %r\nCHECKS = %d\n%s%s" % (POSITIONS, checks, POSITION, CHECK_IN_PAGE)
    page.evaluate("src => { window.benchContinue = null; __BRYTHON__.runPythonSource(src); }", source)
    page.wait_for_function("window.benchContinue !== null", timeout=600000)
    result = json.loads(page.evaluate("window.benchContinue"))
    context.close()
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--checks", type=int, default=20, help="timed checks per game (default 20)")
    parser.add_argument("--throttle", type=float, default=4, help="CPU throttling rate (default 4)")
    args = parser.parse_args(argv)
    server = LiveServer()
    before = load_average()
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            result = measure(browser, server.url, args.checks, args.throttle)
            browser.close()
    finally:
        server.stop()
    print("Checking a save before it opens, in Brython at %gx CPU throttling (%d checks a game; "
          "%s at the start, %s at the end):" % (args.throttle, args.checks, before, load_average()))
    print("  %-12s %5s %24s %24s %7s" % ("game", "seats", "check: median / p95", "one view: median / p95", "ratio"))
    for game, (seats, checks, views) in result.items():
        print("  %-12s %5d %14.1f / %6.1f ms %14.1f / %6.1f ms %6.1fx" % (
            game, seats, median(checks), percentile(checks, 0.95), median(views), percentile(views, 0.95),
            median(checks) / max(median(views), 0.001)))


if __name__ == "__main__":
    main()

"""Drawing a game's table in the browser: how long the app's worker takes to make a screen's HTML.

A room's phone or table screen draws its whole screen again on every move (docs/rooms.md,
"Latency"); this is the part of a move's latency that Brython spends building that HTML. The
benchmark opens the app in headless Chromium and, in its worker, plays each game to a seeded
position in the middle of a deal, then draws the phone's table (seat 1) and the table screen's
(seat None) again and again as a room's phone does: the view as it came from the host, the same
table object, the page's marks with it. Prints the median and p95 of one drawing per game, with
`--baseline PATH` beside another checkout's (served in its own process, measured in the same run,
alternating, so both see the same load):

    python -m bench.screens_browser [--games maumau,golf] [--draws 40] [--baseline PATH]
"""

import argparse
import json

from bench.common import chromium, python_package, require

if __name__ == "__main__":  # before Playwright is imported: say what is missing, not an ImportError
    require("bench.screens_browser", python_package("playwright", "test"), chromium())

from playwright.sync_api import sync_playwright

from bench.common import median, percentile
from bench.room_latency import chosen_games, load_average, serve_baseline
from spieleabend.testing.browser import PHONE, LiveServer, app_worker, launch_chromium

GAMES = ["punktejagd", "kartenkampf", "maumau", "paodekuai", "golf"]
# Moves played before the drawing is timed: the middle of a deal, with a feed and played cards.
MOVES = {"punktejagd": 12, "kartenkampf": 12, "maumau": 14, "paodekuai": 10, "golf": 10}

# Brython source of `position(game, options, moves)`: a seeded game played on `moves` moves by the quickest
# computer (only the position matters), as (engine, state); the in-browser benchmarks prepend it.
POSITION = """
from spieleabend.games import load as load_engine, load_bots, strength_choice
from spieleabend.games.common import Rng


def position(game, options, moves):
    engine = load_engine(game)
    bots = load_bots(game)
    choose = strength_choice(bots, list(bots.STRENGTHS)[0])
    rng = Rng(7)
    state = engine.new_game(options, rng)
    for _ in range(moves):
        moving = engine.to_move(state)
        if not moving or engine.outcome(state) is not None:
            break
        for seat in list(moving):
            if seat in engine.to_move(state):
                engine.apply_action(state, seat, choose(engine.view(state, seat), rng))
    return engine, state
"""

DRAW_IN_WORKER = """
from browser import self as scope
import javascript
from spieleabend.ui.table import Table, page_marks, screen_module


class ShownTable(Table):
    '''A room's phone (seat) or screen (seat None) as its screen sees it: the last view it was sent.'''

    role = "remote"

    def __init__(self, game, engine, state, seat):
        Table.__init__(self)
        self.game, self.engine, self.seat = game, engine, seat
        self.shown = engine.view(state, seat)
        self.moving = list(engine.to_move(state))
        self.names_ = list(engine.view(state, None)["names"])

    def view(self):
        return self.shown

    def names(self):
        return list(self.names_)

    def seats(self):
        return [{"name": name, "kind": "remote", "away": False, "stand_in": False, "me": seat == self.seat}
                for seat, name in enumerate(self.names_)]

    def to_move(self):
        return list(self.moving)

    def outcome(self):
        return self.shown.get("outcome")

    def reads_from_afar(self):
        return self.seat is None


class App:
    '''What a screen asks of the app while it draws.'''

    settings = {"memory_aid": False, "motion": "reduce", "language": "de"}
    fields = {}
    key_focus = {}

    def reduce_motion(self):
        return True

    def now(self):
        return int(javascript.Date.now())

    def later(self, handler, ms):
        return 0

    def cancel(self, timer):
        pass

    def rerender(self):
        pass


out = {}
clock = scope.performance
for game, moves in GAMES:
    engine, state = position(game, {"seats": 3, "names": ["Anna", "Ben", "Clara"]}, moves)
    for seat in (1, None):
        table = ShownTable(game, engine, state, seat)
        screen = screen_module(game).TableScreen(App(), table)
        app = App()
        screen.render(app)  # the first drawing compiles what it needs
        times = []
        for _ in range(DRAWS):
            start = clock.now()
            html = screen.render(app)
            page_marks(screen)
            times.append(clock.now() - start)
        out[game + ("/phone" if seat is not None else "/screen")] = [times, len(html)]
scope.benchScreens = javascript.JSON.stringify(out)
"""


def app_page(browser, url, timeout_ms):
    """Return (context, page) of a German phone with the app at url started and ready."""
    context = browser.new_context(viewport=PHONE, locale="de-DE", reduced_motion="reduce")
    context.set_default_timeout(timeout_ms)
    page = context.new_page()
    page.goto(url + "/")
    page.wait_for_selector("html[data-app-ready]")
    return context, page


def measure(browser, url, games, draws):
    """Return {"<game>/<phone|screen>": [ms per drawing], ...} and the HTML sizes, from the app's worker at url."""
    context, page = app_page(browser, url, 180000)
    worker = app_worker(page)
    source = "GAMES = %r\nDRAWS = %d\n%s%s" % ([(game, MOVES[game]) for game in games], draws, POSITION, DRAW_IN_WORKER)
    worker.evaluate("src => { self.benchScreens = null; __BRYTHON__.runPythonSource(src); }", source)
    result = json.loads(worker.evaluate("self.benchScreens"))
    context.close()
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated (default: all five)")
    parser.add_argument("--draws", type=int, default=40, help="timed drawings per table (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds alternating the servers (default 3)")
    parser.add_argument("--baseline", help="a checkout to compare against, served beside this one")
    args = parser.parse_args(argv)
    games = chosen_games(parser, args.games)
    servers = {"this": LiveServer()}
    urls = {"this": servers["this"].url}
    baseline = None
    if args.baseline:
        baseline, urls["baseline"] = serve_baseline(args.baseline)
    times = {name: {} for name in urls}
    sizes = {}
    loads = [load_average()]
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for _ in range(args.rounds):
                for name in sorted(urls):
                    for key, (ms, size) in measure(browser, urls[name], games, args.draws).items():
                        times[name].setdefault(key, []).extend(ms)
                        sizes[key] = size
                    loads.append(load_average())
            browser.close()
    finally:
        servers["this"].stop()
        if baseline is not None:
            baseline.communicate("", timeout=30)
    print("Drawing a table in the app's worker (screen HTML and page marks; %d drawings x %d rounds; %s at the "
          "start, %s at the end):" % (args.draws, args.rounds, loads[0], loads[-1]))
    header = "  %-22s %8s %22s" % ("table", "HTML", "this: median / p95")
    if baseline is not None:
        header += " %26s" % "baseline: median / p95"
    print(header)
    for key in sorted(times["this"]):
        line = "  %-22s %7.1fK %12.1f / %6.1f ms" % (key, sizes[key] / 1000.0, median(times["this"][key]),
                                                    percentile(times["this"][key], 0.95))
        if baseline is not None and key in times["baseline"]:
            line += " %16.1f / %6.1f ms" % (median(times["baseline"][key]), percentile(times["baseline"][key], 0.95))
        print(line)


if __name__ == "__main__":
    main()

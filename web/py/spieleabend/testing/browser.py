"""The system Chromium, the app's server in a thread, phone and screen contexts: no patching, no pytest.

Benchmarks import this module as it is; the settling that e2e scenarios want is a separate,
explicit choice (spieleabend.testing.settle).
"""

import logging
import os
import threading

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import sync_playwright

# Headless, and nothing in the background that would compete with the app for two shared cores.
CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
SYSTEM_CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 360, "height": 740}
SCREEN = {"width": 1280, "height": 720}
# Brython starts slowly on a shared two-core machine while other work runs.
DEFAULT_TIMEOUT_MS = 60000


def chromium_executable():
    """Return the Chromium to drive: $CHROMIUM (as scripts/test sets it), "playwright" for Playwright's own, else the system one."""
    return os.environ.get("CHROMIUM", SYSTEM_CHROMIUM)


def launch_chromium(playwright, flags=()):
    """Launch headless Chromium with CHROMIUM_FLAGS (and `flags`) from a running sync_playwright()."""
    options = {"args": CHROMIUM_FLAGS + list(flags)}
    executable = chromium_executable()
    if executable != "playwright":
        options["executable_path"] = executable
    return playwright.chromium.launch(**options)


class Chromium:
    """`with Chromium() as browser:` Playwright and a launched Chromium, both closed at the end."""

    def __init__(self, flags=()):
        self.flags = flags
        self.playwright = None
        self.browser = None

    def __enter__(self):
        self.playwright = sync_playwright().start()
        self.browser = launch_chromium(self.playwright, self.flags)
        return self.browser

    def __exit__(self, *exc):
        self.browser.close()
        self.playwright.stop()


class LiveServer:
    """The real app served by werkzeug in a thread on a free port; `stop()` it to test offline starts.

    `config` goes to server.create_app (rooms in memory by default; see the `server_config` fixture).
    """

    def __init__(self, config=None):
        from werkzeug.serving import make_server

        from server import create_app

        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
        self.app = create_app(dict({"TESTING": True}, **(config or {})))
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = "http://127.0.0.1:%d" % self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        if self.thread.is_alive():
            self.server.shutdown()
            self.server.server_close()
            self.thread.join(5)


class ConsoleWatch:
    """Collects console errors and uncaught exceptions of a page."""

    def __init__(self, page):
        self.errors = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append("pageerror: %s" % exc))

    def _console(self, message):
        """Keep an error's text, and for a resource that failed to load its address (the text alone does not name it)."""
        if message.type != "error":
            return
        where = (message.location or {}).get("url", "")
        failed_load = message.text.startswith("Failed to load resource") and where
        self.errors.append("%s (%s)" % (message.text, where) if failed_load else message.text)


def phone_context(browser, **overrides):
    """Return a new phone-sized German context (reduced motion keeps whole games fast)."""
    options = dict(viewport=PHONE, device_scale_factor=2, locale="de-DE",
                   service_workers="allow", reduced_motion="reduce")
    options.update(overrides)
    context = browser.new_context(**options)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    return context


def screen_context(browser, **overrides):
    """Return a new landscape context for a table screen (a tablet or TV), otherwise as phone_context."""
    options = dict(viewport=SCREEN, device_scale_factor=1)
    options.update(overrides)
    return phone_context(browser, **options)


def open_app(page, url, route=""):
    """Open the app (optionally at a #/ route) and wait until it is interactive."""
    page.goto(url + "/" + (("#/" + route) if route else ""))
    page.wait_for_selector("html[data-app-ready]", timeout=DEFAULT_TIMEOUT_MS)
    return page


def reopen(page, url):
    """Load url afresh, a reload even when only its #/ route differs: the app reads storage when it starts,
    so a test that wrote storage behind the running app's back opens it this way.

    The page leaves for about:blank first: going to a new #/ route in place would let the running app act on
    that route before the reload (open the stored game, record a finished one and remove its save), and the
    reloaded app would then find the game gone."""
    page.goto("about:blank")
    page.goto(url)
    page.wait_for_selector("html[data-app-ready]", timeout=DEFAULT_TIMEOUT_MS)
    return page


def app_worker(page):
    """Return the Web Worker the app's Python runs in (Brython is there, not in the page)."""
    for _ in range(200):
        for worker in page.workers:
            if "/app-worker." in worker.url:
                return worker
        page.wait_for_timeout(50)
    raise AssertionError("the page has no app worker")


def table_shown(game):
    """Return the selector of what a game's table shows first: the hand, or in Golf the peek (no hand there)."""
    return "[data-testid=peek-done]" if game == "golf" else "[data-testid=hand]"


def check_game(game):
    """Raise ValueError at once for a game the app does not have (not a page that times out looking for it)."""
    from spieleabend.games import GAME_MODULES

    if game not in GAME_MODULES:
        raise ValueError("unknown game %r: one of %s" % (game, ", ".join(GAME_MODULES)))


def start_solo(page, url, game, choices, seed, name="Testerin", pace=0, shown=None):
    """Open a game's start screen with a seed, fill in the name, tick `choices` (test ids) and start; wait for
    `shown` (by default what the game's table shows first: the hand, Golf's peek)."""
    check_game(game)
    if isinstance(choices, str) or not all(isinstance(testid, str) for testid in choices):
        raise TypeError("choices is a list of test ids, e.g. [\"limit-30\"], not %r" % (choices,))
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("seed is a whole number, not %r" % (seed,))
    page.goto("%s/?seed=%d&pace=%d#/play/%s" % (url, seed, pace, game))
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id("player-name").fill(name)
    for testid in choices:
        choice(page, testid, game).check()
    return start_game(page, shown or table_shown(game))


CHOICE_TIMEOUT_MS = 3000
START_CHOICES = "() => [...document.querySelectorAll('#app input[data-testid]')].map(i => i.dataset.testid)"


def choice(page, testid, game):
    """Return the locator of a test id to tick for a game (a start screen, the room lobby); when there is
    none (a mistyped "deal-1" for "deals-1") fail within 3 s, not the 60 s default, naming the screen's choices."""
    locator = page.get_by_test_id(testid)
    try:
        locator.wait_for(state="attached", timeout=CHOICE_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        raise AssertionError("no test id %r to tick for %s on this screen; its choices: %s" % (
            testid, game, ", ".join(page.evaluate(START_CHOICES)))) from None
    return locator


def start_game(page, shown="[data-testid=hand]", timeout=30000):
    """Tap "Partie starten" on a start screen and wait for the table (`shown`); a saved game of that kind
    is never replaced without a question, so answer it with "Neue Partie starten". `timeout` (ms) bounds
    every step, the tap on a start screen included."""
    page.get_by_test_id("start-game").click(timeout=timeout)
    page.wait_for_selector("%s, [data-testid=replace-confirm]" % shown, timeout=timeout)
    if page.get_by_test_id("replace-confirm").count():
        page.get_by_test_id("replace-confirm").click(timeout=timeout)
        page.wait_for_selector(shown, timeout=timeout)
    return page


# The rules of the page's pointer and hover media blocks that apply now, as one stylesheet.
_POINTER_RULES = """() => {
    const kept = [];
    for (const sheet of document.styleSheets) {
        let rules;
        try { rules = sheet.cssRules; } catch (error) { continue; }
        for (const rule of rules) {
            if (rule instanceof CSSMediaRule && /pointer|hover/.test(rule.conditionText)
                    && matchMedia(rule.conditionText).matches) {
                for (const inner of rule.cssRules) kept.push(inner.cssText);
            }
        }
    }
    return kept.join("\\n");
}"""


def make_transfer_code(page):
    """On a game's transfer screen, tap "Code erzeugen" and return the code once it and its QR code are shown.

    As a person reads or scans it: the QR image is fetched from the server while the code lives, so a test that
    redeems the code (or moves the server's clock) before the image loaded would meet a 404 in the console."""
    page.get_by_test_id("transfer-make-code").click()
    code = page.get_by_test_id("transfer-code")
    code.wait_for()
    page.wait_for_function("img => img.complete && img.naturalWidth > 0",
                           arg=page.get_by_test_id("transfer-qr").element_handle())
    return code.get_attribute("data-code")


def pointer_rules(page):
    """Return the CSS of the page's pointer and hover media blocks that apply on this device now."""
    return page.evaluate(_POINTER_RULES)


def save_screenshot(page, path, full_page=True):
    """Save what the device shows; a full page keeps the rules a touch screen applies.

    Chromium drops the touch emulation while it captures beyond the viewport, so a phone's
    full-page picture would show what the phone hides (the keyboard hints, class key-hint).
    """
    style = pointer_rules(page) if full_page else ""
    page.screenshot(path=path, full_page=full_page, style=style or None)

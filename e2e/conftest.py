"""End-to-end fixtures: a live server on a free port and the system Chromium via Playwright."""

import logging
import os
import socket
import struct
import threading

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, sync_playwright
from werkzeug.serving import make_server

from server import create_app

CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
PHONE = {"width": 360, "height": 740}


# A person looks at the screen after each tap before the next one. The app's Python runs in a Web
# Worker, so what a tap changes is drawn a moment after the tap: every action below waits until the
# page has no message left that the app has not handled (<html data-busy>, see web/index.html).
SETTLED = "!document.documentElement.hasAttribute('data-busy')"


def wait_until_settled(page):
    """Wait until the app has handled every tap, key and input sent to it (no-op on other pages)."""
    try:
        page.wait_for_function(SETTLED, timeout=30000, polling=10)
    except PlaywrightError:
        if not page.is_closed():
            raise


def settling(action, page_of):
    def act(self, *args, **kwargs):
        result = action(self, *args, **kwargs)
        wait_until_settled(page_of(self))
        return result
    act.__wrapped__ = action
    return act


for _name in ("click", "dblclick", "fill", "check", "uncheck", "set_checked", "select_option", "press",
              "press_sequentially", "tap", "type", "set_input_files", "clear", "dispatch_event"):
    setattr(Locator, _name, settling(getattr(Locator, _name), lambda locator: locator.page))


def tap_without_waiting(locator):
    """Tap and go on at once: for a test that holds the app back (its scripts) on purpose."""
    Locator.click.__wrapped__(locator)


class SettlingKeyboard:
    """page.keyboard whose key presses wait like the locator actions above."""

    def __init__(self, page, keyboard):
        self.page = page
        self.keyboard = keyboard

    def press(self, *args, **kwargs):
        self.keyboard.press(*args, **kwargs)
        wait_until_settled(self.page)

    def type(self, *args, **kwargs):
        self.keyboard.type(*args, **kwargs)
        wait_until_settled(self.page)

    def __getattr__(self, name):
        return getattr(self.keyboard, name)


_keyboard = Page.keyboard
Page.keyboard = property(lambda page: SettlingKeyboard(page, _keyboard.fget(page)))


def pytest_collection_modifyitems(items):
    for item in items:
        if "e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


class LiveServer:
    """The real app served by werkzeug in a thread; can be stopped to test offline starts."""

    def __init__(self):
        logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
        self.app = create_app({"TESTING": True})
        self.server = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.url = "http://127.0.0.1:%d" % self.server.server_port
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        if self.thread.is_alive():
            self.server.shutdown()
            self.server.server_close()
            self.thread.join(5)


@pytest.fixture(scope="session")
def live_server():
    server = LiveServer()
    yield server
    server.stop()


@pytest.fixture()
def own_server():
    """A server for one test alone (offline tests stop it)."""
    server = LiveServer()
    yield server
    server.stop()


class CuttableLine:
    """A TCP line between one device and the live server that a test cuts, as a phone loses its network.

    Chromium's offline emulation leaves an open websocket alone; a cut line resets every connection
    (the page sees its websocket close with 1006, as on a dropped Wi-Fi) and refuses new ones until mended.
    """

    def __init__(self, server_url):
        self.target = ("127.0.0.1", int(server_url.rsplit(":", 1)[1]))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = "http://127.0.0.1:%d" % self.listener.getsockname()[1]
        self.lock = threading.Lock()
        self.connections = []
        self.cut_off = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # the line was closed
            if self.cut_off:
                reset(client)
                continue
            try:
                upstream = socket.create_connection(self.target)
            except OSError:
                reset(client)
                continue
            with self.lock:
                self.connections += [client, upstream]
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    def _pump(self, source, sink):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self):
        """Reset every open connection and refuse new ones."""
        with self.lock:
            self.cut_off = True
            connections, self.connections = self.connections, []
        for connection in connections:
            reset(connection)

    def mend(self):
        with self.lock:
            self.cut_off = False

    def close(self):
        self.listener.close()
        self.cut()


def reset(connection):
    """Close a socket with a TCP reset (no orderly goodbye), as a lost network looks to the other end."""
    try:
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.shutdown(socket.SHUT_RD)  # wakes a pump thread blocked on it; sends nothing
    except OSError:
        pass
    connection.close()


@pytest.fixture
def cuttable_line(live_server):
    """Make CuttableLines to the live server; all are closed after the test."""
    made = []

    def make():
        line = CuttableLine(live_server.url)
        made.append(line)
        return line

    yield make
    for line in made:
        line.close()


@pytest.fixture(scope="session")
def browser():
    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as playwright:
        options = {"args": CHROMIUM_FLAGS}
        if executable != "playwright":
            options["executable_path"] = executable
        browser = playwright.chromium.launch(**options)
        yield browser
        browser.close()


class ConsoleWatch:
    """Collects console errors and uncaught exceptions of a page."""

    def __init__(self, page):
        self.errors = []
        page.on("console", lambda msg: self.errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append("pageerror: %s" % exc))


def phone_context(browser, **overrides):
    """Return a new phone-sized German context (reduced motion keeps whole games fast)."""
    options = dict(viewport=PHONE, device_scale_factor=2, locale="de-DE",
                   service_workers="allow", reduced_motion="reduce")
    options.update(overrides)
    context = browser.new_context(**options)
    # Shared 2-core machines can be slow to start Brython while other work runs.
    context.set_default_timeout(60000)
    return context


@pytest.fixture()
def context(browser):
    context = phone_context(browser)
    yield context
    context.close()


@pytest.fixture()
def page(context):
    """A phone-sized page; the test fails if the page logged an error."""
    page = context.new_page()
    watch = ConsoleWatch(page)
    page.console_watch = watch
    yield page
    assert watch.errors == [], "console errors: %s" % watch.errors


def reopen(page, url):
    """Load url afresh, a reload even when only its #/ route differs: the app reads storage when it starts,
    so a test that wrote storage behind the running app's back opens it this way."""
    page.goto(url)
    page.reload()
    page.wait_for_selector("html[data-app-ready]", timeout=60000)
    return page


def open_app(page, url, route=""):
    """Open the app (optionally at a #/ route) and wait until it is interactive."""
    page.goto(url + "/" + (("#/" + route) if route else ""))
    page.wait_for_selector("html[data-app-ready]", timeout=60000)
    return page


def app_worker(page):
    """Return the Web Worker the app's Python runs in (Brython is there, not in the page)."""
    for _ in range(200):
        for worker in page.workers:
            if "/app-worker." in worker.url:
                return worker
        page.wait_for_timeout(50)
    raise AssertionError("the page has no app worker")


def start_solo(page, url, game, choices, seed, name="Testerin", pace=0, shown="[data-testid=hand]"):
    """Open a game's start screen with a seed, fill in the name, tick `choices` (test ids) and start."""
    page.goto("%s/?seed=%d&pace=%d#/play/%s" % (url, seed, pace, game))
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id("player-name").fill(name)
    for testid in choices:
        page.get_by_test_id(testid).check()
    page.get_by_test_id("start-game").click()
    page.wait_for_selector(shown)
    return page

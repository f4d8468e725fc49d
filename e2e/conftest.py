"""End-to-end fixtures: a live server on a free port and the system Chromium via Playwright."""

import logging
import os
import threading

import pytest
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from server import create_app

CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
PHONE = {"width": 360, "height": 740}


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


def open_app(page, url, route=""):
    """Open the app (optionally at a #/ route) and wait until it is interactive."""
    page.goto(url + "/" + (("#/" + route) if route else ""))
    page.wait_for_selector("html[data-app-ready]", timeout=60000)
    return page


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

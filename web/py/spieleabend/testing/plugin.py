"""The pytest plugin (entry point `spieleabend` in pytest11): fixtures for scripting the app in Chromium.

Loaded by pytest wherever the project is installed with its `test` extra; e2e/README.md explains
each fixture. Playwright's actions settle (wait for `html:not([data-busy])`) unless pytest runs
with `--no-settle`.
"""

import pytest

from spieleabend.testing import settle
from spieleabend.testing.browser import Chromium, ConsoleWatch, LiveServer, phone_context, screen_context
from spieleabend.testing.network import CuttableLine
from spieleabend.testing.room import Devices, Room


def pytest_addoption(parser):
    group = parser.getgroup("spieleabend")
    group.addoption("--no-settle", action="store_true", default=False,
                    help="Playwright actions return at once instead of waiting until the app has handled them")


def pytest_configure(config):
    config.addinivalue_line("markers", "e2e: end-to-end scenario in a real Chromium (Playwright)")
    if not config.getoption("no_settle"):
        settle.install()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Add what every device showed and last received to a failed test's report (a stuck room is read from it)."""
    report = yield
    if report.when == "call" and report.failed:
        made = getattr(item, "funcargs", {}).get("devices")
        if isinstance(made, Devices):
            report.sections.append(("devices when the test failed", made.describe()))
    return report


@pytest.fixture(scope="session")
def server_config():
    """Return the settings server.create_app gets for `live_server` (override it for rooms on Redis)."""
    return {}


@pytest.fixture(scope="session")
def live_server(server_config):
    """The app's server for the whole session, in this process (rooms in memory); `.url` to open."""
    server = LiveServer(server_config)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def shipped_server():
    """The app exactly as the README's command serves it, whatever `server_config` says; `.url` to open."""
    server = LiveServer({})
    yield server
    server.stop()


@pytest.fixture(scope="session")
def redis_live_server(server_config):
    """The app's server with rooms on a real redis-server started for the session (Debian's redis-server);
    `.url` to open, `.redis_url` for the Redis it shares (a second server process may use it too)."""
    from spieleabend.testing.redis import RedisServer

    redis = RedisServer()
    server = LiveServer(dict(server_config, RELAY_REDIS_URL=redis.url))
    server.redis_url = redis.url
    yield server
    server.stop()
    redis.stop()


@pytest.fixture()
def own_server(server_config):
    """A server for one test alone, which the test may `stop()` (offline starts)."""
    server = LiveServer(server_config)
    yield server
    server.stop()


@pytest.fixture
def cuttable_line(live_server):
    """Make CuttableLines to the live server (`url`, `cut()`, `mend()`); all are closed after the test."""
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
    """The system Chromium ($CHROMIUM, else /usr/bin/chromium), headless, for the whole session."""
    with Chromium() as launched:
        yield launched


@pytest.fixture()
def context(browser):
    """A phone-sized German browser context (360×740, reduced motion)."""
    made = phone_context(browser)
    yield made
    made.close()


def watched_page(made):
    page = made.new_page()
    page.console_watch = ConsoleWatch(page)
    return page


@pytest.fixture()
def page(context):
    """A phone page; the test fails if the page logged an error."""
    made = watched_page(context)
    yield made
    assert made.console_watch.errors == [], "console errors: %s" % made.console_watch.errors


@pytest.fixture()
def screen_page(browser):
    """A table-screen page (landscape 1280×720, a TV or tablet); the test fails if it logged an error."""
    made_context = screen_context(browser)
    made = watched_page(made_context)
    yield made
    errors = made.console_watch.errors
    made_context.close()
    assert errors == [], "console errors: %s" % errors


@pytest.fixture
def devices(browser):
    """Make devices: `devices("anna")` a phone, `devices("tv", landscape=True)` a screen; no console errors allowed."""
    made = Devices(browser)
    yield made
    errors = made.errors()
    made.close()
    assert errors == [], errors


@pytest.fixture
def room(devices, live_server):
    """Open a room: `room("golf", phones=2, screen=True, seed=5, setup=(), seats=None)` with everybody joined
    and the game started (start=False: still in the lobby); returns a Room."""
    def open_one(game, **options):
        return Room(devices, live_server.url, game, **options)
    return open_one

"""Settling: every Playwright action waits until the app has handled it (<html data-busy> is gone).

The app's Python runs in a Web Worker, so what a tap changes is drawn a moment after the tap; a
person looks before the next tap, a script must wait. `install()` wraps Playwright's locator
actions and page.keyboard once for the whole process; the pytest plugin calls it unless
`--no-settle` is given. Benchmarks never call it.
"""

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page

SETTLED = "!document.documentElement.hasAttribute('data-busy')"
SETTLE_TIMEOUT_MS = 30000
LOCATOR_ACTIONS = ("click", "dblclick", "fill", "check", "uncheck", "set_checked", "select_option", "press",
                   "press_sequentially", "tap", "type", "set_input_files", "clear", "dispatch_event")


def wait_until_settled(page):
    """Wait until the app has handled every tap, key and input sent to it (no-op on other pages)."""
    try:
        page.wait_for_function(SETTLED, timeout=SETTLE_TIMEOUT_MS, polling=10)
    except PlaywrightError:
        if not page.is_closed():
            raise


def settling(action, page_of):
    """Return `action` followed by wait_until_settled on the page `page_of(self)` belongs to."""
    def act(self, *args, **kwargs):
        result = action(self, *args, **kwargs)
        wait_until_settled(page_of(self))
        return result
    act.__wrapped__ = action
    act.settles = True
    return act


class SettlingKeyboard:
    """page.keyboard whose key presses wait like the locator actions."""

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


def installed():
    """Return True once Playwright's actions settle."""
    return getattr(Locator.click, "settles", False)


def install():
    """Make every locator action and page.keyboard press wait until the app settled (once per process)."""
    if installed():
        return
    for name in LOCATOR_ACTIONS:
        setattr(Locator, name, settling(getattr(Locator, name), lambda locator: locator.page))
    keyboard = Page.keyboard
    Page.keyboard = property(lambda page: SettlingKeyboard(page, keyboard.fget(page)))


def tap_without_waiting(locator):
    """Tap and go on at once: for a test that holds the app back (its scripts) on purpose."""
    getattr(Locator.click, "__wrapped__", Locator.click)(locator)

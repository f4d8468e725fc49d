"""The browser glue: the only UI module that touches `browser` and `javascript`.

Screens stay importable in CPython because they receive everything through the app.
"""

from browser import document, window
import javascript


class JsonCodec:
    """JSON through the browser's own parser (Brython's `json` module costs seconds to import)."""

    @staticmethod
    def loads(text):
        return javascript.JSON.parse(text)

    @staticmethod
    def dumps(value):
        return javascript.JSON.stringify(value)


def local_storage():
    """Return the page's localStorage, or an in-memory stand-in where it is disabled."""
    try:
        storage = window.localStorage
        storage.setItem("spieleabend.probe", "1")
        storage.removeItem("spieleabend.probe")
        return LocalStorage(storage)
    except Exception:
        return MemoryStorage()


class LocalStorage:
    """localStorage with Python values: a missing key gives None (Brython hands JS null through)."""

    def __init__(self, storage):
        self.storage = storage

    @property
    def length(self):
        return int(self.storage.length)

    def getItem(self, key):
        value = self.storage.getItem(key)
        return value if isinstance(value, str) else None

    def setItem(self, key, value):
        self.storage.setItem(key, value)

    def removeItem(self, key):
        self.storage.removeItem(key)

    def key(self, index):
        value = self.storage.key(index)
        return value if isinstance(value, str) else None


class MemoryStorage:
    """A localStorage stand-in for browsers that refuse storage (the game still runs)."""

    def __init__(self):
        self.items = {}
        self.length = 0

    def getItem(self, key):
        return self.items.get(key)

    def setItem(self, key, value):
        self.items[key] = str(value)
        self.length = len(self.items)

    def removeItem(self, key):
        self.items.pop(key, None)
        self.length = len(self.items)

    def key(self, index):
        keys = sorted(self.items)
        return keys[index] if 0 <= index < len(keys) else None


def now_ms():
    """Return the time in milliseconds since the epoch, as an int."""
    return int(window.Date.now())


def random_seed():
    """Return a fresh 32-bit seed from the browser's generator."""
    return int(window.Math.random() * 4294967296)


def url_param(name):
    """Return a query parameter of the page URL, or None."""
    return window.URLSearchParams.new(window.location.search).get(name)


def hash_route():
    """Return the part of the URL after '#/' ('' for home)."""
    route = window.location.hash or ""
    return route[2:] if route.startswith("#/") else ""


def set_hash_route(route, replace=False):
    """Go to a route; it becomes a browser history entry unless `replace`."""
    url = "#/" + route if route else window.location.pathname + window.location.search
    if replace:
        window.history.replaceState("", "", url)
    else:
        window.history.pushState("", "", url)


def app_root():
    """Return the element the app renders into."""
    return document.getElementById("app")


def set_html(html):
    """Replace the app's content."""
    app_root().innerHTML = html


def on(event_name, handler, target=None):
    """Listen to an event on the app root (or another target)."""
    (target or app_root()).addEventListener(event_name, handler)


def on_window(event_name, handler):
    """Listen to an event on the window."""
    window.addEventListener(event_name, handler)


def later(handler, ms):
    """Call handler after ms milliseconds; return the timer id."""
    return window.setTimeout(handler, ms)


def cancel(timer):
    """Cancel a timer from `later`."""
    window.clearTimeout(timer)


def prefers_reduced_motion():
    """Return True when the device asks for reduced motion."""
    return bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches)


def root_element():
    """Return the <html> element."""
    return document.documentElement


def release_version():
    """Return the version of the release this page belongs to."""
    return root_element().getAttribute("data-version") or ""


def update_waiting():
    """Return True when a newer release waits for the next start."""
    return root_element().hasAttribute("data-update-waiting")


def activate_update():
    """Let the waiting release take over now and reload (only offered outside a game)."""
    window.spieleabendActivateUpdate()


def mark_ready():
    """Hide the loading screen and tell testers the app is interactive."""
    loading = document.getElementById("loading")
    if loading:
        loading.remove()
    app_root().removeAttribute("hidden")
    root_element().setAttribute("data-app-ready", "")
    window.performance.mark("app-ready")


def focus(selector):
    """Move keyboard focus to the first element matching selector, if any."""
    element = document.querySelector(selector)
    if element:
        element.focus()


def focused_testid():
    """Return the data-testid of the focused element, or None."""
    element = document.activeElement
    if element is None or not hasattr(element, "getAttribute"):
        return None
    return element.getAttribute("data-testid")


def query(selector):
    """Return the first element matching selector, or None."""
    return document.querySelector(selector)


def set_document_language(language, title):
    """Set <html lang> and the page title."""
    root_element().setAttribute("lang", language)
    document.title = title


def apply_display(settings, reduce_motion):
    """Apply contrast, grain, colour temperature and motion to the whole app."""
    style = root_element().style
    style.setProperty("--contrast", str(0.8 + settings["contrast"] * 0.004))
    style.setProperty("--grain", str(settings["grain"] * 0.0016))
    warmth = (settings["temperature"] - 50) / 50.0
    style.setProperty("--warm", str(max(warmth, 0) * 0.14))
    style.setProperty("--cool", str(max(-warmth, 0) * 0.14))
    root_element().setAttribute("data-motion", "reduce" if reduce_motion else "full")


def format_time(ms, language):
    """Return a short local date and time for a timestamp in milliseconds."""
    locale = "de-DE" if language == "de" else "en-GB"
    return window.Date.new(ms).toLocaleString(locale, {"dateStyle": "medium", "timeStyle": "short"})

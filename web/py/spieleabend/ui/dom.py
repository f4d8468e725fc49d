"""The browser glue: the only UI module that touches `browser` and `javascript`.

Screens stay importable in CPython because they receive everything through the app.
"""

from browser import document, window
import javascript

from spieleabend.storage import MemoryStorage


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
        return MemoryStorage()  # the game still runs, nothing is kept


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


_first_draw = [True]


def set_html(html):
    """Replace the app's content.

    The first draw keeps the page's pre-rendered home screen when it is the same markup (parsed in a
    detached element to compare): no new nodes, so no layout pass and no second largest paint.
    """
    root = app_root()
    if _first_draw[0]:
        _first_draw[0] = False
        probe = document.createElement("div")
        probe.innerHTML = html
        if probe.innerHTML == root.innerHTML:
            return
    root.innerHTML = html


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
    """Apply contrast, grain, colour temperature and motion to the whole app (the page's own function)."""
    window.spieleabendDisplay(settings["contrast"], settings["grain"], settings["temperature"], bool(reduce_motion))


def format_time(ms, language):
    """Return a short local date and time for a timestamp in milliseconds."""
    locale = "de-DE" if language == "de" else "en-GB"
    return window.Date.new(ms).toLocaleString(locale, {"dateStyle": "medium", "timeStyle": "short"})


# -- rooms: the relay websocket, random nonces, the QR code, sharing -------------------------
class RelaySocket:
    """A websocket to the room relay that speaks Python dicts (JSON through the browser)."""

    def __init__(self, url, on_open, on_message, on_close):
        self.ws = window.WebSocket.new(url)
        self.ws.addEventListener("open", lambda _event: on_open())
        self.ws.addEventListener("message", lambda event: self.receive(event, on_message))
        self.ws.addEventListener("close", lambda event: on_close(int(event.code)))

    def receive(self, event, on_message):
        try:
            frame = javascript.JSON.parse(event.data)
        except Exception:
            return
        on_message(frame)

    def send(self, frame):
        """Send a frame; return False when the socket is not open."""
        if int(self.ws.readyState) != 1:
            return False
        self.ws.send(javascript.JSON.stringify(frame))
        return True

    def close(self):
        try:
            self.ws.close(1000)
        except Exception:
            pass


def relay_socket(on_open, on_message, on_close, path="/relay"):
    """Open the relay websocket on this page's server (wss: behind https)."""
    scheme = "wss:" if window.location.protocol == "https:" else "ws:"
    return RelaySocket(scheme + "//" + window.location.host + path, on_open, on_message, on_close)


def random_hex(count):
    """Return `count` random bytes as hex (crypto.getRandomValues works without a secure context)."""
    values = window.Uint8Array.new(count)
    window.crypto.getRandomValues(values)
    digits = "0123456789abcdef"
    out = []
    for index in range(count):
        byte = int(values[index])
        out.append(digits[byte >> 4] + digits[byte & 15])
    return "".join(out)


def page_origin():
    """Return this page's origin, e.g. http://192.168.1.5:8000."""
    return window.location.origin


def share_link(text, title, on_done):
    """Share a link (navigator.share where there is one, else the clipboard); on_done("shared"|"copied"|"failed")."""
    navigator = window.navigator
    if hasattr(navigator, "share") and navigator.share:
        navigator.share({"title": title, "url": text}).then(lambda _v: on_done("shared"), lambda _e: on_done("failed"))
        return
    if hasattr(navigator, "clipboard") and navigator.clipboard:
        navigator.clipboard.writeText(text).then(lambda _v: on_done("copied"), lambda _e: copy_by_selection(text, on_done))
        return
    copy_by_selection(text, on_done)


def copy_by_selection(text, on_done):
    """Copy through a hidden text field (plain http pages have no clipboard API)."""
    field = document.createElement("textarea")
    field.value = text
    field.setAttribute("readonly", "")
    field.style.position = "fixed"
    field.style.opacity = "0"
    document.body.appendChild(field)
    field.select()
    try:
        ok = bool(document.execCommand("copy"))
    except Exception:
        ok = False
    field.remove()
    on_done("copied" if ok else "failed")


def online():
    """Return False when the browser knows it has no network."""
    return bool(window.navigator.onLine)


# -- game night and transfer: files to save and open, requests to the transfer server ----------
def download(filename, text, mime="application/json"):
    """Offer text as a file to save (or share where the browser offers that for downloads)."""
    blob = window.Blob.new([text], {"type": mime})
    url = window.URL.createObjectURL(blob)
    link = document.createElement("a")
    link.href = url
    link.download = filename
    link.style.display = "none"
    document.body.appendChild(link)
    link.click()
    link.remove()
    later(lambda: window.URL.revokeObjectURL(url), 10000)


def read_chosen_file(selector, on_text, limit):
    """Read the file chosen in a file input as text: on_text(text), or on_text(None) when it
    cannot be read or is larger than `limit` characters (then it is not read at all)."""
    field = document.querySelector(selector)
    if field is None or not field.files or int(field.files.length) == 0:
        on_text(None)
        return
    chosen = field.files[0]
    if int(chosen.size) > limit * 4:
        on_text("")  # far too large: the caller reports it as not a Spieleabend file
        return
    reader = window.FileReader.new()
    reader.addEventListener("load", lambda _event: on_text(str(reader.result)))
    reader.addEventListener("error", lambda _event: on_text(None))
    reader.readAsText(chosen)


def http_request(method, url, body, on_done, content_type="application/json"):
    """Send a request; on_done(status, text) with status 0 when the server cannot be reached."""
    options = {"method": method, "cache": "no-store"}
    if body is not None:
        options["body"] = body
        options["headers"] = {"Content-Type": content_type}

    def answered(response):
        status = int(response.status)
        response.text().then(lambda text: on_done(status, str(text)), lambda _e: on_done(0, ""))

    window.fetch(url, options).then(answered, lambda _e: on_done(0, ""))


def can_share_files():
    """Return True where the browser can hand a file to other apps (Web Share with files: phones)."""
    navigator = window.navigator
    try:
        if not hasattr(navigator, "canShare") or not navigator.canShare:
            return False
        probe = window.File.new(["{}"], "probe.json", {"type": "application/json"})
        return bool(navigator.canShare({"files": [probe]}))
    except Exception:
        return False


def share_file(filename, text, title, on_done):
    """Hand a JSON file to another app (messenger, mail, files); on_done(True) when shared."""
    chosen = window.File.new([text], filename, {"type": "application/json"})
    window.navigator.share({"files": [chosen], "title": title}).then(lambda _v: on_done(True), lambda _e: on_done(False))

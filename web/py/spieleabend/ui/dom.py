"""The page glue: the only UI module that touches `browser` and `javascript`.

The app's Python runs in a Web Worker (web/app-worker.js), so the page's main thread only paints
and answers taps: this module sends the page what to draw or do (web/index.html carries it out)
and turns the page's messages into calls on the app. What the worker cannot see itself (the page's
URL, localStorage, the form fields, which element has focus) the page sends with its messages.

Screens stay importable in CPython because they receive everything through the app.
"""

from browser import self as scope
import javascript

from spieleabend import sha256
from spieleabend.storage import MemoryStorage

# What the page sent when it started this worker (see index.html): URL, storage, capabilities.
_page = {}
# Callbacks waiting for the page's answer (sharing, reading a chosen file), by request number.
_waiting = {}
_next_request = [1]


def send(*op):
    """Ask the page to do one thing (ops are carried out in the order they were sent)."""
    scope.postMessage(javascript.JSON.stringify(list(op)))


def ask(op, on_answer, *args):
    """Send an op whose outcome comes back later: on_answer(result)."""
    number = _next_request[0]
    _next_request[0] += 1
    _waiting[number] = on_answer
    send(op, number, *args)


def answered(number, result):
    """Hand the page's answer to the callback that waits for it."""
    if number in _waiting:
        _waiting.pop(number)(result)


class JsonCodec:
    """JSON through the browser's own parser (Brython's `json` module costs seconds to import)."""

    @staticmethod
    def loads(text):
        return javascript.JSON.parse(text)

    @staticmethod
    def dumps(value):
        return javascript.JSON.stringify(value)


def start_page():
    """Take the page's start message (app-worker.js keeps it): its URL, its localStorage, what the browser can do."""
    _page.clear()
    _page.update(JsonCodec.loads(scope.spieleabendPage))
    # The worker loaded noble-hashes' SHA-256 before Python started (app-worker.js).
    sha256.use(lambda text: scope.spieleabendSha256(text))


def page_fact(name, default=None):
    """Return one fact the page sent at start (or updated since)."""
    return _page[name] if name in _page else default


def browser_language():
    """Return the browser's first German or English language ("de" when it has neither)."""
    return "en" if page_fact("language") == "en" else "de"


def set_page_fact(name, value):
    _page[name] = value


# localStorage belongs to the page; this worker keeps a copy from the start message and sends every
# change to the page, which writes it (and says so when the browser refuses).
STORAGE_LIMIT_CHARS = 2500000  # browsers keep 5 MB per site, counted in UTF-16: about this many characters
LOWERED_LIMIT_MS = 60000  # how long a limit learnt from the browser's refusal holds before the browser is asked again


class PageStorage(MemoryStorage):
    """The page's localStorage as this worker sees it: read here, every change written by the page."""

    def __init__(self, items):
        MemoryStorage.__init__(self, items)
        self.limit = STORAGE_LIMIT_CHARS  # storage.py keeps room for saves and results below it
        self.lowered_until = 0  # after the browser refused a write: the limit below it holds until then (ms)
        self.recent = []  # (write number, key, value) of the last stores sent: see resync

    def size(self):
        return sum(len(key) + len(value) for key, value in self.items.items())

    def setItem(self, key, value):
        value = str(value)
        old = self.items[key] if key in self.items else ""
        if self.lowered_until and now_ms() > self.lowered_until:
            # Other data of the site may have gone meanwhile (it shares the quota): ask the browser again.
            self.limit, self.lowered_until = STORAGE_LIMIT_CHARS, 0
        if self.size() - len(old) + len(value) > self.limit:
            raise ValueError("storage full")  # as the browser would refuse it: storage.py reports it
        MemoryStorage.setItem(self, key, value)
        self.recent = self.recent[-99:] + [(self.writes, key, value)]
        send("store", key, value)

    def resync(self, items, refused_write):
        """Take what storage holds after the browser refused a write this copy had taken; keep below it now.

        `items` is what storage held when the page was refused write number `refused_write` (numbered as
        `writes` counts them). The page carried out the stores sent after it, and held the removes back
        until this copy says it is synced, so those stores are this copy's again and the removes never were.
        The browser's quota was smaller than the limit thought (other data of the site shares it): for a
        while a write that grows the data by as much as the refused one is refused here, where storage.py
        makes room (old replays) or keeps what it has; a smaller one may still go to the browser.
        """
        grew = 0
        for number, key, value in self.recent:
            if number == refused_write:
                grew = len(value) - len(items[key] if key in items else "")
        self.items = {}
        for key in items:
            self._put(key, items[key])
        for number, key, value in self.recent:
            if number > refused_write:
                self._put(key, value)
        self.limit = min(self.limit, self.size() + max(grew - 1, 0))
        self.lowered_until = now_ms() + LOWERED_LIMIT_MS
        send("storage-synced")

    def removeItem(self, key):
        MemoryStorage.removeItem(self, key)
        send("remove", key)


def local_storage():
    """Return the page's localStorage, or an in-memory stand-in where the browser refuses storage."""
    items = page_fact("storage")
    if items is None:
        return MemoryStorage()  # the game still runs, nothing is kept
    return PageStorage(items)


def now_ms():
    """Return the time in milliseconds since the epoch, as an int."""
    return int(javascript.Date.now())


def random_seed():
    """Return a fresh 32-bit seed from the browser's generator."""
    return int(javascript.Math.random() * 4294967296)


def url_param(name):
    """Return a query parameter of the page URL, or None."""
    value = scope.URLSearchParams.new(page_fact("search", "")).get(name)
    return value if isinstance(value, str) else None


def hash_route():
    """Return the part of the URL after '#/' ('' for home)."""
    route = page_fact("hash", "")
    return route[2:] if route.startswith("#/") else ""


def set_hash_route(route, replace=False):
    """Go to a route; it becomes a browser history entry unless `replace`."""
    set_page_fact("hash", "#/" + route if route else "")
    send("route", route, bool(replace))


def set_html(html, keys="", marks=None):
    """Replace the app's content (the page keeps keyboard focus on the element with the same data-testid).

    keys: the keys the screen takes whose default action (scrolling) the page then keeps back.
    marks: the testers' root attributes with it, {"turn", "seat", "scores": str or None, "animating": bool} (see set_marks).
    """
    send("html", html, keys, marks)
    settle_waiting()


def set_marks(marks):
    """Set <html data-turn>, data-seat, data-scores (None removes one) and data-animating (e2e/README.md)."""
    send("marks", marks)


def set_text(element_id, text):
    """Set the text of one element without drawing the screen again."""
    send("text", element_id, text)


def toast(text):
    """Show a short message."""
    send("toast", text)


_on_failure = []


def on_failure(handler):
    """Call handler(error) when a message from the page, a timer or a room frame raised an error."""
    _on_failure[:] = [handler]


def guarded(callback):
    """Return callback so that an error it raises is shown by the app and its traceback printed."""
    def call(*args):
        try:
            return callback(*args)
        except Exception as error:
            if not _on_failure:
                raise
            report_error(error)
            _on_failure[0](error)
    return call


def report_error(error):
    """Print an error's traceback to the console, as Brython prints an uncaught one (for developers)."""
    try:
        scope.__BRYTHON__.show_error(error)
    except Exception:
        scope.console.error("%s: %s" % (type(error).__name__, error))


def reload_page():
    """Load the page afresh (the app starts again from what storage holds)."""
    send("reload")


# Messages from the page whose result waits for a drawing that is due (see listen): "handled" goes with it.
_unsettled = [0]


def settle_waiting():
    """Tell the page that the messages waiting for this drawing are handled."""
    while _unsettled[0] > 0:
        _unsettled[0] -= 1
        send("handled")


def listen(on_message, drawing_due=lambda: False):
    """Call on_message(message dict) for every message from the page.

    drawing_due(): True while the app's screen is about to be drawn by a timer (a room table holds its
    drawing for a round's reveal): the message's "handled" then goes with that drawing, so a settled page
    shows what the message caused."""
    @guarded
    def handle(text):
        message = javascript.JSON.parse(text)
        if message.get("type") == "answer":
            answered(message.get("id"), message.get("result"))
        else:
            on_message(message)

    def receive(text):
        try:
            handle(text)
        finally:
            # After everything the message caused was sent to the page (a failure screen too), redraws
            # deferred by a zero-delay timer included (a room table draws a burst of changes once):
            # testers wait for this, so a settled page never shows the screen from before the tap.
            scope.setTimeout(settled, 0)

    def settled():
        _unsettled[0] += 1
        try:
            due = drawing_due()
        except Exception:
            due = False  # never leave the page busy for good
        if not due:
            settle_waiting()
    scope.spieleabendReceive = receive


def later(handler, ms):
    """Call handler after ms milliseconds; return the timer id."""
    return scope.setTimeout(guarded(handler), ms)


def cancel(timer):
    """Cancel a timer from `later`."""
    scope.clearTimeout(timer)


def prefers_reduced_motion():
    """Return True when the device asks for reduced motion."""
    return bool(page_fact("reduce_motion", False))


def release_version():
    """Return the version of the release this page belongs to."""
    return page_fact("version", "")


def update_waiting():
    """Return True when a newer release waits for the next start."""
    return bool(page_fact("update_waiting", False))


def activate_update():
    """Let the waiting release take over now and reload (only offered outside a game)."""
    send("activate-update")


def keep_screen_on(on):
    """Ask the page to hold (or let go of) a screen wake lock, where the browser has one (secure pages only)."""
    send("awake", on)


def vibrate():
    """Ask the page for a short double buzz (phones that can; not before the person first tapped the page)."""
    send("vibrate", [70, 60, 70])


def scroll_to_top():
    """Scroll the page to its top (a new screen or round starts there: names and round number in sight)."""
    send("top")


def focus(selector):
    """Move keyboard focus to the first element matching selector, if any."""
    send("focus", selector)


def set_document_language(language, title):
    """Set <html lang> and the page title."""
    send("language", language, title)


def apply_display(settings, reduce_motion):
    """Apply contrast, grain, colour temperature and motion to the whole app (the page's own function)."""
    send("display", settings["contrast"], settings["grain"], settings["temperature"], bool(reduce_motion))


def format_time(ms, language):
    """Return a short local date and time for a timestamp in milliseconds."""
    locale = "de-DE" if language == "de" else "en-GB"
    return javascript.Date.new(ms).toLocaleString(locale, {"dateStyle": "medium", "timeStyle": "short"})


# -- rooms: the relay websocket, random nonces, sharing -------------------------------------
class RelaySocket:
    """A websocket to the room relay that speaks Python dicts (JSON through the browser)."""

    def __init__(self, url, on_open, on_message, on_close):
        self.ws = scope.WebSocket.new(url)
        self.ws.addEventListener("open", guarded(lambda _event: on_open()))
        self.ws.addEventListener("message", guarded(lambda event: self.receive(event, on_message)))
        self.ws.addEventListener("close", guarded(lambda event: on_close(int(event.code))))

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
    scheme = "wss:" if page_fact("protocol") == "https:" else "ws:"
    return RelaySocket(scheme + "//" + page_fact("host", "") + path, on_open, on_message, on_close)


def random_hex(count):
    """Return `count` random bytes as hex (crypto.getRandomValues works without a secure context)."""
    values = scope.Uint8Array.new(count)
    scope.crypto.getRandomValues(values)
    digits = "0123456789abcdef"
    out = []
    for index in range(count):
        byte = int(values[index])
        out.append(digits[byte >> 4] + digits[byte & 15])
    return "".join(out)


def page_origin():
    """Return this page's origin, e.g. http://192.168.1.5:8000."""
    return page_fact("origin", "")


def share_link(text, title, on_done):
    """Share a link (the system's share sheet where there is one, else the clipboard); on_done("shared"|"copied"|"failed")."""
    ask("share-link", on_done, text, title)


def online():
    """Return False when the browser knows it has no network."""
    return bool(scope.navigator.onLine)


# -- game night and transfer: files to save and open, requests to the transfer server ----------
def download(filename, text, mime="application/json"):
    """Offer text as a file to save (or share where the browser offers that for downloads)."""
    send("download", filename, text, mime)


def read_chosen_file(selector, on_text, limit):
    """Read the file chosen in a file input as text: on_text(text), or on_text(None) when it
    cannot be read, or "" when it is far larger than `limit` characters (then it is not read at all)."""
    ask("read-file", on_text, selector, limit)


def http_request(method, url, body, on_done, content_type="application/json"):
    """Send a request; on_done(status, text) with status 0 when the server cannot be reached."""
    options = {"method": method, "cache": "no-store"}
    if body is not None:
        options["body"] = body
        options["headers"] = {"Content-Type": content_type}

    done = guarded(on_done)

    def answered_request(response):
        status = int(response.status)
        response.text().then(lambda text: done(status, str(text)), lambda _e: done(0, ""))

    scope.fetch(page_origin() + url, options).then(answered_request, lambda _e: done(0, ""))


def can_share_files():
    """Return True where the browser can hand a file to other apps (Web Share with files: phones)."""
    return bool(page_fact("share_files", False))


def share_file(filename, text, title, on_done):
    """Hand a JSON file to another app (messenger, mail, files); on_done(True) when shared."""
    ask("share-file", lambda result: on_done(bool(result)), filename, text, title)

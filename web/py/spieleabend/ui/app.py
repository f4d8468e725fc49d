"""The app: owns settings, storage and the current screen; routes by URL hash."""

from spieleabend.storage import Storage
from spieleabend.ui import dom, i18n
from spieleabend.ui.i18n import t
from spieleabend.games import GAME_MODULES
from spieleabend.ui.shell import FailureScreen, HomeScreen, PageReport

SEEN_VERSION_KEY = "seen_version"
FINAL_MARK = 'data-testid="final-headline"'  # in a drawing that shows a game's final standings (ui/final.py)


def game_in_room(app, game):
    """Return True when this device's saved game of this kind is a room it hosts."""
    document = app.storage.load_game(game) if game in GAME_MODULES else None
    return document is not None and "room" in document["meta"]


def whole_param(name, signed=False):
    """Return a URL parameter that is a whole number (negative only when `signed`), or None."""
    value = dom.url_param(name)
    digits = value.lstrip("-") if value and signed else value
    return int(value) if digits and digits.isdigit() else None


STORAGE_FULL_EVERY_MS = 60000  # a full storage is said again after this long, not after every move


def table_module():
    """Return spieleabend.ui.table, imported when a game screen first asks (it is not a start module)."""
    return __import__("spieleabend.ui.table", fromlist=["game_screen"])


class App(PageReport):
    """The running app (in its worker; the page draws what it sends)."""

    def __init__(self):
        self.storage = Storage(dom.local_storage(), dom.JsonCodec, dom.now_ms)
        self.settings = self.storage.load_settings(dom.browser_language())
        # Hooks for testers: `seed` makes deals and computer choices reproducible, `pace` sets the ms
        # between computer moves, `standin` the ms a room seat may stay away before a computer plays it.
        self.fixed_seed = whole_param("seed", signed=True)
        self.seed_uses = 0
        self.fixed_pace = whole_param("pace")
        self.fixed_stand_in = whole_param("standin")
        self.screen = None
        self.final_drawn = False  # the screen drawn last showed a game's final standings
        self.awake = False  # the page is asked to keep the screen on (a room is open on this device)
        self.your_turn_drawn = False  # the screen drawn last waited for this device's person
        self.just_updated = self.note_release()
        self.restarting = False  # the person asked for the waiting release; the page reloads once it took over
        self.storage_full_told = -STORAGE_FULL_EVERY_MS  # when "storage is full" was last said
        self.offline_ready = False  # this visit cached the release: the home screen says it starts offline
        i18n.set_language(self.settings["language"])
        self.apply_settings()

    # -- settings and display --------------------------------------------------------
    def reduce_motion(self):
        """Return True when animations should be left out."""
        if self.settings["motion"] == "system":
            return dom.prefers_reduced_motion()
        return self.settings["motion"] == "reduce"

    def apply_settings(self):
        """Apply language and display settings to the page."""
        i18n.set_language(self.settings["language"])
        dom.apply_display(self.settings, self.reduce_motion())
        dom.set_document_language(self.settings["language"], t("app.title"))

    def save_settings(self):
        """Store the settings; warn if the browser refused."""
        if not self.storage.save_settings(self.settings):
            self.toast(t("error.storage_full"))

    def note_release(self):
        """Remember the release version; return True when it changed since the last start."""
        version = dom.release_version()
        seen = self.settings.get(SEEN_VERSION_KEY)
        if version and seen != version:
            self.settings[SEEN_VERSION_KEY] = version
            self.storage.save_settings(self.settings)
            return bool(seen)
        return False

    def computer_pace(self):
        """Return the ms between two computer moves: readable, shorter with reduced motion (?pace= for testers)."""
        if self.fixed_pace is not None:
            return self.fixed_pace
        return 350 if self.reduce_motion() else 900

    def toast_storage_full(self):
        """Tell the person that the browser refused to store the game (once a minute: not after every move)."""
        now = self.now()
        if now - self.storage_full_told >= STORAGE_FULL_EVERY_MS:
            self.storage_full_told = now
            self.toast(t("error.storage_full"))

    def update_waiting(self):
        return dom.update_waiting()

    def activate_update(self):
        """Let the waiting release take over now; the notice says so until the page reloads."""
        self.restarting = True
        dom.activate_update()
        self.rerender()

    # -- randomness ------------------------------------------------------------------
    def new_rng(self):
        """Return a generator for a new game: fixed by ?seed= for testers, else fresh."""
        from spieleabend.games.common import Rng  # compiled only once a game starts

        if self.fixed_seed is not None:
            self.seed_uses += 1
            return Rng(self.fixed_seed * 1000 + self.seed_uses - 1)
        return Rng(dom.random_seed() * 4096 + dom.now_ms() % 4096)

    # -- rooms --------------------------------------------------------------------------
    def open_room(self, game, options, seats, strength):
        """Open a room for a game from its start screen: the lobby takes these as its first options."""
        self.room_request = {"game": game, "options": options, "seats": seats, "strength": strength}
        self.go("room/host/" + game)

    def room_socket(self, on_open, on_message, on_close):
        """Open a websocket to the room relay (see spieleabend.ui.rooms)."""
        return dom.relay_socket(on_open, on_message, on_close)

    def room_nonce(self):
        """Return a fresh random nonce for a commitment (128 bits, hex)."""
        return dom.random_hex(16)

    def line_check_ms(self):
        """Return how often a room's socket checks its line when quiet (see rooms.RoomLink.check_line)."""
        return 2500

    def stand_in_ms(self):
        """Return how long a room seat may be away before a computer plays for it (?standin= for testers)."""
        return self.fixed_stand_in if self.fixed_stand_in is not None else 45000

    def page_origin(self):
        return dom.page_origin()

    def request(self, method, url, body, on_done, content_type="application/json"):
        """Ask the server: on_done(status, text), status 0 when it cannot be reached (no try when offline)."""
        if not dom.online():  # the browser knows there is no network
            on_done(0, "")
            return
        dom.http_request(method, url, body, on_done, content_type)

    def share_link(self, url, title, on_done):
        """Share or copy a link; on_done("shared" | "copied" | "failed")."""
        dom.share_link(url, title, on_done)

    # -- screens and routing ---------------------------------------------------------
    def route_screen(self, route):
        """Return the screen for a route."""
        if route == "settings":
            return __import__("spieleabend.ui.settings", fromlist=["x"]).SettingsScreen()
        if route == "night" or route.startswith("night/"):
            return __import__("spieleabend.ui.night", fromlist=["x"]).screen_for(self, route.split("/")[1:])
        if route.startswith("transfer/") or route == "open" or route.startswith("open/"):
            return __import__("spieleabend.ui.transfer", fromlist=["x"]).screen_for(self, route.split("/"))
        if route.startswith("replay/"):
            return __import__("spieleabend.ui.replay", fromlist=["x"]).screen_for(self, route.split("/"))
        if route == "results":
            return __import__("spieleabend.ui.results", fromlist=["x"]).ResultsScreen()
        if route.startswith("room/") or route.startswith("join"):
            return __import__("spieleabend.ui.room_screens", fromlist=["x"]).screen_for(self, route)
        if route.startswith("play/"):
            parts = route.split("/")
            if len(parts) > 2 and parts[2] in ("continue", "table") and game_in_room(self, parts[1]):
                return __import__("spieleabend.ui.room_screens", fromlist=["x"]).screen_for(self, "room/host/" + parts[1])
            game = parts[1] if len(parts) > 1 else ""
            if game in GAME_MODULES:
                if len(parts) > 2 and parts[2] in ("continue", "table"):
                    return table_module().continue_screen(self, game)
                return __import__("spieleabend.ui.setup", fromlist=["x"]).SetupScreen(self, game)
        return HomeScreen()

    def go(self, route, replace=False):
        """Show the screen of a route and make it a history entry."""
        dom.set_hash_route(route, replace)
        self.show(self.route_screen(route))

    def show(self, screen, route=None):
        """Replace the current screen (and make `route` a history entry if given)."""
        if route is not None:
            dom.set_hash_route(route)
        if self.screen is not None:
            self.screen.leave(self)
        self.screen = screen
        self.draw()  # now, even while its table is about to draw: scrolling and focus below follow it
        dom.scroll_to_top()  # the tap that opened it may have been far down the screen before
        dom.focus("h1")

    def room_links(self):
        """Return the relay links of the shown screen's room (a host's, a phone's or a table screen's)."""
        links = []
        for holder in (getattr(self.screen, "room", None), getattr(self.screen, "table", None)):
            link = getattr(holder, "link", None)
            if link is not None:
                links.append(link)
        return links

    def rerender(self):
        """Draw the current screen again from its data (the page keeps keyboard focus in place)."""
        if self.drawing_due():
            return  # its room table draws in a moment, with what this drawing would have shown
        self.draw()

    def draw(self):
        """Draw the current screen from its data now."""
        if hasattr(self.screen, "table"):
            table = table_module().game_screen(self.screen)[1]
            if table is not None:
                table.hold_views(self.draw_now)  # its views are asked for several times, made once
                return
        self.draw_now()

    def draw_now(self):
        html = self.screen.render(self)
        marks = self.marks()
        dom.set_html(html, self.screen.keys, marks)
        # A game's final standings that come without a tap at the top of the screen (Mau-Mau's last card, a
        # computer's or another phone's last move) open at the top: who won is in sight, not the hand's place.
        final = FINAL_MARK in html
        if final and not self.final_drawn:
            dom.scroll_to_top()
        self.final_drawn = final
        # In a room the screen stays on: a table screen is never touched, and a phone waits for the others.
        awake = any(link.state != "closed" for link in self.room_links())
        if awake != self.awake:
            self.awake = awake
            dom.keep_screen_on(awake)
        # The turn coming round in a room buzzes once: the phone may lie on the table while the others move.
        your_turn = awake and self.waits_for_you(marks)
        if your_turn and not self.your_turn_drawn and self.settings["vibrate"]:
            dom.vibrate()
        self.your_turn_drawn = your_turn

    def waits_for_you(self, marks):
        """Return True while the game waits for this device's person, or for the host's answer to their move: a
        turn that goes on after it (Golf's draw, then the discard; Mau-Mau's ace) has not come round again."""
        if marks["turn"] is not None and "you" in marks["turn"].split(" "):
            return True
        table = table_module().game_screen(self.screen)[1] if hasattr(self.screen, "table") else None
        return getattr(table, "acted_on", None) is not None

    def drawing_due(self):
        """Return True while the current screen's room table is about to draw by itself (see table.drawing_due)."""
        if not hasattr(self.screen, "table"):
            return False
        return table_module().drawing_due(self.screen)

    def marks(self):
        """Return the testers' root attributes for the current screen (data-turn, data-seat, data-scores, data-animating)."""
        if not hasattr(self.screen, "table"):
            return {"turn": None, "animating": False, "scores": None, "seat": None}
        return table_module().page_marks(self.screen)

    def refresh_marks(self):
        """Send the root attributes again without drawing (a computer's move was just scheduled)."""
        dom.set_marks(self.marks())

    def fail(self, error):
        """Show what failed and a way on (home, reload) instead of a blank screen; saves stay as they are."""
        if isinstance(self.screen, FailureScreen):
            return
        failed, self.screen = self.screen, FailureScreen(error)
        try:
            if failed is not None:
                failed.leave(self)  # its timers and room links stop: nothing draws over this screen
        except Exception:
            pass
        self.rerender()
        dom.focus("h1")

    def reload(self):
        """Start the app afresh from storage (a room host takes its room back)."""
        dom.reload_page()

    def scroll_to_top(self):
        """Scroll the page to its top (a new round: names and round number in sight)."""
        dom.scroll_to_top()

    def focus(self, selector):
        """Move keyboard focus to the first element matching selector (after what was drawn so far)."""
        dom.focus(selector)

    def now(self):
        """Return the time in ms since the epoch."""
        return dom.now_ms()

    def later(self, handler, ms):
        """Call handler after ms milliseconds; return a timer id."""
        return dom.later(handler, ms)

    def cancel(self, timer):
        """Cancel a timer from `later`."""
        dom.cancel(timer)

    def output(self, element_id, text):
        """Set the text of one element without drawing the screen again."""
        dom.set_text(element_id, text)

    def toast(self, text):
        """Show a short message."""
        dom.toast(text)

    def format_time(self, ms):
        """Return a local date and time for a timestamp in ms."""
        return dom.format_time(ms, self.settings["language"])

    # -- what the page reports: taps, typing, keys, the URL, a waiting release ----------------
    def on_message(self, message):
        """Handle one message from the page (see index.html); a page that sends nonsense changes nothing."""
        kind = message.get("type")
        if isinstance(message.get("fields"), dict):
            self.fields = message["fields"]
        if kind == "click":
            self.dispatch(message.get("action"), message.get("value"))
        elif kind == "input" and message.get("name"):
            self.screen.on_input(self, message["name"], message.get("value"), bool(message.get("final")))
        elif kind == "key" and isinstance(message.get("key"), str):
            self.key_focus = message.get("focus") if isinstance(message.get("focus"), dict) else {}
            self.screen.on_key(self, message["key"])
        elif kind == "route":
            dom.set_page_fact("hash", str(message.get("hash") or ""))
            self.show(self.route_screen(dom.hash_route()))
        elif kind == "update":
            dom.set_page_fact("update_waiting", True)
            if self.screen.route == "":
                self.rerender()
        elif kind == "online":
            # The network is back: a room waiting for its next try goes now, not when its timer (up to 30 s) says.
            for link in self.room_links():
                if link.state == "retrying":
                    link.retry_now()
        elif kind == "offline":
            # The device lost its network (Wi-Fi off, flight mode): a room's line is lost now, and says so.
            for link in self.room_links():
                link.line_lost()
        elif kind == "offline-ready":
            # Said at the home screen's foot: a toast came over whatever a first visit was doing by then.
            self.offline_ready = True
            if self.screen.route == "":
                self.rerender()
        elif kind == "storage-refused":
            # The copy here took a write the browser then refused: take storage back as it is, and write
            # again what the screen's table wrote (now refused here, where old replays make room first).
            backend = self.storage.backend
            key = message.get("key")
            if isinstance(message.get("items"), dict) and isinstance(message.get("write"), int) and \
                    hasattr(backend, "resync"):
                backend.resync(message["items"], message["write"])
                if hasattr(self.screen, "storage_refused") and self.screen.storage_refused(self, key):
                    self.rerender()  # the screen says what was not kept
                    return
                if table_module().write_again(self, key):
                    return
            self.toast_storage_full()
            self.rerender()  # what the screen shows may not have been kept
        elif kind == "stored" and isinstance(message.get("key"), str):
            taken = self.storage.backend.changed_elsewhere(message["key"], message.get("value"), message.get("writes_done"))
            if taken and hasattr(self.screen, "table"):
                table_module().saved_elsewhere(self, message["key"])

    def dispatch(self, action, value):
        """Send an action to the screen; an error is shown, never swallowed silently."""
        if action == "dismiss-notice":  # the banners of set-aside documents, on whichever screen showed them
            self.storage.notices = []
            self.rerender()
            return
        try:
            self.screen.handle(self, action, value)
        except ValueError as error:
            table = table_module()  # not a start module: the engines' errors come with a game's screen
            if isinstance(error, table.IllegalAction):
                self.toast(table.refusal_text(error))
            else:
                self.toast(t("error.generic", message=str(error)))


def start():
    """Start the app in this worker: the page's facts, the first screen (app-worker.js then tells the page)."""
    dom.start_page()
    app = App()
    dom.on_failure(app.fail)
    dom.listen(app.on_message, app.drawing_due)
    dom.guarded(lambda: app.show(app.route_screen(dom.hash_route())))()  # a reload at a broken save
    return app

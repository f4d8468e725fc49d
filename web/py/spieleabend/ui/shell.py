"""The home screen and what every screen shares (plain HTML from data; no browser import).

Settings and results live in their own modules, compiled only when opened: every
module Brython compiles at start-up delays the first screen.
"""

from spieleabend.games import GAME_MODULES, GAMES
from spieleabend.ui.html import attrs, button, escape
from spieleabend.ui.i18n import round_label, t

RED_SUITS = "♦♥"


LONG_TITLE = 18  # characters that fit two lines of the header beside "‹ Startseite" on a 360 px phone


def page(title, body, back=True, extra_class=""):
    """Return a screen with a header bar (title and a way back home) around body."""
    back_button = ""
    if back:
        back_button = '<a class="btn btn-ghost back" href="#/" data-testid="nav-home">‹ %s</a>' % escape(t("nav.home"))
    long_title = back and len(title) > LONG_TITLE
    return ('<div class="screen %s"><header class="bar">%s<h1%s>%s</h1></header>'
            '<main class="content">%s</main></div>' % (extra_class, back_button, ' class="long"' if long_title else "",
                                                       escape(title), body))


def sheet(testid, title, content):
    """Return a panel over the screen with "Schließen" (action close-panel): a round log, a score table.

    title None: the content brings its own heading (id sheet-h), as Golf's score sheet does."""
    heading = '<h2 id="sheet-h">%s</h2>' % escape(title) if title is not None else ""
    return ('<div class="sheet-backdrop"><div class="sheet" role="dialog" aria-modal="true" aria-labelledby="sheet-h" '
            'data-testid="%s"><div class="sheet-head">%s%s</div>%s</div></div>' % (
                testid, heading, button(t("table.close"), "close-panel", "close-panel", kind="ghost"), content))


NAME_LENGTH = 24  # a name fits a seat's label on a phone


def clean_name(text):
    """Return a typed name as the app keeps it: without outer spaces, at most NAME_LENGTH characters."""
    return (text or "").strip()[:NAME_LENGTH]


def setup_choices(app, game, defaults):
    """Return a game's last start-screen choices (kept in the settings), defaults for anything missing."""
    setups = app.settings["setup"]
    stored = setups[game] if game in setups else {}
    choices = dict(defaults)
    for key in defaults:
        if key in stored and (defaults[key] is None or stored[key] is None
                              or type(stored[key]) is type(defaults[key])):
            choices[key] = stored[key]
    return choices


def remember_setup(app, game, choices):
    """Keep a game's start-screen choices for the next visit."""
    app.settings["setup"][game] = dict(choices)
    app.save_settings()


def transfer_link(game):
    """Return the link that carries a running or paused game to another device (#/transfer/<game>)."""
    return '<a class="btn btn-ghost" href="#/transfer/%s" data-testid="transfer">%s</a>' % (
        escape(game), escape(t("home.transfer")))


def home_transfer_link(save):
    """Return the home screen's small "move to another device" link beside a game's Fortsetzen (not for rooms)."""
    if "room" in save["meta"]:
        return ""
    return '<a class="btn btn-ghost transfer-small" href="#/transfer/%s" data-testid="transfer-%s" aria-label="%s">⇄</a>' % (
        escape(save["game"]), escape(save["game"]), escape(t("home.transfer_game", game=t("game." + save["game"]))))


def pass_people(meta):
    """Return the names of the people of a saved game played by several on this device, else []."""
    players = meta.get("players") if meta.get("pass") else None
    if not isinstance(players, list):
        return []
    return [player["name"] for player in players
            if isinstance(player, dict) and player.get("kind") == "person" and isinstance(player.get("name"), str)]


def room_button():
    """Return the start screen's "Zusammen spielen" button (the screen calls app.open_room on it)."""
    return button(t("home.together"), "open-room", "open-room", kind="secondary", extra="wide")


def room_entry(app):
    """Return the home screen's room entry: back into this device's room, and "Raum beitreten"."""
    room = app.storage.load_room()
    back = ""
    if room is not None and room["role"] in ("seat", "screen") and "token" in room:
        back = '<a class="btn btn-primary" href="#/room/play" data-testid="room-rejoin">%s</a>' % escape(
            t("home.back_to_room", code=room["code"]))
    elif room is not None and room["role"] == "host" and "token" in room and room.get("game") in GAME_MODULES:
        # The host went home between games: the phones wait in its room, which it may take up or end there.
        back = '<a class="btn btn-primary" href="#/room/host/%s" data-testid="room-rejoin">%s</a>' % (
            room["game"], escape(t("home.back_to_room", code=room["code"])))
    return '<nav class="room-entry row" aria-label="%s">%s<a class="btn btn-secondary" href="#/join" data-testid="join-room">%s</a></nav>' % (
        escape(t("home.join_room")), back, escape(t("home.join_room")))


def damaged_text(notice):
    """Return the words for a document storage set aside: what it was and that nothing is lost (not its key)."""
    name = notice["key"][len("spieleabend."):]
    if name.startswith("save.") and name[len("save."):] in GAME_MODULES:
        text = t("home.damaged.save", game=t("game." + name[len("save."):]))
    elif name in ("settings", "results", "night", "room"):
        text = t("home.damaged." + name)
    else:
        text = t("home.damaged.other")
    if notice["reason"].startswith("newer format"):
        text += " " + t("home.damaged_newer")
    return text + " " + t("home.damaged_kept")


class NewOnce:
    """Tell whether something a screen shows is new, so its animation plays once: true in the drawings of
    the task that first showed it (one tap can draw a screen several times), false in later redraws."""

    def __init__(self):
        self.key = None
        self.settled = False
        self.first_drawn = 0  # when `key` was first drawn (ms since the epoch): its animations start no earlier

    def is_new(self, app, key):
        """Return True while `key` (what is shown) is new."""
        if key != self.key:
            self.key = key
            self.settled = False
            self.first_drawn = app.now()

            def settle():
                if self.key == key:
                    self.settled = True
            app.later(settle, 0)
        return not self.settled


class PageReport:
    """What the page sent with its last tap or key: the form fields' values and where keyboard focus
    was (the app's Python runs in a worker and cannot look). Holders set `fields` and `key_focus`."""

    fields = {}
    key_focus = {}

    def field(self, element_id):
        """Return a form field's value (a checkbox's checked state), or None when the screen has no such field."""
        return self.fields[element_id] if element_id in self.fields else None

    def focused(self):
        """Return the data-testid of the element that had keyboard focus, or None."""
        return self.key_focus["testid"] if "testid" in self.key_focus else None

    def focused_columns(self, default):
        """Return how many columns the grid of the focused control has on this screen (a row for ↑ and ↓)."""
        columns = self.key_focus["columns"] if "columns" in self.key_focus else None
        return columns if isinstance(columns, int) and columns > 0 else default

    def focused_value(self):
        """Return the data-value of the element that had keyboard focus, or None."""
        return self.key_focus["value"] if "value" in self.key_focus else None

    def focus_within(self, testid):
        """Return True when keyboard focus was inside the element with this data-testid."""
        return "within" in self.key_focus and testid in (self.key_focus["within"] or [])


class Screen:
    """A screen renders HTML and reacts to actions; the app does the DOM work."""

    route = ""

    @property
    def keys(self):
        """The keys on_key takes over from the browser, e.g. "ArrowLeft Space@hand": the page keeps back
        their default action (scrolling, a focused button's click); "@hand" only while focus is inside
        the element with data-testid "hand" or nowhere. Enter and Space on a focused button or link are
        otherwise that control's, even where the screen names them. By default Enter while it stands for a
        tap (enter_action)."""
        return "Enter" if self.enter_action() is not None else ""

    def enter_action(self):
        """Return the data-action Enter stands for now (wherever focus is), or None."""
        return None

    def press_enter(self, app):
        """Do the tap Enter stands for now; return True if it stood for one."""
        action = self.enter_action()
        if action is not None:
            self.handle(app, action, None)
        return action is not None

    def render(self, app):
        return ""

    def handle(self, app, action, value):
        """React to a tap on an element with data-action."""

    def on_input(self, app, name, value, final):
        """React to an input or select with data-input (final: the change is complete)."""

    def on_key(self, app, key):
        """React to a key press; return True if it was used."""
        return False

    def leave(self, app):
        """Stop timers before another screen takes over."""


def storage_notices(app):
    """Return a banner for each stored document set aside during this run (any screen that read one shows them)."""
    out = []
    for notice in app.storage.notices:
        out.append('<div class="notice warn" role="alert" data-testid="damaged-notice"><p>%s</p>%s</div>' % (
            escape(damaged_text(notice)),
            button(t("home.dismiss"), "dismiss-notice", "dismiss-notice", kind="ghost")))
    return "".join(out)


class HomeScreen(Screen):
    """The start: the five games, saved games to continue, results and settings."""

    route = ""

    def render(self, app):
        parts = ['<section class="hero"><div class="hero-cards" aria-hidden="true">'
                 '<span class="mini-card red">K♥</span><span class="mini-card">A♠</span>'
                 '<span class="mini-card red">7♦</span></div>'
                 '<p class="tagline">%s</p></section>' % escape(t("app.tagline"))]
        saves = app.storage.saved_games(GAME_MODULES)  # first: it may set damaged saves aside
        parts.append(storage_notices(app))
        parts.append(self.update_notices(app))
        parts.append(room_entry(app))
        if saves:
            items = []
            for save in saves:
                meta = save["meta"]
                label = t("home.continue_game", game=t("game." + save["game"]),
                          round=round_label(save["game"], meta.get("round", "?")))
                people = pass_people(meta)
                if people:  # several people on this device: whose game it is
                    label += " · " + ", ".join(people)
                items.append('<li class="continue-row">%s%s</li>' % (button(label, "continue", "continue-" + save["game"],
                                                   kind="primary", data_value=save["game"]), home_transfer_link(save)))
            parts.append('<section aria-labelledby="continue-h"><h2 id="continue-h">%s</h2>'
                         '<ul class="stack">%s</ul></section>' % (escape(t("home.continue")), "".join(items)))
        cards = []
        for entry in GAMES:
            game, suit = entry["module"], entry["suit"]
            title = escape(t("game." + game))
            inner = ('<span class="suit%s" aria-hidden="true">%s</span><span class="game-text"><strong>%s</strong>'
                     '<span>%s</span></span>' % (" red" if suit in RED_SUITS else "", suit, title, escape(t("blurb." + game))))
            cards.append('<li><a%s>%s<span class="go" aria-hidden="true">›</span></a></li>' % (
                attrs(class_="game-tile", href="#/play/" + game, data_testid="game-" + game), inner))
        parts.append('<section aria-labelledby="games-h"><h2 id="games-h">%s</h2><ul class="games">%s</ul></section>'
                     % (escape(t("home.games")), "".join(cards)))
        parts.append('<nav class="home-nav" aria-label="%s">%s%s</nav>' % (
            escape(t("app.title")),
            '<a class="btn btn-secondary" href="#/night" data-testid="nav-night">%s</a>'
            '<a class="btn btn-secondary" href="#/open" data-testid="open-transfer">%s</a>'
            '<a class="btn btn-secondary" href="#/results" data-testid="nav-results">%s</a>' % (
                escape(t("home.night")), escape(t("home.open_game")), escape(t("home.results"))),
            '<a class="btn btn-secondary" href="#/settings" data-testid="nav-settings">%s</a>' % escape(t("home.settings"))))
        if getattr(app, "offline_ready", False):
            # At the foot: it comes a few seconds into a first visit, and above the games it would push them down.
            parts.append('<p class="notice" role="status" data-testid="offline-ready">%s</p>' % escape(t("home.offline_ready")))
        return page(t("app.title"), "".join(parts), back=False, extra_class="home")

    def update_notices(self, app):
        """Return the banners of a waiting update and a finished one."""
        out = []
        if app.update_waiting():
            out.append('<div class="notice" role="status" data-testid="update-waiting"><p>%s</p>%s</div>' % (
                escape(t("home.update_waiting")),
                button(t("home.restarting") if app.restarting else t("home.update_now"), "update-now", "update-now",
                       kind="ghost", disabled=app.restarting)))
        elif app.just_updated:
            out.append('<div class="notice" role="status" data-testid="updated"><p>%s</p></div>' % escape(t("home.updated")))
        return "".join(out)

    def handle(self, app, action, value):
        if action == "continue":
            app.go("play/" + value + "/continue")
        elif action == "update-now":
            app.activate_update()


class FailureScreen(Screen):
    """What a person sees instead of a blank or frozen screen when the app's code failed."""

    def __init__(self, error):
        self.detail = "%s: %s" % (type(error).__name__, error)

    def render(self, app):
        body = ('<div class="notice warn" role="alert" data-testid="failure"><p>%s</p><p class="detail">%s</p></div>'
                '<div class="controls">%s</div>' % (
                    escape(t("error.failed")), escape(t("error.failed_detail", message=self.detail)),
                    button(t("error.reload"), "reload", "failure-reload", kind="primary")))
        return page(t("error.failed_title"), body)  # its header's "Startseite" is the other way on

    def handle(self, app, action, value):
        if action == "reload":
            app.reload()

"""Devices (a browser context each, with every websocket frame it received) and rooms of any game."""

import json
import re
import time

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from spieleabend.games import load as load_engine
from spieleabend.testing import frames as relay_frames
from spieleabend.testing import readers
from spieleabend.testing.browser import ConsoleWatch, check_game, choice, phone_context, screen_context

JOIN_LINK = re.compile(r"^https?://[^/]+/#/join/[2-9A-Z]{6}\.[A-Za-z0-9_-]{16}$")


# What a failed test's report says about a page: its route, whose turn it is and its room link's state.
DESCRIBE_PAGE = """() => { const r = document.documentElement, s = document.querySelector('[data-testid=room-status]');
  return location.hash + ' turn=' + r.getAttribute('data-turn') + ' seat=' + r.getAttribute('data-seat')
    + ' room=' + (s ? s.dataset.state : '-') + ' busy=' + r.hasAttribute('data-busy'); }"""


# What Device.reload waits for again: a room link (room-status) and a game's table (<html data-turn>).
SHOWN = """() => ({status: !!document.querySelector('[data-testid=room-status]'),
  table: document.documentElement.hasAttribute('data-turn')})"""
SHOWN_AGAIN = """before => { const s = document.querySelector('[data-testid=room-status]');
  if (before.status && (!s || s.dataset.state === 'connecting')) return false;
  if (!before.status && s && s.dataset.state === 'connecting') return false;
  return !before.table || document.documentElement.hasAttribute('data-turn'); }"""


class Device:
    """One browser context (a phone, the host, or a table screen) and every websocket frame it received."""

    def __init__(self, browser, name, landscape=False, locale="de-DE"):
        self.context = (screen_context if landscape else phone_context)(browser, locale=locale)
        self.page = self.context.new_page()
        self.name = name
        self.frames = []
        self.game_seat = None  # the seat it plays, read when the room's game starts (None: a screen)
        self.watch = ConsoleWatch(self.page)
        self.page.on("websocket", self.on_socket)

    def on_socket(self, ws):
        ws.on("framereceived", lambda payload: self.frames.append(payload))

    def by(self, testid):
        """Return the locator of a data-testid."""
        return self.page.get_by_test_id(testid)

    def wait(self, selector, **options):
        """Wait for a selector on this device's page; return its first element's locator."""
        self.page.wait_for_selector(selector, **options)
        return self.page.locator(selector).first

    def reload(self, *selectors):
        """Reload the page (it takes its place back by itself) and wait until it shows what it showed before:
        the app, the room link (where it had one) no longer connecting, the table (<html data-turn>) where a
        game ran, then `selectors`."""
        before = self.page.evaluate(SHOWN)
        self.page.reload()
        self.page.wait_for_selector("html[data-app-ready]")
        # A room place draws the table it had at once, marked connecting: wait for the host's fresh one.
        self.page.wait_for_function(SHOWN_AGAIN, arg=before)
        for selector in selectors:
            self.page.wait_for_selector(selector)

    def reconnect(self, timeout=15000):
        """Tap "Neu verbinden" as a person would once the network is back, unless the phone got back on
        its own first (it retries by itself, so the button can go just before the tap); wait until online."""
        online = "[data-testid=room-status][data-state=online]"
        button = self.by("room-reconnect")
        deadline = time.monotonic() + timeout / 1000
        while not self.page.locator(online).count():
            try:
                button.click(timeout=1000)
                break
            except PlaywrightTimeoutError:
                if time.monotonic() > deadline:
                    raise
        self.page.wait_for_selector(online, timeout=timeout)

    # -- readers through the documented hooks --------------------------------------------------
    def seat(self):
        return readers.my_seat(self.page)

    def whose_turn(self):
        return readers.whose_turn(self.page)

    def is_my_turn(self):
        return readers.is_my_turn(self.page)

    def wait_for_my_turn(self, timeout=None):
        readers.wait_for_my_turn(self.page, timeout)

    def is_over(self):
        return readers.is_over(self.page)

    def hand(self):
        return readers.hand(self.page)

    def scores(self):
        return readers.scores(self.page)

    # -- frames ---------------------------------------------------------------------------------
    def host_data(self):
        """Return the room data the host sent to this device, in order."""
        return relay_frames.host_data(self.frames)

    def tables(self):
        """Return the table messages (and reveals) this device received, in order."""
        return relay_frames.tables(self.frames)

    def console_errors(self):
        """Return the page's console errors, without the browser's own notes on closed websockets."""
        return [error for error in self.watch.errors if "WebSocket" not in error]

    def close(self):
        self.context.close()

    def describe(self, last_frames=6):
        """Return lines on what this device shows now and the last frames it received (for a failed test's report)."""
        lines = ["%s: %d frames received (the last %d without keep-alives)" % (self.name, len(self.frames), last_frames)]
        try:
            lines.append("  page %s" % self.page.evaluate(DESCRIBE_PAGE))
        except Exception as error:  # a closed or crashed page still gets its frames listed
            lines.append("  page unreadable: %s" % str(error).splitlines()[0])
        for text in last_said(self.frames, last_frames):
            lines.append("  <- " + (text if len(text) <= 200 else text[:200] + " …"))
        return lines


KEEP_ALIVE = ("ping", "pong")


def last_said(frames, count=6):
    """Return the last `count` frames as text, leaving out the relay's keep-alives (ping, pong)."""
    said = []
    for frame in reversed(frames):
        text = frame if isinstance(frame, str) else repr(frame)
        try:
            kind = json.loads(text).get("type")
        except (ValueError, AttributeError):
            kind = None
        if kind in KEEP_ALIVE:
            continue
        said.append(text)
        if len(said) == count:
            break
    return said[::-1]


class Devices:
    """Makes devices for one test and closes them after it; `errors()` lists their console errors."""

    def __init__(self, browser):
        self.browser = browser
        self.made = []

    def __call__(self, name, landscape=False, locale="de-DE"):
        device = Device(self.browser, name, landscape, locale)
        self.made.append(device)
        return device

    def errors(self):
        return [(device.name, error) for device in self.made for error in device.console_errors()]

    def describe(self):
        """Return what every device showed and last received, as text (the plugin adds it to a failed test's report)."""
        return "\n".join(line for device in self.made for line in device.describe())

    def close(self):
        for device in self.made:
            device.close()


def open_room(host, url, game, seed=5, setup=(), extra=""):
    """Open a game's start screen on the host (?seed=N&pace=0), tick `setup` (test ids), open its room; return the join link."""
    host.page.goto("%s/?seed=%d&pace=0%s#/play/%s" % (url, seed, extra, game))
    host.page.wait_for_selector("html[data-app-ready]")
    for testid in setup:
        choice(host.page, testid, game).check()
    host.by("open-room").click()
    host.page.wait_for_selector("[data-testid=room-qr][data-ready] svg")
    link = host.by("room-link").inner_text()
    assert JOIN_LINK.match(link), link
    # A server bound to 127.0.0.1 shows a localhost link (phones could not reach it anyway): join() opens only
    # the link's #/join/... part on `url`, so the kit plays such a room as well.
    return link


def join(device, url, link, name, as_screen=False, extra=""):
    """Join from the link's #/join/... part on this server (the link's LAN address may not reach a test server)."""
    device.page.goto(url + "/?pace=0" + extra + "#" + link.split("#", 1)[1])
    device.page.wait_for_selector("[data-testid=join-name]")
    device.by("join-name").fill(name)
    device.by("join-screen" if as_screen else "join-seat").click()
    device.page.wait_for_selector("[data-testid=room-waiting]")


def start_room(host, places, seats, screens=0):
    """Wait until `places` phones (and `screens` table screens) are in the lobby, choose `seats` and start the game."""
    host.page.wait_for_function("([places, screens]) => document.querySelectorAll("
                                "'[data-testid^=lobby-place-]').length >= places && "
                                "document.querySelectorAll('[data-testid^=lobby-screen-]').length >= screens",
                                arg=[places, screens])
    host.by("room-seats-%d" % seats).check()
    host.by("start-room-game").click()


class Room:
    """A room for one game: the host's device, its phones (in joining order) and its table screens (`screen`: the
    first, or None)."""

    def __init__(self, devices, url, game, phones=2, screen=True, seed=5, setup=(), seats=None, names=None,
                 host_plays=True, start=True, extra=""):
        check_game(game)
        self.game = game
        self.url = url
        self.host = devices("host")
        names = list(names or ["Anna", "Ben", "Carl", "Dora", "Emil", "Frida", "Gert"][:phones])
        self.phones = [devices(name.lower()) for name in names]
        self.screens = []
        self.link = open_room(self.host, url, game, seed=seed, setup=setup, extra=extra)
        for phone, name in zip(self.phones, names):
            join(phone, url, self.link, name)
        if screen:
            self.join_screen(devices("screen", landscape=True), "Tisch")
        self.host_plays = host_plays
        if not host_plays:
            self.host.by("host-plays").uncheck()
        people = len(self.phones) + (1 if host_plays else 0)
        self.seats = seats if seats is not None else max(people, load_engine(game).MIN_SEATS)
        if start:
            self.start()

    @property
    def players(self):
        """Return the devices that play a seat: the host (when it plays) and the phones."""
        return [self.host] + self.phones

    @property
    def screen(self):
        """Return the first table screen, or None."""
        return self.screens[0] if self.screens else None

    @property
    def devices(self):
        return self.players + self.screens

    def join_screen(self, device, name):
        """Join `device` to the room as one more table screen (before `start`)."""
        join(device, self.url, self.link, name, as_screen=True)
        self.screens.append(device)

    def start(self):
        """Start the game with `seats` seats (computers fill the rest); wait until every device shows it."""
        start_room(self.host, len(self.phones), self.seats, len(self.screens))
        for device in self.devices:
            device.page.wait_for_selector(readers.TURN, state="attached")
            device.game_seat = device.seat()

    def next_game(self, game, setup=(), seats=None, watching=()):
        """Play another game in the same room: back to the lobby after a finished game ("Neue Partie"),
        choose `game`, tick `setup` (test ids of its options), let the phones in `watching` watch, start with
        `seats` (default: the people who play) and wait until every device shows the new game."""
        check_game(game)
        if self.host.by("new-game").count():
            self.host.by("new-game").click()
        self.host.page.wait_for_selector("[data-testid=room-game-%s]" % game)
        self.host.by("room-game-%s" % game).check()
        self.game = game
        for testid in setup:
            choice(self.host.page, testid, game).check()
        for phone in watching:
            number = self.phones.index(phone) + 1
            self.host.by("watch-place-%d" % number).click()
            self.host.page.wait_for_selector("[data-testid=lobby-place-%d][data-watching]" % number)
        people = len(self.phones) - len(watching) + (1 if self.host_plays else 0)
        self.seats = seats if seats is not None else max(people, load_engine(game).MIN_SEATS)
        self.host.by("room-seats-%d" % self.seats).check()
        self.host.by("start-room-game").click()
        for device in self.devices:
            device.page.wait_for_selector("html[data-turn]:not([data-turn=over])", state="attached")
            device.game_seat = None if device in watching else device.seat()

    def device_of(self, seat):
        """Return the device that plays a game seat (None: a computer plays it)."""
        for device in self.players:
            if device.seat() == seat:
                return device
        return None

    def whose_turn(self):
        """Return the devices whose seat has something to do now."""
        return [device for device in self.players if device.is_my_turn()]

    def wait_until_over(self):
        """Wait until every device knows the game's outcome (<html data-turn="over">)."""
        for device in self.devices:
            device.page.wait_for_selector("html[data-turn=over]", state="attached")

    def check_secrets(self, **known):
        """Fail if any phone or the screen received something its seat may not see, in every game this room
        played: the frames are split by game (games_played) and each game's part is checked against the seat
        the device had in that game, so an evening's earlier games count too. `known` goes to the checker of
        the room's current game. Return {name: tally} of each device's part of the current game."""
        others = [device for device in self.devices if device is not self.host]
        parts = dict((device.name, relay_frames.games_played(device.frames)) for device in others)
        tallies = {}
        for device in others:
            assert parts[device.name], (device.name, "received no table")
            for game, seat, frames in parts[device.name]:
                extra = dict(known) if game == self.game else {}
                if game == "maumau" and "other_hands" not in extra:
                    # No phone's own view of a Mau-Mau game ever reached another device.
                    extra["other_hands"] = [hand for other in self.phones if other is not device
                                            for played, _, part in parts.get(other.name, [])
                                            if played == "maumau" for hand in relay_frames.hands_seen(part)]
                tallies[device.name] = relay_frames.check_frames(game, frames, seat, device.name, **extra)
            game, seat, _ = parts[device.name][-1]
            assert (game, seat) == (self.game, device.game_seat), (
                device.name, "its last table is not the seat its page shows", game, seat, device.game_seat)
        return tallies

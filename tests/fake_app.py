"""An app stand-in for running tables and screens in CPython: storage, clock, seeded games, manual timers."""

from spieleabend.games import load as load_engine
from spieleabend.games.common import Rng
from spieleabend.storage import Storage
from spieleabend.ui.shell import PageReport
from spieleabend.ui.table import Table
from tests.fake_storage import JSON_CODEC, Clock, FakeLocalStorage


class FakeApp:
    """The parts of ui.app.App that tables use; timers run only when the test says so."""

    def __init__(self, seed=7, backend=None):
        self.clock = Clock()
        self.backend = backend if backend is not None else FakeLocalStorage()
        self.storage = Storage(self.backend, JSON_CODEC, self.clock)
        self.seed = seed
        self.games_dealt = 0
        self.timers = {}
        self.next_timer = 1
        self.toasts = []

    def now(self):
        return self.clock()

    def new_rng(self):
        self.games_dealt += 1
        return Rng(self.seed * 1000 + self.games_dealt - 1)

    def later(self, handler, ms):
        timer = self.next_timer
        self.next_timer += 1
        self.timers[timer] = (ms, handler)
        return timer

    def cancel(self, timer):
        self.timers.pop(timer, None)

    def run_timers(self, limit=100000):
        """Fire pending timers (and the ones they start) until none is left; return how many fired."""
        fired = 0
        while self.timers and fired < limit:
            timer = min(self.timers)
            _ms, handler = self.timers.pop(timer)
            handler()
            fired += 1
        return fired

    def computer_pace(self):
        return 0

    def toast(self, text):
        self.toasts.append(text)

    def toast_storage_full(self):
        self.toasts.append("storage full")


class ScreenApp(FakeApp, PageReport):
    """FakeApp plus what screens call: settings, motion, drawing, navigation and opening a room."""

    def __init__(self, seed=7, backend=None, memory_aid=False, first_seed=0, motion=False):
        FakeApp.__init__(self, seed=seed, backend=backend)
        self.motion = motion  # animations on (the setting "full"); off by default, as tests read end states
        self.games_dealt = first_seed  # offset of the first deal's seed (seed * 1000 + offset)
        self.settings = self.storage.load_settings()
        self.settings["memory_aid"] = memory_aid
        self.screen = None
        self.shown = None
        self.route = None
        self.routes = []
        self.renders = 0
        self.html = ""
        self.room = None
        self.focus_requests = []  # selectors the screen asked to focus

    def reduce_motion(self):
        return not self.motion

    def rerender(self):
        self.renders += 1
        if self.screen is not None:
            self.html = self.screen.render(self)

    def show(self, screen, route=None):
        self.screen = self.shown = screen
        self.route = route
        self.routes.append(route)

    def go(self, route, replace=False):
        self.route = route
        self.routes.append(route)

    def scroll_to_top(self):
        self.scrolled_to_top = True

    def focus(self, selector):
        self.focus_requests.append(selector)

    def save_settings(self):
        self.storage.save_settings(self.settings)

    def output(self, element_id, text):
        pass

    def open_room(self, game, options, seats, strength):
        self.room = (game, options, seats, strength)


class ViewTable(Table):
    """The one stand-in for a table that only shows views: a room's phone (a seat) or screen (seat None).

    It has the real Table's verbs and capabilities (tests/test_table.py checks it against RemoteTable);
    `act` keeps what the phone would send in `sent`, and with `apply=True` also applies it, as the
    host's answer would; `arrive` is another seat's action coming in over the network.
    """

    def __init__(self, game, state, seat, apply=False, kind="remote"):
        Table.__init__(self)
        self.engine = load_engine(game)
        self.game = game
        self.state = state
        self.seat = seat
        self.role = "remote" if seat is not None else "screen"
        self.kind = kind
        self.apply = apply
        self.sent = []

    def view(self):
        return None if self.state is None else self.engine.view(self.state, self.seat)

    def names(self):
        return list(self.state["names"])

    def seats(self):
        return [{"name": name, "kind": self.kind, "away": False, "stand_in": False, "me": seat == self.seat}
                for seat, name in enumerate(self.state["names"])]

    def to_move(self):
        return list(self.engine.to_move(self.state))

    def outcome(self):
        return self.engine.outcome(self.state)

    def act(self, action, seat=None):
        self.sent.append(action)
        if self.apply:
            self.engine.apply_action(self.state, self.seat, action)
            self.changed()

    def arrive(self, seat, action):
        """Another seat's action arrives over the network."""
        self.engine.apply_action(self.state, seat, action)
        self.changed()

"""Tables: the one object a game screen talks to, wherever the game runs.

A screen never calls an engine, a computer player, storage or the network
itself. It holds a table and uses the same few verbs everywhere:

    table.view()          this device's view: its seat's `engine.view`, or the
                          public view (seat None) on a screen
    table.seat            this device's game seat, None for a screen
    table.role            "local" (solo), "host", "remote" (a phone) or "screen"
    table.seats()         [{"name", "kind": "person"|"computer"|"remote",
                            "away", "stand_in", "me"}] per game seat
    table.to_move()       the seats the game waits for now (never a seat that has
                          committed its secret choice)
    table.act(action)     play for this device's seat; raises IllegalAction
                          (local, host) or sends it (remote)
    table.listen(fn)      fn(event) after every change of the view
    table.edit(change)    local and host only: run `change(state)` (a between-deals
                          engine function such as Mau-Mau's add_seat), then save
    table.close()         stop timers when the screen is left
    table.can_pause(), can_rematch(), can_transfer(), can_edit_seats(), reads_from_afar()
                          what this device may do (screens ask these, never the role)
    table.rematch()       local only: the same game dealt again (a room's host goes
                          back to its lobby instead)

A game plugs in with its engine, its bot module and its screen module
`spieleabend.ui.<game>`, which defines `TableScreen(app, table)` (the running game
for any table; the start screen is the shared spieleabend.ui.setup) and optionally
`upgrade_save(document)` for saves of an older meta format. The engine's `progress(public view) ->
{"round": the round to show on "Fortsetzen", "done": rounds (or deals) finished, "scores": [total per seat]}`
feeds meta["history"] (the totals after i rounds, for the score chart). Nothing in this module knows a game.
"""

from spieleabend.games import load as load_engine
from spieleabend.games import check_saved_game, default_strength, load_bots, module_path, resolve_strength, strength_choice
from spieleabend.games.common import IllegalAction, Rng, copy_data
from spieleabend.games import replay as records
from spieleabend.ui.html import button, escape
from spieleabend.storage import RESULTS_KEY, SAVE_PREFIX
from spieleabend.ui.i18n import t
from spieleabend.ui.shell import Screen, page, storage_notices

PERSON = "person"      # plays on this device
COMPUTER = "computer"  # a computer player run by this device
REMOTE = "remote"      # a person on another device (rooms)


class ShownRefusal(IllegalAction):
    """A refusal already in the person's language (a room's "not sent"): shown as it is."""


def refusal_text(error):
    """Return the line a person reads when an action is refused.

    Engines refuse in English, for developers and tests; a person whose tap came late (another seat
    moved first, a view not fresh yet) only needs to know that the move did not count.
    """
    if isinstance(error, ShownRefusal):
        return str(error)
    return t("error.refused")


def screen_module(game):
    """Return a game's screen module (spieleabend.ui.<game>): its SetupScreen and TableScreen."""
    return __import__(module_path(game, "screen"), fromlist=["TableScreen"])


# The computers' names in every game, alone and in rooms.
COMPUTER_NAMES = ["Anna", "Ben", "Clara", "Deniz", "Emil", "Frieda", "Gustav", "Hanna", "Ilse"]


def flag(record, key):
    """Return bool(record.get(key)) without dict.get, whose miss raises and catches a KeyError inside
    Brython: a room's drawing asks this of every seat."""
    return key in record and bool(record[key])


def seat_player(name, kind, strength=None):
    """Return one seat's entry in a table's players list."""
    return {"name": name, "kind": kind, "strength": strength}


def computer_names(taken, count, avoid=()):
    """Return `count` computer names that none of `taken` (the table's players) or `avoid` has (case aside),
    numbered once the list runs out."""
    used = [name.lower() for name in list(taken) + list(avoid)]
    names = []
    for name in COMPUTER_NAMES:
        if len(names) < count and name.lower() not in used:
            names.append(name)
    number = len(taken) + 1
    while len(names) < count:
        name = "Computer %d" % number
        if name.lower() not in used and name not in names:
            names.append(name)
        number += 1
    return names


def tonights_people(app):
    """Return the names of tonight's people: those named for the game night and those who played in it."""
    current = app.storage.nights()["current"]
    if current is None:
        return []
    names = list(current["people"]) if "people" in current else []
    for result in app.storage.results():
        if result["night"] == current["id"]:
            names.extend([name for name in result["players"] if name not in result["computers"]])
    return names


def new_computer_names(app, taken, count):
    """Return names for `count` computers joining a table on this device: none of `taken` (the table's players)
    and none of tonight's people, as the night's table counts a name as one person (a computer "Ben" winning
    would give the real Ben the evening's point)."""
    return computer_names(taken, count, tonights_people(app))


def strength_choices(game):
    """Return [(level, name, one line)] of a game's computers, weakest first: Leicht, Mittel, Stark in every
    game (a game may name them its own way, as Punktejagd's rule text does)."""
    from spieleabend.ui.i18n import language, level_name

    bots = load_bots(game)
    side = 1 if language() == "en" else 0
    return [(level, level_name(game, level), bots.LEVEL_INFO[level][side]) for level in bots.STRENGTHS]


def chosen_strength(game, key):
    """Return the level a stored choice names (an earlier release's key included), the strongest if none."""
    return resolve_strength(load_bots(game), key)


def solo_players(person, seats, strength, avoid=()):
    """Return the players of a table on this device: the person at seat 0, computers (named none of `avoid`)
    after it."""
    return [seat_player(person, PERSON)] + [seat_player(name, COMPUTER, strength)
                                           for name in computer_names([person], seats - 1, avoid)]


def computer_players(table):
    """Return the names of a table's computer players (not a person's stand-in: that seat stays the person's)."""
    return [entry["name"] for entry in table.seats() if entry.get("kind") == COMPUTER]


def secret_of_a_person(engine, state, meta):
    """Return True while a person of several on this device has a secret choice made and not yet shown: the
    game's file would show it to whoever has the device (and taking the file back in would undo the reveal)."""
    if not meta.get("pass") or not engine.INFO["secret_choices"]:
        return False
    moving = engine.to_move(state)
    players = meta.get("players") or []
    return bool(moving) and any(seat not in moving and players[seat].get("kind") == PERSON
                                for seat in range(len(players)))


def result_entry(app, game, names, outcome, seat, started_at, night, history, room, computers=(), level=None):
    """Return a finished game as an entry of Ergebnisse (the same on a phone as on the device that ran it);
    `level`: the computers' level when they all played at one."""
    scores = list(outcome["scores"])
    return {
        "game": game, "finished_at": app.now(), "started_at": started_at,
        "players": list(names), "computers": list(computers), "level": level, "scores": scores,
        "winners": [names[seat] for seat in outcome["winners"]],
        "my_score": scores[seat] if seat is not None and seat < len(scores) else None,
        "seat": seat, "night": night, "history": list(history), "room": room,
    }


def keep_replay(app, document, seat):
    """Store a replay another device sent (a room's host, at the end) as this device's; return its id or None."""
    from spieleabend.storage import ImportProblem

    if document is None:
        return None
    try:
        document = dict(app.storage.parse_replay_file(document))
    except ImportProblem:
        return None  # the result is kept without a replay rather than with a wrong one
    document["seat"] = seat
    return app.storage.add_replay(document)


class Table:
    """What every table shares: listeners and the verbs' defaults."""

    role = "local"
    seat = None

    def __init__(self):
        self.listeners = []

    def listen(self, listener):
        """Call listener(event) after every change of the view."""
        self.listeners.append(listener)

    def changed(self, event=None):
        """Tell every listener that the view changed."""
        for listener in list(self.listeners):
            # A listener an earlier one removed (a room phone moving on to the next game drops the old game's
            # screen) must not hear the change: it would read the new game's view with the old game's screen.
            if listener in self.listeners:
                listener(event)

    # What this device may do with the table: screens ask these, never compare roles.
    def can_pause(self):
        """Return True when the game can be left and continued later from this device's save."""
        return False

    def can_rematch(self):
        """Return True when this device starts the next game of this table ("Neue Partie")."""
        return False

    def can_transfer(self):
        """Return True when the running game can be carried to another device (a game on this device only)."""
        return False

    def can_edit_seats(self):
        """Return True when this device may add or remove seats between deals (games that allow it)."""
        return False

    def reads_from_afar(self):
        """Return True for a table screen (a TV, a tablet): drawn large for people across the room; it never acts."""
        return False

    def to_move(self):
        """Return the seats the game waits for now."""
        return []

    def over(self):
        """Return True once the game has its outcome."""
        return self.outcome() is not None

    def computers_busy(self):
        """Return True while a computer's move is due (the screen changes by itself meanwhile)."""
        return False

    def seen_rounds(self):
        """Return how many scored rounds this device has shown as a reveal in this game, None if never kept."""
        return getattr(self, "seen_kept", None)

    def keep_seen(self, count, save=True):
        """Keep how many scored rounds were shown (tables with a save keep it there: a reload during a reveal shows it again)."""
        self.seen_kept = count

    def hold_views(self, work):
        """Return work() (tables that make views make each one once meanwhile: see LocalTable)."""
        return work()

    def close(self):
        """Stop timers (the screen is being left)."""


class LocalTable(Table):
    """A game run on this device: the engine, its computers (paced one by one) and the save."""

    role = "local"

    def __init__(self, app, game, state, meta):
        Table.__init__(self)
        self.app = app
        self.game = game
        self.plugin = screen_module(game)
        self.engine = load_engine(self.game)
        self.bots = load_bots(self.game)
        self.state = state
        self.meta = meta
        self.timer = None
        self.closed = False
        self.replay = None  # the finished game's replay document, once recorded (a room sends it to phones)
        self.held = None  # while views are held (hold_views): {seat or None: view}

    @property
    def seat(self):
        """Return this device's game seat (kept in the save's meta); None when it only shows the table."""
        return self.meta["seat"] if "seat" in self.meta else 0

    @seat.setter
    def seat(self, seat):
        self.meta["seat"] = seat

    # -- starting and continuing ---------------------------------------------------------
    @classmethod
    def new(cls, app, game, options, players, seat=0, extra_meta=None, **table_args):
        """Deal a new game for `players` (see seat_player) and save it; this device plays `seat`.

        `table_args` go to the constructor of a subclass (a host table's room).
        """
        engine = load_engine(game)
        rng = app.new_rng()
        options = dict(options)
        options["names"] = [player["name"] for player in players]
        record = records.start_record(engine, options, rng.state)  # the seed before the deal uses it
        state = engine.new_game(options, rng)
        meta = {"players": players, "seat": seat, "options": options, "bot_rng": rng.fork().state,
                "started_at": app.now(), "night": app.storage.night()["id"], "history": [], "round": 1,
                "record": record}
        if extra_meta:
            meta.update(extra_meta)
        table = cls(app, game, state, meta, **table_args)
        table.after_change(notify=False)
        return table

    @classmethod
    def load(cls, app, game):
        """Return the saved game of this kind as a table, or None when there is none; raise ValueError for a
        save that reads but that its engine cannot go on with (see check_saved_game)."""
        document = app.storage.load_game(game)
        if document is None:
            return None
        plugin = screen_module(game)
        try:
            if hasattr(plugin, "upgrade_save"):  # a save written before the game's current meta format
                plugin.upgrade_save(document)
            check_saved_game(document)
        except ValueError:
            raise
        except Exception as error:  # upgrade_save on a made-up meta
            raise ValueError("%s: %s" % (type(error).__name__, error))
        table = cls(app, game, document["state"], document["meta"])
        table.schedule_computers()  # computers whose move was due (or a round's commits) go on
        return table

    # -- the verbs -------------------------------------------------------------------------
    def view(self):
        """Return this device's view (the public one when it plays no seat)."""
        return self.view_of(self.seat)

    def view_of(self, seat):
        """Return the view of any seat, or the public view for None (local and host only)."""
        held = self.held
        if held is None:
            return self.make_view(seat)
        if seat not in held:
            held[seat] = self.make_view(seat)
        return held[seat]

    def make_view(self, seat):
        """Return a fresh view of a seat (None: the public one) from the engine."""
        return self.engine.view(self.state, seat)

    def hold_views(self, work):
        """Return work() with each seat's view made once meanwhile (a drawing asks for the same views several
        times, each a whole engine view in Brython); work must not change the game."""
        if self.held is not None:
            return work()
        self.held = {}
        try:
            return work()
        finally:
            self.held = None

    def names(self):
        """Return the seat names as the engine knows them."""
        return list(self.view_of(None)["names"])

    def players(self):
        """Return the players list, kept in step with the engine's seats."""
        return self.meta["players"]

    def seats(self):
        """Return per game seat: name, kind, whether away, played by a stand-in, and whether it is this device."""
        names = self.names()
        out = []
        for seat in range(len(names)):
            player = self.players()[seat] if seat < len(self.players()) else seat_player(names[seat], COMPUTER)
            out.append({"name": names[seat], "kind": player["kind"], "away": flag(player, "away"),
                        "stand_in": flag(player, "stand_in"), "me": seat == self.seat})
        return out

    def is_computer(self, seat):
        """Return True when this device plays the seat with a computer (a computer, or a stand-in)."""
        players = self.players()
        if seat >= len(players):
            return True
        player = players[seat]
        return player["kind"] == COMPUTER or flag(player, "stand_in")

    def act(self, action, seat=None):
        """Apply an action for this device's seat (or `seat`); IllegalAction leaves everything unchanged."""
        if seat is None:
            seat = self.seat
        if seat is None:
            raise IllegalAction("this device does not play a seat")
        self.apply(seat, action)
        self.after_change()

    def apply(self, seat, action, legal=None):
        """Apply one action with the engine and add it to the game's record (a refused one changes nothing).

        `legal`: the seat's legal actions when the caller holds them already (a computer's view).
        """
        record = self.meta["record"] if "record" in self.meta else None
        note = records.note_action(record, self.engine, self.state, seat, action, legal) if record is not None else None
        self.engine.apply_action(self.state, seat, action)
        if note is not None:
            records.keep_step(record, note)

    def change_seats(self, kind, value):
        """Seat a newcomer ("add", its name) or remove a seat ("remove", its seat) with the engine, recorded."""
        if kind == "add":
            result = self.engine.add_seat(self.state, value)
        else:
            result = self.engine.remove_seat(self.state, value)
        if "record" in self.meta:
            records.note_seat_change(self.meta["record"], kind, value)
        return result

    def edit(self, change):
        """Run change(state) (an engine function between deals), then save and tell the screen."""
        before = self.names()
        result = change(self.state)
        self.note_edit(before, self.names())
        self.sync_players()
        self.after_change()
        return result

    def note_edit(self, before, after):
        """Record what an edit did to the seats: one joined at the end, or one left; else the record stops."""
        if "record" not in self.meta:
            return
        record = self.meta["record"]
        if len(after) == len(before) + 1 and after[:-1] == before:
            records.note_seat_change(record, "add", after[-1])
        elif len(after) == len(before) - 1:
            seat = 0
            while seat < len(after) and after[seat] == before[seat]:
                seat += 1
            records.note_seat_change(record, "remove", seat)
        elif after != before:
            del self.meta["record"]  # a change a record cannot replay: this game keeps no replay

    def outcome(self):
        """Return the engine's outcome (None while the game runs)."""
        return self.engine.outcome(self.state)

    def to_move(self):
        return list(self.engine.to_move(self.state))

    def can_pause(self):
        return True

    def can_rematch(self):
        return True

    def can_transfer(self):
        return self.outcome() is None and not self.secret_of_a_person()

    def secret_of_a_person(self):
        return secret_of_a_person(self.engine, self.state, self.meta)

    def can_edit_seats(self):
        return self.engine.INFO["joins_between_deals"]

    def rematch(self):
        """Deal the same game again: the same players at the same seats, the same options and levels."""
        options = {}
        for key, value in self.meta.get("options", {}).items():
            if key != "names":
                options[key] = value
        players = [seat_player(player["name"], player["kind"], player.get("strength")) for player in self.players()]
        missing = self.engine.INFO["seats"]["min"] - len(players)  # seats left between deals (Mau-Mau)
        if missing > 0:
            players += [seat_player(name, COMPUTER, self.default_strength())
                        for name in new_computer_names(self.app, [player["name"] for player in players], missing)]
        options["seats"] = len(players)
        if self.meta.get("pass"):  # several people on this device: the same people, behind the cover again
            return LocalTable.new(self.app, self.game, options, players, seat=None, extra_meta={"pass": True})
        return LocalTable.new(self.app, self.game, options, players, seat=self.seat or 0)

    def seen_rounds(self):
        # Per seat: with several people on this device each has seen the reveals they were shown.
        seen = self.meta["seen"] if "seen" in self.meta else {}
        return seen[str(self.seat)] if str(self.seat) in seen else None

    def keep_seen(self, count, save=True):
        self.meta.setdefault("seen", {})[str(self.seat)] = count
        if not save:
            return
        if self.outcome() is None:
            self.save()
        elif self.meta.get("recorded") and not self.last_reveal_due():
            self.app.storage.delete_game(self.game)  # the last round was shown: the game lives on in Ergebnisse

    def last_reveal_due(self):
        """Return True while the person here has not been shown the finished game's last scored round yet
        (a reveal, a round's summary, a deal's settlement): its save is kept until then, so a reload shows it."""
        if self.meta.get("pass") or not self.can_pause():
            return False  # several people here see the end behind the cover; a room's host keeps no save to resume
        seen = self.seen_rounds()
        return seen is not None and seen < self.engine.progress(self.engine.view(self.state, None))["done"]

    def close(self):
        self.closed = True
        if self.timer is not None:
            self.app.cancel(self.timer)
            self.timer = None

    # -- after every change ----------------------------------------------------------------
    def sync_players(self):
        """Match the players list to the engine's seats after seats joined or left (by name)."""
        names = self.names()
        players = self.players()
        if len(players) == len(names) and [p["name"] for p in players] == names:
            return
        by_name = {}
        for player in players:
            by_name[player["name"]] = player
        fresh = []
        for name in names:
            fresh.append(by_name[name] if name in by_name else seat_player(name, COMPUTER, self.default_strength()))
        me = self.players()[self.seat]["name"] if self.seat is not None and self.seat < len(players) else None
        self.meta["players"] = fresh
        if me is not None:
            self.seat = names.index(me) if me in names else None

    def default_strength(self):
        """Return the strength the computers of this table play with."""
        for player in self.players():
            if player["kind"] == COMPUTER and player.get("strength"):
                return player["strength"]
        return default_strength(self.bots)

    def note_progress(self):
        """Keep the totals after each finished round (history[i]: after i rounds) and the round label."""
        progress = self.engine.progress(self.view_of(None))
        history = self.meta.setdefault("history", [])
        done = progress["done"]
        # Taken once, when the round ends: later totals may already hold points of the next round (Pao De
        # Kuai's bomb bonus is paid when the bomb is played), and the chart then started at +20.
        while len(history) <= done:
            history.append(list(progress["scores"]))
        del history[done + 1:]
        self.meta["round"] = progress["round"]

    def after_change(self, notify=True):
        """Save (or record the finished game), tell the screen, then let the computers move."""
        self.note_progress()
        if self.outcome() is not None:
            self.record_result()
        else:
            self.save()
        if notify:
            self.changed()
        self.schedule_computers()

    def save(self):
        """Store the game; warn the person when the browser refused."""
        if not self.app.storage.save_game(self.game, self.state, self.meta):
            self.app.toast_storage_full()

    def result_entry(self):
        """Return the finished game as an entry of Ergebnisse."""
        seat = None if self.meta.get("pass") else self.seat  # several people here: the game is all of theirs
        levels = [player.get("strength") for player in self.players() if player["kind"] == COMPUTER]
        level = resolve_strength(self.bots, levels[0]) if levels and levels.count(levels[0]) == len(levels) else None
        return result_entry(self.app, self.game, self.names(), self.outcome(), seat,
                            self.meta.get("started_at"), self.meta.get("night"), self.meta.get("history", []),
                            self.meta.get("room_code"), computer_players(self), level)

    def replay_document(self):
        """Return the finished game's replay (options, seed, actions), or None for a game begun without a record."""
        if "record" not in self.meta:
            return None
        return records.finish_record(self.meta["record"], self.game, self.names(), self.outcome()["scores"], {
            "seat": None if self.meta.get("pass") else self.seat,  # several people here: nobody's seat first
            "started_at": self.meta.get("started_at"), "finished_at": self.app.now(),
            "room": self.meta.get("room_code"), "computers": [seat for seat in range(len(self.names()))
                                                             if self.is_computer(seat)]})

    def record_if_missing(self):
        """Record a finished game that Ergebnisse does not hold (storage refused it); True when it tried."""
        started = self.meta.get("started_at")
        if self.outcome() is None or any(entry["game"] == self.game and entry.get("started_at") == started
                                         for entry in self.app.storage.results()):
            return False
        self.meta["recorded"] = False
        self.record_result()
        return True

    def record_result(self):
        """Put the finished game into Ergebnisse once (with its replay when there is room) and drop the save
        (after the last round was shown: see last_reveal_due)."""
        if self.meta.get("recorded"):
            return
        self.meta["recorded"] = True
        entry = self.result_entry()
        document = self.replay_document()
        if document is not None:
            self.replay = document
            entry["replay"] = self.app.storage.add_replay(document)  # None when even dropping old ones left no room
        if not self.app.storage.add_result(entry):
            # Storage full: keep the finished game's save rather than lose the game, and say so.
            if entry.get("replay"):
                self.app.storage.delete_replay(entry["replay"])  # it is made again when the result is
            self.meta["recorded"] = False
            self.app.toast_storage_full()
            self.app.storage.save_game(self.game, self.state, self.meta)
            return
        # The final standings offer to watch it, alone or at one device; in a room the replay would take this
        # device out of the room before the next game (an audit), so there it waits in Ergebnisse.
        self.replay_id = None if self.meta.get("room_code") else entry.get("replay")
        if self.last_reveal_due():
            self.save()  # marked recorded; it goes once the last round was shown (keep_seen)
        else:
            self.app.storage.delete_game(self.game)

    # -- computers ---------------------------------------------------------------------------
    def computer_seats(self):
        """Return the seats to move now that this device plays with a computer.

        A screen module may define `computers_wait(public view)`: while it returns True and a
        person may act too, the computers wait for that person (Mau-Mau's between-deals result).
        """
        moving = self.engine.to_move(self.state)
        seats = [seat for seat in moving if self.is_computer(seat) or self.move_without_asking(seat) is not None]
        if seats and len(seats) < len(moving) and hasattr(self.plugin, "computers_wait") and \
                self.plugin.computers_wait(self.engine.view(self.state, None)):
            return []
        return seats

    def move_without_asking(self, seat, view=None):
        """Return the move a person of several at this device makes without being handed it, else None.

        A screen module may define `move_without_asking(seat's view)`: the seat's only move, which
        shows its person nothing (Pao De Kuai's Passen when nothing beats the trick). Passing the device
        on for it would cost a handover and two taps for no choice; one person alone taps it as always.
        """
        if not self.meta.get("pass") or self.is_computer(seat) or not hasattr(self.plugin, "move_without_asking"):
            return None
        return self.plugin.move_without_asking(view if view is not None else self.view_of(seat))

    def secret_choices(self):
        """Return True for games where every seat chooses at once, in secret (computers commit at once)."""
        return self.engine.INFO["secret_choices"]

    def choose_for(self, seat):
        """Return the computer's action for a seat, from that seat's view only."""
        return self.computer_choice(seat)[0]

    def computer_choice(self, seat):
        """Return (the computer's action for a seat, from that seat's view only, the legal actions it saw); for a
        person's seat, their move without asking."""
        players = self.players()
        strength = players[seat].get("strength") if seat < len(players) else None
        view = self.engine.view(self.state, seat)
        legal = list(view["legal"]) if "legal" in view else None  # before the bot, which might change its view
        if not self.is_computer(seat):
            return self.move_without_asking(seat, view), legal  # the view made above, not a second one
        choose = strength_choice(self.bots, strength)
        rng = Rng(self.meta["bot_rng"])
        action = choose(view, rng)
        self.meta["bot_rng"] = rng.state
        return action, legal

    def schedule_computers(self):
        """Let computers move: all at once where choices are secret, else one at a readable pace."""
        if self.closed or self.timer is not None or self.outcome() is not None:
            return
        if self.secret_choices():
            moved = False
            for seat in self.computer_seats():
                action, legal = self.computer_choice(seat)
                self.apply(seat, action, legal)
                moved = True
            if moved:
                self.after_change()
            return
        if self.computer_seats():
            self.timer = self.app.later(self.computer_step, self.app.computer_pace())
            if hasattr(self.app, "refresh_marks"):
                self.app.refresh_marks()  # the screen now changes by itself: testers see data-animating

    def computer_step(self):
        """Apply one computer action (the timer fired)."""
        self.timer = None
        if self.closed:
            return
        seats = self.computer_seats()
        if not seats:
            return
        seat = seats[0]
        action, legal = self.computer_choice(seat)
        self.apply(seat, action, legal)
        self.after_change()

    def computers_busy(self):
        """Return True while a computer's move is due: its timer runs, or is about to be set once the change
        before it is drawn (after_change draws first; testers must not see a computer's turn as settled)."""
        if self.timer is not None:
            return True
        return not self.closed and not self.secret_choices() and self.outcome() is None and bool(self.computer_seats())


def seen_reveals(table, scored):
    """Return how many of the `scored` rounds this device has shown (a reveal, a round's summary); a game
    that never kept it (a save from an earlier release, a phone's first view) counts them all as seen."""
    seen = table.seen_rounds()
    if seen is None or seen > scored:
        seen = scored
        table.keep_seen(seen, save=False)  # saved with the next move
    return seen


def stood_in_since(table, events, is_move, made_move):
    """Return the index of `events` from which this device's seat's moves were a computer's, or len(events).

    While a room phone is away a computer plays its seat; once the phone is back its table's
    `stood_in` lists those actions until the person moves again, so the seat's last moves (one for
    each of them that `made_move(action)`) were the computer's. `is_move(events, index)`: that event is
    the seat's own move (the feed then words it "the computer ... for you", not "you ...")."""
    actions = getattr(table, "stood_in", None)
    left = len([action for action in actions if made_move(action)]) if actions else 0
    index = len(events)
    while left > 0 and index > 0:
        index -= 1
        if is_move(events, index):
            left -= 1
    return index


def scored_rounds(table, view):
    """Return how many rounds (or deals) of the game in `view` are scored: the engine's progress."""
    return load_engine(table.game).progress(view)["done"]


def reveal_due(table, view):
    """Return True while a scored round waits to be shown on this device (a reveal, a round's summary, a
    deal's settlement). The table keeps what was shown, so a reload during a reveal shows it again; the
    first call on a table counts the rounds scored before as shown."""
    scored = scored_rounds(table, view)
    return scored > seen_reveals(table, scored)


def reveal_shown(table, view):
    """Keep that every scored round of `view` was shown here (the person went on from it)."""
    table.keep_seen(scored_rounds(table, view))


def table_screen(app, table):
    """Return the screen of a table on this device: the game's own, behind a cover between people when
    several play on this device (spieleabend.ui.handover, compiled only for such a table)."""
    if table.meta.get("pass"):
        return __import__("spieleabend.ui.handover", fromlist=["x"]).HandoverScreen(app, table)
    return table.plugin.TableScreen(app, table)


def show_table(app, table):
    """Show a table on this device with its game's own table screen."""
    app.show(table_screen(app, table), route="play/%s/table" % table.game)


def table_action(app, table, action):
    """Do what a tap means at every game's table, whatever the game: "pause" (keep the save, go home) and
    "new-game" (the same game again); return True when the action was one of them."""
    if action == "pause":
        if table.can_pause():
            table.save()
        app.go("")
        return True
    if action == "new-game" and table.can_rematch():
        show_table(app, table.rematch())
        return True
    return False


def game_screen(screen):
    """Return the game's own screen inside a room's frame (or the screen itself) and its table, or (screen, None)."""
    for _ in range(3):
        inner = getattr(screen, "frame", None) or getattr(screen, "inner", None)
        if inner is None:
            break
        screen = inner
    table = getattr(screen, "table", None)
    return screen, table if isinstance(table, Table) else None


def drawing_due(screen):
    """Return True while the screen's room table is about to draw by itself (rooms.coalesce_changed: a burst
    of changes drawn once, or a drawing held for a round's reveal that is due): a drawing now would be
    drawn again at once, or only delay the moment the table waits for."""
    table = game_screen(screen)[1]
    return table is not None and getattr(table, "render_timer", None) is not None


def page_marks(screen):
    """Return the root attributes testers read (e2e/README.md): whose turn it is and whether the screen animates.

    "turn": the seats the game waits for, space-separated, plus "you" when one is this device's
    seat and it has something to do ("" while it waits for nobody, e.g. for reveals or the host's
    answer; "over" once the game has its outcome); None outside a game. "animating": a computer's move is due
    or the screen's cards are moving (the screen changes by itself until it is False again).
    "scores": every seat's total so far, space-separated (the engine's `progress`).
    "seat": this device's game seat, "" on a table screen.
    """
    screen, table = game_screen(screen)
    view = table.view() if table is not None else None
    if view is None:
        return {"turn": None, "animating": False, "scores": None, "seat": None}
    game = getattr(table, "game", None)
    scores = " ".join([str(score) for score in load_engine(game).progress(view)["scores"]]) if game else None
    over = table.over()
    moving = [] if over else table.to_move()
    words = [str(seat) for seat in moving]
    if table.seat is not None and table.seat in moving and view.get("legal"):
        words.append("you")
    if over:
        words = ["over"]
    animating = bool(getattr(screen, "flying", False)) or table.computers_busy()
    seat = "" if table.seat is None else str(table.seat)
    return {"turn": " ".join(words), "animating": animating, "scores": scores, "seat": seat}


class MissingSaveScreen(Screen):
    """Shown when Fortsetzen finds no saved game (for example after it was set aside as damaged)."""

    def __init__(self, game):
        self.game = game

    def render(self, app):
        ways_on = '<p class="row wrap">%s%s</p>' % (
            '<a class="btn btn-primary" href="#/play/%s">%s</a>' % (escape(self.game), escape(t("home.new_game"))),
            '<a class="btn btn-secondary" href="#/results" data-testid="to-results">%s</a>' % escape(t("home.results")))
        ended = self.just_ended(app)
        if ended is not None:  # a reload on the final standings: the game as Ergebnisse keeps it, with its replay
            from spieleabend.ui.results import ResultsScreen

            return page(t("game." + self.game), '%s<p class="notice" role="status" data-testid="game-ended">%s</p>%s%s' % (
                storage_notices(app), escape(t("home.game_ended")), ResultsScreen().item_alone(app, ended), ways_on))
        return page(t("game." + self.game), '%s<p class="empty" data-testid="no-save">%s</p>%s' % (
            storage_notices(app), escape(t("home.no_save")), ways_on))

    def just_ended(self, app):
        """Return the result of this game when it is the last one finished here, within the hour; else None."""
        results = app.storage.results()
        if results and results[0]["game"] == self.game and app.now() - results[0]["finished_at"] < 3600000:
            return results[0]
        return None


class PlayedElsewhereScreen(Screen):
    """Shown instead of a table whose save another tab of this browser changed: one game, played in one place."""

    # What the other tab did, as the save now says: the same game went on, a new one replaced it, or none is left.
    WORDS = {"went_on": ("home.played_elsewhere", "home.play_here"),
             "replaced": ("home.replaced_elsewhere", "home.play_new_here"),
             "gone": ("home.gone_elsewhere", "home.to_game_here")}

    def __init__(self, game, what="went_on"):
        self.game = game
        self.what = what
        self.route = "play/%s/table" % game

    def render(self, app):
        said, go_on = self.WORDS[self.what]
        return page(t("game." + self.game), '<div class="notice" role="status" data-testid="played-elsewhere" '
                    'data-what="%s"><p>%s</p></div><div class="controls">%s</div>' % (
                        self.what, escape(t(said)), button(t(go_on), "play-here", "play-here", kind="primary")))

    def handle(self, app, action, value):
        if action == "play-here":
            app.go("play/%s/continue" % self.game, replace=True)


def saved_elsewhere(app, key):
    """Another tab changed a stored document: if it is the save this device's table plays, stop the table
    here (its computers too) instead of going on from an older state and overwriting the newer one."""
    table = game_screen(app.screen)[1]
    # Only a game continued from this device's save (a room's host keeps its room; it cannot pause).
    if table is None or not table.can_pause() or key != SAVE_PREFIX + table.game:
        return
    saved = app.storage.load_game(table.game)
    if saved is None:
        what = "gone"
    elif saved["meta"].get("started_at") != table.meta.get("started_at"):
        what = "replaced"  # "Diese Partie ging weiter" would be untrue: the game here is gone
    else:
        what = "went_on"
    app.show(PlayedElsewhereScreen(table.game, what))


def write_again(app, key):
    """After the browser refused a write of the shown table's game: write it again; True when it did.

    Storage was taken back as it is, and what no longer fits is now refused before the browser sees it:
    a finished game whose result is missing records it again (old replays go first, else the save stays
    and the person is told), a running game saves again.
    """
    table = game_screen(app.screen)[1]
    if not isinstance(table, LocalTable) or isinstance(table, TrialTable) or \
            key not in (SAVE_PREFIX + table.game, RESULTS_KEY):
        return False
    if table.outcome() is None:
        table.save()
        return True
    return table.record_if_missing()


def continue_screen(app, game):
    """Return the saved game of this kind on a local table, drawn by its screen module's TableScreen.

    A save its engine cannot go on with (its hands gone, a seat that is not there) is damaged data: it is set
    aside with the notice every damaged document gets, instead of failing now and again after every reload.
    One the engine goes on with but the table cannot draw is more likely the app's fault: the failure is
    shown and the save stays, for a release that draws it (App.fail)."""
    try:
        table = LocalTable.load(app, game)
        if table is None:
            return MissingSaveScreen(game)
        table.record_if_missing()  # a finished game kept because storage was full: into Ergebnisse once it fits
        return table_screen(app, table)
    except ValueError as problem:
        app.storage.set_aside_game(game, "cannot be continued (%s)" % problem)
        return MissingSaveScreen(game)


class TrialTable(LocalTable):
    """A received game drawn once before it may replace a save: it writes nothing and runs no computer."""

    def save(self):
        pass

    def keep_seen(self, count, save=True):
        LocalTable.keep_seen(self, count, save=False)

    def schedule_computers(self):
        pass


def check_drawable(app, document):
    """Raise ValueError unless this game's table can draw the document (checked on a copy, nothing stored)."""
    document = copy_data(document)
    try:
        plugin = screen_module(document["game"])
        if hasattr(plugin, "upgrade_save"):
            plugin.upgrade_save(document)
        table = TrialTable(app, document["game"], document["state"], document["meta"])
        screen = table_screen(app, table)
        table.hold_views(lambda: screen.render(app))
    except Exception as error:
        raise ValueError("%s: %s" % (type(error).__name__, error))


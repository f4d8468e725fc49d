"""Rooms in the browser: the relay connection and the host, remote (phone) and screen tables.

The relay (docs/rooms.md) only passes frames; this module gives them meaning. The
host's browser runs the engine in a `HostTable` (a LocalTable that also talks to
the room); a phone holds a `RemoteTable` and a TV a `ScreenTable`. All three have
the verbs of spieleabend.ui.table, so a game's `TableScreen(app, table)` draws
any of them. Nothing here knows a game.

What travels inside the relay's `data` (one dict with a kind "k"):

    host -> seat     {"k": "table", "game", "seat", "view": engine.view(state, seat),
                      "seats": [{..., "away", "stand_in", "stand_in_in": ms until a computer plays
                                 for an away seat the game waits for}],
                      "history", "moving": [seats the game waits for], "over",
                      "acted": the n of this seat's last act the host took (or refused),
                      "cr": {"id", "want", "commits", "bad"}}
    host -> screens  the same with "seat": None and the public view
    host -> all      {"k": "lobby", "game", "places": [{"name", "online", "watching"}], "night",
                      "host": {"name", "plays"}, "invite": {"code", "pin", "url"}}
                                                        between games: the next game, who is in, the evening
    host -> watcher  {"k": "table", ..., "seat": None, "watch": "game"|"deal"}   a place that does not play
                     this game (the host let it watch, or it joined during the game) sees the public view
                     and plays from the next game (or, where the game seats newcomers, the next deal)
                     {"k": "reveal", "id", "entries": [[seat, action, nonce, hash]]}
    host -> seat     {"k": "error", "code", "text"}     an illegal action, a bad reveal
                     {"k": "removed"}                   the host took this place away
                     {"k": "name_taken", "name"}        someone in the room has this name (as they spell it)
                                                        already: the phone leaves and asks for another one
                     {"k": "stood_in", "actions"}       what a computer played for this seat while
                                                        its phone was away (sent when it is back)
    seat -> host     {"k": "act", "action", "n"}        games where one moves at a time (n counts the phone's
                                                        acts; the host's next table message to that seat
                                                        says "acted": n once it has taken it)
                     {"k": "commit", "id", "hash"}      games with SECRET_CHOICES
                     {"k": "reveal", "id", "action", "nonce"}
                     {"k": "sync"}                      please send my view again

Besides, the host tells the relay what a phone that opens the join link is told before it joins
(`about`: {"game", "running", "joins_at"}); the phone asks with `look` (look_room).

Commit-reveal (engines with SECRET_CHOICES): every seat to move sends
sha256(action + "|" + nonce) first; the engine gets no action until every seat
has committed, so no device (the host's included) learns a choice early. Then
the host asks for the reveals, checks each against its commitment and the rules,
applies them all, and sends every reveal with its commitment to every device,
which checks them again. A mismatch is shown and not played.
"""

from spieleabend.games import GAME_MODULES, check_action
from spieleabend.games import load as load_engine
from spieleabend.games.common import IllegalAction, copy_data, is_whole
from spieleabend.sha256 import commitment
from spieleabend.ui.i18n import LANGUAGES, language
from spieleabend.ui.table import (COMPUTER, PERSON, REMOTE, LocalTable, ShownRefusal, Table, computer_players, flag,
                                  keep_replay, new_computer_names, result_entry, screen_module, seat_player)

from spieleabend.protocol import PROTOCOL_VERSION as PROTOCOL
BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000]
# Once every seat has committed, the round's reveal follows within a round trip: every device (the host
# too, which waits for the phones' reveals) waits this long for it before drawing the moment in between,
# so the reveal is drawn without a drawing (tens of ms in Brython) before it, and the host handles the
# phones' reveals as they come instead of after its own drawing.
REVEAL_HOLD_MS = 150
# A phone keeps the last table it was sent (its own seat's view, nothing more) in its room place, at
# most this long after a message, so that a reload draws it at once while the fresh one is on its way.
SHOWN_SAVE_MS = 400
STAND_IN_MS = 45000
# The host's views pass a token bucket: a burst of up to FRAME_BURST frames goes out at once (a round's
# reveal right after its commitments), a longer run at one frame per FRAME_MS on average (computers at
# pace 0). The relay allows the host 100 frames a second with bursts of 200.
FRAME_MS = 12
FRAME_BURST = 60
# After these a place is lost for good: no reconnect.
FINAL_ERRORS = ["bad_token", "unknown_room", "room_full", "joining_closed", "pin_locked",
                "unsupported_version", "malformed", "forbidden", "too_large", "binary_frame"]
FINAL_REASONS = ["ended", "left", "host_gone", "idle", "replaced"]
MOVE_SLOW_MS = 1000  # a phone's move unanswered this long is said to be on its way
from spieleabend.protocol import REPLACED_CLOSE
# Close codes of the relay's errors, for when the error frame itself was lost.
CLOSE_CODE_ERRORS = {4004: "unknown_room", 4003: "bad_token", 4005: "room_full", 4006: "joining_closed",
                     4007: "pin_locked", 4001: "unsupported_version", 1009: "too_large", 1013: "server_full"}


def backoff_ms(attempt):
    """Return the wait before reconnect attempt `attempt` (0-based): 1, 2, 4 ... 30 s."""
    return BACKOFF_MS[attempt] if attempt < len(BACKOFF_MS) else BACKOFF_MS[-1]


def parse_join(text):
    """Split "<code>.<secret>" (the join link's fragment tail) into (code, secret); secret may be None."""
    text = (text or "").strip()
    if "." in text:
        index = text.index(".")
        return normalize_code(text[:index]), text[index + 1:]
    return normalize_code(text), None


from spieleabend.protocol import normalize_code  # noqa: E402  (the relay uses the same)

# A host that gave no name plays as "Gastgeber" (German host device) or "Host" (English): the name travels as
# text, so a device in the other language shows it as its own word (room.host_default is this pair).
HOST_DEFAULT_NAMES = ("Gastgeber", "Host")


def local_host_name(name):
    """Return the host's default name in this device's language; any other name as it is."""
    if name in HOST_DEFAULT_NAMES:
        return HOST_DEFAULT_NAMES[LANGUAGES.index(language())]
    return name


def localise_host_names(data):
    """Rename an unnamed host's seat in a received table or lobby message to this device's word for it.

    Only a person seat played on the host device (kind PERSON) and a person's row of the evening's table:
    the host's seat is the one seat of that kind, and a computer keeps its name."""
    if data["k"] == "table" and isinstance(data.get("seats"), list) and isinstance(data.get("view"), dict):
        names = data["view"].get("names")
        for seat, entry in enumerate(data["seats"]):
            if isinstance(entry, dict) and entry.get("kind") == PERSON and isinstance(names, list) and \
                    seat < len(names) and names[seat] in HOST_DEFAULT_NAMES:
                local = local_host_name(names[seat])
                names[seat] = local
                entry["name"] = local
    elif data["k"] == "lobby" and isinstance(data.get("night"), list):
        for row in data["night"]:
            if isinstance(row, dict) and not row.get("computer") and row.get("name") in HOST_DEFAULT_NAMES:
                row["name"] = local_host_name(row["name"])


def look_room(app, code, secret, on_answer):
    """Ask the relay what the room of a join link plays, without taking a place.

    on_answer(frame): the relay's "looked" answer ({"about": what the host published, "joining", "host"}),
    {"error": code} when the link cannot join (unknown room, wrong secret), or None when the relay
    could not tell (no server, an older relay)."""
    answered = []

    def answer(result):
        if not answered:
            answered.append(True)
            on_answer(result)

    def on_open():
        sockets[0].send({"type": "look", "v": PROTOCOL, "room": code, "secret": secret})

    def on_message(frame):
        kind = frame["type"] if isinstance(frame, dict) and "type" in frame else None
        if kind == "looked":
            answer(frame)
        elif kind == "error":
            error = frame["code"] if "code" in frame else None
            answer({"error": error} if error in ("unknown_room", "bad_token") else None)

    sockets = [app.room_socket(on_open, on_message, lambda _code: answer(None))]


def name_key(name):
    """Return what two names are compared by: trimmed, inner spaces as one, case aside ("anna" is "Anna ")."""
    return " ".join((name or "").split()).lower()


def unique_names(names):
    """Return the names with duplicates numbered ("Anna", "Anna 2"): seats are matched by name."""
    out = []
    for name in names:
        candidate = name
        number = 2
        while candidate in out:
            candidate = "%s %d" % (name[:20], number)
            number += 1
        out.append(candidate)
    return out


def game_module(game):
    """Return a game's screen module, or None when this release has no screen for it."""
    try:
        return screen_module(game)
    except ImportError:
        return None


# -- the socket -------------------------------------------------------------------------------
class RoomLink:
    """One relay socket for one place: the hello, the welcome, and reconnecting with the token.

    `app.room_socket(on_open, on_message, on_close)` opens the websocket (ui/dom in the browser,
    a test adapter in CPython) and returns an object with send(frame) -> bool and close().
    `owner` gets on_welcome(frame), on_frame(frame) and on_link() (status changed).
    """

    def __init__(self, app, hello, owner):
        self.app = app
        self.hello = hello
        self.owner = owner
        self.socket = None
        self.welcome = None
        self.state = "idle"  # connecting, online, retrying, closed
        self.error = None    # relay error code or "no_server"
        self.reason = None   # reason of a "closed" frame
        self.pin_tries_left = None  # after a wrong PIN: how many more the room takes
        self.attempt = 0
        self.timer = None
        self.stopped = False
        self.opened = False  # the current socket opened (else the server was not reached)
        self.was_online = False  # some socket of this link reached the server (its network went, not the server)
        self.retry_at = None
        self.heard_at = 0     # when the current socket last brought a frame
        self.pinged_at = None  # when a ping went out that nothing has answered yet
        self.checker = None   # the timer of the line check

    def start(self):
        """Open the socket now."""
        self.stopped = False
        self.state = "connecting"
        self.opened = False
        self.error_frame = None
        self.pin_tries_left = None
        # Each socket's events count only while it is this link's socket: a late close of a socket given up
        # (a dead line, a stop) must not take its successor down.
        made = []

        def opened():
            if made and made[0] is self.socket:
                self.on_open()

        def received(frame):
            if made and made[0] is self.socket:
                self.on_message(frame)

        def closed(code):
            if made and made[0] is self.socket:
                self.on_close(code)

        made.append(self.app.room_socket(opened, received, closed))
        self.socket = made[0]

    def check_line(self):
        """Ping the relay when it has been quiet; give a socket up whose ping went unanswered.

        A network that goes away silently (Wi-Fi out of reach, no close, no reset) leaves the socket open
        on this side: the relay notices at its next ping, but this device would show "Verbunden" and wait
        for ever. Answered pings cost the relay one small frame every few seconds."""
        self.checker = None
        every = self.app.line_check_ms()
        if every is None or self.socket is None or self.state != "online":
            return
        now = self.app.now()
        if self.pinged_at is not None and self.heard_at < self.pinged_at and now - self.pinged_at >= 2 * every:
            self.line_lost()
            return
        if now - self.heard_at >= every and (self.pinged_at is None or self.heard_at >= self.pinged_at):
            self.pinged_at = now
            self.socket.send({"type": "ping"})
        self.checker = self.app.later(self.check_line, every)

    def line_lost(self):
        """Give the socket up as a lost line (retry with the token): its ping went unanswered, or the browser
        says the network is gone (the ping would tell only seconds later, the screen saying "Verbunden")."""
        if self.socket is None or self.state != "online":
            return
        socket = self.socket
        self.socket = None
        socket.close()
        self.on_close(1006)

    def on_open(self):
        self.opened = True
        self.was_online = True
        if self.socket is not None:
            self.socket.send(self.hello)

    def on_message(self, frame):
        self.heard_at = self.app.now()
        if not isinstance(frame, dict) or "type" not in frame:
            return
        kind = frame["type"]
        if kind in ("created", "joined", "resumed"):
            self.welcome = frame
            self.attempt = 0
            self.error = None
            self.state = "online"
            self.pinged_at = None
            if self.checker is None and self.app.line_check_ms() is not None:
                self.checker = self.app.later(self.check_line, self.app.line_check_ms())
            if "token" in frame:
                self.hello = {"type": "resume", "v": PROTOCOL, "room": frame["room"], "token": frame["token"]}
            self.owner.on_welcome(frame)
            self.owner.on_link()
        elif kind == "error":
            self.error_frame = frame["code"] if "code" in frame else "malformed"
            tries = frame["pin_tries_left"] if "pin_tries_left" in frame else None
            self.pin_tries_left = tries if is_whole(tries) and tries >= 0 else None
        elif kind == "closed":
            self.reason = frame["reason"] if "reason" in frame else None
        elif kind != "pong":
            self.owner.on_frame(frame)

    def on_close(self, code):
        self.socket = None
        if self.checker is not None:
            self.app.cancel(self.checker)
            self.checker = None
        if self.stopped:
            return
        error = self.error_frame
        if error is None and code in CLOSE_CODE_ERRORS:
            error = CLOSE_CODE_ERRORS[code]
        if code == REPLACED_CLOSE or self.reason in FINAL_REASONS or error in FINAL_ERRORS:
            self.state = "closed"
            self.error = error
            if code == REPLACED_CLOSE and self.reason is None:
                self.reason = "replaced"
            self.owner.on_link()
            return
        # Lost line, server restart, rate limit, server full: try again later.
        # "Rooms need the server" explains a first visit that cannot reach it; a phone whose network dropped
        # mid-game only needs the short "Verbindung weg – neuer Versuch" (the long words filled its screen).
        self.error = error if error is not None else (None if self.opened or self.was_online else "no_server")
        self.state = "retrying"
        delay = backoff_ms(self.attempt)
        self.attempt += 1
        self.retry_at = self.app.now() + delay
        self.timer = self.app.later(self.retry, delay)
        self.owner.on_link()

    def retry(self):
        self.timer = None
        if not self.stopped:
            self.start()
            self.owner.on_link()

    def retry_now(self):
        """Try again at once (the person tapped "Neu verbinden")."""
        if self.timer is not None:
            self.app.cancel(self.timer)
            self.timer = None
        if self.socket is None and not self.stopped:
            self.attempt = 0
            self.start()
            self.owner.on_link()

    def send(self, frame):
        """Send a frame; return False when there is no open socket (the frame is dropped)."""
        if self.socket is None or self.state != "online":
            return False
        return bool(self.socket.send(frame))

    def stop(self):
        """Close the socket for good (this device leaves the room page)."""
        self.stopped = True
        if self.timer is not None:
            self.app.cancel(self.timer)
            self.timer = None
        if self.checker is not None:
            self.app.cancel(self.checker)
            self.checker = None
        if self.socket is not None:
            socket = self.socket
            self.socket = None
            socket.close()
        self.state = "closed"

    def status(self):
        """Return (state, detail) for the status line: online, connecting, retrying, closed."""
        return self.state, (self.error or self.reason)


# -- host ----------------------------------------------------------------------------------------
class HostRoom:
    """The host's side of a room: the link, the places that joined, the lobby, then a HostTable."""

    def __init__(self, app, game, doc=None):
        self.app = app
        self.game = game
        self.engine = load_engine(game)
        self.doc = doc or {}  # {"role": "host", "game", "code", "token", "secret", "pin", "link", "watching"}
        self.places = {}      # relay seat -> {"seat": n, "name", "online": bool, "removed": bool}
        self.screens = {}     # relay screen -> {"screen": n, "name", "online"}
        self.joining = True
        self.pin_locked = False
        self.table = None
        self.listeners = []
        self.base = None      # the join links' address (from the server), e.g. http://192.168.1.5:8000
        # This device in the room, as its lobby has it (LobbyScreen.set_host): its name ("" for none yet)
        # and whether it plays the next game; during a game the table says it.
        # The name is kept in the room's stored document too, so a reload or the next game's lobby
        # does not lose it (the host would become a second person on the evening's table).
        host_name = self.doc["host_name"] if "host_name" in self.doc else ""
        self.host_name = host_name if isinstance(host_name, str) else ""
        self.host_plays = self.doc["host_plays"] is not False if "host_plays" in self.doc else True
        hello = {"type": "create", "v": PROTOCOL}
        if "token" in self.doc:
            hello = {"type": "resume", "v": PROTOCOL, "room": self.doc["code"], "token": self.doc["token"]}
        self.link = RoomLink(app, hello, self)
        self.stand_in_ms = app.stand_in_ms() if hasattr(app, "stand_in_ms") else STAND_IN_MS

    @classmethod
    def resume_game(cls, app, game, document):
        """Return the room of a saved host game (meta["room"]) with its table, ready to reconnect."""
        room = cls(app, game, dict(document["meta"]["room"]))
        room.table = HostTable(app, game, document["state"], document["meta"], room)
        room.joining = False
        return room

    def listen(self, listener):
        self.listeners.append(listener)

    def changed(self):
        for listener in list(self.listeners):
            listener(None)

    def changed_here(self):
        """Redraw what the host sees of the room: the lobby, or during a game its table's screen (room bar)."""
        self.changed()
        if self.table is not None:
            self.table.changed()

    def start(self):
        self.link.start()

    def stop(self):
        self.link.stop()
        if self.table is not None:
            self.table.close()

    # -- what the lobby shows -------------------------------------------------------------
    def code(self):
        return self.doc["code"] if "code" in self.doc else None

    def join_url(self):
        """Return the full join link (the server's LAN or public address + the link's path)."""
        if "link" not in self.doc:
            return None
        base = self.base if self.base else self.app.page_origin()
        return base.rstrip("/") + self.doc["link"]

    def seat_places(self):
        """Return the joined seats (not removed) in joining order."""
        return [self.places[n] for n in sorted(self.places) if not self.places[n]["removed"]]

    def watching(self):
        """Return the relay seats the host lets watch the next game instead of playing it."""
        return list(self.doc["watching"]) if "watching" in self.doc else []

    def playing_places(self):
        """Return the joined seats that play the next game (not removed, not watching), in joining order."""
        watching = self.watching()
        return [place for place in self.seat_places() if place["seat"] not in watching]

    def host_entry(self):
        """Return this device as the room's people see it: {"name" ("" for none), "plays"}."""
        table = self.table
        if table is not None:
            if table.seat is not None:
                return {"name": table.players()[table.seat]["name"], "plays": True}
            return {"name": self.host_name, "plays": False}
        return {"name": self.host_name, "plays": bool(self.host_plays)}

    def set_host(self, name, plays):
        """The lobby changed this device's name or whether it plays: the phones' lists follow."""
        name = name if isinstance(name, str) else ""
        if name.strip() == self.host_name and bool(plays) == self.host_plays:
            return
        self.host_name = name.strip()
        self.host_plays = bool(plays)
        # Stored at once: a reload of the lobby lost the name, and the next game seated the host as
        # "Gastgeber", a second person on the evening's table (an audit).
        self.doc["host_name"] = self.host_name
        self.doc["host_plays"] = self.host_plays
        if "code" in self.doc:
            self.app.storage.save_room(self.doc)
        if self.table is None and "code" in self.doc:
            self.send_lobby()

    def holder_of(self, name, number=None):
        """Return who in the room has `name` already (case and spaces aside): a place's name, the host's
        name (while it plays), or None. `number`: the relay seat asking, which does not count."""
        key = name_key(name)
        if not key:
            return None
        for other in sorted(self.places):
            place = self.places[other]
            if other != number and not place["removed"] and not place.get("gone") and name_key(place["name"]) == key:
                return place["name"]
        host = self.host_entry()
        if host["plays"] and name_key(host["name"]) == key:
            return host["name"]
        return None

    def refuse_name(self, number, name, holder, online=True):
        """Turn a new place away whose name someone in the room has already (`holder`: as that one spells
        it): it is not seated, and its phone is asked for another name (it leaves and joins again). A device
        that comes back with its token is no new place: only a join is checked."""
        self.places[number] = {"seat": number, "name": name, "online": online, "removed": True, "refused": holder}
        if online:
            self.turn_away(number)

    def turn_away(self, number):
        """Tell a place that is not let in why: its name is taken, or the host removed it."""
        place = self.places[number] if number in self.places else None
        if place is not None and place.get("refused"):
            data = {"k": "name_taken", "name": place["refused"]}
        else:
            data = {"k": "removed"}
        self.link.send({"type": "to_seat", "seat": number, "data": data})

    def set_watching(self, number, watches):
        """Let a place watch the next game (public view only) or play it again."""
        watching = [n for n in self.watching() if n != number and n in self.places]
        if watches and number in self.places:
            watching.append(number)
        self.doc["watching"] = sorted(watching)
        self.app.storage.save_room(self.doc)
        self.send_lobby()
        self.changed()

    def choose_game(self, game):
        """Make `game` the room's next game (between games): every phone and the screen are told at once."""
        if self.table is not None or game == self.game:
            return
        self.game = game
        self.engine = load_engine(game)
        self.doc["game"] = game
        if "code" in self.doc:
            self.app.storage.save_room(self.doc)
        self.send_lobby()
        self.describe()
        self.changed()

    def describe(self):
        """Tell the relay what a phone with the join link is told before it joins: the game, whether it runs."""
        about = {"game": self.game, "running": self.table is not None}
        if self.table is not None:
            about["joins_at"] = self.table.joins_at()
        self.link.send({"type": "about", "data": about})

    # -- link callbacks ----------------------------------------------------------------------
    def on_welcome(self, frame):
        if frame["type"] == "created":
            self.doc = {"role": "host", "game": self.game, "code": frame["room"], "token": frame["token"],
                        "secret": frame["secret"], "pin": frame["pin"], "link": frame["link"], "watching": [],
                        "host_name": self.host_name, "host_plays": self.host_plays}  # typed while connecting
            self.app.storage.save_room(self.doc)
        elif frame["type"] == "resumed":
            self.doc["secret"] = frame["secret"]
            self.doc["pin"] = frame["pin"]
            self.doc["link"] = frame["link"]
            self.joining = bool(frame["joining"])
            self.pin_locked = bool(frame.get("pin_locked"))
            online = {}
            seated = []
            if self.table is not None:
                seated = [player["relay"] for player in self.table.players() if player["kind"] == REMOTE]
            # The places seated at the game first, then in seat order: of two of one name (one joined while
            # this device was away) the one that plays keeps it.
            places = [place for place in frame["places"] if place["role"] == "seat"]
            places.sort(key=lambda place: (0 if place["seat"] in seated else 1, place["seat"]))
            names = {}
            for number in list(self.places):
                now = [place for place in places if place["seat"] == number]
                if not now or now[0]["name"] != self.places[number]["name"]:
                    # Left while this device was away (its number may have gone to a newcomer since).
                    del self.places[number]
            for place in places:
                number = place["seat"]
                online[number] = bool(place["online"])
                names[number] = place["name"]
                if number not in self.places:
                    holder = self.holder_of(place["name"], number)
                    if holder is not None:
                        self.refuse_name(number, place["name"], holder, bool(place["online"]))
                    else:
                        self.places[number] = {"seat": number, "name": place["name"], "online": False,
                                               "removed": False}
                self.places[number]["online"] = bool(place["online"])
            for place in frame["places"]:
                if place["role"] != "seat":
                    self.screens[place["screen"]] = {"screen": place["screen"], "name": place["name"],
                                                     "online": bool(place["online"])}
            if self.table is not None:
                self.table.on_resumed(online, names)
        self.send_lobby()
        self.describe()
        self.changed()

    def on_link(self):
        state, detail = self.link.status()
        if state == "closed" and detail in ("unknown_room", "bad_token") and self.table is None \
                and self.link.hello["type"] == "resume":
            # A kept lobby whose room the server no longer knows (expired overnight): open a new one.
            self.doc = {}
            self.places = {}
            self.screens = {}
            self.link = RoomLink(self.app, {"type": "create", "v": PROTOCOL}, self)
            self.link.start()
        self.changed()
        if self.table is not None:
            self.table.changed()

    def on_frame(self, frame):
        kind = frame["type"]
        if kind == "presence":
            self.on_presence(frame)
        elif kind == "msg" and frame["from"] != "host":
            self.on_message(frame["from"], frame["data"])
        elif kind == "joining":
            self.joining = bool(frame["open"])
            self.changed()
        elif kind == "pin_locked":
            self.pin_locked = True
            if self.table is None:
                self.send_lobby()  # the table screens stop showing a PIN that no longer works
            self.changed_here()
        elif kind == "pin" and isinstance(frame.get("pin"), str):
            self.doc["pin"] = frame["pin"]
            self.pin_locked = False
            self.app.storage.save_room(self.doc)  # a reload shows the new PIN, not the old one
            if self.table is None:
                self.send_lobby()  # the table screens show the new PIN
            self.changed_here()

    def on_presence(self, frame):
        status = frame["status"]
        if frame["role"] == "screen":
            number = frame["screen"]
            if status == "gone":
                if number in self.screens:
                    del self.screens[number]
            else:
                self.screens[number] = {"screen": number, "name": frame["name"], "online": status != "away"}
                if status in ("joined", "back"):
                    self.send_screens()
            self.changed()
            return
        number = frame["seat"]
        holder = self.holder_of(frame["name"], number) if status == "joined" else None
        if holder is not None:
            self.refuse_name(number, frame["name"], holder)
            self.changed()
            return
        if status == "back" and number in self.places and self.places[number].get("refused"):
            self.places[number]["online"] = True
            self.turn_away(number)  # it did not get the answer before it went away
            return
        if status == "joined":
            self.places[number] = {"seat": number, "name": frame["name"], "online": True, "removed": False}
        elif number in self.places:
            place = self.places[number]
            place["online"] = status in ("back",)
            if status == "gone":
                place["gone"] = True
                if self.table is None:
                    del self.places[number]
        if self.table is not None:
            self.table.on_presence(number, status)
        elif number in self.places and self.places[number]["removed"] and status in ("joined", "back"):
            self.turn_away(number)
        else:
            self.send_lobby()
        self.changed()

    def on_message(self, number, data):
        if not isinstance(data, dict) or "k" not in data:
            return
        if self.table is not None:
            self.table.on_remote(number, data)
        elif data["k"] == "sync":
            self.send_lobby()

    # -- lobby -------------------------------------------------------------------------------
    def lobby_message(self):
        night = __import__("spieleabend.ui.night", fromlist=["x"]).night_summary(self.app.storage)
        watching = self.watching()
        # The invitation goes to everyone in the room: the table screen shows it large, and a phone may pass
        # the link on to a latecomer (all of them could read it off the host's lobby anyway).
        # The link only once the server has said its address: before, it would be this page's own (after a
        # reload on the host, http://127.0.0.1… for a moment, which a table screen's QR code could show).
        invite = {"code": self.code(), "pin": None if self.pin_locked else self.doc.get("pin"),
                  "url": self.join_url() if self.base else None}
        return {"k": "lobby", "game": self.game, "invite": invite,
                "places": [{"name": p["name"], "online": p["online"], "watching": p["seat"] in watching}
                           for p in self.seat_places()],
                "host": self.host_entry(),  # this device is in the room too (its name, whether it plays)
                "night": night}  # tonight's game-night table, shown on phones and screens

    def send_lobby(self):
        if self.table is None:
            self.link.send({"type": "to_all", "data": self.lobby_message()})
        else:
            self.table.broadcast()

    def send_screens(self):
        if self.table is None:
            self.link.send({"type": "to_screens", "data": self.lobby_message()})
        else:
            self.table.send_screens()

    def remove_place(self, number):
        """Take a joined place away: it is not seated, and its phone is told."""
        if number in self.places:
            self.places[number]["removed"] = True
            self.link.send({"type": "to_seat", "seat": number, "data": {"k": "removed"}})
            self.send_lobby()
            self.changed()

    def set_joining(self, is_open):
        self.link.send({"type": "joining", "open": bool(is_open)})

    def new_pin(self):
        """Ask the relay for a fresh PIN; its answer (a "pin" frame) unlocks joining by PIN."""
        self.link.send({"type": "new_pin"})

    def start_game(self, options, seat_count, strength, host_plays, host_name):
        """Seat the host (if it plays), the phones that play (joining order) and computers; deal.

        Joining stays open: a phone that joins during the game watches it and plays from the next one."""
        phones = self.playing_places()
        people = len(phones) + (1 if host_plays else 0)
        if people > seat_count:
            raise ValueError("more people than seats")
        names = []
        players = []
        if host_plays:
            names.append(host_name)
            players.append(seat_player(host_name, PERSON))
        for place in phones:
            names.append(place["name"] or "?")
            player = seat_player(place["name"], REMOTE, strength)
            player["relay"] = place["seat"]
            player["relay_name"] = place["name"]  # with the number, which place this is (numbers come again)
            player["away"] = not place["online"]
            player["away_since"] = self.app.now()
            players.append(player)
        for name in new_computer_names(self.app, names, seat_count - len(players)):
            names.append(name)
            players.append(seat_player(name, COMPUTER, strength))
        names = unique_names(names)
        for seat in range(len(players)):
            players[seat]["name"] = names[seat]
        options = dict(options)
        options["seats"] = seat_count
        # Before the copy the game keeps: a host reloaded during the game takes its room from it.
        self.doc["host_name"] = self.host_name
        room_meta = dict(self.doc)
        room_meta["strength"] = strength
        # The room is marked started only once its game exists (and is saved): a start that fails
        # leaves this room's lobby, which a reload takes back, instead of a started room with no game
        # (which a reload would replace by a new room, stranding the phones).
        self.table = HostTable.new(self.app, self.game, options, players, 0 if host_plays else None,
                                   {"room": room_meta, "room_code": room_meta["code"], "cr": new_round(0)},
                                   room=self)
        self.doc["started"] = True
        self.app.storage.save_room(self.doc)
        self.describe()
        return self.table

    def back_to_lobby(self):
        """After a game: the room's lobby again (joining open, nobody watching, those who left gone).

        Return what the game was started with ({"options", "seats", "strength", "host_plays"}), or None."""
        last = None
        if self.table is not None:
            meta = self.table.meta
            options = {}
            for key in meta["options"]:
                if key not in ("names", "seats"):
                    options[key] = meta["options"][key]
            last = {"options": options, "seats": len(self.table.players()), "host_plays": self.table.seat is not None,
                    "strength": meta["room"].get("strength") if "room" in meta else None}
            self.table.close()
        self.table = None
        self.doc["started"] = False
        self.doc["watching"] = []
        self.app.storage.save_room(self.doc)
        self.set_joining(True)
        for number in list(self.places):
            if self.places[number].get("gone"):
                del self.places[number]
        self.send_lobby()
        self.describe()
        self.changed()
        return last

    def end(self):
        """End the room for everybody (after the final standings)."""
        self.link.send({"type": "end"})
        self.link.stop()
        self.app.storage.clear_room()
        if self.table is not None:
            self.table.close()
            if self.table.outcome() is None:
                self.app.storage.delete_game(self.game)


def coalesce_changed(table, hold_ms=0):
    """Tell the listeners once for a burst of frames (a drawing costs tens of ms in Brython).

    hold_ms: wait that long for a frame that is due (a round's reveal) and draw once for both; a change
    without a hold draws at once, also one that is being held."""
    if table.render_timer is not None:
        if hold_ms or not table.render_held:
            return
        table.app.cancel(table.render_timer)

    def flush():
        table.render_timer = None
        Table.changed(table)
    table.render_held = bool(hold_ms)
    table.render_timer = table.app.later(flush, hold_ms)


def new_round(number):
    """Return the commit-reveal record of one round of secret choices."""
    return {"id": number, "commits": {}, "reveals": {}, "own": {}, "bad": []}


class HostTable(LocalTable):
    """A LocalTable that also serves the room: views out to every place, actions in from phones."""

    role = "host"

    def __init__(self, app, game, state, meta, room=None):
        LocalTable.__init__(self, app, game, state, meta)
        self.room = room
        self.stand_in_timer = None
        self.render_timer = None
        self.render_held = False
        self.broadcast_timer = None
        self.mover = None  # the seat whose phone's move is being handled (its view goes out last)
        self.acts_taken = {}  # seat -> the n of its phone's last act (0: none yet), told back in its table messages
        self.frame_tokens = FRAME_BURST
        self.tokens_at = app.now()
        if "cr" not in self.meta:
            self.meta["cr"] = new_round(0)

    # -- the verbs ---------------------------------------------------------------------------
    def seats(self):
        out = self.room_seats()
        for entry in out:
            if "stand_in_in" in entry:
                entry["stand_in_at"] = self.app.now() + entry["stand_in_in"]
        return out

    def room_seats(self):
        """Return LocalTable.seats with who is away and, where the game waits for an away seat, the ms
        until a computer plays for it ("stand_in_in"): every device counts that down."""
        out = LocalTable.seats(self)
        players = self.players()
        waiting = self.waiting_for() if self.outcome() is None else []
        now = self.app.now()
        for seat in range(len(out)):
            player = players[seat] if seat < len(players) else {}
            away = flag(player, "away") and player["kind"] == REMOTE
            out[seat]["away"] = away
            if away and flag(player, "gone"):
                out[seat]["gone"] = True  # left the room for good: not coming back to this game
            if away and not flag(player, "stand_in") and seat in waiting:
                since = player["away_since"] if "away_since" in player else now
                out[seat]["stand_in_in"] = max(0, since + self.room_stand_in_ms() - now)
        return out

    def can_pause(self):
        return False

    def can_rematch(self):
        return True  # the room's frame takes the host back to the lobby for the next game

    def can_transfer(self):
        return False

    def can_edit_seats(self):
        return False  # phones join between deals through the room, not by the host's buttons

    def changed(self, event=None):
        coalesce_changed(self, REVEAL_HOLD_MS if self.reveals_awaited() else 0)

    def reveals_awaited(self):
        """Return True while every seat has committed and a phone's reveal is still on its way."""
        if self.room is None or not self.secret_choices() or self.want() != "reveal":
            return False
        reveals = self.meta["cr"]["reveals"]
        for seat in self.engine.to_move(self.state):
            if str(seat) not in reveals:
                return True
        return False

    def act(self, action, seat=None):
        """Play for this device's seat: straight to the engine, or as a commitment in secret games."""
        if seat is None:
            seat = self.seat
        if seat is None:
            raise IllegalAction("this device does not play a seat")
        if self.secret_choices():
            self.commit_own(seat, action)
            self.advance_round()
            return
        LocalTable.act(self, action, seat)

    # -- views ---------------------------------------------------------------------------------
    def make_view(self, seat):
        """Return a seat's view (None: the public one) with the commitments so far laid over it."""
        view = self.engine.view(self.state, seat)
        if not self.secret_choices():
            return view
        cr = self.meta["cr"]
        if "committed" in view and isinstance(view["committed"], list):
            for key in cr["commits"]:
                if int(key) < len(view["committed"]):
                    view["committed"][int(key)] = True
        if seat is not None and str(seat) in cr["commits"]:
            view["legal"] = []
            own = cr["own"]
            if str(seat) in own and self.is_own(seat):
                apply_pending(self.engine, view, own[str(seat)][0])
        return view

    def to_move(self):
        """Return the seats the engine waits for, without those whose secret choice is committed."""
        moving = self.engine.to_move(self.state)
        if not self.secret_choices():
            return list(moving)
        commits = self.meta["cr"]["commits"]
        return [seat for seat in moving if str(seat) not in commits]

    def is_own(self, seat):
        """Return True for seats whose choice this device makes (its person, its computers, stand-ins)."""
        return seat == self.seat or self.is_computer(seat)

    def message_for(self, seat, shared=None):
        """Return the table message for one seat (None: the screens).

        shared: table_facts() of this moment, made once for all the places a broadcast goes to."""
        message = {"k": "table", "game": self.game, "seat": seat, "view": self.view_of(seat)}
        message.update(shared if shared is not None else self.table_facts())
        if seat is not None:
            message["acted"] = self.acts_taken.get(seat, 0)
        return message

    def table_facts(self):
        """Return what every place's table message holds alike: seats, history, who moves, the round's commitments."""
        cr = self.meta["cr"]
        seats = self.room_seats()
        for entry in seats:
            entry["me"] = False
        facts = {"seats": seats, "history": self.meta.get("history", []), "room": self.meta.get("room_code"),
                 "started_at": self.meta.get("started_at"), "moving": self.to_move(),
                 "over": self.outcome() is not None}
        if self.secret_choices():
            facts["cr"] = {"id": cr["id"], "want": self.want(), "commits": dict(cr["commits"]),
                           "bad": list(cr["bad"])}
        if facts["over"] and self.replay is not None:
            facts["replay"] = self.replay  # every phone keeps the finished game's replay too
        return facts

    def want(self):
        """Return "commit" while seats still commit, "reveal" once all did, None when nobody moves."""
        moving = self.engine.to_move(self.state)
        if not moving:
            return None
        cr = self.meta["cr"]
        for seat in moving:
            if str(seat) not in cr["commits"]:
                return "commit"
        return "reveal"

    def broadcast(self):
        """Send every present phone its own view, and the screens the public one.

        At once while the frame budget allows (see FRAME_BURST); else once, a little later, with the newest
        views (computers at pace 0 must not run the host over the relay's rate limit).
        """
        if self.room is None:
            return
        if self.broadcast_timer is not None:
            return  # the pending broadcast will carry this change
        missing = self.frames_per_broadcast() - self.frame_budget()
        if missing > 0:
            self.broadcast_timer = self.app.later(self.broadcast_due, int(missing * FRAME_MS) + 1)
            return
        self.send_views()

    def frames_per_broadcast(self):
        """Return how many frames a broadcast sends at most: one per phone and watcher, one to the screens."""
        screens = 1 if self.room.screens else 0
        return screens + len([p for p in self.players() if p["kind"] == REMOTE]) + len(self.watchers())

    def frame_budget(self):
        """Return how many frames the host may send now (the bucket refilled up to now)."""
        now = self.app.now()
        self.frame_tokens = min(FRAME_BURST, self.frame_tokens + (now - self.tokens_at) / FRAME_MS)
        self.tokens_at = now
        return self.frame_tokens

    def broadcast_due(self):
        self.broadcast_timer = None
        self.send_views()

    def flush_broadcast(self):
        """Send a waiting broadcast now (before a frame that must come after it)."""
        if self.broadcast_timer is not None:
            self.app.cancel(self.broadcast_timer)
            self.broadcast_timer = None
            self.send_views()

    def send_views(self):
        self.hold_views(self.send_held_views)  # the public view serves the seats' names and the screens

    def send_held_views(self):
        self.frame_budget()
        self.frame_tokens -= self.frames_per_broadcast()
        shared = self.table_facts()  # the same for every place: made once, not once per place
        players = self.players()
        # The phone whose move this is gets its view last: the others learn of the move first (each view
        # takes the host milliseconds to make and send), and the mover shows its move already.
        mover = self.mover
        for seat in range(len(players)):
            if seat != mover:
                self.send_own_view(seat, shared)
        public = None
        for relay in self.watchers():
            if public is None:
                public = self.message_for(None, shared)
            self.send_watcher(relay, public)
        if public is None and self.room.screens:
            public = self.message_for(None, shared)
        self.send_screens(public)
        if mover is not None and mover < len(players):
            self.send_own_view(mover, shared)

    def send_own_view(self, seat, shared):
        """Send a present phone its seat's view (nothing for the host's own seats and for phones away)."""
        player = self.players()[seat]
        if player["kind"] == REMOTE and not flag(player, "away") and not flag(player, "gone"):
            self.room.link.send({"type": "to_seat", "seat": player["relay"], "data": self.message_for(seat, shared)})

    def send_screens(self, public=None):
        if self.room is not None and self.room.screens:
            self.room.link.send({"type": "to_screens", "data": public or self.message_for(None)})

    def watchers(self):
        """Return the relay seats in the room that do not play this game and are online (they watch it)."""
        if self.room is None:
            return []
        seated = [player["relay"] for player in self.players() if player["kind"] == REMOTE]
        out = []
        for number in sorted(self.room.places):
            place = self.room.places[number]
            if number not in seated and place["online"] and not place["removed"] and not place.get("gone"):
                out.append(number)
        return out

    def send_watcher(self, relay, public=None):
        """Send a place that does not play this game the public view, with when it plays: "deal" or "game"."""
        message = dict(public or self.message_for(None))
        message["watch"] = self.joins_at(relay)
        self.room.link.send({"type": "to_seat", "seat": relay, "data": message})

    def send_seat(self, seat):
        player = self.players()[seat]
        if self.room is not None and player["kind"] == REMOTE:
            self.room.link.send({"type": "to_seat", "seat": player["relay"], "data": self.message_for(seat)})

    def tell(self, relay, code, text=""):
        """Send one phone an error (an illegal action, a bad reveal): only that phone sees it."""
        if self.room is not None:
            self.room.link.send({"type": "to_seat", "seat": relay, "data": {"k": "error", "code": code, "text": text}})

    def after_change(self, notify=True):
        if self.between_deals():
            return  # between_deals changed the table and ran after_change itself
        self.hold_views(self.progress_and_views)  # the public view serves the progress, the names, the screens
        if self.outcome() is None:
            self.save()  # after the phones' views: saving is not on their way
        if notify:
            self.changed()
        self.schedule_computers()
        self.check_stand_ins()

    def progress_and_views(self):
        self.note_progress()
        if self.outcome() is not None:
            self.record_result()  # before the broadcast: the last views carry the replay it makes
        self.broadcast()

    def save(self):
        if not self.app.storage.save_game(self.game, self.state, self.meta):
            self.app.toast_storage_full()

    def close(self):
        LocalTable.close(self)
        if self.broadcast_timer is not None:
            self.app.cancel(self.broadcast_timer)
            self.broadcast_timer = None
        if self.stand_in_timer is not None:
            self.app.cancel(self.stand_in_timer)
            self.stand_in_timer = None

    # -- the room ----------------------------------------------------------------------------
    def seat_of(self, relay):
        """Return the game seat of a relay seat, or None."""
        players = self.players()
        for seat in range(len(players)):
            if players[seat]["kind"] == REMOTE and players[seat].get("relay") == relay:
                return seat
        return None

    def on_resumed(self, online, names=None):
        """After a host reload: mark who is online now and hand seats back to their phones.

        names: each relay seat's name now. A seat of another name holds a number its player left while
        this device was away (the relay gives a gone seat's number to the next phone): someone else."""
        players = self.players()
        now = self.app.now()
        for seat in range(len(players)):
            player = players[seat]
            if player["kind"] != REMOTE:
                continue
            relay = player.get("relay")
            if relay in online and (names is None or "relay_name" not in player
                                    or names.get(relay) == player["relay_name"]):
                was_away = player.get("away")
                player["away"] = not online[relay]
                if player["away"] and not was_away:
                    player["away_since"] = now
                if not player["away"]:
                    self.hand_back(seat)
            else:
                player["away"] = True
                player["gone"] = True
                player["stand_in"] = True
                player["relay"] = None
        self.save()
        self.broadcast()
        self.changed()
        self.schedule_computers()
        self.check_stand_ins()

    def on_presence(self, relay, status):
        seat = self.seat_of(relay)
        if seat is None and status in ("joined", "back") and self.can_add_seat() and self.room is not None \
                and relay in self.room.places and not self.room.places[relay]["removed"] \
                and relay not in self.room.watching():
            self.seat_newcomer(relay)
            return
        if seat is None:
            if status in ("joined", "back") and self.room is not None:
                if relay in self.room.places and not self.room.places[relay]["removed"]:
                    self.send_watcher(relay)  # joined during the game (or watches it): the table, and when it plays
                else:
                    self.room.turn_away(relay)
            return
        player = self.players()[seat]
        if status == "away":
            player["away"] = True
            player["away_since"] = self.app.now()
        elif status == "back":
            player["away"] = False
            player["gone"] = False
            self.hand_back(seat)
            self.send_seat(seat)
        elif status == "gone":
            player["away"] = True
            player["gone"] = True
            player["relay"] = None  # the relay may give this number to the next phone: someone else
            if not player.get("stand_in"):
                player["stand_in"] = True
            if hasattr(self.engine, "remove_seat"):
                player["leaving"] = True  # removed from the table between deals
                if self.between_deals():
                    return
        self.save()
        self.broadcast()
        self.changed()
        self.schedule_computers()
        self.check_stand_ins()

    def apply(self, seat, action, legal=None):
        LocalTable.apply(self, seat, action, legal)
        self.note_stand_in(seat, action)  # a secret choice counts once it is revealed and played

    def note_stand_in(self, seat, action):
        """Keep what a computer played for an away phone, to tell that phone when it is back."""
        player = self.players()[seat]
        if player["kind"] == REMOTE and player.get("stand_in"):
            if "stood_in" not in player:
                player["stood_in"] = []
            player["stood_in"].append(action)

    def hand_back(self, seat):
        """The phone is back: its person plays again; a stand-in's unrevealed choice is dropped, and the
        phone is told what the computer played for it (its feed would say "you" for those moves)."""
        player = self.players()[seat]
        if not player.get("stand_in"):
            return
        player["stand_in"] = False
        if player.get("stood_in") and self.room is not None:
            self.room.link.send({"type": "to_seat", "seat": player["relay"],
                                 "data": {"k": "stood_in", "actions": list(player["stood_in"])}})
        player["stood_in"] = []
        cr = self.meta["cr"]
        key = str(seat)
        if self.secret_choices() and self.want() == "commit" and key in cr["own"]:
            del cr["own"][key]
            if key in cr["commits"]:
                del cr["commits"][key]
        if self.timer is not None:  # a paced computer move for this seat waits: let it re-check
            self.app.cancel(self.timer)
            self.timer = None

    # -- seats that join or leave between deals (INFO["joins_between_deals"]) ---------------------
    def joins_at(self, relay=None):
        """Return when a phone that watches plays: "deal" where the game seats newcomers between deals and
        a seat is free (Mau-Mau below its five), else "game" (a full table cannot keep the promise)."""
        if not self.engine.INFO["joins_between_deals"] or (relay is not None and relay in self.room.watching()):
            return "game"
        return "deal" if len(self.names()) < self.engine.INFO["seats"]["max"] else "game"

    def can_add_seat(self):
        """Return True when the engine would seat a newcomer now (between deals, a seat free)."""
        if not self.engine.INFO["joins_between_deals"] or self.outcome() is not None or \
                not self.engine.between_deals(self.state):
            return False
        try:
            self.engine.add_seat(copy_data(self.state), "?")
        except IllegalAction:
            return False
        return True

    def between_deals(self):
        """Between deals: remove seats whose phone left for good, and open joining while a seat is free.

        Return True when the table was changed here (after_change has then run already)."""
        if self.room is None or not self.engine.INFO["joins_between_deals"] or self.outcome() is not None:
            return False
        if not self.engine.between_deals(self.state):
            if self.room.joining and self.meta.get("reopened"):
                self.meta["reopened"] = False
                self.room.set_joining(False)
            return False
        players = self.players()
        for seat in range(len(players)):
            if players[seat].get("leaving"):
                trial = copy_data(self.state)
                self.engine.remove_seat(trial, seat)
                if self.engine.outcome(trial) is not None:
                    # Struck from the table, the last one against the host would hand whoever is left the game
                    # (and the evening's point) without a card played: a computer plays on for it instead.
                    players[seat]["leaving"] = False
                    continue
                name = players[seat]["name"]
                self.change_seats("remove", seat)
                del players[seat]
                if self.seat is not None and self.seat > seat:
                    self.seat -= 1
                self.log_room_change(name)
                self.after_change()
                return True
        for relay in self.watchers():
            # A phone that joined during the deal plays from this one on (not one the host lets watch).
            if relay not in self.room.watching() and self.can_add_seat():
                self.seat_newcomer(relay)
                return True
        if self.can_add_seat() and not self.room.joining:
            self.meta["reopened"] = True
            self.room.set_joining(True)
        return False

    def log_room_change(self, name):
        """Keep the players list in step after the engine removed a seat (by name)."""
        self.sync_players()

    def seat_newcomer(self, relay):
        """Seat a phone that joined between deals (the engine's add_seat), as a remote seat."""
        place = self.room.places[relay]
        names = self.names()
        name = unique_names(names + [place["name"] or "?"])[-1]
        self.change_seats("add", name)
        player = seat_player(name, REMOTE, self.meta["room"].get("strength") if "room" in self.meta else None)
        player["relay"] = relay
        player["relay_name"] = place["name"]
        player["away"] = False
        self.meta["players"].append(player)
        self.after_change()
        self.room.describe()  # a full table no longer promises the next deal to the join link

    def check_stand_ins(self):
        """Let a computer play for a seat that stays away while the game waits for it."""
        if self.closed or self.outcome() is not None:
            return
        if self.stand_in_timer is not None:
            self.app.cancel(self.stand_in_timer)
            self.stand_in_timer = None
        now = self.app.now()
        players = self.players()
        waiting = self.waiting_for()
        due = None
        took = False
        for seat in waiting:
            player = players[seat] if seat < len(players) else None
            if player is None or player["kind"] != REMOTE or not player.get("away") or player.get("stand_in"):
                continue
            since = player["away_since"] if "away_since" in player else now
            if now - since >= self.room_stand_in_ms():
                player["stand_in"] = True
                cr = self.meta["cr"]
                key = str(seat)
                if key in cr["commits"] and key not in cr["own"]:
                    # Committed on the phone, which cannot reveal now: the computer chooses afresh.
                    del cr["commits"][key]
                    if key in cr["reveals"]:
                        del cr["reveals"][key]
                took = True
            else:
                remaining = since + self.room_stand_in_ms() - now
                due = remaining if due is None or remaining < due else due
        if took:
            self.save()
            self.broadcast()
            self.changed()
            self.schedule_computers()
        if due is not None and not self.closed:
            self.stand_in_timer = self.app.later(self.stand_in_fired, due)

    def stand_in_fired(self):
        self.stand_in_timer = None
        self.check_stand_ins()

    def room_stand_in_ms(self):
        return self.room.stand_in_ms if self.room is not None else STAND_IN_MS

    def waiting_for(self):
        """Return the seats the game waits for now (to move; in secret games: not yet committed or revealed)."""
        moving = self.engine.to_move(self.state)
        if not self.secret_choices():
            return moving
        cr = self.meta["cr"]
        out = []
        for seat in moving:
            key = str(seat)
            if key not in cr["commits"] or (self.want() == "reveal" and key not in cr["reveals"]):
                out.append(seat)
        return out

    def on_remote(self, relay, data):
        """Handle a phone's frame: an action, a commitment, a reveal, or a request for its view."""
        seat = self.seat_of(relay)
        kind = data["k"]
        if seat is None:
            if relay in self.room.places and not self.room.places[relay]["removed"]:
                if kind == "sync":
                    self.send_watcher(relay)
                else:
                    self.tell(relay, "watching", "")
            else:
                self.room.turn_away(relay)
            return
        if kind == "sync":
            self.send_seat(seat)
            return
        if self.players()[seat].get("stand_in") or self.players()[seat].get("away"):
            self.players()[seat]["away"] = False  # it is back: hand the seat over
            self.hand_back(seat)
        if kind == "act" and not self.secret_choices():
            if is_whole(data.get("n")):
                self.acts_taken[seat] = data["n"]
            try:
                if seat not in self.engine.to_move(self.state):
                    raise IllegalAction("not your turn")
                self.apply(seat, data["action"])
            except (IllegalAction, KeyError, TypeError) as error:
                self.tell(relay, "illegal", str(error))
                self.send_seat(seat)
                return
            self.mover = seat
            try:
                self.after_change()
            finally:
                self.mover = None
        elif kind == "commit" and self.secret_choices():
            self.remote_commit(seat, relay, data)
        elif kind == "reveal" and self.secret_choices():
            self.remote_reveal(seat, relay, data)
        else:
            self.tell(relay, "illegal", "unexpected frame")

    # -- commit-reveal -----------------------------------------------------------------------
    def commit_own(self, seat, action):
        """Commit an action this device chooses (its person or a computer) with a fresh nonce."""
        if action not in self.engine.legal_actions(self.state, seat):
            raise IllegalAction("%r is not allowed now" % (action,))
        cr = self.meta["cr"]
        key = str(seat)
        if key in cr["commits"]:
            raise IllegalAction("seat %d has already chosen this round" % seat)
        nonce = self.app.room_nonce()
        cr["own"][key] = [action, nonce]
        cr["commits"][key] = commitment(action, nonce)

    def remote_commit(self, seat, relay, data):
        cr = self.meta["cr"]
        key = str(seat)
        digest = data["hash"] if "hash" in data else None
        if data.get("id") != cr["id"] or seat not in self.engine.to_move(self.state) or key in cr["commits"]:
            self.tell(relay, "stale", "")
            self.send_seat(seat)
            return
        if not isinstance(digest, str) or len(digest) != 64:
            self.tell(relay, "illegal", "a commitment is 64 hex digits")
            return
        cr["commits"][key] = digest
        if key in cr["bad"]:
            cr["bad"].remove(key)
        self.advance_round()

    def remote_reveal(self, seat, relay, data):
        cr = self.meta["cr"]
        key = str(seat)
        if data.get("id") != cr["id"] or key not in cr["commits"] or self.want() != "reveal":
            self.send_seat(seat)
            return
        if key in cr["reveals"]:
            return  # sent twice (after a reconnect): the first one counts
        action = data["action"] if "action" in data else None
        nonce = data["nonce"] if "nonce" in data else None
        if not isinstance(action, str) or not isinstance(nonce, str) or \
                commitment(action, nonce) != cr["commits"][key]:
            # Shown on every device, never played; the phone may reveal again.
            if key not in cr["bad"]:
                cr["bad"].append(key)
            self.tell(relay, "mismatch", "")
            self.save()
            self.broadcast()
            self.changed()
            return
        if action not in self.engine.legal_actions(self.state, seat):
            # Committed to an illegal action: that seat commits again.
            del cr["commits"][key]
            self.tell(relay, "illegal", action)
            self.save()
            self.broadcast()
            self.changed()
            return
        was_bad = key in cr["bad"]
        if was_bad:
            cr["bad"].remove(key)
        cr["reveals"][key] = [action, nonce]
        self.advance_round(quiet=not was_bad)

    def advance_round(self, quiet=False):
        """After a commitment or reveal: ask for reveals once all committed; play them once all revealed.

        quiet: only a reveal came in and others are still missing; nothing any device shows changed.
        """
        cr = self.meta["cr"]
        if self.want() == "reveal":
            for key in cr["own"]:
                if key in cr["commits"] and key not in cr["reveals"]:
                    cr["reveals"][key] = cr["own"][key]
            moving = self.engine.to_move(self.state)
            if all([str(seat) in cr["reveals"] for seat in moving]):
                self.play_reveals(moving)
                return
        if not quiet:
            self.broadcast()  # the phones first (they reveal on it): saving is not on their way
        self.save()
        if quiet:
            return
        self.changed()
        self.check_stand_ins()

    def play_reveals(self, seats):
        """Apply every revealed action (checked against its commitment), tell every device, go on."""
        cr = self.meta["cr"]
        entries = []
        for seat in sorted(seats):
            key = str(seat)
            action, nonce = cr["reveals"][key]
            entries.append([seat, action, nonce, cr["commits"][key]])
        for entry in entries:
            self.apply(entry[0], entry[1])
        if self.room is not None:
            self.flush_broadcast()  # every device saw all commitments before it sees the reveal
            self.room.link.send({"type": "to_all", "data": {"k": "reveal", "id": cr["id"], "entries": entries}})
        self.meta["cr"] = new_round(cr["id"] + 1)
        self.meta["last_reveal"] = {"id": cr["id"], "entries": entries}
        self.after_change()

    def schedule_computers(self):
        if not self.secret_choices():
            LocalTable.schedule_computers(self)
            return
        if self.closed or self.outcome() is not None:
            return
        cr = self.meta["cr"]
        moved = False
        for seat in self.computer_seats():
            if str(seat) not in cr["commits"]:
                self.commit_own(seat, self.choose_for(seat))
                moved = True
        if moved:
            self.advance_round()


def kept_table(doc):
    """Return the last table message a place kept (see RemoteTable.save_table) if it is whole, else None."""
    shown = doc.get("shown") if "token" in doc else None
    if not isinstance(shown, dict) or shown.get("k") != "table" or not isinstance(shown.get("view"), dict) \
            or not isinstance(shown.get("seats"), list) or shown.get("game") not in GAME_MODULES:
        return None
    if doc["role"] == "seat" and not isinstance(shown.get("seat"), int):
        return None
    return shown


def apply_pending(engine, view, action):
    """Show a committed but unrevealed action in its owner's view (engines with secret choices know how)."""
    view["pending"] = action
    view["legal"] = []
    if engine is not None and hasattr(engine, "pending_view"):
        engine.pending_view(view, action)
    return view


def check_reveal(entries, commits):
    """Return the seats whose reveal does not match its commitment (as seen here, or as sent)."""
    bad = []
    for entry in entries:
        seat, action, nonce, digest = entry[0], entry[1], entry[2], entry[3]
        key = str(seat)
        seen = commits[key] if key in commits else digest
        if commitment(action, nonce) != digest or seen != digest:
            bad.append(seat)
    return bad


# -- phone and screen ------------------------------------------------------------------------------
class RemoteTable(Table):
    """A phone's seat (or, as ScreenTable, a screen): the last view from the host; acts by sending."""

    role = "remote"

    def __init__(self, app, doc):
        """doc: {"role": "seat"|"screen", "code", and "token" or a join's "secret"/"pin" and "name"}."""
        Table.__init__(self)
        self.app = app
        self.doc = dict(doc)
        self.message = None   # the last table message
        self.lobby = None     # the last lobby message
        self.host = "online"
        self.notice = None    # (code, text) of the last error from the host
        self.mismatch = []    # seats whose reveal did not match (seen here)
        self.commits = {}     # the commitments seen for the current round
        self.removed = False
        self.name_taken = None  # the name someone in the room has already (the host said so): ask for another
        self.render_timer = None
        self.render_held = False
        self.resend = False   # after a reconnect (ours or the host's): offer our commitment/reveal again
        self.revealed = None  # the round id whose reveal this phone sent
        self.last_reveal = None
        self.acted_on = None  # the view an action was sent from, until the host's answer comes
        self.acted = None     # the action sent from it
        self.acted_at = 0     # when it was sent
        self.acts_sent = 0    # this phone's acts so far: the host says which one its table messages answer
        self.unanswered = None  # (view, action) when the line broke before the answer: the next view tells
        self.received_at = 0  # when the last table message came (away seats' countdowns start there)
        self.stood_in = None  # what a computer played for this seat while the phone was away
        self.fresh = False  # a table came since the last (re)connect
        self.pending_view = None  # (message, pending, the view with the pending choice shown)
        self.game = None
        self.plugin = None
        self.engine = None
        self.closed = False
        self.save_timer = None
        # After a reload: the last table this device was sent, drawn at once and marked as reconnecting;
        # nothing can be played from it (a choice must come from the host's fresh view).
        self.stale = False
        shown = kept_table(self.doc)
        if shown is not None:
            self.set_game(shown["game"])
            self.message = shown
            self.stale = True
        if "token" in self.doc:
            hello = {"type": "resume", "v": PROTOCOL, "room": self.doc["code"], "token": self.doc["token"]}
        else:
            hello = {"type": "join", "v": PROTOCOL, "room": self.doc["code"], "name": self.doc.get("name", ""),
                     "role": self.doc["role"]}
            if self.doc.get("secret"):
                hello["secret"] = self.doc["secret"]
            else:
                hello["pin"] = self.doc.get("pin", "")
        self.link = RoomLink(app, hello, self)

    @property
    def seat(self):
        if self.message is None or self.doc["role"] != "seat":
            return None
        return self.message["seat"]

    def start(self):
        self.link.start()

    def changed(self, event=None):
        coalesce_changed(self, REVEAL_HOLD_MS if self.reveal_due() else 0)

    def reveal_due(self):
        """Return True while every seat has committed and the reveal is on its way (from this phone too)."""
        if self.stale or self.message is None or "cr" not in self.message or self.message["cr"]["want"] != "reveal":
            return False
        return self.seat is None or self.pending() is None or self.revealed == self.message["cr"]["id"]

    def seen_rounds(self):
        kept = self.doc["seen"] if "seen" in self.doc else None
        if kept is None or self.message is None or kept[0] != self.message.get("started_at"):
            return None  # nothing kept, or kept for an earlier game in this room
        return kept[1]

    def keep_seen(self, count, save=True):
        if self.message is None:
            return
        kept = self.seen_rounds()
        if self.stale and kept is not None and count < kept:
            return  # the table kept before a reload can be older than the reveals this phone went on from
        self.doc["seen"] = [self.message.get("started_at"), count]
        if save:
            self.app.storage.save_room(self.doc)

    def leave_room(self):
        """Give the place up for good (the relay frees it) and forget the token."""
        self.link.send({"type": "leave"})
        self.link.stop()
        self.app.storage.clear_room()

    def disconnect(self):
        """Close the socket but keep the place (the phone left the room page)."""
        if self.save_timer is not None:
            self.app.cancel(self.save_timer)
            self.save_table()
        self.link.stop()

    def keep_table(self):
        """Keep the last table message in the room place, once the messages pause (not on the drawing's path)."""
        if self.save_timer is not None:
            self.app.cancel(self.save_timer)
        self.save_timer = self.app.later(self.save_table, SHOWN_SAVE_MS)

    def save_table(self):
        self.save_timer = None
        if self.link.state == "closed":
            return  # left, removed or ended: the place is forgotten, not written back
        if "token" in self.doc and self.message is not None and not self.stale:
            self.doc["shown"] = self.message
            self.app.storage.save_room(self.doc)

    # -- link callbacks ---------------------------------------------------------------------
    def on_welcome(self, frame):
        self.host = frame["host"] if "host" in frame else "online"
        if "token" in frame:
            seen = self.doc["seen"] if "seen" in self.doc else None  # a resume keeps what this phone has shown
            recorded = self.doc["recorded"] if "recorded" in self.doc else None
            doc = {"role": self.doc["role"], "code": frame["room"], "token": frame["token"],
                   "name": frame.get("name", ""), "pending": None, "seen": seen, "recorded": recorded}
            for key in ("secret", "pin"):  # how it joined: a join again with another name needs it
                if self.doc.get(key):
                    doc[key] = self.doc[key]
            self.doc = doc
            self.app.storage.save_room(self.doc)
        self.resend = True
        self.fresh = False  # no table since this (re)connect yet
        self.lost_line()  # an action sent before the line dropped may be lost: the host's view decides
        if self.doc["role"] == "seat":
            self.link.send({"type": "to_host", "data": {"k": "sync"}})

    def on_link(self):
        state, detail = self.link.status()
        if state == "closed" and self.stale:
            # The place is gone (the room ended while this page was away): not its old table, but why.
            self.message = None
            self.stale = False
        if state == "closed" and detail in ("bad_token", "unknown_room", "ended", "host_gone", "idle", "left"):
            stored = self.app.storage.load_room()
            if stored is not None and stored.get("token") == self.doc.get("token"):
                self.app.storage.clear_room()
        self.changed()

    def on_frame(self, frame):
        kind = frame["type"]
        if kind == "presence" and frame["role"] == "host":
            self.host = "away" if frame["status"] == "away" else "online"
            self.changed()
            if self.host == "online" and self.doc["role"] == "seat":
                self.resend = True
                self.lost_line()
                self.link.send({"type": "to_host", "data": {"k": "sync"}})
            return
        if kind != "msg" or frame["from"] != "host":
            return
        data = frame["data"]
        if not isinstance(data, dict) or "k" not in data:
            return
        k = data["k"]
        localise_host_names(data)
        if k == "table":
            self.take_table(data)
        elif k == "lobby":
            self.lobby = data
            self.set_game(data["game"])
            if self.message is not None:
                # The host went back to the lobby for another game in the same room.
                self.message = None
                self.stale = False
                self.doc["shown"] = None
                self.set_pending(None)
        elif k == "reveal":
            self.take_reveal(data)
        elif k == "stood_in" and isinstance(data.get("actions"), list):
            self.stood_in = data["actions"]
            if not self.fresh:
                return  # drawn with the table that follows: the note must not stand over the feed from before
        elif k == "error":
            self.notice = (data["code"], data.get("text", ""))
            self.acted_on = None
            if data["code"] == "illegal":
                self.set_pending(None)
        elif k == "removed":
            self.removed = True
            self.link.send({"type": "leave"})
            self.link.stop()
            self.app.storage.clear_room()
        elif k == "name_taken" and self.doc["role"] == "seat":
            # Not this place's name to keep: give the place up and let the person join with another name.
            name = data["name"] if isinstance(data.get("name"), str) else self.doc.get("name", "")
            self.name_taken = name or ""
            self.link.send({"type": "leave"})
            self.link.stop()
            self.app.storage.clear_room()
        self.changed()

    def set_game(self, game):
        if self.game != game:
            self.game = game
            self.plugin = game_module(game)
            self.engine = load_engine(game)

    def answers_act(self, data):
        """Return True when a table message shows the host took this phone's last act: it says so ("acted"), or
        the turn moved on. Another seat's move in the same phase (Golf's peek) changes the view too, and must not
        offer this seat's move again while its own is on the way (a second tap would be refused)."""
        if data.get("acted") == self.acts_sent:
            return True
        if "acted" in data and self.seat in (data.get("moving") or []):
            return False
        return data["view"] != self.acted_on  # a host of an older release says nothing: any change answers

    def lost_line(self):
        """The line to the host broke (ours or the host's) while a move was on its way: the host's next view
        tells whether it arrived."""
        if self.acted_on is not None:
            self.unanswered = (self.acted_on, self.acted)
        self.acted_on = None

    def take_table(self, data):
        self.set_game(data["game"])
        if self.acted_on is not None and self.answers_act(data):
            self.acted_on = None
        lost = None
        if self.unanswered is not None:
            if data["view"] == self.unanswered[0]:  # the same view as before the move: the move never arrived
                lost = self.unanswered[1]
            self.unanswered = None
        self.message = data
        self.stale = False
        if lost is not None:
            self.send_again(lost)
        self.fresh = True
        self.received_at = self.app.now()
        self.keep_table()
        if "cr" in data:
            cr = data["cr"]
            pending = self.pending()
            if pending is not None and pending["id"] != cr["id"]:
                self.set_pending(None)
                pending = None
            self.commits = dict(cr["commits"])
            my = None if self.seat is None else str(self.seat)
            if pending is not None and my is not None:
                if my in cr["commits"] and cr["commits"][my] != pending["hash"]:
                    self.set_pending(None)  # a stand-in chose for this seat meanwhile
                elif my not in cr["commits"] and cr["want"] == "commit" and self.resend:
                    # The host has no commitment from us (it reloaded, or we were away): offer it again.
                    self.send_commit(pending)
                elif cr["want"] == "reveal" and my in cr["commits"] and (self.resend or self.revealed != cr["id"]):
                    self.revealed = cr["id"]
                    self.link.send({"type": "to_host", "data": {"k": "reveal", "id": pending["id"],
                                                                "action": pending["action"], "nonce": pending["nonce"]}})
        self.resend = False
        view = data["view"]
        if view is not None and view.get("outcome") is not None:
            self.record_result()

    def take_reveal(self, data):
        """Keep the reveal and check it against the commitments seen (the drawing that follows shows a mismatch)."""
        self.last_reveal = data
        commits = dict(self.commits)
        pending = self.pending()
        own = None
        if pending is not None and self.seat is not None:
            own = [self.seat, pending["action"], pending["nonce"], pending["hash"]]
        self.set_pending(None)

        entries = [entry for entry in data["entries"] if own is None or list(entry) != own]
        self.mismatch = check_reveal(entries, commits)

    # -- the verbs -----------------------------------------------------------------------------
    def view(self):
        if self.message is None:
            return None
        view = self.message["view"]
        pending = self.pending()
        if pending is not None and self.seat is None:
            pending = None
        if (pending is not None or self.stale) and view is not None:
            # A drawing asks for the view several times: the one with the pending choice is made once.
            if self.pending_view is not None and self.pending_view[0] is self.message and \
                    self.pending_view[1] is pending:
                return self.pending_view[2]
            shown = dict(view)
            if "hand" in shown and isinstance(shown["hand"], list):
                shown["hand"] = list(shown["hand"])
            if pending is not None:
                apply_pending(self.engine, shown, pending["action"])
            elif "legal" in shown:
                shown["legal"] = []  # the view from before the reload: nothing is played from it
            self.pending_view = (self.message, pending, shown)
            return shown
        return view

    def seats(self):
        if self.message is None:
            return []
        out = []
        seats = self.message["seats"]
        for index in range(len(seats)):
            entry = dict(seats[index])
            entry["me"] = index == self.seat
            if "stand_in_in" in entry and not self.stale:  # a countdown from before the reload is not one
                entry["stand_in_at"] = self.received_at + entry["stand_in_in"]
            out.append(entry)
        return out

    def names(self):
        view = self.view()
        return list(view["names"]) if view is not None and "names" in view else []

    def over(self):
        """Return True once the host's game has its outcome (a game's view need not carry it)."""
        if self.message is not None and "over" in self.message:
            return bool(self.message["over"])
        return self.outcome() is not None

    def to_move(self):
        """Return the seats the host's game waits for (as its last table message said), this one not
        while its committed choice or its action is on the way to the host."""
        if self.message is None or self.stale:
            return []
        moving = self.message.get("moving")
        if moving is None:  # a host of an older release: the view's turn where the game has one
            turn = self.message["view"].get("turn") if self.message["view"] is not None else None
            moving = [] if turn is None else [turn]
        waiting = self.pending() is not None or self.acted_on is not None  # this seat's move is on its way
        return [seat for seat in moving if not (seat == self.seat and waiting) and str(seat) not in self.commits]

    def secret_choices(self):
        return self.message is not None and "cr" in self.message

    def act(self, action, seat=None):
        """Send an action for this phone's seat (a commitment first in secret games)."""
        view = self.view()
        if self.seat is None or view is None:
            raise IllegalAction("this device does not play a seat")
        if self.stale:  # the host's fresh view has not come yet: a choice must be made from that one
            raise ShownRefusal(self.app_text("room.not_sent"))
        if "legal" in view:
            action = check_action(self.engine, view, action)  # the rules the host applies
        if self.acted_on is not None and not self.secret_choices():  # one move at a time: this one waits
            raise ShownRefusal(self.app_text("room.move_sent"))
        if self.link.state != "online" or self.host != "online":
            raise ShownRefusal(self.app_text("room.not_sent"))
        if self.secret_choices():
            cr = self.message["cr"]
            nonce = self.app.room_nonce()
            pending = {"id": cr["id"], "action": action, "nonce": nonce, "hash": commitment(action, nonce)}
            self.set_pending(pending)
            self.send_commit(pending)
        else:
            self.send_act(action)
        self.notice = None
        self.stood_in = None
        self.changed()

    def send_act(self, action):
        """Send one action to the host and wait for its answer (one move at a time)."""
        self.acts_sent += 1
        self.link.send({"type": "to_host", "data": {"k": "act", "action": action, "n": self.acts_sent}})
        self.acted_on = self.message["view"]
        self.acted = action
        self.acted_at = self.app.now()
        self.app.later(self.changed, MOVE_SLOW_MS + 50)  # still unanswered then: the bar says so

    def send_again(self, action):
        """Send a move the host never received (the line broke on its way) once more: the host's view is the one
        it was made from, so it is still this seat's move and still legal. Said instead when it cannot go."""
        if self.seat in self.to_move() and self.link.state == "online" and self.host == "online":
            self.send_act(action)
        else:
            self.notice = ("lost", "")

    def app_text(self, key):
        from spieleabend.ui.i18n import t
        return t(key)

    def move_slow(self, now):
        """Return True while this phone's move has waited for the host's answer longer than MOVE_SLOW_MS."""
        return self.acted_on is not None and not self.stale and now - self.acted_at >= MOVE_SLOW_MS

    def send_commit(self, pending):
        self.link.send({"type": "to_host", "data": {"k": "commit", "id": pending["id"], "hash": pending["hash"]}})

    def pending(self):
        """Return this phone's committed, unrevealed choice {"id", "action", "nonce", "hash"} or None."""
        return self.doc.get("pending")

    def set_pending(self, pending):
        if self.doc.get("pending") != pending:
            self.doc["pending"] = pending
            if "token" in self.doc:
                self.app.storage.save_room(self.doc)

    def outcome(self):
        view = self.view()
        return view.get("outcome") if view is not None else None

    def computers_busy(self):
        return False

    def edit(self, change):
        raise IllegalAction("only the host changes the table")

    def watching(self):
        """Return "game" or "deal" while this place watches a game it does not play (its next one), else None."""
        if self.message is None or "watch" not in self.message:
            return None
        return self.message["watch"]

    def record_result(self):
        """Put the finished room game into this device's Ergebnisse once (not a game it only watched).

        "recorded" holds the start time of the game recorded last: each game of the evening is recorded once."""
        started = self.message.get("started_at")
        if self.doc.get("recorded") in (True, started) or self.plugin is None or self.watching() is not None:
            return
        view = self.message["view"]
        entry = result_entry(self.app, self.game, view["names"], view["outcome"], self.seat,
                             self.message.get("started_at"), self.app.storage.night()["id"],
                             self.message.get("history") or [], self.doc.get("code"), computer_players(self))
        entry["replay"] = keep_replay(self.app, self.message.get("replay"), self.seat)
        if not self.app.storage.add_result(entry):
            if entry["replay"]:
                self.app.storage.delete_replay(entry["replay"])  # made again with the result
            self.app.toast_storage_full()  # not marked recorded: the next view tries again
            return
        self.doc["recorded"] = started
        if "token" in self.doc:
            self.app.storage.save_room(self.doc)


class ScreenTable(RemoteTable):
    """A TV or tablet at the table: the public view only; it never acts and never holds a secret."""

    role = "screen"

    @property
    def seat(self):
        return None

    def reads_from_afar(self):
        return True

    def act(self, action, seat=None):
        raise IllegalAction("a screen does not play")

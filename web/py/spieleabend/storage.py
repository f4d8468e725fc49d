"""The one module that reads and writes the browser's storage (localStorage).

Everything kept is a versioned JSON document `{"format": 1, ...}`. A document
that cannot be read (damaged JSON, wrong shape, or written by a newer release)
is never dropped or overwritten: it is moved aside under a `damaged` key, a
notice is recorded for the UI, and the app goes on with defaults.

The backend (localStorage or a dict-backed fake) and the JSON codec are passed
in, so this module runs unchanged in CPython tests and in Brython.
"""

FORMAT = 1
NIGHT_FORMAT = 2  # 2: {"current": night, "past": [nights]} with people; 1 was {"id", "started_at"}
PREFIX = "spieleabend."
SETTINGS_KEY = PREFIX + "settings"
RESULTS_KEY = PREFIX + "results"
NIGHT_KEY = PREFIX + "night"
SAVE_PREFIX = PREFIX + "save."
ROOM_KEY = PREFIX + "room"  # the room this device is in: its place's token (rooms)
DAMAGED_PREFIX = PREFIX + "damaged."
KEPT_ASIDE = 3  # copies set aside from one document (a damaged save, say) kept for whoever looks into them
REPLAY_PREFIX = PREFIX + "replay."  # one finished game's replay per key (games.replay), the first to go
DROPPED_KEY = PREFIX + "replays-dropped"  # how many replays were dropped for room, until Ergebnisse says so
REPLAY_KIND = "spieleabend.replay"  # a file (or transfer) carrying one replay
REPLAY_HEADROOM = 256 * 1024  # kept free for saves and results: one whole saved game
MAX_RESULTS = 200
MAX_NIGHTS = 100
MAX_PEOPLE = 12
MAX_NAME = 24
GAME_FILE_KIND = "spieleabend.game"  # a file (or transfer) carrying one saved game
BACKUP_KIND = "spieleabend.backup"  # a file with every result and game night
MAX_GAME_CHARS = 256 * 1024
MAX_BACKUP_CHARS = 4 * 1024 * 1024

DEFAULT_SETTINGS = {
    "language": "de",
    "motion": "system",  # "system" follows prefers-reduced-motion; "reduce" or "full" override it
    "contrast": 50,
    "grain": 50,
    "temperature": 50,
    "memory_aid": False,
    "vibrate": True,  # a short buzz when a room's turn comes to this device's person (phones that can)
    "name": "",
    "seen_version": "",  # the release this browser last started, to say "updated" once
    "setup": {},  # each game's last start-screen choices: {game: {option: str, int, bool or None}}
}


class MemoryStorage:
    """A localStorage stand-in in memory: browsers that refuse storage, and the build's pre-render."""

    def __init__(self, items=None):
        self.items = {}
        self.length = 0
        # Writes made through this copy, numbered, and each key's latest: a change read from storage
        # before the page carried out a later write of ours to that key is already out of date.
        self.writes = 0
        self.last_write = {}
        for key in items or {}:
            self._put(key, items[key])

    def getItem(self, key):
        return self.items.get(key)

    def setItem(self, key, value):
        self._put(key, value)
        self._count_write(key)

    def removeItem(self, key):
        self._drop(key)
        self._count_write(key)

    def key(self, index):
        keys = sorted(self.items)
        return keys[index] if 0 <= index < len(keys) else None

    def changed_elsewhere(self, key, value, writes_done=None):
        """Take a change another tab made to the stored original (value None: removed); nothing is written.

        `writes_done` is how many of this copy's writes the page had carried out when it read `value`:
        if this copy wrote the key after that, storage holds our write and `value` is dropped.
        Return True when the change was taken, False when it was dropped or changed nothing: Chromium can
        hand a new page the storage event of a write the tab's previous page made just before it went (a
        reload right after a move), and storage then holds what this copy holds, so nobody played on elsewhere.
        """
        if isinstance(writes_done, int) and self.last_write.get(key, 0) > writes_done:
            return False
        if self.items.get(key) == (str(value) if isinstance(value, str) else None):
            return False
        if isinstance(value, str):
            self._put(key, value)
        else:
            self._drop(key)
        return True

    def _put(self, key, value):
        self.items[key] = str(value)
        self.length = len(self.items)

    def _drop(self, key):
        self.items.pop(key, None)
        self.length = len(self.items)

    def _count_write(self, key):
        self.writes += 1
        self.last_write[key] = self.writes


class DamagedDocument(ValueError):
    """A stored document that cannot be used as it is."""


class Storage:
    """Versioned documents on top of a localStorage-like backend."""

    def __init__(self, backend, codec, clock):
        """Wrap `backend` (getItem/setItem/removeItem), `codec` (loads/dumps) and `clock()` in ms."""
        self.backend = backend
        self.codec = codec
        self.clock = clock
        self.notices = []  # (key, reason, aside_key) of documents moved aside during this run

    # -- reading and writing documents ------------------------------------------------
    def read(self, key, validate, current=FORMAT, migrate=None):
        """Return the body of the document at key, None if absent; move it aside if unusable.

        `current` is this release's format of the document; `migrate(document)` lifts an older one.
        """
        raw = self.backend.getItem(key)
        if raw is None:
            return None
        try:
            document = self.codec.loads(raw)
            if not isinstance(document, dict) or not isinstance(document.get("format"), int):
                raise DamagedDocument("no format number")
            if document["format"] > current:
                raise DamagedDocument("newer format %d" % document["format"])
            if document["format"] < 1:
                raise DamagedDocument("unknown format %d" % document["format"])
            if document["format"] < current and migrate is not None:
                document = migrate(document)
            validate(document)
        except DamagedDocument as error:
            self._set_aside(key, raw, str(error))
            return None
        except (ValueError, TypeError, KeyError, AttributeError, SyntaxError) as error:
            self._set_aside(key, raw, "unreadable (%s)" % type(error).__name__)
            return None
        except Exception as error:  # Brython raises JavaScript errors from JSON.parse
            self._set_aside(key, raw, "unreadable (%s)" % type(error).__name__)
            return None
        return document

    def write(self, key, document, fmt=FORMAT):
        """Store a document (adding the format number); return False if storage refused.

        One setItem: a refused write leaves the previous document whole. A save, a result or a
        setting refused for room drops the oldest replays, one at a time, until it fits.
        """
        document = dict(document)
        document["format"] = fmt
        text = self.codec.dumps(document)
        checked = False
        while True:
            try:
                self.backend.setItem(key, text)
                return True
            except Exception:  # quota exceeded or storage disabled (private mode)
                if key.startswith(REPLAY_PREFIX) or not (checked or self.replays_make_room(key, text)):
                    return False
                checked = True
                if not self.drop_oldest_replay():
                    return False

    def replays_make_room(self, key, text):
        """Return False when even without every replay `text` would not fit under the backend's limit.

        Then no replay is dropped for it (a shared one included): it would go for nothing. A backend
        without a known limit (the browser's own storage) may have room after all: True.
        """
        limit = getattr(self.backend, "limit", None)
        if limit is None:
            return True
        replays = sum(self.replay_sizes(self.replay_ids()))
        old = self.backend.getItem(key)
        needed = self.used_chars() - (len(key) + len(old) if old is not None else 0) + len(key) + len(text) - limit
        return needed <= replays

    def set_aside(self, key, reason):
        """Move a stored document this app cannot use after all aside (with a notice), as `read` does."""
        raw = self.backend.getItem(key)
        if raw is not None:
            self._set_aside(key, raw, reason)

    def _set_aside(self, key, raw, reason):
        aside = "%s%s.%d" % (DAMAGED_PREFIX, key[len(PREFIX):], self.clock())
        try:
            self.backend.setItem(aside, raw)
        except Exception:
            aside = None  # no room to keep a copy: leave the original where it is
        if aside is not None:
            self.backend.removeItem(key)
            self._drop_old_copies(key[len(PREFIX):])
        self.notices.append({"key": key, "reason": reason, "aside": aside})

    def _drop_old_copies(self, name):
        """Keep the newest KEPT_ASIDE copies set aside from one document: older ones only fill storage."""
        stem = DAMAGED_PREFIX + name + "."
        copies = [key for key in self.keys() if key.startswith(stem) and key[len(stem):].isdigit()]
        for old in sorted(copies, key=lambda key: int(key[len(stem):]))[:-KEPT_ASIDE]:
            self.backend.removeItem(old)

    def damaged_keys(self):
        """Return the keys of documents set aside, oldest first."""
        keys = []
        for index in range(self.backend.length):
            key = self.backend.key(index)
            if key is not None and key.startswith(DAMAGED_PREFIX):
                keys.append(key)
        return sorted(keys)

    # -- settings -----------------------------------------------------------------------
    def load_settings(self, language="de"):
        """Return the settings, defaults filled in for anything missing or out of range (`language`: the browser's)."""
        document = self.read(SETTINGS_KEY, _validate_settings)
        settings = dict(DEFAULT_SETTINGS)
        settings["setup"] = {}  # a fresh dict: the defaults must never change
        if _setting_ok("language", language):
            settings["language"] = language
        if document is not None:
            for name, value in document["settings"].items():
                if name in settings and _setting_ok(name, value):
                    settings[name] = value
            _upgrade_setup(settings["setup"], document["settings"])
        return settings

    def save_settings(self, settings):
        """Store the settings."""
        return self.write(SETTINGS_KEY, {"settings": settings})

    # -- saved games --------------------------------------------------------------------
    def save_game(self, game, state, meta):
        """Store the running game of one kind (one slot per game)."""
        return self.write(SAVE_PREFIX + game, {"game": game, "state": state, "meta": meta,
                                               "saved_at": self.clock()})

    def load_game(self, game):
        """Return the saved document of one game, or None."""
        def validate(document):
            _validate_save(document)
            if document["game"] != game:  # its tile would lead to this key's game, which has no such save
                raise DamagedDocument("a save of %s under %s" % (document["game"][:20], game))
        return self.read(SAVE_PREFIX + game, validate)

    def running_game(self, game):
        """Return the saved game of one kind that is still being played, or None: a finished game whose save
        is kept only until its last round was shown (meta "recorded": it is in Ergebnisse) is not replaced
        by a question."""
        document = self.load_game(game)
        return None if document is None or document["meta"].get("recorded") else document

    def set_aside_game(self, game, reason):
        """Move the saved game of one kind aside: it reads, but its engine cannot go on with it."""
        self.set_aside(SAVE_PREFIX + game, reason)

    def delete_game(self, game):
        """Remove the saved game of one kind (after it finished)."""
        self.backend.removeItem(SAVE_PREFIX + game)

    def saved_games(self, games):
        """Return the saved documents of the given games, newest first."""
        found = [doc for doc in (self.load_game(game) for game in games) if doc is not None]
        return sorted(found, key=lambda doc: -doc.get("saved_at", 0))

    # -- the room this device is in -------------------------------------------------------
    def load_room(self):
        """Return this device's room place {"role", "code", "token", ...}, or None."""
        document = self.read(ROOM_KEY, _validate_room)
        return None if document is None else document["room"]

    def save_room(self, room):
        """Keep the room place (its token) so a reload takes the place back."""
        return self.write(ROOM_KEY, {"room": room})

    def clear_room(self):
        """Forget the room (it ended, or this device left it)."""
        self.backend.removeItem(ROOM_KEY)

    # -- finished games and the game night -----------------------------------------------
    def results(self):
        """Return the finished games, newest first (entries of older releases filled in)."""
        document = self.read(RESULTS_KEY, _validate_results)
        if document is None:
            return []
        out = []
        for entry in document["results"]:
            entry = normalize_result(entry)
            if entry is not None:
                out.append(entry)
        return out

    def add_result(self, result):
        """Record a finished game at the front of the results list (in tonight's game night if it names none)."""
        if not result.get("night"):
            result = dict(result)
            result["night"] = self.night()["id"]
        document = self.read(RESULTS_KEY, _validate_results)
        results = [result] + ([] if document is None else document["results"])  # entries as stored
        if not self.write(RESULTS_KEY, {"results": results[:MAX_RESULTS]}):
            return False
        self.drop_replays_of(results[MAX_RESULTS:])
        return True

    def drop_replays_of(self, gone):
        """Remove the replays of results no longer kept: nothing in the app leads to them any more."""
        for entry in gone:
            if isinstance(entry, dict) and isinstance(entry.get("replay"), str):
                self.delete_replay(entry["replay"])

    def nights(self):
        """Return the game-night document {"current": night or None, "past": [nights, newest first]}."""
        document = self.read(NIGHT_KEY, _validate_night, NIGHT_FORMAT, _migrate_night)
        if document is None:
            return {"current": None, "past": []}
        return {"current": document["current"], "past": document["past"]}

    def night(self):
        """Return the current game night {"id", "started_at", "people"}, starting one if there is none."""
        current = self.nights()["current"]
        if current is None:
            return self.new_night()
        return current

    def new_night(self, people=None):
        """Start a new game night (the current one becomes a past one) and return it."""
        nights = self.nights()
        now = self.clock()
        night_id = "n%d" % now
        past = list(nights["past"])
        current = nights["current"]
        if current is not None:
            if current["id"] == night_id:
                night_id = "n%d_%d" % (now, len(past) + 1)
            past = [n for n in past if n["id"] != current["id"]]
            # An evening without a game is no earlier evening (an audit: "06.12., 10:10 · 0 Partien").
            if self.night_in_use(current["id"]):
                ended = dict(current)
                ended["ended_at"] = now
                past = [ended] + past
        night = {"id": night_id, "started_at": now, "people": clean_names(people or [])}
        self.write(NIGHT_KEY, {"current": night, "past": past[:MAX_NIGHTS]}, NIGHT_FORMAT)
        return night

    def night_in_use(self, night_id):
        """Return True when a finished game or a saved one (it may still finish) belongs to this night."""
        for result in self.results():
            if result["night"] == night_id:
                return True
        for key in self.keys():
            if key.startswith(SAVE_PREFIX):
                document = self.read(key, _validate_save)
                if document is not None and document["meta"].get("night") == night_id:
                    return True
        return False

    def set_people(self, people):
        """Name the people of the current game night; return False if storage refused."""
        nights = self.nights()
        current = dict(nights["current"] or self.night())
        current["people"] = clean_names(people)
        return self.write(NIGHT_KEY, {"current": current, "past": nights["past"]}, NIGHT_FORMAT)

    def find_night(self, night_id):
        """Return the current or a past night with this id, or None."""
        nights = self.nights()
        if nights["current"] is not None and nights["current"]["id"] == night_id:
            return nights["current"]
        for night in nights["past"]:
            if night["id"] == night_id:
                return night
        return None

    # -- replays of finished games (the first thing to go when storage is nearly full) ------------
    def keys(self):
        """Return every stored key (a backend in memory lists its own: key(i) sorts them on each call)."""
        if isinstance(getattr(self.backend, "items", None), dict):
            return list(self.backend.items)
        return [key for key in (self.backend.key(index) for index in range(self.backend.length)) if key is not None]

    def replay_ids(self):
        """Return the ids of the stored replays, oldest first (an id begins with its finish time)."""
        ids = [key[len(REPLAY_PREFIX):] for key in self.keys() if key.startswith(REPLAY_PREFIX)]
        return sorted(ids, key=replay_age)

    def add_replay(self, document):
        """Store a replay document and return its id; None when there is no room even without older replays.

        Storage counts as nearly full when less than REPLAY_HEADROOM would stay free: then the
        oldest replays are dropped first (and counted for Ergebnisse' note), never a save or result.
        """
        taken = self.replay_ids()
        text = self.codec.dumps(document)
        stem = "%d-%s" % (document.get("finished_at") or self.clock(), document["game"])
        for known in taken:  # the same replay again (by code, then by file): the one kept already
            if known.startswith(stem) and self.backend.getItem(REPLAY_PREFIX + known) == text:
                return known
        number = 1
        replay_id = None
        while replay_id is None or replay_id in taken:
            # "<finished>-<game>[-<n>][-r]": the finish time orders them, "-r" marks one received from elsewhere
            replay_id = "%s%s%s" % (stem, "-%d" % number if number > 1 else "", "-r" if document.get("received") else "")
            number += 1
        limit = self.backend.limit if hasattr(self.backend, "limit") else None
        if limit is not None:
            over = self.used_chars() + len(text) + REPLAY_HEADROOM - limit
            sizes = self.replay_sizes(taken)
            if over > sum(sizes):
                return None  # not even without every older replay (the rest of storage fills it): keep them all
            for size in sizes:  # oldest first, as many as the new one needs
                if over <= 0:
                    break
                self.drop_oldest_replay()
                over -= size
        while True:
            try:
                self.backend.setItem(REPLAY_PREFIX + replay_id, text)
                return replay_id
            except Exception:
                if not self.drop_oldest_replay():
                    return None

    def replay_sizes(self, ids):
        """Return the characters each of these replays takes, as browsers count their quota."""
        return [len(REPLAY_PREFIX + known) + len(self.backend.getItem(REPLAY_PREFIX + known) or "") for known in ids]

    def used_chars(self):
        """Return the characters stored under this app's keys (how browsers count their quota)."""
        total = 0
        for key in self.keys():
            value = self.backend.getItem(key)
            total += len(key) + (len(value) if value is not None else 0)
        return total

    def load_replay(self, replay_id):
        """Return a stored replay document, or None when it is gone (dropped) or unreadable."""
        raw = self.backend.getItem(REPLAY_PREFIX + str(replay_id))
        if raw is None:
            return None
        try:
            return self.parse_replay_file(raw)
        except ImportProblem:
            return None

    def delete_replay(self, replay_id):
        """Remove one replay."""
        self.backend.removeItem(REPLAY_PREFIX + str(replay_id))

    def delete_all_replays(self):
        """Remove every replay (the person asked, for room); return how many went."""
        ids = self.replay_ids()
        for replay_id in ids:
            self.delete_replay(replay_id)
        return len(ids)

    def delete_damaged(self):
        """Remove every copy set aside as unreadable (the person asked); return how many went."""
        keys = self.damaged_keys()
        for key in keys:
            self.backend.removeItem(key)
        return len(keys)

    def drop_oldest_replay(self):
        """Drop the oldest replay to make room and count it for Ergebnisse; False when none is left."""
        ids = self.replay_ids()
        if not ids:
            return False
        self.backend.removeItem(REPLAY_PREFIX + ids[0])
        raw = self.backend.getItem(DROPPED_KEY)
        count = 0
        try:
            count = int(self.codec.loads(raw)["dropped"]) if raw else 0
        except Exception:
            count = 0
        try:
            self.backend.setItem(DROPPED_KEY, self.codec.dumps({"format": FORMAT, "dropped": count + 1}))
        except Exception:
            pass  # the note is the one thing that may be missing then
        return True

    def dropped_replays(self):
        """Return how many replays were dropped for room since Ergebnisse last said so."""
        raw = self.backend.getItem(DROPPED_KEY)
        try:
            document = self.codec.loads(raw) if raw else None
            return int(document["dropped"]) if isinstance(document, dict) else 0
        except Exception:
            return 0

    def clear_dropped_replays(self):
        """Forget the count once the person has read the note."""
        self.backend.removeItem(DROPPED_KEY)

    def parse_replay_file(self, text):
        """Return the replay document in text (a file, a code's answer or storage); raise ImportProblem.

        Only its shape is checked here; whether the engine rebuilds it is the replay screen's test.
        """
        from spieleabend.games.replay import ReplayProblem, check_document

        document = self._parse(text, MAX_GAME_CHARS)
        if "kind" not in document or document["kind"] != REPLAY_KIND:
            raise ImportProblem("foreign")
        _check_format(document, FORMAT)
        try:
            check_document(document)
        except ReplayProblem:
            raise ImportProblem("damaged")
        return document

    # -- carrying a game to another device and backups ------------------------------------
    def export_game(self, game):
        """Return the saved game as a file document (for a file or a transfer code), or None."""
        document = self.load_game(game)
        if document is None:
            return None
        return {"format": FORMAT, "kind": GAME_FILE_KIND, "game": game, "state": document["state"],
                "meta": document["meta"], "saved_at": document.get("saved_at", self.clock())}

    def parse_game_file(self, text, games):
        """Return the game document in text (a file or a transfer code's answer); raise ImportProblem.

        `games` lists the games this release knows; nothing is written here.
        """
        document = self._parse(text, MAX_GAME_CHARS)
        if "kind" in document and document["kind"] == BACKUP_KIND:
            raise ImportProblem("backup")
        if "kind" not in document or document["kind"] != GAME_FILE_KIND:
            raise ImportProblem("foreign")
        _check_format(document, FORMAT)
        if not isinstance(document.get("game"), str) or document["game"] not in games:
            raise ImportProblem("unknown_game")
        try:
            _validate_save(document)
        except DamagedDocument:
            raise ImportProblem("damaged")
        return document

    def import_game(self, document, night_id=None):
        """Store a received game as this device's save of its game; False if storage refused.

        The game joins this device's game night (`night_id`), where it will finish.
        """
        meta = dict(document["meta"])
        if night_id is not None:
            meta["night"] = night_id
        meta.pop("recorded", None)
        return self.save_game(document["game"], document["state"], meta)

    def export_backup(self):
        """Return every result and game night as one backup document."""
        nights = self.nights()
        return {"format": FORMAT, "kind": BACKUP_KIND, "exported_at": self.clock(),
                "results": self.results(), "nights": {"current": nights["current"], "past": nights["past"]}}

    def parse_backup(self, text):
        """Return the backup document in text; raise ImportProblem. Nothing is written here."""
        document = self._parse(text, MAX_BACKUP_CHARS)
        if "kind" in document and document["kind"] == GAME_FILE_KIND:
            raise ImportProblem("game_file")
        if "kind" not in document or document["kind"] != BACKUP_KIND:
            raise ImportProblem("foreign")
        _check_format(document, FORMAT)
        results = document.get("results")
        nights = document.get("nights")
        if not isinstance(results, list) or not isinstance(nights, dict):
            raise ImportProblem("damaged")
        clean = []
        for entry in results:
            if not _whole_result(entry):  # a backup is written whole: a missing or odd field means damage
                raise ImportProblem("damaged")
            clean.append(normalize_result(entry))
        try:
            _validate_night({"current": nights.get("current"), "past": nights.get("past")})
        except (DamagedDocument, TypeError, KeyError, AttributeError):
            raise ImportProblem("damaged")
        return {"results": clean, "nights": {"current": nights["current"], "past": nights["past"]}}

    def import_backup(self, backup):
        """Merge a parsed backup into results and game nights, both or neither.

        Return (new results kept, new results left out: older than the MAX_RESULTS kept), or None when
        storage refused (then nothing changed).
        """
        mine = self.results()
        seen = {}
        for entry in mine:
            seen[result_key(entry)] = True
        added = [entry for entry in backup["results"] if result_key(entry) not in seen]
        ordered = sorted(mine + added, key=lambda entry: -entry["finished_at"])
        merged = ordered[:MAX_RESULTS]
        kept = {}
        for entry in merged:
            kept[result_key(entry)] = True
        taken = len([entry for entry in added if result_key(entry) in kept])
        nights = self.nights()
        current = nights["current"] or self.night()
        theirs = ([backup["nights"]["current"]] if backup["nights"]["current"] else []) + backup["nights"]["past"]
        if backup["nights"]["current"] and not current["people"] and not any(
                entry["night"] == current["id"] for entry in mine):
            current = backup["nights"]["current"]  # a new device, nothing played here yet: tonight goes on here
        known = {current["id"]: True}
        for night in nights["past"]:
            known[night["id"]] = True
        past = list(nights["past"])
        for night in theirs:
            if night["id"] not in known:
                known[night["id"]] = True
                past.append(night)
        past = sorted(past, key=lambda night: -night["started_at"])[:MAX_NIGHTS]
        if not self.write_all([(RESULTS_KEY, {"results": merged}, FORMAT),
                               (NIGHT_KEY, {"current": current, "past": past}, NIGHT_FORMAT)]):
            return None
        self.drop_replays_of([entry for entry in ordered[MAX_RESULTS:] if result_key(entry) in seen])
        return taken, len(added) - taken

    def write_all(self, documents):
        """Write several documents, all or none: on a refusal the ones already written are put back."""
        before = [(key, self.backend.getItem(key)) for key, _doc, _fmt in documents]
        for key, document, fmt in documents:
            if not self.write(key, document, fmt):
                for old_key, raw in before:
                    try:
                        if raw is None:
                            self.backend.removeItem(old_key)
                        else:
                            self.backend.setItem(old_key, raw)
                    except Exception:
                        pass
                return False
        return True

    def _parse(self, text, limit):
        if isinstance(text, dict):
            return text
        if not isinstance(text, str) or not text.strip():
            raise ImportProblem("damaged")
        if len(text) > limit:
            raise ImportProblem("too_large")
        try:
            document = self.codec.loads(text)
        except Exception:  # CPython ValueError, Brython a JavaScript SyntaxError
            raise ImportProblem("damaged")
        if not isinstance(document, dict):
            raise ImportProblem("damaged")
        return document


class ImportProblem(ValueError):
    """A file or transfer that cannot be taken: `reason` is damaged, newer, unknown_game, foreign,
    backup (a backup given as a game), game_file (a game given as a backup) or too_large."""

    def __init__(self, reason):
        ValueError.__init__(self, reason)
        self.reason = reason


def is_whole(value):
    """Return True for an int that is not a bool (storage's own copy of games.common's: it loads without the games)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_format(document, current):
    if not is_whole(document.get("format")):
        raise ImportProblem("damaged")
    if document["format"] > current:
        raise ImportProblem("newer")
    if document["format"] < 1:
        raise ImportProblem("damaged")


def _validate_settings(document):
    if not isinstance(document.get("settings"), dict):
        raise DamagedDocument("settings missing")


def _setting_ok(name, value):
    if name in ("contrast", "grain", "temperature"):
        return is_whole(value) and 0 <= value <= 100
    if name == "language":
        return value in ("de", "en")
    if name == "motion":
        return value in ("system", "reduce", "full")
    if isinstance(DEFAULT_SETTINGS.get(name), bool):  # the switches (memory_aid, vibrate)
        return isinstance(value, bool)
    if name == "name":
        return isinstance(value, str) and len(value) <= 24
    if name == "seen_version":
        return isinstance(value, str) and len(value) <= 40
    if name == "setup":
        return _setup_ok(value)
    return False


def _upgrade_setup(setups, stored):
    """Carry the start-screen choices of earlier releases over to the shared start screen's keys.

    Kartenkampf kept {"computers", "style"}, Punktejagd its own settings "pj_computers" and "pj_style";
    every start screen now keeps {"seats", <options>, "strength"} (a level's old key is resolved later).
    """
    computers = stored.get("pj_computers")
    if "punktejagd" not in setups and is_whole(computers) \
            and 1 <= computers <= 5:
        setups["punktejagd"] = {"seats": computers + 1}
        if isinstance(stored.get("pj_style"), str) and len(stored["pj_style"]) <= 40:
            setups["punktejagd"]["strength"] = stored["pj_style"]
    for choices in setups.values():
        if "computers" in choices and "seats" not in choices and type(choices["computers"]) is int:
            choices["seats"] = choices["computers"] + 1
        if "style" in choices and "strength" not in choices:
            choices["strength"] = choices["style"]
        choices.pop("computers", None)
        choices.pop("style", None)


def _setup_ok(value):
    """Return True for {game: {option: short str, int, bool or None}} of a sane size."""
    if not isinstance(value, dict) or len(value) > 12:
        return False
    for game, choices in value.items():
        if not isinstance(game, str) or not isinstance(choices, dict) or len(choices) > 16:
            return False
        for key, item in choices.items():
            if not isinstance(key, str) or not (item is None or isinstance(item, (bool, int))
                                                or (isinstance(item, str) and len(item) <= 40)):
                return False
    return True


def _validate_save(document):
    if not isinstance(document.get("game"), str) or not isinstance(document.get("state"), dict):
        raise DamagedDocument("save without game or state")
    if not isinstance(document.get("meta"), dict):
        raise DamagedDocument("save without meta")


def _validate_room(document):
    room = document.get("room")
    if not isinstance(room, dict) or room.get("role") not in ("host", "seat", "screen"):
        raise DamagedDocument("room without role")
    if not isinstance(room.get("code"), str):
        raise DamagedDocument("room without code")


def _validate_results(document):
    results = document.get("results")
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise DamagedDocument("results are not a list")


def _migrate_night(document):
    """Lift a format-1 night {"id", "started_at"} to format 2 (no people named, no past nights)."""
    if document["format"] == 1:
        if not isinstance(document.get("id"), str) or not isinstance(document.get("started_at"), int):
            raise DamagedDocument("night without id")
        document = {"format": 2, "current": {"id": document["id"], "started_at": document["started_at"],
                                             "people": []}, "past": []}
    return document


def _validate_one_night(night):
    if not isinstance(night, dict) or not isinstance(night.get("id"), str):
        raise DamagedDocument("night without id")
    if not is_whole(night.get("started_at")):
        raise DamagedDocument("night without start")
    people = night.get("people", [])
    if not isinstance(people, list) or not all(isinstance(name, str) for name in people):
        raise DamagedDocument("night people are not names")
    night["people"] = people


def _validate_night(document):
    current = document.get("current")
    past = document.get("past")
    if current is not None:
        _validate_one_night(current)
    if not isinstance(past, list):
        raise DamagedDocument("past nights are not a list")
    for night in past:
        _validate_one_night(night)


def clean_names(names):
    """Return names trimmed, at most MAX_NAME long, no empty ones, each person once (case ignored)."""
    out = []
    seen = {}
    for name in names:
        if not isinstance(name, str):
            continue
        name = " ".join(name.split())[:MAX_NAME]
        key = name.lower()
        if name and key not in seen:
            seen[key] = True
            out.append(name)
    return out[:MAX_PEOPLE]


def _int_or(value, default):
    return value if is_whole(value) else default


def _field(entry, key):
    # `in` first: in Brython a dict.get miss raises and catches inside (slow over hundreds of results)
    return entry[key] if key in entry else None


def _names(value):
    return isinstance(value, list) and all(isinstance(name, str) for name in value)


def _whole_result(entry):
    """Return True for a result entry with every field a finished game writes, each of its type."""
    if not isinstance(entry, dict) or not isinstance(_field(entry, "game"), str):
        return False
    finished = _field(entry, "finished_at")
    scores = _field(entry, "scores")
    return (is_whole(finished) and finished >= 0
            and _names(_field(entry, "players")) and _names(_field(entry, "winners")) and isinstance(scores, list)
            and all(isinstance(score, (int, float)) and not isinstance(score, bool) for score in scores))


def normalize_result(entry):
    """Return a result entry with every field this release reads (older entries lack some), or None."""
    if not isinstance(entry, dict) or not isinstance(_field(entry, "game"), str):
        return None
    out = dict(entry)
    players = _field(entry, "players")
    out["players"] = [name for name in players if isinstance(name, str)] if isinstance(players, list) else []
    scores = _field(entry, "scores")
    out["scores"] = scores if isinstance(scores, list) else []
    winners = _field(entry, "winners")
    out["winners"] = [w for w in winners if isinstance(w, str)] if isinstance(winners, list) else []
    computers = _field(entry, "computers")  # names of the computer players (none in entries before 2026-12-05)
    out["computers"] = [name for name in computers if isinstance(name, str)] if isinstance(computers, list) else []
    level = _field(entry, "level")  # the computers' level (none before 2026-12-06, nor where they differed)
    out["level"] = level if level in ("leicht", "mittel", "stark") else None
    out["finished_at"] = _int_or(_field(entry, "finished_at"), 0)
    out["started_at"] = _int_or(_field(entry, "started_at"), None)
    out["seat"] = _int_or(_field(entry, "seat"), None)
    out["my_score"] = _int_or(_field(entry, "my_score"), None)
    night = _field(entry, "night")
    out["night"] = night if isinstance(night, str) else None
    history = _field(entry, "history")
    out["history"] = history if isinstance(history, list) else []
    room = _field(entry, "room")
    out["room"] = room if isinstance(room, str) else None
    replay = _field(entry, "replay")
    out["replay"] = replay if isinstance(replay, str) else None
    return out


def replay_age(replay_id):
    """Return the finish time at the start of a replay id (what "oldest" means), 0 if it has none."""
    digits = str(replay_id).split("-")[0]
    return int(digits) if digits.isdigit() else 0


def result_key(entry):
    """Return what makes one finished game unique (for merging backups)."""
    return "%s|%d|%s" % (entry["game"], entry["finished_at"], "|".join(entry["players"]))


def person_key(name):
    """Return the key under which a name is one person across the games of an evening."""
    return " ".join(name.split()).lower()


def verdict(result):
    """Return "win" (a unique winner, 1 game-night point), "shared" (no point) or "none" (undecided)."""
    winners = (result["winners"] if "winners" in result else None) or []
    if len(winners) == 1:
        return "win"
    return "shared" if winners else "none"


def evening_table(results, night_id, people=()):
    """Return one game night's table.

    {"rows": [{"name", "points", "games", "wins", "per_game": {game: {"points", "games", "wins"}}}],
     "games": [finished games of the night, oldest first, each with "verdict"], "played": [games in
     the order first played]}. A unique winner earns 1 point; a shared win counts as won but earns
    no point; an undecided game earns nobody anything. The same name (spaces and case aside) in
    several games is one row, a computer's apart from a person's ("computer": True); the people named
    for the night have a row from the start.
    """
    rows = {}
    order = []

    def key_of(name, computer):
        # a computer has a row of its own: one named like a person is never that person
        return ("computer:" if computer else "") + person_key(name)

    def row_of(name, computer=False):
        key = key_of(name, computer)
        if key not in rows:
            rows[key] = {"name": " ".join(name.split()), "points": 0, "games": 0, "wins": 0, "per_game": {},
                         "computer": computer}
            order.append(key)
        return rows[key]

    for name in people:
        row_of(name)
    games = [r for r in results if "night" in r and r["night"] == night_id]
    games = sorted(games, key=lambda r: r["finished_at"] if "finished_at" in r and r["finished_at"] else 0)
    played = []
    entries = []
    for result in games:
        game = result["game"]
        if game not in played:
            played.append(game)
        kind = verdict(result)
        computers = result["computers"] if "computers" in result else []
        counted = {}
        for name in (result["players"] if "players" in result else []):
            row = row_of(name, name in computers)
            key = key_of(name, name in computers)
            if key in counted:
                continue
            counted[key] = True
            if game not in row["per_game"]:
                row["per_game"][game] = {"points": 0, "games": 0, "wins": 0}
            row["games"] += 1
            row["per_game"][game]["games"] += 1
        for name in (result["winners"] if "winners" in result else []):
            row = row_of(name, name in computers)
            if game not in row["per_game"]:
                row["per_game"][game] = {"points": 0, "games": 0, "wins": 0}
            row["wins"] += 1
            row["per_game"][game]["wins"] += 1
            if kind == "win":
                row["points"] += 1
                row["per_game"][game]["points"] += 1
        entry = dict(result)
        entry["verdict"] = kind
        entries.append(entry)
    position = {}
    for index in range(len(order)):
        position[order[index]] = index
    ordered = sorted(order, key=lambda key: (-rows[key]["points"], -rows[key]["wins"], -rows[key]["games"],
                                             position[key]))
    return {"rows": [rows[key] for key in ordered], "games": entries, "played": played}

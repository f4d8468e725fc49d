"""The one module that reads and writes the browser's storage (localStorage).

Everything kept is a versioned JSON document `{"format": 1, ...}`. A document
that cannot be read (damaged JSON, wrong shape, or written by a newer release)
is never dropped or overwritten: it is moved aside under a `damaged` key, a
notice is recorded for the UI, and the app goes on with defaults.

The backend (localStorage or a dict-backed fake) and the JSON codec are passed
in, so this module runs unchanged in CPython tests and in Brython.
"""

FORMAT = 1
PREFIX = "spieleabend."
SETTINGS_KEY = PREFIX + "settings"
RESULTS_KEY = PREFIX + "results"
NIGHT_KEY = PREFIX + "night"
SAVE_PREFIX = PREFIX + "save."
DAMAGED_PREFIX = PREFIX + "damaged."
MAX_RESULTS = 200

DEFAULT_SETTINGS = {
    "language": "de",
    "motion": "system",  # "system" follows prefers-reduced-motion; "reduce" or "full" override it
    "contrast": 50,
    "grain": 50,
    "temperature": 50,
    "memory_aid": False,
    "name": "",
    "seen_version": "",  # the release this browser last started, to say "updated" once
    "pj_computers": 3,  # Punktejagd: computers at the table last time
    "pj_style": "random",
}


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
    def read(self, key, validate):
        """Return the body of the document at key, None if absent; move it aside if unusable."""
        raw = self.backend.getItem(key)
        if raw is None:
            return None
        try:
            document = self.codec.loads(raw)
            if not isinstance(document, dict) or not isinstance(document.get("format"), int):
                raise DamagedDocument("no format number")
            if document["format"] > FORMAT:
                raise DamagedDocument("newer format %d" % document["format"])
            if document["format"] < 1:
                raise DamagedDocument("unknown format %d" % document["format"])
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

    def write(self, key, document):
        """Store a document (adding the format number); return False if storage refused."""
        document = dict(document)
        document["format"] = FORMAT
        try:
            self.backend.setItem(key, self.codec.dumps(document))
        except Exception:  # quota exceeded or storage disabled (private mode)
            return False
        return True

    def _set_aside(self, key, raw, reason):
        aside = "%s%s.%d" % (DAMAGED_PREFIX, key[len(PREFIX):], self.clock())
        try:
            self.backend.setItem(aside, raw)
        except Exception:
            aside = None  # no room to keep a copy: leave the original where it is
        if aside is not None:
            self.backend.removeItem(key)
        self.notices.append({"key": key, "reason": reason, "aside": aside})

    def damaged_keys(self):
        """Return the keys of documents set aside, oldest first."""
        keys = []
        for index in range(self.backend.length):
            key = self.backend.key(index)
            if key is not None and key.startswith(DAMAGED_PREFIX):
                keys.append(key)
        return sorted(keys)

    # -- settings -----------------------------------------------------------------------
    def load_settings(self):
        """Return the settings, defaults filled in for anything missing or out of range."""
        document = self.read(SETTINGS_KEY, _validate_settings)
        settings = dict(DEFAULT_SETTINGS)
        if document is not None:
            for name, value in document["settings"].items():
                if name in settings and _setting_ok(name, value):
                    settings[name] = value
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
        return self.read(SAVE_PREFIX + game, _validate_save)

    def delete_game(self, game):
        """Remove the saved game of one kind (after it finished)."""
        self.backend.removeItem(SAVE_PREFIX + game)

    def saved_games(self, games):
        """Return the saved documents of the given games, newest first."""
        found = [doc for doc in (self.load_game(game) for game in games) if doc is not None]
        return sorted(found, key=lambda doc: -doc.get("saved_at", 0))

    # -- finished games and the game night -----------------------------------------------
    def results(self):
        """Return the finished games, newest first."""
        document = self.read(RESULTS_KEY, _validate_results)
        return [] if document is None else document["results"]

    def add_result(self, result):
        """Record a finished game at the front of the results list."""
        results = [result] + self.results()
        return self.write(RESULTS_KEY, {"results": results[:MAX_RESULTS]})

    def night(self):
        """Return the current game night {"id", "started_at"}, starting one if there is none."""
        document = self.read(NIGHT_KEY, _validate_night)
        if document is None:
            return self.new_night()
        return {"id": document["id"], "started_at": document["started_at"]}

    def new_night(self):
        """Start a new game night and return it."""
        now = self.clock()
        night = {"id": "n%d" % now, "started_at": now}
        self.write(NIGHT_KEY, night)
        return night


def _validate_settings(document):
    if not isinstance(document.get("settings"), dict):
        raise DamagedDocument("settings missing")


def _setting_ok(name, value):
    if name in ("contrast", "grain", "temperature"):
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 100
    if name == "language":
        return value in ("de", "en")
    if name == "motion":
        return value in ("system", "reduce", "full")
    if name == "memory_aid":
        return isinstance(value, bool)
    if name == "name":
        return isinstance(value, str) and len(value) <= 24
    if name == "seen_version":
        return isinstance(value, str) and len(value) <= 40
    if name == "pj_computers":
        return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 5
    if name == "pj_style":
        return value in ("random", "vorausschauend")
    return False


def _validate_save(document):
    if not isinstance(document.get("game"), str) or not isinstance(document.get("state"), dict):
        raise DamagedDocument("save without game or state")
    if not isinstance(document.get("meta"), dict):
        raise DamagedDocument("save without meta")


def _validate_results(document):
    results = document.get("results")
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise DamagedDocument("results are not a list")


def _validate_night(document):
    if not isinstance(document.get("id"), str) or not isinstance(document.get("started_at"), int):
        raise DamagedDocument("night without id")


def night_table(results, night_id):
    """Return [{"name", "points", "games"}] for one game night, most points first.

    Each finished game with a unique winner gives that winner one point; shared wins give none.
    """
    rows = {}
    for result in results:
        if result.get("night") != night_id:
            continue
        for name in result.get("players", []):
            row = rows.setdefault(name, {"name": name, "points": 0, "games": 0})
            row["games"] += 1
        winners = result.get("winners", [])
        if len(winners) == 1 and winners[0] in rows:
            rows[winners[0]]["points"] += 1
    return sorted(rows.values(), key=lambda row: (-row["points"], -row["games"], row["name"]))

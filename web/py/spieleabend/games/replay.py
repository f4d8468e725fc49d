"""Replays: a finished game kept as its options, seed and actions, and rebuilt by its engine.

Pure Python and no standard-library imports: the table records in the browser, the tests
rebuild in CPython, with the same code.

A record stores each action as its place in the engine's own lists at that moment: which of
`to_move(state)` acted and which of `legal_actions(state, seat)` it took. Those places are
packed as one mixed-radix number per chunk of 30 bits (a step with one choice costs nothing),
written as five URL-safe base-64 characters per chunk. An action the lists do not hold (Pao De
Kuai's other cards of a listed combination) or a seat joining or leaving between deals is an
"odd" step, kept as text. A whole Mau-Mau evening of 20,000 actions stays below 5 KB.

Rebuilding asks the engine at every step, so an action the engine refuses, a record that ends
before the game does, or final scores that differ from the recorded ones are reported as a
ReplayProblem, never shown as a different game.
"""

from spieleabend.games.common import IllegalAction, Rng, copy_data, is_whole

KIND = "spieleabend.replay"
FORMAT = 1
CHUNK = 1 << 30           # one chunk of the packed places: five characters of six bits
CHUNK_CHARS = 5
DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
DIGIT_VALUE = {DIGITS[i]: i for i in range(64)}
SNAPSHOT_EVERY = 25       # steps between the states kept while watching (going back is a short replay)
MAX_STEPS = 200000
MAX_ODD = 5000


def engine_version(engine):
    """Return the version an engine declares for its records (INFO["version"], 1 when it names none)."""
    return engine.INFO["version"] if "version" in engine.INFO else 1


class ReplayProblem(ValueError):
    """A record the engine cannot rebuild as it was played: `reason` and the step where it failed.

    reason: "damaged" (not a record), "options" (the engine refuses its options), "refused" (an
    action at `step` is not allowed), "short" (the record ends before the game), "different"
    (the rebuilt game ends with other scores than recorded).
    """

    def __init__(self, reason, step=None):
        ValueError.__init__(self, "%s at step %s" % (reason, step) if step is not None else reason)
        self.reason = reason
        self.step = step


# -- recording -----------------------------------------------------------------------------------
def start_record(engine, options, seed):
    """Return a fresh record for a game dealt by new_game(options, Rng(seed)) (`seed`: the Rng's words)."""
    return {"version": engine_version(engine), "options": copy_data(options), "seed": list(seed),
            "packed": "", "value": 0, "range": 1, "steps": 0, "odd": []}


def _push(record, place, count):
    """Append one choice of `count` (a single choice costs nothing)."""
    if count <= 1:
        return
    if record["range"] * count > CHUNK:
        record["packed"] += _chunk_text(record["value"])
        record["value"] = 0
        record["range"] = 1
    record["value"] += place * record["range"]
    record["range"] *= count


def _chunk_text(value):
    out = ""
    for _ in range(CHUNK_CHARS):
        out += DIGITS[value % 64]
        value = value // 64
    return out


def note_action(record, engine, state, seat, action, legal=None):
    """Return what recording `action` by `seat` would append, computed before the engine applies it.

    `legal`: the seat's legal actions if the caller has them already (a computer's view holds
    them; computing them again costs time in the browser). Call keep_step(record, note) once the
    engine accepted the action (a refused one is not kept).
    """
    moving = engine.to_move(state)
    if seat in moving:
        if legal is None:
            legal = engine.legal_actions(state, seat)
        if action in legal:
            return [[moving.index(seat), len(moving)], [legal.index(action), len(legal)]]
    return ["act", seat, action]


def keep_step(record, note):
    """Add a noted step to the record."""
    if isinstance(note[0], str):
        record["odd"].append([record["steps"]] + note)
    else:
        for place, count in note:
            _push(record, place, count)
    record["steps"] += 1


def note_seat_change(record, kind, value):
    """Record a seat joining ("add", its name) or leaving ("remove", its seat) between deals."""
    record["odd"].append([record["steps"], kind, value])
    record["steps"] += 1


def finish_record(record, game, names, scores, extra=None):
    """Return the replay document of a finished game (what is stored, shared and rebuilt)."""
    document = {"format": FORMAT, "kind": KIND, "game": game, "version": record["version"],
                "options": record["options"], "seed": record["seed"], "names": list(names),
                "moves": record["packed"] + _chunk_text(record["value"]), "steps": record["steps"],
                "odd": record["odd"], "scores": list(scores)}
    if extra:
        for key in extra:
            document[key] = extra[key]
    return document


# -- checking a document -----------------------------------------------------------------------
def _ints(value, count=None):
    return isinstance(value, list) and (count is None or len(value) == count) and all(
        [is_whole(item) for item in value])


def check_document(document):
    """Raise ReplayProblem("damaged") unless `document` has the shape of a replay (nothing is rebuilt)."""
    if not isinstance(document, dict):
        raise ReplayProblem("damaged")
    moves = document.get("moves")
    odd = document.get("odd")
    steps = document.get("steps")
    if not isinstance(document.get("game"), str) or not is_whole(document.get("version")) \
            or not isinstance(document.get("options"), dict) or not _ints(document.get("seed"), 4) \
            or not isinstance(moves, str) or len(moves) % CHUNK_CHARS or not is_whole(steps) \
            or not 0 <= steps <= MAX_STEPS or not isinstance(odd, list) or len(odd) > MAX_ODD \
            or not _ints(document.get("scores")) or not isinstance(document.get("names"), list) \
            or not all([isinstance(name, str) for name in document["names"]]):
        raise ReplayProblem("damaged")
    for key in ("finished_at", "started_at", "seat"):  # optional facts about where it was played
        if key in document and document[key] is not None and not is_whole(document[key]):
            raise ReplayProblem("damaged")
    if "room" in document and document["room"] is not None and not isinstance(document["room"], str):
        raise ReplayProblem("damaged")
    for char in moves:
        if char not in DIGIT_VALUE:
            raise ReplayProblem("damaged")
    last = -1
    for entry in odd:
        if not isinstance(entry, list) or len(entry) < 3 or not is_whole(entry[0]) or entry[0] <= last \
                or entry[0] >= steps:
            raise ReplayProblem("damaged")
        last = entry[0]
        if not ((entry[1] == "act" and len(entry) == 4 and is_whole(entry[2]) and isinstance(entry[3], str))
                or (entry[1] == "add" and len(entry) == 3 and isinstance(entry[2], str))
                or (entry[1] == "remove" and len(entry) == 3 and is_whole(entry[2]))):
            raise ReplayProblem("damaged")


# -- rebuilding ------------------------------------------------------------------------------------
class _Places:
    """Read back the places _push packed."""

    def __init__(self, text):
        self.text = text
        self.at = 0
        self.value = self.read_chunk()
        self.range = 1

    def read_chunk(self):
        if self.at + CHUNK_CHARS > len(self.text):
            return None
        value = 0
        for index in range(self.at + CHUNK_CHARS - 1, self.at - 1, -1):
            value = value * 64 + DIGIT_VALUE[self.text[index]]
        self.at += CHUNK_CHARS
        return value

    def pull(self, count):
        """Return the next place among `count` choices; None when the record has no more."""
        if count <= 1:
            return 0
        if self.range * count > CHUNK:
            self.value = self.read_chunk()
            self.range = 1
        if self.value is None:
            return None
        place = self.value % count
        self.value = self.value // count
        self.range *= count
        return place


class Replay:
    """A finished game rebuilt step by step: its actions, where rounds start, any state on request.

    Construct with the engine and a checked document, then `build()` (the one full pass, which
    raises ReplayProblem); `state_at(step)` returns the state after `step` steps.
    """

    def __init__(self, engine, document):
        check_document(document)
        self.engine = engine
        self.document = document
        self.steps = []          # per step: ["act", seat, action] | ["add", name] | ["remove", seat]
        self.snapshots = []      # state before step i * SNAPSHOT_EVERY
        self.round_starts = [0]  # step where round (deal) i + 1 begins
        self.recent = None       # (step, state) computed last
        self.built = False

    def new_state(self):
        """Deal the game from its options and seed; ReplayProblem("options") if the engine refuses."""
        try:
            return self.engine.new_game(copy_data(self.document["options"]), Rng(list(self.document["seed"])))
        except ValueError:
            raise ReplayProblem("options")
        except (KeyError, TypeError, IndexError, AttributeError):
            raise ReplayProblem("options")

    def build(self):
        """Rebuild the whole game at once; raise ReplayProblem where it does not end as recorded."""
        self.start()
        while not self.advance(1000):
            pass
        return self

    def start(self):
        """Deal the game again and get ready to rebuild it step by step (advance)."""
        document = self.document
        self.state = self.new_state()
        self.odd = {}
        for entry in document["odd"]:
            self.odd[entry[0]] = entry[1:]
        self.places = _Places(document["moves"])
        return self

    def advance(self, count):
        """Rebuild up to `count` more steps; return True once the whole game is rebuilt and checked.

        The browser rebuilds a long game in slices so the screen can say how far it got.
        """
        state = self.state
        total = self.document["steps"]
        stop = min(total, len(self.steps) + count)
        for step in range(len(self.steps), stop):
            if step % SNAPSHOT_EVERY == 0:
                self.snapshots.append(copy_data(state))
            entry = self.odd[step] if step in self.odd else self.decode(state, self.places, step)
            self.apply(state, entry, step)  # after the game's end the engine refuses: the record is too long
            self.steps.append(entry)
        if len(self.steps) < total:
            return False
        result = self.engine.outcome(state)
        if result is None:
            raise ReplayProblem("short", total)
        if list(result["scores"]) != list(self.document["scores"]):
            raise ReplayProblem("different", total)
        self.final = state
        self.find_rounds()
        self.built = True
        return True

    def share_built(self):
        """Return the part of the game rebuilt so far, 0..1 (for the screen while it rebuilds)."""
        total = self.document["steps"]
        return 1.0 if total == 0 else len(self.steps) / float(total)

    def find_rounds(self):
        """Find the step where each round (deal) begins.

        A view per step costs more than the whole rebuild in the browser, so the finished rounds
        are counted at each snapshot, and only the stretches where the count grew are walked again.
        """
        counts = [self.done(snapshot) for snapshot in self.snapshots] + [self.done(self.final)]
        starts = [0]
        for index in range(len(counts) - 1):
            if counts[index + 1] == counts[index]:
                continue
            first = index * SNAPSHOT_EVERY
            state = copy_data(self.snapshots[index])
            done = counts[index]
            for step in range(first, min(first + SNAPSHOT_EVERY, len(self.steps))):
                self.apply(state, self.steps[step], step)
                now = self.done(state)
                if now > done and step + 1 < len(self.steps):
                    starts.append(step + 1)  # the round after the last one would be the game's end
                done = now
        self.round_starts = starts

    def decode(self, state, places, step):
        moving = self.engine.to_move(state)
        if not moving:
            raise ReplayProblem("refused", step)
        which = places.pull(len(moving))
        if which is None:
            raise ReplayProblem("short", step)
        seat = moving[which]
        legal = self.engine.legal_actions(state, seat)
        if not legal:
            raise ReplayProblem("refused", step)
        place = places.pull(len(legal))
        if place is None:
            raise ReplayProblem("short", step)
        return ["act", seat, legal[place]]

    def apply(self, state, entry, step):
        """Apply one step to a state; ReplayProblem("refused") when the engine refuses it."""
        try:
            if entry[0] == "act":
                self.engine.apply_action(state, entry[1], entry[2])
            elif entry[0] == "add":
                self.engine.add_seat(state, entry[1])
            else:
                self.engine.remove_seat(state, entry[1])
        except IllegalAction:
            raise ReplayProblem("refused", step)
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            raise ReplayProblem("refused", step)

    def done(self, state):
        """Return how many rounds (deals) are finished, as the engine's progress says."""
        return self.engine.progress(self.engine.view(state, None))["done"]

    def count(self):
        """Return the number of steps."""
        return len(self.steps)

    def state_at(self, step):
        """Return a fresh state after `step` steps (0: as dealt), from the nearest state kept before it."""
        step = max(0, min(step, len(self.steps)))
        if step == len(self.steps) and self.built:
            return copy_data(self.final)
        base = (step // SNAPSHOT_EVERY) * SNAPSHOT_EVERY
        state = self.snapshots[step // SNAPSHOT_EVERY]
        if self.recent is not None and base <= self.recent[0] <= step:
            base, state = self.recent  # the step shown last: going forward is one step
        state = copy_data(state)
        for index in range(base, step):
            self.apply(state, self.steps[index], index)
        self.recent = (step, copy_data(state))
        return state

    def round_of(self, step):
        """Return the round (deal) number, from 1, that the step after `step` steps belongs to."""
        number = 1
        for index in range(len(self.round_starts)):
            if self.round_starts[index] <= step:
                number = index + 1
        return number

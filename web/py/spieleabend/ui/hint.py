"""Tipp, the same in every game: the Stark computer's choice for this seat's own view, and why.

A table screen keeps one `Hint` and draws three things with it: `button(view)` (the Tipp
button, live while this seat has a choice), `line(view)` (what to do and the computer's
one-line reason, under the controls) and the marks: `marks(view)` names the words of the
hinted action (cards, "risk", "mau", a suit, "draw", "pass", "knock", "take", a position …)
and `mark(marks, word)` is the `data-hinted` attribute value for an element showing one of
them (the hinted card in the hand, the pile to draw from, the button to press).

The hint comes from the game's bot module (`hint(view, rng) -> (action, de, en)`), asked with
the view this device holds: a phone in a room asks for its own seat's view, on the phone. The
generator is seeded by the view, so the same position gives the same Tipp. A hint stays shown
only while the view is the one it was asked for: any move (also another seat's) drops it, but
not another seat committing its secret choice (the computers never read that), and a
pass-and-play cover makes a new screen, so nobody sees the Tipp of the person before.
"""

from spieleabend.games import load_bots
from spieleabend.games.common import Rng
from spieleabend.ui.html import attrs, card_name, escape
from spieleabend.ui.i18n import language, register, t

register({
    "tipp.button": ("Tipp", "Hint"),
    "tipp.button_label": ("Tipp: was würde der starke Computer tun?", "Hint: what would the strong computer do?"),
    "tipp.badge": ("Tipp", "Hint"),
    "tipp.lead": ("Tipp:", "Hint:"),
    "tipp.play": ("%(cards)s spielen", "play the %(cards)s"),
    "tipp.number": ("die %(n)s", "%(n)s"),
    "tipp.play_risk": ("%(cards)s mit Risiko-Chip spielen", "play the %(cards)s with the risk chip"),
    "tipp.and": ("%(first)s und %(second)s", "%(first)s and %(second)s"),
    "tipp.wish": ("%(suit)s wünschen", "call %(suit)s"),
    "tipp.say_mau": ("„Mau“ sagen", "say “Mau”"),
    "tipp.draw": ("vom Stapel ziehen", "draw from the stock"),
    "tipp.pass": ("passen", "pass"),
    "tipp.knock": ("klopfen", "knock"),
    "tipp.take": ("die offene Karte nehmen und an Position %(n)s legen", "take the open card and put it in position %(n)s"),
    "tipp.swap": ("die gezogene Karte gegen Position %(n)s tauschen", "swap the drawn card for position %(n)s"),
    "tipp.discard": ("die gezogene Karte ablegen", "discard the drawn card"),
    "tipp.next": ("weiter", "go on"),
    "tipp.what": ("%(what)s.", "%(what)s."),
    "tipp.again": ("Der Tipp bleibt derselbe.", "The hint stays the same."),
})

# View keys that change while this seat still weighs the same choice: another seat committing its
# secret choice in Punktejagd and Kartenkampf (no computer reads them).
UNCHANGED_BY = {"committed": True, "to_move": True}


def has_choice(view):
    """Return True when this view's seat has something to choose now (the Tipp button is live)."""
    return view is not None and view["seat"] is not None and "legal" in view and len(view["legal"]) > 0


def same_position(view, other):
    """Return True when two views of a seat differ at most in what UNCHANGED_BY names."""
    if other is None or len(view) != len(other):
        return False
    for key in view:
        if key not in other or (key not in UNCHANGED_BY and view[key] != other[key]):
            return False
    return True


def view_seed(view):
    """Return a seed made from the seat and its legal actions (the same position: the same Tipp)."""
    h = 2166136261
    for char in str(view["seat"]) + "|" + "|".join(view["legal"]):
        h = ((h ^ ord(char)) * 16777619) & 0xFFFFFFFF
    return h


def action_words(action):
    """Return {word: True} for the words of an action a screen may mark ("JH:S" gives "JH" and "S")."""
    words = {}
    for word in action.split(" "):
        for part in word.split(":"):
            if part:
                words[part] = True
    return words


def word_list(items):
    """Return items as a sentence lists them: "A", "A und B", "A, B und C" ("and" in English)."""
    if len(items) < 2:
        return "".join(items)
    return t("tipp.and", first=", ".join(items[:-1]), second=items[-1])


def card_words(card):
    """Return how one card of an action is said: "die 7" for a number card, "Herz 7" for a French one."""
    return t("tipp.number", n=card) if card.isdigit() else card_name(card)


def describe(action):
    """Return what the action does in words, e.g. "Herz Bube spielen, Pik wünschen und „Mau“ sagen"
    (the words of Golf's positions count from 1, as the screen shows them)."""
    words = action.split(" ")
    verb = words[0]
    if verb == "play":
        cards = []
        extras = []
        for word in words[1:]:
            if word == "mau":
                extras.append(t("tipp.say_mau"))
            elif word != "risk":
                card, _, suit = word.partition(":")  # a Jack names the suit it wishes for
                cards.append(card_words(card))
                if suit:
                    extras.insert(0, t("tipp.wish", suit=t("card." + suit)))
        what = t("tipp.play_risk" if "risk" in words else "tipp.play", cards=word_list(cards))
        if extras:
            what = word_list([what] + extras)
        return what
    if verb in ("take", "swap") and len(words) == 2 and words[1].isdigit():
        return t("tipp." + verb, n=int(words[1]) + 1)
    if verb in ("draw", "pass", "knock", "discard", "next"):
        return t("tipp." + verb)
    return action


class Hint:
    """One table screen's Tipp: asked with the button, shown while the view stays the same."""

    def __init__(self, game):
        self.game = game
        self.view = None      # the view the hint was asked for
        self.action = None
        self.reasons = None   # (German, English), or None where the computer cannot say why

    def ask(self, view, app):
        """Ask the strongest computer for this view; return its action (None when there is nothing to choose).

        A second tap on the same position says so (a toast) instead of changing nothing.
        """
        if not has_choice(view):
            return None
        if self.current(view) is not None:
            app.toast(t("tipp.again"))
            return self.action
        action, reason_de, reason_en = load_bots(self.game).hint(view, Rng(view_seed(view)))
        self.view = view
        self.action = action
        self.reasons = (reason_de, reason_en) if reason_de else None
        return action

    def current(self, view):
        """Return the hinted action while `view` is the one it was asked for, else None (and forget it)."""
        if self.action is None:
            return None
        if not same_position(view, self.view):
            self.view = self.action = self.reasons = None
            return None
        return self.action

    def marks(self, view):
        """Return {word: True} of what the screen marks for the shown hint (empty without one)."""
        action = self.current(view)
        return action_words(action) if action is not None else {}

    def mark(self, marks, word):
        """Return the `data-hinted` value for an element showing `word`: the badge's text, or None."""
        return t("tipp.badge") if word in marks else None

    def button(self, view):
        """Return the Tipp button, live while this seat has a choice."""
        return '<button%s>%s</button>' % (
            attrs(type="button", class_="btn btn-ghost tipp", data_action="hint",
                  data_testid="tipp", disabled=not has_choice(view), aria_label=t("tipp.button_label"),
                  aria_controls="tipp-line"),
            escape(t("tipp.button")))

    def line(self, view):
        """Return the line under the controls: what to do and why (empty, but present for screen readers, without a hint)."""
        action = self.current(view)
        if action is None:
            return '<p class="tipp-line" id="tipp-line" data-testid="tipp-line" role="status"></p>'
        why = ""
        if self.reasons is not None:
            why = " " + escape(self.reasons[1] if language() == "en" else self.reasons[0])
        return ('<p%s><strong>%s</strong> %s%s</p>' % (
            attrs(class_="tipp-line shown", id="tipp-line", data_testid="tipp-line", data_action=action, role="status"),
            escape(t("tipp.lead")), escape(t("tipp.what", what=capitalised(describe(action)))), why))


def capitalised(text):
    """Return text with its first letter upper case (a sentence of its own after "Tipp:")."""
    return text[:1].upper() + text[1:] if text else text

"""Small helpers that build HTML text (rendering by strings keeps Brython's DOM calls few)."""

from spieleabend.ui.i18n import language, register, t


def escape(text):
    """Return text safe to put inside HTML elements and quoted attributes."""
    text = str(text)
    # Most texts need nothing replaced: a test is cheaper than a replace in Brython (screens call this
    # hundreds of times a drawing).
    if "&" in text:
        text = text.replace("&", "&amp;")
    if "<" in text:
        text = text.replace("<", "&lt;")
    if ">" in text:
        text = text.replace(">", "&gt;")
    if '"' in text:
        text = text.replace('"', "&quot;")
    if "'" in text:
        text = text.replace("'", "&#39;")
    return text


def seen_and_heard(seen, heard):
    """Return `seen` (a symbol, a short figure) for the eye and `heard` (its words) for a screen reader."""
    return '<span aria-hidden="true">%s</span><span class="visually-hidden">%s</span>' % (escape(seen), escape(heard))


# Keyword -> attribute name ("data_testid" -> "data-testid", "class_" -> "class"), made once per name.
ATTRIBUTE_NAMES = {}


def with_key_hints(text):
    """Return text escaped, each keyboard key in it (" (S)", " (1–4)") marked: a touch screen hides them."""
    out = escape(text)
    start = out.find(" (")
    while start >= 0:
        end = out.find(")", start)
        if end < 0:
            break
        if end - start <= 6:  # a key or a short range, never a remark in brackets
            out = out[:start] + '<span class="key-hint">' + out[start:end + 1] + "</span>" + out[end + 1:]
            end += len('<span class="key-hint"></span>')
        start = out.find(" (", end)
    return out


def attrs(**values):
    """Return HTML attributes; underscores become dashes, None and False are left out."""
    out = ""
    for name in values:
        value = values[name]
        if value is None or value is False:
            continue
        if name not in ATTRIBUTE_NAMES:
            ATTRIBUTE_NAMES[name] = name.rstrip("_").replace("_", "-")
        if value is True:
            out += " " + ATTRIBUTE_NAMES[name]
        else:
            out += " " + ATTRIBUTE_NAMES[name] + '="' + escape(value) + '"'
    return out


def countdown(due_ms, now_ms, clock=False):
    """Return the seconds left until due_ms ("9:58" with `clock`) in an element the page itself counts down
    (index.html ticks [data-countdown]), so the app need not draw every second."""
    left = max(0, due_ms - now_ms + 999) // 1000
    if clock:
        return '<span data-countdown="%d" data-clock>%d:%02d</span>' % (due_ms, left // 60, left % 60)
    return '<span data-countdown="%d">%d</span>' % (due_ms, left)


def button(label, action, testid=None, kind="secondary", disabled=False, extra=None, **more):
    """Return a button that sends `action` to the screen when tapped."""
    return "<button%s>%s</button>" % (
        attrs(type="button", class_="btn btn-" + kind + (" " + extra if extra else ""),
              data_action=action, data_testid=testid, disabled=disabled, **more),
        escape(label))


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUIT_LETTERS = "HD"
RANK_SHORT = {"J": ("B", "J"), "Q": ("D", "Q"), "K": ("K", "K"), "A": ("A", "A")}

register({
    "card.S": ("Pik", "spades"), "card.H": ("Herz", "hearts"),
    "card.D": ("Karo", "diamonds"), "card.C": ("Kreuz", "clubs"),
    "card.J": ("Bube", "Jack"), "card.Q": ("Dame", "Queen"), "card.K": ("König", "King"), "card.A": ("Ass", "Ace"),
    "card.name": ("%(suit)s %(rank)s", "%(rank)s of %(suit)s"),
    "card.back": ("verdeckte Karte", "face-down card"),
})


def rank_label(rank):
    """Return the rank as printed on a card in the current language (Bube is B in German)."""
    if rank in RANK_SHORT:
        pair = RANK_SHORT[rank]
        return pair[0] if t("card.J") == "Bube" else pair[1]
    return rank


# Made texts and markup by their inputs and the language: a screen is drawn again on every change of a
# room's table, mostly with the same cards (each one is milliseconds of string work in Brython).
_CARD_NAMES = {}
_FRENCH_CARDS = {}
KEPT_CARDS = 2000  # a bound, far above what a game shows


def card_name(card):
    """Return a French card's spoken name, e.g. "Herz Sieben" is "Herz 7" / "7 of hearts"."""
    key = language() + card
    if key not in _CARD_NAMES:
        rank, suit = card[:-1], card[-1]
        rank_word = t("card." + rank) if rank in RANK_SHORT else rank
        _CARD_NAMES[key] = t("card.name", suit=t("card." + suit), rank=rank_word)
    return _CARD_NAMES[key]


def french_card(card, label=None, action=None, testid=None, selected=False, disabled=False,
                size="", extra="", **more):
    """Return a French card ("7H", "10D", "QS") as a card face; tappable when `action` is given.

    `data-card` always holds the card string, the hook testers read.
    """
    key = (language(), card, label, action, testid, selected, disabled, size, extra, tuple(more.items()))
    if key not in _FRENCH_CARDS:
        if len(_FRENCH_CARDS) > KEPT_CARDS:
            _FRENCH_CARDS.clear()
        _FRENCH_CARDS[key] = french_card_html(card, label, action, testid, selected, disabled, size, extra, more)
    return _FRENCH_CARDS[key]


def french_card_html(card, label, action, testid, selected, disabled, size, extra, more):
    """Return the markup of a French card (french_card keeps it)."""
    more = dict(more)
    rank, suit = card[:-1], card[-1]
    symbol = SUIT_SYMBOLS.get(suit, "?")
    printed = rank_label(rank)
    tag = "button" if action else "div"
    classes = "card face french" + (" red" if suit in RED_SUIT_LETTERS else "") + (
        " court" if rank in ("J", "Q", "K") else "") + (" selected" if selected else "") + (
        " " + size if size else "") + (" " + extra if extra else "")
    if action is not None and "aria_pressed" not in more:
        more["aria_pressed"] = "true" if selected else "false"
    centre = printed if rank in ("J", "Q", "K") else symbol
    return (
        '<%s%s><span class="corner tl">%s<i>%s</i></span><span class="pip">%s</span>'
        '<span class="corner br">%s<i>%s</i></span></%s>' % (
            tag,
            attrs(type="button" if action else None, class_=classes, data_action=action,
                  data_value=card if action else None, data_card=card, data_testid=testid,
                  role=None if action else "img", aria_label=label or card_name(card),
                  disabled=disabled, **more),
            escape(printed), symbol, escape(centre), escape(printed), symbol, tag))


# Drawn number cards by their arguments: a hand is drawn again on every change, with the same few cards.
_NUMBER_CARDS = {}


def number_card(number, label, selected=False, action=None, testid=None, disabled=False, size="", hinted=None):
    """Return a Punktejagd/Kartenkampf number card (1..10) as a tappable card face (`hinted`: the Tipp badge's text)."""
    key = (number, label, selected, action, testid, disabled, size, hinted)
    if key not in _NUMBER_CARDS:
        if len(_NUMBER_CARDS) > 1000:
            _NUMBER_CARDS.clear()
        _NUMBER_CARDS[key] = number_card_html(number, label, selected, action, testid, disabled, size, hinted)
    return _NUMBER_CARDS[key]


def number_card_html(number, label, selected, action, testid, disabled, size, hinted=None):
    """Return the markup of a number card (number_card keeps it)."""
    tag = "button" if action else "div"
    return (
        '<%s%s><span class="corner tl">%d</span><span class="pip">%d</span>'
        '<span class="corner br">%d</span></%s>' % (
            tag,
            attrs(type="button" if action else None,
                  class_="card face number n%d%s%s" % (number, " selected" if selected else "",
                                                      " " + size if size else ""),
                  data_action=action, data_value=number, data_card=number, data_testid=testid,
                  role=None if action else "img",  # a label on a plain div is not read: its three numbers were
                  aria_label=label, aria_pressed=("true" if selected else "false") if action else None,
                  disabled=disabled, data_hinted=hinted),
            number, number, number, tag))


class Parts:
    """A screen's parts kept from its last drawing by their inputs: a room screen is drawn again on every
    move, and most of it (a phone's hand while another seat moves, the tools) looks the same; each part
    built again is milliseconds of string work in Brython."""

    def __init__(self):
        self.kept = {}

    def part(self, name, inputs, build, *args):
        """Return build(*args), or the markup it gave last time when `inputs` (everything the part shows that
        can change, besides the language) are equal to last time's."""
        inputs = (language(), inputs)
        if name in self.kept:
            kept = self.kept[name]
            if kept[0] == inputs:
                return kept[1]
        markup = build(*args)
        self.kept[name] = (inputs, markup)
        return markup


def card_back(label, extra=""):
    """Return a face-down card."""
    if not label:  # decorative (the face beside it tells)
        return '<div%s></div>' % attrs(class_="card back" + (" " + extra if extra else ""), aria_hidden="true")
    return '<div%s></div>' % attrs(class_="card back" + (" " + extra if extra else ""),
                                   role="img", aria_label=label)

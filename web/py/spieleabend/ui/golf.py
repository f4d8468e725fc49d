"""Golf screens: start, the table (peek, turns, knock, round summary, score sheet), final standings, infoscreen.

The screen shows only what the table's view holds. What the person has seen is
in the view as memory (`known` for its own cards, `public` for cards everybody
saw being taken from the pile); it is drawn small on the card backs only with
the "memory aid" setting (off by default: remembering is the game). The two
bottom cards are face up while the view's `peek` lists them, until "Gemerkt".
"""

from spieleabend.games import golf as engine
from spieleabend.games.common import IllegalAction
from spieleabend.ui.hint import Hint
from spieleabend.ui.html import attrs, button, card_name, escape, french_card, rank_label, with_key_hints, SUIT_SYMBOLS, RED_SUIT_LETTERS
from spieleabend.ui.i18n import language, register, t
from spieleabend.ui.shell import NewOnce, Screen, page, sheet, transfer_link
from spieleabend.ui.final import final_standings
from spieleabend.ui.table import refusal_text, reveal_due, reveal_shown, stood_in_since, table_action

GAME = "golf"
POSITIONS = [0, 1, 2, 3]

register({
    "golf.you": ("Du", "You"),
    "golf.deck_suggest": ("Ab 6 Plätzen empfohlen: zwei Decks.", "Two decks are recommended from 6 seats."),
    "golf.deck_suggest_one": ("Bei bis zu 5 Plätzen reicht ein Deck.", "With up to 5 seats, one deck is enough."),
    "golf.aid_on": ("Gedächtnisstütze ist an (Einstellungen).", "Memory aid is on (Settings)."),
    "golf.aid_off": ("Gedächtnisstütze ist aus: merk dir deine Karten (Einstellungen).",
                     "Memory aid is off: remember your cards (Settings)."),
    "golf.round": ("Durchgang %(n)s von %(total)s", "Round %(n)s of %(total)s"),
    "golf.turn_you": ("Du bist dran", "Your turn"),
    "golf.turn": ("%(name)s ist dran", "%(name)s's turn"),
    "golf.turn_limit": ("Niemand klopft: nach %(n)s weiteren Zügen endet der Durchgang ohne Strafe.",
                        "Nobody knocks: the round ends without penalty after %(n)s more turns."),
    "golf.turn_limit_one": ("Niemand klopft: nach einem weiteren Zug endet der Durchgang ohne Strafe.",
                            "Nobody knocks: the round ends without penalty after 1 more turn."),
    "golf.peek_title": ("Schau dir deine unteren Karten an", "Look at your bottom two cards"),
    "golf.peek_hint": ("Merk sie dir gut – nach „Gemerkt“ liegen sie wieder verdeckt.",
                       "Remember them well – after “Got it” they lie face down again."),
    "golf.peek_done": ("Gemerkt", "Got it"),
    "golf.waiting_peek": ("Noch beim Anschauen: %(names)s", "Still looking: %(names)s"),
    "golf.all_peek": ("Alle schauen sich ihre unteren Karten an.", "Everybody looks at their bottom two cards."),
    "golf.stock": ("Nachziehstapel, %(n)s Karten", "Stock, %(n)s cards"),
    "golf.stock_one": ("Nachziehstapel, 1 Karte", "Stock, 1 card"),
    # Their keys go in aria-keyshortcuts: read out only where a keyboard is (a touch phone hides the key hints).
    "golf.stock_draw": ("Nachziehstapel, %(n)s Karten – Karte ziehen", "Stock, %(n)s cards – draw a card"),
    "golf.discard_label": ("Ablagestapel: %(card)s", "Discard pile: %(card)s"),
    "golf.discard_take": ("Ablagestapel: %(card)s – nehmen", "Discard pile: %(card)s – take it"),
    "golf.pile_stock": ("Stapel", "Stock"),
    "golf.pile_discard": ("Ablage", "Discard"),
    "golf.pile_drawn": ("Gezogen", "Drawn"),
    "golf.pile_other": ("%(name)s zieht", "%(name)s draws"),
    "golf.drawn": ("Gezogene Karte: %(card)s", "Drawn card: %(card)s"),
    "golf.drawn_other": ("%(name)s hält eine gezogene Karte", "%(name)s holds a drawn card"),
    "golf.discard_drawn": ("Ablegen", "Discard"),
    "golf.pos_first": ("Erst eine Karte: vom Stapel ziehen (S) oder die offene nehmen (A).",
                       "First a card: draw from the stock (S) or take the open one (A)."),
    "golf.knock": ("Klopfen", "Knock"),
    "golf.cancel_take": ("Doch nicht nehmen", "Don't take it"),
    "golf.hint_turn": ("Zieh vom Stapel (S), nimm die offene Karte (A) oder klopfe (K).",
                       "Draw from the stock (S), take the open card (A) or knock (K)."),
    "golf.hint_turn_knocked": ("Zieh vom Stapel (S) oder nimm die offene Karte (A).",
                               "Draw from the stock (S) or take the open card (A)."),
    "golf.hint_drawn": ("Tippe eine Karte zum Tauschen (1–4) oder lege ab (A).",
                        "Tap a card to swap (1–4) or discard (A)."),
    "golf.hint_take": ("Wähle, wohin %(card)s kommt (1–4).", "Choose where %(card)s goes (1–4)."),
    "golf.hint_wait": ("Warte auf %(name)s …", "Waiting for %(name)s …"),
    "golf.banner": ("%(name)s hat geklopft. Alle anderen haben noch einen letzten Zug.",
                    "%(name)s knocked. Everybody else has one last turn."),
    "golf.banner_you": ("Du hast geklopft. Alle anderen haben noch einen letzten Zug.",
                        "You knocked. Everybody else has one last turn."),
    "golf.banner_last": ("Das ist dein letzter Zug.", "This is your last turn."),
    "golf.pos": ("Position %(n)s %(where)s", "Position %(n)s %(where)s"),
    "golf.at": ("Position %(n)s (%(where)s)", "position %(n)s (%(where)s)"),
    "golf.where.0": ("oben links", "top left"),
    "golf.where.1": ("oben rechts", "top right"),
    "golf.where.2": ("unten links", "bottom left"),
    "golf.where.3": ("unten rechts", "bottom right"),
    "golf.facedown": ("verdeckt", "face down"),
    "golf.faceup": ("offen: %(card)s", "face up: %(card)s"),
    "golf.remembered": ("verdeckt, gemerkt: %(card)s", "face down, remembered: %(card)s"),
    "golf.swap_here": ("tauschen", "swap here"),
    "golf.your_cards": ("Deine Karten", "Your cards"),
    "golf.cards_of": ("Karten von %(name)s", "%(name)s's cards"),
    "golf.opponents": ("Die anderen", "The others"),
    "golf.points": ("%(n)s Punkte", "%(n)s points"),
    "golf.points_one": ("1 Punkt", "1 point"),
    "golf.holding": ("zieht …", "drawing …"),
    "golf.knocked_tag": ("geklopft", "knocked"),  # a badge heading a 76 px seat
    "golf.looking": ("schaut …", "looking …"),  # a small tile at 8 seats holds no more
    "golf.ev.swap": ("%(name)s tauscht %(where)s und legt %(card)s ab.",
                     "%(name)s swaps %(where)s and discards %(card)s."),
    "golf.ev.swap_you": ("Du tauschst %(where)s und legst %(card)s ab.",
                         "You swap %(where)s and discard %(card)s."),
    "golf.ev.swap_standin": ("Der Computer tauscht für dich %(where)s und legt %(card)s ab.",
                             "The computer swaps %(where)s for you and discards %(card)s."),
    "golf.ev.discard": ("%(name)s legt %(card)s ab.", "%(name)s discards %(card)s."),
    "golf.ev.discard_you": ("Du legst %(card)s ab.", "You discard %(card)s."),
    "golf.ev.discard_standin": ("Der Computer legt für dich %(card)s ab.", "The computer discards %(card)s for you."),
    "golf.ev.take": ("%(name)s nimmt %(card)s von der Ablage für %(where)s und legt %(out)s ab.",
                     "%(name)s takes %(card)s from the pile for %(where)s and discards %(out)s."),
    "golf.ev.take_you": ("Du nimmst %(card)s von der Ablage für %(where)s und legst %(out)s ab.",
                         "You take %(card)s from the pile for %(where)s and discard %(out)s."),
    "golf.ev.take_standin": ("Der Computer nimmt für dich %(card)s von der Ablage für %(where)s und legt %(out)s ab.",
                             "The computer takes %(card)s from the pile for you, for %(where)s, and discards %(out)s."),
    "golf.ev.knock": ("%(name)s klopft!", "%(name)s knocks!"),
    "golf.ev.knock_you": ("Du klopfst!", "You knock!"),
    "golf.ev.knock_standin": ("Der Computer klopft für dich!", "The computer knocks for you!"),
    "golf.ev.reshuffle": ("Die Ablage wurde zum neuen Nachziehstapel gemischt.",
                          "The discard pile was shuffled into a new stock."),
    "golf.ev.draw": ("%(name)s zieht eine Karte.", "%(name)s draws a card."),
    "golf.ev.drew_you": ("Du ziehst %(card)s.", "You draw %(card)s."),
    "golf.peek_said": ("Deine Karten: %(cards)s.", "Your cards: %(cards)s."),
    "golf.ev.start": ("%(name)s beginnt.", "%(name)s starts."),
    "golf.ev.start_you": ("Du beginnst.", "You start."),
    "golf.summary_title": ("Durchgang %(n)s: alle Karten offen", "Round %(n)s: every card face up"),
    "golf.penalty": ("+10 Klopfstrafe", "+10 knock penalty"),
    "golf.knocker": ("geklopft", "knocked"),
    "golf.knock_penalty": ("%(name)s hat geklopft, aber jemand hatte weniger Punkte: +10 Strafpunkte.",
                           "%(name)s knocked, but somebody had fewer points: +10 penalty points."),
    "golf.knock_penalty_you": ("Du hast geklopft, aber jemand hatte weniger Punkte: +10 Strafpunkte.",
                               "You knocked, but somebody had fewer points: +10 penalty points."),
    "golf.knock_ok_you": ("Du hast geklopft, und niemand hatte weniger Punkte: keine Strafe.",
                          "You knocked and nobody had fewer points: no penalty."),
    "golf.knock_ok": ("%(name)s hat geklopft, und niemand hatte weniger Punkte: keine Strafe.",
                      "%(name)s knocked and nobody had fewer points: no penalty."),
    "golf.limit": ("Niemand hat geklopft; der Durchgang endete nach dem Zuglimit, ohne Strafe.",
                   "Nobody knocked; the round ended at the turn limit, without penalty."),
    "golf.round_points": ("%(n)s Punkte", "%(n)s points"),
    "golf.round_points_one": ("1 Punkt", "1 point"),
    "golf.points_short": ("Punkte", "points"),
    "golf.summary_row": ("%(name)s %(n)s Punkte (gesamt %(total)s)", "%(name)s %(n)s points (total %(total)s)"),
    "golf.cards_plus": ("%(n)s + 10", "%(n)s + 10"),
    "golf.total": ("Gesamt %(n)s", "Total %(n)s"),
    "golf.next_round": ("Nächster Durchgang", "Next round"),
    "golf.final_btn": ("Endwertung", "Final standings"),
    "golf.sheet_title": ("Punkte auf dem Zettel", "Points on the score sheet"),
    "golf.sheet_round": ("Nr.", "Round"),
    "golf.sum": ("Summe", "Total"),
    "golf.open_sheet": ("Zettel", "Score sheet"),
    "golf.winner": ("%(name)s gewinnt mit den wenigsten Punkten!", "%(name)s wins with the fewest points!"),
    "golf.you_win": ("Du gewinnst mit den wenigsten Punkten!", "You win with the fewest points!"),
    "golf.rules": ("Regeln", "Rules"),
})


# -- pure helpers (no app, no table: unit-tested in CPython) --------------------------------
GOLF_WINS = {"winner": "golf.winner", "you_win": "golf.you_win"}  # the final headline says the fewest points win


def setup_note(app):
    """Return the start screen's line about the memory aid (a setting, off by default)."""
    return t("golf.aid_on") if app.settings["memory_aid"] else t("golf.aid_off")


def setup_hints(choices):
    """Return the start screen's deck suggestion for the chosen table size."""
    return {"decks": t("golf.deck_suggest") if engine.suggested_decks(choices["seats"]) == 2 else t("golf.deck_suggest_one")}


def value_of(view, key, default=None):
    """Return view[key], or default where this kind of view has no such key (the table's view)."""
    return view[key] if key in view else default


def my_seat(view):
    """Return the seat this view belongs to, None for the public (infoscreen) view."""
    seat = view["seat"]
    return seat if seat is not None and 0 <= seat < view["seats"] else None


def table_phase(view, unseen):
    """Return what the screen shows: "summary" (a scored round not yet acknowledged: `unseen`), "final",
    "peek" (this seat looks at its bottom two), "waiting" (others still look) or "turn"."""
    if unseen:
        return "summary"
    if view["outcome"] is not None:
        return "final"
    if view["phase"] == "peek":
        return "peek" if value_of(view, "peek", []) else "waiting"
    return "turn"


def slot_shows(view, seat, memory_aid):
    """Return for each position of a seat's grid what may be drawn on it now:
    ("face", card) face up, ("mini", card) small on the back (memory aid), or ("back", None)."""
    me = my_seat(view)
    out = []
    peek = value_of(view, "peek", []) if seat == me else []
    known = value_of(view, "known", [None, None, None, None]) if seat == me else [None, None, None, None]
    public = view["public"][seat] if seat < len(view["public"]) else [None, None, None, None]
    for position in POSITIONS:
        if seat == me and position in peek and known[position] is not None:
            out.append(("face", known[position]))
        elif memory_aid and seat == me and known[position] is not None:
            out.append(("mini", known[position]))
        elif memory_aid and public[position] is not None:
            out.append(("mini", public[position]))
        else:
            out.append(("back", None))
    return out


def holding(view):
    """Return the card this seat has drawn and must place, or None."""
    return value_of(view, "drawn")


def can_take(view):
    return "take 0" in view["legal"]


def key_action(view, key, taking):
    """Return what a key does on this seat's turn: ("act", action), ("take", None) to choose
    the discard, ("cancel", None), or None when the key means nothing now."""
    legal = view["legal"]
    key = key.lower() if len(key) == 1 else key
    drawn = holding(view)
    if key in ("1", "2", "3", "4"):
        position = int(key) - 1
        if drawn is not None and ("swap %d" % position) in legal:
            return ("act", "swap %d" % position)
        if taking and ("take %d" % position) in legal:
            return ("act", "take %d" % position)
        return None
    if key == "s" and "draw" in legal and not taking:
        return ("act", "draw")
    if key == "a":
        if drawn is not None and "discard" in legal:
            return ("act", "discard")
        if taking:
            return ("cancel", None)
        if can_take(view):
            return ("take", None)
        return None
    if key == "k" and "knock" in legal and not taking:
        return ("act", "knock")
    if key == "Escape" and taking:
        return ("cancel", None)
    return None


def round_rows(result):
    """Return one row per seat of a scored round: grid, points, penalty, round score, total, knocker."""
    rows = []
    for seat in range(len(result["points"])):
        rows.append({"seat": seat, "grid": list(result["grids"][seat]), "points": result["points"][seat],
                     "penalty": result["penalty"][seat], "score": result["scores"][seat],
                     "total": result["totals"][seat], "knocker": result["knocker"] == seat})
    return rows


def knock_note(result, names, me=None):
    """Return the sentence that explains the knock of a scored round (penalty or none, or the turn limit)."""
    knocker = result["knocker"]
    if knocker is None:
        return t("golf.limit")
    key = "golf.knock_penalty" if result["penalty"][knocker] else "golf.knock_ok"
    return t(key + "_you") if knocker == me else t(key, name=names[knocker])


def short_card(card):
    """Return a card as printed small: rank and suit symbol, e.g. "7♦", "B♠" (German) / "J♠"."""
    return rank_label(card[:-1]) + SUIT_SYMBOLS[card[-1]]


def where(position):
    return t("golf.where.%d" % position)


# The actions that show as an event of their seat (drawing from the stock shows as the drawn card).
MOVES_IN_NEWS = ("swap", "discard", "take", "knock")
MOVES_SINCE_SHOWN = 4  # the others' moves said on a seat's turn (at eight seats the line would fill the screen)


def event_text(event, names, me, computer=False):
    """Return one line about an event of the round (the latest is shown as "what just happened");
    `computer`: a computer made it for this device's seat while its phone was away."""
    action = event["action"]
    if action == "reshuffle":
        return t("golf.ev.reshuffle")
    seat = event["seat"]
    key = "golf.ev." + action + (("_standin" if computer else "_you") if seat == me else "")
    values = {"name": names[seat]}
    if "position" in event:  # numbered as the cards and the Tipp number them (a newcomer's audit), and where it is
        values["where"] = t("golf.at", n=event["position"] + 1, where=where(event["position"]))
    if "card" in event:
        values["card"] = card_name(event["card"])
    if "out" in event:
        values["out"] = card_name(event["out"])
    if action == "swap":
        values["card"] = card_name(event["out"])
    return t(key, **values)


def latest_news(view, table=None, since_own=True):
    """Return the line about what just happened: a drawn card in someone's hand, the last event, or who starts
    (`table`: this device's, which knows what a computer played for its seat while its phone was away;
    `since_own`: on this seat's turn, the others' moves since its own, for whoever was not watching)."""
    names = view["names"]
    me = my_seat(view)
    if view["drawing"] is not None and view["drawing"] != me:
        return t("golf.ev.draw", name=names[view["drawing"]])
    if view["drawing"] is not None and holding(view) is not None:
        return t("golf.ev.drew_you", card=card_name(holding(view)))
    events = view["events"]
    if since_own and events and me is not None and view["turn"] == me and view["drawing"] is None:
        # Whose turn it is now was not watching (several people at one device, or a look away): the others'
        # moves since this seat's own, not only the last one (what they took from the discard pile matters).
        since = []
        for event in reversed(events):
            if event["seat"] == me and event["action"] in MOVES_IN_NEWS:
                break
            if event["action"] in MOVES_IN_NEWS:
                since.insert(0, event_text(event, names, me))
        if len(since) > 1:
            return " ".join(since[-MOVES_SINCE_SHOWN:])
    if events:
        computer = me is not None and table is not None and stood_in_since(
            table, events, lambda shown, index: shown[index]["seat"] == me and shown[index]["action"] in MOVES_IN_NEWS,
            lambda action: action.split(" ")[0] in MOVES_IN_NEWS) < len(events)
        return event_text(events[-1], names, me, computer)
    if view["turn"] is not None:
        starter = view["turn"]
        return t("golf.ev.start_you") if starter == me else t("golf.ev.start", name=names[starter])
    return ""


def last_slot(view):
    """Return (seat, position) changed by the latest event, for a gentle highlight, or None."""
    events = view["events"]
    if events and "position" in events[-1]:
        return (events[-1]["seat"], events[-1]["position"])
    return None


# -- rendering pieces ---------------------------------------------------------------------------

def mini_face(card):
    """Return a card's value drawn small on its back (the memory aid)."""
    return '<span class="g-mini%s" aria-hidden="true">%s</span>' % (
        " red" if card[-1] in RED_SUIT_LETTERS else "", escape(short_card(card)))


# Grid positions by their inputs and the language: every drawing shows up to 32 of them, mostly unchanged.
_SLOTS = {}


def slot_html(view, seat, position, show, action=None, big=False, fresh=False, hinted=None):
    """Return one grid position (data-card only when the card may be seen now; `hinted`: the Tipp badge's text)."""
    key = (language(), position, show[0], show[1], action, big, fresh, hinted)
    if key not in _SLOTS:
        if len(_SLOTS) > 2000:
            _SLOTS.clear()
        _SLOTS[key] = slot_markup(position, show, action, big, fresh, hinted)
    return _SLOTS[key]


def slot_markup(position, show, action, big, fresh, hinted):
    """Return the markup of one grid position (slot_html keeps it)."""
    kind, card = show
    label = t("golf.pos", n=position + 1, where=where(position))
    testid = "pos-%d" % position
    classes = "g-slot" + (" g-fresh" if fresh else "")
    if kind == "face":
        return french_card(card, label="%s, %s" % (label, t("golf.faceup", card=card_name(card))),
                           testid=testid, extra=classes, data_hinted=hinted)
    state = t("golf.remembered", card=card_name(card)) if kind == "mini" else t("golf.facedown")
    inner = mini_face(card) if kind == "mini" else ""
    if big:
        inner += '<span class="g-key" aria-hidden="true">%d</span>' % (position + 1)
    tag = "button" if big else "div"
    return '<%s%s>%s</%s>' % (tag, attrs(
        type="button" if big else None, class_="card back " + classes + (" g-target" if action else ""),
        data_action="pos" if big else None, data_value=position if big else None,
        disabled=big and not action, data_testid=testid, data_card=card if kind == "mini" else None, data_hinted=hinted,
        role=None if big else "img",
        aria_label="%s, %s%s" % (label, state, (" – " + t("golf.swap_here")) if action else "")), inner, tag)


def sheet_html(view, compact=False):
    """Return the score sheet: a row per round (nine), a column per seat, totals at the foot."""
    names = view["names"]
    seats = view["seats"]
    history = view["history"]
    # The name in a span of its own: a table screen stands it upright in at most two lines (a cell takes no max-height).
    head = "".join('<th scope="col" class="g-name"><span>%s</span></th>' % escape(names[s]) for s in range(seats))
    rows = []
    for number in range(1, view["rounds_total"] + 1):
        if number <= len(history):
            cells = "".join('<td>%d</td>' % history[number - 1][s] for s in range(seats))
        else:
            cells = "".join('<td class="g-empty"></td>' for _ in range(seats))
        rows.append('<tr%s><th scope="row">%d</th>%s</tr>' % (
            ' class="g-current"' if number == len(history) else "", number, cells))
    totals = "".join('<td data-testid="sheet-total-%d">%d</td>' % (s, view["totals"][s]) for s in range(seats))
    return ('<section class="g-sheet%s" aria-labelledby="sheet-h" data-testid="score-sheet">'
            '<h2 id="sheet-h">%s</h2><div class="table-scroll" tabindex="0" role="region" aria-labelledby="sheet-h">'
            '<table class="g-sheet-table"><thead><tr><th scope="col">%s</th>%s</tr></thead>'
            '<tbody>%s</tbody><tfoot><tr><th scope="row">%s</th>%s</tr></tfoot></table></div></section>' % (
                " compact" if compact else "", escape(t("golf.sheet_title")), escape(t("golf.sheet_round")), head,
                "".join(rows), escape(t("golf.sum")), totals))


def summary_html(view, result, me, action=True, last=False):
    """Return the scored round: every grid face up, points, the knock penalty, round score and total."""
    names = view["names"]
    tiles = []
    said = []  # the round in one line for screen readers: the tiles are cards and figures
    for row in round_rows(result):
        seat = row["seat"]
        cards = "".join(french_card(card, size="small", extra="g-rcard") for card in row["grid"])
        tags = ""
        if row["knocker"]:
            tags += '<span class="g-tag knock">%s</span>' % escape(t("golf.knocker"))
        if row["penalty"]:
            tags += '<span class="g-tag penalty" data-testid="penalty-%d">%s</span>' % (seat, escape(t("golf.penalty")))
        detail = t("golf.cards_plus", n=row["points"]) if row["penalty"] else ""
        said.append(t("golf.summary_row", name=t("golf.you") if seat == me else names[seat], n=row["score"],
                      total=row["total"]))
        tiles.append(
            '<li class="g-result%s" data-seat="%d" data-testid="summary-%d"><span class="g-who">%s</span>'
            '<div class="g-rgrid">%s</div><div class="g-rtext"><span class="g-pts" data-testid="round-points-%d">%d'
            '<span class="visually-hidden"> %s</span></span><span class="g-detail">%s</span>'
            '<span class="g-tot" data-testid="round-total-%d">%s</span></div><div class="g-tags">%s</div></li>' % (
                " me" if seat == me else "", seat, seat,
                escape(t("golf.you") if seat == me else names[seat]), cards,
                seat, row["score"], escape(t("golf.points_short")), escape(detail),
                seat, escape(t("golf.total", n=row["total"])), tags))
    go_on = status = ""
    if action:  # the round just scored (not the final's or the table screen's look back): said when it comes
        go_on = '<div class="controls">%s</div>' % button(
            t("golf.final_btn") if last else t("golf.next_round"), "next", "next-round", kind="primary", extra="wide")
        status = '<p class="visually-hidden" role="status" data-testid="summary-said">%s</p>' % escape(" ".join(
            [t("golf.summary_title", n=result["round"]) + ".", knock_note(result, names, me), ", ".join(said) + "."]))
    return ('<section class="g-summary" aria-labelledby="summary-h" data-testid="round-summary">'
            '<h2 id="summary-h">%s</h2><p class="g-knock-note" data-testid="knock-note">%s</p>'
            '<ul class="g-results">%s</ul>%s%s</section>' % (
                escape(t("golf.summary_title", n=result["round"])), escape(knock_note(result, names, me)),
                "".join(tiles), go_on, status))


def final_html(table, view, last_round=False):
    """Return the final standings in Golf's words (the fewest points win) with the score sheet under them, and
    with `last_round` the last round's open cards between them."""
    last = summary_html(view, view["last_round"], None, action=False) if last_round and view["last_round"] else ""
    return final_standings(table, view["names"], view["outcome"], words=GOLF_WINS, after=last + sheet_html(view))


# -- screens ------------------------------------------------------------------------------------

class TableScreen(Screen):
    """The running game on any table: peek, turns, knock banner, round summary, final standings."""

    route = "play/golf/table"

    def enter_action(self):
        """Enter ends the peek ("ready") or goes on after a round's summary ("next")."""
        view = self.table.view()
        if my_seat(view) is None or self.sheet:
            return None
        phase = self.phase(view)
        if phase == "peek":
            return "ready"
        return "next" if phase == "summary" else None

    def __init__(self, app, table):
        self.table = table
        reveal_due(table, table.view())  # rounds scored before this screen opened count as seen
        self.taking = False   # the person tapped the discard pile and chooses a position
        self.popped = NewOnce()  # the latest event's slot: it pops once
        self.sheet = False    # the score sheet panel is open
        self.tipp = Hint(GAME)
        table.listen(lambda event: app.rerender())

    def phase(self, view):
        # The table keeps the scored rounds whose summary was acknowledged: a reload shows a summary again.
        return table_phase(view, reveal_due(self.table, view))

    # -- rendering -----------------------------------------------------------------------------
    def render(self, app):
        view = self.table.view()
        if my_seat(view) is None:
            return page(t("game.golf"), self.render_info(view), extra_class="golf golf-info")
        phase = self.phase(view)
        if not can_take(view) or phase != "turn":
            self.taking = False
        me = my_seat(view)
        if phase == "summary":
            result = view["last_round"]
            number = len(view["history"])
            body = summary_html(view, result, me, last=number >= view["rounds_total"]) + sheet_html(view, compact=True)
        elif phase == "final":
            body = final_html(self.table, view)
        else:
            body = self.render_table(app, view, phase)
        tools = []
        if phase not in ("summary", "final"):
            tools.append(button(t("golf.open_sheet"), "sheet", "open-sheet", kind="ghost"))
            if self.table.can_pause():
                tools.append(button(t("table.pause"), "pause", "pause", kind="secondary"))
            if self.table.can_transfer():
                tools.append(transfer_link(GAME))
        tools_html = '<div class="tools g-tools">%s</div>' % "".join(tools) if tools else ""
        return page(t("game.golf"), body + tools_html + self.render_panel(view), extra_class="golf")

    def render_head(self, view, phase):
        me = my_seat(view)
        if phase == "peek":
            whose = t("golf.peek_title")
        elif phase == "waiting":
            whose = t("golf.all_peek")
        elif view["turn"] == me:
            whose = t("golf.turn_you")
        else:
            whose = t("golf.turn", name=view["names"][view["turn"]])
        limit = ""
        if phase == "turn" and view["knocker"] is None and view["turns_left"] <= 2 * view["seats"]:
            limit = '<p class="g-limit" data-testid="turn-limit" aria-live="polite">%s</p>' % escape(
                t("golf.turn_limit", n=view["turns_left"]))
        # Each line is its own region: the round's number is news once, not with every turn.
        return ('<section class="g-head"><p class="g-round" data-testid="round-number" aria-live="polite">%s</p>'
                '<p class="g-whose" data-testid="whose-turn" aria-live="polite">%s</p>%s</section>' % (
                    escape(t("golf.round", n=view["round"], total=view["rounds_total"])), escape(whose), limit))

    def render_banner(self, view):
        knocker = view["knocker"]
        if knocker is None:
            return ""
        me = my_seat(view)
        text = t("golf.banner_you") if knocker == me else t("golf.banner", name=view["names"][knocker])
        if me is not None and view["turn"] == me and knocker != me:
            text += " " + t("golf.banner_last")
        return '<p class="g-banner" role="status" data-testid="last-turn-banner">%s</p>' % escape(text)

    def render_opponents(self, app, view, phase):
        me = my_seat(view)
        aid = bool(app.settings["memory_aid"])
        fresh = self.fresh_slot(app, view)
        tiles = []
        for seat in range(view["seats"]):
            if seat == me:
                continue
            tiles.append(self.seat_tile(view, seat, aid, fresh, phase))
        return '<ul class="g-others" aria-label="%s">%s</ul>' % (escape(t("golf.opponents")), "".join(tiles))

    def seat_tile(self, view, seat, aid, fresh, phase, big=False):
        name = view["names"][seat]
        shows = slot_shows(view, seat, aid)
        slots = "".join(slot_html(view, seat, p, shows[p], fresh=fresh == (seat, p)) for p in POSITIONS)
        status = ""
        if phase in ("peek", "waiting") and not view["ready"][seat]:
            status = t("golf.looking")
        elif view["drawing"] == seat:
            status = t("golf.holding")
        elif view["knocker"] == seat:
            status = t("golf.knocked_tag")
        current = phase == "turn" and view["turn"] == seat
        looking = phase in ("peek", "waiting") and not view["ready"][seat]
        # The status badge heads the tile, in its own line above the grid (kept while empty, so a badge coming or
        # going moves nothing): laid over the grid it hid the top row of cards.
        return ('<li class="g-seat%s%s" data-seat="%d" data-testid="seat-%d"><span class="g-status">%s</span>'
                '<div class="g-grid small" role="group" aria-label="%s" data-testid="grid-%d">%s</div>'
                '<div class="g-seat-info"><span class="g-name">%s</span><span class="g-total">%s</span></div></li>' % (
                    " current" if current else "", " looking" if looking else "", seat, seat, escape(status),
                    escape(t("golf.cards_of", name=name)), seat, slots,
                    escape(name), escape(t("golf.points", n=view["totals"][seat]))))

    def render_piles(self, view, phase):
        """Return the stock (or the card drawn from it, lifted) above the discard pile."""
        me = my_seat(view)
        legal = view["legal"]
        drawn = holding(view)
        marks = self.tipp.marks(view)
        if drawn is not None:
            first = french_card(drawn, label=t("golf.drawn", card=card_name(drawn)), testid="drawn-card",
                                extra="g-drawn")
            first_label = t("golf.pile_drawn")
        elif view["drawing"] is not None and view["drawing"] != me:
            first = '<div%s></div>' % attrs(class_="card back g-drawn other", role="img",
                                            aria_label=t("golf.drawn_other", name=view["names"][view["drawing"]]))
            first_label = t("golf.pile_other", name=view["names"][view["drawing"]])
        else:
            first = '<button%s><span class="g-count" aria-hidden="true">%d</span></button>' % (attrs(
                type="button", class_="card back g-stock", data_action="draw", data_testid="stock",
                disabled="draw" not in legal or self.taking, data_hinted=self.tipp.mark(marks, "draw"),
                data_next_step="draw" in legal and not self.taking,  # a keyboard user's turn starts here
                aria_label=t("golf.stock_draw" if "draw" in legal else "golf.stock", n=view["stock_count"]),
                aria_keyshortcuts="s" if "draw" in legal else None),
                view["stock_count"])
            first_label = t("golf.pile_stock")
        top = view["discard_top"]
        if top is None:
            discard = '<div class="card g-empty-pile" data-testid="discard-top"></div>'
        else:
            takeable = can_take(view)
            discard = french_card(top, label=t("golf.discard_take" if takeable else "golf.discard_label",
                                               card=card_name(top)),
                                  action="take-mode" if takeable else None, testid="discard-top",
                                  selected=self.taking, extra="g-pile-card", data_hinted=self.tipp.mark(marks, "take"),
                                  aria_keyshortcuts="a" if takeable else None)
        return ('<div class="g-piles"><div class="g-pile">%s<span class="g-pile-label">%s</span></div>'
                '<div class="g-pile">%s<span class="g-pile-label">%s</span></div></div>' % (
                    first, escape(first_label), discard, escape(t("golf.pile_discard"))))

    def render_mine(self, app, view, phase):
        me = my_seat(view)
        aid = bool(app.settings["memory_aid"])
        shows = slot_shows(view, me, aid)
        drawn = holding(view)
        fresh = self.fresh_slot(app, view)
        marks = self.tipp.marks(view)
        placing = "swap" in marks or "take" in marks
        slots = []
        for position in POSITIONS:
            target = None
            if drawn is not None and ("swap %d" % position) in view["legal"]:
                target = "swap"
            elif self.taking and ("take %d" % position) in view["legal"]:
                target = "take"
            slots.append(slot_html(view, me, position, shows[position], action=target, big=True,
                                   fresh=fresh == (me, position),
                                   hinted=self.tipp.mark(marks, str(position)) if placing else None))
        return ('<section class="g-mine%s" data-seat="%d" data-testid="seat-%d"><h2 id="mine-h">%s <span class="g-total">%s</span></h2>'
                '<div class="g-grid big" role="group" aria-labelledby="mine-h" data-testid="grid-%d"%s>%s</div></section>' % (
                    " current" if phase == "turn" and view["turn"] == me else "", me, me,
                    # "Gesamt": the points of the rounds so far (a newcomer read "0 Punkte" over the cards as theirs).
                    escape(t("golf.your_cards")), escape(t("golf.total", n=view["totals"][me])), me,
                    # A card in hand goes to a position: a keyboard user's next step (index.html).
                    " data-next-step" if drawn is not None or self.taking else "", "".join(slots)))

    def render_actions(self, view, phase):
        me = my_seat(view)
        if phase == "peek":
            # The face-up cards are pictures; "Gemerkt" says them to a screen reader, which lands on it.
            known = value_of(view, "known", [None, None, None, None])
            cards = ", ".join(["%s: %s" % (where(position), card_name(known[position]))
                               for position in value_of(view, "peek", []) if known[position] is not None])
            return ('<div class="g-peek"><p class="g-hint" data-testid="hint">%s</p>'
                    '<p class="visually-hidden" id="peek-said" data-testid="peek-said">%s</p><div class="controls">%s</div></div>' % (
                        escape(t("golf.peek_hint")), escape(t("golf.peek_said", cards=cards)),
                        button(t("golf.peek_done"), "ready", "peek-done", kind="primary", extra="wide", data_next_step=True,
                               aria_describedby="peek-said")))
        if phase == "waiting":
            names = [view["names"][s] for s in range(view["seats"]) if not view["ready"][s]]
            return '<p class="g-hint" data-testid="hint">%s</p>' % escape(t("golf.waiting_peek", names=", ".join(names)))
        drawn = holding(view)
        mine = view["turn"] == me
        if not mine:
            hint = t("golf.hint_wait", name=view["names"][view["turn"]])
        elif drawn is not None:
            hint = t("golf.hint_drawn")
        elif self.taking:
            hint = t("golf.hint_take", card=card_name(view["discard_top"]))
        elif view["knocker"] is None:
            hint = t("golf.hint_turn")
        else:
            hint = t("golf.hint_turn_knocked")
        marks = self.tipp.marks(view)
        buttons = []
        if drawn is not None:
            buttons.append(button(t("golf.discard_drawn"), "discard", "discard-drawn", kind="secondary",
                                  disabled="discard" not in view["legal"], data_hinted=self.tipp.mark(marks, "discard")))
        if self.taking:
            buttons.append(button(t("golf.cancel_take"), "take-mode", "cancel-take", kind="ghost"))
        if view["knocker"] is None and drawn is None and not self.taking:
            # Drawing (a tap on a pile) is the normal turn; knocking ends the round, so it is not the main button.
            buttons.append(button(t("golf.knock"), "knock", "knock", kind="secondary",
                                  disabled="knock" not in view["legal"], data_hinted=self.tipp.mark(marks, "knock")))
        if mine:
            buttons.append(self.tipp.button(view))
        events = view["events"]
        # A knock is said by the banner above (and read out from there); the news line would say it twice.
        knocked = events and events[-1]["action"] == "knock" and view["drawing"] is None
        news = "" if knocked else latest_news(view, self.table)
        # Heard: each move as it happens, not the others' moves again in one block on this seat's turn (an
        # audit heard every move twice); where to put a card taken from the pile, which is said nowhere else.
        said = hint if self.taking else "" if knocked else latest_news(view, self.table, since_own=False)
        # What was done is read out before whose turn it is now (the head above would come first).
        return ('<p class="g-hint" data-testid="hint">%s</p><p class="g-news" data-testid="news">%s</p>'
                '<p class="visually-hidden" data-testid="news-said" aria-live="polite" data-said-first="">%s</p>'
                '<div class="controls g-actions">%s</div>%s' % (
                    with_key_hints(hint), escape(news), escape(said), "".join(buttons),
                    self.tipp.line(view) if mine else ""))

    def render_table(self, app, view, phase):
        return (self.render_head(view, phase) + self.render_banner(view) + self.render_opponents(app, view, phase)
                + '<div class="g-play">%s%s</div>' % (self.render_piles(view, phase), self.render_mine(app, view, phase))
                + self.render_actions(view, phase))

    def render_panel(self, view):
        if not self.sheet:
            return ""
        return sheet("panel-sheet", None, sheet_html(view))  # the score sheet brings its heading

    def fresh_slot(self, app, view):
        """Return the slot the latest event changed while it is new (its pop plays once, not on every redraw)."""
        slot = last_slot(view)
        if slot is None or not self.popped.is_new(app, (slot, repr(sorted(view["events"][-1].items())))):
            return None
        return slot

    def render_info(self, view):
        """Return the infoscreen: a landscape, large-type public table (the public view only)."""
        if view["outcome"] is not None:  # the last round's open cards too: a game over on one device shows only this
            return final_html(self.table, view, last_round=True)
        phase = "waiting" if view["phase"] == "peek" else "turn"
        head = self.render_head(view, phase) + self.render_banner(view)
        if phase == "waiting" and view["last_round"] is not None:
            return head + '<div class="g-info-split">%s%s</div>' % (
                summary_html(view, view["last_round"], None, action=False), sheet_html(view, compact=True))
        fresh = last_slot(view)
        tiles = "".join(self.seat_tile(view, seat, False, fresh, phase) for seat in range(view["seats"]))
        return head + ('<div class="g-info-split"><ul class="g-others g-all">%s</ul><div class="g-info-side">%s'
                       '<p class="g-news" aria-live="polite">%s</p>%s</div></div>' % (
                           tiles, self.render_piles(view, phase), escape(latest_news(view)),
                           sheet_html(view, compact=True)))

    # -- actions -----------------------------------------------------------------------------------
    def act(self, app, action):
        self.taking = False
        try:
            self.table.act(action)
        except IllegalAction as error:
            app.toast(refusal_text(error))
        app.rerender()

    def handle(self, app, action, value):
        if table_action(app, self.table, action):  # Speichern & pausieren, Neue Partie
            return
        view = self.table.view()
        if action == "ready":
            self.act(app, "ready")
        elif action == "draw":
            self.act(app, "draw")
        elif action == "take-mode":
            self.taking = not self.taking and can_take(view)
            app.rerender()
        elif action == "pos":
            position = int(value)
            if holding(view) is not None:
                self.act(app, "swap %d" % position)
            elif self.taking:
                self.act(app, "take %d" % position)
        elif action == "discard":
            self.act(app, "discard")
        elif action == "knock":
            self.act(app, "knock")
        elif action == "hint" and self.phase(view) == "turn":
            hinted = self.tipp.ask(view, app)
            if self.taking and (hinted is None or not hinted.startswith("take ")):
                # The hint is for the whole turn: a tap on the discard pile it does not want is undone, or the
                # marked stock would stay disabled (an audit tapped it and nothing happened).
                self.taking = False
            app.rerender()
        elif action == "next":
            reveal_shown(self.table, view)
            app.rerender()
            app.scroll_to_top()  # the button is below the summary; the next round's names are at the top
        elif action == "sheet":
            self.sheet = True
            app.rerender()
        elif action == "close-panel":
            self.sheet = False
            app.rerender()

    def on_key(self, app, key):
        view = self.table.view()
        if my_seat(view) is None:
            return False
        if self.sheet:
            if key == "Escape":
                self.sheet = False
                app.rerender()
                return True
            return False
        if key == "Enter":
            return self.press_enter(app)
        phase = self.phase(view)
        if phase != "turn" or view["turn"] != my_seat(view):
            return False
        found = key_action(view, key, self.taking)
        if found is None:
            if key in "1234" and len(key) == 1 and holding(view) is None and not self.taking:
                # A position before a card to put there: said, not silent (an audit heard nothing).
                app.toast(t("golf.pos_first"))
                return True
            return False
        kind, action = found
        if kind == "act":
            self.act(app, action)
        elif kind == "take":
            self.taking = True
            app.rerender()
        else:
            self.taking = False
            app.rerender()
        return True

    def leave(self, app):
        self.table.close()

"""Mau-Mau screens: Neues Spiel, the table (phone and infoscreen), between deals, final standings.

The screen reads only its table's view (`table.view()`): its own hand, the public facts and the
event log. What may be played comes from the view's `legal` list (the engine decides); the screen
marks those cards, asks for a suit after a Jack, adds "mau" when the person said it, and marks the
cards that came into the hand with the person's last action (a draw, an obligation, a Mau penalty).
"""

from spieleabend.games import maumau as engine
from spieleabend.games.common import IllegalAction
from spieleabend.ui.hint import Hint
from spieleabend.ui.html import SUIT_SYMBOLS, Parts, attrs, button, card_name, escape, french_card, seen_and_heard
from spieleabend.ui.i18n import register, t
from spieleabend.ui.shell import Screen, page, transfer_link
from spieleabend.ui.final import final_standings
from spieleabend.ui.table import new_computer_names, refusal_text, stood_in_since, table_action

GAME = "maumau"
# Hand order: suits alternate black and red, ranks low to high.
SUIT_ORDER = {"C": 0, "H": 1, "S": 2, "D": 3}
RANK_ORDER = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
              "J": 11, "Q": 12, "K": 13, "A": 14}
PICKER_SUITS = ["H", "D", "S", "C"]
FEED_LENGTH = 5
SCREEN_FEED_LENGTH = 7
# Events that end "what the last card did" when reading the log backwards.
MOVE_EVENTS = {"play": True, "draw": True, "deal": True, "deal_end": True, "join": True, "leave": True, "out": True}

register({
    "mm.you": ("Du", "You"),
    "mm.limit_hint": ("Wer über die Grenze kommt, scheidet aus. Wer zuletzt übrig ist, gewinnt. 30 ist eine kurze Partie.",
                      "Whoever goes over the limit is out. The last one left wins. 30 makes a short game."),
    "mm.deal": ("Runde %(n)s", "Deal %(n)s"),
    "mm.limit_info": ("Grenze %(n)s", "Limit %(n)s"),
    "mm.players_h": ("Am Tisch", "At the table"),
    "mm.cards": ("%(n)s Karten", "%(n)s cards"),
    "mm.cards_one": ("1 Karte", "1 card"),
    "mm.minus": ("%(n)s Minuspunkte", "%(n)s minus points"),
    "mm.minus_one": ("1 Minuspunkt", "1 minus point"),
    "mm.minus_short": ("−%(n)s", "−%(n)s"),
    "mm.at_turn": ("am Zug", "to play"),
    "mm.out": ("ausgeschieden", "knocked out"),
    "mm.out_short": ("raus", "out"),
    "mm.your_turn": ("Du bist am Zug.", "Your turn."),
    "mm.their_turn": ("%(name)s ist am Zug …", "%(name)s is playing …"),
    "mm.hint.play": ("Lege eine passende Karte oder ziehe eine.", "Play a matching card or draw one."),
    "mm.hint.pending": ("Lege eine 7 oder ziehe %(n)s Karten.", "Play a 7 or draw %(n)s cards."),
    "mm.hint.again": ("Noch einmal: lege eine passende Karte oder ziehe eine.",
                      "Once more: play a matching card or draw one."),
    "mm.discard": ("Ablagestapel: %(card)s", "Discard pile: %(card)s"),
    "mm.draw_one": ("Talon: eine Karte ziehen (%(n)s Karten)", "Stock: draw a card (%(n)s cards)"),
    "mm.draw_n": ("Talon: %(n)s Karten ziehen", "Stock: draw %(n)s cards"),
    "mm.stock": ("Talon: %(n)s Karten", "Stock: %(n)s cards"),
    "mm.stock_one": ("Talon: 1 Karte", "Stock: 1 card"),
    "mm.wish": ("Wunsch: %(suit)s", "Called: %(suit)s"),
    "mm.dir.1": ("↻ im Uhrzeigersinn", "↻ clockwise"),
    "mm.dir.-1": ("↺ gegen den Uhrzeigersinn", "↺ anticlockwise"),
    "mm.pending": ("+%(n)s ziehen", "+%(n)s to draw"),
    "mm.skipped": ("%(name)s setzt aus", "%(name)s is skipped"),
    "mm.skipped_you": ("Du setzt aus", "You are skipped"),
    "mm.again": ("%(name)s noch einmal", "%(name)s once more"),
    "mm.again_you": ("Du noch einmal", "You once more"),
    "mm.hand": ("Deine Karten (%(n)s)", "Your cards (%(n)s)"),
    "mm.drawn": ("neu", "new"),
    "mm.you_drew": ("Gezogen: %(cards)s.", "Drawn: %(cards)s."),
    "mm.keys": ("Tastatur: Pfeile wählen eine Karte, Enter legt sie, D zieht, M sagt „Mau“.",
                "Keyboard: arrows move between cards, Enter plays one, D draws, M says “Mau”."),
    "mm.drawn_label": ("%(card)s, neu auf der Hand", "%(card)s, new in your hand"),
    "mm.mau": ("Mau!", "Mau!"),
    "mm.mau_hint": ("„Mau“ sagst du, wenn du deine vorletzte Karte legst.",
                    "You say Mau when you play your second-to-last card."),
    "mm.mau_armed": ("„Mau“ gesagt – jetzt die vorletzte Karte legen.", "Mau said – now play your second-to-last card."),
    "mm.mau_forgot": ("Du hast beim Legen deiner vorletzten Karte nicht „Mau“ gesagt: %(n)s Strafkarten.",
                      "You did not say Mau with your second-to-last card: %(n)s penalty cards."),
    "mm.pick_suit": ("Welche Farbe wünschst du dir?", "Which suit do you call?"),
    "mm.cancel": ("Abbrechen", "Cancel"),
    "mm.not_your_turn": ("Du bist nicht am Zug.", "It is not your turn."),
    "mm.only_seven": ("Jetzt geht nur eine 7 – oder ziehe %(n)s Karten.", "Only a 7 now – or draw %(n)s cards."),
    "mm.no_fit": ("%(card)s passt nicht auf %(top)s.", "%(card)s does not fit on %(top)s."),
    "mm.no_fit_wish": ("%(card)s passt nicht: gewünscht ist %(suit)s.", "%(card)s does not fit: %(suit)s was called."),
    "mm.feed": ("Was gerade passiert ist", "What just happened"),
    "mm.someone": ("Jemand", "Someone"),
    "mm.ev.deal": ("Runde %(n)s: %(name)s beginnt, offen liegt %(card)s.", "Deal %(n)s: %(name)s starts, the open card is %(card)s."),
    "mm.ev.deal_you": ("Runde %(n)s: Du beginnst, offen liegt %(card)s.", "Deal %(n)s: you start, the open card is %(card)s."),
    "mm.ev.play": ("%(name)s legt %(card)s.", "%(name)s plays %(card)s."),
    "mm.ev.play_you": ("Du legst %(card)s.", "You play %(card)s."),
    "mm.ev.play_standin": ("Der Computer legt für dich %(card)s.", "The computer plays %(card)s for you."),
    "mm.ev.play_wish": ("%(name)s legt %(card)s und wünscht %(suit)s.", "%(name)s plays %(card)s and calls %(suit)s."),
    "mm.ev.play_wish_you": ("Du legst %(card)s und wünschst %(suit)s.", "You play %(card)s and call %(suit)s."),
    "mm.ev.play_wish_standin": ("Der Computer legt für dich %(card)s und wünscht %(suit)s.",
                                "The computer plays %(card)s for you and calls %(suit)s."),
    "mm.ev.mau": (" „Mau!“", " “Mau!”"),
    # What a computer did for an away phone, as the room's note lists it ("…: Karo 5, 2 Karten gezogen.").
    "mm.did.wish": ("%(card)s (wünscht %(suit)s)", "%(card)s (calls %(suit)s)"),
    "mm.did.draw_one": ("eine Karte gezogen", "drew a card"),
    "mm.did.draw_n": ("%(n)s Karten gezogen", "drew %(n)s cards"),
    "mm.did.draw_none": ("nicht ziehen können (keine Karte mehr da)", "could not draw (no card left)"),
    "mm.ev.draw": ("%(name)s zieht eine Karte.", "%(name)s draws a card."),
    "mm.ev.draw_you": ("Du ziehst eine Karte.", "You draw a card."),
    "mm.ev.draw_standin": ("Der Computer zieht für dich eine Karte.", "The computer draws a card for you."),
    "mm.ev.draw_n": ("%(name)s zieht %(n)s Karten.", "%(name)s draws %(n)s cards."),
    "mm.ev.draw_n_you": ("Du ziehst %(n)s Karten.", "You draw %(n)s cards."),
    "mm.ev.draw_n_standin": ("Der Computer zieht für dich %(n)s Karten.", "The computer draws %(n)s cards for you."),
    "mm.ev.draw_none": ("%(name)s kann nicht ziehen: keine Karte mehr da.", "%(name)s cannot draw: no card left."),
    "mm.ev.draw_none_you": ("Du kannst nicht ziehen: keine Karte mehr da.", "You cannot draw: no card left."),
    "mm.ev.draw_none_standin": ("Der Computer kann für dich nicht ziehen: keine Karte mehr da.",
                                "The computer cannot draw for you: no card left."),
    "mm.ev.forgot_mau": ("%(name)s hat „Mau“ vergessen und zieht %(n)s Strafkarten.",
                         "%(name)s forgot to say Mau and draws %(n)s penalty cards."),
    "mm.ev.forgot_mau_you": ("Du hast „Mau“ vergessen und ziehst %(n)s Strafkarten.",
                             "You forgot to say Mau and draw %(n)s penalty cards."),
    "mm.ev.forgot_mau_standin": ("Der Computer hat für dich „Mau“ vergessen und zieht %(n)s Strafkarten.",
                                 "The computer forgot to say Mau for you and draws %(n)s penalty cards."),
    "mm.ev.skip": ("%(name)s setzt aus.", "%(name)s is skipped."),
    "mm.ev.skip_you": ("Du setzt aus.", "You are skipped."),
    "mm.ev.reverse": ("Richtungswechsel: jetzt %(dir)s.", "Direction changed: now %(dir)s."),
    "mm.ev.reshuffle": ("Der Ablagestapel wird zum Talon gemischt (%(n)s Karten).",
                        "The discard pile is shuffled into a new stock (%(n)s cards)."),
    "mm.ev.deal_end": ("%(name)s hat keine Karten mehr: Runde %(n)s ist vorbei.",
                       "%(name)s has no cards left: deal %(n)s is over."),
    "mm.ev.deal_end_you": ("Du hast keine Karten mehr: Runde %(n)s ist vorbei.",
                           "You have no cards left: deal %(n)s is over."),
    "mm.ev.out": ("%(name)s scheidet aus (%(n)s Minuspunkte).", "%(name)s is out (%(n)s minus points)."),
    "mm.ev.out_you": ("Du scheidest aus (%(n)s Minuspunkte).", "You are out (%(n)s minus points)."),
    "mm.ev.join": ("%(name)s steigt ein (mit %(n)s Minuspunkten).", "%(name)s joins (with %(n)s minus points)."),
    "mm.ev.leave": ("%(name)s steigt aus.", "%(name)s leaves."),
    "mm.dir_word.1": ("im Uhrzeigersinn", "clockwise"),
    "mm.dir_word.-1": ("gegen den Uhrzeigersinn", "anticlockwise"),
    "mm.deal_over": ("Runde %(n)s ist vorbei", "Deal %(n)s is over"),
    "mm.deal_winner": ("%(name)s hat keine Karten mehr.", "%(name)s has no cards left."),
    "mm.deal_winner_you": ("Du hast keine Karten mehr – keine Minuspunkte für dich.", "You have no cards left – no minus points for you."),
    "mm.col_player": ("Spieler", "Player"),
    "mm.col_cards": ("Karten übrig", "Cards left"),
    "mm.col_deal": ("Diese Runde", "This deal"),
    "mm.col_total": ("Gesamt", "Total"),
    "mm.went_out": ("keine Karten mehr", "no cards left"),
    "mm.out_over": ("ausgeschieden (über %(n)s)", "knocked out (over %(n)s)"),
    "mm.add_player": ("Computer dazunehmen", "Add a computer"),
    "mm.remove_player": ("Vom Tisch nehmen:", "Remove from the table:"),
    "mm.remove_label": ("%(name)s vom Tisch nehmen", "Remove %(name)s from the table"),
    "mm.remove_sure": ("%(name)s wirklich vom Tisch nehmen?", "Really remove %(name)s?"),
    "mm.join_note": ("Vor der nächsten Runde können Computer dazukommen oder gehen. Neue beginnen mit den Minuspunkten des schlechtesten Spielers, der noch dabei ist (%(n)s).",
                     "Before the next deal computers may join or leave. Newcomers start with the minus points of the worst player still in (%(n)s)."),
    "mm.full": ("Der Tisch ist voll (5 Plätze).", "The table is full (5 seats)."),
    "mm.next_deal": ("Nächste Runde", "Next deal"),
    "mm.you_out": ("Du bist ausgeschieden. Die anderen spielen weiter, bis nur noch einer übrig ist.",
                   "You are out. The others play on until only one is left."),
    "mm.waiting": ("Warten, bis jemand die nächste Runde beginnt …", "Waiting for someone to start the next deal …"),
    "mm.deal_started": ("Runde %(n)s hat schon begonnen.", "Deal %(n)s has begun."),
    "mm.deal_started_you": ("Runde %(n)s hat schon begonnen, und du bist am Zug.", "Deal %(n)s has begun, and it is your turn."),
    "mm.to_deal": ("Zu Runde %(n)s", "On to deal %(n)s"),
    "mm.screen_turn": ("Am Zug: %(name)s", "To play: %(name)s"),
    "mm.connecting": ("Der Tisch wird geladen …", "Loading the table …"),
})


# ---------------------------------------------------------------- plug-in hooks of the table

def seats_out(view):
    """Return the seats out of the game (over the limit): several people at one device hide nothing from them."""
    return [seat for seat in range(len(view["out"])) if view["out"][seat]]


def computers_wait(view):
    """Between deals the computers wait for a person still in the game to read the result and go on."""
    return view["phase"] == "between"


# ---------------------------------------------------------------- pure helpers (tested in CPython)

def sort_key(card):
    """Return the hand-order key of a card: suit (black, red, black, red), then rank."""
    return (SUIT_ORDER[card[-1]], RANK_ORDER[card[:-1]])


def sorted_hand(hand):
    """Return the hand sorted by suit and rank."""
    return sorted(hand, key=sort_key)


def playable_cards(legal):
    """Return {card: True} for the cards the legal actions allow to play."""
    cards = {}
    for action in legal:
        if action.startswith("play "):
            cards[action.split(" ")[1].partition(":")[0]] = True
    return cards


def play_action(card, legal, mau=False, suit=None):
    """Return the action that plays `card` (with the named suit for a Jack, with Mau when said and allowed)."""
    base = "play " + card + (":" + suit if suit else "")
    if mau and base + " mau" in legal:
        return base + " mau"
    return base


def new_cards(hand, before):
    """Return {card: count} of the cards in `hand` that were not in `before` (multisets)."""
    counts = {}
    for card in hand:
        counts[card] = counts[card] + 1 if card in counts else 1
    for card in before:
        if card in counts:
            counts[card] -= 1
    fresh = {}
    for card in counts:
        if counts[card] > 0:
            fresh[card] = counts[card]
    return fresh


def mau_penalty(view, seat):
    """Return the penalty cards drawn for a forgotten Mau with `seat`'s latest play this deal, else 0."""
    events = view["events"]
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if event["type"] == "deal":
            return 0
        if event["type"] == "play" and event["seat"] == seat:
            if index + 1 < len(events) and events[index + 1]["type"] == "forgot_mau" and \
                    events[index + 1]["seat"] == seat:
                return events[index + 1]["count"]
            return 0
    return 0


def last_effects(view):
    """Return {"skip": seat or None, "reverse": bool} for what the latest card did (until the next move)."""
    effects = {"skip": None, "reverse": False}
    events = view["events"]
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        if event["type"] == "skip":
            effects["skip"] = event["seat"]
        elif event["type"] == "reverse":
            effects["reverse"] = True
        elif event["type"] in MOVE_EVENTS:
            break
    return effects


def event_seat_label(view, event, key, me):
    """Return the name of the seat an event names under `key`, the name it had for a seat that has left."""
    if event.get(key) is None and isinstance(event.get("left_" + key), str):
        return event["left_" + key]
    return seat_label(view, event.get(key), me)


def seat_label(view, seat, me):
    """Return a seat's name, "Du" for this device's seat."""
    if seat is None or seat >= len(view["names"]):
        return t("mm.someone")
    return t("mm.you") if seat == me else view["names"][seat]


def suit_word(suit):
    """Return a suit's symbol and name, e.g. "♥ Herz"."""
    return SUIT_SYMBOLS[suit] + " " + t("card." + suit)


def _about(key, event, me, computer=False):
    """Return the text key for an event: its "_you" form when it is about this device's seat, its
    "_standin" form when a computer made that move for this seat while its phone was away."""
    if me is None or event.get("seat") != me:
        return key
    return key + ("_standin" if computer else "_you")


def own_move(events, index):
    """Return True when the event is a seat's own move (a play, a draw it chose), not what another's card did to it."""
    event = events[index]
    if event["type"] == "play":
        return True
    # A 7 that ends the deal makes the next seat draw: that draw comes right before the deal's end.
    return event["type"] == "draw" and not (index + 1 < len(events) and events[index + 1]["type"] == "deal_end")


def minus_short(points):
    """Return minus points as the seat chips write them ("−12"); none at all is "0", not "−0"."""
    return t("mm.minus_short", n=points) if points else "0"


def moved(action):
    """Return True for an action that shows as an own move in the feed (not starting the next deal)."""
    return action == "draw" or action.startswith("play ")


def event_text(view, event, me, computer=False):
    """Return one line of the feed for a public event (`computer`: a computer made it for this device's seat)."""
    kind = event["type"]
    name = event_seat_label(view, event, "seat", me)
    if kind == "deal":
        starter = event["starter"]
        key = "mm.ev.deal_you" if starter == me and me is not None else "mm.ev.deal"
        return t(key, n=event["deal"], name=event_seat_label(view, event, "starter", me), card=card_name(event["top"]))
    if kind == "play":
        card = card_name(event["card"])
        if "suit" in event:
            text = t(_about("mm.ev.play_wish", event, me, computer), name=name, card=card, suit=suit_word(event["suit"]))
        else:
            text = t(_about("mm.ev.play", event, me, computer), name=name, card=card)
        return text + (t("mm.ev.mau") if event["mau"] else "")
    if kind == "draw":
        count = event["count"]
        if count == 0:
            return t(_about("mm.ev.draw_none", event, me, computer), name=name)
        if count == 1 and not event["obligation"]:
            return t(_about("mm.ev.draw", event, me, computer), name=name)
        return t(_about("mm.ev.draw_n", event, me, computer), name=name, n=count)
    if kind == "forgot_mau":
        return t(_about("mm.ev.forgot_mau", event, me, computer), name=name, n=event["count"])
    if kind == "skip":
        return t(_about("mm.ev.skip", event, me), name=name)
    if kind == "reverse":
        return t("mm.ev.reverse", dir=t("mm.dir_word.%d" % event["direction"]))
    if kind == "reshuffle":
        return t("mm.ev.reshuffle", n=event["count"])
    if kind == "deal_end":
        winner = event["winner"]
        key = "mm.ev.deal_end_you" if winner == me and me is not None else "mm.ev.deal_end"
        return t(key, name=event_seat_label(view, event, "winner", me), n=event["deal"])
    if kind == "out":
        return t(_about("mm.ev.out", event, me), name=name, n=event["minus"])
    if kind == "join":
        return t("mm.ev.join", name=event["name"], n=event["minus"])
    if kind == "leave":
        return t("mm.ev.leave", name=event["name"])
    return kind


def refusal(view, card):
    """Return why this device's seat may not play `card` now (shown when a dimmed card is tapped)."""
    if view["turn"] != view["seat"]:
        return t("mm.not_your_turn")
    if view["pending"]:
        return t("mm.only_seven", n=view["pending"])
    if view["wish"]:
        return t("mm.no_fit_wish", card=card_name(card), suit=suit_word(view["wish"]))
    return t("mm.no_fit", card=card_name(card), top=card_name(view["top"]))


def setup_hints(choices):
    """Return the start screen's hint under the minus-point limit."""
    return {"limit": t("mm.limit_hint")}


def cards_label(count):
    return t("mm.cards_one") if count == 1 else t("mm.cards", n=count)


# ---------------------------------------------------------------- Neues Spiel

HAND_ROW = 7  # cards a row holds at 360 px with 44 px of each card in sight (64 px cards overlapping by 20)


def hand_rows(cards):
    """Return the hand's cards (HTML) in rows of at most HAND_ROW, as even as they go: a big hand wraps
    instead of squeezing every card to a strip too narrow to tap."""
    if not cards:
        return ""
    rows = (len(cards) + HAND_ROW - 1) // HAND_ROW
    size = (len(cards) + rows - 1) // rows
    out = []
    for start in range(0, len(cards), size):
        row = cards[start:start + size]
        out.append('<div class="mm-row" style="--n:%d">%s</div>' % (max(len(row) - 1, 1), "".join(row)))
    return "".join(out)


class TableScreen(Screen):
    """The running game on any table: the phone layout for a seat, the large public layout for a screen."""

    route = "play/maumau/table"
    keys = "ArrowLeft ArrowRight"  # moving through the hand must not scroll the page

    def __init__(self, app, table):
        self.table = table
        self.mau = False          # the person pressed "Mau!" for the next card
        self.picker = None        # the Jack waiting for its suit
        self.before = None        # the hand before the person's last action, to mark what came in
        self.drew = False         # that action drew (a screen reader hears which cards came)
        self.before_deal = None
        self.cursor = None        # keyboard position in the sorted hand
        self.pile = None          # the discard pile at the last drawing, to let a new card land
        self.tipp = Hint(GAME)
        self.app = app
        self.left = False
        self.parts = Parts()  # what a drawing keeps for the next one
        self.removing = None  # the seat whose "✕" was tapped once: a second tap removes it (it sits by "Nächste Runde")
        self.shown_phase = None  # the phase last drawn: a deal's end scrolls to its headline
        # The settlement this device drew and has not left: in a room another seat may start the next deal while
        # this person still reads it, so it stays (with "Zu Runde N") instead of vanishing under their eyes.
        self.summary = None
        table.listen(self.on_change)

    def on_change(self, _event=None):
        # In a room this screen sits inside the room's frame, so the app's screen is not `self`.
        if not self.left:
            view = self.table.view()
            phase = view["phase"] if view is not None else None
            self.app.rerender()
            if phase == "between" and self.shown_phase == "play":
                # A newcomer's audit: scrolled down to a long hand, the deal's end began above the screen.
                self.app.scroll_to_top()
            self.shown_phase = phase

    # -- rendering -------------------------------------------------------------------
    def render(self, app):
        view = self.table.view()
        if view is None:  # a phone or screen in a room before the host's first view arrived
            return page(t("game.maumau"), '<p class="hint" data-testid="waiting">%s</p>' % escape(t("mm.connecting")),
                        extra_class="mm")
        if self.table.seat is None:
            return self.render_screen(view)
        if view["phase"] == "between":
            self.summary = view
        elif not self.reads_summary(view):
            self.summary = None
        if view["phase"] == "over":
            body = self.render_final(view)
        elif view["phase"] == "between":
            body = self.render_between(view)
        elif self.summary is not None:
            body = self.render_between(self.summary, started=view)
        else:
            body = self.render_play(view)
        return page(t("game.maumau"), body + self.render_tools(view), extra_class="mm")

    def reads_summary(self, view):
        """Return True while the last deal's settlement stays on this device: it was drawn here, and the deal
        after it (started by another seat) is running at the same table (a seat that left renumbers the rest)."""
        kept = self.summary
        return (kept is not None and view["phase"] == "play" and kept["last_deal"] is not None
                and view["deal"] == kept["last_deal"]["deal"] + 1 and view["names"] == kept["names"])

    def render_tools(self, view):
        parts = []
        if view["phase"] != "over" and self.table.can_pause():
            parts.append(button(t("table.pause"), "pause", "pause", kind="secondary"))
        if self.table.can_transfer():
            parts.append(transfer_link(GAME))
        parts.append('<a class="btn btn-ghost" href="/rules/maumau" data-testid="rules-maumau">%s</a>' % escape(t("home.rules")))
        return '<div class="tools mm-tools">%s</div>' % "".join(parts)

    def render_players(self, view, me):
        items = []
        turn = view["turn"]
        for seat in range(len(view["names"])):
            out = view["out"][seat]
            count = view["hand_sizes"][seat]
            classes = "mm-player" + (" me" if seat == me else "") + (" turn" if seat == turn else "") + (" out" if out else "")
            status = ""
            if out:
                status = '<span class="mm-ptag">%s</span>' % escape(t("mm.out_short"))  # a chip is 86 px wide with five seats
            elif seat == turn:
                status = '<span class="mm-ptag turn">%s</span>' % escape(t("mm.at_turn"))
            items.append(
                # The numbers' words for screen readers as hidden text: a label on a plain span is not read.
                '<li%s><span class="mm-pname">%s</span>'
                '<span class="mm-pline"><span class="mm-pcards"><span class="visually-hidden">%s</span>'
                '<span class="mm-back" aria-hidden="true"></span><span aria-hidden="true">%d</span></span>'
                '<span class="mm-pminus">%s</span></span>%s</li>' % (
                    attrs(class_=classes, data_testid="player-%d" % seat, data_seat=seat, data_cards=count,
                          data_points=view["minus"][seat], aria_current="true" if seat == turn else None),
                    escape(seat_label(view, seat, me)), escape(cards_label(count)), count,
                    seen_and_heard(minus_short(view["minus"][seat]), t("mm.minus", n=view["minus"][seat])),
                    status))
        return '<ul class="mm-players" aria-label="%s">%s</ul>' % (escape(t("mm.players_h")), "".join(items))

    def render_badges(self, view, me):
        badges = []
        if view["wish"]:
            badges.append('<span class="mm-badge wish%s" data-testid="wished-suit" data-suit="%s">%s</span>' % (
                " red" if view["wish"] in "HD" else "", view["wish"], escape(t("mm.wish", suit=suit_word(view["wish"])))))
        if view["pending"]:
            badges.append('<span class="mm-badge pending" data-testid="pending-draw" data-count="%d">%s</span>' % (
                view["pending"], escape(t("mm.pending", n=view["pending"]))))
        effects = last_effects(view)
        if effects["skip"] is not None:
            key = "mm.skipped_you" if effects["skip"] == me else "mm.skipped"
            badges.append('<span class="mm-badge skip" data-testid="skipped">%s</span>' % escape(
                t(key, name=seat_label(view, effects["skip"], me))))
        if view["again"] and view["turn"] is not None:
            key = "mm.again_you" if view["turn"] == me else "mm.again"
            badges.append('<span class="mm-badge again" data-testid="again">%s</span>' % escape(
                t(key, name=seat_label(view, view["turn"], me))))
        badges.append('<span class="mm-badge dir%s" data-testid="direction" data-direction="%d">%s</span>' % (
            " changed" if effects["reverse"] else "", view["direction"], escape(t("mm.dir.%d" % view["direction"]))))
        return '<div class="mm-badges">%s</div>' % "".join(badges)

    def render_centre(self, view, me, can_draw, big=""):
        if view["pending"] and can_draw:
            label = t("mm.draw_n", n=view["pending"])
        elif can_draw:
            label = t("mm.draw_one", n=view["stock"])
        else:
            label = t("mm.stock", n=view["stock"])
        stock = ('<button%s><span class="card back%s" aria-hidden="true"></span><span class="mm-count">%d</span></button>' % (
            attrs(type="button", class_="mm-stock" + (" can" if can_draw else ""), data_action="draw",
                  data_testid="draw-pile", aria_label=label, disabled=not can_draw, data_count=view["stock"],
                  data_hinted=self.tipp.mark(self.tipp.marks(view), "draw") if me is not None else None),
            big, view["stock"]))
        # A card that just landed on the pile slides in once (app.css cuts animations under reduced motion).
        pile = (view["top"], view["discard"], view["deal"])
        landed = self.pile is not None and pile != self.pile
        self.pile = pile
        top = french_card(view["top"], label=t("mm.discard", card=card_name(view["top"])), testid="discard-top",
                          size="big" + big, extra="landed" if landed else "")
        return '<div class="mm-centre">%s<div class="mm-discard">%s</div>%s</div>' % (
            stock, top, self.render_badges(view, me))

    def stood_in_words(self, view):
        """Return what a computer played for this phone's seat while it was away, from the feed's events: a
        draw with the cards it took ("2 Karten gezogen" for a 7), which the action "draw" alone does not say."""
        me = self.table.seat
        events = view["events"] if view is not None and "events" in view else []

        def mine(shown, index):
            return shown[index].get("seat") == me and own_move(shown, index)
        words = []
        for index in range(stood_in_since(self.table, events, mine, moved), len(events)):
            if not mine(events, index):
                continue
            event = events[index]
            if event["type"] == "play":
                card = card_name(event["card"])
                words.append(t("mm.did.wish", card=card, suit=suit_word(event["suit"])) if "suit" in event else card)
            elif event["count"] == 0:
                words.append(t("mm.did.draw_none"))
            else:
                words.append(t("mm.did.draw_n", n=event["count"]) if event["count"] > 1 else t("mm.did.draw_one"))
        return words

    def render_feed(self, view, me, length):
        events = view["events"]
        mine = lambda shown, index: shown[index].get("seat") == me and own_move(shown, index)
        since = len(events) if me is None else stood_in_since(self.table, events, mine, moved)
        lines = []
        for index in range(len(events) - 1, max(len(events) - 1 - length, -1), -1):
            # Marked: a person given the device back is not told their own last move again (index.html).
            own = me is not None and index < since and mine(events, index)
            lines.append('<li%s>%s</li>' % (' data-own="1"' if own else "",
                                            escape(event_text(view, events[index], me, index >= since))))
        return '<section class="mm-feed-box" aria-labelledby="mm-feed-h"><h2 id="mm-feed-h" class="visually-hidden">%s</h2>' \
               '<div role="log"><ol class="mm-feed" data-testid="feed">%s</ol></div></section>' % (escape(t("mm.feed")), "".join(lines))

    def render_play(self, view):
        me = self.table.seat
        legal = view["legal"]
        my_turn = view["turn"] == me
        can_draw = my_turn and "draw" in legal
        if my_turn:
            if view["pending"]:
                hint = t("mm.hint.pending", n=view["pending"])
            elif view["again"]:
                hint = t("mm.hint.again")
            else:
                hint = t("mm.hint.play")
            turn_line = '<strong>%s</strong> %s' % (escape(t("mm.your_turn")), escape(hint))
        elif view["turn"] is not None:
            turn_line = escape(t("mm.their_turn", name=seat_label(view, view["turn"], me)))
        else:
            turn_line = ""
        drawn_said = ""
        if self.drew and self.before is not None and self.before_deal == view["deal"]:
            # Seen as the "neu" marks on the cards; heard once ("Gezogen: Herz 7."): a region of its own keeps
            # the same words while the turn line changes with every computer's move.
            fresh = new_cards(view["hand"] or [], self.before)
            if fresh:
                cards = ", ".join([card_name(card) for card in sorted_hand(list(fresh))])
                drawn_said = '<p class="visually-hidden" data-testid="drawn-said" aria-live="polite">%s</p>' % escape(
                    t("mm.you_drew", cards=cards))
        head = '<p class="mm-head"><span>%s</span><span>%s</span></p>' % (
            escape(t("mm.deal", n=view["deal"])), escape(t("mm.limit_info", n=view["limit"])))
        table = ('<section class="mm-table" data-testid="mm-table" data-phase="play" data-turn="%s" aria-label="%s">%s%s%s'
                 '<p class="mm-turn%s" data-testid="turn" aria-live="polite">%s</p>%s%s</section>' % (
                     "" if view["turn"] is None else view["turn"], escape(t("game.maumau")), head,
                     self.render_players(view, me), self.render_centre(view, me, can_draw),
                     " mine" if my_turn else "", turn_line, drawn_said, self.render_feed(view, me, FEED_LENGTH)))
        return table + self.render_hand(view, my_turn)

    def render_hand(self, view, my_turn):
        me = self.table.seat
        if me is not None and me < len(view["out"]) and view["out"][me]:
            return '<p class="notice" data-testid="you-out">%s</p>' % escape(t("mm.you_out"))
        size = len(view["hand"] or [])
        if self.cursor is not None and self.cursor >= size:
            self.cursor = size - 1 if size else None
        # Everything the hand area shows: while another seat moves it stays as it was, and is not built again.
        inputs = (view["hand"], view["legal"] if my_turn else None,
                  self.before if self.before is not None and self.before_deal == view["deal"] else None,
                  self.cursor, self.tipp.marks(view), self.mau and my_turn,
                  self.picker if my_turn else None, mau_penalty(view, self.table.seat),
                  self.tipp.button(view), self.tipp.line(view))
        return self.parts.part("hand", inputs, self.hand_html, inputs)

    def hand_html(self, inputs):
        """Return the hand area from render_hand's inputs alone (it is kept while they stay the same)."""
        hand, legal, before, cursor, marks, mau_said, picking, penalty, tipp_button, tipp_line = inputs
        hand = sorted_hand(hand or [])
        playable = playable_cards(legal) if legal is not None else {}
        fresh = new_cards(hand, before) if before is not None else {}
        cards = []
        for index in range(len(hand)):
            card = hand[index]
            can = card in playable
            drawn = card in fresh and fresh[card] > 0
            if drawn:
                fresh[card] -= 1
            extra = ("playable" if can else "dim") + (" drawn" if drawn else "")
            cards.append(french_card(
                card, label=t("mm.drawn_label", card=card_name(card)) if drawn else card_name(card),
                action="card", testid="card-%d" % index, extra=extra, aria_pressed=None,
                aria_disabled=None if can else "true", data_index=index, data_new=t("mm.drawn") if drawn else None,
                tabindex="0" if index == (cursor or 0) else "-1", data_hinted=self.tipp.mark(marks, card)))
        mau = '<button%s>%s</button>' % (
            attrs(type="button", class_="btn btn-toggle mm-mau", data_action="mau", data_testid="mau",
                  aria_pressed="true" if mau_said else "false", disabled=legal is None,
                  aria_describedby="mm-mau-note", data_hinted=self.tipp.mark(marks, "mau")),
            escape(t("mm.mau")))
        notes = []
        if penalty:
            notes.append('<p class="notice warn mm-note" role="alert" data-testid="mau-forgotten">%s</p>' % escape(
                t("mm.mau_forgot", n=penalty)))
        note = t("mm.mau_armed") if mau_said else t("mm.mau_hint")
        picker = self.render_picker(marks) if picking is not None else ""
        return ('<section class="mm-hand-area" aria-labelledby="mm-hand-h"><div class="mm-hand-head">'
                '<h2 id="mm-hand-h"%s>%s</h2>%s%s</div>%s%s'
                '<div class="mm-hand" role="group" aria-labelledby="mm-hand-h" data-testid="hand"%s>%s</div>'
                # Live: "M" (or the button) arming Mau is heard, not only seen on the button.
                '<p class="hint mm-mau-note" id="mm-mau-note" aria-live="polite">%s</p>%s'
                '<p class="hint mm-keys key-hint">%s</p></section>' % (
                    ' class="mm-many"' if len(hand) >= 10 else "",  # a two-digit count in a smaller type, on one line
                    escape(t("mm.hand", n=len(hand))), tipp_button, mau, tipp_line, picker,
                    " data-next-step" if legal is not None else "",  # a keyboard user's turn starts here (index.html)
                    hand_rows(cards), escape(note), "".join(notes), escape(t("mm.keys"))))

    def render_picker(self, marks):
        suits = "".join(
            '<button%s><span class="sym" aria-hidden="true">%s</span>%s</button>' % (
                attrs(type="button", class_="btn mm-suit" + (" red" if suit in "HD" else ""), data_action="suit",
                      data_value=suit, data_testid="suit-" + suit, data_hinted=self.tipp.mark(marks, suit)),
                SUIT_SYMBOLS[suit], escape(t("card." + suit)))
            for suit in PICKER_SUITS)
        return ('<div class="mm-picker" role="group" aria-labelledby="mm-picker-h" data-testid="suit-picker">'
                '<p id="mm-picker-h">%s</p><div class="mm-suits">%s</div>%s</div>' % (
                    escape(t("mm.pick_suit")), suits, button(t("mm.cancel"), "cancel-suit", "cancel-suit", kind="ghost")))

    def render_summary(self, view, me, editable):
        last = view["last_deal"]
        points = last["points"] if last else [0] * len(view["names"])
        rows = []
        for seat in range(len(view["names"])):
            out = view["out"][seat]
            name = '<span class="mm-sname">%s</span>' % escape(seat_label(view, seat, me))
            if out:
                name = '<s>%s</s>' % name
            deal_points = points[seat] if seat < len(points) else 0
            status = ""
            if out:
                status = '<span class="mm-ptag">%s</span>' % escape(t("mm.out_over", n=view["limit"]))
            elif last is not None and last["winner"] == seat:
                status = '<span class="mm-ptag win">%s</span>' % escape(t("mm.went_out"))
            # Minus points with the seat chips' sign; the cards left are what the deal's points come from.
            # A seat out before this deal held no cards in it: a dash, not a 0 that reads as having gone out.
            played = not out or deal_points > 0  # who goes out this deal does so by this deal's points
            rows.append('<tr%s><th scope="row">%s %s</th><td class="cards">%s</td><td>%s</td><td class="total">%s</td></tr>' % (
                attrs(class_="out" if out else None, data_testid="player-%d" % seat, data_seat=seat,
                      data_cards=view["hand_sizes"][seat], data_points=view["minus"][seat], data_deal=deal_points),
                name, status, view["hand_sizes"][seat] if played else "–",
                escape(minus_short(deal_points)) if played else "–", escape(minus_short(view["minus"][seat]))))
        removes = ""
        if editable:
            buttons = []
            # A seat that is out plays no more: removing it only strikes its row, which a full table (out
            # seats count) needs to make room for a newcomer.
            full = len(view["names"]) >= engine.MAX_SEATS
            for seat in range(len(view["names"])):
                if seat != me and (full or not view["out"][seat]):
                    sure = self.removing == seat
                    label = t("mm.remove_sure", name=view["names"][seat]) if sure else "✕ " + view["names"][seat]
                    buttons.append(button(label, "remove-player", "remove-player-%d" % seat,
                                          kind="secondary" if sure else "ghost", data_value=seat,
                                          aria_label=None if sure else t("mm.remove_label", name=view["names"][seat])))
            if buttons:
                removes = '<p class="mm-remove-h" id="mm-remove-h">%s</p><div class="row mm-removes" role="group" aria-labelledby="mm-remove-h">%s</div>' % (
                    escape(t("mm.remove_player")), "".join(buttons))
        return ('<div class="table-scroll"><table class="mm-summary"><thead><tr><th scope="col">%s</th><th scope="col">%s</th>'
                '<th scope="col">%s</th><th scope="col">%s</th></tr></thead><tbody>%s</tbody></table></div>%s' % (
                    escape(t("mm.col_player")), escape(t("mm.col_cards")), escape(t("mm.col_deal")), escape(t("mm.col_total")),
                    "".join(rows), removes))

    def render_between(self, view, started=None):
        """Return a deal's settlement: its winner, every seat's points, and the way on (`started`: the next
        deal's view, when another seat began it while this device still shows the settlement)."""
        me = self.table.seat
        last = view["last_deal"]
        editable = started is None and self.table.can_edit_seats()
        title = t("mm.deal_over", n=last["deal"] if last else view["deal"])
        winner_line = ""
        if last is not None and last["winner"] is not None:
            key = "mm.deal_winner_you" if last["winner"] == me else "mm.deal_winner"
            winner_line = '<p class="mm-deal-winner">%s</p>' % escape(t(key, name=event_seat_label(view, last, "winner", me)))
        join = ""
        if editable:
            worst = 0
            for seat in range(len(view["names"])):
                if not view["out"][seat] and view["minus"][seat] > worst:
                    worst = view["minus"][seat]
            full = len(view["names"]) >= engine.MAX_SEATS
            join = '<p class="hint">%s</p><div class="row">%s</div>' % (
                escape(t("mm.full") if full else t("mm.join_note", n=worst)),
                button(t("mm.add_player"), "add-player", "add-player", kind="secondary", disabled=full))
        if started is not None:
            said = t("mm.deal_started_you" if started["turn"] == me else "mm.deal_started", n=started["deal"])
            join = '<p class="mm-deal-started" data-testid="deal-started" aria-live="polite">%s</p>' % escape(said)
            go_on = button(t("mm.to_deal", n=started["deal"]), "to-deal", "to-deal", kind="primary", extra="wide")
        elif "next" in view["legal"]:
            go_on = button(t("mm.next_deal"), "next-deal", "next-deal", kind="primary", extra="wide")
        elif me is not None and me < len(view["out"]) and view["out"][me]:
            go_on = '<p class="notice" data-testid="you-out">%s</p>' % escape(t("mm.you_out"))
        else:
            go_on = '<p class="hint">%s</p>' % escape(t("mm.waiting"))
        return ('<section class="mm-between" data-testid="deal-summary" aria-labelledby="mm-between-h">'
                '<h2 id="mm-between-h">%s</h2>%s%s%s<div class="controls">%s</div></section>%s' % (
                    escape(title), winner_line, self.render_summary(view, me, editable), join, go_on,
                    self.render_feed(view, me, FEED_LENGTH)))

    def render_final(self, view):
        """Return the final standings in Mau-Mau's words (minus points as the seat chips write them, who went
        out) and the last deal's summary under them."""
        me = self.table.seat
        minus = view["minus"]
        last = view["last_deal"]
        summary = ""
        if last is not None:
            summary = '<section class="mm-between" data-testid="deal-summary" aria-labelledby="mm-last-h"><h2 id="mm-last-h">%s</h2>%s</section>' % (
                escape(t("mm.deal_over", n=last["deal"])), self.render_summary(view, me, False))
        # The score as the seat chips write it ("−68"), so "ausgeschieden" has room beside the name.
        return final_standings(self.table, view["names"], view["outcome"],
                               scores=[minus_short(points) for points in minus],
                               spoken=[t("mm.minus", n=points) for points in minus],
                               tags=[t("mm.out") if out else "" for out in view["out"]], after=summary)

    def render_screen(self, view):
        """The infoscreen: the public view only, landscape, large type."""
        if view["phase"] == "over":
            body = self.render_final(view)
        elif view["phase"] == "between":
            body = self.render_between(view)
        else:
            turn = ""
            if view["turn"] is not None:
                turn = escape(t("mm.screen_turn", name=seat_label(view, view["turn"], None)))
            body = ('<div class="mm-stage" data-testid="mm-table" data-phase="play" data-turn="%s">'
                    '<div class="mm-stage-main"><p class="mm-head"><span>%s</span><span>%s</span></p>%s'
                    '<p class="mm-turn" data-testid="turn" aria-live="polite">%s</p></div>'
                    '<div class="mm-stage-side">%s%s</div></div>' % (
                        "" if view["turn"] is None else view["turn"],
                        escape(t("mm.deal", n=view["deal"])), escape(t("mm.limit_info", n=view["limit"])),
                        self.render_centre(view, None, False, big=" huge"), turn,
                        self.render_players(view, None), self.render_feed(view, None, SCREEN_FEED_LENGTH)))
        return page(t("game.maumau"), body, extra_class="mm mm-screen")

    # -- actions -----------------------------------------------------------------------
    def act(self, app, action):
        """Send an action for this device's seat; remember the hand to mark what comes in."""
        view = self.table.view()
        self.before = list(view["hand"] or [])
        self.before_deal = view["deal"]
        self.drew = action.startswith("draw")
        self.mau = False
        self.picker = None
        try:
            self.table.act(action)
        except IllegalAction as error:
            app.toast(refusal_text(error))
            app.rerender()

    def edit(self, app, change):
        """Change the table between deals (solo only); a refusal is shown."""
        try:
            self.table.edit(change)
        except IllegalAction as error:
            app.toast(refusal_text(error))
        app.rerender()

    def tap_card(self, app, card):
        view = self.table.view()
        if view["phase"] != "play":
            return
        if card not in playable_cards(view["legal"]):
            app.toast(refusal(view, card))
            return
        if card[:-1] == "J":
            self.picker = card
            app.rerender()
            app.focus('[data-testid="suit-H"]')
            return
        self.act(app, play_action(card, view["legal"], self.mau))

    def say_mau(self, app):
        view = self.table.view()
        if view["phase"] != "play" or view["turn"] != self.table.seat:
            app.toast(t("mm.not_your_turn"))
            return
        if len(view["hand"] or []) != 2:
            app.toast(t("mm.mau_hint"))
            self.mau = False
        else:
            self.mau = not self.mau
        app.rerender()

    def draw(self, app):
        view = self.table.view()
        if view["phase"] == "play" and "draw" in view["legal"]:
            self.act(app, "draw")
        elif view["phase"] == "play":
            app.toast(t("mm.not_your_turn"))

    def handle(self, app, action, value):
        if action != "remove-player":
            self.removing = None  # an asked removal is off once the person does something else
        if table_action(app, self.table, action):  # Speichern & pausieren, Neue Partie
            return
        view = self.table.view()
        if view is None:
            return
        if action == "card":
            self.tap_card(app, value)
        elif action == "suit" and self.picker is not None:
            self.act(app, play_action(self.picker, view["legal"], self.mau, value))
        elif action == "cancel-suit":
            self.picker = None
            app.rerender()
        elif action == "mau":
            self.say_mau(app)
        elif action == "hint" and view["phase"] == "play":
            self.tipp.ask(view, app)
            app.rerender()
        elif action == "draw":
            self.draw(app)
        elif action == "next-deal":
            if "next" in view["legal"]:
                self.summary = None
                self.act(app, "next")
                app.scroll_to_top()  # the button is below the summary; the new deal's names are at the top
        elif action == "to-deal":
            self.summary = None
            app.rerender()
            app.scroll_to_top()
        elif action == "add-player" and self.table.can_edit_seats():
            name = new_computer_names(app, view["names"], 1)[0]
            self.edit(app, lambda state: engine.add_seat(state, name))
        elif action == "remove-player" and self.table.can_edit_seats():
            seat = int(value)
            if seat != self.table.seat and self.removing != seat:
                self.removing = seat  # asked once: the next tap on it removes
                app.rerender()
            elif seat != self.table.seat:
                self.removing = None
                self.edit(app, lambda state: engine.remove_seat(state, seat))
                app.focus('[data-testid="add-player"]')  # not the next seat's remove button (an accessibility audit)

    def on_key(self, app, key):
        if self.table.seat is None:
            return False
        view = self.table.view()
        if view is None or view["phase"] != "play" or self.reads_summary(view):
            return False
        if key == "Escape" and self.picker is not None:
            self.picker = None
            app.rerender()
            return True
        hand = view["hand"] or []
        if key in ("ArrowRight", "ArrowLeft") and self.picker is not None:
            current = app.focused_value() if app.focus_within("suit-picker") else None
            index = PICKER_SUITS.index(current) if current in PICKER_SUITS else -1
            index = (index + (1 if key == "ArrowRight" else -1)) % len(PICKER_SUITS)
            app.focus('[data-testid="suit-%s"]' % PICKER_SUITS[index])
            return True
        if key in ("ArrowRight", "ArrowLeft") and hand:
            step = 1 if key == "ArrowRight" else -1
            if self.cursor is None:
                self.cursor = 0 if step > 0 else len(hand) - 1
            else:
                self.cursor = max(0, min(len(hand) - 1, self.cursor + step))
            app.rerender()
            app.focus('[data-testid="card-%d"]' % self.cursor)
            return True
        if key == "Enter":
            if app.focus_within("hand"):
                return False  # the focused card's own click plays it
            if self.cursor is not None and self.cursor < len(hand) and app.focused() is None:
                self.tap_card(app, sorted_hand(hand)[self.cursor])
                return True
            return False
        if key in ("d", "D"):
            self.draw(app)
            return True
        if key in ("m", "M"):
            self.say_mau(app)
            return True
        return False

    def leave(self, app):
        self.left = True
        self.table.close()

"""Pao De Kuai screens: start, table (hand, play to beat, seats, trick feed), deal settlement,
Tabelle, final standings, and the infoscreen's public layout.

Every rule question goes to the engine (`classify`, `beats`) or to the view's
`legal` list; this module only describes and draws. The helpers above the
screens are pure functions of a view, so CPython tests import them.
"""

from spieleabend.games import paodekuai as engine
from spieleabend.games.common import IllegalAction
from spieleabend.ui.hint import Hint
from spieleabend.ui.html import SUIT_SYMBOLS, Parts, attrs, button, card_back, escape, french_card, rank_label
from spieleabend.ui.i18n import register, t
from spieleabend.ui.shell import Screen, page, sheet, transfer_link
from spieleabend.ui.final import final_standings
from spieleabend.ui.table import COMPUTER, refusal_text, reveal_due, reveal_shown, table_action

GAME = "paodekuai"
SEATS = 3
FEED_LENGTH = 5
HEART_THREE = engine.HEART_THREE

register({
    "pdk.intro": ("Zu dritt: Wer zuerst alle Karten los ist, gewinnt die Austeilung. Liegt etwas aus, musst du "
                  "es schlagen, wenn du kannst – plane, wie du deine letzten Karten loswirst.",
                  "Three players race to empty their hands. You must beat the current play when you can – "
                  "plan how to get rid of your last cards."),
    "pdk.deals_hint": ("%(n)s Austeilungen, dann zählt die Tabelle.", "%(n)s deals, then the totals decide."),
    "pdk.deals_hint_one": ("Eine Austeilung, dann zählt die Tabelle.", "One deal, then the totals decide."),
    "pdk.deals_hint_open": ("Offen: ihr spielt, bis jemand nach einer Austeilung „Beenden“ wählt.",
                            "Open: you play until someone chooses “Stop” after a deal."),
    "pdk.rules": ("Regeln", "Rules"),
    "pdk.deal_of": ("Austeilung %(n)s von %(total)s", "Deal %(n)s of %(total)s"),
    "pdk.deal_open": ("Austeilung %(n)s (offen)", "Deal %(n)s (open)"),
    "pdk.your_turn": ("Du bist dran", "Your turn"),
    "pdk.you": ("Du", "You"),
    "pdk.feed_plays": ("spielt", "plays"),
    "pdk.feed_plays_you": ("spielst", "play"),
    "pdk.turn_of": ("%(name)s ist dran", "%(name)s's turn"),
    "pdk.thinking": ("überlegt …", "thinking …"),
    "pdk.cards_left": ("%(n)s Karten", "%(n)s cards"),
    "pdk.cards_left_one": ("1 Karte", "1 card"),
    "pdk.card_left": ("1 Karte", "1 card"),
    "pdk.passed": ("passt", "passes"),
    "pdk.passed_you": ("passt", "pass"),  # after "Du" / "You"
    "pdk.on_turn": ("am Zug", "to play"),
    "pdk.ready": ("bereit", "ready"),
    "pdk.seats_label": ("Der Tisch", "The table"),
    "pdk.direction": ("↺ gegen den Uhrzeigersinn", "↺ anticlockwise"),
    "pdk.direction_long": ("Spielrichtung gegen den Uhrzeigersinn: %(order)s", "Play goes anticlockwise: %(order)s"),
    "pdk.to_beat": ("Zu schlagen", "To beat"),
    "pdk.last_play": ("Letzter Spielzug", "Last play"),
    "pdk.played_by": ("%(name)s: %(play)s", "%(name)s: %(play)s"),
    "pdk.leads": ("%(name)s spielt aus", "%(name)s leads"),
    "pdk.you_lead": ("Du spielst aus – jede gültige Kombination.", "You lead – any valid combination."),
    "pdk.you_open": ("Du spielst aus – die Herz-Drei muss dabei sein.", "You lead – the 3 of hearts must be in it."),
    "pdk.pick_opening": ("Wähle Karten mit der Herz-Drei.", "Tap cards with the 3 of hearts."),
    "pdk.opening_other": ("Erster Spielzug: %(name)s hat die Herz-Drei und spielt sie aus.",
                          "First play: %(name)s holds the 3 of hearts and leads it."),
    "pdk.feed": ("Dieser Stich", "This trick"),
    "pdk.feed_last": ("Letzter Stich – %(name)s spielt aus", "Last trick – %(name)s leads"),
    "pdk.feed_last_you": ("Letzter Stich – du spielst aus", "Last trick – you lead"),
    "pdk.feed_none": ("Noch nichts gespielt.", "Nothing played yet."),
    "pdk.bomb_mark": ("Bombe!", "Bomb!"),
    "pdk.bonus_line": ("Bombenbonus: %(name)s +%(n)s", "Bomb bonus: %(name)s +%(n)s"),
    "pdk.your_hand": ("Deine Karten", "Your cards"),
    "pdk.pick": ("Wähle Karten für deinen Zug.", "Tap the cards you want to play."),
    "pdk.invalid": ("keine gültige Kombination", "not a valid combination"),
    "pdk.beats": ("schlägt %(top)s", "beats %(top)s"),
    "pdk.beats_not": ("schlägt %(top)s nicht", "does not beat %(top)s"),
    "pdk.to_lead": ("zum Ausspielen", "to lead"),
    "pdk.need_heart": ("die Herz-Drei muss dabei sein", "the 3 of hearts must be in it"),
    "pdk.shape.single": ("Einzelkarte %(rank)s", "Single %(rank)s"),
    "pdk.shape.pair": ("Paar %(ranks)s", "Pair of %(ranks)s"),
    "pdk.shape.triple": ("Drilling %(ranks)s", "Three %(ranks)s"),
    "pdk.shape.straight": ("Straße %(low)s–%(high)s", "Straight %(low)s–%(high)s"),
    "pdk.shape.run": ("Paarreihe %(low)s–%(high)s", "Run of pairs %(low)s–%(high)s"),
    "pdk.shape.bomb": ("Bombe: vier %(ranks)s", "Bomb: four %(ranks)s"),
    "pdk.shape.aces": ("Bombe: drei Asse", "Bomb: three Aces"),
    "pdk.shape.heavenly": ("Himmlische Bombe: vier Dreien", "Heavenly bomb: four Threes"),
    "pdk.play": ("Spielen", "Play"),
    "pdk.pass": ("Passen", "Pass"),
    "pdk.must_beat": ("Du musst schlagen, wenn du kannst.", "You must beat it when you can."),
    "pdk.must_beat_bomb": ("Du musst schlagen, wenn du kannst – auch eine Bombe zählt.",
                           "You must beat it when you can – a bomb counts too."),
    "pdk.leader_no_pass": ("Wer ausspielt, darf nicht passen.", "The leader may not pass."),
    "pdk.not_your_turn": ("Du bist nicht am Zug.", "It is not your turn."),
    "pdk.can_pass": ("Du kannst nicht schlagen – Passen ist erlaubt.", "You cannot beat it – you may pass."),
    "pdk.not_legal": ("Diese Auswahl ist kein erlaubter Spielzug.", "This selection is not a legal play."),
    "pdk.keys": ("Tastatur: Pfeile wählen eine Karte, Leertaste markiert, Enter spielt, P passt.",
                 "Keyboard: arrows move between cards, space selects, Enter plays, P passes."),
    "pdk.settlement": ("Abrechnung der Austeilung %(n)s", "Settlement of deal %(n)s"),
    "pdk.goes_out": ("%(name)s hat keine Karten mehr!", "%(name)s went out!"),
    "pdk.s_cards": ("%(n)s Karten übrig × 1", "%(n)s cards left × 1"),
    "pdk.s_card": ("1 Karte übrig × 1", "1 card left × 1"),
    "pdk.s_cards_never": ("%(n)s Karten übrig × 2 (nie gespielt)", "%(n)s cards left × 2 (never played)"),
    "pdk.s_spade_two": ("Pik-Zwei in der Hand", "2 of spades in hand"),
    "pdk.s_bomb": ("ganze Bombe in der Hand: %(bomb)s", "whole bomb in hand: %(bomb)s"),
    "pdk.s_out": ("von %(name)s", "from %(name)s"),
    "pdk.s_bonus_won": ("Bombenbonus: %(bomb)s", "bomb bonus: %(bomb)s"),
    "pdk.bomb_four": ("vier %(ranks)s", "four %(ranks)s"),
    "pdk.bomb_aces": ("drei Asse", "three Aces"),
    "pdk.s_bonus_paid": ("Bombenbonus an %(name)s", "bomb bonus to %(name)s"),
    "pdk.s_total": ("Summe", "Total"),
    "pdk.s_zero": ("Alle zusammen: %(n)s", "All together: %(n)s"),
    "pdk.next_deal": ("Nächste Austeilung", "Next deal"),
    "pdk.stop": ("Beenden", "Stop"),
    "pdk.to_final": ("Endwertung", "Final standings"),
    "pdk.waiting": ("Warte auf: %(names)s", "Waiting for: %(names)s"),
    "pdk.table": ("Tabelle", "Score table"),
    "pdk.table_deal": ("Austeilung", "Deal"),
    "pdk.table_running": ("läuft", "running"),
    "pdk.table_none": ("Noch keine Punkte.", "No points yet."),
    "pdk.points": ("%(n)s Punkte", "%(n)s points"),
    "pdk.points_one": ("1 Punkt", "1 point"),
    "pdk.waiting_view": ("Warte auf den Tisch …", "Waiting for the table …"),
    # Rank names: r1 = one card, rn = several (plural).
    "pdk.r1.3": ("Drei", "Three"), "pdk.rn.3": ("Dreien", "Threes"),
    "pdk.r1.4": ("Vier", "Four"), "pdk.rn.4": ("Vieren", "Fours"),
    "pdk.r1.5": ("Fünf", "Five"), "pdk.rn.5": ("Fünfen", "Fives"),
    "pdk.r1.6": ("Sechs", "Six"), "pdk.rn.6": ("Sechsen", "Sixes"),
    "pdk.r1.7": ("Sieben", "Seven"), "pdk.rn.7": ("Siebenen", "Sevens"),
    "pdk.r1.8": ("Acht", "Eight"), "pdk.rn.8": ("Achten", "Eights"),
    "pdk.r1.9": ("Neun", "Nine"), "pdk.rn.9": ("Neunen", "Nines"),
    "pdk.r1.10": ("Zehn", "Ten"), "pdk.rn.10": ("Zehnen", "Tens"),
    "pdk.r1.11": ("Bube", "Jack"), "pdk.rn.11": ("Buben", "Jacks"),
    "pdk.r1.12": ("Dame", "Queen"), "pdk.rn.12": ("Damen", "Queens"),
    "pdk.r1.13": ("König", "King"), "pdk.rn.13": ("Könige", "Kings"),
    "pdk.r1.14": ("Ass", "Ace"), "pdk.rn.14": ("Asse", "Aces"),
    "pdk.r1.15": ("Zwei", "Two"), "pdk.rn.15": ("Zweien", "Twos"),
})


# ---------------------------------------------------------------- pure helpers (CPython-tested)

def card_html(card, tappable=False, selected=False, focus=False, hinted=None):
    """Return a card face (html.french_card keeps each one built: Brython takes milliseconds per card)."""
    if tappable:
        return french_card(card, action="toggle", testid="card-" + card, selected=selected,
                           extra="pdk-card", tabindex="0" if focus else "-1", data_hinted=hinted)
    return french_card(card, size="small")


def sort_hand(cards):
    """Return cards sorted by rank, 3 low … 2 high (the engine's order)."""
    return engine.sort_cards(cards)


def label_of(value):
    """Return the printed label of a rank value (B/D/K/A in German)."""
    return rank_label(engine.RANK_LABEL[value])


def describe(play):
    """Return a play description (engine.classify) as words: "Paar Damen", "Straße 7–B", "Bombe: vier Achten"."""
    if play is None:
        return t("pdk.invalid")
    shape = play["shape"]
    rank = play["rank"]
    if shape == "bomb":
        if play["heavenly"]:
            return t("pdk.shape.heavenly")
        if play["length"] == 3:
            return t("pdk.shape.aces")
        return t("pdk.shape.bomb", ranks=t("pdk.rn.%d" % rank))
    if shape == "single":
        return t("pdk.shape.single", rank=t("pdk.r1.%d" % rank))
    if shape in ("pair", "triple"):
        return t("pdk.shape." + shape, ranks=t("pdk.rn.%d" % rank))
    per_rank = 1 if shape == "straight" else 2
    low = rank - play["length"] // per_rank + 1
    return t("pdk.shape." + shape, low=label_of(low), high=label_of(rank))


def action_cards(action):
    """Return the cards of a "play ..." action, [] for other actions."""
    words = action.split()
    return words[1:] if words and words[0] == "play" else []


def my_turn(view):
    """Return True when this device's seat is to play a card now."""
    return (view["seat"] is not None and not view["deal_over"] and view["turn"] == view["seat"])


def selection_info(view, selected, combinations=None):
    """Describe a selection: {"text", "shape", "legal", "beats"} ("legal": it may be played now).

    The engine judges (engine.check_action); `combinations`: engine.legal_combinations(view), kept per view.
    """
    if not selected:
        # In the docked line at the foot: the first play's rule, or whose turn it is while it is not this seat's.
        if my_turn(view):
            text = t("pdk.pick_opening") if view["opening"] else t("pdk.pick")
        elif view["deal_over"] or view["turn"] is None:
            text = ""
        else:
            text = t("pdk.turn_of", name=view["names"][view["turn"]]) + "."
        return {"text": text, "shape": "", "legal": False, "beats": None}
    opening = view["opening"]
    play = engine.classify(list(selected), opening)
    if play is None:
        return {"text": t("pdk.invalid"), "shape": "none", "legal": False, "beats": None}
    parts = [describe(play)]
    top = view["top"]
    beats = None
    if top is not None:
        beats = engine.beats(play, top["play"])
        parts.append(t("pdk.beats" if beats else "pdk.beats_not", top=describe(top["play"])))
    elif not view["deal_over"]:
        parts.append(t("pdk.to_lead"))
    if opening and HEART_THREE not in selected:
        parts.append(t("pdk.need_heart"))
    legal = False
    if my_turn(view):
        try:
            engine.check_action(view, play_action(selected), combinations)
            legal = True
        except IllegalAction:
            pass
    return {"text": " – ".join(parts), "shape": play["shape"], "legal": legal, "beats": beats}


def play_action(selected):
    """Return the action that plays the selected cards, in the engine's order (any legal cards may go)."""
    return "play " + " ".join(sort_hand(selected))


def move_without_asking(view):
    """Passen when nothing beats the trick: several people at one device need not hand it over for that."""
    return "pass" if list(view["legal"]) == ["pass"] else None


def pass_state(view):
    """Return (allowed, reason): passing is allowed only when the view's legal list says "pass"."""
    if not my_turn(view):
        return False, t("pdk.not_your_turn")
    if "pass" in view["legal"]:
        return True, t("pdk.can_pass")
    if view["top"] is None:
        return False, t("pdk.leader_no_pass")
    only_bombs = True
    for action in view["legal"]:
        play = engine.classify(action_cards(action), view["opening"])
        if play is not None and not play["bomb"]:
            only_bombs = False
    return False, t("pdk.must_beat_bomb" if only_bombs else "pdk.must_beat")


def seat_order(seat):
    """Return (bottom, right, left): the next seat sits to the right, so play runs counter-clockwise."""
    me = 0 if seat is None else seat
    return me, (me + 1) % SEATS, (me + 2) % SEATS


def trick_status(view):
    """Return per seat "played", "passed" or "" for the current trick (the latest entry of each seat)."""
    status = ["", "", ""]
    for entry in view["trick"]:
        status[entry["seat"]] = "passed" if entry["pass"] else "played"
    return status


def feed_entries(view):
    """Return (title, entries) for the trick feed: the current trick, or the last closed one."""
    names = view["names"]
    if view["trick"]:
        return t("pdk.feed"), view["trick"][-FEED_LENGTH:]
    if view["last_trick"]:
        leader = view["leader"]
        if leader is None:  # the deal is over: the last play went out
            return t("pdk.feed"), view["last_trick"][-FEED_LENGTH:]
        # "Du" when it is this device's seat, as the feed's lines below say
        title = t("pdk.feed_last_you") if leader == view.get("seat") else t("pdk.feed_last", name=names[leader])
        return title, view["last_trick"][-FEED_LENGTH:]
    return t("pdk.feed"), []


def table_over(view):
    """Return True when the table has ended (the deal is over and nobody is asked to go on)."""
    return view["deal_over"] and not view["to_move"]


def signed(n):
    """Return a point figure with its sign: +20, −10, 0."""
    if n > 0:
        return "+%d" % n
    if n < 0:
        return "−%d" % -n
    return "0"


def signed_points(n):
    """Return points with their sign and word: "+20 Punkte", "−1 Punkt", "0 Punkte"."""
    return ("+" if n > 0 else "−" if n < 0 else "") + t("pdk.points", n=abs(n))


def bomb_words(rank):
    """Return a bomb named by its rank label: "vier Achten", "drei Asse"."""
    value = engine.RANK_VALUE[rank]
    if value == engine.ACE:
        return t("pdk.bomb_aces")
    return t("pdk.bomb_four", ranks=t("pdk.rn.%d" % value))


def settlement_lines(view):
    """Return per seat a list of (label, points) lines explaining the current deal's settlements."""
    names = view["names"]
    lines = [[], [], []]
    for record in view["settlements"]:
        if record["kind"] == "bomb":
            winner = record["seat"]
            rank = record["top"]
            for seat in range(SEATS):
                if seat == winner:
                    lines[seat].append((t("pdk.s_bonus_won", bomb=bomb_words(rank)), record["points"][seat]))
                else:
                    lines[seat].append((t("pdk.s_bonus_paid", name=names[winner]), record["points"][seat]))
            continue
        winner = record["seat"]
        for loser in record["losers"]:
            seat = loser["seat"]
            n = loser["cards_left"]
            if loser["never_played"]:
                lines[seat].append((t("pdk.s_cards_never", n=n), -2 * n))
            else:
                lines[seat].append((t("pdk.s_card") if n == 1 else t("pdk.s_cards", n=n), -n))
            if loser["spade_two"]:
                lines[seat].append((t("pdk.s_spade_two"), -engine.SPADE_TWO_PENALTY))
            for rank in loser["bombs"]:
                lines[seat].append((t("pdk.s_bomb", bomb=bomb_words(rank)), -engine.WHOLE_BOMB_PENALTY))
            lines[winner].append((t("pdk.s_out", name=names[seat]), loser["pays"]))
    return lines


def deal_totals(view):
    """Return each seat's points in the current deal (the sum of its settlements)."""
    totals = [0, 0, 0]
    for record in view["settlements"]:
        for seat in range(SEATS):
            totals[seat] += record["points"][seat]
    return totals


def setup_note(app):
    """Return the start screen's line about the game."""
    return t("pdk.intro")


def setup_hints(choices):
    """Return the start screen's hint under the number of deals."""
    deals = choices["deals"]
    if deals == 0:
        return {"deals": t("pdk.deals_hint_open")}
    return {"deals": t("pdk.deals_hint_one") if deals == 1 else t("pdk.deals_hint", n=deals)}


def bomb_bonuses(view, entries=None):
    """Return the bomb bonuses won in the current deal as (seat, points); with `entries` (a trick's plays) only
    those of its bombs, so the feed says a bonus under its own trick and not under every later one."""
    out = []
    for record in view["settlements"]:
        if record["kind"] != "bomb":
            continue
        seat = record["seat"]
        if entries is None or any([entry["seat"] == seat and not entry["pass"] and entry["play"]["bomb"]
                                   and entry["play"]["top"] == record["top"] for entry in entries]):
            out.append((seat, record["points"][seat]))
    return out


# ---------------------------------------------------------------- start screen

def seat_html(inputs):
    """Return one seat's tile from TableScreen.render_seat's inputs alone (it keeps the tile while they stay)."""
    where, seat, name, count, turn, passed, me, note = inputs
    count_text = t("pdk.card_left") if count == 1 else t("pdk.cards_left", n=count)
    back = "" if me else card_back("", "small pdk-back")
    return ('<div%s>%s<div class="pdk-seat-info"><span class="pdk-seat-name">%s</span>'
            '<span class="pdk-count">%s</span><span class="pdk-note">%s</span></div></div>' % (
                attrs(class_="pdk-seat pdk-%s%s%s%s" % (where, " turn" if turn else "", " passed" if passed else "",
                                                       " me" if me else ""),
                      data_testid="seat-%d" % seat, data_seat=seat, data_cards=count,
                      data_turn="true" if turn else "false"),
                back, escape(name), escape(count_text), escape(note)))


class TableScreen(Screen):
    """The running table for any table object: a seat's layout, or the infoscreen's public one."""

    route = "play/paodekuai/table"
    # Arrows move through the hand without scrolling; Space picks, Enter plays, also on a focused card.
    keys = "ArrowLeft ArrowRight ArrowUp ArrowDown Home@hand End@hand Space@hand Enter@hand"

    def __init__(self, app, table):
        self.table = table
        self.selected = []
        self.cursor = 0
        # Arrows moved focus into the hand: the next arrow moves on even if the page has not yet
        # reported the new focus (keys held down come faster than the worker answers).
        self.in_hand = False
        self.panel = False          # the Tabelle sheet
        self.message = ""           # a refusal shown under the controls
        self.tipp = Hint(GAME)
        self.deal_seen = None
        self.legal_cache = (None, None)
        self.kinds_cache = (None, None)
        self.top_seen = None
        self.parts = Parts()  # what a drawing keeps for the next one
        view = table.view()
        if view is not None:
            reveal_due(table, view)  # deals settled before this screen opened count as seen
        table.listen(lambda event: self.changed(app))

    def changed(self, app):
        app.rerender()

    # -- state of the screen -------------------------------------------------------------
    def current(self):
        """Return the view, keeping the selection to cards still in hand."""
        view = self.table.view()
        if view is None:
            return None
        if view["deal"] != self.deal_seen:
            self.deal_seen = view["deal"]
            self.selected = []
            self.cursor = 0
            self.message = ""
        if "hand" in view:
            hand = view["hand"]
            self.selected = [card for card in self.selected if card in hand]
            if self.cursor >= len(hand):
                self.cursor = max(len(hand) - 1, 0)
        return view

    def keys_of(self, view):
        """Return the legal plays' combinations, computed once per legal list (a tap draws again)."""
        marker = " | ".join(view["legal"]) + ("o" if view["opening"] else "")
        if self.legal_cache[0] != marker:
            self.legal_cache = (marker, engine.legal_combinations(view))
        return self.legal_cache[1]

    def phase(self, view):
        if view["deal_over"]:
            # The table keeps the settlements this person went on from: a reload shows the last one again.
            if table_over(view) and (view["seat"] is None or not reveal_due(self.table, view)):
                return "final"
            return "settle"
        return "play"

    # -- rendering -------------------------------------------------------------------------
    def render(self, app):
        view = self.current()
        if view is None:
            return page(t("game.paodekuai"), '<p class="empty">%s</p>' % escape(t("pdk.waiting_view")), extra_class="pdk")
        if view["seat"] is None:
            return self.render_infoscreen(app, view)
        phase = self.phase(view)
        if phase == "final":
            body = self.render_final(view)
        else:
            if phase == "settle":  # the settlement first: on a phone it is what the end of a deal is about
                body = self.render_status(view) + self.render_settlement(view) + self.render_tableau(app, view)
            else:
                # The trick's history after the hand: on a 360x740 phone "Spielen" then stays above the fold.
                body = (self.render_status(view) + self.render_tableau(app, view, with_feed=False) + self.render_hand(view)
                        + self.render_feed(view))
        body += self.render_tools(view, phase) + self.render_panel(view)
        return page(t("game.paodekuai"), '<div class="pdk-play" data-phase="%s" data-testid="pdk-table">%s</div>' % (
            phase, body), extra_class="pdk")

    def render_status(self, view):
        total = view["deals"]
        deal = t("pdk.deal_open", n=view["deal"]) if total == 0 else t("pdk.deal_of", n=view["deal"], total=total)
        if view["deal_over"]:
            who = ""
        elif my_turn(view):
            who = t("pdk.your_turn")
        else:
            who = t("pdk.turn_of", name=view["names"][view["turn"]])
        # Only whose turn it is is news on every move: the deal's number would be read out again with each.
        return ('<p class="pdk-status" data-testid="pdk-status"><span data-testid="deal-number">%s</span>'
                '%s</p>' % (escape(deal), (' · <strong data-testid="whose-turn" aria-live="polite">%s</strong>' % escape(who))
                            if who else ""))

    def seat_kinds(self, view):
        """Return per seat whether a computer plays it (for "überlegt …"), asked once per trick.

        A local table builds a whole public view to answer seats(); asking on every
        computer move would cost a second view per drawing in Brython.
        """
        marker = (view["deal"], len(view["tricks"]))
        if self.kinds_cache[0] == marker:
            return self.kinds_cache[1]
        kinds = [False, False, False]
        try:
            seats = self.table.seats()
        except Exception:  # a table that cannot tell yet
            return kinds
        for seat in range(min(len(seats), SEATS)):
            entry = seats[seat]
            kinds[seat] = ("kind" in entry and entry["kind"] == COMPUTER) or ("stand_in" in entry and bool(entry["stand_in"]))
        self.kinds_cache = (marker, kinds)
        return kinds

    def render_seat(self, view, seat, where, status, computers):
        names = view["names"]
        count = view["hand_sizes"][seat]
        turn = view["turn"] == seat and not view["deal_over"]
        note = ""
        if view["deal_over"]:
            if seat in view["ready"]:
                note = t("pdk.ready")
        elif turn:
            note = t("pdk.thinking") if computers[seat] and seat != view["seat"] else t("pdk.on_turn")
        elif status[seat] == "passed":
            note = t("pdk.passed_you" if seat == view["seat"] else "pdk.passed")
        # This device's own tile says "Du", as Mau-Mau's and Golf's do.
        name = t("pdk.you") if seat == view["seat"] else names[seat]
        inputs = (where, seat, name, count, turn, status[seat] == "passed", seat == view["seat"], note)
        return self.parts.part("seat-" + where, inputs, seat_html, inputs)

    def render_top(self, app, view):
        top = view["top"]
        names = view["names"]
        if top is None and view["deal_over"] and view["last_trick"]:
            for entry in view["last_trick"]:
                if entry["cards"]:
                    top = {"seat": entry["seat"], "cards": entry["cards"], "play": entry["play"]}
        if top is None:
            if view["deal_over"]:
                text = ""
            elif view["opening"] and not my_turn(view):
                text = t("pdk.opening_other", name=names[view["turn"]])
            elif my_turn(view):
                text = t("pdk.you_open") if view["opening"] else t("pdk.you_lead")
            else:
                text = t("pdk.leads", name=names[view["turn"]])
            return ('<div class="pdk-top empty" data-testid="trick-top" data-cards="" data-seat="">'
                    '<p class="pdk-top-text">%s</p></div>' % escape(text))
        play = top["play"]
        cards = "".join([card_html(card) for card in top["cards"]])
        bomb = ('<span class="pdk-bomb" data-testid="bomb-mark">%s</span>' % escape(t("pdk.bomb_mark"))) if play["bomb"] else ""
        # Animate a play once, when it arrives: not again on every later drawing (a tap redraws the screen).
        marker = (view["deal"], len(view["played"]))
        fresh = marker != self.top_seen
        self.top_seen = marker
        motion = "" if app.reduce_motion() or not fresh else " pdk-in"
        return ('<div%s><p class="pdk-top-label">%s</p><div class="pdk-top-cards%s">%s</div>'
                '<p class="pdk-top-text">%s%s</p></div>' % (
                    attrs(class_="pdk-top" + (" bomb" if play["bomb"] else ""), data_testid="trick-top",
                          data_cards=" ".join(top["cards"]), data_seat=top["seat"]),
                    escape(t("pdk.last_play") if view["deal_over"] else t("pdk.to_beat")), motion, cards,
                    escape(t("pdk.played_by", name=names[top["seat"]], play=describe(play))), bomb))

    def render_feed(self, view):
        title, entries = feed_entries(view)
        # This device's own moves say "Du", as its tile does and as Mau-Mau's and Golf's feeds do.
        names = [t("pdk.you") if seat == view["seat"] else name for seat, name in enumerate(view["names"])]
        items = []
        for entry in entries:
            if entry["pass"]:
                text = t("pdk.passed_you" if entry["seat"] == view["seat"] else "pdk.passed")
                mark = ""
            else:
                text = describe(entry["play"]) + " (" + " ".join(
                    rank_label(c[:-1]) + engine_suit(c) for c in entry["cards"]) + ")"
                mark = (' <span class="pdk-bomb">%s</span>' % escape(t("pdk.bomb_mark"))) if entry["play"]["bomb"] else ""
                # Read out as a sentence ("Kim spielt Einzelkarte Drei"); the eye reads the name as its subject.
                verb = t("pdk.feed_plays_you" if entry["seat"] == view["seat"] else "pdk.feed_plays")
                text = '<span class="visually-hidden">%s </span>%s' % (escape(verb), escape(text))
            # data-own: a person given the device back is not told their own last play again (index.html).
            items.append('<li data-seat="%d"%s%s><strong>%s</strong> %s%s</li>' % (
                entry["seat"], ' class="pass"' if entry["pass"] else "",
                ' data-own="1"' if entry["seat"] == view["seat"] else "", escape(names[entry["seat"]]),
                text if not entry["pass"] else escape(text), mark))
        for seat, points in bomb_bonuses(view, entries):
            items.append('<li class="bonus" data-testid="bomb-bonus">%s</li>' % escape(
                t("pdk.bonus_line", name=names[seat], n=points)))
        if not items:
            items.append('<li class="hint">%s</li>' % escape(t("pdk.feed_none")))
        return ('<section class="pdk-feed" aria-labelledby="pdk-feed-h"><h2 id="pdk-feed-h">%s</h2>'
                '<div role="log" data-order="oldest-first"><ol data-testid="trick-feed">%s</ol></div></section>' % (
                    escape(title), "".join(items)))

    def render_tableau(self, app, view, with_feed=True):
        """Return the seats as they sit (next seat to the right: counter-clockwise), the play to beat, the feed."""
        bottom, right, left = seat_order(view["seat"])
        status = trick_status(view)
        computers = self.seat_kinds(view)
        names = view["names"]
        order = " → ".join([names[bottom], names[right], names[left], names[bottom]])
        return ('<section class="pdk-tableau" aria-label="%s">'
                '<p class="visually-hidden">%s</p>%s<span class="pdk-arrow a-top" aria-hidden="true">←</span>%s'
                '<span class="pdk-arrow a-left" aria-hidden="true">↙</span>%s'
                '<span class="pdk-arrow a-right" aria-hidden="true">↗</span>%s'
                '<p class="pdk-direction" data-testid="direction">%s</p></section>%s' % (
                    escape(t("pdk.seats_label")), escape(t("pdk.direction_long", order=order)),
                    self.render_seat(view, left, "left", status, computers),
                    self.render_seat(view, right, "right", status, computers),
                    self.render_top(app, view),
                    self.render_seat(view, bottom, "bottom", status, computers),
                    escape(t("pdk.direction")), self.render_feed(view) if with_feed else ""))

    def render_hand(self, view):
        turn = my_turn(view)
        info = selection_info(view, self.selected, self.keys_of(view))
        allowed, reason = pass_state(view)
        # Everything the hand area shows: while another seat moves it stays as it was, and is not built again.
        inputs = (view["hand"], tuple(self.selected), self.cursor, info["text"], info["shape"], info["legal"], allowed,
                  reason if turn else "", turn, view["opening"] and turn, view["legal"], self.tipp.marks(view),
                  self.message, self.tipp.button(view), self.tipp.line(view))
        return self.parts.part("hand", inputs, self.hand_html, inputs)

    def hand_html(self, inputs):
        """Return the hand area from render_hand's inputs alone (it is kept while they stay the same)."""
        hand, selected, cursor, text, shape, legal_pick, allowed, reason, turn, opening, legal_actions, marks, \
            message, tipp_button, tipp_line = inputs
        hand = sort_hand(hand)
        cards = []
        for index in range(len(hand)):
            card = hand[index]
            cards.append(card_html(card, True, card in selected, index == cursor, self.tipp.mark(marks, card)))
        plays = []
        for action in legal_actions:
            cards_of = action_cards(action)
            if cards_of:
                plays.append(" ".join(cards_of))
        pass_button = '<button%s>%s</button>' % (
            attrs(type="button", class_="btn btn-secondary", data_action="pass", data_testid="pass",
                  aria_disabled="false" if allowed else "true", aria_describedby="pass-reason",
                  data_hinted=self.tipp.mark(marks, "pass")),
            escape(t("pdk.pass")))
        return (
            '<section class="pdk-hand-area" aria-labelledby="pdk-hand-h"><h2 id="pdk-hand-h">%s</h2>'
            '<div%s>%s</div>'
            # Docked at the foot: the selection, the buttons and why a tap was refused ("Wer ausspielt, darf nicht
            # passen" was 100 px below the screen); the Tipp's line after it, so the dock stays low over the cards.
            '<div class="turn-dock"><p%s>%s</p>'
            '<div class="pdk-controls">%s%s%s</div>'
            '<p class="pdk-message" data-testid="pdk-message" role="status">%s</p></div>%s'
            '<p class="pdk-reason%s" id="pass-reason" data-testid="pass-reason">%s</p>'
            '<p class="hint pdk-keys key-hint">%s</p></section>' % (
                escape(t("pdk.your_hand")),
                attrs(class_="pdk-hand", role="group", aria_labelledby="pdk-hand-h", data_testid="hand",
                      data_legal="|".join(plays), data_my_turn="true" if turn else "false", data_next_step=turn),
                "".join(cards),
                attrs(class_="pdk-shape" + (" legal" if legal_pick else ""), data_testid="selection-shape",
                      data_shape=shape, data_legal="true" if legal_pick else "false",
                      aria_live="polite" if selected else None),  # "Wähle Karten …" is no news after each play
                escape(text),
                button(t("pdk.play"), "play", "play", kind="primary", disabled=not legal_pick),
                pass_button,
                tipp_button, escape(message), tipp_line,
                # A refused pass says why in the message above: the same sentence again below it is noise.
                " allowed" if allowed else "", escape(reason) if reason != message else "",
                escape(t("pdk.keys"))))

    def render_settlement(self, view, buttons=True):
        names = view["names"]
        lines = settlement_lines(view)
        totals = deal_totals(view)
        out = None
        for record in view["settlements"]:
            if record["kind"] == "out":
                out = record["seat"]
        blocks = []
        for seat in range(SEATS):
            rows = "".join('<li><span>%s</span><span class="pts">%s</span></li>' % (escape(label), signed(points))
                           for label, points in lines[seat])
            blocks.append(
                '<li%s><p class="pdk-settle-head"><strong>%s</strong><span class="pts" data-testid="settle-total-%d">%s</span></p>'
                '<ul class="pdk-settle-lines">%s</ul></li>' % (
                    attrs(class_="pdk-settle" + (" out" if seat == out else ""), data_testid="settle-%d" % seat,
                          data_seat=seat, data_points=totals[seat]),
                    escape(names[seat]), seat, signed(totals[seat]), rows))
        headline = t("pdk.goes_out", name=names[out]) if out is not None else ""
        me = view["seat"]
        if not buttons:  # the infoscreen under the final standings: the last deal's breakdown, no buttons
            controls = ""
        elif table_over(view):
            controls = button(t("pdk.to_final"), "final", "next-deal", kind="primary", extra="wide")
        elif me is not None and me in view["to_move"]:
            controls = (button(t("pdk.next_deal"), "next", "next-deal", kind="primary") +
                        button(t("pdk.stop"), "stop", "stop-table", kind="secondary"))
        else:
            waiting = [names[s] for s in view["to_move"]]
            controls = '<p class="hint" data-testid="waiting">%s</p>' % escape(t("pdk.waiting", names=", ".join(waiting)))
        said = ""
        if buttons:  # the deal just settled, in one line for screen readers (the blocks are figures)
            said = '<p class="visually-hidden" role="status" data-testid="settlement-said">%s</p>' % escape(" ".join(
                [t("pdk.settlement", n=view["deal"]) + ":", headline,
                 ", ".join("%s %s" % (names[seat], signed(totals[seat])) for seat in range(SEATS)) + "."]))
        return ('<section class="pdk-settlement" aria-labelledby="pdk-settle-h" data-testid="deal-settlement">'
                '<h2 id="pdk-settle-h">%s</h2><p class="pdk-out">%s</p><ol class="pdk-settles">%s</ol>'
                '<p class="hint" data-testid="settle-sum">%s</p><div class="controls">%s</div>%s</section>' % (
                    escape(t("pdk.settlement", n=view["deal"])), escape(headline), "".join(blocks),
                    escape(t("pdk.s_zero", n=sum(totals))), controls, said))

    def render_final(self, view, after=""):
        """Return the final standings with the table's totals signed (+17 Punkte, −3 Punkte)."""
        return final_standings(self.table, view["names"], view["outcome"],
                               scores=[signed_points(total) for total in view["outcome"]["scores"]],
                               after=after)

    def render_tools(self, view, phase):
        parts = [button(t("pdk.table"), "open-table", "open-table", kind="ghost"),
                 '<a class="btn btn-ghost" href="/rules/paodekuai" data-testid="open-rules">%s</a>' % escape(t("pdk.rules"))]
        if phase != "final" and self.table.can_pause():
            parts.append(button(t("table.pause"), "pause", "pause", kind="secondary"))
        if self.table.can_transfer():
            parts.append(transfer_link(GAME))
        return '<div class="tools pdk-tools">%s</div>' % "".join(parts)

    def render_table_rows(self, view):
        """Return the Tabelle: every deal's points per seat and the running totals (kept within a deal)."""
        log = view["log"]
        # Deals before the last one never change: the last one's points and settlements, and the totals, tell.
        last = (log[-1]["points"], len(log[-1]["settlements"])) if log else None
        return self.parts.part("table", (view["names"], len(log), last, view["table"], view["deal"], view["deal_over"]),
                               self.table_rows_html, view)

    def table_rows_html(self, view):
        """Return the Tabelle from the view's names, log, table, deal and deal_over (render_table_rows keeps it)."""
        names = view["names"]
        head = "".join(['<th scope="col">%s</th>' % escape(names[s]) for s in range(SEATS)])
        rows = []
        for record in view["log"]:
            running = record["deal"] == view["deal"] and not view["deal_over"]
            if running and not record["settlements"]:
                continue
            cells = "".join(['<td data-seat="%d">%s</td>' % (s, signed(record["points"][s])) for s in range(SEATS)])
            label = str(record["deal"]) + ((" (%s)" % t("pdk.table_running")) if running else "")
            rows.append('<tr data-deal="%d"><th scope="row">%s</th>%s</tr>' % (record["deal"], escape(label), cells))
        if not rows:
            rows.append('<tr><td colspan="4" class="hint">%s</td></tr>' % escape(t("pdk.table_none")))
        totals = "".join(['<td data-testid="table-total-%d">%s</td>' % (s, signed(view["table"][s])) for s in range(SEATS)])
        return ('<div class="table-scroll"><table class="log pdk-log"><thead><tr><th scope="col">%s</th>%s</tr></thead>'
                '<tbody data-testid="table-rows">%s</tbody><tfoot><tr><th scope="row">%s</th>%s</tr></tfoot></table></div>' % (
                    escape(t("pdk.table_deal")), head, "".join(rows), escape(t("pdk.s_total")), totals))

    def render_panel(self, view):
        if not self.panel:
            return ""
        return sheet("panel-table", t("pdk.table"), self.render_table_rows(view))

    def render_infoscreen(self, app, view):
        """Return the public layout (a tablet or TV, large type; a watching phone): no hand, the table always visible."""
        if table_over(view):
            main = self.render_final(view, self.render_settlement(view, buttons=False) if view["settlements"] else "")
        else:
            main = self.render_status(view) + self.render_tableau(app, view, with_feed=False)
            if view["deal_over"]:
                main += self.render_settlement(view)
        side = '<div class="pdk-side">%s<section aria-labelledby="pdk-side-h"><h2 id="pdk-side-h">%s</h2>%s</section></div>' % (
            "" if table_over(view) else self.render_feed(view), escape(t("pdk.table")), self.render_table_rows(view))
        return page(t("game.paodekuai"), '<div class="pdk-info-grid" data-testid="pdk-infoscreen"><div class="pdk-info-main">%s</div>%s</div>' % (
            main, side), extra_class="pdk pdk-info" + (" pdk-afar" if self.table.reads_from_afar() else ""))

    # -- actions ---------------------------------------------------------------------------
    def handle(self, app, action, value):
        if table_action(app, self.table, action):  # Speichern & pausieren, Neue Partie
            return
        self.in_hand = False
        view = self.current()
        if view is None:
            return
        if action == "toggle" and value:
            self.toggle(view, value)
        elif action == "play":
            self.play(app, view)
            return
        elif action == "pass":
            self.do_pass(app, view)
            return
        elif action == "hint":
            self.hint(app, view)
        elif action == "next":
            reveal_shown(self.table, view)
            self.act(app, "next")
            app.scroll_to_top()  # the button is below the summary; the new deal's names are at the top
            return
        elif action == "stop":
            reveal_shown(self.table, view)
            self.act(app, "stop")
            return
        elif action == "final":
            reveal_shown(self.table, view)
        elif action == "open-table":
            self.panel = True
        elif action == "close-panel":
            self.panel = False
        app.rerender()

    def toggle(self, view, card):
        if "hand" not in view or card not in view["hand"]:
            return
        if card in self.selected:
            self.selected.remove(card)
        else:
            self.selected.append(card)
        hand = sort_hand(view["hand"])
        self.cursor = hand.index(card)
        self.message = ""

    def act(self, app, action):
        """Send an action to the table; a refusal is shown, nothing else changes."""
        try:
            self.table.act(action)
        except IllegalAction as error:
            self.message = refusal_text(error)
            app.toast(self.message)
            app.rerender()
            return False
        return True

    def play(self, app, view):
        info = selection_info(view, self.selected, self.keys_of(view))
        if not info["legal"]:
            self.message = t("pdk.not_legal") if my_turn(view) else t("pdk.not_your_turn")
            app.rerender()
            return
        action = play_action(self.selected)
        self.selected = []
        self.message = ""
        if self.act(app, action):
            app.rerender()

    def do_pass(self, app, view):
        allowed, reason = pass_state(view)
        if not allowed:
            self.message = reason
            app.rerender()
            return
        self.selected = []
        self.message = ""
        if self.act(app, "pass"):
            app.rerender()

    def hint(self, app, view):
        """Tipp: select the cards the strong computer would play (none when it would pass)."""
        if not my_turn(view):
            return
        self.selected = list(action_cards(self.tipp.ask(view, app) or ""))
        self.message = ""

    def on_key(self, app, key):
        if self.panel and key == "Escape":
            self.panel = False
            app.rerender()
            return True
        view = self.current()
        if view is None or view["seat"] is None or self.phase(view) != "play" or self.panel:
            return False
        testid = app.focused()
        on_card = bool(testid) and testid.startswith("card-")
        in_hand = on_card or not testid
        hand = sort_hand(view["hand"])
        row = app.focused_columns(8)  # six cards a row on a 360 px phone, eight on a tablet
        moves = {"ArrowLeft": -1, "ArrowRight": 1, "ArrowUp": -row, "ArrowDown": row, "Home": -len(hand), "End": len(hand)}
        if key in moves and hand:
            if on_card or self.in_hand:
                self.cursor = min(max(self.cursor + moves[key], 0), len(hand) - 1)
            self.in_hand = True
            app.rerender()
            app.focus('[data-testid="card-%s"]' % hand[self.cursor])
            return True
        if key == " " and in_hand and hand:
            self.toggle(view, testid[len("card-"):] if on_card else hand[self.cursor])
            app.rerender()
            return True
        if key == "Enter" and in_hand:
            self.play(app, view)
            return True
        if key in ("p", "P"):
            self.do_pass(app, view)
            return True
        return False

    def leave(self, app):
        self.table.close()


def engine_suit(card):
    """Return a card's suit symbol for the feed's text."""
    suit = card[-1]
    return SUIT_SYMBOLS[suit] if suit in SUIT_SYMBOLS else suit

"""Kartenkampf screens: start, secret choice, sorted reveal, final standings, round log; infoscreen layout.

The table screen renders any table (local, host, a room's phone, the infoscreen) from
`table.view()` alone. The pure helpers at the top (reveal items, tie notes, the words for the
tie-breaker that decided) hold the logic that is not plain rendering; tests call them in CPython.
The final standings are the shared ones (spieleabend.ui.final) with Kartenkampf's tie-break words.
"""

from spieleabend.games import kartenkampf as engine
from spieleabend.games.common import IllegalAction
from spieleabend.ui.hint import Hint
from spieleabend.ui.html import button, escape, number_card
from spieleabend.ui.i18n import register, t
from spieleabend.ui.shell import NewOnce, Screen, page, sheet, transfer_link
from spieleabend.ui.final import final_standings
from spieleabend.ui.table import PERSON, refusal_text, reveal_due, reveal_shown, table_action

GAME = "kartenkampf"
# The reveal deals a card every 90 ms; the winner shows cards x 90 + 450 ms after the first (kartenkampf.css).
DEAL_MS_PER_CARD = 90
DEAL_MS_BEFORE_WINNER = 450

register({
    "kk.you": ("Du", "You"),
    "kk.you_mark": ("(du)", "(you)"),
    "kk.short_rules": ("Alle wählen geheim eine Karte. Die höchste Karte, die genau einmal liegt, gewinnt "
                       "die Summe aller Karten der Runde.",
                       "Everyone secretly picks a card. The highest card played exactly once wins "
                       "the sum of all cards of the round."),
    "kk.round": ("Runde %(n)s von %(total)s", "Round %(n)s of %(total)s"),
    "kk.points": ("%(n)s Punkte", "%(n)s points"),
    "kk.points_one": ("1 Punkt", "1 point"),
    "kk.chosen": ("hat gewählt", "has chosen"),
    "kk.choosing": ("wählt noch", "still choosing"),
    "kk.away": ("abwesend", "away"),
    "kk.stand_in": ("Computer spielt", "computer plays"),
    "kk.used": ("Verbraucht:", "Used:"),
    "kk.not_in_hand": ("Die %(n)s hast du nicht mehr.", "You no longer have the %(n)s."),
    "kk.used_none": ("noch keine", "none yet"),
    "kk.used_label": ("Verbrauchte Karten von %(name)s: %(cards)s", "Cards %(name)s has used: %(cards)s"),
    "kk.used_label_you": ("Deine verbrauchten Karten: %(cards)s", "Cards you have used: %(cards)s"),
    "kk.seats": ("Spielstand", "Scores"),
    "kk.choose_title": ("Geheime Auswahl", "Secret choice"),
    "kk.your_hand": ("Deine Karten", "Your cards"),
    "kk.card": ("Karte %(n)s", "Card %(n)s"),
    "kk.card_back_of": ("Karte %(n)s ist zurück", "Card %(n)s is back"),
    "kk.gone": ("Karte %(n)s ist verbraucht", "Card %(n)s is used up"),
    "kk.back_tag": ("zurück", "back"),
    "kk.returned_hint": ("Die letzte Runde hatte keinen Sieger: deine %(n)s ist wieder auf der Hand.",
                         "The last round had no winner: your %(n)s is back in your hand."),
    "kk.pick_first": ("Wähle eine Karte. Niemand sieht sie vor dem Aufdecken.",
                      "Choose a card. Nobody sees it before the reveal."),
    "kk.selected": ("Gewählt: %(n)s – noch nicht bestätigt.", "Chosen: %(n)s – not confirmed yet."),
    "kk.confirm": ("Karte bestätigen", "Confirm card"),
    "kk.waiting_title": ("Während alle wählen", "While everyone chooses"),
    "kk.your_choice": ("Deine Karte liegt verdeckt: %(n)s", "Your card lies face down: %(n)s"),
    "kk.waiting": ("Warte auf die anderen …", "Waiting for the others …"),
    "kk.waiting_count": ("%(done)s von %(total)s haben gewählt.", "%(done)s of %(total)s have chosen."),
    "kk.waiting_count_one": ("1 von %(total)s hat gewählt.", "1 of %(total)s has chosen."),
    "kk.connecting": ("Verbinde mit dem Tisch …", "Connecting to the table …"),
    "kk.reveal_title": ("Nach dem Aufdecken – Runde %(n)s", "After the reveal – round %(n)s"),
    "kk.reveal_list": ("Gespielte Karten, absteigend", "Cards played, highest first"),
    "kk.reveal_item": ("%(name)s: %(n)s", "%(name)s: %(n)s"),
    "kk.tied": ("doppelt", "tied"),
    "kk.winner_tag": ("Sieger", "Winner"),
    "kk.plus": ("+%(n)s", "+%(n)s"),
    "kk.round_winner": ("%(name)s gewinnt die Runde mit der %(card)s.", "%(name)s wins the round with the %(card)s."),
    "kk.round_winner_me": ("Du gewinnst die Runde mit der %(card)s.", "You win the round with the %(card)s."),
    "kk.round_sum": ("%(n)s Punkte: die Summe aller Karten (%(sum)s).", "%(n)s points: the sum of all cards (%(sum)s)."),
    "kk.no_winner": ("Kein Rundensieger", "No round winner"),
    "kk.no_winner_note": ("Kein Wert liegt genau einmal. Niemand punktet, alle bekommen ihre Karte zurück.",
                          "No value was played exactly once. Nobody scores, everyone gets their card back."),
    "kk.back_to": ("zurück an %(name)s", "back to %(name)s"),
    "kk.knocked_one": ("Die %(cards)s liegt mehrfach und fällt heraus.", "The %(cards)s was played more than once and drops out."),
    "kk.knocked_many": ("%(cards)s liegen mehrfach und fallen heraus.", "%(cards)s were played more than once and drop out."),
    "kk.next_round": ("Nächste Runde", "Next round"),
    "kk.final_btn": ("Endwertung", "Final standings"),
    "kk.best_round": ("beste Runde: %(n)s Punkte", "best round: %(n)s points"),
    "kk.best_round_one": ("beste Runde: 1 Punkt", "best round: 1 point"),
    "kk.rounds_won": ("%(n)s Runden gewonnen", "%(n)s rounds won"),
    "kk.rounds_won_one": ("1 Runde gewonnen", "1 round won"),
    "kk.decided_best": ("Gleichstand bei %(points)s Punkten (%(names)s). Entschieden durch das höchste einzelne "
                        "Rundenergebnis: %(figures)s.",
                        "Tied on %(points)s points (%(names)s). Decided by the highest single round score: %(figures)s."),
    "kk.decided_won": ("Gleichstand bei %(points)s Punkten und dem gleichen besten Rundenergebnis %(best)s (%(names)s). "
                       "Entschieden durch mehr gewonnene Runden: %(figures)s.",
                       "Tied on %(points)s points and the same best round score %(best)s (%(names)s). "
                       "Decided by more rounds won: %(figures)s."),
    "kk.decided_none": ("%(names)s sind gleich bei Punkten (%(points)s), bestem Rundenergebnis (%(best)s) und "
                        "gewonnenen Runden (%(won)s). Der Spielsieg bleibt unentschieden.",
                        "%(names)s are equal on points (%(points)s), best round score (%(best)s) and rounds won "
                        "(%(won)s). The game stays undecided."),
    "kk.log_btn": ("Rundenprotokoll", "Round log"),
    "kk.log_title": ("Rundenprotokoll", "Round log"),
    "kk.log_none": ("Noch keine Runde aufgedeckt.", "No round revealed yet."),
    "kk.log_round": ("Runde", "Round"),
    "kk.log_winner": ("Sieger", "Winner"),
    "kk.log_card_won": (" (gewinnt)", " (wins)"),
    "kk.log_points": ("Punkte", "Points"),
    "kk.log_cards": ("Alle Karten", "All cards"),
    "kk.log_nobody": ("niemand (Karten zurück)", "nobody (cards back)"),
    "kk.screen_choosing": ("Runde %(n)s: alle wählen geheim", "Round %(n)s: everyone chooses in secret"),
    "kk.screen_last": ("Zuletzt aufgedeckt: Runde %(n)s", "Last revealed: round %(n)s"),
    "kk.screen_none": ("Noch nichts aufgedeckt.", "Nothing revealed yet."),
    "kk.screen_over": ("Die Partie ist vorbei.", "The game is over."),
})


# -- pure helpers (tested in CPython) ------------------------------------------------------
def reveal_items(reveal):
    """Return the sorted reveal's cards, each with whether it won, was tied or goes back to its owner."""
    return [{"seat": item["seat"], "card": item["card"], "winner": item["winner"], "tied": item["tied"],
             "returned": reveal["returned"]} for item in reveal["cards"]]


def knocked_out(reveal):
    """Return the tied values above the winning card (all tied values when nobody won), highest first."""
    return reveal["knocked_out"]


def decision_text(result, names):
    """Return the sentence that spells out the deciding tie-breaker (or why nobody won); "" for a win on points
    alone, where the standings say it (an audit read "Entschieden durch die meisten Punkte" under a clear win)."""
    if result["decided_by"] == "points":
        return ""
    tied = result["tied"]
    scores, best, won = result["scores"], result["best_round"], result["rounds_won"]
    who = ", ".join([names[seat] for seat in tied])
    first = tied[0]
    if result["decided_by"] == "best_round":
        figures = ", ".join(["%s %d" % (names[seat], best[seat]) for seat in tied])
        return t("kk.decided_best", points=scores[first], names=who, figures=figures)
    if result["decided_by"] == "rounds_won":
        figures = ", ".join(["%s %d" % (names[seat], won[seat]) for seat in tied])
        return t("kk.decided_won", points=scores[first], best=best[first], names=who, figures=figures)
    return t("kk.decided_none", names=who, points=scores[first], best=best[first], won=won[first])


def returned_card(view):
    """Return this seat's card that came back after a round without a winner, else None."""
    if view["seat"] is None or not view["log"] or "hand" not in view:
        return None
    last = view["log"][-1]
    if last["winner"] is not None:
        return None
    card = last["played"][view["seat"]]
    return card if card in view["hand"] else None


def waiting_count(done, total):
    """Return "2 von 4 haben gewählt" ("1 von 4 hat gewählt")."""
    return t("kk.waiting_count_one" if done == 1 else "kk.waiting_count", done=done, total=total)


def points_label(n):
    return t("kk.points_one") if n == 1 else t("kk.points", n=n)


def seat_list(table, view):
    """Return the table's seat entries, or plain ones made from the view when the table gives none."""
    try:
        seats = table.seats()
    except Exception:  # a table that has not heard from the host yet
        seats = None
    if not seats or len(seats) != view["seats"]:
        seats = [{"name": view["names"][s], "kind": PERSON, "away": False, "stand_in": False,
                  "me": s == view["seat"]} for s in range(view["seats"])]
    return seats


# -- shared pieces of HTML -----------------------------------------------------------------
def render_reveal_row(view, motion, big=False):
    """Return the sorted reveal: the list (hook reveal-sorted), the winner line and the tie note."""
    reveal = view["reveal"]
    names = view["names"]
    me = view["seat"]
    items = []
    index = 0
    for item in reveal_items(reveal):
        seat = item["seat"]
        classes = "kk-slot" + (" win" if item["winner"] else "") + (" tied" if item["tied"] else "") + (
            " returned" if item["returned"] else "") + (" me" if seat == me else "") + motion
        extra = ""
        if item["winner"]:
            extra = ('<span class="kk-tag win-tag">%s</span><span class="kk-points" data-testid="round-points">%s</span>' % (
                escape(t("kk.winner_tag")), escape(t("kk.plus", n=reveal["points"]))))
        elif item["returned"]:
            extra = '<span class="kk-tag back-tag" title="%s"><span aria-hidden="true">↩</span> %s</span>' % (
                escape(t("kk.back_to", name=names[seat])), escape(t("kk.back_tag")))
        elif item["tied"]:
            extra = '<span class="kk-tag tie-tag">%s</span>' % escape(t("kk.tied"))
        items.append(
            '<li class="%s" style="--i:%d" data-card="%d" data-seat="%d">%s<span class="who">%s</span>%s</li>' % (
                classes, index, item["card"], seat,
                number_card(item["card"], t("kk.reveal_item", name=names[seat], n=item["card"]),
                            size="" if big else "small"),
                escape(names[seat]), extra))
        index += 1
    knocked = knocked_out(reveal)
    if reveal["winner"] is None:
        headline = t("kk.no_winner")
        sub = ""
        note = t("kk.no_winner_note")
    else:
        if reveal["winner"] == me:
            headline = t("kk.round_winner_me", card=reveal["winning_card"])
        else:
            headline = t("kk.round_winner", name=names[reveal["winner"]], card=reveal["winning_card"])
        played = [item["card"] for item in reveal["cards"]]
        sub = t("kk.round_sum", n=reveal["points"], sum=" + ".join([str(card) for card in played]))
        note = ""
        if knocked:
            text = ", ".join([str(card) for card in knocked])
            note = t("kk.knocked_one", cards=text) if len(knocked) == 1 else t("kk.knocked_many", cards=text)
    # While the cards are dealt in, what they decide waits until the last one is down (--n: how many come).
    after = ' class="after-deal" style="--n:%d"' % index if motion else ""
    return ('<ol class="kk-reveal%s" data-testid="reveal-sorted" aria-label="%s" style="--n:%d">%s</ol>'
            '<div%s role="status"><p class="kk-round-winner" data-testid="round-winner">%s</p>%s%s</div>' % (
                " big" if big else "", escape(t("kk.reveal_list")), index, "".join(items), after, escape(headline),
                '<p class="kk-sum">%s</p>' % escape(sub) if sub else "",
                '<p class="kk-tie-note" data-testid="tie-note">%s</p>' % escape(note) if note else ""))


def render_seat_tiles(view, seats, show_chosen, screen=False):
    """Return one tile per seat: name, points, chosen or not (never what), and the cards already used."""
    tiles = []
    for seat in range(view["seats"]):
        info = seats[seat]
        name = view["names"][seat]
        status = ""
        if show_chosen:
            chosen = view["committed"][seat]
            status = '<span class="kk-chosen %s" data-testid="chosen-%d" data-chosen="%s"><span aria-hidden="true">%s</span> %s</span>' % (
                "yes" if chosen else "no", seat, "yes" if chosen else "no", "✓" if chosen else "…",
                escape(t("kk.chosen") if chosen else t("kk.choosing")))
        flags = ""
        if info.get("away"):
            flags = '<span class="kk-flag">%s</span>' % escape(t("kk.away"))
        elif info.get("stand_in"):
            flags = '<span class="kk-flag">%s</span>' % escape(t("kk.stand_in"))
        used = view["spent"][seat]
        used_text = " ".join([str(card) for card in used]) if used else t("kk.used_none")
        tiles.append(
            '<li class="kk-seat%s" data-seat="%d" data-testid="seat-%d"><span class="kk-seat-name">%s%s</span>'
            '<span class="kk-seat-total" data-testid="total-%d">%s</span>%s%s'
            '<span class="kk-used" data-testid="used-%d"><span class="visually-hidden">%s</span>'
            '<span aria-hidden="true">%s %s</span></span></li>' % (
                " me" if seat == view["seat"] else "", seat, seat, escape(name),
                (" " + escape(t("kk.you_mark"))) if seat == view["seat"] and not screen and name != t("kk.you") else "",
                seat, escape(points_label(view["scores"][seat])), status, flags,
                seat, escape(t("kk.used_label_you", cards=used_text) if name == t("kk.you") else t("kk.used_label", name=name, cards=used_text)), escape(t("kk.used")), escape(used_text)))
    return '<ul class="kk-seats%s" aria-label="%s">%s</ul>' % (" big" if screen else "", escape(t("kk.seats")), "".join(tiles))


def render_standings(table, view):
    """Return the final standings with Kartenkampf's own words: the tie-break figures of each seat and what decided."""
    result = view["outcome"]
    names = view["names"]
    notes = []
    for seat in range(view["seats"]):
        won = result["rounds_won"][seat]
        notes.append("%s · %s" % (t("kk.best_round", n=result["best_round"][seat]),
                                  t("kk.rounds_won_one") if won == 1 else t("kk.rounds_won", n=won)))
    return final_standings(table, names, result, notes=notes, decider=decision_text(result, names))


def render_log(view):
    """Return the round log: per round who won, with which card, for how many points, and all cards played."""
    if not view["log"]:
        return '<p class="hint" data-testid="round-log">%s</p>' % escape(t("kk.log_none"))
    names = view["names"]
    rows = []
    for entry in view["log"]:
        # The winning card is the one in bold among all the round's cards: a column of its own made the table
        # too wide for a 360 px phone at four seats with long names.
        winning = None if entry["winner"] is None else entry["played"][entry["winner"]]
        if winning is None:
            who, points = t("kk.log_nobody"), "–"
        else:
            who, points = names[entry["winner"]], "+%d" % entry["points"]
        cards = []
        for card in sorted(entry["played"], reverse=True):
            if card == winning:
                cards.append('<strong data-testid="log-winning-card">%d</strong><span class="visually-hidden">%s</span>' % (
                    card, escape(t("kk.log_card_won"))))
                winning = None  # one card wins
            else:
                cards.append(str(card))
        rows.append('<tr data-testid="log-row"><th scope="row">%d</th><td class="kk-log-who">%s</td><td>%s</td>'
                    '<td class="kk-log-cards">%s</td></tr>' % (entry["round"], escape(who), escape(points), " ".join(cards)))
    return ('<div class="table-scroll"><table class="log kk-log" data-testid="round-log"><thead><tr>'
            '<th scope="col">%s</th><th scope="col">%s</th><th scope="col">%s</th><th scope="col">%s</th>'
            '</tr></thead><tbody>%s</tbody></table></div>' % (
                escape(t("kk.log_round")), escape(t("kk.log_winner")), escape(t("kk.log_points")),
                escape(t("kk.log_cards")), "".join(rows)))


def render_infoscreen(table, view, seats):
    """Return the infoscreen's landscape layout from the public view: status, sorted reveal, standings."""
    over = view["outcome"] is not None
    if over:
        status = '<h2 class="kk-screen-h">%s</h2>' % escape(t("kk.screen_over"))
    else:
        status = '<h2 class="kk-screen-h">%s</h2><p class="kk-screen-count" data-testid="chosen-count" aria-live="polite">%s</p>' % (
            escape(t("kk.screen_choosing", n=view["round"])),
            escape(waiting_count(len([c for c in view["committed"] if c]), view["seats"])))
    if view["reveal"] is not None:
        reveal = '<h2 class="kk-screen-h">%s</h2>%s' % (
            escape(t("kk.screen_last", n=view["reveal"]["round"])), render_reveal_row(view, "", big=True))
    else:
        reveal = '<p class="kk-screen-none">%s</p>' % escape(t("kk.screen_none"))
    if over:
        side = render_standings(table, view)
    else:
        side = '<h2 class="kk-screen-h">%s</h2>%s' % (escape(t("kk.seats")), render_seat_tiles(view, seats, True, screen=True))
    return ('<div class="kk-screen-grid"><section class="kk-screen-status">%s</section>'
            '<section class="kk-screen-reveal" data-testid="screen-reveal" aria-live="polite">%s</section>'
            '<section class="kk-screen-side">%s</section></div>' % (status, reveal, side))


def setup_note(app):
    """Return the start screen's line about the game."""
    return t("kk.short_rules")


# -- screens --------------------------------------------------------------------------------
class TableScreen(Screen):
    """The running game for any table: choose, wait, reveal, final standings; the infoscreen layout for seat None."""

    route = "play/kartenkampf/table"

    def enter_action(self):
        """Enter confirms a chosen card ("confirm") or goes on after the reveal ("next")."""
        view = self.table.view() if self.table.seat is not None else None
        phase = self.phase(view) if view is not None else None
        if phase == "choose" and self.selected is not None:
            return "confirm"
        return "next" if phase == "reveal" else None

    def __init__(self, app, table):
        self.table = table
        self.selected = None
        self.panel = None  # "log"
        self.dealt = NewOnce()  # the reveal's round: its cards are dealt once
        self.deal_ends = 0  # when the reveal's cards are all down (ms since the epoch)
        self.tipp = Hint(GAME)
        view = table.view()
        if view is not None:
            reveal_due(table, view)  # rounds scored before this screen opened count as seen
        table.listen(lambda event: self.changed(app))

    def changed(self, app):
        """The table's view changed (a computer, another phone, the host): draw again."""
        view = self.table.view()
        if view is not None and self.selected is not None and (
                "hand" not in view or self.selected not in view["hand"] or view["choice"] is not None):
            self.selected = None
        app.rerender()

    def phase(self, view):
        """Return "reveal" while a scored round waits to be seen, "final", "waiting" (chosen) or "choose".

        The table keeps the rounds this person has seen (a newer one, also one scored while waiting for
        other phones, is shown as a reveal first), so a reload during a reveal shows it again.
        """
        if reveal_due(self.table, view):
            return "reveal"
        if view["outcome"] is not None:
            return "final"
        if "choice" in view and view["choice"] is not None:
            return "waiting"
        return "choose"

    # -- rendering -------------------------------------------------------------------
    def render(self, app):
        view = self.table.view()
        if view is None:
            return page(t("game.kartenkampf"), '<p class="kk-connecting" role="status">%s</p>' % escape(
                t("kk.connecting")), extra_class="kk")
        seats = seat_list(self.table, view)
        if self.table.seat is None:
            return page(t("game.kartenkampf"), render_infoscreen(self.table, view, seats), extra_class="kk kk-screen")
        phase = self.phase(view)
        if phase == "final":
            body = render_standings(self.table, view)
        else:
            if phase == "reveal":
                number = view["log"][-1]["round"]
            else:
                number = view["round"]
            head = ('<p class="kk-round" data-testid="round-number" aria-live="polite">%s</p>' % escape(
                t("kk.round", n=number, total=view["rounds_total"])))
            if phase == "reveal":
                main = self.render_reveal(app, view)
            elif phase == "waiting":
                main = self.render_waiting(view)
            else:
                main = self.render_choose(view)
            body = head + main + render_seat_tiles(view, seats, phase != "reveal")
        tools = [button(t("kk.log_btn"), "panel", "open-log", kind="ghost", data_value="log")]
        if phase != "final" and self.table.can_pause():
            tools.append(button(t("table.pause"), "pause", "pause", kind="secondary"))
        if self.table.can_transfer():
            tools.append(transfer_link(GAME))
        return page(t("game.kartenkampf"), body + '<div class="tools kk-tools">%s</div>' % "".join(tools)
                    + self.render_panel(view), extra_class="kk")

    def render_choose(self, view):
        hand = view["hand"]
        back = returned_card(view)
        marks = self.tipp.marks(view)
        slots = []
        for number in engine.CARDS:
            if number in hand:
                label = t("kk.card_back_of", n=number) if number == back else t("kk.card", n=number)
                card = number_card(number, label, selected=(number == self.selected), action="select",
                                   testid="card-%d" % number, hinted=self.tipp.mark(marks, str(number)))
                if number == back:
                    card = '<span class="kk-back-wrap">%s<span class="kk-tag back-tag" aria-hidden="true">↩ %s</span></span>' % (
                        card, escape(t("kk.back_tag")))
                slots.append(card)
            else:
                slots.append('<span class="kk-gone" role="img" aria-label="%s" data-gone="%d">%d</span>' % (
                    escape(t("kk.gone", n=number)), number, number))
        if self.selected is None:
            summary = t("kk.pick_first")
        else:
            summary = t("kk.selected", n=self.selected)
        returned = ('<p class="kk-returned" data-testid="returned-note">%s</p>' % escape(t("kk.returned_hint", n=back))
                    if back is not None else "")
        return (
            '<section class="hand-area kk-choose" aria-labelledby="hand-h"><h2 id="hand-h">%s</h2>%s'
            '<div class="hand kk-hand" role="group" aria-label="%s" data-testid="hand" data-next-step>%s</div>'
            '<p class="summary" data-testid="selection" aria-live="polite">%s</p>'
            '<div class="controls">%s%s</div>%s</section>' % (
                escape(t("kk.choose_title")), returned, escape(t("kk.your_hand")), "".join(slots), escape(summary),
                button(t("kk.confirm"), "confirm", "confirm", kind="primary", extra="wide",
                       disabled=self.selected is None), self.tipp.button(view), self.tipp.line(view)))

    def render_waiting(self, view):
        done = len([c for c in view["committed"] if c])
        return ('<section class="kk-waiting" aria-labelledby="wait-h"><h2 id="wait-h">%s</h2>'
                '<div class="kk-my-choice">%s<p data-testid="my-choice">%s</p></div>'
                '<p class="kk-wait" data-testid="waiting" role="status">%s %s</p></section>' % (
                    escape(t("kk.waiting_title")),
                    number_card(view["choice"], t("kk.card", n=view["choice"]), size="small"),
                    escape(t("kk.your_choice", n=view["choice"])),
                    # The last to choose waits only for the host to reveal, not for "the others".
                    escape(t("table.all_chosen")) if done == view["seats"] else escape(t("kk.waiting")),
                    "" if done == view["seats"] else escape(waiting_count(done, view["seats"]))))

    def render_reveal(self, app, view):
        # A redraw later (another phone chose) must not deal the cards again; one while they are still being dealt
        # draws the same markup, so the page keeps the dealing nodes and "Nächste Runde" shows when `next` takes it
        # (drawn without the deal, the button showed at once and a tap on it was refused as too early).
        new = self.dealt.is_new(app, view["reveal"]["round"])
        motion = " deal" if not app.reduce_motion() and (new or app.now() < self.deal_ends) else ""
        last = view["outcome"] is not None
        go_on = button(t("kk.final_btn") if last else t("kk.next_round"), "next", "next-round",
                       kind="primary", extra="wide")
        controls = '<div class="controls">'
        if motion:
            # "Nächste Runde" comes with the round's winner, once the last card is down: a second tap or Enter
            # meant for "Karte bestätigen" must not skip the reveal before anyone saw it.
            cards = len(view["reveal"]["cards"])
            # Counted from the reveal's first drawing, not this one: a busy worker (seven computers choosing) drew
            # it again about a second later while it still counted as new, and a tap on the shown button was refused.
            self.deal_ends = self.dealt.first_drawn + DEAL_MS_PER_CARD * cards + DEAL_MS_BEFORE_WINNER
            controls = '<div class="controls after-deal" style="--n:%d">' % cards
        return ('<section class="kk-reveal-area" aria-labelledby="reveal-h"><h2 id="reveal-h" data-testid="reveal-title">%s</h2>'
                '%s%s%s</div></section>' % (
                    escape(t("kk.reveal_title", n=view["reveal"]["round"])), render_reveal_row(view, motion), controls, go_on))

    def render_panel(self, view):
        if self.panel is None:
            return ""
        return sheet("panel-log", t("kk.log_title"), render_log(view))

    # -- actions -----------------------------------------------------------------------
    def handle(self, app, action, value):
        if table_action(app, self.table, action):  # Speichern & pausieren, Neue Partie
            return
        view = self.table.view()
        if view is None:
            return
        phase = self.phase(view) if self.table.seat is not None else None
        if action == "select" and phase == "choose":
            number = int(value)
            if number in view["hand"]:
                self.selected = number
        elif action == "hint" and phase == "choose":
            hinted = self.tipp.ask(view, app)  # Tipp: the strong computer's card, chosen, to be confirmed
            if hinted is not None:
                self.selected = int(hinted.split(" ")[1])
        elif action == "confirm":
            self.confirm(app)
            return
        elif action == "next" and phase == "reveal":
            if app.now() < self.deal_ends:  # the cards are still being dealt (the button is not shown yet)
                return
            reveal_shown(self.table, view)
            app.scroll_to_top()  # the next round's number and scores are at the top
        elif action == "panel":
            self.panel = value
        elif action == "close-panel":
            self.panel = None
        app.rerender()

    def confirm(self, app):
        view = self.table.view()
        if view is None or self.selected is None or self.table.seat is None or self.phase(view) != "choose":
            return
        action = "play %d" % self.selected
        self.selected = None
        try:
            self.table.act(action)  # saved at once; the round is scored when every seat has chosen
        except IllegalAction as error:
            app.toast(refusal_text(error))
        app.rerender()

    def on_key(self, app, key):
        if self.table.seat is None:
            return False
        if self.panel is not None and key == "Escape":
            self.panel = None
            app.rerender()
            return True
        view = self.table.view()
        if view is None:
            return False
        phase = self.phase(view)
        if phase == "choose" and len(key) == 1 and key in "1234567890":
            number = 10 if key == "0" else int(key)
            if number in view["hand"]:
                self.selected = number
                app.rerender()
            else:  # said, not silent: the key was meant (an audit pressed a used card's number and heard nothing)
                app.toast(t("kk.not_in_hand", n=number))
            return True
        return key == "Enter" and self.press_enter(app)

    def leave(self, app):
        self.table.close()

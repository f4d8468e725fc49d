"""Punktejagd screens: start, table (choose, reveal), final standings, played cards and round log."""

from spieleabend.games import punktejagd as engine
from spieleabend.games.common import IllegalAction
from spieleabend.ui.hint import Hint
from spieleabend.ui.html import attrs, button, card_back, escape, number_card, seen_and_heard
from spieleabend.ui.i18n import register, t
from spieleabend.ui.shell import Screen, page, sheet, transfer_link
from spieleabend.ui.final import final_standings
from spieleabend.ui.table import (COMPUTER, PERSON, chosen_strength, refusal_text, reveal_due, reveal_shown, seat_player,
                                  table_action)

GAME = "punktejagd"
FLIGHT_MS = 1100  # how long cards fly and turn over; inputs wait for it

register({
    "pj.you": ("Du", "You"),
    "pj.round": ("Runde %(n)s von %(total)s", "Round %(n)s of %(total)s"),
    "pj.type.normal": ("Normal", "Normal"),
    "pj.type.kopfstand": ("Kopfstand", "Upside down"),
    "pj.type.gold": ("Goldrunde", "Gold round"),
    "pj.type_hint.normal": ("Die höchste einmalige Zahl ist am meisten wert.", "The highest unique number is worth most."),
    "pj.type_hint.kopfstand": ("Die niedrigste einmalige Zahl ist am meisten wert.", "The lowest unique number is worth most."),
    "pj.type_hint.gold": ("Normale Gewinnpositionen, doppelte Punkte.", "Normal winning positions, double points."),
    "pj.next": ("Als Nächstes: %(type)s", "Next: %(type)s"),
    "pj.last_round": ("Letzte Runde", "Last round"),
    "pj.points_total": ("%(n)s Punkte", "%(n)s points"),
    "pj.points_total_one": ("1 Punkt", "1 point"),
    "pj.plan_hidden": ("Plan steht verdeckt", "Plan ready, hidden"),
    "pj.thinking": ("überlegt …", "thinking …"),
    "pj.chip_free": ("Risiko-Chip frei", "Risk chip unused"),
    "pj.chip_used": ("Risiko-Chip verbraucht", "Risk chip spent"),
    "pj.your_hand": ("Deine Karten", "Your cards"),
    "pj.card": ("Karte %(n)s", "Card %(n)s"),
    "pj.card_of": ("Karte von %(name)s, verdeckt", "%(name)s's card, face down"),
    "pj.risk": ("Risiko einsetzen", "Use risk chip"),
    "pj.risk_on": ("Risiko aktiv", "Risk on"),
    "pj.risk_spent": ("Dein Risiko-Chip ist schon verbraucht – einen neuen gibt es erst in einer neuen Partie.",
                      "Your risk chip is already spent – you get a new one in a new game."),
    "pj.risk_hint": ("Mit Risiko brauchst du die beste einmalige Zahl: dann +3, sonst 0 Punkte.",
                     "With risk you need the best unique number: then +3, otherwise 0 points."),
    "pj.confirm": ("Plan bestätigen", "Confirm plan"),
    "pj.pick_first": ("Wähle zuerst eine Karte.", "Choose a card first."),
    "pj.selected": ("Gewählt: %(card)s%(risk)s", "Chosen: %(card)s%(risk)s"),
    "pj.with_risk": (" mit Risiko", " with risk"),
    "pj.merksatz": ("Merksatz: Rundenart lesen → Gegner einschätzen → Karte wählen → Risiko prüfen → bestätigen.",
                    "Rule of thumb: read the round type → judge the others → choose a card → check risk → confirm."),
    "pj.played_btn": ("Was wurde schon gespielt?", "What has been played?"),
    "pj.log_btn": ("Rundenprotokoll", "Round log"),
    "pj.reveal_title": ("Aufgedeckt: Runde %(n)s · %(type)s", "Revealed: round %(n)s · %(type)s"),
    "pj.blocked": ("blockiert", "blocked"),
    "pj.plus": ("+%(n)s", "+%(n)s"),
    "pj.you_got": ("Für dich: +%(n)s.", "For you: +%(n)s."),
    "pj.not_in_hand": ("Die %(n)s hast du schon gespielt.", "You have already played the %(n)s."),
    # The mark beside a revealed card: the word, a symbol the eye reads and what a screen reader hears instead.
    "pj.risk_mark": ("Risiko", "Risk"),
    "pj.risk_won": ("gewonnen", "won"),
    "pj.risk_lost": ("verloren", "lost"),
    "pj.risk_flag": ("mit Risiko-Chip", "with the risk chip"),
    "pj.why.none": ("Keine Zahl ist einmalig: Alle bekommen den Grundwert (%(n)s).",
                    "No number is unique: everyone gets the base value (%(n)s)."),
    "pj.why.only": ("Nur die %(card)s ist einmalig: %(n)s\u00a0Punkte.", "Only the %(card)s is unique: %(n)s\u00a0points."),
    "pj.why.best_high": ("Die %(card)s ist die höchste einmalige Zahl: %(n)s\u00a0Punkte.",
                         "The %(card)s is the highest unique number: %(n)s\u00a0points."),
    "pj.why.best_low": ("Die %(card)s ist die niedrigste einmalige Zahl: %(n)s\u00a0Punkte.",
                        "The %(card)s is the lowest unique number: %(n)s\u00a0points."),
    "pj.why.second": ("Die %(card)s kommt auf Platz 2: %(n)s\u00a0Punkte.", "The %(card)s comes second: %(n)s\u00a0points."),
    "pj.why.rest": ("Die übrigen bekommen den Grundwert (%(n)s).", "The others get the base value (%(n)s)."),
    "pj.why.risk_won": ("Risiko auf die %(card)s: %(n)s\u00a0Punkte Bonus.", "Risk on the %(card)s: %(n)s\u00a0bonus points."),
    "pj.why.risk_lost": ("Risiko auf die %(card)s gescheitert: 0\u00a0Punkte.", "Risk on the %(card)s failed: 0\u00a0points."),
    "pj.chip_legend": ("Risiko-Chip: %(free)s frei · %(used)s verbraucht", "Risk chip: %(free)s unused · %(used)s spent"),
    "pj.next_round": ("Nächste Runde", "Next round"),
    "pj.final_btn": ("Endwertung", "Final standings"),
    "pj.played_title": ("Was wurde schon gespielt?", "What has been played?"),
    "pj.played_none": ("Noch keine Karte.", "No card yet."),
    "pj.played_note": ("Gespielte Karten kann niemand erneut spielen. Aktuelle Entscheidungen bleiben verdeckt.",
                       "Played cards cannot be played again. Current choices stay hidden."),
    "pj.log_title": ("Rundenprotokoll", "Round log"),
    "pj.log_none": ("Noch keine Runde gewertet.", "No round scored yet."),
    "pj.log_round": ("Runde", "Round"),
    "pj.sum": ("Summe", "Total"),
    "pj.waiting_title": ("Plan steht", "Plan is set"),
    "pj.your_plan": ("Deine Karte: %(card)s%(risk)s", "Your card: %(card)s%(risk)s"),
    "pj.waiting": ("Warte auf die anderen: %(done)s von %(total)s haben gewählt.",
                   "Waiting for the others: %(done)s of %(total)s have chosen."),
    "pj.waiting_one": ("Warte auf die anderen: 1 von %(total)s hat gewählt.",
                       "Waiting for the others: 1 of %(total)s has chosen."),
    "pj.chosen": ("hat gewählt", "has chosen"),
    "pj.stand_in": ("Computer spielt", "computer plays"),
    "pj.away": ("weg", "away"),
    "pj.screen_waiting": ("Gewählt: %(done)s von %(total)s", "Chosen: %(done)s of %(total)s"),
    "pj.last_reveal": ("Letzte Runde: %(n)s · %(type)s", "Last round: %(n)s · %(type)s"),
})


def seat_name(view, seat):
    return view["names"][seat]


def round_reasons(entry):
    """Return why the seats of a revealed round scored what they did, in a few short sentences."""
    kind, cards, risks = entry["type"], entry["cards"], entry["risks"]
    best_points, second_points, base_points = engine.POINTS[kind]
    unique = engine.ranked_unique(cards, kind)
    said = []
    if not unique:
        said.append(t("pj.why.none", n=base_points))
    elif len(unique) == 1:
        said.append(t("pj.why.only", card=unique[0], n=best_points))
    else:
        said.append(t("pj.why.best_low" if kind == "kopfstand" else "pj.why.best_high", card=unique[0], n=best_points))
        said.append(t("pj.why.second", card=unique[1], n=second_points))
    if unique and [seat for seat in range(len(cards)) if cards[seat] not in unique[:2] and not risks[seat]]:
        said.append(t("pj.why.rest", n=base_points))
    for card in sorted(set(cards[seat] for seat in range(len(cards)) if risks[seat]), reverse=kind != "kopfstand"):
        if unique and card == unique[0]:
            said.append(t("pj.why.risk_won", card=card, n=engine.RISK_BONUS))
        else:
            said.append(t("pj.why.risk_lost", card=card))
    return " ".join(said)


def type_label(round_type):
    return t("pj.type." + round_type)


def replay_note(view, number):
    """Return the line a replay shows above the table: round `number` and its type ("Runde 6 von 10 · Goldrunde: …")."""
    kind = view["round_type"]
    if number != view["round"] or kind is None:  # the step that closed the round (or the game) shows its scoring
        closed = [entry["type"] for entry in view["log"] if entry["round"] == number]
        if not closed:
            return ""
        kind = closed[-1]
    return "%s · %s: %s" % (t("pj.round", n=number, total=view["round_count"]), type_label(kind),
                            t("pj.type_hint." + kind))


def setup_note(app):
    """Return the start screen's rule of thumb."""
    return t("pj.merksatz")


def upgrade_save(document):
    """Give a save from before tables existed its players list (person at 0, computers after)."""
    meta = document["meta"]
    if "players" not in meta:
        names = document["state"]["names"]
        style = chosen_strength(GAME, meta.get("style", "leicht"))
        meta["players"] = [seat_player(names[0], PERSON)] + [seat_player(n, COMPUTER, style) for n in names[1:]]
        meta["seat"] = 0
    return document


class TableScreen(Screen):
    """The table: choose a card and risk, confirm, watch the reveal, go on; final standings at the end."""

    route = "play/punktejagd/table"

    def enter_action(self):
        """Enter confirms the chosen card ("confirm") or goes on after the reveal ("next")."""
        if self.me is None:
            return None
        if self.phase == "choose" and self.selected is not None:
            return "confirm"
        if self.phase == "reveal" and not self.flying:
            return "next"
        return None

    def __init__(self, app, table):
        self.table = table
        self.selected = None
        self.risk = False
        self.flying = False
        self.flight_started = 0
        self.flown = None  # scored rounds whose cards have flown on this screen (None: not drawn yet)
        self.panel = None  # "played" or "log"
        self.timer = None
        self.drawing = None  # the view while one drawing runs (a room's view is rebuilt on each call)
        self.tipp = Hint(GAME)
        view = table.view()
        if view is not None:
            reveal_due(table, view)  # rounds scored before this screen opened count as seen
        table.listen(lambda event: self.changed(app))

    def changed(self, app):
        """The table's view changed: a round just scored flies in once, anything else is drawn again."""
        view = self.table.view()
        if view is not None and self.me is not None and self.phase == "reveal" and self.flown is not None \
                and len(view["log"]) > self.flown:
            self.flown = len(view["log"])
            self.start_flight(app)
        else:
            app.rerender()

    @property
    def me(self):
        """Return this device's seat (None: an infoscreen)."""
        return self.table.seat

    @property
    def phase(self):
        """Return "reveal" while a scored round waits to be seen, "final" once over, "waiting" (chosen, in a room), else "choose"."""
        view = self.drawing if self.drawing is not None else self.table.view()
        if reveal_due(self.table, view):  # the table keeps it: a reload shows the reveal again
            return "reveal"
        if view["outcome"] is not None:
            return "final"
        return "waiting" if view["plan"] is not None else "choose"

    # -- rendering -------------------------------------------------------------------
    def render(self, app):
        self.drawing = self.table.view()
        if self.flown is None and self.drawing is not None:
            self.flown = len(self.drawing["log"])  # a reveal open when the screen opened (a reload) does not fly
        try:
            return self.draw(app, self.drawing)
        finally:
            self.drawing = None

    def draw(self, app, view):
        if view is None:
            return page(t("game.punktejagd"), "", extra_class="pj")
        if self.me is None:
            if view["outcome"] is not None:
                shown = render_last_reveal(view) + final_standings(self.table, view["names"], view["outcome"])
            else:
                shown = render_infoscreen(view, self.table.seats())
            return page(t("game.punktejagd"), shown + self.render_panel(view), extra_class="pj pj-screen-page")
        phase = self.phase
        header = self.render_header(view, view["log"][-1] if phase == "reveal" else None)
        if phase == "final":
            body = final_standings(self.table, view["names"], view["outcome"])
        else:
            body = header + self.render_seats(view) + (
                self.render_reveal(app, view) if phase == "reveal" else
                self.render_waiting(view) if phase == "waiting" else self.render_choose(view))
        tools = ('<div class="tools">%s%s%s%s</div>' % (
            button(t("pj.played_btn"), "panel", "open-played", kind="ghost", data_value="played"),
            button(t("pj.log_btn"), "panel", "open-log", kind="ghost", data_value="log"),
            "" if phase == "final" or not self.table.can_pause() else button(t("table.pause"), "pause", "pause", kind="secondary"),
            transfer_link(GAME) if self.table.can_transfer() else ""))
        return page(t("game.punktejagd"), body + tools + self.render_panel(view), extra_class="pj")

    def render_header(self, view, revealed=None):
        """Return the round type and what comes next (of the revealed round while it is shown)."""
        if revealed is not None:
            number, kind, next_kind = revealed["round"], revealed["type"], view["round_type"]
        elif view["round"] is not None:
            number, kind, next_kind = view["round"], view["round_type"], view["next_round_type"]
        else:
            return ""
        upcoming = t("pj.next", type=type_label(next_kind)) if next_kind else t("pj.last_round")
        return ('<section class="round-head type-%s" data-testid="round-head" aria-live="polite">'
                '<p class="round-no" data-testid="round-number">%s</p>'
                '<p class="round-type"><span class="type-badge" data-testid="round-type">%s</span></p>'
                '<p class="type-hint">%s</p><p class="upcoming" data-testid="next-type">%s</p></section>' % (
                    kind, escape(t("pj.round", n=number, total=view["round_count"])),
                    escape(type_label(kind)), escape(t("pj.type_hint." + kind)), escape(upcoming)))

    def render_seats(self, view):
        items = []
        phase = self.phase
        info = self.table.seats()
        totals = list(view["totals"])
        if self.flying and view["log"]:  # the round's points count once its cards have turned over
            totals = [total - points for total, points in zip(totals, view["log"][-1]["points"])]
        for seat in range(view["seats"]):
            name = seat_name(view, seat)
            chip = t("pj.chip_used") if view["chips_spent"][seat] else t("pj.chip_free")
            if seat == self.me or phase not in ("choose", "waiting"):
                status = ""
                card = ""
            else:
                committed = view["committed"][seat]
                status = '<span class="status">%s</span>' % escape(t("pj.plan_hidden") if committed else t("pj.thinking"))
                card = card_back(t("pj.card_of", name=name), "small") if committed else ""
            status += seat_tags(info, seat)
            items.append(
                '<li class="seat%s" data-testid="seat-%d" data-seat="%d">%s<div class="seat-info"><span class="seat-name">%s</span>'
                '<span class="seat-total" data-testid="total-%d" data-points="%d">%s <span class="chip %s" title="%s">'
                '<span class="visually-hidden">%s</span></span></span>%s</div></li>' % (
                    " me" if seat == self.me else "", seat, seat, card, escape(name), seat, totals[seat],
                    escape(t("pj.points_total", n=totals[seat])),
                    "used" if view["chips_spent"][seat] else "free", escape(chip), escape(chip), status))
        # The dot beside each score is the risk chip: said once here, as a title is out of a finger's reach.
        legend = '<p class="chip-legend" aria-hidden="true">%s</p>' % t(
            "pj.chip_legend", free='<span class="chip free"></span>', used='<span class="chip used"></span>')
        return '<ul class="seats" aria-label="%s">%s</ul>%s' % (escape(t("pj.sum")), "".join(items), legend)

    def render_choose(self, view):
        hand = view["hand"]
        marks = self.tipp.marks(view)
        cards = "".join(number_card(n, t("pj.card", n=n), selected=(n == self.selected),
                                    action="select", testid="card-%d" % n, disabled=self.flying,
                                    hinted=self.tipp.mark(marks, str(n)))
                        for n in hand)
        chip_spent = view["chip_spent"]
        risk_button = ('<button%s>%s</button>' % (
            attrs(type="button", class_="btn btn-toggle risk", data_action="risk", data_testid="risk",
                  aria_pressed="true" if self.risk else "false", disabled=chip_spent or self.flying,
                  aria_describedby="risk-note", data_hinted=self.tipp.mark(marks, "risk")),
            escape(t("pj.risk_on") if self.risk else t("pj.risk"))))
        risk_note = t("pj.risk_spent") if chip_spent else t("pj.risk_hint")
        if self.selected is None:
            summary = t("pj.pick_first")
        else:
            summary = t("pj.selected", card=self.selected, risk=t("pj.with_risk") if self.risk else "")
        return (
            '<section class="hand-area" aria-labelledby="hand-h"><h2 id="hand-h">%s</h2>'
            '<div class="hand" role="group" aria-labelledby="hand-h" data-testid="hand" data-next-step>%s</div>'
            '<div class="turn-dock"><p class="summary" data-testid="selection" aria-live="polite">%s</p>'
            '<div class="controls">%s%s</div></div><div class="controls">%s</div>%s'
            '<p class="hint" id="risk-note" data-testid="risk-note">%s</p>'
            '<p class="hint merksatz">%s</p></section>' % (
                escape(t("pj.your_hand")), cards, escape(summary), risk_button,
                button(t("pj.confirm"), "confirm", "confirm", kind="primary",
                       disabled=self.selected is None or self.flying),
                self.tipp.button(view), self.tipp.line(view), escape(risk_note), escape(t("pj.merksatz"))))

    def render_waiting(self, view):
        """In a room: this seat's plan is set (committed, hidden from everyone) while others still choose."""
        plan = view["plan"]
        done = len([c for c in view["committed"] if c])
        return ('<section class="hand-area pj-waiting" aria-labelledby="wait-h"><h2 id="wait-h">%s</h2>'
                '<div class="pj-my-plan">%s<p data-testid="my-plan">%s</p></div>'
                '<p class="hint" data-testid="waiting" role="status">%s</p>'
                '<div class="hand mini-hand" data-testid="hand">%s</div></section>' % (
                    escape(t("pj.waiting_title")),
                    number_card(plan["card"], t("pj.card", n=plan["card"]), size="small"),
                    escape(t("pj.your_plan", card=plan["card"], risk=t("pj.with_risk") if plan["risk"] else "")),
                    escape(t("table.all_chosen") if done == view["seats"] else t("pj.waiting_one" if done == 1 else "pj.waiting", done=done, total=view["seats"])),
                    "".join(number_card(n, t("pj.card", n=n), size="small") for n in view["hand"])))

    def render_reveal(self, app, view):
        entry = view["log"][-1]
        cards = entry["cards"]
        counts = {}
        for card in cards:
            counts[card] = counts.get(card, 0) + 1
        motion = " fly" if self.flying else ""  # only while flying: a redraw after landing must not fly them again
        past = app.now() - self.flight_started if self.flying else 0
        items = []
        for seat in range(view["seats"]):
            card = cards[seat]
            blocked = counts[card] > 1
            points = entry["points"][seat]
            risk = ""
            if entry["risks"][seat]:
                won = points > 0
                risk = '<span class="risk-mark %s">%s %s</span>' % ("won" if won else "lost", escape(t("pj.risk_mark")),
                                                                  seen_and_heard("✓" if won else "✗", t("pj.risk_won") if won else t("pj.risk_lost")))
            items.append(
                '<li class="reveal-slot%s%s" style="--i:%d;--past:%dms" data-testid="reveal-%d" data-seat="%d">'
                '<div class="flip"><div class="flip-back">%s</div><div class="flip-front">%s</div></div>'
                '<span class="who">%s</span>%s<span class="pts" data-testid="points-%d">%s</span>%s</li>' % (
                    " blocked b%d" % card if blocked else "", motion + (" from-me" if seat == self.me else ""), seat, past, seat, seat,
                    card_back("", "small"), number_card(card, t("pj.card", n=card), size="small"),
                    escape(seat_name(view, seat)),
                    '<span class="blocked-tag">%s</span>' % escape(t("pj.blocked")) if blocked else "",
                    seat, escape(t("pj.plus", n=points)), risk))
        last = view["round"] is None
        go_on = button(t("pj.final_btn") if last else t("pj.next_round"), "next", "next-round",
                       kind="primary", disabled=self.flying, extra="wide")
        return ('<section class="reveal" aria-labelledby="reveal-h"><h2 id="reveal-h" data-testid="reveal-title">%s</h2>'
                '<ol class="reveal-row">%s</ol>%s<div class="controls">%s</div></section>' % (
                    escape(t("pj.reveal_title", n=entry["round"], type=type_label(entry["type"]))),
                    "".join(items), '<p class="pj-why" data-testid="reveal-why" role="status">%s</p>' % (
                        # Said once the cards have turned over: while they fly it gave the round away (an audit).
                        "" if self.flying else escape(round_reasons(entry)) + self.own_points_said(entry)), go_on))

    def own_points_said(self, entry):
        """Return what this seat scored, for a screen reader after the round's why (the eye reads it on the slot)."""
        if self.me is None or self.me >= len(entry["points"]):
            return ""
        return '<span class="visually-hidden"> %s</span>' % escape(t("pj.you_got", n=entry["points"][self.me]))

    def render_panel(self, view):
        if self.panel is None:
            return ""
        if self.panel == "played":
            title = t("pj.played_title")
            rows = []
            for seat in range(view["seats"]):
                used = view["played"][seat]
                cards = "".join(number_card(n, t("pj.card", n=n), size="small") for n in sorted(used))
                rows.append('<li><span class="who">%s</span><div class="mini-hand">%s</div></li>' % (
                    escape(seat_name(view, seat)), cards or '<span class="hint">%s</span>' % escape(t("pj.played_none"))))
            content = '<p class="hint">%s</p><ul class="played">%s</ul>' % (escape(t("pj.played_note")), "".join(rows))
        else:
            title = t("pj.log_title")
            content = self.render_log(view)
        return sheet("panel-" + self.panel, title, content)

    def render_log(self, view):
        if not view["log"]:
            return '<p class="hint">%s</p>' % escape(t("pj.log_none"))
        head = "".join('<th scope="col">%s</th>' % escape(seat_name(view, s)) for s in range(view["seats"]))
        rows = []
        for entry in view["log"]:
            cells = []
            for seat in range(view["seats"]):
                risk = " " + seen_and_heard("⚑", t("pj.risk_flag")) if entry["risks"][seat] else ""
                cells.append('<td><span class="log-card">%d%s</span><span class="log-pts">+%d</span></td>' % (
                    entry["cards"][seat], risk, entry["points"][seat]))
            # The round's type under its number: a column of its own left no room for a fourth player at 360 px.
            rows.append('<tr data-testid="log-row"><th scope="row">%d<span class="log-type">%s</span></th>%s</tr>' % (
                entry["round"], escape(type_label(entry["type"])), "".join(cells)))
        totals = "".join('<td data-testid="log-total-%d">%d</td>' % (s, view["totals"][s]) for s in range(view["seats"]))
        return ('<div class="table-scroll"><table class="log" data-testid="round-log"><thead><tr><th scope="col">%s</th>%s</tr></thead>'
                '<tbody>%s</tbody><tfoot><tr><th scope="row">%s</th>%s</tr></tfoot></table></div>' % (
                    escape(t("pj.log_round")), head, "".join(rows), escape(t("pj.sum")), totals))

    # -- actions -----------------------------------------------------------------------
    def handle(self, app, action, value):
        if table_action(app, self.table, action):  # Speichern & pausieren, Neue Partie
            return
        if action == "select" and self.phase == "choose" and not self.flying:
            self.selected = int(value)
        elif action == "risk" and self.phase == "choose":
            self.risk = not self.risk and not self.table.view()["chip_spent"]
        elif action == "confirm":
            self.confirm(app)
            return
        elif action == "hint" and self.phase == "choose" and not self.flying:
            self.take_hint(app, self.table.view())
        elif action == "next" and not self.flying:
            self.next_round(app)
            return
        elif action == "panel":
            self.panel = value
        elif action == "close-panel":
            self.panel = None
        app.rerender()

    def take_hint(self, app, view):
        """Tipp: choose the card (and the risk chip) the strong computer would play, to be confirmed."""
        action = self.tipp.ask(view, app)
        if action is not None:
            self.selected = int(action.split(" ")[1])
            self.risk = action.endswith(" risk")

    def confirm(self, app):
        if self.selected is None or self.phase != "choose" or self.flying:
            return
        action = "play %d%s" % (self.selected, " risk" if self.risk else "")
        self.selected = None
        self.risk = False
        try:
            self.table.act(action)  # saved at once; the round is scored (and flies in, see changed) once every seat chose
        except IllegalAction as error:
            app.toast(refusal_text(error))
            return
        if not self.flying:
            app.rerender()

    def start_flight(self, app):
        """Lock inputs while the cards fly; with reduced motion there is no flight."""
        if app.reduce_motion():
            app.rerender()
            return
        self.flying = True
        self.flight_started = app.now()
        app.rerender()

        def landed():
            self.flying = False
            self.timer = None
            app.rerender()
        self.timer = app.later(landed, FLIGHT_MS)

    def next_round(self, app):
        reveal_shown(self.table, self.table.view())
        app.rerender()
        app.scroll_to_top()  # the next round's number and type are at the top

    def on_key(self, app, key):
        if self.me is None:
            return False
        if self.panel is not None and key == "Escape":
            self.panel = None
            app.rerender()
            return True
        if self.phase == "choose" and key in "1234567890" and len(key) == 1:
            number = 10 if key == "0" else int(key)
            if number in self.table.view()["hand"]:
                self.handle(app, "select", str(number))
            else:  # said, not silent (an audit pressed a played card's number and heard nothing)
                app.toast(t("pj.not_in_hand", n=number))
            return True
        return key == "Enter" and self.press_enter(app)

    def leave(self, app):
        if self.timer is not None:
            app.cancel(self.timer)
        self.table.close()


def seat_tags(info, seat):
    """Return the room marks of a seat: away, or played by a computer standing in."""
    if seat >= len(info):
        return ""
    entry = info[seat]
    if entry.get("stand_in"):
        return '<span class="tag stand-in" data-testid="stand-in-%d">%s</span>' % (seat, escape(t("pj.stand_in")))
    if entry.get("away"):
        return '<span class="tag away" data-testid="away-%d">%s</span>' % (seat, escape(t("pj.away")))
    return ""


def render_infoscreen(view, info):
    """The running table for a TV or tablet: large type, landscape, public facts only (who chose, never what)."""
    done = len([c for c in view["committed"] if c])
    head = ('<header class="pj-screen-head type-%s"><p class="round-no" data-testid="round-number">%s</p>'
            '<p class="type-badge" data-testid="round-type">%s</p><p class="type-hint">%s</p>'
            '<p class="pj-screen-count" data-testid="chosen-count">%s</p></header>' % (
                view["round_type"], escape(t("pj.round", n=view["round"], total=view["round_count"])),
                escape(type_label(view["round_type"])), escape(t("pj.type_hint." + view["round_type"])),
                escape(t("pj.screen_waiting", done=done, total=view["seats"]))))
    seats = []
    for seat in range(view["seats"]):
        chosen = view["committed"][seat]
        seats.append('<li class="pj-screen-seat%s" data-seat="%d" data-testid="seat-%d">%s<span class="who">%s</span>'
                     '<span class="total" data-testid="total-%d" data-points="%d">%d</span><span class="state">%s</span>%s</li>' % (
                         " chosen" if chosen else "", seat, seat,
                         card_back(t("pj.card_of", name=seat_name(view, seat)), "small") if chosen else '<span class="card-slot"></span>',
                         escape(seat_name(view, seat)), seat, view["totals"][seat], view["totals"][seat],
                         escape(t("pj.chosen") if chosen else t("pj.thinking")), seat_tags(info, seat)))
    return ('<div class="pj-screen">%s<ol class="pj-screen-seats">%s</ol>%s</div>' % (head, "".join(seats), render_last_reveal(view)))


def render_last_reveal(view):
    """The round revealed last, for everybody (a TV, or one device several people share once the game is over)."""
    reveal = ""
    if view["log"]:
        entry = view["log"][-1]
        slots = []
        for seat in range(view["seats"]):
            card = entry["cards"][seat]
            blocked = entry["cards"].count(card) > 1
            # The word as well as the red ring: a ring alone says nothing to a colour-blind eye or a screen reader.
            slots.append(
                '<li class="reveal-slot%s" data-seat="%d"><span class="who">%s</span>%s%s<span class="pts">%s</span></li>' % (
                    " blocked" if blocked else "", seat, escape(seat_name(view, seat)),
                    number_card(card, t("pj.card", n=card), size="small"),
                    '<span class="blocked-tag">%s</span>' % escape(t("pj.blocked")) if blocked else "",
                    escape(t("pj.plus", n=entry["points"][seat]) + (" ⚑" if entry["risks"][seat] else ""))))
        slots = "".join(slots)
        # No line of why here: a TV's screen is full with six seats, and every phone says it under its reveal.
        reveal = ('<section class="pj-screen-reveal" data-testid="screen-reveal"><h2>%s</h2><ol class="reveal-row">%s</ol></section>' % (
            escape(t("pj.last_reveal", n=entry["round"], type=type_label(entry["type"]))), slots))
    return reveal

"""Watch a finished game again (#/replay/<id>), move by move, and share it (#/replay/<id>/share).

The engine rebuilds the game from the stored record (games.replay); this screen only words and
draws the states: every hand open, or what one chosen seat could see at that moment. The same
screen serves all games: cards come from the engine's replay_cards, totals from its progress.
"""

from spieleabend.games import GAME_MODULES, load as load_engine, score_text
from spieleabend.games.replay import Replay, ReplayProblem, engine_version
from spieleabend.ui.html import button, card_back, card_name, escape, french_card, number_card
from spieleabend.ui.i18n import TEXTS, game_name, register, round_label, t
from spieleabend.ui.shell import Screen, page
from spieleabend.ui.transfer import TransferScreen

PLAY_MS = 1000  # one step a second while playing
BUILD_SLICE_MS = 120  # rebuilding works this long before the page may draw again

register({
    "rp.title": ("Aufzeichnung", "Replay"),
    "rp.share": ("Teilen", "Share"),
    "rp.share_title": ("Aufzeichnung teilen", "Share the replay"),
    "rp.share_intro": ("Die andere Person öffnet die Datei oder den Code mit „Spiel öffnen“ und sieht die ganze "
                       "Partie Zug für Zug.", "The other person opens the file or the code with \u201cOpen a game\u201d "
                       "and watches the whole game move by move."),
    "rp.back_to": ("Zurück zur Aufzeichnung", "Back to the replay"),
    "rp.results": ("Zu den Ergebnissen", "To the results"),
    "rp.step": ("Schritt %(n)s von %(of)s", "Step %(n)s of %(of)s"),
    "rp.start": ("Anfang", "Start"),
    "rp.back": ("Zurück", "Back"),
    "rp.forward": ("Vor", "Forward"),
    "rp.end": ("Ende", "End"),
    "rp.play": ("Abspielen", "Play"),
    "rp.pause": ("Anhalten", "Pause"),
    "rp.tap_pause": ("Tippen zum Anhalten", "Tap to pause"),
    "rp.jump": ("Springen zu", "Jump to"),
    "rp.whose": ("Karten", "Cards"),
    "rp.all_open": ("Alle Karten offen", "All cards open"),
    "rp.seen_by": ("Sicht von %(name)s", "As %(name)s saw it"),
    "rp.building": ("Die Partie wird mit den Regeln nachgespielt … %(n)s %%", "Rebuilding the game with the rules … %(n)s %%"),
    "rp.dealt": ("Die Karten sind verteilt.", "The cards are dealt."),
    "rp.middle": ("Tisch", "Table"),
    "rp.role_discard": ("Ablage", "Discard"),
    "rp.role_drawn": ("Gezogen", "Drawn"),
    "rp.points": ("%(n)s Pkt.", "%(n)s pts"),
    "rp.points_one": ("%(n)s Pkt.", "%(n)s pt"),
    "rp.over": ("Ende der Partie: %(names)s gewinnt.", "End of the game: %(names)s wins."),
    "rp.over_shared": ("Ende der Partie: %(names)s teilen sich den Sieg.", "End of the game: %(names)s share the win."),
    "rp.over_none": ("Ende der Partie: kein Sieger.", "End of the game: no winner."),
    "rp.round_done": ("%(round)s: %(gains)s", "%(round)s: %(gains)s"),
    "rp.gain": ("%(name)s %(delta)s", "%(name)s %(delta)s"),
    "rp.paid": ("Bonus: %(gains)s", "Bonus: %(gains)s"),
    "rp.chose": ("%(name)s hat gewählt.", "%(name)s has chosen."),
    "rp.joined": ("%(name)s setzt sich an den Tisch.", "%(name)s joins the table."),
    "rp.left": ("%(name)s verlässt den Tisch.", "%(name)s leaves the table."),
    "rp.verb.play": ("%(name)s legt %(cards)s", "%(name)s plays %(cards)s"),
    "rp.verb.draw": ("%(name)s zieht.", "%(name)s draws."),
    "rp.verb.pass": ("%(name)s passt.", "%(name)s passes."),
    "rp.verb.knock": ("%(name)s klopft.", "%(name)s knocks."),
    "rp.verb.ready": ("%(name)s ist bereit.", "%(name)s is ready."),
    "rp.verb.discard": ("%(name)s wirft die gezogene Karte ab.", "%(name)s discards the drawn card."),
    # Golf's places by the words its Tipp uses ("Position 2"); "next" is being ready for the next deal.
    "rp.verb.swap": ("%(name)s tauscht die gezogene Karte gegen Position %(n)s.",
                     "%(name)s swaps the drawn card for position %(n)s."),
    "rp.verb.take": ("%(name)s nimmt die offene Karte und legt sie an Position %(n)s.",
                     "%(name)s takes the open card and puts it in position %(n)s."),
    "rp.verb.next": ("%(name)s ist bereit.", "%(name)s is ready."),
    "rp.verb.stop": ("%(name)s beendet die Partie.", "%(name)s stops the game."),
    "rp.verb.other": ("%(name)s: %(action)s", "%(name)s: %(action)s"),
    "rp.with_risk": ("%(text)s und setzt den Risiko-Chip", "%(text)s and bets the risk chip"),
    "rp.wish": ("%(text)s und wünscht %(suit)s", "%(text)s and calls %(suit)s"),
    # The same for this device's own person under the name it never typed ("Du"): "Du legst", not "Du legt".
    "rp.verb.play_you": ("Du legst %(cards)s", "You play %(cards)s"),
    "rp.verb.draw_you": ("Du ziehst.", "You draw."),
    "rp.verb.pass_you": ("Du passt.", "You pass."),
    "rp.verb.knock_you": ("Du klopfst.", "You knock."),
    "rp.verb.ready_you": ("Du bist bereit.", "You are ready."),
    "rp.verb.discard_you": ("Du wirfst die gezogene Karte ab.", "You discard the drawn card."),
    "rp.verb.swap_you": ("Du tauschst die gezogene Karte gegen Position %(n)s.", "You swap the drawn card for position %(n)s."),
    "rp.verb.take_you": ("Du nimmst die offene Karte und legst sie an Position %(n)s.",
                         "You take the open card and put it in position %(n)s."),
    "rp.verb.next_you": ("Du bist bereit.", "You are ready."),
    "rp.verb.stop_you": ("Du beendest die Partie.", "You stop the game."),
    "rp.verb.other_you": ("Du: %(action)s", "You: %(action)s"),
    "rp.with_risk_you": ("%(text)s und setzt den Risiko-Chip", "%(text)s and bet the risk chip"),
    "rp.wish_you": ("%(text)s und wünschst %(suit)s", "%(text)s and call %(suit)s"),
    "rp.chose_you": ("Du hast gewählt.", "You have chosen."),
    "rp.over_you": ("Ende der Partie: Du gewinnst.", "End of the game: you win."),
    "rp.seen_by_you": ("Deine Sicht", "As you saw it"),
    "rp.mau": ("%(text)s – Mau!", "%(text)s – Mau!"),
    "rp.problem.gone": ("Diese Aufzeichnung gibt es auf diesem Gerät nicht (mehr).",
                        "This replay is not (or no longer) on this device."),
    "rp.problem.unknown_game": ("Diese Version von Spieleabend kennt dieses Spiel nicht.",
                                "This version of Game Night does not know this game."),
    "rp.problem.damaged": ("Die Aufzeichnung ist beschädigt und lässt sich nicht zeigen. Es wurde nichts geändert.",
                           "The replay is damaged and cannot be shown. Nothing was changed."),
    "rp.problem.rebuild": ("Diese Aufzeichnung lässt sich nicht genau nachspielen (Schritt %(step)s passt nicht "
                           "zu den Regeln). Sie wird nicht falsch gezeigt; es wurde nichts geändert.",
                           "This replay cannot be rebuilt exactly (step %(step)s does not fit the rules). It is "
                           "not shown wrongly; nothing was changed."),
    "rp.problem.version": ("Diese Aufzeichnung stammt aus einer %(which)s Version der Regeln und ergibt mit dieser "
                           "Version nicht mehr dieselbe Partie. Sie wird nicht falsch gezeigt; es wurde nichts geändert.",
                           "This replay comes from %(which)s version of the rules and no longer rebuilds the same "
                           "game with this one. It is not shown wrongly; nothing was changed."),
    "rp.newer": ("neueren", "a newer"),
    "rp.older": ("älteren", "an older"),
    "rp.none": ("Keine Aufzeichnung", "No replay"),
})


def open_replay(app, replay_id):
    """Return (document, Replay ready to rebuild or None, problem text or None) for a stored replay."""
    document = app.storage.load_replay(replay_id)
    if document is None:  # there but unreadable is damaged, not gone
        return None, None, t("rp.problem.damaged" if str(replay_id) in app.storage.replay_ids() else "rp.problem.gone")
    if document["game"] not in GAME_MODULES:
        return document, None, t("rp.problem.unknown_game")
    engine = load_engine(document["game"])
    try:
        return document, Replay(engine, document).start(), None  # the screen rebuilds it in slices
    except ReplayProblem as problem:
        return document, None, problem_text(engine, document, problem)


def problem_text(engine, document, problem):
    """Word why a record does not rebuild: another version of the rules, or a step the rules refuse."""
    if document["version"] != engine_version(engine):
        return t("rp.problem.version", which=t("rp.newer") if document["version"] > engine_version(engine) else t("rp.older"))
    if problem.reason in ("damaged", "options"):
        return t("rp.problem.damaged")
    return t("rp.problem.rebuild", step=(problem.step or 0) + 1)


def card_html(card):
    """Return one card as the tables draw it: a number card, a French card, or its back when unseen."""
    if card is None:
        return card_back(t("card.back"), "small")
    if isinstance(card, int):
        return number_card(card, str(card), size="small")
    return french_card(card, size="small")


def cards_words(cards):
    """Return cards as spoken words ("Herz 7, Pik 7"; numbers as they are)."""
    out = []
    for card in cards:
        out.append(card if card.isdigit() else card_name(card))
    return ", ".join(out)


def action_words(name, action, you=False):
    """Return one action in words, from the verbs all games share ("Ben legt Herz 7"; `you`: "Du legst Herz 7")."""
    own = "_you" if you else ""
    words = action.split(" ")
    verb = words[0]
    if verb == "play":
        rest = [word for word in words[1:] if word not in ("risk", "mau")]
        wish = None
        cards = []
        for word in rest:
            if ":" in word:
                card, wish = word.split(":", 1)
                cards.append(card)
            else:
                cards.append(word)
        text = t("rp.verb.play" + own, name=name, cards=cards_words(cards))
        if wish:
            text = t("rp.wish" + own, text=text, suit=t("card." + wish))
        if "risk" in words:
            text = t("rp.with_risk" + own, text=text)
        if "mau" in words:
            text = t("rp.mau", text=text)
        return text if text.endswith("!") else text + "."
    if verb in ("swap", "take") and len(words) == 2 and words[1].isdigit():
        return t("rp.verb." + verb + own, name=name, n=int(words[1]) + 1)
    if verb in ("draw", "pass", "knock", "ready", "discard", "next", "stop") and len(words) == 1:
        return t("rp.verb." + verb + own, name=name)
    return t("rp.verb.other" + own, name=name, action=action)


def gain_text(game, delta):
    """Return what a seat gained as the game's table writes it: Mau-Mau's minus points "−21", else "+3", "−2"."""
    text = score_text(game, delta)
    if text.startswith("-"):
        return "\u2212" + text[1:]
    if delta > 0 and not text.startswith("+") and not text.startswith("\u2212"):
        return "+" + text
    return text


class ReplayScreen(Screen):
    """One finished game, step by step: forward, back, rounds, the end, play; all open or one seat's view."""

    keys = "ArrowLeft ArrowRight Home End"

    def __init__(self, app, replay_id, received=False):
        self.route = "replay/" + replay_id + ("/received" if received else "")
        self.replay_id = replay_id
        self.received = received  # just taken from a file or a code: kept only if it rebuilds
        self.document, self.replay, self.problem = open_replay(app, replay_id)
        self.forget_if_refused(app)
        self.step = 0
        self.seat_view = None  # None: every hand open; else the seat whose view is shown
        self.start_scores = {}  # round number -> the totals as it began
        self.you = None  # this device's person's seat where they play as "Du" (see own_person)
        self.timer = None
        self.building = None  # the timer of the next slice of the rebuild
        if self.replay is not None:
            self.engine = self.replay.engine
            self.names = list(self.document["names"])
            self.you = self.own_person(app, replay_id)
            self.building = app.later(lambda: self.build_slice(app), 0)

    def own_person(self, app, replay_id):
        """Return the seat this device's person played under the name they never typed ("Du"), or None.

        Only in a replay of this device's own game (one of its results): in a replay someone sent, "Du" is
        the sender, and the words stay "Du legt"."""
        own = [result for result in app.storage.results() if result.get("replay") == replay_id]
        seat = own[0].get("seat") if own else None
        if isinstance(seat, int) and 0 <= seat < len(self.names) and self.names[seat] in TEXTS["setup.name_placeholder"]:
            return seat
        return None

    def build_slice(self, app):
        """Rebuild the game for a moment, then let the page draw how far it got (a long game takes seconds)."""
        self.building = None
        if app.screen is not self or self.replay is None:
            return
        began = app.now()
        try:
            while not self.replay.advance(10):
                if app.now() - began > BUILD_SLICE_MS:
                    self.building = app.later(lambda: self.build_slice(app), 0)
                    break
        except ReplayProblem as problem:
            self.problem = problem_text(self.engine, self.document, problem)
            self.replay = None
        except Exception:  # an engine tripping over a hostile record: shown as damaged, never as a game
            self.problem = t("rp.problem.damaged")
            self.replay = None
        self.forget_if_refused(app)
        app.rerender()

    def forget_if_refused(self, app):
        """A replay just received that does not rebuild is not kept: the problem says nothing was changed."""
        if self.received and self.problem is not None and self.document is not None:
            app.storage.delete_replay(self.replay_id)
            self.received = False

    # -- drawing ---------------------------------------------------------------------------------
    def render(self, app):
        title = t("rp.title")
        if self.replay is not None and not self.replay.built:
            share = int(self.replay.share_built() * 100)
            body = ('<p class="replay-meta"><strong>%s</strong></p><p role="status" data-testid="replay-building">%s</p>'
                    '<progress max="100" value="%d" aria-label="%s"></progress>' % (
                        escape(game_name(self.document["game"])), escape(t("rp.building", n=share)), share,
                        escape(t("rp.building", n=share))))
            return page(title, body, extra_class="replay-screen")
        if self.replay is None:
            body = '<div class="notice warn" role="alert" data-testid="replay-problem"><p>%s</p></div>%s' % (
                escape(self.problem), self.links(False))
            return page(title, body, extra_class="replay-screen")
        document = self.document
        state = self.replay.state_at(self.step)
        public = self.engine.view(state, None)
        names = public["names"]
        total = self.replay.count()
        round_number = self.shown_round()
        when = app.format_time(document["finished_at"]) if "finished_at" in document and document["finished_at"] else ""
        head = '<p class="replay-meta"><strong>%s</strong>%s</p>' % (
            escape(game_name(document["game"])), (" · " + escape(when)) if when else "")  # no dot before nothing
        where = ('<p class="replay-where" data-testid="replay-step" data-step="%d" data-steps="%d" data-round="%d">'
                 '<span>%s</span> · <span>%s</span></p>' % (
                     self.step, total, round_number, escape(round_label(self.document["game"], round_number)),
                     escape(t("rp.step", n=self.step, of=total))))
        words = '<p class="replay-words" data-testid="replay-words" aria-live="polite">%s</p>' % escape(
            self.words(state))
        # The step, its words and the step buttons stay together at the foot of the screen (a dock): on a
        # large table (Golf at eight seats) a tap on ▶ and what it did are both in sight, not a screen apart.
        buttons, choices = self.controls(names)
        dock = '<div class="replay-dock" data-testid="replay-dock">%s%s%s</div>' % (where, words, buttons)
        parts = [head, self.table_html(state, public, names), dock, choices]
        if self.timer is not None:
            # While playing, the whole screen is one pause button: any tap stops it.
            parts.append('<button type="button" class="replay-cover" data-action="pause" data-testid="replay-tap-pause">'
                         '<span>%s</span></button>' % escape(t("rp.tap_pause")))
        parts.append(self.links(True))
        return page(title, "".join(parts), extra_class="replay-screen")

    def table_html(self, state, public, names):
        """Return the middle of the table and every seat's cards as this view may show them."""
        cards = self.cards(state)
        scores = self.engine.progress(public)["scores"]
        last_seat = self.last_actor()
        middle = ""
        if cards["middle"]:
            shown = [card_html(card) for card in cards["middle"]]
            captions = None
            if "middle_seats" in cards:  # whose card each is (a round's secret choices, its reveal)
                captions = [names[seat] if seat < len(names) else "" for seat in cards["middle_seats"]]
            elif "middle_roles" in cards:  # what each is (Golf's discard pile and the card just drawn)
                captions = [t("rp.role_" + role) for role in cards["middle_roles"]]
            if captions is not None:
                shown = ['<span class="replay-slot">%s<span class="who">%s</span></span>' % (shown[index], escape(captions[index]))
                         for index in range(len(shown))]
            middle = '<div class="replay-middle" data-testid="replay-middle"><span class="label">%s</span>%s</div>' % (
                escape(t("rp.middle")), "".join(shown))
        note = self.note(public)
        if note:
            middle = '<p class="replay-note" data-testid="replay-note">%s</p>%s' % (escape(note), middle)
        rows = []
        # A game may lay its cards out in rows ("columns": Golf's two by two, as its own table shows them).
        layout = " columns-%d" % cards["columns"] if "columns" in cards else ""
        for seat in range(len(names)):
            hand = cards["hands"][seat] if seat < len(cards["hands"]) else []
            score = scores[seat] if seat < len(scores) else 0
            # "−12" as the game's table writes it; "1 pt", not "1 pts"
            points = t("rp.points_one" if score in (1, -1) else "rp.points", n=score_text(self.document["game"], score))
            classes = "replay-seat" + (" acted" if seat == last_seat else "") + (" viewer" if seat == self.seat_view else "")
            rows.append('<li class="%s" data-testid="replay-seat" data-seat="%d"><div class="replay-name">'
                        '<strong>%s</strong><span class="replay-score">%s</span></div>'
                        '<div class="replay-hand%s" data-testid="replay-hand-%d">%s</div></li>' % (
                            classes, seat, escape(names[seat]), escape(points), layout, seat,
                            "".join([card_html(card) for card in hand])))
        # Hands of a few cards in rows (Golf's four) leave room for two seats side by side, even at 360 px.
        seats_class = "replay-seats pairs" if layout else "replay-seats"
        return '<section class="replay-table" aria-label="%s">%s<ul class="%s">%s</ul></section>' % (
            escape(t("rp.whose")), middle, seats_class, "".join(rows))

    def note(self, public):
        """Return what the game's screen module says above a replay's table (`replay_note(public view, round)`:
        the round the step tells, Punktejagd's round type, which decides its points), or ""."""
        from spieleabend.ui.table import screen_module

        plugin = screen_module(self.document["game"])
        return plugin.replay_note(public, self.shown_round()) if hasattr(plugin, "replay_note") else ""

    def cards(self, state):
        """Return {"hands", "middle"}: the engine's replay_cards, else each seat's own "hand" from its view."""
        if hasattr(self.engine, "replay_cards"):
            return self.engine.replay_cards(state, self.seat_view)
        hands = []
        for seat in range(len(self.engine.view(state, None)["names"])):
            view = self.engine.view(state, seat)
            hand = list(view["hand"]) if "hand" in view and isinstance(view["hand"], list) else []
            hands.append(hand if self.seat_view is None or self.seat_view == seat else [None] * len(hand))
        return {"hands": hands, "middle": []}

    def controls(self, names):
        """Return (the step buttons, Abspielen with the choices of round and view) as two pieces of HTML."""
        total = self.replay.count()
        at_start = self.step == 0
        at_end = self.step >= total
        playing = self.timer is not None
        buttons = "".join([
            button("|◀", "start", "replay-start", kind="secondary", disabled=at_start, aria_label=t("rp.start")),
            button("◀", "back", "replay-back", kind="secondary", disabled=at_start, aria_label=t("rp.back")),
            button("▶", "forward", "replay-forward", kind="secondary", disabled=at_end, aria_label=t("rp.forward")),
            button("▶|", "end", "replay-end", kind="secondary", disabled=at_end, aria_label=t("rp.end")),
        ])
        play = button(t("rp.pause") if playing else t("rp.play"), "play", "replay-play", kind="primary",
                      disabled=at_end and not playing, extra="replay-play")  # its words say the state: no aria-pressed
        rounds = ['<option value="%d"%s>%s</option>' % (
            index, " selected" if self.shown_round() == index + 1 else "", escape(round_label(self.document["game"], index + 1)))
            for index in range(len(self.replay.round_starts))]
        seats = ['<option value=""%s>%s</option>' % ("" if self.seat_view is not None else " selected",
                                                    escape(t("rp.all_open")))]
        for seat in range(len(names)):
            seats.append('<option value="%d"%s>%s</option>' % (seat, " selected" if seat == self.seat_view else "",
                                                               escape(t("rp.seen_by_you") if seat == self.you
                                                                      else t("rp.seen_by", name=names[seat]))))
        return ('<div class="replay-controls row" role="group" aria-label="%s">%s</div>' % (escape(t("rp.title")), buttons),
                play + '<div class="replay-choices"><label class="label" for="replay-round">%s</label>'
                '<select id="replay-round" data-input="round" data-testid="replay-round">%s</select>'
                '<label class="label" for="replay-seat">%s</label>'
                '<select id="replay-seat" data-input="seat" data-testid="replay-seat-view">%s</select></div>' % (
                    escape(t("rp.jump")), "".join(rounds), escape(t("rp.whose")), "".join(seats)))

    def links(self, share):
        parts = []
        if share:
            parts.append('<a class="btn btn-secondary" href="#/replay/%s/share" data-testid="replay-share">%s</a>' % (
                escape(self.replay_id), escape(t("rp.share"))))
        parts.append('<a class="btn btn-ghost" href="#/results" data-testid="replay-results">%s</a>' % escape(
            t("rp.results")))
        return '<p class="row wrap">%s</p>' % "".join(parts)

    # -- words for a step ----------------------------------------------------------------------
    def shown_round(self):
        """Return the round (deal) of the step the words tell: the step that closes a round is still that round's."""
        return self.replay.round_of(self.step - 1) if self.step > 0 else 1

    def last_actor(self):
        if self.step == 0:
            return None
        entry = self.replay.steps[self.step - 1]
        return entry[1] if entry[0] == "act" else None

    def words(self, state):
        """Return what the last step did, and the round's result or the game's end when that step closed them."""
        if self.step == 0:
            return t("rp.dealt")
        entry = self.replay.steps[self.step - 1]
        before = self.replay.state_at(self.step - 1)
        names_before = self.engine.view(before, None)["names"]
        if entry[0] == "add":
            text = t("rp.joined", name=entry[1])
        elif entry[0] == "remove":
            text = t("rp.left", name=names_before[entry[1]])
        else:
            name = names_before[entry[1]]
            hidden = self.engine.INFO["secret_choices"] and self.seat_view is not None and self.seat_view != entry[1] \
                and self.replay.round_of(self.step) == self.replay.round_of(self.step - 1) \
                and self.engine.outcome(state) is None
            you = entry[1] == self.you
            text = t("rp.chose_you" if you else "rp.chose", name=name) if hidden else action_words(name, entry[2], you)
        names = self.engine.view(state, None)["names"]
        done_before = self.engine.progress(self.engine.view(before, None))
        done_after = self.engine.progress(self.engine.view(state, None))
        if len(done_after["scores"]) == len(done_before["scores"]):
            if done_after["done"] > done_before["done"]:
                # The whole round's gains, also what was paid before its last step (Pao De Kuai's bomb bonus).
                gains = self.gains(self.round_start_scores(done_after["done"], done_before["scores"]), done_after["scores"], names)
                if gains:
                    text += " " + t("rp.round_done", round=round_label(self.document["game"], done_after["done"]),
                                    gains=gains) + "."
            else:
                gains = self.gains(done_before["scores"], done_after["scores"], names)
                if gains:  # paid during a round: a viewer sees it when it happens
                    text += " " + t("rp.paid", gains=gains) + "."
        outcome = self.engine.outcome(state)
        if outcome is not None:  # the last round's result first (as every round's), then the game's end
            winners = [names[seat] for seat in outcome["winners"]]
            if len(winners) == 1:
                return text + " " + (t("rp.over_you") if outcome["winners"][0] == self.you else t("rp.over", names=winners[0]))
            if winners:
                return text + " " + t("rp.over_shared", names=", ".join(winners))
            return text + " " + t("rp.over_none")
        return text

    def gains(self, before, after, names):
        """Return "Anna +8, Ben −6": each seat whose total changed, in the game's own way of writing it."""
        return ", ".join([t("rp.gain", name=names[seat], delta=gain_text(self.document["game"], after[seat] - before[seat]))
                          for seat in range(len(names)) if after[seat] != before[seat]])

    def round_start_scores(self, number, fallback):
        """Return the totals as round `number` (from 1) began, or `fallback` when the replay cannot tell."""
        starts = self.replay.round_starts
        if number - 1 >= len(starts):
            return fallback
        if number not in self.start_scores:  # a state per round, once: rebuilding one costs in the browser
            at = self.replay.state_at(starts[number - 1])
            self.start_scores[number] = self.engine.progress(self.engine.view(at, None))["scores"]
        scores = self.start_scores[number]
        return scores if len(scores) == len(fallback) else fallback

    # -- taps ------------------------------------------------------------------------------------
    def go_to(self, step):
        self.step = max(0, min(step, self.replay.count()))

    def handle(self, app, action, value):
        if self.replay is None or not self.replay.built:
            return
        if action == "play":
            if self.timer is None and self.step < self.replay.count():
                self.timer = app.later(lambda: self.tick(app), PLAY_MS)
            else:
                self.stop(app)
            app.rerender()
            return
        self.stop(app)  # any other tap pauses the playing
        if action == "start":
            self.go_to(0)
        elif action == "back":
            self.go_to(self.step - 1)
        elif action == "forward":
            self.go_to(self.step + 1)
        elif action == "end":
            self.go_to(self.replay.count())
        app.rerender()

    def on_input(self, app, name, value, final):
        if self.replay is None or not self.replay.built:
            return
        self.stop(app)
        if name == "round" and value is not None and str(value).isdigit():
            index = int(value)
            if 0 <= index < len(self.replay.round_starts):
                # A later round from its first step: the state before it is the step that closed the one before.
                self.go_to(self.replay.round_starts[index] + (1 if index else 0))
        elif name == "seat":
            self.seat_view = int(value) if value is not None and str(value).isdigit() and \
                int(value) < len(self.names) else None
        app.rerender()

    def on_key(self, app, key):
        if key == "Escape" and self.timer is not None:  # as any tap does while it plays
            self.handle(app, "pause", None)
            return True
        action = {"ArrowLeft": "back", "ArrowRight": "forward", "Home": "start", "End": "end"}
        if key in action and self.replay is not None and self.replay.built:
            self.handle(app, action[key], None)
            return True
        return False

    def tick(self, app):
        """One step while playing; stop at the end."""
        self.timer = None
        if app.screen is not self or self.replay is None:
            return
        self.go_to(self.step + 1)
        if self.step < self.replay.count():
            self.timer = app.later(lambda: self.tick(app), PLAY_MS)
        app.rerender()

    def stop(self, app):
        if self.timer is not None:
            app.cancel(self.timer)
            self.timer = None

    def leave(self, app):
        self.stop(app)
        if self.building is not None:
            app.cancel(self.building)
            self.building = None


class ReplayShareScreen(TransferScreen):
    """Offer a stored replay as a file and by one-time code and QR code (transfer's ways, for a replay)."""

    asks_if_taken = False  # a shared replay stays here as well: nothing to delete once it is fetched

    def __init__(self, replay_id):
        TransferScreen.__init__(self, "")
        self.replay_id = replay_id
        self.route = "replay/%s/share" % replay_id

    def document(self, app):
        return app.storage.load_replay(self.replay_id)

    def filename(self, document):
        return "spieleabend-aufzeichnung-%s.json" % self.replay_id  # the id names the game already

    def render(self, app):
        back = '<p><a class="btn btn-ghost" href="#/replay/%s" data-testid="replay-share-back">%s</a></p>' % (
            escape(self.replay_id), escape(t("rp.back_to")))
        if self.document(app) is None:
            return page(t("rp.share_title"), '<p class="empty" data-testid="transfer-none">%s</p>%s' % (
                escape(t("rp.problem.gone")), back))
        return page(t("rp.share_title"), '<p class="hint">%s</p>%s%s' % (escape(t("rp.share_intro")), self.offers(app.now()), back),
                    extra_class="transfer-screen")


def screen_for(app, parts):
    """Return the screen for replay/<id>, replay/<id>/received (just taken: dropped if it does not rebuild) or
    replay/<id>/share."""
    replay_id = parts[1] if len(parts) > 1 else ""
    if len(parts) > 2 and parts[2] == "share":
        return ReplayShareScreen(replay_id)
    return ReplayScreen(app, replay_id, received=len(parts) > 2 and parts[2] == "received")

"""Several people on one device: the game's own table screen behind a cover between people.

A pass-and-play table is a LocalTable whose players hold several persons (meta["pass"]). This
frame shows the game's TableScreen for one person at a time, only after that person tapped
"Ich bin Anna"; otherwise a cover ("Gib das Gerät an Anna") with what everybody may see (the round,
the totals, whose move it is). What happened since a person last looked is on their own screen right
after the cover: the game's feed, and a reveal they have not seen (the table keeps per seat the
reveals shown, ui.table.seen_reveals).
The cover comes back as soon as the person has done their part: they are no longer to move, a
round ended, or, in games where all choose at once, they chose. Nothing of this is saved: a
reload, a pause or a transfer resumes behind the cover.
"""

from spieleabend.games import score_text
from spieleabend.ui.html import button, escape
from spieleabend.ui.i18n import register, round_label, t
from spieleabend.ui.shell import Screen, page
from spieleabend.ui.table import show_table

PASS = "pass"  # the meta flag of a table played by several people on this device

register({
    "pass.give": ("Gib das Gerät an %(name)s", "Pass the device to %(name)s"),
    "pass.confirm": ("Ich bin %(name)s", "I am %(name)s"),
    "pass.hidden": ("Die Karten bleiben verdeckt, bis %(name)s tippt.", "The cards stay hidden until %(name)s taps."),
    "pass.computers": ("Die Computer sind dran\u00a0…", "The computers are playing\u00a0…"),
    "pass.computer_playing": ("%(name)s ist dran\u00a0…", "%(name)s is playing\u00a0…"),
    "pass.no_choice": ("%(name)s hat keine Wahl und passt\u00a0…", "%(name)s has no choice and passes\u00a0…"),
    "pass.cover": ("Verdecken", "Cover"),
    "pass.looking": ("Am Gerät: %(name)s", "At the device: %(name)s"),
    "pass.to_move": ("am Zug", "to play"),
    "pass.computer": ("Computer", "computer"),
    "pass.out": ("ausgeschieden", "out"),
})


def is_pass_table(table):
    """Return True for a table of several people on this device."""
    return bool(table.meta.get(PASS)) if hasattr(table, "meta") else False


def person_seats(table):
    """Return the seats played by people on this device, in seat order."""
    return [seat for seat, player in enumerate(table.players()) if player["kind"] == "person"]


def computers_playing(table):
    """Return what the cover says while computers play: the computer's name where one plays (the one the game
    waits for, or the only one at the table), else "Die Computer sind dran"; a person's move without asking
    (the table makes it) is said as such."""
    names = table.names()
    for seat in table.to_move():
        if table.move_without_asking(seat) is not None:
            return t("pass.no_choice", name=names[seat])
    waited_for = [seat for seat in table.to_move() if table.is_computer(seat)]
    if len(waited_for) != 1:
        computers = [seat for seat in range(len(names)) if table.is_computer(seat)]
        waited_for = computers if len(computers) == 1 else []
    return t("pass.computer_playing", name=names[waited_for[0]]) if waited_for else t("pass.computers")


def next_person(table):
    """Return the person seat the game waits for now (the first in the game's order), or None (a person's
    move without asking is the table's to make)."""
    people = person_seats(table)
    for seat in table.to_move():
        if seat in people and table.move_without_asking(seat) is None:
            return seat
    return None


def page_content(html):
    """Return what a screen's page holds inside its main element (the cover has its own header)."""
    start = html.find('<main class="content">')
    end = html.rfind("</main>")
    if start < 0 or end < start:
        return html
    return html[start + len('<main class="content">'):end]


class SeatTable:
    """The pass table as one screen sees it: everything of the real table, but its listeners hear only
    while their screen is shown, and leaving that screen does not stop the game."""

    def __init__(self, table):
        self.table = table
        self.listeners = []

    def __getattr__(self, name):
        return getattr(self.table, name)

    def listen(self, listener):
        self.listeners.append(listener)

    def changed(self, event=None):
        for listener in list(self.listeners):
            listener(event)

    def close(self):
        """The person's screen is left; the table goes on under the cover."""


class HandoverScreen(Screen):
    """The cover between people, or one person's own table screen."""

    def __init__(self, app, table):
        self.app = app
        self.table = table             # what testers' page marks read: this device's seat is the one looking
        self.route = "play/%s/table" % table.game
        self.looking = None            # the person seat that confirmed being at the device
        self.person_screen = None
        self.person_view = None
        self.public_screen = None      # the game's own screen for nobody's seat, once the game is over
        self.round = self.rounds_done()
        self.left = False
        table.seat = None              # behind the cover, whatever the save said
        table.listen(self.on_change)

    @property
    def keys(self):
        return self.person_screen.keys if self.looking is not None else ""

    @property
    def flying(self):
        return bool(getattr(self.person_screen, "flying", False)) if self.looking is not None else False

    def rounds_done(self):
        return self.progress()["done"]

    def progress(self):
        return self.table.engine.progress(self.table.engine.view(self.table.state, None))

    # -- who sees what ------------------------------------------------------------------------
    def on_change(self, event=None):
        if self.left:
            return
        done = self.rounds_done()
        if self.looking is not None and self.person_finished(done):
            self.cover()
        self.round = done
        if self.looking is not None:
            self.person_view.changed(event)
        self.app.rerender()

    def person_finished(self, done):
        """Return True when the person at the device has done their part and must hand it on."""
        if self.table.over():
            return True
        if not self.others_in_play():
            return False  # the last person still in (Mau-Mau's others are out): nobody to hide the cards from
        if done != self.round:
            return True
        if self.looking not in self.table.to_move():
            # Also before the others' moves without asking: the game's own screen would say "Ben ist dran"
            # over the person's open hand (an audit), and the cover says "Ben hat keine Wahl und passt".
            return True
        return bool(self.table.engine.INFO["secret_choices"])  # chosen: the next one chooses unseen

    def seats_out(self):
        """Return the seats out of the game, as the screen module's `seats_out` names them (none without one)."""
        plugin = self.table.plugin
        return plugin.seats_out(self.table.view_of(None)) if hasattr(plugin, "seats_out") else []

    def others_in_play(self):
        """Return the other person seats still in the game."""
        out = self.seats_out()
        return [seat for seat in person_seats(self.table) if seat != self.looking and seat not in out]

    def cover(self):
        """Hide the person's cards until the next person confirms."""
        self.looking = None
        self.person_screen = None
        self.person_view = None
        self.table.seat = None

    def uncover(self, seat):
        """The person at `seat` has the device: their own table screen, fresh, from the reveals they saw."""
        self.looking = seat
        self.table.seat = seat
        self.person_view = SeatTable(self.table)
        self.person_screen = self.table.plugin.TableScreen(self.app, self.person_view)

    # -- drawing ------------------------------------------------------------------------------
    def render(self, app):
        if self.looking is not None:
            name = self.table.names()[self.looking]
            bar = ('<div class="handover-bar" data-testid="handover-bar" data-seat="%d"><span>%s</span>%s</div>' % (
                self.looking, escape(t("pass.looking", name=name)),
                button(t("pass.cover"), "handover-cover", "handover-cover", kind="ghost")))
            return self.person_screen.render(app).replace("</header>", "</header>" + bar, 1)
        return page(t("game." + self.table.game), self.render_cover(app), extra_class="handover-page")

    def render_cover(self, app):
        names = self.table.names()
        if self.table.over():
            return self.render_final(app)
        seat = next_person(self.table)
        if seat is None:
            head = '<p class="handover-note" data-testid="handover-wait" role="status">%s</p>' % escape(
                computers_playing(self.table))
        else:
            name = names[seat]
            head = ('<h2 class="handover-title" data-testid="handover-to" data-seat="%d">%s</h2><p class="hint">%s</p>%s' % (
                seat, escape(t("pass.give", name=name)), escape(t("pass.hidden", name=name)),
                button(t("pass.confirm", name=name), "handover-confirm", "handover-confirm", kind="primary",
                       extra="wide", data_value=str(seat))))
        return ('<div class="handover" data-testid="handover"><section class="handover-cover" aria-live="polite">%s</section>'
                '%s</div>' % (head, self.render_standing(names)))

    def render_standing(self, names):
        """Return what everybody may see on the cover: the round and each seat's total, whose move it is."""
        progress = self.progress()
        moving = self.table.to_move()
        kinds = [player["kind"] for player in self.table.players()]
        out = self.seats_out()  # a person who is out learns it here: the device no longer comes to them

        def what(seat):
            if seat in out:
                return t("pass.out")
            if seat in moving:
                return t("pass.to_move")
            return t("pass.computer") if kinds[seat] == "computer" else ""

        rows = "".join(
            '<li class="handover-seat%s%s" data-seat="%d"><span class="who">%s</span><span class="what">%s</span>'
            '<span class="score">%s</span></li>' % (
                " turn" if seat in moving else "", " out" if seat in out else "", seat, escape(names[seat]),
                escape(what(seat)),
                escape(score_text(self.table.game, progress["scores"][seat]) if seat < len(progress["scores"]) else ""))
            for seat in range(len(names)))
        label = round_label(self.table.game, progress["round"])
        return ('<section class="panel handover-standing" aria-labelledby="handover-h"><h2 id="handover-h">%s</h2>'
                '<ol class="handover-seats">%s</ol></section>' % (escape(label), rows))

    def render_final(self, app):
        """Return the end of the game for everybody at the device: the game's own public final (the last
        round's reveal or settlement, what decided a tie, its score sheet), as a table screen shows it."""
        if self.public_screen is None:
            self.public_screen = self.table.plugin.TableScreen(app, SeatTable(self.table))
        return '<div class="handover-final" data-testid="handover-over">%s</div>' % page_content(
            self.public_screen.render(app))

    # -- taps and keys -------------------------------------------------------------------------
    def handle(self, app, action, value):
        if self.looking is None:
            seat = next_person(self.table)
            if action == "handover-confirm" and seat is not None and str(seat) == str(value):
                self.uncover(seat)  # a stale tap meant for someone else changes nothing
                app.rerender()
                app.focus("h1")
            elif action == "new-game" and self.table.over():
                show_table(app, self.table.rematch())
            elif self.table.over() and self.public_screen is not None:
                self.public_screen.handle(app, action, value)  # its own final's taps (a score sheet, a log)
            return
        if action == "handover-cover":
            self.cover()
            app.rerender()
            return
        self.person_screen.handle(app, action, value)

    def on_input(self, app, name, value, final):
        if self.looking is not None:
            self.person_screen.on_input(app, name, value, final)

    def on_key(self, app, key):
        if self.looking is not None:
            return self.person_screen.on_key(app, key)
        return False

    def enter_action(self):
        return self.person_screen.enter_action() if self.looking is not None else None

    def leave(self, app):
        self.left = True
        self.table.close()

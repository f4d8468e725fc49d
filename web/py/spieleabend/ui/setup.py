"""The start screen of every game, built from what its engine declares and its computers' levels.

It reads `engine.INFO` (seats, options with their choices and labels), the bot module's levels and
two optional hooks of the game's screen module:

    setup_note(app) -> text                one line under the form (a short rule, the memory aid)
    setup_hints(choices) -> {key: text}    a hint under an option that depends on the choices

An option whose default is None follows the table size: `engine.suggested_options(seats)` names
the value shown (Golf's decks); None goes to the engine, which applies the same suggestion.
"""

from spieleabend.games import load as load_engine
from spieleabend.games import default_strength, load_bots, module_path
from spieleabend.ui.html import attrs, button, escape
from spieleabend.ui.i18n import TEXTS, language, register, t
from spieleabend.ui.shell import Screen, clean_name, page, remember_setup, room_button, setup_choices, storage_notices
from spieleabend.ui.table import (COMPUTER, PERSON, LocalTable, chosen_strength, new_computer_names, seat_player, show_table,
                                  solo_players, strength_choices, tonights_people)

SHORT_LABEL = 6  # choices with labels up to this long sit side by side as segments

register({
    "setup.seats": ("Plätze am Tisch", "Seats at the table"),
    "setup.seats_one": ("Du und 1 Computer", "You and 1 computer"),
    "setup.seats_many": ("Du und %(n)s Computer", "You and %(n)s computers"),
    "setup.strength": ("Spielstärke der Computer", "How well the computers play"),
    "setup.replace_question": ("Die gespeicherte Partie ersetzen?", "Replace the saved game?"),
    "setup.replace_detail": ("Eine neue Partie löscht die angefangene. Fortsetzen behält sie.",
                             "A new game deletes the one in progress. Continue keeps it."),
    "setup.replace_yes": ("Neue Partie starten", "Start a new game"),
    "setup.mode": ("Wer spielt?", "Who plays?"),
    "setup.mode_solo": ("Ich gegen Computer", "Me against computers"),
    "setup.mode_device": ("Mehrere am selben Gerät", "Several people, one device"),
    "setup.mode_device_hint": ("Das Gerät geht reihum; niemand sieht die Karten der anderen.",
                               "The device goes round; nobody sees the others' cards."),
    "setup.people": ("Wer spielt mit?", "Who is playing?"),
    "setup.tonight": ("Heute Abend dabei:", "Playing tonight:"),
    "setup.person": ("Person %(n)s", "Person %(n)s"),
    "setup.add_person": ("+ Person", "+ Person"),
    "setup.remove_person": ("%(name)s entfernen", "Remove %(name)s"),
    "setup.people_only": ("%(people)s Personen, kein Computer", "%(people)s people, no computer"),
    "setup.people_one": ("%(people)s Personen und 1 Computer", "%(people)s people and 1 computer"),
    "setup.people_many": ("%(people)s Personen und %(computers)s Computer", "%(people)s people and %(computers)s computers"),
    "setup.same_names": ("Zwei Personen heißen gleich: gib allen verschiedene Namen.",
                         "Two people have the same name: give everyone a different one."),
})

SOLO = "solo"      # one person against computers
DEVICE = "device"  # several people pass this device round (spieleabend.ui.handover)


def evening_people(app):
    """Return tonight's people once each, at most eight, without the placeholder "Du" of a game started unnamed."""
    people = []
    for name in tonights_people(app):
        if name not in people and name not in TEXTS["setup.name_placeholder"]:
            people.append(name)
    return people[:8]


def columns(count):
    """Return how many segments sit in a row: all up to five, else two even rows (each >= 44 px at 360 px)."""
    return count if count <= 5 else (count + 1) // 2


def plain(text):
    """Return a declared (German, English) pair, or a plain value, in the app's language."""
    if isinstance(text, (list, tuple)):
        return text[1] if language() == "en" else text[0]
    return str(text)


def choice_label(option, value):
    """Return how one choice of an option reads: its declared label, else the value itself."""
    labels = option["labels"] if "labels" in option else {}
    return plain(labels[value]) if value in labels else str(value)


def seats_hint(seats):
    """Return who sits at a solo table of `seats`: the person and the computers."""
    computers = seats - 1
    return t("setup.seats_one") if computers == 1 else t("setup.seats_many", n=computers)


def default_choices(game):
    """Return a game's start-screen choices before anyone chose: seats, each option, the computers' level."""
    engine = load_engine(game)
    bots = load_bots(game)
    choices = {"seats": engine.INFO["seats"]["default"]}
    for option in engine.INFO["options"]:
        choices[option["key"]] = option["default"]
    choices["strength"] = default_strength(bots)
    choices["mode"] = SOLO
    return choices


def last_choices(app, game):
    """Return a game's last start-screen choices, each checked against what the game offers now."""
    engine = load_engine(game)
    defaults = default_choices(game)
    choices = setup_choices(app, game, defaults)
    limits = engine.INFO["seats"]
    if not limits["min"] <= choices["seats"] <= limits["max"]:
        choices["seats"] = defaults["seats"]
    for option in engine.INFO["options"]:
        if choices[option["key"]] is not None and choices[option["key"]] not in option["choices"]:
            choices[option["key"]] = option["default"]
    choices["strength"] = chosen_strength(game, choices["strength"])  # an earlier release's key included
    if choices["mode"] not in (SOLO, DEVICE):
        choices["mode"] = SOLO
    return choices


def shown_value(engine, option, choices):
    """Return the choice an option shows: the chosen one, or what the table size suggests for None."""
    value = choices[option["key"]]
    if value is None and hasattr(engine, "suggested_options"):
        value = engine.suggested_options(choices["seats"])[option["key"]]
    return value


def radio(name, value, testid, checked, label, kind, hint="", disabled=False):
    """Return one radio choice: a segment (short label) or a line with an optional description."""
    field = '<input%s%s>' % (attrs(type="radio", name=name, value=value, data_input=name, data_testid=testid,
                                   disabled=disabled), " checked" if checked else "")
    if kind == "seg":
        return '<label class="seg">%s<span>%s</span></label>' % (field, escape(label))
    text = '<strong>%s</strong><small>%s</small>' % (escape(label), escape(hint)) if hint else escape(label)
    return '<label class="choice%s">%s<span>%s</span></label>' % (" big" if hint else "", field, text)


def strength_fieldset(game, chosen, name="strength", legend=None):
    """Return the computers' levels as a fieldset of described choices (start screens and the room lobby)."""
    choices = "".join(radio(name, key, "%s-%s" % (name, key), key == chosen, label, "choice", hint)
                      for key, label, hint in strength_choices(game))
    return '<fieldset><legend>%s</legend><div class="choices">%s</div></fieldset>' % (
        escape(legend or t("setup.strength")), choices)


def option_panels(engine, choices, hints):
    """Return a panel per option the game declares (start screens and the room's lobby)."""
    panels = []
    for option in engine.INFO["options"]:
        key = option["key"]
        shown = shown_value(engine, option, choices)
        labels = [choice_label(option, value) for value in option["choices"]]
        kind = "seg" if max(len(label) for label in labels) <= SHORT_LABEL else "choice"
        items = "".join(radio(key, value, "%s-%s" % (key, value), value == shown, label, kind)
                        for value, label in zip(option["choices"], labels))
        box = '<div class="segments" style="--cols:%d">%s</div>' % (columns(len(labels)), items) if kind == "seg" else (
            '<div class="choices">%s</div>' % items)
        hint = ('<p class="hint" id="%s-label" data-testid="%s-label">%s</p>' % (key, key, escape(hints[key]))
                if key in hints else "")
        panels.append('<section class="panel"><fieldset><legend>%s</legend>%s%s</fieldset></section>' % (
            escape(plain(option["label"])), box, hint))
    return panels


def option_choice(engine, name, value):
    """Return the value of a game option a radio reported, or None when the game offers no such value."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return None
    for option in engine.INFO["options"]:
        if option["key"] == name:
            return number if number in option["choices"] else None
    return None


class SetupScreen(Screen):
    """Dein Name, Plätze, the game's options, Spielstärke, Partie starten, Zusammen spielen, Fortsetzen."""

    def __init__(self, app, game):
        self.game = game
        self.route = "play/" + game
        self.engine = load_engine(game)
        self.plugin = __import__(module_path(game, "screen"), fromlist=["TableScreen"])
        self.choices = last_choices(app, game)
        self.confirming = False  # "Partie starten" over a saved game asks first
        self.problem = ""        # why a start was refused (two people of one name)
        self.people = self.first_people(app)
        if self.choices["mode"] == DEVICE:
            self.fit_seats()

    def first_people(self, app):
        """Return the names offered for several people: the evening's people, else this device's name and one more."""
        limit = self.engine.INFO["seats"]["max"]
        people = list(app.storage.night()["people"])[:limit]
        if len(people) >= 2:
            return people
        return [app.settings["name"] if "name" in app.settings else "", ""]

    def fit_seats(self):
        """Give every person a seat: the table grows to the number of people (computers fill the rest)."""
        self.choices["seats"] = max(self.choices["seats"], len(self.people), self.engine.INFO["seats"]["min"])

    # -- drawing ------------------------------------------------------------------------
    def render(self, app):
        saved = app.storage.running_game(self.game) is not None
        if not saved:
            self.confirming = False
        device = self.choices["mode"] == DEVICE
        # A save just set aside as unreadable (this screen asked for it) is said here, not later on the home screen.
        parts = [storage_notices(app), self.saved_notice(app) if saved else "",
                 '<form class="setup" data-testid="setup" onsubmit="return false">', self.mode_panel(),
                 self.people_panel() if device else self.name_panel(app), self.seats_panel()]
        parts.extend(self.option_panels())
        if not device or self.choices["seats"] > len(self.people):  # every seat a person: no computer to set
            parts.append('<section class="panel">%s</section>' % strength_fieldset(self.game, self.choices["strength"]))
        note = self.plugin.setup_note(app) if hasattr(self.plugin, "setup_note") else ""
        if note:
            parts.append('<p class="hint" data-testid="setup-note">%s</p>' % escape(note))
        # The start button stays in reach at the bottom of the screen; playing together and the rules follow.
        parts.append('<div class="setup-start">%s</div><div class="setup-more">%s'
                     '<a class="btn btn-ghost" href="/rules/%s" data-testid="rules-%s">%s</a></div></form>' % (
                         button(t("setup.start"), "start", "start-game", kind="primary", extra="wide"), room_button(),
                         escape(self.game), escape(self.game), escape(t("home.rules"))))
        return page(t("game." + self.game), "".join(parts), extra_class="setup-screen " + self.game)

    def saved_notice(self, app):
        """Return the note about this game's saved game; after a tap on start, the question instead."""
        if self.confirming:
            return ('<div class="notice warn" role="alertdialog" aria-labelledby="replace-q" data-testid="replace-question">'
                    '<p id="replace-q"><strong>%s</strong></p><p>%s</p><div class="row">%s%s</div></div>' % (
                        escape(t("setup.replace_question")), escape(t("setup.replace_detail")),
                        button(t("setup.replace_yes"), "start-anew", "replace-confirm", kind="primary"),
                        button(t("home.continue"), "continue", "continue-saved", kind="secondary")))
        return '<div class="notice"><p>%s</p>%s</div>' % (
            escape(t("setup.replace_note")), button(t("home.continue"), "continue", "continue-saved", kind="primary"))

    def mode_panel(self):
        """Return the choice between playing alone against computers and several people on this device."""
        mode = self.choices["mode"]
        items = "".join(radio("mode", key, "mode-" + key, key == mode, t("setup.mode_" + key), "choice")
                        for key in (SOLO, DEVICE))
        hint = '<p class="hint">%s</p>' % escape(t("setup.mode_device_hint")) if mode == DEVICE else ""
        return '<section class="panel"><fieldset><legend>%s</legend><div class="choices">%s</div>%s</fieldset></section>' % (
            escape(t("setup.mode")), items, hint)

    def people_panel(self):
        """Return a name field per person, with a way to add one (up to the seats) and to remove one (down to two)."""
        rows = []
        for index, name in enumerate(self.people):
            label = t("setup.person", n=index + 1)
            remove = ""
            if len(self.people) > 2:
                remove = button("×", "remove-person", "remove-person-%d" % index, kind="ghost", extra="person-remove",
                                data_value=str(index), aria_label=t("setup.remove_person", name=name or label))
            rows.append('<li class="person-row"><input%s>%s</li>' % (attrs(
                type="text", id="person-%d" % index, maxlength="24", autocomplete="off", value=name, placeholder=label,
                aria_label=label, data_input="person-%d" % index, data_testid="person-%d" % index), remove))
        add = ""
        if len(self.people) < self.engine.INFO["seats"]["max"]:
            add = button(t("setup.add_person"), "add-person", "add-person", kind="secondary")
        problem = ('<p class="notice warn" role="alert" data-testid="setup-problem">%s</p>' % escape(self.problem)
                   if self.problem else "")
        return ('<section class="panel"><h2 class="label" id="people-h">%s</h2>'
                '<ol class="people" aria-labelledby="people-h">%s</ol>%s%s%s</section>' % (
                    escape(t("setup.people")), "".join(rows), add, problem,
                    self.seats_hint() if self.fixed_seats() else ""))

    def fixed_seats(self):
        """Return True for a game of one table size (Pao De Kuai: three), where there is nothing to choose."""
        limits = self.engine.INFO["seats"]
        return limits["min"] == limits["max"]

    def seats_hint(self):
        return '<p class="hint" id="seats-label" data-testid="seats-label">%s</p>' % escape(self.hints()["seats"])

    def name_panel(self, app):
        """Return the name field, tonight's people to pick from, and who plays when the table size is fixed."""
        name = app.settings["name"] if "name" in app.settings else ""
        return ('<section class="panel"><label for="setup-name" class="label">%s</label>'
                '<input%s>%s%s</section>' % (escape(t("setup.name")), attrs(
                    type="text", id="setup-name", maxlength="24", autocomplete="nickname", value=name,
                    placeholder=t("setup.name_placeholder"), data_input="name", data_testid="player-name"),
                    self.name_picks(app, name), self.seats_hint() if self.fixed_seats() else ""))

    def name_picks(self, app, name):
        """Return a button per person of tonight's evening: a game counts for the evening under its player's name
        (an audit: a game started with the field empty added a person "Du" beside Anna and Ben)."""
        people = evening_people(app)
        if not people:
            return ""
        picks = "".join(button(person, "pick-name", "pick-name-%d" % index, kind="ghost", extra="name-pick",
                               data_value=person, aria_pressed="true" if person == name else "false")
                        for index, person in enumerate(people))
        return '<div class="name-picks" role="group" aria-labelledby="name-picks-h"><span class="hint" id="name-picks-h">%s</span>%s</div>' % (
            escape(t("setup.tonight")), picks)

    def seats_panel(self):
        """Return the table sizes to choose from and who would play (nothing for a fixed table size)."""
        if self.fixed_seats():
            return ""
        limits = self.engine.INFO["seats"]
        seats = self.choices["seats"]
        fewest = len(self.people) if self.choices["mode"] == DEVICE else limits["min"]
        segments = "".join(radio("seats", n, "seats-%d" % n, n == seats, str(n), "seg", disabled=n < fewest)
                           for n in range(limits["min"], limits["max"] + 1))
        return ('<section class="panel"><fieldset><legend>%s</legend><div class="segments" style="--cols:%d">%s</div>'
                '%s</fieldset></section>' % (escape(t("setup.seats")), columns(limits["max"] - limits["min"] + 1), segments,
                                              self.seats_hint()))

    def option_panels(self):
        return option_panels(self.engine, self.choices, self.hints())

    def hints(self):
        """Return the hints under the choices: who sits at the table, and the game's own."""
        seats = self.choices["seats"]
        if self.choices["mode"] == DEVICE:
            people, computers = len(self.people), seats - len(self.people)
            key = "setup.people_only" if computers <= 0 else "setup.people_one" if computers == 1 else "setup.people_many"
            hints = {"seats": t(key, people=people, computers=computers)}
        else:
            hints = {"seats": seats_hint(seats)}
        if hasattr(self.plugin, "setup_hints"):
            hints.update(self.plugin.setup_hints(self.choices))
        return hints

    # -- what the person does -------------------------------------------------------------
    def on_input(self, app, name, value, final):
        if name == "name":
            if final:
                app.settings["name"] = clean_name(value)
                app.save_settings()
                if evening_people(app):
                    app.rerender()  # the pressed name button follows what was typed (an accessibility audit)
            return
        if name.startswith("person-"):
            index = name[len("person-"):]
            if index.isdigit() and int(index) < len(self.people) and isinstance(value, str):
                self.people[int(index)] = clean_name(value)
            return
        if name == "mode":
            if value in (SOLO, DEVICE):
                self.choices["mode"] = value
                self.problem = ""
                if value == DEVICE:
                    self.fit_seats()
                remember_setup(app, self.game, self.choices)
                app.rerender()
            return
        chosen = self.parse_choice(name, value)
        if chosen is None:
            return  # a value the game does not offer changes nothing
        self.choices[name] = chosen
        remember_setup(app, self.game, self.choices)
        if final:
            app.rerender()  # the hints and a choice that follows the table size change with it
        else:
            for key, text in self.hints().items():
                app.output(key + "-label", text)

    def parse_choice(self, name, value):
        """Return the choice a radio reported, or None when the game offers no such value."""
        if name == "strength":
            return value if value in load_bots(self.game).STRENGTHS else None
        try:
            number = int(value)
        except (TypeError, ValueError):
            return None
        if name == "seats":
            limits = self.engine.INFO["seats"]
            fewest = max(limits["min"], len(self.people) if self.choices["mode"] == DEVICE else 0)
            return number if fewest <= number <= limits["max"] else None
        return option_choice(self.engine, name, value)

    def person_name(self, app):
        """Return the typed name (kept for the next visit), or "Du" for none."""
        typed = app.field("setup-name")
        name = clean_name(typed if typed is not None else app.settings["name"])
        app.settings["name"] = name
        app.save_settings()
        return name or t("setup.name_placeholder")

    def options(self):
        """Return the engine's options for a new table from the choices."""
        options = {"seats": self.choices["seats"]}
        for option in self.engine.INFO["options"]:
            options[option["key"]] = self.choices[option["key"]]
        return options

    def read_people(self, app):
        """Take the names as typed (the page reports every field with a tap)."""
        for index in range(len(self.people)):
            typed = app.field("person-%d" % index)
            if typed is not None:
                self.people[index] = clean_name(typed)

    def named_people(self):
        """Return each person's name, "Person n" for an empty one."""
        return [name or t("setup.person", n=index + 1) for index, name in enumerate(self.people)]

    def start(self, app):
        remember_setup(app, self.game, self.choices)
        if self.choices["mode"] == DEVICE:
            self.start_together(app)
            return
        name = self.person_name(app)
        players = solo_players(name, self.choices["seats"], self.choices["strength"], tonights_people(app))
        show_table(app, LocalTable.new(app, self.game, self.options(), players))

    def start_together(self, app):
        """Start a table of several people on this device (computers fill the seats left), behind the cover."""
        self.read_people(app)
        names = self.named_people()
        if len(set(name.lower() for name in names)) < len(names):
            self.problem = t("setup.same_names")
            self.confirming = False
            app.rerender()
            return
        self.problem = ""
        players = [seat_player(name, PERSON) for name in names]
        players += [seat_player(name, COMPUTER, self.choices["strength"])
                    for name in new_computer_names(app, names, self.choices["seats"] - len(names))]
        show_table(app, LocalTable.new(app, self.game, self.options(), players, seat=None, extra_meta={"pass": True}))

    def handle(self, app, action, value):
        if self.choices["mode"] == DEVICE:
            self.read_people(app)
        if action == "add-person" and len(self.people) < self.engine.INFO["seats"]["max"]:
            self.people.append("")
            self.fit_seats()
            app.rerender()
            app.focus("#person-%d" % (len(self.people) - 1))
        elif action == "remove-person" and len(self.people) > 2 and str(value).isdigit() and int(value) < len(self.people):
            del self.people[int(value)]
            app.rerender()
        elif action == "start":
            if app.storage.running_game(self.game) is not None and not self.confirming:
                self.confirming = True  # a saved game is never replaced without a question
                app.rerender()
                # The question's safe answer first: an Enter too many keeps the game (an audit: it deleted it).
                app.focus('[data-testid="continue-saved"]')
                return
            self.start(app)
        elif action == "start-anew":
            self.start(app)
        elif action == "pick-name" and value in evening_people(app):
            app.settings["name"] = value
            app.save_settings()
            app.rerender()
        elif action == "open-room":
            self.person_name(app)
            remember_setup(app, self.game, self.choices)
            options = self.options()
            seats = options.pop("seats")
            app.open_room(self.game, options, seats, self.choices["strength"])
        elif action == "continue":
            app.go("play/%s/continue" % self.game, replace=True)

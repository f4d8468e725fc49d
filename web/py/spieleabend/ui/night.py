"""The game night ("Spieleabend"): the people at the table, any games in any order, one table.

A finished game with a unique winner gives that person one Spieleabend point; a shared win
and a game without a winner give nobody a point, and the list of the evening's games says so.
The same name in several games is one person (spaces and capitals aside).
"""

from spieleabend.storage import MAX_PEOPLE, MAX_RESULTS, clean_names, evening_table, is_whole
from spieleabend.ui.charts import standings_chart
from spieleabend.ui.html import attrs, button, escape
from spieleabend.ui.i18n import game_name, register, t
from spieleabend.games import GAME_MODULES
from spieleabend.ui.shell import Screen, page, storage_notices

FIRST_FIELDS = 4  # name fields shown at first; "Weitere Person" adds more

register({
    "night.title": ("Spieleabend", "Game night"),
    "night.since": ("Seit %(time)s", "Since %(time)s"),
    "night.on": ("Am %(time)s", "On %(time)s"),  # a past evening
    "night.games_count": ("%(n)s Partien", "%(n)s games"),
    "night.games_one": ("1 Partie", "1 game"),
    "night.empty": ("Noch keine Partie an diesem Abend. Wähle ein Spiel auf der Startseite – jedes beendete "
                    "Spiel zählt hier.", "No game yet tonight. Choose a game on the home screen – every finished "
                    "game counts here."),
    "night.empty_past": ("An diesem Abend wurde keine Partie beendet.", "No game was finished that evening."),
    "night.games_gone": ("Ältere Partien dieses Abends sind nicht mehr gespeichert: Ergebnisse behält die letzten "
                         "%(max)s Partien.", "Older games of this evening are no longer stored: Results keeps the last "
                         "%(max)s games."),
    "night.rule": ("Wer eine Partie allein gewinnt, bekommt 1 Spieleabend-Punkt. Geteilte Siege und Partien "
                   "ohne Sieger bringen keinen Punkt.",
                   "Winning a game alone earns 1 game-night point. Shared wins and games without a winner "
                   "earn no point."),
    "night.person": ("Person", "Person"),
    "night.computer": ("Computer", "computer"),
    "night.points": ("Punkte", "Points"),
    "night.games": ("Partien", "Games"),
    "night.wins": ("Siege", "Wins"),
    "night.table_caption": ("Stand des Abends", "The evening's standings"),
    "night.per_game": ("Nach Spielen", "By game"),
    "night.per_game_caption": ("Punkte / Partien je Spiel", "Points / games per game"),
    "night.played": ("Partien des Abends", "Tonight's games"),
    "night.win": ("Sieg: %(name)s – 1 Punkt", "Won by %(name)s – 1 point"),
    "night.shared": ("Geteilter Sieg: %(names)s – kein Punkt", "Shared win: %(names)s – no point"),
    "night.none": ("Kein Sieger – kein Punkt", "No winner – no point"),
    "night.new": ("Neuen Spieleabend beginnen", "Start a new game night"),
    "night.new_title": ("Neuer Spieleabend", "New game night"),
    "night.edit_title": ("Wer spielt mit?", "Who is playing?"),
    "night.edit_people": ("Personen ändern", "Change people"),
    "night.people_intro": ("Wer sitzt am Tisch? Unter demselben Namen zählt jede Partie für dieselbe Person.",
                           "Who is at the table? Under the same name, every game counts for the same person."),
    "night.name_n": ("Person %(n)s", "Person %(n)s"),
    "night.add_person": ("Weitere Person", "Add a person"),
    "night.start": ("Spieleabend beginnen", "Start the game night"),
    "night.save_people": ("Übernehmen", "Save"),
    "night.cancel": ("Abbrechen", "Cancel"),
    "night.started": ("Neuer Spieleabend begonnen.", "A new game night has started."),
    "night.choose_game": ("Spiel wählen", "Choose a game"),
    "night.to_results": ("Alle Ergebnisse", "All results"),
    "night.rules": ("Regeln des Spieleabends", "Game-night rules"),
    "night.not_found": ("Diesen Spieleabend gibt es auf diesem Gerät nicht.", "This game night is not on this device."),
    "night.past_title": ("Spieleabend vom %(time)s", "Game night of %(time)s"),
    "night.from_room": ("Aus dem Raum übernehmen", "Take them from the room"),
    "night.from_room_hint": ("Übernimmt die Namen der Leute im Raum, den dieses Gerät gerade leitet.",
                             "Takes the names of the people in the room this device is hosting."),
})


def room_people(storage):
    """Return the names of the people (not the computers) in the room game this device hosts, if any."""
    names = []
    for document in storage.saved_games(GAME_MODULES):
        meta = document["meta"]
        if "room" not in meta or not isinstance(meta.get("players"), list):
            continue
        for player in meta["players"]:
            if isinstance(player, dict) and player.get("kind") in ("person", "remote"):
                names.append(player.get("name"))
    return clean_names(names)


def night_summary(storage):
    """Return tonight's table as plain rows for a room's lobby message (phones and screens show it):
    [{"name", "points", "games", "wins", "per_game": {game: {"points", "games", "wins"}}}], most points first."""
    night = storage.night()
    table = evening_table(storage.results(), night["id"], night["people"] if "people" in night else [])
    return [{"name": row["name"], "computer": row["computer"], "points": row["points"], "games": row["games"],
             "wins": row["wins"], "per_game": dict((game, {"points": cell["points"], "games": cell["games"], "wins": cell["wins"]})
                              for game, cell in row["per_game"].items())}
            for row in table["rows"][:16]]


def counts(cell, keys=("points", "games", "wins")):
    """Return a received cell's whole numbers, or None when one is missing or not a number."""
    numbers = [cell.get(key) for key in keys] if isinstance(cell, dict) else [None]
    return numbers if all(is_whole(n) for n in numbers) else None


def safe_rows(rows):
    """Return the rows of a received night summary that have the expected shape (from another device)."""
    out = []
    if not isinstance(rows, list):
        return out
    for row in rows[:16]:
        if not isinstance(row, dict) or not isinstance(row.get("name"), str):
            continue
        numbers = counts(row)
        if numbers is None:
            continue
        per_game = {}
        received = row["per_game"] if isinstance(row.get("per_game"), dict) else {}
        for game in GAME_MODULES:
            cell = counts(received[game]) if game in received else None
            if cell is not None:
                per_game[game] = {"points": cell[0], "games": cell[1], "wins": cell[2]}
        out.append({"name": row["name"][:24], "computer": row.get("computer") is True, "points": numbers[0],
                    "games": numbers[1], "wins": numbers[2], "per_game": per_game})
    return out


def room_night_html(rows, charts=True, per_game=True):
    """Return tonight's table as a phone or the table screen shows it in a room's lobby ("" when empty):
    the bar chart of points, the table, and points per game (unless `per_game` is False: see room_per_game_html)."""
    table = room_night_table(rows)
    if table is None:
        return ""
    chart = standings_chart(table["rows"], "room-night-chart") if charts and table["played"] else ""
    return '<section class="panel room-night" data-testid="room-night"><h2>%s</h2>%s%s%s</section>' % (
        escape(t("night.title")), chart, table_html(table, "room-night-table"),
        per_game_html(table, "room-night-per-game") if per_game else "")


def room_per_game_html(rows):
    """Return tonight's points per game on their own ("" when nothing was played): the table screen puts them
    beside the evening's table, where a TV has room for them."""
    table = room_night_table(rows)
    if table is None or not table["played"]:
        return ""
    return '<section class="panel room-night room-per-game"><h2>%s</h2>%s</section>' % (
        escape(t("night.per_game_caption")), per_game_html(table, "room-night-per-game"))


def room_night_table(rows):
    """Return {"rows", "played"} of a room's evening as the host sent it, None when empty."""
    rows = safe_rows(rows)
    if not rows:
        return None
    return {"rows": rows, "played": [game for game in GAME_MODULES if any(game in row["per_game"] for row in rows)]}


def row_name_html(row):
    """Return a row's name for the evening's tables, a computer's marked as one."""
    if not row.get("computer"):
        return escape(row["name"])
    return '%s <span class="tag">%s</span>' % (escape(row["name"]), escape(t("night.computer")))


def verdict_text(entry):
    """Return what a finished game meant for the evening: who got the point, or why nobody did."""
    computers = entry.get("computers") or []
    winners = [t("chart.computer_name", name=name) if name in computers else name for name in entry.get("winners") or []]
    if entry["verdict"] == "win":
        return t("night.win", name=winners[0])
    if entry["verdict"] == "shared":
        return t("night.shared", names=", ".join(winners))
    return t("night.none")


def table_html(table, testid="night-table"):
    """Return the evening's table: points, games and wins per person, most points first."""
    rows = []
    for row in table["rows"]:
        rows.append('<tr%s><th scope="row">%s</th><td>%d</td><td>%d</td><td>%d</td></tr>' % (
            attrs(data_player=row["name"], data_computer="true" if row.get("computer") else None,
                  data_points=row["points"], data_games=row["games"], data_wins=row["wins"]),
            row_name_html(row), row["points"], row["games"], row["wins"]))
    return ('<table class="night"%s><caption>%s</caption><thead><tr><th scope="col">%s</th><th scope="col">%s</th>'
            '<th scope="col">%s</th><th scope="col">%s</th></tr></thead><tbody>%s</tbody></table>' % (
                attrs(data_testid=testid), escape(t("night.table_caption")), escape(t("night.person")),
                escape(t("night.points")), escape(t("night.games")), escape(t("night.wins")), "".join(rows)))


def per_game_html(table, testid="night-per-game"):
    """Return points / games per person and game (only the games played tonight)."""
    if not table["played"] or not table["rows"]:
        return ""
    head = "".join('<th scope="col">%s</th>' % escape(game_name(game, hyphenated=True)) for game in table["played"])
    rows = []
    for row in table["rows"]:
        cells = []
        for game in table["played"]:
            if game in row["per_game"]:
                cell = row["per_game"][game]
                cells.append('<td data-game="%s">%d / %d</td>' % (game, cell["points"], cell["games"]))
            else:
                cells.append('<td data-game="%s">–</td>' % game)
        rows.append('<tr%s><th scope="row">%s</th>%s</tr>' % (
            attrs(data_player=row["name"], data_computer="true" if row.get("computer") else None),
            row_name_html(row), "".join(cells)))
    return ('<div class="table-scroll" tabindex="0" role="region" aria-label="%s"><table class="night per-game"%s><caption>%s</caption><thead><tr>'
            '<th scope="col">%s</th>%s</tr></thead><tbody>%s</tbody></table></div>' % (
                escape(t("night.per_game_caption")), attrs(data_testid=testid), escape(t("night.per_game_caption")), escape(t("night.person")),
                head, "".join(rows)))


def games_html(app, table):
    """Return the evening's finished games in order, each with what it meant for the table."""
    items = []
    for entry in table["games"]:
        items.append('<li%s><span class="what"><strong>%s</strong> <time>%s</time></span><span class="verdict %s">%s</span></li>' % (
            attrs(class_="night-game", data_testid="night-game", data_game=entry["game"], data_verdict=entry["verdict"]),
            escape(game_name(entry["game"])), escape(app.format_time(entry["finished_at"])),
            entry["verdict"], escape(verdict_text(entry))))
    return '<ol class="night-games">%s</ol>' % "".join(items)


def games_gone(night, kept):
    """Return True when games of this evening may have dropped out of Ergebnisse (it keeps the last MAX_RESULTS)."""
    return len(kept) >= MAX_RESULTS and night["started_at"] < min(entry["finished_at"] for entry in kept)


def evening_html(app, night, results, charts=True, testid="night-table", compact=False, table=None, kept=None):
    """Return a whole evening: chart, table, table by game and its games (compact: the table only).

    `kept`: every result Ergebnisse keeps, when `results` are only this evening's.
    """
    if table is None:
        table = evening_table(results, night["id"], night["people"] if "people" in night else [])
    count = len(table["games"])
    since = '<p class="night-since">%s · %s</p>' % (
        escape(t("night.on" if "ended_at" in night else "night.since", time=app.format_time(night["started_at"]))),
        escape(t("night.games_one") if count == 1 else t("night.games_count", n=count)))
    if games_gone(night, results if kept is None else kept):
        # Said, not silent: a past evening's table would otherwise shrink from 3 games to 1 without a word.
        since += '<p class="hint" data-testid="night-games-gone">%s</p>' % escape(t("night.games_gone", max=MAX_RESULTS))
        if not table["games"]:
            return since
    empty = t("night.empty_past" if "ended_at" in night else "night.empty")
    if not table["rows"]:
        return since + '<p class="empty">%s</p>' % escape(empty)
    parts = [since]
    if charts and table["games"]:
        parts.append(standings_chart(table["rows"]))
    parts.append(table_html(table, testid))
    if compact:
        return "".join(parts)
    if table["games"]:
        parts.append('<h2>%s</h2>%s' % (escape(t("night.per_game")), per_game_html(table)))
        parts.append('<h2>%s</h2>%s' % (escape(t("night.played")), games_html(app, table)))
    else:
        parts.append('<p class="empty">%s</p>' % escape(empty))
    parts.append('<p class="hint">%s</p>' % escape(t("night.rule")))
    return "".join(parts)


class NightScreen(Screen):
    """Tonight's table, its chart and games; a new evening starts here."""

    route = "night"

    def render(self, app):
        night = app.storage.night()
        body = evening_html(app, night, app.storage.results())
        body = storage_notices(app) + body  # either one just set aside as unreadable: said here, not later
        body += '<div class="row wrap">%s%s%s</div>' % (
            '<a class="btn btn-primary" href="#/" data-testid="night-choose-game">%s</a>' % escape(t("night.choose_game")),
            button(t("night.edit_people"), "edit-people", "night-edit-people", kind="secondary"),
            button(t("night.new"), "new-night", "new-night", kind="ghost"))
        body += '<p class="row wrap"><a class="btn btn-ghost" href="#/results" data-testid="night-results">%s</a>' \
                '<a class="btn btn-ghost" href="/rules/spieleabend" data-testid="rules-spieleabend">%s</a></p>' % (
                    escape(t("night.to_results")), escape(t("night.rules")))
        return page(t("night.title"), body, extra_class="night-screen")

    def handle(self, app, action, value):
        if action == "new-night":
            app.go("night/new")
        elif action == "edit-people":
            app.go("night/people")


class PeopleScreen(Screen):
    """Name the people at the table: for a new evening, or to change tonight's."""

    route = "night/new"

    def __init__(self, app, fresh):
        self.fresh = fresh
        if fresh:
            names = [app.settings.get("name", "")] if app.settings.get("name") else []
        else:
            names = list(app.storage.night().get("people") or [])
        self.names = names + [""] * max(FIRST_FIELDS - len(names), 1)

    def render(self, app):
        fields = []
        for index in range(len(self.names)):
            fields.append('<li><label class="label" for="night-name-%d">%s</label>'
                          '<input type="text" id="night-name-%d" maxlength="24" autocomplete="off" value="%s" '
                          'data-input="name-%d" data-testid="night-name-%d"></li>' % (
                              index, escape(t("night.name_n", n=index + 1)), index, escape(self.names[index]), index, index))
        more = ""
        if len(self.names) < MAX_PEOPLE:
            more = button(t("night.add_person"), "add-person", "night-add-person", kind="ghost")
        room = ""
        if room_people(app.storage):
            room = '<p class="hint">%s</p>%s' % (escape(t("night.from_room_hint")),
                                                 button(t("night.from_room"), "from-room", "night-from-room", kind="secondary"))
        body = ('<form class="setup night-people" onsubmit="return false"><p class="hint">%s</p>'
                '<ul class="name-fields">%s</ul>%s%s<div class="row wrap">%s%s</div></form>' % (
                    escape(t("night.people_intro")), "".join(fields), more, room,
                    button(t("night.start") if self.fresh else t("night.save_people"), "start-night", "night-start",
                           kind="primary", extra="wide"),
                    '<a class="btn btn-ghost" href="#/night" data-testid="night-cancel">%s</a>' % escape(t("night.cancel"))))
        return page(t("night.new_title") if self.fresh else t("night.edit_title"), body, extra_class="night-screen")

    def on_input(self, app, name, value, final):
        if name.startswith("name-"):
            index = int(name[5:])
            if 0 <= index < len(self.names):
                self.names[index] = value

    def handle(self, app, action, value):
        if action == "add-person" and len(self.names) < MAX_PEOPLE:
            self.names.append("")
            app.rerender()
            app.focus("#night-name-%d" % (len(self.names) - 1))
        elif action == "from-room":
            taken = room_people(app.storage)
            kept = [name for name in self.names if name.strip()]
            self.names = clean_names(kept + taken)
            self.names += [""] * max(FIRST_FIELDS - len(self.names), 1 if len(self.names) < MAX_PEOPLE else 0)
            app.rerender()
        elif action == "start-night":
            if self.fresh:
                night = app.storage.new_night(self.names)
                if app.storage.find_night(night["id"]) is None:
                    app.toast_storage_full()
                    return
                app.toast(t("night.started"))
            elif not app.storage.set_people(self.names):
                app.toast_storage_full()
            app.go("night", replace=True)


class PastNightScreen(Screen):
    """A past evening's table (from Ergebnisse)."""

    def __init__(self, night_id):
        self.night_id = night_id
        self.route = "night/" + night_id

    def render(self, app):
        night = app.storage.find_night(self.night_id)
        results = app.storage.results()
        if night is None:
            found = [r for r in results if r["night"] == self.night_id]
            if not found:
                return page(t("night.title"), '<p class="empty">%s</p>' % escape(t("night.not_found")))
            night = {"id": self.night_id, "started_at": min(r["finished_at"] for r in found), "people": []}
        body = evening_html(app, night, results)
        body += '<p><a class="btn btn-ghost" href="#/results" data-testid="night-results">%s</a></p>' % escape(t("night.to_results"))
        return page(t("night.past_title", time=app.format_time(night["started_at"])), body, extra_class="night-screen")


def screen_for(app, rest):
    """Return the screen for a route below night ("" tonight, new, people, or a night's id)."""
    if not rest or rest[0] == "":
        return NightScreen()
    if rest[0] == "new":
        return PeopleScreen(app, True)
    if rest[0] == "people":
        return PeopleScreen(app, False)
    return PastNightScreen(rest[0])

"""Ergebnisse: every finished game (filter by game), its score chart, past evenings, backups."""

from spieleabend.games import GAME_MODULES, score_text
from spieleabend.storage import MAX_BACKUP_CHARS, MAX_RESULTS, NIGHT_KEY, RESULTS_KEY, ImportProblem, evening_table
from spieleabend.ui.charts import score_chart
from spieleabend.ui.html import attrs, button, escape
from spieleabend.ui.i18n import game_name, level_name, register, t
from spieleabend.ui.night import evening_html
from spieleabend.ui.shell import Screen, page, storage_notices

SHOWN = 20  # results drawn at first; "Mehr zeigen" adds more
PAST_SHOWN = 30  # past evenings listed

register({
    "results.filter": ("Spiel", "Game"),
    "results.all_games": ("Alle Spiele", "All games"),
    "results.evening": ("Spieleabend vom %(time)s", "Game night of %(time)s"),
    "results.tonight": ("Heutiger Spieleabend", "Tonight"),
    "results.open_night": ("Zum Spieleabend", "Go to the game night"),
    "results.show_chart": ("Verlauf zeigen", "Show the scores round by round"),
    "results.hide_chart": ("Verlauf ausblenden", "Hide the scores round by round"),
    "results.more": ("Mehr zeigen", "Show more"),
    "results.watch": ("Ansehen", "Watch"),
    "results.level": ("Computer: %(level)s", "Computers: %(level)s"),
    "results.received_h": ("Empfangene Aufzeichnungen", "Received replays"),
    "results.delete_received": ("Löschen", "Delete"),
    "results.deleted_received": ("Aufzeichnung gelöscht.", "Replay deleted."),
    "results.dropped": ("Der Speicher war fast voll: %(n)s ältere Aufzeichnungen wurden gelöscht. Ergebnisse und "
                        "laufende Spiele bleiben.", "Storage was nearly full: %(n)s older replays were deleted. "
                        "Results and running games stay."),
    "results.dropped_one": ("Der Speicher war fast voll: 1 ältere Aufzeichnung wurde gelöscht. Ergebnisse und "
                            "laufende Spiele bleiben.", "Storage was nearly full: 1 older replay was deleted. "
                            "Results and running games stay."),
    "results.dropped_ok": ("Verstanden", "OK"),
    "results.none_of_game": ("Noch keine beendete Partie dieses Spiels.", "No finished game of this kind yet."),
    "results.past": ("Frühere Spieleabende", "Past game nights"),
    "results.past_summary": ("%(time)s · %(games)s", "%(time)s · %(games)s"),
    "results.backup": ("Sicherung", "Backup"),
    "results.backup_hint": ("Alle Ergebnisse und Spieleabende als eine Datei – zum Aufheben oder für ein neues Gerät.",
                            "Every result and game night as one file – to keep, or for a new device."),
    "results.export_all": ("Alles als Datei sichern", "Save everything as a file"),
    "results.import_all": ("Sicherung laden", "Load a backup"),
    "results.imported": ("Sicherung geladen: %(n)s neue Partien.", "Backup loaded: %(n)s new games."),
    "results.imported_none": ("Sicherung geladen: keine neuen Partien.", "Backup loaded: no new games."),
    "results.imported_one": ("Sicherung geladen: 1 neue Partie.", "Backup loaded: 1 new game."),
    "results.imported_left_out": ("%(n)s ältere passen nicht mehr dazu: Ergebnisse behält die letzten %(max)s.",
                                  "%(n)s older ones are left out: Results keeps the last %(max)s."),
    "results.imported_left_out_one": ("1 ältere passt nicht mehr dazu: Ergebnisse behält die letzten %(max)s.",
                                      "1 older one is left out: Results keeps the last %(max)s."),
    "results.backup_problem.damaged": ("Diese Datei ist beschädigt. Es wurde nichts geändert.",
                                       "This file is damaged. Nothing was changed."),
    "results.backup_problem.newer": ("Diese Sicherung stammt aus einer neueren Version von Spieleabend. Bitte erst "
                                     "aktualisieren. Es wurde nichts geändert.",
                                     "This backup comes from a newer version of Game Night. Please update first. "
                                     "Nothing was changed."),
    "results.backup_problem.foreign": ("Das ist keine Spieleabend-Sicherung. Es wurde nichts geändert.",
                                       "This is not a Game Night backup. Nothing was changed."),
    "results.backup_problem.game_file": ("Das ist ein einzelnes Spiel, keine Sicherung – öffne es mit „Spiel öffnen“ "
                                         "auf der Startseite.", "This is a single game, not a backup – open it with "
                                         "\u201cOpen a game\u201d on the home screen."),
    "results.backup_problem.too_large": ("Die Datei ist zu groß für eine Sicherung. Es wurde nichts geändert.",
                                         "The file is too large for a backup. Nothing was changed."),
    "results.backup_problem.storage": ("Der Speicher des Browsers ist voll; die Sicherung wurde nicht geladen. "
                                       "Es wurde nichts geändert.", "The browser's storage is full; the backup was not "
                                       "loaded. Nothing was changed."),
})


def players_line(game, names, scores):
    """Return "Anna 12 · Ben 20": each player with the score as the game writes it ("–" where none)."""
    # A no-break space: "Deniz" at a line's end and "90" alone on the next read as two players' parts.
    return " · ".join("%s\u00a0%s" % (names[i], score_text(game, scores[i]) if i < len(scores) and game in GAME_MODULES
                                      and isinstance(scores[i], (int, float)) else "–") for i in range(len(names)))


def nights_by_id(app):
    """Return ({night id: night} of every evening on this device, tonight's id or None), read once."""
    nights = app.storage.nights()  # each read parses the stored document
    by_id = {}
    for night in nights["past"] + ([nights["current"]] if nights["current"] else []):
        by_id[night["id"]] = night
    return by_id, nights["current"]["id"] if nights["current"] else None


def stored_replays(app):
    """Return {replay id: True} of the replays kept on this device (a result offers "Ansehen" only then)."""
    return dict((replay_id, True) for replay_id in app.storage.replay_ids())


def filtered(results, game):
    """Return the results of one game ("" = all), newest first."""
    return results if not game else [r for r in results if r["game"] == game]


def past_nights(nights, results, current_id):
    """Return past evenings newest first: the stored ones and any a result names (older data)."""
    out = []
    known = {current_id: True}
    for night in nights["past"]:
        if night["id"] not in known:
            known[night["id"]] = True
            out.append(night)
    for result in results:
        night_id = result["night"]
        if night_id and night_id not in known:
            known[night_id] = True
            starts = [r["finished_at"] for r in results if r["night"] == night_id]
            out.append({"id": night_id, "started_at": min(starts), "people": []})
    return sorted(out, key=lambda night: -night["started_at"])


class ResultsScreen(Screen):
    """Finished games with charts, tonight's table, past evenings and the backup."""

    route = "results"

    def __init__(self):
        self.game = ""
        self.open = {}  # result index -> True when its chart is shown
        self.shown = SHOWN
        self.problem = None
        self.open_nights = {}  # past evenings whose table is shown
        self.past_shown = PAST_SHOWN
        self.cache = None  # the results as read at the first render (reading parses every entry)
        self.undo = None  # what a backup just loaded replaced: [(key, stored text or None)]

    def render(self, app):
        if self.cache is None:
            self.cache = app.storage.results()
        results = self.cache
        night = app.storage.night()
        parts = [storage_notices(app)]  # results or the evening just set aside as unreadable: said here, not later
        dropped = app.storage.dropped_replays()
        if dropped:
            parts.append('<div class="notice" role="status" data-testid="replays-dropped"><p>%s</p>%s</div>' % (
                escape(t("results.dropped", n=dropped)), button(t("results.dropped_ok"), "dropped-ok", "replays-dropped-ok",
                                                           kind="ghost")))
        if self.problem:
            parts.append('<div class="notice warn" role="alert" data-testid="import-problem"><p>%s</p></div>' % escape(self.problem))
        tonight = evening_table(results, night["id"], night.get("people") or [])
        if tonight["rows"]:
            parts.append('<section class="panel night-box" aria-labelledby="tonight-h"><h2 id="tonight-h">%s</h2>%s'
                         '<p><a class="btn btn-secondary" href="#/night" data-testid="nav-night">%s</a></p></section>' % (
                             escape(t("results.tonight")), evening_html(app, night, results, charts=False, compact=True, table=tonight),
                             escape(t("results.open_night"))))
        else:
            parts.append('<p><a class="btn btn-secondary" href="#/night" data-testid="nav-night">%s</a></p>'
                         % escape(t("results.open_night")))
        parts.append('<h2>%s</h2>' % escape(t("results.history")))
        parts.append(self.render_filter())
        self.replays = stored_replays(app)
        parts.append(self.render_items(app, results))
        parts.append(self.render_received(app))
        parts.append(self.render_past(app, results, night["id"]))
        parts.append(self.render_backup())
        return page(t("results.title"), "".join(parts), extra_class="results-screen")

    def render_filter(self):
        options = ['<option value=""%s>%s</option>' % (" selected" if not self.game else "", escape(t("results.all_games")))]
        for game in GAME_MODULES:
            options.append('<option value="%s"%s>%s</option>' % (game, " selected" if game == self.game else "",
                                                                  escape(game_name(game))))
        return ('<p class="filter"><label for="result-filter" class="label">%s</label>'
                '<select id="result-filter" data-input="filter" data-testid="result-filter">%s</select></p>' % (
                    escape(t("results.filter")), "".join(options)))

    def render_items(self, app, results):
        shown = filtered(results, self.game)
        if not shown:
            return '<p class="empty">%s</p>' % escape(t("results.none_of_game") if self.game else t("results.none"))
        by_id, current_id = nights_by_id(app)
        items = []
        for index in range(min(len(shown), self.shown)):
            items.append(self.render_item(app, shown[index], index, by_id, current_id))
        more = ""
        if len(shown) > self.shown:
            more = button(t("results.more"), "more", "results-more", kind="ghost")
        return '<ul class="results">%s</ul>%s' % ("".join(items), more)

    def item_alone(self, app, result):
        """Return one finished game as Ergebnisse lists it, on its own (a reload on a final shows it so)."""
        self.replays = stored_replays(app)
        by_id, current_id = nights_by_id(app)
        return '<ul class="results">%s</ul>' % self.render_item(app, result, 0, by_id, current_id)

    def render_item(self, app, result, index, nights, current_id):
        winners = result["winners"]
        if len(winners) == 1:
            verdict = t("results.winner", names=winners[0])
        elif winners:
            verdict = t("results.shared", names=", ".join(winners))
        else:
            verdict = t("results.no_winner")
        players = players_line(result["game"], result["players"], result["scores"])
        if result["level"] and result["computers"]:  # which level this game was played against
            players += " · " + t("results.level", level=level_name(result["game"], result["level"]))
        # No seat of this device's own (several people played on it, or it watched): no "your points".
        mine = "" if result["my_score"] is None else '<p class="mine">%s</p>' % escape(
            t("results.your_points", points=score_text(result["game"], result["my_score"])))
        evening = ""
        if result["night"]:
            night = nights[result["night"]] if result["night"] in nights else None
            started = night["started_at"] if night else result["finished_at"]
            evening = '<p class="evening"><a href="#/night%s" data-testid="result-night">%s</a></p>' % (
                "" if result["night"] == current_id else "/" + escape(result["night"]),
                escape(t("results.evening", time=app.format_time(started))))
        open_chart = index == 0 or index in self.open
        chart = ""
        if len(result["history"]) >= 2:
            if open_chart:
                chart = score_chart(result["players"], result["history"],
                                    caption=game_name(result["game"]) + " – " + t("chart.scores_title"),
                                    game=result["game"] if result["game"] in GAME_MODULES else None)
            toggle = button(t("results.hide_chart") if open_chart else t("results.show_chart"), "chart",
                            "show-chart", kind="ghost", data_value=str(index),
                            aria_expanded="true" if open_chart else "false")
            chart = toggle + chart if index != 0 else chart
        watch = ""
        if result["replay"] and result["replay"] in self.replays:
            watch = '<p><a class="btn btn-secondary" href="#/replay/%s" data-testid="result-watch">%s</a></p>' % (
                escape(result["replay"]), escape(t("results.watch")))
        return ('<li%s><div class="result-head"><strong>%s</strong><time>%s</time></div>'
                '<p>%s</p><p>%s</p>%s%s%s%s</li>' % (
                    attrs(class_="result", data_testid="result-item", data_game=result["game"], tabindex="-1"),
                    escape(game_name(result["game"])), escape(app.format_time(result["finished_at"])),
                    escape(players), escape(verdict), mine, watch, evening,
                    chart))

    def render_received(self, app):
        """List replays other devices shared with this one (they are no results of this device)."""
        items = []
        for replay_id in reversed(list(self.replays)):
            if "-" not in replay_id:
                continue
            document = app.storage.load_replay(replay_id) if replay_id.endswith("-r") else None
            if document is None:
                continue
            game = document["game"]
            players = players_line(game, document["names"], document.get("scores") or [])
            items.append('<li class="result" data-testid="received-replay"><div class="result-head"><strong>%s</strong>'
                         '<time>%s</time></div><p>%s</p><p class="row wrap"><a class="btn btn-secondary" href="#/replay/%s" '
                         'data-testid="received-watch">%s</a>%s</p></li>' % (
                             escape(game_name(game)),
                             escape(app.format_time(document["finished_at"]) if document.get("finished_at") else ""),
                             escape(players), escape(replay_id), escape(t("results.watch")),
                             button(t("results.delete_received"), "delete-received", "received-delete", kind="ghost",
                                    data_value=replay_id)))
        if not items:
            return ""
        return '<h2>%s</h2><ul class="results">%s</ul>' % (escape(t("results.received_h")), "".join(items))

    def render_past(self, app, results, current_id):
        """List past evenings; an evening's table is drawn only when opened (each costs time in Brython)."""
        nights = past_nights(app.storage.nights(), results, current_id)
        if not nights:
            return ""
        by_night = {}
        for result in results:
            if result["night"] is not None:
                if result["night"] not in by_night:
                    by_night[result["night"]] = []
                by_night[result["night"]].append(result)
        items = []
        for night in nights[:self.past_shown]:
            own = by_night[night["id"]] if night["id"] in by_night else []
            count = len(own)
            games = t("night.games_one") if count == 1 else t("night.games_count", n=count)
            opened = night["id"] in self.open_nights
            inner = ""
            if opened:
                inner = '%s<p><a class="btn btn-ghost" href="#/night/%s">%s</a></p>' % (
                    evening_html(app, night, own, charts=False, testid="past-night-table", compact=True, kept=results),
                    escape(night["id"]), escape(t("results.open_night")))
            items.append('<li data-testid="past-night" data-night="%s">%s%s</li>' % (
                escape(night["id"]),
                button(t("results.past_summary", time=app.format_time(night["started_at"]), games=games),
                       "past", "past-night-toggle", kind="ghost", extra="past-toggle", data_value=night["id"],
                       aria_expanded="true" if opened else "false"),
                inner))
        more = ""
        if len(nights) > self.past_shown:
            more = '<p>%s</p>' % button(t("results.more"), "more-past", "past-more", kind="ghost")
        return '<h2>%s</h2><ul class="past-nights">%s</ul>%s' % (escape(t("results.past")), "".join(items), more)

    def render_backup(self):
        return ('<section class="panel backup" aria-labelledby="backup-h"><h2 id="backup-h">%s</h2><p class="hint">%s</p>'
                '<div class="row wrap">%s<label class="btn btn-secondary file-pick">%s<input type="file" '
                'accept=".json,application/json" data-input="import-all" data-testid="import-all" class="visually-hidden"></label>'
                '</div></section>' % (
                    escape(t("results.backup")), escape(t("results.backup_hint")),
                    button(t("results.export_all"), "export-all", "export-all", kind="secondary"),
                    escape(t("results.import_all"))))

    def storage_refused(self, app, key):
        """The browser refused a write: a backup just loaded is taken back whole (both or neither); True then."""
        self.cache = None  # what was read may not have been kept
        undo, self.undo = self.undo, None
        if undo is None or key not in (RESULTS_KEY, NIGHT_KEY):
            return False
        for stored_key, raw in undo:
            try:
                if raw is None:
                    app.storage.backend.removeItem(stored_key)
                else:
                    app.storage.backend.setItem(stored_key, raw)
            except Exception:
                pass  # what was there before took no more room than now
        self.problem = t("results.backup_problem.storage")
        return True

    def handle(self, app, action, value):
        self.undo = None  # a refusal after this is not the backup's
        if action == "dropped-ok":
            app.storage.clear_dropped_replays()
        elif action == "chart":
            index = int(value)
            if index in self.open:
                del self.open[index]
            else:
                self.open[index] = True
        elif action == "past":
            if value in self.open_nights:
                del self.open_nights[value]
            else:
                self.open_nights[value] = True
        elif action == "more":
            # The first newly shown game takes the focus: the button that had it may be gone now.
            first_new = self.shown + 1
            self.shown += SHOWN
            app.rerender()
            app.focus("ul.results > li:nth-child(%d)" % first_new)
            return
        elif action == "more-past":
            first_new = self.past_shown + 1
            self.past_shown += PAST_SHOWN
            app.rerender()
            app.focus("ul.past-nights > li:nth-child(%d) .past-toggle" % first_new)
            return
        elif action == "delete-received" and isinstance(value, str) and value.endswith("-r"):
            app.storage.delete_replay(value)  # only one received from elsewhere: a result's own stays
            app.toast(t("results.deleted_received"))
        elif action == "export-all":
            from spieleabend.ui import transfer  # the file glue lives with the transfer screens

            transfer.save_file(app, "spieleabend-sicherung-%d.json" % app.now(), app.storage.export_backup())
            return
        app.rerender()

    def on_input(self, app, name, value, final):
        if name == "filter":
            self.game = value if value in GAME_MODULES else ""
            self.shown = SHOWN
            self.open = {}
            app.rerender()
        elif name == "import-all" and final:
            from spieleabend.ui import transfer

            transfer.read_file(app, '[data-testid="import-all"]', MAX_BACKUP_CHARS, lambda text: self.take_backup(app, text))

    def take_backup(self, app, text):
        """Merge a chosen backup file into this device's results and evenings, or say why not."""
        try:
            backup = app.storage.parse_backup(text if text is not None else "")
        except ImportProblem as problem:
            self.problem = t("results.backup_problem." + problem.reason)
            app.rerender()
            return
        # The browser may still refuse what the app's copy took: then storage_refused puts these back.
        self.undo = [(key, app.storage.backend.getItem(key)) for key in (RESULTS_KEY, NIGHT_KEY)]
        added = app.storage.import_backup(backup)
        self.cache = None
        if added is None:
            self.problem = t("results.backup_problem.storage")
        else:
            self.problem = None
            taken, left_out = added
            text = t("results.imported", n=taken) if taken else t("results.imported_none")
            if left_out:
                text += " " + t("results.imported_left_out", n=left_out, max=MAX_RESULTS)
            app.toast(text)
        app.rerender()

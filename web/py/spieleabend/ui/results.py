"""Results: finished games and the game-night table."""

from spieleabend.storage import night_table
from spieleabend.ui.html import button, escape
from spieleabend.ui.i18n import t
from spieleabend.ui.shell import Screen, page


class ResultsScreen(Screen):
    """Finished games and the game-night table."""

    route = "results"

    def render(self, app):
        results = app.storage.results()
        night = app.storage.night()
        rows = night_table(results, night["id"])
        table = ""
        if rows:
            table = ('<table class="night" data-testid="night-table"><caption>%s · %s</caption><thead><tr><th scope="col">%s</th>'
                     '<th scope="col">%s</th><th scope="col">%s</th></tr></thead><tbody>%s</tbody></table>' % (
                         escape(t("results.night")), escape(t("results.night_since", time=app.format_time(night["started_at"]))),
                         escape(t("results.player")), escape(t("results.points")), escape(t("results.games")),
                         "".join('<tr><th scope="row">%s</th><td>%d</td><td>%d</td></tr>' % (
                             escape(r["name"]), r["points"], r["games"]) for r in rows)))
        items = []
        for result in results:
            winners = result.get("winners", [])
            if len(winners) == 1:
                verdict = t("results.winner", names=winners[0])
            elif winners:
                verdict = t("results.shared", names=", ".join(winners))
            else:
                verdict = t("results.no_winner")
            items.append(
                '<li class="result" data-testid="result-item"><div class="result-head"><strong>%s</strong><time>%s</time></div>'
                '<p>%s</p><p>%s</p><p class="mine">%s</p></li>' % (
                    escape(t("game." + result.get("game", ""))), escape(app.format_time(result.get("finished_at", 0))),
                    escape(" · ".join("%s %s" % (name, score) for name, score in
                                      zip(result.get("players", []), result.get("scores", [])))),
                    escape(verdict), escape(t("results.your_points", points=result.get("my_score", "–")))))
        history = ('<ul class="results">%s</ul>' % "".join(items)) if items else '<p class="empty">%s</p>' % escape(t("results.none"))
        body = ('%s<div class="row">%s</div><h2>%s</h2>%s' % (
            table, button(t("results.new_night"), "new-night", "new-night", kind="ghost") if rows else "",
            escape(t("results.history")), history))
        return page(t("results.title"), body)

    def handle(self, app, action, value):
        if action == "new-night":
            app.storage.new_night()
            app.rerender()

"""The app's own screens: home, settings and results (plain HTML from data; no browser import)."""

from spieleabend.games import GAME_MODULES
from spieleabend.storage import DEFAULT_SETTINGS, night_table
from spieleabend.ui.html import attrs, button, escape
from spieleabend.ui.i18n import t

# Games whose screens exist; the others are listed as coming.
PLAYABLE = {"punktejagd": "spieleabend.ui.punktejagd"}

SUIT_OF_GAME = {"punktejagd": "♦", "kartenkampf": "♠", "maumau": "♥", "paodekuai": "♣", "golf": "♠"}
RED_SUITS = "♦♥"


def page(title, body, back=True, extra_class=""):
    """Return a screen with a header bar (title and a way back home) around body."""
    back_button = ""
    if back:
        back_button = '<a class="btn btn-ghost back" href="#/" data-testid="nav-home">‹ %s</a>' % escape(t("nav.home"))
    return ('<div class="screen %s"><header class="bar">%s<h1>%s</h1></header>'
            '<main class="content">%s</main></div>' % (extra_class, back_button, escape(title), body))


class Screen:
    """A screen renders HTML and reacts to actions; the app does the DOM work."""

    route = ""

    def render(self, app):
        return ""

    def handle(self, app, action, value):
        """React to a tap on an element with data-action."""

    def on_input(self, app, name, value, final):
        """React to an input or select with data-input (final: the change is complete)."""

    def on_key(self, app, key):
        """React to a key press; return True if it was used."""
        return False

    def leave(self, app):
        """Stop timers before another screen takes over."""


class HomeScreen(Screen):
    """The start: the five games, saved games to continue, results and settings."""

    route = ""

    def render(self, app):
        parts = ['<section class="hero"><div class="hero-cards" aria-hidden="true">'
                 '<span class="mini-card red">K♥</span><span class="mini-card">A♠</span>'
                 '<span class="mini-card red">7♦</span></div>'
                 '<p class="tagline">%s</p></section>' % escape(t("app.tagline"))]
        saves = app.storage.saved_games(list(PLAYABLE))  # first: it may set damaged saves aside
        parts.append(self.notices(app))
        if saves:
            items = []
            for save in saves:
                meta = save["meta"]
                label = t("home.continue_game", game=t("game." + save["game"]), round=meta.get("round", "?"))
                items.append('<li>%s</li>' % button(label, "continue", "continue-" + save["game"],
                                                   kind="primary", data_value=save["game"]))
            parts.append('<section aria-labelledby="continue-h"><h2 id="continue-h">%s</h2>'
                         '<ul class="stack">%s</ul></section>' % (escape(t("home.continue")), "".join(items)))
        cards = []
        for game in GAME_MODULES:
            playable = game in PLAYABLE
            title = escape(t("game." + game))
            inner = ('<span class="suit%s" aria-hidden="true">%s</span><span class="game-text"><strong>%s</strong>'
                     '<span>%s</span></span>' % (" red" if SUIT_OF_GAME[game] in RED_SUITS else "", SUIT_OF_GAME[game], title, escape(t("blurb." + game))))
            if playable:
                cards.append('<li><a%s>%s<span class="go" aria-hidden="true">›</span></a></li>' % (
                    attrs(class_="game-tile", href="#/play/" + game, data_testid="game-" + game), inner))
            else:
                cards.append('<li><div%s>%s<span class="tile-side"><span class="badge">%s</span>'
                             '<a class="rules-link" href="/rules/%s" data-testid="rules-%s" aria-label="%s">%s</a></span></div></li>' % (
                    attrs(class_="game-tile coming", data_testid="game-" + game),
                    inner, escape(t("home.coming")), game, game,
                    escape(t("home.rules_of", game=t("game." + game))), escape(t("home.rules"))))
        parts.append('<section aria-labelledby="games-h"><h2 id="games-h">%s</h2><ul class="games">%s</ul></section>'
                     % (escape(t("home.games")), "".join(cards)))
        parts.append('<nav class="home-nav" aria-label="%s">%s%s</nav>' % (
            escape(t("app.title")),
            '<a class="btn btn-secondary" href="#/results" data-testid="nav-results">%s</a>' % escape(t("home.results")),
            '<a class="btn btn-secondary" href="#/settings" data-testid="nav-settings">%s</a>' % escape(t("home.settings"))))
        return page(t("app.title"), "".join(parts), back=False, extra_class="home")

    def notices(self, app):
        """Return the banners: damaged saves, a waiting update, a finished update."""
        out = []
        for notice in app.storage.notices:
            out.append('<div class="notice warn" role="alert" data-testid="damaged-notice"><p>%s</p>%s</div>' % (
                escape(t("home.damaged", where=notice["aside"] or notice["key"])),
                button(t("home.dismiss"), "dismiss-notice", "dismiss-notice", kind="ghost")))
        if app.update_waiting():
            out.append('<div class="notice" role="status" data-testid="update-waiting"><p>%s</p>%s</div>' % (
                escape(t("home.update_waiting")),
                button(t("home.update_now"), "update-now", "update-now", kind="ghost")))
        elif app.just_updated:
            out.append('<div class="notice" role="status" data-testid="updated"><p>%s</p></div>' % escape(t("home.updated")))
        return "".join(out)

    def handle(self, app, action, value):
        if action == "continue":
            app.go("play/" + value + "/continue")
        elif action == "dismiss-notice":
            app.storage.notices = []
            app.rerender()
        elif action == "update-now":
            app.activate_update()


class SettingsScreen(Screen):
    """Language, motion and the display settings that apply to the whole app."""

    route = "settings"

    def render(self, app):
        s = app.settings
        lang = "".join('<option value="%s"%s>%s</option>' % (code, " selected" if s["language"] == code else "",
                                                          escape(t("settings.lang." + code))) for code in ("de", "en"))
        motion = "".join('<label class="choice"><input type="radio" name="motion" value="%s" data-input="motion"%s>'
                         '<span>%s</span></label>' % (m, " checked" if s["motion"] == m else "",
                                                     escape(t("settings.motion." + m)))
                         for m in ("system", "reduce", "full"))
        sliders = "".join(
            '<div class="slider"><label for="set-%s">%s</label>'
            '<input type="range" id="set-%s" min="0" max="100" step="1" value="%d" data-input="%s" data-testid="setting-%s">'
            '<output for="set-%s" id="out-%s">%d %%</output></div>' % (
                name, escape(t("settings." + name)), name, s[name], name, name, name, name, s[name])
            for name in ("contrast", "grain", "temperature"))
        body = (
            '<section class="panel"><h2 id="lang-h">%s</h2>'
            '<select id="set-language" aria-labelledby="lang-h" data-input="language" data-testid="setting-language">%s</select></section>'
            '<section class="panel"><fieldset><legend>%s</legend><div class="choices" data-testid="setting-motion">%s</div></fieldset></section>'
            '<section class="panel"><h2>%s</h2>%s%s</section>'
            '<section class="panel"><label class="check"><input type="checkbox" data-input="memory_aid" data-testid="setting-memory-aid"%s>'
            '<span>%s</span></label></section>'
            '<p class="hint" aria-live="polite" id="settings-status"></p>' % (
                escape(t("settings.language")), lang, escape(t("settings.motion")), motion,
                escape(t("settings.display")), sliders,
                button(t("settings.reset_display"), "reset-display", "reset-display", kind="ghost"),
                " checked" if s["memory_aid"] else "", escape(t("settings.memory_aid"))))
        return page(t("settings.title"), body)

    def on_input(self, app, name, value, final):
        if name in ("contrast", "grain", "temperature"):
            app.settings[name] = int(value)
            app.output("out-" + name, "%d %%" % int(value))
        elif name == "language":
            app.settings["language"] = value
        elif name == "motion":
            app.settings["motion"] = value
        elif name == "memory_aid":
            app.settings["memory_aid"] = bool(value)
        app.apply_settings()
        if final:
            app.save_settings()
            if name == "language":
                app.rerender()
            app.output("settings-status", t("settings.saved"))

    def handle(self, app, action, value):
        if action == "reset-display":
            for name in ("contrast", "grain", "temperature"):
                app.settings[name] = DEFAULT_SETTINGS[name]
            app.apply_settings()
            app.save_settings()
            app.rerender()


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

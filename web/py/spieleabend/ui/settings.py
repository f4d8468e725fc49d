"""Settings: language, motion and the display settings that apply to the whole app."""

from spieleabend.storage import DEFAULT_SETTINGS
from spieleabend.ui.html import button, escape
from spieleabend.ui.i18n import register, t
from spieleabend.ui.shell import Screen, page, storage_notices

register({
    "settings.memory_aid": ("Gedächtnisstütze (Golf)", "Memory aid (Golf)"),
    "settings.memory_aid_hint": ("Zeigt dir deine gesehenen Karten klein auf der Rückseite. Aus ist die Regel: Merken gehört zum Spiel.",
                                 "Shows the cards you have seen, small, on their backs. The rules play without it: remembering is part of the game."),
    "settings.vibrate": ("Vibrieren, wenn du dran bist (im Raum)", "Vibrate when it is your turn (in a room)"),
    "settings.vibrate_hint": ("Ein kurzes Summen, wenn im Raum dein Zug kommt (wo das Telefon es kann).",
                              "A short buzz when your turn comes in a room (where the phone can)."),
    "settings.percent": ("%(n)s\u00a0%%", "%(n)s%%"),  # German sets a space before %, English none
    "settings.storage": ("Speicher", "Storage"),
    "settings.storage_used": ("Belegt: %(share)s des Speicherplatzes im Browser.",
                              "In use: %(share)s of the storage space in this browser."),
    "settings.replays": ("%(n)s Aufzeichnungen beendeter Partien", "%(n)s replays of finished games"),
    "settings.replays_one": ("1 Aufzeichnung einer beendeten Partie", "1 replay of a finished game"),
    "settings.aside": ("%(n)s beiseitegelegte Kopien (Daten, die nicht gelesen werden konnten)",
                       "%(n)s copies set aside (data that could not be read)"),
    "settings.aside_one": ("1 beiseitegelegte Kopie (Daten, die nicht gelesen werden konnten)",
                           "1 copy set aside (data that could not be read)"),
    "settings.storage_hint": ("Ergebnisse, der Spieleabend und laufende Spiele bleiben beim Löschen.",
                              "Results, the game night and running games stay when you delete."),
    "settings.clear_replays": ("Aufzeichnungen löschen", "Delete replays"),
    "settings.clear_aside": ("Kopien löschen", "Delete copies"),
    "settings.clear_confirm": ("Wirklich löschen? Noch einmal tippen", "Really delete? Tap again"),
    "settings.cleared": ("Gelöscht: %(n)s.", "Deleted: %(n)s."),
})

STORAGE_KINDS = ("replays", "aside")  # what the person may delete for room, each behind a second tap


def percent(n):
    """Return a share as the language writes it: "50 %" / "50%"."""
    return t("settings.percent", n=n)


def switch(settings, name):
    """Return the on/off switch of one setting with its hint (memory_aid: "setting-memory-aid", …)."""
    key = name.replace("_", "-")
    return ('<section class="panel"><label class="check"><input type="checkbox" id="set-%s" data-input="%s" '
            'data-testid="setting-%s" aria-describedby="%s-hint"%s><span>%s</span></label>'
            '<p class="hint" id="%s-hint">%s</p></section>' % (
                key, name, key, key, " checked" if settings[name] else "", escape(t("settings." + name)),
                key, escape(t("settings.%s_hint" % name))))


def storage_panel(app, armed):
    """Return what storage holds and buttons to delete what may go (`armed`: the kind asked to delete once)."""
    storage = app.storage
    counts = {"replays": len(storage.replay_ids()), "aside": len(storage.damaged_keys())}
    limit = getattr(storage.backend, "limit", None)
    lines = []
    if limit:
        share = min(100, (100 * storage.used_chars() + limit - 1) // limit)
        lines.append('<p data-testid="storage-used">%s</p>' % escape(t("settings.storage_used", share=percent(share))))
    deletable = False
    for kind in STORAGE_KINDS:
        if not counts[kind]:
            continue
        deletable = True
        lines.append('<p data-testid="storage-%s">%s</p><p>%s</p>' % (
            kind, escape(t("settings." + kind, n=counts[kind])),
            button(t("settings.clear_confirm") if armed == kind else t("settings.clear_" + kind), "clear-storage",
                   "clear-" + kind, kind="secondary" if armed == kind else "ghost", data_value=kind)))
    hint = '<p class="hint">%s</p>' % escape(t("settings.storage_hint")) if deletable else ""
    return '<section class="panel" data-testid="storage-panel"><h2>%s</h2>%s%s</section>' % (
        escape(t("settings.storage")), "".join(lines), hint)


class SettingsScreen(Screen):
    """Language, motion and the display settings that apply to the whole app."""

    route = "settings"

    def __init__(self):
        self.armed = None  # the kind of stored data the person asked to delete once (a second tap deletes)

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
            '<output for="set-%s" id="out-%s">%s</output></div>' % (
                name, escape(t("settings." + name)), name, s[name], name, name, name, name, percent(s[name]))
            for name in ("contrast", "grain", "temperature"))
        body = (
            '<section class="panel"><h2 id="lang-h">%s</h2>'
            '<select id="set-language" aria-labelledby="lang-h" data-input="language" data-testid="setting-language">%s</select></section>'
            '<section class="panel"><fieldset><legend>%s</legend><div class="choices" data-testid="setting-motion">%s</div></fieldset></section>'
            '<section class="panel"><h2>%s</h2>%s%s</section>%s'
            '<p class="hint" aria-live="polite" id="settings-status"></p>' % (
                escape(t("settings.language")), lang, escape(t("settings.motion")), motion,
                escape(t("settings.display")), sliders,
                button(t("settings.reset_display"), "reset-display", "reset-display", kind="ghost"),
                switch(s, "memory_aid") + switch(s, "vibrate")))
        # A document set aside as unreadable is said on every screen until dismissed (here too).
        return page(t("settings.title"), storage_notices(app) + body + storage_panel(app, self.armed))

    def on_input(self, app, name, value, final):
        if name in ("contrast", "grain", "temperature"):
            app.settings[name] = int(value)
            app.output("out-" + name, percent(int(value)))
        elif name == "language":
            app.settings["language"] = value
        elif name == "motion":
            app.settings["motion"] = value
        elif isinstance(DEFAULT_SETTINGS.get(name), bool):  # a switch (memory_aid, vibrate)
            app.settings[name] = bool(value)
        app.apply_settings()
        if final:
            app.save_settings()
            if name == "language":
                app.rerender()
            app.output("settings-status", t("settings.saved"))

    def handle(self, app, action, value):
        if action == "clear-storage" and value in STORAGE_KINDS:
            if self.armed != value:
                self.armed = value
            else:
                self.armed = None
                gone = app.storage.delete_all_replays() if value == "replays" else app.storage.delete_damaged()
                app.toast(t("settings.cleared", n=t("settings." + value, n=gone)))
            app.rerender()
        elif action == "reset-display":
            for name in ("contrast", "grain", "temperature"):
                app.settings[name] = DEFAULT_SETTINGS[name]
            app.apply_settings()
            app.save_settings()
            app.rerender()

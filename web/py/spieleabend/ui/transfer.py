"""Carry a game to another device: as a file, or through a one-time code (and its QR code).

The sending side (#/transfer/<game>) offers the saved game as a file and, when the server
answers, a short code that the other device redeems once within ten minutes. The receiving
side (#/open, #/open/<code> from the QR code) checks what it got before anything is written:
a damaged file, one from a newer version or for a game this release cannot play gets a clear
message and changes nothing; replacing a saved game of the same kind asks first. The save
holds the game state (with its generator) and the computers' generator, so the game goes on
exactly as it would have on the first device.
"""

from spieleabend.games import GAME_MODULES, check_saved_game, load as load_engine
from spieleabend.storage import MAX_GAME_CHARS, ImportProblem
from spieleabend.ui.html import button, countdown, escape
from spieleabend.ui.i18n import register, round_label, t
from spieleabend.ui.shell import Screen, page
from spieleabend.ui.table import secret_of_a_person

API = "/api/transfer"

register({
    "tr.title": ("Auf anderes Gerät übertragen", "Move to another device"),
    "tr.intro": ("Deine Partie %(game)s geht auf dem anderen Gerät genau hier weiter – gleiche Karten, gleiche Pläne "
                 "der Computer. Hier bleibt sie ebenfalls gespeichert.",
                 "Your game of %(game)s continues on the other device exactly from here – the same cards, the same "
                 "plans of the computers. It also stays saved here."),
    "tr.no_save": ("Von %(game)s ist kein Spiel gespeichert.", "There is no saved game of %(game)s."),
    "tr.new_game": ("Neue Partie %(game)s", "New game of %(game)s"),
    "tr.open_other": ("Ein Spiel von einem anderen Gerät öffnen", "Open a game from another device"),
    "tr.file_h": ("Als Datei", "As a file"),
    "tr.file_hint": ("Speichere die Datei oder teile sie, und öffne sie auf dem anderen Gerät mit „Spiel öffnen“.",
                     "Save or share the file, then open it on the other device with \u201cOpen a game\u201d."),
    "tr.file": ("Datei sichern", "Save the file"),
    "tr.file_done": ("Datei erstellt.", "File created."),
    "tr.share": ("Datei teilen …", "Share the file …"),
    "tr.shared": ("Datei geteilt.", "File shared."),
    "tr.code_h": ("Mit Code", "With a code"),
    "tr.code_hint": ("Der Server hält das Spiel höchstens 10 Minuten; der Code gilt ein einziges Mal.",
                     "The server keeps the game for at most 10 minutes; the code works once."),
    "tr.make_code": ("Code erzeugen", "Create a code"),
    "tr.code_wait": ("Code wird erzeugt …", "Creating the code …"),
    "tr.code_is": ("Code für das andere Gerät", "Code for the other device"),
    "tr.code_enter": ("Auf dem anderen Gerät: Startseite → „Spiel öffnen“ → Code eingeben, oder den QR-Code scannen.",
                      "On the other device: home → \u201cOpen a game\u201d → enter the code, or scan the QR code."),
    "tr.code_valid": ("Gilt noch %(left)s Minuten und nur ein einziges Mal.", "Valid for %(left)s more minutes, and only once."),
    "tr.taken": ("Das andere Gerät hat die Partie übernommen und spielt dort weiter.",
                 "The other device has taken the game over and plays on there."),
    "tr.taken_hint": ("Hier ist sie noch gespeichert. Löschst du sie, zählt sie am Ende nicht doppelt.",
                      "It is still saved here. Delete it, so that it does not count twice in the end."),
    "tr.delete_here": ("Hier löschen", "Delete it here"),
    "tr.keep_here": ("Auch hier behalten", "Keep it here too"),
    "tr.deleted_here": ("Hier gelöscht – die Partie geht auf dem anderen Gerät weiter.",
                        "Deleted here – the game goes on on the other device."),
    "tr.expired": ("Der Code ist abgelaufen. Erzeuge einen neuen.", "The code has expired. Create a new one."),
    "tr.qr": ("QR-Code für %(code)s", "QR code for %(code)s"),
    "tr.offline": ("Der Server ist nicht erreichbar – nimm die Datei.", "The server cannot be reached – use the file."),
    "tr.code_failed": ("Der Server hat keinen Code vergeben (%(why)s). Versuch es gleich noch einmal oder nimm die Datei.",
                       "The server gave no code (%(why)s). Try again shortly or use the file."),
    "tr.open_title": ("Spiel öffnen", "Open a game"),
    "tr.open_intro": ("Übernimm eine Partie von einem anderen Gerät oder sieh dir eine geteilte Aufzeichnung an: "
                      "aus einer Datei oder mit dem Code, den das andere Gerät zeigt.",
                      "Take over a game from another device, or watch a shared replay: from a file or with the "
                      "code the other device shows."),
    "tr.pick_file": ("Datei wählen", "Choose a file"),
    "tr.code_label": ("Code", "Code"),
    "tr.redeem": ("Spiel holen", "Fetch the game"),
    "tr.redeem_wait": ("Spiel wird geholt …", "Fetching the game …"),
    "tr.replace_q": ("Auf diesem Gerät ist schon eine Partie %(game)s gespeichert (%(round)s). "
                     "Soll die übertragene (%(received)s) sie ersetzen?",
                     "A game of %(game)s is already saved on this device (%(round)s). "
                     "Replace it with the one received (%(received)s)?"),
    "tr.code_used": ("Der Code ist eingelöst: Behältst du deine, ist die übertragene weg.",
                     "The code has been used: if you keep yours, the one received is gone."),
    "tr.replace": ("Ersetzen", "Replace"),
    "tr.keep": ("Behalten", "Keep mine"),
    "tr.kept": ("Nichts geändert: deine Partie bleibt.", "Nothing changed: your game stays."),
    "tr.kept_code": ("Deine Partie bleibt; die übertragene ist verworfen.", "Your game stays; the one received is dropped."),
    "tr.received": ("%(game)s übernommen.", "%(game)s taken over."),
    "tr.replay_received": ("Aufzeichnung %(game)s empfangen.", "Replay of %(game)s received."),
    "tr.problem.damaged": ("Die Datei oder der Code enthält kein lesbares Spiel (beschädigt). Es wurde nichts geändert.",
                           "The file or code holds no readable game (damaged). Nothing was changed."),
    "tr.problem.newer": ("Dieses Spiel stammt aus einer neueren Version von Spieleabend. Aktualisiere zuerst "
                         "dieses Gerät. Es wurde nichts geändert.",
                         "This game comes from a newer version of Game Night. Update this device first. "
                         "Nothing was changed."),
    "tr.problem.unknown_game": ("Diese Version von Spieleabend kennt dieses Spiel nicht. Es wurde nichts geändert.",
                                "This version of Game Night does not know this game. Nothing was changed."),
    "tr.problem.foreign": ("Das ist keine Spieleabend-Datei. Es wurde nichts geändert.",
                           "This is not a Game Night file. Nothing was changed."),
    "tr.problem.backup": ("Das ist eine Sicherung aller Ergebnisse – lade sie unter „Ergebnisse“. Es wurde nichts geändert.",
                          "This is a backup of all results – load it under \u201cResults\u201d. Nothing was changed."),
    "tr.problem.room": ("Diese Partie läuft in einem Raum; sie bleibt auf dem Gerät, das den Raum leitet.",
                        "This game runs in a room; it stays on the device that hosts the room."),
    "tr.back_to_room": ("Zurück zum Raum", "Back to the room"),
    "tr.problem.too_large": ("Die Datei ist zu groß für ein Spiel. Es wurde nichts geändert.",
                             "The file is too large for a game. Nothing was changed."),
    "tr.problem.code": ("Diesen Code gibt es nicht (mehr): er ist abgelaufen, schon benutzt oder vertippt. "
                        "Es wurde nichts geändert.",
                        "This code does not exist (any more): it expired, was used already or has a typo. "
                        "Nothing was changed."),
    "tr.wait_reveal": ("Jemand hat schon verdeckt gewählt: Die Datei würde die Wahl zeigen. Übertragen geht wieder, "
                       "sobald die Runde aufgedeckt ist.",
                       "Someone has already chosen in secret: the file would show the choice. Moving the game works "
                       "again once the round is revealed."),
    "tr.problem.code_format": ("Ein Code hat 8 Zeichen, Buchstaben und Ziffern ohne 0, O, 1, I und L, z. B. ABCD 2345.",
                               "A code has 8 characters, letters and digits without 0, O, 1, I and L, e.g. ABCD 2345."),
    "tr.problem.offline": ("Der Server ist nicht erreichbar. Nimm die Datei oder versuch es später.",
                           "The server cannot be reached. Use the file or try later."),
    "tr.problem.slow": ("Zu viele Versuche – warte eine Minute.", "Too many attempts – wait a minute."),
    "tr.problem.busy": ("Der Server kann den Code gerade nicht prüfen; er bleibt gültig. Versuch es gleich noch einmal.",
                        "The server cannot check the code right now; it stays valid. Try again shortly."),
    "tr.why.slow_down": ("zu viele Codes in kurzer Zeit", "too many codes in a short time"),
    "tr.why.busy": ("der Server ist voll", "the server is full"),
    "tr.why.unavailable": ("der Server ist gerade nicht bereit", "the server is not ready right now"),
    "tr.problem.storage": ("Der Speicher des Browsers ist voll; das Spiel wurde nicht übernommen. Es wurde nichts geändert.",
                           "The browser's storage is full; the game was not taken over. Nothing was changed."),
})

CODE_CHARS = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ASK_EVERY_MS = 4000  # how often the sending device asks whether its code was redeemed: 15 of 30 asks a minute


# -- the browser glue (through ui.dom, imported only when used) ---------------------------------
def save_file(app, filename, document):
    """Offer a document as a JSON file to save or share."""
    from spieleabend.ui import dom

    dom.download(filename, app.storage.codec.dumps(document))


def can_share():
    """Return True where the device can hand the file to another app (phones)."""
    from spieleabend.ui import dom

    return dom.can_share_files()


def share_file(app, filename, document, on_done):
    """Hand the document as a file to another app; on_done(True when shared)."""
    from spieleabend.ui import dom

    dom.share_file(filename, app.storage.codec.dumps(document), t("tr.title"), on_done)


def read_file(app, selector, limit, on_text):
    """Read the file chosen in a file input: on_text(text or None)."""
    from spieleabend.ui import dom

    dom.read_chosen_file(selector, on_text, limit)


# -- pure checks (CPython tests import these) ---------------------------------------------------
def clean_code(text):
    """Return a typed code as the server keeps it (capitals, no spaces or dashes), or "" if it cannot be one."""
    code = "".join(str(text or "").split()).replace("-", "").upper()
    if len(code) != 8:
        return ""
    for ch in code:
        if ch not in CODE_CHARS:
            return ""
    return code


def show_code(code):
    """Return a code in two groups of four, easy to read out."""
    return code[:4] + " " + code[4:]


def check_game(document):
    """Raise ImportProblem("damaged") unless the engine can go on with the game and the meta fits it."""
    try:
        check_saved_game(document)
        if load_engine(document["game"]).outcome(document["state"]) is not None:
            raise ValueError("finished")
    except ValueError:
        raise ImportProblem("damaged")


def check_drawable(app, document):
    """Raise ImportProblem("damaged") unless the game's table can draw the received game (before it replaces a save)."""
    try:
        __import__("spieleabend.ui.table", fromlist=["x"]).check_drawable(app, document)
    except ValueError:
        raise ImportProblem("damaged")


def receive(storage, text):
    """Return the game document in text (file or code answer), fully checked; raise ImportProblem."""
    document = storage.parse_game_file(text, GAME_MODULES)
    if "room" in document["meta"]:
        raise ImportProblem("room")  # a room's host cannot move: the phones are joined to this one
    check_game(document)
    return document


# -- sending --------------------------------------------------------------------------------------
class TransferScreen(Screen):
    """Offer the saved game of one kind as a file and, with the server, as a one-time code."""

    asks_if_taken = True  # once the other device has fetched the game, offer to delete this copy

    def __init__(self, game):
        self.game = game
        self.route = "transfer/" + game
        self.code = None
        self.state = "idle"  # idle, waiting, code, taken (the other device fetched it), expired, offline, failed
        self.why = ""
        self.expires_at = 0  # ms: when the server forgets the code
        self.shareable = None  # asked once: can this device hand files to other apps?

    def filename(self, document):
        return "spieleabend-%s-%d.json" % (self.game, document["saved_at"])

    def render(self, app):
        title = t("tr.title")
        saved = app.storage.load_game(self.game)
        if saved is not None and "room" in saved["meta"]:
            # The room's game goes on on this device: lead back to it (the route of a room's game opens the room).
            return page(title, '<p class="empty" data-testid="transfer-none">%s</p><div class="stack">'
                        '<a class="btn btn-primary wide" href="#/play/%s/continue" data-testid="transfer-room">%s</a>'
                        '</div>' % (escape(t("tr.problem.room")), escape(self.game), escape(t("tr.back_to_room"))))
        if saved is None:
            # Reached by an old link or a finished game: the ways on, not only the home screen.
            return page(title, '<p class="empty" data-testid="transfer-none">%s</p><div class="stack">'
                        '<a class="btn btn-primary wide" href="#/play/%s" data-testid="transfer-new-game">%s</a>'
                        '<a class="btn btn-secondary wide" href="#/open" data-testid="transfer-open">%s</a></div>' % (
                            escape(t("tr.no_save", game=t("game." + self.game))), escape(self.game),
                            escape(t("tr.new_game", game=t("game." + self.game))), escape(t("tr.open_other"))))
        back = '<p><a class="btn btn-ghost" href="#/play/%s/continue" data-testid="transfer-back">%s</a></p>' % (
            escape(self.game), escape(t("home.continue")))
        if secret_of_a_person(load_engine(self.game), saved["state"], saved["meta"]):
            return page(title, '<p class="empty" data-testid="transfer-wait">%s</p>%s' % (
                escape(t("tr.wait_reveal")), back), extra_class="transfer-screen")
        if self.state == "taken":
            return page(title, '<div class="notice" role="alertdialog" aria-labelledby="taken-q" aria-describedby="taken-d" '
                        'data-testid="transfer-taken"><p id="taken-q"><strong>%s</strong></p><p id="taken-d">%s</p>'
                        '<div class="row wrap">%s%s</div></div>' % (
                            escape(t("tr.taken")), escape(t("tr.taken_hint")),
                            button(t("tr.delete_here"), "delete-here", "transfer-delete-here", kind="primary"),
                            button(t("tr.keep_here"), "keep-here", "transfer-keep-here", kind="secondary")),
                        extra_class="transfer-screen")
        intro = t("tr.intro", game=t("game." + self.game))
        return page(title, '<p class="hint">%s</p>%s%s' % (escape(intro), self.offers(app.now()), back),
                    extra_class="transfer-screen")

    def offers(self, now_ms):
        """Return the two ways to hand over the document: as a file, and by a one-time code with its QR code."""
        if self.shareable is None:
            self.shareable = can_share()
        share = button(t("tr.share"), "share", "transfer-share", kind="secondary", extra="wide") if self.shareable else ""
        file_part = ('<section class="panel" aria-labelledby="tr-file-h"><h2 id="tr-file-h">%s</h2><p class="hint">%s</p>'
                     '<div class="stack">%s%s</div></section>' % (
                         escape(t("tr.file_h")), escape(t("tr.file_hint")), share,
                         button(t("tr.file"), "file", "transfer-file", kind="primary", extra="wide")))
        if self.state == "code":
            code_body = ('<p class="label">%s</p><p class="transfer-code" data-testid="transfer-code" data-code="%s" '
                         'aria-live="polite">%s</p><img class="qr" data-testid="transfer-qr" src="%s/%s/qr.svg" alt="%s" '
                         'width="200" height="200"><p class="hint">%s</p><p class="hint" data-testid="transfer-valid">%s</p>' % (
                             escape(t("tr.code_is")), escape(self.code), escape(show_code(self.code)), API, escape(self.code),
                             escape(t("tr.qr", code=show_code(self.code))), escape(t("tr.code_enter")),
                             escape(t("tr.code_valid", left="\x00")).replace(
                                 "\x00", countdown(self.expires_at, now_ms, clock=True))))
        elif self.state == "waiting":
            code_body = '<p class="hint" role="status">%s</p>' % escape(t("tr.code_wait"))
        else:
            message = ""
            if self.state == "offline":
                message = '<p class="notice warn" role="alert" data-testid="transfer-offline">%s</p>' % escape(t("tr.offline"))
            elif self.state == "expired":
                message = '<p class="notice warn" role="alert" data-testid="transfer-expired">%s</p>' % escape(t("tr.expired"))
            elif self.state == "failed":
                message = '<p class="notice warn" role="alert" data-testid="transfer-offline">%s</p>' % escape(
                    t("tr.code_failed", why=self.why))
            code_body = '%s<p class="hint">%s</p>%s' % (
                message, escape(t("tr.code_hint")), button(t("tr.make_code"), "code", "transfer-make-code", kind="secondary"))
        code_part = '<section class="panel" aria-labelledby="tr-code-h"><h2 id="tr-code-h">%s</h2>%s</section>' % (
            escape(t("tr.code_h")), code_body)
        return file_part + code_part

    def ask_later(self, app, code):
        """Ask the server in a few seconds whether the other device has fetched the game, while the code shows."""
        def ask():
            if app.screen is self and self.state == "code" and self.code == code:
                app.request("GET", "%s/%s/state" % (API, code), None,
                            lambda status, text: self.got_state(app, code, status, text))
        app.later(ask, ASK_EVERY_MS)

    def got_state(self, app, code, status, text):
        """Fetched: offer to delete this copy (a move, not a copy that would count twice); else ask again later."""
        if app.screen is not self or self.state != "code" or self.code != code:
            return
        answer = None
        try:
            answer = app.storage.codec.loads(text) if status == 200 and text else None
        except Exception:
            answer = None
        if isinstance(answer, dict) and answer.get("state") == "taken":
            self.state = "taken"
            app.rerender()
            # The safe answer first: the question comes by itself, and an Enter meant for something else must
            # not delete the game here (the replace question does the same).
            app.focus('[data-testid="transfer-keep-here"]')
            return
        self.ask_later(app, code)  # still waiting, or no answer this time (offline a moment, too many asks)

    def expire(self, app, code):
        """The server has forgotten the code: say so, and offer a new one, instead of a code that no longer works."""
        if app.screen is self and self.state == "code" and self.code == code:
            self.state = "expired"
            app.rerender()

    def document(self, app):
        """Return what is handed over (the saved game as a file document), or None when there is nothing to send."""
        document = app.storage.export_game(self.game)
        return None if document is None or "room" in document["meta"] else document

    def handle(self, app, action, value):
        document = self.document(app)
        if document is None:
            app.rerender()
            return
        if action == "file":
            save_file(app, self.filename(document), document)
            app.toast(t("tr.file_done"))
        elif action == "share":
            share_file(app, self.filename(document), document,
                       lambda shared: app.toast(t("tr.shared")) if shared else None)
        elif action == "delete-here" and self.state == "taken":
            app.storage.delete_game(self.game)
            app.toast(t("tr.deleted_here"))
            app.go("", replace=True)
        elif action == "keep-here" and self.state == "taken":
            self.state = "idle"
            app.go("", replace=True)
        elif action == "code" and self.state != "waiting":
            self.state = "waiting"
            app.rerender()
            app.request("POST", API, app.storage.codec.dumps(document), lambda status, text: self.got_code(app, status, text))

    def got_code(self, app, status, text):
        if app.screen is not self:
            return
        answer = None
        try:
            answer = app.storage.codec.loads(text) if text else None
        except Exception:
            answer = None
        if status == 201 and isinstance(answer, dict) and isinstance(answer.get("code"), str):
            self.code = answer["code"]
            self.state = "code"
            lifetime = answer.get("expires_in")
            seconds = lifetime if isinstance(lifetime, int) and 0 < lifetime <= 86400 else 600
            self.expires_at = app.now() + seconds * 1000
            code = self.code
            app.later(lambda: self.expire(app, code), seconds * 1000)
            if self.asks_if_taken:
                self.ask_later(app, code)
        elif status == 0:
            self.state = "offline"
        else:
            self.state = "failed"
            reason = answer.get("error") if isinstance(answer, dict) else None
            self.why = t("tr.why." + reason) if reason in ("slow_down", "busy", "unavailable") else str(status)
        app.rerender()


# -- receiving -------------------------------------------------------------------------------------
class OpenScreen(Screen):
    """Take over a game from a file or a code; ask before replacing a saved game."""

    route = "open"

    def __init__(self, code=""):
        self.code = code
        self.problem = None
        self.pending = None  # a checked document waiting for "Ersetzen"
        self.pending_by_code = False  # it came with a code, which is used up: "Behalten" drops it for good
        self.waiting = False

    def render(self, app):
        parts = ['<p class="hint">%s</p>' % escape(t("tr.open_intro"))]
        if self.problem:
            parts.append('<div class="notice warn" role="alert" data-testid="transfer-error"><p>%s</p></div>' % escape(self.problem))
        if self.pending is not None:
            game = self.pending["game"]
            saved = app.storage.load_game(game)
            shown_round = round_label(game, saved["meta"].get("round", "?") if saved else "?")
            received_round = round_label(game, self.pending["meta"].get("round", "?"))
            used = '<p class="hint" id="replace-d">%s</p>' % escape(t("tr.code_used")) if self.pending_by_code else ""
            parts.append('<div class="notice" role="alertdialog" aria-labelledby="replace-q"%s data-testid="replace-question">'
                         '<p id="replace-q">%s</p>%s<div class="row wrap">%s%s</div></div>' % (
                             ' aria-describedby="replace-d"' if used else "",
                             escape(t("tr.replace_q", game=t("game." + game), round=shown_round, received=received_round)),
                             used, button(t("tr.replace"), "replace", "confirm-replace", kind="primary"),
                             button(t("tr.keep"), "keep", "cancel-replace", kind="secondary")))
            return page(t("tr.open_title"), "".join(parts), extra_class="transfer-screen")
        parts.append('<section class="panel" aria-labelledby="open-file-h"><h2 id="open-file-h">%s</h2>'
                     '<label class="btn btn-primary wide file-pick">%s<input type="file" accept=".json,application/json" '
                     'data-input="import-file" data-testid="import-file" class="visually-hidden"></label></section>' % (
                         escape(t("tr.file_h")), escape(t("tr.pick_file"))))
        parts.append('<section class="panel" aria-labelledby="open-code-h"><h2 id="open-code-h">%s</h2>'
                     '<label class="label" for="transfer-input">%s</label>'
                     '<input type="text" id="transfer-input" class="code-input" maxlength="12" autocomplete="off" '
                     'autocapitalize="characters" spellcheck="false" placeholder="ABCD 2345" value="%s" '
                     'data-input="code" data-testid="transfer-input">%s</section>' % (
                         escape(t("tr.code_h")), escape(t("tr.code_label")), escape(self.code),
                         button(t("tr.redeem_wait") if self.waiting else t("tr.redeem"), "redeem", "transfer-redeem",
                                kind="secondary", disabled=self.waiting)))
        return page(t("tr.open_title"), "".join(parts), extra_class="transfer-screen")

    def on_input(self, app, name, value, final):
        if name == "code":
            self.code = value
        elif name == "import-file" and final:
            read_file(app, '[data-testid="import-file"]', MAX_GAME_CHARS, lambda text: self.take(app, text))

    def on_key(self, app, key):
        """Enter in the code field (a phone keyboard's "Go") fetches the game, as "Spiel holen" does."""
        if key == "Enter" and app.focused() == "transfer-input" and self.pending is None:
            self.handle(app, "redeem", None)
            return True
        return False

    def handle(self, app, action, value):
        if action == "redeem" and not self.waiting:
            typed = app.field("transfer-input")
            if typed is not None:
                self.code = typed
            code = clean_code(self.code)
            if not code:
                self.problem = t("tr.problem.code_format")
                app.rerender()
                return
            self.waiting = True
            self.problem = None
            app.rerender()
            app.request("POST", API + "/redeem", app.storage.codec.dumps({"code": code}),
                    lambda status, text: self.got(app, status, text))
        elif action == "replace" and self.pending is not None:
            document = self.pending
            self.pending = None
            self.store(app, document)
        elif action == "keep":
            if self.pending_by_code:
                self.code = ""  # used up: "Spiel holen" again would only say the code is gone
            app.toast(t("tr.kept_code" if self.pending_by_code else "tr.kept"))
            self.pending = None
            self.problem = None
            app.rerender()

    def got(self, app, status, text):
        self.waiting = False
        if app.screen is not self:
            return
        answer = None
        if status == 200:
            try:
                answer = app.storage.codec.loads(text)
            except Exception:
                answer = None
        if isinstance(answer, dict) and answer.get("found") is True and isinstance(answer.get("file"), dict):
            self.take(app, answer["file"], by_code=True)
            return
        if status == 0:
            self.problem = t("tr.problem.offline")
        elif status == 429:
            self.problem = t("tr.problem.slow")
        elif status == 503:
            self.problem = t("tr.problem.busy")
        else:
            self.problem = t("tr.problem.code")
        app.rerender()

    def take(self, app, text, by_code=False):
        """Check what arrived; a replay opens for watching; a game asks before replacing, is stored and goes on."""
        try:
            replay = app.storage.parse_replay_file(text if text is not None else "")
        except ImportProblem as problem:
            if problem.reason != "foreign":
                self.problem = t("tr.problem." + problem.reason)
                app.rerender()
                return
            replay = None  # not a replay: perhaps a game
        if replay is not None:
            self.open_replay(app, replay)
            return
        try:
            document = receive(app.storage, text if text is not None else "")
            check_drawable(app, document)
        except ImportProblem as problem:
            self.problem = t("tr.problem." + problem.reason)
            app.rerender()
            return
        self.problem = None
        if app.storage.running_game(document["game"]) is not None:
            self.pending = document
            self.pending_by_code = by_code
            app.rerender()
            app.focus('[data-testid="cancel-replace"]')  # the safe answer first, as the start screen's question
            return
        self.store(app, document)

    def open_replay(self, app, document):
        """Keep a received replay on this device (as received, no result of its own) and watch it."""
        if document["game"] not in GAME_MODULES:
            self.problem = t("tr.problem.unknown_game")
            app.rerender()
            return
        document = dict(document)
        document["received"] = True
        replay_id = app.storage.add_replay(document)
        if replay_id is None:
            self.problem = t("tr.problem.storage")
            app.rerender()
            return
        app.toast(t("tr.replay_received", game=t("game." + document["game"])))
        app.go("replay/%s/received" % replay_id, replace=True)

    def store(self, app, document):
        if not app.storage.import_game(document, app.storage.night()["id"]):
            self.problem = t("tr.problem.storage")
            app.rerender()
            return
        app.toast(t("tr.received", game=t("game." + document["game"])))
        app.go("play/%s/continue" % document["game"], replace=True)


def screen_for(app, parts):
    """Return the screen for transfer/<game>, open or open/<code>."""
    if parts[0] == "transfer" and len(parts) > 1 and parts[1] in GAME_MODULES:
        return TransferScreen(parts[1])
    if parts[0] == "open":
        return OpenScreen(show_code(clean_code(parts[1])) if len(parts) > 1 and clean_code(parts[1]) else "")
    return __import__("spieleabend.ui.shell", fromlist=["x"]).HomeScreen()

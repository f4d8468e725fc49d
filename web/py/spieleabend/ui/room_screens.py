"""Room screens: the host's lobby, joining on a phone, and the frame around a game in a room.

Routes: room/host/<game> (the lobby, then the game), room/play (a phone's or a
screen's place, also after a reload), join/<code>.<secret> (a join link) and join
(typing code and PIN). The game itself is the game's own `TableScreen(app, table)`,
wrapped in `RoomFrame`, which adds the room's status line and the host's controls.
The room outlives a game: between games the host's lobby chooses the next one, the
phones wait with the evening's table, and a table screen shows the room's face.
"""

from spieleabend.games import GAME_MODULES
from spieleabend.games import load as load_engine
from spieleabend.games.common import rank_by_keys
from spieleabend.ui.html import button, card_name, countdown, escape
from spieleabend.ui.i18n import game_name, register, t
from spieleabend.ui.rooms import (HOST_DEFAULT_NAMES, HostRoom, RemoteTable, ScreenTable, game_module, look_room,
                                  name_key, normalize_code, parse_join)
from spieleabend.ui.shell import NAME_LENGTH, Screen, page
from spieleabend.ui.table import chosen_strength

STOOD_IN_LISTED = 3  # moves a computer made for an away phone, listed by name; more are counted


register({
    "room.title": ("Zusammen spielen", "Play together"),
    "room.join_title": ("Raum beitreten", "Join a room"),
    "room.join_home": ("Raum beitreten", "Join a room"),
    "room.join_by_code": ("Code und PIN eingeben", "Enter code and PIN"),
    "room.link_dead_hint": ("Frag den Gastgeber nach einem neuen Link oder QR-Code – oder gib Code und PIN von "
                            "seinem Bildschirm ein.",
                            "Ask the host for a new link or QR code – or type the code and PIN from the host's screen."),
    "room.back_to_room": ("Zurück in den Raum %(code)s", "Back to room %(code)s"),
    "room.code": ("Raum-Code", "Room code"),
    "room.pin": ("PIN", "PIN"),
    "room.link": ("Einladungslink", "Invitation link"),
    "room.qr": ("QR-Code zum Beitreten: %(link)s", "QR code to join: %(link)s"),
    "room.qr_hint_no_pin": ("Mit der Handykamera scannen – oder den Link teilen (die PIN ist gesperrt).",
                            "Scan with a phone camera – or share the link (the PIN is locked)."),
    "room.face_join_no_pin": ("Mitspielen: QR-Code mit dem Handy scannen.", "To play: scan the QR code with a phone."),
    "room.qr_hint": ("Mit der Handykamera scannen – oder Code und PIN unter „Raum beitreten“ eintippen.",
                     "Scan with a phone camera – or type code and PIN under “Join a room”."),
    "room.share": ("Link teilen", "Share link"),
    "room.copy": ("Link kopieren", "Copy link"),
    "room.shared": ("Link geteilt.", "Link shared."),
    "room.copied": ("Link kopiert.", "Link copied."),
    "room.copy_failed": ("Kopieren ging nicht – bitte den Link abschreiben.", "Could not copy – please copy the link by hand."),
    "room.no_lan": ("Kein Netzwerk gefunden: der Link funktioniert nur auf diesem Gerät.",
                    "No network found: the link only works on this device."),
    "room.loopback": ("Der Server ist nur auf diesem Gerät erreichbar (gestartet mit --host 127.0.0.1): Handys "
                      "können nicht beitreten. Starte ihn ohne --host, damit Handys im WLAN mitspielen.",
                      "The server is reachable on this machine only (started with --host 127.0.0.1): phones "
                      "cannot join. Start it without --host so that phones on the Wi-Fi can play."),
    "room.places": ("Am Tisch", "At the table"),
    "room.nobody": ("Noch niemand da. Die anderen scannen den QR-Code.", "Nobody yet. The others scan the QR code."),
    "room.online": ("online", "online"),
    "room.away": ("weg", "away"),
    "room.remove": ("Entfernen", "Remove"),
    "room.remove_label": ("%(name)s entfernen", "Remove %(name)s"),
    "room.screens": ("Tisch-Bildschirme", "Table screens"),
    "room.seats": ("Plätze insgesamt", "Seats in total"),
    "room.fill_too_many": ("%(people)s für %(seats)s Plätze", "%(people)s for %(seats)s seats"),
    "room.fill_none": ("%(people)s, kein Computer", "%(people)s, no computer"),
    "room.fill_one": ("%(people)s, 1 Computer füllt den freien Platz", "%(people)s, 1 computer fills the free seat"),
    "room.fill_many": ("%(people)s, %(n)s Computer füllen die freien Plätze", "%(people)s, %(n)s computers fill the free seats"),
    "room.people_one": ("1 Person", "1 person"),
    "room.people": ("%(n)s Personen", "%(n)s people"),
    "room.too_many_one": ("Eine Person zu viel: %(game)s hat höchstens %(seats)s Plätze. Tippe bei jemandem auf "
                          "„Zuschauen“ – wer zuschaut, sieht den Tisch auf dem Handy und spielt die nächste Partie "
                          "wieder mit. Oder schalte „Dieses Gerät spielt mit“ aus.",
                          "One person too many: %(game)s has at most %(seats)s seats. Tap “Watch” next to someone – "
                          "they see the table on their phone and play again in the next game. Or switch off "
                          "“This device plays a seat”."),
    "room.too_many": ("%(n)s Personen zu viel: %(game)s hat höchstens %(seats)s Plätze. Tippe bei %(n)s Personen auf "
                      "„Zuschauen“ – wer zuschaut, sieht den Tisch auf dem Handy und spielt die nächste Partie wieder "
                      "mit. Oder schalte „Dieses Gerät spielt mit“ aus.",
                      "%(n)s people too many: %(game)s has at most %(seats)s seats. Tap “Watch” next to %(n)s people – "
                      "they see the table on their phones and play again in the next game. Or switch off "
                      "“This device plays a seat”."),
    "room.watch_instead": ("Zuschauen", "Watch"),
    "room.play_instead": ("Mitspielen", "Play"),
    "room.watch_label": ("%(name)s schaut bei dieser Partie zu", "%(name)s watches this game"),
    "room.watches": ("schaut zu", "watches"),
    "room.watching_game": ("Du schaust zu – in der nächsten Partie spielst du mit.",
                           "You are watching – you play in the next game."),
    "room.watching_deal": ("Du schaust zu – ab der nächsten Runde spielst du mit.",
                           "You are watching – you play from the next deal."),
    "room.next_game": ("Nächstes Spiel", "Next game"),
    "room.next_is": ("Als Nächstes: %(game)s", "Next: %(game)s"),
    "room.now_playing": ("Gerade läuft: %(game)s", "Now playing: %(game)s"),
    "room.join_watch_game": ("Du schaust zu und spielst ab der nächsten Partie mit.",
                             "You watch and play from the next game."),
    "room.join_watch_deal": ("Du schaust zu und spielst ab der nächsten Runde mit.",
                             "You watch and play from the next deal."),
    "room.in_room": ("Im Raum", "In the room"),
    "room.host_tag": ("Gastgeber", "host"),
    "room.host_shows_table": ("zeigt den Tisch", "shows the table"),
    "room.this_device": ("dieses Gerät", "this device"),
    "room.name_taken": ("Den Namen „%(name)s“ hat schon jemand in diesem Raum. Bitte wähle einen anderen, "
                        "damit euch alle auseinanderhalten – z. B. mit Anfangsbuchstaben: „%(name)s B.“",
                        "Someone in this room already has the name “%(name)s”. Please choose another so that "
                        "everyone can tell you apart – e.g. with an initial: “%(name)s B.”"),
    "room.host_name_taken": ("„%(name)s“ ist schon im Raum. Bitte gib diesem Gerät einen anderen Namen.",
                             "“%(name)s” is in the room already. Please give this device another name."),
    "room.face_join": ("Mitspielen: QR-Code mit dem Handy scannen – oder in der App „Raum beitreten“ und Code und PIN eintippen.",
                       "To play: scan the QR code with a phone – or tap “Join a room” in the app and type code and PIN."),
    "room.face_wait": ("Gleich geht es los – der Gastgeber startet die nächste Partie.",
                       "Starting soon – the host starts the next game."),
    "room.strength": ("Computer-Spielstärke", "Computer strength"),
    "room.host_plays": ("Dieses Gerät spielt mit", "This device plays a seat"),
    "room.host_plays_hint": ("Aus: dieses Gerät zeigt nur den Tisch (z. B. ein Tablet in der Mitte).",
                             "Off: this device only shows the table (e.g. a tablet in the middle)."),
    "room.your_name": ("Dein Name", "Your name"),
    "room.host_default": HOST_DEFAULT_NAMES,
    "room.close_joining": ("Beitritt schließen", "Close joining"),
    "room.open_joining": ("Beitritt wieder öffnen", "Open joining again"),
    "room.joining_closed": ("Beitritt ist geschlossen.", "Joining is closed."),
    "room.pin_locked": ("Zu viele falsche PINs: die PIN ist gesperrt. Beitritt nur noch per QR-Code oder Link – zeig den QR-Code oder teile den Link.",
                        "Too many wrong PINs: the PIN is locked. Joining only by QR code or link now – show the QR code or share the link."),
    "room.pin_off": ("gesperrt", "locked"),
    "room.new_pin": ("Neue PIN ausgeben", "Issue a new PIN"),
    "room.pin_locked_game": ("Zu viele falsche PINs: Beitritt per PIN gesperrt. Eine neue PIN gibt es unter „Raum ▾“.",
                             "Too many wrong PINs: joining by PIN is locked. Get a new PIN under “Room ▾”."),
    "room.new_pin_is": ("Neue PIN: %(pin)s", "New PIN: %(pin)s"),
    "room.err.pin_locked": ("Beitritt per PIN ist gesperrt (zu viele falsche PINs in diesem Raum). Bitte den QR-Code scannen oder den Link vom Gastgeber öffnen.",
                            "Joining by PIN is locked (too many wrong PINs in this room). Please scan the QR code or open the host's link."),
    "room.start": ("Partie starten", "Start game"),
    "room.end": ("Raum beenden", "End room"),
    "room.menu": ("Raum ▾", "Room ▾"),
    "room.menu_close": ("Raum ▴", "Room ▴"),
    "room.menu_label": ("Raum: anderes Spiel oder beenden", "Room: another game or end it"),
    "room.to_lobby": ("Anderes Spiel", "Another game"),
    "room.lobby_confirm": ("Partie abbrechen? Noch einmal tippen.", "Stop this game? Tap again."),
    "room.end_confirm": ("Wirklich beenden? Noch einmal tippen.", "Really end? Tap again."),
    "room.ended_title": ("Raum beendet", "Room ended"),
    "room.final": ("Endstand · %(game)s", "Final standings · %(game)s"),
    "room.stopped_at": ("%(game)s – vorzeitig beendet. Stand:", "%(game)s – stopped early. Standings:"),
    "room.points": ("%(n)s Punkte", "%(n)s points"),
    "room.points_one": ("1 Punkt", "1 point"),
    "room.to_results": ("Ergebnisse", "Results"),
    "room.home": ("Zur Startseite", "Home"),
    "room.again": ("Nochmal versuchen", "Try again"),
    "room.reconnect": ("Neu verbinden", "Reconnect"),
    "room.take_back": ("Hier weiterspielen", "Play on here"),
    "room.leave": ("Raum verlassen", "Leave room"),
    "room.leave_short": ("Verlassen", "Leave"),
    "room.left_toast": ("Du hast den Raum verlassen. Mit dem Link kommst du wieder hinein.",
                        "You left the room. The link takes you back in."),
    "room.leave_confirm": ("Wirklich verlassen? Noch einmal tippen.", "Really leave? Tap again."),
    "room.alone": ("Allein weiterspielen", "Go on alone"),
    "room.solo": ("%(game)s allein spielen", "Play %(game)s alone"),
    "room.new": ("Neuen Raum öffnen", "Open a new room"),
    "room.name": ("Dein Name", "Your name"),
    "room.name_placeholder": ("z. B. Anna", "e.g. Anna"),
    "room.name_needed": ("Bitte gib deinen Namen ein – so sehen die anderen, wer am Zug ist.",
                         "Please enter your name – that is how the others see whose turn it is."),
    "room.name_cut": ("Namen haben höchstens %(n)s Zeichen. Gekürzt auf „%(name)s“ – nochmal tippen, um so beizutreten, oder ändern.",
                      "Names have at most %(n)s characters. Shortened to “%(name)s” – tap again to join like this, or change it."),
    "room.join_code": ("Raum-Code (6 Zeichen)", "Room code (6 characters)"),
    "room.join_pin": ("PIN (4 Ziffern)", "PIN (4 digits)"),
    "room.join_seat": ("Mitspielen", "Join as player"),
    "room.join_screen": ("Als Tisch-Bildschirm", "As a table screen"),
    "room.join_screen_hint": ("Ein Tisch-Bildschirm zeigt allen den Tisch und spielt nicht mit.",
                              "A table screen shows everyone the table and does not play."),
    "room.need_code": ("Bitte Code und PIN eingeben.", "Please enter code and PIN."),
    "room.bad_code": ("Der Raum-Code hat 6 Zeichen, Buchstaben und Ziffern (z. B. K7M2QX).",
                      "The room code has 6 characters, letters and digits (e.g. K7M2QX)."),
    "room.bad_pin": ("Die PIN hat 4 Ziffern.", "The PIN has 4 digits."),
    "room.waiting_start": ("Du bist dabei. Warte, bis der Gastgeber startet …", "You are in. Waiting for the host to start …"),
    "room.no_screen_for": ("Dieses Spiel kann diese App-Version noch nicht zeigen. Bitte neu laden.",
                           "This version of the app cannot show this game yet. Please reload."),
    "room.no_room": ("Dieses Gerät ist in keinem Raum.", "This device is in no room."),
    "room.removed": ("Der Gastgeber hat deinen Platz entfernt.", "The host removed your place."),
    "room.left_stand_in": ("%(name)s hat den Raum verlassen – der Computer spielt weiter",
                           "%(name)s left the room – a computer plays on"),
    "room.stand_in": ("Computer spielt für %(name)s", "A computer plays for %(name)s"),
    "room.away_note": ("%(name)s ist weg", "%(name)s is away"),
    "room.away_countdown": ("%(name)s ist weg – der Computer übernimmt in %(s)s s",
                            "%(name)s is away – the computer takes over in %(s)s s"),
    "room.stood_in": ("Während du weg warst, hat der Computer für dich gespielt: %(moves)s.",
                      "While you were away, the computer played for you: %(moves)s."),
    "room.stood_in_many": ("Während du weg warst, hat der Computer %(n)s Züge für dich gemacht, zuletzt: %(moves)s.",
                           "While you were away, the computer made %(n)s moves for you, the last: %(moves)s."),
    "room.stood_in_none": ("Während du weg warst, hat der Computer für dich gespielt.",
                           "While you were away, the computer played for you."),
    "room.did.risk": ("%(cards)s mit Risiko", "%(cards)s with the risk chip"),
    "room.did.wish": ("%(card)s (wünscht %(suit)s)", "%(card)s (wishes %(suit)s)"),
    "room.did.swap": ("gezogene Karte an Platz %(n)s gelegt", "put the drawn card at place %(n)s"),
    "room.did.take": ("vom Ablagestapel an Platz %(n)s genommen", "took the discard to place %(n)s"),
    "room.did.draw": ("eine Karte gezogen", "drew a card"),
    "room.did.pass": ("gepasst", "passed"),
    "room.did.knock": ("geklopft", "knocked"),
    "room.did.discard": ("die gezogene Karte abgelegt", "discarded the drawn card"),
    "room.mismatch": ("Aufdeckung von %(names)s passt nicht zur Festlegung – sie wird nicht gespielt.",
                      "%(names)s's reveal does not match the commitment – it is not played."),
    # The host's reason is an engine's English, for developers (it stays in the frame): a person needs the outcome.
    "room.error.illegal": ("Der Gastgeber hat den Zug nicht angenommen – dein Tisch zeigt wieder den neuesten Stand.",
                           "The host did not take the move – your table shows the latest state again."),
    "room.error.mismatch": ("Deine Aufdeckung passte nicht zur Festlegung.", "Your reveal did not match your commitment."),
    "room.error.lost": ("Dein letzter Zug kam beim Gastgeber nicht an (die Verbindung war weg) – bitte noch einmal.",
                        "Your last move did not reach the host (the line was gone) – please make it again."),
    "room.not_sent": ("Keine Verbindung zum Gastgeber – der Zug wurde nicht gesendet.",
                      "No connection to the host – the move was not sent."),
    "room.move_on_way": ("Dein Zug ist unterwegs zum Gastgeber …", "Your move is on its way to the host …"),
    "room.move_sent": ("Dein Zug ist schon unterwegs – warte auf den Gastgeber.",
                       "Your move is already on its way – wait for the host."),
    "room.next_by_host": ("Die nächste Partie startet der Gastgeber.", "The host starts the next game."),
    "room.next_by_host_wait": ("Die nächste Partie startet der Gastgeber. Bleib einfach hier – sie erscheint von selbst.",
                               "The host starts the next game. Just stay here – it appears by itself."),
    "room.state.online": ("Verbunden · Raum %(code)s", "Connected · room %(code)s"),
    "room.state.connecting": ("Verbinde mit dem Raum …", "Connecting to the room …"),
    "room.state.retrying": ("Verbindung weg – neuer Versuch in %(s)s s", "Connection lost – retrying in %(s)s s"),
    "room.state.retrying_first": ("Neuer Versuch in %(s)s s", "Trying again in %(s)s s"),
    "room.state.host_away": ("Der Gastgeber ist gerade weg – warte auf ihn …", "The host is away – waiting …"),
    "room.err.room_full": ("Der Raum ist voll.", "The room is full."),
    "room.err.unknown_room": ("Diesen Raum gibt es nicht (mehr). Stimmt der Code?", "This room does not exist (any more). Is the code right?"),
    "room.err.bad_token": ("Falsche PIN oder ungültiger Link.", "Wrong PIN or invalid link."),
    "room.err.wrong_pin": ("Falsche PIN. Noch %(n)s Versuche, dann geht es nur noch per QR-Code oder Link.",
                           "Wrong PIN. %(n)s more tries, then only the QR code or the link will work."),
    "room.err.wrong_pin_one": ("Falsche PIN. Noch ein Versuch, dann geht es nur noch per QR-Code oder Link.",
                               "Wrong PIN. One more try, then only the QR code or the link will work."),
    "room.err.wrong_pin_last": ("Falsche PIN. Beitritt per PIN ist jetzt gesperrt: bitte den QR-Code scannen oder den Link vom Gastgeber öffnen.",
                                "Wrong PIN. Joining by PIN is now locked: please scan the QR code or open the host's link."),
    "room.err.bad_token_resume": ("Dein Platz in diesem Raum ist abgelaufen.", "Your place in this room has expired."),
    "room.err.joining_closed": ("Der Gastgeber hat den Beitritt geschlossen.", "The host has closed joining."),
    "room.err.server_full": ("Der Server ist gerade voll – gleich geht es weiter.", "The server is full right now – trying again soon."),
    "room.err.address_limit": ("Aus diesem Netz sind gerade zu viele Räume offen – gleich geht es weiter.",
                               "Too many rooms are open from this network right now – trying again soon."),
    "room.err.rate_limited": ("Zu viele Nachrichten auf einmal – kurz warten.", "Too many messages at once – wait a moment."),
    "room.err.unsupported_version": ("Diese App-Version passt nicht zum Server. Bitte neu laden.",
                                     "This version of the app does not match the server. Please reload."),
    "room.err.malformed": ("Der Server hat eine ungültige Nachricht abgelehnt.", "The server refused an invalid message."),
    "room.err.forbidden": ("Der Server hat eine ungültige Nachricht abgelehnt.", "The server refused an invalid message."),
    "room.err.too_large": ("Eine Nachricht war zu groß für den Server.", "A message was too large for the server."),
    "room.err.binary_frame": ("Der Server hat eine ungültige Nachricht abgelehnt.", "The server refused an invalid message."),
    "room.err.hello_timeout": ("Der Server hat zu lange gewartet.", "The server waited too long."),
    "room.err.no_server": ("Keine Verbindung zum Server. Räume brauchen den Spieleabend-Server (im selben WLAN oder im Netz); allein spielen geht auch offline.",
                           "No connection to the server. Rooms need the Game Night server (on the same Wi-Fi or online); playing alone works offline too."),
    "room.err.replaced": ("Dieser Platz ist jetzt in einem anderen Tab oder Gerät offen.", "This place is now open in another tab or device."),
    "room.err.ended": ("Der Gastgeber hat den Raum beendet.", "The host ended the room."),
    "room.err.host_gone": ("Der Gastgeber ist nicht zurückgekommen; der Raum ist zu.", "The host did not come back; the room is closed."),
    "room.err.idle": ("Der Raum war zu lange still und wurde geschlossen.", "The room was quiet too long and was closed."),
    "room.err.left": ("Du hast den Raum verlassen.", "You left the room."),
    "room.err.shutdown": ("Der Server startet neu …", "The server is restarting …"),
    "room.err.interrupted": ("Der Raum ist kurz unterbrochen – neuer Versuch …",
                             "The room is briefly interrupted – trying again …"),
    "room.err.other": ("Die Verbindung zum Raum ging nicht.", "Could not connect to the room."),
})


def error_text(code, resumed=False, pin_tries_left=None):
    """Return the translated text of a relay error or closing reason (never the raw code)."""
    if code == "bad_token" and resumed:
        return t("room.err.bad_token_resume")
    if code == "bad_token" and pin_tries_left is not None:
        if pin_tries_left == 0:
            return t("room.err.wrong_pin_last")
        return t("room.err.wrong_pin_one" if pin_tries_left == 1 else "room.err.wrong_pin", n=pin_tries_left)
    key = "room.err." + (code or "other")
    text = t(key)
    return t("room.err.other") if text == key else text


def status_of(link, host="online", code=None, now=0, stale=False):
    """Return (state, text) for the status line of a room link (`stale`: the table shown is from before a reload)."""
    state, detail = link.status()
    if state == "online":
        if host == "away":
            return "host-away", t("room.state.host_away")
        if stale:
            return "connecting", t("room.state.connecting")  # until the host's fresh view comes
        return "online", t("room.state.online", code=code or "")
    if state == "retrying":
        wait = max(0, (link.retry_at or now) - now) // 1000 + 1 if link.retry_at else 1
        # "Verbindung weg" only where there was one: a phone that never reached the server just tries again.
        text = t("room.state.retrying" if link.was_online else "room.state.retrying_first", s=wait)
        if detail:
            text = error_text(detail) + " " + text
        return "retrying", text
    if state == "closed":
        return "closed", error_text(detail, resumed="token" in link.hello, pin_tries_left=link.pin_tries_left)
    return "connecting", t("room.state.connecting")


def status_line(state, text):
    return '<p class="room-status %s" data-testid="room-status" data-state="%s" role="status">%s</p>' % (
        state, state, escape(text))


def final_rows(view, progress, lower_wins):
    """Return [(place, name, score)] best first: the engine's ranking, or for a game ended early the
    totals so far in the game's direction (lower_wins: its declared fact)."""
    names = view["names"] if "names" in view else []
    scores = list(progress["scores"])
    while len(scores) < len(names):
        scores.append(0)
    outcome = view["outcome"] if "outcome" in view else None
    if outcome is not None and "ranking" in outcome:
        ranking = outcome["ranking"]
    else:
        ranking = rank_by_keys([-score if lower_wins else score for score in scores[:len(names)]])
    return [(row["place"], names[row["seat"]], scores[row["seat"]]) for row in ranking if row["seat"] < len(names)]


# -- the host --------------------------------------------------------------------------------------
class LobbyScreen(Screen):
    """The host's room between games: who is in, the next game and its options, the start; code, PIN, QR code."""

    def __init__(self, app, room, request=None):
        self.room = room
        request = request or {}
        self.host_plays = request["host_plays"] if "host_plays" in request else room.host_plays
        # The name this room's host played under keeps standing in the field from game to game.
        self.host_name_value = room.host_name or app.settings.get("name", "") or ""
        self.qr_svg = None
        self.qr_for = None
        self.base_asked = False
        self.keep = False  # True when the room goes on in the next screen
        self.take_choices(app, room.game, request)
        room.set_host(self.host_name_value, self.host_plays)
        room.listen(lambda _e: self.changed(app))

    def take_choices(self, app, game, request=None):
        """Take a game's choices: the start screen's last ones for it, with what the request says over them."""
        from spieleabend.ui.setup import last_choices

        self.game = game
        self.engine = load_engine(game)
        self.plugin = game_module(game)
        self.choices = last_choices(app, game)
        request = request or {}
        if isinstance(request.get("options"), dict):
            for option in self.engine.INFO["options"]:
                if option["key"] in request["options"]:
                    self.choices[option["key"]] = request["options"][option["key"]]
        limits = self.engine.INFO["seats"]
        seats = request.get("seats")
        if isinstance(seats, int) and limits["min"] <= seats <= limits["max"]:
            self.choices["seats"] = seats
        self.choices["strength"] = chosen_strength(game, request.get("strength") or self.choices["strength"])

    @property
    def seat_count(self):
        """Return the seats of the next game: as chosen, but never fewer than the people who play."""
        limits = self.engine.INFO["seats"]
        return min(limits["max"], max(self.choices["seats"], self.people(), limits["min"]))

    def people(self):
        """Return how many people play the next game: the phones that do not watch, and the host if it plays."""
        return len(self.room.playing_places()) + (1 if self.host_plays else 0)

    def too_many(self):
        """Return how many people are more than the next game has seats (0: everyone has one)."""
        return max(0, self.people() - self.engine.INFO["seats"]["max"])

    def changed(self, app):
        if app.screen is self:
            self.need_qr(app)
            app.rerender()

    def need_qr(self, app):
        """Fetch the join address once, then the QR code of the full link."""
        if self.room.code() is None:
            return
        if not self.base_asked:
            self.base_asked = True

            def got_base(status, text):
                answer = app.storage.codec.loads(text) if status == 200 else None
                self.room.base = answer["base"] if answer is not None and "base" in answer else app.page_origin()
                self.room.base_source = answer["source"] if answer is not None and "source" in answer else "none"
                self.room.send_lobby()  # the screens show the full link and its QR code too
                self.changed(app)
            app.request("GET", "/api/join-base", None, got_base)
            return
        url = self.room.join_url()
        if self.room.base is None or url is None or self.qr_for == url:
            return
        self.qr_for = url

        def got_qr(status, svg):
            self.qr_svg = svg if status == 200 else None
            self.changed(app)
        app.request("POST", "/api/qr.svg", url, got_qr, "text/plain;charset=utf-8")

    def render(self, app):
        room = self.room
        state, text = status_of(room.link, code=room.code(), now=app.now())
        parts = [status_line(state, text)]
        title = t("room.title") + "\u00a0· " + game_name(self.game)  # the dot stays with the line before
        if room.link.state == "closed":
            parts.append('<div class="controls">%s</div>' % button(t("room.new"), "room-new", "room-new", kind="primary"))
        if room.code() is None:
            if room.link.error == "no_server" and error_text("no_server") not in text:  # said once is enough
                parts.append('<p class="notice warn">%s</p>' % escape(error_text("no_server")))
            if room.link.error == "no_server":
                # No server, no room: this game alone, from its start screen (the home screen was the only way).
                parts.append('<div class="controls"><a class="btn btn-primary wide" href="#/play/%s" data-testid="room-solo">'
                             '%s</a></div>' % (escape(self.game), escape(t("room.solo", game=game_name(self.game)))))
            return page(title, "".join(parts), extra_class="room")
        if room.pin_locked:  # first, where the host looks: the PIN below no longer works
            parts.append('<div class="notice warn" role="alert" data-testid="pin-locked"><p>%s</p>%s</div>' % (
                escape(t("room.pin_locked")), button(t("room.new_pin"), "room-new-pin", "room-new-pin", kind="secondary")))
        # The invitation first while nobody is in; once people are, who is in and the next game come first.
        if not room.seat_places():
            parts.append(self.render_invite(room))
        parts.append(self.render_places(room))
        if room.seat_places():
            # Tonight's table, as the phones and the table screen show it between games (the host had none).
            night = __import__("spieleabend.ui.night", fromlist=["x"])
            parts.append(night.room_night_html(night.night_summary(app.storage), charts=False, per_game=False))
        parts.append(self.render_game())
        parts.extend(self.render_options(app))
        if room.seat_places():
            parts.append(self.render_invite(room))
        parts.append(self.render_start(room))
        return page(title, "".join(parts), extra_class="room room-lobby")

    def render_invite(self, room):
        url = room.join_url() if room.base is not None else None
        qr = ('<div class="room-qr" data-testid="room-qr" role="img" aria-label="%s"%s>%s</div>' % (
            escape(t("room.qr", link=url or "")), " data-ready" if self.qr_svg else "", self.qr_svg or ""))
        warn = ""
        if getattr(room, "base_source", None) in ("none", "loopback"):
            warn = '<p class="notice warn">%s</p>' % escape(t("room.no_lan" if room.base_source == "none" else "room.loopback"))
        return ('<section class="panel room-invite" aria-label="%s">%s'
                '<div class="room-ids"><p><span class="label">%s</span><strong class="room-code" data-testid="room-code">%s</strong></p>'
                '<p><span class="label">%s</span><strong class="room-pin" data-testid="room-pin">%s</strong></p></div>'
                '<p class="room-link-row"><span class="label">%s</span><code class="room-link" data-testid="room-link">%s</code></p>'
                '%s<p class="hint">%s</p><div class="controls">%s</div></section>' % (
                    escape(t("room.link")), qr, escape(t("room.code")), escape(room.code()), escape(t("room.pin")),
                    escape(t("room.pin_off") if room.pin_locked else room.doc.get("pin", "")), escape(t("room.link")),
                    escape(url or "…"), warn, escape(t("room.qr_hint_no_pin" if room.pin_locked else "room.qr_hint")),
                    button(t("room.share"), "room-share", "share-link", kind="secondary", disabled=url is None)))

    def render_places(self, room):
        watching = room.watching()
        choose_watchers = self.too_many() > 0 or bool(watching)
        items = []
        for place in room.seat_places():
            number = place["seat"]
            name = place["name"] or "?"
            watches = number in watching
            toggle = ""
            if choose_watchers:
                toggle = button(t("room.play_instead") if watches else t("room.watch_instead"), "room-watch",
                                "watch-place-%d" % number, kind="secondary" if watches else "ghost", data_value=number,
                                aria_pressed="true" if watches else "false",
                                aria_label=t("room.watch_label", name=name))
            items.append('<li class="room-place%s%s" data-testid="lobby-place-%d"%s><span class="who">%s%s</span>'
                         '<span class="presence %s">%s</span><span class="place-actions">%s%s</span></li>' % (
                             "" if place["online"] else " away", " watching" if watches else "", number,
                             " data-watching" if watches else "", escape(name),
                             ' <span class="tag watch">%s</span>' % escape(t("room.watches")) if watches else "",
                             "on" if place["online"] else "off",
                             escape(t("room.online") if place["online"] else t("room.away")), toggle,
                             button(t("room.remove"), "room-remove", "remove-place-%d" % number, kind="ghost",
                                    data_value=number, aria_label=t("room.remove_label", name=name))))
        screens = ""
        if room.screens:
            screens = '<h3>%s</h3><ul class="room-places">%s</ul>' % (escape(t("room.screens")), "".join(
                '<li class="room-place" data-testid="lobby-screen-%d"><span class="who">%s</span><span class="presence %s">%s</span></li>' % (
                    s["screen"], escape(s["name"] or "TV"), "on" if s["online"] else "off",
                    escape(t("room.online") if s["online"] else t("room.away")))
                for s in [room.screens[n] for n in sorted(room.screens)]))
        body = self.host_row() + ("".join(items) if items else '<li class="hint">%s</li>' % escape(t("room.nobody")))
        joining = button(t("room.close_joining") if room.joining else t("room.open_joining"), "room-joining",
                         "close-joining", kind="ghost")
        # The evening ends here as well as from a game's menu: between games is where a host looks for it.
        joining += button(t("room.end_confirm") if self.end_armed else t("room.end"), "room-end", "end-room", kind="ghost")
        return ('<section class="panel room-people" aria-labelledby="places-h"><h2 id="places-h">%s</h2>%s'
                '<ul class="room-places" aria-live="polite">%s</ul>%s<div class="controls">%s</div></section>' % (
                    escape(t("room.places")), self.too_many_notice(), body, screens, joining))

    def host_row(self):
        """Return this device's own line in the list: its name, marked as the host (and "shows the table"
        when it does not play)."""
        name = (self.host_name_value or "").strip()[:NAME_LENGTH]
        return ('<li class="room-place host%s" data-testid="lobby-host"><span class="who">%s%s%s</span>'
                '<span class="presence on"><span class="visually-hidden">, </span>%s</span></li>' % (  # "Host, this device"
                    "" if self.host_plays else " watching", escape(name or t("room.host_default")),
                    ' <span class="tag host">%s</span>' % escape(t("room.host_tag")) if name else "",
                    "" if self.host_plays else ' <span class="tag watch">%s</span>' % escape(t("room.host_shows_table")),
                    escape(t("room.this_device"))))

    def too_many_notice(self):
        """Return what to do when more people are here than the next game has seats ("" when all fit)."""
        extra = self.too_many()
        if not extra:
            return ""
        key = "room.too_many_one" if extra == 1 else "room.too_many"
        return '<p class="notice warn" role="alert" data-testid="too-many">%s</p>' % escape(
            t(key, n=extra, game=game_name(self.game), seats=self.engine.INFO["seats"]["max"]))

    def render_game(self):
        """Return the choice of the next game: every game of the app, in the room itself."""
        from spieleabend.ui.setup import radio

        items = "".join(radio("room-game", game, "room-game-%s" % game, game == self.game, game_name(game), "seg")
                        for game in GAME_MODULES)
        return ('<section class="panel room-next"><fieldset><legend>%s</legend>'
                '<div class="segments room-games" style="--cols:2">%s</div></fieldset></section>' % (
                    escape(t("room.next_game")), items))

    def render_options(self, app):
        """Return the next game's settings: the start screen's own pieces, then who plays on this device."""
        from spieleabend.ui.setup import columns, option_panels, radio, strength_fieldset

        limits = self.engine.INFO["seats"]
        seats = self.seat_count
        fewest = min(limits["max"], self.people())
        counts = "".join(radio("room-seats", n, "room-seats-%d" % n, n == seats, str(n), "seg", disabled=n < fewest)
                         for n in range(limits["min"], limits["max"] + 1))
        hints = {}
        if self.plugin is not None and hasattr(self.plugin, "setup_hints"):
            choices = dict(self.choices)
            choices["seats"] = seats
            hints = self.plugin.setup_hints(choices)
        panels = ['<section class="panel room-options"><fieldset><legend>%s</legend><div class="segments" style="--cols:%d">%s</div>'
                  '<p class="hint" id="room-seats-hint" data-testid="room-seats-hint">%s</p></fieldset></section>' % (
                      escape(t("room.seats")), columns(limits["max"] - limits["min"] + 1), counts,
                      escape(self.fill_text()))]
        panels.extend(option_panels(self.engine, self.choices, hints))
        panels.append('<section class="panel">%s</section>' % strength_fieldset(
            self.game, self.choices["strength"], "room-strength", t("room.strength")))
        panels.append(
            '<section class="panel"><label class="switch"><input type="checkbox" data-input="host-plays" data-testid="host-plays"%s>'
            '<span>%s</span></label><p class="hint">%s</p>'
            '<label for="room-host-name" class="label">%s</label><input type="text" id="room-host-name" '
            'autocomplete="nickname" data-testid="room-host-name" data-input="room-host-name" value="%s" placeholder="%s">'
            '%s</section>' % (
                " checked" if self.host_plays else "", escape(t("room.host_plays")), escape(t("room.host_plays_hint")),
                escape(t("room.your_name")), escape(self.host_name_value), escape(t("room.host_default")),
                '<p class="notice warn" role="alert" data-testid="host-name-error">%s</p>' % escape(self.name_error)
                if self.name_error else ""))
        return panels

    def fill_text(self):
        """Return who sits at the next game: "3 Personen, 1 Computer füllt den freien Platz"."""
        people = self.people()
        who = t("room.people_one") if people == 1 else t("room.people", n=people)
        if self.too_many():
            return t("room.fill_too_many", people=who, seats=self.engine.INFO["seats"]["max"])
        computers = max(0, self.seat_count - people)
        if computers == 0:
            return t("room.fill_none", people=who)
        if computers == 1:
            return t("room.fill_one", people=who)
        return t("room.fill_many", people=who, n=computers)

    def render_start(self, room):
        """Return the start bar, always in reach at the bottom: the next game, who plays, and what is missing."""
        return ('<div class="setup-start room-start"><p class="room-next-line" data-testid="room-next">%s</p>%s</div>' % (
            escape(t("room.next_is", game=game_name(self.game)) + " · " + self.fill_text()),
            button(t("room.start"), "room-start", "start-room-game", kind="primary", extra="wide",
                   disabled=self.too_many() > 0 or room.link.state != "online")))

    host_name_value = ""
    name_error = ""
    end_armed = False

    def on_input(self, app, name, value, final):
        from spieleabend.ui.setup import option_choice
        from spieleabend.ui.shell import remember_setup

        if name == "room-host-name":
            # Kept as typed (no redraw): a phone joining redraws the lobby, which must not lose it.
            self.host_name_value = value if isinstance(value, str) else ""
            if final:  # the phones' lists of who is in the room follow once it is typed
                self.room.set_host(self.host_name_value[:NAME_LENGTH], self.host_plays)
            return
        if name == "room-game":
            if value in GAME_MODULES and value != self.game and self.room.table is None:
                self.room.choose_game(value)
                # The same table, another game: its seats carry over (where the game has that many), so no
                # computer joins because the other game's start screen once had more seats.
                self.take_choices(app, value, {"seats": self.seat_count})
                app.rerender()
            return
        if name == "room-seats":
            limits = self.engine.INFO["seats"]
            if str(value).isdigit() and limits["min"] <= int(value) <= limits["max"]:
                self.choices["seats"] = int(value)
        elif name == "room-strength":
            self.choices["strength"] = chosen_strength(self.game, value)
        elif name == "host-plays":
            self.host_plays = bool(value)
            self.room.set_host(self.host_name_value[:NAME_LENGTH], self.host_plays)
        else:
            chosen = option_choice(self.engine, name, value)
            if chosen is None:
                return
            self.choices[name] = chosen
        remember_setup(app, self.game, self.choices)
        app.rerender()

    def handle(self, app, action, value):
        room = self.room
        if action == "room-share":
            url = room.join_url()
            if url:
                app.share_link(url, t("app.title"), lambda how: app.toast(
                    t("room.shared") if how == "shared" else t("room.copied") if how == "copied" else t("room.copy_failed")))
        elif action == "room-remove":
            room.remove_place(int(value))
        elif action == "room-watch":
            number = int(value)
            room.set_watching(number, number not in room.watching())
        elif action == "room-joining":
            room.set_joining(not room.joining)
        elif action == "room-new-pin":
            room.new_pin()
        elif action == "room-start":
            self.start(app)
        elif action == "room-end":
            if not self.end_armed:
                self.end_armed = True
                app.rerender()
                return
            self.room.end()
            self.keep = True
            app.show(EndedScreen(self.game, None, "ended", host=True), route="room/ended")
        elif action == "room-new":
            self.room.stop()
            app.storage.clear_room()
            self.keep = True
            app.show(host_screen(app, self.game))

    def start(self, app):
        problem, name = name_problem((app.field("room-host-name") or "").strip(), required=False)
        self.host_name_value = name
        self.name_error = problem
        if problem:
            app.rerender()
            app.focus("#room-host-name")
            return
        self.room.set_host(name, self.host_plays)  # what the field holds now, kept for the next game's lobby
        name = name or app.settings.get("name", "") or t("room.host_default")
        if self.host_plays:
            # Two of one name at the table cannot be told apart: a phone has this name already.
            taken = [place["name"] for place in self.room.playing_places() if name_key(place["name"]) == name_key(name)]
            if taken:
                self.name_error = t("room.host_name_taken", name=taken[0])
                app.rerender()
                app.focus("#room-host-name")
                return
        if self.too_many():
            return
        options = {}
        for option in self.engine.INFO["options"]:
            options[option["key"]] = self.choices[option["key"]]
        table = self.room.start_game(options, self.seat_count, self.choices["strength"], self.host_plays, name)
        self.keep = True
        show_host_game(app, self.room, table)

    def leave(self, app):
        if not self.keep:
            self.room.stop()


def show_host_game(app, room, table):
    """Show the running room game on the host (the game's own screen in the room frame)."""
    module = game_module(room.game)
    inner = module.TableScreen(app, table)
    frame = RoomFrame(app, inner, table, room=room)
    app.show(frame, route="room/host/%s/table" % room.game)


class RoomFrame(Screen):
    """A game's own table screen with the room around it: status line, stand-ins, mismatches, ending."""

    def __init__(self, app, inner, table, room=None):
        self.inner = inner
        self.table = table
        self.room = room
        self.end_armed = False
        self.lobby_armed = False
        self.keep = False
        self.leave_armed = False
        self.menu_open = False  # the host's room buttons (another game, end the room) shown
        self.pin_asked = False  # the host asked for a new PIN here: it is shown until the menu closes
        self.route = getattr(inner, "route", "")

    def status(self, app):
        if self.room is not None:
            return status_of(self.room.link, code=self.room.code(), now=app.now())
        return status_of(self.table.link, host=self.table.host, code=self.table.doc.get("code"), now=app.now(),
                         stale=getattr(self.table, "stale", False))

    def bar(self, app):
        state, text = self.status(app)
        notes = []
        names = []
        seats = self.table.seats()  # once: a room table copies its seats on every call
        playing = self.table.outcome() is None  # over: who played for whom no longer needs the bar (a TV kept it)
        for entry in seats:
            if entry.get("stand_in") and playing:
                names.append((entry["name"], entry.get("gone")))
        for name, gone in names:
            notes.append('<span class="room-note stand-in" data-testid="stand-in-note">%s</span>' % escape(
                t("room.left_stand_in" if gone else "room.stand_in", name=name)))
        if playing:
            notes.extend(away_notes(seats, app.now()))
        if self.room is None and self.table.move_slow(app.now()):
            # A move the host has not answered for a second (its line is slow or gone): said, so that the
            # person knows it was sent and waits rather than tapping another card.
            notes.append('<span class="room-note" role="status" data-testid="move-on-way">%s</span>' % escape(
                t("room.move_on_way")))
        watching = self.table.watching() if self.room is None else None
        if watching is not None:
            notes.append('<span class="room-note watch" role="status" data-testid="watching-note">%s</span>' % escape(
                t("room.watching_" + ("deal" if watching == "deal" else "game"))))
        if self.room is None and not self.table.reads_from_afar() and self.table.outcome() is not None:
            # The final standings on a phone have no "Neue Partie": say what comes next, and that it comes by itself.
            notes.append('<span class="room-note" role="status" data-testid="next-by-host">%s</span>' % escape(
                t("room.next_by_host_wait")))
        bad = self.mismatched()
        if bad:
            seat_names = [entry["name"] for entry in seats]
            notes.append('<span class="room-note warn" role="alert" data-testid="reveal-mismatch">%s</span>' % escape(
                t("room.mismatch", names=", ".join([seat_names[s] if s < len(seat_names) else "?" for s in bad]))))
        if self.room is not None and self.room.pin_locked:
            # Someone guessed the PIN during the game: latecomers cannot join by it, and the lobby that says so
            # is not on screen.
            notes.append('<span class="room-note warn" role="alert" data-testid="pin-locked-note">%s</span>' % escape(
                t("room.pin_locked_game")))
        elif self.room is not None and self.pin_asked and self.menu_open:
            notes.append('<span class="room-note" role="status" data-testid="new-pin-note">%s</span>' % escape(
                t("room.new_pin_is", pin=self.room.doc.get("pin", ""))))
        notice = getattr(self.table, "notice", None)
        if notice is not None and notice[0] in ("illegal", "mismatch", "lost"):
            notes.append('<span class="room-note warn" role="alert" data-testid="room-notice">%s</span>' % escape(
                t("room.error." + notice[0], text=notice[1])))
        controls = ""
        if self.room is not None and self.room.link.state == "closed" and \
                self.room.link.status()[1] in ("unknown_room", "bad_token", "host_gone", "idle"):
            controls = button(t("room.alone"), "room-alone", "room-alone", kind="primary")
        elif self.room is not None:
            # Room buttons beside the status took a second row of the sticky bar on a 360 px phone for the
            # whole game: they wait behind one "Raum ▾" until the host needs them.
            controls = button(t("room.menu_close") if self.menu_open else t("room.menu"), "room-menu", "room-menu",
                              kind="ghost", extra="room-end", aria_label=t("room.menu_label"),
                              aria_expanded="true" if self.menu_open else "false")
            if self.menu_open and self.room.pin_locked:
                controls += button(t("room.new_pin"), "room-new-pin", "room-new-pin", kind="ghost", extra="room-end")
            if self.menu_open and self.table.outcome() is None:
                # Another game instead of this one (the wrong game, people leaving): the room stays.
                controls += button(t("room.lobby_confirm") if self.lobby_armed else t("room.to_lobby"), "room-lobby",
                                   "room-lobby", kind="ghost", extra="room-end")
            if self.menu_open:
                controls += button(t("room.end_confirm") if self.end_armed else t("room.end"), "room-end", "end-room",
                                   kind="ghost", extra="room-end")
        elif self.table.link.state in ("retrying", "closed") and self.table.link.error not in ("bad_token",):
            controls = button(t("room.reconnect"), "room-reconnect", "room-reconnect", kind="ghost")
        if self.room is None and self.table.link.state != "closed" and not self.table.reads_from_afar():
            # A phone or screen may leave for good mid-game (a computer plays its seat; Mau-Mau removes it).
            # Short, so that the bar stays one line on a 360 px phone.
            controls += button(t("room.leave_confirm") if self.leave_armed else t("room.leave_short"), "room-leave",
                               "room-leave", kind="ghost", extra="room-end", aria_label=None if self.leave_armed
                               else t("room.leave"))
        # A table screen is read from across the room: its notes are large (rooms.css).
        return '<div class="room-bar%s">%s%s%s</div>' % (" on-screen" if self.table.reads_from_afar() else "",
                                                          status_line(state, text), "".join(notes), controls)

    def mismatched(self):
        if self.room is not None:
            cr = self.table.meta["cr"] if "cr" in self.table.meta else {"bad": []}
            return [int(s) for s in cr["bad"]]
        out = list(self.table.mismatch)
        if self.table.message is not None and "cr" in self.table.message:
            for key in self.table.message["cr"]["bad"]:
                if int(key) not in out:
                    out.append(int(key))
        return out

    def render(self, app):
        return self.bar(app) + self.stood_in_note() + self.inner.render(app)

    def stood_in_note(self):
        """Return what a computer played for this phone while it was away, under the room bar: said until the
        person's next move, it scrolls away with the page (in the sticky bar it took 123 px of a phone)."""
        stood_in = getattr(self.table, "stood_in", None)
        if not stood_in:
            return ""
        moves = stood_in_moves(self.table, self.inner, stood_in)
        if len(moves) > STOOD_IN_LISTED:
            # A long absence: the count and the last few, not two dozen moves over half the screen.
            said = t("room.stood_in_many", n=len(moves), moves=", ".join(moves[-STOOD_IN_LISTED:]))
        else:
            said = t("room.stood_in", moves=", ".join(moves)) if moves else t("room.stood_in_none")
        return '<p class="room-back-note" role="status" data-testid="stood-in-note">%s</p>' % escape(said)

    def handle(self, app, action, value):
        if action == "room-menu" and self.room is not None:
            self.menu_open = not self.menu_open
            self.lobby_armed = self.end_armed = False  # closing it is the way to say no to "Noch einmal tippen"
            self.pin_asked = False
            app.rerender()
            return
        if action == "room-new-pin" and self.room is not None:
            self.room.new_pin()
            self.pin_asked = True
            app.rerender()
            return
        if action == "room-lobby" and self.room is not None:
            if not self.lobby_armed and self.table.outcome() is None:
                self.lobby_armed = True
                app.rerender()
                return
            self.keep = True
            if self.table.outcome() is None:
                app.storage.delete_game(self.room.game)  # left unfinished for another game: it does not count
            reopen_lobby(app, self.room)
            return
        if action == "room-end":
            if self.room is None:
                return
            outcome = self.table.outcome()
            if outcome is None and not self.end_armed:
                self.end_armed = True
                app.rerender()
                return
            view = self.table.view_of(None)
            self.room.end()
            self.keep = True
            app.show(EndedScreen(self.room.game, view, "ended", host=True), route="room/ended")
            return
        if action == "room-leave" and self.room is None:
            if not self.leave_armed:
                self.leave_armed = True
                app.rerender()
                return
            self.table.leave_room()
            app.go("")
            app.toast(t("room.left_toast"))  # on the home screen: say where the room went
            return
        if action == "room-reconnect":
            self.table.link.retry_now()
            return
        if action == "room-alone" and self.room is not None:
            go_on_alone(app, self.room)
            return
        if action == "new-game":
            if self.room is not None:
                self.keep = True
                reopen_lobby(app, self.room)
            else:
                app.toast(t("room.next_by_host"))
            return
        if action == "pause":
            return
        self.inner.handle(app, action, value)

    def on_input(self, app, name, value, final):
        self.inner.on_input(app, name, value, final)

    @property
    def keys(self):
        return self.inner.keys

    def on_key(self, app, key):
        return self.inner.on_key(app, key)

    def leave(self, app):
        self.inner.leave(app)
        if self.room is not None and not self.keep:
            self.room.stop()


def away_notes(seats, now):
    """Return a note per away seat (not yet played by a computer), with the seconds until one takes over.

    The seconds count down in the page itself (index.html ticks [data-countdown] to its epoch ms), so
    the app need not redraw every second."""
    notes = []
    for entry in seats:
        if not entry.get("away") or entry.get("stand_in") or entry.get("me"):
            continue
        if "stand_in_at" in entry:
            due = entry["stand_in_at"]
            text = escape(t("room.away_countdown", name=entry["name"], s="\x00")).replace("\x00", countdown(due, now))
        else:
            text = escape(t("room.away_note", name=entry["name"]))
        notes.append('<span class="room-note away" role="status" data-testid="away-note">%s</span>' % text)
    return notes


def stood_in_moves(table, inner, actions):
    """Return what a computer played for this phone's seat while it was away, in words: the game's screen
    words them where its events know more than the actions (Mau-Mau: how many cards a draw took)."""
    if hasattr(inner, "stood_in_words"):
        words = inner.stood_in_words(table.view())
        if words:
            return words
    return [words for words in [action_words(action) for action in actions] if words]


def action_words(action):
    """Return a computer's move for a seat in words ("Karo 5", "eine Karte gezogen"); "" for moves that
    only go on (next round, ready). Any game's actions: a verb and cards or numbers (games/common.py)."""
    words = str(action).split()
    if not words:
        return ""
    verb, rest = words[0], words[1:]
    if verb == "play" and rest:
        risk = "risk" in rest
        names = [card_words(word) for word in rest if word not in ("risk", "mau")]
        text = ", ".join(names)
        return t("room.did.risk", cards=text) if risk else text
    if verb in ("swap", "take") and rest and rest[0].isdigit():
        return t("room.did." + verb, n=int(rest[0]) + 1)
    if verb in ("draw", "pass", "knock", "discard"):
        return t("room.did." + verb)
    return ""


def card_words(word):
    """Return a card of an action in words: a French card by name (a wished suit after it), a number as it is."""
    card, _, wish = word.partition(":")
    if len(card) >= 2 and card[-1] in "HDSC" and card[:-1] in ("2", "3", "4", "5", "6", "7", "8", "9", "10",
                                                                 "J", "Q", "K", "A"):
        text = card_name(card)
        return t("room.did.wish", card=text, suit=t("card." + wish)) if wish in ("H", "D", "S", "C") else text
    return card


def go_on_alone(app, room):
    """The room is gone (server restarted): computers take the phones' seats, the game goes on here."""
    from spieleabend.ui.table import COMPUTER

    table = room.table
    strength = table.meta["room"].get("strength") if "room" in table.meta else None
    for player in table.players():
        if player["kind"] == "remote":
            player["kind"] = COMPUTER
            player["strength"] = player.get("strength") or strength
            player["stand_in"] = False
            player["away"] = False
    for key in ("room", "cr", "room_code"):
        if key in table.meta:
            del table.meta[key]
    table.save()
    table.close()
    app.storage.clear_room()
    app.go("play/%s/continue" % room.game, replace=True)


def reopen_lobby(app, room):
    """After a game: the room's lobby, where the host chooses the next game (the last one's settings first)."""
    last = room.back_to_lobby()
    screen = LobbyScreen(app, room, last)
    app.show(screen, route="room/host/" + room.game)
    screen.need_qr(app)


class EndedScreen(Screen):
    """The room has ended: the final standings as the last view showed them."""

    route = "room/ended"

    def __init__(self, game, view, reason, host=False, night=None, afar=False):
        self.game = game
        self.view = view
        self.reason = reason
        self.host = host
        self.night = night  # tonight's table as a phone last had it from the host (the host reads its own)
        self.afar = afar    # a table screen: read from the sofa

    def render(self, app):
        night = __import__("spieleabend.ui.night", fromlist=["x"])
        parts = []
        if not self.host:
            parts.append(status_line("closed", error_text(self.reason)))
        if self.view is not None and self.game in GAME_MODULES:
            engine = load_engine(self.game)
            rows = final_rows(self.view, engine.progress(self.view), engine.INFO["lower_wins"])
            items = "".join('<li class="standing" data-testid="room-standing-%d"><span class="rank">%d.</span>'
                            '<span class="who">%s</span><span class="score">%s</span></li>' % (
                                index, rank, escape(name), escape(t("room.points", n=score)))
                            for index, (rank, name, score) in enumerate(rows))
            # A game ended before its end says so: its points are where it stopped, not a final.
            finished = "outcome" in self.view and self.view["outcome"] is not None
            title = t("room.final" if finished else "room.stopped_at", game=game_name(self.game))
            parts.append('<section class="final room-final" aria-labelledby="final-h"><h2 id="final-h">%s</h2>'
                         '<ol class="standings" data-testid="room-final">%s</ol></section>' % (escape(title), items))
        rows = night.night_summary(app.storage) if self.host else night.safe_rows(self.night)
        parts.append(night.room_night_html(rows, charts=False, per_game=not self.afar))  # a TV: what fits its height
        parts.append('<div class="controls"><a class="btn btn-secondary" href="#/results" data-testid="to-results">%s</a>'
                     '<a class="btn btn-ghost" href="#/" data-testid="room-home">%s</a></div>' % (
                         escape(t("room.to_results")), escape(t("room.home"))))
        return page(t("room.ended_title"), "".join(parts), extra_class="room room-ended-afar" if self.afar else "room")


class NoRoomScreen(Screen):
    """A room route without a room: offer joining."""

    def __init__(self, text_key="room.no_room"):
        self.text_key = text_key

    def render(self, app):
        return page(t("room.title"), '<p class="empty">%s</p><p><a class="btn btn-primary" href="#/join" data-testid="join-room">%s</a></p>' % (
            escape(t(self.text_key)), escape(t("room.join_home"))), extra_class="room")


# -- phones and screens ---------------------------------------------------------------------------------
class JoinScreen(Screen):
    """Name, then Mitspielen or Als Tisch-Bildschirm; by link (code and secret) or typed code + PIN.

    `typed`: what a failed attempt had in its fields (code, pin, name), shown again to correct."""

    route = "join"

    def __init__(self, code=None, secret=None, typed=None):
        self.code = code
        self.secret = secret
        self.error = None
        self.typed = dict(typed or {})
        self.looked = None  # the relay's answer to "what does this room play?" (join links only)
        self.asked = False

    def ask_room(self, app):
        """Ask the relay once what the link's room plays now (the host may have changed it since the link went out)."""
        if self.secret is None or self.asked:
            return
        self.asked = True

        def answered(frame):
            self.looked = frame
            if app.screen is self:
                app.rerender()
        look_room(app, self.code, self.secret, answered)

    def room_line(self):
        """Return what the room plays ("Als Nächstes: Golf", or the game running and when one plays), or why
        the link will not join; "" until the relay answered (or when it could not tell)."""
        looked = self.looked
        if not isinstance(looked, dict):
            return ""
        if "error" in looked:
            return '<p class="notice warn" role="alert" data-testid="join-link-error">%s</p>' % escape(error_text(looked["error"]))
        about = looked["about"] if isinstance(looked.get("about"), dict) else {}
        parts = []
        game = about.get("game")
        if game in GAME_MODULES:
            running = about.get("running") is True
            parts.append('<p class="room-game" data-testid="join-game" data-game="%s" data-running="%s">%s</p>' % (
                game, "yes" if running else "no",
                escape(t("room.now_playing" if running else "room.next_is", game=game_name(game)))))
            if running:
                parts.append('<p class="hint" data-testid="join-when">%s</p>' % escape(t(
                    "room.join_watch_deal" if about.get("joins_at") == "deal" else "room.join_watch_game")))
        if looked.get("joining") is False:
            parts.append('<p class="notice warn" data-testid="join-closed">%s</p>' % escape(t("room.err.joining_closed")))
        return "".join(parts)

    def render(self, app):
        self.ask_room(app)
        if self.secret is not None and isinstance(self.looked, dict) and "error" in self.looked:
            return self.render_dead_link()
        name = self.typed["name"] if "name" in self.typed else app.settings.get("name", "")
        fields = []
        if self.secret is None:
            fields.append('<label for="join-code" class="label">%s</label><input type="text" id="join-code" '
                          'maxlength="9" autocapitalize="characters" autocomplete="off" data-testid="join-code" '
                          'data-input="join-code" value="%s">'
                          % (escape(t("room.join_code")), escape(self.typed.get("code") or self.code or "")))
            fields.append('<label for="join-pin" class="label">%s</label><input type="text" id="join-pin" inputmode="numeric" '
                          'maxlength="4" autocomplete="off" data-testid="join-pin" data-input="join-pin" value="%s">' % (
                              escape(t("room.join_pin")), escape(self.typed.get("pin") or "")))
        else:
            fields.append('<p class="room-ids"><span class="label">%s</span><strong class="room-code">%s</strong></p>%s' % (
                escape(t("room.code")), escape(self.code), self.room_line()))
        # No maxlength: the browser would cut a pasted name without a word; the app says it (name_problem).
        # data-input: what is typed reaches the app, so a redraw (the relay's answer) keeps it.
        fields.append('<label for="join-name" class="label">%s</label><input type="text" id="join-name" '
                      'autocomplete="nickname" data-testid="join-name" data-input="join-name" value="%s" placeholder="%s">' % (
                          escape(t("room.name")), escape(name), escape(t("room.name_placeholder"))))
        error = '<p class="notice warn" role="alert" data-testid="join-error">%s</p>' % escape(self.error) if self.error else ""
        body = ('<form class="setup room-join" onsubmit="return false"><section class="panel">%s</section>%s'
                '<div class="controls">%s%s</div><p class="hint">%s</p></form>' % (
                    "".join(fields), error,
                    button(t("room.join_seat"), "join-seat", "join-seat", kind="primary", extra="wide"),
                    button(t("room.join_screen"), "join-screen", "join-screen", kind="secondary", extra="wide"),
                    escape(t("room.join_screen_hint"))))
        return page(t("room.join_title"), body, extra_class="room")

    def render_dead_link(self):
        """The relay said the link cannot join (the room is gone, or the link is wrong): no name and no join
        buttons that could only fail again, but the way on, typing code and PIN (the code kept where the room is there)."""
        again = "#/join" if self.looked["error"] == "unknown_room" else "#/join/" + self.code
        body = ('<section class="panel"><p class="room-ids"><span class="label">%s</span><strong class="room-code">%s</strong></p>'
                '%s</section><p class="hint">%s</p><div class="controls"><a class="btn btn-primary wide" href="%s" '
                'data-testid="join-by-code">%s</a></div>' % (
                    escape(t("room.code")), escape(self.code), self.room_line(), escape(t("room.link_dead_hint")),
                    escape(again), escape(t("room.join_by_code"))))
        return page(t("room.join_title"), body, extra_class="room")

    def on_input(self, app, name, value, final):
        """Keep what is typed, so that a redraw shows it again."""
        if name in ("join-code", "join-pin", "join-name") and isinstance(value, str):
            self.typed[name[5:]] = value

    def on_key(self, app, key):
        """Enter in a field (a phone keyboard's "Go") joins as a player, the screen's main button."""
        if key == "Enter" and app.focused() in ("join-code", "join-pin", "join-name"):
            self.handle(app, "join-seat", None)
            return True
        return False

    def handle(self, app, action, value):
        if action not in ("join-seat", "join-screen"):
            return
        typed = (app.field("join-name") or "").strip()
        self.typed = {"name": typed, "code": app.field("join-code"), "pin": app.field("join-pin")}
        problem, name = name_problem(typed, required=action == "join-seat")
        if problem:
            self.typed["name"] = name  # the shortened name stands in the field: a second tap joins with it
            self.error = problem
            app.rerender()
            app.focus("#join-name")
            return
        if name:
            app.settings["name"] = name
            app.save_settings()
        doc = {"role": "seat" if action == "join-seat" else "screen", "name": name or "TV"}
        if self.secret is not None:
            doc["code"] = self.code
            doc["secret"] = self.secret
        else:
            code = normalize_code(app.field("join-code") or "")
            pin = (app.field("join-pin") or "").strip()
            # Say which of the two is wrong: "enter code and PIN" read as nonsense after both were typed.
            problem = None
            if not code or not pin:
                problem = "room.need_code"
            elif len(code) != 6 or not code.isalnum():
                problem = "room.bad_code"
            elif len(pin) != 4 or not pin.isdigit():
                problem = "room.bad_pin"
            if problem is not None:
                self.error = t(problem)
                app.rerender()
                return
            doc["code"] = code
            doc["pin"] = pin
        held = own_place(app, doc["code"])
        if held is not None:
            doc = held  # this device is in that room already: take its place, do not add one
        app.show(place_screen(app, doc), route="room/play")


def name_problem(typed, required=True):
    """Return (what to tell, the name to use) for a typed name: ("", name) when it is fine as it is.

    Names are at most NAME_LENGTH characters: a longer one is shortened and said so; an empty one is
    asked for (a seat's name is how the others know whose turn it is)."""
    if not typed:
        return (t("room.name_needed") if required else ""), ""
    if len(typed) > NAME_LENGTH:
        short = typed[:NAME_LENGTH].strip()
        return t("room.name_cut", n=NAME_LENGTH, name=short), short
    return "", typed


class GuestScreen(Screen):
    """A phone's or a screen's place: connecting, the lobby, then the game's own screen in the room frame."""

    route = "room/play"

    def __init__(self, app, table):
        self.table = table
        self.frame = None
        self.frame_for = None  # (game, seat, start) of the game the frame shows
        self.ended = None
        self.qr_for = None     # the join link whose QR code a table screen shows between games
        self.qr_svg = None
        table.listen(lambda _e: self.changed(app))
        self.changed(app)  # after a reload the table holds the last view it was sent: drawn at once

    def changed(self, app):
        table = self.table
        if table.name_taken is not None:
            if app.screen is self:
                self.join_again(app, table.name_taken)
            return
        state, detail = table.link.status()
        if state == "closed" and detail in ("bad_token", "pin_locked") and table.link.welcome is None:
            # A wrong PIN (or a locked one) on joining: straight back to the form, the error beside the fields
            # (a page of its own with "Nochmal versuchen" cost one more tap).
            if app.screen is self:
                self.join_again(app)
            return
        if state == "closed" and detail in ("ended", "host_gone", "idle") and self.ended is None:
            view = table.message["view"] if table.message is not None else None
            self.ended = EndedScreen(table.game, view, detail,
                                     night=table.lobby["night"] if table.lobby is not None and "night" in table.lobby else None,
                                     afar=table.reads_from_afar())
        showing = None
        if table.message is not None:
            showing = (table.game, table.seat, table.message.get("started_at"))
        if self.frame is not None and showing != self.frame_for:
            # Back in the lobby, or straight into another game (or a seat at this one): the old game's screen goes.
            self.frame.inner.leave(app)
            self.frame = None
        fresh = False
        if showing is not None and self.frame is None and table.plugin is not None \
                and hasattr(table.plugin, "TableScreen"):
            fresh = True
            listeners = table.listeners
            table.listeners = [listeners[0]] if listeners else []
            self.frame = RoomFrame(app, table.plugin.TableScreen(app, table), table)
            self.frame_for = showing
        if self.frame is None:
            self.need_qr(app)
        if app.screen is self and (self.frame is None or fresh):
            app.rerender()  # with the game's screen in place, its own listener draws

    def need_qr(self, app):
        """On a table screen between games: fetch the QR code of the room's join link (once per link)."""
        lobby = self.table.lobby
        if not self.table.reads_from_afar() or lobby is None or not isinstance(lobby.get("invite"), dict):
            return
        url = lobby["invite"].get("url")
        if not isinstance(url, str) or not url or url == self.qr_for:
            return
        self.qr_for = url

        def got_qr(status, svg):
            self.qr_svg = svg if status == 200 else None
            if app.screen is self and self.frame is None:
                app.rerender()
        app.request("POST", "/api/qr.svg", url, got_qr, "text/plain;charset=utf-8")

    def render(self, app):
        table = self.table
        if self.ended is not None:
            return self.ended.render(app)
        if table.removed:
            return page(t("room.title"), '%s<p class="notice warn" data-testid="room-removed">%s</p>%s' % (
                status_line("closed", t("room.removed")), escape(t("room.removed")),
                '<p><a class="btn btn-ghost" href="#/" data-testid="room-home">%s</a></p>' % escape(t("room.home"))),
                extra_class="room")
        if self.frame is not None and table.message is not None:
            return self.frame.render(app)
        state, text = status_of(table.link, host=table.host, code=table.doc.get("code"), now=app.now())
        parts = [status_line(state, text)]
        link_state, detail = table.link.status()
        if link_state == "closed":
            again = ""
            if detail == "replaced":  # open in another tab: this one may take the place back
                again = button(t("room.take_back"), "room-reconnect", "room-take-back", kind="primary")
            elif detail not in ("ended", "left"):
                again = button(t("room.again"), "join-again", "join-again", kind="primary")
            parts.append('<div class="controls">%s<a class="btn btn-ghost" href="#/" data-testid="room-home">%s</a></div>' % (
                again, escape(t("room.home"))))
            return page(t("room.title"), "".join(parts), extra_class="room")
        if table.game is not None and table.plugin is None:
            parts.append('<p class="notice warn">%s</p>' % escape(t("room.no_screen_for")))
        elif table.reads_from_afar() and (table.lobby is not None or link_state == "online"):
            # No way home on a TV: nobody taps it, and the room is what it is there for.
            return page(t("night.title"), "".join(parts) + self.room_face(), back=False, extra_class="room room-face")
        elif table.lobby is not None or link_state == "online":
            # In the room as soon as the relay said so; the host's lobby list follows.
            people = self.people_list()
            if people:
                people = '<h2 class="room-wait-h">%s</h2>%s' % (escape(t("room.in_room")), people)
            parts.append('<section class="panel room-wait">%s<p data-testid="room-waiting">%s</p>%s</section>' % (
                self.next_game_line(), escape(t("room.waiting_start")), people))
            if table.lobby is not None and "night" in table.lobby:  # tonight's game-night table from the host
                parts.append(__import__("spieleabend.ui.night", fromlist=["x"]).room_night_html(table.lobby["night"]))
        parts.append('<div class="controls">%s</div>' % button(t("room.leave"), "room-leave", "room-leave", kind="ghost"))
        return page(t("room.title"), "".join(parts), extra_class="room")

    def next_game_line(self):
        """Return "Als Nächstes: Golf" (the game the host has chosen), "" before the host's lobby came."""
        if self.table.lobby is None or self.table.lobby.get("game") not in GAME_MODULES:
            return ""
        return '<p class="room-game" data-testid="room-game" data-game="%s">%s</p>' % (
            self.table.lobby["game"], escape(t("room.next_is", game=game_name(self.table.lobby["game"]))))

    def people_list(self):
        """Return who is in the room (as the host's lobby said), those who watch the next game marked."""
        if self.table.lobby is None or not isinstance(self.table.lobby.get("places"), list):
            return ""
        items = []
        host = self.table.lobby.get("host")
        if isinstance(host, dict):  # the host's device is in the room too (a host of an older release: not said)
            name = host.get("name") if isinstance(host.get("name"), str) else ""
            plays = host.get("plays") is not False
            items.append('<li class="room-place host%s" data-testid="room-host"><span class="who">%s</span>'
                         '%s%s</li>' % (
                             "" if plays else " watching", escape(name or t("room.host_default")),
                             '<span class="tag host">%s</span>' % escape(t("room.host_tag")) if name else "",
                             "" if plays else '<span class="tag watch">%s</span>' % escape(t("room.host_shows_table"))))
        for place in self.table.lobby["places"]:
            if not isinstance(place, dict):
                continue
            watches = bool(place.get("watching"))
            items.append('<li class="room-place%s%s"><span class="who">%s</span>%s</li>' % (
                "" if place.get("online") else " away", " watching" if watches else "", escape(place.get("name") or "?"),
                '<span class="tag watch">%s</span>' % escape(t("room.watches")) if watches else ""))
        return '<ul class="room-places" data-testid="room-people">%s</ul>' % "".join(items)

    def room_face(self):
        """Return the table screen between games, read from across the room: how to join, who is in, the
        evening's standings and the next game. It has no controls: nobody taps a TV."""
        lobby = self.table.lobby or {}
        invite = lobby["invite"] if isinstance(lobby.get("invite"), dict) else {}
        code, pin = invite.get("code"), invite.get("pin")
        qr = '<div class="room-qr" data-testid="screen-qr" role="img" aria-label="%s"%s>%s</div>' % (
            escape(t("room.qr", link=invite.get("url") or "")), " data-ready" if self.qr_svg else "", self.qr_svg or "")
        ids = '<div class="room-ids"><p><span class="label">%s</span><strong class="room-code" data-testid="screen-code">%s</strong></p>%s</div>' % (
            escape(t("room.code")), escape(code or "…"),
            '<p><span class="label">%s</span><strong class="room-pin" data-testid="screen-pin">%s</strong></p>' % (
                escape(t("room.pin")), escape(pin)) if isinstance(pin, str) else "")
        night_module = __import__("spieleabend.ui.night", fromlist=["x"])
        # Points per game under the join column: beside the evening's table they would push its last rows
        # below a TV's edge once six people have played four games.
        join = '<section class="face-join">%s%s<p class="hint">%s</p>%s</section>' % (
            qr, ids, escape(t("room.face_join" if isinstance(pin, str) else "room.face_join_no_pin")), night_module.room_per_game_html(lobby.get("night")))
        night = night_module.room_night_html(lobby.get("night"), charts=False, per_game=False)
        who = '<section class="face-who"><h2>%s</h2>%s</section>' % (escape(t("room.in_room")), self.people_list())
        return '<div class="face" data-testid="room-face">%s<div class="face-room">%s<p data-testid="room-waiting" class="face-wait">%s</p>%s%s</div></div>' % (
            join, self.next_game_line(), escape(t("room.face_wait")), who, night)

    def handle(self, app, action, value):
        if self.frame is not None and self.table.message is not None and self.ended is None:
            self.frame.handle(app, action, value)
            return
        if action == "room-leave":
            self.table.leave_room()
            app.go("")
            app.toast(t("room.left_toast"))
        elif action == "room-reconnect":
            self.table.link.retry_now()
        elif action == "join-again":
            self.join_again(app)

    def join_again(self, app, taken=None):
        """Back to the join screen with everything as it was typed: one wrong digit is one fix. `taken`: the
        name someone in the room has already, said there, the name field ready for another."""
        doc = self.table.doc
        again = JoinScreen(doc.get("code"), doc.get("secret"),
                           {"code": doc.get("code"), "pin": doc.get("pin"), "name": doc.get("name")})
        if taken is not None:
            again.error = t("room.name_taken", name=taken)
        elif self.table.link.state == "closed" and self.table.link.status()[1] in ("bad_token", "pin_locked"):
            # Why it failed stays beside the fields to correct ("Falsche PIN. Noch 9 Versuche ...").
            again.error = status_of(self.table.link, code=doc.get("code"), now=app.now())[1]
        route = "join/%s.%s" % (doc.get("code"), doc["secret"]) if doc.get("secret") else "join"
        app.show(again, route=route)
        if taken is not None:
            app.focus("#join-name")
        elif again.error and doc.get("pin"):
            app.focus("#join-pin")  # the digit to correct

    def on_input(self, app, name, value, final):
        if self.frame is not None:
            self.frame.on_input(app, name, value, final)

    @property
    def keys(self):
        return self.frame.keys if self.frame is not None else ""

    def on_key(self, app, key):
        return self.frame.on_key(app, key) if self.frame is not None else False

    def leave(self, app):
        if self.frame is not None:
            self.frame.inner.leave(app)
        self.table.disconnect()


# -- routes ---------------------------------------------------------------------------------------
def host_screen(app, game):
    """Return the host's screen: the room's running game, else the room's lobby (kept for the whole evening), else a new room.

    A host room this device keeps is taken back, whichever game's "Zusammen spielen" opened it: the
    group stays in one room and the lobby switches to that game."""
    if game not in GAME_MODULES:
        return NoRoomScreen()
    stored = app.storage.load_room()
    if stored is None or stored["role"] != "host":
        stored = None
    running = stored["game"] if stored is not None and stored.get("game") in GAME_MODULES else game
    for playing in ([running, game] if running != game else [game]):
        document = app.storage.load_game(playing)
        if document is not None and "room" in document["meta"] and game_module(playing) is not None and (
                stored is None or document["meta"]["room"].get("code") == stored.get("code")):
            room = HostRoom.resume_game(app, playing, document)
            room.start()
            inner = room.table.plugin.TableScreen(app, room.table)
            return RoomFrame(app, inner, room.table, room=room)
    request = getattr(app, "room_request", None)
    if request is not None and request.get("game") != game:
        request = None
    app.room_request = None
    if stored is not None and "token" in stored:
        # Between games (or the last game finished and recorded): this room's lobby.
        doc = dict(stored)
        doc["started"] = False
        room = HostRoom(app, running, doc)
        if request is not None:
            room.choose_game(game)
    else:
        room = HostRoom(app, game)
    screen = LobbyScreen(app, room, request)
    room.start()
    return screen


def screen_for(app, route):
    """Return the screen for a room/... or join... route."""
    parts = route.split("/")
    if parts[0] == "join":
        if len(parts) > 1 and parts[1]:
            code, secret = parse_join(parts[1])
            if own_place(app, code) is not None:
                # The link again (a second tab, a rescan, a reload): this device's place, not a second one.
                return place_screen(app, own_place(app, code))
            return JoinScreen(code, secret)
        return JoinScreen()
    if len(parts) >= 3 and parts[1] == "host":
        return host_screen(app, parts[2])
    if len(parts) >= 2 and parts[1] == "play":
        doc = app.storage.load_room()
        if doc is None or doc["role"] == "host" or "token" not in doc:
            return NoRoomScreen()
        return place_screen(app, doc)
    return NoRoomScreen()


def own_place(app, code):
    """Return this device's stored place in room `code` (as a phone or screen), or None."""
    doc = app.storage.load_room()
    if doc is not None and doc["role"] in ("seat", "screen") and "token" in doc and doc.get("code") == code:
        return doc
    return None


def place_screen(app, doc):
    """Return the screen of a place this device holds (or joins), its link started: a second tab takes it over."""
    table = ScreenTable(app, doc) if doc["role"] == "screen" else RemoteTable(app, doc)
    screen = GuestScreen(app, table)
    table.start()
    return screen

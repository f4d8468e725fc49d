"""The one translation table: every text the UI shows, German first, English second."""

LANGUAGES = ["de", "en"]
_current = ["de"]

# key: (Deutsch, English). Placeholders use %(name)s.
TEXTS = {
    "app.title": ("Spieleabend", "Game Night"),
    "app.tagline": ("Kartenspiele für einen Abend – allein gegen Computer oder zusammen am Tisch.",
                    "Card games for an evening – alone against computers or together at the table."),
    "app.loading": ("Spieleabend wird gemischt …", "Shuffling the cards …"),
    "home.games": ("Spiele", "Games"),
    "home.play": ("Spielen", "Play"),
    "home.continue": ("Fortsetzen", "Continue"),
    "home.continue_game": ("%(game)s fortsetzen – %(round)s", "Continue %(game)s – %(round)s"),
    "home.no_save": ("Es gibt keine gespeicherte Partie.", "There is no saved game."),
    "home.game_ended": ("Diese Partie ist zu Ende. So ist sie ausgegangen:", "This game is over. This is how it ended:"),
    "home.played_elsewhere": ("Diese Partie ging in einem anderen Fenster weiter. Damit nichts doppelt gespielt wird, "
                              "ruht sie hier.", "This game went on in another window. So that nothing is played twice, "
                              "it rests here."),
    "home.replaced_elsewhere": ("In einem anderen Fenster wurde eine neue Partie begonnen; diese hier ist damit "
                                "ersetzt.", "A new game was started in another window; it replaced this one."),
    "home.gone_elsewhere": ("Diese Partie wurde in einem anderen Fenster beendet oder gelöscht.",
                            "This game was finished or deleted in another window."),
    "home.play_new_here": ("Die neue Partie hier spielen", "Play the new game here"),
    "home.to_game_here": ("Weiter", "Go on"),
    "home.play_here": ("Hier weiterspielen", "Continue here"),
    "home.new_game": ("Neue Partie", "New game"),
    "home.no_saves": ("Kein angefangenes Spiel.", "No game in progress."),
    "home.results": ("Ergebnisse", "Results"),
    "home.rules": ("Regeln", "Rules"),
    "home.rules_of": ("Regeln: %(game)s", "Rules: %(game)s"),
    "home.night": ("Spieleabend", "Game night"),
    "home.open_game": ("Spiel öffnen", "Open a game"),
    "home.transfer_game": ("%(game)s auf anderes Gerät übertragen", "Move %(game)s to another device"),
    "home.join_room": ("Raum beitreten", "Join a room"),
    "home.back_to_room": ("Zurück in den Raum %(code)s", "Back to room %(code)s"),
    # Beside "Speichern & pausieren" on a phone: short enough for two lines (the screen it opens says it whole).
    "home.transfer": ("Auf anderes Gerät", "To another device"),
    "home.together": ("Zusammen spielen", "Play together"),
    "home.settings": ("Einstellungen", "Settings"),
    "home.offline_ready": ("Bereit für unterwegs: Spieleabend startet auch ohne Netz.",
                           "Ready to go: Game Night also starts without a network."),
    "home.update_waiting": ("Eine neue Version ist bereit. Sie startet beim nächsten Öffnen.",
                            "A new version is ready. It starts the next time you open the app."),
    "home.update_now": ("Jetzt neu starten", "Restart now"),
    "home.restarting": ("Startet neu …", "Restarting …"),
    "home.updated": ("Spieleabend wurde aktualisiert.", "Game Night was updated."),
    "home.damaged.save": ("Deine gespeicherte %(game)s-Partie konnte nicht gelesen werden.",
                          "Your saved %(game)s game could not be read."),
    "home.damaged.settings": ("Deine Einstellungen konnten nicht gelesen werden; es gelten die Grundeinstellungen.",
                              "Your settings could not be read; the defaults apply."),
    "home.damaged.results": ("Deine Ergebnisse konnten nicht gelesen werden.", "Your results could not be read."),
    "home.damaged.night": ("Der Stand des Spieleabends konnte nicht gelesen werden.",
                           "The game night's standings could not be read."),
    "home.damaged.room": ("Dein Platz im Raum konnte nicht gelesen werden.", "Your place in the room could not be read."),
    "home.damaged.other": ("Ein gespeicherter Stand konnte nicht gelesen werden.", "Something stored could not be read."),
    "home.damaged_newer": ("Das Gespeicherte stammt aus einer neueren Version von Spieleabend.",
                           "It was written by a newer version of Game Night."),
    "home.damaged_kept": ("Nichts wurde gelöscht, alles andere ist da.", "Nothing was deleted; everything else is still here."),
    "home.dismiss": ("Verstanden", "Got it"),
    "setup.name": ("Dein Name", "Your name"),
    "setup.name_placeholder": ("Du", "You"),
    "setup.start": ("Partie starten", "Start game"),
    "setup.replace_note": ("Eine angefangene Partie ist gespeichert. Ein neuer Start ersetzt sie.",
                           "A game in progress is saved. Starting a new one replaces it."),
    "table.pause": ("Speichern & pausieren", "Save & pause"),
    "table.close": ("Schließen", "Close"),
    # A room's last seat to choose in secret waits for the host's reveal, not for "the others".
    "table.all_chosen": ("Alle haben gewählt – gleich wird aufgedeckt.", "Everyone has chosen – the reveal is coming."),
    "final.title": ("Endwertung", "Final standings"),
    "final.you_win": ("Du gewinnst!", "You win!"),
    "final.winner": ("%(name)s gewinnt!", "%(name)s wins!"),
    "final.shared_win": ("Geteilter Sieg: %(names)s", "Shared win: %(names)s"),
    "final.undecided": ("Unentschieden", "It's a tie"),
    "final.place": ("Platz %(n)s", "%(nth)s"),
    "final.points": ("%(n)s Punkte", "%(n)s points"),
    "final.computer": ("Computer", "computer"),
    "final.watch": ("Partie ansehen", "Watch replay"),
    "final.points_one": ("1 Punkt", "1 point"),
    "final.night_point": ("1 Spieleabend-Punkt für %(name)s.", "1 game-night point for %(name)s."),
    "final.night_point_you": ("Du bekommst 1 Spieleabend-Punkt.", "You get 1 game-night point."),
    "final.night_point_why": ("Die Spieleabend-Punkte aller Partien des Abends ergeben seine Tabelle (Startseite → Spieleabend).",
                              "The game-night points of all the evening's games make its table (home → Game night)."),
    "final.no_night_point": ("Kein Spieleabend-Punkt: die Partie hat keinen eindeutigen Sieger.",
                             "No game-night point: the game has no unique winner."),
    "level.leicht": ("Leicht", "Easy"),
    "level.mittel": ("Mittel", "Medium"),
    "level.stark": ("Stark", "Strong"),
    "nav.back": ("Zurück", "Back"),
    "nav.home": ("Startseite", "Home"),
    "settings.title": ("Einstellungen", "Settings"),
    "settings.language": ("Sprache", "Language"),
    "settings.lang.de": ("Deutsch", "Deutsch"),
    "settings.lang.en": ("English", "English"),
    "settings.motion": ("Bewegung", "Motion"),
    "settings.motion.system": ("Wie das Gerät", "Same as device"),
    "settings.motion.reduce": ("Bewegung reduzieren", "Reduce motion"),
    "settings.motion.full": ("Alle Animationen", "All animations"),
    "settings.display": ("Darstellung", "Display"),
    "settings.contrast": ("Kontrast", "Contrast"),
    "settings.grain": ("Körnung", "Grain"),
    "settings.temperature": ("Farbtemperatur", "Colour temperature"),
    "settings.reset_display": ("Darstellung zurücksetzen", "Reset display"),
    "settings.saved": ("Gespeichert.", "Saved."),
    "results.title": ("Ergebnisse", "Results"),
    "results.none": ("Noch keine beendete Partie.", "No finished game yet."),
    "results.night": ("Spieleabend", "Game night"),
    "results.night_since": ("seit %(time)s", "since %(time)s"),
    "results.new_night": ("Neuen Spieleabend beginnen", "Start a new game night"),
    "results.player": ("Mitspieler", "Player"),
    "results.points": ("Punkte", "Points"),
    "results.games": ("Partien", "Games"),
    "results.history": ("Beendete Partien", "Finished games"),
    "results.winner": ("Sieg: %(names)s", "Won by %(names)s"),
    "results.shared": ("Geteilter Sieg: %(names)s", "Shared win: %(names)s"),
    "results.no_winner": ("Kein Sieger", "No winner"),
    "results.your_points": ("Deine Punkte: %(points)s", "Your points: %(points)s"),
    "error.generic": ("Das ging nicht: %(message)s", "That did not work: %(message)s"),
    "error.refused": ("Dieser Zug geht gerade nicht.", "That move is not possible right now."),
    "error.failed_title": ("Etwas ist schiefgegangen", "Something went wrong"),
    "error.failed": ("Dieser Bildschirm konnte nicht weiterarbeiten. Gespeicherte Partien sind nicht verloren: "
                     "jede wird nach jedem Zug gesichert, ein Raum bleibt derselbe.",
                     "This screen could not go on. Saved games are not lost: each is saved after every move, "
                     "and a room stays the same room."),
    "error.failed_detail": ("Fehler: %(message)s", "Error: %(message)s"),
    "error.reload": ("Neu laden", "Reload"),
    "error.storage_full": ("Der Speicher des Browsers ist voll; nicht alles konnte gesichert werden. Platz schaffen: "
                           "Einstellungen → Speicher.",
                           "The browser's storage is full; not everything could be saved. To make room: Settings → Storage."),
}


def set_language(language):
    """Make `language` ("de" or "en") the language of every text from now on."""
    if language in LANGUAGES:
        _current[0] = language


def language():
    """Return the current language code."""
    return _current[0]


def t(key, **values):
    """Return the text for key in the current language, with %(name)s placeholders filled.

    A key with a "<key>_one" form (e.g. "1 Punkt" beside "%(n)s Punkte") takes it when n is 1.
    """
    # `in` before reading: a missed dict.get raises and catches a KeyError inside Brython, and this runs
    # hundreds of times a drawing.
    if "n" in values and values["n"] == 1 and key + "_one" in TEXTS:
        key += "_one"
    pair = TEXTS[key] if key in TEXTS else registered_text(key)
    if pair is None:
        return key
    text = pair[0] if _current[0] == "de" else pair[1]
    return text % values if values else text


def ordinal(n):
    """Return an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return "%d%s" % (n, suffix)


def game_name(game, hyphenated=False):
    """Return a game's name; a game this release does not know (a newer release's result or replay) by its key.

    `hyphenated`: with the soft hyphen its registry gives, for a narrow column ("Punkte-jagd")."""
    key = ("hyphenated." if hyphenated else "game.") + str(game)
    return t(key) if registered_text(key) is not None else str(game).capitalize()


def level_name(game, level):
    """Return a computer level's name in the game's own words: "Mittel", Punktejagd's "Aufmerksam"."""
    from spieleabend.games import GAMES

    for entry in GAMES:
        if entry["module"] == game and "levels" in entry and level in entry["levels"]:
            return entry["levels"][level][1 if language() == "en" else 0]
    return t("level." + level)


def registered_text(key):
    """Return a game's title ("game.<module>", "hyphenated.<module>"), line ("blurb.<module>") or word for a round
    ("round.<module>", "Runde" unless it names its own) from the games' registry, or None."""
    kind, _, module = key.partition(".")
    if kind not in ("game", "blurb", "round", "hyphenated"):
        return None
    from spieleabend.games import GAMES

    for game in GAMES:
        if game["module"] == module:
            if kind == "round":
                return game["round"] if "round" in game else ("Runde", "Round")
            if kind == "hyphenated":
                return game["hyphenated"] if "hyphenated" in game else game["title"]
            return game["title"] if kind == "game" else game["blurb"]
    return None


def round_label(game, number):
    """Return "Runde 3" in the word the game's own table uses (Golf's Durchgang, Pao De Kuai's Austeilung)."""
    return "%s %s" % (t("round." + game), number)


def register(texts):
    """Add a game's texts to the table (each game UI module brings its own keys)."""
    TEXTS.update(texts)

"""Every screen of every game at 360 px on a touch phone, in German and in English (and at 320 px in German):
tap targets of at least 44x44 px, nothing sticking out sideways, no button's words up to its border, no text cut off, no untranslated text, no
keyboard keys named, no console error (issue 29).

Tables are opened from saved games made with the engines (e2e/prepared_games.py), with as many seats
as each game takes (the most crowded table), in each phase a person meets: the first turn, the middle of a game with its panels, a round's reveal or summary, the
final standings; and each game's start screen (the shared one, #/play/<game>). Set
SPIELEABEND_SCREENSHOTS to a folder to keep a screenshot of each screen.
"""

import json
import os
import urllib.request

import pytest

from spieleabend.games import GAME_MODULES, load
from spieleabend.testing import ConsoleWatch, make_transfer_code, open_app, phone_context, save_screenshot
from e2e.prepared_games import FULL, document, new_state, open_saved, play
from e2e.tap_targets import (cut_texts, keyboard_words, overflowing, small_targets, texts_only_in, untranslated,
                              words_near_borders)

LANGUAGES = {"de": "de-DE", "en": "en-GB"}
# Words nearer to their button's border than this (px) look squeezed in; a little under the tool buttons' 6 px
# (e2e/tap_targets.py), which a row of five choices ("100", "150", "200") keeps to within a fraction.
WORD_GAP_FLOOR = 5
PANELS = ["open-played", "open-log", "open-sheet", "open-table"]  # the tools that open a sheet over the table


def scored(game, state):
    """Return the rounds (deals) the game has scored so far, as the screens count them."""
    view = load(game).view(state, None)
    return len(view["history"]) if game == "golf" else len(view["log"]) if game in ("punktejagd", "kartenkampf") else None


def phases(game):
    """Return (name, saved document, what the screen shows) for each phase a person meets in `game`."""
    engine = load(game)

    def full():
        return new_state(game, seats=FULL[game])
    fresh = full()
    moves = [0]

    def after(count):
        def stop(state):
            moves[0] += 1
            return moves[0] > count and 0 in engine.to_move(state)
        return stop

    middle = play(game, full(), after(12))
    out = [("first turn", document(game, fresh), "main"), ("middle", document(game, middle), "main")]
    if game in ("punktejagd", "kartenkampf", "golf"):
        state = play(game, full(), lambda s: scored(game, s) == 1)
        out.append(("round shown", document(game, state, seen=0), "[data-testid=reveal-title], [data-testid=round-summary]"))
    else:
        between = (lambda s: engine.view(s, None)["phase"] == "between") if game == "maumau" else \
            (lambda s: engine.view(s, None)["deal_over"])
        state = play(game, full(), between)
        out.append(("between deals", document(game, state), "[data-testid=deal-summary], [data-testid=next-deal]"))
    out.append(("final", document(game, play(game, full(), lambda s: False)),
                "[data-testid=final-headline], [data-testid=next-deal]"))
    return out


# 360x740 in both languages, and 320x640 in German (the longer words): a small phone, or a 360 px one set to a
# large display size, where Mau-Mau's seven cards a row once pushed the page sideways.
PHONES = {"de": ("de", None), "en": ("en", None), "de-320": ("de", {"width": 320, "height": 640})}


def fetch_code(url, code):
    """Redeem a transfer code as another device would."""
    request = urllib.request.Request(url + "/api/transfer/redeem", data=json.dumps({"code": code}).encode(),
                                     headers={"Content-Type": "application/json"})
    assert json.loads(urllib.request.urlopen(request, timeout=30).read())["found"] is True


@pytest.fixture(params=sorted(PHONES))
def phone(request, browser):
    """A touch phone in a German or English browser; yields (page, language, checks)."""
    language, size = PHONES[request.param]
    sized = {"viewport": size} if size else {}
    context = phone_context(browser, locale=LANGUAGES[language], has_touch=True, **sized)
    page = context.new_page()
    watch = ConsoleWatch(page)
    checks = ScreenChecks(page, language, request.param)
    yield page, language, checks
    context.close()
    assert watch.errors == [], "console errors: %s" % watch.errors


class ScreenChecks:
    """Collects what each screen does wrong, so one run names every fault at once."""

    def __init__(self, page, language, phone):
        self.page = page
        self.language = language
        self.phone = phone  # the language and, when not 360 px wide, the width: in names of screenshots
        self.pieces = texts_only_in(1 if language == "de" else 0)
        self.faults = []

    def check(self, name):
        page = self.page
        page.wait_for_selector("html:not([data-busy])")
        folder = os.environ.get("SPIELEABEND_SCREENSHOTS")
        if folder:
            save_screenshot(page, os.path.join(folder, "%s-%s.png" % (
                self.phone, name.replace(" ", "_").replace("/", "_"))))
        small = small_targets(page)
        if small:
            self.faults.append("%s (%s): tap targets under 44x44 px: %s" % (name, self.language, small))
        wide = overflowing(page)
        if wide:
            self.faults.append("%s (%s): sticks out sideways: %s" % (name, self.language, wide[:8]))
        near = words_near_borders(page, gap=WORD_GAP_FLOOR)
        if near:
            self.faults.append("%s (%s): words running up to a button's border: %s" % (name, self.phone, near[:8]))
        cut = cut_texts(page)
        if cut:
            self.faults.append("%s (%s): %s" % (name, self.language, cut[:8]))
        text = page.locator("body").inner_text()
        wrong = untranslated(text, self.language, self.pieces)
        if wrong:
            self.faults.append("%s (%s): not in %s: %s" % (name, self.language, self.language, wrong))
        keys = keyboard_words(text)
        if keys:
            self.faults.append("%s (%s): names keyboard keys on a touch screen: %s" % (name, self.language, keys))

    def done(self):
        assert self.faults == [], "\n".join(self.faults)


def test_the_screens_around_the_games(phone, live_server):
    page, language, checks = phone
    for route in ["", "settings", "results", "night", "open", "join"]:
        open_app(page, live_server.url, route)
        checks.check(route or "home")
    for game in GAME_MODULES:
        page.goto(live_server.url + "/rules/" + game)
        page.get_by_test_id("rules").wait_for()
        checks.check("rules/" + game)
    # An evening with people: the solo start screen offers them under the name field.
    open_app(page, live_server.url)
    page.evaluate("() => localStorage.setItem('spieleabend.night', JSON.stringify({format: 2, current: "
                  "{id: 'n1', started_at: 1, people: ['Anna', 'Opa Heinrich', 'Ben']}, past: []}))")
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    open_app(page, live_server.url, "play/paodekuai")
    page.get_by_test_id("pick-name-1").wait_for()
    checks.check("paodekuai start screen with tonight's people")
    checks.done()


@pytest.mark.parametrize("game", GAME_MODULES)
def test_every_screen_of_a_game(phone, live_server, game):
    page, language, checks = phone
    open_app(page, live_server.url, "play/" + game)
    checks.check("%s start screen" % game)
    for name, doc, shown in phases(game):
        open_saved(page, live_server.url, doc, shown)
        checks.check("%s %s" % (game, name))
        if name == "middle":
            for panel in PANELS:
                if page.get_by_test_id(panel).count():
                    page.get_by_test_id(panel).click()
                    page.get_by_test_id("close-panel").wait_for()
                    checks.check("%s %s" % (game, panel))
                    page.get_by_test_id("close-panel").click()
            page.goto(live_server.url + "/?pace=0#/transfer/" + game)
            page.get_by_test_id("transfer-make-code").wait_for()
            checks.check("%s transfer" % game)
            if game == "golf":  # the code, then what this device says once another one fetched the game
                code = make_transfer_code(page)
                checks.check("%s transfer code" % game)
                fetch_code(live_server.url, code)
                page.get_by_test_id("transfer-taken").wait_for(timeout=20000)
                checks.check("%s transfer taken" % game)
        if name == "final" and page.get_by_test_id("final-headline").count() == 0:
            page.get_by_test_id("next-deal").click()  # Pao De Kuai: the last settlement, then the standings
            page.wait_for_selector("[data-testid=final-headline]")
            checks.check("%s final standings" % game)
    checks.done()

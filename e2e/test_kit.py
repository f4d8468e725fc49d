"""One room game of each of the five games, played with the spieleabend.testing plugin's public
fixtures and the hooks e2e/README.md documents, nothing else: the testers' kit proves itself here.

Each game's `move` is the README's scripted game for that game: what a person does when
<html data-turn> says "you". After every move no visible button may be enabled and dead, and at
the end no phone or screen may have received anything its seat may not see.
"""

import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from spieleabend.testing import (MY_TURN, Room, dead_controls, is_my_turn, is_over, phone_context, pointer_rules,
                                 reopen, save_screenshot, start_game, start_solo, wait_for_my_turn)

README = Path(__file__).with_name("README.md").read_text(encoding="utf-8")
# The kit's example in README.md runs here as it is written there: it plays the Golf game.
EXAMPLE = re.search(r"```python\n(def test_a_golf_evening.*?)```", README, re.S).group(1)
exec(compile(EXAMPLE, "e2e/README.md", "exec"))


def go_on(device):
    """Tap the step that follows a round or deal (next-round, next-deal, to-deal), if it is there; return True if so.

    As the README's example does: on the device whose turn it is, such a button is there only when it is
    the step to take (a tester need not check whether it is visible or enabled). Mau-Mau's next deal is
    started by whichever seat taps first: on another phone the button can go between the look and the
    tap, and that counts as done (a click would wait a minute for it to come back); that phone keeps the
    settlement until it taps to-deal.
    """
    for testid in ("next-round", "next-deal", "to-deal"):
        button = device.by(testid)
        if button.count():
            try:
                button.click(timeout=3000)
            except PlaywrightTimeoutError:
                if button.count():
                    raise  # still there and still not tappable: a fault, not another seat going first
            return True
    return False


def choose_a_card(device):
    """Punktejagd and Kartenkampf: pick the first card still in the hand (a played one is gone from it) and confirm it."""
    if go_on(device):
        return
    device.page.locator("[data-testid=hand] [data-testid^=card-]").first.click()
    device.by("confirm").click()


# A long hand is fanned: the cards overlap, so a person (and a script) taps a card's uncovered corner.
FAN_CORNER = {"x": 8, "y": 24}


def maumau_move(device):
    """Mau-Mau: the first card that may be played (Mau with the second-to-last), a suit for a jack, else draw."""
    if go_on(device):
        return
    cards = device.page.locator("[data-testid=hand] [data-card]")
    playable = device.page.locator("[data-testid=hand] [data-card]:not([aria-disabled=true])")
    if playable.count() == 0:
        device.by("draw-pile").click()
        return
    if cards.count() == 2:
        device.by("mau").click()
    card = playable.first.get_attribute("data-card")
    playable.first.click(position=FAN_CORNER)
    if card.startswith("J"):
        device.by("suit-H").click()


def paodekuai_move(device):
    """Pao De Kuai: pass when passing is allowed, else select the cards of the first legal play and play them."""
    if go_on(device):
        return
    if device.by("pass").get_attribute("aria-disabled") == "false":
        device.by("pass").click()
        return
    play = device.by("hand").get_attribute("data-legal").split("|")[0].split()
    for card in play:
        device.by("card-" + card).click()
    device.by("play").click()


def golf_move(device):
    """Golf, as the README's example plays it: on to the next round's peek, end the peek, knock at once (the
    others then have one last turn), else draw from the stock and discard it. Nine short rounds.

    A card still held from a draw is discarded first: a turn can start with one (a suite run once met a discard
    that went into the host's dead line; the phone now sends such a move again when the host is back)."""
    if go_on(device):
        return
    for testid in ("peek-done", "knock", "discard-drawn"):
        if device.by(testid).count():
            device.by(testid).click()
            return
    device.by("stock").click()
    device.by("discard-drawn").click()


GAMES = {
    "punktejagd": (choose_a_card, ()),
    "kartenkampf": (choose_a_card, ()),
    "maumau": (maumau_move, ("limit-30",)),
    "paodekuai": (paodekuai_move, ("deals-1",)),
}


def play_to_the_end(room, move, limit=400):
    """Let whoever's turn it is move, on their own device, until the game is over; return the moves made."""
    for moves in range(limit):
        if room.host.is_over():
            return moves
        device = next((device for device in room.players if device.is_my_turn()), None)
        if device is None:
            room.host.page.wait_for_timeout(25)  # the host's answer or a reveal is on its way
            continue
        move(device)
        assert dead_controls(device.page) == [], (device.name, "visible, enabled buttons that do nothing")
    raise AssertionError("%s was not over after %d moves" % (room.game, limit))


@pytest.mark.parametrize("game", [game for game in GAMES if game != "kartenkampf"])  # on Redis below
def test_a_whole_room_game_with_the_kit_alone(room, game):
    move, setup = GAMES[game]
    played = room(game, phones=1, screen=True, seed=3, setup=setup)
    assert [device.seat() for device in played.devices] == [0, 1, None]
    assert played.screen.is_my_turn() is False
    moves = play_to_the_end(played, move)
    assert moves > 3
    for device in played.devices:
        device.wait("[data-testid=final-headline], [data-testid=next-round], [data-testid=next-deal]")
        go_on(device)
        device.wait("[data-testid=final-headline]")
        assert device.is_over()
    scores = played.host.scores()
    assert scores == played.phones[0].scores() == played.screen.scores() and len(scores) >= 2
    tallies = played.check_secrets()
    assert set(tallies) == {"anna", "screen"}


def test_a_room_game_with_rooms_on_redis(devices, redis_live_server):
    """The kit's room on the `redis_live_server` fixture: a real redis-server holds the room. Kartenkampf's
    whole room game with the kit alone is this one."""
    import redis

    move, setup = GAMES["kartenkampf"]
    played = Room(devices, redis_live_server.url, "kartenkampf", phones=1, screen=True, seed=3, setup=setup)
    assert redis.Redis.from_url(redis_live_server.redis_url).keys("*"), "the room's state is in Redis"
    assert [device.seat() for device in played.devices] == [0, 1, None]
    assert played.screen.is_my_turn() is False
    assert play_to_the_end(played, move) > 3
    for device in played.devices:
        device.wait("[data-testid=final-headline], [data-testid=next-round]")
        go_on(device)
        device.wait("[data-testid=final-headline]")
    assert played.host.scores() == played.phones[0].scores() == played.screen.scores()
    assert set(played.check_secrets()) == {"anna", "screen"}


def test_the_example_is_short_and_uses_the_kit_alone():
    assert len(EXAMPLE.strip().splitlines()) <= 22
    assert "import" not in EXAMPLE and "e2e" not in EXAMPLE


def test_a_solo_screen_is_marked_while_the_computers_move(page, live_server):
    start_solo(page, live_server.url, "maumau", [], seed=4, pace=400, shown="[data-testid=hand] [data-card]")
    page.wait_for_selector(MY_TURN, state="attached")
    assert page.evaluate("document.documentElement.dataset.seat") == "0"
    playable = page.locator("[data-testid=hand] [data-card]:not([aria-disabled=true])")
    if playable.count():
        card = playable.first.get_attribute("data-card")
        playable.first.click(position=FAN_CORNER)
        if card.startswith("J"):
            page.get_by_test_id("suit-H").click()
    else:
        page.get_by_test_id("draw-pile").click()
    # A computer's move is due: the screen changes by itself until it is the person's turn again.
    assert page.evaluate("document.documentElement.hasAttribute('data-animating')")
    assert "you" not in page.evaluate("document.documentElement.dataset.turn").split()
    page.wait_for_selector(MY_TURN, state="attached")


# Records, in the page, every moment a CSS animation starts and every change of <html data-animating>,
# with what was running then: the marker must hold whenever something in the app moves.
WATCH_MOTION = """() => {
  const root = document.documentElement, app = document.getElementById('app');
  const running = () => document.getAnimations().filter(a => (a.playState === 'running' || a.pending)
      && a.effect && a.effect.target && app.contains(a.effect.target)).length;
  window.motionLog = [];
  window.addEventListener('animationstart', e => window.motionLog.push(
      {start: e.animationName, marked: root.hasAttribute('data-animating')}));
  new MutationObserver(() => window.motionLog.push(
      {marked: root.hasAttribute('data-animating'), running: running()}))
    .observe(root, {attributes: true, attributeFilter: ['data-animating']});
}"""


def test_the_screen_is_marked_while_css_animations_run_in_full_motion(browser, live_server):
    full = phone_context(browser, reduced_motion="no-preference")
    try:
        page = full.new_page()
        page.goto(live_server.url + "/?seed=3&pace=0#/play/kartenkampf")
        page.wait_for_selector("html[data-app-ready]")
        assert page.evaluate("document.documentElement.dataset.motion") == "full"
        page.get_by_test_id("player-name").fill("Testerin")
        start_game(page)
        page.wait_for_selector(MY_TURN, state="attached")
        page.evaluate(WATCH_MOTION)
        # The reveal deals the round's cards one after another: CSS animations alone, no computer is due.
        page.locator("[data-testid=hand] [data-testid^=card-]").first.click()
        page.get_by_test_id("confirm").click()
        page.wait_for_selector("[data-testid=reveal-sorted]")
        page.wait_for_selector(MY_TURN, state="attached")
        log = page.evaluate("window.motionLog")
        starts = [entry for entry in log if "start" in entry]
        # The cards are dealt in, then the round's winner shows (show-after) and the button after the reveal
        # (show-after-hidden): all while the screen is marked.
        assert {entry["start"] for entry in starts} == {"kk-deal", "show-after", "show-after-hidden"}, log
        assert all(entry["marked"] for entry in starts), log
        cleared = [entry for entry in log if "start" not in entry and not entry["marked"]]
        assert cleared and all(entry["running"] == 0 for entry in cleared), log
        assert page.evaluate("document.getAnimations().filter(a => a.playState === 'running').length") == 0
    finally:
        full.close()


def test_a_full_page_screenshot_shows_what_the_phone_shows(browser, live_server, tmp_path):
    """Chromium drops touch emulation while it captures a full page; the kit's picture keeps the
    phone's rules, so the keyboard hints a phone hides stay hidden in it."""
    touch = phone_context(browser, has_touch=True)
    try:
        page = touch.new_page()
        start_solo(page, live_server.url, "paodekuai", [], seed=7)
        page.wait_for_selector(MY_TURN, state="attached")
        assert ".key-hint" in pointer_rules(page)
        assert not page.locator(".key-hint").first.is_visible()
        save_screenshot(page, str(tmp_path / "kit.png"))
        page.screenshot(path=str(tmp_path / "plain.png"), full_page=True)
        page.add_style_tag(content=".key-hint { display: none !important; }")
        page.screenshot(path=str(tmp_path / "hidden.png"), full_page=True)
        kit, plain, hidden = ((tmp_path / name).read_bytes() for name in ("kit.png", "plain.png", "hidden.png"))
        if plain == hidden:  # a Chromium that keeps the touch emulation: the kit has nothing to mend
            pytest.skip("this Chromium captures a full page with the phone's own rules")
        assert kit == hidden, "the kit's picture shows the keyboard hints the phone hides"
    finally:
        touch.close()
    desk = phone_context(browser)  # no touch screen: a mouse, the hints are shown, only hover rules are kept
    try:
        page = desk.new_page()
        start_solo(page, live_server.url, "paodekuai", [], seed=7)
        assert ".key-hint" not in pointer_rules(page) and ":hover" in pointer_rules(page)
    finally:
        desk.close()


@pytest.mark.parametrize("pace", [0, 300])
def test_wait_for_my_turn_returns_only_on_the_turn_in_punktejagd_alone(page, live_server, pace):
    """Ten rounds of Punktejagd alone: right after each wait_for_my_turn() is_my_turn() holds. The card drawn
    under the mouse pointer after `next-round` starts its hover transition (data-animating) a frame after
    data-busy went; the wait sees the turn hold across two animation frames."""
    start_solo(page, live_server.url, "punktejagd", [], seed=11, pace=pace)
    for _ in range(40):
        wait_for_my_turn(page)
        assert is_my_turn(page), page.evaluate("document.documentElement.outerHTML.slice(0, 300)")
        # Every seat's total-<n> carries its score as a number (its text also names the risk chip).
        shown = page.locator("[data-testid^=total-]").evaluate_all("totals => totals.map(t => t.dataset.points)")
        assert " ".join(shown) == page.evaluate("document.documentElement.dataset.scores")
        if is_over(page):
            break
        if page.get_by_test_id("next-round").count():
            page.get_by_test_id("next-round").click()
            continue
        page.locator("[data-testid=hand] [data-testid^=card-]").first.click()
        page.get_by_test_id("confirm").click()
        if page.evaluate("document.documentElement.dataset.turn") == "over":
            break
    assert page.evaluate("document.documentElement.dataset.turn") == "over"


def test_reload_returns_once_the_table_is_drawn_again(room):
    """Device.reload() waits for the device's table (html[data-turn]) and its room link, not only for the
    app: right after it the readers give the seat and the hand, on a phone and on the host."""
    played = room("punktejagd", phones=1, screen=False, seed=3)
    anna, host = played.phones[0], played.host
    for _ in range(4):
        anna.reload()
        assert anna.seat() == 1 and len(anna.hand()) == 10, anna.page.evaluate("document.documentElement.outerHTML.slice(0, 300)")
        assert anna.by("room-status").get_attribute("data-state") != "connecting"
    host.reload()
    assert host.seat() == 0 and len(host.hand()) == 10


def go(page, route):
    """Go to a #/ route as a link does, and wait until the app drew it."""
    page.evaluate("route => { location.hash = route; }", route)
    page.wait_for_function("route => location.hash === route && !document.documentElement.hasAttribute('data-busy')",
                           arg=route)
    page.wait_for_selector("html[data-app-ready]")


def test_a_damaged_save_is_said_where_the_readme_says(page, live_server):
    """A save that cannot be read, opened at its game's start screen: set aside and said there, and on the home
    screen, Ergebnisse, Einstellungen and #/play/<game>/continue until dismiss-notice (it was set aside without
    a word at the start screen, and Einstellungen never said it)."""
    page.goto(live_server.url + "/#/settings")
    page.wait_for_selector("html[data-app-ready]")
    page.evaluate("localStorage.setItem('spieleabend.save.golf', '{broken')")
    reopen(page, live_server.url + "/#/play/golf")
    page.wait_for_selector("[data-testid=start-game]")
    assert page.get_by_test_id("damaged-notice").count() == 1, "said where it was set aside"
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('spieleabend.damaged.save.golf.')).length") == 1
    for route in ("#/settings", "#/", "#/results", "#/play/golf/continue"):
        go(page, route)
        assert page.get_by_test_id("damaged-notice").count() == 1, route
    page.get_by_test_id("dismiss-notice").click()
    go(page, "#/")
    assert page.get_by_test_id("damaged-notice").count() == 0


def test_reopen_keeps_the_running_app_out_of_a_game_stored_behind_its_back(page, live_server):
    """A finished game stored while the app runs, reopened at #/play/<game>/continue: the final standings.

    `reopen` once went to the new #/ route in place before reloading: the running app opened the game itself,
    recorded it and removed its save, and when that beat the reload the fresh app found no game (the standings
    waited for in vain, now and then, in a full run). No app document may see that route change."""
    from e2e.prepared_games import document, new_state, play

    finished = document("punktejagd", play("punktejagd", new_state("punktejagd", seats=3), lambda state: False))
    page.add_init_script("addEventListener('hashchange', () => sessionStorage.setItem('route-changed', '1'))")
    page.goto(live_server.url + "/?pace=0")
    page.wait_for_selector("html[data-app-ready]")
    page.evaluate("(value) => localStorage.setItem('spieleabend.save.punktejagd', value)", json.dumps(finished))
    reopen(page, live_server.url + "/?pace=0#/play/punktejagd/continue")
    page.get_by_test_id("final-headline").wait_for()
    assert page.evaluate("sessionStorage.getItem('route-changed')") is None, "the running app saw the route"


def test_a_mistyped_start_choice_fails_at_once_naming_the_choices(page, live_server):
    started = time.monotonic()
    with pytest.raises(AssertionError, match=r"no test id 'deal-1' to tick for paodekuai on this screen; its choices: .*deals-1"):
        start_solo(page, live_server.url, "paodekuai", ["deal-1"], seed=1)
    assert time.monotonic() - started < 20, "it waited for Playwright's 60 s default"
    # The kit's audit: a misspelled game, choices as one string and a seed as text each waited 60 s or failed
    # with a puzzle ("no test id 'l'"); they fail at once, saying what was meant.
    with pytest.raises(ValueError, match=r"unknown game 'golff': one of punktejagd, kartenkampf"):
        start_solo(page, live_server.url, "golff", [], seed=1)
    with pytest.raises(TypeError, match=r"choices is a list of test ids"):
        start_solo(page, live_server.url, "maumau", "limit-30", seed=1)
    with pytest.raises(TypeError, match=r"seed is a whole number"):
        start_solo(page, live_server.url, "maumau", [], seed="7")


def test_the_plain_script_of_the_readme_plays_a_game_to_its_end_without_pytest(tmp_path):
    """The kit's audit: outside pytest nothing said to install settling, and 4 of 10 scripted games hung."""
    import os
    import subprocess
    import sys

    script = re.search(r"### Scripts without pytest.*?```python\n(.*?)```", README, re.S).group(1)
    path = tmp_path / "plain.py"
    path.write_text(script, encoding="utf-8")
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root / "web" / "py"), str(root)]))
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, env=env, timeout=240, cwd=root)
    assert done.returncode == 0, done.stderr[-3000:]
    totals = [int(n) for n in re.findall(r"-?\d+", done.stdout.strip().splitlines()[-1])]
    assert len(totals) == 3 and sum(totals) == 0, done.stdout  # a deal's points add up to nothing

"""Punktejagd in a real Chromium: whole games, pause and continue, offline, reduced motion, results."""

import json
import re

import pytest

from spieleabend.testing import open_app, phone_context, start_solo
from e2e.test_accessibility import serious_violations

SAVE_KEY = "spieleabend.save.punktejagd"


def start_game(page, url, computers=3, style="leicht", name="Testerin", seed=11):
    start_solo(page, url, "punktejagd", ["seats-%d" % (computers + 1), "strength-" + style], seed, name)


def hand_numbers(page):
    return [int(v) for v in page.locator("[data-testid=hand] [data-value]").evaluate_all(
        "cards => cards.map(c => c.dataset.value)")]


def play_round(page, card=None, risk=False):
    """Choose a card (the first in hand by default), confirm and wait for the reveal to settle."""
    numbers = hand_numbers(page)
    card = numbers[0] if card is None else card
    page.get_by_test_id("card-%d" % card).click()
    if risk:
        page.get_by_test_id("risk").click()
    page.get_by_test_id("confirm").click()
    page.wait_for_selector("[data-testid=next-round]:not([disabled])")
    return card


def saved(page):
    return json.loads(page.evaluate("localStorage.getItem('%s')" % SAVE_KEY) or "null")


def totals_on_screen(page, seats):
    return [int(page.get_by_test_id("total-%d" % s).inner_text().split()[0]) for s in range(seats)]


def check_why(page, seats):
    """The line under the reveal names the best card and its points as the cards and points above show them."""
    why = page.get_by_test_id("reveal-why").inner_text().replace("\xa0", " ")
    cards = [int(page.get_by_test_id("reveal-%d" % s).locator("[data-card]").get_attribute("data-card")) for s in range(seats)]
    points = [int(page.get_by_test_id("points-%d" % s).inner_text().strip("+")) for s in range(seats)]
    best = re.match(r"(?:Die (\d+) ist die (?:höchste|niedrigste) einmalige Zahl|Nur die (\d+) ist einmalig): (\d+) Punkte", why)
    if best is None:
        assert why.startswith("Keine Zahl ist einmalig") and len(set(cards)) < seats, why
        return
    card, worth = int(best.group(1) or best.group(2)), int(best.group(3))
    assert cards.count(card) == 1 and points[cards.index(card)] in (worth, worth + 3), (why, cards, points)


def test_full_game_totals_equal_the_round_log(page, live_server):
    start_game(page, live_server.url, computers=3, style="stark")
    assert "Runde 1 von 10" in page.get_by_test_id("round-number").inner_text()
    assert page.get_by_test_id("confirm").is_disabled(), "no card chosen yet"
    page.get_by_test_id("card-5").click()
    page.get_by_test_id("card-8").click()  # another card switches, no double tap
    assert page.get_by_test_id("card-8").get_attribute("aria-pressed") == "true"
    assert page.get_by_test_id("card-5").get_attribute("aria-pressed") == "false"
    page.get_by_test_id("risk").click()
    assert page.get_by_test_id("risk").get_attribute("aria-pressed") == "true"
    page.get_by_test_id("risk").click()  # toggles off again before confirming
    assert page.get_by_test_id("risk").get_attribute("aria-pressed") == "false"
    for round_number in range(1, 11):
        assert page.get_by_test_id("hand").locator("[data-value]").count() == 11 - round_number
        play_round(page, risk=(round_number == 3))
        check_why(page, 4)
        if round_number == 3:
            page.get_by_test_id("next-round").click()
            assert page.get_by_test_id("risk").is_disabled()
            assert "verbraucht" in page.get_by_test_id("risk-note").inner_text()
            continue
        if round_number < 10:
            page.get_by_test_id("next-round").click()
    page.get_by_test_id("open-log").click()
    rows = page.get_by_test_id("log-row")
    assert rows.count() == 10
    sums = [0, 0, 0, 0]
    for index in range(10):
        cells = rows.nth(index).locator(".log-pts").all_inner_texts()
        for seat, text in enumerate(cells):
            sums[seat] += int(text.strip("+"))
    log_totals = [int(page.get_by_test_id("log-total-%d" % s).inner_text()) for s in range(4)]
    assert sums == log_totals
    page.get_by_test_id("close-panel").click()
    page.get_by_test_id("next-round").click()  # "Endwertung"
    headline = page.get_by_test_id("final-headline").inner_text()
    standings = [page.get_by_test_id("standing-%d" % s).inner_text() for s in range(4)]
    for seat in range(4):
        assert "%d Punkte" % sums[seat] in standings[seat]
    top = max(sums)
    winners = [s for s in range(4) if sums[s] == top]
    if len(winners) > 1:
        assert "Geteilter Sieg" in headline
    assert saved(page) is None, "a finished game leaves no save behind"
    page.get_by_test_id("to-results").click()
    item = page.get_by_test_id("result-item").first
    assert "Punktejagd" in item.inner_text()
    assert "Deine Punkte: %d" % sums[0] in item.inner_text()
    assert "Testerin" in item.inner_text()


def test_pause_reload_and_continue_keeps_everything(page, live_server):
    start_game(page, live_server.url, computers=2, style="stark", seed=21)
    play_round(page, card=4)
    page.get_by_test_id("next-round").click()
    play_round(page, card=9)
    page.get_by_test_id("next-round").click()
    before = saved(page)
    hand_before = hand_numbers(page)
    totals_before = totals_on_screen(page, 3)
    assert all(plan is not None for plan in before["state"]["plans"][1:]), "computers decided at round start"
    page.get_by_test_id("card-6").click()  # an unconfirmed choice may be lost
    page.get_by_test_id("pause").click()
    page.wait_for_selector("[data-testid=continue-punktejagd]")
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id("continue-punktejagd").click()
    page.wait_for_selector("[data-testid=hand]")
    assert "Runde 3 von 10" in page.get_by_test_id("round-number").inner_text()
    assert hand_numbers(page) == hand_before
    assert totals_on_screen(page, 3) == totals_before
    after = saved(page)
    assert after["state"]["plans"] == before["state"]["plans"], "reloading must not re-roll the computers"
    assert after["state"]["rng"] == before["state"]["rng"]
    page.reload()  # a reload right on the table continues too
    page.wait_for_selector("[data-testid=hand]")
    assert saved(page)["state"]["plans"] == before["state"]["plans"]


def test_reduced_motion_reveals_without_flight(browser, live_server):
    context = phone_context(browser)
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    start_game(page, live_server.url, computers=1)
    assert page.evaluate("document.documentElement.dataset.motion") == "reduce"
    page.get_by_test_id("card-3").click()
    page.get_by_test_id("confirm").click()
    # Without flight the next step is available at once, and no card has the flying class.
    assert page.get_by_test_id("next-round").is_enabled()
    assert page.locator(".reveal-slot.fly").count() == 0
    assert page.get_by_test_id("reveal-0").locator("[data-value='3']").count() == 1
    context.close()
    assert errors == []


def test_cards_fly_and_inputs_wait_for_them(page, live_server):
    page.emulate_media(reduced_motion="no-preference")
    start_game(page, live_server.url, computers=3)
    page.get_by_test_id("card-2").click()
    page.get_by_test_id("confirm").click()
    flying, totals = page.evaluate("""[document.querySelector('[data-testid=next-round]').disabled,
        [0, 1, 2, 3].map(seat => document.querySelector('[data-testid=total-' + seat + ']').textContent)]""")
    assert page.locator(".reveal-slot.fly").count() == 4
    assert flying, "locked while cards fly"
    assert all(total.startswith("0 ") for total in totals), "the round's points count once the cards have turned"
    page.wait_for_selector("[data-testid=next-round]:not([disabled])")
    points = [int(page.get_by_test_id("points-%d" % seat).inner_text().strip("+")) for seat in range(4)]
    assert [page.get_by_test_id("total-%d" % seat).inner_text().split(" ")[0] for seat in range(4)] == [
        str(n) for n in points]


def test_enter_on_a_focused_button_is_that_buttons_not_the_plans(page, live_server):
    """A keyboard user with a card chosen presses Enter on "Rundenprotokoll": the log opens, nothing is
    confirmed (the page used to take Enter for "Plan bestätigen" wherever the focus was)."""
    start_game(page, live_server.url, computers=1)
    page.keyboard.press("7")
    page.get_by_test_id("open-log").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=panel-log]")
    assert saved(page)["state"]["plans"][0] is None, "no plan confirmed"
    assert page.get_by_test_id("card-7").get_attribute("aria-pressed") == "true"
    page.keyboard.press("Escape")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    assert page.get_by_test_id("card-7").get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")  # nothing focused: Enter stands for "Plan bestätigen" again
    page.wait_for_selector("[data-testid=next-round]:not([disabled])")


def active_testid(page):
    return page.evaluate("document.activeElement && document.activeElement.getAttribute('data-testid')")


def test_a_panel_takes_the_focus_keeps_tab_inside_and_gives_it_back(page, live_server):
    """A keyboard user opens "Rundenprotokoll": the focus lands in the panel, Tab stays there, and when it
    closes (Escape or "Schließen") the focus is back on the button that opened it."""
    start_game(page, live_server.url, computers=1)
    page.get_by_test_id("open-log").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=panel-log]")
    assert active_testid(page) == "close-panel"
    for _ in range(3):
        page.keyboard.press("Tab")
        assert page.evaluate("!!document.activeElement.closest('[role=dialog]')"), "Tab left the open panel"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("!!document.activeElement.closest('[role=dialog]')"), "Shift+Tab left the open panel"
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=panel-log]", state="detached")
    assert active_testid(page) == "open-log"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=panel-log]")
    page.keyboard.press("Enter")  # on "Schließen"
    page.wait_for_selector("[data-testid=panel-log]", state="detached")
    assert active_testid(page) == "open-log"


def test_the_focus_goes_on_to_what_comes_next_when_its_control_goes_with_the_move(page, live_server):
    """A keyboard user confirms with "Plan bestätigen", which the move disables: the focus fell to the page's
    body; it now lands on "Nächste Runde" once the reveal offers it, then on "Plan bestätigen" again."""
    start_game(page, live_server.url, computers=1)
    page.get_by_test_id("card-7").focus()
    page.keyboard.press("Enter")
    assert active_testid(page) == "card-7"
    page.get_by_test_id("confirm").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=next-round]:not([disabled])")
    page.wait_for_function("document.activeElement.getAttribute('data-testid') === 'next-round'")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=hand]")
    page.keyboard.press("5")
    page.wait_for_function("document.activeElement.getAttribute('data-testid') === 'confirm'")


def test_a_screen_reader_hears_what_changed_in_the_screens_live_regions(page, live_server):
    """Every drawing makes the screen anew, so its live regions were new nodes that screen readers do not read
    out; the page's own region says what changed: the chosen card, then the next round."""
    start_game(page, live_server.url, computers=1)
    page.keyboard.press("7")
    page.wait_for_function("document.querySelector('[data-testid=announce]').textContent.includes('7')")
    assert page.get_by_test_id("announce").inner_text() == page.get_by_test_id("selection").inner_text()
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=next-round]:not([disabled])")
    # The round's result is said too (who scored what and why), as one line, not run together.
    page.wait_for_function("document.querySelector('[data-testid=announce]').textContent.includes('Punkt')")
    why = " ".join(page.get_by_test_id("reveal-why").inner_text().split())
    assert why in " ".join(page.get_by_test_id("announce").inner_text().split())
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=hand]")
    page.wait_for_function("document.querySelector('[data-testid=announce]').textContent.includes('2')")
    assert " · " in page.get_by_test_id("announce").inner_text(), "the round head's lines are kept apart"
    assert page.get_by_test_id("round-head").inner_text().split("\n")[0] in page.get_by_test_id("announce").inner_text()


def test_keyboard_number_keys_and_enter(page, live_server):
    start_game(page, live_server.url, computers=1)
    page.keyboard.press("7")
    assert page.get_by_test_id("card-7").get_attribute("aria-pressed") == "true"
    page.keyboard.press("0")
    assert page.get_by_test_id("card-10").get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=next-round]:not([disabled])")
    assert page.get_by_test_id("reveal-0").locator("[data-value='10']").count() == 1
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=hand]")
    assert page.get_by_test_id("card-10").count() == 0


def test_english_table(page, live_server):
    open_app(page, live_server.url)
    page.evaluate("localStorage.setItem('spieleabend.settings', JSON.stringify({format: 1, settings: {language: 'en'}}))")
    start_game(page, live_server.url, computers=1)
    assert "Round 1 of 10" in page.get_by_test_id("round-number").inner_text()
    assert page.get_by_test_id("confirm").inner_text() == "Confirm plan"


def test_same_seed_same_round_types_and_computer_cards(browser, live_server):
    outcomes = []
    for _ in range(2):
        context = phone_context(browser)
        page = context.new_page()
        start_game(page, live_server.url, computers=3, style="stark", seed=99)
        play_round(page, card=5)
        outcomes.append(saved(page)["state"])
        context.close()
    assert outcomes[0] == outcomes[1]


def test_whole_game_offline_with_the_server_stopped(context, own_server):
    page = context.new_page()
    open_app(page, own_server.url)
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    assert page.evaluate("!!navigator.serviceWorker.controller")
    own_server.stop()
    context.set_offline(True)
    start_game(page, own_server.url, computers=2)
    for round_number in range(10):
        play_round(page)
        page.get_by_test_id("next-round").click()
    assert page.get_by_test_id("final-headline").is_visible()
    page.get_by_test_id("to-results").click()
    assert page.get_by_test_id("result-item").count() == 1


@pytest.mark.parametrize("screen", ["start", "table", "reveal", "final", "log", "played", "results"])
def test_screens_have_no_serious_accessibility_violations(page, live_server, screen):
    page.emulate_media(reduced_motion="reduce")
    if screen == "start":
        open_app(page, live_server.url, "play/punktejagd")
        assert serious_violations(page) == []
        return
    start_game(page, live_server.url, computers=3)
    if screen == "table":
        page.get_by_test_id("card-4").click()
    elif screen in ("reveal", "log", "played"):
        play_round(page)
        if screen != "reveal":
            page.get_by_test_id("open-" + screen).click()
    elif screen in ("final", "results"):
        for _ in range(10):
            play_round(page)
            page.get_by_test_id("next-round").click()
        if screen == "results":
            page.get_by_test_id("to-results").click()
    assert serious_violations(page) == []

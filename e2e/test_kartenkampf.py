"""Kartenkampf alone against computers in a real Chromium: whole game, pause, rounds without a winner, tie-breakers."""

import json

import pytest

from spieleabend.testing import open_app, start_solo, wait_until_settled
from e2e.test_accessibility import serious_violations
from spieleabend.games import kartenkampf as engine
from spieleabend.games.common import Rng

SAVE_KEY = "spieleabend.save.kartenkampf"

# Whole two-seat games (cards per round, you first) whose leaders end level on points.
BY_BEST_ROUND = [[6, 7], [7, 3], [10, 1], [4, 9], [9, 2], [3, 8], [2, 5], [5, 4], [8, 6], [1, 10]]  # 55:55, best 14:13
BY_ROUNDS_WON = [[9, 7], [2, 2], [8, 1], [1, 2], [2, 4], [5, 6], [10, 3], [3, 10], [6, 5], [7, 9]]  # 49:49, 16:16, won 4:5
UNDECIDED = [[1, 8], [10, 4], [2, 6], [6, 5], [7, 3], [8, 2], [4, 10], [3, 7], [5, 9], [9, 1]]  # 55:55, 14:14, 5:5


def start_game(page, url, computers=3, style="stark", name="Testerin", seed=11):
    start_solo(page, url, "kartenkampf", ["seats-%d" % (computers + 1), "strength-" + style], seed, name)


def hand_numbers(page):
    return [int(v) for v in page.locator("[data-testid=hand] button[data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)")]


def revealed(page):
    """Return [(card, seat)] of the sorted reveal in display order."""
    return [tuple(pair) for pair in page.get_by_test_id("reveal-sorted").locator("li").evaluate_all(
        "items => items.map(i => [Number(i.dataset.card), Number(i.dataset.seat)])")]


def play_round(page, card=None):
    """Choose a card (the lowest in hand by default), confirm and wait for the reveal."""
    card = hand_numbers(page)[0] if card is None else card
    page.get_by_test_id("card-%d" % card).click()
    page.get_by_test_id("confirm").click()
    page.wait_for_selector("[data-testid=reveal-sorted]")
    return card


def saved(page):
    return json.loads(page.evaluate("localStorage.getItem('%s')" % SAVE_KEY) or "null")


def no_overflow(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def prepared_save(rounds, names=("Uta", "Ben")):
    """Return a save one choice before the end: nine rounds played, the computer's tenth card committed."""
    seats = len(rounds[0])
    state = engine.new_game({"seats": seats, "names": list(names)}, Rng(5))
    for cards in rounds[:-1]:
        for seat in range(seats):
            engine.apply_action(state, seat, "play %d" % cards[seat])
    for seat in range(1, seats):
        engine.apply_action(state, seat, "play %d" % rounds[-1][seat])
    players = [{"name": names[0], "kind": "person", "strength": None}] + [
        {"name": name, "kind": "computer", "strength": "random"} for name in names[1:]]
    meta = {"players": players, "seat": 0, "options": {"seats": seats, "names": list(names)},
            "bot_rng": Rng(6).state, "started_at": 1, "history": [], "round": 10}
    return {"format": 1, "game": "kartenkampf", "state": state, "meta": meta}


def open_prepared(page, url, document):
    open_app(page, url, "results")  # the results screen starts a game night if there is none
    night = json.loads(page.evaluate("localStorage.getItem('spieleabend.night')"))
    document["meta"]["night"] = night["current"]["id"]
    page.evaluate("doc => localStorage.setItem('%s', JSON.stringify(doc))" % SAVE_KEY, document)
    page.goto(url + "/?pace=0#/play/kartenkampf/continue")
    page.wait_for_selector("[data-testid=hand]")


def test_whole_seeded_game_to_the_final_standings(page, live_server):
    start_game(page, live_server.url, computers=3)
    assert page.get_by_test_id("confirm").is_disabled(), "no card chosen yet"
    totals = [0, 0, 0, 0]
    for number in range(1, 11):
        assert "Runde %d von 10" % number in page.get_by_test_id("round-number").inner_text()
        for seat in range(1, 4):  # computers commit at once; what they chose stays hidden
            assert page.get_by_test_id("chosen-%d" % seat).get_attribute("data-chosen") == "yes"
        assert page.get_by_test_id("chosen-0").get_attribute("data-chosen") == "no"
        assert page.locator("[data-testid=seat-1] [data-card]").count() == 0
        mine = play_round(page)
        if number < 10:
            assert len(saved(page)["state"]["log"]) == number, "saved after every confirmed round"
        cards = revealed(page)
        assert [c for c, _ in cards] == sorted([c for c, _ in cards], reverse=True)
        assert sorted(s for _, s in cards) == [0, 1, 2, 3] and (mine, 0) in cards
        winner_text = page.get_by_test_id("round-winner").inner_text()
        if "Kein Rundensieger" in winner_text:
            assert page.get_by_test_id("round-points").count() == 0
        else:
            points = sum(c for c, _ in cards)
            assert page.get_by_test_id("round-points").inner_text() == "+%d" % points
            winner = page.locator("[data-testid=reveal-sorted] li.win")
            assert winner.count() == 1
            totals[int(winner.get_attribute("data-seat"))] += points
        page.get_by_test_id("next-round").click()
    assert page.get_by_test_id("final-headline").is_visible()
    for seat in range(4):
        assert "%d Punkte" % totals[seat] in page.get_by_test_id("standing-%d" % seat).inner_text()
    # A win on points alone needs no sentence about what decided it; a tie on points gets one.
    tied_on_points = sorted(totals)[-1] == sorted(totals)[-2]
    assert page.get_by_test_id("tie-break").count() == (1 if tied_on_points else 0)
    night = page.get_by_test_id("night-point").inner_text()
    assert "Spieleabend-Punkt" in night
    assert saved(page) is None, "a finished game leaves no save behind"
    page.get_by_test_id("to-results").click()
    item = page.get_by_test_id("result-item").first
    assert "Kartenkampf" in item.inner_text() and "Testerin" in item.inner_text()


def test_pause_reload_and_continue(page, live_server):
    start_game(page, live_server.url, computers=2, seed=21)
    play_round(page, card=4)
    page.get_by_test_id("next-round").click()
    play_round(page, card=9)
    page.get_by_test_id("next-round").click()
    hand_before = hand_numbers(page)
    totals_before = [page.get_by_test_id("total-%d" % s).inner_text() for s in range(3)]
    choices_before = saved(page)["state"]["choices"]
    page.get_by_test_id("card-6").click()  # an unconfirmed choice may be lost
    page.get_by_test_id("pause").click()
    page.wait_for_selector("[data-testid=continue-kartenkampf]")
    assert "Runde 3" in page.get_by_test_id("continue-kartenkampf").inner_text()
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id("continue-kartenkampf").click()
    page.wait_for_selector("[data-testid=hand]")
    assert "Runde 3 von 10" in page.get_by_test_id("round-number").inner_text()
    assert hand_numbers(page) == hand_before
    assert [page.get_by_test_id("total-%d" % s).inner_text() for s in range(3)] == totals_before
    assert saved(page)["state"]["choices"] == choices_before, "the computers' secret cards are not re-rolled"


def test_a_round_without_a_winner_gives_the_cards_back(page, live_server):
    start_game(page, live_server.url, computers=1, seed=5)
    computer_card = saved(page)["state"]["choices"][1]  # the tester peeks into storage to force a tie
    play_round(page, card=computer_card)
    assert page.get_by_test_id("round-winner").inner_text() == "Kein Rundensieger"
    assert "zurück" in page.get_by_test_id("tie-note").inner_text()
    assert revealed(page) == [(computer_card, 0), (computer_card, 1)]
    assert page.locator("[data-testid=reveal-sorted] li.returned").count() == 2
    assert page.get_by_test_id("round-points").count() == 0
    page.get_by_test_id("next-round").click()
    assert "Runde 2 von 10" in page.get_by_test_id("round-number").inner_text()
    assert computer_card in hand_numbers(page) and len(hand_numbers(page)) == 10
    assert str(computer_card) in page.get_by_test_id("returned-note").inner_text()
    assert "noch keine" in page.get_by_test_id("used-1").inner_text()


@pytest.mark.parametrize("rounds, headline, decider, night", [
    (BY_BEST_ROUND, "Du gewinnst!", "höchste einzelne Rundenergebnis: Uta 14, Ben 13", "Du bekommst 1 Spieleabend-Punkt."),
    (BY_ROUNDS_WON, "Ben gewinnt!", "mehr gewonnene Runden: Uta 4, Ben 5", "1 Spieleabend-Punkt für Ben."),
    (UNDECIDED, "Unentschieden", "bleibt unentschieden", "Kein Spieleabend-Punkt"),
], ids=["best-round", "rounds-won", "undecided"])
def test_a_tie_on_points_is_decided_by_each_tie_breaker(page, live_server, rounds, headline, decider, night):
    open_prepared(page, live_server.url, prepared_save(rounds))
    assert "Runde 10 von 10" in page.get_by_test_id("round-number").inner_text()
    play_round(page, card=rounds[-1][0])
    page.get_by_test_id("next-round").click()  # "Endwertung"
    assert page.get_by_test_id("final-headline").inner_text() == headline
    assert decider in page.get_by_test_id("tie-break").inner_text()
    assert night in page.get_by_test_id("night-point").inner_text()
    page.get_by_test_id("to-results").click()
    rows = page.get_by_test_id("night-table").locator("tbody tr").evaluate_all(
        "trs => trs.map(tr => [tr.dataset.player, tr.dataset.computer === 'true', Number(tr.dataset.points)])")
    item = page.get_by_test_id("result-item").first.inner_text()
    if rounds is UNDECIDED:
        assert "Kein Sieger" in item
        assert ["Uta", False, 0] in rows and ["Ben", True, 0] in rows  # Ben is a computer: its own, marked row
    else:
        winner = "Uta" if rounds is BY_BEST_ROUND else "Ben"
        assert "Sieg: " + winner in item
        assert [winner, winner == "Ben", 1] in rows


def report_save_changed(page):
    """Fire the storage event another tab's write of the save would (the page reads the value from storage)."""
    page.evaluate("key => window.dispatchEvent(new StorageEvent('storage', {key: key}))", SAVE_KEY)
    wait_until_settled(page)


def test_a_storage_event_that_changes_nothing_leaves_the_continued_game_where_it_is(page, live_server):
    # Chromium can hand a new page the storage event of a write the tab's previous page made just before it
    # went (here the test's own save before "Fortsetzen"; a person's tab reloaded right after a move): storage
    # holds what the app read at its start, so no other tab played on. Under load the table once rested with
    # "played-elsewhere" instead of showing the hand.
    open_prepared(page, live_server.url, prepared_save(BY_ROUNDS_WON))
    report_save_changed(page)
    assert page.get_by_test_id("played-elsewhere").count() == 0
    assert page.get_by_test_id("hand").is_visible()
    # A save another tab really changed still rests this table until the person takes it up here.
    page.evaluate("""key => {
        const saved = JSON.parse(localStorage.getItem(key));
        saved.meta.started_at += 1;
        localStorage.setItem(key, JSON.stringify(saved));
    }""", SAVE_KEY)
    report_save_changed(page)
    assert page.get_by_test_id("played-elsewhere").is_visible()
    assert page.get_by_test_id("hand").count() == 0
    page.get_by_test_id("play-here").click()
    page.wait_for_selector("[data-testid=hand]")
    play_round(page, card=BY_ROUNDS_WON[-1][0])
    page.get_by_test_id("next-round").click()
    assert page.get_by_test_id("final-headline").inner_text() == "Ben gewinnt!"


def test_the_round_log_of_four_seats_with_long_names_fits_a_phone(page, live_server):
    """A round without a winner ("niemand (Karten zurück)") and a ten-letter name: every column on a 360 px
    screen, the winning card in bold among the round's cards (a column of its own pushed "Punkte" off)."""
    first, second, third, fourth = list(range(2, 11)), list(range(3, 11)) + [2], [1] + list(range(3, 11)), \
        list(range(10, 2, -1)) + [1]
    rounds = [[1, 1, 2, 2]] + [[first[i], second[i], third[i], fourth[i]] for i in range(9)]
    open_prepared(page, live_server.url, prepared_save(rounds, names=("Testerin", "Maximilian", "Clara", "Ben")))
    play_round(page)
    page.get_by_test_id("next-round").click()
    page.wait_for_selector("[data-testid=final-headline]")
    page.get_by_test_id("open-log").click()
    log = page.get_by_test_id("round-log")
    assert log.evaluate("table => table.getBoundingClientRect().right <= table.parentElement.getBoundingClientRect().right")
    assert "niemand (Karten zurück)" in page.get_by_test_id("log-row").first.inner_text()
    assert page.get_by_test_id("log-winning-card").count() == 9, "one winning card in each round with a winner"


def test_keyboard_reduced_motion_and_no_overflow_at_eight_seats(page, live_server):
    start_game(page, live_server.url, computers=7, seed=8)
    assert no_overflow(page)
    page.keyboard.press("7")
    assert page.get_by_test_id("card-7").get_attribute("aria-pressed") == "true"
    page.keyboard.press("0")
    assert page.get_by_test_id("card-10").get_attribute("aria-pressed") == "true"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=reveal-sorted]")
    assert (10, 0) in revealed(page)
    assert page.locator(".kk-slot.deal").count() == 0, "reduced motion: cards are not dealt in"
    assert no_overflow(page)
    page.get_by_test_id("open-log").click()
    assert page.get_by_test_id("log-row").count() == 1
    assert no_overflow(page)
    page.keyboard.press("Escape")
    page.keyboard.press("Enter")  # focus went back to "Rundenprotokoll": Enter is that button's
    page.get_by_test_id("panel-log").wait_for()
    page.keyboard.press("Escape")
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("Enter")  # nothing focused: Enter goes on to the next round
    page.wait_for_selector("[data-testid=hand]")
    assert "Runde 2 von 10" in page.get_by_test_id("round-number").inner_text()
    page.emulate_media(reduced_motion="no-preference")
    page.reload()
    page.wait_for_selector("[data-testid=hand]")
    play_round(page)
    assert page.locator(".kk-slot.deal").count() == 8
    # Who won the round shows once the cards are down (after the last card's deal), not with the first.
    assert page.locator(".after-deal [data-testid=round-winner]").count() == 1
    delay = page.evaluate("getComputedStyle(document.querySelector('.after-deal')).animationDelay")
    assert delay == "1.17s", delay  # 8 cards x 90 ms + 450 ms
    # "Nächste Runde" comes with the winner: neither a tap nor Enter meant for the card skips the reveal.
    since_reveal = page.evaluate("document.querySelector('.after-deal').getAnimations()[0].currentTime")
    assert since_reveal < 1000, since_reveal
    assert not page.get_by_test_id("next-round").is_visible()
    page.keyboard.press("Enter")
    assert page.get_by_test_id("reveal-sorted").count() == 1, "Enter during the deal went on"
    page.get_by_test_id("next-round").click()  # waits until it shows
    page.wait_for_selector("[data-testid=hand]")
    assert "Runde 3 von 10" in page.get_by_test_id("round-number").inner_text()


def test_no_serious_accessibility_violations_on_any_screen(page, live_server):
    open_app(page, live_server.url, "play/kartenkampf")
    assert serious_violations(page) == [], "start"
    start_game(page, live_server.url, computers=3)
    page.get_by_test_id("card-4").click()
    assert serious_violations(page) == [], "choose"
    play_round(page, card=4)
    assert serious_violations(page) == [], "reveal"
    page.get_by_test_id("open-log").click()
    assert serious_violations(page) == [], "round log"
    page.get_by_test_id("close-panel").click()
    page.get_by_test_id("next-round").click()
    open_prepared(page, live_server.url, prepared_save(UNDECIDED))
    play_round(page, card=UNDECIDED[-1][0])
    page.get_by_test_id("next-round").click()
    assert no_overflow(page)
    assert serious_violations(page) == [], "final standings"


def test_english(page, live_server):
    open_app(page, live_server.url)
    page.evaluate("localStorage.setItem('spieleabend.settings', JSON.stringify({format: 1, settings: {language: 'en'}}))")
    page.goto(live_server.url + "/?seed=3&pace=0#/play/kartenkampf")
    page.wait_for_selector("html[data-app-ready]")
    assert "Strong" in page.locator("label:has([data-testid=strength-stark])").inner_text()
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=hand]")
    assert "Round 1 of 10" in page.get_by_test_id("round-number").inner_text()
    assert page.get_by_test_id("confirm").inner_text() == "Confirm card"
    play_round(page)
    assert "After the reveal" in page.get_by_test_id("reveal-title").inner_text()

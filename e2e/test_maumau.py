"""Mau-Mau in a real Chromium: a whole seeded game, the suit picker, a 7 passed on, Mau said and forgotten,
players joining and leaving between deals, a hand of 22 cards in rows at 360 px, the keyboard, axe-core.

Special situations start from prepared saves built here with the engine (the document LocalTable
writes: {"format": 1, "game", "state", "meta"}); computers play at `?pace=0`.
"""

import json

from spieleabend.testing import open_app, reopen
from playwright.sync_api import expect
from e2e.test_accessibility import serious_violations
from spieleabend.bots import maumau as bots
from spieleabend.games import maumau
from spieleabend.games.common import Rng, french_deck

SAVE_KEY = "spieleabend.save.maumau"
NAMES = ["Testerin", "Anna", "Ben"]


def running_state(hands, top, turn=0, pending=0, limit=100, wish=None):
    """Return a running deal with these hands and top card; every other card lies shuffled in the stock."""
    names = NAMES[:1] + ["Anna", "Ben", "Clara", "Deniz"][:len(hands) - 1]
    state = maumau.new_game({"seats": len(hands), "limit": limit, "names": names}, Rng(1))
    deck = french_deck(2)
    for card in [card for hand in hands for card in hand] + [top]:
        deck.remove(card)
    Rng(9).shuffle(deck)
    state.update({"hands": [list(hand) for hand in hands], "discard": [top], "stock": deck, "turn": turn,
                  "pending": pending, "wish": wish, "log": []})
    return state


def document(state, strength="medium"):
    """Return the save LocalTable would write for this state: the tester at seat 0, computers after."""
    names = state["names"]
    players = [{"name": names[0], "kind": "person", "strength": None}] + [
        {"name": name, "kind": "computer", "strength": strength} for name in names[1:]]
    meta = {"players": players, "seat": 0, "options": {"seats": len(names), "limit": state["limit"], "names": names},
            "bot_rng": Rng(77).state, "started_at": 1, "night": "n1", "history": [], "round": state["deal"]}
    return {"format": 1, "game": "maumau", "state": state, "meta": meta}


def open_prepared(page, url, state):
    """Store a prepared game and open it as "Fortsetzen" does."""
    open_app(page, url + "/?pace=0")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [SAVE_KEY, json.dumps(document(state))])
    reopen(page, url + "/?pace=0#/play/maumau/continue")
    page.wait_for_selector("[data-testid=deal-summary], [data-testid=hand]")


def saved(page):
    return json.loads(page.evaluate("localStorage.getItem('%s')" % SAVE_KEY) or "null")


def hand_cards(page):
    return page.locator("[data-testid=hand] [data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")


def playable(page):
    return page.locator("[data-testid=hand] [data-card]:not([aria-disabled=true])").evaluate_all(
        "cards => cards.map(c => c.dataset.card)")


def seat_cards(page, seat):
    return int(page.get_by_test_id("player-%d" % seat).get_attribute("data-cards"))


def feed(page):
    return page.get_by_test_id("feed").inner_text()


def no_page_overflow(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


READY = ("[data-testid=draw-pile]:not([disabled]), [data-testid=next-deal], "
         "[data-testid=final-headline], [data-testid=you-out]")


def test_whole_seeded_game_to_a_winner_with_eliminations(page, live_server):
    page.goto(live_server.url + "/?seed=23&pace=0#/play/maumau")  # two deals, one out after each
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id("player-name").fill("Testerin")
    assert page.locator("[name=seats]").evaluate_all("els => els.map(e => e.value)") == ["2", "3", "4", "5"]
    assert page.get_by_test_id("seats-3").is_checked(), "three at the table by default"
    page.get_by_test_id("seats-4").check()
    expect(page.get_by_test_id("seats-label")).to_have_text("Du und 3 Computer")
    page.get_by_test_id("seats-3").check()
    assert page.get_by_test_id("strength-mittel").is_checked(), "a sensible default strength"
    assert page.get_by_test_id("limit-100").is_checked(), "the default limit is 100"
    page.get_by_test_id("strength-leicht").check()
    page.get_by_test_id("limit-30").check()
    assert serious_violations(page) == []
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=hand]")
    assert page.locator("[data-testid^=player-]").count() == 3
    assert len(hand_cards(page)) == 7
    assert saved(page)["state"]["limit"] == 30
    deals_seen = set()
    moves = 0
    while True:
        page.wait_for_selector(READY)
        if page.get_by_test_id("final-headline").count():
            break
        if page.get_by_test_id("you-out").count():
            page.wait_for_selector("[data-testid=final-headline]")  # the computers play it out
            break
        if page.get_by_test_id("next-deal").count():
            summary = page.get_by_test_id("deal-summary")
            deals_seen.add(summary.locator("h2").first.inner_text())
            struck = summary.locator("tr.out")
            assert struck.count() == 1 and struck.locator("s").count() == 1, "the player over the limit is struck out"
            assert "ausgeschieden" in struck.inner_text()
            page.get_by_test_id("next-deal").click()
            page.wait_for_selector("[data-testid=hand]")
            continue
        cards = playable(page)
        if cards:
            if len(hand_cards(page)) == 2:
                page.get_by_test_id("mau").click()
            page.locator("[data-testid=hand] [data-card='%s']:not([aria-disabled=true])" % cards[0]).first.click()
            if page.get_by_test_id("suit-picker").count():
                page.get_by_test_id("suit-H").click()
        else:
            page.get_by_test_id("draw-pile").click()
        moves += 1
        if moves == 1:
            document_now = saved(page)
            assert document_now is not None, "saved after the first move"
            assert len(document_now["state"]["hands"][0]) == len(hand_cards(page))
        assert moves < 600, "the game should have ended"
    headline = page.get_by_test_id("final-headline").inner_text()
    assert "gewinn" in headline  # "Du gewinnst!" or "<Name> gewinnt!"
    standings = [page.get_by_test_id("standing-%d" % seat) for seat in range(3)]
    out = [s for s in standings if "ausgeschieden" in s.inner_text()]
    assert len(out) == 2, "the other two went over the limit one after the other"
    for standing in out:
        assert int(standing.get_attribute("data-points")) > 30
    assert deals_seen == {"Runde 1 ist vorbei"}
    assert "Runde 2 ist vorbei" in page.get_by_test_id("deal-summary").inner_text(), "the last deal's points stay visible"
    assert "Spieleabend-Punkt" in page.get_by_test_id("night-point").inner_text()
    assert saved(page) is None, "a finished game leaves no save"
    assert no_page_overflow(page)
    assert serious_violations(page) == []
    page.get_by_test_id("to-results").click()
    assert "Mau-Mau" in page.get_by_test_id("result-item").first.inner_text()


def test_suit_picker_after_a_jack(page, live_server):
    state = running_state([["JC", "4H", "9S"], ["2S", "3S", "4S", "6S"], ["2C", "3C", "4C", "6C"]], "5H")
    open_prepared(page, live_server.url, state)
    assert sorted(playable(page)) == ["4H", "JC"]
    assert page.locator("[data-card='9S'][aria-disabled=true]").count() == 1, "9S does not fit on 5H: dimmed"
    page.locator("[data-testid=hand] [data-card='9S']").click(force=True)  # a dimmed card only explains itself
    assert "passt nicht" in page.locator("#toast").inner_text()
    assert page.get_by_test_id("suit-picker").count() == 0
    page.locator("[data-testid=hand] [data-card='JC']").click()
    assert page.get_by_test_id("suit-picker").is_visible()
    assert page.locator("#toast.show").count() == 0, "the message about the last tap goes with the next one"
    assert serious_violations(page) == []
    assert page.evaluate("document.activeElement.dataset.testid") == "suit-H", "the picker takes the focus"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.testid") == "suit-D"
    page.keyboard.press("Enter")
    assert page.get_by_test_id("discard-top").get_attribute("data-card") == "JC"
    wish = page.get_by_test_id("wished-suit")
    assert wish.get_attribute("data-suit") == "D" and "Karo" in wish.inner_text()
    assert "wünschst ♦ Karo" in feed(page)
    # Nobody else has a diamond or a Jack: both draw, and the wish stands until it is served.
    page.wait_for_selector("[data-testid=draw-pile]:not([disabled])")
    assert "Anna zieht eine Karte" in feed(page) and "Ben zieht eine Karte" in feed(page)
    assert page.get_by_test_id("wished-suit").get_attribute("data-suit") == "D"


def test_a_seven_passed_on_makes_the_next_draw_four(page, live_server):
    state = running_state([["7C", "4H", "KS"], ["2S", "3S", "4S", "6S"], ["2C", "3C", "4C", "6C"]], "7D", pending=2)
    state["discard"] = ["5D", "7D"]
    state["stock"].remove("5D")  # the deck's cards, each as often as two decks have it
    open_prepared(page, live_server.url, state)
    assert page.get_by_test_id("pending-draw").inner_text() == "+2 ziehen"
    assert playable(page) == ["7C"], "only a 7 while an obligation is open"
    assert "2 Karten ziehen" in page.get_by_test_id("draw-pile").get_attribute("aria-label")
    page.locator("[data-testid=hand] [data-card='7C']").click()
    page.wait_for_selector("[data-testid=draw-pile]:not([disabled])")
    assert "Anna zieht 4 Karten" in feed(page)
    assert seat_cards(page, 1) == 8
    assert page.get_by_test_id("pending-draw").count() == 0
    hand = hand_cards(page)
    page.get_by_test_id("pause").click()
    page.get_by_test_id("continue-maumau").click()
    page.wait_for_selector("[data-testid=hand]")
    assert hand_cards(page) == hand and seat_cards(page, 1) == 8, "paused and continued where it was"


def test_mau_said_with_the_keyboard_and_mau_forgotten(page, live_server):
    others = [["2S", "3S", "4S", "6S"], ["2C", "3C", "4C", "6C"]]
    open_prepared(page, live_server.url, running_state([["5H", "9C"]] + others, "4H"))
    assert hand_cards(page) == ["9C", "5H"], "sorted by suit (clubs first) and rank"
    page.keyboard.press("m")
    assert page.get_by_test_id("mau").get_attribute("aria-pressed") == "true"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "5H"
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=draw-pile]:not([disabled])")
    assert hand_cards(page) == ["9C"]
    assert "Du legst Herz 5. „Mau!“" in feed(page)
    assert page.get_by_test_id("mau-forgotten").count() == 0

    open_prepared(page, live_server.url, running_state([["5H", "9C"]] + others, "4H"))
    page.locator("[data-testid=hand] [data-card='5H']").click()
    assert len(hand_cards(page)) == 3, "one card left plus two penalty cards"
    notice = page.get_by_test_id("mau-forgotten").inner_text()
    assert "nicht „Mau“ gesagt" in notice and "2 Strafkarten" in notice
    assert page.locator("[data-testid=hand] .card.drawn").count() == 2, "the penalty cards are marked"
    assert "Du hast „Mau“ vergessen" in feed(page)


def between_deals_state():
    """Play a seeded first deal with computers to its end; nobody is out yet."""
    state = maumau.new_game({"seats": 3, "limit": 100, "names": NAMES}, Rng(12))
    rng = Rng(3)
    while state["phase"] == "play":
        seat = state["turn"]
        maumau.apply_action(state, seat, bots.choose_medium(maumau.view(state, seat), rng))
    assert not any(state["out"])
    return state


def test_players_join_and_leave_between_deals(page, live_server):
    state = between_deals_state()
    open_prepared(page, live_server.url, state)
    summary = page.get_by_test_id("deal-summary")
    assert "Runde 1 ist vorbei" in summary.inner_text()
    for seat in range(3):
        row = page.get_by_test_id("player-%d" % seat)
        assert int(row.get_attribute("data-points")) == state["minus"][seat]
    assert page.get_by_test_id("remove-player-0").count() == 0, "the person is not removed from here"
    assert no_page_overflow(page)
    assert serious_violations(page) == []
    page.get_by_test_id("add-player").click()
    newcomer = page.get_by_test_id("player-3")
    assert "Clara" in newcomer.inner_text()
    assert int(newcomer.get_attribute("data-points")) == max(state["minus"]), "starts with the worst score"
    page.get_by_test_id("remove-player-1").click()
    assert page.get_by_test_id("remove-player-1").inner_text() == "Anna wirklich vom Tisch nehmen?"
    page.get_by_test_id("remove-player-1").click()
    names = [page.get_by_test_id("player-%d" % seat).locator(".mm-sname").inner_text() for seat in range(3)]
    assert names == ["Du", "Ben", "Clara"]
    assert page.get_by_test_id("player-3").count() == 0
    assert [p["name"] for p in saved(page)["meta"]["players"]] == ["Testerin", "Ben", "Clara"]
    assert "Anna steigt aus" in feed(page)
    page.get_by_test_id("next-deal").click()
    page.wait_for_selector("[data-testid=hand]")
    # Clara got a hand of 7; the computers play on at once (pace 0), so she may have played or drawn since.
    assert 5 <= int(page.get_by_test_id("player-2").get_attribute("data-cards")) <= 11
    assert page.get_by_test_id("player-3").count() == 0
    assert saved(page)["state"]["deal"] == 2


def test_on_a_tablet_a_long_hand_lies_side_by_side_without_overlap(browser, live_server):
    """At 768 px the phone's rows of seven overlapped for nothing; there the hand wraps with every card whole."""
    from spieleabend.testing import phone_context

    context = phone_context(browser, viewport={"width": 768, "height": 1024}, has_touch=True, is_mobile=True)
    page = context.new_page()
    deck = french_deck(1)
    mine = [card for card in deck if card[-1] in "HC"][:12]
    open_prepared(page, live_server.url, running_state([mine, ["2S", "3S", "4S"], ["2D", "3D", "4D"]], "5S"))
    boxes = [card.bounding_box() for card in page.locator("[data-testid=hand] [data-card]").all()]
    assert len(boxes) == 12
    for index, box in enumerate(boxes):
        for other in boxes[index + 1:]:
            apart = (box["x"] + box["width"] <= other["x"] or other["x"] + other["width"] <= box["x"]
                     or box["y"] + box["height"] <= other["y"] or other["y"] + other["height"] <= box["y"])
            assert apart, (box, other)
    assert no_page_overflow(page)
    context.close()


def test_a_hand_of_22_cards_fits_360_px_in_rows(page, live_server):
    deck = french_deck(1)
    mine = [card for card in deck if card[-1] in "HC"][:22]
    state = running_state([mine, ["2S", "3S", "4S"], ["2D", "3D", "4D"]], "5S")
    open_prepared(page, live_server.url, state)
    assert len(hand_cards(page)) == 22
    assert no_page_overflow(page)
    hand = page.get_by_test_id("hand")
    assert hand.evaluate("el => el.scrollWidth <= el.clientWidth"), "the hand wraps instead of scrolling sideways"
    assert hand.locator(".mm-row").count() == 4, "22 cards in four rows of at most seven"
    assert serious_violations(page) == []
    page.get_by_test_id("draw-pile").click()
    assert len(hand_cards(page)) == 23
    assert page.locator("[data-testid=hand] .card.drawn").count() == 1, "the drawn card is marked"
    assert "Du ziehst eine Karte." in feed(page)

"""Pao De Kuai in a real Chromium: a whole seeded table, the opening rule, passing, a bomb answer,
the Tabelle against the engine, keyboard, pause and continue, axe."""

import json

from spieleabend.testing import open_app, reopen, start_solo
from e2e.test_accessibility import serious_violations
from spieleabend.games import paodekuai as engine
from tests.test_paodekuai_screens import build_state, meta_for

SAVE_KEY = "spieleabend.save.paodekuai"
LEADS_SEED = 3  # ?seed=3: seat 0 (you) holds the 3 of hearts in the first deal


def start_table(page, url, seed=LEADS_SEED, deals=2, strength="stark"):
    start_solo(page, url, "paodekuai", ["deals-%d" % deals, "strength-" + strength], seed)


def open_prepared(page, url, state):
    """Store a prepared table as the saved game and continue it."""
    document = {"format": 1, "game": "paodekuai", "state": state, "meta": meta_for(state), "saved_at": 1}
    page.goto(url + "/?pace=0")
    page.wait_for_selector("html[data-app-ready]")
    page.evaluate("([key, doc]) => localStorage.setItem(key, doc)", [SAVE_KEY, json.dumps(document)])
    reopen(page, url + "/?pace=0#/play/paodekuai/continue")
    page.wait_for_selector("[data-testid=pdk-table]")


def saved(page):
    return json.loads(page.evaluate("localStorage.getItem('%s')" % SAVE_KEY) or "null")


def wait_for_me_or_settlement(page):
    page.wait_for_selector("[data-testid=hand][data-my-turn=true], [data-testid=deal-settlement]")
    return page.locator("[data-testid=deal-settlement]").count() == 0


def select(page, cards):
    for card in cards:
        page.get_by_test_id("card-" + card).click()


def hand_cards(page):
    return page.get_by_test_id("hand").locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")


def play_my_turn(page):
    """Play the hint (or pass when the hint says so)."""
    page.get_by_test_id("tipp").click()
    play = page.get_by_test_id("play")
    if play.is_enabled():
        play.click()
    else:
        assert page.get_by_test_id("pass").get_attribute("aria-disabled") == "false"
        page.get_by_test_id("pass").click()


def table_on_screen(page):
    """Return {deal: [points per seat]} and the totals as the Tabelle shows them."""
    rows = {}
    for row in page.get_by_test_id("table-rows").locator("tr[data-deal]").all():
        cells = row.locator("td").all_inner_texts()
        rows[int(row.get_attribute("data-deal"))] = [int(c.replace("−", "-").replace("+", "")) for c in cells]
    totals = [int(page.get_by_test_id("table-total-%d" % s).inner_text().replace("−", "-").replace("+", ""))
              for s in range(3)]
    return rows, totals


def test_opening_play_must_hold_the_three_of_hearts(page, live_server):
    start_table(page, live_server.url)
    assert page.get_by_test_id("hand").locator("[data-card]").count() == 16
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "no page overflow at 360 px"
    cards = hand_cards(page)
    assert cards[0].startswith("3") and "3H" in cards
    # The rule where the eye is: the table's middle and the docked line above "Spielen" (an audit found the
    # note under the dock and the middle saying any combination would do).
    assert "die Herz-Drei muss dabei sein" in page.get_by_test_id("trick-top").inner_text()
    assert page.get_by_test_id("selection-shape").inner_text() == "Wähle Karten mit der Herz-Drei."
    page.get_by_test_id("pass").click(force=True)  # aria-disabled: refused, the one who leads may not pass; the reason in sight
    message = page.get_by_test_id("pdk-message")
    assert message.inner_text() and message.evaluate("el => el.getBoundingClientRect().bottom <= innerHeight")
    other = [c for c in cards if not c.startswith("3")][0]
    select(page, [other])
    assert page.get_by_test_id("card-" + other).get_attribute("aria-pressed") == "true"
    assert "die Herz-Drei muss dabei sein" in page.get_by_test_id("selection-shape").inner_text()
    assert page.get_by_test_id("play").is_disabled()
    select(page, [other, "3H"])  # off again, then the 3 of hearts
    assert page.get_by_test_id("selection-shape").get_attribute("data-legal") == "true"
    page.get_by_test_id("play").click()
    top = page.locator("[data-testid=trick-top][data-seat='0']")
    if top.count():
        assert "3H" in top.get_attribute("data-cards").split()
    first = saved(page)["state"]["played"]
    assert first[0] == "3H", "the deal's first play holds the 3 of hearts"


def test_whole_seeded_table_of_two_deals_to_the_final_standings(page, live_server):
    start_table(page, live_server.url, seed=LEADS_SEED, deals=2)
    assert "Austeilung 1 von 2" in page.get_by_test_id("deal-number").inner_text()
    counts = [int(page.get_by_test_id("seat-%d" % s).get_attribute("data-cards")) for s in range(3)]
    assert counts == [16, 16, 16]
    for deal in (1, 2):
        turns = 0
        while wait_for_me_or_settlement(page):
            play_my_turn(page)
            turns += 1
            if deal == 1 and turns == 2 and wait_for_me_or_settlement(page):
                # Pause and continue (my turn again, the computers wait): the same table comes back.
                state = saved(page)["state"]
                page.get_by_test_id("pause").click()
                page.get_by_test_id("continue-paodekuai").click()
                page.wait_for_selector("[data-testid=pdk-table]")
                assert saved(page)["state"]["hands"] == state["hands"]
        settlement = page.get_by_test_id("deal-settlement")
        points = [int(page.get_by_test_id("settle-%d" % s).get_attribute("data-points")) for s in range(3)]
        assert sum(points) == 0
        assert "Alle zusammen: 0" in settlement.inner_text()
        if deal == 1:
            state = saved(page)["state"]
            assert points == engine.deal_points(state["log"][0])
            page.get_by_test_id("open-table").click()
            rows, totals = table_on_screen(page)
            assert rows == {1: engine.deal_points(state["log"][0])}
            assert totals == engine.table_totals(state)
            page.get_by_test_id("close-panel").click()
            page.get_by_test_id("next-deal").click()
            page.wait_for_selector("text=Austeilung 2 von 2")
    # The last deal: its settlement first, then the standings.
    assert page.get_by_test_id("stop-table").count() == 0
    page.get_by_test_id("next-deal").click()
    headline = page.get_by_test_id("final-headline").inner_text()
    result = json.loads(page.evaluate("localStorage.getItem('spieleabend.results')"))["results"][0]
    assert result["game"] == "paodekuai"
    scores = result["scores"]
    for seat in range(3):
        assert int(page.get_by_test_id("standing-%d" % seat).get_attribute("data-points")) == scores[seat]
    best = [result["players"][s] for s in range(3) if scores[s] == max(scores)]
    assert best[0] in headline or "Du gewinnst" in headline
    page.get_by_test_id("open-table").click()
    rows, totals = table_on_screen(page)
    assert sorted(rows) == [1, 2] and totals == scores
    assert [sum(rows[d][s] for d in rows) for s in range(3)] == scores
    assert saved(page) is None, "a finished table leaves Fortsetzen"


def test_passing_is_refused_while_an_answer_exists_and_allowed_without_one(page, live_server):
    # Lena (seat 2 here: Jonas) played a single 5; you hold a 9: you must answer.
    state = build_state([["5S", "9C", "KH"], ["6H", "6D", "7C"], ["QH", "QS", "JC"]], trick=[(2, ["5H"])])
    open_prepared(page, live_server.url, state)
    passing = page.get_by_test_id("pass")
    assert passing.get_attribute("aria-disabled") == "true"
    assert page.get_by_test_id("pass-reason").inner_text() == "Du musst schlagen, wenn du kannst."
    passing.click(force=True)  # a person can still tap it: the screen refuses and says why
    assert "Du musst schlagen" in page.get_by_test_id("pdk-message").inner_text()
    assert page.get_by_test_id("pass-reason").inner_text() == "", "said once, in the message"
    assert page.get_by_test_id("hand").get_attribute("data-my-turn") == "true", "refused: still your turn"
    assert page.get_by_test_id("hand").locator("[data-card]").count() == 3
    assert saved(page)["state"]["trick"] == state["trick"]
    # Over the 2 of spades you have no answer (and no bomb): Passen is allowed.
    state = build_state([["5S", "9C", "KH"], ["6H", "6D", "7C"], ["QH", "QS", "JC"]], trick=[(2, ["2S"])])
    open_prepared(page, live_server.url, state)
    passing = page.get_by_test_id("pass")
    assert passing.get_attribute("aria-disabled") == "false"
    assert "Passen ist erlaubt" in page.get_by_test_id("pass-reason").inner_text()
    passing.click()
    page.wait_for_function("key => (localStorage.getItem(key) || '').includes('{\"seat\":0,\"cards\":[]}')", arg=SAVE_KEY)
    after = saved(page)["state"]
    entries = after["trick"] + [entry for trick in after["tricks"] for entry in trick]
    assert {"seat": 0, "cards": []} in entries, "your pass was taken"


def test_a_bomb_answer_wins_its_bonus_in_the_settlement(page, live_server):
    state = build_state([["8H", "8S", "8D", "8C"], ["4H", "4S", "5D", "6C", "7H"], ["2S", "KH"]],
                        trick=[(2, ["9S", "9D"])])
    open_prepared(page, live_server.url, state)
    assert "Bombe" in page.get_by_test_id("pass-reason").inner_text(), "only a bomb answers: you must"
    select(page, ["8H", "8S", "8D"])
    assert page.get_by_test_id("play").is_disabled()
    select(page, ["8C"])
    assert page.get_by_test_id("selection-shape").inner_text() == "Bombe: vier Achten – schlägt Paar Neunen"
    page.get_by_test_id("play").click()
    page.wait_for_selector("[data-testid=deal-settlement]")
    assert page.get_by_test_id("bomb-mark").count() >= 1
    me = page.get_by_test_id("settle-0")
    assert "Bombenbonus: vier Achten" in me.inner_text() and "+20" in me.inner_text()
    assert "Bombenbonus an Ich" in page.get_by_test_id("settle-1").inner_text()
    assert "Pik-Zwei in der Hand" in page.get_by_test_id("settle-2").inner_text()
    points = [int(page.get_by_test_id("settle-%d" % s).get_attribute("data-points")) for s in range(3)]
    assert points == [37, -15, -22] and sum(points) == 0
    page.get_by_test_id("open-table").click()
    rows, totals = table_on_screen(page)
    assert rows == {1: points} and totals == points


def test_keyboard_select_play_and_pass(page, live_server):
    state = build_state([["5S", "9C", "KH"], ["6H", "6D", "7C"], ["QH", "QS", "JC"]], trick=[(2, ["JD"])])
    open_prepared(page, live_server.url, state)
    page.keyboard.press("p")
    assert "Du musst schlagen" in page.get_by_test_id("pdk-message").inner_text()
    assert page.get_by_test_id("pass-reason").inner_text() == "", "said once, in the message"
    page.keyboard.press("ArrowRight")  # focus the hand
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.card") == "KH"
    page.keyboard.press(" ")
    assert page.get_by_test_id("card-KH").get_attribute("aria-pressed") == "true"
    assert page.get_by_test_id("selection-shape").inner_text() == "Einzelkarte König – schlägt Einzelkarte Bube"
    page.keyboard.press("Enter")
    page.wait_for_function("key => JSON.parse(localStorage.getItem(key)).state.played.includes('KH')", arg=SAVE_KEY)
    assert page.get_by_test_id("hand").locator("[data-card]").count() == 2


def test_arrow_keys_move_by_the_rows_the_phone_shows_and_home_end_reach_the_ends(page, live_server):
    """An audit: at 360 px a row holds six cards, and ↓ jumped eight (to the sixth card of the next row)."""
    hand = ["3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "3H", "4H"]
    state = build_state([hand, ["6H", "6D", "7C"], ["QH", "QD", "JC"]], trick=[(2, ["4D"])])
    open_prepared(page, live_server.url, state)
    shown = page.get_by_test_id("hand").locator("[data-card]").evaluate_all("cards => cards.map(c => c.dataset.card)")
    columns = page.evaluate("getComputedStyle(document.querySelector('[data-testid=hand]')).gridTemplateColumns"
                            ".split(' ').length")
    assert columns == 6
    page.keyboard.press("ArrowRight")  # focus the hand: its first card
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.card") == shown[1 + columns], "straight below"
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.dataset.card") == shown[-1]
    page.keyboard.press("Home")
    assert page.evaluate("document.activeElement.dataset.card") == shown[0]


def test_screens_have_no_serious_axe_violations(page, live_server):
    open_app(page, live_server.url, "play/paodekuai")
    assert serious_violations(page) == []
    state = build_state([["5S", "9C", "9H", "KH"], ["6H", "6D", "7C"], ["QH", "QS", "JC"]], trick=[(2, ["5H"])])
    open_prepared(page, live_server.url, state)
    select(page, ["9C", "9H"])
    assert serious_violations(page) == []
    page.get_by_test_id("open-table").click()
    assert serious_violations(page) == []
    page.get_by_test_id("close-panel").click()
    state = build_state([["8H"], ["4H", "4S"], ["2S", "KH"]], trick=[(2, ["5D"])])
    open_prepared(page, live_server.url, state)
    select(page, ["8H"])
    page.get_by_test_id("play").click()
    page.wait_for_selector("[data-testid=deal-settlement]")
    assert serious_violations(page) == []

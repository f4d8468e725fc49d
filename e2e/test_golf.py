"""Golf in a real Chromium: nine rounds, the peek, swap/discard/take, knocks and penalties, memory aid, 8 seats at 360 px."""

import json

import pytest

from spieleabend.testing import open_app, phone_context, reopen, start_solo
from e2e.test_accessibility import serious_violations
from spieleabend.games import golf as engine
from spieleabend.games.common import Rng, french_deck

SAVE_KEY = "spieleabend.save.golf"
NAMES = ["Testerin", "Anna", "Ben", "Clara", "Deniz", "Emil", "Frieda", "Gustav"]
TURN_STATES = ("[data-testid=final-headline], [data-testid=next-round], [data-testid=peek-done], "
               "[data-testid=knock]:not([disabled]), [data-testid=stock]:not([disabled]), [data-testid=discard-drawn]")


def start_game(page, url, seats=2, seed=7, pace=0, strength="leicht"):
    start_solo(page, url, "golf", ["seats-%d" % seats, "strength-" + strength], seed, pace=pace)  # to the peek


def saved(page):
    return json.loads(page.evaluate("localStorage.getItem('%s')" % SAVE_KEY) or "null")


def grid_cards(page, seat):
    """Return data-card per position of a seat's grid (None where the card is not shown)."""
    grid = page.get_by_test_id("grid-%d" % seat)
    return [grid.get_by_test_id("pos-%d" % p).get_attribute("data-card") for p in range(4)]


def my_turn(page):
    page.wait_for_selector("[data-testid=stock]:not([disabled])")


def prepared(grids, discard_top="5S", stock_top=(), knocker=None, turn=0, strength="strong", decks=1):
    """Return a save document: a round with chosen grids, every seat past the peek, `turn` to move."""
    seats = len(grids)
    names = NAMES[:seats]
    state = engine.new_game({"seats": seats, "decks": decks, "names": names}, Rng(5))
    pool = french_deck(decks)
    for card in [c for grid in grids for c in grid] + [discard_top] + list(stock_top):
        pool.remove(card)
    state["grids"] = [list(grid) for grid in grids]
    state["discard"] = [discard_top]
    state["stock"] = pool + list(reversed(stock_top))
    state["ready"] = [True] * seats
    state["turn"] = turn
    if knocker is not None:
        state["turn"] = knocker
        engine.apply_action(state, knocker, "knock")
    players = [{"name": names[0], "kind": "person", "strength": None}] + [
        {"name": name, "kind": "computer", "strength": strength} for name in names[1:]]
    meta = {"players": players, "seat": 0, "options": {"seats": seats, "decks": decks, "names": names},
            "bot_rng": Rng(77).state, "started_at": 1700000000000, "night": "n1700000000000",
            "history": [[0] * seats], "round": 1}
    return {"format": 1, "game": "golf", "state": state, "meta": meta, "saved_at": 1700000000000}


def load_prepared(page, url, document, pace=0, memory_aid=False):
    """Open the saved game `document` (stored before the app starts, once per tab)."""
    page.add_init_script("""(() => {
        if (sessionStorage.getItem('golf-prepared')) return;
        sessionStorage.setItem('golf-prepared', '1');
        localStorage.setItem(%s, %s);
        localStorage.setItem('spieleabend.settings', JSON.stringify({format: 1, settings: {memory_aid: %s}}));
    })();""" % (json.dumps(SAVE_KEY), json.dumps(json.dumps(document)), "true" if memory_aid else "false"))
    page.goto("%s/?pace=%d#/play/golf/continue" % (url, pace))
    page.wait_for_selector("html[data-app-ready]")
    page.wait_for_selector("[data-testid=grid-0]")


def play_until_summary(page):
    """Knock when allowed, else draw and discard, until the round summary shows."""
    for _ in range(200):
        page.wait_for_selector("[data-testid=round-summary], [data-testid=knock]:not([disabled]), "
                               "[data-testid=stock]:not([disabled]), [data-testid=discard-drawn]")
        if page.get_by_test_id("round-summary").count():
            return
        if page.locator("[data-testid=knock]:not([disabled])").count():
            page.get_by_test_id("knock").click()
        elif page.get_by_test_id("discard-drawn").count():
            page.get_by_test_id("discard-drawn").click()
        else:
            page.get_by_test_id("stock").click()


def no_overflow(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_seeded_game_of_nine_rounds_to_the_final_standings(page, live_server):
    start_game(page, live_server.url, seats=3, seed=21)
    rounds_seen = 0
    for _ in range(600):
        page.wait_for_selector(TURN_STATES)
        if page.get_by_test_id("final-headline").count():
            break
        if page.get_by_test_id("next-round").count():
            rounds_seen += 1
            assert page.get_by_test_id("round-summary").is_visible()
            page.get_by_test_id("next-round").click()
        elif page.get_by_test_id("peek-done").count():
            page.get_by_test_id("peek-done").click()
        elif page.locator("[data-testid=knock]:not([disabled])").count():
            page.get_by_test_id("knock").click()  # knock at once: nine short rounds
        elif page.get_by_test_id("discard-drawn").count():
            page.get_by_test_id("discard-drawn").click()
        else:
            page.get_by_test_id("stock").click()
    assert rounds_seen == 9
    sheet = page.get_by_test_id("score-sheet")
    rows = sheet.locator("tbody tr")
    assert rows.count() == 9
    sums = [0, 0, 0]
    for index in range(9):
        cells = rows.nth(index).locator("td").all_inner_texts()
        for seat in range(3):
            sums[seat] += int(cells[seat])
    totals = [int(page.get_by_test_id("sheet-total-%d" % s).inner_text()) for s in range(3)]
    assert sums == totals
    for seat in range(3):
        assert "%d Punkte" % totals[seat] in page.get_by_test_id("standing-%d" % seat).inner_text()
    lowest = min(totals)
    winners = [s for s in range(3) if totals[s] == lowest]
    headline = page.get_by_test_id("final-headline").inner_text()
    if len(winners) > 1:
        assert "Geteilter Sieg" in headline
    assert saved(page) is None, "a finished game leaves no save behind"
    assert serious_violations(page) == []
    page.get_by_test_id("to-results").click()
    assert "Golf" in page.get_by_test_id("result-item").first.inner_text()


def test_peek_shows_exactly_the_bottom_two_and_hides_them_after_gemerkt(page, live_server):
    start_game(page, live_server.url, seats=4, seed=3, pace=60000)
    state = saved(page)["state"]
    mine = grid_cards(page, 0)
    assert mine == [None, None] + state["grids"][0][2:]
    for seat in (1, 2, 3):
        assert grid_cards(page, seat) == [None] * 4
        assert page.get_by_test_id("grid-%d" % seat).locator("[data-card]").count() == 0
    page.get_by_test_id("peek-done").click()
    page.wait_for_selector("[data-testid=peek-done]", state="detached")
    assert grid_cards(page, 0) == [None] * 4
    for card in state["grids"][0]:
        assert page.locator("[data-card='%s']" % card).count() == 0


def test_swap_from_the_stock_discard_and_take_from_the_pile_then_pause_and_continue(page, live_server):
    grids = [["9S", "8S", "7S", "6S"], ["10H", "QH", "JH", "10C"]]
    load_prepared(page, live_server.url, prepared(grids, discard_top="4D", stock_top=("KS", "QD")))
    my_turn(page)
    assert page.get_by_test_id("discard-top").get_attribute("data-card") == "4D"
    page.get_by_test_id("stock").click()
    assert page.get_by_test_id("drawn-card").get_attribute("data-card") == "KS"
    page.get_by_test_id("grid-0").get_by_test_id("pos-1").click()
    state = saved(page)["state"]
    assert state["grids"][0][1] == "KS"
    assert "8S" in state["discard"], "the swapped-out card lies face up on the pile"
    my_turn(page)  # the computer has moved
    page.get_by_test_id("stock").click()
    drawn = page.get_by_test_id("drawn-card").get_attribute("data-card")
    assert drawn == saved(page)["state"]["drawn"]
    page.get_by_test_id("discard-drawn").click()
    state = saved(page)["state"]
    assert state["grids"][0] == ["9S", "KS", "7S", "6S"]
    assert {"seat": 0, "action": "discard", "card": drawn} in state["events"]
    my_turn(page)
    top = page.get_by_test_id("discard-top").get_attribute("data-card")
    page.get_by_test_id("discard-top").click()
    assert page.get_by_test_id("discard-top").get_attribute("aria-pressed") == "true"
    assert page.get_by_test_id("knock").count() == 0, "after taking the pile card a position must be chosen"
    page.get_by_test_id("grid-0").get_by_test_id("pos-0").click()
    state = saved(page)["state"]
    assert state["grids"][0][0] == top
    assert {"seat": 0, "action": "take", "position": 0, "card": top, "out": "9S"} in state["events"]
    my_turn(page)  # the computer moves meanwhile (its Python runs beside the page): pause on my turn
    before = saved(page)
    page.get_by_test_id("pause").click()
    page.wait_for_selector("[data-testid=continue-golf]")
    page.get_by_test_id("continue-golf").click()
    page.wait_for_selector("[data-testid=grid-0]")
    assert saved(page)["state"]["grids"] == before["state"]["grids"]


def test_knock_hides_knock_and_shows_the_banner(page, live_server):
    grids = [["9S", "8S", "7S", "6S"], ["10H", "QH", "JH", "10C"], ["2C", "3C", "4C", "5C"]]
    load_prepared(page, live_server.url, prepared(grids), pace=60000)
    my_turn(page)
    assert page.get_by_test_id("last-turn-banner").count() == 0
    page.get_by_test_id("knock").click()
    banner = page.get_by_test_id("last-turn-banner")
    assert "Du hast geklopft" in banner.inner_text()
    assert "letzten Zug" in banner.inner_text()
    assert page.get_by_test_id("knock").count() == 0
    assert saved(page)["state"]["knocker"] == 0


@pytest.mark.parametrize("knocker_grid, penalty", [
    (["10H", "QH", "JH", "10C"], True),    # Anna knocked with 40, the person has 6: +10 for Anna
    (["AH", "2H", "3C", "KD"], False),     # Anna knocked with 6, the person ties with 6: no penalty
])
def test_knock_penalty_only_when_someone_had_strictly_fewer(page, live_server, knocker_grid, penalty):
    grids = [["AS", "2S", "3D", "KH"], knocker_grid]
    load_prepared(page, live_server.url, prepared(grids, discard_top="QS", stock_top=("JD",), knocker=1))
    my_turn(page)
    banner = page.get_by_test_id("last-turn-banner").inner_text()
    assert "Anna hat geklopft" in banner and "letzten Zug" in banner
    assert page.get_by_test_id("knock").count() == 0
    page.get_by_test_id("stock").click()
    page.get_by_test_id("discard-drawn").click()
    summary = page.get_by_test_id("round-summary")
    summary.wait_for()
    for card in grids[0] + grids[1]:
        assert summary.locator("[data-card='%s']" % card).count() == 1, "every card turned up"
    note = page.get_by_test_id("knock-note").inner_text()
    knocker_points = sum(engine.card_value(c) for c in knocker_grid)
    if penalty:
        assert page.get_by_test_id("penalty-1").inner_text() == "+10 Klopfstrafe"
        assert "+10 Strafpunkte" in note
        expected = knocker_points + 10
    else:
        assert page.get_by_test_id("penalty-1").count() == 0
        assert "keine Strafe" in note
        expected = knocker_points
    assert page.get_by_test_id("round-points-1").inner_text().split()[0] == str(expected)
    assert page.get_by_test_id("round-points-0").inner_text().split()[0] == "6"
    assert page.get_by_test_id("sheet-total-1").inner_text() == str(expected)
    assert "Punkte auf dem Zettel" in page.get_by_test_id("score-sheet").inner_text()
    page.get_by_test_id("next-round").click()
    page.wait_for_selector("[data-testid=peek-done]")


def test_memory_aid_off_shows_nothing_after_the_peek_and_on_shows_seen_cards(page, live_server):
    grids = [["9S", "8S", "7S", "6S"], ["10H", "QH", "JH", "10C"]]
    document = prepared(grids, discard_top="4D", stock_top=("KS",))
    load_prepared(page, live_server.url, document, pace=60000)
    my_turn(page)
    assert grid_cards(page, 0) == [None] * 4
    page.get_by_test_id("stock").click()
    page.get_by_test_id("grid-0").get_by_test_id("pos-0").click()
    assert grid_cards(page, 0) == [None] * 4, "memory aid off: nothing seen is shown again"
    page.goto(live_server.url + "/?pace=60000#/settings")
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id("setting-memory-aid").check()
    page.goto(live_server.url + "/?pace=60000#/play/golf/continue")
    page.wait_for_selector("html[data-app-ready]")
    page.wait_for_selector("[data-testid=grid-0]")
    assert grid_cards(page, 0) == ["KS", None, "7S", "6S"], "memory aid on: the bottom two and the swapped card"
    assert grid_cards(page, 1) == [None] * 4


def test_at_twice_the_text_size_the_piles_stay_on_the_screen(page, live_server):
    """Large text (a phone's accessibility setting): the stock, the discard and a drawn card stay within the
    screen (centred, the row ran past its left edge, out of reach of scrolling)."""
    start_game(page, live_server.url, seats=2, seed=5)
    page.add_style_tag(content="html { font-size: 200% !important; }")
    page.get_by_test_id("peek-done").click()
    my_turn(page)
    page.get_by_test_id("stock").click()
    page.get_by_test_id("drawn-card").wait_for()
    boxes = page.locator(".g-piles, .g-mine").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [Math.round(r.left), Math.round(r.right)]; })")
    width = page.viewport_size["width"]
    assert all(left >= 0 and right <= width for left, right in boxes), boxes


def test_keyboard_plays_a_turn(page, live_server):
    start_game(page, live_server.url, seats=2, seed=5)
    page.keyboard.press("Enter")  # Gemerkt
    my_turn(page)
    page.keyboard.press("s")
    drawn = page.get_by_test_id("drawn-card").get_attribute("data-card")
    page.keyboard.press("1")
    assert saved(page)["state"]["grids"][0][0] == drawn
    my_turn(page)
    top = page.get_by_test_id("discard-top").get_attribute("data-card")
    page.keyboard.press("a")
    assert page.get_by_test_id("discard-top").get_attribute("aria-pressed") == "true"
    page.keyboard.press("Escape")
    assert page.get_by_test_id("discard-top").get_attribute("aria-pressed") == "false"
    page.keyboard.press("a")
    page.keyboard.press("2")
    assert saved(page)["state"]["grids"][0][1] == top
    my_turn(page)
    page.keyboard.press("k")
    page.wait_for_selector("[data-testid=next-round]")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-testid=peek-done]")


def test_a_keyboard_move_leaves_the_focus_on_a_control_not_the_pages_body(page, live_server):
    """"Gemerkt", "Ziehen" and "Ablegen" go with the move: a keyboard user's focus fell to the page's body
    and the next Tab began at the top; it now takes the control in their place."""
    def on_a_control():
        return page.evaluate("document.activeElement !== document.body && !!document.activeElement.closest('#app')")

    start_game(page, live_server.url, seats=2, seed=5)
    page.get_by_test_id("peek-done").focus()
    page.keyboard.press("Enter")
    my_turn(page)
    assert on_a_control()
    page.get_by_test_id("stock").focus()
    page.keyboard.press("Enter")
    page.get_by_test_id("drawn-card").wait_for()
    assert on_a_control()
    page.get_by_test_id("discard-drawn").focus()
    page.keyboard.press("Enter")
    my_turn(page)
    assert on_a_control()


def test_eight_seats_fit_360_px(page, live_server):
    start_game(page, live_server.url, seats=8, seed=9)
    assert saved(page)["state"]["decks"] == 2, "two decks are chosen by default from six seats up"
    assert no_overflow(page)
    page.get_by_test_id("peek-done").click()
    my_turn(page)
    assert no_overflow(page)
    page.get_by_test_id("stock").click()
    assert no_overflow(page)
    box = page.get_by_test_id("grid-0").get_by_test_id("pos-0").bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, "own cards are big enough to tap"
    page.get_by_test_id("grid-0").get_by_test_id("pos-3").click()
    play_until_summary(page)
    assert no_overflow(page)
    assert serious_violations(page) == []


def test_screens_have_no_serious_accessibility_violations(page, live_server):
    open_app(page, live_server.url, "play/golf")
    assert serious_violations(page) == [], "start"
    start_game(page, live_server.url, seats=4, seed=2)
    assert serious_violations(page) == [], "peek"
    page.get_by_test_id("peek-done").click()
    my_turn(page)
    page.get_by_test_id("discard-top").click()
    assert serious_violations(page) == [], "choosing where the pile card goes"
    page.keyboard.press("Escape")
    page.get_by_test_id("stock").click()
    assert serious_violations(page) == [], "holding a drawn card"
    page.get_by_test_id("open-sheet").click()
    assert serious_violations(page) == [], "score sheet"


# The seats' status badges ("schaut …", "zieht …", "geklopft") that lie on a card, a name or a pile, and those cut short.
BADGES_OVER_CARDS = """() => {
  const box = e => e.getBoundingClientRect(), shown = e => { const r = box(e); return r.width > 0 && r.height > 0
    && getComputedStyle(e).visibility !== 'hidden'; };
  const badges = [...document.querySelectorAll('.g-status')].filter(shown);
  const under = [...document.querySelectorAll('.g-grid .card, .g-pile .card, .g-name')].filter(shown);
  const over = [];
  for (const badge of badges) {
    const r = box(badge);
    for (const thing of under) {
      const q = box(thing);
      if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1)
        over.push(badge.textContent + ' over ' + (thing.dataset.testid || thing.className));
    }
  }
  return {badges: badges.map(b => b.textContent), over: over,
          cut: badges.filter(b => b.scrollWidth > b.clientWidth).map(b => b.textContent)};
}"""
PEEKS = {"de-DE": ("schaut …", "geklopft"), "en-GB": ("looking …", "knocked")}


@pytest.mark.parametrize("size", [(360, 740), (390, 844)])
@pytest.mark.parametrize("locale", sorted(PEEKS))
def test_the_seats_status_badges_cover_no_card_on_a_phone(browser, live_server, locale, size):
    """While the computers still look at their bottom two cards (a long pace keeps them looking), every small seat
    says so in a badge above its grid: whole, and over no card (laid over the grid it hid the top row); the same
    for the knocker's badge."""
    looking, knocked = PEEKS[locale]
    context = phone_context(browser, locale=locale, viewport={"width": size[0], "height": size[1]}, has_touch=True)
    try:
        page = context.new_page()
        start_game(page, live_server.url, seats=8, seed=9, pace=600000)
        shown = page.evaluate(BADGES_OVER_CARDS)
        assert shown["badges"] == [looking] * 7, shown
        assert shown["over"] == [] and shown["cut"] == [], shown
        # A prepared round where Anna knocked and a computer is about to move (the browser's language kept).
        grids = [[r + s for r in ("2", "3", "4", "5")] for s in "HSDC"]
        page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                      [SAVE_KEY, json.dumps(prepared(grids, discard_top="QS", knocker=1))])
        reopen(page, live_server.url + "/?pace=600000#/play/golf/continue")
        page.wait_for_selector("[data-testid=last-turn-banner]")
        shown = page.evaluate(BADGES_OVER_CARDS)
        assert shown["badges"] == [knocked], shown
        assert shown["over"] == [] and shown["cut"] == [], shown
    finally:
        context.close()

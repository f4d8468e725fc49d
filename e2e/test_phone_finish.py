"""What a newcomer stumbled over on a phone (issue 29), one check each: reveals, reloads, a big Mau-Mau
hand, Golf's knock, damaged saves in words, the transfer form, the small things."""

import pytest

from spieleabend.games import load
from spieleabend.games.common import french_deck
from spieleabend.testing import ConsoleWatch, make_transfer_code, open_app, phone_context
from e2e.prepared_games import document, new_state, open_saved, play
from e2e.test_maumau import open_prepared, running_state
from e2e.tap_targets import small_targets

HAND = "[data-testid=hand]"


def first_card(page):
    return page.locator("[data-testid=hand] [data-value]").first


def confirm_a_card(page):
    first_card(page).click()
    page.get_by_test_id("confirm").click()
    page.wait_for_selector("[data-testid=reveal-title]")


# -- 3: Punktejagd's reveal at the default motion setting ------------------------------------------
FLIP_SAMPLES = """() => {
    // Each frame: the first revealed card's turn (cos of its rotateY: < 0 shows the back) and its opacity.
    window.flipSamples = [];
    const started = performance.now();
    const sample = () => {
        const flip = document.querySelector("[data-testid=reveal-0] .flip");
        if (flip) {
            const style = getComputedStyle(flip);
            const turn = style.transform === "none" ? 1 : new DOMMatrix(style.transform).m11;
            window.flipSamples.push([Math.round(performance.now() - started), turn, Number(style.opacity)]);
        }
        if (performance.now() - started < 3500) requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
}"""


def test_punktejagds_cards_fly_in_showing_their_backs_and_turn_over_once(browser, live_server):
    context = phone_context(browser, reduced_motion="no-preference")  # the default setting: all animations
    page = context.new_page()
    watch = ConsoleWatch(page)
    open_saved(page, live_server.url, document("punktejagd", new_state("punktejagd")), HAND)
    assert page.evaluate("document.documentElement.dataset.motion") == "full"
    page.evaluate(FLIP_SAMPLES)
    confirm_a_card(page)
    # The round's result is not told while its cards are still face down (an audit read it before they turned).
    assert page.get_by_test_id("reveal-why").inner_text() == ""
    page.wait_for_selector("[data-testid=next-round]:not([disabled])")
    assert "Punkt" in page.get_by_test_id("reveal-why").inner_text() or "einmalig" in page.get_by_test_id("reveal-why").inner_text()
    page.wait_for_timeout(3600)
    samples = page.evaluate("window.flipSamples")
    context.close()
    assert watch.errors == []
    assert samples and samples[0][1] < 0, "the card arrives face down: %s" % samples[:3]
    assert all(opacity == 1 for _, _, opacity in samples), \
        "a turned card with opacity below 1 is flattened and shows its face mirrored"
    turned = [index for index, (_, turn, _) in enumerate(samples) if turn > 0.99]
    assert turned, "the card turns over"
    again = [sample for sample in samples[turned[0]:] if sample[1] < 0.99]
    assert again == [], "once turned, the card stays face up (the flip does not start over): %s" % again[:3]


# -- 5: a reload during a reveal (and during Golf's round summary) shows it again ------------------
def test_a_reload_during_punktejagds_reveal_shows_the_reveal_again(page, live_server):
    open_saved(page, live_server.url, document("punktejagd", new_state("punktejagd")), HAND)
    confirm_a_card(page)
    title = page.get_by_test_id("reveal-title").inner_text()
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    assert page.get_by_test_id("reveal-title").inner_text() == title
    page.get_by_test_id("next-round").click()
    assert "Runde 2" in page.get_by_test_id("round-number").inner_text()
    page.reload()
    page.wait_for_selector(HAND)
    assert page.get_by_test_id("reveal-title").count() == 0, "a reveal seen and left stays seen"


def test_a_reload_during_kartenkampfs_reveal_shows_the_reveal_again(page, live_server):
    open_saved(page, live_server.url, document("kartenkampf", new_state("kartenkampf")), HAND)
    first_card(page).click()
    page.get_by_test_id("confirm").click()
    page.wait_for_selector("[data-testid=reveal-sorted]")
    title = page.get_by_test_id("reveal-title").inner_text()
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    assert page.get_by_test_id("reveal-title").inner_text() == title
    page.get_by_test_id("next-round").click()
    page.wait_for_selector(HAND)


def test_a_reload_during_golfs_round_summary_shows_it_again(page, live_server):
    engine = load("golf")
    state = play("golf", new_state("golf"), lambda s: engine.to_move(s) == [0] and "knock" in engine.legal_actions(s, 0))
    open_saved(page, live_server.url, document("golf", state), "[data-testid=knock]")
    page.get_by_test_id("knock").click()
    page.wait_for_selector("[data-testid=round-summary]")  # the computers' last turns at pace 0
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    assert page.get_by_test_id("round-summary").count() == 1


def last_round(game):
    """Return a saved game of ten rounds whose last round the tester is about to play (every earlier one shown)."""
    engine = load(game)
    state = play(game, new_state(game), lambda s: engine.progress(engine.view(s, None))["done"] == 9)
    return document(game, state, seen=9)


@pytest.mark.parametrize("game", ["punktejagd", "kartenkampf"])
def test_a_reload_during_the_last_reveal_shows_it_and_then_the_final_standings(page, live_server, game):
    open_saved(page, live_server.url, last_round(game), HAND)
    confirm_a_card(page)
    title = page.get_by_test_id("reveal-title").inner_text()
    page.reload()
    page.wait_for_selector("[data-testid=reveal-title], [data-testid=no-save], [data-testid=final-headline]")
    assert page.get_by_test_id("reveal-title").count() == 1, "the last reveal again, not 'no saved game'"
    assert page.get_by_test_id("reveal-title").inner_text() == title
    page.get_by_test_id("next-round").click()  # "Endwertung"
    page.wait_for_selector("[data-testid=final-headline]")
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    page.wait_for_selector("[data-testid=game-ended]")
    assert page.get_by_test_id("no-save").count() == 0, "not 'no saved game': how it ended, as Ergebnisse keeps it"
    assert page.get_by_test_id("result-item").count() == 1  # (a prepared save has no record to watch)
    page.goto(live_server.url + "/?pace=0#/results")
    page.wait_for_selector("[data-testid=result-item]")
    assert page.get_by_test_id("result-item").count() == 1, "recorded once"


# -- 4: a new table and the next round open at the top ----------------------------------------------
def test_a_new_table_and_maumaus_next_deal_open_at_the_top(page, live_server):
    page.goto(live_server.url + "/?seed=3&pace=0#/play/maumau")
    page.wait_for_selector("html[data-app-ready]")
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")  # a thumb on the start button
    assert page.evaluate("scrollY") > 0
    page.get_by_test_id("start-game").click()
    page.wait_for_selector(HAND)
    assert page.evaluate("scrollY") == 0
    state = running_state([["7H"], ["KS", "QS", "AS", "10D"], ["2D", "3D"]], top="8H", limit=30)
    open_prepared(page, live_server.url, state)
    page.get_by_test_id("card-0").click()
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("scrollY") > 0
    page.get_by_test_id("next-deal").click()
    page.wait_for_selector(HAND)
    assert page.evaluate("scrollY") == 0
    assert page.get_by_test_id("player-0").is_visible() and "Runde 2" in page.locator("main").inner_text()


# -- 6: Mau-Mau with a big hand; the deal summary ------------------------------------------------------
def test_every_card_of_a_14_card_maumau_hand_has_44_px_in_sight_and_a_tap_hits_it(page, live_server):
    deck = french_deck(2)
    mine = [card for card in deck if card[-1] in "CS"][:14]
    state = running_state([mine, ["2D", "3D", "4D"], ["5D", "6D", "7D"]], "8H")
    open_prepared(page, live_server.url, state)
    hand = page.get_by_test_id("hand")
    assert hand.locator("[data-card]").count() == 14
    assert hand.evaluate("el => el.scrollWidth <= el.clientWidth"), "the hand does not scroll sideways"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert small_targets(page, HAND + " [data-card]") == []


def test_the_deal_summary_names_the_cards_left_with_the_seat_chips_signs(page, live_server):
    state = running_state([["7H"], ["KS", "QS", "AS", "10D"], ["2D", "3D"]], top="8H", limit=100)
    open_prepared(page, live_server.url, state)
    page.get_by_test_id("card-0").click()
    summary = page.get_by_test_id("deal-summary")
    assert "Karten übrig" in summary.locator("thead").inner_text()
    for seat in range(3):
        row = summary.get_by_test_id("player-%d" % seat)
        cells = row.locator("td").all_inner_texts()
        assert cells[0] == row.get_attribute("data-cards"), cells
        assert cells[1] == minus(row.get_attribute("data-deal")) and cells[2] == minus(row.get_attribute("data-points")), cells
    # The one who went out lost nothing this deal: "0", not "−0".
    assert summary.get_by_test_id("player-0").locator("td").all_inner_texts()[1] == "0"


def minus(points):
    """Return minus points as the table writes them: "−12", and "0" for none."""
    return "0" if points == "0" else "−" + points


# -- 7: Golf's knock is not the main button --------------------------------------------------------------
def test_golfs_knock_is_a_plain_button_on_a_normal_turn(page, live_server):
    engine = load("golf")
    state = play("golf", new_state("golf"), lambda s: engine.to_move(s) == [0] and "knock" in engine.legal_actions(s, 0))
    open_saved(page, live_server.url, document("golf", state), "[data-testid=knock]")
    assert "btn-primary" not in page.get_by_test_id("knock").get_attribute("class")
    page.get_by_test_id("knock").click()
    page.wait_for_selector("[data-testid=round-summary]")
    page.get_by_test_id("next-round").click()
    page.get_by_test_id("peek-done").click()
    page.wait_for_selector(".g-status:text('geklopft'), [data-testid=knock]")
    # In one go: the computers go on at once and may draw the badges again between two reads.
    cut = page.locator(".g-status:visible").evaluate_all(
        "badges => badges.filter(el => el.scrollWidth > el.clientWidth).map(el => el.textContent)")
    assert cut == [], "a badge is not cut: %s" % cut


def test_a_touch_phone_is_not_told_about_keyboard_keys(browser, live_server):
    context = phone_context(browser, has_touch=True)
    page = context.new_page()
    engine = load("golf")
    state = play("golf", new_state("golf"), lambda s: engine.to_move(s) == [0] and "draw" in engine.legal_actions(s, 0))
    open_saved(page, live_server.url, document("golf", state), "[data-testid=hint]")
    golf_hint = page.get_by_test_id("hint").inner_text()
    open_saved(page, live_server.url, document("paodekuai", new_state("paodekuai")), HAND)
    pdk_keys = page.locator(".pdk-keys").is_visible()
    context.close()
    assert "Stapel" in golf_hint and "(S)" not in golf_hint and "(A)" not in golf_hint, golf_hint
    assert not pdk_keys, "Pao De Kuai's keyboard line"


def test_golfs_knock_badge_is_not_cut(page, live_server):
    engine = load("golf")
    state = play("golf", new_state("golf"), lambda s: s["knocker"] is not None and engine.to_move(s) == [0])
    open_saved(page, live_server.url, document("golf", state), "[data-testid=stock]")
    badges = page.locator(".g-status:visible")
    assert badges.count() == 1
    assert badges.first.evaluate("el => el.scrollWidth <= el.clientWidth"), badges.first.inner_text()


# -- 10: the transfer code field and the address after taking over a game ------------------------------
def test_enter_in_the_code_field_fetches_the_game_and_the_address_is_the_games(page, browser, live_server):
    open_saved(page, live_server.url, document("kartenkampf", new_state("kartenkampf")), HAND)
    page.goto(live_server.url + "/?pace=0#/transfer/kartenkampf")
    code = make_transfer_code(page)
    other_context = phone_context(browser)
    other = other_context.new_page()
    watch = ConsoleWatch(other)
    open_app(other, live_server.url, "open")
    other.get_by_test_id("transfer-input").fill(code)
    other.get_by_test_id("transfer-input").press("Enter")
    other.wait_for_selector(HAND)
    assert other.evaluate("location.hash") == "#/play/kartenkampf/continue"
    other.reload()
    other.wait_for_selector(HAND)
    other_context.close()
    assert watch.errors == []


# -- 11: the small things ------------------------------------------------------------------------------
def test_one_point_is_1_punkt(page, live_server):
    state = new_state("punktejagd")
    engine = load("punktejagd")
    for seat, card in enumerate([2, 10, 9, 8]):  # 10, 9, 8: 5, 3 and 1 point; 2 a fourth place
        engine.apply_action(state, seat, "play %d" % card)
    assert 1 in state["totals"]
    open_saved(page, live_server.url, document("punktejagd", state), HAND)
    text = page.locator("main").inner_text()
    assert "1 Punkt\n" in text + "\n" or "1 Punkt " in text
    assert "1 Punkte" not in text


def open_final(page, url, game):
    """Open a game played to its end; Pao De Kuai shows its last settlement first."""
    open_saved(page, url, document(game, play(game, new_state(game), lambda s: False)),
               "[data-testid=final-headline], [data-testid=next-deal]")
    if page.get_by_test_id("final-headline").count() == 0:
        page.get_by_test_id("next-deal").click()
    page.wait_for_selector("[data-testid=final-headline]")


def test_every_final_screen_names_the_game_night_point(page, live_server):
    for game in ["punktejagd", "kartenkampf", "maumau", "paodekuai", "golf"]:
        open_final(page, live_server.url, game)
        assert page.get_by_test_id("night-point").count() == 1, game
        assert "Spieleabend-Punkt" in page.get_by_test_id("night-point").inner_text(), game


def test_maumaus_final_standings_break_no_word(page, live_server):
    state = running_state([["7H"], ["KS", "QS", "AS", "10D"], ["2D", "3D"]], top="8H", limit=4)  # both others out
    open_prepared(page, live_server.url, state)
    page.get_by_test_id("card-0").click()
    page.wait_for_selector("[data-testid=deal-summary], [data-testid=final-headline]")
    tags = page.locator(".mm-ptag:visible, .standing-tag:visible")
    assert tags.count() >= 1
    for tag in tags.all():
        words = tag.inner_text().split()
        lines = tag.evaluate("""el => { const range = document.createRange(); range.selectNodeContents(el);
            return [...range.getClientRects()].length; }""")
        assert lines <= len(words), "a word is split over two lines: %r" % tag.inner_text()


# -- A turn's main button in reach: Pao De Kuai's 16 cards and Punktejagd's 10 on a 360x740 phone -----------
MAIN_BUTTON = {"paodekuai": "play", "punktejagd": "confirm"}

IN_SIGHT = """el => { const r = el.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
        && el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)); }"""

UNCOVERED = """el => { const r = el.getBoundingClientRect();
    return [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]]
        .every(([x, y]) => el.contains(document.elementFromPoint(x, y))); }"""


def start_first_turn(page, url, game, together):
    """Start the game alone or as Anna and Ben on one phone, and wait for this device's first turn."""
    page.goto("%s/?seed=4&pace=0#/play/%s" % (url, game))
    page.wait_for_selector("html[data-app-ready]")
    if together:
        page.get_by_test_id("mode-device").check()
        page.get_by_test_id("person-0").fill("Anna")
        page.get_by_test_id("person-1").fill("Ben")
    if page.get_by_test_id("seats-3").count():
        page.get_by_test_id("seats-3").check()
    page.get_by_test_id("start-game").click()
    if together:
        page.get_by_test_id("handover-confirm").click()
        page.wait_for_selector("[data-testid=handover-bar]")
    page.wait_for_selector("html[data-turn~=you] [data-testid=hand]")


@pytest.mark.parametrize("together", [False, True], ids=["alone", "two-people-on-one-phone"])
@pytest.mark.parametrize("game", ["paodekuai", "punktejagd"])
def test_the_turns_main_button_is_in_sight_without_scrolling_and_no_card_stays_hidden(page, live_server, game, together):
    start_first_turn(page, live_server.url, game, together)
    assert page.evaluate("scrollY") == 0
    main_button = page.get_by_test_id(MAIN_BUTTON[game])
    assert main_button.evaluate(IN_SIGHT), "%s at %s on a 740 px screen" % (MAIN_BUTTON[game], main_button.bounding_box())
    # The docked buttons lie over the hand's last row only until the page is scrolled: at the end every card is clear.
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    cards = page.locator("[data-testid=hand] .card")
    assert cards.count() >= 10
    hidden = [card.get_attribute("data-testid") for card in cards.all() if not card.evaluate(UNCOVERED)]
    assert hidden == []
    assert main_button.evaluate(IN_SIGHT)


def test_a_card_reached_by_the_keyboard_is_not_under_the_docked_buttons(page, live_server):
    start_first_turn(page, live_server.url, "paodekuai", together=True)  # the longest page: its last row starts under the dock
    page.locator("[data-testid=hand] .card").first.focus()
    for _ in range(16):
        page.keyboard.press("ArrowRight")
    focused = page.locator(":focus")
    assert focused.get_attribute("data-testid") == page.locator("[data-testid=hand] .card").last.get_attribute("data-testid")
    assert focused.evaluate(UNCOVERED), "the focused card scrolls clear of the docked buttons"

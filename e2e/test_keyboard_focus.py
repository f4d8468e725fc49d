"""Keyboard players: after a move the focus stays in the game (on the next step), never on a control that leaves it."""

from spieleabend.testing import open_app

LEAVING = {"pause", "transfer", "rules-golf", "rules-maumau", "rules-punktejagd", "rules-kartenkampf", "nav-home",
           "new-game", "open-sheet"}


def focused(page):
    """Return the data-testid of the focused element, its tag name where it has none."""
    return page.evaluate("(() => { const a = document.activeElement;"
                         " return a ? (a.getAttribute('data-testid') || a.tagName.toLowerCase()) : null; })()")


def tab_to(page, testid, presses=40):
    for _ in range(presses):
        page.keyboard.press("Tab")
        if focused(page) == testid:
            return
    raise AssertionError("Tab never reached %s" % testid)


def press(page, key):
    page.keyboard.press(key)
    page.wait_for_selector("html:not([data-busy])", state="attached")


def test_golf_by_keyboard_goes_from_the_stock_to_a_position_and_back_never_out_of_the_game(page, live_server):
    """An audit: after a swap the focus took "Auf anderes Gerät" at the old tab position, one Enter left the game."""
    open_app(page, live_server.url + "/?seed=21&pace=0", "play/golf")
    tab_to(page, "start-game")
    press(page, "Enter")
    page.wait_for_selector("[data-testid=peek-done]")
    assert focused(page) == "peek-done", "the game's first step"
    press(page, "Enter")
    for turn in range(4):
        page.wait_for_selector("[data-testid=stock]:not([disabled])")
        page.wait_for_function("document.activeElement.getAttribute('data-testid') === 'stock'")
        press(page, "Enter")  # draw
        page.wait_for_selector("[data-testid=drawn-card]")
        assert focused(page) == "pos-0", "a drawn card goes to a position"
        press(page, "Enter")  # swap into position 1
        assert focused(page) not in LEAVING
        assert "#/play/golf/table" in page.url


def test_a_start_screen_reached_by_keyboard_starts_at_its_heading_and_the_table_at_the_hand(page, live_server):
    """An audit: Enter on a game's tile put the focus on "Partie starten" (the form skipped), and Enter there on
    "Regeln" below the screen."""
    open_app(page, live_server.url + "/?seed=9&pace=0", "")
    tab_to(page, "game-maumau")
    press(page, "Enter")
    page.wait_for_selector("[data-testid=start-game]")
    assert focused(page) == "h1"
    press(page, "Tab")
    assert focused(page) != "start-game", "the form comes first"
    tab_to(page, "start-game")
    press(page, "Enter")
    page.wait_for_selector("[data-testid=hand]")
    page.wait_for_selector("html[data-turn~=you]", state="attached")
    assert focused(page).startswith("card-"), focused(page)


def test_after_a_confirmed_plan_the_focus_waits_for_the_next_round_button(page, live_server):
    """An audit: while the cards flew, the focus sat on "Auf anderes Gerät" and Enter to go on left the game."""
    page.emulate_media(reduced_motion="no-preference")
    open_app(page, live_server.url + "/?seed=4&pace=0", "play/punktejagd")
    tab_to(page, "start-game")
    press(page, "Enter")
    page.wait_for_selector("[data-testid=hand]")
    assert focused(page).startswith("card-")
    press(page, "Enter")  # choose the card
    tab_to(page, "confirm")
    press(page, "Enter")
    assert focused(page) not in LEAVING
    page.wait_for_function("document.activeElement.getAttribute('data-testid') === 'next-round'")


def test_the_person_handed_the_device_starts_in_their_hand(page, live_server):
    """An audit: after "Ich bin Kim" the focus was on "Verdecken", and the next Enter covered the table again."""
    open_app(page, live_server.url + "/?seed=4&pace=0", "play/kartenkampf")
    page.get_by_test_id("mode-device").check()
    page.get_by_test_id("person-0").fill("Kim")
    page.get_by_test_id("person-1").fill("Lou")
    tab_to(page, "start-game")
    press(page, "Enter")
    tab_to(page, "handover-confirm")
    press(page, "Enter")
    page.wait_for_selector("[data-testid=hand]")
    assert focused(page).startswith("card-"), focused(page)

"""Several people on one device: a whole seeded game of each of the five games, two people and a computer
passing one phone, a reload in the middle of a person's turn, and after every step a look at the page:
behind the cover no card at all, uncovered exactly the person who tapped "Ich bin …"."""

import pytest

from e2e.test_kit import GAMES as KIT_GAMES
from e2e.test_kit import go_on

PEOPLE = ["Anna", "Ben"]


def golf_move(device):
    """Golf as the README's scripted game plays it: peek, knock when offered, else draw and discard."""
    if go_on(device):
        return
    if device.by("peek-done").count():
        device.by("peek-done").click()
    elif device.by("knock").count():
        device.by("knock").click()
    else:
        device.by("stock").click()
        device.by("discard-drawn").click()


MOVES = {game: move for game, (move, _setup) in KIT_GAMES.items()}
MOVES["golf"] = golf_move
SETUP = {"maumau": ("limit-30",), "paodekuai": ("deals-1",), "golf": (), "punktejagd": (), "kartenkampf": ()}


def start_together(device, url, game, seed):
    """Open the game's start screen, choose "Mehrere am selben Gerät", name Anna and Ben, three seats, start."""
    page = device.page
    page.goto("%s/?seed=%d&pace=0#/play/%s" % (url, seed, game))
    page.wait_for_selector("html[data-app-ready]")
    device.by("mode-device").check()
    device.wait("[data-testid=person-1]")
    for index, name in enumerate(PEOPLE):
        device.by("person-%d" % index).fill(name)
    if device.by("seats-3").count():
        device.by("seats-3").check()
    for testid in SETUP[game]:
        device.by(testid).check()
    device.by("start-game").click()
    device.wait("[data-testid=handover]")


def check_cover(page):
    """Behind the cover the page shows no card of anybody and nobody's controls."""
    assert page.locator("[data-card], [data-testid=hand], [data-testid=confirm]").count() == 0
    assert page.locator("html").get_attribute("data-seat") == ""


def play_together(device, move, reload_at=6, limit=900):
    """Pass the device round until the game is over; return (covers, moves, reloaded)."""
    page = device.page
    covers = moves = 0
    reloaded = False
    looking = None
    for _ in range(limit):
        if page.locator("[data-testid=handover-over]").count():
            # The end is everybody's: the last round's cards may show, nobody's hand or controls.
            assert page.locator("[data-testid=hand], [data-testid=confirm]").count() == 0
            assert page.locator("html").get_attribute("data-seat") == ""
            return covers, moves, reloaded
        to = page.locator("[data-testid=handover-to]")
        if to.count():
            check_cover(page)
            looking = to.get_attribute("data-seat")
            assert page.get_by_test_id("handover-confirm").inner_text() == "Ich bin %s" % PEOPLE[int(looking)]
            device.by("handover-confirm").click()
            device.wait("[data-testid=handover-bar][data-seat='%s']" % looking)
            covers += 1
            continue
        if page.locator("[data-testid=handover-bar]").count() == 0:  # the computers are playing
            page.wait_for_timeout(25)
            continue
        assert page.locator("[data-testid=handover-bar]").get_attribute("data-seat") == looking
        assert page.locator("html").get_attribute("data-seat") == looking, "only the person who confirmed"
        if moves == reload_at and not reloaded:
            page.reload()  # in the middle of this person's turn: back behind the cover, no hand open
            page.wait_for_selector("html[data-app-ready]")
            device.wait("[data-testid=handover-to], [data-testid=handover-wait]")
            check_cover(page)
            reloaded = True
            continue
        if device.is_my_turn():
            move(device)
            moves += 1
        else:
            page.wait_for_timeout(25)  # a reveal or a drawn card is still moving
    raise AssertionError("not over after %d steps" % limit)


@pytest.mark.parametrize("game", ["punktejagd", "kartenkampf", "maumau", "paodekuai", "golf"])
def test_two_people_and_a_computer_play_a_whole_game_on_one_phone(devices, live_server, game):
    device = devices("Familie")
    start_together(device, live_server.url, game, seed=3)
    covers, moves, reloaded = play_together(device, MOVES[game])
    assert reloaded and covers >= 2 and moves > 3
    page = device.page
    names = page.locator("[data-testid=handover-over] .standing .name").all_inner_texts()
    assert sorted(names) == sorted(PEOPLE + ["Clara"]), "everyone's standing, the computer's too"
    page.get_by_test_id("to-results").click()
    device.wait("[data-testid=result-item]")
    assert "Anna" in page.locator("[data-testid=result-item]").first.inner_text()
    assert device.console_errors() == []


def test_the_cover_is_accessible_reads_in_english_and_takes_the_keyboard(browser, live_server):
    from e2e.test_accessibility import serious_violations
    from spieleabend.testing import phone_context

    context = phone_context(browser, locale="en-GB")
    page = context.new_page()
    page.goto(live_server.url + "/?seed=4&pace=0#/play/golf")
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id("mode-device").check()
    page.get_by_test_id("person-0").fill("Mia")
    page.get_by_test_id("person-1").fill("Noah")
    page.get_by_test_id("add-person").click()
    page.get_by_test_id("person-2").fill("Mia")
    assert page.get_by_test_id("seats-2").is_disabled(), "three people need three seats"
    assert serious_violations(page) == []
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=setup-problem]")  # two people of one name: said, nothing started
    page.get_by_test_id("remove-person-2").click()
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=handover-to]")
    assert page.get_by_test_id("handover-to").inner_text() == "Pass the device to Mia"
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious_violations(page) == []
    page.get_by_test_id("handover-confirm").focus()
    page.keyboard.press("Enter")  # the keyboard confirms as a tap does
    page.wait_for_selector("[data-testid=handover-bar][data-seat='0']")
    assert page.get_by_test_id("handover-bar").inner_text().startswith("At the device: Mia")
    page.get_by_test_id("handover-cover").click()  # covered again by hand
    page.wait_for_selector("[data-testid=handover-to][data-seat='0']")
    assert page.locator("[data-card]").count() == 0
    context.close()

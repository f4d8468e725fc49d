"""Tipp in every game, in a real Chromium at 360x740 in German and English: tap Tipp on the person's
turn, the strong computer's choice is marked (a legal one) and said in one line; the screen still
passes the checks of every screen (tap targets, width, cut or untranslated text) and axe. Set
SPIELEABEND_SCREENSHOTS to a folder to keep a screenshot of each game's Tipp."""

import json

import pytest

from spieleabend.games import GAME_MODULES, load
from e2e.prepared_games import document, new_state, open_saved, play
from e2e.test_accessibility import serious_violations
from e2e.test_every_screen import phone  # noqa: F401 (the fixture: a German or English phone with checks)


def my_turn_state(game, seats=None):
    """Return a game in its middle where the tester (seat 0) has a choice."""
    engine = load(game)
    moves = [0]

    def stop(state):
        moves[0] += 1
        return moves[0] > 9 and len(engine.legal_actions(state, 0)) > 1
    return play(game, new_state(game, seed=3, seats=seats), stop, seed=3)


def saved_state(page, game):
    return json.loads(page.evaluate("localStorage.getItem('spieleabend.save.%s')" % game))["state"]


@pytest.mark.parametrize("game", GAME_MODULES)
def test_tipp_marks_a_legal_choice_and_says_why(phone, live_server, game):
    tipp_checked(phone, live_server, game, my_turn_state(game))


def test_tipp_at_two_seats_of_kartenkampf_says_it_draws_from_a_mix(phone, live_server):
    """Stark mixes at two seats (a fixed choice would be worked out): the hint says so, with the card's share."""
    line = tipp_checked(phone, live_server, "kartenkampf", my_turn_state("kartenkampf", seats=2), "two seats")
    assert "%" in line and ("Zufall" in line or "chance" in line)


def tipp_checked(phone, live_server, game, state, label=""):
    """Open `state`, tap Tipp, check the marked choice, the line and the screen; return the line's text."""
    page, language, checks = phone
    open_saved(page, live_server.url, document(game, state), "[data-testid=tipp]")
    page.wait_for_selector("html[data-turn~=you]:not([data-animating])")
    assert page.locator("[data-hinted]").count() == 0
    page.get_by_test_id("tipp").click()
    line = page.locator("[data-testid=tipp-line][data-action]")
    action = line.get_attribute("data-action")
    assert action in load(game).legal_actions(saved_state(page, game), 0)
    assert line.inner_text().startswith("Tipp:" if language == "de" else "Hint:")
    hinted = page.locator("[data-hinted]")
    assert hinted.count() >= 1
    words = action.split(" ")
    if words[0] == "play":
        cards = sorted(word.partition(":")[0] for word in words[1:] if word not in ("risk", "mau"))
        in_hand = page.locator("[data-testid=hand] [data-hinted][data-card]")
        assert sorted(in_hand.evaluate_all("cs => cs.map(c => c.dataset.card)")) == cards
    page.evaluate("window.scrollTo(0, document.querySelector('[data-testid=tipp-line]').getBoundingClientRect().top"
                  " + window.scrollY - 420)")
    checks.check(("%s tipp %s" % (game, label)).strip())
    checks.done()
    # Asked again: a toast on one line (it was half the screen wide and broke "Der Tipp bleibt / derselbe."),
    # above the turn's buttons, not over them.
    page.get_by_test_id("tipp").click()
    toast = page.locator("#toast.show")
    assert toast.inner_text() == ("Der Tipp bleibt derselbe." if language == "de" else "The hint stays the same.")
    box = toast.bounding_box()
    assert box["height"] < 50, box  # one line of text in its padding (two lines: 69 px)
    if page.locator(".turn-dock").count():  # a docked Tipp stays where it is: the toast goes above it
        tipp = page.get_by_test_id("tipp").bounding_box()
        assert box["y"] + box["height"] <= tipp["y"] or box["y"] >= tipp["y"] + tipp["height"], "not over the buttons"
    assert serious_violations(page) == [], "axe: the marks and the line keep the screen accessible"
    return line.inner_text()


def test_a_phone_in_a_room_hints_from_its_own_hand(room):
    """Anna's phone asks for a Tipp in a Kartenkampf room: a card of her own hand, chosen, not yet played."""
    game = room("kartenkampf", phones=1, screen=False, seed=4)
    anna = game.phones[0]
    anna.wait_for_my_turn()
    anna.by("tipp").click()
    action = anna.page.locator("[data-testid=tipp-line][data-action]").get_attribute("data-action")
    card = action.split(" ")[1]
    assert card in anna.hand()
    hinted = anna.page.locator("[data-testid=hand] [data-hinted]")
    assert hinted.get_attribute("data-card") == card and hinted.get_attribute("aria-pressed") == "true"
    assert anna.is_my_turn(), "a Tipp chooses, it does not play"
    anna.by("confirm").click()
    assert card in anna.page.wait_for_selector("[data-testid=my-choice]").inner_text()
    game.check_secrets()


def test_pass_and_play_each_person_gets_their_own_tipp_behind_the_cover(devices, live_server):
    """Mau-Mau for Anna and Ben on one phone: the cover shows no Tipp; each uncovered person's Tipp is
    a card of their own hand, and the next person starts without it."""
    from e2e.test_pass_and_play import check_cover, start_together

    device = devices("anna")
    page = device.page
    start_together(device, live_server.url, "maumau", 5)
    hinted_for = set()
    for _ in range(40):
        if len(hinted_for) == 2:
            break
        page.wait_for_selector("[data-testid=handover-confirm], [data-testid=handover-bar]")
        if device.by("handover-confirm").count():
            check_cover(page)
            assert page.locator("[data-testid=tipp], [data-hinted]").count() == 0
            device.by("handover-confirm").click()
            continue
        page.wait_for_selector("html[data-turn~=you]:not([data-animating])")
        seat = int(device.by("handover-bar").get_attribute("data-seat"))
        assert page.locator("[data-hinted]").count() == 0, "nobody's Tipp is left over"
        device.by("tipp").click()
        action = page.locator("[data-testid=tipp-line][data-action]").get_attribute("data-action")
        if action == "draw":
            assert device.by("draw-pile").get_attribute("data-hinted")
            device.by("draw-pile").click()
        else:
            card = action.split(" ")[1].partition(":")[0]
            hinted = page.locator("[data-testid=hand] [data-hinted]").first
            assert hinted.get_attribute("data-card") == card
            if " mau" in action:
                device.by("mau").click()
            hinted.click(position={"x": 8, "y": 24})
            if ":" in action:
                device.by("suit-" + action.split(":")[1][0]).click()
        hinted_for.add(seat)
    assert hinted_for == {0, 1}

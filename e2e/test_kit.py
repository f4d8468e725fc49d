"""One room game of each of the five games, played with the spieleabend.testing plugin's public
fixtures and the hooks e2e/README.md documents, nothing else: the testers' kit proves itself here.

Each game's `move` is the README's scripted game for that game: what a person does when
<html data-turn> says "you". After every move no visible button may be enabled and dead, and at
the end no phone or screen may have received anything its seat may not see.
"""

import pytest

from spieleabend.testing import dead_controls


def visible(device, testid):
    """Return True when a control with this test id is on screen and not marked disabled."""
    control = device.by(testid)
    return control.count() > 0 and control.first.is_visible() and control.first.is_enabled() and \
        control.first.get_attribute("aria-disabled") != "true"


def go_on(device):
    """Tap the step that follows a round or deal (next-round, next-deal), if it is offered; return True if so."""
    for testid in ("next-round", "next-deal"):
        if visible(device, testid):
            device.by(testid).click()
            return True
    return False


def choose_a_card(device):
    """Punktejagd and Kartenkampf: pick the first card still in the hand and confirm it."""
    if go_on(device):
        return
    device.page.locator("[data-testid=hand] [data-testid^=card-]:not([disabled])").first.click()
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
    """Golf: next round, then "Gemerkt" after the peek; on your turn knock at once, or after a knock draw and discard."""
    if go_on(device):
        return
    if visible(device, "peek-done"):
        device.by("peek-done").click()
    elif visible(device, "knock"):
        device.by("knock").click()
    else:
        device.by("stock").click()
        device.by("discard-drawn").click()


GAMES = {
    "punktejagd": (choose_a_card, ()),
    "kartenkampf": (choose_a_card, ()),
    "maumau": (maumau_move, ("limit-30",)),
    "paodekuai": (paodekuai_move, ("deals-1",)),
    "golf": (golf_move, ()),
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


@pytest.mark.parametrize("game", list(GAMES))
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

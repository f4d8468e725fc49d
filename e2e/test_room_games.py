"""Rooms with the other games: Kartenkampf, Mau-Mau, Pao De Kuai and Golf played by a host, phones and a screen.

Each scenario plays as people would (taps on each phone), reloads a phone, the screen and the host
once mid-game, and then reads every websocket frame each phone and screen received (the reloaded
pages' frames included), to check that none of them ever held something its owner may not see.
Screenshots of a phone and of the infoscreen go to the directory in E2E_SHOTS when it is set.
"""

import json
import os

from spieleabend.testing import Room, check_frames, golf_grid, hands_seen, save_screenshot

SHOTS = os.environ.get("E2E_SHOTS")


def shot(device, name):
    if SHOTS:
        save_screenshot(device.page, os.path.join(SHOTS, name + ".png"))


def room_of_four(devices, url, game, seed, setup=()):
    """Open a room for `game` with Anna's and Ben's phones and a table screen, started with 3 seats.

    Return (host, anna, ben, screen, join link)."""
    room = Room(devices, url, game, phones=2, screen=True, seed=seed, setup=setup, seats=3)
    return room.host, room.phones[0], room.phones[1], room.screen, room.link


def reload_each(host, phone, screen, phone_sees, screen_sees, host_sees):
    """Reload a phone, the screen and the host in turn, each back where it was before the next goes."""
    phone.reload(phone_sees)
    screen.reload(screen_sees)
    host.reload(host_sees, "[data-testid=room-status][data-state=online]")


def no_page_overflow(device):
    return device.page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


# -- Kartenkampf ------------------------------------------------------------------------------
def kk_choose(device, card):
    device.by("card-%d" % card).click()
    device.by("confirm").click()
    device.page.wait_for_selector("[data-testid=my-choice], [data-testid=reveal-title]")


def kk_hand(device):
    return [int(v) for v in device.page.locator("[data-testid=hand] [data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)")]


def kk_assert_secret(device, my_seat):
    """Return the revealed rounds {round id: {seat: card}}; fail if a card was told before its reveal."""
    revealed = check_frames("kartenkampf", device.frames, my_seat, device.name)
    assert revealed, (device.name, "no reveal received")
    return revealed


def test_kartenkampf_room_with_two_phones_and_an_infoscreen(devices, live_server):
    url = live_server.url
    host, anna, ben, tv, link = room_of_four(devices, url, "kartenkampf", 11)
    for device in (host, anna, ben):
        device.page.wait_for_selector("[data-testid=hand]")
    tv.page.wait_for_selector("[data-testid=chosen-count]")
    assert tv.by("hand").count() == 0 and tv.by("confirm").count() == 0
    assert anna.page.locator(".kk-seat.me").get_attribute("data-seat") == "1"
    # Round 1: Anna chooses first; the screen shows that she has chosen, never what.
    kk_choose(anna, 9)
    tv.page.wait_for_selector("[data-testid=chosen-1][data-chosen=yes]")
    assert tv.by("chosen-0").get_attribute("data-chosen") == "no"
    assert tv.by("chosen-2").get_attribute("data-chosen") == "no"
    assert "1 von 3" in tv.by("chosen-count").inner_text()
    assert tv.by("reveal-sorted").count() == 0
    shot(tv, "kk-screen-choosing")
    shot(anna, "kk-phone-waiting")
    kk_choose(ben, 9)
    kk_choose(host, 4)
    # Both 9s are struck out: the 4 wins 22 points for the host.
    tv.page.wait_for_selector("[data-testid=reveal-sorted] li")
    order = tv.page.locator("[data-testid=reveal-sorted] li").evaluate_all(
        "items => items.map(i => [i.dataset.card, i.dataset.seat, i.className])")
    assert [(card, seat) for card, seat, _ in order] == [("9", "1"), ("9", "2"), ("4", "0")]
    assert "win" in order[2][2] and "tied" in order[0][2] and "tied" in order[1][2]
    assert tv.page.locator("[data-testid=reveal-sorted] li.win [data-testid=round-points]").inner_text() == "+22"
    assert "Host" in tv.by("round-winner").inner_text() or "4" in tv.by("round-winner").inner_text()
    tv.page.wait_for_selector("[data-testid=total-0]:has-text('22')")
    assert "0" in tv.by("total-1").inner_text()
    shot(tv, "kk-screen-reveal")
    for device in (host, anna, ben):
        device.page.wait_for_selector("[data-testid=reveal-title]")
    shot(anna, "kk-phone-reveal")
    for device in (host, anna, ben):
        device.by("next-round").click()
    # Round 2: Ben wins with a unique 10.
    kk_choose(ben, 10)
    kk_choose(host, 2)
    tv.page.wait_for_selector("[data-testid=chosen-0][data-chosen=yes]")
    kk_choose(anna, 3)
    tv.page.wait_for_selector("[data-testid=screen-reveal]:has-text('Runde 2')")
    order = tv.page.locator("[data-testid=reveal-sorted] li").evaluate_all(
        "items => items.map(i => [i.dataset.card, i.dataset.seat])")
    assert order == [["10", "2"], ["3", "1"], ["2", "0"]]
    assert tv.page.locator("[data-testid=reveal-sorted] li.win").get_attribute("data-seat") == "2"
    assert tv.by("round-points").inner_text() == "+15"
    tv.page.wait_for_selector("[data-testid=total-2]:has-text('15')")
    assert no_page_overflow(anna)
    # Rounds 3 to 10 to the final standings, which the screen shows in large type.
    for number in range(3, 11):
        for device in (host, anna, ben):
            device.page.wait_for_selector("[data-testid=reveal-title]:has-text('Runde %d')" % (number - 1))
            device.by("next-round").click()
        kk_choose(anna, kk_hand(anna)[0])
        if number == 3:  # every side reloads once mid-round; Anna's hidden choice stays hers
            reload_each(host, anna, tv, "[data-testid=my-choice]", "[data-testid=chosen-1][data-chosen=yes]",
                        "[data-testid=hand]")
        kk_choose(ben, kk_hand(ben)[-1])
        kk_choose(host, kk_hand(host)[len(kk_hand(host)) // 2])
    tv.page.wait_for_selector("[data-testid=final-headline]")
    for device in (host, anna, ben):
        device.page.wait_for_selector("[data-testid=reveal-title]:has-text('Runde 10')")
        device.by("next-round").click()
        device.page.wait_for_selector("[data-testid=final-headline]")
    shot(tv, "kk-screen-final")
    assert tv.by("final-headline").inner_text() == anna.by("final-headline").inner_text() == "Ben gewinnt!"
    order = lambda device: device.page.locator("[data-testid^=standing-]").evaluate_all(
        "rows => rows.map(r => r.dataset.seat + ' ' + r.querySelector('.score').textContent)")
    assert order(tv) == order(anna) and len(order(tv)) == 3
    assert tv.by("night-point").inner_text() == anna.by("night-point").inner_text() == "1 Spieleabend-Punkt für Ben."
    revealed = kk_assert_secret(anna, 1)
    assert len(revealed) == 10
    assert revealed[0] == {0: 4, 1: 9, 2: 9} and revealed[1] == {0: 2, 1: 3, 2: 10}
    assert kk_assert_secret(ben, 2) == revealed
    assert kk_assert_secret(tv, None) == revealed


# -- Mau-Mau ----------------------------------------------------------------------------------
MM_STATE = """() => {
  const table = document.querySelector('[data-testid=mm-table]');
  const summary = document.querySelector('[data-testid=deal-summary]');
  const players = [...document.querySelectorAll('[data-testid^=player-]')].map(p => p.dataset.cards + '/' + p.dataset.points);
  const top = document.querySelector('[data-testid=discard-top]');
  const pile = document.querySelector('[data-testid=draw-pile]');
  return {phase: summary ? 'between' : (table ? 'play' : 'none'), turn: table ? table.dataset.turn : '',
          sig: [table ? table.dataset.turn : '', players.join(','), top ? top.dataset.card : '',
                pile ? pile.dataset.count : '', summary ? 'between' : ''].join('|')};
}"""


def mm_state(device):
    return device.page.evaluate(MM_STATE)


def mm_move(device):
    """Play as a person would: the first card that may be played (saying Mau with the second-to-last), else draw."""
    hand = device.by("hand").locator("[data-card]")
    playable = device.by("hand").locator("[data-card]:not([aria-disabled=true])")
    if playable.count() == 0:
        device.by("draw-pile").click()
        return
    if hand.count() == 2:
        device.by("mau").click()
        device.page.wait_for_selector("[data-testid=mau][aria-pressed=true]")
    card = playable.first.get_attribute("data-card")
    playable.first.click()
    if card.startswith("J"):
        others = [c for c in hand.evaluate_all("cs => cs.map(c => c.dataset.card)") if c != card and c[0] != "J"]
        device.by("suit-" + (others[0][-1] if others else "H")).click()


def mm_play_deal(seat_devices, host, limit=None):
    """Play the running deal to its end (or `limit` moves), each move on the phone (or host) whose turn it is."""
    moves = 0
    while limit is None or moves < limit:
        state = mm_state(host)
        if state["phase"] == "between":
            return moves
        device = seat_devices[int(state["turn"])]
        device.page.wait_for_function("sig => (%s)().sig === sig" % MM_STATE, arg=state["sig"])
        mm_move(device)
        host.page.wait_for_function("sig => (%s)().sig !== sig" % MM_STATE, arg=state["sig"])
        moves += 1
    return moves


def mm_assert_own_hand_only(device, my_seat, other_hands):
    """No frame to this phone held a card outside its own hand except public ones (the pile, played cards)."""
    return check_frames("maumau", device.frames, my_seat, device.name, other_hands=other_hands)


def mm_hands(device):
    return hands_seen(device.frames)


def test_maumau_room_hands_stay_private_and_players_join_and_leave_between_deals(devices, live_server):
    url = live_server.url
    host, anna, ben, tv, link = room_of_four(devices, url, "maumau", 280)
    for device in (host, anna, ben):
        device.page.wait_for_selector("[data-testid=hand] [data-card]")
    tv.page.wait_for_selector("[data-testid=mm-table]")
    assert tv.by("hand").count() == 0
    assert anna.page.locator("[data-testid=player-1].me").count() == 1
    shot(anna, "mm-phone-play")
    assert no_page_overflow(anna)
    moves = mm_play_deal([host, anna, ben], host, limit=5)
    reload_each(host, anna, tv, "[data-testid=hand] [data-card]", "[data-testid=mm-table]",
                "[data-testid=hand] [data-card]")
    moves += mm_play_deal([host, anna, ben], host)
    assert moves == 15  # seed 280: the host goes out after 15 moves
    for device in (anna, ben, tv):
        device.page.wait_for_selector("[data-testid=deal-summary]")
    shot(anna, "mm-phone-between")
    shot(tv, "mm-screen-between")
    totals = [int(host.by("deal-summary").get_by_test_id("player-%d" % seat).get_attribute("data-points"))
              for seat in range(3)]
    assert mm_assert_own_hand_only(anna, 1, mm_hands(ben)) > moves
    assert mm_assert_own_hand_only(ben, 2, mm_hands(anna)) > moves
    # Ben leaves the room for good (two taps): struck from the table before the next deal.
    ben.by("room-leave").click()
    ben.page.wait_for_selector("[data-testid=room-leave]:has-text('Wirklich')")
    ben.by("room-leave").click()
    ben.page.wait_for_selector("html[data-app-ready] [data-testid=game-maumau]")
    assert "Raum verlassen" in ben.page.locator("#toast").inner_text(), "the home screen says where the room went"
    for device in (host, anna, tv):
        device.page.wait_for_selector("[data-testid=deal-summary] [data-testid=player-2]", state="detached")
        assert "Ben" not in device.by("deal-summary").inner_text()
    # Carl joins between deals: he gets a seat with the worst score so far.
    carl = devices("carl")
    carl.page.goto(url + "/?pace=0#" + link.split("#", 1)[1])
    carl.by("join-name").fill("Carl")
    carl.by("join-seat").click()
    carl.page.wait_for_selector("[data-testid=deal-summary] [data-testid=player-2]")
    worst = max(totals[:2])
    for device in (host, anna, carl, tv):
        device.page.wait_for_selector("[data-testid=deal-summary] [data-testid=player-2][data-points='%d']" % worst)
        name = "Du" if device is carl else "Carl"  # on Carl's phone his row is "Du"
        assert name in device.by("deal-summary").get_by_test_id("player-2").inner_text()
    host.by("next-deal").click()
    host.page.wait_for_selector("[data-testid=hand] [data-card]")
    # Anna and Carl were still reading deal 1's points: the settlement stays on their phones until they go on.
    for device in (anna, carl):
        device.page.wait_for_selector("[data-testid=to-deal]")
        assert "Runde 2 hat schon begonnen" in device.by("deal-started").inner_text()
        assert "Runde 1 ist vorbei" in device.by("deal-summary").inner_text()
        assert device.by("hand").count() == 0 and device.by("next-deal").count() == 0
    shot(anna, "mm-phone-kept-settlement")
    for device in (anna, carl):
        device.by("to-deal").click()
    for device in (host, anna, carl):
        device.page.wait_for_selector("[data-testid=hand] [data-card]")
        assert device.page.locator("[data-testid=player-2][data-points='%d']" % worst).count() == 1
    assert carl.page.locator("[data-testid=player-2].me").count() == 1
    tv.page.wait_for_selector("[data-testid=mm-table] [data-testid=player-2][data-points='%d']" % worst)
    shot(tv, "mm-screen-play")
    assert carl.by("hand").locator("[data-card]").count() == 7
    assert mm_assert_own_hand_only(carl, 2, mm_hands(anna)) > 0
    assert mm_assert_own_hand_only(anna, 1, mm_hands(carl) + mm_hands(ben)) > moves
    assert mm_assert_own_hand_only(tv, None, mm_hands(anna) + mm_hands(ben) + mm_hands(carl)) > moves


# -- Pao De Kuai ------------------------------------------------------------------------------
PDK_STATE = """() => {
  const table = document.querySelector('[data-testid=pdk-table]');
  const seats = [...document.querySelectorAll('[data-testid^=seat-]')].map(s => s.dataset.seat + ':' + s.dataset.cards + ':' + s.dataset.turn);
  const top = document.querySelector('[data-testid=trick-top]');
  return [table ? table.dataset.phase : '', seats.sort().join(','), top ? top.dataset.cards : ''].join('|');
}"""


def pdk_move(device):
    """Pass when passing is allowed, else tap the cards of the longest legal play and play it."""
    device.page.wait_for_selector("[data-testid=hand][data-my-turn=true]")
    if device.by("pass").get_attribute("aria-disabled") == "false":
        device.by("pass").click()
        return
    plays = [play.split() for play in device.by("hand").get_attribute("data-legal").split("|")]
    longest = max(plays, key=len)
    for card in longest:
        device.by("card-" + card).click()
    device.page.wait_for_selector("[data-testid=play]:not([disabled])")
    device.by("play").click()


def pdk_turn(seat_devices, host):
    """Let the seat on turn move on its own device; return 0 once the deal is over, else 1."""
    state = host.page.evaluate(PDK_STATE)
    if state.startswith("settle") or state.startswith("final"):
        return 0
    turn = host.page.locator("[data-testid^=seat-][data-turn=true]").get_attribute("data-seat")
    device = seat_devices[int(turn)]
    device.page.wait_for_function("sig => (%s)() === sig" % PDK_STATE, arg=state)
    pdk_move(device)
    host.page.wait_for_function("sig => (%s)() !== sig" % PDK_STATE, arg=state)
    return 1


def pdk_play_deal(seat_devices, host):
    moves = 0
    while pdk_turn(seat_devices, host):
        moves += 1
    return moves


def pdk_assert_unplayed_cards_stay_hidden(device, my_seat, dealt):
    """No frame to this device held a card of another seat's hand that the seat had not played yet."""
    return check_frames("paodekuai", device.frames, my_seat, device.name, dealt=dealt)


def test_paodekuai_room_unplayed_cards_stay_hidden_from_phones_and_the_screen(devices, live_server):
    url = live_server.url
    host, anna, ben, tv, link = room_of_four(devices, url, "paodekuai", 236, setup=["deals-1"])
    for device in (host, anna, ben):
        device.page.wait_for_selector("[data-testid=hand] [data-card]")
    tv.page.wait_for_selector("[data-testid=pdk-infoscreen]")
    assert tv.by("hand").count() == 0
    state = json.loads(host.page.evaluate("localStorage.getItem('spieleabend.save.paodekuai')"))["state"]
    dealt = [list(hand) for hand in state["hands"]]
    assert [len(hand) for hand in dealt] == [16, 16, 16]
    assert anna.page.locator("[data-testid=seat-1].me").count() == 1
    assert no_page_overflow(anna)
    shot(anna, "pdk-phone-start")
    moves = 0
    for _ in range(3):
        moves += pdk_turn([host, anna, ben], host)
    reload_each(host, anna, tv, "[data-testid=hand] [data-card]", "[data-testid=pdk-infoscreen]",
                "[data-testid=hand] [data-card]")
    on_table = host.page.evaluate(PDK_STATE).split("|", 1)[1]  # the infoscreen has no phase
    tv.page.wait_for_function("sig => (%s)().endsWith(sig)" % PDK_STATE, arg=on_table)
    shot(tv, "pdk-screen-play")
    shot(anna, "pdk-phone-play")
    moves += pdk_play_deal([host, anna, ben], host)
    assert moves == 10  # seed 236: Anna goes out after ten moves
    for device in (host, anna, ben):
        device.page.wait_for_selector("[data-testid=deal-settlement]")
    shot(anna, "pdk-phone-settle")
    for device in (host, anna, ben):
        device.by("next-deal").click()  # "Endwertung": the table had one deal
    for device in (host, anna, ben, tv):
        device.page.wait_for_selector("[data-testid=final-headline]")
    shot(tv, "pdk-screen-final")
    # The screen keeps the last deal's settlement under the standings, without anyone's buttons.
    assert tv.by("deal-settlement").count() == 1 and tv.by("next-deal").count() == 0
    for seat in range(3):
        points = host.by("standing-%d" % seat).get_attribute("data-points")
        assert tv.by("settle-%d" % seat).get_attribute("data-points") == points
    shot(anna, "pdk-phone-final")
    for device, seat in ((anna, 1), (ben, 2), (tv, None)):
        assert pdk_assert_unplayed_cards_stay_hidden(device, seat, dealt) > moves // 2


# -- Golf -------------------------------------------------------------------------------------
def golf_cards_shown(device, seat):
    """Return {position: card} of the positions of a seat's grid that show a card on this device."""
    return golf_grid(device.page, seat)


def golf_assert_only_seen_cards(device, my_seat):
    """No frame to this device held a card it has not seen: not another seat's hidden card, not the stock."""
    return check_frames("golf", device.frames, my_seat, device.name)


def test_golf_room_everyone_peeks_at_once_and_no_phone_learns_a_hidden_card(devices, live_server):
    url = live_server.url
    host, anna, ben, tv, link = room_of_four(devices, url, "golf", 41)
    phones = [host, anna, ben]
    ben.page.evaluate("window.buzzes = []; navigator.vibrate = pattern => { window.buzzes.push(pattern); return true; }")
    # Everyone peeks at the same time, each at its own bottom two only.
    for seat, device in enumerate(phones):
        device.page.wait_for_selector("[data-testid=peek-done]")
        device.page.wait_for_selector("[data-testid=grid-%d] [data-testid=pos-3][data-card]" % seat)
    for seat, device in enumerate(phones):
        assert sorted(golf_cards_shown(device, seat)) == [2, 3], device.name
        for other in range(3):
            if other != seat:
                assert golf_cards_shown(device, other) == {}, (device.name, other)
    tv.page.wait_for_selector("[data-testid=grid-0]")
    assert all(golf_cards_shown(tv, seat) == {} for seat in range(3))
    shot(anna, "golf-phone-peek")
    assert no_page_overflow(anna)
    anna.by("peek-done").click()
    anna.page.wait_for_selector("[data-testid=peek-done]", state="detached")
    assert golf_cards_shown(anna, 1) == {}, "Gemerkt hides her cards (memory aid off)"
    assert sorted(golf_cards_shown(ben, 2)) == [2, 3], "Ben still looks at his"
    ben.by("peek-done").click()
    buzzed = ben.page.evaluate("window.buzzes.length")  # his peek may have buzzed before the watch began
    host.by("peek-done").click()
    # Host: from the stock into position 0. Anna: the discard into position 1. Ben: draws and discards.
    host.page.wait_for_selector("[data-testid=stock]:not([disabled])")
    host.by("stock").click()
    host.page.wait_for_selector("[data-testid=drawn-card][data-card]")
    host.by("grid-0").get_by_test_id("pos-0").click()
    reload_each(host, anna, tv, "[data-testid=whose-turn]:has-text('Du')", "[data-testid=grid-0]",
                "[data-testid=grid-0]")
    assert golf_cards_shown(anna, 1) == {}, "a reload shows nothing she has not seen"
    anna.page.wait_for_selector("[data-testid=whose-turn]:has-text('Du')")
    taken = anna.by("discard-top").get_attribute("data-card")
    anna.by("discard-top").click()
    anna.by("grid-1").get_by_test_id("pos-1").click()
    ben.page.wait_for_selector("[data-testid=stock]:not([disabled])")
    ben.by("stock").click()
    ben.page.wait_for_selector("[data-testid=drawn-card][data-card]")
    drawn = ben.by("drawn-card").get_attribute("data-card")
    assert anna.by("drawn-card").count() == 0
    ben.by("discard-drawn").click()
    # His turn came once and buzzed once: the card he drew is the same turn going on, not a new one.
    assert ben.page.evaluate("window.buzzes.length") == buzzed + 1
    # Everybody saw Anna take her card; nobody but Ben saw his drawn card before it was discarded.
    host.page.wait_for_selector("[data-testid=discard-top][data-card='%s']" % drawn)
    shot(anna, "golf-phone-turn")
    tv.page.wait_for_selector("[data-testid=discard-top][data-card='%s']" % drawn)
    shot(tv, "golf-screen-turn")
    host.page.wait_for_selector("[data-testid=knock]:not([disabled])")
    host.by("knock").click()
    anna.page.wait_for_selector("[data-testid=last-turn-banner]")
    anna.page.wait_for_selector("[data-testid=stock]:not([disabled])")
    anna.by("stock").click()
    anna.page.wait_for_selector("[data-testid=drawn-card][data-card]")
    anna.by("grid-1").get_by_test_id("pos-2").click()
    ben.page.wait_for_selector("[data-testid=whose-turn]:has-text('Du')")
    ben.by("discard-top").click()
    ben.by("grid-2").get_by_test_id("pos-0").click()
    for device in phones + [tv]:
        device.page.wait_for_selector("[data-testid=round-summary]")
    shot(anna, "golf-phone-summary")
    shot(tv, "golf-screen-summary")
    assert taken in anna.by("summary-1").inner_text() or anna.by("summary-1").locator("[data-card='%s']" % taken).count()
    for seat, device in enumerate(phones[1:], start=1):
        assert golf_assert_only_seen_cards(device, seat) >= 8
    assert golf_assert_only_seen_cards(tv, None) >= 8

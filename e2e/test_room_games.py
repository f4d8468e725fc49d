"""Rooms with the other games: Kartenkampf, Mau-Mau, Pao De Kuai and Golf played by a host, phones and a screen.

Each scenario plays as people would (taps on each phone) and then reads every websocket frame each
phone and screen received, to check that none of them ever held something its owner may not see.
Screenshots of a phone and of the infoscreen go to the directory in E2E_SHOTS when it is set.
"""

import json
import os
import re

from e2e.test_rooms import devices, join, table_frames  # noqa: F401  (devices is a fixture)

SHOTS = os.environ.get("E2E_SHOTS")
CARD = re.compile(r"^(10|[2-9JQKA])[HDSC]$")


def shot(device, name):
    if SHOTS:
        device.page.screenshot(path=os.path.join(SHOTS, name + ".png"), full_page=True)


def open_game_room(host, url, game, seed, setup=()):
    """Open a game's start screen on the host, pick the start options, open its room; return the join link."""
    host.page.goto(url + "/?seed=%d&pace=0#/play/%s" % (seed, game))
    host.page.wait_for_selector("html[data-app-ready]")
    for testid in setup:
        host.by(testid).check()
    host.by("open-room").click()
    host.page.wait_for_selector("[data-testid=room-qr][data-ready] svg")
    return host.by("room-link").inner_text()


def start_room(host, places, seats):
    host.page.wait_for_selector("[data-testid=lobby-place-%d]" % places)
    host.by("room-seats-%d" % seats).check()
    host.by("start-room-game").click()


def tables(device):
    """Return the table messages the device received, in order (with the reveals of secret games)."""
    return [data for data in table_frames(device) if data["k"] in ("table", "reveal")]


def cards_in(value):
    """Return every French card named anywhere in a JSON value (also inside actions like "play JC:H mau")."""
    found = []
    if isinstance(value, dict):
        for item in value.values():
            found.extend(cards_in(item))
    elif isinstance(value, list):
        for item in value:
            found.extend(cards_in(item))
    elif isinstance(value, str):
        for token in re.split(r"[\s:|]+", value):
            if CARD.match(token):
                found.append(token)
    return found


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
    """Before a round's reveal, no frame to this device tells another seat's card of that round.

    Return the revealed rounds as {round id: {seat: card}}."""
    frames = tables(device)
    revealed = {}
    for data in frames:
        if data["k"] == "reveal":
            revealed[data["id"]] = {entry[0]: int(entry[1].split()[1]) for entry in data["entries"]}
    assert revealed, (device.name, "no reveal received")
    first_of_round = {}
    seen_reveals = set()
    for data in frames:
        if data["k"] == "reveal":
            seen_reveals.add(data["id"])
            continue
        view, cr = data["view"], data["cr"]
        assert view["seat"] == my_seat and data["seat"] == my_seat, device.name
        round_id = cr["id"]
        assert round_id not in seen_reveals, (device.name, "a table frame of a round after its reveal")
        for digest in cr["commits"].values():
            assert re.match(r"^[0-9a-f]{64}$", digest), (device.name, "a commitment is only a hash")
        # Only finished rounds are in the log and the reveal; nobody's cards of this round are used up yet.
        assert len(view["log"]) == round_id, (device.name, round_id, view["log"])
        assert view["reveal"] is None or view["reveal"]["round"] == round_id
        start = first_of_round.setdefault(round_id, (view["spent"], view["cards_left"]))
        assert (view["spent"], view["cards_left"]) == start, (device.name, "cards of this round left a hand early")
        assert "choices" not in view and "hands" not in view
        mine = view.get("pending") or (("play %d" % view["choice"]) if view.get("choice") else None)
        rest = dict(view, legal=[], pending=None)
        text = json.dumps(rest)
        assert "play " not in text, (device.name, "a choice inside a view")
        if my_seat is None:
            assert "hand" not in view and "choice" not in view and view["legal"] == []
        elif mine is not None and round_id in revealed:
            assert mine == "play %d" % revealed[round_id][my_seat], (device.name, "its own pending choice only")
    return revealed


def test_kartenkampf_room_with_two_phones_and_an_infoscreen(devices, live_server):
    url = live_server.url
    host, anna, ben = devices("host"), devices("anna"), devices("ben")
    tv = devices("tv", landscape=True)
    link = open_game_room(host, url, "kartenkampf", seed=11)
    join(anna, url, link, "Anna")
    join(ben, url, link, "Ben")
    join(tv, url, link, "TV", as_screen=True)
    start_room(host, 2, 3)
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
    revealed = kk_assert_secret(anna, 1)
    assert revealed == {0: {0: 4, 1: 9, 2: 9}, 1: {0: 2, 1: 3, 2: 10}}
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


def mm_play_deal(seat_devices, host):
    """Play the running deal to its end, each move on the phone (or host) whose turn it is."""
    moves = 0
    while True:
        state = mm_state(host)
        if state["phase"] == "between":
            return moves
        device = seat_devices[int(state["turn"])]
        device.page.wait_for_function("sig => (%s)().sig === sig" % MM_STATE, arg=state["sig"])
        mm_move(device)
        host.page.wait_for_function("sig => (%s)().sig !== sig" % MM_STATE, arg=state["sig"])
        moves += 1


def mm_assert_own_hand_only(device, my_seat, other_hands):
    """No frame to this phone held a card outside its own hand except public ones (the pile, played cards)."""
    count = 0
    for data in tables(device):
        view = data["view"]
        assert view["seat"] == my_seat or my_seat is None
        if my_seat is None:
            assert view["hand"] is None and view["legal"] == []
        public = set(cards_in(view["top"])) | set(cards_in(view["events"])) | set(cards_in(view["last_deal"]))
        for event in view["events"]:
            assert set(event) <= {"type", "deal", "starter", "top", "turned", "seat", "card", "mau", "suit", "wanted",
                                  "obligation", "count", "direction", "winner", "points", "totals", "minus", "name",
                                  "skipped"}, event
        rest = {key: value for key, value in view.items() if key not in ("hand", "legal", "top", "events", "last_deal")}
        assert cards_in(rest) == [], (device.name, "cards outside the own hand and the public ones", cards_in(rest))
        assert set(cards_in(view["legal"])) <= set(view["hand"] or []), device.name
        own = sorted(view["hand"] or [])
        for hand in other_hands:
            assert own != hand or len(hand) < 2, (device.name, "another phone's hand", hand)
        count += 1
    return count


def mm_hands(device):
    return [sorted(data["view"]["hand"]) for data in tables(device) if data["view"]["hand"]]


def test_maumau_room_hands_stay_private_and_players_join_and_leave_between_deals(devices, live_server):
    url = live_server.url
    host, anna, ben = devices("host"), devices("anna"), devices("ben")
    link = open_game_room(host, url, "maumau", seed=21)
    join(anna, url, link, "Anna")
    join(ben, url, link, "Ben")
    start_room(host, 2, 3)
    for device in (host, anna, ben):
        device.page.wait_for_selector("[data-testid=hand] [data-card]")
    assert anna.page.locator("[data-testid=player-1].me").count() == 1
    shot(anna, "mm-phone-play")
    moves = mm_play_deal([host, anna, ben], host)
    for device in (anna, ben):
        device.page.wait_for_selector("[data-testid=deal-summary]")
    shot(anna, "mm-phone-between")
    totals = [int(host.by("deal-summary").get_by_test_id("player-%d" % seat).get_attribute("data-points"))
              for seat in range(3)]
    assert mm_assert_own_hand_only(anna, 1, mm_hands(ben)) > moves
    assert mm_assert_own_hand_only(ben, 2, mm_hands(anna)) > moves
    # Ben leaves the room for good (two taps): struck from the table before the next deal.
    ben.by("room-leave").click()
    ben.page.wait_for_selector("[data-testid=room-leave]:has-text('Wirklich')")
    ben.by("room-leave").click()
    ben.page.wait_for_selector("html[data-app-ready] [data-testid=game-maumau]")
    for device in (host, anna):
        device.page.wait_for_selector("[data-testid=deal-summary] [data-testid=player-2]", state="detached")
        assert "Ben" not in device.by("deal-summary").inner_text()
    # Carl joins between deals: he gets a seat with the worst score so far.
    carl = devices("carl")
    carl.page.goto(url + "/?pace=0#" + link.split("#", 1)[1])
    carl.by("join-name").fill("Carl")
    carl.by("join-seat").click()
    carl.page.wait_for_selector("[data-testid=deal-summary] [data-testid=player-2]")
    worst = max(totals[:2])
    for device in (host, anna, carl):
        device.page.wait_for_selector("[data-testid=deal-summary] [data-testid=player-2][data-points='%d']" % worst)
        name = "Du" if device is carl else "Carl"
        assert name in device.by("deal-summary").get_by_test_id("player-2").inner_text()
    host.by("next-deal").click()
    for device in (host, anna, carl):
        device.page.wait_for_selector("[data-testid=hand] [data-card]")
        assert device.page.locator("[data-testid=player-2][data-points='%d']" % worst).count() == 1
    assert carl.page.locator("[data-testid=player-2].me").count() == 1
    assert carl.by("hand").locator("[data-card]").count() == 7
    assert mm_assert_own_hand_only(carl, 2, mm_hands(anna)) > 0
    assert mm_assert_own_hand_only(anna, 1, mm_hands(carl) + mm_hands(ben)) > moves

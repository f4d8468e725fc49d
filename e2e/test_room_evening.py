"""One room for the whole evening (issue 30): a host, two phones and a table screen play several games
without joining again; a latecomer joins between games, one person watches the game of three, a phone
reloads during the switch. Every frame each phone and the screen received is checked game by game
(spieleabend.testing.games_played), and the evening's table on every device agrees with the games played.

Screenshots of the host's lobby, a phone's lobby, a watching phone and the table screen go to the folder
in E2E_SHOTS when it is set.
"""

import os

from e2e.tap_targets import overflowing, small_targets
from e2e.test_accessibility import serious_violations
from e2e.test_room_games import pdk_turn
from spieleabend.testing import Room, check_frames, games_played, join

SHOTS = os.environ.get("E2E_SHOTS")


def shot(device, name, full=True):
    if SHOTS:
        device.page.screenshot(path=os.path.join(SHOTS, name + ".png"), full_page=full)


def kk_hand(device):
    return [int(v) for v in device.page.locator("[data-testid=hand] [data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.card)")]


def kk_choose(device, card):
    device.by("card-%d" % card).click()
    device.by("confirm").click()
    device.page.wait_for_selector("[data-testid=my-choice], [data-testid=reveal-title]")


def play_kartenkampf(players):
    """Play the ten rounds of Kartenkampf, each person on their own device (lowest card first)."""
    for number in range(1, 11):
        if number > 1:
            for device in players:
                device.page.wait_for_selector("[data-testid=reveal-title]:has-text('Runde %d')" % (number - 1))
                device.by("next-round").click()
        for device in players:
            kk_choose(device, kk_hand(device)[0])
    for device in players:
        device.page.wait_for_selector("[data-testid=reveal-title]:has-text('Runde 10')")
        device.by("next-round").click()
        device.page.wait_for_selector("[data-testid=final-headline]")


def play_paodekuai_deal(seat_devices, host):
    """Let the seat on turn move on its own device until the deal is settled."""
    while pdk_turn(seat_devices, host):
        pass


def night_rows(device):
    """Return the evening's table as a device shows it in the room's lobby: {name: (points, games, wins)}."""
    rows = device.page.locator("[data-testid=room-night-table] tbody tr").evaluate_all(
        "rows => rows.map(r => [r.dataset.player, +r.dataset.points, +r.dataset.games, +r.dataset.wins])")
    return dict((name, (points, games, wins)) for name, points, games, wins in rows)


def test_one_room_for_the_whole_evening(devices, live_server):
    url = live_server.url
    room = Room(devices, url, "kartenkampf", phones=2, screen=True, seed=11, seats=3, start=False)
    host, (anna, ben), tv = room.host, room.phones, room.screen
    host.page.wait_for_selector("[data-testid=lobby-place-2]")
    # The table screen is the room's face: code, PIN and QR code, who is in, the next game; no controls.
    tv.page.wait_for_selector("[data-testid=screen-qr][data-ready] svg")
    assert tv.by("screen-code").inner_text() == host.by("room-code").inner_text()
    assert tv.by("screen-pin").inner_text() == host.by("room-pin").inner_text()
    assert tv.by("room-game").inner_text() == "Als Nächstes: Kartenkampf"
    assert tv.page.locator("button").count() == 0
    assert anna.by("room-game").inner_text() == "Als Nächstes: Kartenkampf"
    # The start button is in reach on a 360 px phone without scrolling past the settings.
    box = host.by("start-room-game").bounding_box()
    assert box["y"] + box["height"] <= 740, box
    shot(host, "evening-host-lobby", full=False)
    shot(tv, "evening-screen-lobby", full=False)

    # 1. A whole Kartenkampf: host, Anna, Ben.
    room.start()
    play_kartenkampf([host, anna, ben])
    tv.page.wait_for_selector("[data-testid=final-headline]")

    # 2. The host goes back to the room's lobby and chooses Pao De Kuai (one deal); Carl joins by the same
    # link between games: four people for three seats, so Ben watches this one.
    host.by("new-game").click()
    host.page.wait_for_selector("[data-testid=room-game-paodekuai]")
    for device in (anna, ben, tv):
        device.page.wait_for_selector("[data-testid=room-night-table]")
    host.by("room-game-paodekuai").check()
    for device in (anna, ben, tv):
        device.page.wait_for_selector("[data-testid=room-game][data-game=paodekuai]")
    carl = devices("carl")
    join(carl, url, room.link, "Carl")
    host.page.wait_for_selector("[data-testid=lobby-place-3]")
    host.page.wait_for_selector("[data-testid=too-many]")
    assert "Eine Person zu viel" in host.by("too-many").inner_text()
    assert host.by("start-room-game").is_disabled()
    shot(host, "evening-host-too-many")
    host.by("deals-1").check()
    host.by("watch-place-2").click()
    host.page.wait_for_selector("[data-testid=lobby-place-2][data-watching]")
    assert host.by("start-room-game").is_enabled()
    # The lobby is usable by thumb at 360 px, and by a screen reader.
    assert small_targets(host.page) == [] and overflowing(host.page) == []
    assert overflowing(anna.page) == [] and serious_violations(host.page) == []
    assert serious_violations(anna.page) == [] and serious_violations(tv.page) == []
    shot(anna, "evening-phone-lobby")
    shot(tv, "evening-screen-between", full=False)
    # Anna's phone reloads during the switch: back in the lobby, her place kept.
    anna.reload("[data-testid=room-game][data-game=paodekuai]")
    host.page.wait_for_selector("[data-testid=lobby-place-1] .presence.on")
    host.by("start-room-game").click()
    for device in (host, anna, carl):
        device.page.wait_for_selector("[data-testid=hand] [data-card]")
    tv.page.wait_for_selector("[data-testid=pdk-infoscreen]")
    ben.page.wait_for_selector("[data-testid=watching-note]")
    assert ben.by("hand").count() == 0, "a watching phone shows the table, no hand"
    shot(ben, "evening-phone-watching")
    play_paodekuai_deal([host, anna, carl], host)
    for device in (host, anna, carl):
        device.page.wait_for_selector("[data-testid=deal-settlement]")
        device.by("next-deal").click()
    for device in (host, anna, carl, ben, tv):
        device.page.wait_for_selector("[data-testid=final-headline]")

    # 3. Golf in the same room: everybody follows to its table without joining again; the host stops it
    # for another game ("Anderes Spiel"), which does not count.
    room.phones.append(carl)
    room.next_game("golf")  # the kit's way: "Neue Partie", the game, the seats, start
    assert room.seats == 4 and [device.game_seat for device in room.devices] == [0, 1, 2, 3, None]
    for device in (host, anna, ben, carl, tv):
        device.page.wait_for_selector("[data-testid=grid-0]")
    assert ben.by("watching-note").count() == 0, "Ben plays again"
    host.by("room-lobby").click()
    host.by("room-lobby").click()
    host.page.wait_for_selector("[data-testid=start-room-game]")
    # The host's page reloads between games: the same room's lobby, everybody still in.
    code = host.by("room-code").inner_text()
    host.reload("[data-testid=lobby-place-3]", "[data-testid=room-status][data-state=online]")
    assert host.by("room-code").inner_text() == code
    assert host.by("room-game-golf").is_checked(), "the next game is still the one chosen"

    # The evening's table: the host's Ergebnisse, on every phone and the screen.
    for device in (anna, ben, carl, tv):
        device.page.wait_for_selector("[data-testid=room-waiting]")
        device.page.wait_for_selector("[data-testid=room-night-table]")
    expected = night_rows(anna)
    stored = host.page.evaluate("JSON.parse(localStorage.getItem('spieleabend.results') || '{}')")
    assert sorted(entry["game"] for entry in stored["results"]) == ["kartenkampf", "paodekuai"], \
        "the host's Ergebnisse hold the two finished games, not the stopped Golf"
    assert night_rows(ben) == night_rows(carl) == night_rows(tv) == expected
    games = dict((name, games) for name, (points, games, wins) in expected.items())
    assert games["Anna"] == games["Carl"] + 1 == 2 and games["Ben"] == 1, games
    assert sum(points for points, games, wins in expected.values()) <= 2, "at most one point a game"
    shot(tv, "evening-screen-after", full=False)
    shot(anna, "evening-phone-after")

    # Every frame each device received, game by game: nothing its seat may not see.
    for device, seats in ((anna, [1, 1, 1]), (ben, [2, None, 2]), (carl, [2, 3]), (tv, [None, None, None])):
        parts = games_played(device.frames)
        expected_games = ["kartenkampf", "paodekuai", "golf"][-len(seats):]
        assert [(game, seat) for game, seat, _ in parts] == list(zip(expected_games, seats)), device.name
        for game, seat, frames in parts:
            assert check_frames(game, frames, seat, device.name)
    assert devices.errors() == []

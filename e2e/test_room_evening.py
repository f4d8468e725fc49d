"""One room for the whole evening (issue 30): a host, two phones and a table screen play several games
without joining again: a whole Kartenkampf, a whole Golf with a latecomer who joined between games, a Pao De
Kuai of three with one person watching, and a game stopped for another, which does not count. The latecomer's
join link names the game the room plays at each moment, also after the host changed it. A phone reloads
during the switch. Every frame each phone and the screen received is checked game by game
(spieleabend.testing.games_played, Room.check_secrets), and the evening's table on every device agrees with
the games played.

Screenshots of the host's lobby, a phone's lobby and join screen, a watching phone and the table screen go
to the folder in E2E_SHOTS when it is set.
"""

import json
import os

from e2e.tap_targets import overflowing, small_targets
from e2e.test_accessibility import serious_violations
from e2e.test_kit import choose_a_card, go_on, golf_move, paodekuai_move, play_to_the_end
from spieleabend.testing import Room, check_frames, games_played, save_screenshot

SHOTS = os.environ.get("E2E_SHOTS")


def shot(device, name, full=True):
    if SHOTS:
        save_screenshot(device.page, os.path.join(SHOTS, name + ".png"), full_page=full)


def night_rows(device):
    """Return the evening's table as a device shows it in the room's lobby: {name: (points, games, wins)}."""
    rows = device.page.locator("[data-testid=room-night-table] tbody tr").evaluate_all(
        "rows => rows.map(r => [r.dataset.player, +r.dataset.points, +r.dataset.games, +r.dataset.wins])")
    return dict((name, (points, games, wins)) for name, points, games, wins in rows)


def open_link(device, url, link):
    """Open the join link afresh on a device; return what its join screen says the room plays (and, while a
    game runs, when the person would play)."""
    device.page.goto("about:blank")
    device.page.goto(url + "/?pace=0#" + link.split("#", 1)[1])
    device.page.wait_for_selector("[data-testid=join-game]")
    when = device.by("join-when")
    return device.by("join-game").inner_text(), when.inner_text() if when.count() else None


def finish(room):
    """Play the room's game to its end with the kit's mover and wait until every device shows the final standings."""
    for device in room.devices:
        device.wait("[data-testid=final-headline], [data-testid=next-round], [data-testid=next-deal]")
        go_on(device)
        device.wait("[data-testid=final-headline]")


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
    # Carl got the link early: before he joins, the join screen names the game the room will play.
    carl = devices("carl")
    assert open_link(carl, url, room.link)[0] == "Als Nächstes: Kartenkampf"
    assert carl.by("join-game").get_attribute("data-running") == "no"
    assert small_targets(carl.page) == [] and overflowing(carl.page) == []
    shot(carl, "evening-join-next")

    # 1. A whole Kartenkampf: host, Anna, Ben. The link now says it is being played, and when Carl would play.
    room.start()
    assert open_link(carl, url, room.link) == ("Gerade läuft: Kartenkampf",
                                                "Du schaust zu und spielst ab der nächsten Partie mit.")
    shot(carl, "evening-join-running")
    play_to_the_end(room, choose_a_card)
    finish(room)

    # 2. The host goes back to the room's lobby and chooses Golf: Carl's old link says Golf now, and he joins
    # by it between games. A whole Golf of four (nine rounds, everyone knocks at once).
    host.by("new-game").click()
    host.page.wait_for_selector("[data-testid=room-game-golf]")
    for device in (anna, ben, tv):
        device.page.wait_for_selector("[data-testid=room-night-table]")
    host.by("room-game-golf").check()
    for device in (anna, ben, tv):
        device.page.wait_for_selector("[data-testid=room-game][data-game=golf]")
    assert open_link(carl, url, room.link)[0] == "Als Nächstes: Golf"
    carl.by("join-name").fill("Carl")
    carl.by("join-seat").click()
    carl.page.wait_for_selector("[data-testid=room-game][data-game=golf]")
    host.page.wait_for_selector("[data-testid=lobby-place-3]")
    room.phones.append(carl)
    room.next_game("golf")  # the kit's way: the game, the seats, start
    assert room.seats == 4 and [device.game_seat for device in room.devices] == [0, 1, 2, 3, None]
    play_to_the_end(room, golf_move, limit=800)
    finish(room)
    assert host.scores() == anna.scores() == carl.scores() == tv.scores()

    # 3. Pao De Kuai (one deal) is for exactly three: four people are one too many until Ben watches.
    host.by("new-game").click()
    host.page.wait_for_selector("[data-testid=room-game-paodekuai]")
    host.by("room-game-paodekuai").check()
    for device in (anna, ben, carl, tv):
        device.page.wait_for_selector("[data-testid=room-game][data-game=paodekuai]")
    host.page.wait_for_selector("[data-testid=too-many]")
    assert "Eine Person zu viel" in host.by("too-many").inner_text()
    assert host.by("start-room-game").is_disabled()
    shot(host, "evening-host-too-many")
    # The lobby is usable by thumb at 360 px, and by a screen reader.
    assert small_targets(host.page) == [] and overflowing(host.page) == []
    assert overflowing(anna.page) == [] and serious_violations(host.page) == []
    assert serious_violations(anna.page) == [] and serious_violations(tv.page) == []
    shot(anna, "evening-phone-lobby")
    shot(tv, "evening-screen-between", full=False)
    # Anna's phone reloads during the switch: back in the lobby, her place kept.
    anna.reload("[data-testid=room-game][data-game=paodekuai]")
    host.page.wait_for_selector("[data-testid=lobby-place-1] .presence.on")
    room.next_game("paodekuai", setup=("deals-1",), watching=(ben,))
    assert [device.game_seat for device in room.devices] == [0, 1, None, 2, None]
    tv.page.wait_for_selector("[data-testid=pdk-infoscreen]")
    ben.page.wait_for_selector("[data-testid=watching-note]")
    assert ben.by("hand").count() == 0, "a watching phone shows the table, no hand"
    shot(ben, "evening-phone-watching")
    play_to_the_end(room, paodekuai_move)
    finish(room)

    # 4. A Mau-Mau started and stopped for another game ("Anderes Spiel"): it does not count.
    room.next_game("maumau")
    assert ben.by("watching-note").count() == 0, "Ben plays again"
    host.by("room-menu").click()
    host.by("room-lobby").click()
    host.by("room-lobby").click()
    host.page.wait_for_selector("[data-testid=start-room-game]")
    # The host's page reloads between games: the same room's lobby, everybody still in.
    code = host.by("room-code").inner_text()
    host.reload("[data-testid=lobby-place-3]", "[data-testid=room-status][data-state=online]")
    assert host.by("room-code").inner_text() == code
    assert host.by("room-game-maumau").is_checked(), "the next game is still the one chosen"

    # The evening's table: the host's Ergebnisse, on every phone and the screen.
    for device in (anna, ben, carl, tv):
        device.page.wait_for_selector("[data-testid=room-waiting]")
        device.page.wait_for_selector("[data-testid=room-night-table]")
    expected = night_rows(anna)
    stored = host.page.evaluate("JSON.parse(localStorage.getItem('spieleabend.results') || '{}')")
    assert sorted(entry["game"] for entry in stored["results"]) == ["golf", "kartenkampf", "paodekuai"], \
        "the host's Ergebnisse hold the three finished games, not the stopped Mau-Mau"
    assert night_rows(ben) == night_rows(carl) == night_rows(tv) == expected
    games = dict((name, games) for name, (points, games, wins) in expected.items())
    assert games["Anna"] == 3 and games["Ben"] == 2 and games["Carl"] == 2, games
    assert sum(points for points, games, wins in expected.values()) <= 3, "at most one point a game"
    shot(tv, "evening-screen-after", full=False)
    shot(anna, "evening-phone-after")

    # Every frame each device received, game by game: nothing its seat may not see.
    for device, seats in ((anna, [1, 1, 1, 1]), (ben, [2, 2, None, 2]), (carl, [3, 2, 3]), (tv, [None] * 4)):
        parts = games_played(device.frames)
        played = ["kartenkampf", "golf", "paodekuai", "maumau"][-len(seats):]
        assert [(game, seat) for game, seat, _ in parts] == list(zip(played, seats)), device.name
        for game, seat, frames in parts:
            assert check_frames(game, frames, seat, device.name)
    assert set(room.check_secrets()) == {"anna", "ben", "carl", "screen"}

    # The host goes home between games: its home screen leads back into the room the phones wait in.
    host.by("nav-home").click()
    host.by("room-rejoin").click()
    host.page.wait_for_selector("[data-testid=lobby-place-3]")
    assert night_rows(host) == expected, "the host's lobby shows tonight's table too"
    # The evening ends from the lobby (two taps), and every device keeps tonight's table on its last screen.
    host.by("end-room").click()
    assert "Noch einmal tippen" in host.by("end-room").inner_text()
    host.by("end-room").click()
    for device in (host, anna, ben, carl, tv):
        device.page.wait_for_selector("[data-testid=room-night-table]")
        assert device.by("room-final").count() == 0, "no game was under way when the evening ended"
        assert night_rows(device) == expected, device.name
    assert devices.errors() == []


def test_a_phone_that_joins_during_mau_mau_watches_it_at_a_phones_width(devices, live_server):
    """Dora joins while Mau-Mau runs and watches: the public table fits her 360 px phone, in German and English
    (it came in the TV's sizes, 562 px wide, names and the limit cut off at the right)."""
    url = live_server.url
    room = Room(devices, url, "maumau", phones=1, screen=False, seed=3, seats=3)
    room.host.wait("[data-testid=hand]")
    for name, locale in (("dora", "de-DE"), ("eve", "en-US")):
        late = devices(name, locale=locale)
        open_link(late, url, room.link)
        late.by("join-name").fill(name.title())
        late.by("join-seat").click()
        late.page.wait_for_selector("[data-testid=mm-table]")
        assert late.page.evaluate("document.documentElement.scrollWidth") <= 360
        assert overflowing(late.page) == [], name
        shot(late, "evening-watching-maumau-" + name)
    room.check_secrets()


def test_phones_go_on_from_a_stopped_punktejagd_to_the_next_game(devices, live_server):
    """The old game's screen on a phone once heard the next game's first view (KeyError 'plan' on every phone).
    A host, two phones and a table screen; each side reloads once; no device got what its seat may not see."""
    room = Room(devices, live_server.url, "punktejagd", phones=2, screen=True, seed=5, seats=3)
    host, (anna, ben), tv = room.host, room.phones, room.screen
    for device in room.players:  # one round each, then the host stops the game for another
        device.wait("[data-testid=hand]")
        choose_a_card(device)
    anna.wait("[data-testid=next-round], [data-testid=reveal-title]")
    anna.reload("[data-testid=next-round], [data-testid=reveal-title]")
    tv.reload("[data-testid=screen-reveal]")
    host.by("room-menu").click()
    host.by("room-lobby").click()
    host.by("room-lobby").click()
    host.page.wait_for_selector("[data-testid=start-room-game]")
    room.next_game("golf")
    for device in room.devices:
        assert device.page.get_by_test_id("failure").count() == 0, device.name
        assert device.console_errors() == [], device.name
    anna.wait("[data-testid=grid-%d]" % anna.game_seat)
    host.reload("[data-testid=grid-%d]" % host.game_seat)
    ben.reload("[data-testid=grid-%d]" % ben.game_seat)
    for device in room.devices:
        assert device.page.get_by_test_id("failure").count() == 0, device.name
    room.check_secrets()



def test_a_newcomer_after_someone_left_watches_and_never_receives_their_cards(devices, live_server):
    """Anna leaves Golf for good; Quentin joins by the link and is given Anna's old relay number. He watches
    (a family evening found him holding Anna's cards and playing her turns), and no frame of his has a card
    of Anna's or anyone's that the table does not show."""
    url = live_server.url
    room = Room(devices, url, "golf", phones=2, screen=False, seed=4, seats=3)
    anna = room.phones[0]
    anna.wait("[data-testid=room-leave]")
    anna.by("room-leave").click()
    anna.by("room-leave").click()  # the second tap confirms
    room.host.page.wait_for_selector("text=Anna hat den Raum verlassen")
    quentin = devices("quentin")
    open_link(quentin, url, room.link)
    quentin.by("join-name").fill("Quentin")
    quentin.by("join-seat").click()
    quentin.wait("[data-testid=watching-note]")
    assert quentin.by("hand").count() == 0 and quentin.seat() is None
    assert quentin.page.locator("html").get_attribute("data-seat") == ""
    check_frames("golf", quentin.frames, None, "quentin")
    tables = [json.loads(frame)["data"] for frame in quentin.frames if '"k": "table"' in frame or '"k":"table"' in frame]
    assert tables and all(table["seat"] is None for table in tables), "only the table's public view"

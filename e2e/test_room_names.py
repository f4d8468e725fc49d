"""Names in a room, in real Chromium: a second "Anna" is asked for another name (German and English), Anna's
own reload is no second Anna, and the host is in every list of who is in the room."""

from spieleabend.testing import join, open_room

TAKEN_DE = "Den Namen „Anna“ hat schon jemand in diesem Raum"
TAKEN_EN = "Someone in this room already has the name “Anna”"


def try_to_join(device, url, link, name):
    """Open the join link, type `name` and tap "Mitspielen" (the kit's join, without waiting to be in)."""
    device.page.goto(url + "/?pace=0#" + link.split("#", 1)[1])
    device.page.wait_for_selector("[data-testid=join-name]")
    device.by("join-name").fill(name)
    device.by("join-seat").click()


def test_a_second_anna_is_asked_for_another_name_and_the_host_is_listed(devices, live_server):
    url = live_server.url
    host, anna, other, english = devices("host"), devices("anna"), devices("other"), devices("en", locale="en-GB")
    tv = devices("tv", landscape=True)
    link = open_room(host, url, "golf")
    host.by("room-host-name").fill("Hosti")
    host.by("room-host-name").press("Tab")  # the name is typed: the phones' lists follow
    join(anna, url, link, "Anna")
    join(tv, url, link, "TV", as_screen=True)
    host.page.wait_for_selector("[data-testid=lobby-place-1]")

    # The host is listed under "Im Raum" on the phone and on the table screen, and in its own lobby.
    anna.page.wait_for_selector("[data-testid=room-host]:has-text('Hosti')")
    people = anna.by("room-people").inner_text()
    assert people.index("Hosti") < people.index("Anna") and "Gastgeber" in people
    assert "Im Raum" in anna.page.locator(".room-wait").inner_text()
    tv.page.wait_for_selector("[data-testid=room-face] [data-testid=room-host]:has-text('Hosti')")
    assert "Gastgeber" in host.by("lobby-host").inner_text() and "Hosti" in host.by("lobby-host").inner_text()

    # A second phone as " anna ": told the name is taken, its name field ready for another; nobody saw it.
    try_to_join(other, url, link, " anna ")
    other.page.wait_for_selector("[data-testid=join-error]")
    assert TAKEN_DE in other.by("join-error").inner_text(), "the name as the room has it"
    assert other.page.evaluate("document.activeElement && document.activeElement.dataset.testid") == "join-name"
    assert other.by("join-name").input_value() == "anna"
    assert host.page.locator("[data-testid^=lobby-place-]").count() == 1
    assert anna.by("room-people").inner_text().lower().count("anna") == 1
    # In English too, and case aside.
    try_to_join(english, url, link, "ANNA")
    english.page.wait_for_selector("[data-testid=join-error]")
    assert TAKEN_EN in english.by("join-error").inner_text()

    # Another name joins; Anna's reload takes her own place back (no second Anna, no "taken").
    other.by("join-name").fill("Anna B.")
    other.by("join-seat").click()
    other.page.wait_for_selector("[data-testid=room-waiting]")
    host.page.wait_for_selector("[data-testid=lobby-place-2]:has-text('Anna B.')")
    anna.reload("[data-testid=room-waiting]")
    host.page.wait_for_selector("[data-testid=lobby-place-1] .presence.on")
    assert anna.by("join-error").count() == 0
    assert host.page.locator("[data-testid^=lobby-place-]").count() == 2
    anna.page.wait_for_selector("[data-testid=room-people]:has-text('Anna B.')")
    assert anna.by("room-people").locator(".room-place").count() == 3, "Hosti, Anna and Anna B."

    # The host cannot start under a phone's name either.
    host.by("room-host-name").fill("anna")
    host.by("start-room-game").click()
    assert "„Anna“ ist schon im Raum" in host.by("host-name-error").inner_text()
    host.by("room-host-name").fill("Hosti")
    host.by("room-seats-3").check()
    host.by("start-room-game").click()
    for device in (host, anna, other):
        device.page.wait_for_selector("html[data-turn]", state="attached")
    assert anna.seat() == 1 and other.seat() == 2

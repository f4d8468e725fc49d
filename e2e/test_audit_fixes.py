"""What a person saw wrong while playing at phone size, and the checks that keep it mended.

- The tools under a table ("Rundenprotokoll", "Was wurde schon gespielt?") are two to a row, 160 px wide at
  360 px: a long word ran over the button's padding up to its border.
- Mau-Mau's final standings come with the last card, not after a tap at the top of the screen: the page stayed
  where the hand had been, and the person saw the last deal's table instead of who won.
- A replay of a large table (eight seats) had its words ("Emil legt 8.") at the top and the step buttons a
  screen further down: after a tap on ▶ what it did was out of sight.
- A join link to a room that is gone (or with a wrong secret) said so, but kept the name field and Mitspielen,
  which could only fail again: no way on but the home screen.
- A replay wrote Pao De Kuai's and Mau-Mau's scores as bare numbers ("-7 Pkt.", "33 Pkt.") where the table and
  the Ergebnisse say −7 / +9 and −33.
- In a room game the bar's buttons ("Verlassen") were 36 px high, and a phone's final standings did not say that
  the host starts the next game and the phone follows by itself.
- Golf's Tipp badge on the open card (11 px above it) covered the bottom of the "Stapel" label at 360 px.
- Mau-Mau's "Deine Karten (7)" (and "(12)") wrapped its count onto a second line beside Tipp and Mau! at 360 px
  (and at 320 px).
- "Auf anderes Gerät übertragen" with no saved game, or on the host of a room's game, offered only the home screen.
- The host's room bar took two rows of the sticky bar for the whole game at 360 px, a phone's at 320 px.
- The room lobby's game choices left "Kartenkampf" 3 px to its borders at 360 px, 2 at 320.
- The Ergebnisse' link to a game's evening was a 21 px line of text; at 320 px the evening's table ran past its
  panel.
- Golf's tiles of the other seats cut a name of nine letters ("Gastgeber"); Pao De Kuai's seats cut "Gastgeber"
  and "Maximilian", and every small card back was padded to 44 px high by the "‹ Startseite" button's rule.
"""

import pytest

from spieleabend.testing import MY_TURN, ConsoleWatch, open_app, open_room, phone_context, start_solo
from e2e.tap_targets import MIN_WORD_GAP, WORD_GAPS, small_targets

GAMES = ["punktejagd", "kartenkampf", "maumau", "paodekuai", "golf"]



def in_view(page, testid):
    """Return True when the element lies wholly inside the viewport."""
    box = page.get_by_test_id(testid).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
def test_the_tools_under_every_table_keep_their_words_inside(browser, live_server, locale):
    context = phone_context(browser, locale=locale, has_touch=True)
    try:
        page = context.new_page()
        watch = ConsoleWatch(page)
        for game in GAMES:
            start_solo(page, live_server.url, game, [], seed=7, shown="html[data-turn]")
            page.wait_for_selector(".tools .btn")
            gaps = page.evaluate(WORD_GAPS, "#app .tools .btn")
            assert len(gaps) >= 2, (game, gaps)
            tight = [(testid, text, round(gap, 1)) for testid, text, gap in gaps if gap < MIN_WORD_GAP]
            assert tight == [], "%s (%s): words running up to the button's border: %s" % (game, locale, tight)
        assert watch.errors == []
    finally:
        context.close()


def maumau_move(page):
    """Play the first card that may be played (Mau with the second-to-last, hearts for a jack), else draw."""
    if page.get_by_test_id("next-deal").count():
        page.get_by_test_id("next-deal").click()
        return
    playable = page.locator("[data-testid=hand] [data-card]:not([aria-disabled=true])")
    if playable.count() == 0:
        page.get_by_test_id("draw-pile").click()
        return
    if page.locator("[data-testid=hand] [data-card]").count() == 2:
        page.get_by_test_id("mau").click()
    card = playable.first.get_attribute("data-card")
    playable.first.click(position={"x": 8, "y": 24})  # a long hand is fanned: the card's uncovered corner
    if card.startswith("J"):
        page.get_by_test_id("suit-H").click()


def test_maumau_final_standings_open_at_who_won(page, live_server):
    start_solo(page, live_server.url, "maumau", ["seats-5", "limit-30"], seed=1,
               shown="[data-testid=hand] [data-card]")
    for _ in range(400):
        page.wait_for_selector(MY_TURN + ", html[data-turn=over]", state="attached")
        if page.locator("html[data-turn=over]").count():
            break
        # A person scrolls down to the hand (five seats, the feed and the hand are longer than the screen).
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        maumau_move(page)
    page.wait_for_selector("[data-testid=final-headline]")
    assert in_view(page, "final-headline"), "the final opened at scrollY %s, its headline out of sight" % (
        page.evaluate("scrollY"))
    assert in_view(page, "standing-%s" % page.get_by_test_id("final").locator(".standing").first.get_attribute(
        "data-seat"))


def test_a_replay_keeps_its_words_beside_the_step_buttons_on_a_large_table(page, live_server):
    start_solo(page, live_server.url, "kartenkampf", ["seats-8"], seed=11)
    for _ in range(10):
        page.wait_for_selector(MY_TURN, state="attached")
        page.locator("[data-testid=hand] button[data-card]").first.click()
        page.get_by_test_id("confirm").click()
        page.wait_for_selector("[data-testid=reveal-sorted]")
        page.get_by_test_id("next-round").click()
    page.wait_for_selector("[data-testid=final-headline]")
    page.get_by_test_id("to-results").click()
    page.get_by_test_id("result-watch").first.click()
    page.wait_for_selector("[data-testid=replay-step]")
    assert in_view(page, "replay-forward") and in_view(page, "replay-words"), "as dealt"
    for number in range(1, 6):
        page.get_by_test_id("replay-forward").click()
        assert page.get_by_test_id("replay-step").get_attribute("data-step") == str(number)
        assert in_view(page, "replay-words") and in_view(page, "replay-forward"), \
            "step %d: what ▶ did is out of sight (words at %s)" % (number, page.get_by_test_id("replay-words").bounding_box())
        assert in_view(page, "replay-step")
    # The dock at the foot covers no control: every one can still be tapped whole.
    assert small_targets(page) == []


def test_a_join_link_that_cannot_join_leads_on_to_code_and_pin(devices, live_server):
    """A dead link showed "Diesen Raum gibt es nicht (mehr)" above a name field and Mitspielen, which could only
    fail again; now it says what to do and leads to typing code and PIN."""
    phone = devices("anna")
    phone.page.goto(live_server.url + "/#/join/XXXXXX.abcdefghijklmnop")
    phone.wait("[data-testid=join-link-error]")
    assert phone.by("join-name").count() == 0 and phone.by("join-seat").count() == 0
    assert phone.by("join-screen").count() == 0
    assert "Gastgeber" in phone.page.locator("main").inner_text()
    phone.by("join-by-code").click()
    phone.wait("[data-testid=join-pin]")
    assert phone.by("join-code").input_value() == "", "a room that is gone: its code is no help"
    # A link with a wrong secret to a room that is there: the code stays, the PIN from the host's screen joins.
    host = devices("host")
    link = open_room(host, live_server.url, "golf")
    code = link.split("#/join/")[1].split(".")[0]
    phone.page.goto(live_server.url + "/#/join/%s.%s" % (code, "x" * 16))
    phone.wait("[data-testid=join-link-error]")
    assert phone.by("join-seat").count() == 0
    phone.by("join-by-code").click()
    phone.wait("[data-testid=join-pin]")
    assert phone.by("join-code").input_value() == code
    phone.by("join-pin").fill(host.by("room-pin").inner_text().strip())
    phone.by("join-name").fill("Anna")
    phone.by("join-seat").click()
    phone.wait("[data-testid=room-waiting]")


def paodekuai_move(page):
    """Pass when allowed, else the first legal play."""
    if page.get_by_test_id("next-deal").count():
        page.get_by_test_id("next-deal").click()
        return
    if page.get_by_test_id("pass").get_attribute("aria-disabled") == "false":
        page.get_by_test_id("pass").click()
        return
    for card in page.get_by_test_id("hand").get_attribute("data-legal").split("|")[0].split():
        page.get_by_test_id("card-" + card).click()
    page.get_by_test_id("play").click()


def test_a_replay_writes_the_scores_as_the_game_and_the_results_do(page, live_server):
    """Pao De Kuai's replay said "-7 Pkt." and "9 Pkt." where its table and the Ergebnisse say −7 and +9."""
    start_solo(page, live_server.url, "paodekuai", ["deals-1"], seed=3)
    for _ in range(200):
        page.wait_for_selector(MY_TURN + ", html[data-turn=over]", state="attached")
        if page.locator("html[data-turn=over]").count():
            page.get_by_test_id("next-deal").click()  # "Endwertung"
            break
        paodekuai_move(page)
    page.wait_for_selector("[data-testid=final-headline]")
    page.get_by_test_id("to-results").click()
    said = page.locator("[data-testid=result-item]").first.inner_text()
    page.get_by_test_id("result-watch").first.click()
    page.wait_for_selector("[data-testid=replay-step]")
    page.get_by_test_id("replay-end").click()
    texts = page.locator(".replay-score").all_inner_texts()
    assert len(texts) == 3 and not any("-" in text for text in texts), texts
    for text in texts:
        number = text.split()[0]
        assert number == "0" or number[0] in "+−", texts
        assert number == "0" or number in said, (number, said)


def play_kartenkampf_to_its_final(played):
    """Choose a card on whichever device's turn it is until every player sees the final standings."""
    from e2e.test_kit import choose_a_card, play_to_the_end

    play_to_the_end(played, choose_a_card)
    for device in played.players:
        device.wait("[data-testid=final-headline], [data-testid=next-round]")
        if device.by("next-round").count():
            device.by("next-round").click()
        device.wait("[data-testid=final-headline]")


def test_a_phone_in_a_room_has_thumb_sized_room_buttons_and_is_told_what_comes_after_a_game(room):
    """The room bar's "Verlassen" / "Anderes Spiel" / "Raum beenden" were 36 px high; a phone's final standings had
    only "Ergebnisse", nothing said that the host starts the next game and that the phone follows by itself."""
    played = room("kartenkampf", phones=1, screen=False, seed=3)
    anna = played.phones[0]
    anna.wait_for_my_turn()
    assert small_targets(anna.page) == [], "a phone in a room game"
    played.host.wait_for_my_turn()
    assert small_targets(played.host.page) == [], "the host in a room game"
    assert anna.by("next-by-host").count() == 0, "only once the game is over"
    play_kartenkampf_to_its_final(played)
    note = anna.by("next-by-host")
    assert note.is_visible() and "startet der Gastgeber" in note.inner_text()
    assert anna.by("new-game").count() == 0
    assert played.host.by("next-by-host").count() == 0, "the host starts it: its own Neue Partie"
    assert small_targets(anna.page) == []
    played.host.by("new-game").click()
    anna.wait("[data-testid=room-waiting]")


def test_golfs_tipp_badge_on_the_discard_pile_leaves_the_stocks_label_readable(page, live_server):
    """Tipp on the open card puts its badge 11 px above the card (and a 3 px outline 2 px off it): at 360 px it
    covered the bottom of the "Stapel" label above."""
    start_solo(page, live_server.url, "golf", ["seats-4"], 3, shown="[data-testid=discard-top]")
    # Both boxes in one go: a computer's move may redraw the table between two separate reads (the first
    # read then measured a label already taken out of the page).
    label, discard = page.evaluate("""() => ['.g-pile-label', '[data-testid=discard-top]'].map(selector => {
        const box = document.querySelector(selector).getBoundingClientRect();
        return {y: box.top, height: box.height};
    })""")
    overhang = 11 + 2  # the badge's top (app.css [data-hinted]::after) and the outline's offset
    assert discard["y"] - overhang >= label["y"] + label["height"], (label, discard)


@pytest.mark.parametrize("width", [360, 320])
@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
def test_maumaus_hand_heading_stays_on_one_line_beside_tipp_and_mau(browser, live_server, locale, width):
    """ "Deine Karten (7)" wrapped its count under itself beside Tipp and Mau! at 360 px, and so did
    "Deine Karten (12)" after that; at 320 px both wrapped until the buttons there were made narrower."""
    from e2e.prepared_games import document, new_state, open_saved

    context = phone_context(browser, locale=locale, viewport={"width": width, "height": 640})
    page = context.new_page()
    start_solo(page, live_server.url, "maumau", ["seats-3"], 1)
    heading_lines = """() => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector('#mm-hand-h'));
      return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
    }"""
    assert page.evaluate(heading_lines) == 1
    assert small_targets(page, ".mm-hand-head .btn") == []
    state = new_state("maumau", seats=4)
    while len(state["hands"][0]) < 12:  # a person who drew five
        state["hands"][0].append(state["stock"].pop())
    open_saved(page, live_server.url, document("maumau", state), "[data-testid=hand]")
    assert "(12)" in page.locator("#mm-hand-h").inner_text()
    assert page.evaluate(heading_lines) == 1
    context.close()


def test_moving_a_game_that_is_not_saved_offers_the_ways_on(page, live_server):
    """"Auf anderes Gerät übertragen" with no saved game (an old link, a finished game) offered only the home
    screen: it now starts that game anew or opens one from another device."""
    open_app(page, live_server.url, "transfer/golf")
    assert page.get_by_test_id("transfer-none").inner_text() == "Von Golf ist kein Spiel gespeichert."
    assert small_targets(page, "[data-testid=transfer-new-game], [data-testid=transfer-open]") == []
    page.get_by_test_id("transfer-new-game").click()
    page.wait_for_url("**/#/play/golf")
    page.get_by_test_id("start-game").wait_for()
    open_app(page, live_server.url, "transfer/golf")
    page.get_by_test_id("transfer-open").click()
    page.wait_for_url("**/#/open")
    page.get_by_test_id("transfer-input").wait_for()


def test_moving_a_rooms_game_leads_back_to_the_room(room):
    """"Auf anderes Gerät übertragen" on the host of a room's game (an old link, a bookmark) said the game stays
    in the room, with no way but the home screen: it now leads back to the room's game."""
    played = room("kartenkampf", phones=1, screen=False, seed=3)
    host = played.host
    host.wait_for_my_turn()
    host.page.evaluate("location.hash = '#/transfer/kartenkampf'")
    assert "läuft in einem Raum" in host.by("transfer-none").inner_text()
    assert host.by("transfer-file").count() == 0 and host.by("transfer-make-code").count() == 0
    assert small_targets(host.page, "[data-testid=transfer-room]") == []
    host.by("transfer-room").click()
    host.wait_for_my_turn()
    assert host.page.locator(".room-bar").count() == 1, "the room's game, not a solo one"
    anna = played.phones[0]
    anna.wait_for_my_turn()


# The rows of the room bar: it centres each row's items, so one centre (to 4 px) per row.
BAR_ROWS = """() => new Set([...document.querySelector('.room-bar').children]
  .filter(e => e.getClientRects().length).map(e => { const r = e.getBoundingClientRect();
    return Math.round((r.top + r.bottom) / 8); })).size"""


def test_the_hosts_room_bar_keeps_to_one_row_until_its_buttons_are_wanted(room):
    """The host's sticky bar held the status and two buttons ("Anderes Spiel", "Raum beenden") in two rows at
    360 px for the whole game: the buttons now wait behind "Raum ▾"."""
    played = room("kartenkampf", phones=1, screen=False, seed=3)
    host = played.host
    host.wait_for_my_turn()
    assert host.page.evaluate(BAR_ROWS) == 1
    assert host.by("room-lobby").count() == 0 and host.by("end-room").count() == 0
    menu = host.by("room-menu")
    assert menu.get_attribute("aria-expanded") == "false"
    menu.click()
    assert host.by("room-menu").get_attribute("aria-expanded") == "true"
    assert small_targets(host.page, ".room-bar .btn") == []
    host.by("end-room").click()
    assert "Noch einmal tippen" in host.by("end-room").inner_text()
    host.by("room-menu").click()  # closing the menu says no
    host.by("room-menu").click()
    assert host.by("end-room").inner_text() == "Raum beenden", "asked again, not ended by one more tap"
    host.by("room-menu").click()
    play_kartenkampf_to_its_final(played)
    assert host.page.evaluate(BAR_ROWS) == 1
    assert host.by("end-room").count() == 0
    host.by("room-menu").click()
    assert host.by("room-lobby").count() == 0, "the game is over: the final's Neue Partie leads on"
    host.by("end-room").click()  # once over, one tap ends the room: nothing is lost
    played.phones[0].wait("[data-testid=room-final]")


def test_the_room_bar_keeps_to_one_row_on_a_320_px_phone(room):
    """At 320 px a phone's "Verbunden · Raum …" took a row of its own above "Verlassen": the status now wraps
    beside its button (German, the longer words)."""
    played = room("maumau", phones=1, screen=False, seed=3)
    for device in (played.host, played.phones[0]):
        device.page.set_viewport_size({"width": 320, "height": 640})
        device.wait("[data-testid=room-status][data-state=online]")
        assert device.page.evaluate(BAR_ROWS) == 1, device.name
        assert small_targets(device.page, ".room-bar .btn") == []


@pytest.mark.parametrize("width", [360, 320])
def test_the_lobbys_game_choices_keep_their_words_inside(devices, live_server, width):
    """The room lobby's "Nächstes Spiel", two games a row, left "Kartenkampf" 3 px to its borders at 360 px."""
    host = devices("host")
    host.page.set_viewport_size({"width": width, "height": 640})
    open_room(host, live_server.url, "golf")
    gaps = host.page.evaluate(WORD_GAPS, "[data-testid^=room-game-] + span")
    assert len(gaps) == 5
    assert [gap for gap in gaps if gap[2] < MIN_WORD_GAP] == []


@pytest.mark.parametrize("width", [360, 320])
def test_the_results_after_a_game_fit_a_small_phone(page, live_server, width):
    """After a finished game the Ergebnisse' link to its evening was a 21 px line of text, and at 320 px the
    evening's table ran 7 px past its panel."""
    from e2e.tap_targets import overflowing
    from e2e.test_replay import finish_kartenkampf

    page.set_viewport_size({"width": width, "height": 700})
    finish_kartenkampf(page, live_server.url)
    open_app(page, live_server.url, "results")
    page.get_by_test_id("result-night").wait_for()
    assert small_targets(page) == []
    assert overflowing(page) == []


def test_golfs_tiles_show_a_name_like_gastgeber_whole(room):
    """An opponent's tile in Golf was 76 px wide whatever its name: "Gastgeber" (the host's name when it gives
    none) read "Gastge…" on every phone. A tile now takes the width its name needs, up to 8.5rem."""
    from e2e.tap_targets import cut_texts

    played = room("golf", phones=1, screen=False, seed=3)
    anna = played.phones[0]
    anna.wait("[data-testid=peek-done]")
    assert anna.page.locator(".g-others .g-name").all_inner_texts() == ["Gastgeber"]
    assert cut_texts(anna.page) == []


@pytest.mark.parametrize("width, locale", [(360, "de-DE"), (360, "en-GB"), (320, "de-DE")])
def test_pao_de_kuais_seats_show_names_of_ten_letters_whole(devices, live_server, width, locale):
    """Pao De Kuai's seats cut "Gastgeber" and "Maximilian": the arrows' columns, the card back and the gaps took
    the room (the back was 30 px wide, padded by the rule for the "‹ Startseite" button's class "back")."""
    from e2e.tap_targets import cut_texts
    from spieleabend.testing.room import join

    host = devices("host", locale=locale)
    link = open_room(host, live_server.url, "paodekuai")
    phone = devices("maximilian", locale=locale)
    join(phone, live_server.url, link, "Maximilian")
    host.by("start-room-game").click()
    for device in (host, phone):
        device.page.set_viewport_size({"width": width, "height": 700})
        device.wait("[data-testid=hand]")
        assert cut_texts(device.page) == []
        names = device.page.locator(".pdk-seat-name").all_inner_texts()
        other = "Maximilian" if device is host else ("Gastgeber" if locale == "de-DE" else "Host")
        assert other in names and ("Du" if locale == "de-DE" else "You") in names  # the own tile says "Du"

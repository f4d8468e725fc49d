"""What a screen reader hears while the others play: their moves from the game's feed, then whose turn it is,
and Golf's scored round in one line (each drawing makes the screen anew, so the page says it in its own region).
"""

from e2e.test_golf import load_prepared, my_turn, prepared
from e2e.test_maumau import open_prepared as open_maumau
from e2e.test_maumau import running_state
from e2e.test_paodekuai import open_prepared as open_paodekuai
from e2e.test_paodekuai import select
from tests.test_paodekuai_screens import build_state

LISTEN = """() => {
    window.said = [];
    const region = document.querySelector('[data-testid=announce]');
    new MutationObserver(() => window.said.push(region.textContent)).observe(
        region, {childList: true, characterData: true, subtree: true});
}"""


def said(page):
    """Return every line the page's region has said since `LISTEN`."""
    return page.evaluate("window.said")


def test_mau_mau_says_each_computers_move_once_then_whose_turn(page, live_server):
    state = running_state([["10H", "KS", "QS"], ["10D", "KC", "QC"], ["4D", "KD", "QD"]], "5H")  # no 7, 8, 9, J, A
    open_maumau(page, live_server.url, state)
    page.evaluate(LISTEN)
    page.locator("[data-testid=hand] [data-card='10H']").click()
    page.wait_for_selector("[data-testid=hand][data-my-turn=true], [data-testid=turn]:has-text('Du bist am Zug')")
    page.wait_for_function("window.said.join(' · ').includes('Du bist am Zug')")
    heard = " · ".join(said(page))
    moves = page.get_by_test_id("feed").locator("li").all_inner_texts()
    assert moves[-1].startswith("Du legst Herz 10"), moves
    for move in moves[:-1]:  # newest first: the computers' moves since mine, each said once, in order
        assert heard.count(move) == 1, (move, heard)
    assert heard.index("Du legst Herz 10") < heard.index(moves[-2]) < heard.rindex("Du bist am Zug"), heard
    assert any(move.startswith("Anna ") for move in moves) and any(move.startswith("Ben ") for move in moves)


def test_pao_de_kuai_says_the_plays_and_passes_without_repeating_the_deal(page, live_server):
    state = build_state([["5S", "9C", "KH"], ["6H", "6D", "7C"], ["QH", "QS", "JC"]], trick=[(2, ["5H"])])
    open_paodekuai(page, live_server.url, state)
    page.evaluate(LISTEN)
    select(page, ["9C"])
    page.get_by_test_id("play").click()
    page.wait_for_function("window.said.join(' · ').includes('Du bist dran')")
    heard = " · ".join(said(page))
    assert heard.count("Du spielst Einzelkarte Neun (9♣)") == 1, heard
    assert heard.count("Lena passt") == 1, "Lena has nothing above a nine"
    assert heard.index("Lena passt") < heard.index("Jonas spielt Einzelkarte") < heard.rindex("Du bist dran"), heard
    assert "Austeilung" not in heard, "the deal's number is no news on every move"


def test_golf_says_the_scored_round_in_one_line(page, live_server):
    grids = [["AS", "2S", "3D", "KH"], ["10H", "QH", "JH", "10C"]]
    load_prepared(page, live_server.url, prepared(grids, discard_top="QS", stock_top=("JD",), knocker=1))
    my_turn(page)
    page.evaluate(LISTEN)
    page.get_by_test_id("stock").click()
    page.get_by_test_id("discard-drawn").click()
    page.get_by_test_id("round-summary").wait_for()
    page.wait_for_function("window.said.join(' · ').includes('Durchgang 1')")
    heard = said(page)[-1]
    assert heard.startswith("Durchgang 1: alle Karten offen."), heard
    assert "+10 Strafpunkte" in heard, "why Anna's round costs more"
    assert "Du 6 Punkte (gesamt 6)" in heard and "Anna 50 Punkte (gesamt 50)" in heard, heard


def test_a_table_screen_says_a_revealed_card_by_its_name(room):
    """A card face is an image with a label: the table screen's reveal says "9", not its corners and pip as
    "9 · 9 · 9"."""
    from e2e.test_kit import choose_a_card

    played = room("kartenkampf", phones=1, screen=True, seed=3, seats=2)
    played.screen.page.evaluate(LISTEN)
    while not played.screen.page.locator("[data-testid=screen-reveal] [data-card]").count():
        device = next((device for device in played.players if device.is_my_turn()), None)
        if device is None:
            played.host.page.wait_for_timeout(25)
            continue
        choose_a_card(device)
    played.screen.page.wait_for_function("window.said.join(' · ').includes('Runde 1')")
    heard = " · ".join(said(played.screen.page))
    cards = played.screen.page.locator("[data-testid=screen-reveal] [data-card]").evaluate_all(
        "cards => cards.map(card => card.dataset.card)")
    for card in cards:
        assert heard.count("%s · %s" % (card, card)) == 0, heard
    assert "Runde 1" in heard and all(card in heard for card in cards), heard


def test_another_screen_starts_without_the_last_ones_news(page, live_server):
    """The page's region does not carry the game's last sentence onto the next screen (in the app, a route)."""
    from e2e.test_kartenkampf import play_round, start_game

    start_game(page, live_server.url, computers=1)
    page.get_by_test_id("card-%d" % 7).click()
    page.wait_for_function("document.querySelector('[data-testid=announce]').textContent.includes('7')")
    page.evaluate("location.hash = '#/settings'")  # within the app, as a tap on a link goes
    page.wait_for_function("document.title.startsWith('Einstellungen')")
    assert page.get_by_test_id("announce").inner_text() == ""


def test_people_passing_one_phone_each_hear_the_moves_since_their_last_turn_not_the_whole_feed(devices, live_server):
    """The feed says "Du" to whoever holds the phone, so one memory for everybody read all of it again at every
    handover; now each person's memory is their own: a move is said to each person at most once."""
    from e2e.test_kit import maumau_move
    from e2e.test_pass_and_play import start_together

    device = devices("mia")
    page = device.page
    start_together(device, live_server.url, "maumau", 7)
    page.evaluate(LISTEN)
    covers = 0
    first_turns = {}  # person -> what was said at their first turn
    returns = []  # what was said to a person taking the phone back
    while covers < 8 and not page.locator("[data-testid=handover-over]").count():
        if page.locator("[data-testid=handover-to]").count():
            person = device.by("handover-to").inner_text()
            before = len(said(page))
            device.by("handover-confirm").click()
            covers += 1
            device.wait("[data-testid=handover-bar]")
            page.wait_for_timeout(100)
            heard = " · ".join(said(page)[before:])
            if person in first_turns:
                returns.append(heard)
            first_turns.setdefault(person, heard)
        elif page.locator("[data-testid=handover-bar]").count() and device.is_my_turn():
            maumau_move(device)
        else:
            page.wait_for_timeout(25)
    # Whoever gets the phone second hears, at their first turn, what the first did before (a Jack's suit...).
    second = list(first_turns)[1]
    assert " legt " in first_turns[second] or " zieht " in first_turns[second], first_turns
    lines = [line for text in said(page) for line in text.split(" · ")]
    moves = [line for line in lines if " legt " in line or " zieht " in line]
    assert moves, lines
    for move in set(moves):
        assert moves.count(move) <= 2, (move, lines)
    # Back at the phone, a person hears what the others did, not their own last card or draw again.
    assert returns, first_turns
    for heard in returns:
        assert not any(line.startswith(("Du legst", "Du ziehst")) for line in heard.split(" · ")), returns


def test_golf_says_what_was_done_before_whose_turn_and_a_knock_once(page, live_server):
    grids = [["9S", "8S", "7S", "6S"], ["10H", "QH", "JH", "10C"], ["2C", "3C", "4C", "5C"]]
    load_prepared(page, live_server.url, prepared(grids), pace=300)
    my_turn(page)
    page.evaluate(LISTEN)
    page.get_by_test_id("stock").click()
    page.get_by_test_id("discard-drawn").click()
    page.wait_for_function("window.said.join(' · ').includes('Du bist dran')")
    heard = said(page)
    turn = next(index for index, text in enumerate(heard) if "Anna ist dran" in text)
    assert heard[turn].index("Du legst") < heard[turn].index("Anna ist dran"), heard
    page.evaluate("window.said = []")
    page.get_by_test_id("knock").click()
    page.wait_for_function("window.said.join(' · ').includes('geklopft')")
    page.wait_for_timeout(300)
    heard = " · ".join(said(page))
    assert "Du hast geklopft" in heard and "Du klopfst" not in heard, heard


def test_kartenkampf_says_who_won_the_round(page, live_server):
    from e2e.test_kartenkampf import play_round, start_game

    start_game(page, live_server.url, computers=1)
    page.evaluate(LISTEN)
    play_round(page)
    winner = page.get_by_test_id("round-winner").inner_text()
    page.wait_for_function("winner => window.said.join(' · ').includes(winner)", arg=winner)


def test_the_cover_between_people_leaves_nothing_of_the_last_persons_choice_to_read(devices, live_server):
    """Punktejagd behind the cover: "Gewählt: 7" stayed in the page's hidden region on "Gib das Gerät an Ben",
    where a screen reader in browse mode could read Anna's secret card (an audit)."""
    from e2e.test_pass_and_play import start_together

    device = devices("familie")
    page = device.page
    start_together(device, live_server.url, "punktejagd", 3)
    device.by("handover-confirm").click()
    device.wait("[data-testid=handover-bar]")
    card = page.locator("[data-testid=hand] [data-value]").first
    chosen = card.get_attribute("data-value")
    card.click()
    assert chosen in device.by("announce").text_content(), "what the person chose is said to them"
    device.by("confirm").click()
    device.wait("[data-testid=handover-to]")
    left = device.by("announce").text_content()
    assert "Gewählt" not in left and chosen not in left, left

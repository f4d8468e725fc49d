"""Golf screens in CPython: what each seat may see, keys, round summary, standings, and whole games on a LocalTable."""

import json
import re

import pytest

from spieleabend.games import golf as engine
from spieleabend.games.common import Rng, french_deck
from spieleabend.ui import golf as screens
from spieleabend.ui import i18n
from spieleabend.ui.html import card_name
from spieleabend.ui.setup import SetupScreen
from spieleabend.ui.table import LocalTable, continue_screen, solo_players
from tests.fake_app import ScreenApp, ViewTable


@pytest.fixture(autouse=True)
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("de")


def ids_of(html):
    return re.findall(r'data-testid="([^"]+)"', html)


def element(html, testid):
    """Return the opening tag of the first element with this testid."""
    match = re.search(r'<[^>]*data-testid="%s"[^>]*>' % re.escape(testid), html)
    assert match, "no element %s" % testid
    return match.group(0)


def text_of(html, testid):
    """Return the text inside the first element with this testid (no nested tags)."""
    return html.split('data-testid="%s"' % testid, 1)[1].split(">", 1)[1].split("<", 1)[0]


def grid_html(html, seat):
    start = html.index('data-testid="grid-%d"' % seat)
    return html[start:html.index("</div>", html.index('data-testid="pos-3"', start)) + 6]


def cards_in(fragment):
    return re.findall(r'data-card="([^"]+)"', fragment)


def rigged_table(app, grids, discard_top="5S", stock_top=(), seats_ready=True, seat=0, knocker=None):
    """A LocalTable whose round has chosen grids (person at seat 0, computers after it)."""
    players = solo_players("Testerin", len(grids), "strong")
    table = LocalTable.new(app, "golf", {"seats": len(grids)}, players)
    state = table.state
    pool = french_deck(1)
    for card in [c for grid in grids for c in grid] + [discard_top] + list(stock_top):
        pool.remove(card)
    state["grids"] = [list(g) for g in grids]
    state["discard"] = [discard_top]
    state["stock"] = pool + list(reversed(stock_top))
    if seats_ready:
        state["ready"] = [True] * len(grids)
    return table


# --- the plug-in hooks -------------------------------------------------------------------

def test_progress_reports_round_rounds_done_and_totals():
    state = engine.new_game({"seats": 3}, Rng(5))
    assert engine.progress(engine.view(state, None)) == {"round": 1, "done": 0, "scores": [0, 0, 0]}
    for seat in range(3):
        engine.apply_action(state, seat, "ready")
    engine.apply_action(state, 0, "knock")
    engine.apply_action(state, 1, "draw")
    engine.apply_action(state, 1, "discard")
    engine.apply_action(state, 2, "draw")
    engine.apply_action(state, 2, "discard")
    progress = engine.progress(engine.view(state, None))
    assert progress["round"] == 2 and progress["done"] == 1
    assert progress["scores"] == state["results"][0]["totals"]


# --- what a seat may see ------------------------------------------------------------------

def test_peek_shows_exactly_the_bottom_two_face_up():
    state = engine.new_game({"seats": 3}, Rng(9))
    view = engine.view(state, 0)
    shows = screens.slot_shows(view, 0, memory_aid=False)
    assert [kind for kind, _ in shows] == ["back", "back", "face", "face"]
    assert [card for _, card in shows[2:]] == state["grids"][0][2:]
    for seat in (1, 2):
        assert screens.slot_shows(view, seat, memory_aid=True) == [("back", None)] * 4


def test_after_the_peek_nothing_is_shown_without_memory_aid_and_seen_cards_with_it():
    state = engine.new_game({"seats": 2}, Rng(9))
    engine.apply_action(state, 0, "ready")
    engine.apply_action(state, 1, "ready")
    view = engine.view(state, 0)
    assert screens.slot_shows(view, 0, memory_aid=False) == [("back", None)] * 4
    aided = screens.slot_shows(view, 0, memory_aid=True)
    assert aided[:2] == [("back", None)] * 2
    assert aided[2:] == [("mini", state["grids"][0][2]), ("mini", state["grids"][0][3])]


def test_cards_taken_from_the_pile_show_on_the_takers_grid_only_with_memory_aid():
    app = ScreenApp(first_seed=1, seed=3)
    table = rigged_table(app, [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"]], discard_top="KD")
    table.act("draw")
    table.act("discard")
    app.run_timers(limit=0)
    state = table.state
    state["turn"] = 1
    engine.apply_action(state, 1, "take 0")  # the card the person just discarded
    taken = state["grids"][1][0]
    view = engine.view(state, 0)
    assert screens.slot_shows(view, 1, memory_aid=False)[0] == ("back", None)
    assert screens.slot_shows(view, 1, memory_aid=True)[0] == ("mini", taken)
    assert screens.slot_shows(view, 1, memory_aid=True)[1:] == [("back", None)] * 3


def test_the_table_html_holds_no_hidden_card_of_anyone_without_memory_aid():
    app = ScreenApp(first_seed=1, seed=3, memory_aid=False)
    grids = [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"], ["JC", "QC", "KC", "AC"]]
    table = rigged_table(app, grids, discard_top="KD", stock_top=("9D",))
    screen = screens.TableScreen(app, table)
    html = screen.render(app)
    for seat in range(3):
        assert cards_in(grid_html(html, seat)) == []
    for card in ["2S", "3S", "4S", "6S", "7H", "8H", "9H", "10H", "JC", "QC", "KC", "AC", "9D"]:
        assert 'data-card="%s"' % card not in html
    assert 'data-card="KD"' in element(html, "discard-top")


def test_peek_html_has_the_bottom_two_and_gemerkt_then_hides_them():
    app = ScreenApp(first_seed=1, seed=3)
    grids = [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"]]
    table = rigged_table(app, grids, seats_ready=False)
    screen = screens.TableScreen(app, table)
    html = screen.render(app)
    assert cards_in(grid_html(html, 0)) == ["4S", "6S"]
    assert "peek-done" in ids_of(html)
    assert "Gemerkt" in html
    # The face-up cards are pictures: "Gemerkt", where a keyboard lands, says them (an audit heard nothing).
    assert text_of(html, "peek-said") == "Deine Karten: unten links: Pik 4, unten rechts: Pik 6."
    assert 'aria-describedby="peek-said"' in element(html, "peek-done")
    assert screen.keys == "Enter", "Enter ends the peek, also with focus on a button"
    screen.handle(app, "ready", None)
    html = screen.render(app)
    assert screen.keys == "", "during turns Enter on a focused button is that button's"
    assert cards_in(grid_html(html, 0)) == []
    assert "peek-done" not in ids_of(html)


def test_drawn_card_is_shown_to_the_drawer_only():
    app = ScreenApp(first_seed=1, seed=3)
    grids = [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"]]
    table = rigged_table(app, grids, discard_top="KD", stock_top=("9D",))
    screen = screens.TableScreen(app, table)
    screen.handle(app, "draw", None)
    html = screen.render(app)
    assert 'data-card="9D"' in element(html, "drawn-card")
    assert text_of(html, "news-said") == "Du ziehst Karo 9.", "heard, not only a picture (an audit)"
    assert "discard-drawn" in ids_of(html)
    other = engine.view(table.state, 1)
    assert "9D" not in json.dumps(other)
    screen.handle(app, "pos", "1")
    assert table.state["grids"][0][1] == "9D" and table.state["discard"][-1] == "3S"


def test_take_needs_a_position_and_can_be_cancelled():
    app = ScreenApp(first_seed=1, seed=3)
    grids = [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"]]
    table = rigged_table(app, grids, discard_top="KD")
    screen = screens.TableScreen(app, table)
    screen.handle(app, "pos", "0")  # nothing chosen yet: a tap on a card does nothing
    assert table.state["grids"][0][0] == "2S"
    screen.handle(app, "take-mode", None)
    html = screen.render(app)
    assert 'aria-pressed="true"' in element(html, "discard-top")
    assert 'disabled' not in element(grid_html(html, 0), "pos-2")
    screen.handle(app, "take-mode", None)  # tap again: cancelled
    assert not screen.taking
    screen.handle(app, "take-mode", None)
    screen.handle(app, "pos", "2")
    assert table.state["grids"][0][2] == "KD" and table.state["discard"][-1] == "4S"


def test_tipp_after_a_tap_on_the_discard_pile_undoes_it_unless_it_takes_the_discard_too():
    app = ScreenApp(first_seed=1, seed=3)
    grids = [["AS", "2H", "3S", "2D"], ["7H", "8H", "9H", "10H"]]
    table = rigged_table(app, grids, discard_top="QD")  # a high card nobody wants for a low grid
    screen = screens.TableScreen(app, table)
    screen.handle(app, "take-mode", None)
    assert screen.taking
    screen.handle(app, "hint", None)
    assert screen.tipp.action == "draw"
    assert not screen.taking, "the discard pile's tap undone"
    stock = element(screen.render(app), "stock")
    assert "data-hinted" in stock and "disabled" not in stock, "the marked stock can be tapped"
    table = rigged_table(app, [["KS", "QH", "JS", "10D"], ["7H", "8H", "9H", "10H"]], discard_top="AD")
    screen = screens.TableScreen(app, table)
    screen.handle(app, "take-mode", None)
    screen.handle(app, "hint", None)
    assert screen.tipp.action.startswith("take ") and screen.taking, "the ace is wanted: the pile stays chosen"
    position = screen.tipp.action.split(" ")[1]
    assert "data-hinted" in element(grid_html(screen.render(app), 0), "pos-" + position)


def test_knock_is_hidden_once_somebody_knocked_and_the_banner_says_who():
    app = ScreenApp(first_seed=1, seed=3)
    grids = [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"], ["JC", "QC", "KC", "AC"]]
    table = rigged_table(app, grids)
    screen = screens.TableScreen(app, table)
    assert "knock" in ids_of(screen.render(app))
    screen.handle(app, "knock", None)
    html = screen.render(app)
    assert "knock" not in ids_of(html)
    assert "Du hast geklopft. Alle anderen haben noch einen letzten Zug." in html
    assert "last-turn-banner" in ids_of(html)
    other = screens.TableScreen(app, table)
    table.seat = 1
    assert "Testerin hat geklopft" in other.render(app)


# --- keys -----------------------------------------------------------------------------------

def turn_view(drawn=False, knocked=False, take=True):
    legal = ["swap 0", "swap 1", "swap 2", "swap 3", "discard"] if drawn else (
        ["draw"] + (["take 0", "take 1", "take 2", "take 3"] if take else []) + ([] if knocked else ["knock"]))
    return {"legal": legal, "drawn": "7H" if drawn else None}


@pytest.mark.parametrize("view, key, taking, expected", [
    (turn_view(), "s", False, ("act", "draw")),
    (turn_view(), "S", False, ("act", "draw")),
    (turn_view(), "k", False, ("act", "knock")),
    (turn_view(knocked=True), "k", False, None),
    (turn_view(), "a", False, ("take", None)),
    (turn_view(), "a", True, ("cancel", None)),
    (turn_view(), "Escape", True, ("cancel", None)),
    (turn_view(), "3", True, ("act", "take 2")),
    (turn_view(), "3", False, None),
    (turn_view(drawn=True), "1", False, ("act", "swap 0")),
    (turn_view(drawn=True), "a", False, ("act", "discard")),
    (turn_view(drawn=True), "s", False, None),
    (turn_view(drawn=True), "k", False, None),
    (turn_view(), "5", False, None),
])
def test_keys(view, key, taking, expected):
    assert screens.key_action(view, key, taking) == expected


# --- round summary and standings ---------------------------------------------------------------

def finish_round(table, person_action=("draw", "discard")):
    for action in person_action:
        table.act(action)
    table.app.run_timers()


def test_knocker_pays_10_when_someone_has_strictly_fewer():
    app = ScreenApp(first_seed=1, seed=3)
    # Seat 1 (a computer) knocked with 22; the person has 6 and ends the round.
    grids = [["AS", "2S", "3D", "KH"], ["10H", "9H", "2H", "AH"]]
    table = rigged_table(app, grids, discard_top="QS", stock_top=("JD",))
    state = table.state
    state["turn"] = 1
    engine.apply_action(state, 1, "knock")
    screen = screens.TableScreen(app, table)
    html = screen.render(app)
    assert "Anna hat geklopft" in element(html, "last-turn-banner") + html
    assert "Das ist dein letzter Zug." in html
    finish_round(table)
    html = screen.render(app)
    assert "round-summary" in ids_of(html)
    result = table.state["results"][0]
    assert result["penalty"] == [0, 10] and result["scores"] == [6, 32]
    assert "+10 Klopfstrafe" in html and "penalty-1" in ids_of(html)
    assert "aber jemand hatte weniger Punkte" in html
    for card in grids[0] + grids[1]:
        assert 'data-card="%s"' % card in html, "every card turned up"
    assert "score-sheet" in ids_of(html) and "Punkte auf dem Zettel" in html
    assert re.search(r'data-testid="sheet-total-1">32<', html)


def test_no_penalty_when_the_knocker_ties_the_lowest():
    app = ScreenApp(first_seed=1, seed=3)
    grids = [["AS", "2S", "3D", "KH"], ["AH", "2H", "3C", "KD"]]
    table = rigged_table(app, grids, discard_top="QS", stock_top=("JD",))
    table.state["turn"] = 1
    engine.apply_action(table.state, 1, "knock")
    screen = screens.TableScreen(app, table)
    finish_round(table)
    html = screen.render(app)
    assert table.state["results"][0]["penalty"] == [0, 0]
    assert "Klopfstrafe" not in html
    assert "niemand hatte weniger Punkte: keine Strafe" in html
    screen.handle(app, "next", None)
    html = screen.render(app)
    assert "peek-done" in ids_of(html) and "round-summary" not in ids_of(html)


def test_turn_limit_round_says_so():
    result = {"knocker": None, "penalty": [0, 0]}
    assert "Zuglimit" in screens.knock_note(result, ["A", "B"])


def test_standings_lowest_first_shared_rank():
    from spieleabend.games.common import game_outcome
    from spieleabend.ui.final import standings

    scores = [30, 12, 12, 40]
    rows = standings(game_outcome(scores, [-score for score in scores], lower_wins=True))
    assert rows == [(1, 1, 12), (2, 1, 12), (0, 3, 30), (3, 4, 40)]


def play_whole_game(app, seats=3, knock_first=True):
    players = solo_players("Testerin", seats, "random")
    table = LocalTable.new(app, "golf", {"seats": seats}, players)
    screen = screens.TableScreen(app, table)
    for _ in range(2000):
        app.run_timers()
        view = table.view()
        phase = screen.phase(view)
        if phase == "final":
            break
        if phase == "summary":
            screen.handle(app, "next", None)
        elif phase == "peek":
            screen.on_key(app, "Enter")
        elif phase == "turn" and view["turn"] == 0:
            if "knock" in view["legal"] and knock_first:
                screen.on_key(app, "k")
            elif screens.holding(view):
                screen.on_key(app, "a")
            else:
                screen.on_key(app, "s")
        screen.render(app)
    return table, screen


def test_a_whole_game_of_nine_rounds_ends_in_standings_and_results():
    app = ScreenApp(first_seed=1, seed=12)
    table, screen = play_whole_game(app)
    html = screen.render(app)
    view = table.view()
    assert len(view["history"]) == 9
    assert "final-headline" in ids_of(html)
    scores = view["outcome"]["scores"]
    for seat in range(3):
        assert "standing-%d" % seat in ids_of(html)
    assert scores == [sum(r[s] for r in view["history"]) for s in range(3)]
    results = app.storage.results()
    assert len(results) == 1 and results[0]["game"] == "golf" and results[0]["scores"] == scores
    assert app.storage.load_game("golf") is None
    assert table.meta["history"][9] == scores


def test_saves_after_every_move_and_continues_from_the_save():
    app = ScreenApp(first_seed=1, seed=4)
    players = solo_players("Testerin", 2, "strong")
    table = LocalTable.new(app, "golf", {"seats": 2}, players)
    screen = screens.TableScreen(app, table)
    screen.on_key(app, "Enter")
    app.run_timers()
    saved = app.storage.load_game("golf")
    assert saved["state"] == table.state
    continued = continue_screen(app, "golf")
    assert isinstance(continued, screens.TableScreen)
    assert continued.table.state == table.state


def test_setup_suggests_two_decks_from_six_seats_and_keeps_a_choice():
    app = ScreenApp(first_seed=1, seed=3)
    setup = SetupScreen(app, "golf")
    setup.on_input(app, "seats", "6", True)
    html = setup.render(app)
    assert 'data-testid="decks-2" checked' in html and "zwei Decks" in html
    setup.on_input(app, "seats", "3", True)
    assert 'data-testid="decks-1" checked' in setup.render(app)
    setup.on_input(app, "decks", "2", True)
    setup.on_input(app, "seats", "4", True)
    assert 'data-testid="decks-2" checked' in setup.render(app)
    setup.handle(app, "start", None)
    table = app.shown.table
    assert table.state["decks"] == 2 and table.state["seats"] == 4
    assert [p["kind"] for p in table.players()] == ["person", "computer", "computer", "computer"]


def test_setup_opens_a_room_with_the_options():
    app = ScreenApp(first_seed=1, seed=3)
    setup = SetupScreen(app, "golf")
    setup.on_input(app, "seats", "7", True)
    setup.on_input(app, "strength", "leicht", True)
    setup.handle(app, "open-room", None)
    assert app.room == ("golf", {"decks": None}, 7, "leicht"), "the decks follow the lobby's table size"


def test_infoscreen_shows_the_public_view_only():
    app = ScreenApp(first_seed=1, seed=3, memory_aid=True)
    grids = [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"]]
    table = rigged_table(app, grids, discard_top="KD", stock_top=("9D",))
    table.act("draw")
    table.seat = None
    screen = screens.TableScreen(app, table)
    html = screen.render(app)
    assert "golf-info" in html
    assert cards_in(html) == ["KD"]
    assert "peek-done" not in ids_of(html) and "knock" not in ids_of(html)


def test_english_texts():
    i18n.set_language("en")
    app = ScreenApp(first_seed=1, seed=3)
    grids = [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"]]
    table = rigged_table(app, grids, seats_ready=False)
    html = screens.TableScreen(app, table).render(app)
    assert "Got it" in html and "Round 1 of 9" in html


def test_every_golf_text_has_german_and_english_with_the_same_placeholders():
    keys = [key for key in i18n.TEXTS if key.startswith("golf.")]
    assert len(keys) > 50
    for key in keys:
        german, english = i18n.TEXTS[key]
        assert german and english, key
        assert sorted(re.findall(r"%\((\w+)\)s", german)) == sorted(re.findall(r"%\((\w+)\)s", english)), key


def test_news_lines_name_the_seat_and_the_cards():
    names = ["Testerin", "Anna"]
    assert screens.event_text({"seat": 1, "action": "take", "position": 2, "card": "9H", "out": "KS"}, names, 0) == (
        "Anna nimmt Herz 9 von der Ablage für Position 3 (unten links) und legt Pik König ab.")
    assert screens.event_text({"seat": 0, "action": "swap", "position": 0, "out": "QD"}, names, 0) == (
        "Du tauschst Position 1 (oben links) und legst Karo Dame ab.")
    assert screens.event_text({"seat": 1, "action": "knock"}, names, 0) == "Anna klopft!"


def test_a_phone_in_a_room_sees_only_its_own_bottom_two_and_sends_actions():
    app = ScreenApp(first_seed=1, seed=3)
    state = engine.new_game({"seats": 3, "names": ["Mia", "Noah", "Ole"]}, Rng(8))
    phone = ViewTable("golf", state, 1, kind="person")
    screen = screens.TableScreen(app, phone)
    html = screen.render(app)
    assert cards_in(grid_html(html, 1)) == state["grids"][1][2:]
    assert cards_in(grid_html(html, 0)) == [] and cards_in(grid_html(html, 2)) == []
    hidden = [c for s in (0, 2) for c in state["grids"][s]] + state["stock"]
    assert not any('data-card="%s"' % c in html for c in hidden)
    assert "pause" not in ids_of(html) and "transfer" not in ids_of(html)
    screen.handle(app, "ready", None)
    assert phone.sent == ["ready"]
    for seat in range(3):
        engine.apply_action(state, seat, "ready")
    state["turn"] = 1
    screen.on_key(app, "s")
    assert phone.sent[-1] == "draw"
    engine.apply_action(state, 1, "draw")
    drawn = state["drawn"]
    html = screen.render(app)
    assert 'data-card="%s"' % drawn in element(html, "drawn-card")
    assert drawn not in json.dumps(engine.view(state, 0))
    screen.handle(app, "pos", "3")
    assert phone.sent[-1] == "swap 3"


def news_line(html):
    return html.split('data-testid="news"', 1)[1].split(">", 1)[1].split("</p>", 1)[0]


def test_a_returning_phone_reads_the_computers_move_for_it_as_the_computers():
    """Issue 28: "Der Computer legt für dich … ab", not "Du legst … ab", for a move a computer made while the phone was away."""
    app = ScreenApp(first_seed=1, seed=3)
    state = engine.new_game({"seats": 2, "names": ["Mia", "Noah"]}, Rng(8))
    for seat in range(2):
        engine.apply_action(state, seat, "ready")
    state["turn"] = 1
    engine.apply_action(state, 1, "draw")
    drawn = state["drawn"]
    engine.apply_action(state, 1, "discard")
    phone = ViewTable("golf", state, 1, kind="person")
    phone.stood_in = ["draw", "discard"]
    screen = screens.TableScreen(app, phone)
    assert news_line(screen.render(app)) == "Der Computer legt für dich %s ab." % card_name(drawn)
    phone.stood_in = None  # she moved herself since
    assert news_line(screen.render(app)) == "Du legst %s ab." % card_name(drawn)
    phone.stood_in = ["draw", "discard"]
    engine.apply_action(state, 0, "draw")
    engine.apply_action(state, 0, "discard")
    assert news_line(screen.render(app)).startswith("Mia legt "), "another seat's move keeps its name"


def test_the_turn_limit_is_announced_when_it_comes_near():
    app = ScreenApp(first_seed=1, seed=3)
    grids = [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"]]
    table = rigged_table(app, grids)
    screen = screens.TableScreen(app, table)
    assert "turn-limit" not in ids_of(screen.render(app))
    table.state["turns"] = engine.TURN_LIMIT * 2 - 3
    html = screen.render(app)
    assert "nach 3 weiteren Zügen endet der Durchgang ohne Strafe" in html


def test_on_a_seats_turn_the_news_says_every_other_seats_move_since_its_own():
    """Several people at one device, or three computers: "Deniz tauscht …" alone left out what Ben and Clara
    took from the discard pile since the person's own move (an audit)."""
    app = ScreenApp(first_seed=1, seed=3)
    state = engine.new_game({"seats": 4, "names": ["Anna", "Ben", "Clara", "Deniz"], "dealer": 3}, Rng(8))
    for seat in range(4):
        engine.apply_action(state, seat, "ready")
    for seat in range(4):
        engine.apply_action(state, seat, "draw")
        engine.apply_action(state, seat, "discard" if seat != 2 else "swap 1")
    table = ViewTable("golf", state, 0, kind="person")
    news = news_line(screens.TableScreen(app, table).render(app))
    assert news.startswith("Ben legt ") and " Clara tauscht " in news and " Deniz legt " in news, news
    assert "Anna" not in news and "Du " not in news
    watcher = ViewTable("golf", state, 1, kind="person")  # not Ben's turn: the last move only
    assert news_line(screens.TableScreen(app, watcher).render(app)).startswith("Deniz legt ")


def test_on_ones_turn_the_others_moves_are_shown_together_but_heard_once_each():
    """An audit heard every computer move twice: as it happened, then all of them again on the person's turn."""
    app = ScreenApp(first_seed=1, seed=3)
    grids = [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"], ["7C", "8C", "9C", "10C"]]
    table = rigged_table(app, grids, discard_top="KD", stock_top=("9D",))
    screen = screens.TableScreen(app, table)
    screen.handle(app, "draw", None)
    screen.handle(app, "discard", None)
    app.run_timers()
    assert table.view()["turn"] == 0
    html = screen.render(app)
    shown, said = text_of(html, "news"), text_of(html, "news-said")
    assert shown.count(".") >= 2 and shown.endswith(said), (shown, said)
    assert said.count(".") == 1 and said.startswith(table.names()[2]), said


def test_a_position_key_before_a_card_is_in_hand_is_told_not_silent():
    app = ScreenApp(first_seed=1, seed=3)
    table = rigged_table(app, [["2S", "3S", "4S", "6S"], ["7H", "8H", "9H", "10H"]])
    screen = screens.TableScreen(app, table)
    assert screen.on_key(app, "2")
    assert app.toasts[-1].startswith("Erst eine Karte") and table.view()["drawing"] is None

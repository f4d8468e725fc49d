"""Several people on one device: the cover between people, for every game (the frame in ui/handover.py)."""

import re

import pytest

from spieleabend.games import GAME_MODULES, load, load_bots
from spieleabend.games.common import Rng
from spieleabend.ui import i18n
from spieleabend.ui.handover import HandoverScreen, next_person
from spieleabend.ui.setup import SetupScreen
from spieleabend.ui.shell import HomeScreen
from spieleabend.ui.table import LocalTable, continue_screen
from tests.fake_app import ScreenApp


@pytest.fixture(autouse=True)
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("de")


def start_together(app, game, people, seats):
    """Start a game for `people` on this device through the shared start screen."""
    setup = SetupScreen(app, game)
    setup.on_input(app, "mode", "device", True)
    while len(setup.people) < len(people):
        setup.handle(app, "add-person", None)
    app.fields = {"person-%d" % i: name for i, name in enumerate(people)}
    setup.on_input(app, "seats", str(seats), True)
    setup.handle(app, "start", None)
    assert isinstance(app.screen, HandoverScreen)
    return app.screen


def play_through(app, screen, rng, steps=4000):
    """Play the game as the people would: each confirms at the cover, then plays one of their legal moves.

    Returns the number of covers seen. Checks at every step that a covered device shows no hand and that
    an uncovered one shows exactly the person who confirmed."""
    table = screen.table
    bots = load_bots(table.game)
    covers = 0
    for _ in range(steps):
        app.run_timers()
        if table.over():
            break
        html = screen.render(app)
        if screen.looking is None:
            assert 'data-testid="hand"' not in html, "a covered device shows nobody's hand"
            assert table.seat is None
            seat = next_person(table)
            if seat is None:
                continue
            covers += 1
            assert 'data-testid="handover-to" data-seat="%d"' % seat in html
            screen.handle(app, "handover-confirm", str(seat))
            assert screen.looking == seat and table.seat == seat
            continue
        seat = screen.looking
        view = table.view()
        assert view["seat"] == seat if "seat" in view else True
        action = bots.STRENGTHS["leicht"](view, rng)
        table.act(action)
    assert table.over()
    return covers


@pytest.mark.parametrize("game", GAME_MODULES)
def test_two_people_and_a_computer_play_a_whole_game_behind_the_cover(game):
    app = ScreenApp(seed=3)
    seats = 3
    screen = start_together(app, game, ["Anna", "Ben"], seats)
    table = screen.table
    assert [p["kind"] for p in table.players()] == ["person", "person", "computer"]
    assert table.names()[:2] == ["Anna", "Ben"]
    covers = play_through(app, screen, Rng(11))
    assert covers >= 2
    result = app.storage.results()[0]
    assert result["players"][:2] == ["Anna", "Ben"] and result["seat"] is None
    from spieleabend.ui.results import ResultsScreen
    app.format_time = str
    listed = ResultsScreen().render(app)
    assert 'data-testid="result-item"' in listed and "Deine Punkte" not in listed, "the game is everyone's here"
    html = screen.render(app)
    assert 'data-testid="handover-over"' in html
    # Everybody sees how it ended, as a player alone does: the last round and what the game tells of it.
    assert 'data-testid="%s"' % LAST_ROUND[game] in html and 'data-testid="to-results"' in html
    assert 'data-testid="hand"' not in html
    # The computer among the people is marked as one (a computer named like a person won unmarked).
    computer = [seat for seat in range(seats) if table.is_computer(seat)][0]
    row = html.split('data-testid="standing-%d"' % computer, 1)[1].split("</li>", 1)[0]
    assert '<span class="standing-tag">Computer</span>' in row
    assert all('standing-tag">Computer' not in html.split('data-testid="standing-%d"' % seat, 1)[1].split("</li>", 1)[0]
               for seat in range(seats) if seat != computer)
    if game == "kartenkampf":
        tied = table.outcome()["decided_by"] != "points"
        assert ('data-testid="tie-break"' in html) == tied, "what decided a tie, as Kartenkampf says it alone"
    if game == "golf":
        assert 'data-testid="score-sheet"' in html and "Durchgang %d: alle Karten offen" % len(
            table.view()["history"]) in html, "the last round's open cards, as alone before the final"


# What each game shows of its last round on the final, for everybody.
LAST_ROUND = {"punktejagd": "screen-reveal", "kartenkampf": "screen-reveal", "maumau": "deal-summary",
              "paodekuai": "deal-settlement", "golf": "round-summary"}  # Golf's score sheet is there too


def test_the_cover_comes_back_after_a_secret_choice_even_for_the_same_person():
    app = ScreenApp(seed=4)
    screen = start_together(app, "punktejagd", ["Anna", "Ben"], 2)
    table = screen.table
    screen.handle(app, "handover-confirm", "0")
    table.act(table.view()["legal"][0])
    assert screen.looking is None and next_person(table) == 1, "Anna chose: Ben's turn, her choice hidden"
    html = screen.render(app)
    assert "Gib das Gerät an Ben" in html and 'data-testid="hand"' not in html


def test_a_stale_or_foreign_confirm_changes_nothing_and_actions_behind_the_cover_are_ignored():
    app = ScreenApp(seed=5)
    screen = start_together(app, "golf", ["Anna", "Ben"], 2)
    before = dict(screen.table.state)
    screen.handle(app, "handover-confirm", "1")  # Anna (seat 0) is asked for first
    assert screen.looking is None
    screen.handle(app, "ready", None)
    screen.on_key(app, "Enter")
    assert screen.table.state == before


def test_the_same_person_keeps_the_device_while_it_is_still_their_move():
    app = ScreenApp(seed=6)
    screen = start_together(app, "golf", ["Anna", "Ben"], 2)
    table = screen.table
    for seat in (0, 1):  # both peek at their cards behind the cover
        screen.handle(app, "handover-confirm", str(seat))
        table.act("ready")
    seat = next_person(table)
    screen.handle(app, "handover-confirm", str(seat))
    table.act("draw")  # Golf: a drawn card must still be placed or discarded
    assert screen.looking == seat
    table.act("discard")
    assert screen.looking is None


def test_the_last_person_still_in_keeps_the_device_and_the_cover_signs_minus_points():
    """Mau-Mau: once Tim is out, Oma was asked "Ich bin Oma" before almost every move (an audit counted 55)."""
    app = ScreenApp(seed=2)
    screen = start_together(app, "maumau", ["Oma", "Tim"], 3)
    table = screen.table
    while next_person(table) != 0:
        app.run_timers()
        seat = next_person(table)
        if seat is not None:
            screen.handle(app, "handover-confirm", str(seat))
            table.act(table.view()["legal"][-1])
    table.state["out"][1] = True  # Tim went over the limit
    table.state["minus"][1] = 41
    html = screen.render(app)
    assert "\u221241" in html, "minus points as the table writes them"
    # Tim learns it on the cover, as the device will not come to him again.
    assert re.search(r'class="handover-seat out" data-seat="1"><span class="who">Tim</span><span class="what">ausgeschieden<', html)
    assert html.count("ausgeschieden") == 1, "only Tim is out"
    screen.handle(app, "handover-confirm", "0")
    for _ in range(6):  # her moves and the computer's: she keeps the device, uncovered
        if table.over() or table.state["phase"] != "play":
            break
        if 0 in table.to_move():
            table.act(table.view()["legal"][-1])
        app.run_timers()
        assert screen.looking == 0


def test_a_reload_or_a_pause_resumes_behind_the_cover():
    app = ScreenApp(seed=7)
    screen = start_together(app, "maumau", ["Anna", "Ben"], 2)
    screen.handle(app, "handover-confirm", str(next_person(screen.table)))
    screen.table.save()  # saved while Anna looks
    assert app.storage.load_game("maumau")["meta"]["seat"] is not None
    again = continue_screen(app, "maumau")
    assert isinstance(again, HandoverScreen) and again.looking is None and again.table.seat is None
    assert 'data-testid="hand"' not in again.render(app)


def test_the_home_screen_says_whose_game_a_saved_one_of_several_people_is():
    app = ScreenApp(seed=7)
    start_together(app, "golf", ["Anna", "Ben"], 3)
    app.update_waiting, app.just_updated = (lambda: False), False  # the home screen's banners: none
    html = HomeScreen().render(app)
    assert "Golf fortsetzen – Durchgang 1 · Anna, Ben<" in html, html


def test_the_start_screen_offers_the_evenings_people_and_refuses_two_of_one_name():
    app = ScreenApp()
    app.storage.set_people(["Oma", "Opa", "Kai"])
    setup = SetupScreen(app, "kartenkampf")
    setup.on_input(app, "mode", "device", True)
    html = setup.render(app)
    assert 'value="Oma"' in html and 'value="Opa"' in html and 'value="Kai"' in html
    assert setup.choices["seats"] >= 3 and 'data-testid="seats-2" disabled' in html
    app.fields = {"person-0": "Kai", "person-1": "kai", "person-2": "Mia"}
    setup.handle(app, "start", None)
    assert not isinstance(app.screen, HandoverScreen) and "gleich" in setup.render(app)
    assert app.storage.load_game("kartenkampf") is None


def test_a_rematch_keeps_the_people_behind_the_cover():
    app = ScreenApp(seed=8)
    screen = start_together(app, "kartenkampf", ["Anna", "Ben"], 2)
    again = screen.table.rematch()
    assert again.meta["pass"] and again.seat is None and again.names() == ["Anna", "Ben"]


def test_the_computers_level_is_asked_only_while_a_seat_is_left_for_a_computer():
    app = ScreenApp()
    setup = SetupScreen(app, "paodekuai")  # three seats, always
    setup.on_input(app, "mode", "device", True)
    assert 'data-testid="strength-stark"' in setup.render(app), "two people and a computer"
    setup.handle(app, "add-person", None)
    html = setup.render(app)
    assert 'data-testid="person-2"' in html and 'data-testid="strength-stark"' not in html, "three people, no computer"
    setup.handle(app, "remove-person", "2")
    assert 'data-testid="strength-stark"' in setup.render(app)


def test_while_one_computer_plays_the_cover_names_it():
    app = ScreenApp(seed=2)
    screen = start_together(app, "maumau", ["Oma", "Opa"], 3)
    table = screen.table
    computer = [seat for seat in range(3) if table.is_computer(seat)]
    assert len(computer) == 1
    for _ in range(200):  # the people play until the computer is the one the game waits for
        seat = next_person(table)
        if seat is None and not table.over():
            break
        screen.handle(app, "handover-confirm", str(seat))
        table.act(table.view()["legal"][-1])
    html = screen.render(app)
    assert 'data-testid="handover-wait"' in html
    assert "%s ist dran\u00a0…" % table.names()[computer[0]] in html and "Die Computer" not in html


def test_a_person_with_nothing_to_beat_passes_without_being_handed_the_device():
    """Pao De Kuai: Passen is the only move when nothing beats the trick; the device is not passed for it."""
    app = ScreenApp(seed=4)
    screen = start_together(app, "paodekuai", ["Anna", "Ben", "Clara"], 3)
    table = screen.table
    passes_by_themselves = 0
    handed_for_a_pass = 0
    for _ in range(3000):
        if table.over():
            break
        html = screen.render(app)
        waiting = [seat for seat in table.to_move() if table.view_of(seat)["legal"] == ["pass"]]
        if waiting:
            seat = waiting[0]
            assert next_person(table) is None, "nobody is asked to take the device for a forced pass"
            assert screen.looking is None, "covered: the game's screen would say the passer is to play"
            assert "%s hat keine Wahl und passt\u00a0…" % table.names()[seat] in html
            app.run_timers()
            assert table.view_of(None)["turn"] != seat, "the pass was made when the computers' pace came"
            passes_by_themselves += 1
            continue
        seat = next_person(table)
        if seat is None:
            app.run_timers()
            continue
        if screen.looking is None:
            screen.handle(app, "handover-confirm", str(seat))
        legal = table.view()["legal"]
        handed_for_a_pass += legal == ["pass"]
        table.act(legal[-1] if len(legal) > 1 else legal[0])
    assert table.over() and passes_by_themselves >= 10 and handed_for_a_pass == 0


def test_a_game_moves_to_another_device_only_while_no_persons_secret_choice_waits():
    """The game's file holds every plan: while Anna's card waits unrevealed, Ben could read it (and undo the
    reveal by taking the file back in). Moving the game is offered again once the round is revealed."""
    from spieleabend.ui.transfer import TransferScreen

    app = ScreenApp(seed=3)
    screen = start_together(app, "punktejagd", ["Anna", "Ben"], 3)
    table = screen.table
    assert table.can_transfer()
    screen.handle(app, "handover-confirm", "0")
    table.act(table.view()["legal"][0])
    assert not table.can_transfer() and 'data-testid="transfer-wait"' in TransferScreen("punktejagd").render(app)
    screen.cover()
    screen.handle(app, "handover-confirm", "1")
    table.act(table.view()["legal"][0])
    app.run_timers()
    assert table.view()["round"] == 2 and table.can_transfer()
    offer = TransferScreen("punktejagd")
    offer.shareable = False  # the browser's share sheet is not asked here
    assert 'data-testid="transfer-wait"' not in offer.render(app)

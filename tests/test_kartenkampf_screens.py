"""Kartenkampf screens in CPython: reveal marks, tie-breakers, the reveal flow on any table, the infoscreen."""

import re

import pytest

from spieleabend.games import kartenkampf as engine
from spieleabend.games.common import IllegalAction, Rng
from spieleabend.ui import i18n
from spieleabend.ui import kartenkampf as ui
from spieleabend.ui.final import standings
from tests.fake_app import ScreenApp, ViewTable


@pytest.fixture(autouse=True)
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("de")


class RoomTable(ViewTable):
    """A table whose other seats choose elsewhere (as a room's phone or the infoscreen sees it)."""

    def __init__(self, seats, seat):
        ViewTable.__init__(self, "kartenkampf", engine.new_game({"seats": seats}, Rng(3)), seat, apply=True)



def play(state, cards):
    for seat, card in enumerate(cards):
        engine.apply_action(state, seat, "play %d" % card)


def text_of(html, testid):
    match = re.search(r'data-testid="%s"[^>]*>(.*?)</(p|span|li)>' % re.escape(testid), html, re.S)
    assert match, testid
    return re.sub(r"<[^>]+>", "", match.group(1))


def sorted_cards(html):
    block = re.search(r'data-testid="reveal-sorted"[^>]*>(.*?)</ol>', html, re.S).group(1)
    return [(int(c), int(s)) for c, s in re.findall(r'<li [^>]*data-card="(\d+)" data-seat="(\d+)"', block)]


# -- pure helpers -----------------------------------------------------------------------------
def test_the_rule_texts_example_marks_both_tens_and_the_seven_wins_31():
    entry = {"round": 1, "played": [10, 7, 10, 4], "winner": 1, "points": 31}
    items = ui.reveal_items(engine.reveal(entry))
    assert [(i["card"], i["seat"]) for i in items] == [(10, 0), (10, 2), (7, 1), (4, 3)]
    assert [i["tied"] for i in items] == [True, True, False, False]
    assert [i["winner"] for i in items] == [False, False, True, False]
    assert ui.knocked_out(engine.reveal(entry)) == [10]


def test_lower_ties_are_marked_but_not_named_as_knocking_out():
    entry = {"round": 2, "played": [3, 8, 3, 1], "winner": 1, "points": 15}
    reveal = engine.reveal(entry)
    assert [i["tied"] for i in ui.reveal_items(reveal)] == [False, True, True, False]
    assert ui.knocked_out(reveal) == []


def test_a_round_without_a_winner_returns_every_card():
    entry = {"round": 3, "played": [5, 5, 2, 2], "winner": None, "points": 0}
    reveal = engine.reveal(entry)
    assert all(i["returned"] for i in ui.reveal_items(reveal))
    assert ui.knocked_out(reveal) == [5, 2]


def outcome(scores, best, won):
    """The engine's outcome of a game with these figures (its judge, as outcome(state) uses it)."""
    return engine.judge(scores, won, best)


@pytest.mark.parametrize("result, kind, tied", [
    (outcome([40, 30, 20], [20, 30, 20], [2, 1, 1]), "points", [0]),
    (outcome([40, 40, 20], [25, 31, 20], [2, 2, 1]), "best_round", [0, 1]),
    (outcome([40, 40, 40], [31, 31, 20], [1, 2, 3]), "rounds_won", [0, 1]),
    (outcome([40, 40, 10], [31, 31, 10], [2, 2, 1]), "undecided", [0, 1]),
    (outcome([0, 0], [0, 0], [0, 0]), "undecided", [0, 1]),
])
def test_decision_names_the_tie_breaker_that_decided(result, kind, tied):
    assert (result["decided_by"], result["tied"]) == (kind, tied)


def test_decision_texts_spell_out_the_figures():
    names = ["Uta", "Ben", "Cem"]
    text = ui.decision_text(outcome([40, 40, 20], [25, 31, 20], [2, 2, 1]), names)
    assert "höchste einzelne Rundenergebnis" in text and "Uta 25, Ben 31" in text
    text = ui.decision_text(outcome([40, 40, 40], [31, 31, 20], [1, 2, 3]), names)
    assert "mehr gewonnene Runden" in text and "Uta 1, Ben 2" in text and "Cem" not in text
    text = ui.decision_text(outcome([40, 40, 10], [31, 31, 10], [2, 2, 1]), names)
    assert "unentschieden" in text and "Uta, Ben" in text


def test_standings_order_by_points_best_round_rounds_won_and_share_equal_places():
    rows = standings(outcome([40, 40, 50, 40], [31, 31, 20, 35], [2, 2, 3, 1]))
    assert [seat for seat, place, score in rows] == [2, 3, 0, 1]
    assert [place for seat, place, score in rows] == [1, 2, 3, 3]


def test_progress_is_round_rounds_done_and_totals():
    state = engine.new_game({"seats": 3}, Rng(1))
    play(state, [10, 9, 9])
    assert engine.progress(engine.view(state, None)) == {"round": 2, "done": 1, "scores": [28, 0, 0]}


# -- the table screen on a room's phone: waiting, and a round scored while waiting -----------
def test_phone_waits_with_who_has_chosen_then_shows_the_reveal_first_when_the_round_is_scored():
    app = ScreenApp(motion=True)
    table = RoomTable(3, 0)
    screen = ui.TableScreen(app, table)
    table.arrive(2, "play 6")
    html = screen.render(app)
    assert 'data-testid="chosen-2" data-chosen="yes"' in html
    assert 'data-testid="chosen-1" data-chosen="no"' in html
    assert html.count('data-card="6"') == 1, "only my own hand's 6: another seat's choice stays hidden"
    assert "reveal-sorted" not in html
    screen.handle(app, "select", "9")
    screen.handle(app, "confirm", None)
    html = screen.render(app)
    assert 'data-testid="waiting"' in html and "Deine Karte liegt verdeckt: 9" in html
    assert 'data-testid="hand"' not in html
    renders = app.renders
    table.arrive(1, "play 9")  # the last choice arrives over the network
    assert app.renders > renders, "the screen redraws when the view changes"
    html = screen.render(app)
    assert sorted_cards(html) == [(9, 0), (9, 1), (6, 2)]
    assert "Kein" not in text_of(html, "round-winner")
    assert text_of(html, "round-points") == "+24"
    assert "Die 9 liegt mehrfach" in text_of(html, "tie-note")
    assert 'data-testid="next-round"' in html
    screen.handle(app, "next", None)  # while the cards are dealt in: a tap meant for "confirm" skips nothing
    assert "reveal-sorted" in screen.render(app)
    app.clock.now += 3 * 90 + 450
    screen.handle(app, "next", None)
    html = screen.render(app)
    assert "Runde 2 von 10" in text_of(html, "round-number")
    assert 'data-testid="card-9"' not in html and 'data-gone="9"' in html


def test_a_round_without_a_winner_shows_the_cards_going_back_and_marks_the_returned_card():
    app = ScreenApp(motion=False)
    table = RoomTable(2, 0)
    screen = ui.TableScreen(app, table)
    table.arrive(1, "play 4")
    screen.on_key(app, "4")
    assert screen.on_key(app, "Enter")
    html = screen.render(app)
    assert text_of(html, "round-winner") == "Kein Rundensieger"
    assert "zurück" in text_of(html, "tie-note")
    assert html.count("↩</span> zurück<") == 2
    assert 'data-testid="round-points"' not in html
    assert " deal" not in html, "reduced motion: no dealing animation"
    assert screen.on_key(app, "Enter")
    html = screen.render(app)
    assert 'data-testid="card-4"' in html and 'data-testid="returned-note"' in html


def test_a_reveal_is_dealt_once_not_again_when_the_next_round_starts_elsewhere():
    app = ScreenApp(motion=True)
    table = RoomTable(3, 0)
    screen = ui.TableScreen(app, table)
    table.arrive(1, "play 2")
    table.arrive(2, "play 3")
    screen.handle(app, "select", "5")
    screen.handle(app, "confirm", None)
    assert " deal" in screen.render(app)
    app.clock.now += 500  # a busy task (computers choosing) draws again later: the deal still counts from the first
    assert " deal" in screen.render(app), "several draws in one go keep the dealing"
    dealing = screen.render(app)
    app.run_timers()  # the tap's task has ended
    app.clock.now += 3 * 90 + 450 - 500 - 1
    # A redraw in a later task while the cards are still being dealt draws the same markup: the page keeps the
    # dealing nodes, and "Nächste Runde" stays behind the deal as long as a tap on it is refused.
    assert screen.render(app) == dealing
    screen.handle(app, "next", None)
    assert 'data-testid="reveal-sorted"' in screen.render(app)
    app.clock.now += 1
    table.arrive(1, "play 4")  # a phone chooses for round 2 while this one still looks at round 1
    html = screen.render(app)
    assert 'data-testid="reveal-sorted"' in html and " deal" not in html and "after-deal" not in html


def test_a_committed_card_the_host_has_not_seen_shows_as_my_choice_while_waiting():
    class Committing(RoomTable):
        """A phone that has only committed: the host's view does not know the card yet."""
        pending = None

        def view(self):
            view = RoomTable.view(self)
            if self.pending is not None:
                view["pending"] = self.pending
                view["legal"] = []
                engine.pending_view(view, self.pending)
            return view

        def act(self, action):
            self.pending = action
            self.changed()

    app = ScreenApp(motion=True)
    table = Committing(3, 1)
    screen = ui.TableScreen(app, table)
    screen.handle(app, "select", "8")
    screen.handle(app, "confirm", None)
    assert table.state["choices"] == [None, None, None], "the engine has not seen it"
    html = screen.render(app)
    assert "Deine Karte liegt verdeckt: 8" in html
    assert 'data-testid="chosen-1" data-chosen="yes"' in html
    assert engine.pending_view({"seat": 0, "committed": [False]}, "bogus") == {"seat": 0, "committed": [False]}


def test_keys_pick_only_cards_in_hand_and_zero_is_ten():
    app = ScreenApp(motion=True)
    table = RoomTable(2, 0)
    screen = ui.TableScreen(app, table)
    assert screen.keys == "", "nothing chosen: Enter on a focused button stays that button's"
    assert screen.on_key(app, "0")
    assert screen.selected == 10
    assert screen.keys == "Enter", "a card chosen: Enter confirms it, wherever focus is"
    assert not screen.on_key(app, "x")
    assert screen.on_key(app, "Enter")
    assert table.state["choices"][0] == 10


def test_the_number_of_a_card_no_longer_in_hand_is_told_not_silent():
    app = ScreenApp(motion=True)
    table = RoomTable(2, 0)
    screen = ui.TableScreen(app, table)
    table.state["hands"][0].remove(7)
    assert screen.on_key(app, "7") and screen.selected is None
    assert app.toasts[-1] == "Die 7 hast du nicht mehr."


def test_an_illegal_action_is_told_not_swallowed():
    class Refusing(RoomTable):
        def act(self, action):
            raise IllegalAction("nope")

    app = ScreenApp(motion=True)
    table = Refusing(2, 0)
    screen = ui.TableScreen(app, table)
    screen.handle(app, "select", "3")
    screen.handle(app, "confirm", None)
    assert app.toasts == ["Dieser Zug geht gerade nicht."]


def test_a_view_that_has_not_arrived_yet_shows_connecting_and_the_first_view_sets_what_was_seen():
    class Late(RoomTable):
        ready = False

        def view(self):
            return RoomTable.view(self) if self.ready else None

    app = ScreenApp(motion=True)
    table = Late(2, 1)
    play(table.state, [3, 5])
    screen = ui.TableScreen(app, table)
    assert "Verbinde" in screen.render(app)
    table.ready = True
    table.changed()
    assert 'data-testid="hand"' in screen.render(app), "the round scored before the first view is not revealed"
    assert table.seen_rounds() == 1


# -- the infoscreen: public view only, large layout -----------------------------------------
def test_infoscreen_shows_who_has_chosen_never_what_then_the_sorted_reveal_and_standings():
    app = ScreenApp(motion=True)
    table = RoomTable(3, None)
    screen = ui.TableScreen(app, table)
    engine.apply_action(table.state, 0, "play 10")
    engine.apply_action(table.state, 1, "play 10")
    html = screen.render(app)
    assert "kk-screen" in html
    assert 'data-testid="chosen-0" data-chosen="yes"' in html and 'data-testid="chosen-2" data-chosen="no"' in html
    assert "data-card" not in html, "no card before the reveal"
    assert "2 von 3 haben gewählt" in html
    table.arrive(2, "play 7")
    html = screen.render(app)
    assert sorted_cards(html) == [(10, 0), (10, 1), (7, 2)]
    assert text_of(html, "round-points") == "+27"
    assert "Die 10 liegt mehrfach" in text_of(html, "tie-note")
    assert 'data-testid="hand"' not in html and 'data-testid="confirm"' not in html
    assert not screen.on_key(app, "Enter")
    while engine.outcome(table.state) is None:
        play(table.state, [hand[-1] for hand in table.state["hands"]])
    html = screen.render(app)
    assert 'data-testid="final-headline"' in html and 'data-testid="night-point"' in html
    assert 'data-testid="standing-0"' in html


# -- the final standings on a local table ---------------------------------------------------
def finished_state(rounds, seats):
    state = engine.new_game({"seats": seats, "names": ["Uta", "Ben", "Cem"][:seats]}, Rng(1))
    for cards in rounds:
        play(state, cards)
    assert engine.outcome(state) is not None
    return state


# Whole games (cards per round, seat 0 first) whose two leaders end level on points.
BY_BEST_ROUND = [[6, 7], [7, 3], [10, 1], [4, 9], [9, 2], [3, 8], [2, 5], [5, 4], [8, 6], [1, 10]]
BY_ROUNDS_WON = [[9, 7], [2, 2], [8, 1], [1, 2], [2, 4], [5, 6], [10, 3], [3, 10], [6, 5], [7, 9]]
UNDECIDED = [[1, 8], [10, 4], [2, 6], [6, 5], [7, 3], [8, 2], [4, 10], [3, 7], [5, 9], [9, 1]]


def final_html(rounds, seat=0):
    state = finished_state(rounds, len(rounds[0]))
    app = ScreenApp(motion=True)
    table = RoomTable(len(rounds[0]), seat)
    table.state = state
    return ui.TableScreen(app, table).render(app)


def test_final_standings_decided_by_the_best_round():
    html = final_html(BY_BEST_ROUND)
    assert text_of(html, "final-headline") == "Du gewinnst!"
    decider = text_of(html, "tie-break")
    assert "Gleichstand bei 55 Punkten" in decider and "höchste einzelne Rundenergebnis: Uta 14, Ben 13" in decider
    assert text_of(html, "night-point") == "Du bekommst 1 Spieleabend-Punkt."
    assert html.index('data-testid="standing-0"') < html.index('data-testid="standing-1"')


def test_final_standings_decided_by_rounds_won():
    html = final_html(BY_ROUNDS_WON)
    assert text_of(html, "final-headline") == "Ben gewinnt!"
    decider = text_of(html, "tie-break")
    assert "besten Rundenergebnis 16" in decider and "Uta 4, Ben 5" in decider
    assert text_of(html, "night-point") == "1 Spieleabend-Punkt für Ben."
    assert html.index('data-testid="standing-1"') < html.index('data-testid="standing-0"')


def test_final_standings_level_on_everything_are_undecided():
    html = final_html(UNDECIDED)
    assert text_of(html, "final-headline") == "Unentschieden"
    assert "Uta, Ben sind gleich" in text_of(html, "tie-break")
    assert "Kein Spieleabend-Punkt" in text_of(html, "night-point")
    assert html.count("Platz 1") == 2


def test_undecided_game_awards_no_night_point():
    state = finished_state([[n, n] for n in range(1, 11)], 2)  # every round tied: nobody scores
    app = ScreenApp(motion=True)
    table = RoomTable(2, 0)
    table.state = state
    html = ui.TableScreen(app, table).render(app)
    assert text_of(html, "final-headline") == "Unentschieden"
    assert "Kein Spieleabend-Punkt" in text_of(html, "night-point")
    assert "unentschieden" in text_of(html, "tie-break")


def test_english_texts():
    i18n.set_language("en")
    app = ScreenApp(motion=True)
    table = RoomTable(2, 0)
    html = ui.TableScreen(app, table).render(app)
    assert "Round 1 of 10" in html and "Confirm card" in html and "Secret choice" in html


def test_the_last_to_choose_in_a_room_waits_for_the_reveal_not_for_the_others():
    """A room's phone that chose last read "Warte auf die anderen … 3 von 3 haben gewählt" until the host
    revealed; it now says that everyone has chosen and the reveal is coming."""
    app = ScreenApp()
    table = RoomTable(3, 2)
    screen = ui.TableScreen(app, table)
    play(table.state, [10, 7])
    view = dict(engine.view(table.state, 2), choice=4)
    view["committed"] = [True, True, False]
    assert "2 von 3 haben gewählt" in screen.render_waiting(view)
    view["committed"] = [True, True, True]
    waiting = screen.render_waiting(view)
    assert "Alle haben gewählt – gleich wird aufgedeckt." in waiting and "Warte auf die anderen" not in waiting

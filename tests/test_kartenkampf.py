"""Kartenkampf: the rule text's example, every rule table-driven, bad input, and seeded playouts."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from spieleabend.bots import kartenkampf as bots
from spieleabend.games import kartenkampf as kk
from spieleabend.games import run_bots
from spieleabend.games.common import BadOptions, IllegalAction, Rng, copy_data


def new(seats=2, seed=1):
    return kk.new_game({"seats": seats}, Rng(seed))


def play_round(state, cards):
    """Let every seat play its card of `cards` (seat order)."""
    for seat, card in enumerate(cards):
        kk.apply_action(state, seat, "play %d" % card)


def play_rounds(state, rounds):
    for cards in rounds:
        play_round(state, cards)


def fill_with_ties(state, card):
    """Finish the game with rounds in which every seat plays the same card (no winner, cards return)."""
    while kk.outcome(state) is None:
        play_round(state, [card] * state["seats"])


# --- The rule text's worked example, verbatim ------------------------------------------

def test_example_10_10_7_4_the_7_wins_31_points():
    # "Beispiel: 10, 10, 7, 4 → die beiden 10er fallen wegen des Patts heraus, die 7 gewinnt.
    #  Der Spieler mit der 7 erhält 31 Punkte."
    assert list(kk.resolve_round([10, 10, 7, 4])) == [2, 31]
    state = new(4)
    play_round(state, [10, 10, 7, 4])
    view = kk.view(state, None)
    assert view["scores"] == [0, 0, 31, 0]
    assert view["log"][-1] == {"round": 1, "played": [10, 10, 7, 4], "winner": 2, "points": 31}


# --- resolve_round, table-driven -------------------------------------------------------

@pytest.mark.parametrize("cards, expected", [
    ([3, 9], [1, 12]),                      # plain highest card
    ([9, 3], [0, 12]),
    ([5, 5], [None, 0]),                    # two seats, same card: nobody wins
    ([10, 10, 7, 4], [2, 31]),              # rule text example
    ([10, 10, 9, 9, 2], [4, 40]),           # search goes all the way down; blocked cards count
    ([8, 8, 6, 6, 1, 1], [None, 0]),        # no unique number at all
    ([1, 2, 3, 4, 5, 6, 7, 8], [7, 36]),    # eight seats, all different
    ([7, 7, 7, 1], [3, 22]),                # a triple is blocked like a pair
    ([4, 10, 4], [1, 18]),
])
def test_resolve_round(cards, expected):
    assert list(kk.resolve_round(cards)) == expected


# --- Cards used up or returned ---------------------------------------------------------

def test_round_with_winner_uses_up_every_played_card():
    state = new(3)
    play_round(state, [10, 10, 7])
    assert 10 not in state["hands"][0] and 10 not in state["hands"][1] and 7 not in state["hands"][2]
    assert [len(hand) for hand in state["hands"]] == [9, 9, 9]
    with pytest.raises(IllegalAction):
        kk.apply_action(state, 0, "play 10")
    assert kk.view(state, None)["spent"] == [[10], [10], [7]]


def test_round_without_winner_returns_every_card():
    state = new(4)
    play_round(state, [6, 6, 2, 2])
    assert state["hands"] == [list(range(1, 11))] * 4
    assert kk.view(state, None)["scores"] == [0, 0, 0, 0]
    assert kk.view(state, 0)["reveal"]["returned"] is True
    play_round(state, [6, 6, 2, 2])      # the same cards may be played again
    assert len(state["log"]) == 2


def test_game_ends_after_ten_rounds_even_if_cards_remain():
    state = new(2)
    play_rounds(state, [[1, 1]] * 9)
    assert kk.outcome(state) is None
    play_round(state, [1, 1])
    assert kk.outcome(state) is not None
    assert state["hands"] == [list(range(1, 11))] * 2   # every card came back, game still over
    assert kk.to_move(state) == []
    assert kk.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction):
        kk.apply_action(state, 0, "play 5")


def test_game_ends_after_ten_rounds_when_all_cards_are_used():
    state = new(2)
    play_rounds(state, [[c, 11 - c] for c in range(1, 11)])
    result = kk.outcome(state)
    assert result is not None
    assert state["hands"] == [[], []]
    assert sum(result["scores"]) == 110


# --- Winner and tie-breakers, each one separately --------------------------------------

def test_most_points_wins_even_with_a_smaller_best_round():
    state = new(2)
    # Seat 0 wins one round of 19; seat 1 wins 15 and 11 (26 points, best round only 15).
    play_rounds(state, [[10, 9], [7, 8], [5, 6]])
    fill_with_ties(state, 1)
    result = kk.outcome(state)
    assert result["scores"] == [19, 26]
    assert result["best_round"] == [19, 15]
    assert result["winners"] == [1]
    assert result["night_point"] == 1


def test_equal_points_highest_single_round_decides():
    state = new(2)
    # Seat 0: one round of 19. Seat 1: 15 + 4 = 19, best round 15.
    play_rounds(state, [[10, 9], [7, 8], [1, 3]])
    fill_with_ties(state, 2)
    result = kk.outcome(state)
    assert result["scores"] == [19, 19]
    assert result["best_round"] == [19, 15]
    assert result["winners"] == [0]
    assert result["night_point"] == 0


def test_equal_points_and_best_round_more_rounds_won_decides():
    state = new(2)
    # Both win a 19; seat 0 adds 11 in one round, seat 1 adds 5 + 6 in two rounds.
    play_rounds(state, [[10, 9], [9, 10], [7, 4], [2, 3], [1, 5]])
    fill_with_ties(state, 6)
    result = kk.outcome(state)
    assert result["scores"] == [30, 30]
    assert result["best_round"] == [19, 19]
    assert result["rounds_won"] == [2, 3]
    assert result["winners"] == [1]
    assert result["night_point"] == 1


def test_still_equal_means_no_winner_and_no_night_point():
    state = new(2)
    play_rounds(state, [[10, 9], [9, 10]])
    fill_with_ties(state, 1)
    result = kk.outcome(state)
    assert result["scores"] == [19, 19]
    assert result["winners"] == []
    assert result["night_point"] is None


def test_no_round_won_at_all_means_no_winner():
    state = new(3)
    fill_with_ties(state, 4)
    result = kk.outcome(state)
    assert result["scores"] == [0, 0, 0]
    assert result["winners"] == [] and result["night_point"] is None


def test_tie_at_the_top_gives_no_winner_even_when_a_third_seat_is_behind():
    state = new(3)
    # Seats 0 and 1 take 21 each in one round; seat 2 never wins.
    play_rounds(state, [[10, 8, 3], [9, 10, 2]])
    fill_with_ties(state, 5)
    result = kk.outcome(state)
    assert result["scores"] == [21, 21, 0]
    assert result["winners"] == []
    assert result["night_point"] is None


# --- Simultaneous secret choice and the views ------------------------------------------

def test_every_uncommitted_seat_is_to_move_and_a_choice_is_final():
    state = new(3)
    assert kk.to_move(state) == [0, 1, 2]
    kk.apply_action(state, 1, "play 4")
    assert kk.to_move(state) == [0, 2]
    assert kk.legal_actions(state, 1) == []
    before = copy_data(state)
    with pytest.raises(IllegalAction):
        kk.apply_action(state, 1, "play 5")
    assert state == before


def test_a_committed_choice_stays_secret_until_the_reveal():
    state = new(3)
    kk.apply_action(state, 0, "play 8")
    other = new(3)
    kk.apply_action(other, 0, "play 3")
    for seat in (1, 2, None):
        view = kk.view(state, seat)
        assert view["committed"] == [True, False, False]
        assert view["reveal"] is None and view.get("choice") is None
        assert view == kk.view(other, seat)     # nothing in it depends on the secret card
    assert kk.view(state, 0)["choice"] == 8
    assert "hand" not in kk.view(state, None)


def test_reveal_sorts_cards_descending_and_keeps_the_winner_in_place():
    state = new(4)
    play_round(state, [4, 10, 7, 10])
    reveal = kk.view(state, None)["reveal"]
    assert reveal["cards"] == [
        {"seat": 1, "card": 10, "winner": False, "tied": True},
        {"seat": 3, "card": 10, "winner": False, "tied": True},
        {"seat": 2, "card": 7, "winner": True, "tied": False},
        {"seat": 0, "card": 4, "winner": False, "tied": False},
    ]
    assert reveal["winner"] == 2 and reveal["winning_card"] == 7 and reveal["points"] == 31
    assert reveal["returned"] is False
    # The rule text's example: the two 10s block each other, so the 7 wins.
    assert reveal["knocked_out"] == [10]


def test_view_shows_own_hand_and_public_facts():
    state = new(2)
    play_round(state, [10, 3])
    view = kk.view(state, 1)
    assert view["seat"] == 1
    assert view["hand"] == [1, 2, 4, 5, 6, 7, 8, 9, 10]
    assert view["legal"] == ["play %d" % c for c in view["hand"]]
    assert view["round"] == 2 and view["rounds_total"] == 10
    assert view["scores"] == [13, 0] and view["rounds_won"] == [1, 0]
    assert view["cards_left"] == [9, 9]
    assert kk.view(state, None)["legal"] == []


# --- Bad options and illegal actions ---------------------------------------------------

@pytest.mark.parametrize("options", [{"seats": 1}, {"seats": 9}, {"seats": "3"}, {"seats": True},
                                     {"seats": 3, "names": ["A", "B"]}, {"seats": 2, "names": "AB"}])
def test_bad_options(options):
    with pytest.raises(BadOptions):
        kk.new_game(options, Rng(1))


@pytest.mark.parametrize("seat, action", [
    (0, "play 11"), (0, "play 0"), (0, "play"), (0, "spiel 3"), (0, "play three"), (0, "play 3 4"),
    (0, ""), (0, None), (0, 3), (5, "play 3"), (-1, "play 3"), (None, "play 3"), ("0", "play 3"),
    (1, "play 9"),   # seat 1 has used up its 9
])
def test_illegal_actions_raise_and_change_nothing(seat, action):
    state = new(2)
    play_round(state, [10, 9])
    kk.apply_action(state, 0, "play 4")
    before = copy_data(state)
    with pytest.raises(IllegalAction):
        kk.apply_action(state, seat, action)
    assert state == before


def test_default_options_give_the_declared_seats_and_names_are_kept():
    assert kk.new_game({}, Rng(0))["seats"] == kk.INFO["seats"]["default"] == 4
    state = kk.new_game({"seats": 3, "names": ["Ada", "Bo", "Cem"]}, Rng(0))
    assert kk.view(state, None)["names"] == ["Ada", "Bo", "Cem"]


# --- Seeded playouts: invariants over thousands of games -------------------------------

def check_invariants(state, views=True):
    """Check conservation, scores and the JSON round trip; with `views`, also that no view leaks."""
    seats = state["seats"]
    spent = kk.view(state, None)["spent"]
    for seat in range(seats):
        # Cards conserved: in hand plus used up is exactly 1..10.
        assert sorted(state["hands"][seat] + spent[seat]) == list(range(1, 11))
        choice = state["choices"][seat]
        assert choice is None or choice in state["hands"][seat]
    scores, _, _ = kk.tally(state)
    assert sum(scores) == sum(sum(e["played"]) for e in state["log"] if e["winner"] is not None)
    assert json.loads(json.dumps(state)) == state
    if not views:
        return
    for seat in list(range(seats)) + [None]:
        view = kk.view(state, seat)
        assert json.loads(json.dumps(view)) == view
        # Views leak nothing: another seat's pending choice may change without changing the view.
        altered = copy_data(state)
        for other in range(seats):
            choice = state["choices"][other]
            if other != seat and choice is not None and len(state["hands"][other]) > 1:
                hand = state["hands"][other]
                altered["choices"][other] = hand[(hand.index(choice) + 1) % len(hand)]
        assert kk.view(altered, seat) == view


def playout(seats, seed, players, views=True):
    """Play one whole game applying only legal actions; return the state."""
    state = new(seats, seed)
    rng = Rng(seed + 99)
    steps = 0
    while kk.outcome(state) is None:
        movers = kk.to_move(state)
        seat = movers[rng.below(len(movers))]
        view = kk.view(state, seat)
        action = players[seat](json.loads(json.dumps(view)), rng)
        assert action in kk.legal_actions(state, seat)
        kk.apply_action(state, seat, action)
        steps += 1
        check_invariants(state, views)
    assert steps == 10 * seats       # ends within its bound: exactly ten rounds of choices
    return state


@pytest.mark.slow
def test_random_playouts_keep_invariants():
    for game in range(500):
        seats = 2 + game % 7
        playout(seats, game, [bots.choose_random] * seats, views=game < 100)


@pytest.mark.slow
def test_many_fast_playouts_end_with_a_consistent_outcome():
    for game in range(2000):
        seats = 2 + game % 7
        state = new(seats, game)
        run_bots(kk, state, [bots.choose_random] * seats, Rng(game))
        result = kk.outcome(state)
        assert len(state["log"]) == 10
        keys = [[result["scores"][s], result["best_round"][s], result["rounds_won"][s]]
                for s in range(seats)]
        if result["winners"]:
            (winner,) = result["winners"]
            assert all(keys[winner] > keys[s] for s in range(seats) if s != winner)
            assert result["night_point"] == winner
        else:
            assert sorted(keys)[-1] == sorted(keys)[-2] and result["night_point"] is None


@pytest.mark.slow
def test_strong_bot_playouts_keep_invariants():
    for game in range(60):
        seats = 2 + game % 7
        players = [bots.choose_strong if s % 2 == 0 else bots.choose_random for s in range(seats)]
        playout(seats, 5000 + game, players, views=game < 20)


def test_same_seed_replays_the_same_game():
    def log_of(seed):
        state = new(4, seed)
        run_bots(kk, state, [bots.choose_strong, bots.choose_random] * 2, Rng(seed))
        return state["log"]
    assert log_of(7) == log_of(7)
    assert log_of(7) != log_of(8)


@settings(max_examples=150, deadline=None)
@given(seats=st.integers(2, 8),
       moves=st.lists(st.tuples(st.integers(-1, 8), st.integers(-1, 12)), max_size=120))
def test_any_sequence_of_attempts_applies_only_legal_actions(seats, moves):
    state = new(seats)
    for seat, card in moves:
        action = "play %d" % card
        before = copy_data(state)
        if action in kk.legal_actions(state, seat):
            kk.apply_action(state, seat, action)
        else:
            with pytest.raises(IllegalAction):
                kk.apply_action(state, seat, action)
            assert state == before
        check_invariants(state)

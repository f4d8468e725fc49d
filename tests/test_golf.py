"""Golf: every rule table-driven, knowledge and views, bad input, and seeded playouts."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from spieleabend.bots import golf as bots
from spieleabend.games import golf
from spieleabend.games import run_bots
from spieleabend.games.common import BadOptions, IllegalAction, Rng, copy_data, french_deck


def new(seats=2, seed=1, **options):
    options["seats"] = seats
    return golf.new_game(options, Rng(seed))


def rig(state, grids, discard_top, stock_top=()):
    """Re-deal the current round with chosen grids, discard top and top stock cards (first = drawn first)."""
    pool = french_deck(state["decks"])
    for card in [c for grid in grids for c in grid] + [discard_top] + list(stock_top):
        pool.remove(card)
    state["grids"] = [list(grid) for grid in grids]
    state["discard"] = [discard_top]
    state["stock"] = pool + list(reversed(stock_top))


def all_ready(state):
    for seat in golf.to_move(state):
        golf.apply_action(state, seat, "ready")


def rigged(grids, discard_top="5S", stock_top=(), **options):
    state = new(len(grids), **options)
    rig(state, grids, discard_top, stock_top)
    all_ready(state)
    return state


def act(state, *actions):
    """Apply actions, each by the seat on turn."""
    for action in actions:
        golf.apply_action(state, state["turn"], action)


def cards_in_play(state):
    cards = [c for grid in state["grids"] for c in grid] + state["stock"] + state["discard"]
    if state["drawn"] is not None:
        cards.append(state["drawn"])
    return sorted(cards)


# --- Values ----------------------------------------------------------------------------

@pytest.mark.parametrize("card, value", [
    ("AS", 1), ("2H", 2), ("3D", 3), ("4C", 4), ("5S", 5), ("6H", 6), ("7D", 7), ("8C", 8),
    ("9S", 9), ("10H", 10), ("JD", 10), ("QC", 10), ("KS", 0),
])
def test_card_values_ace_1_numbers_face_value_jack_queen_10_king_0(card, value):
    assert golf.card_value(card) == value


# --- Deal, peek and knowledge ----------------------------------------------------------

@pytest.mark.parametrize("seats, decks, stock", [(2, 1, 43), (4, 1, 35), (8, 1, 19), (6, 2, 79),
                                                 (8, 2, 71)])
def test_deal_four_face_down_each_one_card_up_rest_is_stock(seats, decks, stock):
    state = new(seats, decks=decks)
    assert [len(grid) for grid in state["grids"]] == [4] * seats
    assert len(state["discard"]) == 1 and len(state["stock"]) == stock
    assert cards_in_play(state) == sorted(french_deck(decks))


def test_two_decks_are_suggested_from_six_seats_up():
    assert [golf.suggested_decks(n) for n in range(2, 9)] == [1, 1, 1, 1, 2, 2, 2]


def test_peek_phase_shows_each_seat_its_bottom_two_once():
    state = new(3, seed=4)
    assert golf.to_move(state) == [0, 1, 2]
    view = golf.view(state, 1)
    assert view["phase"] == "peek" and view["legal"] == ["ready"]
    assert view["peek"] == [2, 3]
    assert view["known"] == [None, None, state["grids"][1][2], state["grids"][1][3]]
    golf.apply_action(state, 1, "ready")
    view = golf.view(state, 1)
    assert view["peek"] == []                      # hidden again for the UI ...
    assert view["known"][2:] == state["grids"][1][2:]   # ... but the seat still knows them
    assert golf.to_move(state) == [0, 2] and view["legal"] == []


def test_nobody_may_draw_before_every_seat_has_peeked():
    state = new(2)
    golf.apply_action(state, 0, "ready")
    before = copy_data(state)
    for seat, action in [(1, "draw"), (0, "draw"), (1, "knock"), (0, "ready")]:
        with pytest.raises(IllegalAction):
            golf.apply_action(state, seat, action)
        assert state == before


def test_seat_knows_what_it_placed_and_nothing_else():
    state = rigged([["9S", "8S", "KS", "AS"], ["2H", "3H", "4H", "5H"]], "QD", stock_top=["2C"])
    act(state, "draw")
    assert golf.view(state, state["turn"])["drawn"] == "2C"
    act(state, "swap 0")
    view = golf.view(state, 0)
    assert view["known"] == ["2C", None, "KS", "AS"]
    assert view["public"][0] == [None, None, None, None]   # a stock card goes in unseen by others
    assert golf.view(state, 1)["known"] == [None, None, "4H", "5H"]


# --- Turns -----------------------------------------------------------------------------

def test_draw_then_swap_puts_the_old_card_face_up_on_the_discard_pile():
    state = rigged([["9S", "8S", "KS", "AS"], ["2H", "3H", "4H", "5H"]], "QD", stock_top=["3C"])
    assert state["turn"] == 0                  # default dealer is the last seat: seat 0 starts
    act(state, "draw")
    assert golf.legal_actions(state, 0) == ["swap 0", "swap 1", "swap 2", "swap 3", "discard"]
    act(state, "swap 1")
    assert state["grids"][0] == ["9S", "3C", "KS", "AS"]
    assert state["discard"][-1] == "8S"
    assert state["turn"] == 1
    assert golf.view(state, 1)["events"][-1] == {"seat": 0, "action": "swap", "position": 1, "out": "8S"}


def test_draw_then_discard_keeps_the_grid():
    state = rigged([["9S", "8S", "KS", "AS"], ["2H", "3H", "4H", "5H"]], "QD", stock_top=["JC"])
    act(state, "draw", "discard")
    assert state["grids"][0] == ["9S", "8S", "KS", "AS"]
    assert state["discard"][-2:] == ["QD", "JC"]
    assert state["turn"] == 1


def test_a_drawn_card_is_seen_only_by_the_drawing_seat_until_placed():
    state = rigged([["9S", "8S", "KS", "AS"], ["2H", "3H", "4H", "5H"]], "QD", stock_top=["7C"])
    act(state, "draw")
    assert golf.view(state, 0)["drawn"] == "7C"
    for seat in (1, None):
        view = golf.view(state, seat)
        assert view["drawing"] == 0 and view.get("drawn") is None
        assert "7C" not in json.dumps(view)


def test_take_swaps_the_top_discard_in_and_it_cannot_go_back():
    state = rigged([["9S", "8S", "KS", "AS"], ["2H", "3H", "4H", "5H"]], "2D")
    act(state, "take 0")
    assert state["grids"][0] == ["2D", "8S", "KS", "AS"]
    assert state["discard"] == ["9S"]           # the replaced card, the taken one stays in the grid
    assert state["turn"] == 1                   # the turn is over: no 'discard' of the taken card
    assert golf.view(state, 1)["public"][0] == ["2D", None, None, None]
    assert golf.view(state, 0)["known"][0] == "2D"


@pytest.mark.parametrize("first_dealer, starters", [
    (0, [1, 2, 3, 0, 1, 2, 3, 0, 1]),
    (3, [0, 1, 2, 3, 0, 1, 2, 3, 0]),
    (2, [3, 0, 1, 2, 3, 0, 1, 2, 3]),
])
def test_dealer_moves_on_each_of_nine_rounds_and_the_next_seat_starts(first_dealer, starters):
    state = new(4, dealer=first_dealer)
    seen_starters = []
    dealers = []
    while golf.outcome(state) is None:
        all_ready(state)
        view = golf.view(state, None)
        dealers.append(view["dealer"])
        seen_starters.append(state["turn"])
        act(state, "knock", "draw", "discard", "draw", "discard", "draw", "discard")
    assert len(state["results"]) == 9
    assert seen_starters == starters
    assert dealers == [(first_dealer + r) % 4 for r in range(9)]
    assert [r["dealer"] for r in state["results"]] == dealers


# --- Knocking --------------------------------------------------------------------------

def test_after_a_knock_every_other_seat_has_exactly_one_more_turn():
    state = rigged([["KS", "KH", "AS", "AH"], ["9S", "9H", "9D", "9C"], ["8S", "8H", "8D", "8C"]],
                   "QD", dealer=0)
    assert state["turn"] == 1
    act(state, "draw", "discard")           # seat 1
    act(state, "draw", "discard")           # seat 2
    act(state, "knock")                     # seat 0 knocks
    assert golf.view(state, None)["turns_left"] == 2
    assert state["turn"] == 1 and "knock" not in golf.legal_actions(state, 1)
    act(state, "draw", "discard")           # seat 1's last turn
    assert state["turn"] == 2 and len(state["results"]) == 0
    act(state, "draw", "discard")           # seat 2's last turn ends the round
    result = state["results"][0]
    assert result["knocker"] == 0 and result["ended_by"] == "knock"
    assert result["points"] == [2, 36, 32] and result["penalty"] == [0, 0, 0]
    assert golf.view(state, None)["phase"] == "peek" and golf.view(state, None)["round"] == 2


def test_nobody_else_may_knock_after_a_knock():
    state = rigged([["KS", "KH", "AS", "AH"], ["9S", "9H", "9D", "9C"], ["8S", "8H", "8D", "8C"]])
    act(state, "knock")
    before = copy_data(state)
    with pytest.raises(IllegalAction, match="already knocked"):
        golf.apply_action(state, 1, "knock")
    assert state == before
    assert golf.legal_actions(state, 1) == ["draw", "take 0", "take 1", "take 2", "take 3"]


@pytest.mark.parametrize("grids, knocker, penalty, why", [
    ([["KS", "KH", "2S", "AH"], ["9S", "9H", "9D", "9C"]], 0, [0, 0], "knocker strictly lowest"),
    ([["KS", "KH", "2S", "AH"], ["KD", "KC", "AS", "AD"]], 0, [10, 0], "another seat lower"),
    ([["KS", "KH", "2S", "AH"], ["KD", "KC", "2D", "AD"]], 0, [0, 0], "tie for lowest: no penalty"),
    ([["KS", "KH", "2S", "AH"], ["KD", "KC", "2D", "AD"], ["KD", "KC", "AS", "AD"]], 0, [10, 0, 0],
     "tie with one seat but a third is lower"),
    ([["JS", "QH", "10S", "9H"], ["JD", "QC", "10D", "9C"], ["10H", "QD", "JC", "9D"]], 1, [0, 0, 0],
     "everyone equal, high cards"),
])
def test_knock_penalty(grids, knocker, penalty, why):
    state = rigged(grids, "5S", decks=2, dealer=(knocker - 1) % len(grids))
    assert state["turn"] == knocker
    act(state, "knock")
    for _ in range(len(grids) - 1):
        act(state, "draw", "discard")
    result = state["results"][0]
    assert result["penalty"] == penalty, why
    assert result["scores"] == [p + e for p, e in zip(result["points"], penalty)]
    assert result["totals"] == result["scores"]


def test_knock_penalty_helper_both_ways():
    assert golf.knock_penalties([3, 5, 9], 0) == [0, 0, 0]
    assert golf.knock_penalties([3, 2, 9], 0) == [10, 0, 0]
    assert golf.knock_penalties([3, 3, 9], 1) == [0, 0, 0]
    assert golf.knock_penalties([3, 3, 9], None) == [0, 0, 0]


# --- Turn limit, reshuffle -------------------------------------------------------------

def test_round_without_a_knock_ends_at_the_turn_limit_without_penalty():
    state = rigged([["KS", "KH", "AS", "AH"], ["9S", "9H", "9D", "9C"]], "QD")
    limit = golf.TURN_LIMIT * 2
    for turn in range(limit - 1):
        act(state, "draw", "discard")
        assert len(state["results"]) == 0
    assert golf.view(state, None)["turns_left"] == 1
    act(state, "draw", "discard")
    result = state["results"][0]
    assert result["ended_by"] == "limit" and result["knocker"] is None
    assert result["points"] == [2, 36] and result["penalty"] == [0, 0]


def test_a_knock_on_the_last_turn_before_the_limit_still_gives_everyone_a_last_turn():
    state = rigged([["KS", "KH", "AS", "AH"], ["9S", "9H", "9D", "9C"]], "QD")
    for _ in range(golf.TURN_LIMIT * 2 - 1):
        act(state, "draw", "discard")
    act(state, "knock")                        # seat 1 knocks on the very last turn
    assert len(state["results"]) == 0 and state["turn"] == 0
    act(state, "draw", "discard")
    assert state["results"][0]["knocker"] == 1 and state["results"][0]["penalty"] == [0, 10]


def test_empty_stock_is_refilled_from_the_discard_pile_except_its_top_card():
    state = rigged([["KS", "KH", "AS", "AH"], ["9S", "9H", "9D", "9C"], ["2S", "3S", "4S", "6S"],
                    ["2H", "3H", "4H", "6H"]], "QD")
    while state["stock"]:
        act(state, "draw", "discard")
    pile = list(state["discard"])
    top = pile[-1]
    act(state, "draw")
    assert state["discard"] == [top]
    assert sorted(state["stock"] + [state["drawn"]]) == sorted(pile[:-1])
    assert state["stock"] + [state["drawn"]] != pile[:-1]     # shuffled, not just turned over
    assert golf.view(state, None)["events"][-1]["action"] == "reshuffle"
    act(state, "discard")
    assert cards_in_play(state) == sorted(french_deck(1))


# --- End of round and game -------------------------------------------------------------

def test_round_end_reveals_every_grid_with_its_points():
    grids = [["KS", "2H", "AS", "AH"], ["9S", "9H", "JD", "QC"]]
    state = rigged(grids, "QD")
    act(state, "knock", "draw", "discard")
    view = golf.view(state, 1)
    last = view["last_round"]
    assert last["grids"] == grids
    assert last["points"] == [4, 38] and last["scores"] == [4, 38]
    assert view["totals"] == [4, 38] and view["history"] == [[4, 38]]


def play_rounds(state, grids_per_round, knocker_first=True):
    """Play each round with rigged grids: the starter knocks, everybody else draws and discards."""
    for grids in grids_per_round:
        rig(state, grids, "5S")
        all_ready(state)
        act(state, "knock")
        for _ in range(state["seats"] - 1):
            act(state, "draw", "discard")


def test_lowest_total_after_nine_rounds_wins():
    state = new(2)
    low, high = ["KS", "KH", "AS", "AH"], ["9S", "9H", "9D", "9C"]
    play_rounds(state, [[low, high]] * 9)
    result = golf.outcome(state)
    assert result["scores"] == [9 * 2, 9 * 36 + 10 * 4]     # seat 1 knocked in 4 rounds and paid
    assert result["winners"] == [0] and result["night_point"] == 0
    assert len(result["rounds"]) == 9
    assert golf.to_move(state) == [] and golf.legal_actions(state, 0) == []


def test_equal_lowest_totals_share_the_win_and_give_no_night_point():
    state = new(3)
    a, b = ["KS", "KH", "AS", "AH"], ["KD", "KC", "AD", "AC"]
    c = ["9S", "9H", "9D", "9C"]
    play_rounds(state, [[a, b, c], [b, a, c], [a, b, c], [b, a, c], [a, b, c], [b, a, c], [a, b, c],
                        [b, a, c], [a, b, c]])
    result = golf.outcome(state)
    assert result["scores"][0] == result["scores"][1] < result["scores"][2]
    assert result["winners"] == [0, 1] and result["night_point"] is None


# --- Bad options and illegal actions ---------------------------------------------------

@pytest.mark.parametrize("options", [
    {"seats": 1}, {"seats": 9}, {"seats": "4"}, {"seats": 4, "decks": 3}, {"seats": 4, "decks": 0},
    {"seats": 4, "decks": True}, {"seats": 2, "dealer": 2}, {"seats": 2, "dealer": -1},
    {"seats": 2, "names": ["A"]},
])
def test_bad_options(options):
    with pytest.raises(BadOptions):
        golf.new_game(options, Rng(1))


def test_defaults_the_declared_seats_the_suggested_decks_seat_zero_starts():
    state = golf.new_game({}, Rng(3))
    assert state["seats"] == golf.INFO["seats"]["default"] == 4 and state["decks"] == 1 and state["turn"] == 0
    assert golf.new_game({"seats": 6}, Rng(3))["decks"] == 2  # suggested from six seats up
    assert golf.new_game({"seats": 6, "decks": 1}, Rng(3))["decks"] == 1


@pytest.mark.parametrize("setup, seat, action", [
    ([], 1, "draw"),                 # not seat 1's turn
    ([], 0, "swap 1"),               # swap before drawing
    ([], 0, "discard"),              # discard before drawing
    ([], 0, "take 4"), ([], 0, "take"), ([], 0, "take -1"), ([], 0, "draw 2"),
    ([], 0, "ready"), ([], 0, "Knock"), ([], 0, ""), ([], 0, None), ([], 0, 7),
    ([], 2, "draw"), ([], None, "draw"), ([], "0", "draw"), ([], True, "draw"),
    (["draw"], 0, "knock"),          # knock only instead of drawing
    (["draw"], 0, "take 1"), (["draw"], 0, "draw"), (["draw"], 0, "swap 4"),
    (["knock"], 1, "knock"),         # no second knock
])
def test_illegal_actions_raise_and_change_nothing(setup, seat, action):
    state = rigged([["KS", "KH", "AS", "AH"], ["9S", "9H", "9D", "9C"]], "QD")
    act(state, *setup)
    before = copy_data(state)
    with pytest.raises(IllegalAction):
        golf.apply_action(state, seat, action)
    assert state == before


def test_no_action_after_the_game_is_over():
    state = new(2)
    play_rounds(state, [[["KS", "KH", "AS", "AH"], ["9S", "9H", "9D", "9C"]]] * 9)
    before = copy_data(state)
    for seat, action in [(0, "draw"), (1, "ready"), (0, "knock")]:
        with pytest.raises(IllegalAction, match="over"):
            golf.apply_action(state, seat, action)
    assert state == before


# --- Views leak nothing ----------------------------------------------------------------

def hidden_slots(state, seat):
    """Return the places whose cards `seat` may not see (seat None: the table)."""
    slots = [("stock", i) for i in range(len(state["stock"]))]
    for owner in range(state["seats"]):
        for position in range(4):
            if state["public"][owner][position] is not None:
                continue
            if owner == seat and state["known"][owner][position]:
                continue
            slots.append(("grid", owner, position))
    if state["drawn"] is not None and state["turn"] != seat:
        slots.append(("drawn",))
    return slots


def _get(state, slot):
    if slot[0] == "stock":
        return state["stock"][slot[1]]
    if slot[0] == "grid":
        return state["grids"][slot[1]][slot[2]]
    return state["drawn"]


def _put(state, slot, card):
    if slot[0] == "stock":
        state["stock"][slot[1]] = card
    elif slot[0] == "grid":
        state["grids"][slot[1]][slot[2]] = card
    else:
        state["drawn"] = card


def assert_view_hides_secrets(state, seat, rng):
    """Shuffle every card the seat may not see among those places: its view must not change."""
    view = golf.view(state, seat)
    assert json.loads(json.dumps(view)) == view
    slots = hidden_slots(state, seat)
    cards = [_get(state, slot) for slot in slots]
    shuffled = list(cards)
    rng.shuffle(shuffled)
    altered = copy_data(state)
    for slot, card in zip(slots, shuffled):
        _put(altered, slot, card)
    assert golf.view(altered, seat) == view


def test_view_is_the_same_whatever_the_hidden_cards_are():
    state = rigged([["KS", "KH", "AS", "AH"], ["9S", "9H", "9D", "9C"], ["2S", "3S", "4S", "6S"]],
                   "QD", stock_top=["JH", "7D"])
    act(state, "draw", "swap 0", "take 1", "draw")
    rng = Rng(5)
    for seat in (0, 1, 2, None):
        assert_view_hides_secrets(state, seat, rng)
    table = golf.view(state, None)
    assert "known" not in table and "drawn" not in table and "peek" not in table
    # The table saw seat 1 take the King from the pile; the Jack went to seat 0 unseen.
    assert table["public"] == [[None] * 4, [None, "KS", None, None], [None] * 4]
    assert table["drawing"] == 2 and golf.view(state, 2)["drawn"] == "7D"
    assert "JH" not in json.dumps(golf.view(state, 1)) and "7D" not in json.dumps(table)


# --- Seeded playouts -------------------------------------------------------------------

def check_state(state, deck):
    assert cards_in_play(state) == deck
    assert json.loads(json.dumps(state)) == state
    totals = [0] * state["seats"]
    for result in state["results"]:
        for seat in range(state["seats"]):
            assert result["points"][seat] == golf.hand_points(result["grids"][seat])
            assert result["scores"][seat] == result["points"][seat] + result["penalty"][seat]
            totals[seat] += result["scores"][seat]
        assert result["totals"] == totals
        assert sum(result["penalty"]) in (0, 10)


def playout(seats, seed, players, decks=1, views=True):
    """Play a whole game with legal actions only, checking invariants; return the state."""
    state = new(seats, seed, decks=decks)
    deck = sorted(french_deck(decks))
    rng = Rng(seed + 11)
    steps = 0
    bound = golf.ROUNDS * (seats + 2 * (golf.TURN_LIMIT + 1) * seats)
    while golf.outcome(state) is None:
        movers = golf.to_move(state)
        seat = movers[rng.below(len(movers))]
        view = golf.view(state, seat)
        action = players[seat](json.loads(json.dumps(view)), rng)
        assert action in golf.legal_actions(state, seat)
        golf.apply_action(state, seat, action)
        steps += 1
        assert steps <= bound
        check_state(state, deck)
        if views:
            assert_view_hides_secrets(state, None, rng)
            assert_view_hides_secrets(state, seat, rng)
            assert_view_hides_secrets(state, (seat + 1) % seats, rng)
    return state


@pytest.mark.slow
def test_random_playouts_keep_invariants():
    for game in range(200):
        seats = 2 + game % 7
        playout(seats, game, [bots.choose_random] * seats, decks=1 + game % 2, views=game < 50)


@pytest.mark.slow
def test_strong_playouts_keep_invariants():
    for game in range(40):
        seats = 2 + game % 7
        players = [bots.choose_strong if s % 2 == 0 else bots.choose_random for s in range(seats)]
        playout(seats, 900 + game, players, decks=golf.suggested_decks(seats), views=game < 10)


@pytest.mark.slow
def test_thousands_of_fast_games_end_with_a_consistent_outcome():
    for game in range(2000):
        seats = 2 + game % 7
        state = new(seats, game, decks=1 + game % 2)
        run_bots(golf, state, [bots.choose_random] * seats, Rng(game))
        result = golf.outcome(state)
        assert len(result["rounds"]) == 9
        assert result["winners"] == [s for s in range(seats) if result["scores"][s] == min(result["scores"])]
        assert result["night_point"] == (result["winners"][0] if len(result["winners"]) == 1 else None)


def test_same_seed_replays_the_same_game():
    def final(seed):
        state = new(4, seed)
        run_bots(golf, state, [bots.choose_strong, bots.choose_random] * 2, Rng(seed))
        return state
    assert final(3) == final(3)
    assert final(3)["results"] != final(4)["results"]


@settings(max_examples=100, deadline=None)
@given(seats=st.integers(2, 8), seed=st.integers(0, 2 ** 32),
       attempts=st.lists(st.tuples(st.integers(-1, 8), st.sampled_from(
           ["ready", "draw", "discard", "knock", "take 0", "take 3", "swap 1", "swap 2", "take 9"])),
           max_size=150))
def test_any_sequence_of_attempts_applies_only_legal_actions(seats, seed, attempts):
    state = new(seats, seed)
    deck = sorted(french_deck(state["decks"]))
    for seat, action in attempts:
        before = copy_data(state)
        if action in golf.legal_actions(state, seat):
            golf.apply_action(state, seat, action)
        else:
            with pytest.raises(IllegalAction):
                golf.apply_action(state, seat, action)
            assert state == before
        check_state(state, deck)

"""Mau-Mau engine: every rule as a table-driven test, illegal actions, joins and leaves, seeded playouts."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from spieleabend.bots import maumau as bots
from spieleabend.games import maumau
from spieleabend.games.common import BadOptions, IllegalAction, Rng, copy_data, french_deck

ACTION_RANKS = ("7", "8", "9", "J", "A")
# Two plain spades per seat that fit on nothing the tests lay out (all different, so both decks suffice).
FILLERS = [["2S", "3S"], ["4S", "5S"], ["6S", "10S"], ["QS", "KS"], ["2C", "3C"]]


def arrange(hands, discard, draws=(), turn=0, rest_in="stock", **fields):
    """Return a running deal with these hands and discard pile (top last); `draws` come off the stock first.

    The other cards of the two decks fill the stock (or, with rest_in="discard", lie under the
    top card with an empty stock), so all 104 cards stay on the table.
    """
    state = maumau.new_game({"seats": len(hands)}, Rng(1))
    deck = french_deck(2)
    for card in [c for hand in hands for c in hand] + list(discard) + list(draws):
        deck.remove(card)
    state["hands"] = [list(hand) for hand in hands]
    if rest_in == "discard":
        state["discard"] = deck + list(discard)
        state["stock"] = list(reversed(draws))
    else:
        state["discard"] = list(discard)
        state["stock"] = deck + list(reversed(draws))
    state["turn"] = turn
    state["log"] = []
    state.update(fields)
    return state


def all_cards(state):
    """Return every card on the table: hands, stock and discard pile."""
    return [c for hand in state["hands"] for c in hand] + state["stock"] + state["discard"]


def assert_conserved(state):
    """Assert that the 104 cards of two decks are all on the table exactly once per copy."""
    assert sorted(all_cards(state)) == sorted(french_deck(2))


def play(state, *moves):
    """Apply (seat, action) pairs in order."""
    for seat, action in moves:
        maumau.apply_action(state, seat, action)


def events_of(state, kind):
    """Return the logged events of one type."""
    return [event for event in state["log"] if event["type"] == kind]


# ---------------------------------------------------------------- new game and options

@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_new_game_deals_seven_each_from_104_cards(seats):
    state = maumau.new_game({"seats": seats}, Rng(seats))
    assert [len(hand) for hand in state["hands"]] == [7] * seats
    assert_conserved(state)
    assert state["minus"] == [0] * seats
    assert maumau.to_move(state) == [0]
    assert maumau.outcome(state) is None


@pytest.mark.parametrize("options", [
    {"seats": 1}, {"seats": 6}, {"seats": "4"}, {"seats": True},
    {"seats": 3, "limit": 0}, {"seats": 3, "limit": "100"},
    {"seats": 3, "names": ["a", "b"]}, {"seats": 2, "names": ["a", 2]},
])
def test_bad_options_are_refused(options):
    with pytest.raises(BadOptions):
        maumau.new_game(options, Rng(0))


def test_default_options():
    state = maumau.new_game({"colour": "ignored"}, Rng(0))
    assert len(state["hands"]) == state["seats"] == maumau.INFO["seats"]["default"] == 3
    assert state["limit"] == 100
    assert state["names"] == ["Spieler 1", "Spieler 2", "Spieler 3"]


def test_opening_card_is_never_an_action_card_and_turned_action_cards_stay_underneath():
    turned_some = 0
    for seed in range(300):
        state = maumau.new_game({"seats": 3}, Rng(seed))
        top = state["discard"][-1]
        assert top[:-1] not in ACTION_RANKS
        assert all(card[:-1] in ACTION_RANKS for card in state["discard"][:-1])
        deal_event = events_of(state, "deal")[0]
        assert deal_event["turned"] == state["discard"][:-1] and deal_event["top"] == top
        turned_some += len(state["discard"]) > 1
    assert turned_some > 50  # about 40 % of deals turn up an action card first


def test_same_seed_same_deal_and_different_seed_different_deal():
    assert maumau.new_game({"seats": 4}, Rng(7)) == maumau.new_game({"seats": 4}, Rng(7))
    assert maumau.new_game({"seats": 4}, Rng(7)) != maumau.new_game({"seats": 4}, Rng(8))


# ---------------------------------------------------------------- matching

@pytest.mark.parametrize("top, card, fits", [
    ("10D", "10H", True),   # rule text: Herz 10 auf Karo 10
    ("AS", "QS", True),     # rule text: Pik Dame auf Pik As
    ("10D", "3D", True),    # same suit
    ("10D", "3C", False),   # neither suit nor rank
    ("5C", "JH", True),     # a Jack fits on anything
    ("KH", "7H", True),
    ("KH", "KS", True),
    ("KH", "QS", False),
])
def test_a_card_fits_on_same_suit_or_same_rank(top, card, fits):
    state = arrange([[card, "2S", "3S"], ["4S"]], [top])
    plays = [a for a in maumau.legal_actions(state, 0) if a.startswith("play " + card)]
    assert bool(plays) == fits


def test_jack_on_jack_and_the_named_suit_is_followed():
    state = arrange([["JD", "5H", "5C", "QC"], ["JS", "2D", "9C"]], ["4C", "JC"], wish="H")
    assert maumau.view(state, 0)["suit"] == "H"
    legal = maumau.legal_actions(state, 0)
    assert "play JD:S" in legal and "play 5H" in legal
    assert "play 5C" not in legal and "play QC" not in legal  # clubs are not wished
    play(state, (0, "play JD:S"))
    assert state["wish"] == "S"
    assert maumau.legal_actions(state, 1) == ["play JS:S", "play JS:H", "play JS:D", "play JS:C", "draw"]


def test_jack_names_any_of_four_suits_and_must_name_one():
    state = arrange([["JH", "2S", "3S"], ["4S"]], ["5D"])
    legal = maumau.legal_actions(state, 0)
    assert [a for a in legal if a.startswith("play JH")] == ["play JH:S", "play JH:H", "play JH:D", "play JH:C"]
    for bad in ("play JH", "play JH:X", "play JH:"):
        with pytest.raises(IllegalAction):
            maumau.apply_action(state, 0, bad)


def test_identical_cards_of_the_two_decks_are_offered_once():
    state = arrange([["5D", "5D", "9S"], ["4S"]], ["6D"])
    assert maumau.legal_actions(state, 0) == ["play 5D", "draw"]


# ---------------------------------------------------------------- drawing

def test_draw_one_then_the_turn_ends_even_if_the_card_fits():
    state = arrange([["2S", "3S"], ["4C", "4H"]], ["6D"], draws=["9D"])
    play(state, (0, "draw"))
    assert state["hands"][0] == ["2S", "3S", "9D"]
    assert maumau.to_move(state) == [1]
    assert maumau.legal_actions(state, 0) == []
    with pytest.raises(IllegalAction):
        maumau.apply_action(state, 0, "play 9D")


def test_a_seat_may_draw_instead_of_playing_a_fitting_card():
    state = arrange([["6S", "3S"], ["4C"]], ["6D"], draws=["KH"])
    assert "draw" in maumau.legal_actions(state, 0)
    play(state, (0, "draw"))
    assert len(state["hands"][0]) == 3 and state["turn"] == 1


# ---------------------------------------------------------------- 7

def test_seven_makes_the_next_seat_draw_two_and_end_its_turn():
    state = arrange([["7D", "3S", "4S"], ["5D", "KD"], ["2C"]], ["6D"], draws=["QH", "QS"])
    play(state, (0, "play 7D"))
    assert state["pending"] == 2 and state["turn"] == 1
    assert maumau.legal_actions(state, 1) == ["draw"]  # 5D and KD fit 7D, but only a 7 may answer
    play(state, (1, "draw"))
    assert sorted(state["hands"][1]) == sorted(["5D", "KD", "QH", "QS"])
    assert state["pending"] == 0 and state["turn"] == 2
    assert events_of(state, "draw")[-1]["obligation"] is True


@pytest.mark.parametrize("sevens, drawn", [(1, 2), (2, 4), (3, 6), (4, 8)])
def test_sevens_stack_two_more_each(sevens, drawn):
    hands = [[seven] + FILLERS[seat] for seat, seven in enumerate(["7H", "7C", "7S", "7D", "6C"])]
    state = arrange(hands, ["9H", "4H"])
    for seat in range(sevens):
        play(state, (seat, "play " + hands[seat][0]))
        assert state["pending"] == 2 * (seat + 1)
    victim = sevens
    size = len(state["hands"][victim])
    play(state, (victim, "draw"))
    assert len(state["hands"][victim]) == size + drawn
    assert state["pending"] == 0


def test_only_a_seven_or_draw_while_an_obligation_is_open():
    state = arrange([["7H", "5H", "2S"], ["7C", "5H", "JD", "7H"]], ["4H"])
    play(state, (0, "play 7H"))
    assert maumau.legal_actions(state, 1) == ["play 7C", "play 7H", "draw"]
    for bad in ("play 5H", "play JD:H"):
        with pytest.raises(IllegalAction, match="only a 7"):
            maumau.apply_action(state, 1, bad)


def test_after_the_obligation_is_drawn_play_goes_on_normally_on_the_seven():
    state = arrange([["7H", "5H", "2S"], ["3C", "4C"], ["7S", "9H", "2C"]], ["4H"], draws=["KC", "KD"])
    play(state, (0, "play 7H"), (1, "draw"))
    assert maumau.legal_actions(state, 2) == ["play 7S", "play 9H", "draw"]


# ---------------------------------------------------------------- 8 and 9

@pytest.mark.parametrize("seats, direction, player, expected", [
    (4, 1, 1, 3),    # 2 is skipped
    (4, -1, 1, 3),   # 0 is skipped
    (4, 1, 3, 1),    # 0 is skipped (wrap)
    (4, -1, 0, 2),   # 3 is skipped (wrap)
    (3, 1, 0, 2),
    (2, 1, 0, 0),    # heads-up: the skipped opponent gives the turn straight back
    (2, -1, 1, 1),
])
def test_eight_skips_the_next_seat_in_either_direction(seats, direction, player, expected):
    hands = [["3H4H5HKHQH"[2 * seat:2 * seat + 2]] + FILLERS[seat] for seat in range(seats)]
    hands[player][0] = "8D"
    state = arrange(hands, ["6D"], turn=player, direction=direction)
    play(state, (player, "play 8D"))
    assert state["turn"] == expected
    assert events_of(state, "skip")[-1]["seat"] == maumau.next_seat(state, player)


@pytest.mark.parametrize("direction, player, expected", [(1, 1, 0), (-1, 1, 2), (1, 0, 3), (-1, 3, 0)])
def test_nine_reverses_the_direction(direction, player, expected):
    hands = [["3H4H5HKH"[2 * seat:2 * seat + 2]] + FILLERS[seat] for seat in range(4)]
    hands[player][0] = "9D"
    state = arrange(hands, ["6D"], turn=player, direction=direction)
    play(state, (player, "play 9D"))
    assert state["direction"] == -direction
    assert state["turn"] == expected


# ---------------------------------------------------------------- Ace

def test_ace_lets_the_same_seat_play_another_fitting_card():
    state = arrange([["AH", "5H", "AS", "2C"], ["3S"]], ["6H"])
    play(state, (0, "play AH"))
    assert state["turn"] == 0 and state["again"]
    assert maumau.legal_actions(state, 0) == ["play 5H", "play AS", "draw"]
    play(state, (0, "play AS"))
    assert state["turn"] == 0
    with pytest.raises(IllegalAction):
        maumau.apply_action(state, 0, "play 5H")  # hearts no longer fit on the Ace of spades
    play(state, (0, "draw"))
    assert state["turn"] == 1 and not state["again"]


def test_ace_without_a_fitting_card_draws_one_and_the_turn_ends():
    state = arrange([["AH", "5C", "2C"], ["3S"]], ["6H"], draws=["4H"])
    play(state, (0, "play AH"))
    assert maumau.legal_actions(state, 0) == ["draw"]
    play(state, (0, "draw"))
    assert state["hands"][0] == ["5C", "2C", "4H"]
    assert state["turn"] == 1


# ---------------------------------------------------------------- Mau

def test_mau_is_offered_only_with_the_second_to_last_card():
    state = arrange([["5H", "6H"], ["5H", "6H", "7C"]], ["4H"])
    assert maumau.legal_actions(state, 0) == ["play 5H", "play 5H mau", "play 6H", "play 6H mau", "draw"]
    state["turn"] = 1
    assert "play 5H mau" not in maumau.legal_actions(state, 1)
    with pytest.raises(IllegalAction, match="second-to-last"):
        maumau.apply_action(state, 1, "play 5H mau")


def test_mau_said_keeps_one_card():
    state = arrange([["5H", "6H"], ["2S", "3S"]], ["4H"])
    play(state, (0, "play 5H mau"))
    assert state["hands"][0] == ["6H"]
    assert events_of(state, "play")[-1]["mau"] is True
    assert not events_of(state, "forgot_mau")


def test_mau_forgotten_draws_two_right_after_that_play():
    state = arrange([["5H", "6H"], ["2S", "3S"]], ["4H"], draws=["KC", "QC"])
    play(state, (0, "play 5H"))
    assert sorted(state["hands"][0]) == sorted(["6H", "KC", "QC"])
    assert events_of(state, "forgot_mau")[-1] == {"type": "forgot_mau", "seat": 0, "count": 2}
    assert state["turn"] == 1


def test_mau_with_a_jack_and_an_ace_keeps_the_turn_after_the_penalty():
    state = arrange([["JH", "6H"], ["2S", "3S"]], ["4D"])
    play(state, (0, "play JH:C mau"))
    assert state["wish"] == "C" and state["hands"][0] == ["6H"]
    state = arrange([["AH", "6C"], ["2S", "3S"]], ["4H"], draws=["KH", "QH"])
    play(state, (0, "play AH"))  # forgotten: draws KH and QH, and the Ace still gives another play
    assert state["turn"] == 0 and len(state["hands"][0]) == 3
    assert "play KH" in maumau.legal_actions(state, 0)


# ---------------------------------------------------------------- end of a deal and scoring

@pytest.mark.parametrize("hand, points", [
    (["AH"], 11), (["KS"], 10), (["QD"], 10), (["JC"], 20), (["10H"], 10), (["9S"], 9),
    (["7D"], 7), (["2C"], 2), (["AS", "JD", "3H"], 34), ([], 0),
])
def test_minus_points_per_card(hand, points):
    assert maumau.hand_points(hand) == points


def test_deal_ends_with_the_last_card_and_others_add_their_minus_points():
    state = arrange([["5H"], ["AS", "KD"], ["JC", "2C"]], ["4H"], minus=[3, 10, 0])
    play(state, (0, "play 5H"))
    assert state["phase"] == "between"
    assert state["minus"] == [3, 31, 22]
    assert state["last_deal"]["winner"] == 0 and state["last_deal"]["points"] == [0, 21, 22]
    assert maumau.to_move(state) == [0, 1, 2]
    assert maumau.outcome(state) is None


def test_last_card_seven_makes_the_next_seat_draw_two_before_scoring():
    state = arrange([["7H"], ["2S"], ["3S"]], ["4H"], draws=["KC", "QC"])
    play(state, (0, "play 7H"))
    assert sorted(state["hands"][1]) == ["2S", "KC", "QC"]
    assert state["minus"] == [0, 22, 3]
    assert state["pending"] == 0


def test_last_card_seven_on_an_open_obligation_makes_the_next_seat_draw_all_of_it():
    state = arrange([["7S", "3S"], ["7H"], ["2S"]], ["4S"], draws=["KC", "QC", "2D", "3D"])
    play(state, (0, "play 7S mau"), (1, "play 7H"))
    assert sorted(state["hands"][2]) == sorted(["2S", "KC", "QC", "2D", "3D"])
    assert state["minus"][2] == 2 + 10 + 10 + 2 + 3


def test_last_card_seven_going_the_other_way():
    state = arrange([["2S"], ["7H"], ["3S"]], ["4H"], draws=["KC", "QC"], turn=1, direction=-1)
    play(state, (1, "play 7H"))
    assert sorted(state["hands"][0]) == ["2S", "KC", "QC"]


def test_going_out_with_an_ace_or_a_jack_ends_the_deal_at_once():
    state = arrange([["AH"], ["2S"]], ["4H"])
    play(state, (0, "play AH"))
    assert state["phase"] == "between" and state["minus"] == [0, 2]
    state = arrange([["JH"], ["2S"]], ["4C"])
    play(state, (0, "play JH:S"))
    assert state["phase"] == "between"


# ---------------------------------------------------------------- reshuffle

def test_empty_stock_reshuffles_the_discard_pile_but_keeps_the_top_card():
    state = arrange([["2S", "3S"], ["4C"]], ["6D"], rest_in="discard")
    under = state["discard"][:-1]
    play(state, (0, "draw"))
    assert state["discard"] == ["6D"]
    assert len(state["stock"]) == len(under) - 1
    assert sorted(state["stock"] + [state["hands"][0][-1]]) == sorted(under)
    assert events_of(state, "reshuffle")[-1]["count"] == len(under)
    assert_conserved(state)


def test_obligation_drawn_across_a_reshuffle():
    state = arrange([["7D", "2S", "3S"], ["4C"]], ["6D"], draws=["KH"], rest_in="discard")
    play(state, (0, "play 7D"), (1, "draw"))
    assert len(state["hands"][1]) == 3 and "KH" in state["hands"][1]
    assert state["discard"] == ["7D"]
    assert_conserved(state)


def test_with_no_stock_and_only_the_top_card_a_draw_takes_what_exists():
    deck = french_deck(2)
    top = deck.pop()
    state = arrange([deck[:51], deck[51:]], [top])
    assert state["stock"] == []
    size = len(state["hands"][0])
    play(state, (0, "draw"))
    assert len(state["hands"][0]) == size
    assert events_of(state, "draw")[-1]["count"] == 0
    assert state["turn"] == 1
    assert_conserved(state)


# ---------------------------------------------------------------- limit, game end, next deal

def test_above_the_limit_is_out_at_the_limit_is_not():
    state = arrange([["5H"], ["KS"], ["KD"]], ["4H"], minus=[0, 91, 90])
    play(state, (0, "play 5H"))
    assert state["minus"] == [0, 101, 100]
    assert state["out"] == [False, True, False]
    assert events_of(state, "out")[-1] == {"type": "out", "seat": 1, "minus": 101}
    assert maumau.legal_actions(state, 1) == []
    play(state, (2, "next"))
    assert state["hands"][1] == [] and len(state["hands"][0]) == 7 and len(state["hands"][2]) == 7
    assert_conserved(state)
    seen = set()
    for _ in range(5000):
        if state["phase"] != "play":
            break
        seen.add(state["turn"])
        seat = state["turn"]
        play(state, (seat, bots.choose_medium(maumau.view(state, seat), Rng(0))))
    assert state["phase"] == "between" and seen == {0, 2}


def test_option_limit_is_used():
    assert maumau.new_game({"seats": 2, "limit": 20}, Rng(3))["limit"] == 20
    state = arrange([["5H"], ["KS", "QS"]], ["4H"], limit=20)
    play(state, (0, "play 5H"))
    assert state["out"] == [False, False]  # exactly 20 is not above
    state = arrange([["5H"], ["KS", "QS", "2S"]], ["4H"], limit=20)
    play(state, (0, "play 5H"))
    assert state["out"] == [False, True]


def test_game_ends_when_one_seat_is_left():
    state = arrange([["5H"], ["KS"], ["2D"]], ["4H"], minus=[0, 95, 80])
    play(state, (0, "play 5H"))
    assert state["out"] == [False, True, False]
    assert maumau.outcome(state) is None  # two seats are still in: the game goes on
    state = arrange([["2S", "3S"], [], ["KH"]], ["4H"], turn=2, out=[False, True, False],
                    minus=[98, 105, 90])
    play(state, (2, "play KH"))
    result = maumau.outcome(state)
    assert result["winners"] == [2]
    assert result["scores"] == [103, 105, 90]
    assert result["out"] == [True, True, False]
    assert maumau.to_move(state) == []
    assert all(maumau.legal_actions(state, seat) == [] for seat in range(3))
    for action in ("next", "draw"):
        with pytest.raises(IllegalAction, match="over"):
            maumau.apply_action(state, 2, action)
    assert maumau.view(state, 0)["phase"] == "over"


@pytest.mark.parametrize("out, starter, expected", [
    ([False] * 4, 0, 1), ([False] * 4, 3, 0), ([False, True, False, False], 0, 2),
    ([True, False, True, False], 3, 1),
])
def test_next_deal_starts_with_the_seat_after_the_previous_starter(out, starter, expected):
    hands = [["5H"], ["2S"], ["3S"], ["4S"]]
    state = arrange(hands, ["4H"], turn=0, out=[False] * 4, starter=starter)
    play(state, (0, "play 5H"))
    state["out"] = out
    seat = maumau.to_move(state)[0]
    play(state, (seat, "next"))
    assert state["starter"] == expected and state["turn"] == expected
    assert state["deal"] == 2 and state["direction"] == 1 and state["pending"] == 0
    assert [len(h) for h in state["hands"]] == [0 if o else 7 for o in out]
    assert_conserved(state)


def test_next_only_between_deals_and_start_next_deal_is_the_same():
    state = maumau.new_game({"seats": 2}, Rng(4))
    with pytest.raises(IllegalAction, match="only possible between deals"):
        maumau.apply_action(state, 0, "next")
    with pytest.raises(IllegalAction):
        maumau.start_next_deal(state)
    state = arrange([["5H"], ["2S"]], ["4H"])
    play(state, (0, "play 5H"))
    copy = copy_data(state)
    maumau.start_next_deal(state)
    play(copy, (1, "next"))
    assert state == copy


# ---------------------------------------------------------------- join and leave

def between_deals(minus, out=None):
    """Return a state right after a deal that seat 0 won, with the given minus points."""
    seats = len(minus)
    out = out or [False] * seats
    hands = [["5H"]] + [[] if out[i] else ["2" + "SCDH"[i - 1]] for i in range(1, seats)]
    state = arrange(hands, ["4H"], minus=[m - (2 * len(hands[i]) if i else 0) for i, m in enumerate(minus)], out=out)
    play(state, (0, "play 5H"))
    assert state["minus"] == minus
    return state


def test_join_between_deals_starts_with_the_worst_score_of_seats_still_in():
    state = between_deals([10, 40, 120], out=[False, False, True])
    seat = maumau.add_seat(state, "Neu")
    assert seat == 3
    assert state["minus"] == [10, 40, 120, 40]
    assert state["names"][3] == "Neu" and state["out"][3] is False and state["seats"] == 4
    assert events_of(state, "join")[-1] == {"type": "join", "seat": 3, "name": "Neu", "minus": 40}
    play(state, (3, "next"))
    assert len(state["hands"][3]) == 7
    assert_conserved(state)


def test_join_refused_mid_deal_at_five_seats_and_after_the_game():
    state = maumau.new_game({"seats": 3}, Rng(5))
    before = copy_data(state)
    with pytest.raises(IllegalAction, match="only between deals"):
        maumau.add_seat(state, "X")
    assert state == before
    state = between_deals([0, 5, 5, 5, 5])
    before = copy_data(state)
    with pytest.raises(IllegalAction, match="full"):
        maumau.add_seat(state, "X")
    assert state == before
    state = between_deals([0, 101])
    assert maumau.outcome(state) is not None
    with pytest.raises(IllegalAction, match="over"):
        maumau.add_seat(state, "X")


def test_leave_between_deals_removes_the_seat_from_table_and_scores():
    state = between_deals([0, 30, 50])
    state["names"] = ["Ana", "Ben", "Cem"]
    maumau.remove_seat(state, 1)
    assert state["names"] == ["Ana", "Cem"]
    assert state["minus"] == [0, 50]
    assert len(state["hands"]) == state["seats"] == 2 and state["out"] == [False, False]
    assert state["last_deal"]["points"] == [0, 2] and state["last_deal"]["winner"] == 0
    assert events_of(state, "leave")[-1] == {"type": "leave", "name": "Ben"}
    assert_conserved(state)
    play(state, (1, "next"))
    assert [len(h) for h in state["hands"]] == [7, 7]
    assert maumau.view(state, 1)["minus"] == [0, 50]


def test_leave_mid_deal_passes_the_turn_and_the_obligation_on():
    state = arrange([["7H", "2S", "3S"], ["4C", "KD"], ["5C"], ["6C", "6D"]], ["4H"])
    play(state, (0, "play 7H"))
    maumau.remove_seat(state, 1)
    assert state["turn"] == 1  # the former seat 2
    assert state["hands"][1] == ["5C"]
    assert state["pending"] == 2
    assert maumau.legal_actions(state, 1) == ["draw"]
    assert_conserved(state)


def test_leave_mid_deal_of_another_seat_keeps_the_turn_holder():
    state = arrange([["2S", "3S"], ["4C", "KD"], ["5C"]], ["4C"], turn=2)
    maumau.remove_seat(state, 0)
    assert state["turn"] == 1 and state["hands"][1] == ["5C"]
    assert_conserved(state)
    play(state, (1, "play 5C"))
    play(state, (1, "next"))
    assert state["starter"] == 0  # the seat that was after the leaving starter starts next


def test_leave_in_heads_up_ends_the_game_for_the_other_seat():
    state = maumau.new_game({"seats": 2, "names": ["Ana", "Ben"]}, Rng(9))
    maumau.remove_seat(state, 0)
    assert maumau.outcome(state)["winners"] == [0]
    assert state["names"] == ["Ben"]
    assert_conserved(state)
    with pytest.raises(IllegalAction, match="over"):
        maumau.remove_seat(state, 0)


@pytest.mark.parametrize("seat", [-1, 3, "1", None, True])
def test_leave_of_a_seat_that_does_not_exist_is_refused(seat):
    state = maumau.new_game({"seats": 3}, Rng(2))
    before = copy_data(state)
    with pytest.raises(IllegalAction):
        maumau.remove_seat(state, seat)
    assert state == before


# ---------------------------------------------------------------- illegal actions

ILLEGAL = [
    # (description, seat, action, message part)
    ("not its turn", 1, "play 5H", "turn"),
    ("card not in hand", 0, "play 9H", "not in the hand"),
    ("does not fit", 0, "play 2C", "does not fit"),
    ("Jack without a suit", 0, "play JD", "name a suit"),
    ("suit named for a plain card", 0, "play 5H:S", "only a Jack"),
    ("Mau with three cards", 0, "play 5H mau", "second-to-last"),
    ("garbage", 0, "dance", "unknown action"),
    ("empty", 0, "", "unknown action"),
    ("trailing word", 0, "play 5H now", "unknown action"),
    ("next mid-deal", 0, "next", "between deals"),
    ("seat that does not exist", 4, "draw", "no seat"),
    ("seat None", None, "draw", "no seat"),
    ("not a string", 0, 42, "string"),
    ("lowercase card", 0, "play 5h", "names no card"),
]


@pytest.mark.parametrize("description, seat, action, message", ILLEGAL, ids=[row[0] for row in ILLEGAL])
def test_illegal_actions_raise_and_leave_the_state_unchanged(description, seat, action, message):
    state = arrange([["5H", "2C", "JD"], ["5D", "6D"]], ["4H"])
    before = copy_data(state)
    with pytest.raises(IllegalAction, match=message):
        maumau.apply_action(state, seat, action)
    assert state == before


@pytest.mark.parametrize("seat", [True, False])
def test_a_bool_is_no_seat_number(seat):
    """True and False count as 1 and 0 in Python; the engine refuses them as seats like every other engine."""
    state = arrange([["5H", "2C", "JD"], ["5D", "6D"]], ["4H"], turn=int(seat))
    before = copy_data(state)
    assert maumau.legal_actions(state, seat) == []
    with pytest.raises(IllegalAction, match="no seat"):
        maumau.apply_action(state, seat, "draw")
    assert state == before
    with pytest.raises(IllegalAction, match="no seat"):
        maumau.view(state, seat)
    assert maumau.legal_actions(state, int(seat)) != []  # the same seat as a number is fine


def test_illegal_under_obligation_and_between_deals_leave_state_unchanged():
    state = arrange([["7H", "5H", "2S"], ["7C", "5H", "JD"]], ["4H"])
    play(state, (0, "play 7H"))
    before = copy_data(state)
    for action in ("play 5H", "play JD:H", "play 7C mau"):
        with pytest.raises(IllegalAction):
            maumau.apply_action(state, 1, action)
        assert state == before
    state = between_deals([0, 10])
    before = copy_data(state)
    for seat, action in ((0, "draw"), (1, "play 2S")):
        with pytest.raises(IllegalAction, match="next"):
            maumau.apply_action(state, seat, action)
        assert state == before


# ---------------------------------------------------------------- view

def test_view_shows_own_hand_and_public_facts_only():
    state = arrange([["5H", "JD"], ["KS", "QS", "2C"], ["3C"]], ["9C", "JC"], wish="H", turn=0,
                    minus=[4, 0, 12])
    state["names"] = ["Ana", "Ben", "Cem"]
    seen = maumau.view(state, 0)
    assert seen["hand"] == ["5H", "JD"]
    assert seen["top"] == "JC" and seen["suit"] == "H" and seen["wish"] == "H"
    assert seen["hand_sizes"] == [2, 3, 1] and seen["seats"] == 3 and seen["names"] == ["Ana", "Ben", "Cem"]
    assert seen["to_move"] == [0] and seen["outcome"] is None
    assert seen["stock"] == len(state["stock"]) and seen["discard"] == 2
    assert seen["minus"] == [4, 0, 12] and seen["out"] == [False] * 3
    assert seen["turn"] == 0 and seen["direction"] == 1 and seen["pending"] == 0
    assert seen["legal"] == maumau.legal_actions(state, 0) and seen["seat"] == 0
    text = json.dumps(seen)
    for card in ("KS", "QS", "2C", "3C"):
        assert '"%s"' % card not in text
    table = maumau.view(state, None)
    assert table["hand"] is None and table["legal"] == [] and table["seat"] is None
    assert '"5H"' not in json.dumps(table)


def test_view_events_tell_who_played_drew_and_said_mau():
    state = arrange([["5H", "6H", "2S"], ["7H", "8S"], ["3C", "4C"]], ["4H"], draws=["KC"])
    play(state, (0, "play 5H"), (1, "play 7H mau"), (2, "draw"))
    kinds = [(e["type"], e.get("seat")) for e in maumau.view(state, 0)["events"]]
    assert kinds == [("play", 0), ("play", 1), ("draw", 2)]
    events = maumau.view(state, 0)["events"]
    assert events[1]["mau"] is True
    assert events[2]["count"] == 2 and events[2]["obligation"] is True
    assert "KC" not in json.dumps(events)


def test_log_keeps_only_the_last_few_events():
    state = maumau.new_game({"seats": 2}, Rng(11))
    for _ in range(60):
        if state["phase"] != "play":
            break
        seat = state["turn"]
        play(state, (seat, "draw"))
    assert len(maumau.view(state, 0)["events"]) == maumau.LOG_LENGTH


# ---------------------------------------------------------------- invariants over many deals

def hidden_shuffled(state, seat, rng):
    """Return a copy whose hidden cards (other hands and the stock) are dealt anew, sizes kept."""
    other = copy_data(state)
    hidden = list(other["stock"])
    for index, hand in enumerate(other["hands"]):
        if index != seat:
            hidden += hand
    rng.shuffle(hidden)
    for index, hand in enumerate(other["hands"]):
        if index != seat:
            other["hands"][index] = [hidden.pop() for _ in hand]
    other["stock"] = hidden
    return other


def check_invariants(state, rng):
    """Check conservation, JSON round trip and that no view depends on hidden cards."""
    assert_conserved(state)
    assert json.loads(json.dumps(state)) == state
    for seat in list(range(len(state["hands"]))) + [None]:
        seen = maumau.view(state, seat)
        assert json.loads(json.dumps(seen)) == seen
        assert maumau.view(hidden_shuffled(state, seat, rng), seat) == seen


def playout(seed, players, check_every=0, max_actions=50000, whole_game=False):
    """Play a seeded deal (or whole game) with bots; check legality at every step; return the state and action count."""
    seats = len(players)
    state = maumau.new_game({"seats": seats, "limit": 60}, Rng(seed))
    rng = Rng(seed + 1)
    check_rng = Rng(seed + 2)
    actions = 0
    while maumau.outcome(state) is None:
        if state["phase"] == "between" and not whole_game:
            break
        seat = maumau.to_move(state)[0]
        seen = maumau.view(state, seat)
        action = players[seat](seen, rng)
        assert action in seen["legal"]
        assert seen["legal"] == maumau.legal_actions(state, seat)
        maumau.apply_action(state, seat, action)
        actions += 1
        assert actions <= max_actions, "deal did not end"
        if check_every and actions % check_every == 0:
            check_invariants(state, check_rng)
        else:
            assert len(all_cards(state)) == 104
    assert_conserved(state)
    return state, actions


@pytest.mark.slow
def test_thousands_of_seeded_deals_keep_every_invariant():
    strengths = list(bots.STRENGTHS.values())
    deals = 0
    for seed in range(2400):
        seats = 2 + seed % 4
        if seed % 24 == 0:
            players = [bots.choose_random] * seats  # long deals: fewer of them
            bound = 50000
        else:
            players = [strengths[1 + (seed + i) % 2] for i in range(seats)]
            bound = 2000
        state, _ = playout(seed, players, check_every=37 if seed % 10 == 0 else 0, max_actions=bound)
        assert state["phase"] == "between"
        winner = state["last_deal"]["winner"]
        assert state["hands"][winner] == []
        assert sum(state["minus"]) == sum(maumau.hand_points(h) for h in state["hands"])
        deals += 1
    assert deals == 2400


@pytest.mark.slow
def test_whole_games_end_with_one_seat_left_and_scores_add_up():
    for seed in range(300):
        seats = 2 + seed % 4
        players = [bots.STRENGTHS["stark" if (seed + i) % 2 else "mittel"] for i in range(seats)]
        state, _ = playout(seed, players, whole_game=True, max_actions=100000,
                           check_every=101 if seed % 6 == 0 else 0)
        result = maumau.outcome(state)
        assert len(result["winners"]) == 1
        winner = result["winners"][0]
        assert result["out"] == [seat != winner for seat in range(seats)]
        assert all(result["minus"][seat] > 60 for seat in range(seats) if seat != winner)
        assert result["minus"][winner] <= 60


def test_same_seed_replays_the_same_game():
    players = [bots.choose_random, bots.choose_strong, bots.choose_medium]
    first, n1 = playout(77, players, whole_game=True)
    second, n2 = playout(77, players, whole_game=True)
    assert n1 == n2 and first == second


def test_a_game_continues_exactly_after_a_json_round_trip():
    players = [bots.choose_strong, bots.choose_random, bots.choose_medium, bots.choose_strong]
    state = maumau.new_game({"seats": 4}, Rng(31))
    rng = Rng(32)
    for _ in range(40):
        seat = maumau.to_move(state)[0]
        maumau.apply_action(state, seat, players[seat](maumau.view(state, seat), rng))
    saved = json.loads(json.dumps(state))
    saved_rng = Rng(list(rng.state))
    for _ in range(300):
        if maumau.outcome(state) is not None:
            break
        seat = maumau.to_move(state)[0]
        maumau.apply_action(state, seat, players[seat](maumau.view(state, seat), rng))
        maumau.apply_action(saved, seat, players[seat](maumau.view(saved, seat), saved_rng))
        assert saved == state


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.integers(2, 5),
       choices=st.lists(st.integers(0, 10**6), min_size=1, max_size=250),
       leave_at=st.integers(0, 400), join_name=st.text(max_size=5))
def test_any_sequence_of_legal_actions_joins_and_leaves_keeps_invariants(seed, seats, choices, leave_at, join_name):
    state = maumau.new_game({"seats": seats, "limit": 30}, Rng(seed))
    rng = Rng(seed ^ 1)
    for step, pick in enumerate(choices):
        if maumau.outcome(state) is not None:
            assert maumau.to_move(state) == []
            break
        if step == leave_at % len(choices):
            maumau.remove_seat(state, pick % len(state["hands"]))
            check_invariants(state, rng)
            continue
        if state["phase"] == "between" and len(state["hands"]) < maumau.MAX_SEATS and pick % 3 == 0:
            maumau.add_seat(state, join_name)
        seat = maumau.to_move(state)[0]
        legal = maumau.legal_actions(state, seat)
        assert legal and all(maumau.legal_actions(state, other) == [] for other in range(len(state["hands"]))
                             if other not in maumau.to_move(state))
        maumau.apply_action(state, seat, legal[pick % len(legal)])
        if step % 5 == 0:
            check_invariants(state, rng)
        else:
            assert_conserved(state)
        assert all(m >= 0 for m in state["minus"])
        assert len(state["hands"]) == len(state["names"]) == len(state["minus"]) == len(state["out"]) == state["seats"]

"""Golf computer players: sensible single decisions, and the strong one clearly beats random play."""

import pytest

from spieleabend.bots import golf as bots
from spieleabend.games import golf, run_bots
from spieleabend.games.common import Rng


def base_view(known, legal, discard_top="5S", drawn=None, knocker=None, seats=2):
    """Return a view of seat 0 early in a round with the given own knowledge."""
    return {
        "seat": 0, "seats": seats, "decks": 1, "known": list(known), "legal": list(legal),
        "discard_top": discard_top, "discard": [discard_top], "drawn": drawn,
        "public": [[None] * 4 for _ in range(seats)], "events": [], "knocker": knocker,
    }


START = ["draw", "take 0", "take 1", "take 2", "take 3", "knock"]
AFTER_DRAW = ["swap 0", "swap 1", "swap 2", "swap 3", "discard"]


def test_strong_says_ready_in_the_peek_phase():
    assert bots.choose_strong(base_view([None] * 4, ["ready"]), Rng(1)) == "ready"


def test_strong_takes_a_king_from_the_pile_for_its_worst_spot():
    view = base_view([None, None, "9S", "2H"], START, discard_top="KD")
    assert bots.choose_strong(view, Rng(1)) == "take 2"


def test_strong_takes_a_king_for_an_unknown_spot_when_its_known_cards_are_low():
    view = base_view([None, "AS", "2S", "2H"], START, discard_top="KD")
    assert bots.choose_strong(view, Rng(1)) == "take 0"


def test_strong_draws_rather_than_take_a_high_discard():
    view = base_view([None, None, "3S", "2H"], START, discard_top="QD")
    assert bots.choose_strong(view, Rng(1)) == "draw"


@pytest.mark.parametrize("known, drawn, expected", [
    ([None, None, "9S", "2H"], "AS", "swap 2"),     # the known 9 is the worst spot
    ([None, "AS", "2S", "2H"], "3D", "swap 0"),     # an unknown card is worse than a 3 on average
    (["KS", "AS", "2S", "2H"], "QD", "discard"),    # nothing to gain
    (["KS", "AS", "2S", "4H"], "4D", "discard"),    # no gain for an equal card
])
def test_strong_places_a_drawn_card_where_it_gains_most(known, drawn, expected):
    view = base_view(known, AFTER_DRAW, drawn=drawn)
    assert bots.choose_strong(view, Rng(1)) == expected


def test_strong_knocks_with_a_known_low_hand_and_not_with_unknown_cards():
    assert bots.choose_strong(base_view(["KS", "KH", "AS", "2H"], START), Rng(1)) == "knock"
    assert bots.choose_strong(base_view([None, None, "AS", "2H"], START), Rng(1)) != "knock"
    assert bots.choose_strong(base_view([None, None, "9S", "8H"], START), Rng(1)) != "knock"


def test_strong_counts_cards_it_has_seen():
    view = base_view(["KS", "KH", "KD", "KC"], START, discard_top="AS")
    counts = bots.unseen_counts(view)
    assert counts[0] == 0 and counts[1] == 3 and counts[10] == 12 and sum(counts) == 52 - 5


def test_strong_beats_random_play_and_plays_only_legal_actions():
    wins = 0
    games = 40
    for seed in range(games):
        state = golf.new_game({"seats": 2}, Rng(seed))
        players = [bots.choose_strong, bots.choose_random]
        run_bots(golf, state, players, Rng(seed + 1))
        wins += golf.outcome(state)["winners"] == [0]
    assert wins >= 36


def test_tipp_for_a_swap_says_lowers_only_of_a_card_it_knows():
    """An audit: "Die gezogene Karte senkt deine Summe" for a card never seen, which it may not."""
    unknown = bots.hint(base_view([None, "AS", "2S", "2H"], AFTER_DRAW, drawn="3D"), Rng(1))
    assert unknown[0] == "swap 0" and "im Schnitt" in unknown[1] and "on average" in unknown[2]
    known = bots.hint(base_view([None, None, "9S", "2H"], AFTER_DRAW, drawn="AS"), Rng(1))
    assert known == ("swap 2", "Die gezogene Karte senkt deine Summe.", "The drawn card lowers your total.")

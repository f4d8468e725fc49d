"""Pao De Kuai engine: shapes, bombs, turns, settlements, the table of deals, and seeded playouts."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from spieleabend.bots import paodekuai as bots
from spieleabend.games import paodekuai as pdk
from spieleabend.games.common import BadOptions, IllegalAction, MalformedAction, Rng, copy_data


def cards(text):
    """Return the card list of a space-separated string."""
    return text.split()


def arrange(hands, turn=0, trick=(), has_played=(True, True, True)):
    """Return a running deal past its first play: these hands, this trick, every other card played.

    `trick` lists (seat, "cards") with "" for a pass; all 48 cards stay on the table.
    """
    state = pdk.new_game({"deals": 1}, Rng(1))
    entries = [{"seat": seat, "cards": pdk.sort_cards(cards(text))} for seat, text in trick]
    on_table = [c for entry in entries for c in entry["cards"]]
    held = [c for hand in hands for c in cards(hand)]
    earlier = [c for c in pdk.DECK if c not in held and c not in on_table]
    state["hands"] = [pdk.sort_cards(cards(hand)) for hand in hands]
    state["trick"] = entries
    state["played"] = earlier + on_table
    state["has_played"] = list(has_played)
    state["turn"] = turn
    return state


def all_cards(state):
    """Return every card of the deal, sorted: the three hands and the played cards."""
    return sorted([c for hand in state["hands"] for c in hand] + state["played"])


def deal_settlements(state, kind=None):
    """Return the current deal's settlements, optionally only one kind."""
    return [s for s in state["log"][-1]["settlements"] if kind is None or s["kind"] == kind]


def describe(text, opening=False):
    """Return (shape, length, top, bomb) of a play, or None."""
    found = pdk.classify(cards(text), opening)
    return None if found is None else (found["shape"], found["length"], found["top"], found["bomb"])


def seed_with_four_threes_for_the_leader():
    """Return the first seed whose first deal gives the 3 of hearts holder all four 3s."""
    for seed in range(2000):
        state = pdk.new_game({"deals": 1}, Rng(seed))
        if all(c in state["hands"][state["turn"]] for c in cards("3S 3H 3D 3C")):
            return seed
    raise AssertionError("no such seed")


# ---------------------------------------------------------------- deck and deal

def test_the_deck_has_48_cards_without_jokers_ace_of_hearts_and_three_2s():
    assert len(pdk.DECK) == len(set(pdk.DECK)) == 48
    for removed in ("AH", "2H", "2D", "2C"):
        assert removed not in pdk.DECK
    assert [c for c in pdk.DECK if c[0] == "2"] == ["2S"]


@pytest.mark.parametrize("seed", range(8))
def test_each_seat_gets_16_and_the_3_of_hearts_holder_leads(seed):
    state = pdk.new_game({}, Rng(seed))
    assert [len(hand) for hand in state["hands"]] == [16, 16, 16]
    assert all_cards(state) == sorted(pdk.DECK)
    leader = state["turn"]
    assert "3H" in state["hands"][leader]
    assert pdk.to_move(state) == [leader]
    legal = pdk.legal_actions(state, leader)
    assert legal and all("3H" in action.split() for action in legal)


def test_the_first_play_must_include_the_3_of_hearts():
    state = pdk.new_game({}, Rng(4))
    leader = state["turn"]
    before = copy_data(state)
    other = [c for c in state["hands"][leader] if c != "3H"][0]
    with pytest.raises(IllegalAction, match="3 of hearts"):
        pdk.apply_action(state, leader, "play " + other)
    assert state == before
    pdk.apply_action(state, leader, "play 3H")
    assert state["played"] == ["3H"]


def test_play_passes_from_seat_s_to_seat_s_plus_1():
    state = arrange(["5H 9H", "6H KH", "7H QH"], turn=2, trick=[(0, "3C"), (1, "4C")])
    pdk.apply_action(state, 2, "play 7H")
    assert pdk.to_move(state) == [0]
    pdk.apply_action(state, 0, "play 9H")
    assert pdk.to_move(state) == [1]


# ---------------------------------------------------------------- shapes

@pytest.mark.parametrize("text, expected", [
    ("7H", ("single", 1, "7", 0)),
    ("2S", ("single", 1, "2", 0)),
    ("7H 7S", ("pair", 2, "7", 0)),
    ("AS AD", ("pair", 2, "A", 0)),
    ("KS KH KD", ("triple", 3, "K", 0)),
    ("3H 4S 5D 6C 7H", ("straight", 5, "7", 0)),
    ("10S JH QD KC AS", ("straight", 5, "A", 0)),
    ("3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AS", ("straight", 12, "A", 0)),
    ("3H 3S 4D 4C", ("run", 4, "4", 0)),
    ("QH QS KD KC AS AD", ("run", 6, "A", 0)),
    ("5H 5S 5D 5C", ("bomb", 4, "5", 5)),
    ("AS AD AC", ("bomb", 3, "A", 14)),
    ("3H 3S 3D 3C", ("bomb", 4, "3", 3)),
])
def test_legal_shapes(text, expected):
    assert describe(text) == expected


@pytest.mark.parametrize("text, why", [
    ("JH QS KD AS 2S", "a straight may not hold the 2"),
    ("AS 2S 3H 4H 5H", "the Ace is only high"),
    ("KH AS 2S 3H 4H", "no wrapping"),
    ("3H 4S 5D 6C", "a straight needs five ranks"),
    ("3H 4S 5D 6C 8H", "a straight needs consecutive ranks"),
    ("3H 3S 5D 5C", "a run needs consecutive pairs"),
    ("KH KS AD AC 2S", "a run may not hold the 2"),
    ("3H 3S 3D 4C", "no triple with a kicker"),
    ("3H 3S 3D 4C 4H", "no triple with a pair"),
    ("3H 3S 3D 4C 4H 4S", "no airplane"),
    ("5H 5S 5D 5C 6H", "no four with a kicker"),
    ("5H 5S 5D 5C 6H 7H", "no four with two kickers"),
    ("3H 3S 4D 4C 5H", "no mixed run"),
    ("AH", "the Ace of hearts is not in the deck"),
    ("2H", "the 2 of hearts is not in the deck"),
    ("7H 7H", "a card named twice"),
    ("", "no cards"),
])
def test_illegal_shapes(text, why):
    assert describe(text) is None, why


def test_three_aces_are_a_bomb_never_a_plain_triple():
    assert describe("AS AD AC") == ("bomb", 3, "A", pdk.ACES_BOMB)
    state = arrange(["KS KH KD 4C", "AS AD AC 5S", "6H 7H"], turn=0)
    pdk.apply_action(state, 0, "play KS KH KD")
    assert pdk.legal_actions(state, 1) == ["play AS AD AC"]
    pdk.apply_action(state, 1, "play AS AD AC")
    pdk.apply_action(state, 2, "pass")
    pdk.apply_action(state, 0, "pass")
    # Played over a triple, the Aces were a bomb answer: they earn the bomb bonus.
    assert [b["points"] for b in deal_settlements(state, "bomb")] == [[-10, 20, -10]]


def test_four_3s_are_heavenly_only_in_the_very_first_play():
    assert describe("3S 3H 3D 3C", opening=True) == ("bomb", 4, "3", pdk.HEAVENLY_BOMB)
    assert pdk.classify(cards("3S 3H 3D 3C"), True)["heavenly"]
    assert not pdk.classify(cards("3S 3H 3D 3C"))["heavenly"]


# ---------------------------------------------------------------- answers

@pytest.mark.parametrize("play, previous, expected", [
    ("8H", "7H", True),
    ("7S", "7H", False),
    ("2S", "AS", True),
    ("AS", "2S", False),
    ("8H 8S", "7H 7S", True),
    ("8H 8S", "7H", False),
    ("4H 5S 6D 7C 8H", "3H 4S 5D 6C 7H", True),
    ("4H 5S 6D 7C 8H 9H", "3H 4S 5D 6C 7H", False),
    ("4H 4S 5D 5C", "3H 3S 4D 4C", True),
    ("4H 4S 5D 5C 6H 6S", "3H 3S 4D 4C", False),
    ("9H 9S 9D", "8H 8S 8D", True),
    ("4H 4S 4D 4C", "2S", True),
    ("4H 4S 4D 4C", "10S JH QD KC AS", True),
    ("5H 5S 5D 5C", "4H 4S 4D 4C", True),
    ("4H 4S 4D 4C", "5H 5S 5D 5C", False),
    ("AS AD AC", "KH KS KD KC", True),
    ("KH KS KD KC", "AS AD AC", False),
    ("4H 4S 4D 4C", "3H 3S 3D 3C", True),
    ("2S", "3H 3S 3D 3C", False),
])
def test_beats(play, previous, expected):
    assert pdk.beats(cards(play), cards(previous)) is expected


def test_nothing_beats_the_heavenly_bomb():
    heavenly = pdk.classify(cards("3S 3H 3D 3C"), opening=True)
    for bomb in ("KH KS KD KC", "AS AD AC", "4H 4S 4D 4C"):
        assert not pdk.beats(cards(bomb), heavenly)


def test_four_3s_later_are_the_lowest_bomb_and_beat_any_ordinary_play():
    state = arrange(["2S 5H", "3S 3H 3D 3C 9H", "4S 4H 4D 4C 6H"], turn=0)
    pdk.apply_action(state, 0, "play 2S")
    assert pdk.legal_actions(state, 1) == ["play 3S 3H 3D 3C"]
    pdk.apply_action(state, 1, "play 3C 3D 3H 3S")
    assert pdk.view(state, 2)["top"]["play"]["bomb"] == 3
    assert pdk.legal_actions(state, 2) == ["play 4S 4H 4D 4C"]


def test_a_seat_must_answer_even_if_only_a_bomb_answers():
    state = arrange(["2S 5H", "8S 8H 8D 8C 4H", "6H 7H"], turn=0)
    pdk.apply_action(state, 0, "play 2S")
    assert pdk.legal_actions(state, 1) == ["play 8S 8H 8D 8C"]
    before = copy_data(state)
    with pytest.raises(IllegalAction, match="must answer"):
        pdk.apply_action(state, 1, "pass")
    assert state == before


def test_a_seat_may_choose_any_of_its_answers():
    state = arrange(["6H 3C", "7H 9H KH KS KD KC", "4H 4D"], turn=0)
    pdk.apply_action(state, 0, "play 6H")
    legal = pdk.legal_actions(state, 1)
    assert {"play 7H", "play 9H", "play KH", "play KS KH KD KC"} <= set(legal)
    pdk.apply_action(state, 1, "play 9H")
    assert state["trick"][-1] == {"seat": 1, "cards": ["9H"]}


def test_the_leader_may_not_pass():
    state = arrange(["6H 3C", "7H 9H", "4H 4D"], turn=0)
    assert "pass" not in pdk.legal_actions(state, 0)
    with pytest.raises(IllegalAction, match="leader may not pass"):
        pdk.apply_action(state, 0, "pass")


def test_after_two_passes_the_trick_closes_and_its_last_player_leads():
    state = arrange(["5H 3C", "9H 4S", "6D 4D"], turn=0)
    pdk.apply_action(state, 0, "play 5H")
    pdk.apply_action(state, 1, "play 9H")
    assert pdk.legal_actions(state, 2) == ["pass"]
    pdk.apply_action(state, 2, "pass")
    assert state["trick"] != []
    pdk.apply_action(state, 0, "pass")
    assert state["trick"] == []
    assert pdk.to_move(state) == [1]
    last = pdk.view(state, 1)["last_trick"]
    assert [(e["seat"], e["cards"], e["pass"]) for e in last] == [
        (0, ["5H"], False), (1, ["9H"], False), (2, [], True), (0, [], True)]


def test_a_straight_is_answered_only_by_a_higher_straight_of_the_same_length_or_a_bomb():
    state = arrange(["3H 4S 5D 6C 7H 9C", "4H 5S 6D 7C 8H 9H 10H KC", "JS JH JD JC 3D"], turn=0)
    pdk.apply_action(state, 0, "play 3H 4S 5D 6C 7H")
    legal = set(pdk.legal_actions(state, 1))
    assert legal == {"play 4H 5S 6D 7C 8H", "play 5S 6D 7C 8H 9H", "play 6D 7C 8H 9H 10H"}
    pdk.apply_action(state, 1, "play 6D 7C 8H 9H 10H")
    assert pdk.legal_actions(state, 2) == ["play JS JH JD JC"]


# ---------------------------------------------------------------- action grammar

def test_card_order_in_an_action_does_not_matter_but_its_spelling_does():
    state = arrange(["5H 3C", "9H 4S", "6D 7D 8D 9D 10D 4D"], turn=2)
    for text in ("play 10d 8D 6D 9D 7D", "PLAY 10D 8D 6D 9D 7D", "play  10D 8D 6D 9D 7D", "play 1OD"):
        before = copy_data(state)
        with pytest.raises(MalformedAction):
            pdk.apply_action(state, 2, text)
        assert state == before
    pdk.apply_action(state, 2, "play 10D 8D 6D 9D 7D")
    assert state["trick"][-1]["cards"] == ["6D", "7D", "8D", "9D", "10D"]


def test_any_card_choice_of_a_listed_combination_is_accepted():
    state = arrange(["5H 3C", "9H 4S", "7S 7H 7D 8C 8D 8H"], turn=2)
    listed = [a for a in pdk.legal_actions(state, 2) if len(a.split()) == 5]
    assert listed == ["play 7S 7H 8H 8D"]
    pdk.apply_action(state, 2, "play 7D 7S 8C 8H")
    assert state["hands"][2] == ["7H", "8D"]


@pytest.mark.parametrize("seat, action, why", [
    (1, "play 9H", "not this seat's turn"),
    (0, "play 9H", "card not in hand"),
    (0, "play 5H 5H", "card named twice"),
    (0, "play 5H 3C", "not a combination"),
    (0, "play", "no cards"),
    (0, "pass", "the leader may not pass"),
    (0, "next", "the deal is still running"),
    (0, "stop", "the deal is still running"),
    (0, "fold", "unknown verb"),
    (0, "", "empty"),
    (0, None, "not a string"),
    (0, 5, "not a string"),
    (3, "play 5H", "no such seat"),
    (-1, "play 5H", "no such seat"),
    (True, "play 5H", "no such seat"),
    ("0", "play 5H", "no such seat"),
])
def test_illegal_actions_raise_and_change_nothing(seat, action, why):
    state = arrange(["5H 3C", "9H 4S", "6D 4D"], turn=0)
    before = copy_data(state)
    with pytest.raises(IllegalAction):
        pdk.apply_action(state, seat, action)
    assert state == before, why


def test_an_answer_that_does_not_beat_is_refused():
    state = arrange(["5H 3C", "9H 4S", "6D 4D"], turn=0)
    pdk.apply_action(state, 0, "play 5H")
    before = copy_data(state)
    for action in ("play 4S", "pass"):
        with pytest.raises(IllegalAction):
            pdk.apply_action(state, 1, action)
    assert state == before


# ---------------------------------------------------------------- settlement

def test_going_out_ends_the_deal_and_each_loser_pays_per_card_doubled_if_it_never_played():
    state = arrange(["5H", "3S 4S 9D", "6C 6D 7C 8C 9C"], turn=0, has_played=(True, True, False))
    pdk.apply_action(state, 0, "play 5H")
    assert pdk.deal_over(state)
    out = deal_settlements(state, "out")
    assert len(out) == 1
    assert out[0]["points"] == [13, -3, -10]
    result = pdk.outcome(state)
    assert (result["winners"], result["scores"], result["deals"], result["stopped_by"]) == ([0], [13, -3, -10], 1, None)
    assert result["night_point"] == 0 and [row["seat"] for row in result["ranking"]] == [0, 1, 2]


def test_the_2_of_spades_in_hand_costs_10_more():
    state = arrange(["5H", "2S 4S 9D", "6C"], turn=0)
    pdk.apply_action(state, 0, "play 5H")
    assert deal_settlements(state, "out")[0]["points"] == [13 + 1, -13, -1]


def test_each_whole_bomb_in_hand_costs_10_more():
    state = arrange(["5H", "7S 7H 7D 7C 4S", "AS AD AC 9C"], turn=0, has_played=(True, True, False))
    pdk.apply_action(state, 0, "play 5H")
    out = deal_settlements(state, "out")[0]
    assert out["points"] == [15 + 18, -15, -18]
    assert [loser["bombs"] for loser in out["losers"]] == [["7"], ["A"]]


def test_four_3s_and_two_bombs_in_one_hand_each_cost_10():
    state = arrange(["5H", "3S 3H 3D 3C KS KH KD KC", "9C"], turn=0)
    pdk.apply_action(state, 0, "play 5H")
    assert deal_settlements(state, "out")[0]["points"] == [8 + 20 + 1, -28, -1]


def test_a_broken_bomb_costs_nothing_extra():
    state = arrange(["5H", "7S 7H 7D AS AD", "9C"], turn=0)
    pdk.apply_action(state, 0, "play 5H")
    assert deal_settlements(state, "out")[0]["points"] == [5 + 1, -5, -1]


def test_an_answering_bomb_is_paid_20_when_its_trick_closes():
    state = arrange(["9H 4C 4D", "KS KH KD KC 5S", "6H 7H"], turn=0)
    pdk.apply_action(state, 0, "play 9H")
    pdk.apply_action(state, 1, "play KS KH KD KC")
    pdk.apply_action(state, 2, "pass")
    assert deal_settlements(state) == []
    pdk.apply_action(state, 0, "pass")
    bonus = deal_settlements(state, "bomb")
    assert [b["points"] for b in bonus] == [[-10, 20, -10]]
    assert pdk.view(state, 0)["table"] == [-10, 20, -10]


def test_a_bomb_beaten_by_a_higher_bomb_earns_nothing_the_higher_one_earns():
    state = arrange(["9H 4C 4D", "KS KH KD KC 5S", "AS AD AC 7H"], turn=0)
    pdk.apply_action(state, 0, "play 9H")
    pdk.apply_action(state, 1, "play KS KH KD KC")
    assert pdk.legal_actions(state, 2) == ["play AS AD AC"]
    pdk.apply_action(state, 2, "play AS AD AC")
    pdk.apply_action(state, 0, "pass")
    pdk.apply_action(state, 1, "pass")
    assert [(b["seat"], b["points"]) for b in deal_settlements(state, "bomb")] == [(2, [-10, -10, 20])]


def test_a_bomb_that_empties_its_players_hand_is_paid_at_once():
    state = arrange(["9H 4C 4D", "KS KH KD KC", "6H 7H"], turn=0)
    pdk.apply_action(state, 0, "play 9H")
    pdk.apply_action(state, 1, "play KS KH KD KC")
    assert pdk.deal_over(state)
    kinds = [(s["kind"], s["points"]) for s in deal_settlements(state)]
    assert kinds == [("bomb", [-10, 20, -10]), ("out", [-2, 4, -2])]
    assert pdk.table_totals(state) == [-12, 24, -12]


def test_a_led_bomb_earns_nothing():
    state = arrange(["7S 7H 7D 7C 4C", "KS 5S", "6H 8H"], turn=0)
    pdk.apply_action(state, 0, "play 7S 7H 7D 7C")
    pdk.apply_action(state, 1, "pass")
    pdk.apply_action(state, 2, "pass")
    assert pdk.to_move(state) == [0]
    assert deal_settlements(state) == []


def test_the_heavenly_bomb_is_unbeatable_and_earns_nothing():
    seed = seed_with_four_threes_for_the_leader()
    state = pdk.new_game({"deals": 1}, Rng(seed))
    leader = state["turn"]
    assert "play 3S 3H 3D 3C" in pdk.legal_actions(state, leader)
    pdk.apply_action(state, leader, "play 3S 3H 3D 3C")
    assert pdk.view(state, leader)["top"]["play"]["heavenly"]
    for seat in ((leader + 1) % 3, (leader + 2) % 3):
        assert pdk.legal_actions(state, seat) == ["pass"]
        pdk.apply_action(state, seat, "pass")
    assert pdk.to_move(state) == [leader]
    assert deal_settlements(state) == []


def test_a_bomb_answer_that_empties_the_hand_against_four_3s_later_is_paid():
    state = arrange(["3S 3H 3D 3C 9D", "4S 4H 4D 4C", "6H 8H"], turn=0)
    pdk.apply_action(state, 0, "play 3S 3H 3D 3C")
    pdk.apply_action(state, 1, "play 4S 4H 4D 4C")
    assert [s["kind"] for s in deal_settlements(state)] == ["bomb", "out"]


# ---------------------------------------------------------------- the table of deals

def finish_deal(state, rng):
    """Play the current deal out with random computers."""
    while not pdk.deal_over(state):
        seat = pdk.to_move(state)[0]
        pdk.apply_action(state, seat, bots.random_choose(pdk.view(state, seat), rng))


def test_after_a_deal_every_seat_says_next_and_the_3_of_hearts_holder_leads_again():
    state = pdk.new_game({"deals": 2}, Rng(11))
    rng = Rng(12)
    finish_deal(state, rng)
    assert pdk.outcome(state) is None
    assert pdk.to_move(state) == [0, 1, 2]
    assert pdk.legal_actions(state, 1) == ["next", "stop"]
    first_totals = pdk.table_totals(state)
    pdk.apply_action(state, 1, "next")
    with pytest.raises(IllegalAction):
        pdk.apply_action(state, 1, "next")
    assert pdk.to_move(state) == [0, 2]
    pdk.apply_action(state, 0, "next")
    pdk.apply_action(state, 2, "next")
    assert [len(hand) for hand in state["hands"]] == [16, 16, 16]
    assert "3H" in state["hands"][state["turn"]]
    assert state["played"] == [] and state["has_played"] == [False] * 3
    assert pdk.view(state, 0)["deal"] == 2
    assert pdk.table_totals(state) == first_totals
    finish_deal(state, rng)
    result = pdk.outcome(state)
    totals = pdk.table_totals(state)
    assert result["scores"] == totals
    assert result["winners"] == [s for s in range(3) if totals[s] == max(totals)]
    first, second = [pdk.deal_points(record) for record in state["log"]]
    assert totals == [first[seat] + second[seat] for seat in range(3)]
    assert pdk.to_move(state) == []


def test_stop_after_a_deal_ends_the_table_and_an_open_table_runs_until_stopped():
    state = pdk.new_game({"deals": 0}, Rng(3))
    rng = Rng(4)
    for _ in range(3):
        finish_deal(state, rng)
        assert pdk.outcome(state) is None
        for seat in range(3):
            pdk.apply_action(state, seat, "next")
    finish_deal(state, rng)
    pdk.apply_action(state, 2, "stop")
    result = pdk.outcome(state)
    assert result["deals"] == 4 and result["stopped_by"] == 2
    assert sum(result["scores"]) == 0
    assert pdk.legal_actions(state, 0) == []


def test_the_default_table_has_5_deals():
    state = pdk.new_game({}, Rng(0))
    assert state["options"]["deals"] == 5


@pytest.mark.parametrize("options", [
    {"seats": 2}, {"seats": 4}, {"seats": "3"}, {"deals": -1}, {"deals": 100}, {"deals": "5"},
    {"deals": True}, {"deals": 2.0}, {"names": ["a", "b"]}, "deals",
])
def test_bad_options_are_refused(options):
    with pytest.raises(BadOptions):
        pdk.new_game(options, Rng(0))


# ---------------------------------------------------------------- views

def strings_in(value):
    """Yield every string inside a plain-data value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)


def hidden_cards_seen(state, seat):
    """Return the cards of other seats' hands that appear anywhere in the view of `seat`."""
    hidden = set()
    for other in range(3):
        if other != seat:
            hidden.update(state["hands"][other])
    return hidden & set(strings_in(pdk.view(state, seat)))


def test_the_view_shows_what_the_seat_may_know():
    state = arrange(["5H 3C", "9H 4S", "6D 4D"], turn=1, trick=[(0, "5H")], has_played=(True, False, True))
    state["hands"][0] = ["3C"]
    v = pdk.view(state, 1)
    assert v["hand"] == ["4S", "9H"]
    assert v["hand_sizes"] == [1, 2, 2]
    assert v["has_played"] == [True, False, True]
    assert v["trick"][0]["seat"] == 0 and v["trick"][0]["cards"] == ["5H"]
    assert v["top"]["seat"] == 0 and v["top"]["play"]["shape"] == "single"
    assert v["leader"] == 0 and v["turn"] == 1
    assert v["legal"] == ["play 9H"] and v["seat"] == 1
    assert "5H" in v["played"]
    assert hidden_cards_seen(state, 1) == set()
    table = pdk.view(state, None)
    assert "hand" not in table and table["legal"] == []
    assert hidden_cards_seen(state, None) == set()


# ---------------------------------------------------------------- legal actions against brute force

HANDS = st.lists(st.sampled_from(pdk.DECK), min_size=1, max_size=9, unique=True)


@settings(max_examples=150, deadline=None)
@given(hand=HANDS, top_seed=st.integers(0, 10 ** 6))
def test_legal_actions_list_one_choice_of_every_distinct_answer(hand, top_seed):
    rng = Rng(top_seed)
    rest = [c for c in pdk.DECK if c not in hand]
    rng.shuffle(rest)
    top = None
    for size in (1, 2, 3, 5, 4):
        candidate = pdk.sort_cards(rest[:size]) if rng.below(2) else None
        if candidate and pdk.classify(candidate):
            top = candidate
            break
    filler = [c for c in rest if not top or c not in top][:2]
    trick = [(0, " ".join(top))] if top else []
    state = arrange([filler[0], " ".join(hand), filler[1]], turn=1, trick=trick)
    previous = pdk.classify(top) if top else None
    wanted = set()
    for mask in range(1, 1 << len(hand)):
        chosen = [hand[i] for i in range(len(hand)) if mask >> i & 1]
        found = pdk.classify(chosen)
        if found and pdk.beats(found, previous):
            wanted.add((found["shape"], found["length"], found["rank"], found["bomb"]))
    listed = pdk.legal_actions(state, 1)
    got = set()
    for action in listed:
        if action == "pass":
            continue
        found = pdk.classify(action.split()[1:])
        got.add((found["shape"], found["length"], found["rank"], found["bomb"]))
    assert got == wanted
    assert len(got) == len(listed) - (1 if "pass" in listed else 0)
    assert ("pass" in listed) == (not wanted)


# ---------------------------------------------------------------- seeded playouts

def playout(seed, choose, deals=2, deep=False):
    """Play a whole seeded table, checking invariants after every action; return (state, actions)."""
    state = pdk.new_game({"deals": deals}, Rng(seed))
    rng = Rng(seed + 99)
    actions = []
    while pdk.outcome(state) is None:
        assert len(actions) < 400 * deals, "a deal ends within its bound"
        movers = pdk.to_move(state)
        seat = movers[rng.below(len(movers))]
        view = pdk.view(state, seat)
        action = choose(view, rng)
        assert action in view["legal"]
        if deep:
            assert hidden_cards_seen(state, seat) == set()
            assert json.loads(json.dumps(state)) == state
            for other in range(3):
                if other != seat:
                    assert pdk.legal_actions(state, other) == [] or pdk.deal_over(state)
        pdk.apply_action(state, seat, action)
        actions.append((seat, action))
        assert all_cards(state) == sorted(pdk.DECK), "the 48 cards are conserved"
        for record in state["log"]:
            for settlement in record["settlements"]:
                assert sum(settlement["points"]) == 0
    return state, actions


def test_two_thousand_random_deals_keep_every_invariant():
    for seed in range(1000):
        state, actions = playout(seed, bots.random_choose, deals=2, deep=seed % 10 == 0)
        result = pdk.outcome(state)
        assert len(state["log"]) == 2 and result["deals"] == 2
        assert sum(result["scores"]) == 0
        for record in state["log"]:
            assert sum(1 for s in record["settlements"] if s["kind"] == "out") == 1


def test_strong_computers_play_legal_whole_tables():
    for seed in range(8):
        state, _ = playout(seed, bots.strong_choose, deals=2, deep=seed == 0)
        assert pdk.outcome(state)["deals"] == 2


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2 ** 31 - 1))
def test_the_same_seed_replays_the_same_table(seed):
    first = playout(seed, bots.random_choose, deals=1)
    again = playout(seed, bots.random_choose, deals=1)
    assert first == again


def test_views_never_change_the_state():
    state = pdk.new_game({}, Rng(9))
    before = copy_data(state)
    for seat in (0, 1, 2, None):
        pdk.view(state, seat)
    assert state == before

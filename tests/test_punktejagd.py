"""Punktejagd engine: the rule text's examples, scoring properties, whole games, bad input, hidden plans."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from spieleabend.bots import punktejagd as bots
from spieleabend.games import punktejagd as engine
from spieleabend.games.common import BadOptions, IllegalAction, Rng, copy_data

NORMAL, KOPFSTAND, GOLD = "normal", "kopfstand", "gold"
NO_RISK = [False] * 6


def points(cards, round_type, risk_seats=()):
    """Score one round with the risk chip on the given seats."""
    risks = [seat in risk_seats for seat in range(len(cards))]
    return engine.score_round(cards, round_type, risks)


# --- Section 8 of the rule text, verbatim --------------------------------------------------------


def test_beispiel_1_die_groesste_karte_gewinnt_nicht():
    # "Normalrunde: 3, 7, 9, 9. Die 7 bekommt 5 Punkte, die 3 3 Punkte, beide Neunen jeweils 1 Punkt."
    assert points([3, 7, 9, 9], NORMAL) == [3, 5, 1, 1]
    # "Mit Risiko hätte die 7 8, eine der Neunen dagegen 0 Punkte."
    assert points([3, 7, 9, 9], NORMAL, risk_seats=[1]) == [3, 8, 1, 1]
    assert points([3, 7, 9, 9], NORMAL, risk_seats=[2]) == [3, 5, 0, 1]
    assert points([3, 7, 9, 9], NORMAL, risk_seats=[3]) == [3, 5, 1, 0]


def test_beispiel_2_kopfstand_dreht_die_chancen_um():
    # "Jetzt bekommt die 3 5 Punkte, die 7 3 Punkte und jede Neun 1 Punkt."
    assert points([3, 7, 9, 9], KOPFSTAND) == [5, 3, 1, 1]
    # "Setzt die 7 Risiko ein, bekommt sie 0 Punkte: Sie hat nicht die beste Gewinnposition."
    assert points([3, 7, 9, 9], KOPFSTAND, risk_seats=[1]) == [5, 0, 1, 1]


def test_beispiel_3_eine_einzige_einmalige_zahl():
    # "Nur die 6 ist einmalig. Sie bekommt 10 Punkte, nicht 16. Mit Risiko wären es 13 Punkte.
    #  Alle anderen bekommen ohne Risiko 2 Punkte."
    assert points([2, 2, 6, 8, 8], GOLD) == [2, 2, 10, 2, 2]
    assert points([2, 2, 6, 8, 8], GOLD, risk_seats=[2]) == [2, 2, 13, 2, 2]


# --- Sections 4, 5 and 7 -------------------------------------------------------------------------


def test_two_players_different_numbers_higher_gets_5_lower_gets_3():
    # "Bei verschiedenen Zahlen bekommen in einer normalen Runde die höhere Karte 5 und die niedrigere 3 Punkte."
    assert points([4, 9], NORMAL) == [3, 5]
    assert points([10, 1], NORMAL) == [5, 3]


def test_two_players_equal_numbers_both_get_1_without_risk():
    # "Bei gleichen Zahlen bekommen beide 1 Punkt, sofern niemand Risiko eingesetzt hat."
    assert points([6, 6], NORMAL) == [1, 1]
    assert points([6, 6], NORMAL, risk_seats=[0]) == [0, 1]


@pytest.mark.parametrize("round_type, base", [(NORMAL, 1), (KOPFSTAND, 1), (GOLD, 2)])
def test_no_unique_number_gives_the_base_value_and_a_risk_chip_gives_0(round_type, base):
    # "Keine einmalige Zahl: Alle erhalten den Grundwert ... Ein eingesetzter Risiko-Chip verändert das
    #  für seinen Spieler auf 0 Punkte."
    assert points([5, 5, 8, 8], round_type) == [base] * 4
    assert points([5, 5, 8, 8], round_type, risk_seats=[2]) == [base, base, 0, base]
    assert points([3, 3, 3], round_type, risk_seats=[0, 1]) == [0, 0, base]


@pytest.mark.parametrize("cards, round_type, second_seat, second_points", [
    ([3, 7, 9, 9], NORMAL, 0, 3),
    ([3, 7, 9, 9], KOPFSTAND, 1, 3),
    ([2, 9, 5, 5], GOLD, 0, 6),
    ([4, 9, 1], GOLD, 0, 6),
])
def test_a_card_that_would_get_3_or_6_gets_0_with_failed_risk(cards, round_type, second_seat, second_points):
    # "Eine Karte, die ohne Chip 3 oder 6 Punkte bekommen hätte, bekommt mit gescheitertem Risiko 0."
    assert points(cards, round_type)[second_seat] == second_points
    assert points(cards, round_type, risk_seats=[second_seat])[second_seat] == 0


def test_the_risk_bonus_of_3_is_not_doubled_in_gold():
    assert points([4, 9, 1], GOLD) == [6, 10, 2]
    assert points([4, 9, 1], GOLD, risk_seats=[1]) == [6, 13, 2]


def test_three_equal_cards_block_each_other_too():
    # "Das gilt auch für drei oder mehr gleiche Karten."
    assert points([10, 10, 10, 2], NORMAL) == [1, 1, 1, 5]
    assert points([1, 1, 1, 4, 8], KOPFSTAND) == [1, 1, 1, 5, 3]


def test_lower_unique_numbers_get_the_base_value():
    assert points([10, 9, 8, 1], NORMAL) == [5, 3, 1, 1]
    assert points([10, 9, 8, 1], KOPFSTAND) == [1, 1, 3, 5]
    assert points([10, 9, 8, 1], GOLD) == [10, 6, 2, 2]


def test_a_single_unique_number_gets_the_top_reward_only():
    # "Sie bekommt nicht zusätzlich die Punkte für die andere Gewinnposition."
    assert points([7, 7, 2], NORMAL) == [1, 1, 5]
    assert points([7, 7, 2], KOPFSTAND) == [1, 1, 5]
    assert points([7, 7, 2], KOPFSTAND, risk_seats=[2]) == [1, 1, 8]


def test_score_round_rejects_unknown_round_types_and_mismatched_lists():
    with pytest.raises(ValueError):
        engine.score_round([1, 2], "doppel", [False, False])
    with pytest.raises(ValueError):
        engine.score_round([1, 2], NORMAL, [False])


# --- Scoring properties --------------------------------------------------------------------------

ALLOWED = {NORMAL: {0, 1, 3, 5, 8}, KOPFSTAND: {0, 1, 3, 5, 8}, GOLD: {0, 2, 6, 10, 13}}


@st.composite
def rounds(draw):
    """Draw (cards, round type, risks) of one round with 2 to 6 seats."""
    seats = draw(st.integers(2, 6))
    cards = draw(st.lists(st.integers(1, 10), min_size=seats, max_size=seats))
    risks = draw(st.lists(st.booleans(), min_size=seats, max_size=seats))
    return cards, draw(st.sampled_from([NORMAL, KOPFSTAND, GOLD])), risks


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_points_come_only_from_the_allowed_set(round_):
    cards, round_type, risks = round_
    assert set(engine.score_round(cards, round_type, risks)) <= ALLOWED[round_type]


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_positions_follow_the_unique_numbers(round_):
    cards, round_type, _ = round_
    best_points, second_points, base_points = engine.POINTS[round_type]
    plain = engine.score_round(cards, round_type, [False] * len(cards))
    unique = sorted(card for card in cards if cards.count(card) == 1)
    if round_type != KOPFSTAND:
        unique.reverse()
    for seat, card in enumerate(cards):
        if unique and card == unique[0]:
            assert plain[seat] == best_points
        elif len(unique) > 1 and card == unique[1]:
            assert plain[seat] == second_points
        else:
            assert plain[seat] == base_points


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_risk_changes_only_its_own_seat_and_pays_3_exactly_on_the_best_position(round_):
    cards, round_type, risks = round_
    best_points = engine.POINTS[round_type][0]
    plain = engine.score_round(cards, round_type, [False] * len(cards))
    risky = engine.score_round(cards, round_type, risks)
    for seat in range(len(cards)):
        if not risks[seat]:
            assert risky[seat] == plain[seat]
        elif plain[seat] == best_points:
            assert risky[seat] == best_points + 3
        else:
            assert risky[seat] == 0


@settings(max_examples=300, deadline=None)
@given(rounds(), st.randoms(use_true_random=False))
def test_scoring_does_not_depend_on_seat_order(round_, shuffler):
    cards, round_type, risks = round_
    order = list(range(len(cards)))
    shuffler.shuffle(order)
    before = engine.score_round(cards, round_type, risks)
    after = engine.score_round([cards[i] for i in order], round_type, [risks[i] for i in order])
    assert after == [before[i] for i in order]


@settings(max_examples=300, deadline=None)
@given(rounds())
def test_kopfstand_mirrors_normal_and_gold_doubles_it_except_the_risk_bonus(round_):
    cards, _, risks = round_
    normal = engine.score_round(cards, NORMAL, risks)
    assert engine.score_round([11 - card for card in cards], KOPFSTAND, risks) == normal
    gold = engine.score_round(cards, GOLD, risks)
    assert gold == [2 * p - 3 if p == 8 else 2 * p for p in normal]


# --- Options -------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {"seats": 1}, {"seats": 7}, {"seats": 0}, {"seats": "4"}, {"seats": True}, {"seats": 4.0},
    {"seats": 3, "names": ["A", "B"]}, {"seats": 2, "names": ["A", 5]}, {"seats": 2, "names": "AB"},
    "4",
])
def test_new_game_rejects_options_the_rules_forbid(options):
    with pytest.raises(BadOptions):
        engine.new_game(options, Rng(1))


def test_new_game_deals_1_to_10_to_every_seat_and_shuffles_the_round_types():
    state = engine.new_game({"seats": 3, "names": ["Ada", "Bo", "Cem"]}, Rng(5))
    assert state["hands"] == [list(range(1, 11))] * 3
    assert sorted(state["round_types"]) == sorted([NORMAL] * 7 + [KOPFSTAND] * 2 + [GOLD])
    assert engine.view(state, 0)["names"] == ["Ada", "Bo", "Cem"]
    assert engine.to_move(state) == [0, 1, 2]
    orders = {tuple(engine.new_game({"seats": 2}, Rng(seed))["round_types"]) for seed in range(40)}
    assert len(orders) > 20


def test_default_table_has_four_seats_with_default_names():
    state = engine.new_game({}, Rng(2))
    assert state["seats"] == 4
    assert engine.view(state, None)["names"] == ["Spieler 1", "Spieler 2", "Spieler 3", "Spieler 4"]


# --- Committing and scoring ----------------------------------------------------------------------


def fixed_game(seats, round_types, seed=3):
    """Return a new game whose round order is replaced by a known one (for hand-made situations)."""
    state = engine.new_game({"seats": seats}, Rng(seed))
    state["round_types"] = list(round_types)
    return state


ORDER = [NORMAL, KOPFSTAND, NORMAL, GOLD, NORMAL, NORMAL, KOPFSTAND, NORMAL, NORMAL, NORMAL]


def test_a_round_is_scored_when_the_last_seat_commits_in_any_order():
    for commit_order in ([0, 1, 2, 3], [3, 1, 0, 2], [2, 3, 1, 0]):
        state = fixed_game(4, ORDER)
        actions = {0: "play 3", 1: "play 7 risk", 2: "play 9", 3: "play 9"}
        for index, seat in enumerate(commit_order):
            assert engine.view(state, None)["log"] == []
            engine.apply_action(state, seat, actions[seat])
            if index < 3:
                assert sorted(engine.to_move(state)) == sorted(commit_order[index + 1:])
        assert state["log"] == [{"round": 1, "type": NORMAL, "cards": [3, 7, 9, 9],
                                 "risks": [False, True, False, False], "points": [3, 8, 1, 1]}]
        assert state["totals"] == [3, 8, 1, 1]
        assert state["hands"][1] == [1, 2, 3, 4, 5, 6, 8, 9, 10]
        assert state["chip_spent"] == [False, True, False, False]
        assert engine.to_move(state) == [0, 1, 2, 3]


def test_the_chip_is_spent_even_when_the_risk_fails():
    state = fixed_game(2, ORDER)
    engine.apply_action(state, 0, "play 2 risk")
    engine.apply_action(state, 1, "play 8")
    assert state["log"][0]["points"] == [0, 5]
    assert state["chip_spent"] == [True, False]
    assert engine.legal_actions(state, 0) == ["play %d" % card for card in [1, 3, 4, 5, 6, 7, 8, 9, 10]]
    assert "play 1 risk" in engine.legal_actions(state, 1)


def test_legal_actions_list_every_hand_card_with_and_without_risk():
    state = fixed_game(3, ORDER)
    legal = engine.legal_actions(state, 2)
    assert len(legal) == 20
    assert legal[:4] == ["play 1", "play 1 risk", "play 2", "play 2 risk"]
    engine.apply_action(state, 2, "play 5")
    assert engine.legal_actions(state, 2) == []
    assert engine.legal_actions(state, 7) == []


def play_round(state, cards, risk_seats=()):
    """Commit one card per seat (risk for the given seats)."""
    for seat, card in enumerate(cards):
        engine.apply_action(state, seat, "play %d%s" % (card, " risk" if seat in risk_seats else ""))


def test_the_game_ends_after_ten_rounds_with_the_top_total_winning():
    state = fixed_game(3, ORDER)
    for number in range(1, 11):
        assert engine.outcome(state) is None
        play_round(state, [number, 11 - number, number * 3 % 10 + 1])
    result = engine.outcome(state)
    assert result["scores"] == state["totals"]
    assert result["scores"] == [sum(entry["points"][seat] for entry in state["log"]) for seat in range(3)]
    top = max(result["scores"])
    assert result["winners"] == [seat for seat in range(3) if result["scores"][seat] == top]
    assert engine.to_move(state) == []
    assert all(hand == [] for hand in state["hands"])


def test_equal_top_totals_share_the_win():
    state = fixed_game(2, ORDER)
    for number in range(1, 11):
        play_round(state, [number, number])
    # Nine rounds of 1 point and the Gold round of 2 points each.
    result = engine.outcome(state)
    assert (result["winners"], result["scores"]) == ([0, 1], [11, 11])
    # A shared win shares the first place and gives nobody the game-night point.
    assert result["ranking"] == [{"seat": 0, "place": 1}, {"seat": 1, "place": 1}]
    assert (result["night_point"], result["no_point"]) == (None, "shared")


# --- Illegal actions leave the state unchanged ---------------------------------------------------


def assert_illegal(state, seat, action):
    """Check that the action raises IllegalAction and changes nothing."""
    before = copy_data(state)
    with pytest.raises(IllegalAction):
        engine.apply_action(state, seat, action)
    assert state == before


@pytest.mark.parametrize("action", [
    "", "play", "play 0", "play 11", "play 07", "play +7", "play 7.0", "play seven", "Play 7", "play  7",
    " play 7", "play 7 ", "play 7 risky", "play 7 risk risk", "play 7 Risk", "risk 7", "draw", None, 7, ["play", 7],
])
def test_malformed_actions_are_rejected(action):
    assert_illegal(fixed_game(3, ORDER), 0, action)


@pytest.mark.parametrize("seat", [-1, 3, 10, None, True, "0", 1.0])
def test_seats_out_of_range_are_rejected(seat):
    assert_illegal(fixed_game(3, ORDER), seat, "play 5")


def test_a_card_that_was_played_cannot_be_played_again():
    state = fixed_game(2, ORDER)
    play_round(state, [4, 6])
    assert_illegal(state, 0, "play 4")
    assert_illegal(state, 1, "play 6 risk")


def test_a_second_chip_is_rejected():
    state = fixed_game(2, ORDER)
    play_round(state, [4, 6], risk_seats=[1])
    assert_illegal(state, 1, "play 10 risk")
    engine.apply_action(state, 1, "play 10")


def test_committing_twice_in_one_round_is_rejected():
    state = fixed_game(3, ORDER)
    engine.apply_action(state, 1, "play 3")
    assert_illegal(state, 1, "play 4")
    assert_illegal(state, 1, "play 3")


def test_acting_after_the_end_is_rejected():
    state = fixed_game(2, ORDER)
    for number in range(1, 11):
        play_round(state, [number, 11 - number])
    assert_illegal(state, 0, "play 1")
    assert engine.legal_actions(state, 0) == []


# --- Views ---------------------------------------------------------------------------------------


def test_view_shows_own_hand_round_types_totals_and_the_reveal():
    state = fixed_game(3, ORDER)
    play_round(state, [3, 7, 9], risk_seats=[2])
    engine.apply_action(state, 1, "play 1 risk")
    seen = engine.view(state, 0)
    assert seen["seat"] == 0
    assert seen["hand"] == [1, 2, 4, 5, 6, 7, 8, 9, 10]
    assert seen["chip_spent"] is False
    assert seen["round"] == 2 and seen["round_type"] == KOPFSTAND and seen["next_round_type"] == NORMAL
    assert seen["totals"] == [1, 3, 8]
    assert seen["committed"] == [False, True, False]
    assert seen["chips_spent"] == [False, False, True]
    assert seen["played"] == [[3], [7], [9]]
    assert seen["log"][-1] == {"round": 1, "type": NORMAL, "cards": [3, 7, 9],
                               "risks": [False, False, True], "points": [1, 3, 8]}
    assert seen["legal"] == engine.legal_actions(state, 0)
    assert seen["outcome"] is None


def test_own_committed_plan_is_visible_to_its_seat_only():
    state = fixed_game(3, ORDER)
    engine.apply_action(state, 1, "play 8 risk")
    own = engine.view(state, 1)
    assert own["plan"] == {"card": 8, "risk": True}
    assert 8 not in own["hand"] and own["chip_spent"] is True and own["legal"] == []
    for seat in (0, 2, None):
        other = engine.view(state, seat)
        assert other["plan"] is None
        assert other["chips_spent"] == [False, False, False]
        assert other["committed"] == [False, True, False]


def test_the_last_round_has_no_next_round_type_and_the_end_has_no_round():
    state = fixed_game(2, ORDER)
    for number in range(1, 10):
        play_round(state, [number, number])
    seen = engine.view(state, 0)
    assert seen["round"] == 10 and seen["round_type"] == NORMAL and seen["next_round_type"] is None
    play_round(state, [10, 10])
    final = engine.view(state, None)
    assert final["round"] is None and final["round_type"] is None and final["legal"] == []
    assert final["outcome"] == engine.outcome(state)
    assert final["committed"] == [False, False]


def test_table_view_has_no_hand_and_no_plan():
    state = fixed_game(4, ORDER)
    engine.apply_action(state, 0, "play 2")
    table = engine.view(state, None)
    assert table["hand"] is None and table["plan"] is None and table["legal"] == []
    assert table["seat"] is None


def alternative_plans(state, seat):
    """Return copies of the state in which `seat` committed a different card or risk instead."""
    plan = state["plans"][seat]
    risk_options = [False] if state["chip_spent"][seat] else [False, True]
    copies = []
    for card in state["hands"][seat]:
        for risk in risk_options:
            if (card, risk) != (plan["card"], plan["risk"]):
                other = copy_data(state)
                other["plans"][seat] = {"card": card, "risk": risk}
                copies.append(other)
    return copies


def check_views_hide_plans(state):
    """Every view except the committer's own is identical whatever another seat committed."""
    for committer in range(state["seats"]):
        if state["plans"][committer] is None:
            continue
        for other in alternative_plans(state, committer):
            for seat in list(range(state["seats"])) + [None]:
                if seat != committer:
                    assert engine.view(other, seat) == engine.view(state, seat)


# --- Whole seeded games --------------------------------------------------------------------------


def play_seeded_game(seed, seats, strengths, check_views=False):
    """Play one seeded game with bots, checking invariants after every action; return the final state."""
    state = engine.new_game({"seats": seats}, Rng(seed))
    bot_rng = Rng(seed + 99991)
    players = [bots.STRENGTHS[strengths[seat % len(strengths)]] for seat in range(seats)]
    actions = 0
    while engine.outcome(state) is None:
        # Commit in a rotating order, so every seat is sometimes first and sometimes last.
        pending = engine.to_move(state)
        start = len(state["log"]) % len(pending)
        for seat in pending[start:] + pending[:start]:
            seen = engine.view(state, seat)
            action = players[seat](seen, bot_rng)
            assert action in engine.legal_actions(state, seat)
            engine.apply_action(state, seat, action)
            actions += 1
            if check_views and engine.outcome(state) is None:
                check_views_hide_plans(state)
        assert json.loads(json.dumps(state)) == state
    assert actions == 10 * seats
    return state


def check_finished_game(state):
    """Invariants of a finished game."""
    seats = state["seats"]
    log = state["log"]
    assert len(log) == 10
    assert [entry["round"] for entry in log] == list(range(1, 11))
    types = [entry["type"] for entry in log]
    assert types.count(GOLD) == 1 and types.count(KOPFSTAND) == 2 and types.count(NORMAL) == 7
    for seat in range(seats):
        assert sorted(entry["cards"][seat] for entry in log) == list(range(1, 11))
        assert sum(entry["risks"][seat] for entry in log) <= 1
        assert state["chip_spent"][seat] == any(entry["risks"][seat] for entry in log)
        assert state["totals"][seat] == sum(entry["points"][seat] for entry in log)
    for entry in log:
        assert entry["points"] == engine.score_round(entry["cards"], entry["type"], entry["risks"])
    result = engine.outcome(state)
    top = max(state["totals"])
    assert result["scores"] == state["totals"]
    assert result["winners"] == [seat for seat in range(seats) if state["totals"][seat] == top]
    assert json.loads(json.dumps(state)) == state


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_thousands_of_random_games_keep_every_invariant(seats):
    for seed in range(600):
        check_finished_game(play_seeded_game(seed * 7 + seats, seats, ["leicht"]))


@pytest.mark.parametrize("seats", [2, 4, 6])
def test_games_with_the_lookahead_computer_keep_every_invariant(seats):
    for seed in range(40):
        check_finished_game(play_seeded_game(seed, seats, ["stark", "leicht"]))


def test_views_never_reveal_a_committed_plan_during_whole_games():
    for seed in range(12):
        play_seeded_game(seed, 2 + seed % 5, ["leicht", "stark"], check_views=True)


def test_the_same_seed_replays_the_same_game():
    for seed in (1, 2, 3):
        assert play_seeded_game(seed, 4, ["stark", "leicht"]) == \
            play_seeded_game(seed, 4, ["stark", "leicht"])
    assert play_seeded_game(1, 4, ["leicht"]) != play_seeded_game(2, 4, ["leicht"])


def test_a_saved_game_continues_exactly():
    state = play_seeded_game(8, 3, ["leicht"])
    halfway = engine.new_game({"seats": 3}, Rng(8))
    for entry in state["log"][:5]:
        for seat in range(3):
            engine.apply_action(halfway, seat, "play %d%s" % (entry["cards"][seat], " risk" if entry["risks"][seat] else ""))
    restored = json.loads(json.dumps(halfway))
    for entry in state["log"][5:]:
        for seat in (2, 0, 1):
            engine.apply_action(restored, seat, "play %d%s" % (entry["cards"][seat], " risk" if entry["risks"][seat] else ""))
    assert restored == state


def test_views_show_the_current_and_next_round_type_but_not_the_later_order():
    state = fixed_game(3, ORDER)
    twin = fixed_game(3, ORDER[:2] + list(reversed(ORDER[2:])))
    assert twin["round_types"] != state["round_types"]
    for seat in (0, 1, 2, None):
        assert engine.view(state, seat) == engine.view(twin, seat)

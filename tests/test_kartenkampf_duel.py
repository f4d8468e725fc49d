"""Kartenkampf at two seats: the matrix-game solver, the duel model and Stark's mixed play."""

import pytest

from spieleabend.bots import kartenkampf as bots
from spieleabend.bots import kartenkampf_duel as duel
from spieleabend.bots.kartenkampf_duel_weights import OPENING
from spieleabend.bots.zero_sum import solve
from spieleabend.games import kartenkampf as kk
from spieleabend.games.common import Rng


def game_after(rounds):
    state = kk.new_game({"seats": 2}, Rng(1))
    for cards in rounds:
        for seat, card in enumerate(cards):
            kk.apply_action(state, seat, "play %d" % card)
    return state


def guaranteed(strategy, matrix):
    """Return the least the row player's strategy earns against any column."""
    return min(sum(strategy[i] * matrix[i][j] for i in range(len(matrix))) for j in range(len(matrix[0])))


def test_rock_paper_scissors_is_solved_by_the_even_mix():
    strategy, value = solve([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert value == pytest.approx(0.0)
    assert strategy == pytest.approx([1 / 3, 1 / 3, 1 / 3])


def test_a_saddle_point_is_played_purely():
    strategy, value = solve([[4, 5], [2, 9]])
    assert strategy == pytest.approx([1.0, 0.0]) and value == pytest.approx(4.0)


def test_both_players_are_held_to_the_value_of_random_games():
    rng = Rng(11)
    for _ in range(300):
        rows, cols = 1 + rng.below(8), 1 + rng.below(8)
        matrix = [[rng.below(61) - 30 + rng.random() for _ in range(cols)] for _ in range(rows)]
        strategy, value = solve(matrix)
        assert min(strategy) >= 0.0 and sum(strategy) == pytest.approx(1.0)
        assert guaranteed(strategy, matrix) == pytest.approx(value, abs=1e-7)
        # The column player's own optimal mix holds the row player to that same value.
        other, other_value = solve([[-matrix[i][j] for i in range(rows)] for j in range(cols)])
        assert -other_value == pytest.approx(value, abs=1e-7)


def test_the_last_round_with_one_card_each_is_worth_what_the_rules_pay():
    # The winner scores the sum of the played cards; a round without a unique card pays nothing.
    assert duel.position_value([10], [9], 1) == pytest.approx(19.0, abs=0.01)
    assert duel.position_value([3], [8], 1) == pytest.approx(-11.0, abs=0.01)
    assert duel.position_value([6], [6], 1) == 0.0


def test_the_round_matrix_pays_the_round_and_the_position_after_it():
    matrix = duel.round_matrix([10, 2], [9, 3], 2)
    # 10 against 9 wins 19 and leaves 2 against 3 for the last round (-5).
    assert matrix[0][0] == pytest.approx(19 - 5, abs=0.05)
    # 2 against 3 loses 5 and leaves 10 against 9 (+19).
    assert matrix[1][1] == pytest.approx(-5 + 19, abs=0.05)


def test_the_opening_is_a_mixed_strategy_over_many_cards():
    assert sum(OPENING) == pytest.approx(1.0, abs=1e-5)
    assert len([p for p in OPENING if p > 0.05]) >= 5


def test_stark_at_two_seats_cannot_be_read_from_its_position():
    # The same public position, different private numbers: several cards, none of them most of the time.
    for rounds in ([], [[3, 5]], [[3, 5], [9, 9]], [[5, 2], [7, 7]]):
        view = kk.view(game_after(rounds), 0)
        picks = [bots.choose_strong(view, Rng(seed)) for seed in range(200)]
        counts = sorted((picks.count(action) for action in set(picks)), reverse=True)
        assert len(counts) >= 3, rounds
        assert counts[0] <= 150, (rounds, counts)


def test_stark_at_two_seats_plays_the_solved_opening():
    view = kk.view(game_after([]), 0)
    picks = [bots.choose_strong(view, Rng(seed)) for seed in range(2000)]
    for card, probability in zip(range(10, 0, -1), OPENING):
        assert picks.count("play %d" % card) / 2000 == pytest.approx(probability, abs=0.04)


def test_stark_expects_a_seat_that_always_plays_its_lowest_card_to_do_so_again():
    state = game_after([[10, 1], [9, 2], [8, 3]])
    expected, belief = bots.duel_expectation(kk.view(state, 0), Rng(1))
    assert belief[3] > 0.9
    assert expected[-1] > 0.8  # cards high first: the 4 is last


def test_stark_beats_a_seat_that_always_plays_its_lowest_card():
    # It bets on what it saw, part of the way: the pot goes to Stark far more often than not.
    wins = 0
    for seed in range(40):
        state = kk.new_game({"seats": 2}, Rng(seed))
        rng = Rng(seed + 3)
        while kk.outcome(state) is None:
            strong = bots.choose_strong(kk.view(state, 0), rng)
            lowest = min(kk.legal_actions(state, 1), key=lambda action: int(action.split()[1]))
            kk.apply_action(state, 0, strong)
            kk.apply_action(state, 1, lowest)
        wins += kk.outcome(state)["winners"] == [0]
    assert wins >= 36


def random_hand(rng, size):
    """Return `size` distinct cards, high first."""
    cards = list(range(1, 11))
    return sorted((cards.pop(rng.below(len(cards))) for _ in range(size)), reverse=True)


def test_the_fast_round_matrix_equals_one_value_at_a_time():
    rng = Rng(3)
    for case in range(600):
        size = 1 + rng.below(10)
        mine = random_hand(rng, size)
        kind = case % 3
        if kind == 0:
            theirs = random_hand(rng, size)
        elif kind == 1:
            theirs = list(mine)
        else:  # one card apart: one pair of cards leaves equal hands
            spare = [card for card in range(1, 11) if card not in mine]
            theirs = sorted(mine[1:] + spare[:1], reverse=True) if spare else list(mine)
        rounds_left = 1 + rng.below(size)  # a round without a winner keeps the cards: never more rounds than cards
        expected = []
        for a in mine:
            row = []
            for b in theirs:
                if a == b:
                    row.append(duel.position_value(mine, theirs, rounds_left - 1))
                    continue
                later = duel.position_value([c for c in mine if c != a], [c for c in theirs if c != b],
                                            rounds_left - 1)
                row.append(later + (a + b) if a > b else later - (a + b))
            expected.append(row)
        got = duel.round_matrix(mine, theirs, rounds_left)
        for row_got, row_expected in zip(got, expected):
            assert row_got == pytest.approx(row_expected, abs=1e-9), (mine, theirs, rounds_left)


def test_the_generator_and_the_player_read_the_model_alike():
    # bench.kartenkampf_duel fits weights to its features; the player sums them its own way.
    from bench.kartenkampf_duel import features
    from spieleabend.bots.kartenkampf_duel_weights import WEIGHTS

    rng = Rng(8)
    for _ in range(400):
        size = 1 + rng.below(10)
        mine, theirs = random_hand(rng, size), random_hand(rng, size)
        rounds_left = 1 + rng.below(size)
        mask = lambda hand: sum(1 << (card - 1) for card in hand)  # noqa: E731
        row = features(mask(mine), mask(theirs))
        weights = WEIGHTS[size][rounds_left]
        expected = 0.0 if mine == theirs else sum(x * w for x, w in zip(row, weights))
        assert duel.position_value(mine, theirs, rounds_left) == pytest.approx(expected, abs=1e-9)

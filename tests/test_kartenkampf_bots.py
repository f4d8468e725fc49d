"""Kartenkampf computer players: reading opponents' habits, sensible choices, beating random play."""

from spieleabend.bots import kartenkampf as bots
from spieleabend.games import kartenkampf as kk
from spieleabend.games import run_bots
from spieleabend.games.common import Rng


def game_after(rounds, seats=2):
    state = kk.new_game({"seats": seats}, Rng(1))
    for cards in rounds:
        for seat, card in enumerate(cards):
            kk.apply_action(state, seat, "play %d" % card)
    return state


def test_belief_recognises_a_seat_that_always_plays_its_highest_card():
    state = game_after([[1, 10], [2, 9], [3, 8], [4, 7]])
    highest, lowest, uniform = bots.habit_belief(kk.view(state, 0), 1)
    assert highest > 0.95 and lowest < 0.01
    cards, probs = bots.predicted_distribution(kk.view(state, 0), 1)
    assert cards[-1] == 6 and probs[-1] > 0.9


def test_belief_recognises_a_seat_that_always_plays_its_lowest_card():
    state = game_after([[10, 1], [9, 2], [8, 3], [7, 4]])
    highest, lowest, uniform = bots.habit_belief(kk.view(state, 0), 1)
    assert lowest > 0.95


def test_belief_stays_open_without_history():
    state = game_after([])
    assert bots.habit_belief(kk.view(state, 0), 1) == [1.0 / 3, 1.0 / 3, 1.0 / 3]


def test_strong_keeps_its_top_cards_for_later_rounds_at_a_table():
    # First round at four seats, nothing known: spending the 10 or the 9 now would waste them.
    # (At two seats Stark mixes on purpose, the 10 included: tests/test_kartenkampf_duel.py.)
    state = game_after([], seats=4)
    for seed in range(10):
        assert bots.choose_strong(kk.view(state, 0), Rng(seed)) not in ("play 10", "play 9")


def test_strong_plays_its_only_card():
    state = game_after([[c, 11 - c] for c in range(1, 10)])
    assert kk.view(state, 0)["legal"] == ["play 10"]
    assert bots.choose_strong(kk.view(state, 0), Rng(1)) == "play 10"


def test_strong_blocks_a_seat_that_always_plays_its_highest_card_in_the_last_round():
    # Nine tied rounds of 10 against 10: seat 1 keeps playing its highest card.
    state = game_after([[10, 10]] * 9)
    view = kk.view(state, 0)
    assert view["round"] == 10
    # Anything but the 10 hands seat 1 the round; the 10 blocks it.
    assert bots.choose_strong(view, Rng(1)) == "play 10"


def test_strong_beats_random_play_more_often_than_not():
    # 1,000 games: at two seats Stark mixes (about 61 % against random play in bench.strength_kartenkampf),
    # and 200 games left too little room between its share and the bar.
    points = 0.0
    games = 1000
    for seed in range(games):
        state = kk.new_game({"seats": 2}, Rng(seed))
        players = [bots.choose_strong, bots.choose_random] if seed % 2 else [bots.choose_random, bots.choose_strong]
        run_bots(kk, state, players, Rng(seed + 5))
        strong_seat = 0 if seed % 2 else 1
        winners = kk.outcome(state)["winners"]
        points += 1.0 if winners == [strong_seat] else (0.5 if not winners else 0.0)
    assert points / games >= 0.58


def test_strong_at_a_table_believes_a_seat_that_surely_plays_its_highest_card():
    # Seat 1 played its highest card four rounds running; seats 2 and 3 played anything.
    state = game_after([[1, 10, 3, 6], [2, 9, 7, 4], [3, 8, 2, 9], [4, 7, 10, 1]], seats=4)
    view = kk.view(state, 0)
    models = bots.strong_models(view, Rng(1))
    hand, probabilities = models[0]  # seat 1
    assert probabilities[hand.index(max(hand))] > 0.8
    # A seat without a sure habit is still predicted mostly as a medium copy would play: spread out.
    hand, probabilities = models[1]  # seat 2
    assert max(probabilities) < 0.6

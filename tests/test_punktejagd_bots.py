"""Punktejagd computer players: legal, view-only, random as promised, and lookahead playing sensibly."""

import json

import pytest

from spieleabend.bots import punktejagd as bots
from spieleabend.games import punktejagd as engine
from spieleabend.games import run_bots
from spieleabend.games.common import Rng, copy_data

NORMAL, KOPFSTAND, GOLD = "normal", "kopfstand", "gold"


def situation(seats, round_types, rounds_before=()):
    """Return a game with a known round order after the given rounds (lists of cards per seat)."""
    state = engine.new_game({"seats": seats}, Rng(11))
    state["round_types"] = list(round_types)
    for cards in rounds_before:
        for seat, card in enumerate(cards):
            engine.apply_action(state, seat, "play %d" % card)
    return state


def choices(strength, view, tries, seed=0):
    """Return the actions a bot picks from one view over many generator seeds."""
    choose = bots.STRENGTHS[strength]
    return [choose(copy_data(view), Rng(seed + k)) for k in range(tries)]


def test_strengths_are_ordered_weakest_first_with_random_first():
    assert list(bots.STRENGTHS) == ["random", "vorausschauend"]


@pytest.mark.parametrize("strength", ["random", "vorausschauend"])
def test_bots_return_only_legal_actions_and_do_not_touch_the_view(strength):
    choose = bots.STRENGTHS[strength]
    for seed in range(60):
        seats = 2 + seed % 5
        state = engine.new_game({"seats": seats}, Rng(seed))
        rng = Rng(1000 + seed)
        while engine.outcome(state) is None:
            for seat in engine.to_move(state):
                seen = engine.view(state, seat)
                before = copy_data(seen)
                action = choose(seen, rng)
                assert action in seen["legal"]
                assert seen == before
                engine.apply_action(state, seat, action)


@pytest.mark.parametrize("strength", ["random", "vorausschauend"])
def test_bots_decide_from_the_view_alone(strength):
    # The same view, whatever the hidden plans of the others, gives the same action for the same generator.
    choose = bots.STRENGTHS[strength]
    for seed in range(30):
        state = situation(4, engine.ROUND_MIX, rounds_before=[[1 + seed % 10, 2, 3, 4]])
        engine.apply_action(state, 1, "play 9 risk")
        twin = copy_data(state)
        twin["plans"][1] = {"card": 5, "risk": False}
        engine.apply_action(state, 2, "play 10")
        engine.apply_action(twin, 2, "play 1")
        seen = engine.view(state, 0)
        assert seen == engine.view(twin, 0)
        assert choose(seen, Rng(seed)) == choose(engine.view(twin, 0), Rng(seed))
        # A view is plain data: after a JSON round trip the decision is the same.
        assert choose(json.loads(json.dumps(seen)), Rng(seed)) == choose(seen, Rng(seed))


def test_random_bot_plays_every_card_about_equally_often_and_risks_rarely():
    state = situation(4, engine.ROUND_MIX)
    picked = choices("random", engine.view(state, 0), 4000)
    cards = [int(action.split(" ")[1]) for action in picked]
    for card in range(1, 11):
        assert 300 < cards.count(card) < 500
    risky = sum(action.endswith(" risk") for action in picked)
    assert 0.03 * 4000 < risky < 0.07 * 4000


def test_random_bot_never_risks_after_its_chip_is_spent():
    state = situation(2, engine.ROUND_MIX)
    engine.apply_action(state, 0, "play 5 risk")
    engine.apply_action(state, 1, "play 5")
    assert not any(action.endswith(" risk") for action in choices("random", engine.view(state, 0), 500))


def test_lookahead_risks_a_last_card_that_is_certain_to_be_best():
    # Round 10: every hand is known from the played cards; seat 0 keeps the 10, the others 3 and 3.
    order = [NORMAL] * 7 + [KOPFSTAND, GOLD, NORMAL]
    before = [[c, c2, c3] for c, c2, c3 in zip(range(1, 10), [1, 2, 4, 5, 6, 7, 8, 9, 10], [1, 2, 4, 5, 6, 7, 8, 9, 10])]
    state = situation(3, order, rounds_before=before)
    assert choices("vorausschauend", engine.view(state, 0), 20) == ["play 10 risk"] * 20
    # Seat 1 holds the 3, blocked by seat 2's 3: no risk on a card that cannot be best.
    assert choices("vorausschauend", engine.view(state, 1), 20) == ["play 3"] * 20


def test_lookahead_keeps_the_10_for_an_announced_gold_round():
    state = situation(4, [NORMAL, GOLD] + [NORMAL] * 6 + [KOPFSTAND] * 2)
    picked = choices("vorausschauend", engine.view(state, 0), 200)
    assert sum(action.startswith("play 10") for action in picked) < 20


def test_lookahead_goes_high_in_gold_and_low_in_kopfstand():
    gold = situation(4, [GOLD] + [NORMAL] * 7 + [KOPFSTAND] * 2)
    picked = [int(a.split(" ")[1]) for a in choices("vorausschauend", engine.view(gold, 0), 200)]
    assert sum(card >= 8 for card in picked) > 160
    kopf = situation(4, [KOPFSTAND] + [NORMAL] * 7 + [KOPFSTAND, GOLD])
    picked = [int(a.split(" ")[1]) for a in choices("vorausschauend", engine.view(kopf, 0), 200)]
    assert sum(card <= 3 for card in picked) > 160


def test_lookahead_keeps_small_cards_for_an_announced_kopfstand():
    state = situation(4, [NORMAL, KOPFSTAND] + [NORMAL] * 6 + [GOLD, KOPFSTAND])
    picked = choices("vorausschauend", engine.view(state, 0), 200)
    assert sum(action.startswith("play 1") and not action.startswith("play 10") for action in picked) < 10


@pytest.mark.parametrize("first_round", [GOLD, KOPFSTAND])
def test_lookahead_copies_at_one_table_rarely_all_pick_the_same_card(first_round):
    # Alone, each copy would mostly play the obvious 10 (Gold) or 1/2 (Kopfstand) in round 1.
    order = [first_round] + [NORMAL] * 7 + ([KOPFSTAND, KOPFSTAND] if first_round == GOLD else [KOPFSTAND, GOLD])
    all_same = 0
    for deal in range(200):
        state = situation(4, order)
        picks = {bots.choose_lookahead(engine.view(state, seat), Rng(1000 * deal + seat)).split(" ")[1]
                 for seat in (1, 2, 3)}
        all_same += len(picks) == 1
    assert all_same < 60


def play_against_random(seats, games):
    """Return the lookahead bot's win share against random bots, seats rotated, ties split."""
    points = 0.0
    for game in range(games):
        hero = game % seats
        players = [bots.choose_random] * seats
        players[hero] = bots.choose_lookahead
        state = engine.new_game({"seats": seats}, Rng(50000 + game))
        run_bots(engine, state, players, Rng(70000 + game))
        winners = engine.outcome(state)["winners"]
        if hero in winners:
            points += 1.0 / len(winners)
    return points / games


def test_lookahead_wins_far_more_than_its_share_against_random():
    # Seeded, so the figure is fixed; the benchmark measures it precisely (targets 65 % and 90 %).
    assert play_against_random(4, 200) > 0.5
    assert play_against_random(2, 100) > 0.85

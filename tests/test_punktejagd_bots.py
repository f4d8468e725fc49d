"""Punktejagd computer players: legal, view-only, random as promised, and lookahead playing sensibly."""

import itertools
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
    assert list(bots.STRENGTHS) == ["leicht", "mittel", "stark"]


@pytest.mark.parametrize("strength", ["leicht", "stark"])
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


@pytest.mark.parametrize("strength", ["leicht", "stark"])
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
    picked = choices("leicht", engine.view(state, 0), 4000)
    cards = [int(action.split(" ")[1]) for action in picked]
    for card in range(1, 11):
        assert 300 < cards.count(card) < 500
    risky = sum(action.endswith(" risk") for action in picked)
    assert 0.03 * 4000 < risky < 0.07 * 4000


def test_random_bot_never_risks_after_its_chip_is_spent():
    state = situation(2, engine.ROUND_MIX)
    engine.apply_action(state, 0, "play 5 risk")
    engine.apply_action(state, 1, "play 5")
    assert not any(action.endswith(" risk") for action in choices("leicht", engine.view(state, 0), 500))


def test_lookahead_risks_a_last_card_that_is_certain_to_be_best():
    # Round 10: every hand is known from the played cards; seat 0 keeps the 10, the others 3 and 3.
    order = [NORMAL] * 7 + [KOPFSTAND, GOLD, NORMAL]
    before = [[c, c2, c3] for c, c2, c3 in zip(range(1, 10), [1, 2, 4, 5, 6, 7, 8, 9, 10], [1, 2, 4, 5, 6, 7, 8, 9, 10])]
    state = situation(3, order, rounds_before=before)
    assert choices("stark", engine.view(state, 0), 20) == ["play 10 risk"] * 20
    # Seat 1 holds the 3, blocked by seat 2's 3: no risk on a card that cannot be best.
    assert choices("stark", engine.view(state, 1), 20) == ["play 3"] * 20


def test_lookahead_keeps_the_10_for_an_announced_gold_round():
    state = situation(4, [NORMAL, GOLD] + [NORMAL] * 6 + [KOPFSTAND] * 2)
    picked = choices("stark", engine.view(state, 0), 200)
    assert sum(action.startswith("play 10") for action in picked) < 20


def test_lookahead_goes_high_in_gold_and_low_in_kopfstand(monkeypatch):
    # One view over many seeds: let the private noise cover the whole circle (at a table the
    # public part of the draw moves from round to round).
    monkeypatch.setattr(bots, "QUANTILE_NOISE", 4)
    gold = situation(4, [GOLD] + [NORMAL] * 7 + [KOPFSTAND] * 2)
    picked = [int(a.split(" ")[1]) for a in choices("stark", engine.view(gold, 0), 200)]
    # A mixed choice (so copies at one table do not block each other): mostly high, not always.
    assert sum(card >= 8 for card in picked) > 110
    kopf = situation(4, [KOPFSTAND] + [NORMAL] * 7 + [KOPFSTAND, GOLD])
    picked = [int(a.split(" ")[1]) for a in choices("stark", engine.view(kopf, 0), 200)]
    assert sum(card <= 3 for card in picked) > 110


def test_lookahead_keeps_small_cards_for_an_announced_kopfstand(monkeypatch):
    monkeypatch.setattr(bots, "QUANTILE_NOISE", 4)
    state = situation(4, [NORMAL, KOPFSTAND] + [NORMAL] * 6 + [GOLD, KOPFSTAND])
    picked = choices("stark", engine.view(state, 0), 200)
    assert sum(action.startswith("play 1") and not action.startswith("play 10") for action in picked) < 25


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


def brute_force_chances(opp_hands):
    """Return best/second chances per value (high and low order) by enumerating every joint play."""
    result = [[0.0] * 11 for _ in range(4)]
    combos = list(itertools.product(*opp_hands))
    for combo in combos:
        for value in range(1, 11):
            for order, offset in ((range(10, 0, -1), 0), (range(1, 11), 2)):
                cards = list(combo) + [value]
                unique = [card for card in order if cards.count(card) == 1]
                if unique[:1] == [value]:
                    result[offset][value] += 1.0 / len(combos)
                elif unique[1:2] == [value]:
                    result[offset + 1][value] += 1.0 / len(combos)
    return result


@pytest.mark.parametrize("opponents", [1, 2, 3, 4])
def test_first_round_table_matches_an_enumeration_of_all_first_cards(opponents):
    table = bots.position_chances([list(range(1, 11))] * opponents, Rng(1))
    exact = brute_force_chances([list(range(1, 11))] * opponents)
    for row, expected in zip(table, exact):
        assert row[1:] == pytest.approx(expected[1:], abs=1e-4)


def test_position_chances_are_exact_for_few_combinations_and_close_when_sampled():
    few = [[2, 5, 9], [1, 5, 10], [3, 4, 9]]
    exact = brute_force_chances(few)
    for row, expected in zip(bots.position_chances(few, Rng(1)), exact):
        assert row[1:] == pytest.approx(expected[1:], abs=1e-9)
    many = [[1, 2, 4, 6, 7, 9, 10], [2, 3, 5, 6, 8, 9, 10], [1, 3, 4, 5, 7, 8, 10], [1, 2, 3, 6, 7, 8, 9]]
    exact = brute_force_chances(many)
    runs = [bots.position_chances(many, Rng(seed)) for seed in range(40)]
    for index in range(4):
        for value in range(1, 11):
            mean = sum(run[index][value] for run in runs) / len(runs)
            assert abs(mean - exact[index][value]) < 0.03


def brute_force_plan(cards, counts, tables, chip):
    """Return the best value of giving every card one future round (and the chip once), by trying all."""
    kinds = ["normal"] * counts[0] + ["kopfstand"] * counts[1] + ["gold"] * counts[2]
    best = None
    for order in set(itertools.permutations(kinds)):
        plain = sum(tables[kind][0][card] for card, kind in zip(cards, order))
        gains = [tables[kind][1][card] - tables[kind][0][card] for card, kind in zip(cards, order)]
        value = plain + (max([0.0] + gains) if chip else 0.0)
        best = value if best is None else max(best, value)
    return best


def test_the_plan_for_the_remaining_cards_is_the_best_assignment():
    opp_hands = [[1, 2, 4, 6, 9, 10], [2, 3, 5, 6, 8, 10], [1, 3, 7, 8, 9, 10]]
    tables = bots.value_tables(bots.position_chances(opp_hands, Rng(3)))
    hand = [1, 3, 5, 7, 9, 10]
    small = [4, 8]
    with_chip, without_chip = bots.plan_values(small, [0, 0, 1], tables)
    assert without_chip == [tables["gold"][0][8], tables["gold"][0][4]]
    for counts in ([2, 2, 1], [4, 0, 1], [3, 2, 0], [3, 1, 1], [5, 0, 0]):
        with_chip, without_chip = bots.plan_values(hand, counts, tables)
        for i, card in enumerate(hand):
            rest = [other for other in hand if other != card]
            assert without_chip[i] == pytest.approx(brute_force_plan(rest, counts, tables, False))
            # The chip is valued at its best gain on any remaining card: never below the true plan.
            assert with_chip[i] >= brute_force_plan(rest, counts, tables, True) - 1e-9


def test_tipp_never_says_the_highest_cards_block_in_the_gold_round_without_saying_why_now():
    """An audit: "Spart die hohen Karten für die Goldrunde" in rounds 1 to 5, then in the Gold round itself, with
    the 10 in hand, a bare "Die höchsten Zahlen … blockieren sich" read as a contradiction."""
    reasons = set()
    for seed in range(60):
        state = engine.new_game({"seats": 4}, Rng(seed))
        rng = Rng(seed + 1)
        while engine.outcome(state) is None:
            for seat in range(4):
                view = engine.view(state, seat)
                action, german, _english = bots.hint(view, Rng(seed * 7 + seat))
                if seat == 0 and view["round_type"] == "gold":
                    reasons.add(german)
                    assert not german.startswith("Die höchsten Zahlen"), german
                engine.apply_action(state, seat, bots.choose_present(view, rng))
    assert any(reason.startswith("Goldrunde: alle haben") for reason in reasons), reasons

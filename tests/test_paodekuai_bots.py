"""Pao De Kuai computers: their planning agrees with the engine's rules, they use only the view, they play well."""

from hypothesis import given, settings, strategies as st

from spieleabend.bots import paodekuai as bots
from spieleabend.games import paodekuai as pdk
from spieleabend.games.common import Rng


def cards(text):
    """Return the card list of a space-separated string."""
    return text.split()


def arrange(hands, turn=0, trick=()):
    """Return a running deal past its first play with these hands; every other card counts as played."""
    state = pdk.new_game({"deals": 1}, Rng(1))
    entries = [{"seat": seat, "cards": pdk.sort_cards(cards(text))} for seat, text in trick]
    on_table = [c for entry in entries for c in entry["cards"]]
    held = [c for hand in hands for c in cards(hand)]
    state["hands"] = [pdk.sort_cards(cards(hand)) for hand in hands]
    state["trick"] = entries
    state["played"] = [c for c in pdk.DECK if c not in held and c not in on_table] + on_table
    state["has_played"] = [True, True, True]
    state["turn"] = turn
    return state


def fewest_plays_by_brute_force(hand):
    """Return the fewest legal plays that empty a hand, trying every split into card sets."""
    size = len(hand)
    playable = [False] * (1 << size)
    for mask in range(1, 1 << size):
        playable[mask] = pdk.classify([hand[i] for i in range(size) if mask >> i & 1]) is not None
    best = [0] + [size + 1] * ((1 << size) - 1)
    for mask in range(1, 1 << size):
        low = mask & -mask
        sub = mask
        while sub:
            if sub & low and playable[sub]:
                best[mask] = min(best[mask], best[mask ^ sub] + 1)
            sub = (sub - 1) & mask
    return best[(1 << size) - 1]


HANDS = st.lists(st.sampled_from(pdk.DECK), min_size=1, max_size=9, unique=True)


@settings(max_examples=150, deadline=None)
@given(hand=HANDS)
def test_the_plan_finds_the_fewest_plays(hand):
    counts = bots.counts_of(hand)
    assert bots.plan(counts, bots.key_of(counts), {})[0] == fewest_plays_by_brute_force(hand)
    assert counts == bots.counts_of(hand), "planning leaves the hand as it was"


@settings(max_examples=100, deadline=None)
@given(hand=st.lists(st.sampled_from(pdk.DECK), min_size=1, max_size=16, unique=True))
def test_the_plan_groups_are_legal_plays_that_empty_the_hand(hand):
    counts = bots.counts_of(hand)
    groups = bots.plan_groups(counts, bots.key_of(counts), {})
    assert len(groups) == bots.plan(counts, bots.key_of(counts), {})[0]
    left = list(counts)
    for kind, low, high, per, bomb in groups:
        for value in range(low, high + 1):
            left[value] -= per
        assert kind in (bots.SINGLE, bots.PAIR, bots.TRIPLE, bots.STRAIGHT, bots.RUN, bots.BOMB)
    assert left == [0] * 16


@settings(max_examples=150, deadline=None)
@given(hand=HANDS, seed=st.integers(0, 10 ** 6))
def test_simulated_answers_match_the_engines_legal_answers(hand, seed):
    rng = Rng(seed)
    rest = [c for c in pdk.DECK if c not in hand]
    rng.shuffle(rest)
    top = None
    for size in (1, 2, 3, 4, 5, 6):
        if pdk.classify(rest[:size]) and rng.below(2):
            top = rest[:size]
            break
    if top is None:
        top = rest[:1]
    filler = [c for c in rest if c not in top][:2]
    state = arrange([filler[0], " ".join(hand), filler[1]], turn=1, trick=[(0, " ".join(top))])
    engine_answers = set()
    for action in pdk.legal_actions(state, 1):
        if action != "pass":
            engine_answers.add(tuple(bots.play_of(bots.counts_of(action.split()[1:]))))
    simulated = bots.answers(bots.counts_of(hand), bots.play_of(bots.counts_of(top)))
    assert set(tuple(play) for play in simulated) == engine_answers


def test_answers_show_nothing_and_passes_show_what_an_opponent_cannot_hold():
    state = arrange(["5H 9H 3C", "4S 8S", "6D 7D"], turn=0)
    pdk.apply_action(state, 0, "play 5H")
    pdk.apply_action(state, 1, "play 8S")
    assert bots.pass_caps(pdk.view(state, 2), 2) == [[4] * 16, [4] * 16]
    pdk.apply_action(state, 2, "pass")
    pdk.apply_action(state, 0, "play 9H")
    pdk.apply_action(state, 1, "pass")
    after_caps = bots.pass_caps(pdk.view(state, 2), 2)[1]
    # Seat 1 (after seat 2's next seat) passed over a single 9: nothing above 9, and no bomb.
    assert after_caps[10:16] == [0] * 6
    assert all(after_caps[v] <= 3 for v in range(3, 10))
    # Seat 2's own pass is no news to seat 2, but seat 0 learns that seat 2 has nothing above 8.
    next_caps_of_seat_1 = bots.pass_caps(pdk.view(state, 1), 1)[0]
    assert next_caps_of_seat_1[9:16] == [0] * 7


def test_a_pass_over_a_pair_caps_higher_ranks_at_one_card():
    state = arrange(["9H 9S 3C", "4S 8S KD", "6D 7D"], turn=0)
    pdk.apply_action(state, 0, "play 9H 9S")
    pdk.apply_action(state, 1, "pass")
    next_caps = bots.pass_caps(pdk.view(state, 0), 0)[0]
    assert next_caps[10:15] == [1] * 5
    assert next_caps[15] == 4
    assert all(next_caps[v] <= 3 for v in range(3, 10))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10 ** 6), first=st.integers(0, 16))
def test_guessed_hands_keep_sizes_and_the_unseen_cards(seed, first):
    rng = Rng(seed)
    deck = list(pdk.DECK)
    rng.shuffle(deck)
    unseen = bots.counts_of(deck[:first + 10])
    caps = [[4] * 16, [4] * 16]
    caps[0][15] = 0
    guessed = bots.sample_hands(unseen, [first, 10], caps, rng)
    assert sum(guessed[0]) == first and sum(guessed[1]) == 10
    assert [guessed[0][v] + guessed[1][v] for v in range(16)] == unseen
    if unseen[15]:
        assert guessed[0][15] == 0, "a cap is kept when the other hand has room"


def test_the_random_computer_plays_legal_actions_and_never_stops_the_table():
    rng = Rng(5)
    view = {"legal": ["next", "stop"]}
    assert {bots.random_choose(view, rng) for _ in range(50)} == {"next"}


def test_the_strong_computer_goes_out_when_it_can():
    state = arrange(["7H 7S", "9H 4S 4D", "6D 8D"], turn=0)
    view = pdk.view(state, 0)
    assert "play 7S 7H" in view["legal"]
    assert bots.strong_choose(view, Rng(1)) == "play 7S 7H"


def test_the_strong_computer_plays_its_sure_card_first_to_win():
    # The 2 of spades cannot be beaten (no bomb is possible among the unseen cards), so
    # leading it keeps the lead and the 4 goes out next; leading the 4 would let others in.
    state = arrange(["2S 4H", "5S 6S 7S 8D 9D", "5H 6H 7H 8H 9S"], turn=0)
    assert bots.strong_choose(pdk.view(state, 0), Rng(2)) == "play 2S"


def test_the_strong_computer_takes_the_lead_with_a_sure_answer_when_that_wins():
    # Seat 1 led the 8 and seat 2 passed. The 9 could be beaten by the unseen 10;
    # the 2 of spades cannot, so it takes the lead and the 9 goes out next.
    state = arrange(["2S 9C", "5S 6S 10S", "5H 6H 7H"], turn=2, trick=[(1, "8D")])
    pdk.apply_action(state, 2, "pass")
    view = pdk.view(state, 0)
    assert set(view["legal"]) == {"play 9C", "play 2S"}
    assert bots.strong_choose(view, Rng(3)) == "play 2S"


def test_the_strong_computer_decides_from_the_view_alone():
    # Two deals that look the same to seat 0 (same public history, same hand sizes)
    # but split the opponents' cards differently get the same choice.
    first = arrange(["3C 4C 9H JD", "5S 6S 7S 8D 10D", "5H 6H 7H 8H 10S"], turn=0)
    second = arrange(["3C 4C 9H JD", "5H 6H 7H 8H 10S", "5S 6S 7S 8D 10D"], turn=0)
    assert pdk.view(first, 0) == pdk.view(second, 0)
    assert bots.strong_choose(pdk.view(first, 0), Rng(8)) == bots.strong_choose(pdk.view(second, 0), Rng(8))


def test_the_strong_computer_wins_most_seeded_deals_against_two_random_computers():
    wins = 0
    deals = 60
    for number in range(deals):
        seat = number % 3
        state = pdk.new_game({"deals": 1}, Rng(500 + number))
        rng = Rng(900 + number)
        while pdk.outcome(state) is None:
            mover = pdk.to_move(state)[0]
            choose = bots.strong_choose if mover == seat else bots.random_choose
            pdk.apply_action(state, mover, choose(pdk.view(state, mover), rng))
        wins += not state["hands"][seat]
    assert wins >= 45, "about 85 % expected, 1/3 by chance"


def test_the_benchs_quick_reading_of_greedy_decisions_agrees_with_greedy_choose_itself():
    """bench.strength_paodekuai --reading replays greedy_choose on rank counts: for the true hands and for
    guesses it says "fits" exactly when replaying greedy_choose on the cards does, and it leaves
    the guesses as they were."""
    from bench import strength_paodekuai

    checked = fitting = 0
    for seed in range(40, 46):
        state = pdk.new_game({"deals": 1}, Rng(seed))
        rng = Rng(seed)
        while pdk.outcome(state) is None:
            seat = pdk.to_move(state)[0]
            view = pdk.view(state, seat)
            if seat == 0 and len(view["legal"]) > 1:
                histories = strength_paodekuai.decision_history(view, 0)
                unseen = list(bots.FULL_COUNTS)
                for card in view["hand"] + view["played"]:
                    unseen[bots.RANK_VALUE[card[:-1]]] -= 1
                guesses = [bots.sample_hands(unseen, view["hand_sizes"][1:], bots.pass_caps(view, 0), rng)
                           for _ in range(3)]
                for k in (1, 2):
                    truth = bots.counts_of(state["hands"][k])
                    assert strength_paodekuai.fits_history(truth, histories[k - 1], 99, {})
                    # The deal's first play is not read (it had to hold the 3 of hearts).
                    decisions = [d for d in strength_paodekuai.opponent_decisions(view, k) if not d[1]]
                    for guess in guesses:
                        hand = list(guess[k - 1])
                        quick = strength_paodekuai.fits_history(hand, histories[k - 1], 99, {})
                        assert hand == guess[k - 1]
                        assert quick == strength_paodekuai.fits_decisions(hand, decisions)
                        checked += 1
                        fitting += quick
            pdk.apply_action(state, seat, bots.greedy_choose(view, rng))
    assert checked > 100
    assert 0 < fitting < checked


def test_the_solver_benchs_model_of_greedy_play_and_its_search_hold_in_real_deals():
    """bench.paodekuai_solver: greedy_reply makes greedy_choose's play on rank counts, and a win its search
    finds on the true hands is a real one: played out in the engine against greedy_choose, Stark goes out first."""
    from bench import paodekuai_solver as solver

    replies = found = 0
    for seed in range(60, 90):
        state = pdk.new_game({"deals": 1}, Rng(seed))
        rng = Rng(seed)
        winning = False
        while pdk.outcome(state) is None:
            seat = pdk.to_move(state)[0]
            view = pdk.view(state, seat)
            if seat != 0:
                action = bots.greedy_choose(view, rng)
                if not view["opening"] and len(view["legal"]) > 1 and action != "next":
                    top = None if view["top"] is None else bots.play_of(bots.counts_of(view["top"]["cards"]))
                    counts = bots.counts_of(view["hand"])
                    reply = solver.greedy_reply(counts, bots.key_of(counts), top, {})
                    made = bots.play_of(bots.counts_of(bots.action_cards(action))) if action != "pass" else None
                    assert reply == made
                    replies += 1
            elif len(view["legal"]) > 1 and "next" not in view["legal"] and min(view["hand_sizes"][1:]) <= 8:
                decided, context = solver.prepare(view)
                if decided is None:  # not a sure win already
                    truth = [bots.counts_of(state["hands"][k]) for k in (1, 2)]
                    results = solver.option_results(view, solver.all_options(context), truth, 10 ** 6, 0)
                    # A winning line stays winning: some option continues it.
                    assert any(results) or not winning
                    winning = winning or any(results)
                action = solver.told_choose(8, 10 ** 6)(state, view, rng)
            else:
                action = bots.strong_choose(view, rng)
            pdk.apply_action(state, seat, action)
        if winning:
            found += 1
            assert not state["hands"][0], "the search's winning line lost in the engine (seed %d)" % seed
    assert replies > 200
    assert found >= 10

"""The three computer levels of every game: one set of keys, old keys resolved, legal choices, nothing beyond the view."""

import copy

import pytest

from spieleabend.games import GAME_MODULES, load, load_bots, resolve_strength, strength_choice
from spieleabend.games.common import Rng

LEVELS = ["leicht", "mittel", "stark"]
OLD_KEYS = ["random", "medium", "strong", "vorausschauend"]
# Decisions checked per game and level (seeded whole games, mixed levels at the table).
DECISIONS = {"punktejagd": 3000, "kartenkampf": 3000, "maumau": 3000, "paodekuai": 2000, "golf": 3000}


@pytest.mark.parametrize("game", GAME_MODULES)
def test_every_game_offers_the_same_three_levels_weakest_first_with_a_line_each(game):
    bots = load_bots(game)
    assert list(bots.STRENGTHS) == LEVELS
    for level in LEVELS:
        german, english = bots.LEVEL_INFO[level]
        assert german and english
    assert callable(bots.hint)


@pytest.mark.parametrize("game", GAME_MODULES)
def test_old_saved_keys_resolve_to_a_level(game):
    bots = load_bots(game)
    for key in OLD_KEYS:
        assert bots.STRENGTH_ALIASES[key] in bots.STRENGTHS
        assert resolve_strength(bots, key) == bots.STRENGTH_ALIASES[key]
    assert resolve_strength(bots, "random") == "leicht"
    assert resolve_strength(bots, "strong") == "stark"
    assert resolve_strength(bots, None) == "stark"
    assert resolve_strength(bots, "unheard-of") == "stark"
    assert strength_choice(bots, "mittel") is bots.STRENGTHS["mittel"]


def test_punktejagd_keeps_the_seed_names():
    from spieleabend.games import GAMES
    from spieleabend.ui.i18n import level_name

    names = [entry for entry in GAMES if entry["module"] == "punktejagd"][0]["levels"]
    assert names["leicht"][0] == "Locker & zufällig"
    assert names["stark"][0] == "Vorausschauend"
    assert list(names) == LEVELS
    assert level_name("punktejagd", "mittel") == "Aufmerksam" and level_name("golf", "mittel") == "Mittel"


def table_size(engine, seed):
    """Return a table size for a seeded game: from the smallest to the largest."""
    return engine.MIN_SEATS + seed % (engine.MAX_SEATS - engine.MIN_SEATS + 1)


def new_state(game, seed):
    engine = load(game)
    options = {} if game == "paodekuai" else {"seats": table_size(engine, seed)}
    if game == "paodekuai":
        options = {"deals": 2}
    if game == "maumau":
        options["limit"] = 50
    return engine.new_game(options, Rng(seed))


def scrambled(game, state, seat, rng):
    """Return a copy of a state with what `seat` may not see changed: other seats' secrets, the stock, the rng."""
    other = copy.deepcopy(state)
    other["rng"] = Rng(rng.next32()).state
    if game in ("kartenkampf", "punktejagd"):
        key = "choices" if game == "kartenkampf" else "plans"
        for s in range(other["seats"]):
            if s != seat and other[key][s] is not None:
                card = rng.choice(other["hands"][s])
                other[key][s] = card if game == "kartenkampf" else {"card": card, "risk": rng.below(2) == 0}
    elif game in ("maumau", "paodekuai"):
        seats = [s for s in range(len(other["hands"])) if s != seat]
        pool = []
        for s in seats:
            pool.extend(other["hands"][s])
        stock = other["stock"] if game == "maumau" else []
        pool.extend(stock)
        rng.shuffle(pool)
        for s in seats:
            size = len(other["hands"][s])
            other["hands"][s], pool = pool[:size], pool[size:]
        if game == "maumau":
            other["stock"] = pool
    elif game == "golf" and "stock" in other:
        rng.shuffle(other["stock"])
    return other


@pytest.mark.parametrize("game", GAME_MODULES)
def test_every_level_chooses_only_legal_actions_and_reads_nothing_beyond_its_view(game):
    engine = load(game)
    bots = load_bots(game)
    checked = {level: 0 for level in LEVELS}
    scramble_checked = 0
    seed = 0
    while min(checked.values()) < DECISIONS[game] and seed < 2000:
        seed += 1
        state = new_state(game, seed)
        rng = Rng(seed * 31 + 7)
        levels = {}
        actions = 0
        while engine.outcome(state) is None and actions < 3000:
            seat = engine.to_move(state)[0]
            if seat not in levels:
                levels[seat] = LEVELS[(seat + seed) % 3]
            level = levels[seat]
            view = engine.view(state, seat)
            # The same numbers for the decision on the true and on the scrambled state.
            fixed = rng.next32()
            action = bots.STRENGTHS[level](view, Rng(fixed))
            assert action in view["legal"], (game, level, seed, action)
            if len(view["legal"]) > 1:
                checked[level] += 1
                if checked[level] % 7 == 0:
                    other = scrambled(game, state, seat, Rng(fixed ^ 0x5A5A))
                    again = bots.STRENGTHS[level](engine.view(other, seat), Rng(fixed))
                    assert again == action, (game, level, seed)
                    scramble_checked += 1
            engine.apply_action(state, seat, action)
            actions += 1
    assert min(checked.values()) >= DECISIONS[game]
    assert scramble_checked > 100


@pytest.mark.parametrize("game", GAME_MODULES)
def test_the_hint_is_the_strong_choice_with_a_reason(game):
    engine = load(game)
    bots = load_bots(game)
    state = new_state(game, 3)
    rng = Rng(5)
    hints = 0
    while engine.outcome(state) is None and hints < 60:
        seat = engine.to_move(state)[0]
        view = engine.view(state, seat)
        action, german, english = bots.hint(view, Rng(hints))
        assert action == bots.STRENGTHS["stark"](view, Rng(hints))
        assert action in view["legal"]
        assert german is None or isinstance(german, str)
        assert english is None or isinstance(english, str)
        engine.apply_action(state, seat, bots.STRENGTHS["mittel"](view, rng))
        hints += 1
    assert hints > 10


def test_the_ladder_carries_the_issues_stronger_stark_targets():
    from bench import ladder

    maumau = {line[0]: line for line in ladder.ladder_lines("maumau")}
    assert maumau["stark vs 3 mittel (4 seats)"][3] == 0.40
    paodekuai = {line[0]: line for line in ladder.ladder_lines("paodekuai")}
    assert paodekuai["stark vs 2 mittel (3 seats)"][3] == pytest.approx(1.2 / 3)
    label, entries, baseline, target, kind = paodekuai["stark vs 2 mittel (3 seats, single deals)"]
    assert (entries, target, kind) == (["stark", "mittel", "mittel"], 0.50, "deal")


def test_a_single_deal_line_counts_the_seat_that_went_out_first():
    from bench import ladder

    points, _, _ = ladder.run_line("paodekuai", ["mittel", "leicht", "leicht"], 0, 6, 11, None, True)
    assert sum(points) == 6
    for seed in range(11, 17):
        shares, state = ladder.play_game("paodekuai", [load_bots("paodekuai").STRENGTHS["mittel"]] * 3, seed, True)
        out = [s["seat"] for s in state["log"][-1]["settlements"] if s["kind"] == "out"]
        assert len(state["log"]) == 1 and shares[out[0]] == 1.0


def test_maumau_phases_agree_with_each_games_outcome(capsys):
    from bench import strength_maumau

    bots = load_bots("maumau")
    seen = {"won": 0, "lost": 0}
    for seed in range(24):
        first_out, reached, difference, won = strength_maumau.final_two(4, bots.choose_strong, bots.choose_medium, seed)
        assert not (first_out and won), seed
        assert reached or not won, seed  # a winner outlived the others
        assert difference is None or reached, seed
        seen["won" if won else "lost"] += 1
    assert min(seen.values()) > 0
    strength_maumau.phases(8, 0)
    assert "wins the game" in capsys.readouterr().out


def test_the_paodekuai_oracle_tells_nothing_before_its_phase_and_puts_the_guessing_back():
    from bench import strength_paodekuai

    bots = load_bots("paodekuai")
    guessing = bots.sample_hands
    for seed in range(30, 36):
        stark_seat = seed % 3
        players = [bots.greedy_choose] * 3
        players[stark_seat] = bots.strong_choose
        winner, _ = strength_paodekuai.play_deal(players, seed)
        assert strength_paodekuai.play_deal_told(seed, stark_seat, -1) == (1.0 if winner == stark_seat else 0.0)
        assert strength_paodekuai.play_deal_told(seed, stark_seat, 16) in (0.0, 1.0)
        assert bots.sample_hands is guessing


def test_the_paodekuai_posterior_reading_accepts_the_true_hands_and_rejects_most_guesses():
    """bench.strength_paodekuai --posterior replays the greedy player's own rule: the opponents' true
    hands fit every decision they made, while most random guesses do not once they have made some."""
    from bench import strength_paodekuai
    from spieleabend.games import paodekuai as engine
    from spieleabend.games.common import Rng

    bots = load_bots("paodekuai")
    checked = fitting = guessed = 0
    for seed in range(40, 46):
        state = engine.new_game({"deals": 1}, Rng(seed))
        rng = Rng(seed)
        while engine.outcome(state) is None:
            seat = engine.to_move(state)[0]
            view = engine.view(state, seat)
            if seat == 0 and len(view["legal"]) > 1 and len(view["played"]) > 20:
                for k in (1, 2):
                    decisions = strength_paodekuai.opponent_decisions(view, k)
                    truth = bots.counts_of(state["hands"][k])
                    assert strength_paodekuai.fits_decisions(truth, decisions)
                    checked += 1
                unseen = list(bots.FULL_COUNTS)
                for card in view["hand"] + view["played"]:
                    unseen[bots.RANK_VALUE[card[:-1]]] -= 1
                for _ in range(5):
                    guess = bots.sample_hands(unseen, view["hand_sizes"][1:], bots.pass_caps(view, 0), rng)
                    fitting += strength_paodekuai.fits_decisions(
                        guess[0], strength_paodekuai.opponent_decisions(view, 1))
                    guessed += 1
            engine.apply_action(state, seat, bots.greedy_choose(view, rng))
    assert checked > 20
    assert fitting < guessed / 2


def test_the_maumau_playouts_guess_only_what_the_seat_cannot_see_and_leave_the_game_alone():
    """bench.strength_maumau --rollouts deals the hidden cards anew: the seat's own hand, the discard pile
    and every hand size stay, the other hands and the stock are a reshuffle of the same cards, and a
    playout changes the guess, never the game it was taken from."""
    from collections import Counter

    from bench import strength_maumau
    from spieleabend.games import maumau

    bots = load_bots("maumau")
    players = [bots.choose_strong, bots.choose_medium, bots.choose_medium, bots.choose_medium]
    state = maumau.new_game({"seats": 4}, Rng(7))
    rng = Rng(8)
    differing = searched = 0
    while maumau.outcome(state) is None and searched < 12:
        if state["phase"] == "between":
            maumau.start_next_deal(state)
            continue
        seat = state["turn"]
        if seat == 0 and len(state["stock"]) > 5:
            before = copy.deepcopy(state)
            guess = strength_maumau.unseen_dealt_anew(state, 0, rng)
            hidden = lambda s: Counter(s["stock"] + [card for hand in s["hands"][1:] for card in hand])
            assert guess["hands"][0] == state["hands"][0] and guess["discard"] == state["discard"]
            assert [len(hand) for hand in guess["hands"]] == [len(hand) for hand in state["hands"]]
            assert hidden(guess) == hidden(state)
            differing += guess["hands"][1:] != state["hands"][1:]
            action = strength_maumau.choose_by_playouts(state, 0, players, 3, 7, rng, [])
            assert action in maumau.legal_actions(state, 0) and state == before
            searched += 1
        else:
            action = players[seat](maumau.view(state, seat), rng)
        maumau.apply_action(state, seat, action)
    assert searched == 12 and differing == 12

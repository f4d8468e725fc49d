"""Tipp in every game (ui/hint.py): the strong computer's choice for the person's own view, marked in
the hand and said in one line; alone, behind the pass-and-play cover and on a phone in a room."""

import re

import pytest

from spieleabend.games import GAME_MODULES, load, load_bots
from spieleabend.games.common import Rng
from spieleabend.ui import i18n
from spieleabend.ui.handover import HandoverScreen
from spieleabend.ui.hint import describe, view_seed
from spieleabend.ui.table import LocalTable, screen_module, seat_player, solo_players
from tests.fake_app import ScreenApp, ViewTable


@pytest.fixture(autouse=True)
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("de")


def tipp_live(html):
    """Return True when the page shows a Tipp button that can be tapped."""
    found = re.search(r'<button[^>]*data-testid="tipp"[^>]*>', html)
    return found is not None and " disabled" not in found.group(0)


def shown_hint(html):
    """Return the hinted action the Tipp line names, or None when no hint is shown."""
    found = re.search(r'<p[^>]*data-testid="tipp-line"[^>]*>', html)
    if found is None:
        return None
    action = re.search(r'data-action="([^"]*)"', found.group(0))
    return action.group(1) if action else None


def marked(html):
    """Return the opening tags of everything marked as the hint."""
    return re.findall(r'<[a-z]+ [^>]*data-hinted="[^"]+"[^>]*>', html)


def to_my_choice(app, screen, table, steps=300):
    """Play on (the person's moves: the first legal one) until the person's screen offers a live Tipp."""
    for _ in range(steps):
        app.run_timers()
        html = screen.render(app)
        if tipp_live(html):
            return html
        view = table.view()
        if view["legal"]:
            table.act(view["legal"][0])  # Golf's "ready" after the peek, a deal's "next" …
    raise AssertionError("the person never had a choice")


def solo_table(app, game, phone_seat=None):
    """Return a new table of the person at seat 0 and strong computers (`phone_seat`: a person elsewhere)."""
    seats = 3 if game == "paodekuai" else 4
    options = {"deals": 1} if game == "paodekuai" else {"seats": seats}
    players = solo_players("Ich", seats, "stark")
    if phone_seat is not None:
        players[phone_seat] = seat_player(players[phone_seat]["name"], "person")
    return LocalTable.new(app, game, options, players)


def check_marks(html, action, view):
    """The hinted action's cards are marked in the hand; an action without cards marks its pile or button."""
    tags = marked(html)
    assert tags, "something is marked"
    words = action.split(" ")
    if words[0] == "play":
        for word in words[1:]:
            card = word.partition(":")[0]
            if word in ("risk", "mau"):
                assert any('data-action="%s"' % word in tag for tag in tags), word
                continue
            assert any('data-card="%s"' % card in tag for tag in tags), (card, tags)
            assert card in [str(c) for c in view["hand"]]
    else:
        verb_marks = {"draw": ('data-testid="draw-pile"', 'data-testid="stock"'), "pass": ('data-testid="pass"',),
                      "knock": ('data-testid="knock"',), "take": ('data-testid="discard-top"',),
                      "discard": ('data-testid="discard-drawn"',), "swap": ('data-testid="pos-%s"' % words[-1],)}
        assert any(any(hook in tag for hook in verb_marks[words[0]]) for tag in tags), (action, tags)


@pytest.mark.parametrize("game", GAME_MODULES)
def test_tipp_shows_the_strong_choice_for_the_own_view_in_every_game(game):
    app = ScreenApp(seed=5)
    table = solo_table(app, game)
    screen = screen_module(game).TableScreen(app, table)
    html = to_my_choice(app, screen, table)
    assert 'data-testid="tipp-line"' in html, "the line's place is there for screen readers"
    assert shown_hint(html) is None and not marked(html), "nothing is hinted before the tap"
    view = table.view()
    expected = load_bots(game).hint(view, Rng(view_seed(view)))
    screen.handle(app, "hint", None)
    html = screen.render(app)
    action = shown_hint(html)
    assert action == expected[0] and action in view["legal"]
    assert "Tipp:" in html and expected[1] in html, "what to do and the computer's reason"
    check_marks(html, action, view)
    screen.handle(app, "hint", None)
    assert shown_hint(screen.render(app)) == action, "the same position gives the same Tipp"
    assert app.toasts[-1] == "Der Tipp bleibt derselbe.", "a second tap says why nothing moves"


@pytest.mark.parametrize("game", GAME_MODULES)
def test_the_tipp_goes_once_the_position_changes(game):
    app = ScreenApp(seed=8)
    table = solo_table(app, game)
    screen = screen_module(game).TableScreen(app, table)
    to_my_choice(app, screen, table)
    screen.handle(app, "hint", None)
    action = shown_hint(screen.render(app))
    table.act(action)
    app.run_timers()
    html = screen.render(app)
    assert shown_hint(html) is None and not marked(html)


@pytest.mark.parametrize("game", ["punktejagd", "kartenkampf", "paodekuai"])
def test_where_a_choice_is_confirmed_the_tipp_chooses_it_and_confirm_plays_it(game):
    app = ScreenApp(seed=2)
    table = solo_table(app, game)
    screen = screen_module(game).TableScreen(app, table)
    to_my_choice(app, screen, table)
    sent = []
    act = table.act
    table.act = lambda action, seat=None: (sent.append(action), act(action, seat))
    screen.handle(app, "hint", None)
    action = shown_hint(screen.render(app))
    if action == "pass":
        screen.handle(app, "pass", None)
    else:
        screen.handle(app, "play" if game == "paodekuai" else "confirm", None)
    assert sent == [action]


def test_the_english_screen_says_hint_and_why_in_english():
    i18n.set_language("en")
    app = ScreenApp(seed=5)
    table = solo_table(app, "maumau")
    screen = screen_module("maumau").TableScreen(app, table)
    html = to_my_choice(app, screen, table)
    assert '>Hint</button>' in html
    view = table.view()
    _action, _de, english = load_bots("maumau").hint(view, Rng(view_seed(view)))
    screen.handle(app, "hint", None)
    html = screen.render(app)
    assert "<strong>Hint:</strong>" in html and english in html and "Tipp" not in html


@pytest.mark.parametrize("game", GAME_MODULES)
def test_behind_the_pass_and_play_cover_only_the_person_to_move_gets_a_tipp(game):
    from tests.test_handover import start_together

    app = ScreenApp(seed=4)
    screen = start_together(app, game, ["Anna", "Ben"], 3)
    table = screen.table
    hinted_for = []
    for _ in range(400):
        app.run_timers()
        if table.over() or len(set(hinted_for)) >= 2:
            break
        html = screen.render(app)
        if screen.looking is None:
            assert 'data-testid="tipp"' not in html and not marked(html), "the cover shows no Tipp"
            seat = [s for s in table.to_move() if table.players()[s]["kind"] == "person"]
            if seat:
                screen.handle(app, "handover-confirm", str(seat[0]))
            continue
        if not tipp_live(html):
            view = table.view()
            table.act(view["legal"][0])
            continue
        assert shown_hint(html) is None, "a fresh person sees no Tipp of the person before"
        view = table.view()
        screen.handle(app, "hint", None)
        action = shown_hint(screen.render(app))
        assert action == load_bots(game).hint(view, Rng(view_seed(view)))[0]
        assert action in load(game).legal_actions(table.state, screen.looking), "from the person's own seat"
        hinted_for.append(screen.looking)
        table.act(action)
    assert sorted(set(hinted_for)) == [0, 1], "both people had their own Tipp"


@pytest.mark.parametrize("game", GAME_MODULES)
def test_a_phone_in_a_room_hints_from_its_own_view_and_sends_nothing(game):
    app = ScreenApp(seed=6)
    host = solo_table(app, game, phone_seat=1)
    players = host.players()
    phone = ViewTable(game, host.state, 1)
    screen = screen_module(game).TableScreen(app, phone)
    for _ in range(300):
        app.run_timers()
        html = screen.render(app)
        if tipp_live(html):
            break
        for seat in range(len(players)):
            view = host.view_of(seat)
            if view["legal"]:
                host.act(view["legal"][0], seat=seat)
                break
    assert tipp_live(html)
    view = phone.view()
    screen.handle(app, "hint", None)
    action = shown_hint(screen.render(app))
    assert action == load_bots(game).hint(view, Rng(view_seed(view)))[0] and action in view["legal"]
    assert phone.sent == [], "a Tipp is shown, never played"


def test_a_tipp_button_waits_while_another_seat_moves():
    app = ScreenApp(seed=1)
    state = load("maumau").new_game({"names": ["A", "B", "C"]}, Rng(3))
    seat = (state["turn"] + 1) % 3
    screen = screen_module("maumau").TableScreen(app, ViewTable("maumau", state, seat))
    html = screen.render(app)
    assert 'data-testid="tipp"' in html and not tipp_live(html)
    screen.handle(app, "hint", None)
    assert shown_hint(screen.render(app)) is None


@pytest.mark.parametrize("action, words_de, words_en", [
    ("play 7 risk", "die 7 mit Risiko-Chip spielen", "play the 7 with the risk chip"),
    ("play JH:S mau", "Herz Bube spielen, Pik wünschen und „Mau“ sagen",
     "play the Jack of hearts, call spades and say “Mau”"),
    ("play 3H 3S", "Herz 3 und Pik 3 spielen", "play the 3 of hearts and 3 of spades"),
    ("take 2", "die offene Karte nehmen und an Position 3 legen", "take the open card and put it in position 3"),
    ("swap 0", "die gezogene Karte gegen Position 1 tauschen", "swap the drawn card for position 1"),
    ("draw", "vom Stapel ziehen", "draw from the stock"),
    ("pass", "passen", "pass"),
])
def test_the_line_says_what_to_do_in_both_languages(action, words_de, words_en):
    assert describe(action) == words_de
    i18n.set_language("en")
    assert describe(action) == words_en


def hinted_play(game, wanted, seeds=range(40)):
    """Return (app, screen, table, action) at the person's first choice whose Tipp passes `wanted(action)`."""
    for seed in seeds:
        app = ScreenApp(seed=seed)
        table = solo_table(app, game)
        screen = screen_module(game).TableScreen(app, table)
        for _ in range(60):
            try:
                to_my_choice(app, screen, table, steps=50)
            except AssertionError:
                break
            screen.handle(app, "hint", None)
            action = shown_hint(screen.render(app))
            if wanted(action):
                return app, screen, table, action
            table.act(action)
            if table.over():
                break
    raise AssertionError("no such Tipp in the seeds tried")


def test_a_jack_tipp_marks_the_jack_and_then_the_suit_to_wish_for():
    app, screen, table, action = hinted_play("maumau", lambda action: ":" in action)
    card, suit = action.split(" ")[1].split(":")
    html = screen.render(app)
    assert any('data-card="%s"' % card in tag for tag in marked(html))
    screen.handle(app, "card", card)  # the Jack opens the suit picker
    html = screen.render(app)
    assert 'data-testid="suit-picker"' in html
    assert [tag for tag in marked(html) if 'data-testid="suit-' in tag] == [
        tag for tag in marked(html) if 'data-testid="suit-%s"' % suit in tag] != []


def test_a_golf_tipp_to_take_the_open_card_marks_the_pile_and_the_position():
    app, screen, table, action = hinted_play("golf", lambda action: action.startswith("take "))
    position = action.split(" ")[1]
    tags = marked(screen.render(app))
    assert any('data-testid="discard-top"' in tag for tag in tags)
    assert any('data-testid="pos-%s"' % position in tag for tag in tags)
    screen.handle(app, "take-mode", None)
    tags = marked(screen.render(app))
    assert any('data-testid="pos-%s"' % position in tag and 'data-action="pos"' in tag for tag in tags)


@pytest.mark.parametrize("game", ["punktejagd", "kartenkampf"])
def test_in_a_room_another_phone_choosing_keeps_the_tipp(game):
    app = ScreenApp(seed=3)
    host = solo_table(app, game, phone_seat=1)
    phone = ViewTable(game, host.state, 1)
    screen = screen_module(game).TableScreen(app, phone)
    screen.handle(app, "hint", None)
    action = shown_hint(screen.render(app))
    assert action is not None
    host.act(load(game).legal_actions(host.state, 0)[0], seat=0)  # the host's person chooses, in secret
    phone.changed()
    assert shown_hint(screen.render(app)) == action, "still the same choice for this phone"


def test_pao_de_kuai_calls_a_hint_a_bomb_only_when_it_is_one():
    """A run of two pairs is four cards too; "bomb" there told a person the wrong thing."""
    from spieleabend.bots import paodekuai as bots
    from spieleabend.games import paodekuai

    said = {}
    for seed in range(60):
        state = paodekuai.new_game({"deals": 1}, Rng(seed))
        rng = Rng(seed + 1)
        while paodekuai.outcome(state) is None and paodekuai.to_move(state):
            seat = paodekuai.to_move(state)[0]
            view = paodekuai.view(state, seat)
            action, _german, english = bots.hint(view, rng)
            cards = bots.action_cards(action) if action.startswith("play") else []
            if cards and len(cards) < len(view["hand"]):
                shape = paodekuai.classify(cards, view["opening"])["shape"]
                said.setdefault(shape, set()).add(english)
            paodekuai.apply_action(state, seat, bots.greedy_choose(view, rng))
    bomb_line = "A bomb: it beats every ordinary play."
    assert said["bomb"] == {bomb_line}
    assert said["run"] and all(bomb_line not in lines for shape, lines in said.items() if shape != "bomb")


def hint_views(game, seats, count):
    """Yield seat 0's views with a choice over seeded random games of `game` at `seats`."""
    engine, bots = load(game), load_bots(game)
    for seed in range(count):
        rng = Rng(seed)
        state = engine.new_game({"seats": seats}, rng)
        while engine.outcome(state) is None:
            for seat in engine.to_move(state):
                view = engine.view(state, seat)
                if seat == 0 and view["legal"]:
                    yield view
                engine.apply_action(state, seat, bots.STRENGTHS["leicht"](view, rng))


@pytest.mark.parametrize("game, seats", [("punktejagd", 4), ("kartenkampf", 4), ("kartenkampf", 2)])
def test_the_number_games_reasons_fit_the_card_they_name(game, seats):
    """What the Tipp says of a card is true of it in the hand: "höchste" only of a high one, "kleinsten" or
    "niedrigeren" only of a low one, the last card said as such (a 10 was once "eine niedrige Zahl", a 6 of
    1 to 10 "eine niedrige Karte"), and the two-seat line stays one short line."""
    bots = load_bots(game)
    seen = set()
    for view in hint_views(game, seats, 40):
        action, de, en = bots.hint(view, Rng(view_seed(view)))
        hand = view["hand"]
        place = hand.index(int(action.split()[1])) * 3 // len(hand)
        seen.add(de.split(":")[0])
        if len(hand) == 1:
            assert de == "Deine letzte Karte." and en == "Your last card."
        if "deiner höchsten" in de or "Deine höchste" in de:
            assert place == 2 or int(action.split()[1]) == max(hand), (de, action, hand)
        if "deiner kleinsten" in de:
            assert place == 0, (de, action, hand)
        if "niedrigeren" in de:
            assert int(action.split()[1]) <= sorted(hand)[len(hand) // 2], (de, action, hand)
        assert len(de) <= 110 and len(en) <= 110, de
    assert len(seen) >= (2 if seats == 2 else 3), seen  # two seats: the mixed choice's line, or the last card

"""Pao De Kuai screens in CPython: shape words, the legal-play check, pass reasons, settlement lines,
a whole table driven by the hint, and the infoscreen's secrecy."""

import re

import pytest

from spieleabend.games import paodekuai as engine
from spieleabend.games.common import IllegalAction, MalformedAction, Rng
from spieleabend.ui import i18n
from spieleabend.ui import paodekuai as ui
from spieleabend.ui.table import COMPUTER, PERSON, LocalTable, seat_player, solo_players
from tests.fake_app import ScreenApp, ViewTable


@pytest.fixture(autouse=True)
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("de")


def build_state(hands, trick=(), turn=0, has_played=(True, True, True), deals=2, names=("Ich", "Lena", "Jonas")):
    """Return an engine state in the middle of deal 1: these hands, this trick (seat, cards; [] = pass).

    Every other card of the deck counts as played earlier, so the 48 cards stay whole
    (the strong computer guesses hands from the unseen cards).
    """
    state = engine.new_game({"deals": deals, "names": list(names)}, Rng(1))
    in_hands = set(card for hand in hands for card in hand)
    in_trick = [card for _seat, cards in trick for card in cards]
    earlier = [card for card in engine.DECK if card not in in_hands and card not in in_trick]
    state["hands"] = [engine.sort_cards(hand) for hand in hands]
    state["has_played"] = list(has_played)
    state["trick"] = [{"seat": seat, "cards": engine.sort_cards(cards)} for seat, cards in trick]
    state["played"] = earlier + [card for entry in state["trick"] for card in entry["cards"]]
    state["tricks"] = [[{"seat": 1, "cards": [card]}] for card in earlier[:1]]
    state["turn"] = turn
    return state


def meta_for(state, strength="strong", seat=0):
    """Return the meta LocalTable.new would write for this table (for prepared saves)."""
    names = state["names"]
    return {"players": [seat_player(names[0], PERSON), seat_player(names[1], COMPUTER, strength),
                        seat_player(names[2], COMPUTER, strength)],
            "seat": seat, "options": {"deals": state["options"]["deals"], "names": list(names)},
            "bot_rng": [11, 22, 33, 44], "started_at": 1700000000000, "night": "n1", "history": [], "round": 1}


def table_for(app, state):
    return LocalTable(app, "paodekuai", state, meta_for(state))


# ---------------------------------------------------------------- words

def classify(cards, opening=False):
    return engine.classify(cards.split(), opening)


def test_shapes_in_german_and_english():
    assert ui.describe(classify("7H 8S 9D 10C JH")) == "Straße 7–B"
    assert ui.describe(classify("QH QS")) == "Paar Damen"
    assert ui.describe(classify("KH KS KD")) == "Drilling Könige"
    assert ui.describe(classify("5H")) == "Einzelkarte Fünf"
    assert ui.describe(classify("5H 5S 6H 6S 7D 7C")) == "Paarreihe 5–7"
    assert ui.describe(classify("8H 8S 8D 8C")) == "Bombe: vier Achten"
    assert ui.describe(classify("AS AD AC")) == "Bombe: drei Asse"
    assert ui.describe(classify("3H 3S 3D 3C", opening=True)) == "Himmlische Bombe: vier Dreien"
    assert ui.describe(None) == "keine gültige Kombination"
    i18n.set_language("en")
    assert ui.describe(classify("7H 8S 9D 10C JH")) == "Straight 7–J"
    assert ui.describe(classify("QH QS")) == "Pair of Queens"
    assert ui.describe(None) == "not a valid combination"


def test_every_text_key_has_german_and_english():
    for key, pair in i18n.TEXTS.items():
        if key.startswith("pdk."):
            assert len(pair) == 2 and pair[0] and pair[1], key


# ---------------------------------------------------------------- the legal-play check

def test_selection_is_legal_only_when_it_is_one_of_the_legal_combinations():
    state = build_state([["5H", "9C", "9S", "KD"], ["4H"] * 0 + ["6H", "6S"], ["QH"]],
                        trick=[(2, ["7D", "7C"])], turn=0)
    view = engine.view(state, 0)
    pair = ui.selection_info(view, ["9S", "9C"])
    assert pair["legal"] and pair["beats"] is True
    assert pair["text"] == "Paar Neunen – schlägt Paar Siebenen"
    single = ui.selection_info(view, ["KD"])
    assert not single["legal"] and single["beats"] is False
    assert "schlägt Paar Siebenen nicht" in single["text"]
    junk = ui.selection_info(view, ["5H", "KD"])
    assert not junk["legal"] and junk["text"] == "keine gültige Kombination"
    assert ui.selection_info(view, [])["text"] == "Wähle Karten für deinen Zug."


def test_any_suits_of_a_legal_combination_may_be_played():
    state = build_state([["9H", "9S", "9D", "KD"], ["6H", "6S"], ["QH"]], trick=[(2, ["7D", "7C"])], turn=0)
    view = engine.view(state, 0)
    assert view["legal"] == ["play 9S 9H"], "one canonical choice per combination"
    assert ui.selection_info(view, ["9S", "9D"])["legal"]


def test_every_table_sends_the_persons_own_cards_and_the_engine_judges_them():
    state = build_state([["9H", "9S", "9D", "KD"], ["6H", "6S"], ["QH"]], trick=[(2, ["7D", "7C"])], turn=0)
    view = engine.view(state, 0)
    assert ui.play_action(["9D", "9S"]) == "play 9S 9D"
    # A phone checks with the engine's rules, from its view alone, and the host applies the same action.
    assert engine.check_action(view, "play 9D 9S") == "play 9S 9D"
    with pytest.raises(IllegalAction):
        engine.check_action(view, "play 9D KD")
    with pytest.raises(MalformedAction):
        engine.check_action(view, "play 9d 9s")
    engine.apply_action(state, 0, "play 9S 9D")
    assert state["hands"][0] == ["9H", "KD"]


def test_first_play_must_hold_the_three_of_hearts():
    state = engine.new_game({"deals": 1}, Rng(5))
    seat = state["turn"]
    view = engine.view(state, seat)
    assert view["opening"]
    threes = [c for c in view["hand"] if c.startswith("3")]
    assert "3H" in threes
    assert ui.selection_info(view, ["3H"])["legal"]
    others = [c for c in view["hand"] if c != "3H"]
    lowest_other = others[0]
    info = ui.selection_info(view, [lowest_other])
    assert not info["legal"] and "die Herz-Drei muss dabei sein" in info["text"]


def test_not_legal_when_it_is_not_my_turn():
    state = build_state([["9H", "9S"], ["6H", "6S"], ["QH"]], trick=[(2, ["7D", "7C"])], turn=1)
    view = engine.view(state, 0)
    assert not ui.selection_info(view, ["9H", "9S"])["legal"]
    assert ui.pass_state(view) == (False, "Du bist nicht am Zug.")


# ---------------------------------------------------------------- passing

def test_pass_is_refused_while_an_answer_exists_bombs_included():
    view = engine.view(build_state([["5S", "9C"], ["6H"], ["QH"]], trick=[(2, ["5H"])]), 0)
    assert ui.pass_state(view) == (False, "Du musst schlagen, wenn du kannst.")
    bomb_only = engine.view(build_state([["7H", "7S", "7D", "7C", "4H"], ["6H"], ["QH"]], trick=[(2, ["2S"])]), 0)
    allowed, reason = ui.pass_state(bomb_only)
    assert not allowed and reason == "Du musst schlagen, wenn du kannst – auch eine Bombe zählt."
    leading = engine.view(build_state([["5S", "9C"], ["6H"], ["QH"]]), 0)
    assert ui.pass_state(leading) == (False, "Wer ausspielt, darf nicht passen.")


def test_pass_is_allowed_without_an_answer_and_the_screen_sends_it():
    app = ScreenApp()
    state = build_state([["5S", "9C", "KH"], ["6H", "6D"], ["QH", "QS"]], trick=[(2, ["2S"])])
    table = table_for(app, state)
    screen = ui.TableScreen(app, table)
    assert ui.pass_state(table.view())[0]
    html = screen.render(app)
    assert 'data-testid="pass" aria-disabled="false"' in html
    screen.handle(app, "pass", None)
    assert table.view()["trick"][-1] == {"seat": 0, "pass": True, "cards": [], "play": None}


def test_refused_pass_changes_nothing_and_says_why():
    app = ScreenApp()
    state = build_state([["5S", "9C"], ["6H", "6D"], ["QH", "QS"]], trick=[(2, ["5H"])])
    table = table_for(app, state)
    screen = ui.TableScreen(app, table)
    before = engine.view(table.state, 0)
    screen.handle(app, "pass", None)
    assert engine.view(table.state, 0) == before
    html = screen.render(app)
    assert 'aria-disabled="true"' in html and "Du musst schlagen, wenn du kannst." in html
    assert html.count("Du musst schlagen, wenn du kannst.") == 1, "said once, not again under the message"


# ---------------------------------------------------------------- settlement

def test_a_finishing_bomb_answer_shows_its_bonus_and_the_settlement_sums_to_zero():
    app = ScreenApp()
    state = build_state([["8H", "8S", "8D", "8C"], ["4H", "4S", "5D", "6C", "7H"], ["2S", "KH"]],
                        trick=[(2, ["9S", "9D"])], has_played=(True, True, True))
    table = table_for(app, state)
    screen = ui.TableScreen(app, table)
    screen.handle(app, "toggle", "8H")
    screen.handle(app, "toggle", "8S")
    screen.handle(app, "toggle", "8D")
    assert not ui.selection_info(table.view(), screen.selected)["legal"], "three eights are no answer to a pair"
    screen.handle(app, "toggle", "8C")
    assert ui.selection_info(table.view(), screen.selected)["text"] == "Bombe: vier Achten – schlägt Paar Neunen"
    screen.handle(app, "play", None)
    view = table.view()
    assert view["deal_over"]
    lines = ui.settlement_lines(view)
    assert ("Bombenbonus: vier Achten", 20) in lines[0]
    assert ("Bombenbonus an Ich", -10) in lines[1]
    assert ("Pik-Zwei in der Hand", -10) in lines[2]
    assert ("5 Karten übrig × 1", -5) in lines[1]
    totals = ui.deal_totals(view)
    assert totals == [20 + 5 + 12, -10 - 5, -10 - 12]
    assert sum(totals) == 0
    for seat in range(3):
        assert sum(points for _label, points in lines[seat]) == totals[seat]
    html = screen.render(app)
    assert 'data-testid="deal-settlement"' in html and 'data-testid="settle-0"' in html
    assert 'data-testid="next-deal"' in html and 'data-testid="stop-table"' in html


def test_never_played_doubles_only_the_cards():
    state = build_state([["9H"], ["4H", "4S", "5D"], ["2S", "KH"]], trick=[(2, ["5H"])],
                        has_played=(True, False, True))
    engine.apply_action(state, 0, "play 9H")
    view = engine.view(state, None)
    lines = ui.settlement_lines(view)
    assert lines[1] == [("3 Karten übrig × 2 (nie gespielt)", -6)]
    assert lines[2] == [("2 Karten übrig × 1", -2), ("Pik-Zwei in der Hand", -10)]


# ---------------------------------------------------------------- whole table

def play_by_hints(app, screen, table):
    """Play the person's seat with the hint button until the table ends; return the number of turns."""
    turns = 0
    while True:
        app.run_timers()
        view = table.view()
        if ui.table_over(view):
            return turns
        if view["deal_over"]:
            screen.render(app)
            screen.handle(app, "next", None)
            continue
        assert ui.my_turn(view)
        screen.handle(app, "hint", None)
        if screen.selected:
            assert ui.selection_info(view, screen.selected)["legal"], (screen.selected, view["legal"])
            screen.handle(app, "play", None)
        else:
            assert ui.pass_state(view)[0]
            screen.handle(app, "pass", None)
        turns += 1


def test_a_whole_table_of_two_deals_by_hints_ends_in_standings_and_results():
    app = ScreenApp(seed=4)
    table = LocalTable.new(app, "paodekuai", {"deals": 2}, solo_players("Ich", 3, "strong"))
    screen = ui.TableScreen(app, table)
    assert app.storage.load_game("paodekuai") is not None, "saved from the first deal on"
    assert play_by_hints(app, screen, table) > 5
    view = table.view()
    assert view["deal"] == 2
    html = screen.render(app)
    assert 'data-testid="next-deal"' in html, "the last settlement is shown before the standings"
    screen.handle(app, "final", None)
    html = screen.render(app)
    assert 'data-testid="final-headline"' in html
    totals = engine.table_totals(table.state)
    for seat in range(3):
        assert 'data-testid="standing-%d" data-points="%d"' % (seat, totals[seat]) in html
    screen.handle(app, "open-table", None)
    html = screen.render(app)
    rows = re.findall(r'<tr data-deal="(\d)">(.*?)</tr>', html)
    assert [deal for deal, _ in rows] == ["1", "2"]
    sums = [0, 0, 0]
    for _deal, cells in rows:
        for seat, text in re.findall(r'<td data-seat="(\d)">([^<]*)</td>', cells):
            sums[int(seat)] += int(text.replace("−", "-").replace("+", ""))
    assert sums == totals
    result = app.storage.results()[0]
    assert result["game"] == "paodekuai" and result["scores"] == totals
    assert app.storage.load_game("paodekuai") is None
    assert engine.progress(engine.view(table.state, None)) == {"round": 2, "done": 2, "scores": totals}


def test_the_score_chart_starts_at_zero_and_takes_a_deals_totals_with_its_bomb_bonus_when_it_ends():
    """An audit: after a bomb in deal 1 the Ergebnisse chart read "Start 20 -10 -10" (the bonus, paid at once)."""
    app = ScreenApp(seed=5)
    hands = [["JS", "JH", "JD", "JC", "4S", "6H"], ["7S", "8S", "9S"], ["10S", "QS", "KS"]]
    table = table_for(app, build_state(hands, trick=[(1, ["5S"])], turn=0))
    table.after_change(notify=False)  # as LocalTable.new does: the totals before any move
    assert table.meta["history"] == [[0, 0, 0]]
    table.act("play JS JH JD JC")  # an answering bomb: 10 from each other seat once nothing beats it
    while not table.view()["deal_over"]:
        app.run_timers()
        view = table.view()
        if view["deal_over"]:
            break
        if ui.my_turn(view):
            table.act(view["legal"][0])
    assert 20 in ui.bomb_bonuses(table.view())[0], "the bomb was paid"
    assert table.meta["history"][0] == [0, 0, 0], "the chart starts at zero"
    assert table.meta["history"][1] == list(engine.table_totals(table.state)), "deal 1 with its bonus"


def test_a_bomb_bonus_is_told_under_its_own_trick_not_under_every_later_one():
    app = ScreenApp(seed=5)
    hands = [["JS", "JH", "JD", "JC", "4S", "6H"], ["7S", "8S", "9S"], ["10S", "QS", "KS"]]
    table = table_for(app, build_state(hands, trick=[(1, ["5S"])], turn=0))
    screen = ui.TableScreen(app, table)
    table.act("play JS JH JD JC")
    app.run_timers()  # the others pass: the bomb's trick closes, its bonus is paid
    view = table.view()
    assert ui.my_turn(view) and not view["trick"], "Ich leads the next trick"
    html = screen.render(app)
    assert 'data-testid="bomb-bonus"' in html, "under the closed trick of the bomb"
    # An audit: "Last trick – Anna leads" above "You Straight 4–10", both Anna on her own phone.
    assert "Letzter Stich – du spielst aus" in html and "Letzter Stich – Ich" not in html
    i18n.set_language("en")
    assert "Last trick – you lead" in screen.render(app)
    i18n.set_language("de")
    table.act("play 4S")
    html = screen.render(app)
    assert table.view()["trick"] and 'data-testid="bomb-bonus"' not in html, "not under a trick of a Four"
    # This seat's own play is marked: a person given the device back is not told it again.
    feed = html.split('data-testid="trick-feed">', 1)[1].split("</ol>", 1)[0]
    assert re.findall(r'<li data-seat="(\d)"( data-own="1")?>', feed) == [("0", ' data-own="1"')]
    assert ui.bomb_bonuses(table.view()) == [(0, 20)], "the deal still counts it"


def test_stop_after_a_deal_ends_the_table_at_once():
    app = ScreenApp(seed=9)
    table = LocalTable.new(app, "paodekuai", {"deals": 0}, solo_players("Ich", 3, "random"))
    screen = ui.TableScreen(app, table)
    while not table.view()["deal_over"]:
        app.run_timers()
        if table.view()["deal_over"]:
            break
        screen.handle(app, "hint", None)
        screen.handle(app, "play" if screen.selected else "pass", None)
    app.run_timers()
    assert "Austeilung 1 (offen)" in screen.render(app)
    screen.handle(app, "stop", None)
    assert table.outcome() is not None
    assert 'data-testid="final-headline"' in screen.render(app)


def test_seats_sit_counter_clockwise_next_seat_on_the_right():
    assert ui.seat_order(0) == (0, 1, 2)
    assert ui.seat_order(2) == (2, 0, 1)
    assert ui.seat_order(None) == (0, 1, 2)


def test_computer_names_never_repeat_the_person():
    from spieleabend.ui.table import computer_names, solo_players
    assert computer_names(["anna"], 2) == ["Ben", "Clara"]
    assert [player["name"] for player in solo_players("Ben", 3, "strong")] == ["Ben", "Anna", "Clara"]


# ---------------------------------------------------------------- infoscreen and keyboard

def test_infoscreen_shows_no_card_of_any_hand():
    app = ScreenApp()
    state = build_state([["5S", "9C", "KH"], ["6H", "6D"], ["QH", "QS"]], trick=[(2, ["JD"])])
    html = ui.TableScreen(app, ViewTable("paodekuai", state, None)).render(app)
    assert 'data-testid="pdk-infoscreen"' in html and 'data-testid="hand"' not in html
    shown = set(re.findall(r'data-card="([^"]+)"', html))
    assert shown == {"JD"}
    for hand in state["hands"]:
        for card in hand:
            assert card not in shown
    assert 'data-testid="seat-1" data-seat="1" data-cards="2"' in html
    assert 'data-testid="table-rows"' in html


def test_keyboard_enter_plays_and_p_passes():
    app = ScreenApp()
    state = build_state([["5S", "9C", "KH"], ["6H", "6D"], ["QH", "QS"]], trick=[(2, ["JD"])])
    table = table_for(app, state)
    screen = ui.TableScreen(app, table)
    assert {"ArrowLeft", "ArrowRight", "Space@hand", "Enter@hand"} <= set(screen.keys.split())
    app.key_focus = {"testid": "card-KH", "within": ["card-KH", "hand"]}
    assert screen.on_key(app, "p") is True
    assert table.view()["turn"] == 0, "a refused pass changes nothing"
    assert screen.on_key(app, " ") is True, "Space picks the focused card"
    assert screen.selected == ["KH"]
    assert screen.on_key(app, "Enter") is True
    assert table.view()["top"] == {"seat": 0, "cards": ["KH"], "play": engine.classify(["KH"])}
    app.key_focus = {"testid": "open-table", "within": ["open-table"]}
    assert screen.on_key(app, "Enter") is False, "Enter on another control keeps its own meaning"


def test_arrow_keys_move_on_before_the_page_reports_the_new_focus():
    app = ScreenApp()
    state = build_state([["5S", "9C", "KH"], ["6H", "6D"], ["QH", "QS"]], trick=[(2, ["JD"])])
    screen = ui.TableScreen(app, table_for(app, state))
    assert screen.on_key(app, "ArrowRight") and screen.cursor == 0, "the first arrow enters the hand"
    assert screen.on_key(app, "ArrowRight") and screen.cursor == 1, "focus not reported yet: still moves on"
    assert app.focus_requests[-1] == '[data-testid="card-9C"]'


def test_whole_bombs_left_in_hand_are_named():
    state = build_state([["9H"], ["AS", "AD", "AC", "4H"], ["KH", "KS", "KD", "KC"]], trick=[(2, ["5H"])])
    engine.apply_action(state, 0, "play 9H")
    lines = ui.settlement_lines(engine.view(state, None))
    assert ("ganze Bombe in der Hand: drei Asse", -10) in lines[1]
    assert ("ganze Bombe in der Hand: vier Könige", -10) in lines[2]
    assert ui.deal_totals(engine.view(state, None)) == [14 + 14, -14, -14]


def test_infoscreen_after_a_deal_and_at_the_end():
    app = ScreenApp()
    state = build_state([["9H"], ["4H", "4S", "5D"], ["2S", "KH"]], trick=[(2, ["5H"])], deals=1)
    engine.apply_action(state, 0, "play 9H")
    html = ui.TableScreen(app, ViewTable("paodekuai", state, None)).render(app)
    assert 'data-testid="final-headline"' in html and "Ich gewinnt!" in html
    assert 'data-testid="table-total-0">+15<' in html
    state = build_state([["9H"], ["4H", "4S", "5D"], ["2S", "KH"]], trick=[(2, ["5H"])], deals=2)
    engine.apply_action(state, 0, "play 9H")
    html = ui.TableScreen(app, ViewTable("paodekuai", state, None)).render(app)
    assert 'data-testid="deal-settlement"' in html and 'data-testid="next-deal"' not in html
    assert "Warte auf: Ich, Lena, Jonas" in html

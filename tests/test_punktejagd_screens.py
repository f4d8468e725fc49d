"""Punktejagd's public reveal of the last round (a table screen, a shared phone's final) says which cards blocked."""

import re

import pytest

from spieleabend.games import punktejagd
from spieleabend.games.common import Rng
from spieleabend.ui import i18n
from spieleabend.ui.punktejagd import render_last_reveal


pytestmark = pytest.mark.usefixtures("german")  # tests/conftest.py


def after_one_round(cards):
    """Return a table seen by nobody's seat after one round in which seat i played cards[i]."""
    state = punktejagd.new_game({"seats": len(cards), "names": ["Uta", "Ben", "Cem", "Dora"][:len(cards)]}, Rng(3))
    for seat, card in enumerate(cards):
        punktejagd.apply_action(state, seat, "play %d" % card)
    return punktejagd.view(state, None)


def slots(html):
    """Return per seat (name, has the red ring, its tag's words)."""
    found = re.findall(r'<li class="reveal-slot( blocked)?" data-seat="\d"><span class="who">(\w+)</span>(.*?)</li>', html)
    return [(name, bool(ring), re.findall(r'class="blocked-tag">([^<]*)<', rest)) for ring, name, rest in found]


@pytest.mark.parametrize("language, word", [("de", "blockiert"), ("en", "blocked")])
def test_blocked_cards_are_named_in_words_not_only_by_a_red_ring(language, word):
    i18n.set_language(language)
    html = render_last_reveal(after_one_round([7, 3, 7, 9]))
    assert slots(html) == [("Uta", True, [word]), ("Ben", False, []), ("Cem", True, [word]), ("Dora", False, [])]


def test_a_round_without_a_pair_has_no_blocked_word():
    html = render_last_reveal(after_one_round([2, 5, 8]))
    assert "blocked-tag" not in html and "blockiert" not in html


# The rule text's three worked examples (seeds/punktejagd.txt, "Drei Beispiele zum Nachvollziehen"), each said
# under the revealed cards as the points they give.
from spieleabend.ui.punktejagd import round_reasons  # noqa: E402


def reasons(kind, cards, risks=None):
    risks = risks or [False] * len(cards)
    said = round_reasons({"type": kind, "cards": cards, "risks": risks,
                          "points": punktejagd.score_round(cards, kind, risks)})
    assert not re.search(r"\d (Punkte|points|bonus)", said), "a number and its word stay on one line"
    return said.replace("\u00a0", " ")


def test_example_1_the_biggest_card_does_not_win():
    # "Normalrunde: 3, 7, 9, 9. Die 7 bekommt 5 Punkte, die 3 3 Punkte, beide Neunen jeweils 1 Punkt."
    assert reasons("normal", [3, 7, 9, 9]) == ("Die 7 ist die höchste einmalige Zahl: 5 Punkte. "
                                               "Die 3 kommt auf Platz 2: 3 Punkte. Die übrigen bekommen den Grundwert (1).")
    # "Mit Risiko hätte die 7 8, eine der Neunen dagegen 0 Punkte."
    assert reasons("normal", [3, 7, 9, 9], [False, True, False, False]).endswith("Risiko auf die 7: 3 Punkte Bonus.")
    assert reasons("normal", [3, 7, 9, 9], [False, False, True, False]).endswith(
        "Die übrigen bekommen den Grundwert (1). Risiko auf die 9 gescheitert: 0 Punkte.")


def test_example_2_kopfstand_turns_the_chances_round():
    # "Kopfstand: wieder 3, 7, 9, 9. Jetzt bekommt die 3 5 Punkte, die 7 3 Punkte und jede Neun 1 Punkt.
    #  Setzt die 7 Risiko ein, bekommt sie 0 Punkte."
    assert reasons("kopfstand", [3, 7, 9, 9]) == ("Die 3 ist die niedrigste einmalige Zahl: 5 Punkte. "
                                                  "Die 7 kommt auf Platz 2: 3 Punkte. Die übrigen bekommen den Grundwert (1).")
    assert reasons("kopfstand", [3, 7, 9, 9], [False, True, False, False]).endswith("Risiko auf die 7 gescheitert: 0 Punkte.")


def test_example_3_a_single_unique_number():
    # "Goldrunde: 2, 2, 6, 8, 8. Nur die 6 ist einmalig. Sie bekommt 10 Punkte, nicht 16. Mit Risiko wären es 13
    #  Punkte. Alle anderen bekommen ohne Risiko 2 Punkte."
    assert reasons("gold", [2, 2, 6, 8, 8]) == "Nur die 6 ist einmalig: 10 Punkte. Die übrigen bekommen den Grundwert (2)."
    assert reasons("gold", [2, 2, 6, 8, 8], [False, False, True, False, False]) == (
        "Nur die 6 ist einmalig: 10 Punkte. Die übrigen bekommen den Grundwert (2). Risiko auf die 6: 3 Punkte Bonus.")


def test_no_unique_number_gives_everyone_the_base_value_in_both_languages():
    assert reasons("normal", [4, 4]) == "Keine Zahl ist einmalig: Alle bekommen den Grundwert (1)."
    i18n.set_language("en")
    assert reasons("gold", [4, 4]) == "No number is unique: everyone gets the base value (2)."
    assert reasons("normal", [5, 3]) == ("The 5 is the highest unique number: 5 points. The 3 comes second: 3 points.")




def test_the_last_to_choose_in_a_room_waits_for_the_reveal_not_for_the_others():
    """As in Kartenkampf: "3 von 3 haben gewählt" under "Warte auf die anderen" became one plain line."""
    from spieleabend.ui import punktejagd as ui
    from tests.fake_app import ScreenApp, ViewTable

    table = ViewTable("punktejagd", punktejagd.new_game({"seats": 3}, Rng(3)), 2, apply=True)
    screen = ui.TableScreen(ScreenApp(), table)
    view = dict(punktejagd.view(table.state, 2), plan={"card": 4, "risk": False})
    view["committed"] = [True, True, False]
    assert "2 von 3 haben gewählt" in screen.render_waiting(view)
    view["committed"] = [True, True, True]
    waiting = screen.render_waiting(view)
    assert "Alle haben gewählt – gleich wird aufgedeckt." in waiting and "Warte auf die anderen" not in waiting


def play_a_round_alone():
    """Return (app, table, screen, card) after the person at seat 0 played one round against two computers."""
    from spieleabend.ui import punktejagd as ui
    from spieleabend.ui.table import LocalTable, solo_players
    from tests.fake_app import ScreenApp

    app = ScreenApp(seed=4)
    table = LocalTable.new(app, "punktejagd", {"seats": 3}, solo_players("Testerin", 3, "leicht"))
    screen = ui.TableScreen(app, table)
    app.screen = screen
    card = table.view()["hand"][0]
    screen.handle(app, "select", str(card))
    screen.handle(app, "confirm", None)
    app.run_timers()
    return app, table, screen, card


def test_the_reveal_says_what_the_person_scored_to_a_screen_reader():
    """An audit: the round's why named numbers, never what one got oneself (the eye reads it on the slot)."""
    app, table, screen, card = play_a_round_alone()
    html = screen.render(app)
    why = html.split('data-testid="reveal-why" role="status">', 1)[1].split("</p>", 1)[0]
    points = table.view()["log"][0]["points"][0]
    assert why.endswith('<span class="visually-hidden"> Für dich: +%d.</span>' % points), why


def test_the_number_of_a_card_already_played_is_told_not_silent():
    app, table, screen, card = play_a_round_alone()
    screen.handle(app, "next", None)
    assert screen.on_key(app, str(card % 10))
    assert app.toasts[-1] == "Die %d hast du schon gespielt." % card

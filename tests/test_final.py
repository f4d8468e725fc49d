"""The one final-standings piece every game ends with (ui/final.py), worded from the engine's outcome."""

import re

import pytest

from spieleabend.games.common import game_outcome
from spieleabend.ui import golf, i18n  # noqa: F401  (golf: its own headline words)
from spieleabend.ui.final import final_standings
from spieleabend.ui.table import Table

NAMES = ["Uta", "Ben", "Cem"]


pytestmark = pytest.mark.usefixtures("german")  # tests/conftest.py


class Seated(Table):
    """A table seen from `seat` (None: a table screen) that may or may not start the next game."""

    def __init__(self, seat, rematch=True):
        Table.__init__(self)
        self.seat = seat
        self.rematch_allowed = rematch

    def can_rematch(self):
        return self.rematch_allowed


class Afar(Seated):
    """A room's table screen (a TV): nobody's seat, read from across the room."""

    def __init__(self):
        Seated.__init__(self, None, rematch=False)

    def reads_from_afar(self):
        return True


def text_of(html, testid):
    match = re.search(r'data-testid="%s"[^>]*>(.*?)</(p|li)>' % re.escape(testid), html, re.S)
    assert match, testid
    return re.sub(r"<[^>]+>", " ", match.group(1)).split()


def rows(html):
    """Return (seat, place, score text) per row, in the order drawn."""
    return [(int(seat), place, score) for seat, place, score in re.findall(
        r'data-testid="standing-(\d)".*?class="rank">(.*?)</span>.*?class="score"[^>]*>(.*?)</span>', html)]


def test_rows_follow_the_engines_order_with_shared_places_and_the_one_form_of_a_point():
    html = final_standings(Seated(0), NAMES, game_outcome([1, 7, 7], [1, 7, 7]))
    assert rows(html) == [(1, "Platz 1", "7 Punkte"), (2, "Platz 1", "7 Punkte"), (0, "Platz 3", "1 Punkt")]
    assert 'data-testid="standing-0" data-points="1" data-seat="0"' in html
    assert text_of(html, "final-headline") == ["Geteilter", "Sieg:", "Ben,", "Cem"]
    assert "Kein Spieleabend-Punkt" in " ".join(text_of(html, "night-point"))


def test_the_headline_names_this_devices_person_a_winner_or_nobody():
    sole = game_outcome([3, 9, 5], [3, 9, 5])
    assert text_of(final_standings(Seated(1), NAMES, sole), "final-headline") == ["Du", "gewinnst!"]
    assert text_of(final_standings(Seated(0), NAMES, sole), "final-headline") == ["Ben", "gewinnt!"]
    assert text_of(final_standings(Seated(None), NAMES, sole), "final-headline") == ["Ben", "gewinnt!"]
    level = game_outcome([4, 4, 1], [4, 4, 1], share_ties=False)
    assert text_of(final_standings(Seated(0), NAMES, level), "final-headline") == ["Unentschieden"]


def test_a_game_adds_only_its_own_words():
    outcome = game_outcome([30, 12, 40], [-30, -12, -40], lower_wins=True)
    html = final_standings(Seated(1), NAMES, outcome, scores=["−30", "−12", "−40"], spoken=["a", "b", "c"],
                           tags=["", "", "raus"], notes=["n0", "n1", "n2"], decider="So entschieden.",
                           after="<table>sheet</table>", words={"you_win": "golf.you_win"})
    assert text_of(html, "final-headline") == "Du gewinnst mit den wenigsten Punkten!".split()
    assert text_of(html, "tie-break") == ["So", "entschieden."]
    assert rows(html)[0] == (1, "Platz 1", "−12") and 'aria-label="b"' in html
    assert text_of(html, "standing-2") == ["Platz", "3", "Cem", "raus", "−40", "n2"]
    assert 'class="standing tagged"' in html
    assert html.endswith("</section><table>sheet</table>"), "what follows the standings comes after them"


def test_controls_follow_what_this_device_may_do():
    outcome = game_outcome([1, 2, 3], [1, 2, 3])
    phone = final_standings(Seated(1, rematch=False), NAMES, outcome)
    assert 'data-testid="to-results"' in phone and 'data-testid="new-game"' not in phone
    host = final_standings(Seated(0), NAMES, outcome)
    assert 'data-testid="to-results"' in host and 'data-testid="new-game"' in host
    screen = final_standings(Afar(), NAMES, outcome)
    assert "to-results" not in screen and "new-game" not in screen and "controls" not in screen
    assert 'class="final final-screen"' in screen
    watching = final_standings(Seated(None, rematch=False), NAMES, outcome)  # a phone watching, a shared phone
    assert 'data-testid="to-results"' in watching and "final-screen" not in watching


def test_english():
    i18n.set_language("en")
    html = final_standings(Seated(0), NAMES, game_outcome([1, 7, 2], [1, 7, 2]))
    assert text_of(html, "final-headline") == ["Ben", "wins!"]
    assert rows(html)[0] == (1, "1st", "7 points") and rows(html)[2] == (0, "3rd", "1 point")
    assert "1 game-night point for Ben." in " ".join(text_of(html, "night-point"))

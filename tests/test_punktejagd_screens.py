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

"""A refused action reads as one line in the person's language in every game, never as an engine's English."""

import pytest

from spieleabend.games import GAME_MODULES
from spieleabend.games import load as load_engine
from spieleabend.games.common import IllegalAction, MalformedAction, Rng
from spieleabend.ui import i18n
from spieleabend.ui.table import ShownRefusal, refusal_text, screen_module
from tests.fake_app import ScreenApp, ViewTable

ENGINE_WORDS = "seat 1 has already chosen this round"


class RefusingTable(ViewTable):
    """A phone's table whose every action comes back refused, as a tap that came too late would."""

    error = IllegalAction(ENGINE_WORDS)

    def act(self, action):
        raise self.error


@pytest.fixture(params=["de", "en"])
def language(request):
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("de")


def tap_first_move(app, screen, view):
    """Make this seat's first legal move the way a person's taps would reach the table."""
    action = view["legal"][0]
    if hasattr(screen, "act"):  # turn games: one method sends the action
        screen.act(app, action)
    else:  # secret choices: choose a card, then confirm the plan
        screen.handle(app, "select", action.split()[1])
        screen.handle(app, "confirm", None)


@pytest.mark.parametrize("game", GAME_MODULES)
def test_every_game_says_a_refused_move_in_the_devices_language(game, language):
    app = ScreenApp()
    engine = load_engine(game)
    state = engine.new_game({"seats": 3}, Rng(5))
    table = RefusingTable(game, state, engine.to_move(state)[0], kind="person")
    screen = screen_module(game).TableScreen(app, table)
    view = table.view()
    tap_first_move(app, screen, view)
    expected = {"de": "Dieser Zug geht gerade nicht.", "en": "That move is not possible right now."}[language]
    assert app.toasts == [expected]
    assert ENGINE_WORDS not in screen.render(app)


def test_a_refusal_in_the_persons_words_is_shown_as_it_is_and_any_other_is_one_plain_line():
    i18n.set_language("de")
    assert refusal_text(ShownRefusal("Keine Verbindung zum Gastgeber – der Zug wurde nicht gesendet.")) == (
        "Keine Verbindung zum Gastgeber – der Zug wurde nicht gesendet.")
    assert refusal_text(MalformedAction("not an action: 'fly away'")) == "Dieser Zug geht gerade nicht."
    assert refusal_text(IllegalAction("not your turn")) == "Dieser Zug geht gerade nicht."

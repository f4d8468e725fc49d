"""The one start screen of every game: built from the engine's INFO and the computers' levels."""

import re

import pytest

from spieleabend.games import GAME_MODULES, load, load_bots
from spieleabend.storage import SETTINGS_KEY, Storage
from spieleabend.ui import i18n
from spieleabend.ui.setup import SetupScreen, columns
from tests.fake_app import ScreenApp
from tests.fake_storage import JSON_CODEC, Clock, FakeLocalStorage


@pytest.fixture(autouse=True)
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("de")


def ids_in(html):
    return re.findall(r'data-testid="([^"]+)"', html)


def checked(html, name):
    """Return the value of the checked radio of a group."""
    for tag in re.findall(r"<input[^>]*>", html):
        if 'name="%s"' % name in tag and " checked" in tag:
            return re.search(r'value="([^"]*)"', tag).group(1)
    return None


@pytest.mark.parametrize("game", GAME_MODULES)
def test_every_game_offers_its_declared_seats_options_and_levels(game):
    app = ScreenApp()
    html = SetupScreen(app, game).render(app)
    info, bots = load(game).INFO, load_bots(game)
    ids = ids_in(html)
    seats = range(info["seats"]["min"], info["seats"]["max"] + 1)
    if len(seats) > 1:
        assert ["seats-%d" % n for n in seats] == [i for i in ids if i.startswith("seats-") and i != "seats-label"]
        assert checked(html, "seats") == str(info["seats"]["default"])
    for option in info["options"]:
        assert ["%s-%s" % (option["key"], value) for value in option["choices"]] == \
            [i for i in ids if i.startswith(option["key"] + "-") and not i.endswith("-label")]
    assert ["strength-" + level for level in bots.STRENGTHS] == [i for i in ids if i.startswith("strength-")]
    assert {"player-name", "start-game", "open-room", "rules-" + game, "seats-label"} <= set(ids)
    assert "Du und" in html, "the person is told who sits at the table"


def test_the_levels_read_in_both_languages_and_every_game_starts_at_mittel():
    app = ScreenApp()
    html = SetupScreen(app, "maumau").render(app)
    assert ">Leicht<" in html and ">Mittel<" in html and ">Stark<" in html
    # The same first offer everywhere: an audit met Stark in three games and a random player in Punktejagd.
    for game in GAME_MODULES:
        assert checked(SetupScreen(app, game).render(app), "strength") == "mittel", game
    assert ">Vorausschauend<" in SetupScreen(app, "punktejagd").render(app), "the rule text's own names"
    i18n.set_language("en")
    html = SetupScreen(app, "maumau").render(app)
    assert ">Easy<" in html and ">Strong<" in html and "Minus-point limit" in html and "Dein" not in html


def test_segments_stay_tappable_on_a_phone():
    assert [columns(n) for n in (2, 3, 5, 6, 7)] == [2, 3, 5, 3, 4]  # 7 seats: two rows of 4, never 7 of 40 px


def test_the_choices_start_the_table_and_are_kept_for_the_next_visit():
    app = ScreenApp()
    setup = SetupScreen(app, "maumau")
    setup.on_input(app, "seats", "5", True)
    setup.on_input(app, "limit", "30", True)
    setup.on_input(app, "strength", "stark", True)
    app.fields = {"setup-name": "  Mia  "}
    setup.handle(app, "start", None)
    table = app.screen.table
    assert table.state["limit"] == 30 and table.names()[0] == "Mia" and len(table.names()) == 5
    assert [p["kind"] for p in table.players()] == ["person"] + ["computer"] * 4
    assert {p["strength"] for p in table.players()[1:]} == {"stark"}
    assert app.route == "play/maumau/table" and app.settings["name"] == "Mia"
    again = SetupScreen(app, "maumau").render(app)
    assert checked(again, "seats") == "5" and checked(again, "limit") == "30" and checked(again, "strength") == "stark"
    assert 'value="Mia"' in again


def test_no_computer_takes_the_name_of_someone_named_for_tonight():
    """The night's table counts a name as one person: a computer "Ben" winning would give the real Ben a point."""
    app = ScreenApp()
    app.storage.new_night(["Anna", "ben", "Clara"])
    setup = SetupScreen(app, "kartenkampf")
    setup.on_input(app, "seats", "4", True)
    app.fields = {"setup-name": "Anna"}
    setup.handle(app, "start", None)
    names = app.screen.table.names()
    assert names[0] == "Anna" and len(names) == 4
    assert not {"ben", "clara"} & {name.lower() for name in names[1:]}, names
    assert app.screen.table.rematch().names() == names  # "Neue Partie" deals to the same table


def test_an_empty_name_plays_as_du_and_a_fixed_table_says_who_plays():
    app = ScreenApp()
    setup = SetupScreen(app, "paodekuai")
    html = setup.render(app)
    assert 'data-testid="seats-3"' not in html and "Du und 2 Computer" in html
    app.fields = {"setup-name": "   "}
    setup.handle(app, "start", None)
    assert app.screen.table.names()[0] == "Du" and app.screen.table.state["options"]["deals"] == 5


def test_tonights_people_are_offered_under_the_name_and_a_tap_plays_as_that_person():
    """An audit: a solo game started with the field empty added a person "Du" beside tonight's Anna and Ben."""
    app = ScreenApp()
    setup = SetupScreen(app, "paodekuai")
    assert 'data-testid="pick-name-0"' not in setup.render(app), "no evening: nothing to pick"
    app.storage.new_night(["Anna", "Ben", "Du"])
    html = setup.render(app)
    assert "Heute Abend dabei:" in html
    assert re.findall(r'data-testid="pick-name-\d+"[^>]*>([^<]+)<', html) == ["Anna", "Ben"], "no placeholder Du"
    setup.handle(app, "pick-name", "Mallory")  # not tonight's: nothing changes
    assert app.settings["name"] == ""
    setup.handle(app, "pick-name", "Ben")
    html = setup.render(app)
    assert app.settings["name"] == "Ben" and 'value="Ben"' in html
    assert re.search(r'data-testid="pick-name-1"[^>]*aria-pressed="true"|aria-pressed="true"[^>]*data-testid="pick-name-1"', html)
    setup.on_input(app, "name", "Anna", True)  # typed after the tap: the buttons say so
    html = setup.render(app)
    assert re.search(r'data-testid="pick-name-0"[^>]*aria-pressed="true"|aria-pressed="true"[^>]*data-testid="pick-name-0"', html)
    assert not re.search(r'data-testid="pick-name-1"[^>]*aria-pressed="true"|aria-pressed="true"[^>]*data-testid="pick-name-1"', html)
    setup.handle(app, "pick-name", "Ben")
    app.fields = {}
    setup.handle(app, "start", None)
    assert app.screen.table.names()[0] == "Ben"


def test_values_the_game_does_not_offer_change_nothing():
    app = ScreenApp()
    setup = SetupScreen(app, "golf")
    before = dict(setup.choices)
    for name, value in (("seats", "9"), ("seats", "1"), ("seats", "zwei"), ("decks", "3"), ("strength", "gott"),
                        ("strength", None), ("unknown", "1"), ("decks", [2])):
        setup.on_input(app, name, value, True)
    assert setup.choices == before


def test_golf_shows_the_suggested_decks_until_one_is_chosen():
    app = ScreenApp()
    setup = SetupScreen(app, "golf")
    setup.on_input(app, "seats", "6", True)
    assert checked(setup.render(app), "decks") == "2" and "zwei Decks" in setup.render(app)
    setup.on_input(app, "seats", "3", True)
    assert checked(setup.render(app), "decks") == "1"
    setup.handle(app, "start", None)
    assert app.screen.table.state["decks"] == 1


def test_starting_over_a_saved_game_asks_first_and_continue_keeps_it():
    app = ScreenApp()
    SetupScreen(app, "kartenkampf").handle(app, "start", None)
    saved = app.storage.load_game("kartenkampf")
    assert saved is not None
    setup = SetupScreen(app, "kartenkampf")
    app.screen = setup
    assert 'data-testid="continue-saved"' in setup.render(app)
    setup.handle(app, "start", None)
    assert app.screen is setup, "no new table yet"
    html = setup.render(app)
    assert 'data-testid="replace-question"' in html and 'data-testid="replace-confirm"' in html
    assert app.focus_requests[-1] == '[data-testid="continue-saved"]', "the safe answer takes the focus"
    assert app.storage.load_game("kartenkampf") == saved, "the question loses nothing"
    setup.handle(app, "continue", None)
    assert app.route == "play/kartenkampf/continue" and app.storage.load_game("kartenkampf") == saved
    setup.handle(app, "start-anew", None)
    assert app.storage.load_game("kartenkampf")["state"] != saved["state"]


def test_a_room_opens_with_the_choices():
    app = ScreenApp()
    setup = SetupScreen(app, "paodekuai")
    setup.on_input(app, "deals", "1", True)
    setup.on_input(app, "strength", "leicht", True)
    setup.handle(app, "open-room", None)
    assert app.room == ("paodekuai", {"deals": 1}, 3, "leicht")


def test_choices_of_earlier_releases_carry_over():
    backend = FakeLocalStorage()
    # Settings as the release before the shared start screen wrote them.
    Storage(backend, JSON_CODEC, Clock()).write(SETTINGS_KEY, {"settings": {
        "name": "Mia", "pj_computers": 2, "pj_style": "random",
        "setup": {"kartenkampf": {"computers": 6, "style": "strong"},
                  "maumau": {"seats": 4, "strength": "medium", "limit": 50},
                  "golf": {"seats": 12, "decks": 7}}}})
    app = ScreenApp(backend=backend)
    assert app.settings["name"] == "Mia"
    pj = SetupScreen(app, "punktejagd").render(app)
    assert checked(pj, "seats") == "3" and checked(pj, "strength") == "leicht"
    kk = SetupScreen(app, "kartenkampf").render(app)
    assert checked(kk, "seats") == "7" and checked(kk, "strength") == "stark"
    mm = SetupScreen(app, "maumau").render(app)
    assert checked(mm, "seats") == "4" and checked(mm, "strength") == "mittel" and checked(mm, "limit") == "50"
    golf = SetupScreen(app, "golf").render(app)
    assert checked(golf, "seats") == "4" and checked(golf, "decks") == "1", "out-of-range choices fall back"

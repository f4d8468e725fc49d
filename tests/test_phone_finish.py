"""The pieces behind issue 29's fixes, in CPython: one-forms of counted texts, damaged saves in words,
Mau-Mau's hand rows, the game-night line, what a table keeps of the reveals shown."""

import pytest

from spieleabend.ui import golf, punktejagd  # noqa: F401  (their texts)
from spieleabend.ui.i18n import set_language, t
from spieleabend.ui.maumau import HAND_ROW, hand_rows
from spieleabend.ui.shell import NewOnce, damaged_text
from spieleabend.ui.final import night_point_note
from spieleabend.ui.table import Table, seen_reveals
from tests.fake_app import ScreenApp


def test_a_count_of_one_takes_the_one_form_where_there_is_one():
    set_language("de")
    assert t("pj.points_total", n=1) == "1 Punkt" and t("pj.points_total", n=2) == "2 Punkte"
    assert t("mm.minus", n=1) == "1 Minuspunkt"
    assert t("pj.round", n=1, total=10) == "Runde 1 von 10", "a text without a one-form stays as it is"
    set_language("en")
    assert t("golf.points", n=1) == "1 point"
    set_language("de")


def test_a_damaged_document_is_named_in_words_never_by_its_key():
    set_language("de")
    save = damaged_text({"key": "spieleabend.save.kartenkampf", "reason": "unreadable (ValueError)",
                         "aside": "spieleabend.damaged.save.kartenkampf.1796156452989"})
    assert save.startswith("Deine gespeicherte Kartenkampf-Partie konnte nicht gelesen werden.")
    assert "spieleabend." not in save and "Nichts wurde gelöscht" in save
    newer = damaged_text({"key": "spieleabend.settings", "reason": "newer format 7", "aside": None})
    assert "Einstellungen" in newer and "neueren Version" in newer
    assert "konnte nicht gelesen" in damaged_text({"key": "spieleabend.something", "reason": "x", "aside": None})


def test_a_big_maumau_hand_wraps_into_even_rows_of_at_most_seven():
    def sizes(count):
        html = hand_rows(["<b></b>"] * count)
        return [row.count("<b>") for row in html.split('<div class="mm-row"')[1:]]
    assert sizes(7) == [7]
    assert sizes(8) == [4, 4]
    assert sizes(14) == [7, 7]
    assert sizes(22) == [6, 6, 6, 4]
    assert max(sizes(30)) <= HAND_ROW
    assert sizes(0) == []


def test_the_game_night_line_names_the_sole_winner_or_says_there_is_none():
    set_language("de")
    names = ["Du", "Anna", "Ben"]
    assert "1 Spieleabend-Punkt für Anna." in night_point_note({"night_point": 1}, names, 0)
    assert "Du bekommst 1 Spieleabend-Punkt." in night_point_note({"night_point": 0}, names, 0)
    assert 'class="night-point none"' in night_point_note({"night_point": None}, names, 0)


def test_a_table_counts_rounds_scored_before_it_kept_anything_as_seen():
    table = Table()
    assert seen_reveals(table, 3) == 3, "an old save or a phone's first view: no reveal replayed"
    assert seen_reveals(table, 4) == 3, "a round scored now is shown"
    table.keep_seen(4)
    assert seen_reveals(table, 4) == 4
    assert seen_reveals(table, 1) == 1, "a new game on the same table starts counting again"


class Timers:
    def __init__(self):
        self.due = []
        self.clock = 1000

    def now(self):
        return self.clock

    def later(self, handler, ms):
        self.due.append(handler)

    def run(self):
        due, self.due = self.due, []
        for handler in due:
            handler()


def test_something_new_is_new_for_the_task_that_shows_it_and_not_after():
    app = Timers()
    once = NewOnce()
    assert once.is_new(app, "round 1")
    app.clock += 800  # a busy task draws again later
    assert once.is_new(app, "round 1"), "a tap may draw the screen twice"
    assert once.first_drawn == 1000, "its animations started with the first drawing"
    app.run()
    assert not once.is_new(app, "round 1")
    assert once.is_new(app, "round 2") and once.first_drawn == 1800


# -- 5: the last round's reveal survives a reload; the finished game's save goes once it was shown ----------
def play_to_the_last_reveal(app, game):
    """Play `game` on a LocalTable with its screen, going on from every reveal, until the last round is scored."""
    from spieleabend.ui.table import LocalTable, screen_module, solo_players

    table = LocalTable.new(app, game, {"seats": 3}, solo_players("Testerin", 3, "leicht"))
    screen = screen_module(game).TableScreen(app, table)
    for _ in range(500):
        app.run_timers()
        if table.outcome() is not None:
            return table, screen
        phase = screen.phase if isinstance(screen.phase, str) else screen.phase(table.view())
        if phase == "reveal":
            screen.handle(app, "next", None)
        else:
            screen.handle(app, "select", str(table.view()["hand"][0]))
            screen.handle(app, "confirm", None)
    raise AssertionError("%s did not end" % game)


@pytest.mark.parametrize("game", ["punktejagd", "kartenkampf"])
def test_a_finished_game_keeps_its_save_until_its_last_reveal_was_shown(game):
    from spieleabend.ui.table import LocalTable, screen_module

    app = ScreenApp()
    table, screen = play_to_the_last_reveal(app, game)
    assert len(app.storage.results()) == 1, "in Ergebnisse at once"
    saved = app.storage.load_game(game)
    assert saved is not None and saved["meta"]["recorded"], "kept for a reload during the last reveal"
    assert app.storage.running_game(game) is None, "a new game replaces it without a question"
    reloaded = LocalTable.load(app, game)  # the page was reloaded during the last reveal
    again = screen_module(game).TableScreen(app, reloaded)
    html = again.render(app)
    assert 'data-testid="reveal-title"' in html and 'data-testid="final-headline"' not in html
    again.handle(app, "next", None)  # "Endwertung"
    assert 'data-testid="final-headline"' in again.render(app)
    assert app.storage.load_game(game) is None, "shown: the game lives on in Ergebnisse only"
    reloaded.after_change()
    assert len(app.storage.results()) == 1, "recorded once"


def test_a_game_that_finished_unseen_on_a_table_without_a_screen_leaves_no_save():
    from spieleabend.ui.table import LocalTable, solo_players

    app = ScreenApp()
    table = LocalTable.new(app, "punktejagd", {"seats": 3}, solo_players("Testerin", 3, "leicht"))
    while table.outcome() is None:
        table.act(table.view()["legal"][0])
    assert app.storage.load_game("punktejagd") is None


@pytest.mark.parametrize("game, shown, go_on", [("golf", "round-summary", "next"), ("paodekuai", "deal-settlement", "final")])
def test_golfs_last_summary_and_pao_de_kuais_last_settlement_survive_a_reload_too(game, shown, go_on):
    from spieleabend.games import load_bots, strength_choice
    from spieleabend.games.common import Rng
    from spieleabend.ui.table import LocalTable, reveal_due, screen_module, solo_players

    app = ScreenApp()
    table = LocalTable.new(app, game, {"seats": 3}, solo_players("Testerin", 3, "leicht"))
    reveal_due(table, table.view())  # the screen opens
    choose, rng = strength_choice(load_bots(game), "leicht"), Rng(5)
    for _ in range(5000):
        app.run_timers()
        if table.outcome() is not None:
            break
        if 0 in table.to_move():
            table.act(choose(table.view(), rng))  # the person never went on from a summary on this screen
    assert app.storage.load_game(game)["meta"]["recorded"]
    screen = screen_module(game).TableScreen(app, LocalTable.load(app, game))
    html = screen.render(app)
    assert 'data-testid="%s"' % shown in html and 'data-testid="final-headline"' not in html
    screen.handle(app, go_on, None)
    assert 'data-testid="final-headline"' in screen.render(app)
    assert app.storage.load_game(game) is None


def test_keyboard_keys_in_a_hint_are_marked_so_a_touch_screen_can_hide_them():
    from spieleabend.ui.html import with_key_hints

    marked = with_key_hints("Tippe eine Karte zum Tauschen (1–4) oder lege ab (A).")
    assert marked == ('Tippe eine Karte zum Tauschen<span class="key-hint"> (1–4)</span> oder lege ab'
                      '<span class="key-hint"> (A)</span>.')
    assert with_key_hints("Ein Satz (mit einer Bemerkung) <bleibt>") == "Ein Satz (mit einer Bemerkung) &lt;bleibt&gt;"

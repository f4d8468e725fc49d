"""Mau-Mau screens in CPython: hand order, what may be played, the feed, Mau penalties, seats between deals,
computers waiting for the person between deals, and what each kind of table shows (never another hand)."""

import re

import pytest

from spieleabend.ui.html import card_name
from spieleabend.bots import maumau as bots
from spieleabend.games import maumau
from spieleabend.games.common import Rng, french_deck
from spieleabend.ui import i18n
from spieleabend.ui import maumau as ui
from spieleabend.ui.table import COMPUTER, LocalTable, seat_player, solo_players
from tests.fake_app import ScreenApp, ViewTable


@pytest.fixture(autouse=True)
def german():
    i18n.set_language("de")
    yield
    i18n.set_language("de")


def arranged(hands, top, turn=0, pending=0):
    """Return a running deal with these hands and top card; the rest of both decks is the stock."""
    names = ["Ich", "Anna", "Ben", "Clara", "Deniz"][:len(hands)]
    state = maumau.new_game({"seats": len(hands), "names": names}, Rng(1))
    deck = french_deck(2)
    for card in [card for hand in hands for card in hand] + [top]:
        deck.remove(card)
    state.update({"hands": [list(hand) for hand in hands], "discard": [top], "stock": deck, "turn": turn,
                  "pending": pending, "log": []})
    return state


def local_table(app, state, strength="medium"):
    names = state["names"]
    players = [seat_player(names[0], "person")] + [seat_player(name, COMPUTER, strength) for name in names[1:]]
    meta = {"players": players, "seat": 0, "options": {}, "bot_rng": Rng(3).state, "started_at": 0,
            "night": "n0", "history": [], "round": 1}
    return LocalTable(app, "maumau", state, meta)


def screen_on(app, table):
    screen = ui.TableScreen(app, table)
    app.screen = screen
    return screen


def hand_cards(html):
    hand = html.split('data-testid="hand"', 1)[1].split("</div></section>", 1)[0] if 'data-testid="hand"' in html else ""
    return re.findall(r'data-card="([^"]+)"', hand)


# ---------------------------------------------------------------- pure helpers

def test_hand_is_sorted_by_suit_then_rank():
    hand = ["AS", "2D", "JC", "10H", "2C", "KH", "9S", "QD", "JC"]
    assert ui.sorted_hand(hand) == ["2C", "JC", "JC", "10H", "KH", "9S", "AS", "2D", "QD"]


def test_playable_cards_and_the_action_for_a_tap():
    legal = ["play 5H", "play 5H mau", "play JC:S", "play JC:S mau", "play JC:H", "play JC:H mau", "draw"]
    assert ui.playable_cards(legal) == {"5H": True, "JC": True}
    assert ui.play_action("5H", legal) == "play 5H", "Mau only when the person said it"
    assert ui.play_action("5H", legal, mau=True) == "play 5H mau"
    assert ui.play_action("JC", legal, mau=True, suit="H") == "play JC:H mau"
    assert ui.play_action("7D", ["play 7D", "draw"], mau=True) == "play 7D", "no Mau where the engine offers none"


def test_new_cards_counts_duplicates_of_the_two_decks():
    assert ui.new_cards(["5H", "5H", "2C"], ["5H", "2C"]) == {"5H": 1}
    assert ui.new_cards(["5H"], ["5H", "2C"]) == {}


def test_mau_penalty_is_read_from_the_log_for_this_seat_only():
    state = arranged([["5H", "9C"], ["6H", "2S", "3S"]], "4H")
    maumau.apply_action(state, 0, "play 5H")
    assert ui.mau_penalty(maumau.view(state, 0), 0) == 2
    assert ui.mau_penalty(maumau.view(state, 1), 1) == 0
    said = arranged([["5H", "9C"], ["6H", "2S", "3S"]], "4H")
    maumau.apply_action(said, 0, "play 5H mau")
    assert ui.mau_penalty(maumau.view(said, 0), 0) == 0


def test_last_effects_tell_skip_and_reverse_until_the_next_move():
    state = arranged([["8H", "2C", "3C"], ["2S", "3S"], ["4S", "5S"]], "4H")
    maumau.apply_action(state, 0, "play 8H")
    assert ui.last_effects(maumau.view(state, None)) == {"skip": 1, "reverse": False}
    maumau.apply_action(state, 2, "draw")
    assert ui.last_effects(maumau.view(state, None))["skip"] is None
    state = arranged([["9H", "2C", "3C"], ["2S", "3S"], ["4S", "5S"]], "4H")
    maumau.apply_action(state, 0, "play 9H")
    assert ui.last_effects(maumau.view(state, None))["reverse"] is True


def test_every_event_of_a_seeded_game_reads_as_a_sentence_in_both_languages():
    state = maumau.new_game({"seats": 3, "limit": 40, "names": ["Ich", "Anna", "Ben"]}, Rng(5))
    rng = Rng(8)
    kinds = set()
    lines = []
    while maumau.outcome(state) is None:
        if state["phase"] == "between":
            if "join" not in kinds:
                maumau.add_seat(state, "Clara")
                kinds.add("join")
            maumau.start_next_deal(state)
            continue
        seat = state["turn"]
        maumau.apply_action(state, seat, bots.choose_random(maumau.view(state, seat), rng))
        view = maumau.view(state, 0)
        for event in view["events"][-3:]:
            kinds.add(event["type"])
            for language in ("de", "en"):
                i18n.set_language(language)
                lines.append(ui.event_text(view, event, 0))
            i18n.set_language("de")
    assert {"deal", "play", "draw", "deal_end", "out", "join", "skip", "reverse"} <= kinds
    view = maumau.view(state, 0)
    for language in ("de", "en"):
        i18n.set_language(language)
        lines.append(ui.event_text(view, {"type": "leave", "name": "Clara"}, 0))
        lines.append(ui.event_text(view, {"type": "reshuffle", "count": 40}, 0))
        lines.append(ui.event_text(view, {"type": "forgot_mau", "seat": 1, "count": 2}, 0))
    i18n.set_language("de")
    assert not [line for line in lines if line.startswith("mm.") or "%(" in line]
    assert any(line.startswith("Du ") for line in lines)


def test_progress_counts_finished_deals():
    state = arranged([["5H", "9C"], ["2S", "3S"]], "4H")
    assert maumau.progress(maumau.view(state, None)) == {"round": 1, "done": 0, "scores": [0, 0]}
    state["hands"][0] = ["5H"]
    maumau.apply_action(state, 0, "play 5H")
    assert maumau.progress(maumau.view(state, None)) == {"round": 1, "done": 1, "scores": [0, 5]}


def test_computer_names_are_unique_and_avoid_the_person():
    app = ScreenApp()
    table = LocalTable.new(app, "maumau", {"seats": 5, "limit": 50}, solo_players("Anna", 5, "strong"))
    names = [player["name"] for player in table.players()]
    assert names == ["Anna", "Ben", "Clara", "Deniz", "Emil"]
    assert table.state["limit"] == 50 and table.players()[1]["strength"] == "strong"
    from spieleabend.ui.table import COMPUTER_NAMES, computer_names
    assert computer_names(COMPUTER_NAMES, 1) == ["Computer 10"]


# ---------------------------------------------------------------- the table screen

def test_table_shows_only_this_seats_hand_and_marks_what_may_be_played():
    app = ScreenApp()
    table = local_table(app, arranged([["JC", "4H", "9S"], ["2S", "3S"], ["2C", "3C"]], "5H"))
    screen = screen_on(app, table)
    html = screen.render(app)
    assert hand_cards(html) == ["JC", "4H", "9S"]
    assert re.search(r'data-card="9S"[^>]*aria-disabled="true"', html) or re.search(r'aria-disabled="true"[^>]*data-card="9S"', html)
    assert 'data-testid="player-1"' in html and 'data-cards="2"' in html
    assert "2S" not in html and "3C" not in html, "no other seat's card appears"


def test_a_jack_asks_for_a_suit_then_plays_with_the_wish():
    app = ScreenApp()
    table = local_table(app, arranged([["JC", "4H", "9S"], ["2S", "3S"], ["2C", "3C"]], "5H"))
    screen = screen_on(app, table)
    screen.handle(app, "card", "JC")
    assert screen.picker == "JC" and 'data-testid="suit-picker"' in app.html
    screen.handle(app, "suit", "D")
    assert table.state["discard"][-1] == "JC" and table.state["wish"] == "D"
    assert screen.picker is None


def test_a_dimmed_card_explains_why_and_plays_nothing():
    app = ScreenApp()
    table = local_table(app, arranged([["JC", "4H", "9S"], ["2S", "3S"], ["2C", "3C"]], "5H"))
    screen = screen_on(app, table)
    screen.handle(app, "card", "9S")
    assert app.toasts == ["Pik 9 passt nicht auf Herz 5."]
    assert table.state["hands"][0] == ["JC", "4H", "9S"]


def test_drawn_card_is_marked_and_mau_must_be_pressed_first():
    app = ScreenApp()
    table = local_table(app, arranged([["5H", "9C"], ["2S", "3S"], ["2C", "3C"]], "4H"))
    screen = screen_on(app, table)
    screen.handle(app, "draw", None)
    html = screen.render(app)
    assert html.count(" drawn") == 1 and "neu auf der Hand" in html
    drawn = [card for card in table.state["hands"][0] if card not in ("5H", "9C")][0]
    said = html.split('data-testid="drawn-said" aria-live="polite">', 1)[1].split("</p>", 1)[0]
    assert said == "Gezogen: %s." % card_name(drawn), "a screen reader hears which card came (an audit)"
    app2 = ScreenApp()
    table2 = local_table(app2, arranged([["5H", "9C"], ["2S", "3S"], ["2C", "3C"]], "4H"))
    screen2 = screen_on(app2, table2)
    screen2.handle(app2, "mau", None)
    assert screen2.mau is True
    screen2.handle(app2, "card", "5H")
    assert table2.state["log"][-1] == {"type": "play", "seat": 0, "card": "5H", "mau": True}


def test_mau_with_more_than_two_cards_only_explains():
    app = ScreenApp()
    table = local_table(app, arranged([["5H", "9C", "2D"], ["2S", "3S"], ["2C", "3C"]], "4H"))
    screen = screen_on(app, table)
    screen.handle(app, "mau", None)
    assert screen.mau is False and "vorletzte" in app.toasts[-1]


def between_deals(app):
    state = maumau.new_game({"seats": 3, "names": ["Ich", "Anna", "Ben"]}, Rng(12))
    rng = Rng(3)
    while state["phase"] == "play":
        seat = state["turn"]
        maumau.apply_action(state, seat, bots.choose_medium(maumau.view(state, seat), rng))
    return local_table(app, state)


def test_computers_wait_between_deals_for_the_person_then_play_on():
    app = ScreenApp()
    table = between_deals(app)
    table.schedule_computers()
    assert app.timers == {}, "nobody presses Weiter for the person"
    assert table.view()["phase"] == "between"
    table.act("next")
    assert table.view()["phase"] == "play"


def test_between_deals_solo_adds_and_removes_computers():
    app = ScreenApp()
    table = between_deals(app)
    screen = screen_on(app, table)
    html = screen.render(app)
    assert 'data-testid="deal-summary"' in html and 'data-testid="add-player"' in html
    assert 'data-testid="remove-player-0"' not in html and 'data-testid="remove-player-2"' in html
    worst = max(table.state["minus"])
    screen.handle(app, "add-player", None)
    assert table.names() == ["Ich", "Anna", "Ben", "Clara"] and table.state["minus"][3] == worst
    assert [p["name"] for p in table.players()] == ["Ich", "Anna", "Ben", "Clara"]
    assert table.players()[3]["kind"] == COMPUTER
    screen.handle(app, "remove-player", "1")
    assert table.names() == ["Ich", "Anna", "Ben", "Clara"], "one tap asks (the button sits by Nächste Runde)"
    assert "Anna wirklich vom Tisch nehmen?" in screen.render(app)
    feed_before = screen.render(app).split('data-testid="feed"')[1].split("</ol>")[0]
    screen.handle(app, "remove-player", "1")
    assert table.names() == ["Ich", "Ben", "Clara"] and table.seat == 0
    # An accessibility audit: Anna's earlier moves turned into "Jemand legt …" and were read out again.
    feed_after = screen.render(app).split('data-testid="feed"')[1].split("</ol>")[0]
    assert "Jemand" not in feed_after and feed_before.count("Anna") <= feed_after.count("Anna")
    assert app.focus_requests[-1] == '[data-testid="add-player"]', "not the next computer's remove button"
    saved = app.storage.load_game("maumau")
    assert [p["name"] for p in saved["meta"]["players"]] == ["Ich", "Ben", "Clara"]
    screen.handle(app, "add-player", None)
    screen.handle(app, "add-player", None)
    assert len(table.names()) == 5
    assert 'data-testid="add-player" disabled' in screen.render(app) or "voll" in screen.render(app)
    screen.handle(app, "next-deal", None)
    assert table.view()["phase"] == "play" and len(table.view()["hand"]) == 7


def test_a_seat_that_is_out_is_offered_for_removal_only_to_make_room():
    app = ScreenApp()
    table = between_deals(app)
    state = table.state
    state["minus"][2], state["out"][2] = state["limit"] + 5, True  # Ben went over the limit: out
    table.save()
    screen = screen_on(app, table)
    html = screen.render(app)
    assert 'data-testid="remove-player-1"' in html and 'data-testid="remove-player-2"' not in html
    still_in = max(state["minus"][seat] for seat in (0, 1))
    assert "schlechtesten Spielers, der noch dabei ist (%d)" % still_in in html
    screen.handle(app, "add-player", None)
    screen.handle(app, "add-player", None)
    assert len(table.names()) == 5 and table.state["minus"][3] == still_in
    assert 'data-testid="remove-player-2"' in screen.render(app), "a full table makes room by removing Ben"


def test_a_room_phone_sees_the_summary_without_seat_editing_and_sends_next():
    app = ScreenApp()
    state = between_deals(app).state
    remote = ViewTable("maumau", state, 1, apply=True)
    screen = screen_on(app, remote)
    html = screen.render(app)
    assert 'data-testid="deal-summary"' in html and 'data-testid="next-deal"' in html
    assert "add-player" not in html and "remove-player" not in html and 'data-testid="pause"' not in html
    screen.handle(app, "next-deal", None)
    assert remote.sent == ["next"]
    html = screen.render(app)
    assert 'data-testid="hand"' in html and "deal-summary" not in html, "who starts the deal goes straight to it"


def test_a_settlement_stays_on_a_phone_while_another_seat_starts_the_next_deal():
    """Anna taps "Nächste Runde" first: Ben, still reading, keeps the points of deal 1 until he goes on."""
    app = ScreenApp()
    state = between_deals(app).state
    ben = ViewTable("maumau", state, 2)
    screen = screen_on(app, ben)
    settlement = screen.render(app)
    assert "Runde 1 ist vorbei" in settlement and 'data-testid="next-deal"' in settlement
    maumau.apply_action(state, 1, "next")  # Anna's tap reaches the host
    html = screen.render(app)
    assert 'data-testid="deal-summary"' in html and "Runde 1 ist vorbei" in html
    assert 'data-testid="hand"' not in html and 'data-testid="next-deal"' not in html
    assert 'data-testid="to-deal"' in html and "Zu Runde 2" in html
    own_turn = state["turn"] == 2
    started = "Runde 2 hat schon begonnen" + (", und du bist am Zug." if own_turn else ".")
    assert started in html
    rows = lambda page: page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    assert rows(html) == rows(settlement), "the same rows: cards left, points and totals of deal 1"
    assert screen.on_key(app, "ArrowRight") is False, "no hidden hand to move through"
    i18n.set_language("en")
    english = screen.render(app)
    assert "On to deal 2" in english and "Deal 2 has begun" in english and "Deal 1 is over" in english
    i18n.set_language("de")
    screen.handle(app, "to-deal", None)
    assert app.scrolled_to_top and ben.sent == []
    html = screen.render(app)
    assert 'data-testid="hand"' in html and "deal-summary" not in html
    assert 'data-testid="mm-table"' in html and "Runde 2" in html


def test_a_phone_that_never_drew_the_settlement_opens_the_running_deal():
    """A phone that reloads or joins after the next deal began has no settlement of its own to keep."""
    app = ScreenApp()
    state = between_deals(app).state
    maumau.apply_action(state, 0, "next")
    html = screen_on(app, ViewTable("maumau", state, 2)).render(app)
    assert 'data-testid="hand"' in html and "deal-summary" not in html


def ben_still_reading(app):
    """Return (state, Ben's phone, its screen): Ben drew deal 1's settlement, then Anna started deal 2."""
    state = between_deals(app).state
    ben = ViewTable("maumau", state, 2)
    screen = screen_on(app, ben)
    screen.render(app)
    maumau.apply_action(state, 1, "next")
    assert "to-deal" in screen.render(app)
    return state, ben, screen


def test_a_kept_settlement_goes_when_a_seat_leaves_the_table():
    """Seats are numbered anew when one leaves, so the kept rows would name the wrong people: the deal shows."""
    app = ScreenApp()
    state, ben, screen = ben_still_reading(app)
    maumau.remove_seat(state, 1)
    ben.seat = 1
    html = screen.render(app)
    assert 'data-testid="hand"' in html and "deal-summary" not in html


def test_a_kept_settlement_gives_way_to_the_next_one():
    """Ben never went on: when deal 2 ends, he sees deal 2's settlement, not deal 1's."""
    app = ScreenApp()
    state, _ben, screen = ben_still_reading(app)
    rng = Rng(5)
    while state["phase"] == "play":
        seat = state["turn"]
        maumau.apply_action(state, seat, bots.choose_medium(maumau.view(state, seat), rng))
    html = screen.render(app)
    assert "Runde 2 ist vorbei" in html and "to-deal" not in html
    assert ('data-testid="next-deal"' in html) == ("next" in maumau.view(state, 2)["legal"])


def test_infoscreen_shows_the_public_view_only():
    app = ScreenApp()
    state = arranged([["JC", "4H", "9S"], ["2S", "3S"], ["2C", "3C"]], "5H")
    screen = screen_on(app, ViewTable("maumau", state, None))
    html = screen.render(app)
    assert "mm-screen" in html and 'data-testid="hand"' not in html
    assert re.findall(r'data-card="([^"]+)"', html) == ["5H"], "the discard's top card is the only face"
    assert 'data-testid="player-2"' in html and 'data-testid="feed"' in html


def test_a_phone_before_its_first_view_shows_a_waiting_line():
    app = ScreenApp()

    class Waiting(ViewTable):
        def view(self):
            return None

    screen = screen_on(app, Waiting("maumau", None, 1))
    assert 'data-testid="waiting"' in screen.render(app)
    screen.handle(app, "draw", None)
    assert screen.on_key(app, "d") is False


def test_infoscreen_between_deals_and_at_the_end_shows_scores_without_controls_for_seats():
    app = ScreenApp()
    state = between_deals(app).state
    screen = screen_on(app, ViewTable("maumau", state, None))
    html = screen.render(app)
    assert 'data-testid="deal-summary"' in html and "mm-screen" in html
    assert "next-deal" not in html and "add-player" not in html and 'data-testid="hand"' not in html
    state["out"] = [False, True, True]
    html = screen.render(app)
    assert 'data-testid="final-headline"' in html and "Ich gewinnt!" in html
    assert 'data-testid="standing-0"' in html and "new-game" not in html


def feed_lines(html):
    feed = html.split('data-testid="feed">', 1)[1].split("</ol>", 1)[0]
    return re.findall(r"<li[^>]*>(.*?)</li>", feed)


def own_lines(html):
    """Return the feed's lines marked as this seat's own moves (a person given the device back is not told them)."""
    feed = html.split('data-testid="feed">', 1)[1].split("</ol>", 1)[0]
    return re.findall(r'<li data-own="1">(.*?)</li>', feed)


def test_a_returning_phones_room_note_counts_the_cards_a_forced_draw_took():
    """A 7 made the computer draw two cards for Anna while she was away: the room's note says two, not one."""
    from spieleabend.ui import room_screens

    app = ScreenApp()
    state = arranged([["7H", "KH", "QS", "10S"], ["5D", "6C", "8D"]], "10H", turn=0)
    for seat, action in [(0, "play 7H"), (1, "draw"), (0, "play KH"), (1, "draw")]:
        maumau.apply_action(state, seat, action)
    phone = ViewTable("maumau", state, 1)
    phone.stood_in = ["draw", "draw"]
    screen = screen_on(app, phone)
    assert room_screens.stood_in_moves(phone, screen, phone.stood_in) == ["2 Karten gezogen", "eine Karte gezogen"]
    i18n.set_language("en")
    try:
        assert room_screens.stood_in_moves(phone, screen, phone.stood_in) == ["drew 2 cards", "drew a card"]
    finally:
        i18n.set_language("de")


def test_a_returning_phones_feed_words_the_computers_moves_for_it_as_the_computers():
    """Issue 28: a phone back in the room reads "Der Computer legt für dich …", not "Du legst …", for what a
    computer played while it was away; its own earlier moves stay "Du", the others' keep their names."""
    app = ScreenApp()
    state = arranged([["4H", "9S", "KS", "QC"], ["5H", "6H", "7D"]], "10H", turn=1)
    for seat, action in [(1, "play 5H"), (0, "play 4H"), (1, "draw"), (0, "draw"), (1, "play 6H")]:
        maumau.apply_action(state, seat, action)
    phone = ViewTable("maumau", state, 1)
    phone.stood_in = ["draw", "play 6H"]  # the host's `stood_in` message: the computer's two moves for Anna
    html = screen_on(app, phone).render(app)
    lines = feed_lines(html)
    assert lines[0] == "Der Computer legt für dich Herz 6."
    assert "Der Computer zieht für dich eine Karte." in lines
    assert "Du legst Herz 5." in lines, "her own move before she was away"
    assert "Ich legt Herz 4." in lines
    assert own_lines(html) == ["Du legst Herz 5."], "only what she did herself is marked as her own"
    i18n.set_language("en")
    lines = feed_lines(screen_on(app, phone).render(app))
    assert lines[0] == "The computer plays 6 of hearts for you." and "You play 5 of hearts." in lines
    # Once she moves herself the table forgets `stood_in`: "Du" again; a screen never says "you".
    phone.stood_in = None
    assert feed_lines(screen_on(app, phone).render(app))[0] == "You play 6 of hearts."
    i18n.set_language("de")
    screen_lines = feed_lines(screen_on(app, ViewTable("maumau", state, None)).render(app))
    assert screen_lines[0] == "Anna legt Herz 6."


def test_a_seat_out_before_the_deal_shows_dashes_not_a_deal_it_won():
    """Noah went out in an earlier deal: his row says "–" for cards and this deal's points, not "0" and "0",
    which read as having gone out first; a seat that went out by this deal's points still shows them."""
    app = ScreenApp()
    table = between_deals(app)
    state = table.state
    state["minus"][2], state["out"][2] = state["limit"] + 5, True
    state["last_deal"]["points"][2] = 0  # held no cards in this deal
    table.save()
    row = re.search(r'<tr[^>]*data-testid="player-2".*?</tr>', screen_on(app, table).render(app)).group(0)
    assert '<td class="cards">–</td><td>–</td>' in row, row
    state["last_deal"]["points"][2] = 12  # went out by this deal
    row = re.search(r'<tr[^>]*data-testid="player-2".*?</tr>', screen_on(app, table).render(app)).group(0)
    assert '<td class="cards">–</td>' not in row, row


def test_the_end_of_a_deal_is_shown_from_its_headline():
    """A newcomer's audit: scrolled down to a 17-card hand, "Runde 1 ist vorbei" began above the screen."""
    app = ScreenApp()
    table = local_table(app, maumau.new_game({"seats": 3, "names": ["Ich", "Anna", "Ben"]}, Rng(12)))
    screen_on(app, table)
    rng = Rng(3)
    for _ in range(500):
        view = table.view()
        if view["phase"] != "play":
            break
        app.scrolled_to_top = False
        if 0 in table.engine.to_move(table.state):
            table.act(bots.choose_medium(table.view_of(0), rng))
        app.run_timers()
    assert table.view()["phase"] in ("between", "over")
    assert app.scrolled_to_top, "the deal's end is drawn from its top"

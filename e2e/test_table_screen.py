"""The table screen during a game, on a 1280x720 TV: large names and cards, no text under 24 px, nothing past
the screen's edges.

Each of the five games (and each at its most seats with 24-character names, in German and in English, and
Kartenkampf's final standings): a room with the host, one phone and a table screen plays a few moves, then the
screen is measured as a person 3 m away would see it. Screenshots (and the page's markup) go to the directory in
E2E_SHOTS when it is set.
"""

import os

import pytest

from e2e.test_kit import choose_a_card, go_on, maumau_move, paodekuai_move, play_to_the_end
from e2e.test_kit import golf_move as golf_move_knocking_at_once
from spieleabend.testing import Room, dead_controls

SHOTS = os.environ.get("E2E_SHOTS")


def golf_move(device):
    """Golf: on to the next round, end the peek, else draw from the stock and discard it (never knock)."""
    for testid in ("next-round", "peek-done"):
        if device.by(testid).count():
            device.by(testid).click()
            return
    device.by("stock").click()
    device.by("discard-drawn").click()


# By game: the move, the start options, seats (computers fill those without a phone), moves to make, then where
# the seats' names and the table's cards are.
GAMES = {
    "punktejagd": (choose_a_card, (), 4, 2, ".pj-screen-seat .who", ".reveal-row .card"),
    "kartenkampf": (choose_a_card, (), 4, 2, ".kk-seat-name", ".kk-reveal li .card"),
    "maumau": (maumau_move, ("limit-30",), 4, 6, ".mm-pname", ".mm-centre .card"),
    "paodekuai": (paodekuai_move, ("deals-1",), 3, 6, ".pdk-seat-name", ".pdk-top-cards .card"),
    "golf": (golf_move, (), 4, 8, ".g-seat .g-name", ".g-grid .card, .g-pile .card"),
}
# The most seats each game takes: smaller cards then, but everything still on the screen and the names as large.
FULL_TABLES = {"punktejagd": 6, "kartenkampf": 8, "maumau": 5, "paodekuai": 3, "golf": 8}
# Names as long as a room allows (24 characters): the host's and the phone's.
LONG_NAMES = ("Anna-Katharina Schneider", "Maximilian Müller-Lüdens")
LOCALES = {"de": "de-DE", "en": "en-GB"}
SMALLEST_TEXT_PX = 24  # read from 3 m: no label below this

# What the screen shows, measured in the page: overflow, the seat names' smallest font, the cards' smallest
# height, and the [data-action] controls a person could see (a TV is never tapped: none should be there).
MEASURE = """([nameSelector, cardSelector]) => {
  const root = document.documentElement, shown = e => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden'; };
  const cut = [...document.querySelectorAll('#app *')].filter(shown).filter(e => {
    const r = e.getBoundingClientRect(); return r.right > innerWidth + 1 || r.bottom > innerHeight + 1; })
    .map(e => e.className || e.tagName).slice(0, 5);
  const sideways = [...document.querySelectorAll('#app *')].filter(shown)
    .filter(e => e.getBoundingClientRect().right > innerWidth + 1).map(e => e.className || e.tagName).slice(0, 5)
    .concat(root.scrollWidth > root.clientWidth ? ['(the page scrolls sideways)'] : []);
  // Text that does not fit its own box: spilled out of it, or cut with an ellipsis (a hidden label is 1 px wide).
  const spilled = [...document.querySelectorAll('#app *')].filter(shown)
    .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
    .filter(e => e.clientWidth > 1 && e.scrollWidth > e.clientWidth + 1)
    .map(e => e.className || e.tagName).slice(0, 5);
  // Every text the screen shows, but a card's own corners (the card's size is measured instead) and the text
  // only a screen reader gets (a 1 px box).
  const texts = [...document.querySelectorAll('#app *')].filter(shown)
    .filter(e => e.getBoundingClientRect().width > 1 && !e.closest('.card'))
    .filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
    .map(e => [parseFloat(getComputedStyle(e).fontSize), (e.className || e.tagName) + ': ' + e.textContent.trim().slice(0, 24)])
    .sort((a, b) => a[0] - b[0]);
  const names = [...document.querySelectorAll(nameSelector)].filter(shown);
  const cards = [...document.querySelectorAll(cardSelector)].filter(shown);
  return {
    scrolls: root.scrollWidth > root.clientWidth || root.scrollHeight > root.clientHeight,
    cut: cut, spilled: spilled, sideways: sideways,
    text_px: texts.length ? texts[0][0] : 0, small: texts.filter(t => t[0] < 24).slice(0, 8),
    names: names.length, name_px: Math.min(...names.map(e => parseFloat(getComputedStyle(e).fontSize))),
    cards: cards.length, card_px: Math.min(...cards.map(e => e.getBoundingClientRect().height)),
    controls: [...document.querySelectorAll('#app [data-action]')].filter(shown)
      .filter(e => !e.disabled && e.getAttribute('aria-disabled') !== 'true').map(e => e.dataset.action),
  };
}"""


def look(screen, name, selectors):
    # Measured once the cards are dealt in: mid-deal, a card still sliding in stood past the screen's foot (a
    # loaded machine measured the English screen so).
    screen.page.wait_for_selector("html:not([data-animating])", state="attached")
    if SHOTS:
        screen.page.screenshot(path=os.path.join(SHOTS, "tv-%s.png" % name))
        with open(os.path.join(SHOTS, "tv-%s.html" % name), "w", encoding="utf-8") as out:
            out.write(screen.page.inner_html("#app"))
    return screen.page.evaluate(MEASURE, list(selectors))


def play_a_little(room, game):
    """Open `game` at its usual table with one phone and the screen, make its few moves; return (room, what the
    screen shows)."""
    setup, seats = GAMES[game][1:3]
    played = room(game, phones=1, screen=True, seed=3, setup=setup, seats=seats)
    return played, make_moves(played, game, "%s-%d" % (game, seats))


def make_moves(played, game, shot_name):
    """Make the game's few moves on the devices whose turn it is; return what the screen shows then."""
    move, setup, usual_seats, moves, names, cards = GAMES[game]
    made = 0
    while made < moves and not played.host.is_over():
        device = next((device for device in played.players if device.is_my_turn()), None)
        if device is None:
            played.host.page.wait_for_timeout(25)  # the host's answer or a computer's move is on its way
            continue
        move(device)
        made += 1
    played.screen.wait(cards)  # the table's cards are there (Punktejagd and Kartenkampf: the first reveal)
    played.screen.page.wait_for_timeout(800)  # the last move's view and its animation reach the screen
    return look(played.screen, shot_name, (names, cards))


def check_mid_game(played, game, measured):
    """The screen a few moves into a game: every seat's name large, large cards, no text under 24 px, no controls."""
    assert not measured["scrolls"] and measured["cut"] == [] and measured["spilled"] == [], measured
    assert measured["names"] == GAMES[game][2] and measured["name_px"] >= 28, measured
    assert measured["text_px"] >= SMALLEST_TEXT_PX, measured["small"]
    assert measured["cards"] >= 1 and measured["card_px"] >= 120, measured
    assert measured["controls"] == [] and dead_controls(played.screen.page) == [], measured


def test_the_table_screen_fills_a_tv_mid_game(room):
    """Punktejagd a few moves in (the other four games are measured so on their way to the final standings)."""
    played, measured = play_a_little(room, "punktejagd")
    check_mid_game(played, "punktejagd", measured)


@pytest.mark.parametrize("game", list(FULL_TABLES))
def test_a_full_table_with_long_names_reads_from_3_m(devices, live_server, game):
    """The most seats, the host's and the phone's names 24 characters long, one screen in German and one in
    English at the same table: every name whole (it wraps, nothing cut off with an ellipsis), no text under
    24 px, cards still large enough, nothing past the screen's sides or its foot."""
    setup, names, cards = GAMES[game][1], GAMES[game][4], GAMES[game][5]
    seats = FULL_TABLES[game]
    # One room for both languages: a room's setup costs more than its few moves.
    played = Room(devices, live_server.url, game, phones=1, screen=False, seed=3, setup=setup, seats=seats,
                  names=LONG_NAMES[1:], start=False)
    screens = {}
    for language, locale in LOCALES.items():
        screens[language] = devices("screen-" + language, landscape=True, locale=locale)
        played.join_screen(screens[language], "TV " + language.upper())
    played.host.by("room-host-name").fill(LONG_NAMES[0])
    played.start()
    shown = {"de": make_moves(played, game, "%s-%d-de" % (game, seats))}
    screens["en"].wait(cards)  # the German screen waited for the last move's view to settle
    # A screen fits itself to the TV at each drawing and again 1.5 s later (web/index.html, fitScreen): just
    # after the reveal the English screen was once measured 36 px past its foot (2 of about 20 runs), fitted after.
    screens["en"].page.wait_for_timeout(1600)
    shown["en"] = look(screens["en"], "%s-%d-en" % (game, seats), (names, cards))
    for language, measured in shown.items():
        assert screens[language].page.evaluate("document.documentElement.lang") == language
        assert measured["sideways"] == [] and measured["spilled"] == [], (language, measured)
        assert not measured["scrolls"] and measured["cut"] == [], (language, measured)
        assert measured["names"] == seats and measured["name_px"] >= SMALLEST_TEXT_PX, (language, measured)
        assert measured["text_px"] >= SMALLEST_TEXT_PX, (language, measured["small"])
        assert measured["cards"] >= 1 and measured["card_px"] >= 60, (language, measured)


def play_to_a_summary(played, move):
    """Let whoever's turn it is move until a round or deal ends (its summary waits for a tap); return whether one did."""
    ended = lambda: any(device.by(testid).count() for device in played.players
                        for testid in ("next-round", "next-deal"))
    for _ in range(400):
        if ended() or played.host.is_over():
            break
        device = next((device for device in played.players if device.is_my_turn()), None)
        if device is None:
            played.host.page.wait_for_timeout(25)
            continue
        move(device)
    return ended()


def check_summary(played, game, names):
    """The screen's round or deal summary: no text under 24 px, nothing past the edges, no controls."""
    played.screen.page.wait_for_timeout(800)  # the summary's view and its animation reach the screen
    measured = look(played.screen, game + "-round-end", (names, ".card"))
    assert not measured["scrolls"] and measured["cut"] == [] and measured["spilled"] == [], measured
    assert measured["text_px"] >= SMALLEST_TEXT_PX, measured["small"]
    assert measured["controls"] == [] and dead_controls(played.screen.page) == [], measured


# Games played to their end for the final standings: the move, the start options (short games), whether a
# round's or deal's summary comes on the way (measured too), the names, the seed.
FINALS = {
    "kartenkampf": (choose_a_card, (), False, ".standing .who", 3),
    # Seed 1: 78 moves to the end, a deal's summary on the way (seed 3 took 296 and the file's longest minute).
    "maumau": (maumau_move, ("limit-30",), True, ".standing .who", 1),
    "paodekuai": (paodekuai_move, ("deals-2",), True, ".standing .who", 3),
    # Nine rounds, the people knocking at their first turn (a round is a lap then): its score sheet under the standings.
    "golf": (golf_move_knocking_at_once, (), True, ".standing .who", 3),
}


@pytest.mark.parametrize("game", list(FINALS))
def test_a_game_on_the_tv_mid_game_at_its_summaries_and_final_standings(room, game):
    """One game played to its end with the screen measured on the way: a few moves in (as Punktejagd's), the
    first deal's summary, then the final standings, every name large, nothing past the edges. One room for all
    three: a room's setup costs more than the moves between them."""
    move, setup, summary_first, names, seed = FINALS[game]
    played = room(game, phones=1, screen=True, seed=seed, setup=setup, seats=GAMES[game][2])
    check_mid_game(played, game, make_moves(played, game, "%s-%d" % (game, GAMES[game][2])))
    if summary_first:
        assert play_to_a_summary(played, move), "no deal ended"
        check_summary(played, game, names)
    play_to_the_end(played, move)
    for device in played.players:  # a last deal's settlement waits for its "next" tap
        device.wait("[data-testid=final-headline], [data-testid=next-round], [data-testid=next-deal]")
        go_on(device)
    played.screen.wait("[data-testid=final-headline]")
    played.screen.page.wait_for_timeout(800)
    measured = look(played.screen, game + "-final", (names, ".card"))
    assert not measured["scrolls"] and measured["cut"] == [] and measured["spilled"] == [], measured
    assert measured["text_px"] >= SMALLEST_TEXT_PX, measured["small"]
    assert measured["names"] == GAMES[game][2] and measured["name_px"] >= 28, measured
    assert measured["controls"] == [], measured


@pytest.mark.parametrize("game", ["punktejagd", "kartenkampf"])
def test_a_full_tables_final_standings_fit_the_tv(room, game):
    """The most seats played to the end: a TV cannot scroll, so a final taller than the screen is zoomed out
    until it fits (every place and the winner's line on the screen), not below two thirds."""
    seats = FULL_TABLES[game]
    played = room(game, phones=1, screen=True, seed=3, seats=seats)
    play_to_the_end(played, choose_a_card)
    played.screen.wait("[data-testid=final-headline]")
    played.screen.page.wait_for_timeout(800)
    measured = look(played.screen, "%s-%d-final" % (game, seats), (".standing .who", ".card"))
    assert not measured["scrolls"] and measured["cut"] == [] and measured["spilled"] == [], measured
    assert measured["names"] == seats, measured
    zoom = played.screen.page.evaluate("document.getElementById('app').style.zoom")
    assert zoom == "" or float(zoom) >= 0.66, zoom


# Boxes that overlap: each `over` element's text and the boxes of the `under` elements it lies on.
OVERLAPS = """([over, under]) => {
  const box = e => e.getBoundingClientRect(), shown = e => { const r = box(e); return r.width > 0 && r.height > 0
    && getComputedStyle(e).visibility !== 'hidden'; };
  const hits = [];
  for (const top of [...document.querySelectorAll(over)].filter(shown)) {
    const r = box(top);
    for (const below of [...document.querySelectorAll(under)].filter(shown)) {
      const q = box(below);
      if (r.left < q.right - 1 && q.left < r.right - 1 && r.top < q.bottom - 1 && q.top < r.bottom - 1)
        hits.push(top.textContent.trim() + ' over ' + (below.dataset.testid || below.className));
    }
  }
  return hits;
}"""


@pytest.mark.parametrize("seats", [4, 8])
def test_golfs_status_badges_leave_every_card_free_on_a_tv(room, seats):
    """While people still look at their bottom two cards the screen says so ("schaut …") on their seats, beside the
    cards, never over them (laid over the grid it hid the top row), and the table still fits the screen."""
    played = room("golf", phones=1, screen=True, seed=3, seats=seats)
    page = played.screen.page
    page.wait_for_selector(".g-seat .g-status:text('schaut')")
    page.wait_for_timeout(300)
    assert page.evaluate(OVERLAPS, [".g-status", ".g-grid .card, .g-pile .card, .g-name"]) == []
    measured = look(played.screen, "golf-%d-peek" % seats, (".g-seat .g-name", ".g-grid .card"))
    assert not measured["scrolls"] and measured["cut"] == [] and measured["spilled"] == [], measured
    assert measured["text_px"] >= SMALLEST_TEXT_PX, measured["small"]


# Where the stock's counter is: its box and the stock card's, and whether they meet at the card's lower right corner.
STOCK_COUNTER = """() => {
  const stock = document.querySelector('[data-testid=draw-pile]');
  const card = stock.querySelector('.card').getBoundingClientRect(), count = stock.querySelector('.mm-count').getBoundingClientRect();
  const overlaps = count.left < card.right && card.left < count.right && count.top < card.bottom && card.top < count.bottom;
  const near = Math.abs(count.right - card.right) <= count.width && Math.abs(count.bottom - card.bottom) <= count.height;
  return {attached: overlaps && near, card: [card.left, card.top, card.right, card.bottom].map(Math.round),
          count: [count.left, count.top, count.right, count.bottom].map(Math.round)};
}"""
EFFECT_BADGES = "[data-testid=wished-suit], [data-testid=pending-draw], [data-testid=skipped], [data-testid=again]"


def test_the_maumau_stock_counter_stays_on_the_stock_at_every_size(room):
    """The stock's card counter sits on the stock's corner on a TV of any size, also when a wish, a skip or cards
    to draw make the line of badges under the piles wider than the piles (it widened the stock's column, and the
    counter floated away from the card)."""
    played = room("maumau", phones=1, screen=True, seed=3, setup=("limit-30",), seats=4)
    page = played.screen.page
    for _ in range(150):
        assert not played.host.is_over(), "no wish, skip or cards to draw in the whole game"
        device = next((device for device in played.players if device.is_my_turn()), None)
        if device is None:
            played.host.page.wait_for_timeout(25)
            continue
        # A person's turn: the table stands still until that person moves; wait until the screen shows it too.
        page.wait_for_selector("[data-testid=mm-table][data-turn='%s']" % device.game_seat)
        page.wait_for_timeout(300)
        if page.locator(EFFECT_BADGES).count():
            break
        maumau_move(device)
    else:
        raise AssertionError("no wish, skip or cards to draw within 150 moves")
    for width, height in [(1280, 720), (1920, 1080), (1366, 768), (1024, 600)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)
        where = page.evaluate(STOCK_COUNTER)
        assert where["attached"], ((width, height), where)
        if SHOTS:
            page.screenshot(path=os.path.join(SHOTS, "tv-maumau-stock-%dx%d.png" % (width, height)))

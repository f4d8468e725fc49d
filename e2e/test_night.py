"""A game night in a real Chromium: several games against computers, the evening's table and chart,
Ergebnisse with filter and score charts, past evenings, and the backup of everything."""

import json

from playwright.sync_api import expect

from spieleabend.testing import join, open_app, open_room, reopen
from e2e.test_accessibility import serious_violations
from spieleabend.games import kartenkampf
from spieleabend.games.common import Rng

NIGHT_KEY = "spieleabend.night"
RESULTS_KEY = "spieleabend.results"
# Kartenkampf, you first: 55:55, best round 14:14, rounds won 5:5 -> no winner, no point.
UNDECIDED = [[1, 8], [10, 4], [2, 6], [6, 5], [7, 3], [8, 2], [4, 10], [3, 7], [5, 9], [9, 1]]


def stored(page, key):
    return json.loads(page.evaluate("k => localStorage.getItem(k)", key) or "null")


def tonight(page):
    return stored(page, NIGHT_KEY)["current"]["id"]


def play_punktejagd(page, url, seed, computers):
    """Play a whole seeded Punktejagd game (always the first card in hand); return the final headline."""
    page.goto("%s/?seed=%d&pace=0#/play/punktejagd" % (url, seed))
    page.wait_for_selector("[data-testid=start-game]")
    page.get_by_test_id("player-name").fill("Testerin")
    page.get_by_test_id("seats-%d" % (computers + 1)).check()
    page.get_by_test_id("strength-leicht").check()
    page.get_by_test_id("start-game").click()
    for _ in range(10):
        page.locator("[data-testid=hand] [data-value]").first.click()
        page.get_by_test_id("confirm").click()
        page.get_by_test_id("next-round").click()
    return page.get_by_test_id("final-headline").inner_text()


def finish_kartenkampf_undecided(page, url):
    """Continue a Kartenkampf save one choice before its end (tonight's) against the computer Ben and make the
    last choice."""
    state = kartenkampf.new_game({"seats": 2, "names": ["Testerin", "Ben"]}, Rng(5))
    for cards in UNDECIDED[:-1]:
        for seat in range(2):
            kartenkampf.apply_action(state, seat, "play %d" % cards[seat])
    kartenkampf.apply_action(state, 1, "play %d" % UNDECIDED[-1][1])
    meta = {"players": [{"name": "Testerin", "kind": "person", "strength": None},
                        {"name": "Ben", "kind": "computer", "strength": "random"}],
            "seat": 0, "options": {"seats": 2}, "bot_rng": Rng(6).state, "started_at": 1,
            "night": tonight(page), "history": [], "round": 10}
    document = {"format": 1, "game": "kartenkampf", "state": state, "meta": meta}
    page.evaluate("doc => localStorage.setItem('spieleabend.save.kartenkampf', JSON.stringify(doc))", document)
    page.goto(url + "/?pace=0#/play/kartenkampf/continue")
    page.get_by_test_id("card-%d" % UNDECIDED[-1][0]).click()
    page.get_by_test_id("confirm").click()
    page.wait_for_function("() => (JSON.parse(localStorage.getItem('%s') || '{\"results\": []}').results || [])"
                           ".some(r => r.game === 'kartenkampf')" % RESULTS_KEY)


def add_shared_golf(page):
    """Record a finished Golf game of tonight with a shared win (a prepared result, as Golf would write it)."""
    page.evaluate("""night => {
        const doc = JSON.parse(localStorage.getItem('spieleabend.results'));
        doc.results.unshift({game: 'golf', finished_at: Date.now(), started_at: Date.now() - 60000,
            players: ['Testerin', 'Anna'], scores: [21, 21], winners: ['Testerin', 'Anna'], my_score: 21, seat: 0,
            night: night, history: [[0, 0], [8, 5], [21, 21]], room: null});
        localStorage.setItem('spieleabend.results', JSON.stringify(doc));
    }""", tonight(page))


def point_to(headline):
    """Return who earned the evening's point from a Punktejagd final headline (None for a shared win)."""
    if headline == "Du gewinnst!":
        return "Testerin"
    if headline.endswith(" gewinnt!"):
        return headline[:-len(" gewinnt!")]
    assert headline.startswith("Geteilter Sieg"), headline
    return None


def table_rows(page, testid="night-table"):
    return page.get_by_test_id(testid).locator("tbody tr").evaluate_all(
        "rows => rows.map(r => [r.dataset.player, Number(r.dataset.points), Number(r.dataset.games), Number(r.dataset.wins),"
        " r.dataset.computer === 'true'])")


def test_an_evening_of_three_games_ends_with_the_right_table_and_chart(page, live_server):
    url = live_server.url
    open_app(page, url, "night/new")
    page.get_by_test_id("night-name-0").fill("Testerin")
    page.get_by_test_id("night-name-1").fill("Anna")
    page.get_by_test_id("night-start").click()
    expect(page.get_by_test_id("night-table")).to_be_visible()
    assert table_rows(page) == [["Testerin", 0, 0, 0, False], ["Anna", 0, 0, 0, False]], "the people named have rows at once"

    first = point_to(play_punktejagd(page, url, seed=4, computers=2))       # Testerin, Ben and Clara: no computer is Anna
    finish_kartenkampf_undecided(page, url)                                 # Testerin and the computer Ben, no winner
    add_shared_golf(page)                                                   # Testerin and Anna share the win

    expected = {"Testerin": 0, "Anna": 0, "Ben": 0, "Clara": 0}
    if first:
        expected[first] += 1
    reopen(page, url + "/#/night")
    page.wait_for_selector("[data-testid=night-table]")
    rows = table_rows(page)
    assert {row[0]: row[1] for row in rows} == expected
    assert {row[0]: row[2] for row in rows} == {"Testerin": 3, "Anna": 1, "Ben": 2, "Clara": 1}, \
        "the computer Ben is one row across games"
    assert {row[0] for row in rows if row[4]} == {"Ben", "Clara"}, "the computers' rows are marked"
    assert {row[0]: row[3] for row in rows} == {name: expected[name] + (name in ("Testerin", "Anna")) for name in expected}, \
        "the shared Golf win counts as won, without a point"
    assert [row[1] for row in rows] == sorted([row[1] for row in rows], reverse=True), "most points first"
    verdicts = page.get_by_test_id("night-game").evaluate_all("items => items.map(i => [i.dataset.game, i.dataset.verdict])")
    assert verdicts[1:] == [["kartenkampf", "none"], ["golf", "shared"]]
    assert "Kein Sieger – kein Punkt" in page.get_by_test_id("night-game").nth(1).inner_text()
    assert "Geteilter Sieg: Testerin, Anna – kein Punkt" in page.get_by_test_id("night-game").nth(2).inner_text()
    per_game = page.get_by_test_id("night-per-game")
    assert per_game.locator('tr[data-player="Ben"] td[data-game="kartenkampf"]').inner_text() == "0 / 1"
    bars = page.get_by_test_id("night-chart").locator("rect[data-player]").evaluate_all(
        "bars => bars.map(b => [b.dataset.player, Number(b.dataset.points)])")
    assert {name: points for name, points in bars} == expected
    alt = page.get_by_test_id("night-chart").locator("svg.chart").get_attribute("aria-label")
    assert all(name in alt for name in expected)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious_violations(page) == []

    # Ergebnisse: three games, filter by game, the newest with its score chart.
    page.goto(url + "/#/results")
    items = page.get_by_test_id("result-item")
    expect(items).to_have_count(3)
    assert items.evaluate_all("items => items.map(i => i.dataset.game)") == ["golf", "kartenkampf", "punktejagd"]
    chart = items.first.get_by_test_id("score-chart")
    assert chart.locator("polyline").count() == 2, "one line per player"
    assert "Testerin 21, Anna 21" in chart.locator("svg.chart").get_attribute("aria-label")
    assert chart.locator("details tbody tr").count() == 3, "start and two rounds as a table"
    items.nth(2).get_by_test_id("show-chart").click()
    chart = items.nth(2).get_by_test_id("score-chart")
    assert chart.locator("polyline").count() == 3, "the Punktejagd game: three players"
    assert chart.locator("details tbody tr").count() == 11, "start and ten rounds"
    page.get_by_test_id("result-filter").select_option("kartenkampf")
    expect(items).to_have_count(1)
    assert "Kein Sieger" in items.first.inner_text()
    page.get_by_test_id("result-filter").select_option("")
    expect(items).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert serious_violations(page) == []

    # A new evening starts empty; the last one is listed with its table.
    page.goto(url + "/#/night")
    page.get_by_test_id("new-night").click()
    page.get_by_test_id("night-name-0").fill("Testerin")
    page.get_by_test_id("night-start").click()
    expect(page.get_by_test_id("night-table")).to_be_visible()
    assert table_rows(page) == [["Testerin", 0, 0, 0, False]]
    page.goto(url + "/#/results")
    past = page.get_by_test_id("past-night")
    expect(past).to_have_count(1)
    past.get_by_test_id("past-night-toggle").click()
    assert {row[0]: row[1] for row in table_rows(past, "past-night-table")} == expected


def prepared_results(night_id):
    """Finished games of all five kinds, with score histories."""
    games = [("punktejagd", ["Ada", "Bo"], ["Ada"]), ("kartenkampf", ["Ada", "Bo", "Cy"], ["Bo", "Cy"]),
             ("maumau", ["Ada", "Bo"], ["Bo"]), ("paodekuai", ["Ada", "Bo", "Cy"], ["Cy"]), ("golf", ["Ada", "Bo"], [])]
    out = []
    for index, (game, players, winners) in enumerate(games):
        history = [[0] * len(players)] + [[(r + 1) * (s + 2) * (1 if game != "paodekuai" else -1 if s else 2)
                                          for s in range(len(players))] for r in range(4)]
        out.append({"game": game, "players": players, "winners": winners, "scores": history[-1],
                    "finished_at": 1_790_000_000_000 + index * 60000, "started_at": 1_790_000_000_000,
                    "my_score": history[-1][0], "seat": 0, "night": night_id, "history": history, "room": None})
    return list(reversed(out))


def test_results_of_all_five_games_backup_and_restore(page, browser, live_server, tmp_path):
    url = live_server.url
    open_app(page, url, "night")
    night_id = tonight(page)
    page.evaluate("doc => localStorage.setItem('spieleabend.results', JSON.stringify(doc))",
                  {"format": 1, "results": prepared_results(night_id)})
    reopen(page, url + "/#/results")
    items = page.get_by_test_id("result-item")
    assert items.count() == 5
    for game in ("punktejagd", "kartenkampf", "maumau", "paodekuai", "golf"):
        page.get_by_test_id("result-filter").select_option(game)
        expect(items).to_have_count(1)
        assert items.first.get_attribute("data-game") == game
    page.get_by_test_id("result-filter").select_option("paodekuai")
    page.get_by_test_id("show-chart").count() == 0  # the newest shown has its chart open
    assert items.first.get_by_test_id("score-chart").locator("polyline").count() == 3

    with page.expect_download() as download:
        page.get_by_test_id("export-all").click()
    backup = tmp_path / "backup.json"
    download.value.save_as(backup)
    assert json.loads(backup.read_text())["kind"] == "spieleabend.backup"

    fresh = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE", reduced_motion="reduce")
    other = fresh.new_page()
    open_app(other, url, "results")
    before = other.evaluate("JSON.stringify(Object.entries(localStorage).sort())")
    damaged = tmp_path / "damaged.json"
    damaged.write_text(backup.read_text()[:-30])
    other.get_by_test_id("import-all").set_input_files(str(damaged))
    expect(other.get_by_test_id("import-problem")).to_contain_text("beschädigt")
    assert other.evaluate("JSON.stringify(Object.entries(localStorage).sort())") == before, "a damaged file changes nothing"
    other.get_by_test_id("import-all").set_input_files(str(backup))
    expect(other.get_by_test_id("result-item")).to_have_count(5)
    # Nothing played tonight on the new device: the backup's evening goes on here, with its five games.
    assert other.get_by_test_id("past-night").count() == 0, "not a past evening"
    other.goto(url + "/#/night")
    expect(other.get_by_test_id("night-game")).to_have_count(5)
    fresh.close()


def test_more_results_take_the_focus_to_the_first_game_they_show(page, live_server):
    """"Mehr zeigen" goes when nothing more is left: the focus lands on the first game it added, not on the page."""
    url = live_server.url
    open_app(page, url, "night")
    games = [dict(result, finished_at=result["finished_at"] + 300000 * round_)
             for round_ in range(5) for result in prepared_results(tonight(page))]  # 25 games, 20 shown at first
    page.evaluate("doc => localStorage.setItem('spieleabend.results', JSON.stringify(doc))",
                  {"format": 1, "results": sorted(games, key=lambda result: -result["finished_at"])})
    reopen(page, url + "/#/results")
    items = page.get_by_test_id("result-item")
    expect(items).to_have_count(20)
    page.get_by_test_id("results-more").click()
    expect(items).to_have_count(25)
    expect(page.get_by_test_id("results-more")).to_have_count(0)
    assert page.evaluate("() => [...document.querySelectorAll('[data-testid=result-item]')]"
                         ".indexOf(document.activeElement)") == 20


def test_people_taken_from_the_hosted_room(page, live_server):
    open_app(page, live_server.url)
    players = [{"name": "Host", "kind": "person"}, {"name": "Mia", "kind": "remote"}, {"name": "Anna", "kind": "computer"}]
    page.evaluate("doc => localStorage.setItem('spieleabend.save.punktejagd', JSON.stringify(doc))",
                  {"format": 1, "game": "punktejagd", "state": {"names": ["Host", "Mia", "Anna"]},
                   "meta": {"players": players, "seat": 0, "room": {"code": "ABCD"}}, "saved_at": 1})
    reopen(page, live_server.url + "/#/night/new")
    page.get_by_test_id("night-name-0").fill("Host")
    page.get_by_test_id("night-from-room").click()
    values = page.locator("[data-testid^=night-name-]").evaluate_all("inputs => inputs.map(i => i.value)")
    assert [v for v in values if v] == ["Host", "Mia"]
    assert serious_violations(page) == []
    page.get_by_test_id("night-start").click()
    assert table_rows(page) == [["Host", 0, 0, 0, False], ["Mia", 0, 0, 0, False]]


def test_in_a_room_phones_and_the_infoscreen_show_tonights_table(devices, live_server):
    host, phone, screen = devices("host"), devices("phone"), devices("tv", landscape=True)
    open_app(host.page, live_server.url, "night")
    night_id = tonight(host.page)
    host.page.evaluate("doc => localStorage.setItem('spieleabend.results', JSON.stringify(doc))", {
        "format": 1, "results": [{"game": "golf", "players": ["Hosti", "Anna"], "winners": ["Anna"],
                                  "scores": [9, 4], "finished_at": 5, "night": night_id}]})
    reopen(host.page, live_server.url + "/")
    link = open_room(host, live_server.url, "punktejagd")
    join(phone, live_server.url, link, "Anna")
    join(screen, live_server.url, link, "TV", as_screen=True)
    for device in (phone, screen):
        # The lobby message with tonight's table may arrive a moment after the join.
        device.page.wait_for_selector("[data-testid=room-night-table] tbody tr[data-player]")
        rows = table_rows(device.page, "room-night-table")
        assert rows == [["Anna", 1, 1, 1, False], ["Hosti", 0, 1, 0, False]], device.name
    assert screen.page.evaluate("document.documentElement.scrollWidth") <= 1280


def test_an_evening_of_all_five_games_fits_a_phone_without_sideways_scrolling(page, live_server):
    """An audit: with five games the "Nach Spielen" table ran to 478 px in a 328 px box ("Kartenka" cut, Punktejagd
    out of sight), and the results' evening table stuck out of its panel by a few pixels."""
    url = live_server.url
    open_app(page, url, "night")
    people = ["Testerin", "Anna", "Ben", "Clara"]
    results = []
    for result in prepared_results(tonight(page)):  # names and computers as a real evening has them
        players = people[:len(result["players"])]
        results.append(dict(result, players=players, computers=players[1:], winners=players[:1]))
    page.evaluate("doc => localStorage.setItem('spieleabend.results', JSON.stringify(doc))",
                  {"format": 1, "results": results})
    for route, testids in (("night", ["night-table", "night-per-game"]), ("results", ["night-table"])):
        reopen(page, url + "/#/" + route)
        for testid in testids:
            table = page.get_by_test_id(testid)
            assert table.evaluate("t => t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right"
                                  " - parseFloat(getComputedStyle(t.parentElement).paddingRight) + 0.5"), (route, testid)
            assert table.evaluate("t => t.scrollWidth <= t.parentElement.clientWidth"), (route, testid)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    reopen(page, url + "/#/night")
    header = page.get_by_test_id("night-per-game").locator("thead th").evaluate_all("ths => ths.map(th => th.textContent)")
    assert header[1:] == ["Punkte\u00adjagd", "Karten\u00adkampf", "Mau-Mau", "Pao De Kuai", "Golf"], "breaks where German does"

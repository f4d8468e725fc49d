"""The app shell in a real Chromium: home, settings, language, damaged saves, layout, offline."""

import json

import pytest
from playwright.sync_api import expect

from spieleabend.testing import ConsoleWatch, app_worker, open_app, phone_context, start_solo, tap_without_waiting
from spieleabend.games import GAME_MODULES


@pytest.fixture(scope="module")
def live_server(shipped_server):
    """The app as people get it: a first visit, the bundle it fetches, the idle-time compile."""
    return shipped_server


@pytest.fixture(scope="module")
def server_config():
    """`own_server` (an offline start) as people get it too."""
    return {}


def test_home_lists_the_five_games_without_console_errors(page, live_server):
    open_app(page, live_server.url)
    tiles = page.locator(".game-tile")
    assert tiles.count() == 5
    for game in GAME_MODULES:
        tile = page.get_by_test_id("game-" + game)
        assert tile.get_attribute("href") == "#/play/" + game
        assert "Bald" not in tile.inner_text()
    assert page.locator("#loading").count() == 0
    assert page.get_by_test_id("nav-results").is_visible()
    assert page.get_by_test_id("nav-settings").is_visible()


def page_effects(page):
    """Return (the app's filter, whether the colour tint layer is drawn) as the browser applies them."""
    return page.evaluate("""[getComputedStyle(document.documentElement).filter,
                              getComputedStyle(document.body, '::after').display !== 'none']""")


def test_settings_persist_across_a_reload(page, live_server):
    open_app(page, live_server.url, "settings")
    # Neutral contrast and colour temperature cost no filter or blend over the page.
    assert page_effects(page) == ["none", False]
    page.get_by_test_id("setting-temperature").fill("70")
    page.get_by_test_id("setting-contrast").fill("80")
    page.get_by_test_id("setting-grain").fill("10")
    page.get_by_label("Bewegung reduzieren").check()
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    assert page.get_by_test_id("setting-contrast").input_value() == "80"
    assert page.get_by_test_id("setting-grain").input_value() == "10"
    assert page.get_by_label("Bewegung reduzieren").is_checked()
    assert page.evaluate("document.documentElement.dataset.motion") == "reduce"
    contrast = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--contrast')")
    assert abs(float(contrast) - 1.12) < 1e-6
    assert page_effects(page) == ["contrast(1.12)", True]
    # A sheet or toast fixed to the screen stays the screen's size under the filter (on #app it took the page's).
    fixed = page.evaluate("""() => { const probe = document.createElement('div');
        probe.style.cssText = 'position: fixed; inset: 0'; document.getElementById('app').appendChild(probe);
        const height = probe.getBoundingClientRect().height; probe.remove();
        return [height, innerHeight, document.documentElement.scrollHeight]; }""")
    assert fixed[0] == fixed[1] < fixed[2], fixed
    page.get_by_test_id("setting-temperature").fill("50")
    page.get_by_test_id("setting-contrast").fill("50")
    # Reduced motion still eases every change over 1 ms: the filter is gone one frame later.
    page.wait_for_function("getComputedStyle(document.documentElement).filter === 'none'", timeout=2000)
    assert page_effects(page) == ["none", False]


def test_grain_and_tint_lie_over_the_whole_of_a_long_page(page, live_server):
    open_app(page, live_server.url, "settings")
    # Both layers are drawn on the page, not fixed to the screen (such a layer with a blend the
    # compositor blends again for every frame): scrolled to the end, the page still shows them.
    assert page.evaluate("[getComputedStyle(document.body, '::before').position,"
                         " getComputedStyle(document.body, '::after').position]") == ["absolute", "absolute"]
    assert page.evaluate("document.documentElement.scrollHeight > innerHeight + 100")
    bottom = {"x": 0, "y": page.viewport_size["height"] - 60, "width": page.viewport_size["width"], "height": 60}

    def bottom_strip(testid, value, drawn):
        page.get_by_test_id(testid).fill(str(value))
        page.wait_for_function(drawn, arg=value)
        page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        return page.screenshot(clip=bottom, animations="disabled")

    grain = "v => getComputedStyle(document.body, '::before').opacity === String(v * 0.0016)"
    assert bottom_strip("setting-grain", 100, grain) != bottom_strip("setting-grain", 0, grain)
    tint = "v => document.documentElement.hasAttribute('data-tint') === (v !== 50)"
    neutral = bottom_strip("setting-temperature", 50, tint)
    warm, cool = bottom_strip("setting-temperature", 100, tint), bottom_strip("setting-temperature", 0, tint)
    assert len({neutral, warm, cool}) == 3


def test_language_switch_changes_the_texts(page, live_server):
    open_app(page, live_server.url, "settings")
    assert page.locator("h1").inner_text() == "Einstellungen"
    page.get_by_test_id("setting-language").select_option("en")
    page.wait_for_function("document.querySelector('h1').textContent === 'Settings'")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.get_by_test_id("nav-home").click()
    page.wait_for_selector("text=Results")
    assert page.get_by_test_id("nav-settings").inner_text() == "Settings"
    assert "Four hidden cards" in page.get_by_test_id("game-golf").inner_text()
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    assert page.get_by_test_id("nav-results").inner_text() == "Results"


def test_damaged_save_shows_a_message_and_the_app_still_works(page, live_server):
    open_app(page, live_server.url)
    page.evaluate("""() => {
        localStorage.setItem('spieleabend.save.punktejagd', '{"format": 1, "game": "punktejagd", "state": {');
        localStorage.setItem('spieleabend.settings', JSON.stringify({format: 7, settings: {}}));
    }""")
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    notices = page.get_by_test_id("damaged-notice")
    assert notices.count() == 2
    texts = "\n".join(notices.all_inner_texts())
    assert "Deine gespeicherte Punktejagd-Partie konnte nicht gelesen werden." in texts, texts
    assert "Deine Einstellungen konnten nicht gelesen werden" in texts and "neueren Version" in texts, texts
    assert not [text for text in texts if "spieleabend." in text], "no storage key in words for people"
    kept = page.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('spieleabend.damaged.'))
                               .map(k => localStorage.getItem(k))""")
    assert '{"format": 1, "game": "punktejagd", "state": {' in kept
    assert json.dumps({"format": 7, "settings": {}}, separators=(",", ":")) in kept
    page.get_by_test_id("dismiss-notice").first.click()
    expect(page.get_by_test_id("damaged-notice")).to_have_count(0)  # the worker redraws after the tap
    page.get_by_test_id("nav-settings").click()
    page.wait_for_selector("text=Einstellungen")


def test_unreadable_settings_start_again_in_the_browsers_language(browser, live_server):
    context = phone_context(browser, locale="en-US")
    page = context.new_page()
    open_app(page, live_server.url)
    page.evaluate("() => localStorage.setItem('spieleabend.settings', '{{{nope')")
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    expect(page.get_by_test_id("damaged-notice")).to_contain_text("Your settings could not be read")
    assert page.locator("h1").inner_text() == "Game Night"
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.evaluate("localStorage.getItem('spieleabend.settings')") is None or \
        json.loads(page.evaluate("localStorage.getItem('spieleabend.settings')"))["settings"]["language"] == "en"
    kept = page.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('spieleabend.damaged.settings.'))
                               .map(k => localStorage.getItem(k))""")
    assert kept == ["{{{nope"]
    context.close()


def test_a_save_its_engine_cannot_go_on_with_is_set_aside_at_fortsetzen(page, live_server):
    # A made-up hand and hands gone altogether: damaged data, like a document that does not parse (a save
    # the engine goes on with but the table cannot draw stays: test_evening_path).
    game = "kartenkampf"
    for hand in ([11, 11, -1, "A", None], None):
        start_solo(page, live_server.url, game, [], seed=5)
        page.evaluate("""([game, hand]) => {
            const key = 'spieleabend.save.' + game, saved = JSON.parse(localStorage.getItem(key));
            if (hand === null) delete saved.state.hands; else saved.state.hands[0] = hand;
            localStorage.setItem(key, JSON.stringify(saved));
        }""", [game, hand])
        open_app(page, live_server.url)
        page.get_by_test_id("continue-" + game).click()
        expect(page.get_by_test_id("no-save")).to_be_visible()
        assert page.get_by_test_id("failure").count() == 0
        expect(page.get_by_test_id("damaged-notice")).to_contain_text("konnte nicht gelesen werden")
        expect(page.get_by_test_id("damaged-notice")).to_contain_text("Nichts wurde gelöscht")
        page.reload()
        page.wait_for_selector("html[data-app-ready]")
        assert page.get_by_test_id("continue-" + game).count() == 0, "nothing left to fail after a reload"
        kept = page.evaluate("""(game) => Object.keys(localStorage)
            .filter(k => k.startsWith('spieleabend.damaged.save.' + game + '.')).length""", game)
        assert kept == (1 if hand else 2), "the save is kept aside, not deleted"


def test_a_game_played_on_in_another_tab_rests_in_this_one(page, live_server):
    start_solo(page, live_server.url, "kartenkampf", ["seats-2"], seed=31)
    other = page.context.new_page()
    other.goto(live_server.url + "/?seed=31&pace=0#/play/kartenkampf/continue")
    other.wait_for_selector("html[data-app-ready]")
    other.wait_for_selector("[data-testid=hand]")
    card = page.locator("[data-testid^=card-]").first.get_attribute("data-testid")
    page.get_by_test_id(card).click()
    page.get_by_test_id("confirm").click()
    # The other tab would otherwise go on from round 1 and overwrite the round played here.
    expect(other.get_by_test_id("played-elsewhere")).to_be_visible()
    assert other.locator("[data-testid=hand]").count() == 0
    saved = page.evaluate("JSON.parse(localStorage.getItem('spieleabend.save.kartenkampf')).state")
    other.get_by_test_id("play-here").click()
    other.wait_for_selector("[data-testid=hand], [data-testid=reveal-title]")  # round 1's reveal, then round 2
    assert other.get_by_test_id(card).count() == 0, "the card played in the first tab is gone here too"
    assert page.evaluate("JSON.parse(localStorage.getItem('spieleabend.save.kartenkampf')).state")["hands"] == saved["hands"]
    other.close()


def test_a_game_replaced_or_ended_in_another_tab_is_said_so_in_this_one(page, live_server):
    """Not "Diese Partie ging weiter" when the other tab started a new game over it, or when none is left."""
    start_solo(page, live_server.url, "kartenkampf", ["seats-2"], seed=31)
    other = page.context.new_page()
    other.goto(live_server.url + "/?seed=32&pace=0#/play/kartenkampf")
    other.wait_for_selector("html[data-app-ready]")
    other.get_by_test_id("seats-3").check()
    other.get_by_test_id("start-game").click()
    other.get_by_test_id("replace-confirm").click()
    other.wait_for_selector("[data-testid=hand]")
    notice = page.get_by_test_id("played-elsewhere")
    expect(notice).to_have_attribute("data-what", "replaced")
    assert "neue Partie begonnen" in notice.inner_text()
    assert page.get_by_test_id("play-here").inner_text() == "Die neue Partie hier spielen"
    page.get_by_test_id("play-here").click()
    page.wait_for_selector("[data-testid=hand]")
    assert page.locator("[data-testid^=seat-]").count() == 3, "the new game of three, not the old one of two"
    # The other tab deletes the save (as Einstellungen' "delete" does): none is left to play on here.
    other.evaluate("localStorage.removeItem('spieleabend.save.kartenkampf')")
    expect(page.get_by_test_id("played-elsewhere")).to_have_attribute("data-what", "gone")
    other.close()


def test_phone_viewport_has_no_horizontal_scrolling(page, live_server):
    for route in ("", "settings", "results"):
        open_app(page, live_server.url, route)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, (route, width)


def test_app_starts_offline_after_one_visit(context, own_server):
    page = context.new_page()
    open_app(page, own_server.url)
    page.evaluate("navigator.serviceWorker.ready")
    # Whoever is about to board a train can see that the first visit is done: at the foot, below the games
    # (above them it pushed them down seconds into a first visit).
    page.wait_for_selector("[data-testid=offline-ready]")
    assert "Bereit für unterwegs" in page.get_by_test_id("offline-ready").inner_text()
    tile, notice = page.get_by_test_id("game-golf").bounding_box(), page.get_by_test_id("offline-ready").bounding_box()
    assert notice["y"] > tile["y"] + tile["height"], (tile, notice)
    page.reload()  # now the worker controls the page
    page.wait_for_selector("html[data-app-ready]")
    assert page.evaluate("!!navigator.serviceWorker.controller")
    assert page.get_by_test_id("offline-ready").count() == 0, "said once, not at every start"
    own_server.stop()
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("html[data-app-ready]", timeout=60000)
    assert page.locator(".game-tile").count() == 5
    page.get_by_test_id("nav-settings").click()
    page.wait_for_selector("text=Einstellungen")
    # The page came from the release's cache by a static route, without waiting for the worker.
    navigation = page.evaluate("performance.getEntriesByType('navigation')[0].toJSON()")
    assert navigation["workerFinalSourceType"] == "cache"
    # The app's worker got brython.js and the bundle (sources, compiled start modules) from the
    # release's cache too.
    scripts = app_worker(page).evaluate("performance.getEntriesByType('resource').map(e => e.name)")
    assert any("/assets/brython." in url for url in scripts), scripts
    assert any("/assets/spieleabend-bundle." in url for url in scripts), scripts
    # A start with a query (a tester's seed) is not a static route: the worker serves it, offline too.
    seeded = context.new_page()
    seeded.goto(own_server.url + "/?seed=7")
    seeded.wait_for_selector("html[data-app-ready]", timeout=60000)
    assert seeded.locator(".game-tile").count() == 5


# -- first visit: the pre-rendered home ---------------------------------------------------------

MARKUP_AT_FIRST_PAINT = """
document.addEventListener("DOMContentLoaded", () => {
  window.__firstMarkup = document.getElementById("app").innerHTML;
  window.__firstLang = document.documentElement.lang;
  window.__firstHeading = document.querySelector("#app h1");
});
"""


def hold_brython(page):
    """Keep Brython from arriving (its requests stay unanswered): the page shows what the server sent and
    the inline script made of it, as on a slow network."""
    held = []
    page.route("**/assets/brython.*", lambda route: held.append(route))
    return held


def test_home_is_there_before_python_and_python_takes_over_with_the_same_markup(browser, live_server):
    for locale, title, tile in (("de-DE", "Spieleabend", "Punktejagd"), ("en-US", "Game Night", "Point Hunt")):
        # No service worker: a first visit's "Bereit für unterwegs" (at the foot) would come in at its own time.
        context = phone_context(browser, locale=locale, service_workers="block")
        bare = context.new_page()
        hold_brython(bare)
        bare.goto(live_server.url + "/", wait_until="domcontentloaded")
        assert bare.locator("h1").inner_text() == title
        assert bare.get_by_test_id("game-punktejagd").is_visible()
        assert tile in bare.get_by_test_id("game-punktejagd").inner_text()
        assert bare.locator("#loading").is_hidden()
        assert not bare.evaluate("document.documentElement.hasAttribute('data-app-ready')")
        bare.close()

        page = context.new_page()
        watch = ConsoleWatch(page)
        page.add_init_script(MARKUP_AT_FIRST_PAINT)
        open_app(page, live_server.url)
        assert page.evaluate("window.__firstMarkup") == page.evaluate("document.getElementById('app').innerHTML")
        assert page.evaluate("window.__firstLang") == page.evaluate("document.documentElement.lang") == locale[:2]
        assert page.title() == title
        # Python kept the pre-rendered nodes (no second paint of the same screen).
        assert page.evaluate("document.querySelector('#app h1') === window.__firstHeading")
        assert watch.errors == []
        context.close()


def test_stored_settings_shape_the_prerendered_home(browser, live_server):
    context = phone_context(browser)
    page = context.new_page()
    open_app(page, live_server.url, "settings")
    page.get_by_test_id("setting-language").select_option("en")
    page.get_by_test_id("setting-contrast").fill("80")
    page.wait_for_function("document.querySelector('h1').textContent === 'Settings'")
    hold_brython(page)
    page.goto(live_server.url + "/", wait_until="domcontentloaded")
    assert page.locator("h1").inner_text() == "Game Night"
    assert page.evaluate("document.documentElement.lang") == "en"
    contrast = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--contrast')")
    assert abs(float(contrast) - 1.12) < 1e-6
    context.close()


def test_a_start_that_cannot_load_python_says_so(browser, live_server):
    for missing in ("**/assets/app-worker.*", "**/assets/brython.*", "**/assets/spieleabend-bundle.*"):
        context = phone_context(browser)
        page = context.new_page()
        page.route(missing, lambda route: route.abort())
        page.goto(live_server.url + "/")
        page.wait_for_selector("text=Spieleabend konnte nicht starten", timeout=15000)
        assert page.locator("#app").is_hidden(), missing
        assert not page.evaluate("document.documentElement.hasAttribute('data-app-ready')")
        context.close()


def test_a_tile_tapped_before_python_runs_opens_that_game(page, live_server):
    held = []
    page.route("**/assets/spieleabend-bundle.*", lambda route: held.append(route))
    page.goto(live_server.url + "/", wait_until="domcontentloaded")
    tap_without_waiting(page.get_by_test_id("game-punktejagd"))
    # The tap is seen at once: the loading screen stands in until the game's screen is drawn.
    assert page.locator("#loading").is_visible()
    assert page.locator("#app").is_hidden()
    while not held:  # the route handler runs while Playwright waits
        page.wait_for_timeout(50)
    # Let it come.
    page.unroute("**/assets/spieleabend-bundle.*")  # what it held goes on
    page.wait_for_selector("html[data-app-ready]")  # after the taps made meanwhile were handled
    assert page.get_by_test_id("start-game").is_visible()
    assert page.locator("#loading").count() == 0


def test_start_modules_run_the_code_the_browser_would_compile(page, live_server):
    """The build's compiled start modules equal what this brython.js makes of the same source in the browser."""
    open_app(page, live_server.url)
    result = app_worker(page).evaluate("""() => {
        const B = __BRYTHON__, out = {};
        for (const name of ["spieleabend.ui.i18n", "spieleabend.ui.shell", "spieleabend.ui.app", "spieleabend"]) {
            const entry = B.VFS[name], isPackage = entry.length > 3;
            const filename = "VFS." + name + (isPackage ? "/__init__.py" : ".py");
            B.url2name[filename] = name;
            const own = B.py2js({src: entry[1], filename, imported: true}, name, name, B.builtins_scope).to_js();
            const shipped = B.precompiled[name];
            out[name] = [Array.isArray(shipped) ? shipped[0] : shipped, own];
        }
        return out;
    }""")
    import re

    def names_numbered_alike(js):
        # Brython numbers its generated names from a random start below 10**6; the build from a fixed one.
        js = re.sub(r"lambda_[a-z0-9]+_\d+", "lambda_#", js)
        return re.sub(r"(?<=[A-Za-z_])\d{3,}", "#", js)

    for name, (shipped, own) in result.items():
        assert shipped, name
        assert names_numbered_alike(shipped) == names_numbered_alike(own), name


def test_games_are_compiled_in_idle_time_and_kept_for_the_next_start(page, live_server):
    open_app(page, live_server.url)
    worker = app_worker(page)
    for _ in range(300):  # the games are compiled 3 s after the start, one module at a time
        if worker.evaluate("__BRYTHON__.precompiled['spieleabend.bots.punktejagd'] !== undefined"):
            break
        page.wait_for_timeout(50)
    else:
        raise AssertionError("the games were not compiled in idle time")
    page.get_by_test_id("game-punktejagd").click()
    page.get_by_test_id("start-game").click()
    page.wait_for_selector("[data-testid=hand]")
    stored = page.evaluate("""() => new Promise((resolve) => {
        const open = indexedDB.open("brython-cache");
        open.onsuccess = () => {
            const request = open.result.transaction("modules").objectStore("modules").getAllKeys();
            request.onsuccess = () => resolve(request.result);
        };
    })""")
    assert "spieleabend.ui.punktejagd" in stored and "spieleabend.games.punktejagd" in stored


def test_a_game_started_in_another_tab_shows_up_here(context, live_server):
    here = open_app(context.new_page(), live_server.url, "settings")
    there = open_app(context.new_page(), live_server.url, "play/punktejagd")
    there.get_by_test_id("start-game").click()
    there.wait_for_selector("[data-testid=hand]")
    here.get_by_test_id("nav-home").click()
    here.wait_for_selector("[data-testid=continue-punktejagd]", timeout=5000)


def test_the_tab_names_the_screen(page, live_server):
    """The page title (a tab's name, what a screen reader announces) names the screen after the app."""
    open_app(page, live_server.url)
    assert page.title() == "Spieleabend"
    page.get_by_test_id("nav-results").click()
    page.wait_for_function("document.title === 'Ergebnisse · Spieleabend'")
    page.goto(live_server.url + "/#/play/golf")
    page.wait_for_function("document.title === 'Golf · Spieleabend'")

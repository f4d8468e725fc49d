"""The app shell in a real Chromium: home, settings, language, damaged saves, layout, offline."""

import json

from e2e.conftest import open_app
from spieleabend.games import GAME_MODULES
from spieleabend.ui.shell import PLAYABLE


def test_home_lists_the_five_games_without_console_errors(page, live_server):
    open_app(page, live_server.url)
    tiles = page.locator(".game-tile")
    assert tiles.count() == 5
    for game in GAME_MODULES:
        tile = page.get_by_test_id("game-" + game)
        if game in PLAYABLE:
            assert tile.get_attribute("href") == "#/play/" + game
            assert "Bald" not in tile.inner_text()
        else:
            assert "Bald" in tile.inner_text()
    assert page.locator("#loading").count() == 0
    assert page.get_by_test_id("nav-results").is_visible()
    assert page.get_by_test_id("nav-settings").is_visible()


def test_settings_persist_across_a_reload(page, live_server):
    open_app(page, live_server.url, "settings")
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
    assert "beiseitegelegt" in notices.first.inner_text()
    kept = page.evaluate("""() => Object.keys(localStorage).filter(k => k.startsWith('spieleabend.damaged.'))
                               .map(k => localStorage.getItem(k))""")
    assert '{"format": 1, "game": "punktejagd", "state": {' in kept
    assert json.dumps({"format": 7, "settings": {}}, separators=(",", ":")) in kept
    page.get_by_test_id("dismiss-notice").first.click()
    assert page.get_by_test_id("damaged-notice").count() == 0
    page.get_by_test_id("nav-settings").click()
    page.wait_for_selector("text=Einstellungen")


def test_phone_viewport_has_no_horizontal_scrolling(page, live_server):
    for route in ("", "settings", "results"):
        open_app(page, live_server.url, route)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, (route, width)


def test_app_starts_offline_after_one_visit(context, own_server):
    page = context.new_page()
    open_app(page, own_server.url)
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()  # now the worker controls the page
    page.wait_for_selector("html[data-app-ready]")
    assert page.evaluate("!!navigator.serviceWorker.controller")
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
    # A start with a query (a tester's seed) is not a static route: the worker serves it, offline too.
    seeded = context.new_page()
    seeded.goto(own_server.url + "/?seed=7")
    seeded.wait_for_selector("html[data-app-ready]", timeout=60000)
    assert seeded.locator(".game-tile").count() == 5

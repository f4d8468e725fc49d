"""Rules pages in a real Chromium (issue 29): in the app's language, back to the app, no console error, offline."""

import pytest

from spieleabend.testing import ConsoleWatch, open_app, phone_context

# (app route, test id of its rules link, the rules page's heading in German and in English)
RULES_LINKS = [
    ("play/punktejagd", "rules-punktejagd", "Punktejagd – die Regeln, wie die App sie spielt",
     "Point Hunt – the rules as the app plays them"),
    ("play/golf", "rules-golf", "Golf – so spielt die App", "Golf – how the app plays it"),
    ("night", "rules-spieleabend", "Spieleabend – der Abend über alle Spiele",
     "Game night – the evening across all games"),
]

BACK = {"de": "‹ Zurück", "en": "‹ Back"}


@pytest.fixture(params=["de-DE", "en-GB"])
def phone(request, browser):
    """A phone page in a German or English browser (first visit: the app follows its language)."""
    context = phone_context(browser, locale=request.param)
    page = context.new_page()
    watch = ConsoleWatch(page)
    yield page, request.param[:2]
    context.close()
    assert watch.errors == [], "console errors: %s" % watch.errors


def follow_rules_link(page, url, route, link):
    """Open an app screen and tap its rules link; wait until the rules page shows."""
    open_app(page, url, route)
    page.get_by_test_id(link).click()
    page.wait_for_url("**/rules/*")
    page.get_by_test_id("rules").wait_for()


@pytest.mark.parametrize("route, link, german, english", RULES_LINKS)
def test_rules_link_opens_the_rules_in_the_apps_language_and_back_returns(phone, live_server,
                                                                          route, link, german, english):
    page, language = phone
    follow_rules_link(page, live_server.url, route, link)
    assert page.evaluate("document.documentElement.lang") == language
    assert page.locator("h1").inner_text() == (english if language == "en" else german)
    back = page.get_by_test_id("rules-back")
    assert back.inner_text() == BACK[language]
    assert back.is_visible()
    # Only the page's language is in it, and it is for players.
    text = page.get_by_test_id("rules").inner_text()
    assert ("Rulings" in text and "Auslegungen" not in text) if language == "en" else \
        ("Auslegungen" in text and "Rulings" not in text)
    assert "Für Entwickler" not in text and "outcome(" not in text
    assert page.title().endswith("Game Night" if language == "en" else "Spieleabend")
    back.click()
    page.wait_for_url("**/#/" + route)
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id(link).wait_for()  # the screen the link was on


def test_the_end_of_a_rules_page_leads_back_too(phone, live_server):
    """A long rules page on a phone is left from its end as well, in its language, to the screen it came from."""
    page, language = phone
    route, link = RULES_LINKS[0][0], RULES_LINKS[0][1]
    follow_rules_link(page, live_server.url, route, link)
    end = page.get_by_test_id("rules-back-end")
    assert end.inner_text() == BACK[language]
    end.scroll_into_view_if_needed()
    top = page.get_by_test_id("rules-back").bounding_box()
    assert top["y"] + top["height"] <= 0, "the page is long: at its end the top's Back is out of sight"
    box = end.bounding_box()
    assert box["height"] >= 44 and box["y"] + box["height"] <= page.viewport_size["height"]
    end.click()
    page.wait_for_url("**/#/" + route)
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id(link).wait_for()


def test_language_setting_wins_over_the_browser(browser, live_server):
    """A German browser with the app set to English gets English rules (and the other way round)."""
    for locale, setting, heading in (("de-DE", "en", "Golf – how the app plays it"),
                                     ("en-GB", "de", "Golf – so spielt die App")):
        context = phone_context(browser, locale=locale)
        page = context.new_page()
        watch = ConsoleWatch(page)
        open_app(page, live_server.url, "settings")
        page.get_by_test_id("setting-language").select_option(setting)
        open_app(page, live_server.url, "play/golf")
        page.get_by_test_id("rules-golf").click()
        page.get_by_test_id("rules").wait_for()
        assert page.locator("h1").inner_text() == heading
        assert page.get_by_test_id("rules-back").inner_text() == BACK[setting]
        context.close()
        assert watch.errors == [], "console errors: %s" % watch.errors


def test_rules_page_opens_offline_after_one_visit(browser, own_server):
    context = phone_context(browser, locale="en-GB")
    page = context.new_page()
    watch = ConsoleWatch(page)
    open_app(page, own_server.url)
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    assert page.evaluate("!!navigator.serviceWorker.controller")
    own_server.stop()
    context.set_offline(True)
    open_app(page, own_server.url, "play/golf")
    page.get_by_test_id("rules-golf").click()
    page.get_by_test_id("rules").wait_for()
    assert page.locator("h1").inner_text() == "Golf – how the app plays it"
    assert page.get_by_test_id("rules-back").inner_text() == "‹ Back"
    page.goto(own_server.url + "/rules/spieleabend")  # opened on its own, without the app before it
    assert page.locator("h1").inner_text() == "Game night – the evening across all games"
    page.get_by_test_id("rules-back").click()
    page.wait_for_url("**/#/night")
    page.wait_for_selector("html[data-app-ready]")
    context.close()
    assert watch.errors == [], "console errors: %s" % watch.errors

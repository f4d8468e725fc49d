"""A browser that refuses a write the app expected to fit (its quota smaller than the app's estimate): nothing
is lost without a word. The finished game's save stays until its result is in Ergebnisse."""

from e2e.prepared_games import open_saved
from e2e.test_phone_finish import HAND, confirm_a_card, last_round
from spieleabend.testing import open_app

# localStorage refuses the results document while the tab's session says so, as a full quota would.
REFUSE_RESULTS = """(() => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
        if (this === window.localStorage && key === "spieleabend.results" && sessionStorage.getItem("refuse-results")) {
            throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        }
        return setItem.call(this, key, value);
    };
})();"""


def stored(page, key):
    return page.evaluate("key => localStorage.getItem(key)", key)


def test_a_finished_game_whose_result_the_browser_refused_keeps_its_save_and_is_recorded_later(page, live_server):
    page.add_init_script(REFUSE_RESULTS)
    open_saved(page, live_server.url, last_round("punktejagd"), HAND)
    page.evaluate("sessionStorage.setItem('refuse-results', '1')")
    confirm_a_card(page)  # the last round: the game is over and goes into Ergebnisse
    page.wait_for_function("document.getElementById('toast').textContent.includes('Speicher')")
    page.get_by_test_id("next-round").click()  # "Endwertung": a recorded game's save would go now
    page.wait_for_selector("[data-testid=final-headline]")
    page.wait_for_selector("html:not([data-busy])")
    assert stored(page, "spieleabend.results") is None, "the browser refused it"
    assert stored(page, "spieleabend.save.punktejagd") is not None, "so the finished game is not lost"
    # Room again: continuing the game puts it into Ergebnisse, once, and then the save goes.
    page.evaluate("sessionStorage.removeItem('refuse-results')")
    open_app(page, live_server.url + "/?pace=0")
    page.get_by_test_id("continue-punktejagd").click()
    page.wait_for_selector("[data-testid=final-headline], [data-testid=reveal-title]")
    page.wait_for_function("(localStorage.getItem('spieleabend.results') || '').includes('punktejagd')")
    page.goto(live_server.url + "/?pace=0#/results")
    page.wait_for_selector("[data-testid=result-item]")
    assert page.get_by_test_id("result-item").count() == 1, "recorded once"

"""A new release waits for the next start, never reloads a running game, and says so."""

import shutil
import time

from spieleabend.testing import open_app, phone_context
from server.build import DEFAULT_WEB_ROOT
from server.web import build_release


def publish_new_release(server, tmp_path):
    """Serve a changed copy of web/ from the same server, as a restart after a deploy would.

    Its Python changes too, as in most releases: the bundle, the app's worker and the page's inline
    script that names it (so its hash in the Content-Security-Policy) all change with it.
    """
    web = tmp_path / "web"
    shutil.copytree(DEFAULT_WEB_ROOT, web, ignore=shutil.ignore_patterns("__pycache__"))
    css = web / "css" / "app.css"
    css.write_text(css.read_text() + "\n/* next release */\n")
    app = web / "py" / "spieleabend" / "ui" / "app.py"
    app.write_text(app.read_text(encoding="utf-8") + "\nNEXT_RELEASE = True\n", encoding="utf-8")
    release = build_release(server.app.config, web)
    workers = lambda built: [url for url in built.assets if url.startswith("/assets/app-worker.")]
    assert workers(release) != workers(server.app.extensions["spieleabend_build"]), "the app's worker did not change"
    server.app.extensions["spieleabend_build"] = release
    server.app.config["CONTENT_SECURITY_POLICY"] = release.content_security_policy()
    return release.version


def start_again(context, url, new_version, tries=10):
    """Open the app anew after its last page closed; return the page once it runs `new_version`.

    The waiting worker activates once the old one has no page left. Chromium does that a moment after
    the page is gone; on a loaded machine a page opened at once still came from the old release (CI,
    once in many runs). A person who opens the app a little later, or once more, gets the new one:
    so does this, a few times at most."""
    for _ in range(tries):
        time.sleep(0.3)
        page = context.new_page()
        open_app(page, url)
        if page.evaluate("document.documentElement.dataset.version") == new_version:
            return page
        page.close()
    raise AssertionError("the new release did not take over in %d starts" % tries)


def test_new_release_waits_under_a_running_game_and_takes_over_at_next_start(browser, own_server, tmp_path):
    context = phone_context(browser)
    page = context.new_page()
    open_app(page, own_server.url)
    old_version = page.evaluate("document.documentElement.dataset.version")
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    page.goto(own_server.url + "/?seed=3#/play/punktejagd")
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id("start-game").click()
    page.get_by_test_id("card-6").click()

    new_version = publish_new_release(own_server, tmp_path)
    assert new_version != old_version
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_function("document.documentElement.hasAttribute('data-update-waiting')", timeout=30000)
    # The running game is untouched: same page, same selection, old release.
    assert page.get_by_test_id("card-6").get_attribute("aria-pressed") == "true"
    assert page.evaluate("document.documentElement.dataset.version") == old_version
    page.get_by_test_id("pause").click()
    page.wait_for_selector("[data-testid=update-waiting]")
    assert "nächsten Öffnen" in page.get_by_test_id("update-waiting").inner_text()

    page.close()  # the app is closed; the next start gets the new release
    page = start_again(context, own_server.url, new_version)
    assert page.evaluate("document.documentElement.dataset.version") == new_version
    assert page.get_by_test_id("updated").is_visible()
    page.get_by_test_id("continue-punktejagd").click()
    page.wait_for_selector("[data-testid=hand]")
    context.close()


WORKER_STATES = """navigator.serviceWorker.getRegistration().then(r => JSON.stringify({
  page: document.documentElement.dataset.version, active: r && r.active && r.active.state,
  waiting: r && r.waiting && r.waiting.state, installing: r && r.installing && r.installing.state}))"""


def wait_for_release(page, new_version):
    """Wait for the page of the new release (a failure says where the service workers were)."""
    try:
        page.wait_for_function("document.documentElement.dataset.version === %r" % new_version, timeout=30000)
    except Exception as error:
        raise AssertionError("no restart into %s: %s" % (new_version, page.evaluate(WORKER_STATES))) from error
    page.wait_for_selector("html[data-app-ready]")


def home_with_waiting_release(browser, own_server, tmp_path):
    """Open the app under its service worker, publish a new release and wait for the home's offer."""
    context = phone_context(browser, reduced_motion="no-preference")
    page = context.new_page()
    open_app(page, own_server.url)
    page.evaluate("navigator.serviceWorker.ready")
    page.reload()
    page.wait_for_selector("html[data-app-ready]")
    new_version = publish_new_release(own_server, tmp_path)
    page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
    page.wait_for_selector("[data-testid=update-now]", timeout=30000)
    return context, page, new_version


def test_update_now_button_switches_release_from_the_home_screen(browser, own_server, tmp_path):
    context, page, new_version = home_with_waiting_release(browser, own_server, tmp_path)
    page.get_by_test_id("update-now").click()
    wait_for_release(page, new_version)
    assert page.get_by_test_id("updated").is_visible()
    context.close()


def test_restart_now_says_so_and_still_happens_when_its_first_request_goes_nowhere(browser, own_server, tmp_path):
    context, page, new_version = home_with_waiting_release(browser, own_server, tmp_path)
    # The waiting worker misses the first "skip-waiting" (as one that is stopping would): the app asks again.
    page.evaluate("""(() => {
      const send = ServiceWorker.prototype.postMessage;
      let dropped = false;
      ServiceWorker.prototype.postMessage = function (message) {
        if (message === "skip-waiting" && !dropped) { dropped = true; return; }
        return send.apply(this, arguments);
      };
    })()""")
    page.get_by_test_id("update-now").click()
    # The tap shows at once that the restart is under way (the second request comes 2 s later).
    page.wait_for_selector("[data-testid=update-now][disabled]")
    assert page.get_by_test_id("update-now").inner_text() == "Startet neu …"
    wait_for_release(page, new_version)
    context.close()

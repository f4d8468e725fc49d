"""Room latency in the browser: how fast phones follow the host, over the real relay.

Runs the real app in headless Chromium: a host and two phones (one browser
context each) play seeded Punktejagd rooms on a local server. Each moment is
timed inside the pages with the shared wall clock (performance.timeOrigin +
performance.now(), sub-millisecond), from the tap (a capture-phase click
listener) to the first frame in which the phone's DOM shows the result (a
MutationObserver), so Playwright's own round trips are not counted.

- join: tap "Mitspielen" -> the phone shows it is in the room (lobby);
- start: the host taps "Partie starten" -> the phone shows its hand;
- resume: the phone reloads mid-game -> it shows its hand again (Brython start included);
- action: the host confirms the round's last card -> the phones show the reveal.

Prints median and p95 of each.

    python -m bench.room_latency [--games N]
"""

import argparse

from bench.common import chromium, python_package, require

if __name__ == "__main__":  # before Playwright is imported: say what is missing, not an ImportError
    require("bench.room_latency", python_package("playwright", "test"), chromium())

from playwright.sync_api import sync_playwright

from bench.common import median, percentile
from spieleabend.testing.browser import PHONE, LiveServer, launch_chromium

CLICK_CLOCK = """() => {
  window.__clickAt = null;
  document.addEventListener('click', () => { window.__clickAt = performance.timeOrigin + performance.now(); }, true);
}"""

WATCH = """(selector) => {
  window.__seenAt = null;
  const check = () => {
    if (window.__seenAt === null && document.querySelector(selector)) {
      window.__seenAt = performance.timeOrigin + performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  check();
}"""

LOAD_CLOCK = """() => performance.timeOrigin"""


def new_page(browser):
    context = browser.new_context(viewport=PHONE, locale="de-DE", reduced_motion="reduce")
    context.set_default_timeout(120000)
    return context, context.new_page()


def ready(page):
    page.wait_for_selector("html[data-app-ready]")
    page.evaluate(CLICK_CLOCK)


def watch(page, selector):
    page.evaluate(WATCH, selector)


def seen_at(page):
    page.wait_for_function("window.__seenAt !== null")
    return page.evaluate("window.__seenAt")


def clicked_at(page):
    return page.evaluate("window.__clickAt")


def hand(page):
    return [int(v) for v in page.locator("[data-testid=hand] [data-value]").evaluate_all(
        "cards => cards.map(c => c.dataset.value)")]


def play_room(browser, url, seed, figures):
    """One room: host + two phones, a whole game of ten rounds; append the timings to figures."""
    pages = []
    host_context, host = new_page(browser)
    pages.append(host_context)
    host.goto("%s/?seed=%d&pace=0#/play/punktejagd" % (url, seed))
    ready(host)
    host.get_by_test_id("open-room").click()
    host.wait_for_selector("[data-testid=room-link]:has-text('#/join/')")
    link = host.get_by_test_id("room-link").inner_text()
    phones = []
    for index, name in enumerate(["Anna", "Ben"]):
        context, phone = new_page(browser)
        pages.append(context)
        phone.goto(url + "/?pace=0#" + link.split("#", 1)[1])
        ready(phone)
        phone.get_by_test_id("join-name").fill(name)
        watch(phone, "[data-testid=room-waiting]")
        phone.get_by_test_id("join-seat").click()
        figures["join"].append(seen_at(phone) - clicked_at(phone))
        host.wait_for_selector("[data-testid=lobby-place-%d]" % (index + 1))
        phones.append(phone)
    host.get_by_test_id("room-seats-3").check()
    for phone in phones:
        watch(phone, "[data-testid=hand]")
    host.get_by_test_id("start-room-game").click()
    start = clicked_at(host)
    for phone in phones:
        figures["start"].append(seen_at(phone) - start)
    host.wait_for_selector("[data-testid=hand]")
    for round_number in range(1, 11):
        for phone in phones:
            phone.get_by_test_id("card-%d" % hand(phone)[0]).click()
            phone.get_by_test_id("confirm").click()
            phone.wait_for_selector("[data-testid=my-plan]")
        host.wait_for_function("document.querySelectorAll('.seat .card.back').length == 2")
        for phone in phones:
            watch(phone, "[data-testid=reveal-title]")
        host.get_by_test_id("card-%d" % hand(host)[-1]).click()
        host.get_by_test_id("confirm").click()
        action = clicked_at(host)
        for phone in phones:
            figures["action"].append(seen_at(phone) - action)
        for page in [host] + phones:
            page.wait_for_selector("[data-testid=next-round]:not([disabled])")
            page.get_by_test_id("next-round").click()
        if round_number == 5:
            phone = phones[0]
            phone.reload()
            phone.wait_for_selector("[data-testid=hand]")
            shown = phone.evaluate("performance.timeOrigin + performance.now()")
            start_of_load = phone.evaluate(LOAD_CLOCK)
            figures["resume"].append(shown - start_of_load)
            phone.evaluate(CLICK_CLOCK)
    host.wait_for_selector("[data-testid=final-headline]")
    host.get_by_test_id("end-room").click()
    for context in pages:
        context.close()


def report(name, values):
    if not values:
        print("%-8s no samples" % name)
        return
    print("%-8s n=%3d  median %7.1f ms  p95 %7.1f ms  max %7.1f ms" % (
        name, len(values), median(values), percentile(values, 0.95), max(values)))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="rooms to play (default 3)")
    args = parser.parse_args(argv)
    server = LiveServer()
    figures = {"join": [], "start": [], "resume": [], "action": []}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for game in range(args.games):
                play_room(browser, server.url, 40 + game, figures)
            browser.close()
    finally:
        server.stop()
    print("Room latency (host + 2 phones, Punktejagd, %d rooms, local relay, headless Chromium):" % args.games)
    report("join", figures["join"])      # tap Mitspielen -> in the room
    report("start", figures["start"])    # host taps Partie starten -> phone shows its hand
    report("resume", figures["resume"])  # phone reload -> its hand again (page load + Brython start included)
    report("action", figures["action"])  # host confirms the last card -> phones show the reveal


if __name__ == "__main__":
    main()

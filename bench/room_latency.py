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
- action: the host confirms the round's last card -> the phones and the table screen show the reveal;
- phone: a phone confirms the round's last card -> the host, the other phone and the screen show it.

Prints median and p95 of each. With --baseline, rooms alternate between a server of another
checkout (e.g. `git worktree add ../base main`) and this one, in the same browser, so that both
columns see the same machine load:

    python -m bench.room_latency [--games N] [--baseline PATH]
"""

import argparse
import subprocess
import sys

from bench.common import chromium, python_package, require

if __name__ == "__main__":  # before Playwright is imported: say what is missing, not an ImportError
    require("bench.room_latency", python_package("playwright", "test"), chromium())

from playwright.sync_api import sync_playwright

from bench.common import median, percentile
from spieleabend.testing.browser import PHONE, SCREEN, LiveServer, launch_chromium

CLICK_CLOCK = """() => {
  window.__clickAt = null;
  document.addEventListener('click', () => { window.__clickAt = performance.timeOrigin + performance.now(); }, true);
}"""

WATCH = """([selector, text]) => {
  window.__seenAt = null;
  const check = () => {
    const element = document.querySelector(selector);
    if (window.__seenAt === null && element && (!text || element.textContent.includes(text))) {
      window.__seenAt = performance.timeOrigin + performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  check();
}"""

LOAD_CLOCK = """() => performance.timeOrigin"""


def new_page(browser, viewport=PHONE):
    context = browser.new_context(viewport=viewport, locale="de-DE", reduced_motion="reduce")
    context.set_default_timeout(120000)
    return context, context.new_page()


def ready(page):
    page.wait_for_selector("html[data-app-ready]")
    page.evaluate(CLICK_CLOCK)


def watch(page, selector, text=None):
    """Note the time of the first DOM change after which `selector` is there (holding `text`, if given)."""
    page.evaluate(WATCH, [selector, text])


def seen_at(page):
    try:
        page.wait_for_function("window.__seenAt !== null")
    except Exception:
        print("timed out on", page.url, page.inner_text("body")[:300], file=sys.stderr)
        raise
    return page.evaluate("window.__seenAt")


def clicked_at(page):
    return page.evaluate("window.__clickAt")


def hand(page):
    return [int(v) for v in page.locator("[data-testid=hand] [data-value]").evaluate_all(
        "cards => cards.map(c => c.dataset.value)")]


def play_room(browser, url, seed, figures):
    """One room: host + two phones + a table screen, a whole game of ten rounds; append the timings."""
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
    screen_context, screen = new_page(browser, SCREEN)
    pages.append(screen_context)
    screen.goto(url + "/?pace=0#" + link.split("#", 1)[1])
    ready(screen)
    screen.get_by_test_id("join-name").fill("TV")
    screen.get_by_test_id("join-screen").click()
    host.wait_for_selector("[data-testid=lobby-screen-1]")
    host.get_by_test_id("room-seats-3").check()
    for phone in phones:
        watch(phone, "[data-testid=hand]")
    host.get_by_test_id("start-room-game").click()
    start = clicked_at(host)
    for phone in phones:
        figures["start"].append(seen_at(phone) - start)
    host.wait_for_selector("[data-testid=hand]")
    for round_number in range(1, 11):
        # Odd rounds the host chooses last, even rounds the second phone does.
        last = host if round_number % 2 else phones[1]
        for device in [d for d in [host] + phones if d is not last]:
            device.get_by_test_id("card-%d" % hand(device)[0]).click()
            device.get_by_test_id("confirm").click()
            device.wait_for_selector("[data-testid=my-plan]")
        # The last one to choose sees the others' face-down cards: every commitment reached it.
        last.wait_for_function("document.querySelectorAll('.seat .card.back').length == 2")
        watchers = [d for d in [host] + phones if d is not last]
        for device in watchers:
            watch(device, "[data-testid=reveal-title]")
        if round_number < 10:
            watch(screen, "[data-testid=screen-reveal] h2", "Letzte Runde: %d ·" % round_number)
        else:  # the last round's reveal goes straight to the final standings on a screen
            watch(screen, "[data-testid=final-headline]")
        last.get_by_test_id("card-%d" % hand(last)[-1]).click()
        last.get_by_test_id("confirm").click()
        action = clicked_at(last)
        step = "action" if last is host else "phone"
        for device in watchers + [screen]:
            figures[step].append(seen_at(device) - action)
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


def report(name, values, label=""):
    if not values:
        print("  %-7s no samples" % name)
        return
    print("  %-7s n=%3d  median %7.1f ms  p95 %7.1f ms  max %7.1f ms  (%s)" % (
        name, len(values), median(values), percentile(values, 0.95), max(values), label))


# A server of another checkout, in its own process (its own `server` and `spieleabend` packages).
BASELINE_SERVER = """
import sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/web/py"]
from spieleabend.testing.browser import LiveServer
server = LiveServer()
print(server.url, flush=True)
sys.stdin.read()
server.stop()
"""

STEPS = [("join", "tap Mitspielen -> in the room"),
         ("start", "host taps Partie starten -> phone shows its hand"),
         ("resume", "phone reload -> its hand again (page load + Brython start)"),
         ("action", "host's last card -> phones and screen show the reveal"),
         ("phone", "a phone's last card -> host, other phone and screen show it")]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3, help="rooms to play on each server (default 3)")
    parser.add_argument("--baseline", help="a checkout to compare against, served beside this one")
    args = parser.parse_args(argv)
    servers = {"this": LiveServer()}
    baseline = None
    if args.baseline:
        baseline = subprocess.Popen([sys.executable, "-c", BASELINE_SERVER, args.baseline],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        servers["baseline"] = baseline.stdout.readline().strip()
    urls = {"this": servers["this"].url, "baseline": servers.get("baseline")}
    figures = {name: {step: [] for step, _ in STEPS} for name in servers}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for game in range(args.games):
                for name in sorted(servers):  # the same seeds on both, taking turns
                    play_room(browser, urls[name], 40 + game, figures[name])
            browser.close()
    finally:
        servers["this"].stop()
        if baseline is not None:
            baseline.communicate("", timeout=30)
    print("Room latency (host + 2 phones + a table screen, Punktejagd, %d rooms each, local relay, headless Chromium):"
          % args.games)
    for name in sorted(servers, reverse=True):
        if len(servers) > 1:
            print("%s:" % ("this checkout" if name == "this" else "baseline " + args.baseline))
        for step, label in STEPS:
            report(step, figures[name][step], label)


if __name__ == "__main__":
    main()

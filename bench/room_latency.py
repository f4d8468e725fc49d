"""Room latency in the browser: how fast every device follows a tap, over the real relay, in all five games.

Runs the real app in headless Chromium: for each game a host and two phones (one browser context
each) and a table screen play a seeded room on a local server. Each moment is timed inside the
pages with the shared wall clock (performance.timeOrigin + performance.now(), sub-millisecond),
from the tap (a capture-phase click listener) to the first frame in which the other device's DOM
shows the result (a MutationObserver), so Playwright's own round trips are not counted.

- join: tap "Mitspielen" -> the phone shows it is in the room (lobby);
- start: the host taps "Partie starten" -> the phone shows its hand;
- resume: a phone reloads mid-game -> it shows its hand again (page load and Brython start included);
- action: the host's move -> the phones and the table screen show it;
- phone: a phone's move -> the host, the other phone and the screen show it.

A move is one tap that reaches the host: in Punktejagd and Kartenkampf the round's last secret
choice (the others then show the reveal), in Mau-Mau, Pao De Kuai and Golf a turn's move (the
others then draw the new table: the first change of their page after the tap). Prints median and
p95 of each step, over all games and per game. With --baseline, rooms alternate between a server of
another checkout (e.g. `git worktree add ../base main`) and this one, in the same browser, so that
both columns see the same machine load:

    python -m bench.room_latency [--rooms N] [--games punktejagd,golf] [--baseline PATH]
"""

import argparse
import os
import subprocess
import sys

from bench.common import chromium, python_package, require

if __name__ == "__main__":  # before Playwright is imported: say what is missing, not an ImportError
    require("bench.room_latency", python_package("playwright", "test"), chromium())

from playwright.sync_api import sync_playwright

from bench import room_profile
from bench.common import median, percentile
from spieleabend.testing.browser import PHONE, SCREEN, LiveServer, launch_chromium

GAMES = ["punktejagd", "kartenkampf", "maumau", "paodekuai", "golf"]

CLICK_CLOCK = """() => {
  window.__clickAt = null;
  document.addEventListener('click', () => { window.__clickAt = performance.timeOrigin + performance.now(); }, true);
}"""

# The first DOM change after which `selector` is there (holding `text`, if given).
WATCH = """([selector, text]) => {
  window.__seenAt = null;
  if (window.__observer) window.__observer.disconnect();
  const check = () => {
    const element = document.querySelector(selector);
    if (window.__seenAt === null && element && (!text || element.textContent.includes(text))) {
      window.__seenAt = performance.timeOrigin + performance.now();
      observer.disconnect();
    }
  };
  const observer = window.__observer = new MutationObserver(check);
  observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
  check();
}"""

# Every change of the app's content from now on (its times); the tap's result is the first after the tap.
WATCH_ANY = """() => {
  window.__changes = [];
  if (window.__observer) window.__observer.disconnect();
  const observer = window.__observer = new MutationObserver(() => {
    window.__changes.push(performance.timeOrigin + performance.now());
  });
  observer.observe(document.getElementById('app'), {subtree: true, childList: true, attributes: true, characterData: true});
}"""

SEEN_AFTER = """at => { const later = (window.__changes || []).filter(t => t >= at); return later.length ? later[0] : null; }"""

# The seats the game waits for (<html data-turn>, e2e/README.md), as numbers.
WAITING = """() => (document.documentElement.getAttribute('data-turn') || '').split(' ').filter(w => /^[0-9]+$/.test(w)).map(Number)"""


# On a reload (see reload_phone): the time since the navigation at which the phone's own hand is drawn.
RELOAD_CLOCK = """(() => {
  const mine = sessionStorage.getItem('bench-mine');
  if (!mine) return;
  window.__mineAt = null;
  const check = () => {
    if (window.__mineAt === null && document.querySelector(mine)) {
      window.__mineAt = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document, {subtree: true, childList: true, attributes: true});
})();"""


def new_page(browser, viewport=PHONE, profiler=None):
    context = browser.new_context(viewport=viewport, locale="de-DE", reduced_motion="reduce")
    context.set_default_timeout(120000)
    context.add_init_script(RELOAD_CLOCK)
    if profiler is not None:
        room_profile.instrument_page(context)
    return context, context.new_page()


def ready(page, profiler=None, game=None):
    page.wait_for_selector("html[data-app-ready]")
    page.evaluate(CLICK_CLOCK)
    if profiler is not None:
        room_profile.instrument_worker(page, game)


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


def waiting_for(page):
    return page.evaluate(WAITING)


class Table:
    """The devices of one room: the host (seat 0), two phones (seats 1 and 2) and a table screen."""

    def __init__(self, game, host, phones, screen, figures, profiler=None):
        self.game = game
        self.host = host
        self.phones = phones
        self.screen = screen
        self.players = [host] + phones
        self.figures = figures
        self.profiler = profiler
        self.names = {host: "host", phones[0]: "anna", phones[1]: "ben", screen: "screen"}

    def note(self, sender, receiver, at, seen):
        """Keep one receiver's time for a move (and, when profiling, the move to follow back)."""
        step = "action" if sender is self.host else "phone"
        self.figures[step].append(seen - at)
        if self.profiler is not None:
            self.profiler.note(step, self.game, self.names[sender], self.names[receiver], at, seen)

    def collect(self, devices=None):
        """Take the profile spans of the devices (all by default) before they are lost."""
        if self.profiler is not None:
            for device in devices or self.players + [self.screen]:
                self.profiler.collect(self.names[device], device)

    def tap(self, device, locator):
        """Tap something that sends a move to the host; time it until every other device shows a change."""
        others = [d for d in self.players + [self.screen] if d is not device]
        for other in others:
            other.evaluate(WATCH_ANY)
        locator.click()
        at = clicked_at(device)
        for other in others:
            other.wait_for_function("at => (%s)(at) !== null" % SEEN_AFTER, arg=at)
            self.note(device, other, at, other.evaluate(SEEN_AFTER, at))


# -- the two games where everyone chooses in secret: the round's last choice -> the reveal --------------
SECRET = {
    # own choice shown, the reveal on a player's device, the reveal on the screen (round number in it)
    "punktejagd": ("[data-testid=my-plan]", ("[data-testid=reveal-title]", "Runde %d "),
                   ("[data-testid=screen-reveal] h2", "Letzte Runde: %d ·")),
    "kartenkampf": ("[data-testid=my-choice]", ("[data-testid=reveal-title]", "Runde %d"),
                    ("[data-testid=screen-reveal]", "Zuletzt aufgedeckt: Runde %d")),
}


def hand(page):
    return [int(v) for v in page.locator("[data-testid=hand] [data-value], [data-testid=hand] [data-card]").evaluate_all(
        "cards => cards.map(c => c.dataset.value || c.dataset.card)")]


def choose(page, card):
    page.get_by_test_id("card-%d" % card).click()
    page.get_by_test_id("confirm").click()


def play_secret_rounds(game, table, rounds, resume_after):
    own, (reveal, reveal_text), (shown, shown_text) = SECRET[game]
    for round_number in range(1, rounds + 1):
        # Odd rounds the host chooses last, even rounds the second phone does.
        last_seat = 0 if round_number % 2 else 2
        last = table.players[last_seat]
        for device in [d for d in table.players if d is not last]:
            choose(device, hand(device)[0])
            device.wait_for_selector(own)
            if device is table.phones[0] and round_number in resume_after:
                reload_phone(table, device, own)  # its hand with its hidden choice again
        # Every other commitment reached the last one: the game waits for it alone.
        last.wait_for_function("seat => JSON.stringify((%s)()) === JSON.stringify([seat])" % WAITING, arg=last_seat)
        watchers = [d for d in table.players if d is not last]
        for device in watchers:
            watch(device, reveal, reveal_text % round_number)
        watch(table.screen, shown, shown_text % round_number)
        choose(last, hand(last)[-1])
        action = clicked_at(last)
        for device in watchers + [table.screen]:
            table.note(last, device, action, seen_at(device))
        for page in table.players:
            page.wait_for_selector("[data-testid=next-round]:not([disabled])")
            page.get_by_test_id("next-round").click()
        for page in table.players:
            page.wait_for_selector("[data-testid=hand]")


# -- the three games where one moves at a time: each turn's move -> every other device's new table -----
def maumau_move(table, device):
    """The first card that may be played (saying Mau with the second-to-last), else draw."""
    hand_cards = device.get_by_test_id("hand").locator("[data-card]")
    playable = device.get_by_test_id("hand").locator("[data-card]:not([aria-disabled=true])")
    if playable.count() == 0:
        table.tap(device, device.get_by_test_id("draw-pile"))
        return
    if hand_cards.count() == 2:
        device.get_by_test_id("mau").click()
        device.wait_for_selector("[data-testid=mau][aria-pressed=true]")
    card = playable.first.get_attribute("data-card")
    if not card.startswith("J"):
        table.tap(device, playable.first)
        return
    playable.first.click()  # a Jack asks for the wished suit first
    others = [c for c in hand_cards.evaluate_all("cs => cs.map(c => c.dataset.card)") if c != card and c[0] != "J"]
    table.tap(device, device.get_by_test_id("suit-" + (others[0][-1] if others else "H")))


def paodekuai_move(table, device):
    """Pass when passing is allowed, else tap the cards of the longest legal play and play it."""
    device.wait_for_selector("[data-testid=hand][data-my-turn=true]")
    if device.get_by_test_id("pass").get_attribute("aria-disabled") == "false":
        table.tap(device, device.get_by_test_id("pass"))
        return
    plays = [play.split() for play in device.get_by_test_id("hand").get_attribute("data-legal").split("|")]
    for card in max(plays, key=len):
        device.get_by_test_id("card-" + card).click()
    device.wait_for_selector("[data-testid=play]:not([disabled])")
    table.tap(device, device.get_by_test_id("play"))


def golf_move(table, device):
    """Draw from the stock (a move the others see), then discard it or, where that is not allowed, swap it in."""
    device.wait_for_selector("[data-testid=stock]:not([disabled])")
    table.tap(device, device.get_by_test_id("stock"))
    device.wait_for_selector("[data-testid=drawn-card][data-card]")
    discard = device.get_by_test_id("discard-drawn")
    if discard.count() and discard.is_enabled():
        table.tap(device, discard)
    else:
        seat = table.players.index(device)
        table.tap(device, device.get_by_test_id("grid-%d" % seat).get_by_test_id("pos-0"))


TURNS = {
    # a turn's move, what shows a phone's own hand
    "maumau": (maumau_move, "[data-testid=hand] [data-card]"),
    "paodekuai": (paodekuai_move, "[data-testid=hand] [data-card]"),
    "golf": (golf_move, "[data-testid=grid-1] [data-testid=pos-0]"),
}


def play_turns(game, table, moves, resume_after):
    move, mine = TURNS[game]
    if game == "golf":  # everyone peeks at their bottom two at once first
        for device in table.players:
            device.wait_for_selector("[data-testid=peek-done]")
            device.get_by_test_id("peek-done").click()
        table.host.wait_for_selector("[data-testid=whose-turn]:has-text('dran')")  # every peek reached the host
    for number in range(1, moves + 1):
        table.host.wait_for_function("() => (%s)().length === 1" % WAITING)
        seat = waiting_for(table.host)[0]
        device = table.players[seat]
        device.wait_for_selector("html[data-turn~=you]:not([data-animating])", state="attached")
        move(table, device)
        if number in resume_after:
            reload_phone(table, table.phones[0], mine)


def reload_phone(table, phone, mine):
    """Reload a phone mid-game; time it from the navigation to its hand drawn again."""
    table.collect([phone])
    phone.evaluate("mine => sessionStorage.setItem('bench-mine', mine)", mine)
    phone.reload()
    phone.wait_for_function("window.__mineAt !== null && window.__mineAt !== undefined")
    table.figures["resume"].append(phone.evaluate("window.__mineAt"))  # since performance.timeOrigin: the navigation
    phone.evaluate("sessionStorage.removeItem('bench-mine')")
    phone.wait_for_selector("html[data-app-ready]")
    # The hand drawn at once is the one kept from before the reload: play on once the host's fresh one came.
    phone.wait_for_selector("[data-testid=room-status][data-state=online]")
    phone.wait_for_selector(mine)
    phone.evaluate(CLICK_CLOCK)
    if table.profiler is not None:
        room_profile.instrument_worker(phone, table.game)


def play_room(browser, url, game, seed, figures, moves, profiler=None):
    """One room of `game`: host + two phones + a table screen, `moves` moves; append the timings."""
    contexts = []
    host_context, host = new_page(browser, profiler=profiler)
    contexts.append(host_context)
    host.goto("%s/?seed=%d&pace=0#/play/%s" % (url, seed, game))
    ready(host, profiler, game)
    host.get_by_test_id("open-room").click()
    host.wait_for_selector("[data-testid=room-link]:has-text('#/join/')")
    link = host.get_by_test_id("room-link").inner_text()
    phones = []
    for index, name in enumerate(["Anna", "Ben"]):
        context, phone = new_page(browser, profiler=profiler)
        contexts.append(context)
        phone.goto(url + "/?pace=0#" + link.split("#", 1)[1])
        ready(phone, profiler, game)
        phone.get_by_test_id("join-name").fill(name)
        watch(phone, "[data-testid=room-waiting]")
        phone.get_by_test_id("join-seat").click()
        figures["join"].append(seen_at(phone) - clicked_at(phone))
        host.wait_for_selector("[data-testid=lobby-place-%d]" % (index + 1))
        phones.append(phone)
    screen_context, screen = new_page(browser, SCREEN, profiler)
    contexts.append(screen_context)
    screen.goto(url + "/?pace=0#" + link.split("#", 1)[1])
    ready(screen, profiler, game)
    screen.get_by_test_id("join-name").fill("TV")
    screen.get_by_test_id("join-screen").click()
    host.wait_for_selector("[data-testid=lobby-screen-1]")
    host.get_by_test_id("room-seats-3").check()
    mine = "[data-testid=hand]" if game in SECRET else TURNS[game][1]
    for phone in phones:
        watch(phone, mine)
    host.get_by_test_id("start-room-game").click()
    start = clicked_at(host)
    for phone in phones:
        figures["start"].append(seen_at(phone) - start)
    table = Table(game, host, phones, screen, figures, profiler)
    for device in table.players + [screen]:
        device.wait_for_selector("html[data-turn]", state="attached")
    if game in SECRET:
        rounds = max(3, moves // 3)
        play_secret_rounds(game, table, rounds, resume_after={1, rounds - 1})
    else:
        play_turns(game, table, moves, resume_after={moves // 3, 2 * moves // 3})
    table.collect()
    for context in contexts:
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

def serve_baseline(path):
    """Serve another checkout in its own process; return (process, url); end it with process.communicate("")."""
    process = subprocess.Popen([sys.executable, "-c", BASELINE_SERVER, path],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    return process, process.stdout.readline().strip()


def chosen_games(parser, text):
    """Return the games of a comma-separated --games value, or stop with the parser's error for an unknown one."""
    games = [game for game in text.split(",") if game]
    unknown = [game for game in games if game not in GAMES]
    if unknown:
        parser.error("unknown game %s: one of %s" % (", ".join(unknown), ", ".join(GAMES)))
    return games


STEPS = [("join", "tap Mitspielen -> in the room"),
         ("start", "host taps Partie starten -> phone shows its hand"),
         ("resume", "phone reload -> its hand again (page load + Brython start)"),
         ("action", "host's move -> phones and screen show it"),
         ("phone", "a phone's move -> host, other phone and screen show it")]


def load_average():
    try:
        return "load average %.1f" % os.getloadavg()[0]
    except OSError:
        return "load average unknown"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, default=1, help="rooms of each game on each server (default 1)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated (default: all five)")
    parser.add_argument("--moves", type=int, default=9, help="moves per room (secret games: a third as many rounds)")
    parser.add_argument("--baseline", help="a checkout to compare against, served beside this one")
    parser.add_argument("--profile", action="store_true",
                        help="also print where a move's time goes on each server (bench/room_profile.py)")
    parser.add_argument("--profile-out", help="with --profile: keep the spans in FILE-<server>.json")
    args = parser.parse_args(argv)
    games = chosen_games(parser, args.games)
    servers = {"this": LiveServer()}
    baseline = None
    if args.baseline:
        baseline, servers["baseline"] = serve_baseline(args.baseline)
    urls = {"this": servers["this"].url, "baseline": servers.get("baseline")}
    figures = {(name, game): {step: [] for step, _ in STEPS} for name in servers for game in games}
    loads = [load_average()]
    profilers = {name: room_profile.Profiler() if args.profile else None for name in servers}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            for room in range(args.rooms):
                for game in games:
                    for name in sorted(servers):  # the same seeds on both, taking turns
                        play_room(browser, urls[name], game, 40 + room, figures[(name, game)], args.moves,
                                  profilers[name])
                        loads.append(load_average())
            browser.close()
    finally:
        servers["this"].stop()
        if baseline is not None:
            baseline.communicate("", timeout=30)
    print("Room latency (host + 2 phones + a table screen, %d room(s) of each of %s, local relay, headless "
          "Chromium; %s at the start, %s at the end):" % (args.rooms, ", ".join(games), loads[0], loads[-1]))
    for name in sorted(servers, reverse=True):
        if len(servers) > 1:
            print("%s:" % ("this checkout" if name == "this" else "baseline " + args.baseline))
        print(" all games:")
        for step, label in STEPS:
            report(step, [value for game in games for value in figures[(name, game)][step]], label)
        for game in games:
            print(" %s:" % game)
            for step, _ in STEPS:
                report(step, figures[(name, game)][step])
        if profilers[name] is not None:
            profilers[name].report()
            if args.profile_out:
                profilers[name].dump("%s-%s.json" % (args.profile_out, name))


if __name__ == "__main__":
    main()

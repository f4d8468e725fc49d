"""Read one device's state through the documented hooks only (e2e/README.md, "Hooks on every game screen")."""

import time

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

TURN = "html[data-turn]"
MY_TURN = "html[data-turn~=you]:not([data-animating])"
OVER = "html[data-turn=over]"


def root(page, name):
    """Return an attribute of the page's <html> (None when it is not there)."""
    return page.evaluate("name => document.documentElement.getAttribute(name)", name)


def on_game(page):
    """Return True while the page shows a game (it has <html data-turn>)."""
    return root(page, "data-turn") is not None


def whose_turn(page):
    """Return the seats the game waits for now ([] between steps or at the end; None off a game screen)."""
    value = root(page, "data-turn")
    if value is None:
        return None
    return [int(word) for word in value.split() if word not in ("you", "over")]


def is_over(page):
    """Return True once the game on this page has its outcome (<html data-turn="over">)."""
    return root(page, "data-turn") == "over"


def is_my_turn(page):
    """Return True when this device's seat has something to do now and nothing moves by itself."""
    return page.evaluate("() => { const r = document.documentElement; return r.hasAttribute('data-turn')"
                         " && r.getAttribute('data-turn').split(' ').includes('you') && !r.hasAttribute('data-animating'); }")


# Resolves after two animation frames (or 100 ms where frames are held back): a card drawn under the mouse
# pointer starts its hover transition (data-animating) a frame after the drawing that cleared data-busy.
TWO_FRAMES = """() => new Promise(done => {
  const late = setTimeout(done, 100);
  requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(late); done(); }));
})"""


def wait_for_my_turn(page, timeout=None):
    """Wait until this device's seat has something to do (a computer's move or a flight has ended) and
    it still has across two animation frames, so is_my_turn() holds right after the wait: return True.
    Return False once the game is over instead (a loop `while wait_for_my_turn(page): ...` plays to the end)."""
    limit = 60000 if timeout is None else timeout
    deadline = time.monotonic() + limit / 1000
    while True:
        left = max(int((deadline - time.monotonic()) * 1000), 1)
        page.wait_for_selector("%s, %s" % (MY_TURN, OVER), state="attached", timeout=left)
        if is_over(page):
            return False
        page.evaluate(TWO_FRAMES)
        if is_my_turn(page):
            return True
        if time.monotonic() > deadline:
            raise PlaywrightTimeoutError("wait_for_my_turn: %s did not hold for %d ms" % (MY_TURN, limit))


def my_seat(page):
    """Return this device's game seat, None for a table screen or off a game screen."""
    value = root(page, "data-seat")
    return int(value) if value not in (None, "") else None


def scores(page):
    """Return every seat's total so far (the numbers the game's standings are made of), or None off a game."""
    value = root(page, "data-scores")
    if value is None:
        return None
    return [int(word) for word in value.split()]


def hand(page):
    """Return the cards in this device's hand (`data-card`, or Punktejagd's `data-value`), in screen order
    ([] in Golf, which has a grid instead: golf_grid)."""
    return page.locator("[data-testid=hand] [data-card], [data-testid=hand] [data-value]").evaluate_all(
        "cards => cards.map(c => c.dataset.card || c.dataset.value)")


def golf_grid(page, seat):
    """Return {position: card} of the positions of a Golf grid this device may see (a seat without a grid on
    this screen is an error, not an empty grid)."""
    if not page.get_by_test_id("grid-%d" % seat).count():
        raise ValueError("no Golf grid of seat %r on this screen" % (seat,))
    shown = page.get_by_test_id("grid-%d" % seat).locator("[data-card]").evaluate_all(
        "cards => cards.map(c => [c.dataset.testid || c.closest('[data-testid^=pos-]').dataset.testid, c.dataset.card])")
    return {int(testid.split("-")[1]): card for testid, card in shown}


DEAD_CONTROLS = """() => [...document.querySelectorAll('#app button, #app [role=button]')].filter(b => {
  const box = b.getBoundingClientRect();
  const visible = box.width > 0 && box.height > 0 && getComputedStyle(b).visibility !== 'hidden';
  const off = b.disabled || b.getAttribute('aria-disabled') === 'true';
  const live = b.hasAttribute('data-action') || b.closest('[data-action], a[href], form, summary, label');
  return visible && !off && !live;
}).map(b => b.dataset.testid || b.textContent.trim())"""


def dead_controls(page):
    """Return the visible buttons that are neither marked disabled nor wired to an action (should be [])."""
    return page.evaluate(DEAD_CONTROLS)

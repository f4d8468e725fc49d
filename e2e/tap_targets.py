"""What a phone screen must hold to be usable by thumb: tap targets, width, words for people.

Shared by the checks of single screens and the sweep over every screen (test_every_screen.py).
"""

import re

MIN_TARGET = 44  # px, the smallest tap target a thumb hits reliably (WCAG 2.5.5, Apple, Material)

# Every visible control: a radio or checkbox counts by its label, a hidden file input by its label.
TARGETS = ("button, a[href], select, textarea, [data-action], "
           "input:not([type=radio]):not([type=checkbox]):not([type=file]):not([type=hidden]), label:has(input)")

SMALL_TARGETS = """([selector, size]) => {
    // A target is big enough when some size x size square inside it is all its own: the square's
    // corners and middle hit the target (or what is inside it), not a neighbour lying over it.
    const out = [];
    const sheet = document.querySelector(".sheet-backdrop");  // an open sheet: only its own controls can be tapped
    const own = (el, x, y) => { const hit = document.elementFromPoint(x, y); return hit && (hit === el || el.contains(hit)); };
    for (const el of (sheet || document).querySelectorAll(selector)) {
        if (el.closest("label") && el.closest("label") !== el && el.matches("input, select")) continue;
        const style = getComputedStyle(el);
        if (style.visibility === "hidden" || style.display === "none" || !el.getClientRects().length) continue;
        if (el.closest(".visually-hidden") || el.closest("[hidden]")) continue;
        el.scrollIntoView({block: "center", inline: "nearest"});
        const r = el.getBoundingClientRect();
        let fits = false;
        if (r.width >= size - 0.5 && r.height >= size - 0.5) {
            const s = size - 2;
            const xs = [r.left + 1, r.right - 1 - s, r.left + (r.width - s) / 2];
            const ys = [r.top + 1, r.bottom - 1 - s, r.top + (r.height - s) / 2];
            for (const x of xs) for (const y of ys) {
                if (!fits && [[x, y], [x + s, y], [x, y + s], [x + s, y + s], [x + s / 2, y + s / 2]]
                        .every(([px, py]) => own(el, px, py))) fits = true;
            }
        }
        if (!fits) out.push((el.dataset.testid || el.tagName.toLowerCase() + "." + el.className) + " " +
                            Math.round(r.width) + "x" + Math.round(r.height) + " " + JSON.stringify(el.textContent.trim().slice(0, 30)));
    }
    window.scrollTo(0, 0);
    return out;
}"""

OVERFLOW = """() => {
    // Anything reaching past the screen's right edge, unless a scroller of its own holds it.
    const width = document.documentElement.clientWidth, out = [];
    if (document.documentElement.scrollWidth > width) out.push("page " + document.documentElement.scrollWidth);
    for (const el of document.querySelectorAll("#app *")) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.right <= width + 1 && r.left >= -1) continue;
        let held = false;
        for (let up = el.parentElement; up && up.id !== "app"; up = up.parentElement) {
            const o = getComputedStyle(up).overflowX;
            if (o === "auto" || o === "scroll" || o === "hidden" || o === "clip") { held = true; break; }
        }
        if (!held && getComputedStyle(el).position !== "fixed") out.push((el.dataset.testid || el.tagName + "." + el.className) + " " + Math.round(r.left) + ".." + Math.round(r.right));
    }
    return out;
}"""

CUT = """() => {
    // Words a person cannot read whole: cut off with an ellipsis, or a text running out of its box.
    const out = [], name = el => el.dataset.testid || el.tagName.toLowerCase() + "." + el.className;
    for (const el of document.querySelectorAll("#app *")) {
        if (!el.getClientRects().length || !el.textContent.trim()) continue;
        const style = getComputedStyle(el);
        if (style.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1) {
            out.push(name(el) + " cut: " + JSON.stringify(el.textContent.trim()));
        } else if (!el.children.length && el.parentElement && style.position !== "absolute") {  // badges on a pile sit over its corner
            const r = el.getBoundingClientRect(), box = el.parentElement.getBoundingClientRect();
            const own = style.display !== "inline" && style.overflowX === "visible" && el.scrollWidth > el.clientWidth + 1;
            if (own || r.right > box.right + 1 && getComputedStyle(el.parentElement).overflowX === "visible")
                out.push(name(el) + " runs out of its box: " + JSON.stringify(el.textContent.trim()));
        }
    }
    return out;
}"""


# The smallest gap (px) between a button's own words and its border, per button (text over it, such as a
# pile's counter badge, placed with position: absolute, aside).
WORD_GAPS = """(selector) => {
  const out = [];
  for (const b of document.querySelectorAll(selector)) {
    if (!b.getClientRects().length) continue;
    const cs = getComputedStyle(b), r = b.getBoundingClientRect();
    const inner = [r.left + parseFloat(cs.borderLeftWidth), r.right - parseFloat(cs.borderRightWidth)];
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    let gap = Infinity;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent.trim()) continue;
      let placed = false;
      for (let up = node.parentElement; up && up !== b; up = up.parentElement)
        if (getComputedStyle(up).position === "absolute") placed = true;
      if (placed) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const line of range.getClientRects())
        if (line.width >= 1) gap = Math.min(gap, line.left - inner[0], inner[1] - line.right);
    }
    if (gap !== Infinity) out.push([b.dataset.testid || b.className, b.textContent.trim(), gap]);
  }
  return out;
}"""
MIN_WORD_GAP = 6  # px: less, and the words seem to touch the border (a pill's round end most of all)


def small_targets(page, selector=TARGETS, size=MIN_TARGET):
    """Return the visible tap targets (matching selector) without a size x size area of their own."""
    return page.evaluate(SMALL_TARGETS, [selector, size])


def overflowing(page):
    """Return the elements that stick out of the screen sideways (none may)."""
    return page.evaluate(OVERFLOW)


def words_near_borders(page, selector=".btn, .seg span", gap=MIN_WORD_GAP):
    """Return (test id or class, words, px) of the visible buttons whose words come nearer than `gap` to their border."""
    return [found for found in page.evaluate(WORD_GAPS, selector) if found[2] < gap]


def cut_texts(page):
    """Return the texts cut off with an ellipsis or running out of their box (a badge, a chip)."""
    return page.evaluate(CUT)


def texts_only_in(side):
    """Return the pieces of UI text that exist in one language only (side 0: German, 1: English).

    A piece is a text between placeholders, at least 8 characters long, that no text of the other
    language contains: seeing it on a screen in the other language means a string was not translated.
    """
    from spieleabend.ui import golf, i18n, kartenkampf, maumau, night, paodekuai, punktejagd  # noqa: F401  they register
    from spieleabend.ui import charts, handover, results, room_screens, settings, setup, transfer  # noqa: F401
    other = " ".join(pair[1 - side] for pair in i18n.TEXTS.values())
    pieces = set()
    for pair in i18n.TEXTS.values():
        if pair[0] == pair[1]:
            continue
        for piece in re.split(r"%\(\w+\)s", pair[side]):
            piece = piece.strip(" .,:;–-()…")
            if len(piece) >= 8 and piece not in other:
                pieces.add(piece)
    return pieces


KEY_LIKE = re.compile(r"\b(?:app|home|setup|table|level|nav|settings|results|error|final|pass|pj|kk|mm|pdk|golf|tr|room|night|chart)"
                      r"\.[a-z_]+(?:\.[a-z_]+)*\b")


KEYBOARD_WORDS = re.compile(r"\((?:[A-Z]|\d–\d)\)|Tastatur:|Keyboard:")


def keyboard_words(text):
    """Return what in a screen's text names keyboard keys ("(S)", "(1–4)", "Tastatur: …"): noise on a touch screen."""
    return KEYBOARD_WORDS.findall(text)


def untranslated(text, language, pieces):
    """Return what in a screen's text is not in `language`: a raw text key, or a piece of the other language."""
    found = KEY_LIKE.findall(text)
    found += sorted(piece for piece in pieces if piece in text)
    return found

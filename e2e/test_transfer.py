"""Carry a paused game to a second device (a second browser context) by file and by code.

The moved game must go on exactly as it would have on the first device: same cards, same
computer plans, same totals. Used, expired or unknown codes and damaged, newer or foreign files
are refused with a message and change nothing.
"""

import json

import pytest
from playwright.sync_api import expect

from spieleabend.testing import ConsoleWatch, make_transfer_code, open_app, phone_context
from e2e.test_accessibility import serious_violations

SAVE_KEY = "spieleabend.save.punktejagd"


def saved(page):
    return json.loads(page.evaluate("localStorage.getItem('%s')" % SAVE_KEY) or "null")


def start_and_pause(page, url, seed=21):
    """Start Punktejagd against two planning computers, play two rounds, pause."""
    page.goto("%s/?seed=%d&pace=0#/play/punktejagd" % (url, seed))
    page.wait_for_selector("html[data-app-ready]")
    page.get_by_test_id("player-name").fill("Testerin")
    page.get_by_test_id("seats-3").check()
    page.get_by_test_id("strength-stark").check()
    page.get_by_test_id("start-game").click()
    for card in (4, 9):
        play_round(page, card)
        page.get_by_test_id("next-round").click()
    page.get_by_test_id("pause").click()
    page.wait_for_selector("[data-testid=continue-punktejagd]")


def play_round(page, card):
    page.get_by_test_id("card-%d" % card).click()
    page.get_by_test_id("confirm").click()
    page.wait_for_selector("[data-testid=next-round]:not([disabled])")


def revealed(page, seats=3):
    return [page.get_by_test_id("reveal-%d" % s).locator("[data-card]").get_attribute("data-card") for s in range(seats)]


def hand(page):
    return page.locator("[data-testid=hand] [data-value]").evaluate_all("cards => cards.map(c => c.dataset.value)")


def go_on(page, cards=(6, 2)):
    """Play the given cards from the continued game; return what was revealed and the save after it."""
    page.wait_for_selector("[data-testid=hand]")
    before = hand(page)
    reveals = []
    for card in cards:
        play_round(page, card)
        reveals.append(revealed(page))
        page.get_by_test_id("next-round").click()
    state = saved(page)
    return {"hand": before, "reveals": reveals, "state": state["state"], "bot_rng": state["meta"]["bot_rng"],
            "history": state["meta"]["history"]}


def second_device(browser):
    context = phone_context(browser)
    page = context.new_page()
    page.console_watch = ConsoleWatch(page)
    return context, page


# A phone's share sheet, as far as the page can tell (headless Chromium has none).
FAKE_SHARE = """
navigator.canShare = (data) => !!(data && data.files);
navigator.share = (data) => { window.sharedFile = data.files[0]; return Promise.resolve(); };
"""


def test_a_paused_game_moved_by_file_goes_on_identically(page, browser, live_server, tmp_path):
    page.add_init_script(FAKE_SHARE)
    start_and_pause(page, live_server.url)
    page.get_by_test_id("transfer-punktejagd").click()
    page.wait_for_selector("[data-testid=transfer-file]")
    page.get_by_test_id("transfer-share").click()
    page.wait_for_function("() => !!window.sharedFile")
    shared = json.loads(page.evaluate("window.sharedFile.text()"))
    assert page.evaluate("window.sharedFile.name").startswith("spieleabend-punktejagd-")
    assert shared["state"] == saved(page)["state"], "the shared file is the saved game"
    with page.expect_download() as download:
        page.get_by_test_id("transfer-file").click()
    path = tmp_path / "game.json"
    download.value.save_as(path)
    moved = json.loads(path.read_text())
    assert moved["kind"] == "spieleabend.game" and moved["game"] == "punktejagd"
    assert moved["state"] == saved(page)["state"]

    context, other = second_device(browser)
    open_app(other, live_server.url, "")
    other.get_by_test_id("open-transfer").click()
    other.get_by_test_id("import-file").set_input_files(str(path))
    other.wait_for_selector("[data-testid=hand]")
    assert "Runde 3 von 10" in other.get_by_test_id("round-number").inner_text()
    there = go_on(other)
    assert other.console_watch.errors == []
    context.close()

    page.get_by_test_id("transfer-back").click()  # continue on the first device
    here = go_on(page)
    assert there == here, "the moved game continues exactly as on the first device"


def test_a_paused_game_moved_by_code_goes_on_identically_and_the_code_works_once(page, browser, live_server):
    start_and_pause(page, live_server.url, seed=33)
    page.goto(live_server.url + "/?pace=0#/transfer/punktejagd")
    page.wait_for_selector("[data-testid=transfer-make-code]")
    code = make_transfer_code(page)
    assert len(code) == 8
    shown = page.get_by_test_id("transfer-code").inner_text()
    assert shown.replace(" ", "") == code
    # How long it works, counted down in the page (an audit: a code left open looked valid after it expired).
    first = page.locator("[data-testid=transfer-valid] [data-clock]").inner_text()
    assert first in ("10:00", "9:59"), first
    page.wait_for_function("document.querySelector('[data-clock]').textContent.startsWith('9:5')")
    assert serious_violations(page) == []

    context, other = second_device(browser)
    open_app(other, live_server.url, "open")
    other.get_by_test_id("transfer-input").fill(code[:4].lower() + " " + code[4:])
    other.get_by_test_id("transfer-redeem").click()
    other.wait_for_selector("[data-testid=hand]")
    there = go_on(other)

    # A second device with the same code: used once, so refused, and nothing written.
    third, late = second_device(browser)
    open_app(late, live_server.url, "open")
    late.get_by_test_id("transfer-input").fill(code)
    late.get_by_test_id("transfer-redeem").click()
    expect(late.get_by_test_id("transfer-error")).to_contain_text("nicht (mehr)")
    assert saved(late) is None
    third.close()
    assert other.console_watch.errors == []
    context.close()

    # The first device learns that the game was fetched and offers to delete its copy (here: kept).
    expect(page.get_by_test_id("transfer-taken")).to_contain_text("übernommen", timeout=15000)
    page.get_by_test_id("transfer-keep-here").click()
    page.wait_for_selector("[data-testid=continue-punktejagd]")
    page.goto(live_server.url + "/?pace=0#/play/punktejagd/continue")
    here = go_on(page)
    assert there == here


def test_an_expired_code_is_refused(page, live_server):
    start_and_pause(page, live_server.url, seed=5)
    page.goto(live_server.url + "/?pace=0#/transfer/punktejagd")
    code = make_transfer_code(page)  # its QR code loaded before the clock jumps (else a 404)
    store = live_server.app.extensions["spieleabend_transfer"].store
    real_clock = store.clock
    store.clock = lambda: real_clock() + store.ttl + 1  # ten minutes later
    try:
        page.evaluate("localStorage.removeItem('%s')" % SAVE_KEY)
        open_app(page, live_server.url, "open/" + code)
        assert page.get_by_test_id("transfer-input").input_value().replace(" ", "") == code, "the QR address fills it in"
        page.get_by_test_id("transfer-redeem").click()
        expect(page.get_by_test_id("transfer-error")).to_contain_text("abgelaufen")
        assert saved(page) is None
    finally:
        store.clock = real_clock


def everything(page):
    """Return every stored key and value (the order of keys in localStorage is not fixed)."""
    return json.loads(page.evaluate("JSON.stringify(localStorage)"))


def file_like(page, tmp_path, name, document):
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return str(path)


def test_damaged_newer_and_foreign_files_change_nothing_and_replacing_asks_first(page, live_server, tmp_path):
    start_and_pause(page, live_server.url, seed=8)
    mine = everything(page)
    good = {"format": 1, "kind": "spieleabend.game", "game": "punktejagd", "saved_at": 1}
    good.update({"state": saved(page)["state"], "meta": saved(page)["meta"]})
    cases = [
        ("broken.json", json.dumps(good)[:-40], "beschädigt"),
        ("newer.json", dict(good, format=9), "neueren Version"),
        ("skat.json", dict(good, game="skat"), "kennt dieses Spiel nicht"),
        ("photo.json", {"hello": "world"}, "keine Spieleabend-Datei"),
        ("wrong-state.json", dict(good, state={"round": "x"}), "beschädigt"),
    ]
    page.goto(live_server.url + "/?pace=0#/open")
    page.wait_for_selector("[data-testid=import-file]")
    for name, document, message in cases:
        page.get_by_test_id("import-file").set_input_files(file_like(page, tmp_path, name, document))
        expect(page.get_by_test_id("transfer-error")).to_contain_text(message)
        assert everything(page) == mine, name
    other = dict(good, state=dict(good["state"]), meta=dict(good["meta"], round=7))
    other["state"]["names"] = ["Zweite", "Anna", "Ben"]
    path = file_like(page, tmp_path, "other.json", other)
    page.get_by_test_id("import-file").set_input_files(path)
    expect(page.get_by_test_id("replace-question")).to_contain_text("schon eine Partie Punktejagd")
    page.get_by_test_id("cancel-replace").click()
    assert everything(page) == mine, "keeping mine changes nothing"
    page.get_by_test_id("import-file").set_input_files(path)
    page.get_by_test_id("confirm-replace").click()
    page.wait_for_selector("[data-testid=hand]")
    assert saved(page)["state"]["names"] == ["Zweite", "Anna", "Ben"]


@pytest.mark.parametrize("route", ["open", "transfer/punktejagd"])
def test_transfer_screens_have_no_serious_accessibility_violations(page, live_server, route):
    if route.startswith("transfer"):
        start_and_pause(page, live_server.url, seed=2)
    open_app(page, live_server.url, route)
    assert serious_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_without_the_server_the_code_is_not_offered_but_the_file_is(page, context, live_server):
    start_and_pause(page, live_server.url, seed=3)
    page.goto(live_server.url + "/?pace=0#/transfer/punktejagd")
    page.wait_for_selector("[data-testid=transfer-make-code]")
    context.set_offline(True)
    try:
        page.get_by_test_id("transfer-make-code").click()
        expect(page.get_by_test_id("transfer-offline")).to_contain_text("nicht erreichbar")
        assert page.get_by_test_id("transfer-code").count() == 0
        with page.expect_download() as download:
            page.get_by_test_id("transfer-file").click()
        assert download.value.suggested_filename.startswith("spieleabend-punktejagd-")
    finally:
        context.set_offline(False)

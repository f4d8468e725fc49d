"""Replays in a real Chromium (issue 26): finish Kartenkampf and Golf, watch them, share one by code."""

import json
import os

from spieleabend.testing import ConsoleWatch, dead_controls, make_transfer_code, phone_context, save_screenshot, start_solo
from e2e.test_accessibility import serious_violations

SHOTS = os.environ.get("REPLAY_SHOTS")  # a folder to keep screenshots of the replay screens in, when set


def shot(page, name):
    if SHOTS:
        save_screenshot(page, os.path.join(SHOTS, name + ".png"))


def step(page):
    marker = page.get_by_test_id("replay-step")
    return int(marker.get_attribute("data-step")), int(marker.get_attribute("data-steps")), \
        int(marker.get_attribute("data-round"))


def words(page):
    return page.get_by_test_id("replay-words").inner_text()


def finish_kartenkampf(page, url):
    start_solo(page, url, "kartenkampf", ["seats-2", "strength-stark"], 11)
    for _ in range(10):
        card = page.locator("[data-testid=hand] button[data-card]").first.get_attribute("data-card")
        page.get_by_test_id("card-%s" % card).click()
        page.get_by_test_id("confirm").click()
        page.wait_for_selector("[data-testid=reveal-sorted]")
        page.get_by_test_id("next-round").click()
    page.wait_for_selector("[data-testid=final-headline]")


def finish_golf(page, url):
    start_solo(page, url, "golf", ["seats-2", "strength-leicht"], 21)  # waits for the peek by itself
    for _ in range(600):
        page.wait_for_selector("[data-testid=final-headline], [data-testid=next-round], [data-testid=peek-done], "
                               "[data-testid=knock]:not([disabled]), [data-testid=stock]:not([disabled]), "
                               "[data-testid=discard-drawn]")
        if page.get_by_test_id("final-headline").count():
            return
        if page.get_by_test_id("next-round").count():
            page.get_by_test_id("next-round").click()
        elif page.get_by_test_id("peek-done").count():
            page.get_by_test_id("peek-done").click()
        elif page.locator("[data-testid=knock]:not([disabled])").count():
            page.get_by_test_id("knock").click()  # knock at once: nine short rounds
        elif page.get_by_test_id("discard-drawn").count():
            page.get_by_test_id("discard-drawn").click()
        else:
            page.get_by_test_id("stock").click()
    raise AssertionError("the Golf game did not end")


def watch_newest(page):
    page.get_by_test_id("to-results").click()
    page.get_by_test_id("result-watch").first.click()
    page.wait_for_selector("[data-testid=replay-step]")


def test_watch_a_finished_kartenkampf_forward_back_a_round_and_one_seats_view(page, live_server):
    finish_kartenkampf(page, live_server.url)
    final_scores = page.locator("html").get_attribute("data-scores")
    watch_newest(page)
    at, total, round_number = step(page)
    assert (at, round_number) == (0, 1) and total == 20, "ten rounds of two secret choices"
    assert "verteilt" in words(page)
    assert page.get_by_test_id("replay-hand-1").locator(".card.face").count() == 10, "all hands open"
    page.get_by_test_id("replay-forward").click()
    assert step(page)[0] == 1 and "legt" in words(page)
    page.get_by_test_id("replay-forward").click()
    assert "Runde 1:" in words(page) or "Runde 1" in page.get_by_test_id("replay-step").inner_text()
    page.get_by_test_id("replay-back").click()
    assert step(page)[0] == 1
    page.get_by_test_id("replay-round").select_option("3")
    assert step(page)[2] == 4 and step(page)[0] == 7, "round 4 from its first choice"
    assert page.get_by_test_id("replay-middle").locator(".card").count() == 1, "the card just chosen, on the table"
    shot(page, "kartenkampf-round-4")
    page.get_by_test_id("replay-seat-view").select_option("0")
    assert page.get_by_test_id("replay-hand-1").locator(".card.face").count() == 0
    assert page.get_by_test_id("replay-hand-1").locator(".card.back").count() == 6, "the computer chose first"
    assert page.get_by_test_id("replay-middle").locator(".card.back").count() == 1, "its choice face down to seat 0"
    assert page.get_by_test_id("replay-hand-0").locator(".card.face").count() == 7
    shot(page, "kartenkampf-seat-view")
    assert serious_violations(page) == [] and dead_controls(page) == []
    page.get_by_test_id("replay-end").click()
    assert step(page)[0] == 20 and "Ende der Partie" in words(page)
    scores = [int(text.split()[0]) for text in page.locator(".replay-score").all_inner_texts()]
    assert " ".join(str(score) for score in scores) == final_scores
    page.get_by_test_id("replay-start").click()
    page.get_by_test_id("replay-play").click()
    page.wait_for_function("Number(document.querySelector('[data-testid=replay-step]').dataset.step) >= 2")
    shot(page, "kartenkampf-playing")
    page.get_by_test_id("replay-tap-pause").click()  # any tap pauses
    paused = step(page)[0]
    page.wait_for_timeout(1500)
    assert step(page)[0] == paused and page.get_by_test_id("replay-tap-pause").count() == 0


def test_a_golf_replay_shared_by_code_and_file_plays_on_a_second_device(page, browser, live_server, tmp_path):
    finish_golf(page, live_server.url)
    watch_newest(page)
    total = step(page)[1]
    page.get_by_test_id("replay-round").select_option("2")
    assert step(page)[2] == 3
    page.get_by_test_id("replay-forward").click()
    shot(page, "golf-round-3")
    page.get_by_test_id("replay-end").click()
    assert "Ende der Partie" in words(page)
    page.get_by_test_id("replay-share").click()
    with page.expect_download() as download:
        page.get_by_test_id("transfer-file").click()
    replay_file = tmp_path / download.value.suggested_filename
    download.value.save_as(replay_file)
    assert json.loads(replay_file.read_text())["kind"] == "spieleabend.replay"
    code = make_transfer_code(page)
    shot(page, "golf-share")

    context = phone_context(browser)
    try:
        other = context.new_page()
        watch = ConsoleWatch(other)
        other.goto(live_server.url + "/#/open")
        other.wait_for_selector("html[data-app-ready]")
        other.get_by_test_id("transfer-input").fill(code)
        other.get_by_test_id("transfer-redeem").click()
        other.wait_for_selector("[data-testid=replay-step]")
        assert step(other) == (0, total, 1)
        other.get_by_test_id("replay-round").select_option("2")
        other.get_by_test_id("replay-forward").click()
        assert step(other)[2] == 3
        other.get_by_test_id("replay-seat-view").select_option("1")
        assert other.get_by_test_id("replay-hand-0").locator(".card.face").count() == 0
        other.get_by_test_id("replay-end").click()
        assert "Ende der Partie" in words(other)
        shot(other, "golf-received")
        other.get_by_test_id("replay-results").click()
        assert other.get_by_test_id("received-replay").count() == 1
        assert other.get_by_test_id("result-item").count() == 0, "a received replay is no result of this device"
        other.goto(live_server.url + "/#/open")  # the same replay as a file opens as well
        other.wait_for_selector("html[data-app-ready]")
        other.get_by_test_id("import-file").set_input_files(str(replay_file))
        other.wait_for_selector("[data-testid=replay-step]")
        assert step(other) == (0, total, 1)
        assert watch.errors == []
    finally:
        context.close()

"""The testers' kit (spieleabend.testing) on its own: the plugin's options and fixtures, and frame
checkers that fail on each kind of leak. Its browser fixtures are exercised by e2e/test_kit.py."""

import json

import pytest

from spieleabend.testing import check_frames, frames

pytest_plugins = ["pytester"]


def relayed(*datas):
    """Return websocket frames as the relay delivers the host's room data to a device."""
    return [json.dumps({"type": "msg", "from": "host", "to": 1, "data": data}) for data in datas]


def test_the_plugin_offers_its_fixtures_to_any_project(pytester):
    result = pytester.runpytest("--fixtures", "-p", "no:cacheprovider")
    text = result.stdout.str()
    for name in ("live_server", "shipped_server", "redis_live_server", "own_server", "server_config", "browser", "context", "page",
                 "screen_page", "devices", "room", "cuttable_line"):
        assert "\n%s" % name in text, name


def test_actions_settle_by_default_and_not_with_no_settle(pytester):
    pytester.makepyfile(test_settling="""
        from playwright.sync_api import Locator, Page

        def test_settling(request):
            wanted = not request.config.getoption("no_settle")
            assert getattr(Locator.click, "settles", False) is wanted
            assert hasattr(Locator.click, "__wrapped__") is wanted
    """)
    assert pytester.runpytest_subprocess("-p", "no:cacheprovider").ret == 0
    assert pytester.runpytest_subprocess("-p", "no:cacheprovider", "--no-settle").ret == 0


def test_a_rooms_server_seam_takes_the_settings_for_create_app(pytester):
    pytester.makepyfile(test_config="""
        import pytest

        @pytest.fixture(scope="session")
        def server_config():
            return {"RELAY_MAX_ROOMS": 3}

        def test_config(live_server):
            assert live_server.app.config["RELAY_MAX_ROOMS"] == 3
            assert live_server.url.startswith("http://127.0.0.1:")

        def test_the_shipped_app_keeps_its_own_settings(shipped_server, live_server):
            assert shipped_server.app.config.get("RELAY_MAX_ROOMS") != 3
            assert shipped_server.url != live_server.url
    """)
    assert pytester.runpytest_subprocess("-p", "no:cacheprovider").ret == 0


PJ_VIEW = {"seat": 1, "hand": [1, 2], "plan": None, "legal": ["play 1", "play 2"], "committed": [True, False]}


def test_punktejagd_checker_fails_on_a_choice_in_a_view_and_on_an_early_reveal():
    table = {"k": "table", "view": PJ_VIEW, "cr": {"id": 0, "want": "commit", "commits": {}}}
    assert check_frames("punktejagd", relayed(table), 1) == 0
    leaking = dict(table, view=dict(PJ_VIEW, log=[{"plays": ["play 7"]}]))
    with pytest.raises(AssertionError, match="a choice inside a view"):
        check_frames("punktejagd", relayed(leaking), 1)
    with pytest.raises(AssertionError, match="reveal before every seat had committed"):
        check_frames("punktejagd", relayed(table, {"k": "reveal", "id": 0, "entries": []}), 1)


def mm_view(**changes):
    view = {"seat": 1, "hand": ["7H", "8H"], "legal": ["play 7H", "draw"], "top": "9H", "events": [],
            "last_deal": None, "names": ["A", "B"], "minus": [0, 0]}
    view.update(changes)
    return {"k": "table", "view": view}


def test_maumau_checker_fails_on_a_card_outside_the_own_hand_and_the_pile():
    assert check_frames("maumau", relayed(mm_view()), 1) == 1
    with pytest.raises(AssertionError, match="cards outside the own hand"):
        check_frames("maumau", relayed(mm_view(hands=[["KS"]])), 1)
    with pytest.raises(AssertionError, match="another phone's hand"):
        check_frames("maumau", relayed(mm_view()), 1, other_hands=[["7H", "8H"]])


def test_paodekuai_checker_fails_on_a_card_another_seat_has_not_played():
    view = {"seat": 1, "hand": ["3H"], "legal": [], "played": ["4S"], "trick": ["4S"], "hand_sizes": [15, 1, 16]}
    assert check_frames("paodekuai", relayed({"k": "table", "view": view}), 1) == 1
    with pytest.raises(AssertionError, match="has not played"):
        check_frames("paodekuai", relayed({"k": "table", "view": dict(view, trick=["5D"])}), 1)


def golf_view(**changes):
    view = {"seat": 1, "round": 1, "phase": "turn", "discard": ["5C"], "drawn": None, "drawing": None,
            "peek": None, "known": [None, None, None, None], "last_round": None, "legal": ["draw"]}
    view.update(changes)
    return {"k": "table", "view": view}


def test_golf_checker_fails_on_a_card_the_device_never_saw():
    assert check_frames("golf", relayed(golf_view(drawn="KH", drawing=1)), 1) == 1
    with pytest.raises(AssertionError, match="cards it has not seen"):
        check_frames("golf", relayed(golf_view(news="Ben zieht KH")), 1)
    with pytest.raises(AssertionError):
        check_frames("golf", relayed(golf_view(drawn="KH", drawing=0)), 1)


def test_kartenkampf_checker_fails_on_a_card_of_this_round_before_its_reveal():
    view = {"seat": 2, "log": [], "reveal": None, "spent": [[], [], []], "cards_left": [10, 10, 10],
            "legal": ["play 3"], "pending": None, "choice": None}
    table = {"k": "table", "seat": 2, "view": view, "cr": {"id": 0, "commits": {"1": "ab" * 32}}}
    reveal = {"k": "reveal", "id": 0, "entries": [[0, "play 4", "n", "h"], [1, "play 9", "n", "h"], [2, "play 3", "n", "h"]]}
    assert check_frames("kartenkampf", relayed(table, reveal), 2) == {0: {0: 4, 1: 9, 2: 3}}
    with pytest.raises(AssertionError, match="a choice inside a view"):
        check_frames("kartenkampf", relayed(dict(table, view=dict(view, news="play 9"))), 2)
    with pytest.raises(AssertionError, match="a commitment is only a hash"):
        check_frames("kartenkampf", relayed(dict(table, cr={"id": 0, "commits": {"1": "play 9"}})), 2)


def test_only_the_hosts_room_data_counts_as_received():
    other = json.dumps({"type": "presence", "role": "host", "status": "away"})
    assert frames.host_data([other, "not json"] + relayed({"k": "lobby"})) == [{"k": "lobby"}]
    assert frames.cards_in({"a": ["play JC:H mau", "10D"], "b": "KS x"}) == ["JC", "10D", "KS"]


def test_a_failed_scenario_reports_what_each_device_showed_and_received(pytester):
    pytester.makepyfile(test_stuck="""
        def test_stuck(devices, live_server):
            anna = devices("anna")
            anna.page.goto(live_server.url + "/?pace=0#/play/golf")
            anna.page.wait_for_selector("html[data-app-ready]")
            assert False, "the room never went on"

        def test_fine(devices):
            devices("ben")
    """)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1)
    text = result.stdout.str()
    assert text.count("devices when the test failed") == 1, text
    assert "anna: 0 frames received" in text and "page #/play/golf turn=" in text, text
    assert "ben:" not in text, text


def test_a_view_of_another_seat_names_the_expected_seat_and_the_frame():
    view = {"seat": 1, "hand": ["3H"], "legal": [], "played": [], "trick": [], "hand_sizes": [16, 1, 16], "deal": 1}
    received = relayed({"k": "lobby"}, {"k": "table", "view": view}, {"k": "table", "view": dict(view, seat=2)})
    with pytest.raises(AssertionError, match=r"anna: frames\[2\] holds a view of seat 2, expected seat 1"):
        check_frames("paodekuai", received, 1, "anna")
    with pytest.raises(AssertionError, match=r"frames\[1\] holds a view of seat 1, expected a table screen"):
        check_frames("paodekuai", received[:2], None, "tv")


def test_a_misspelled_game_names_the_games():
    with pytest.raises(ValueError, match="unknown game 'pao-de-kuai': one of punktejagd, kartenkampf, maumau, paodekuai, golf"):
        check_frames("pao-de-kuai", [], 1)


PDK_DEALS = [[["3H", "4S"], ["5D", "6D"], ["7C", "8C"]], [["9H", "10S"], ["JD", "QD"], ["KC", "AC"]]]


def pdk_view(deal, hand, played=(), sizes=(2, 2, 2)):
    return {"k": "table", "view": {"seat": 1, "deal": deal, "hand": list(hand), "legal": [], "played": list(played),
                                   "trick": list(played), "hand_sizes": list(sizes)}}


def test_paodekuai_dealt_per_deal_as_a_list_or_a_dict():
    received = relayed(pdk_view(1, ["5D", "6D"], ["3H"], (1, 2, 2)), pdk_view(2, ["JD", "QD"], ["AC"], (2, 2, 1)))
    assert check_frames("paodekuai", received, 1, dealt=PDK_DEALS) == 2
    assert check_frames("paodekuai", received, 1, dealt={1: PDK_DEALS[0], 2: PDK_DEALS[1]}) == 2
    assert check_frames("paodekuai", received[:1], 1, dealt=PDK_DEALS[0]) == 1  # one deal's hands, as before
    # The first deal's hands given for a game of two deals: the message says the argument may be the wrong deal.
    with pytest.raises(AssertionError, match=r"cards not dealt to seat 1 in deal 2: JD QD; is `dealt` this deal's hands"):
        check_frames("paodekuai", received, 1, dealt=PDK_DEALS[0])
    with pytest.raises(AssertionError, match="an unplayed card of seat 2 in deal 2"):
        check_frames("paodekuai", relayed(pdk_view(2, ["JD", "QD"], [], (2, 2, 2)), dict(
            pdk_view(2, ["JD", "QD"]), view=dict(pdk_view(2, ["JD", "QD"])["view"], trick=["KC"]))), 1, dealt=PDK_DEALS)


def test_reveals_inside_table_frames_count_in_the_tallies():
    """A phone that reloaded gets a round's reveal inside the next table frame's round log, not as a reveal."""
    table = {"k": "table", "view": PJ_VIEW, "cr": {"id": 0, "want": "reveal", "commits": {}}}
    reveal = {"k": "reveal", "id": 0, "entries": []}
    after = {"k": "table", "view": dict(PJ_VIEW, log=[{"round": 1}, {"round": 2}]), "cr": {"id": 2, "want": "commit", "commits": {}}}
    assert check_frames("punktejagd", relayed(table, reveal, after), 1) == 2
    assert check_frames("punktejagd", relayed({"k": "lobby"}, table, after, {"k": "lobby"}), 1) == 2
    view = {"seat": 2, "log": [{"round": 1, "played": [4, 9, 3]}], "reveal": None, "spent": [[], [], []],
            "cards_left": [10, 10, 10], "legal": ["play 5"], "pending": None, "choice": None}
    table = {"k": "table", "seat": 2, "view": view, "cr": {"id": 1, "commits": {}}}
    assert check_frames("kartenkampf", relayed(table), 2) == {0: {0: 4, 1: 9, 2: 3}}


def test_the_report_leaves_keep_alive_frames_out():
    from spieleabend.testing.room import last_said

    said = relayed({"k": "table", "n": 1}, {"k": "table", "n": 2}) + [json.dumps({"type": "pong"})] * 8
    assert last_said(said, 6) == said[:2]
    assert last_said(said + [json.dumps({"type": "presence"})], 2) == [said[1], json.dumps({"type": "presence"})]

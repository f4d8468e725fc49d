"""spieleabend.testing: script the app in Chromium with pytest and Playwright (e2e/README.md).

The pytest plugin (spieleabend.testing.plugin, loaded by its entry point) gives the fixtures
`live_server`, `redis_live_server`, `own_server`, `server_config`, `browser`, `context`, `page`, `screen_page`,
`devices`, `room` and `cuttable_line`. This package never runs in the browser: server/build.py
leaves it out of the app's bundle, and it imports Playwright and pytest, test dependencies only.
"""

from spieleabend.testing.browser import (CHROMIUM_FLAGS, PHONE, SCREEN, Chromium, ConsoleWatch, LiveServer,
                                         app_worker, check_game, chromium_executable, launch_chromium, make_transfer_code,
                                         open_app, phone_context, pointer_rules, reopen, save_screenshot, screen_context,
                                         start_game, start_solo, table_shown)
from spieleabend.testing.frames import cards_in, check_frames, games_played, hands_seen, host_data, tables
from spieleabend.testing.readers import (MY_TURN, OVER, dead_controls, golf_grid, hand, is_my_turn, is_over, my_seat,
                                         scores, wait_for_my_turn, whose_turn)
from spieleabend.games import GAME_MODULES as GAMES  # the games a script may name
from spieleabend.testing.room import Device, Devices, Room, join, open_room, start_room
from spieleabend.testing.settle import tap_without_waiting, wait_until_settled

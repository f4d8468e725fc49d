"""The project's own scenarios: every fixture and helper comes from the spieleabend.testing plugin.

Installed with the `test` extra, pytest loads the plugin by its entry point (e2e/README.md); its
settling of Playwright's actions is on here as for any tester.
"""

import pytest


@pytest.fixture(scope="session")
def server_config():
    """The app with every module shipped compiled, as a returning visitor's browser holds them.

    A person compiles each game's modules once, on a first visit (the app's worker does it in idle time
    after the start, web/app-worker.js); every later start reads them from Brython's cache. The scenarios
    start several hundred fresh browsers, and each paid that first visit again: opening a game from a
    fresh context took 5.5 s instead of 2.4 (both under the suite's load). The first visit itself, and
    the idle-time compile, are tested on `shipped_server` (test_evening_path, test_rooms, test_shell).
    """
    return {"COMPILE_ALL": True}


def pytest_collection_modifyitems(items):
    """Mark the scenarios, and run them before the unit tests (./scripts/test hands out whole files in this order).

    A scenario file takes minutes and the unit test files seconds: started last, one scenario file would keep
    one worker busy while the others idle; the unit tests fill the end of the run instead.
    """
    for item in items:
        if "e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
    items.sort(key=lambda item: "e2e" not in str(item.fspath))  # stable: each file keeps its order

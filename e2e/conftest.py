"""The project's own scenarios: every fixture and helper comes from the spieleabend.testing plugin.

Installed with the `test` extra, pytest loads the plugin by its entry point (e2e/README.md); its
settling of Playwright's actions is on here as for any tester.
"""

import pytest


def pytest_collection_modifyitems(items):
    for item in items:
        if "e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)

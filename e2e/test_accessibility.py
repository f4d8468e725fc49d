"""axe-core scans: no serious or critical violation on the app's screens."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from spieleabend.testing import open_app

AXE = Axe()


def serious_violations(page):
    results = AXE.run(page)
    return [
        "%s: %s (%s)" % (v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"] if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("route", ["", "settings", "results"])
def test_shell_screens_have_no_serious_violations(page, live_server, route):
    open_app(page, live_server.url, route)
    assert serious_violations(page) == []

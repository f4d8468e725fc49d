"""The public deployment: a real nginx in front of two server processes sharing a real redis-server.

The proxy settings are the repository's own (deploy/spieleabend-proxy.conf). The host and
the phones land on different processes; one process is killed mid-game, and its devices
reconnect through nginx to the other one while the game goes on.
"""

import re
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from e2e.test_rooms import assert_no_secrets, choose, go_on, hand
from spieleabend.testing import join, open_room
from spieleabend.testing.redis import RedisServer, end_process, free_port
from tests import nginx_process
from tests.server_process import ServerProcess

ROOT = Path(__file__).resolve().parent.parent

# Test-only routing: a device's cookie says which process it lands on first (a plain
# round robin would spread them too, but not predictably); the other process is the
# backup nginx falls over to, as it does in deploy/nginx.conf.
TEST_ROUTING = """
    upstream lands_on_a {{
        server 127.0.0.1:{a} max_fails=1 fail_timeout=60s;
        server 127.0.0.1:{b} backup;
    }}
    upstream lands_on_b {{
        server 127.0.0.1:{b} max_fails=1 fail_timeout=60s;
        server 127.0.0.1:{a} backup;
    }}
    map $cookie_lands_on $spieleabend_upstream {{
        default lands_on_a;
        b lands_on_b;
    }}
    server {{
        listen 127.0.0.1:{port};
        include {include};
    }}"""


class Nginx:
    """nginx on a free loopback port with the repository's proxy settings, in front of two ports."""

    def __init__(self, port_a, port_b):
        self.dir = tempfile.mkdtemp(prefix="spieleabend-nginx-")
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        self.process = nginx_process.start(nginx_process.write_config(self.dir, TEST_ROUTING.format(
            a=port_a, b=port_b, port=self.port, include=ROOT / "deploy" / "spieleabend-proxy.conf")))

    def relay_upstreams(self):
        """Return the upstream address of every relay websocket nginx has finished."""
        log = (Path(self.dir) / "access.log").read_text()
        return [line.split()[1] for line in log.splitlines() if line.startswith("/relay")]

    def stop(self):
        end_process(self.process)
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def deployment():
    """redis-server, two server processes sharing it, and nginx in front of both."""
    redis = RedisServer()
    # As deployed (docs/deploy.md): one trusted proxy in front.
    a, b = ServerProcess(redis.url, ("--proxies", "1")), ServerProcess(redis.url, ("--proxies", "1"))
    proxy = None
    try:
        a.wait_ready()
        b.wait_ready()
        proxy = Nginx(a.port, b.port)
        yield proxy, a, b
    finally:
        if proxy is not None:
            proxy.stop()
        a.kill()
        b.stop()
        redis.stop()


def lands_on(device, proxy, process):
    """Send this device's requests to process "a" or "b" first."""
    device.context.add_cookies([{"name": "lands_on", "value": process, "url": proxy.url}])


def test_a_room_game_through_nginx_on_two_processes_survives_a_killed_process(devices, deployment):
    proxy, a, b = deployment
    host, anna, ben = devices("host"), devices("anna"), devices("ben")
    tv = devices("tv", landscape=True)
    for device, process in ((host, "a"), (anna, "b"), (ben, "a"), (tv, "b")):
        lands_on(device, proxy, process)
    url = proxy.url
    link = open_room(host, url, "punktejagd")
    assert re.match(r"^\d{4}$", host.by("room-pin").inner_text())
    join(anna, url, link, "Anna")
    join(ben, url, link, "Ben")
    join(tv, url, link, "TV", as_screen=True)
    host.page.wait_for_selector("[data-testid=lobby-place-2]")
    host.by("room-seats-4").check()
    host.by("start-room-game").click()
    for device in (host, anna, ben):
        device.page.wait_for_selector("[data-testid=hand]")
    reconnects = []
    for round_number in range(1, 11):
        anna_card = hand(anna)[0]
        choose(anna, anna_card)
        anna.page.wait_for_selector("[data-testid=my-plan]")
        if round_number == 4:
            # Process a dies with the host's and Ben's sockets; Anna's choice is in.
            killed = time.monotonic()
            a.kill()
            for device in (host, ben):
                device.page.wait_for_selector("[data-testid=room-status]:not([data-state=online])")
            for device in (host, ben):
                device.page.wait_for_selector("[data-testid=room-status][data-state=online]",
                                              timeout=30000)
                reconnects.append(time.monotonic() - killed)
            assert "Runde 4 von 10" in host.by("round-number").inner_text()
        choose(ben, hand(ben)[-1])
        choose(host, hand(host)[len(hand(host)) // 2])
        for device in (host, anna, ben):
            device.page.wait_for_selector("[data-testid=reveal-title]:has-text('Runde %d ')" % round_number)
        assert anna.by("reveal-1").locator("[data-value='%d']" % anna_card).count() == 1
        go_on([host, anna, ben])
    for device in (host, anna, ben, tv):
        device.page.wait_for_selector("[data-testid=final-headline]")
    assert host.by("standing-1").inner_text() == anna.by("standing-1").inner_text()
    host.by("room-menu").click()
    host.by("end-room").click()
    for device in (anna, ben, tv):
        device.page.wait_for_selector("[data-testid=room-final]")
    # Every round was played and shown, and no device saw another seat's secrets.
    assert assert_no_secrets(anna, 1) == 10
    assert assert_no_secrets(ben, 2) == 10
    assert assert_no_secrets(tv, None) == 10
    # The relay sockets really were spread over both processes.
    upstreams = set(proxy.relay_upstreams())
    assert {"127.0.0.1:%d" % a.port, "127.0.0.1:%d" % b.port} <= upstreams, upstreams
    print("reconnect after a killed process: %s s (median %.2f s)" % (
        ", ".join("%.2f" % r for r in reconnects), statistics.median(reconnects)))


# deploy/nginx.conf is a site file (server blocks for the http context): wrapped in a main
# config with paths of its own, it must pass `nginx -t` on the nginx installed here (Debian's).
def test_the_shipped_nginx_site_passes_nginx_t(tmp_path):
    certificate, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=karten.example.org", "-keyout", str(key), "-out", str(certificate)],
                   check=True, capture_output=True)
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    for old, new in (("/etc/letsencrypt/live/karten.example.org/fullchain.pem", certificate),
                     ("/etc/letsencrypt/live/karten.example.org/privkey.pem", key),
                     ("/etc/nginx/snippets/spieleabend-proxy.conf", ROOT / "deploy" / "spieleabend-proxy.conf")):
        assert old in site, old
        site = site.replace(old, str(new))
    (tmp_path / "site.conf").write_text(site)
    nginx_process.write_config(tmp_path, "    include %s;" % (tmp_path / "site.conf"))  # passes `nginx -t`

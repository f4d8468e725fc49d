"""deploy/nginx.conf before and after the certificate: the port-80 part alone is a working site that
serves certbot's challenge and redirects the rest, as docs/deploy.md installs it first."""

import re
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from spieleabend.testing.redis import end_process, free_port
from tests import nginx_process

ROOT = Path(__file__).resolve().parent.parent
SITE = (ROOT / "deploy" / "nginx.conf").read_text()
DEPLOY = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")


def deploy_md_command(start):
    """Return the command of docs/deploy.md's shell block that starts with `start` (lines joined)."""
    match = re.search(r"^(%s.*?)(?<!\\)\n" % re.escape(start), DEPLOY, re.M | re.S)
    assert match, start
    return match.group(1).replace("\\\n", " ")


def first_part(domain):
    """The site as docs/deploy.md installs it before the certificate exists (its own sed command)."""
    command = deploy_md_command("sed -e \"s/karten\\.example\\.org/$site/g\" -e ").split("|")[0]
    assert "/^# --- TLS/,$d" in command and "deploy/nginx.conf" in command
    done = subprocess.run(["bash", "-c", "site=%s; %s" % (domain, command)], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return done.stdout


def site_config(tmp_path, site):
    """Write the site `site` and a checked main config that includes it; return the config's path."""
    (tmp_path / "site.conf").write_text(site)
    return nginx_process.write_config(tmp_path, "    include %s;" % (tmp_path / "site.conf"))


def test_the_tls_part_starts_at_its_marker_and_the_port_80_part_needs_no_certificate(tmp_path):
    assert SITE.count("\n# --- TLS") == 1
    head, tls = SITE.split("\n# --- TLS")
    assert "ssl_certificate" not in head and "listen 80;" in head
    assert "listen 443 ssl" in tls and "ssl_certificate /etc/letsencrypt/live/karten.example.org/" in tls
    part = first_part("spiele.example.net")
    assert "karten.example.org" not in part and "server_name spiele.example.net;" in part
    assert "ssl" not in part and "location ^~ /.well-known/acme-challenge/" in part
    site_config(tmp_path, part)  # passes `nginx -t`


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def get(url):
    """Return (status, headers, body) without following redirects."""
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(url, timeout=5) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as answer:
        return answer.code, answer.headers, answer.read()


def test_the_port_80_server_serves_the_acme_challenge_and_redirects_everything_else(tmp_path):
    port = free_port()
    webroot = tmp_path / "letsencrypt"
    (webroot / ".well-known" / "acme-challenge").mkdir(parents=True)
    (webroot / ".well-known" / "acme-challenge" / "token-123").write_text("token-123.key")
    part = first_part("karten.example.org")
    for old, new in (("listen 80;", "listen 127.0.0.1:%d;" % port), ("listen [::]:80;", ""),
                     ("root /var/www/letsencrypt;", "root %s;" % webroot)):
        assert old in part, old
        part = part.replace(old, new)
    nginx = nginx_process.start(site_config(tmp_path, part))
    base = "http://127.0.0.1:%d" % port
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                status, headers, body = get(base + "/.well-known/acme-challenge/token-123")
                break
            except OSError:
                assert time.monotonic() < deadline and nginx.poll() is None, "nginx did not start"
                time.sleep(0.1)
        assert (status, body) == (200, b"token-123.key")
        assert headers["Content-Type"].startswith("text/plain")
        status, _, _ = get(base + "/.well-known/acme-challenge/missing")
        assert status == 404, "an unknown token is not redirected either"
        status, headers, _ = get(base + "/rooms?x=1")
        assert status == 301 and headers["Location"] == "https://127.0.0.1/rooms?x=1"
    finally:
        end_process(nginx)


def test_deploy_md_gets_the_certificate_between_the_two_installs():
    cut = DEPLOY.index("-e '/^# --- TLS/,$d' deploy/nginx.conf")
    certbot = DEPLOY.index("sudo certbot certonly --webroot -w /var/www/letsencrypt -d \"$site\"")
    whole = DEPLOY.index('sed -e "s/karten\\.example\\.org/$site/g" deploy/nginx.conf')
    assert cut < certbot < whole
    assert "sudo mkdir -p /var/www/letsencrypt" in DEPLOY[:certbot]
    assert "apt-get install git python3-venv nginx redis-server certbot" in DEPLOY


def test_deploy_md_installs_the_unit_with_the_sites_address():
    """An operator's audit: the unit was left to be edited by hand, and a forgotten public URL sent join links
    to karten.example.org."""
    command = deploy_md_command("sed -e \"s/karten\\.example\\.org/$site/g\" deploy/spieleabend.service").split("|")[0]
    done = subprocess.run(["bash", "-c", "site=spiel.example.net; %s" % command], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    assert "Environment=SPIELEABEND_PUBLIC_URL=https://spiel.example.net" in done.stdout.splitlines()
    assert "karten.example.org" not in done.stdout
    assert "sudo systemctl daemon-reload && sudo systemctl enable --now spieleabend" in DEPLOY
    assert "--deploy-hook 'systemctl reload nginx'" in DEPLOY


def test_deploy_md_sizes_nginx_for_the_websockets():
    words = " ".join(DEPLOY.split())
    assert "`events { worker_connections 768; }`: about 384 sockets per nginx worker" in words
    assert "`worker_connections 8192;`" in words and "`worker_rlimit_nofile 16384;`" in words

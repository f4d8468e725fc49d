"""`python -m server` (what ./scripts/start runs): a production server, the same addresses printed."""

import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from spieleabend.testing.redis import free_port
from tests.server_process import ROOT


def start(*options):
    """Start `python -m server` with options; return the process and its port."""
    port = free_port()
    env = dict(os.environ)
    env.pop("SPIELEABEND_REDIS_URL", None)
    process = subprocess.Popen([sys.executable, "-m", "server", "--port", str(port), *options],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, start_new_session=True)
    return process, port


def fetch(port, seconds=120):
    """Return the response to GET / once the server answers."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return urllib.request.urlopen("http://127.0.0.1:%d/" % port, timeout=5)
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def stop(process):
    """Stop the server with Ctrl+C's signal; return everything it printed."""
    os.killpg(process.pid, signal.SIGINT)
    try:
        output, _ = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
    return output


def test_start_serves_with_gunicorn_and_prints_where_to_open_the_app():
    process, port = start("--host", "127.0.0.1", "--public-url", "https://karten.example.org")
    try:
        response = fetch(port)
        assert response.status == 200
        assert response.headers["Server"].startswith("gunicorn")
    finally:
        output = stop(process)
    assert "http://localhost:%d/" % port in output
    assert "Einladungslinks / join links:  https://karten.example.org" in output
    assert "development server" not in output.lower()


def test_start_refuses_a_redis_option_that_is_not_a_url():
    process, _ = start("--redis", "localhost:6379")
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 2
    assert "--redis takes a URL such as redis://127.0.0.1:6379/0" in output


def test_the_trusted_proxy_count_comes_from_the_option_or_the_environment(monkeypatch, capsys):
    from server.__main__ import parse_args

    monkeypatch.delenv("SPIELEABEND_PROXIES", raising=False)
    assert parse_args([]).proxies == 0
    assert parse_args(["--proxies", "1"]).proxies == 1
    monkeypatch.setenv("SPIELEABEND_PROXIES", "2")
    assert parse_args([]).proxies == 2
    assert parse_args(["--proxies", "0"]).proxies == 0
    for argv, env in ((["--proxies", "-1"], "1"), ([], "many")):
        monkeypatch.setenv("SPIELEABEND_PROXIES", env)
        with pytest.raises(SystemExit) as refused:
            parse_args(argv)
        assert refused.value.code == 2
    assert "SPIELEABEND_PROXIES must be the number" in capsys.readouterr().err

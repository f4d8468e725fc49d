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


def test_a_redis_url_that_cannot_work_is_refused_with_the_reason(capsys):
    from server.__main__ import parse_args

    for url, reason in (("redis://127.0.0.1:abc/0", "the port must be a number"),
                        ("redis://127.0.0.1:70000/0", "the port must be a number"),
                        ("redis://h/xyz", "the database after the host must be a number"),
                        ("redis://", "the host is missing"),
                        ("localhost:6379", "must start with redis://")):
        with pytest.raises(SystemExit) as refused:
            parse_args(["--redis", url])
        assert refused.value.code == 2, url
        error = capsys.readouterr().err
        assert reason in error and "Traceback" not in error, url
    assert parse_args(["--redis", "redis://:secret@127.0.0.1:6379/1"]).redis.endswith("/1")
    with pytest.raises(SystemExit):
        parse_args(["--redis", "redis://:secret@127.0.0.1:abc/1"])
    assert "secret" not in capsys.readouterr().err, "a password is never printed"


def test_an_unreachable_redis_is_a_clear_warning_and_the_server_still_starts():
    closed = "redis://:secret@127.0.0.1:%d/0" % free_port()  # nobody listens there
    process, port = start("--host", "127.0.0.1", "--redis", closed)
    try:
        assert fetch(port).status == 200
    finally:
        output = stop(process)
    assert "WARNING: Redis unter / at redis://:***@127.0.0.1:" in output
    assert "Rooms and transfer codes wait until Redis answers" in output
    assert "secret" not in output and "Traceback" not in output

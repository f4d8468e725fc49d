"""The public URL and the Redis URL are checked the same way on every path: `python -m server`
(./scripts/start), the app factory and gunicorn's own command; the documented commands behind a
proxy all listen on this machine only, trust the proxy and name the public address."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from server import create_app, public_url_problem
from spieleabend.testing.redis import free_port

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def no_settings_from_outside(monkeypatch):
    for name in ("SPIELEABEND_REDIS_URL", "SPIELEABEND_PUBLIC_URL", "SPIELEABEND_PROXIES"):
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize("url", ["https://karten.example.org", "https://karten.example.org/",
                                 "http://192.168.1.20:8000", "https://[2001:db8::1]:8443/"])
def test_a_full_public_url_is_accepted(url):
    assert public_url_problem(url) is None


@pytest.mark.parametrize("url, reason", [
    ("karten.example.org/", "must start with https://"),
    ("karten.example.org", "must start with https://"),
    ("ftp://karten.example.org", "must start with https://"),
    ("https://", "the host is missing"),
    ("https:///rooms", "the host is missing"),
    ("https://karten.example.org:http/", "the port must be a number"),
    ("https://karten.example.org/?x=1", "?query"),
])
def test_a_public_url_without_scheme_or_host_is_refused(url, reason):
    assert reason in public_url_problem(url)


def test_python_m_server_refuses_such_a_public_url_as_option_or_environment(monkeypatch, capsys):
    from server.__main__ import parse_args

    with pytest.raises(SystemExit) as refused:
        parse_args(["--public-url", "karten.example.org/"])
    assert refused.value.code == 2
    error = capsys.readouterr().err
    assert "--public-url takes the full public address, such as https://karten.example.org" in error
    assert "'karten.example.org/'" in error and "Traceback" not in error
    monkeypatch.setenv("SPIELEABEND_PUBLIC_URL", "karten.example.org")
    with pytest.raises(SystemExit):
        parse_args([])
    assert "SPIELEABEND_PUBLIC_URL takes the full public address" in capsys.readouterr().err
    assert parse_args(["--public-url", "https://karten.example.org"]).public_url == "https://karten.example.org"


def test_python_m_server_names_the_redis_url_as_it_was_given(monkeypatch, capsys):
    from server.__main__ import parse_args

    monkeypatch.setenv("SPIELEABEND_REDIS_URL", "redis://:secret@127.0.0.1:6390/x")
    with pytest.raises(SystemExit):
        parse_args([])
    error = capsys.readouterr().err
    assert "SPIELEABEND_REDIS_URL takes a URL such as redis://127.0.0.1:6379/0" in error
    assert "the database after the host must be a number" in error and "secret" not in error
    assert parse_args(["--redis", "redis://127.0.0.1:6390/1"]).redis == "redis://127.0.0.1:6390/1"


def test_the_app_factory_refuses_what_python_m_server_refuses(monkeypatch):
    for config, words in (({"PUBLIC_URL": "karten.example.org/"}, "must start with https://"),
                          ({"RELAY_REDIS_URL": "redis://127.0.0.1:6390/x"}, "database after the host"),
                          ({"RELAY_REDIS_URL": "localhost:6379"}, "must start with redis://")):
        with pytest.raises(ValueError, match=re.escape(words)):
            create_app(dict(config, TESTING=True))
    monkeypatch.setenv("SPIELEABEND_PUBLIC_URL", "karten.example.org")
    with pytest.raises(ValueError, match="SPIELEABEND_PUBLIC_URL takes the full public address"):
        create_app({"TESTING": True})
    monkeypatch.setenv("SPIELEABEND_PUBLIC_URL", "https://karten.example.org")
    assert create_app({"TESTING": True}).config["PUBLIC_URL"] == "https://karten.example.org"


@pytest.mark.parametrize("setting, words", [
    ("SPIELEABEND_REDIS_URL=redis://127.0.0.1:6390/x", "the database after the host must be a number"),
    ("SPIELEABEND_PUBLIC_URL=karten.example.org/", "must start with https://"),
])
def test_gunicorn_with_the_config_refuses_them_before_any_worker_starts(setting, words):
    name, value = setting.split("=", 1)
    env = {key: value for key, value in os.environ.items() if not key.startswith("SPIELEABEND_")}
    env[name] = value
    started = subprocess.run(
        [sys.executable, "-m", "gunicorn", "-c", "python:server.gunicorn_config",
         "--bind", "127.0.0.1:%d" % free_port(), "server:create_app()"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert started.returncode != 0
    assert ("Spieleabend: %s takes" % name) in started.stderr and words in started.stderr, started.stderr
    assert "Booting worker" not in started.stderr


def documented_commands():
    """Every command of README.md's and docs/deploy.md's shell blocks that serves behind the proxy."""
    found = []
    for name in ("README.md", "docs/deploy.md"):
        text = (ROOT / name).read_text(encoding="utf-8")
        for block in re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S):
            for command in block.replace("\\\n", " ").splitlines():
                if "gunicorn -c" in command or re.search(r"(scripts/start|python -m server) --", command):
                    found.append((name, " ".join(command.split())))
    unit = (ROOT / "deploy" / "spieleabend.service").read_text()
    found.append(("deploy/spieleabend.service", " ".join(
        line for line in unit.splitlines() if line.startswith(("Environment=", "ExecStart=")))))
    return found


def test_every_documented_command_behind_the_proxy_listens_locally_trusts_it_and_names_the_public_url():
    commands = documented_commands()
    assert len([c for c in commands if "gunicorn -c" in c[1]]) == 2, commands  # README's and deploy.md's
    assert len(commands) >= 5, commands
    for name, command in commands:
        assert "0.0.0.0" not in command, (name, command)
        assert "--host 127.0.0.1" in command or "--bind 127.0.0.1:" in command, (name, command)
        assert "--proxies 1" in command or "SPIELEABEND_PROXIES=1" in command, (name, command)
        assert re.search(r"(--public-url |SPIELEABEND_PUBLIC_URL=)https://karten\.example\.org", command), \
            (name, command)

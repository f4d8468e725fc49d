"""Benchmarks say what they miss before they start, in one way for all of them (bench/common.py)."""

import importlib.util
import subprocess
import sys

import pytest

from bench.common import chromium, missing_prerequisites, program, python_package, require


def test_a_missing_package_names_the_extra_that_installs_it(capsys):
    with pytest.raises(SystemExit) as exit_info:
        require("bench.example", python_package("no_such_package_for_spieleabend", "prod"))
    assert exit_info.value.code == 2
    message = capsys.readouterr().err
    assert "bench.example cannot run" in message
    assert "no_such_package_for_spieleabend" in message and "prod extra" in message


def test_nothing_is_said_when_everything_is_there(capsys):
    require("bench.example", python_package("json", "test"))
    assert capsys.readouterr().err == ""


def test_chromium_and_programs_are_looked_up_where_the_benchmarks_run_them(monkeypatch):
    monkeypatch.setenv("CHROMIUM", "/nonexistent/chromium")
    lines = missing_prerequisites([chromium(), program("no-such-program-for-spieleabend", "get it somewhere")])
    assert lines[0].startswith("Chromium at /nonexistent/chromium")
    assert lines[1] == "the program no-such-program-for-spieleabend: get it somewhere"
    monkeypatch.setenv("CHROMIUM", sys.executable)  # any executable file will do
    assert missing_prerequisites([chromium()]) == []


@pytest.mark.skipif(importlib.util.find_spec("gunicorn") is not None, reason="gunicorn is installed here")
def test_relay_load_without_gunicorn_says_the_prod_extra_is_missing():
    run = subprocess.run([sys.executable, "-m", "bench.relay_load", "--setups", "werkzeug,gthread", "--rooms", "1",
                          "--seconds", "1"], capture_output=True, text=True)
    assert run.returncode == 2
    assert "prod extra" in run.stderr and "gunicorn" in run.stderr
    assert "server exited" not in run.stdout + run.stderr

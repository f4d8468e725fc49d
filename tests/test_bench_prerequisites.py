"""Benchmarks say what they miss before they start, in one way for all of them (bench/common.py)."""

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


def test_relay_load_without_gunicorn_says_what_to_install():
    # gunicorn is a dependency of the project, so hide it as a machine without it would lack it.
    hidden = ("import runpy, sys; sys.modules['gunicorn'] = None; "
              "sys.argv = ['bench.relay_load', '--setups', 'werkzeug,gthread', '--rooms', '1', '--seconds', '1']; "
              "runpy.run_module('bench.relay_load', run_name='__main__')")
    run = subprocess.run([sys.executable, "-c", hidden], capture_output=True, text=True)
    assert run.returncode == 2
    assert "gunicorn" in run.stderr and "pip install -e ." in run.stderr
    assert "server exited" not in run.stdout + run.stderr

"""gunicorn as the systemd unit runs it: a user without a home (ProtectHome=true) and no ERROR at start."""

import os
import subprocess
import sys
import time
import urllib.request

import pytest

from spieleabend.testing.redis import free_port
from tests.server_process import ROOT, stop

gunicorn_config = pytest.importorskip("gunicorn.config")


def without_a_home():
    """The environment of the unit's user: a home that does not exist, no XDG_RUNTIME_DIR."""
    env = dict(os.environ, HOME="/proc/nonexistent")  # not even root can create it
    for name in ("XDG_RUNTIME_DIR", "SPIELEABEND_REDIS_URL", "SPIELEABEND_PUBLIC_URL", "SPIELEABEND_PROXIES"):
        env.pop(name, None)
    return env


def serve_then_stop(command, port):
    """Run a server until it answers on port, stop it with SIGINT; return everything it printed."""
    process = subprocess.Popen(command, cwd=ROOT, env=without_a_home(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/" % port, timeout=5).read()
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, process.communicate()[0]
                time.sleep(0.3)
        time.sleep(1.5)  # gunicorn starts its control server after the workers
    finally:
        output = stop(process)
    return output


def test_the_config_turns_the_control_socket_off():
    from server import gunicorn_config as ours

    assert ours.control_socket_disable is True
    if "control_socket_disable" in gunicorn_config.Config().settings:  # gunicorn 25.1 and later
        assert gunicorn_config.Config().settings["control_socket_disable"].default is False


def test_a_gunicorn_without_the_setting_ignores_it_in_the_config_file():
    """gunicorn before 25.1 (pyproject allows 22 on) does not know control_socket_disable."""
    from gunicorn.app.base import Application

    class Older(Application):
        def init(self, parser, opts, args):
            return None

        def load_config(self):
            self.cfg.settings.pop("control_socket_disable", None)
            self.load_config_from_module_name_or_filename("python:server.gunicorn_config")

        def load(self):
            return None

    assert Older().cfg.settings["threads"].get() == 1600


def test_plain_gunicorn_with_the_config_and_no_home_logs_no_error():
    port = free_port()
    output = serve_then_stop([sys.executable, "-m", "gunicorn", "-c", "python:server.gunicorn_config",
                              "--bind", "127.0.0.1:%d" % port, "server:create_app()"], port)
    assert "Booting worker" in output, output
    assert not start_errors(output), output


def start_errors(output):
    """Return the lines of errors at start: the control socket's (a worker that a loaded machine let take
    longer than the graceful timeout to stop is gunicorn's own report of the stop, not of the start)."""
    return [line for line in output.splitlines()
            if ("[ERROR]" in line and "was sent SIGKILL" not in line) or "Control server" in line
            or "Control socket" in line]


def test_python_m_server_with_no_home_logs_no_error():
    port = free_port()
    output = serve_then_stop([sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(port)], port)
    assert "Spieleabend läuft / is running" in output, output
    assert not start_errors(output), output

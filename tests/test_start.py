"""`python -m server` (what ./scripts/start runs): a production server, the same addresses printed."""

import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from spieleabend.testing.redis import free_port
from tests.server_process import ROOT, stop


def start(*options, environment=None):
    """Start `python -m server` with options; return the process and its port."""
    port = free_port()
    env = dict(os.environ)
    for name in ("SPIELEABEND_REDIS_URL", "SPIELEABEND_PUBLIC_URL", "SPIELEABEND_PROXIES"):
        env.pop(name, None)
    env.update(environment or {})
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
    assert "phones cannot join" not in output, "a public address in front takes the phones"
    assert "development server" not in output.lower()


def test_a_server_on_this_machine_only_says_that_phones_cannot_join():
    from server.__main__ import banner, loopback_only, parse_args

    alone = parse_args(["--host", "127.0.0.1"])
    assert loopback_only(alone) and any("phones cannot join" in line for line in banner(alone, None))
    for args in (["--host", "127.0.0.1", "--proxies", "1"], ["--host", "127.0.0.1", "--public-url", "https://x.example"],
                 ["--host", "0.0.0.0"]):
        assert not loopback_only(parse_args(args)), args


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


def test_log_lines_carry_time_process_and_level_and_info_logs_each_request():
    """An operator's audit: the app's lines had no time, level or process (two workers: who said it?), and
    nothing but warnings could be asked for."""
    import re

    process, port = start("--host", "127.0.0.1", "--log-level", "info")
    try:
        assert fetch(port).status == 200
        urllib.request.urlopen("http://127.0.0.1:%d/healthz" % port, timeout=30).read()
    finally:
        output = stop(process)
    assert re.search(r'"GET /healthz HTTP/1\.1" 200', output), output[-2000:]
    # The plain gunicorn command reads server.gunicorn_config: the app's lines get the same stamps there.
    said = subprocess.run([sys.executable, "-c", "import logging, server.gunicorn_config; "
                           "logging.getLogger('server.relay').warning('Redis is out of reach')"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ \[\d+\] WARNING server\.relay: Redis is out of reach$",
                    said.stderr.strip()), said.stderr


def test_a_port_out_of_range_is_refused_with_the_reason(capsys):
    from server.__main__ import parse_args

    for port in ("99999", "0", "-1", "http"):
        with pytest.raises(SystemExit) as refused:
            parse_args(["--port", port])
        assert refused.value.code == 2
        assert "a port is a number from 1 to 65535" in capsys.readouterr().err


def test_a_taken_port_or_an_unknown_host_stops_the_start_with_one_clear_line():
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        for options in (("--host", "127.0.0.1", "--port", str(taken.getsockname()[1])),
                        ("--host", "no-such-host.invalid")):
            process, _ = start(*options)
            output, _ = process.communicate(timeout=60)
            assert process.returncode == 1, output
            assert "Spieleabend startet nicht / does not start:" in output, output
            assert "is running" not in output and "ERROR" not in output and "Traceback" not in output, output
    finally:
        taken.close()


def test_the_addresses_are_printed_once_the_server_listens_with_the_host_and_public_url_given():
    # 127.0.0.2 is this machine too (all of 127/8 is loopback), but not what `localhost` reaches.
    process, port = start("--host", "127.0.0.2",
                          environment={"SPIELEABEND_PUBLIC_URL": "https://karten.example.org"})
    lines = []
    try:
        for line in process.stdout:
            lines.append(line)
            if "Ctrl+C" in line:
                break
        # Printed means listening: the port takes a connection at once.
        socket.create_connection(("127.0.0.2", port), timeout=5).close()
    finally:
        output = "".join(lines) + stop(process)
    assert "on this device:  http://127.0.0.2:%d/" % port in output
    assert "localhost" not in output
    assert "Einladungslinks / join links:  https://karten.example.org" in output


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_stopping_the_server_tells_every_device_shutdown_at_once(stop_signal):
    from tests.relay_client import RelayClient, RelayClosed

    # gunicorn's graceful timeout far beyond the waits below: had the devices been told only when it ran out,
    # the waits would fail (no wall-clock figure in the test: a loaded machine once took 3 s to say it).
    process, port = start("--host", "127.0.0.1", environment={"SPIELEABEND_GRACEFUL_TIMEOUT": "300"})
    try:
        fetch(port)
        host = RelayClient("ws://127.0.0.1:%d/relay" % port)
        host.create()
        stray = RelayClient("ws://127.0.0.1:%d/relay" % port)  # connected, no room yet
        os.kill(process.pid, stop_signal)  # systemd's stop signals the main process
        assert host.recv_type("closed", timeout=10)["reason"] == "shutdown"
        with pytest.raises(RelayClosed) as closed:
            host.recv(timeout=10)
        assert closed.value.close_code == 1001
        assert stray.wait_closed().close_code == 1001
        process.wait(60)
    finally:
        output = stop(process) if process.poll() is None else process.stdout.read()
    assert "Traceback" not in output


def test_ctrl_c_ends_a_worker_that_was_handing_a_connection_to_its_thread_pool():
    # gthread's own quick exit shut its thread pool down inside the signal handler: landing while the main thread
    # was in the pool's submit, which holds the pool's lock, it waited on that lock for ever (a CI run's devices
    # were told nothing for 10 s). The handler is called here with the lock held, as the interrupted submit holds it.
    from concurrent import futures
    from types import SimpleNamespace

    from gunicorn.workers.gthread import ThreadWorker
    from server import gunicorn_config

    told = []
    relay = SimpleNamespace(close_all=lambda: told.append("shutdown"))
    pool = futures.ThreadPoolExecutor(max_workers=1)
    worker = ThreadWorker.__new__(ThreadWorker)  # the parts of a started worker the handlers use
    worker.alive, worker.tpool = True, pool
    worker.wsgi = SimpleNamespace(extensions={"relay": relay})
    worker.cfg = SimpleNamespace(worker_int=gunicorn_config.worker_int)
    before = {number: signal.getsignal(number) for number in (signal.SIGTERM, signal.SIGQUIT, signal.SIGINT)}
    try:
        for number in (signal.SIGQUIT, signal.SIGINT):  # what gunicorn's worker installs
            signal.signal(number, worker.handle_quit)
        gunicorn_config.post_worker_init(worker)
        on_ctrl_c = signal.getsignal(signal.SIGINT)
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
    exits = []

    def interrupted_submit():
        with pool._shutdown_lock:
            try:
                on_ctrl_c(signal.SIGINT, None)
            except SystemExit as exit:
                exits.append(exit.code)

    handling = threading.Thread(target=interrupted_submit, daemon=True)
    handling.start()
    handling.join(60)
    assert exits == [0], "the worker waited on its thread pool's lock instead of exiting"
    assert told == ["shutdown"] and worker.alive is False
    pool.shutdown()


def test_the_werkzeug_fallback_also_tells_every_device_shutdown_on_sigterm():
    from tests.relay_client import RelayClient

    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-c", "import server.__main__ as m; m.gunicorn_available = lambda: False; "
                               "m.main(['--host', '127.0.0.1', '--port', '%d'])" % port],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        for line in process.stdout:
            if "Ctrl+C" in line:
                break
        host = RelayClient("ws://127.0.0.1:%d/relay" % port)
        host.create()
        process.send_signal(signal.SIGTERM)
        assert host.recv_type("closed")["reason"] == "shutdown"
        assert host.wait_closed().close_code == 1001
        assert process.wait(15) == 0
    finally:
        output = stop(process) if process.poll() is None else process.stdout.read()
    assert "Traceback" not in output

"""A real redis-server (Debian's package) on a free loopback port, for tests and the `redis_live_server` fixture."""

import contextlib
import shutil
import signal
import socket
import subprocess
import tempfile
import time

import pytest


def free_port():
    """Return a loopback port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def end_process(process, seconds=10):
    """Ask a service process to end; kill it if it has not ended within `seconds`."""
    process.terminate()
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class RedisServer:
    """One redis-server process without persistence; `url` for clients, `stop()` to end it."""

    def __init__(self, port=None):
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        if not shutil.which(binary):
            pytest.fail("redis-server is not installed (Debian: apt-get install redis-server; "
                        "./scripts/test installs it)")
        self.port = port or free_port()
        self.url = "redis://127.0.0.1:%d/0" % self.port
        self.folder = tempfile.mkdtemp(prefix="spieleabend-redis-")
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", self.folder, "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._wait_ready()

    def _wait_ready(self, seconds=20):
        """Block until the server answers PING."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError("redis-server exited: %s" % self.process.stderr.read().decode())
            with contextlib.suppress(OSError), \
                    socket.create_connection(("127.0.0.1", self.port), 0.2) as line:
                line.sendall(b"PING\r\n")
                if line.recv(16).startswith(b"+PONG"):
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not answer on port %d" % self.port)

    def stop(self):
        """End the server and remove its folder."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a paused server cannot end
            end_process(self.process)
        shutil.rmtree(self.folder, ignore_errors=True)

    def pause(self):
        """Freeze the server (SIGSTOP): clients' commands hang as on a lost network."""
        self.process.send_signal(signal.SIGSTOP)

    def resume(self):
        """Let a paused server go on, with every key it had."""
        self.process.send_signal(signal.SIGCONT)

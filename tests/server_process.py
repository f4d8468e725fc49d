"""A real `python -m server` process on a free loopback port, for tests that kill one."""

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from spieleabend.testing.redis import free_port
from tests.relay_client import RelayClient

ROOT = Path(__file__).resolve().parent.parent


def stop(process):
    """Stop the server with Ctrl+C's signal; return everything it printed."""
    os.killpg(process.pid, signal.SIGINT)
    try:
        output, _ = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
    return output


class ServerProcess:
    """`python -m server --redis URL` on its own loopback port, in its own process group."""

    def __init__(self, redis_url, extra=()):
        self.port = free_port()
        self.url = "ws://127.0.0.1:%d/relay" % self.port
        self.process = subprocess.Popen(
            [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(self.port),
             "--redis", redis_url, *extra],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
        # Read as it comes: a pipe nobody reads would stop a chatty server once its buffer is full.
        self.lines = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append(line.decode(errors="replace"))

    def output(self):
        """Return what the server printed so far (its banner and its log)."""
        return "".join(self.lines)

    def wait_ready(self, seconds=120):
        """Block until the relay accepts a socket (the app builds its assets first)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self._reader.join(5)
                raise RuntimeError("server exited: %s" % self.output())
            try:
                RelayClient(self.url, open_timeout=2).close()
                return self
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("server on port %d did not start" % self.port)

    def kill(self):
        """Kill the server and its workers at once, as a crash or an OOM kill would."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self):
        """Stop the server politely, or kill it."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

"""A Redis restart as docs/deploy.md describes it: with Debian's default snapshots the rooms go on,
without persistence (`--save ""`) every room ends and a device is told it does not exist any more."""

import shutil
import signal
import subprocess
import tempfile
import time

import pytest

from spieleabend.testing.redis import end_process, free_port
from tests.relay_client import RelayClient, RelayClosed
from tests.server_process import ServerProcess

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


class RestartableRedis:
    """redis-server on a fixed port and folder, restarted as `systemctl restart redis-server` does (SIGTERM)."""

    def __init__(self, save):
        if not shutil.which(REDIS):
            pytest.fail("redis-server is not installed (Debian: apt-get install redis-server; "
                        "./scripts/test installs it)")
        self.port, self.save = free_port(), save
        self.folder = tempfile.mkdtemp(prefix="spieleabend-redis-restart-")
        self.url = "redis://127.0.0.1:%d/0" % self.port
        self.process = self._start()

    def _start(self):
        process = subprocess.Popen([REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", self.save,
                                    "--appendonly", "no", "--dir", self.folder, "--loglevel", "warning"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                return process
            except redis.RedisError:
                assert time.monotonic() < deadline and process.poll() is None, "redis-server did not start"
                time.sleep(0.05)

    def restart(self):
        self.process.send_signal(signal.SIGTERM)  # with save points set, Redis saves on the way down
        self.process.wait(20)
        self.process = self._start()

    def stop(self):
        end_process(self.process)
        shutil.rmtree(self.folder, ignore_errors=True)


def resume_or_error(url, room, token, seconds=60):
    """Resume as the app does, retrying while the relay waits for Redis; return (client, error code)."""
    deadline = time.monotonic() + seconds
    while True:
        client = RelayClient(url)
        try:
            client.resume(room, token)
            return client, None
        except RelayClosed as closed:
            if closed.error_code == "unknown_room":
                return None, closed.error_code
        except OSError:
            pass
        client_close(client)
        assert time.monotonic() < deadline, "no answer after the Redis restart"
        time.sleep(0.5)


def client_close(client):
    try:
        client.close()
    except Exception:  # already closed by the server
        pass


@pytest.mark.parametrize("save, room_survives", [("3600 1", True), ("", False)],
                         ids=["default-snapshots", "no-persistence"])
def test_a_redis_restart_keeps_the_rooms_only_with_persistence(save, room_survives):
    redis = RestartableRedis(save)
    server = ServerProcess(redis.url)
    opened = []
    try:
        server.wait_ready()
        host = RelayClient(server.url)
        opened.append(host)
        room = host.create()["room"]
        anna = RelayClient(server.url)
        opened.append(anna)
        anna.join(room, secret=host.welcome["secret"], name="Anna")
        redis.restart()
        host_again, error = resume_or_error(server.url, room, host.welcome["token"])
        if room_survives:
            assert error is None
            opened.append(host_again)
            anna_again, error = resume_or_error(server.url, room, anna.welcome["token"])
            assert error is None
            opened.append(anna_again)
            host_again.to_seat(1, "still your hand")
            assert anna_again.recv_type("msg")["data"] == "still your hand"
        else:
            assert error == "unknown_room", "without persistence the restarted Redis has no rooms"
    finally:
        for client in opened:
            client_close(client)
        server.stop()
        redis.stop()

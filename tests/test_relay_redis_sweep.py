"""The Redis relay's sweep: every room for the expiry now and then; a dead process and a lost socket at once."""

import time

import pytest
import redis

from tests.relay_fixtures import RelayServer, relay_servers  # noqa: F401  (fixture)

# The expiry's sweep of every room never comes round in these tests: only the quick turns run.
NO_EXPIRY_SWEEP = {"RELAY_REDIS_EXPIRY_EVERY": 10 ** 6}


@pytest.fixture
def server(relay_servers):
    """The session's Redis-backed relay server, reset with the expiry's sweep out of the way."""
    if "redis" not in relay_servers:
        relay_servers["redis"] = RelayServer(backend="redis")
    shared = relay_servers["redis"]
    shared.reset(NO_EXPIRY_SWEEP)
    yield shared
    shared.close_clients()


def others_turns_taken(relay):
    """Mark this interval's sweep and expiry as taken by another process."""
    relay.redis.set(relay.prefix + "expired", "another", px=60000)
    relay.redis.set(relay.prefix + "swept", "another", px=60000)


def assert_anna_away(host):
    """The host's next presence notice tells that Anna (seat 1) is away."""
    notice = host.recv_type("presence")
    assert (notice["seat"], notice["name"], notice["status"]) == (1, "Anna", "away")


def test_a_place_on_a_process_that_stopped_beating_turns_away_at_the_next_turn(server):
    relay = server.relay
    host = server.host()
    server.seat(host, name="Anna")
    relay._sweep_turn(5.0)  # the first turn reads every room: nothing is due
    code = host.welcome["room"]
    # Anna's place as a process that has died leaves it: her address names that process, which
    # beat once (so it is in the set of processes) and beats no more.
    relay.redis.hset(relay._at_key(code), "s1", "0badc0ffee00/7")
    relay.redis.sadd(relay._processes_key(), "0badc0ffee00")
    relay.redis.delete(relay.prefix + "swept")
    relay._sweep_turn(5.0)
    assert_anna_away(host)
    # Handled once: the dead process leaves the set, and the next turns read no room.
    assert relay.redis.smembers(relay._processes_key()) == {relay.process.encode()}


def test_a_socket_closed_while_redis_was_away_is_put_right_by_its_own_process_on_any_turn(
        server, monkeypatch):
    relay = server.relay
    host = server.host()
    seat = server.seat(host, name="Anna")

    def out_of_reach(*args, **kwargs):
        raise redis.ConnectionError("Redis is away")

    monkeypatch.setattr(relay, "_sync", out_of_reach)
    seat_id = seat.welcome.get("seat")
    seat.close()
    deadline = time.monotonic() + 10
    while any(conn.place is not None and conn.place.key == "s%d" % seat_id for conn in relay.local.values()):
        assert time.monotonic() < deadline, "the relay never let the closed socket go"
        time.sleep(0.02)
    monkeypatch.undo()
    # The place still names the closed socket in Redis; nobody has told the host.
    assert relay.redis.hget(relay._at_key(host.welcome["room"]), "s1") is not None
    # Another process holds this interval's turns: only this process knows the socket is gone.
    others_turns_taken(relay)
    relay._sweep_turn(5.0)
    assert_anna_away(host)
    assert relay._lost == set()


"""The Redis relay's way for frames (CommandStream): in order per thread, no replies awaited, sync; its routes."""

import threading
import time

import pytest
import redis

from server.relay import DEFAULTS
from server.relay_redis import RELAY_SCRIPT, CommandStream, RedisRelay
from spieleabend.testing.redis import free_port
from tests.relay_fixtures import fresh_prefix, session_redis  # noqa: F401  (fixture)



def run_in_threads(write, count):
    """Run write(0) … write(count - 1) in as many threads at once; return when all are done."""
    writers = [threading.Thread(target=write, args=(thread,)) for thread in range(count)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()

def stream_to(url, **options):
    """Return a CommandStream to the Redis at `url` and a plain client to check what it did."""
    return (CommandStream(redis.ConnectionPool.from_url(url), RELAY_SCRIPT, **options),
            redis.Redis.from_url(url))


def listen(check):
    """Subscribe to a fresh process channel; return it and its listener (the subscription's answer read)."""
    channel = fresh_prefix() + "bus:p2"
    listener = check.pubsub(ignore_subscribe_messages=True)
    listener.subscribe(channel)
    assert listener.get_message(timeout=5) is None
    return channel, listener


HOLD = 30.0  # the hold in the tests below: it ends when the test says so (hold_until), not after a time


def hold_until(monkeypatch, release, holds):
    """Make every hold last until `release` is set, noting each in `holds`; other sleeps are real."""
    real_sleep = time.sleep

    def sleep(seconds):
        if seconds != HOLD:
            return real_sleep(seconds)
        holds.append(seconds)
        release.wait(10)

    monkeypatch.setattr(time, "sleep", sleep)


def test_commands_of_many_threads_run_in_each_threads_order_and_sync_waits_for_all(session_redis):
    stream, check = stream_to(session_redis.url)
    prefix = fresh_prefix()

    def write(thread):
        for n in range(300):
            stream.send("RPUSH", "%slist%d" % (prefix, thread), n)

    run_in_threads(write, 8)
    stream.sync(10)
    expected = [str(n).encode() for n in range(300)]
    assert [check.lrange("%slist%d" % (prefix, thread), 0, -1) for thread in range(8)] == [expected] * 8
    stream.close()


def test_the_stream_awaits_no_replies_and_has_the_relay_script_loaded(session_redis):
    stream, check = stream_to(session_redis.url)
    prefix = fresh_prefix()
    for n in range(50):
        stream.send("INCR", prefix + "count")  # a reply left unread would come back in sync's place
    stream.sync(10)
    stream.sync(10)
    assert check.get(prefix + "count") == b"50"
    assert check.script_exists(check.register_script(RELAY_SCRIPT).sha) == [True]
    stream.close()


def test_a_presence_notice_that_arrives_late_does_not_bring_back_an_address_given_up():
    relay = RedisRelay(dict(DEFAULTS), "redis://127.0.0.1:1/0")  # nothing here talks to Redis
    relay.routes["K7QM2X"] = (4, {"h": (1, "p1/1"), "s1": (4, "p2/7")})
    relay._route("K7QM2X", "s1", 6, "")  # Anna's phone went away (the room's 6th change)
    relay._route("K7QM2X", "s1", 5, "p2/7")  # the notice of the 5th change comes late
    relay._route("K7QM2X", "s2", 3, "p2/9")  # older than what the hello read: Ben is not there
    assert relay.routes["K7QM2X"] == (4, {"h": (1, "p1/1"), "s1": (6, "")})
    relay._route("K7QM2X", "s1", 7, "p1/12")  # back, on the other process
    relay._route("UNKNWN", "s1", 9, "p1/13")  # a room with no socket here: nothing to keep
    assert relay.routes == {"K7QM2X": (4, {"h": (1, "p1/1"), "s1": (7, "p1/12")})}


def test_lines_published_by_many_threads_arrive_once_each_in_each_threads_order(session_redis):
    stream, check = stream_to(session_redis.url)
    channel, listener = listen(check)

    def write(thread):
        for n in range(300):
            stream.publish_lines(channel, "%d\n%d" % (thread, n))

    run_in_threads(write, 8)
    stream.sync(10)
    received = {thread: [] for thread in range(8)}
    while sum(map(len, received.values())) < 8 * 300:
        message = listener.get_message(timeout=5)
        assert message is not None, "lines missing"
        lines = message["data"].decode().split("\n")
        for thread, n in zip(lines[::2], lines[1::2]):
            received[int(thread)].append(int(n))
    assert received == {thread: list(range(300)) for thread in range(8)}
    listener.close()
    stream.close()


def test_with_a_hold_frames_that_keep_coming_go_out_together_and_one_after_a_quiet_spell_at_once(
        session_redis, monkeypatch):
    holds, release = [], threading.Event()
    hold_until(monkeypatch, release, holds)
    stream, check = stream_to(session_redis.url, hold=HOLD)
    channel, listener = listen(check)
    stream.publish_lines(channel, "room1 h\nzero")  # the first in a while: written at once
    assert listener.get_message(timeout=5)["data"] == b"room1 h\nzero"
    assert holds == []
    # Right after a write: held back. The thread that queued the frames goes on at once, however
    # many it sends in a row (it returns here while the hold has not ended).
    stream.publish_lines(channel, "room1 h\nfirst")
    stream.publish_lines(channel, "room1 h\nsecond")
    assert listener.get_message(timeout=0.2) is None
    release.set()
    message = listener.get_message(timeout=5)
    assert message["data"] == b"room1 h\nfirst\nroom1 h\nsecond"  # one message, in order
    stream.sync(10)
    assert holds == [HOLD, HOLD]  # the second hold found nothing new and gave up the writing
    stream.publish_lines(channel, "room1 h\nthird")  # after that quiet hold: written at once
    assert listener.get_message(timeout=5)["data"] == b"room1 h\nthird"
    assert holds == [HOLD, HOLD]
    assert listener.get_message(timeout=0.2) is None
    listener.close()
    stream.close()


def test_a_sync_while_frames_are_held_writes_them_first(session_redis, monkeypatch):
    release = threading.Event()
    hold_until(monkeypatch, release, [])
    stream, check = stream_to(session_redis.url, hold=HOLD)
    channel, listener = listen(check)
    stream.publish_lines(channel, "room1 h\nzero")
    stream.publish_lines(channel, "room1 h\nfirst")  # held
    syncing = threading.Thread(target=stream.sync, args=(10,))  # a socket leaving its room
    syncing.start()
    while not stream._syncs:
        syncing.join(0.001)
    release.set()
    syncing.join()
    assert listener.get_message(timeout=5)["data"] == b"room1 h\nzero"
    assert listener.get_message(timeout=5)["data"] == b"room1 h\nfirst"  # written before the sync returned
    listener.close()
    stream.close()


def test_a_held_write_that_finds_redis_gone_tells_the_relay():
    lost = threading.Event()
    pool = redis.ConnectionPool(host="127.0.0.1", port=free_port(), socket_connect_timeout=1)
    # A hold long enough that the second frame surely comes within it, also on a busy machine (at 10 ms
    # the full suite once let it pass first, and it was written, and raised, by this thread).
    stream = CommandStream(pool, RELAY_SCRIPT, hold=1.0, on_lost=lost.set)
    with pytest.raises(redis.ConnectionError):
        stream.publish_lines("bus:p2", "room1 h\nzero")  # written by this thread: it hears it
    stream.publish_lines("bus:p2", "room1 h\nfirst")  # held: this thread has gone on
    assert lost.wait(10)
    stream.close()

"""How to carry relay frames through Redis: CPU per frame of three transports, measured side by side.

Run: python -m bench.redis_transport [--frames 20000] [--redis URL]

Each transport relays the same frames (a room with a host and 4 seats on two
processes, the bench's pattern: four to one seat, one to all) from one sending
thread to one receiving thread (as a relay process's bus thread would), and
counts the CPU of this process (both ends) and of redis-server per frame:

  process channel  one Lua call per frame finds the addressees' processes and
                   publishes once per other process (what server/relay_redis.py did
                   for every frame before the sender routed them)
  ... no replies   the same calls on a connection that awaits no replies (CommandStream)
  routed publish   the sender knows where the addressees sit and PUBLISHes the frame
                   to their process, on the reply-less connection (what
                   server/relay_redis.py does now; the script only for an unknown place)
  room channel     every process subscribes to the rooms it holds; one PUBLISH per
                   frame plus a lookup of the room's sockets (HGETALL) by the sender
                   for the addressing, every process filters what it receives
  recipient stream one XADD per addressed place (a reconnecting device could catch
                   up from its stream), the receiver blocks in XREAD on its streams
"""

import argparse
import os
import threading
import time

import redis

from bench.relay_load import server_cpu_seconds
from server.relay_redis import RELAY_SCRIPT, CommandStream

PATTERN = ["s1", "s2", "s3", "s4", "all"]
PAYLOAD = '{"type":"msg","from":"host","to":2,"data":{"pad":"%s"}}' % ("x" * 300)


def cpu_now(pid):
    """Return (this process's CPU seconds, redis-server's CPU seconds)."""
    return time.process_time(), (server_cpu_seconds(pid) if pid else 0.0)


def run(name, send, receive, frames, pid, expected):
    """Send `frames` frames with `send` while a thread consumes with `receive`; print CPU/frame."""
    done = threading.Event()
    received = [0]

    def consume():
        try:
            while received[0] < expected:
                received[0] += receive()
        except redis.ConnectionError:
            pass  # the benchmark's Redis stopped
        done.set()

    consumer = threading.Thread(target=consume, daemon=True)
    consumer.start()
    time.sleep(0.2)
    own, store = cpu_now(pid)
    wall = time.perf_counter()
    for n in range(frames):
        send(PATTERN[n % len(PATTERN)])
    done.wait(60)
    wall = time.perf_counter() - wall
    own2, store2 = cpu_now(pid)
    print("%-18s %8.0f frames/s  relay CPU %5.0f us/frame  redis CPU %5.0f us/frame  "
          "received %d of %d" % (name, frames / wall, 1e6 * (own2 - own) / frames,
                                 1e6 * (store2 - store) / frames, received[0], expected))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--redis", default=None, metavar="URL")
    args = parser.parse_args(argv)
    own_server = None
    url = args.redis
    if url is None:
        from spieleabend.testing.redis import RedisServer

        own_server = RedisServer()
        url = own_server.url
    try:
        measure_all(url, args.frames)
    finally:
        if own_server is not None:
            own_server.stop()


def measure_all(url, frames):
    """Measure each transport in turn on the Redis at `url`."""
    sender = redis.Redis.from_url(url, single_connection_client=True)
    pid = sender.info("server")["process_id"]
    pid = pid if os.path.exists("/proc/%d" % pid) else None
    # Seats 1 and 3 on the other process ("p2"), 2 and 4 with the host on this one.
    at = {"h": "p1/1", "s1": "p2/2", "s2": "p1/3", "s3": "p2/4", "s4": "p1/5"}
    sender.delete("at:{R}")
    sender.hset("at:{R}", mapping=at)
    remote_per_cycle = 1 + 1 + 2  # s1, s3, and "all" reaches p2 once
    cycles = frames // len(PATTERN)
    frames = cycles * len(PATTERN)
    print("%d frames, %s, 1 receiving thread; a delivery to the sender's own process "
          "costs nothing in Redis" % (frames, url))

    # Process channel (the relay's transport).
    script = sender.register_script(RELAY_SCRIPT)
    bus = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
    bus.subscribe("bus:p2")
    bus.get_message(timeout=1)

    def send_process(target):
        script(keys=["at:{R}", "room:{R}"],
               args=["h", "p1/1", target, "", 100000, "bus:", "p1", PAYLOAD])

    def receive_process():
        message = bus.get_message(timeout=1.0)
        return 1 if message and message["type"] == "message" else 0

    run("process channel", send_process, receive_process, frames, pid,
        cycles * (remote_per_cycle - 1))
    stream = CommandStream(redis.ConnectionPool.from_url(url), RELAY_SCRIPT)

    def send_process_stream(target):
        stream.send("EVALSHA", script.sha, 2, "at:{R}", "room:{R}", "h", "p1/1", target, "",
                    100000, "bus:", "p1", PAYLOAD)

    run("... no replies", send_process_stream, receive_process, frames, pid,
        cycles * (remote_per_cycle - 1))
    # The sender's routes: where each place sits, as the presence notices told it.
    routes = {key: address.partition("/") for key, address in at.items()}

    def send_routed(target):
        keys = ["s1", "s2", "s3", "s4"] if target == "all" else [target]
        elsewhere = {}
        for key in keys:
            process, _, socket_id = routes[key]
            if process != "p1":
                elsewhere.setdefault(process, []).append(socket_id)
        for process, ids in elsewhere.items():
            stream.publish_lines("bus:" + process, ",".join(ids) + "\n" + PAYLOAD)

    run("routed publish", send_routed, receive_process, frames, pid,
        cycles * (remote_per_cycle - 1))
    stream.close()
    bus.close()

    # Room channel: one PUBLISH per frame, the sender looks the addressees up first.
    room_bus = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
    room_bus.subscribe("room:{R}")
    room_bus.get_message(timeout=1)

    def send_room(target):
        sender.hgetall("at:{R}")
        sender.publish("room:{R}", target + "\n" + PAYLOAD)

    def receive_room():
        message = room_bus.get_message(timeout=1.0)
        if not message or message["type"] != "message":
            return 0
        target = message["data"].partition(b"\n")[0].decode()
        # The receiving process filters: only its own addressees.
        [key for key, address in at.items() if address.startswith("p2/")
         and (target == key or (target == "all" and key != "h"))]
        return 1

    run("room channel", send_room, receive_room, frames, pid, frames)
    room_bus.close()

    # A stream per recipient: XADD for each addressed place, XREAD by the receiver.
    reader = redis.Redis.from_url(url, single_connection_client=True)
    streams = {"st:{R}:s1": "$", "st:{R}:s3": "$"}
    for key in list(streams) + ["st:{R}:s2", "st:{R}:s4"]:
        sender.delete(key)

    def send_stream(target):
        keys = ["s1", "s2", "s3", "s4"] if target == "all" else [target]
        pipe = sender.pipeline(transaction=False)
        for key in keys:
            pipe.xadd("st:{R}:" + key, {"f": PAYLOAD}, maxlen=100, approximate=True)
        pipe.execute()

    def receive_stream():
        got = 0
        for stream, entries in reader.xread(streams, count=100, block=1000) or []:
            streams[stream.decode()] = entries[-1][0]
            got += len(entries)
        return got

    run("recipient stream", send_stream, receive_stream, frames, pid,
        cycles * (remote_per_cycle - 1 + 1))


if __name__ == "__main__":
    main()

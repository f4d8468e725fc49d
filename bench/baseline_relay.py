"""Minimal asyncio relay (the `websockets` package), the yardstick for bench.relay_load.

It speaks just enough of protocol v1 for the load: create, join, to_seat, to_all,
to_host, and checks nothing. Run: python -m bench.baseline_relay --port 8765
"""

import argparse
import asyncio
import json
import resource
import secrets

from bench.common import python_package, require

if __name__ == "__main__":  # before websockets is imported
    require("bench.baseline_relay", python_package("websockets", "test"))

from websockets.asyncio.server import serve  # noqa: E402

rooms = {}


async def handler(ws):
    """Serve one socket: a hello, then relay frames in arrival order."""
    hello = json.loads(await ws.recv())
    if hello["type"] == "create":
        code, me = secrets.token_hex(3), "host"
        room = rooms[code] = {"host": ws, "seats": {}}
        await ws.send(json.dumps({"type": "created", "room": code, "secret": "", "token": ""}))
    else:
        code, room = hello["room"], rooms[hello["room"]]
        me = len(room["seats"]) + 1
        room["seats"][me] = ws
        await ws.send(json.dumps({"type": "joined", "room": code, "seat": me, "token": ""}))
    async for text in ws:
        frame = json.loads(text)
        kind = frame["type"]
        target = frame.get("seat") if kind == "to_seat" else kind[3:]
        out = json.dumps({"type": "msg", "from": me, "to": target, "data": frame["data"]})
        if kind == "to_seat":
            await room["seats"][target].send(out)
        elif kind == "to_all":
            for seat in list(room["seats"].values()):
                await seat.send(out)
        elif kind == "to_host":
            await room["host"].send(out)


async def main(port):
    """Serve on loopback until killed."""
    async with serve(handler, "127.0.0.1", port, max_size=64 * 1024, ping_interval=25):
        await asyncio.Future()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(main(parser.parse_args().port))

"""gunicorn settings for Spieleabend: `gunicorn -c python:server.gunicorn_config 'server:create_app()'`.

The same settings `python -m server` uses. Flags on the command line win over these
(e.g. `--bind 0.0.0.0:9000`, `--workers 4`); several workers need SPIELEABEND_REDIS_URL.
"""

import os

# Every open websocket holds one pool thread, so the pool must exceed the relay's
# connection limit (RELAY_MAX_CONNECTIONS, 1500) or a socket would wait unanswered.
worker_class = "gthread"
threads = 1600
worker_connections = 1700
backlog = 2048
graceful_timeout = 5
bind = ["0.0.0.0:8000"]
workers = 1

SEVERAL_WORKERS_NEED_REDIS = (
    "Several worker processes need a Redis URL (--redis URL or SPIELEABEND_REDIS_URL): "
    "without Redis every process keeps its own rooms in memory, and a phone that lands on "
    "another process than its host would not find the room. Start one worker, or give a "
    "Redis URL.")


def on_starting(server):
    """Refuse several workers without Redis before any of them starts."""
    if server.cfg.workers > 1 and not os.environ.get("SPIELEABEND_REDIS_URL"):
        raise SystemExit("Spieleabend: " + SEVERAL_WORKERS_NEED_REDIS)

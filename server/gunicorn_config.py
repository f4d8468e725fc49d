"""gunicorn settings for Spieleabend: `gunicorn -c python:server.gunicorn_config 'server:create_app()'`.

The same settings `python -m server` uses. Flags on the command line win over these
(e.g. `--bind 0.0.0.0:9000`, `--workers 4`); several workers need SPIELEABEND_REDIS_URL.
"""

import logging
import os
import signal
import sys
import threading
import time

# The app's own lines (the relay's outages, a room's errors) with time, process and level: with several
# workers an operator must tell which process said what (gunicorn's lines have their own stamps).
LOG_FORMAT = "%(asctime)s [%(process)d] %(levelname)s %(name)s: %(message)s"
LOG_LEVELS = ("debug", "info", "warning", "error")


def configure_logging(level="warning"):
    """Send the app's log lines to stderr with time, process id and level, from `level` up."""
    logging.basicConfig(format=LOG_FORMAT, level=level.upper(), force=True)


configure_logging(os.environ.get("SPIELEABEND_LOG_LEVEL", "warning"))  # also for the plain gunicorn command

# Every open websocket holds one pool thread, so the pool must exceed the relay's
# connection limit (RELAY_MAX_CONNECTIONS, 1500) or a socket would wait unanswered.
worker_class = "gthread"
threads = 1600
worker_connections = 1700
backlog = 2048
# Seconds a stopping worker may take; the relay tells its devices at once and closes, so this is a bound, not
# a wait (SPIELEABEND_GRACEFUL_TIMEOUT: a test lengthens it to tell "at once" from "when it ran out").
graceful_timeout = int(os.environ.get("SPIELEABEND_GRACEFUL_TIMEOUT", "5"))
bind = ["0.0.0.0:8000"]
workers = 1
# No control socket (gunicorn 25.1+, for `gunicornc`): it goes to $XDG_RUNTIME_DIR or
# $HOME/.gunicorn, which the service's user (no home, ProtectHome=true) cannot create, so every
# start logged "[ERROR] Control server error". Older gunicorn ignores names it does not know in a
# config file; `python -m server` sets it only where gunicorn has it.
control_socket_disable = True

SEVERAL_WORKERS_NEED_REDIS = (
    "Several worker processes need a Redis URL (--redis URL or SPIELEABEND_REDIS_URL): "
    "without Redis every process keeps its own rooms in memory, and a phone that lands on "
    "another process than its host would not find the room. Start one worker, or give a "
    "Redis URL.")


def on_starting(server):
    """Refuse several workers without Redis, and a public or Redis URL that cannot work, before
    any worker starts (the checks of `python -m server`; the app factory makes them too)."""
    if server.cfg.workers > 1 and not os.environ.get("SPIELEABEND_REDIS_URL"):
        raise SystemExit("Spieleabend: " + SEVERAL_WORKERS_NEED_REDIS)
    from server import url_settings_problem

    problem = url_settings_problem(os.environ.get("SPIELEABEND_PUBLIC_URL") or None,
                                   os.environ.get("SPIELEABEND_REDIS_URL") or None)
    if problem:
        raise SystemExit("Spieleabend: " + problem)


def close_relay(app, wait=2.0):
    """Close the app's relay once: every device gets the documented `closed`/`shutdown` (docs/rooms.md).

    Runs in a thread of its own (a signal may interrupt any code, the relay takes its locks) and
    waits for it at most `wait` seconds. Rooms in Redis stay for the other processes; rooms in
    memory end with the process anyway.
    """
    extensions = getattr(app, "extensions", None)
    relay = extensions.get("relay") if isinstance(extensions, dict) else None
    if relay is None or extensions.get("relay_closing"):
        return
    extensions["relay_closing"] = True
    closing = threading.Thread(target=relay.close_all, name="relay-shutdown", daemon=True)
    closing.start()
    if wait:
        closing.join(wait)


def post_worker_init(worker):
    """On SIGTERM (systemd's stop, gunicorn's graceful stop) close the relay's sockets at once; on
    Ctrl+C and SIGQUIT exit at once without waiting on the thread pool.

    gunicorn's own SIGTERM handler only stops accepting and then waits graceful_timeout for the
    open websockets, which never end by themselves: the devices would be cut off without a word.
    """
    graceful = signal.getsignal(signal.SIGTERM)

    def on_term(number, frame):
        close_relay(worker.wsgi, wait=0)
        if callable(graceful):
            graceful(number, frame)

    signal.signal(signal.SIGTERM, on_term)

    def on_quit(_number, _frame):
        """Ctrl+C or SIGQUIT: gunicorn's quick exit without its thread pool's shutdown.

        The gthread worker's own handler shuts the pool down inside the signal handler; landing while the main
        thread hands a connection to the pool (submit holds the pool's lock), it waited on that lock forever: the
        devices were told nothing and the worker hung until the master killed it. The pool's threads are joined
        at exit anyway, once the relay has closed their sockets.
        """
        worker.alive = False
        worker.cfg.worker_int(worker)
        time.sleep(0.1)  # as gunicorn's: the last lines out before the exit
        sys.exit(0)

    for number in (signal.SIGQUIT, signal.SIGINT):
        signal.signal(number, on_quit)


def worker_int(worker):
    """Ctrl+C (SIGINT) or SIGQUIT: the worker exits at once; close the relay first."""
    close_relay(worker.wsgi)


def worker_exit(_server, worker):
    """A worker that ends for any other reason closes its relay's sockets on its way out."""
    close_relay(worker.wsgi)

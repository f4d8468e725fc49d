"""Run the app: `python -m server [--host HOST] [--port PORT] [--public-url URL] [--redis URL] [--workers N]
[--proxies N]`.

Serves with gunicorn's threaded worker (the production server) where gunicorn runs
(Linux, macOS), else with Werkzeug's threaded server; both serve the same app.
"""

import argparse
import os
import signal
import sys

from server import gunicorn_config, public_url_refused, redis_url_refused
from server.relay import shown_redis_url
from server.rooms_api import lan_address

SEVERAL_WORKERS_NEED_REDIS = gunicorn_config.SEVERAL_WORKERS_NEED_REDIS

def gunicorn_available():
    """Tell whether gunicorn can serve here (it needs a POSIX system)."""
    if sys.platform == "win32":
        return False
    try:
        import gunicorn.app.base  # noqa: F401
    except ImportError:
        return False
    return True


def serve_gunicorn(config, host, port, workers, ready=lambda: None, log_level="warning"):
    """Serve the app with gunicorn gthread workers until stopped; call ready() once it listens."""
    from gunicorn.app.base import BaseApplication

    from server import create_app

    class Server(BaseApplication):
        """gunicorn with our settings, loading the app once before forking the workers."""

        def load_config(self):
            bind = ("[%s]:%d" if ":" in host else "%s:%d") % (host, port)
            for key in ("worker_class", "threads", "worker_connections", "backlog",
                        "graceful_timeout", "post_worker_init", "worker_int", "worker_exit",
                        "control_socket_disable"):
                if key in self.cfg.settings:  # control_socket_disable: gunicorn 25.1 and later
                    self.cfg.set(key, getattr(gunicorn_config, key))
            # Warnings by default: the addresses printed above are what a person needs.
            self.cfg.set("loglevel", log_level)
            if log_level in ("debug", "info"):
                self.cfg.set("accesslog", "-")  # a line per request, for an operator who asked for more
            self.cfg.set("bind", [bind])
            self.cfg.set("workers", workers)
            self.cfg.set("preload_app", True)  # build the assets once, then fork
            # The addresses are printed once gunicorn listens on the port, not before.
            self.cfg.set("when_ready", lambda _arbiter: ready())

        def load(self):
            return create_app(config)

    Server().run()


def serve_werkzeug(config, host, port, ready=lambda: None):
    """Serve the app with Werkzeug's threaded server (where gunicorn cannot run)."""
    from werkzeug.serving import make_server

    from server import create_app

    # make_server, not app.run: the same server without the development-server banner.
    app = create_app(config)
    server = make_server(host, port, app, threaded=True)

    def stop(_number, _frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # systemd's stop: as Ctrl+C, the relay says `shutdown` first
    ready()
    try:
        server.serve_forever()
    finally:
        gunicorn_config.close_relay(app)
        server.server_close()


def port_number(text):
    """Read --port: a TCP port, 1 to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError("a port is a number from 1 to 65535, not %r" % text)
    return port


def cannot_listen(host, port):
    """Return why this process cannot listen on host:port (unknown host, port taken), or None."""
    import socket

    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as problem:
        return "Adresse unbekannt / unknown address %r (%s)" % (host, problem)
    family, kind, proto, _name, address = found[0]
    probe = socket.socket(family, kind, proto)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the servers do
        probe.bind(address)
    except OSError as problem:
        return "%s:%d nicht möglich / not possible: %s" % (host, port, problem.strerror or problem)
    finally:
        probe.close()
    return None


LOCAL_HOSTS = ("0.0.0.0", "::", "127.0.0.1", "::1", "localhost")
LOOPBACK_HOSTS = ("127.0.0.1", "::1", "localhost")  # this machine only: no phone reaches it


def loopback_only(args):
    """Return True when no phone can reach this server: it listens on this machine only, and no proxy
    in front (--proxies, a public address) passes phones on to it, as in docs/deploy.md."""
    public_url = args.public_url or os.environ.get("SPIELEABEND_PUBLIC_URL")
    return args.host in LOOPBACK_HOSTS and not public_url and not args.proxies


def page_address(host, port):
    """Return the address to open the app at on this device, for a server on host:port."""
    if host in LOCAL_HOSTS:
        return "http://localhost:%d/" % port
    return "http://%s:%d/" % ("[%s]" % host if ":" in host else host, port)


def banner(args, public_url):
    """Return the lines that say where the app is, printed once the server listens."""
    lines = ["Spieleabend läuft / is running:",
             "  auf diesem Gerät / on this device:  %s" % page_address(args.host, args.port)]
    if args.host in ("0.0.0.0", "::"):
        address = lan_address()
        if address:
            lines.append("  für Handys im WLAN / phones on the LAN:  http://%s:%d/" % (address, args.port))
    elif loopback_only(args):
        lines.append("  nur dieses Gerät – Handys können nicht beitreten (ohne --host starten) / "
                     "this machine only – phones cannot join (start without --host)")
    if public_url:
        lines.append("  Einladungslinks / join links:  %s" % public_url)
    if args.redis:
        lines.append("  Räume in / rooms in:  %s (%d %s)" % (
            shown_redis_url(args.redis), args.workers,
            "Prozess / process" if args.workers == 1 else "Prozesse / processes"))
    if args.proxies:
        lines.append("  hinter / behind %d Proxy(s): Adressen aus / addresses from X-Forwarded-For" % args.proxies)
    lines.append("Beenden mit Strg+C / stop with Ctrl+C")
    return lines


def redis_unreachable(url):
    """Ask Redis once (PING, 2 s at most); return why it does not answer, or None when it does."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2.0, socket_timeout=2.0)
    try:
        client.ping()
    except (redis.RedisError, OSError) as problem:
        return str(problem) or type(problem).__name__
    finally:
        client.close()
    return None


def parse_args(argv=None):
    """Read the command line; refuse several workers without Redis."""
    parser = argparse.ArgumentParser(prog="python -m server", description="Spieleabend: serve the app and the room relay.")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: this machine and the LAN)")
    parser.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    parser.add_argument("--public-url", default=None,
                        help="address for room join links and QR codes, e.g. https://karten.example.org "
                             "(default: this machine's LAN address)")
    parser.add_argument("--redis", default=None,
                        metavar="URL",
                        help="keep rooms in Redis, e.g. redis://127.0.0.1:6379/0, so that several "
                             "processes or machines share them (default: SPIELEABEND_REDIS_URL, "
                             "else in this process's memory)")
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes (default 1; more than one needs --redis)")
    parser.add_argument("--log-level", choices=gunicorn_config.LOG_LEVELS, default=None,
                        help="what the server logs (default: SPIELEABEND_LOG_LEVEL, else warning: problems only; info "
                             "adds a line per request)")
    parser.add_argument("--proxies", type=int, default=None, metavar="N",
                        help="trusted proxies in front (1 behind the nginx of docs/deploy.md): the client's "
                             "address and scheme come from their X-Forwarded-For/-Proto headers (default: "
                             "SPIELEABEND_PROXIES, else 0: those headers are ignored, anyone can send them)")
    args = parser.parse_args(argv)
    if args.log_level is None:
        args.log_level = os.environ.get("SPIELEABEND_LOG_LEVEL", "warning").lower()
        if args.log_level not in gunicorn_config.LOG_LEVELS:
            parser.error("SPIELEABEND_LOG_LEVEL must be one of %s" % ", ".join(gunicorn_config.LOG_LEVELS))
    redis_given_as = "--redis"
    if args.redis is None:
        args.redis, redis_given_as = os.environ.get("SPIELEABEND_REDIS_URL") or None, "SPIELEABEND_REDIS_URL"
    if args.proxies is None:
        from server import proxies_from_environment

        try:
            args.proxies = proxies_from_environment()
        except ValueError as problem:
            parser.error(str(problem))
    if args.proxies < 0:
        parser.error("--proxies must be 0 or more")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if args.workers > 1 and not args.redis:
        parser.error(SEVERAL_WORKERS_NEED_REDIS)
    if args.redis:
        # The same checks as the app factory's (gunicorn's path), named as given here.
        refused = redis_url_refused(args.redis, redis_given_as)
        if refused:
            parser.error(refused)
    public_url = args.public_url or os.environ.get("SPIELEABEND_PUBLIC_URL")
    if public_url:
        refused = public_url_refused(public_url, "--public-url" if args.public_url else "SPIELEABEND_PUBLIC_URL")
        if refused:
            parser.error(refused)
    use_gunicorn = gunicorn_available()
    if args.workers > 1 and not use_gunicorn:
        parser.error("--workers needs gunicorn, which does not run on this system; start one "
                     "process per port instead")
    args.gunicorn = use_gunicorn
    return args


def main(argv=None):
    """Parse the options, print where to open the app and serve it."""
    args = parse_args(argv)
    gunicorn_config.configure_logging(args.log_level)
    config = {}
    if args.public_url:
        config["PUBLIC_URL"] = args.public_url
    if args.redis:
        config["RELAY_REDIS_URL"] = args.redis
    config["PROXIES"] = args.proxies
    config["LOOPBACK_ONLY"] = loopback_only(args)
    if args.redis:
        # Started anyway (systemd may start us before Redis, on another machine): the relay waits
        # for Redis, devices retry, and rooms open once it answers. But say so, loudly.
        problem = redis_unreachable(args.redis)
        if problem:
            print("WARNUNG / WARNING: Redis unter / at %s antwortet nicht / does not answer (%s).\n"
                  "  Räume und Übertragungscodes warten, bis Redis erreichbar ist; Geräte versuchen es weiter.\n"
                  "  Rooms and transfer codes wait until Redis answers; devices keep retrying."
                  % (shown_redis_url(args.redis), problem), file=sys.stderr, flush=True)
    problem = cannot_listen(args.host, args.port)
    if problem:
        print("Spieleabend startet nicht / does not start: %s" % problem, file=sys.stderr, flush=True)
        sys.exit(1)
    public_url = args.public_url or os.environ.get("SPIELEABEND_PUBLIC_URL") or None
    lines = banner(args, public_url)

    def ready():
        print("\n".join(lines), flush=True)

    try:
        if args.gunicorn:
            serve_gunicorn(config, args.host, args.port, args.workers, ready, args.log_level)
        else:
            serve_werkzeug(config, args.host, args.port, ready)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()

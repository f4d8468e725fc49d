"""Spieleabend server: serves the app and relays room messages; it never runs a game."""

import os

from flask import Flask, Response, abort, current_app, jsonify, request

# Room above the largest body the app sends (a game file of TRANSFER_MAX_BYTES, 256 KiB): a
# larger body is refused with 413 before it is read, with a Content-Length or chunked.
BODY_MARGIN = 64 * 1024


def create_app(test_config=None):
    """Create the Flask app: static app, built bundles and the room relay."""
    app = Flask(__name__, static_folder=None)
    app.config.from_mapping(
        SECRET_KEY="dev",
        WEB_ROOT=None,  # folder with index.html and web/py; None = the repo's web/
        # Rooms in Redis, shared by every process that uses the same URL; None: in memory.
        RELAY_REDIS_URL=os.environ.get("SPIELEABEND_REDIS_URL") or None,
        # Trusted proxies in front (nginx: 1). 0: X-Forwarded-* headers are ignored (anyone can send them).
        PROXIES=proxies_from_environment(),
    )
    # Any setting from the environment, e.g. SPIELEABEND_RELAY_MAX_ROOMS_PER_ADDRESS=200 for a server that
    # scripted tests play many rooms on (a JSON value: numbers, null, lists; anything else as text).
    app.config.from_prefixed_env("SPIELEABEND")
    if test_config:
        app.config.from_mapping(test_config)
    # The same checks as `python -m server`'s options, for gunicorn and any other WSGI server.
    problem = url_settings_problem(app.config.get("PUBLIC_URL") or os.environ.get("SPIELEABEND_PUBLIC_URL"),
                                   app.config.get("RELAY_REDIS_URL"))
    if problem:
        raise ValueError(problem)
    trust_proxies(app, app.config["PROXIES"])

    from server import relay, rooms_api, transfer, web

    if not (test_config and "MAX_CONTENT_LENGTH" in test_config):
        largest = app.config.get("TRANSFER_MAX_BYTES", transfer.DEFAULTS["TRANSFER_MAX_BYTES"])
        app.config["MAX_CONTENT_LENGTH"] = largest + BODY_MARGIN
    app.register_error_handler(413, too_large)
    app.before_request(refuse_long_chunked_body)
    app.after_request(security_headers)

    web.init_app(app)
    relay.init_app(app)
    transfer.init_app(app)
    rooms_api.init_app(app)
    return app


def proxies_from_environment():
    """Return SPIELEABEND_PROXIES as a number (0 when unset); refuse anything else with the reason."""
    text = os.environ.get("SPIELEABEND_PROXIES", "").strip() or "0"
    if not text.isdigit():
        raise ValueError("SPIELEABEND_PROXIES must be the number of trusted proxies in front (0, 1, ...), got %r"
                         % text)
    return int(text)


def port_problem(parts):
    """Return what is wrong with a split URL's port, or None (no port, or one from 1 to 65535)."""
    try:
        port = parts.port
    except ValueError:
        return "the port must be a number from 1 to 65535"
    return "the port must be a number from 1 to 65535" if port == 0 else None


def public_url_problem(url):
    """Return what is wrong with a public URL (join links, QR codes), or None when it is a full address."""
    from urllib.parse import urlsplit

    if not isinstance(url, str):
        return "it must be an address such as https://karten.example.org"
    parts = urlsplit(url.strip())
    if parts.scheme not in ("https", "http"):
        return "it must start with https:// (or http://), or the join links lead nowhere"
    if not parts.hostname:
        return "the host is missing"
    if port_problem(parts):
        return port_problem(parts)
    if parts.query or parts.fragment:
        return "it cannot have a ?query or #fragment"
    return None


def redis_url_problem(url):
    """Return what is wrong with a Redis URL, or None when the client can use it."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    if parts.scheme not in ("redis", "rediss", "unix"):
        return "it must start with redis://, rediss:// or unix://"
    if parts.scheme == "unix":
        return None if parts.path else "unix:// needs the socket's path"
    if not parts.hostname:
        return "the host is missing"
    if port_problem(parts):
        return port_problem(parts)
    database = parts.path.strip("/")
    if database and not database.isdigit():
        return "the database after the host must be a number, e.g. /0"
    try:
        from redis.connection import parse_url

        parse_url(url)
    except ImportError:
        return None
    except ValueError as problem:
        return str(problem)
    return None


def public_url_refused(url, name="SPIELEABEND_PUBLIC_URL"):
    """Return the message refusing a public URL given as `name`, or None when it is fine."""
    problem = public_url_problem(url)
    if problem:
        return "%s takes the full public address, such as https://karten.example.org: %s (got %r)" % (
            name, problem, url)
    return None


def redis_url_refused(url, name="SPIELEABEND_REDIS_URL"):
    """Return the message refusing a Redis URL given as `name` (a password shown as ***), or None."""
    from server.relay import shown_redis_url

    problem = redis_url_problem(url)
    if problem:
        return "%s takes a URL such as redis://127.0.0.1:6379/0: %s (got %r)" % (name, problem, shown_redis_url(url))
    return None


def url_settings_problem(public_url, redis_url):
    """Return why the public URL or the Redis URL (each None when not set) cannot work, or None."""
    return (public_url_refused(public_url) if public_url else None) or \
        (redis_url_refused(redis_url) if redis_url else None)


def trust_proxies(app, count):
    """Behind `count` trusted proxies take the client's address and scheme from their headers.

    The last `count` entries of X-Forwarded-For and X-Forwarded-Proto are the proxies' own (nginx
    appends the address it sees and sets the scheme), so per-address rate limits count devices, not
    the proxy. X-Forwarded-Host is not trusted: the shipped nginx passes the Host header itself and
    leaves a client's X-Forwarded-Host untouched, so it could name any host (the relay checks the
    Origin against the host; join links use it).
    """
    if count:
        from werkzeug.middleware.proxy_fix import ProxyFix

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=count, x_proto=count, x_host=0, x_port=0, x_prefix=0)


def too_large(_error):
    """Refuse a body over MAX_CONTENT_LENGTH: the API's JSON error, plain text elsewhere."""
    if request.path.startswith("/api/"):
        response = jsonify({"error": "too_large"})
    else:
        response = Response("request body too large", content_type="text/plain; charset=utf-8")
    response.status_code = 413
    response.headers["Cache-Control"] = "no-store"
    return response


# On every answer, with the release's Content-Security-Policy (server/build.py: scripts only from
# here and the inline ones by hash, never framed by other sites, no <base> or plugin tricks).
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
}
FALLBACK_POLICY = "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"


def security_headers(response):
    """Add the security headers to an answer (a route's own value wins)."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    response.headers.setdefault("Content-Security-Policy",
                                current_app.config.get("CONTENT_SECURITY_POLICY") or FALLBACK_POLICY)
    return response


def refuse_long_chunked_body():
    """Refuse a chunked body (no Content-Length) that reaches MAX_CONTENT_LENGTH.

    Werkzeug stops reading such a body at the limit but hands the cut-off part on as if it were
    all; read it here (at most the limit, kept for the route) and refuse it when it is that long.
    """
    if request.content_length is not None or "chunked" not in request.headers.get("Transfer-Encoding", "").lower():
        return None
    limit = current_app.config.get("MAX_CONTENT_LENGTH")
    if limit is not None and len(request.get_data(cache=True)) >= limit:
        abort(413)
    return None

"""Serve the built app: the page, hashed bundles, manifest, icons and the service worker."""

from flask import Blueprint, Response, abort, current_app, render_template_string, request
from werkzeug.exceptions import HTTPException

from server.build import build

bp = Blueprint("web", __name__)

NOT_FOUND_PAGE = """<!doctype html>
<html lang="de"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Nicht gefunden – Spieleabend</title>
<link rel="icon" href="/icons/icon.svg" type="image/svg+xml">
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#0f3d2e;color:#f6f1e3;
font:1.05rem/1.5 system-ui,sans-serif;text-align:center;padding:1rem}
a{color:#ffd166;font-weight:600}
</style></head>
<body><main><h1>Diese Seite gibt es nicht</h1>
<p>Die Adresse <code>{{ path }}</code> gehört nicht zum Spieleabend.</p>
<p lang="en">This page does not exist.</p>
<p><a href="/">Zur Startseite</a></p></main></body></html>
"""


def init_app(app):
    """Build the assets once and register the routes that serve them."""
    app.extensions["spieleabend_build"] = build_release(app.config)
    # Sent with every answer (server/__init__.py): the release's inline scripts by their hashes.
    app.config.setdefault("CONTENT_SECURITY_POLICY", app.extensions["spieleabend_build"].content_security_policy())
    app.register_blueprint(bp)
    app.register_error_handler(404, not_found)


def build_release(config, web_root=None):
    """Build the release the app's settings ask for (WEB_ROOT, IDLE_COMPILE, COMPILE_ALL)."""
    return build(web_root or config.get("WEB_ROOT"), config.get("IDLE_COMPILE", True), config.get("COMPILE_ALL", False))


def current_build():
    """Return the release built at start-up."""
    return current_app.extensions["spieleabend_build"]


def not_found(_error):
    """Answer unknown paths with a page that leads home."""
    html = render_template_string(NOT_FOUND_PAGE, path=request.path)
    return Response(html, status=404, content_type="text/html; charset=utf-8")


def accepted_encodings(header):
    """Return the content codings an Accept-Encoding header accepts (q=0 ones left out)."""
    accepted = set()
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        if params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            accepted.add(name.strip().lower())
    return accepted


def asset_response(asset, req):
    """Return the response for one built asset to a request: 304 when it has it, else brotli, gzip or plain."""
    encodings = accepted_encodings(req.headers.get("Accept-Encoding", ""))
    # If-None-Match compares weakly (RFC 9110 13.1.2): W/"tag" is the same tag.
    if req.if_none_match and req.if_none_match.contains_weak(asset.etag):
        response = Response(status=304)
    elif asset.brotli is not None and "br" in encodings:
        response = Response(asset.brotli, content_type=asset.content_type)
        response.headers["Content-Encoding"] = "br"
    elif asset.gzipped is not None and "gzip" in encodings:
        response = Response(asset.gzipped, content_type=asset.content_type)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = Response(asset.data, content_type=asset.content_type)
    response.headers["Vary"] = "Accept-Encoding"
    response.set_etag(asset.etag)
    if asset.immutable:
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        # Always revalidate: the page and the worker must find a new release at once.
        response.headers["Cache-Control"] = "no-cache"
    return response


def serve(url):
    """Return one built asset, brotli- or gzip-compressed when the client accepts it."""
    asset = current_build().assets.get(url)
    if asset is None:
        return not_found(None)
    response = asset_response(asset, request)
    if url == "/sw.js":
        response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.route("/")
def index():
    """Serve the app page."""
    return serve("/")


@bp.route("/<path:path>")
def asset(path):
    """Serve a built file by its URL; an API address asked with a method it does not take gets 405."""
    if path.startswith("api/"):
        other = api_methods(request.path)
        if other:
            abort(405, valid_methods=other)
    return serve("/" + path)


def api_methods(path):
    """Return the methods of the API route at this path (e.g. ["POST"] for /api/qr.svg), [] if none.

    A GET there lands on this catch-all (it takes any GET), which would answer with the 404 page.
    """
    adapter = current_app.url_map.bind_to_environ(request.environ)
    found = []
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        try:
            endpoint, _args = adapter.match(path, method=method)
        except HTTPException:
            continue
        if endpoint != "web.asset":
            found.append(method)
    return found

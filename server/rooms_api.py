"""Room helpers over HTTP: the address for join links and the join link's QR code.

The relay (server/relay.py) creates rooms over its websocket; these two small
endpoints only help the host's page show the join link:

- GET /api/join-base -> {"base": "http://192.168.1.5:8000", "source": "public"|"page"|"lan"|"none"|"loopback"}:
  the address phones can reach. A configured PUBLIC_URL wins; a page opened by a
  LAN or public name is fine as it is; a page opened as localhost gets this
  machine's LAN address instead (a link with localhost in it works on no phone).
- POST /api/qr.svg (body: the text, at most 512 characters) -> an SVG QR code made
  by segno. POST keeps the link's secret out of URLs and access logs; the answer
  is never cached (Cache-Control: no-store), and the service worker only passes it on.
"""

import ipaddress
import os
import socket

import segno
from flask import Blueprint, Response, current_app, jsonify, request

bp = Blueprint("rooms_api", __name__, url_prefix="/api")
MAX_QR_TEXT = 512


def lan_address():
    """Return this machine's address on the local network, or None (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))  # TEST-NET: connecting a UDP socket only picks a route
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def is_local_host(hostname):
    """Return True for names that mean "this machine only" (localhost, 127.x, ::1)."""
    name = (hostname or "").strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def split_host(host):
    """Split a Host header into (name, port or None)."""
    if host.startswith("["):
        end = host.find("]")
        name, rest = host[1:end], host[end + 1:]
        return name, (rest[1:] if rest.startswith(":") else None)
    if ":" in host:
        name, port = host.rsplit(":", 1)
        return name, port
    return host, None


def join_base(host, scheme, public_url=None, lan=None):
    """Return (base address, source) for join links, given the page's Host and scheme."""
    if public_url:
        return public_url.rstrip("/"), "public"
    name, port = split_host(host or "")
    if not is_local_host(name):
        return "%s://%s" % (scheme, host), "page"
    if lan:
        return "%s://%s%s" % (scheme, lan, ":" + port if port else ""), "lan"
    return "%s://%s" % (scheme, host), "none"


@bp.route("/join-base")
def api_join_base():
    """Tell the host's page which address to put into join links."""
    lan_lookup = current_app.config.get("LAN_ADDRESS_LOOKUP") or lan_address
    name, _port = split_host(request.host)
    public = current_app.config.get("PUBLIC_URL")
    if current_app.config.get("LOOPBACK_ONLY") and not public:
        # Started with --host 127.0.0.1: the LAN address would refuse phones; the page's own address works
        # for other tabs and browsers on this machine, and the lobby says that phones cannot join.
        base, source = "%s://%s" % (request.scheme, request.host), "loopback"
    else:
        lan = lan_lookup() if is_local_host(name) and not public else None
        base, source = join_base(request.host, request.scheme, public, lan)
    response = jsonify({"base": base, "source": source})
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/qr.svg", methods=["POST"])
def api_qr():
    """Return the QR code of the posted text as SVG (scalable: the page sizes it)."""
    text = request.get_data(as_text=True)
    if not text or len(text) > MAX_QR_TEXT:
        return Response("text missing or too long", status=400, content_type="text/plain")
    qr = segno.make(text, error="m", micro=False)
    svg = qr.svg_inline(scale=1, border=4, omitsize=True, dark="#111", light="#fff")
    response = Response(svg, content_type="image/svg+xml; charset=utf-8")
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app):
    """Register the endpoints; PUBLIC_URL may also come from SPIELEABEND_PUBLIC_URL."""
    app.config.setdefault("PUBLIC_URL", os.environ.get("SPIELEABEND_PUBLIC_URL") or None)
    app.register_blueprint(bp)

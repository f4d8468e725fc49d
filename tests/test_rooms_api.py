"""The join-link address and the QR code endpoints (server/rooms_api.py)."""

import xml.etree.ElementTree as ElementTree

import pytest

from server import create_app
from server.rooms_api import is_local_host, join_base

LINK = "http://192.168.1.5:8000/#/join/K7QM2X.Z65vjwsGa-aIic9_"


@pytest.fixture(scope="module")
def rooms_app():
    return create_app({"TESTING": True, "LAN_ADDRESS_LOOKUP": lambda: "192.168.1.5"})


def test_localhost_page_gets_the_lan_address_never_localhost(rooms_app):
    client = rooms_app.test_client()
    for host in ("localhost:8000", "127.0.0.1:8000", "[::1]:8000"):
        answer = client.get("/api/join-base", headers={"Host": host})
        assert answer.get_json() == {"base": "http://192.168.1.5:8000", "source": "lan"}, host
        assert answer.headers["Cache-Control"] == "no-store"


def test_page_opened_by_lan_or_public_name_keeps_its_address(rooms_app):
    client = rooms_app.test_client()
    answer = client.get("/api/join-base", headers={"Host": "192.168.1.9:9000"})
    assert answer.get_json() == {"base": "http://192.168.1.9:9000", "source": "page"}
    answer = client.get("/api/join-base", base_url="https://karten.example.org")
    assert answer.get_json()["base"] == "https://karten.example.org"


def test_configured_public_url_wins():
    app = create_app({"TESTING": True, "PUBLIC_URL": "https://karten.example.org/",
                      "LAN_ADDRESS_LOOKUP": lambda: "192.168.1.5"})
    answer = app.test_client().get("/api/join-base", headers={"Host": "localhost:8000"})
    assert answer.get_json() == {"base": "https://karten.example.org", "source": "public"}


def test_a_server_on_this_machine_only_keeps_the_pages_address_and_says_so():
    """Started with --host 127.0.0.1 the LAN address refuses phones: the link keeps the page's address (other
    tabs and browsers here can join) and its source tells the lobby to say that phones cannot."""
    app = create_app({"TESTING": True, "LOOPBACK_ONLY": True, "LAN_ADDRESS_LOOKUP": lambda: "192.168.1.5"})
    answer = app.test_client().get("/api/join-base", headers={"Host": "127.0.0.1:8151"})
    assert answer.get_json() == {"base": "http://127.0.0.1:8151", "source": "loopback"}


def test_join_base_rules():
    assert join_base("localhost:8000", "http", None, None) == ("http://localhost:8000", "none")
    assert join_base("spiel.localhost", "http", None, "10.0.0.2") == ("http://10.0.0.2", "lan")
    assert is_local_host("127.0.0.5") and is_local_host("::1") and not is_local_host("192.168.0.1")


def test_qr_code_is_an_svg_of_the_posted_link_and_never_cached(rooms_app):
    client = rooms_app.test_client()
    answer = client.post("/api/qr.svg", data=LINK.encode(), content_type="text/plain")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"].startswith("image/svg+xml")
    assert answer.headers["Cache-Control"] == "no-store"
    svg = ElementTree.fromstring(answer.get_data(as_text=True))
    assert svg.tag.endswith("svg") and svg.get("viewBox").startswith("0 0 ")
    size = int(svg.get("viewBox").split()[2])
    assert 21 + 8 <= size <= 60, "a version small enough to scan across a table"
    import segno

    expected = segno.make(LINK, error="m", micro=False)
    assert size == expected.symbol_size(border=4)[0]


def test_qr_code_refuses_empty_or_long_text_and_get(rooms_app):
    client = rooms_app.test_client()
    assert client.post("/api/qr.svg", data=b"").status_code == 400
    assert client.post("/api/qr.svg", data=b"x" * 513).status_code == 400
    assert client.get("/api/qr.svg?text=x").status_code in (404, 405)

"""The server: page, hashed bundles, compression, cache headers, worker, manifest, errors."""

import gzip
import json
import re


def asset_urls(text):
    """Return the hashed files a page or script names: the page's stylesheet and worker, the worker's scripts."""
    return re.findall(r'"(/assets/[^"]+)"', text)


def worker_files(client):
    """Return (brython.js URL, bundle URL): what the app's worker loads."""
    found = re.search(r'var BRYTHON = ("[^"]+"), BUNDLE = ("[^"]+");', worker_script(client))
    return json.loads(found.group(1)), json.loads(found.group(2))


def worker_script(client):
    """Return the text of the app's worker script, as the page names it."""
    html = client.get("/").get_data(as_text=True)
    return client.get(next(url for url in asset_urls(html) if "/app-worker." in url)).get_data(as_text=True)


def test_index_is_the_app_page_with_hashed_assets(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.content_type.startswith("text/html")
    html = response.get_data(as_text=True)
    assert '<html lang="de"' in html
    urls = asset_urls(html)
    assert any(re.match(r"/assets/css-app\.[0-9a-f]{10}\.css$", url) for url in urls)
    assert any(re.match(r"/assets/app-worker\.[0-9a-f]{10}\.js$", url) for url in urls)
    brython_url, bundle_url = worker_files(client)
    sha256_url = re.search(r'var SHA256 = "([^"]+)";', worker_script(client)).group(1)
    assert asset_urls(worker_script(client)) == [brython_url, bundle_url, sha256_url]
    assert re.match(r"/assets/brython\.[0-9a-f]{10}\.js$", brython_url)
    assert re.match(r"/assets/spieleabend-bundle\.[0-9a-f]{10}\.json$", bundle_url)
    # The vendored SHA-256 (noble-hashes) with the modules it imports and its licence, in one hashed folder.
    folder = re.match(r"(/assets/noble-hashes\.[0-9a-f]{10}/)sha2\.js$", sha256_url).group(1)
    for name in ("sha2.js", "_md.js", "_u64.js", "utils.js", "LICENSE"):
        served = client.get(folder + name)
        assert served.status_code == 200, name
        assert "immutable" in served.headers["Cache-Control"], name
    assert "{{" not in html, "every placeholder is filled"
    assert response.headers["Cache-Control"] == "no-cache"


def test_no_python_file_is_fetched_at_run_time(client):
    html = client.get("/").get_data(as_text=True)
    # No URL of a .py file (the page's script names Brython's in-bundle file names, "VFS.<name>.py").
    assert not re.search(r"""["'](?:https?:|/)[^"']*\.py["']""", html)
    assert 'type="text/python"' not in html  # the app's worker imports from the bundle
    worker = worker_script(client)
    assert not re.search(r"""["'](?:https?:|/)[^"']*\.py["']""", worker)
    assert 'B.$getattr(B.imported["spieleabend.ui.app"], "start")' in worker


def test_page_carries_the_home_screen_prerendered_in_german_and_english(client):
    html = client.get("/").get_data(as_text=True)
    app = re.search(r'<div id="app">(.*?)</div>\s*<template id="home-en">(.*?)</template>', html, re.S)
    assert app, "the home screen is in the page"
    german, english = app.group(1), app.group(2)
    assert "<h1>Spieleabend</h1>" in german and 'data-testid="game-punktejagd"' in german
    assert "<h1>Game Night</h1>" in english and 'data-testid="game-punktejagd"' in english
    assert 'href="#/play/punktejagd"' in german  # a real link: it works before Python runs


def test_hashed_assets_are_immutable_and_gzip_compressed(client):
    html = client.get("/").get_data(as_text=True)
    for url in asset_urls(html):
        plain = client.get(url)
        assert plain.status_code == 200
        assert "immutable" in plain.headers["Cache-Control"]
        packed = client.get(url, headers={"Accept-Encoding": "gzip"})
        assert packed.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed.data) == plain.data
        assert len(packed.data) < len(plain.data)


def test_brotli_when_the_browser_takes_it(client):
    import brotli

    html = client.get("/").get_data(as_text=True)
    for url in asset_urls(html):
        plain = client.get(url).data
        packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
        assert packed.headers["Content-Encoding"] == "br"
        assert brotli.decompress(packed.data) == plain
        assert len(packed.data) < len(gzip.compress(plain, 9))
    refused = client.get(asset_urls(html)[0], headers={"Accept-Encoding": "br;q=0, gzip"})
    assert refused.headers["Content-Encoding"] == "gzip"


def test_brython_is_the_installed_file_loaded_by_the_apps_worker(client):
    """The app's worker loads the installed brython.js (its loader fixed) and the bundle: sources and
    compiled start modules."""
    import brython
    from pathlib import Path

    from server.build import fixed_brython

    brython_url, bundle_url = worker_files(client)
    installed = (Path(brython.__file__).parent / "data" / "brython.js").read_text()
    assert client.get(brython_url).get_data(as_text=True) == fixed_brython(installed)
    bundle = client.get(bundle_url)
    assert bundle.content_type == "application/json; charset=utf-8"
    data = json.loads(bundle.get_data(as_text=True))
    assert "spieleabend.ui.app" in data["modules"] and "spieleabend.ui.app" in data["compiled"]
    assert isinstance(data["brython_timestamp"], int)


def test_etag_revalidation_answers_304(client):
    first = client.get("/manifest.webmanifest")
    etag = first.headers["ETag"]
    again = client.get("/manifest.webmanifest", headers={"If-None-Match": etag})
    assert again.status_code == 304


def test_manifest_describes_an_installable_german_app(client):
    manifest = json.loads(client.get("/manifest.webmanifest").data)
    assert manifest["lang"] == "de"
    assert manifest["display"] == "standalone"
    assert manifest["short_name"] and manifest["name"] and manifest["theme_color"]
    purposes = {icon["purpose"] for icon in manifest["icons"]}
    assert "maskable" in purposes
    for icon in manifest["icons"]:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]


def test_service_worker_precaches_every_asset_of_the_release(client, app):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    source = response.get_data(as_text=True)
    build = app.extensions["spieleabend_build"]
    assert build.version in source
    precache = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", source).group(1))
    html = client.get("/").get_data(as_text=True)
    for url in asset_urls(html) + ["/", "/manifest.webmanifest"]:
        assert url in precache, url
    for url in precache:
        assert client.get(url).status_code == 200, url
    assert "skipWaiting()" in source and 'event.data === "skip-waiting"' in source


def test_unknown_path_gets_a_helpful_404_page(client):
    response = client.get("/no/such/page<script>")
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "Diese Seite gibt es nicht" in html
    assert 'href="/"' in html
    assert "<script>" not in html  # the path is escaped


def test_python_sources_are_not_served(client):
    assert client.get("/py/spieleabend/__init__.py").status_code == 404
    assert client.get("/index.html").status_code == 404  # only the filled page at / is served


def test_rules_pages_are_served_and_precached(client, app):
    from server.build import RULES_ROOT

    games = sorted(path.stem for path in RULES_ROOT.glob("*.md"))
    assert games, "the rules pages exist"
    worker = client.get("/sw.js").get_data(as_text=True)
    for game in games:
        response = client.get("/rules/" + game)
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        assert "<h1>" in html and "<li>" in html
        assert 'href="/#/play/%s"' % game in html or game == "spieleabend"
        assert '"/rules/%s"' % game in worker


def test_every_game_has_a_rules_page(client):
    from spieleabend.games import GAME_MODULES

    for game in GAME_MODULES:
        assert client.get("/rules/" + game).status_code == 200, game


class EndlessBody:
    """A request body that never ends, and counts what the server read of it."""

    def __init__(self):
        self.read_bytes = 0

    def read(self, size=-1):
        size = 65536 if size is None or size < 0 else min(size, 65536)
        self.read_bytes += size
        if self.read_bytes > 64 * 1024 * 1024:
            raise AssertionError("the server read 64 MiB of an endless body")
        return b"x" * size

    def readline(self, size=-1):
        return self.read(size)


def test_a_body_far_over_the_largest_legitimate_one_is_refused_before_it_is_read(app, client):
    limit = app.config["MAX_CONTENT_LENGTH"]
    assert 256 * 1024 < limit <= 1024 * 1024  # a game file of 256 KiB fits; nginx allows 8 MiB
    for path in ("/api/qr.svg", "/api/transfer/redeem", "/api/transfer"):
        # Announced by Content-Length: refused without reading it.
        body = EndlessBody()
        answer = client.post(path, content_type="application/json",
                             environ_overrides={"wsgi.input": body, "CONTENT_LENGTH": str(1024 ** 3)})
        assert answer.status_code == 413, path
        assert answer.get_json() == {"error": "too_large"}, path
        assert body.read_bytes == 0, path
        # Chunked (no length; the server says the stream ends by itself): read only up to the limit.
        body = EndlessBody()
        answer = client.post(path, content_type="application/json",
                             headers={"Transfer-Encoding": "chunked"},
                             environ_overrides={"wsgi.input": body, "wsgi.input_terminated": True})
        assert answer.status_code == 413, path
        assert body.read_bytes <= limit + 65536, path


def test_every_answer_carries_the_security_headers(client):
    for answer in (client.get("/"), client.get("/sw.js"), client.get("/nowhere"),
                   client.get("/api/join-base"), client.post("/api/qr.svg", data="hello")):
        assert answer.headers["X-Content-Type-Options"] == "nosniff", answer.request.path
        assert answer.headers["Referrer-Policy"] == "same-origin"
        assert "frame-ancestors 'none'" in answer.headers["Content-Security-Policy"]
        assert answer.headers["X-Frame-Options"] == "DENY"


def test_the_nginx_site_sends_hsts_over_tls_only():
    from pathlib import Path

    site = (Path(__file__).resolve().parent.parent / "deploy" / "nginx.conf").read_text()
    tls_block = site[site.index("listen 443"):]
    assert 'add_header Strict-Transport-Security "max-age=31536000" always;' in tls_block
    assert "Strict-Transport-Security" not in site[:site.index("listen 443")]


def test_a_weak_etag_revalidates_too(client):
    answer = client.get("/")
    etag = answer.headers["ETag"].strip('"')
    assert client.get("/", headers={"If-None-Match": 'W/"%s"' % etag}).status_code == 304
    assert client.get("/", headers={"If-None-Match": '"other", W/"%s"' % etag}).status_code == 304
    assert client.get("/", headers={"If-None-Match": 'W/"other"'}).status_code == 200


def test_an_api_address_asked_with_the_wrong_method_answers_405(client):
    for path in ("/api/qr.svg", "/api/transfer"):
        answer = client.get(path)
        assert answer.status_code == 405, path
        assert "POST" in answer.headers["Allow"], path
    assert client.get("/api/nothing-here").status_code == 404
    assert client.get("/assets/nothing-here.js").status_code == 404


def test_the_policy_allows_exactly_the_pages_inline_scripts_by_hash(app, client):
    import base64
    import hashlib

    policy = client.get("/").headers["Content-Security-Policy"]
    script_src = next(part.split()[1:] for part in policy.split(";") if part.split()[0] == "script-src")
    assert "'unsafe-inline'" not in script_src and "'self'" in script_src
    build = app.extensions["spieleabend_build"]
    for url, asset in build.assets.items():
        if asset.content_type.startswith("text/html"):
            for script in re.findall(r"<script>(.*?)</script>", asset.data.decode("utf-8"), re.S):
                digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
                assert "'sha256-%s'" % digest in script_src, url
    handler = base64.b64encode(hashlib.sha256(b"return false").digest()).decode()
    assert "'sha256-%s'" % handler in script_src, "the forms' onsubmit handler"
    assert "'unsafe-hashes'" in script_src


def test_a_setting_comes_from_the_environment_as_json(monkeypatch):
    """An operator raises a relay limit without code (testers script many rooms from one machine)."""
    from server import create_app

    monkeypatch.setenv("SPIELEABEND_RELAY_MAX_ROOMS_PER_ADDRESS", "200")
    monkeypatch.setenv("SPIELEABEND_RELAY_ADDRESS_EXEMPT", '["127.0.0.1", "192.168.1.20"]')
    app = create_app({"RELAY_SWEEP_INTERVAL": None})
    assert app.config["RELAY_MAX_ROOMS_PER_ADDRESS"] == 200
    assert app.extensions["relay"].config["RELAY_ADDRESS_EXEMPT"] == ["127.0.0.1", "192.168.1.20"]

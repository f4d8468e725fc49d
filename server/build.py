"""Build the browser assets: the Python bundle, content-hashed file names and the service worker list.

Brython caches compiled code only for modules that come from a bundled `.js`
file, and a `.py` fetched at run time fails offline, so every module under
web/py ships in one `loadBrythonPackage` bundle whose timestamp is derived from
its content: a release recompiles once, an unchanged one never.
"""

import ast
import gzip
import hashlib
import json
import mimetypes
import os
from pathlib import Path

import brython
import markdown

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_WEB_ROOT = REPO_ROOT / "web"
RULES_ROOT = REPO_ROOT / "docs" / "rules"
BRYTHON_DATA = Path(brython.__file__).resolve().parent / "data"

# Files served under their content hash (immutable), referenced from index.html and the worker.
HASHED_STATIC = []
# The one stylesheet: css/app.css first, then every other css/*.css (one per game screen) by name,
# so a game brings its own rules without a second request.
MAIN_CSS = "css/app.css"
# Files served under a fixed name (manifest and icons must keep theirs).
PLAIN_STATIC = [
    "manifest.webmanifest",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/maskable-512.png",
    "icons/apple-touch-icon.png",
]


def content_hash(data, length=10):
    """Return a short hex digest of bytes."""
    return hashlib.sha256(data).hexdigest()[:length]


def module_imports(source, module_name, is_package):
    """Return the sorted module names a Python source imports (for Brython's package index)."""
    package = module_name.split(".") if is_package else module_name.split(".")[:-1]
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            names.add(".".join(base + ([node.module] if node.module else [])))
    return sorted(names)


def python_modules(py_root):
    """Yield (module name, source, is_package) for every .py file below py_root, sorted."""
    for path in sorted(Path(py_root).rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(py_root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        yield ".".join(parts), path.read_text(encoding="utf-8"), is_package


def build_python_bundle(py_root):
    """Return the text of one `loadBrythonPackage` bundle with every module under py_root."""
    modules = {}
    for name, source, is_package in python_modules(py_root):
        entry = [".py", source, module_imports(source, name, is_package)]
        if is_package:
            entry.append(1)
        modules[name] = entry
    body = json.dumps(modules, sort_keys=True, ensure_ascii=False)
    # The timestamp keys Brython's compiled-code cache: same content, same number (< 2**53).
    timestamp = int(hashlib.sha256(body.encode("utf-8")).hexdigest()[:12], 16)
    modules["$timestamp"] = timestamp
    return "__BRYTHON__.loadBrythonPackage(%s)\n" % json.dumps(modules, sort_keys=True, ensure_ascii=False)


class Asset:
    """One servable file: its bytes, gzip bytes, type and cache policy."""

    def __init__(self, data, content_type, immutable):
        self.data = data
        self.content_type = content_type
        self.immutable = immutable
        self.etag = content_hash(data, 16)
        self.gzipped = None
        if content_type.split(";")[0] in COMPRESSIBLE_TYPES:
            self.gzipped = gzip.compress(data, compresslevel=9, mtime=0)


COMPRESSIBLE_TYPES = {
    "text/javascript", "application/javascript", "text/css", "text/html",
    "image/svg+xml", "application/manifest+json", "application/json",
}


def guess_type(name):
    """Return the content type for a file name."""
    if name.endswith(".webmanifest"):
        return "application/manifest+json"
    if name.endswith(".js"):
        return "text/javascript; charset=utf-8"
    kind = mimetypes.guess_type("file" + name if name.startswith(".") else name)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind in ("image/svg+xml", "application/json"):
        kind += "; charset=utf-8"
    return kind


def stylesheet(web_root):
    """Return app.css followed by every other stylesheet under css/, as one file."""
    css_root = Path(web_root) / "css"
    parts = [(css_root / "app.css").read_bytes()]
    for path in sorted(css_root.glob("*.css")):
        if path.name != "app.css":
            parts.append(b"\n/* %s */\n" % path.name.encode("utf-8") + path.read_bytes())
    return b"".join(parts)


def build(web_root=None):
    """Build every asset in memory and return {url path: Asset} plus the release version."""
    web_root = Path(web_root or DEFAULT_WEB_ROOT)
    assets = {}
    urls = {}

    def add_hashed(url_stem, suffix, data):
        url = "/assets/%s.%s%s" % (url_stem, content_hash(data), suffix)
        assets[url] = Asset(data, guess_type(suffix), immutable=True)
        return url

    urls["brython"] = add_hashed("brython", ".js", (BRYTHON_DATA / "brython.js").read_bytes())
    bundle = build_python_bundle(web_root / "py").encode("utf-8")
    urls["app_bundle"] = add_hashed("spieleabend", ".brython.js", bundle)
    urls[MAIN_CSS] = add_hashed("css-app", ".css", stylesheet(web_root))
    for relative in HASHED_STATIC:
        stem, suffix = os.path.splitext(relative.replace("/", "-"))
        urls[relative] = add_hashed(stem, suffix, (web_root / relative).read_bytes())
    for relative in PLAIN_STATIC:
        url = "/" + relative
        assets[url] = Asset((web_root / relative).read_bytes(), guess_type(relative), immutable=False)

    for url, html in rules_pages(RULES_ROOT, urls["css/app.css"]).items():
        assets[url] = Asset(html.encode("utf-8"), "text/html; charset=utf-8", immutable=False)

    # The release version covers everything the worker precaches, index.html included.
    template = (web_root / "index.html").read_text(encoding="utf-8")
    version_source = template.encode("utf-8") + b"".join(
        assets[url].data for url in sorted(assets))
    version = content_hash(version_source, 12)
    page = template.replace("{{version}}", version)
    for key, url in urls.items():
        page = page.replace("{{%s}}" % key, url)
    assets["/"] = Asset(page.encode("utf-8"), "text/html; charset=utf-8", immutable=False)

    precache = ["/"] + sorted(url for url in assets if url != "/")
    worker = (web_root / "sw.js").read_text(encoding="utf-8")
    worker = worker.replace("{{version}}", version).replace(
        "{{precache}}", json.dumps(precache))
    assets["/sw.js"] = Asset(worker.encode("utf-8"), guess_type("sw.js"), immutable=False)
    return Build(assets, version, precache)


RULES_PAGE = """<!doctype html>
<html lang="de"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%(title)s – Spieleabend</title>
<link rel="stylesheet" href="%(css)s">
</head><body><div class="screen rules-page">
<header class="bar"><a class="btn btn-ghost back" href="/#/play/%(game)s" data-testid="rules-back">‹ Zurück</a></header>
<main class="content rules" data-testid="rules">%(body)s</main>
</div></body></html>
"""


def rules_pages(rules_root, css_url):
    """Return {"/rules/<game>": html} for every rules page written in Markdown (German)."""
    pages = {}
    for path in sorted(Path(rules_root).glob("*.md")):
        text = path.read_text(encoding="utf-8")
        title = text.splitlines()[0].lstrip("# ").strip() if text else path.stem
        body = markdown.markdown(text, extensions=["tables"], output_format="html")
        pages["/rules/" + path.stem] = RULES_PAGE % {
            "title": title, "css": css_url, "game": path.stem, "body": body}
    return pages


class Build:
    """The built release: assets by URL, its version and the worker's precache list."""

    def __init__(self, assets, version, precache):
        self.assets = assets
        self.version = version
        self.precache = precache

    def transfer_size(self, urls=None):
        """Return the compressed bytes of the given URLs (default: everything precached)."""
        total = 0
        for url in urls or self.precache:
            asset = self.assets[url]
            total += len(asset.gzipped or asset.data)
        return total

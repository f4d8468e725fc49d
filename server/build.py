"""Build the browser assets: the Python bundle, content-hashed file names and the service worker list.

Brython caches compiled code only for modules that come from a bundled `.js`
file, and a `.py` fetched at run time fails offline, so every module under
web/py ships in one `loadBrythonPackage` bundle whose timestamp is derived from
its content: a release recompiles once, an unchanged one never.

For a fast first visit the bundle also carries the start modules (what the
home screen needs) compiled ahead of time by brython.js's own compiler
(server/precompile.py; source only when that cannot run here), and the page
carries the home screen pre-rendered by the same Python code in CPython, in
German and English (prerender_home).
"""

import ast
import base64
import contextlib
import functools
import gzip
import hashlib
import importlib
import io
import json
import mimetypes
import os
import re
import sys
import tokenize
import warnings
from html import escape as html_escape
from pathlib import Path

import brython
import markdown

from server import precompile

try:
    import brotli  # optional: a second, smaller encoding for browsers that take it
except ImportError:  # pragma: no cover - the server then sends gzip only
    brotli = None

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_WEB_ROOT = REPO_ROOT / "web"
RULES_ROOT = REPO_ROOT / "docs" / "rules"
BRYTHON_DATA = Path(brython.__file__).resolve().parent / "data"
# Everything a first start downloads, the worker's precache included, compressed as sent
# (the first-visit budget; tests/test_build.py and bench.start check it).
COLD_TRANSFER_BUDGET_BYTES = 600 * 1000

# Files served under their content hash (immutable), referenced from index.html and the worker.
HASHED_STATIC = []
# The one stylesheet: css/app.css first, then every other css/*.css (one per game screen) by name,
# so a game brings its own rules without a second request.
MAIN_CSS = "css/app.css"
# JavaScript libraries kept as published (web/vendor/<name>/, each with its licence): a folder's
# modules are served together under one content-hashed folder, so their relative imports keep working.
VENDOR_ENTRIES = {"sha256": "noble-hashes/sha2.js"}
# Files served under a fixed name (manifest and icons must keep theirs).
PLAIN_STATIC = [
    "manifest.webmanifest",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
    "icons/maskable-512.png",
    "icons/apple-touch-icon.png",
]
# Large images only the browser's install asks for, from the manifest, while it is online: an offline
# start never shows them, so they stay out of the worker's precache (54 KB of every first visit).
INSTALL_ONLY = ("/icons/icon-512.png", "/icons/maskable-512.png")


# Brython 3.15's loader of precompiled modules (VFSLoader.exec_module) walks the module's parents and
# runs again every parent that lacks `__initialized__`, a flag only that path sets. A package imported
# by compiling its source (the other path) is then run a second time when one of its modules comes
# precompiled (from the idle-time compile, the IndexedDB cache or the release's start modules), as a
# new module that is not a package (it takes the child's `$is_package`): the package loses its
# `__path__`, and the next of its modules to be imported fails with `ImportError: <that module>`
# (a later game after three others in one visit, issue 22; brython-dev/brython#2609 looks the same).
# Python never runs a module in sys.modules twice: a parent that is already imported, or being
# imported, is skipped, and a parent is a package.
BRYTHON_LOADER_BUG = (
    "if($B.imported.hasOwnProperty(parent)&&\n"
    "$B.module_getattr($B.imported[parent],'__initialized__')!==$B.NULL){continue}\n"
    "var mod_js=$B.precompiled[parent],is_package=modobj.$is_package")
BRYTHON_LOADER_FIX = (
    "if($B.imported.hasOwnProperty(parent)&&(parent!==mod_name||\n"
    "$B.module_getattr($B.imported[parent],'__initialized__')!==$B.NULL)){continue}\n"
    "var mod_js=$B.precompiled[parent],is_package=parent===mod_name?modobj.$is_package:true")


# Brython 3.15's str.join walks every argument with next() until a StopIteration is raised and caught,
# a list's too: a raised exception is tens of microseconds in Brython, and a room's drawing joins
# hundreds of lists (with the other StopIterations, 6 % of a phone's CPU in a Pao De Kuai room, CDP
# profile). A list or tuple of plain strings is joined at once; anything else takes Brython's own path.
BRYTHON_JOIN_SLOW = "var _self=to_string(self)\niterable=_b_.iter(iterable)\nvar res=[],count=0\n"
BRYTHON_JOIN_FAST = (
    "var _self=to_string(self)\n"
    "if(Array.isArray(iterable)&&(iterable.ob_type===_b_.list||iterable.ob_type===_b_.tuple)&&"
    "iterable.every(function(item){return typeof item==='string'})){return iterable.join(_self)}\n"
    "iterable=_b_.iter(iterable)\nvar res=[],count=0\n")
# What the app changes in brython.js: (Brython's text, the app's, what to check when it no longer fits).
BRYTHON_FIXES = [
    (BRYTHON_LOADER_BUG, BRYTHON_LOADER_FIX, "the precompiled-module loader is not the one server/build.py fixes; "
     "check whether this Brython still runs an imported parent package again"),
    (BRYTHON_JOIN_SLOW, BRYTHON_JOIN_FAST, "str.join is not the one server/build.py speeds up; check whether "
     "this Brython still raises a StopIteration to end a join of a list"),
]


def fixed_brython(source):
    """Return brython.js with the app's fixes (BRYTHON_FIXES), each applied exactly once."""
    for old, new, check in BRYTHON_FIXES:
        if source.count(old) != 1:
            raise RuntimeError("brython.js: " + check)
        source = source.replace(old, new)
    return source


def brython_js():
    """Return the brython.js the app ships, as bytes: Brython's own, with the app's fixes."""
    return fixed_brython((BRYTHON_DATA / "brython.js").read_text(encoding="utf-8")).encode("utf-8")


def content_hash(data, length=10):
    """Return a short hex digest of bytes."""
    return hashlib.sha256(data).hexdigest()[:length]


def module_imports(source, module_name, is_package):
    """Return the sorted module names a Python source imports (for Brython's package index)."""
    return list(cached_imports(source, module_name, is_package))


# A process that builds more than once (the tests build a release per app) parses each unchanged source once.
@functools.lru_cache(maxsize=512)
def cached_imports(source, module_name, is_package):
    """module_imports as a tuple, remembered by the source's text."""
    package = module_name.split(".") if is_package else module_name.split(".")[:-1]
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            names.add(".".join(base + ([node.module] if node.module else [])))
    return tuple(sorted(names))


# Packages under web/py that never run in the browser: the testers' pytest plugin (it imports
# Playwright and pytest) ships with the Python package only.
NOT_IN_BROWSER = ("spieleabend.testing",)


def python_modules(py_root):
    """Yield (module name, source, is_package) for every browser .py file below py_root, sorted."""
    for path in sorted(Path(py_root).rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(py_root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts.pop()
        name = ".".join(parts)
        if any(name == skipped or name.startswith(skipped + ".") for skipped in NOT_IN_BROWSER):
            continue
        yield name, path.read_text(encoding="utf-8"), is_package


# The page's main script imports this module; it and what it imports at module level are the start modules.
START_MODULE = "spieleabend.ui.app"


def top_level_imports(source, module_name, is_package):
    """Return the module names a source imports when it is run (not those inside functions or classes)."""
    package = module_name.split(".") if is_package else module_name.split(".")[:-1]
    names = set()

    def visit(statements):
        for node in statements:
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                names.add(module)
                names.update(module + "." + alias.name for alias in node.names)  # from pkg import submodule
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.For, ast.While)):
                for field in ("body", "orelse", "finalbody"):
                    visit(getattr(node, field, []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(ast.parse(source).body)
    return names


def start_modules(py_root, root=START_MODULE):
    """Return the sorted names of the modules importing `root` runs: it, its module-level imports, their packages."""
    sources = {name: (source, is_package) for name, source, is_package in python_modules(py_root)}
    seen = set()
    todo = [root]
    while todo:
        name = todo.pop()
        if name in seen or name not in sources:
            continue
        seen.add(name)
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # importing a.b.c runs a and a.b first
        todo.extend(top_level_imports(sources[name][0], name, sources[name][1]))
    return sorted(seen)


def later_modules(py_root, roots, skip):
    """Return the modules the given ones import, at any depth and from inside functions too, in the order
    they are first reached (roots in order), leaving out `skip` (the start modules)."""
    sources = {name: (source, is_package) for name, source, is_package in python_modules(py_root)}
    order = []

    def visit(name):
        if name in order or name in skip or name not in sources:
            return
        order.append(name)
        for need in module_imports(sources[name][0], name, sources[name][1]):
            visit(need)

    for root in roots:
        visit(root)
    return order


# A room's screens: a phone's reload mid-game starts there, so they are compiled and kept too.
ROOM_SCREENS = "spieleabend.ui.room_screens"


def playable_screens(py_root):
    """Return the modules each game opens, in the home screen's order: its screen (spieleabend.ui.<game>),
    its engine and its computers (imported by name when the game starts); then the room's screens."""
    try:
        (games,) = import_fresh(py_root, ["spieleabend.games"])
        return [name for game in games.GAME_MODULES
                for name in ("spieleabend.ui." + game, "spieleabend.games." + game, "spieleabend.bots." + game)] + [
                    ROOM_SCREENS]
    except Exception as error:
        warnings.warn("no game modules to compile in idle time: %s: %s" % (type(error).__name__, error))
        return []


def start_order(py_root, names):
    """Return the start modules ordered so that each comes after those it imports (ties by name)."""
    sources = {name: (source, is_package) for name, source, is_package in python_modules(py_root)}
    order = []

    def place(name, path):
        if name in order or name in path:
            return
        parts = name.split(".")
        needs = {".".join(parts[:i]) for i in range(1, len(parts))}
        needs |= top_level_imports(sources[name][0], name, sources[name][1])
        for need in sorted(needs):
            if need in names:
                place(need, path | {name})
        if name not in order:
            order.append(name)

    for name in sorted(names):
        place(name, frozenset())
    return order


def without_comments(source):
    """Return Python source with its comments removed and every line kept where it was.

    Comments are for the people who read the code, and they are a tenth of what
    the bundle sends; keeping the lines keeps tracebacks' line numbers right.
    """
    lines = source.splitlines(True)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            row, column = token.start
            line = lines[row - 1]
            lines[row - 1] = line[:column].rstrip() + line[len(line.rstrip("\r\n")):]
    return "".join(lines)


def without_docstrings(source):
    """Return Python source with every docstring replaced by "" and every line kept where it was.

    Nothing in the app reads a docstring at run time, and they were a fifth of what the bundle
    sends (48 of 260 KB compressed, 2026-12-05); "" keeps a body that is only a docstring valid.
    """
    spans = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                spans.append((first.lineno, first.col_offset, first.end_lineno, first.end_col_offset))
    lines = [line.encode("utf-8") for line in source.splitlines(True)]  # ast's columns count UTF-8 bytes
    for start_row, start_column, end_row, end_column in sorted(spans, reverse=True):
        lines[start_row - 1] = lines[start_row - 1][:start_column] + b'""' + lines[end_row - 1][end_column:]
        for row in range(start_row, end_row):
            lines[row] = b"\n"
    return b"".join(lines).decode("utf-8")


@functools.lru_cache(maxsize=512)
def shipped_source(source):
    """Return a module's source as the bundle ships it: no comments, no docstrings, the same line numbers."""
    return without_docstrings(without_comments(source))


def build_python_bundle(py_root, precompiled_names=(), brython_source=None):
    """Return the app's bundle as JSON text: every module under py_root, for `loadBrythonPackage`.

    {"modules": {name: [".py", source, imports(, 1 for a package)], "$timestamp": n}} and, when
    `precompiled_names` could be compiled ahead of time by `brython_source`'s compiler,
    "compiled": {name: JavaScript} with "brython_timestamp": the `__BRYTHON__.timestamp` of that
    brython.js (the app's worker installs the code only under that same brython.js).
    """
    modules = {}
    sources = []
    for name, source, is_package in python_modules(py_root):
        shipped = shipped_source(source)
        entry = [".py", shipped, module_imports(source, name, is_package)]
        if is_package:
            entry.append(1)
        modules[name] = entry
        if name in precompiled_names:
            sources.append((name, shipped, is_package))
    body = json.dumps(modules, sort_keys=True, ensure_ascii=False)
    # The timestamp keys Brython's compiled-code cache: same content, same number (< 2**53).
    timestamp = int(hashlib.sha256(body.encode("utf-8")).hexdigest()[:12], 16)
    modules["$timestamp"] = timestamp
    bundle = {"modules": modules}
    if sources and brython_source:
        compiled, brython_timestamp = precompile.compile_modules(brython_source, sources)
        if compiled:
            # Brython's loader takes a package's code as a one-element list.
            bundle["compiled"] = {name: ([js] if modules[name][3:] else js) for name, js in compiled.items()}
            bundle["brython_timestamp"] = brython_timestamp
        else:
            warnings.warn("start modules ship as source only: %s" % precompile.failure(brython_source))
    return json.dumps(bundle, sort_keys=True)


class StandInApp:
    """What HomeScreen.render reads from the app on a first visit: default settings, no saves, no update."""

    def __init__(self, storage_module, language):
        self.storage = storage_module.Storage(storage_module.MemoryStorage(), json, lambda: 0)
        self.settings = self.storage.load_settings()
        self.settings["language"] = language
        self.just_updated = False
        self.screen = None

    def update_waiting(self):
        return False


def import_fresh(py_root, names):
    """Import modules from py_root in isolation; return them. sys.modules and sys.path are left as they were."""
    with fresh_package(py_root, names[0].split(".")[0]):
        return [importlib.import_module(name) for name in names]


@contextlib.contextmanager
def fresh_package(py_root, package):
    """Within the block, `package` is imported from py_root (also by imports inside its functions); after it,
    sys.modules and sys.path are as they were."""
    saved = {key: module for key, module in sys.modules.items() if key == package or key.startswith(package + ".")}
    for key in saved:
        del sys.modules[key]
    sys.path.insert(0, str(py_root))
    importlib.invalidate_caches()
    try:
        yield
    finally:
        sys.path.remove(str(py_root))
        for key in [key for key in sys.modules if key == package or key.startswith(package + ".")]:
            del sys.modules[key]
        sys.modules.update(saved)


PRERENDER_LANGUAGES = ("de", "en")


def prerender_home(py_root):
    """Return {language: (title, home screen HTML)} rendered by the app's own HomeScreen in CPython.

    The stand-in app is a first visit (default settings, empty storage), so the markup equals what
    the app draws on such a visit and Python takes over without a visible change. Returns {} when
    the home screen cannot be rendered outside the browser (the page then shows its loading screen).
    """
    try:
        shell, i18n, storage = import_fresh(
            py_root, ["spieleabend.ui.shell", "spieleabend.ui.i18n", "spieleabend.storage"])
        pages = {}
        for language in PRERENDER_LANGUAGES:
            i18n.set_language(language)
            pages[language] = (i18n.t("app.title"), shell.HomeScreen().render(StandInApp(storage, language)))
        return pages
    except Exception as error:  # a home screen that needs more of the app than the stand-in has
        warnings.warn("home screen not pre-rendered: %s: %s" % (type(error).__name__, error))
        return {}


class Asset:
    """One servable file: its bytes, gzip and brotli bytes, type and cache policy."""

    def __init__(self, data, content_type, immutable):
        self.data = data
        self.content_type = content_type
        self.immutable = immutable
        self.etag = content_hash(data, 16)
        self.gzipped = None
        self.brotli = None
        if content_type.split(";")[0] in COMPRESSIBLE_TYPES:
            self.gzipped = gzip.compress(data, compresslevel=9, mtime=0)
            if brotli is not None:
                # Quality 9: brython.js 252 KB against gzip's 286 KB, built in about a second
                # (quality 11 saves 23 KB more but takes 20 s at every server start).
                self.brotli = brotli.compress(data, quality=9)

    def smallest(self):
        """Return the fewest bytes this file goes over the network as (a browser takes br and gzip)."""
        return min(len(body) for body in (self.data, self.gzipped, self.brotli) if body is not None)


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


def add_vendor_folder(assets, web_root, entry):
    """Serve the vendored folder of `entry` (a path under web/vendor): its modules and its LICENSE,
    immutable, under a folder named by the hash of them all; return the entry's URL."""
    folder = Path(web_root) / "vendor" / entry.split("/")[0]
    files = sorted(path for path in folder.iterdir() if path.suffix == ".js" or path.name == "LICENSE")
    digest = content_hash(b"".join(path.name.encode("utf-8") + b"\0" + path.read_bytes() for path in files))
    base = "/assets/%s.%s/" % (folder.name, digest)
    for path in files:
        assets[base + path.name] = Asset(path.read_bytes(), guess_type(path.suffix or ".txt"), immutable=True)
    return base + entry.split("/", 1)[1]


def build(web_root=None, idle_compile=True, compile_all=False):
    """Build every asset in memory and return {url path: Asset} plus the release version.

    idle_compile: let the app's worker compile the games' modules after a first start.
    compile_all: ship every module compiled, as a returning visitor's cache holds them (the end-to-end
    scenarios start hundreds of fresh browsers; a person's first visit gets the start modules only).
    """
    web_root = Path(web_root or DEFAULT_WEB_ROOT)
    assets = {}
    urls = {}

    def add_hashed(url_stem, suffix, data):
        url = "/assets/%s.%s%s" % (url_stem, content_hash(data), suffix)
        assets[url] = Asset(data, guess_type(suffix), immutable=True)
        return url

    brython_source = brython_js()
    py_root = web_root / "py"
    starting = start_modules(py_root)
    compiled = {name for name, _, _ in python_modules(py_root)} if compile_all else starting
    bundle = build_python_bundle(py_root, compiled, brython_source.decode("utf-8"))
    # The app's worker imports brython.js (a module import: V8 keeps its compiled code) and fetches the
    # bundle as data beside it. The bundle inside a script made V8 keep and read back 1.6 MB more of
    # compiled code with every start (as one script with brython.js: ~20 ms later, A/B).
    brython_url = add_hashed("brython", ".js", brython_source)
    bundle_url = add_hashed("spieleabend-bundle", ".json", bundle.encode("utf-8"))
    urls[MAIN_CSS] = add_hashed("css-app", ".css", stylesheet(web_root))
    # The worker the app's Python runs in (the page only paints): it knows the start modules' order
    # and which modules to compile in idle time.
    worker_script = (web_root / "app-worker.js").read_text(encoding="utf-8")
    worker_script = worker_script.replace("{{brython}}", json.dumps(brython_url))
    worker_script = worker_script.replace("{{bundle}}", json.dumps(bundle_url))
    worker_script = worker_script.replace("{{start_order}}", json.dumps(start_order(py_root, starting)))
    worker_script = worker_script.replace("{{idle_order}}", json.dumps(
        later_modules(py_root, playable_screens(py_root), set(starting)) if idle_compile and not compile_all else []))
    for key, entry in VENDOR_ENTRIES.items():
        worker_script = worker_script.replace("{{%s}}" % key, json.dumps(add_vendor_folder(assets, web_root, entry)))
    urls["app-worker.js"] = add_hashed("app-worker", ".js", worker_script.encode("utf-8"))
    for relative in HASHED_STATIC:
        stem, suffix = os.path.splitext(relative.replace("/", "-"))
        urls[relative] = add_hashed(stem, suffix, (web_root / relative).read_bytes())
    for relative in PLAIN_STATIC:
        url = "/" + relative
        assets[url] = Asset((web_root / relative).read_bytes(), guess_type(relative), immutable=False)

    for url, html in rules_pages(RULES_ROOT, urls["css/app.css"], level_sections(py_root)).items():
        assets[url] = Asset(html.encode("utf-8"), "text/html; charset=utf-8", immutable=False)

    # The release version covers everything the worker precaches, index.html included.
    template = without_script_comments((web_root / "index.html").read_text(encoding="utf-8"))
    version_source = template.encode("utf-8") + b"".join(
        assets[url].data for url in sorted(assets))
    version = content_hash(version_source, 12)
    page = template.replace("{{version}}", version)
    for key, url in urls.items():
        page = page.replace("{{%s}}" % key, url)
    page = page.replace("{{app_worker}}", json.dumps(urls["app-worker.js"]))
    home = prerender_home(py_root)
    page = page.replace("{{title_en}}", json.dumps(home["en"][0] if home else "Spieleabend"))
    # Last: the pre-rendered markup is the app's text, no placeholder is looked for inside it.
    page = page.replace("{{home_en}}", home["en"][1] if home else "")
    page = page.replace("{{home_de}}", home["de"][1] if home else "")
    assets["/"] = Asset(page.encode("utf-8"), "text/html; charset=utf-8", immutable=False)

    precache = ["/"] + sorted(url for url in assets if url != "/" and url not in INSTALL_ONLY)
    worker = (web_root / "sw.js").read_text(encoding="utf-8")
    worker = worker.replace("{{version}}", version).replace("{{precache}}", json.dumps(precache))
    assets["/sw.js"] = Asset(worker.encode("utf-8"), guess_type("sw.js"), immutable=False)
    return Build(assets, version, precache, script_hashes(assets, py_root))


INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)
# An inline handler in the pages or in markup the app's Python writes (`onsubmit="return false"`).
INLINE_HANDLER = re.compile(r'\son[a-z]+=\\?"([^"\\]*)\\?"')


def without_script_comments(page):
    """Return a page without the whole-line `//` comments of its inline scripts (written for the source's
    readers, like the Python comments the bundle leaves out): 4 KB less of the first visit's transfer."""
    def strip(match):
        return "<script>%s</script>" % "\n".join(
            line for line in match.group(1).split("\n") if not line.lstrip().startswith("//"))
    return INLINE_SCRIPT.sub(strip, page)


def csp_hash(text):
    """Return the CSP source that allows exactly this inline script or handler."""
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def script_hashes(assets, py_root):
    """Return the CSP hashes of every inline script of the built pages and every inline handler."""
    hashes = set()
    for asset in assets.values():
        if asset.content_type.startswith("text/html"):
            page = asset.data.decode("utf-8")
            hashes.update(csp_hash(script) for script in INLINE_SCRIPT.findall(page))
            hashes.update(csp_hash(handler) for handler in INLINE_HANDLER.findall(page))
    for source in sorted(Path(py_root).rglob("*.py")):
        hashes.update(csp_hash(handler) for handler in INLINE_HANDLER.findall(source.read_text(encoding="utf-8")))
    return sorted(hashes)


# Where a rules page's "Back" leads when there is no app page to go back to (opened from a bookmark).
RULES_BACK = {"spieleabend": "/#/night"}

# A rules page holds the rules in German and in English; this picks the one the app speaks, as
# web/index.html decides: the stored setting, else (no setting stored yet) the browser's first German
# or English language, else German. It runs in <head> so only that language is ever painted; without
# script the page stays German (the stylesheet below hides the English part).
RULES_LANGUAGE_SCRIPT = """(function () {
  var lang = "de", raw = null, settings = null;
  try {
    raw = localStorage.getItem("spieleabend.settings");
    var stored = JSON.parse(raw);
    if (stored && stored.format === 1 && stored.settings && typeof stored.settings === "object") settings = stored.settings;
  } catch (e) {}
  if (settings) {
    if (settings.language === "en") lang = "en";
  } else {  // none yet, or unreadable: the browser's, as the app page does
    var wanted = navigator.languages || [navigator.language || ""];
    for (var i = 0; i < wanted.length; i++) {
      var code = String(wanted[i]).slice(0, 2).toLowerCase();
      if (code === "de" || code === "en") { lang = code; break; }
    }
  }
  var root = document.documentElement;
  root.lang = lang;
  document.addEventListener("DOMContentLoaded", function () {
    // Only the chosen language stays in the page (one "Back", one set of headings for tests and readers).
    var others = document.querySelectorAll("[data-language]:not([data-language=" + lang + "])");
    for (var i = 0; i < others.length; i++) others[i].remove();
    var article = document.querySelector("article[data-title]");
    if (article) document.title = article.getAttribute("data-title");
    // Back to the app screen the link came from (a running table stays where it was); the link's own
    // address is for a page opened on its own.
    // The same at the page's end: a long page on a phone need not be scrolled back up to leave it.
    var backs = document.querySelectorAll("[data-testid=rules-back], [data-testid=rules-back-end]");
    var fromApp = document.referrer.indexOf(location.origin + "/") === 0 && history.length > 1;
    for (var k = 0; fromApp && k < backs.length; k++) {
      backs[k].addEventListener("click", function (event) { event.preventDefault(); history.back(); });
    }
  });
})();"""

RULES_PAGE = """<!doctype html>
<html lang="de"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%(title_de)s</title>
<meta name="theme-color" content="#0f3d2e">
<link rel="icon" href="/icons/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">
<link rel="stylesheet" href="%(css)s">
<style>html[lang="de"] [data-language="en"], html[lang="en"] [data-language="de"] { display: none; }</style>
<script>%(script)s</script>
</head><body><div class="screen rules-page">
<header class="bar">
<a class="btn btn-ghost back" href="%(back)s" data-testid="rules-back" data-language="de" lang="de">‹ Zurück</a>
<a class="btn btn-ghost back" href="%(back)s" data-testid="rules-back" data-language="en" lang="en">‹ Back</a>
</header>
<main class="content rules" data-testid="rules">
<article data-language="de" lang="de" data-title="%(title_de)s">%(body_de)s</article>
<article data-language="en" lang="en" data-title="%(title_en)s">%(body_en)s</article>
</main>
<footer class="rules-end">
<a class="btn btn-secondary" href="%(back)s" data-testid="rules-back-end" data-language="de" lang="de">‹ Zurück</a>
<a class="btn btn-secondary" href="%(back)s" data-testid="rules-back-end" data-language="en" lang="en">‹ Back</a>
</footer>
</div></body></html>
"""

RULES_LANGUAGES = {"de": "Spieleabend", "en": "Game Night"}  # language: the app's name in it


LEVELS_HEADING = {"de": "Computer (Spielstärke)", "en": "Computers (strength)"}


def level_sections(py_root):
    """Return {game: {language: Markdown}}: each game's computer levels as its start screen words them, for a
    rules page whose text says nothing of them (a newcomer's audit found them on two pages of five)."""
    try:
        with fresh_package(py_root, "spieleabend"):  # strength_choices imports the games' bots as it goes
            games, i18n, table = [importlib.import_module(name) for name in
                                  ("spieleabend.games", "spieleabend.ui.i18n", "spieleabend.ui.table")]
            sections = {}
            for game in games.GAME_MODULES:
                sections[game] = {}
                for language in RULES_LANGUAGES:
                    i18n.set_language(language)
                    lines = ["- **%s**: %s" % (name, line) for _level, name, line in table.strength_choices(game)]
                    sections[game][language] = "\n\n## %s\n%s\n" % (LEVELS_HEADING[language], "\n".join(lines))
            return sections
    except Exception as error:  # the rules still read without it
        warnings.warn("no computer levels for the rules pages: %s: %s" % (type(error).__name__, error))
        return {}


def rules_page_parts(path, app_name, levels=""):
    """Return (page title, HTML body) of one rules page written in Markdown (`levels` appended when its text
    has no section on the computers)."""
    text = path.read_text(encoding="utf-8")
    if levels and "\n## Computer" not in text:
        text = text.rstrip("\n") + levels
    heading = text.splitlines()[0].lstrip("# ").strip() if text else path.stem
    body = markdown.markdown(text, extensions=["tables"], output_format="html")
    return html_escape("%s – %s" % (heading, app_name)), body


def rules_pages(rules_root, css_url, levels=None):
    """Return {"/rules/<game>": html} for every rules page: docs/rules/<game>.md (German) with its English
    translation docs/rules/en/<game>.md in the same page (a missing translation shows the German text);
    `levels`: level_sections(), for the games' pages."""
    pages = {}
    levels = levels or {}
    for path in sorted(Path(rules_root).glob("*.md")):
        english = Path(rules_root) / "en" / path.name
        if not english.exists():
            warnings.warn("rules page %s has no English translation in en/" % path.name)
            english = path
        game_levels = levels.get(path.stem, {})
        title_de, body_de = rules_page_parts(path, RULES_LANGUAGES["de"], game_levels.get("de", ""))
        title_en, body_en = rules_page_parts(english, RULES_LANGUAGES["en"], game_levels.get("en", ""))
        pages["/rules/" + path.stem] = RULES_PAGE % {
            "title_de": title_de, "title_en": title_en, "body_de": body_de, "body_en": body_en,
            "css": css_url, "script": RULES_LANGUAGE_SCRIPT,
            "back": RULES_BACK.get(path.stem, "/#/play/" + path.stem)}
    return pages


class Build:
    """The built release: assets by URL, its version and the worker's precache list."""

    def __init__(self, assets, version, precache, script_hashes=()):
        self.assets = assets
        self.version = version
        self.precache = precache
        self.script_hashes = list(script_hashes)  # CSP sources of the inline scripts and handlers

    def content_security_policy(self):
        """Return the release's CSP: its own scripts only (inline ones by hash), never framed.

        'unsafe-eval': Brython runs the app's Python by compiling it to JavaScript in the browser
        (in the app's worker, which may take the page's policy). 'unsafe-hashes': the inline
        handlers the app writes (`onsubmit="return false"`) are allowed by their hashes.
        """
        scripts = " ".join(["'self'", "'unsafe-eval'", "'unsafe-hashes'"] + self.script_hashes)
        return ("script-src %s; worker-src 'self'; object-src 'none'; base-uri 'self'; "
                "form-action 'self'; frame-ancestors 'none'" % scripts)

    def transfer_size(self, urls=None):
        """Return the compressed bytes of the given URLs (default: everything precached), as a browser gets them."""
        return sum(self.assets[url].smallest() for url in urls or self.precache)

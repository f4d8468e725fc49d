"""The bundle build: every module ships in one Brython package keyed by its content."""

import json
import re
import shutil

from server.build import build, build_python_bundle, module_imports

PACKAGE_CALL = re.compile(r"^__BRYTHON__\.loadBrythonPackage\((.*)\)\n$", re.S)


def bundle_modules(text):
    return json.loads(PACKAGE_CALL.match(text).group(1))


def test_bundle_holds_every_module_with_package_flags(tmp_path):
    root = tmp_path / "py"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text('"""Package."""\n')
    (root / "pkg" / "sub" / "__init__.py").write_text("")
    (root / "pkg" / "sub" / "mod.py").write_text("from pkg.other import x\nfrom . import sibling\nimport pkg\n")
    (root / "pkg" / "other.py").write_text("x = 1\n")
    modules = bundle_modules(build_python_bundle(root))
    assert modules["pkg"][3] == 1 and modules["pkg.sub"][3] == 1
    assert len(modules["pkg.other"]) == 3
    assert modules["pkg.sub.mod"][0] == ".py"
    assert modules["pkg.sub.mod"][2] == ["pkg", "pkg.other", "pkg.sub"]
    assert isinstance(modules["$timestamp"], int) and modules["$timestamp"] < 2 ** 53


def test_timestamp_follows_the_content(tmp_path):
    root = tmp_path / "py"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    first = bundle_modules(build_python_bundle(root))["$timestamp"]
    assert bundle_modules(build_python_bundle(root))["$timestamp"] == first
    (root / "a.py").write_text("x = 2\n")
    assert bundle_modules(build_python_bundle(root))["$timestamp"] != first


def test_real_bundle_contains_the_app_and_engines():
    modules = bundle_modules(build().assets[next(
        url for url in build().assets if url.endswith(".brython.js"))].data.decode())
    for name in ("spieleabend", "spieleabend.games", "spieleabend.games.common",
                 "spieleabend.storage", "spieleabend.ui.app"):
        assert name in modules


def test_relative_imports_resolve_against_the_package():
    assert module_imports("from . import b\nfrom .c import d\n", "pkg.a", False) == ["pkg", "pkg.c"]
    assert module_imports("from .c import d\n", "pkg", True) == ["pkg.c"]


def test_release_version_changes_with_any_precached_file(tmp_path):
    from server.build import DEFAULT_WEB_ROOT

    web = tmp_path / "web"
    shutil.copytree(DEFAULT_WEB_ROOT, web, ignore=shutil.ignore_patterns("__pycache__"))
    before = build(web)
    (web / "css" / "app.css").write_text((web / "css" / "app.css").read_text() + "\n/* x */\n")
    after = build(web)
    assert before.version != after.version
    assert set(before.precache) != set(after.precache)  # the css got a new hashed name


def test_browser_path_imports_no_standard_library():
    """Each stdlib import costs seconds in Brython: the browser path uses none."""
    modules = bundle_modules(build().assets[next(
        url for url in build().assets if url.endswith(".brython.js"))].data.decode())
    allowed_roots = {"spieleabend", "browser", "javascript"}
    for name, entry in modules.items():
        if name == "$timestamp":
            continue
        for imported in entry[2]:
            assert imported.split(".")[0] in allowed_roots, (name, imported)


def test_cold_transfer_is_small():
    release = build()
    assert release.transfer_size() < 600 * 1024

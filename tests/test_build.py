"""The bundle build: every module ships in one Brython package keyed by its content."""

import json
import re
import shutil

import pytest

from server.build import (BRYTHON_DATA, build, build_python_bundle, module_imports, prerender_home,
                          start_modules, start_order)

def bundle_modules(text):
    return json.loads(text)["modules"]


def bundle_precompiled(text):
    """Return (brython timestamp the compiled code is for, {name: JavaScript}) of a bundle, or (None, {})."""
    bundle = json.loads(text)
    return bundle.get("brython_timestamp"), bundle.get("compiled", {})


def real_bundle():
    """Return the app's bundle as build_python_bundle made it (the asset the worker fetches)."""
    release = build()
    return next(asset.data for url, asset in release.assets.items()
                if url.startswith("/assets/spieleabend-bundle.")).decode()


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
    modules = bundle_modules(real_bundle())
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
    modules = bundle_modules(real_bundle())
    allowed_roots = {"spieleabend", "browser", "javascript"}
    for name, entry in modules.items():
        if name == "$timestamp":
            continue
        for imported in entry[2]:
            assert imported.split(".")[0] in allowed_roots, (name, imported)


def test_cold_transfer_is_small():
    release = build()
    assert release.transfer_size() < 600 * 1024


def test_start_modules_are_what_importing_the_app_runs():
    from server.build import DEFAULT_WEB_ROOT

    names = start_modules(DEFAULT_WEB_ROOT / "py")
    for name in ("spieleabend", "spieleabend.ui", "spieleabend.ui.app", "spieleabend.ui.shell",
                 "spieleabend.ui.dom", "spieleabend.storage", "spieleabend.ui.i18n"):
        assert name in names
    # Screens and engines opened later are not: they cost bytes on every first visit.
    assert "spieleabend.ui.settings" not in names and "spieleabend.games.punktejagd" not in names
    order = start_order(DEFAULT_WEB_ROOT / "py", names)
    assert sorted(order) == names
    assert order.index("spieleabend.ui.i18n") < order.index("spieleabend.ui.shell") < order.index("spieleabend.ui.app")


def test_module_level_imports_only_count_for_start(tmp_path):
    root = tmp_path / "py"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "main.py").write_text("from pkg import a\ndef later():\n    from pkg import b\n")
    (root / "pkg" / "a.py").write_text("try:\n    import pkg.c\nexcept ImportError:\n    pass\n")
    for name in "bc":
        (root / "pkg" / (name + ".py")).write_text("")
    assert start_modules(root, "pkg.main") == ["pkg", "pkg.a", "pkg.c", "pkg.main"]
    assert start_order(root, ["pkg", "pkg.a", "pkg.c", "pkg.main"]) == ["pkg", "pkg.c", "pkg.a", "pkg.main"]


def test_start_modules_ship_compiled_for_the_pinned_brython_only():
    brython_js = (BRYTHON_DATA / "brython.js").read_text()
    stamp = int(re.search(r"__BRYTHON__\.timestamp=(\d+)", brython_js).group(1))
    text = real_bundle()
    timestamp, compiled = bundle_precompiled(text)
    assert timestamp == stamp, "installed only under the brython.js it was compiled by"
    assert set(compiled) == set(start_modules(build.__globals__["DEFAULT_WEB_ROOT"] / "py"))
    assert isinstance(compiled["spieleabend"], list)  # a package's code, as Brython's loader takes it
    assert "locals_spieleabend_ui_app" in compiled["spieleabend.ui.app"]
    assert 'var __file__ = locals.__file__ = "VFS.spieleabend.ui.app.py"' in compiled["spieleabend.ui.app"]
    # The sources stay in the bundle: another brython.js compiles them as before.
    assert "spieleabend.ui.app" in bundle_modules(text)


def test_compiled_code_is_stable_and_follows_the_source(tmp_path):
    brython_js = (BRYTHON_DATA / "brython.js").read_text()
    root = tmp_path / "py"
    root.mkdir()
    (root / "a.py").write_text("def f(x):\n    return [y for y in x if y]\n")
    (root / "b.py").write_text("g = lambda: 1\n")
    first = bundle_precompiled(build_python_bundle(root, ["a", "b"], brython_js))[1]
    only_b = bundle_precompiled(build_python_bundle(root, ["b"], brython_js))[1]
    assert only_b["b"] == first["b"], "a module's code does not depend on what was compiled before"
    from server import precompile

    precompile._compiled.clear()  # compile again from scratch: byte for byte the same
    assert bundle_precompiled(build_python_bundle(root, ["a", "b"], brython_js))[1] == first
    (root / "a.py").write_text("def f(x):\n    return x\n")
    assert bundle_precompiled(build_python_bundle(root, ["a", "b"], brython_js))[1]["a"] != first["a"]


def test_other_brython_gets_source_only(tmp_path):
    root = tmp_path / "py"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    other = (BRYTHON_DATA / "brython.js").read_text().replace("// version [3, 15, 0,", "// version [3, 16, 0,", 1)
    with pytest.warns(UserWarning, match="source only"):
        text = build_python_bundle(root, ["a"], other)
    assert bundle_precompiled(text) == (None, {})
    assert bundle_modules(text)["a"][1] == "x = 1\n"


def test_home_is_prerendered_by_the_apps_own_code_in_both_languages():
    from server.build import DEFAULT_WEB_ROOT
    from spieleabend.ui import i18n

    before = i18n.language()
    pages = prerender_home(DEFAULT_WEB_ROOT / "py")
    assert i18n.language() == before, "rendering leaves this process's modules alone"
    assert pages["de"][0] == "Spieleabend" and pages["en"][0] == "Game Night"
    assert pages["de"][1].startswith('<div class="screen home">')
    assert "Spiele</h2>" in pages["de"][1] and "Games</h2>" in pages["en"][1]
    assert "continue-" not in pages["de"][1], "a first visit has nothing to continue"


def test_games_modules_are_listed_for_compiling_in_idle_time():
    import json as json_module

    release = build()
    page = next(asset.data.decode() for url, asset in release.assets.items() if "/app-worker." in url)
    later = json_module.loads(re.search(r"var LATER = (\[.*?\]);", page).group(1))
    for name in ("spieleabend.ui.punktejagd", "spieleabend.games.punktejagd", "spieleabend.bots.punktejagd",
                 "spieleabend.ui.table", "spieleabend.games.common"):
        assert name in later
    assert later.index("spieleabend.ui.punktejagd") < later.index("spieleabend.ui.golf") or "spieleabend.ui.golf" not in later
    assert not set(later) & set(json_module.loads(re.search(r"var START = (\[.*?\]);", page).group(1)))


def test_the_testers_plugin_stays_out_of_the_browser_bundle():
    modules = bundle_modules(real_bundle())
    assert not [name for name in modules if name.startswith("spieleabend.testing")]
    assert "spieleabend.ui.app" in modules

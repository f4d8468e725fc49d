"""The bundle build: every module ships in one Brython package keyed by its content."""

import html
import json
import re
import shutil

import pytest

from server.build import (BRYTHON_DATA, BRYTHON_FIXES, BRYTHON_JOIN_FAST, BRYTHON_JOIN_SLOW, BRYTHON_LOADER_BUG,
                          BRYTHON_LOADER_FIX, build, build_python_bundle,
                          fixed_brython, module_imports, prerender_home, shipped_source, start_modules, start_order)

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


SOURCE_WITH_DOCS = '''"""Module: über alles."""

import os  # a comment


class Only:
    """Nothing but a docstring: the body must stay valid."""


def twice(n):
    """Return n doubled.

    Über zwei Zeilen, mit Umlauten.
    """
    text = """not a docstring"""  # a string later in the body stays
    return 2 * n, text


def failing():
    raise ValueError("line 20")
'''


def test_the_bundle_ships_sources_without_comments_and_docstrings_on_the_same_lines():
    shipped = shipped_source(SOURCE_WITH_DOCS)
    assert "Module" not in shipped and "doubled" not in shipped and "Umlauten" not in shipped
    assert "comment" not in shipped and '"""not a docstring"""' in shipped
    assert shipped.count("\n") == SOURCE_WITH_DOCS.count("\n")
    space = {}
    exec(compile(shipped, "shipped.py", "exec"), space)
    assert space["twice"](4) == (8, "not a docstring") and space["Only"]().__class__.__name__ == "Only"
    with pytest.raises(ValueError) as raised:
        space["failing"]()
    assert raised.traceback[-1].lineno + 1 == 20, "a traceback points at the line of the source file"


def test_real_bundle_ships_no_docstring_and_keeps_every_line():
    import ast

    from server.build import DEFAULT_WEB_ROOT, python_modules

    modules = bundle_modules(real_bundle())
    for name, source, _ in python_modules(DEFAULT_WEB_ROOT / "py"):
        shipped = modules[name][1]
        assert shipped.count("\n") == source.count("\n"), name
        for node in ast.walk(ast.parse(shipped)):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)):
                assert not ast.get_docstring(node), (name, getattr(node, "name", None))


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


def test_the_page_ships_its_scripts_without_their_comment_lines():
    """index.html's inline scripts arrive without their whole-line comments and with every line of code."""
    from server.build import DEFAULT_WEB_ROOT, INLINE_SCRIPT

    page = build().assets["/"].data.decode("utf-8")
    shipped = [line for script in INLINE_SCRIPT.findall(page) for line in script.split("\n")]
    assert shipped and not [line for line in shipped if line.lstrip().startswith("//")]
    source = (DEFAULT_WEB_ROOT / "index.html").read_text(encoding="utf-8")
    code = [line for script in INLINE_SCRIPT.findall(source) for line in script.split("\n")
            if not line.lstrip().startswith("//") and "{{" not in line]
    assert [line for line in shipped if "{{" not in line and line in code] == code


def test_cold_transfer_is_small():
    from server.build import COLD_TRANSFER_BUDGET_BYTES

    release = build()
    assert release.transfer_size() <= COLD_TRANSFER_BUDGET_BYTES


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
                 "spieleabend.ui.table", "spieleabend.games.common",
                 # a phone's reload in a room starts there (issue 28)
                 "spieleabend.ui.room_screens", "spieleabend.ui.rooms"):
        assert name in later
    assert later.index("spieleabend.ui.punktejagd") < later.index("spieleabend.ui.golf") or "spieleabend.ui.golf" not in later
    assert not set(later) & set(json_module.loads(re.search(r"var START = (\[.*?\]);", page).group(1)))


def test_a_build_with_every_module_compiled_leaves_nothing_for_idle_time():
    """COMPILE_ALL (the project's own scenarios): every module ships compiled, as a returning visitor's cache
    holds them, and the app's worker has nothing left to compile; the sources still ship beside the code."""
    release = build(compile_all=True)
    bundle = next(asset.data.decode() for url, asset in release.assets.items() if "/spieleabend-bundle." in url)
    worker = next(asset.data.decode() for url, asset in release.assets.items() if "/app-worker." in url)
    assert set(bundle_precompiled(bundle)[1]) == set(bundle_modules(bundle)) - {"$timestamp"}
    assert re.search(r"var LATER = (\[.*?\]);", worker).group(1) == "[]"
    assert release.version != build().version, "never mistaken for the shipped release"


def test_the_shipped_brython_never_runs_an_imported_package_again():
    """Issue 22: the brython.js the app serves has its precompiled-module loader fixed, exactly once
    (and str.join's fast path, issue 28: nothing else changed)."""
    release = build()
    shipped = next(asset.data for url, asset in release.assets.items()
                   if url.startswith("/assets/brython.")).decode()
    original = (BRYTHON_DATA / "brython.js").read_text()
    assert BRYTHON_LOADER_BUG in original and BRYTHON_LOADER_BUG not in shipped
    assert shipped.count(BRYTHON_LOADER_FIX) == 1
    assert [old for old, _, _ in BRYTHON_FIXES] == [BRYTHON_LOADER_BUG, BRYTHON_JOIN_SLOW]
    assert shipped.count(BRYTHON_JOIN_FAST) == 1
    assert len(shipped) - len(original) == sum(len(new) - len(old) for old, new, _ in BRYTHON_FIXES)
    # The same Brython otherwise: its compiled-code cache key is unchanged.
    stamp = re.compile(r"__BRYTHON__\.timestamp=(\d+)")
    assert stamp.search(shipped).group(1) == stamp.search(original).group(1)


def test_a_brython_whose_loader_changed_stops_the_build():
    """An upgraded Brython is not shipped with a fix that no longer fits: the build says what to check."""
    original = (BRYTHON_DATA / "brython.js").read_text()
    with pytest.raises(RuntimeError, match="precompiled-module loader"):
        fixed_brython(original.replace(BRYTHON_LOADER_BUG, "/* rewritten upstream */"))
    with pytest.raises(RuntimeError, match="str.join"):
        fixed_brython(original.replace(BRYTHON_JOIN_SLOW, "/* rewritten upstream */"))


# Issue 29: the rules pages are for players, in German and English, with the app's icon.

def rules_release_pages():
    """Return {game: rules page HTML} as the release serves them."""
    release = build()
    return {url.rsplit("/", 1)[1]: asset.data.decode() for url, asset in release.assets.items()
            if url.startswith("/rules/")}, release


def language_part(page, language):
    """Return the article of one language from a rules page."""
    return re.search(r'<article data-language="%s" lang="%s"[^>]*>(.*?)</article>' % (language, language),
                     page, re.S).group(1)


def test_every_rules_page_has_an_english_translation():
    from server.build import RULES_ROOT

    german = sorted(path.name for path in RULES_ROOT.glob("*.md"))
    assert german == sorted(path.name for path in (RULES_ROOT / "en").glob("*.md"))
    pages, _ = rules_release_pages()
    assert sorted(pages) == sorted(name[:-3] for name in german)
    for game, page in pages.items():
        de, en = language_part(page, "de"), language_part(page, "en")
        assert de != en, game
        # A translation, section for section and rule for rule.
        assert de.count("<h2>") == en.count("<h2>") and de.count("<li>") == en.count("<li>"), game
        assert "‹ Zurück</a>" in page and "‹ Back</a>" in page, game
        assert re.search(r'data-language="en" lang="en"[^>]*>‹ Back<', page), game
        assert "Regeln" not in en and "Auslegungen" not in en, game


def test_every_games_rules_page_says_what_its_computer_levels_do_in_both_languages():
    """A newcomer's audit: only Punktejagd's and Mau-Mau's pages said anything of Leicht, Mittel and Stark."""
    from spieleabend.games import GAME_MODULES, load_bots

    pages, _ = rules_release_pages()
    for game in GAME_MODULES:
        info = load_bots(game).LEVEL_INFO
        for language, side, heading in (("de", 0, "<h2>Computer"), ("en", 1, "<h2>Computers")):
            text = language_part(pages[game], language)
            assert text.count(heading) == 1, (game, language)
            if game in ("kartenkampf", "paodekuai", "golf"):  # written from the start screen's own lines
                for level in info:
                    assert html.escape(info[level][side], quote=False) in text, (game, language, level)


def test_rules_pages_pick_the_apps_language_like_the_app_page():
    pages, release = rules_release_pages()
    app_page = release.assets["/"].data.decode()
    for page in pages.values():
        script = re.search(r"<script>(.*?)</script>", page, re.S).group(1)
        # The same setting and the same fallbacks as web/index.html.
        for needle in ('localStorage.getItem("spieleabend.settings")', "stored.format === 1",
                       'settings.language === "en"', "navigator.languages"):
            assert needle in script and needle in app_page
        assert page.startswith('<!doctype html>\n<html lang="de">')  # German without script


def test_rules_pages_hold_nothing_for_developers():
    pages, _ = rules_release_pages()
    developer_terms = ["Für Entwickler", "developer", "Entwickler", "outcome(", "add_seat", "remove_seat",
                       "IllegalAction", "bench/", ".py", "(state", "to_move", "view[", "Skripte", "scripts",
                       "<code>", "Aktion `", "suggested_decks", "random`", "night_point"]
    for game, page in pages.items():
        for language in ("de", "en"):
            text = language_part(page, language)
            for term in developer_terms:
                assert term not in text, (game, language, term)


def test_developer_material_moved_to_the_engines_doc():
    from server.build import REPO_ROOT

    engines = (REPO_ROOT / "docs" / "engines.md").read_text(encoding="utf-8")
    for needle in ("## Punktejagd", "## Kartenkampf", "## Mau-Mau", "## Golf", "add_seat(state, name)",
                   "IllegalAction", "bench/strength_maumau.py", "resolve_round(cards)", "`play N risk`",
                   "`swap P`"):
        assert needle in engines, needle


def test_golf_rules_number_the_positions_1_to_4_like_the_table():
    pages, _ = rules_release_pages()
    de, en = language_part(pages["golf"], "de"), language_part(pages["golf"], "en")
    assert "oben Position 1 und 2" in de and "unten 3 und 4" in de
    assert "positions 1 and 2" in en and "bottom: 3 and 4" in en
    for text in (de, en):
        assert not re.search(r"\b0\s*(und|and|/|\.\.)\s*[13]\b", text)
        assert not re.search(r"(Position|Platz|positions?|seat) 0\b", text)


def test_rules_pages_and_the_app_page_have_the_apps_icon():
    from server.build import PLAIN_STATIC

    pages, release = rules_release_pages()
    assert "icons/icon.svg" in PLAIN_STATIC and "/icons/icon.svg" in release.precache
    icon = '<link rel="icon" href="/icons/icon.svg" type="image/svg+xml">'
    assert icon in release.assets["/"].data.decode()
    for game, page in pages.items():
        assert icon in page, game
        assert '<link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">' in page, game
        assert "/rules/" + game in release.precache


def test_the_testers_plugin_stays_out_of_the_browser_bundle():
    modules = bundle_modules(real_bundle())
    assert not [name for name in modules if name.startswith("spieleabend.testing")]
    assert "spieleabend.ui.app" in modules

"""Compile Python modules to JavaScript at build time with brython.js's own compiler.

Brython's module loader runs `__BRYTHON__.precompiled[name]` instead of
compiling the source when that name is there (the same path its IndexedDB
cache feeds on warm starts). Running the compiler of the very brython.js the
page loads, in an embedded V8 (the `mini-racer` wheel: no Node needed), gives
the JavaScript the browser would make, so a first visit skips compiling the
modules it needs to show the home screen.

This leans on Brython internals, pinned to brython==3.15.0 and guarded:
- at build time, `compiler_for` checks the version line of brython.js and the
  functions used (`$B.py2js`, `$B.url2name`, `$B.precompiled`), and returns
  None (the bundle then ships source only) when anything differs or mini-racer
  is missing;
- in the browser, the app's worker installs the compiled code only when
  `__BRYTHON__.timestamp` equals the build stamp of the brython.js it was made
  with (the bundle's "brython_timestamp"); any other brython.js compiles the
  source as before.

The filename given to the compiler is `VFS.<name>.py` (or
`VFS.<name>/__init__.py` for a package), what Brython's VFS loader uses, and
Math.random is seeded (Brython draws the first number of its name counters
from it), so a build is byte-for-byte stable.
"""

import hashlib
import json
import threading

PINNED_VERSION = "[3, 15, 0, 'final', 0]"

# A browser-less global scope for brython.js: it brings stubs for document, navigator and location
# itself; V8 alone lacks window, self, URL, addEventListener and console.
SHIM = r"""
var window = globalThis, self = globalThis;
globalThis.addEventListener = function () {};
globalThis.console = {log() {}, warn() {}, info() {}, debug() {}, error() {}};
globalThis.URL = function (url) {
  var m = /^([a-z]+:)\/\/([^\/]*)([^?#]*)([^#]*)(.*)$/.exec(url);
  if (!m) throw Error("not a url: " + url);
  this.protocol = m[1]; this.host = m[2]; this.pathname = m[3] || "/"; this.search = m[4]; this.hash = m[5];
};
(function () {  // a fixed generator: Brython seeds its name counters from Math.random
  var state = 20261201;
  Math.random = function () { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648; };
})();
"""

# brython.js keeps the counter behind its generated names private; the build exposes a reset so that
# each module's output depends on its source alone, not on what was compiled before it.
COUNTER = "var uuid=Math.floor(Math.random()*1000000)\nfunction make_id(){uuid+=1"
COUNTER_RESET = "var uuid=Math.floor(Math.random()*1000000)\n__BRYTHON__.$reset_ids=function(){uuid=500000}\nfunction make_id(){uuid+=1"

COMPILE = r"""
(function (name, source, isPackage) {
  var $B = __BRYTHON__;
  $B.$reset_ids();
  $B.$py_UUID = 2 ** 40;
  var filename = "VFS." + name + (isPackage ? "/__init__.py" : ".py");
  $B.url2name[filename] = name;
  $B.file_cache[filename] = source;
  return $B.py2js({src: source, filename: filename, imported: true}, name, name, $B.builtins_scope).to_js();
})
"""


class Compiler:
    """brython.js loaded in an embedded V8; compiles one module's source to Brython's JavaScript."""

    def __init__(self, brython_source):
        """Load brython.js."""
        from py_mini_racer import MiniRacer  # optional: without it the bundle ships source only

        self.context = MiniRacer()
        self.context.eval(SHIM)
        if brython_source.count(COUNTER) != 1:
            raise RuntimeError("brython.js has no name counter where this build expects it")
        self.context.eval(brython_source.replace(COUNTER, COUNTER_RESET))
        self.timestamp = int(self.context.eval("__BRYTHON__.timestamp"))
        ready = self.context.eval(
            "typeof __BRYTHON__.py2js === 'function' && typeof __BRYTHON__.url2name === 'object'"
            " && typeof __BRYTHON__.precompiled === 'object' && !!__BRYTHON__.builtins_scope"
            " && typeof __BRYTHON__.$reset_ids === 'function'")
        if not ready:
            raise RuntimeError("brython.js lacks the compiler entry points this build relies on")
        self.compile_function = self.context.eval(COMPILE)
        self.lock = threading.Lock()

    def close(self):
        """Free the V8 isolate."""
        self.compile_function = None
        self.context.close()

    def compile(self, name, source, is_package):
        """Return the JavaScript Brython makes for a module (raises on a syntax error)."""
        with self.lock:
            return self.compile_function(name, source, bool(is_package))


_timestamps = {}  # brython.js digest -> its build stamp, or None when it cannot compile here
_failures = {}
_compiled = {}


def brython_version_line(brython_source):
    """Return the `// version [...]` line of brython.js."""
    for line in brython_source.splitlines()[:5]:
        if line.startswith("// version "):
            return line[len("// version "):].strip()
    return ""


def open_compiler(brython_source, key):
    """Return a Compiler for this brython.js, or None (the reason kept for `failure`)."""
    if brython_version_line(brython_source) != PINNED_VERSION:
        _failures[key] = "brython.js is not version %s" % PINNED_VERSION
        return None
    try:
        return Compiler(brython_source)
    except Exception as error:  # no mini-racer wheel for this platform, or brython.js changed
        _failures[key] = "%s: %s" % (type(error).__name__, error)
        return None


def failure(brython_source):
    """Return why this brython.js could not compile here ('' if it could)."""
    return _failures.get(hashlib.sha256(brython_source.encode("utf-8")).hexdigest(), "")


def compile_modules(brython_source, modules):
    """Return ({name: JavaScript}, brython timestamp) for [(name, source, is_package)], or ({}, None).

    Results are kept per (brython.js, name, source): building again in one process costs nothing.
    The embedded V8 lives only while something is left to compile (an open one keeps the process
    from exiting).
    """
    digest = hashlib.sha256(brython_source.encode("utf-8")).hexdigest()
    if digest in _timestamps and _timestamps[digest] is None:
        return {}, None
    compiler = None
    out = {}
    try:
        for name, source, is_package in modules:
            key = hashlib.sha256(json.dumps([digest, name, source, bool(is_package)]).encode("utf-8")).hexdigest()
            if key not in _compiled:
                if compiler is None:
                    compiler = open_compiler(brython_source, digest)
                    _timestamps[digest] = compiler and compiler.timestamp
                    if compiler is None:
                        return {}, None
                _compiled[key] = compiler.compile(name, source, is_package)
            out[name] = _compiled[key]
    finally:
        if compiler is not None:
            compiler.close()
    return out, _timestamps.get(digest)

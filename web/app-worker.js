// Spieleabend's Python runs here, in a Web Worker: Brython, the engines, the computers and the
// screens' code. The page's main thread only paints and answers taps (web/index.html), so a start,
// a computer thinking or a long compile never freezes it. ui/dom.py speaks with the page.
//
// A module worker: Chromium keeps V8's compiled code of the scripts it imports, which it did not for
// importScripts (brython.js took 43 instead of 92 ms on a warm start). A module's top-level names are
// its own, not globals: brython.js takes globalThis.__BRYTHON__ if there is one, and the code Brython
// generates reads the global $B that brython.js declares as a classic script, so both are set here.
globalThis.__BRYTHON__ = globalThis.$B = globalThis.__BRYTHON__ || {};
var BRYTHON = {{brython}}, BUNDLE = {{bundle}};  // the bundle: every source, the start modules' compiled code
// SHA-256 for the rooms' commitments: noble-hashes (web/vendor, MIT), synchronous and the same in every
// context (crypto.subtle is asynchronous, and missing on a phone that reaches the app over plain http).
var SHA256 = {{sha256}};
var START = {{start_order}};  // the start modules, leaves first
var LATER = {{idle_order}};  // the games' modules, compiled after a first start
var LATER_DELAY_MS = 3000;
var booted = false, queued = [];

// Load at once: the page creates this worker as early as it can (in its <head> on a start from the
// service worker's cache) and sends the page's facts when it has them.
var loaded = Promise.all([import(BRYTHON), fetch(BUNDLE).then(function (response) {
  if (!response.ok) throw new Error("the app's bundle: HTTP " + response.status);
  return response.json();
}), import(SHA256).then(function (noble) { self.spieleabendSha256 = hexSha256(noble.sha256); })]).then(function (all) {
  install(self.__BRYTHON__, all[1]);
});

// text -> the hex SHA-256 of its UTF-8 bytes (spieleabend/sha256.py calls it through ui/dom.py).
function hexSha256(sha256) {
  var encoder = new TextEncoder(), hex = [];
  for (var i = 0; i < 256; i++) hex.push((i < 16 ? "0" : "") + i.toString(16));
  return function (text) {
    var digest = sha256(encoder.encode(text)), out = "";
    for (var j = 0; j < digest.length; j++) out += hex[digest[j]];
    return out;
  };
}
loaded.catch(function () {});  // reported once the start message asks for it

// The sources for Brython's importer, and the start modules' compiled code when it was made by this
// very brython.js (another one compiles the sources).
function install(B, bundle) {
  B.loadBrythonPackage(bundle.modules);
  if (bundle.compiled && B.timestamp === bundle.brython_timestamp) Object.assign(B.precompiled, bundle.compiled);
}

self.onmessage = function (event) {
  // The first message: the page's facts for ui/dom.py as JSON text.
  if (!booted) { booted = true; self.spieleabendPage = event.data.page; loaded.then(function () { begin(); }, failed); return; }
  // Later messages are JSON text for ui/dom.py; those that come before Python listens wait.
  if (self.spieleabendReceive) self.spieleabendReceive(event.data);
  else queued.push(event.data);
};

function failed(error) {
  self.postMessage(JSON.stringify(["failed", String(error && (error.message || error))]));
}

function begin() {
  var B = self.__BRYTHON__;
  if (!B || !B.brython) { failed("brython.js did not load"); return; }
  B.brython({});  // Brython's defaults: debug 1, compiled-code cache in IndexedDB
  // The start modules come compiled (for this very brython.js); otherwise Brython's IndexedDB cache
  // holds them after a first start.
  // A start at another screen than the home (a phone's reload in a room, a link) reads the cache
  // first too: that screen's modules are there from an earlier visit (compileLater), and compiling
  // them took most of a phone's reload in a room (about 0.9 of 1.6 s, under load).
  var ahead = B.precompiled["spieleabend.ui.app"] !== undefined;
  var cache = ahead && startsAtHome() ? null : openCache(B);
  if (cache) cache.then(function () { run(B, ahead); });
  else run(B, ahead);
}

function startsAtHome() {
  var hash = "";
  try { hash = String(JSON.parse(self.spieleabendPage).hash || ""); } catch (e) {}
  return hash.length <= 2 || hash.slice(0, 2) !== "#/";
}

// Brython's IndexedDB cache, read once: it puts every module compiled for this release in B.precompiled.
var cacheRead = null;
function openCache(B) {
  if (!cacheRead && B.has_indexedDB && B.idb_open_promise) cacheRead = B.idb_open_promise().catch(function () {});
  return cacheRead;
}

function run(B, ahead) {
  try {
    START.forEach(function (name) { B.$__import__(name, B.builtins.None, B.builtins.None, []); });
    B.$call(B.$getattr(B.imported["spieleabend.ui.app"], "start"));
  } catch (error) {
    if (B.handle_error) { try { B.handle_error(error); } catch (e) {} }
    failed(error);
    return;
  }
  // What the person did meanwhile (a tap on the pre-rendered home), then the app is ready.
  queued.splice(0).forEach(function (message) { self.spieleabendReceive(message); });
  self.postMessage(JSON.stringify(["ready"]));
  if (ahead) {
    // After the start: the games' compiled modules from the cache, the missing ones compiled 3 s later.
    // Compiling at once (this is not the page's thread) left a room opened right after a reload without
    // its QR code in one e2e scenario (test_night); the cause is not found yet.
    var read = openCache(B);
    if (read) read.then(function () { setTimeout(function () { compileLater(B); }, LATER_DELAY_MS); });
  }
}

// Brython's IndexedDB cache, written as its own loader writes it: a later start reads the compiled
// code from there instead of compiling.
function store(B, record) {
  if (!B.idb_name) return;
  var open = indexedDB.open(B.idb_name);
  open.onsuccess = function () {
    try { open.result.transaction("modules", "readwrite").objectStore("modules").put(record); } catch (e) {}
  };
}
function record(B, name, js) {
  var entry = B.VFS[name];
  return {name: name, content: js, imports: entry[2].join(","), is_package: entry.length > 3,
          timestamp: B.timestamp, source_ts: entry.timestamp};
}

// The games' modules, compiled one at a time after a first start (Brython would compile each when a
// game opens) and kept in the cache. Nothing here holds up the page: this is not its thread.
function compileLater(B) {
  function one() {
    var name = LATER.shift();
    if (name === undefined) return;
    var entry = B.VFS[name];
    // A module this visit imported from its source is compiled once more: it is not in the cache
    // (B.precompiled holds what the cache had), and the next start at its screen reads it from there.
    if (entry && entry[0] === ".py" && B.precompiled[name] === undefined) {
      // Brython's name for a module's file in the bundle: VFS.<name>.py, a package's VFS.<name>/__init__.py.
      var isPackage = entry.length > 3, file = "VFS." + name + (isPackage ? "/__init__" : "") + entry[0];
      try {
        B.url2name[file] = name;
        B.file_cache[file] = entry[1];
        var js = B.py2js({src: entry[1], filename: file, imported: true}, name, name, B.builtins_scope).to_js();
        B.precompiled[name] = isPackage ? [js] : js;
        store(B, record(B, name, js));
      } catch (e) {}  // the import compiles it again and reports what is wrong
    }
    setTimeout(one, 0);  // a message from the page (a tap) gets its turn between two modules
  }
  if (typeof B.py2js === "function" && B.builtins_scope && B.VFS) one();
}

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
// This same script, started by the app's worker under this name, only compiles the games' modules
// (compileLater): a module takes 50 to 700 ms to compile, and a room's frame that came meanwhile
// waited for it in the app's worker (the slowest tenth of a room's moves, bench.room_latency).
var COMPILER = "spieleabend-compiler";
var compiling = self.name === COMPILER;
// It takes a module only once the app has drawn nothing for this long: a compile uses a core the
// app's worker and the page may need (a phone in a room draws a move every second or two).
var QUIET_MS = 1500;
var lastPosted = 0;
if (!compiling) {
  var post = self.postMessage.bind(self);
  self.postMessage = function (message) { lastPosted = Date.now(); post(message); };  // a drawing, an answer
}
var booted = false, queued = [];

// Load at once: the page creates this worker as early as it can (in its <head> on a start from the
// service worker's cache) and sends the page's facts when it has them.
var loaded = Promise.all([import(BRYTHON), fetch(BUNDLE).then(function (response) {
  if (!response.ok) throw new Error("the app's bundle: HTTP " + response.status);
  return response.json();
}), compiling ? null : import(SHA256).then(function (noble) { self.spieleabendSha256 = hexSha256(noble.sha256); })]).then(function (all) {
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
  // The compiler's messages: the names of modules to compile.
  if (compiling) {
    loaded.then(function () { compileEach(self.__BRYTHON__, event.data); },
                function () { self.postMessage("failed"); self.close(); });  // the app's worker compiles them
    return;
  }
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

// The games' modules, compiled after a first start (Brython would compile each when a game opens) and
// kept in the cache. A second worker compiles them, so a room's frame or a tap never waits for a
// compile here, one module each time the app has drawn nothing for QUIET_MS; where a worker cannot
// start another (older Safari) they are compiled here the same way, taps getting their turn between.
function compileLater(B) {
  if (typeof B.py2js !== "function" || !B.builtins_scope || !B.VFS) return;
  // A module this visit imported from its source is compiled once more: it is not in the cache
  // (B.precompiled holds what the cache had), and the next start at its screen reads it from there.
  var names = LATER.filter(function (name) {
    var entry = B.VFS[name];
    return entry && entry[0] === ".py" && B.precompiled[name] === undefined;
  });
  if (!names.length) return;
  var compiler = null;
  try { compiler = typeof Worker === "function" ? new Worker(self.location.href, {type: "module", name: COMPILER}) : null; } catch (e) {}
  if (!compiler) { compileHere(B, names); return; }
  function next() {
    var name = names.shift();
    if (name === undefined) compiler.terminate();
    else compiler.postMessage([name]);
  }
  compiler.onmessage = function (event) {
    if (event.data === "failed") { compiler.terminate(); compileHere(B, names); return; }  // it could not load
    if (event.data === null) { whenQuiet(next); return; }  // ready for the next module
    keep(B, event.data[0], event.data[1]);
  };
  compiler.onerror = function () { compiler.terminate(); compileHere(B, names); };  // the rest here
  whenQuiet(next);
}

function whenQuiet(then) {
  var quiet = Date.now() - lastPosted;
  if (quiet < QUIET_MS) setTimeout(function () { whenQuiet(then); }, QUIET_MS - quiet);
  else then();
}

// In the compiler: compile each module and send its code back ([name, code] or null for one that does
// not compile: the import compiles it again and reports what is wrong), then null for "ready".
function compileEach(B, names) {
  names.forEach(function (name) { self.postMessage([name, compiled(B, name)]); });
  self.postMessage(null);
}

// In the app's worker when no second worker can start: one module at a time, when quiet, taps between them.
function compileHere(B, names) {
  names = names.slice();
  function one() {
    var name = names.shift();
    if (name === undefined) return;
    if (B.precompiled[name] === undefined) keep(B, name, compiled(B, name));
    setTimeout(function () { whenQuiet(one); }, 0);  // a message from the page gets its turn first
  }
  whenQuiet(one);
}

// Brython's JavaScript of one module of the bundle, or null when it does not compile.
function compiled(B, name) {
  var entry = B.VFS[name];
  // Brython's name for a module's file in the bundle: VFS.<name>.py, a package's VFS.<name>/__init__.py.
  var file = "VFS." + name + (entry.length > 3 ? "/__init__" : "") + entry[0];
  try {
    B.url2name[file] = name;
    B.file_cache[file] = entry[1];
    return B.py2js({src: entry[1], filename: file, imported: true}, name, name, B.builtins_scope).to_js();
  } catch (e) { return null; }
}

// A compiled module: Brython's importer takes it from B.precompiled; the cache keeps it for the next start.
function keep(B, name, js) {
  if (js === null || B.precompiled[name] !== undefined) return;
  B.precompiled[name] = B.VFS[name].length > 3 ? [js] : js;
  store(B, record(B, name, js));
}

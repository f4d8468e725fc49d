// Spieleabend service worker: precache the release, serve it offline, never reload a running game.
const VERSION = "{{version}}";
const CACHE = "spieleabend-" + VERSION;
const PRECACHE = {{precache}};

self.addEventListener("install", (event) => {
  // No skipWaiting here: a new release waits until the app starts again (or the user asks).
  // Hashed /assets/ never change, so the HTTP cache may serve them; everything else is revalidated.
  const request = (url) => new Request(url, {cache: url.startsWith("/assets/") ? "default" : "no-cache"});
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE.map(request))));
  if (event.addRoutes) {
    // Static routes (Chromium 123+): the browser answers these from the release's cache without
    // starting this worker (a start after the worker was stopped got its load event ~30 ms
    // earlier, unthrottled). A miss goes to the network. The page with a query (?seed=...) still goes through the fetch handler
    // below, which ignores the query.
    event.waitUntil(event.addRoutes([
      {condition: {urlPattern: {pathname: "/", search: ""}}, source: {cacheName: CACHE}},
      {condition: {urlPattern: {pathname: "/assets/*"}}, source: {cacheName: CACHE}},
      {condition: {urlPattern: {pathname: "/icons/*"}}, source: {cacheName: CACHE}},
      {condition: {urlPattern: {pathname: "/manifest.webmanifest"}}, source: {cacheName: CACHE}},
    ]).catch((error) => console.warn("static routes not added:", error.message)));
  }
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith("spieleabend-") && n !== CACHE).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
  if (event.data === "version" && event.source) event.source.postMessage({version: VERSION});
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith("/relay")) return;
  if (request.mode === "navigate" && url.pathname === "/") {
    // The app page: the cached release (its query string, e.g. ?seed=, does not matter).
    event.respondWith(caches.open(CACHE).then((cache) => cache.match("/")).then((hit) => hit || fetch(request)));
    return;
  }
  event.respondWith(caches.open(CACHE).then((cache) =>
    cache.match(request, {ignoreSearch: true}).then((hit) => hit || fetch(request))));
});

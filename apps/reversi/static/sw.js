// The static site's service worker (scripts/build-web fills in VERSION and FILES): the site's files, kept for offline use.
//
// Cache first: every file of the site is fetched once, when this worker installs, into a cache
// named after the build (VERSION, a hash of the files); the page then loads from it, with or
// without a network. A new build is a new sw.js, which the browser installs beside the old one:
// it takes over at once, deletes the old build's cache, and the page says to reload.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = `reversi-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Past the browser's HTTP cache: the files of this build, not copies of the last one's.
    await cache.addAll(FILES.map((f) => new Request(f, { cache: "no-cache" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("reversi-") && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // The page itself whatever its address's query (the route is in the hash).
    const page = req.mode === "navigate";
    const hit = await cache.match(req, { ignoreSearch: page })
      || (page ? await cache.match(new URL("./", self.location.href).href) : undefined);
    return hit || fetch(req);
  })());
});

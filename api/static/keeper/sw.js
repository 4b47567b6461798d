// The keeper's service worker: the app shell (the page at "/" and every file under /keeper/) from a
// cache, so the keeper opens with no network. Served at /sw.js by api/keeper.py, which writes before
// this text `const SHELL = {version, files}`: `version` changes with any of the files, so a changed
// shell is a changed worker, which the browser installs; it fills a cache of its own and, once
// active, deletes the caches of older versions. Requests for anything else (the API under /v1 above
// all) are not answered here: they go to the network as if there were no worker, and a failed one
// fails. Rounds saved offline wait in the page's own queue (outbox.js), not here.
/* global SHELL */

const PREFIX = "keeper-shell-";
const CACHE = `${PREFIX}${SHELL.version}`;
const FILES = new Set(SHELL.files);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // "reload": past the browser's HTTP cache, so the cache holds the files of this version.
      await cache.addAll(SHELL.files.map((url) => new Request(url, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !FILES.has(url.pathname)) return;
  event.respondWith(fromShell(request, url.pathname));
});

/** The shell file at `path` from this version's cache; from the network if the cache lost it. */
async function fromShell(request, path) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(path);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && request.mode !== "navigate") await cache.put(path, response.clone());
  return response;
}

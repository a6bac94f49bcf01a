// QuickCart's service worker, served as /sw.js?v=RELEASE (scope: the whole shop). What it does,
// and what it never does:
//   · It keeps this release's versioned style sheet, scripts and icons, and the offline page,
//     in a cache of the release's own (`quickcart-RELEASE`), checked against the release the
//     server names: one release's files are never kept under another's.
//   · Pages always come from the network. Only when the network is gone (the fetch itself
//     fails) does a navigation get the offline page; any answer the server gave, a 503
//     included, is passed on as it is. No page is ever kept, so none can show another
//     moment's cart.
//   · /events and everything but GET go straight to the network, without this worker
//     (static routes where the browser has them; else the fetch handler leaves them alone).
//   · A new release's worker installs beside the running one and waits: the page decides
//     when it takes over (js/install.js), so a page never mixes two releases' files.
'use strict';

const RELEASE = new URL(self.location.href).searchParams.get('v') || '';
const PREFIX = 'quickcart-';
const CACHE = PREFIX + RELEASE;
const OFFLINE = '/offline';
const RELEASE_HEADER = 'X-QuickCart-Release';

self.addEventListener('install', (event) => {
  if (event.addRoutes) {
    // Each rule on its own: a browser that does not know one kind of condition keeps the other.
    const routes = [
      { condition: { urlPattern: { pathname: '/events' } }, source: 'network' },
      { condition: { not: { requestMethod: 'GET' } }, source: 'network' },
    ];
    for (const route of routes) event.waitUntil(Promise.resolve().then(() => event.addRoutes(route)).catch(() => {}));
  }
  event.waitUntil(precache());
});

// Fetches this release's list and every file on it; fails (so this worker is not installed)
// unless each answer is of this very release.
async function precache() {
  const listed = await fetch('/sw-assets.json', { cache: 'no-store', credentials: 'omit' });
  if (!listed.ok) throw new Error(`/sw-assets.json answered ${listed.status}`);
  const list = await listed.json();
  if (list.release !== RELEASE) throw new Error(`the server runs release ${list.release}, not ${RELEASE}`);
  const answers = await Promise.all(list.precache.map(async (address) => {
    // The HTTP cache may hold it already (versioned files are immutable): the entity tag says
    // whether what came is the version the address names.
    const response = await fetch(address, { credentials: 'omit' });
    const version = new URL(address, self.location.href).searchParams.get('v') || '';
    const etag = response.headers.get('ETag') || '';
    if (!response.ok || !etag.startsWith(`"${version}`)) throw new Error(`${address} is not that version`);
    return [address, response];
  }));
  const offline = await fetch(list.offline, { cache: 'no-store', credentials: 'omit' });
  if (!offline.ok || offline.headers.get(RELEASE_HEADER) !== RELEASE) throw new Error('the offline page is of another release');
  const cache = await caches.open(CACHE);
  await Promise.all(answers.map(([address, response]) => cache.put(address, response)));
  await cache.put(OFFLINE, offline);
}

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    // The page's request starts while the worker wakes, instead of after.
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

// The page says when this worker may take over (a reload it offered, or a page of this very
// release that is already showing).
self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'take-over') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname === '/events') return;
  if (request.mode === 'navigate') {
    event.respondWith(navigate(event));
  } else if (url.pathname.startsWith('/static/') && url.searchParams.has('v')) {
    event.respondWith(versioned(request));
  }
});

async function navigate(event) {
  try {
    const preloaded = await event.preloadResponse;
    return preloaded || await fetch(event.request);
  } catch (error) {
    // No answer at all: the network is gone (or the shop cannot be reached).
    const offline = await caches.match(OFFLINE, { cacheName: CACHE });
    return offline || Response.error();
  }
}

// A versioned address holds one content for good, so any release's cache may answer it.
async function versioned(request) {
  const kept = await caches.match(request);
  return kept || fetch(request);
}

// The installed app: the service worker (/sw.js, served for this page's release), a new
// release taking over without mixing two releases on one page, Profile's "Install the app",
// and the offline page's last-known cart count.
//
// A release's worker installs beside the running one and waits. A page of that very release
// (its HTML came from the network, its files are versioned) lets it take over at once: nothing
// on the page changes. An older page offers "Reload" instead, and the worker takes over when
// that is pressed, or on the next navigation, whose page is of the new release. The page
// learns of a new release from its own navigations, and when the live stream comes back or
// the page is looked at again (a server restarted with new files), by asking for the
// release's list (/sw-assets.json, a few hundred bytes).

import { announce, ownClasses, root } from './page.js';

const LAST_COUNT = 'quickcart-last-count';
const CHECK_EVERY_MS = 60000;

export function start() {
  if (document.body.dataset.page === 'offline') showLastCount();
  else rememberCount();
  offerInstall();
  if ('serviceWorker' in navigator && root.dataset.release) {
    // After the page has loaded, so the worker's downloads never compete with the page's.
    if (document.readyState === 'complete') registerWorker();
    else window.addEventListener('load', registerWorker, { once: true });
  }
}

const releaseOf = (worker) => worker && new URL(worker.scriptURL).searchParams.get('v');

function registerWorker() {
  const container = navigator.serviceWorker;
  const mine = root.dataset.release;
  let reloading = false;
  let offered = null; // the worker Reload lets take over: the newest release's, once offered
  let lastCheck = Date.now();

  container.addEventListener('controllerchange', () => {
    if (reloading) { location.reload(); return; }
    // Another page let a newer release take over: this one keeps its own files, and offers
    // to load the new ones.
    if (releaseOf(container.controller) !== mine) offerReload(container.controller);
  });

  // A worker waiting now, one installing now (this page may have loaded while it did), and
  // each found later.
  function watch(registration) {
    const follow = (worker) => {
      if (!worker) return;
      if (worker.state === 'installed') { consider(worker); return; }
      worker.addEventListener('statechange', () => {
        if (worker.state === 'installed') consider(worker);
      });
    };
    follow(registration.waiting);
    follow(registration.installing);
    registration.addEventListener('updatefound', () => follow(registration.installing));
  }

  // A worker waiting to take over.
  function consider(worker) {
    if (!container.controller) return; // the first worker activates by itself
    if (releaseOf(worker) === mine) worker.postMessage({ type: 'take-over' });
    else offerReload(worker);
  }

  // A release after the one offered replaces it (its worker replaced the other, which will
  // never take over), under the same offer.
  function offerReload(worker) {
    const already = offered !== null;
    offered = worker;
    if (already) return;
    const { box: bar, words, button } = sentenceWithButton('div', 'update-bar', 'A new version of the shop is ready.', 'Reload');
    bar.setAttribute('role', 'status');
    button.addEventListener('click', () => {
      // Not while a change is on its way: its answer would be lost with the page.
      if (document.querySelector('form[data-busy]')) { setTimeout(() => button.click(), 200); return; }
      reloading = true;
      // Active already, or replaced since (the page then loads as a navigation, of the newest release).
      if (offered.state === 'activated' || offered.state === 'redundant') location.reload();
      else offered.postMessage({ type: 'take-over' });
    });
    // A landmark of its own, so its words are never outside one; just before the content,
    // where it is drawn: Tab reaches it before the page's controls.
    bar.setAttribute('role', 'region');
    bar.setAttribute('aria-label', 'New version');
    const main = document.querySelector('main');
    if (main) main.before(bar);
    else document.body.prepend(bar);
    announce(words.textContent);
  }

  // Whether the server now runs another release: then its worker is registered, installs
  // and waits like any other.
  function check() {
    lastCheck = Date.now();
    fetch('/sw-assets.json', { cache: 'no-store', credentials: 'omit' })
      .then((answer) => (answer.ok ? answer.json() : null))
      .then((list) => {
        if (list && typeof list.release === 'string' && /^[0-9a-f]{16}$/.test(list.release) && list.release !== mine) {
          return container.register(`/sw.js?v=${list.release}`, { scope: '/', updateViaCache: 'none' }).then(watch);
        }
        return undefined;
      })
      .catch(() => {}); // offline: the next chance will do
  }

  container.register(`/sw.js?v=${encodeURIComponent(mine)}`, { scope: '/', updateViaCache: 'none' })
    .then(watch)
    .catch(() => {}); // no worker (offline, or refused): the shop works as without one
  document.addEventListener('quickcart:online', check);
  document.addEventListener('quickcart:release', check);
  document.addEventListener('quickcart:stream-open', (event) => { if (event.detail && event.detail.again) check(); });
  window.addEventListener('online', check);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lastCheck > CHECK_EVERY_MS) check();
  });
}

// ---- the last count, for the offline page ------------------------------------

function cartLink() {
  return document.querySelector('nav[aria-label="Tabs"] a[data-role="prominent"]');
}

// Keeps the count this page shows (and every change the live badge makes to it).
function rememberCount() {
  const link = cartLink();
  const badge = link && link.querySelector('[data-badge]');
  if (!badge || !window.localStorage || !window.MutationObserver) return;
  const keep = () => {
    const label = link.getAttribute('aria-label') || '';
    const match = /^[^,]+,\s*(\d+ items?)$/.exec(label);
    if (!match) return;
    try {
      localStorage.setItem(LAST_COUNT, JSON.stringify({ items: match[1], badge: badge.hidden ? '' : badge.textContent.trim() }));
    } catch (error) { /* storage full or refused: the offline page says it does not know */ }
  };
  keep();
  new MutationObserver(keep).observe(link, { attributes: true, attributeFilter: ['aria-label'], subtree: true, childList: true });
}

// The offline page: the count last seen, marked as possibly out of date; back online, or
// once the shop answers again, the address asked for is loaded again.
function showLastCount() {
  const askNow = reloadWhenReachable();
  // A network that flaps fires `online` again and again: the page loads once the shop answers.
  window.addEventListener('online', askNow);
  const link = cartLink();
  const badge = link && link.querySelector('[data-badge]');
  let last = null;
  try { last = JSON.parse(localStorage.getItem(LAST_COUNT) || 'null'); } catch (error) { last = null; }
  if (!badge || !last || typeof last.items !== 'string' || typeof last.badge !== 'string') return;
  const title = (link.querySelector('.tab__label') || link).textContent.trim();
  link.setAttribute('aria-label', `${title}, ${last.items} when last online, may be out of date`);
  badge.textContent = last.badge;
  badge.hidden = last.badge === '';
  ownClasses(badge, 'tab__badge--stale');
  badge.classList.add('tab__badge--stale');
  const note = document.querySelector('[data-offline-cart]');
  if (note) {
    note.textContent = `When you were last online, your cart held ${last.items}. It may have changed since.`;
    note.hidden = false;
  }
}

// The shop may come back while the network stayed up (a restart, a tunnel's end), and then no
// `online` event comes: so the page asks /healthz (two bytes, never kept by a cache or the
// worker) after 1 s, then less and less often, up to every 30 s (±30 %, so many devices
// spread out), and loads the address again once the shop answers that it is up. Returns a
// function that asks at once (one question at a time).
function reloadWhenReachable() {
  let delay = 1000;
  let timer = 0;
  let asking = false;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => ask(true), delay * (0.7 + Math.random() * 0.6));
  };
  // Only the timer's questions back off: an `online` event's, however many, leave its pace alone.
  const ask = (backingOff) => {
    if (asking) return;
    asking = true;
    clearTimeout(timer);
    fetch('/healthz', { cache: 'no-store', credentials: 'omit' })
      .then((answer) => (answer.ok ? location.reload() : Promise.reject(new Error('not up'))))
      .catch(() => {
        asking = false;
        if (backingOff) delay = Math.min(delay * 2, 30000);
        schedule();
      });
  };
  schedule();
  return () => ask(false);
}

// ---- Profile: "Install the app" ----------------------------------------------

// The browser's own install prompt is held back (nothing is asked at a first visit); Profile
// offers the same where the browser allows it, until it is installed.
function offerInstall() {
  let deferred = null;
  let section = null;
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    deferred = event;
    if (document.body.dataset.page === 'profile' && !section) section = installSection();
  });
  window.addEventListener('appinstalled', () => {
    deferred = null;
    if (section) section.remove();
    section = null;
  });

  function installSection() {
    const main = document.querySelector('main');
    if (!main) return null;
    const { box, button } = sentenceWithButton(
      'section', 'install-app', 'Put the shop on your home screen, with the tab bar and without the browser’s bars.', 'Install the app',
    );
    box.setAttribute('aria-labelledby', 'install-app-title');
    const heading = document.createElement('h2');
    heading.className = 'section-title';
    heading.id = 'install-app-title';
    heading.textContent = 'App';
    box.prepend(heading);
    button.addEventListener('click', () => {
      if (!deferred) return;
      const prompt = deferred;
      deferred = null;
      prompt.prompt();
      prompt.userChoice.then((choice) => {
        if (choice.outcome === 'accepted') box.remove();
      }, () => {});
    });
    main.append(box);
    return box;
  }
}

// A `tag` of the script's own (kept by the morph) holding a sentence and a button after it.
function sentenceWithButton(tag, className, sentence, label) {
  const box = document.createElement(tag);
  box.className = className;
  box.dataset.client = '';
  const words = document.createElement('p');
  words.textContent = sentence;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button button--tinted';
  button.textContent = label;
  box.append(words, button);
  return { box, words, button };
}

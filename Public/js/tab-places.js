// Tab places: each tab keeps its place. The server already sends a tab's link to the last
// page left in it (the Search tab to the last search). This adds the scroll position:
// saved per tab and address in sessionStorage when the page is left, put back when the
// page is reached through its tab link (a reload or Back restores scroll by itself).
// Tapping the current tab goes to its root, at the top, as on iOS: the server makes that
// link the root, and when the page already is the root we only scroll up. The root is then
// the tab's place, until the shopper goes deeper in it again: its link leads there from
// every page of this browser tab (the server, which writes nothing on a GET, still names the
// last search).

import { reduceMotion } from './page.js';

export function start() {
  const nav = document.querySelector('nav.tab-bar');
  const store = sessionStore();
  if (!nav || !store) return;

  const PLACE = 'quickcart-place:';       // + tab + ':' + path and query → scrollY
  const ARRIVING = 'quickcart-arriving';  // the address a tab link was followed to
  const ROOTED = 'quickcart-rooted:';     // + tab → its root, where the shopper last left it
  const tab = document.body.dataset.page || 'other';
  const here = location.pathname + location.search;
  const key = `${PLACE}${tab}:${here}`;
  let keep = true;                        // false once this tab's places are forgotten

  const save = () => { if (keep) store.set(key, String(Math.round(window.scrollY))); };

  // This tab's root is its current link's address: deeper than it, the root is no longer
  // where the tab was left; the other tabs left at their roots lead there.
  const current = nav.querySelector('a.tab[aria-current]');
  if (current && addressOf(current) !== here) store.remove(ROOTED + tab);
  for (const link of nav.querySelectorAll('a.tab[data-tab]')) {
    const root = link === current ? null : store.get(ROOTED + link.dataset.tab);
    if (root) link.setAttribute('href', root);
  }

  const arriving = store.take(ARRIVING);
  const entry = performance.getEntriesByType ? performance.getEntriesByType('navigation')[0] : null;
  if (arriving === here && (!entry || entry.type === 'navigate')) {
    const y = Number(store.get(key));
    if (y > 0) window.scrollTo(0, y);
  }

  nav.addEventListener('click', (event) => {
    const link = event.target.closest('a.tab');
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return; // a new tab or window: this page stays
    const to = new URL(link.href, location.href);
    if (to.origin !== location.origin) return;
    const address = to.pathname + to.search;

    if (link.hasAttribute('aria-current')) {
      store.removeWhere((name) => name.startsWith(`${PLACE}${tab}:`));
      store.set(ROOTED + tab, address);
      if (address === here) {
        event.preventDefault();
        window.scrollTo({ top: 0, behavior: reduceMotion.matches ? 'auto' : 'smooth' });
      } else {
        keep = false; // leaving for the root: this deeper page's place is forgotten too
      }
      return;
    }
    save();
    store.set(ARRIVING, address);
  });

  window.addEventListener('pagehide', save);
}

function addressOf(link) {
  const url = new URL(link.href, location.href);
  return url.pathname + url.search;
}

// sessionStorage, or null where it is missing or refuses writes (private modes,
// storage turned off). Each call swallows quota errors: a lost place is harmless.
function sessionStore() {
  let storage;
  try {
    storage = window.sessionStorage;
    storage.setItem('quickcart-probe', '1');
    storage.removeItem('quickcart-probe');
  } catch (error) {
    return null;
  }
  const attempt = (fn) => { try { return fn(); } catch (error) { return null; } };
  return {
    get: (name) => attempt(() => storage.getItem(name)),
    set: (name, value) => attempt(() => storage.setItem(name, value)),
    take: (name) => attempt(() => { const value = storage.getItem(name); storage.removeItem(name); return value; }),
    remove: (name) => attempt(() => storage.removeItem(name)),
    removeWhere: (test) => attempt(() => {
      for (let i = storage.length - 1; i >= 0; i -= 1) {
        const name = storage.key(i);
        if (name && test(name)) storage.removeItem(name);
      }
    }),
  };
}

// QuickCart live badge — progressive enhancement. Without this file every page
// still works; the badge is just only as fresh as the last page load.
//
// One EventSource per browser, not per tab: HTTP/1.1 gives a host six
// connections, so a seventh tab's stream would hang every page load. Tabs elect a
// leader with the Web Locks API; the leader alone holds the stream and relays each
// count over a BroadcastChannel. When the leader goes, the next tab queued on the
// lock takes over. Without Web Locks or BroadcastChannel each tab streams alone.
(() => {
  'use strict';

  const nav = document.querySelector('nav.tab-bar[data-live-url]');
  const link = nav && nav.querySelector('a[data-role="prominent"]');
  const badge = link && link.querySelector('[data-badge]');
  if (!badge || !('EventSource' in window)) return;

  const NAME = 'quickcart-live';
  const BUMP = 'tab__badge--bump';
  const url = nav.dataset.liveUrl;
  const shared = !!(navigator.locks && navigator.locks.request) && 'BroadcastChannel' in window;
  const reduceMotion = window.matchMedia && matchMedia('(prefers-reduced-motion: reduce)');
  const onCartPage = document.body.dataset.page === 'cart';
  const labelEl = link.querySelector('.tab__label');
  const tabName = (labelEl && labelEl.textContent.trim()) || 'Cart';

  // What the page shows now; announcements happen only when this changes.
  let shown = renderedCount();

  let source = null;          // the EventSource, leader (or unshared) tab only
  let channel = null;         // BroadcastChannel while the page is shown
  let releaseLock = null;     // resolves the promise that holds the lock
  let lockAbort = null;       // cancels a still-queued lock request
  let generation = 0;         // bumps on each stop, so stale callbacks bail out
  let last = null;            // latest count known, answered to new followers
  let attempts = 0;           // fatal stream failures in a row, for backoff
  let retryTimer = 0;
  let running = false;        // start/stop are paired, whichever event calls them

  const plural = (n) => `${n} ${n === 1 ? 'item' : 'items'}`;

  function renderedCount() {
    // The badge text caps at "99+", so prefer the accessible name's number.
    const m = /\d+/.exec(link.getAttribute('aria-label') || '');
    if (m) return Number(m[0]);
    return badge.hidden ? 0 : parseInt(badge.textContent, 10) || 0;
  }

  // ---- applying a count ----------------------------------------------------

  function apply(count) {
    if (!Number.isInteger(count) || count < 0) return;
    last = count;
    if (count !== shown) {
      shown = count;
      badge.textContent = count > 99 ? '99+' : String(count);
      badge.hidden = count === 0;
      link.setAttribute('aria-label', `${tabName}, ${plural(count)}`);
      bump();
      announce(`Cart updated: ${plural(count)}`);
    }
    if (onCartPage) {
      const cart = document.querySelector('[data-cart][data-count]');
      if (cart && Number(cart.dataset.count) !== count) refreshCart();
    }
  }

  function bump() {
    if (reduceMotion && reduceMotion.matches) return;
    badge.classList.remove(BUMP);
    void badge.offsetWidth; // restart the animation if one is still running
    badge.classList.add(BUMP);
  }
  badge.addEventListener('animationend', () => badge.classList.remove(BUMP));

  function announce(text) {
    const status = document.getElementById('live-status');
    if (!status) return;
    // Clearing first makes screen readers repeat an identical message.
    status.textContent = '';
    setTimeout(() => { status.textContent = text; }, 50);
  }

  // ---- the cart page -------------------------------------------------------

  let refreshing = null;
  let refreshAgain = false;

  function refreshCart() {
    if (!onCartPage || !window.fetch || !window.DOMParser) return;
    if (refreshing) { refreshAgain = true; return; } // coalesce bursts into one more fetch
    refreshing = fetch(link.href, { // the Cart tab's own address, i.e. this page
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'text/html' },
    })
      .then((res) => (res.ok && !res.redirected ? res.text() : null))
      .then((html) => { if (html) swapCart(html); })
      .catch(() => {}) // offline or aborted: the next event or page load fixes it
      .finally(() => {
        refreshing = null;
        if (refreshAgain) { refreshAgain = false; refreshCart(); }
      });
  }

  function swapCart(html) {
    const current = document.querySelector('[data-cart]');
    const fresh = new DOMParser().parseFromString(html, 'text/html').querySelector('[data-cart]');
    if (!current || !fresh || current.outerHTML === fresh.outerHTML) return;

    const focused = document.activeElement;
    const hadFocus = !!focused && current.contains(focused);
    const key = hadFocus ? focusKey(focused) : null;
    const node = document.adoptNode(fresh);
    current.replaceWith(node);

    if (!hadFocus) return;
    // Put focus back on the same control if it survived (and is usable), else on main.
    const again = key && node.querySelector(key);
    const target = again && !again.disabled ? again : document.getElementById('main');
    if (target) target.focus({ preventScroll: true });
  }

  function focusKey(el) {
    if (!(window.CSS && CSS.escape)) return null;
    const tag = el.localName;
    const label = el.getAttribute('aria-label');
    if (label) return `${tag}[aria-label="${CSS.escape(label)}"]`;
    const form = el.closest('form');
    if (form && form.getAttribute('action')) return `form[action="${CSS.escape(form.getAttribute('action'))}"] ${tag}`;
    const href = el.getAttribute('href');
    return href ? `${tag}[href="${CSS.escape(href)}"]` : null;
  }

  // ---- the stream (leader or unshared tab) ---------------------------------

  function openStream() {
    closeStream();
    const es = new EventSource(url);
    es.addEventListener('badge', (event) => {
      const count = Number(event.data);
      if (!Number.isInteger(count)) return;
      apply(count);
      if (channel) channel.postMessage({ type: 'badge', count });
    });
    es.addEventListener('open', () => { attempts = 0; });
    es.addEventListener('error', () => {
      // CONNECTING means EventSource is already retrying per `retry:`; leave it.
      // CLOSED means it gave up for good (non-200, wrong type, 204): we retry.
      if (es.readyState === EventSource.CLOSED && source === es) scheduleReconnect();
    });
    source = es;
  }

  function scheduleReconnect() {
    closeStream();
    const base = Math.min(30000, 1000 * 2 ** attempts);
    attempts += 1;
    const delay = base * (0.7 + Math.random() * 0.6); // ±30 % jitter so tabs/devices spread out
    retryTimer = setTimeout(openStream, delay);
  }

  function closeStream() {
    clearTimeout(retryTimer);
    retryTimer = 0;
    if (source) source.close();
    source = null;
  }

  // ---- leadership ----------------------------------------------------------

  function start() {
    if (running) return;
    running = true;
    if (!shared) { openStream(); return; }
    const gen = generation;
    channel = new BroadcastChannel(NAME);
    channel.onmessage = ({ data }) => {
      if (!data) return;
      if (data.type === 'badge') apply(data.count);
      else if (data.type === 'hello' && source && last !== null) {
        channel.postMessage({ type: 'badge', count: last });
      }
    };
    channel.postMessage({ type: 'hello' }); // a leader, if any, answers with the count

    lockAbort = new AbortController();
    navigator.locks.request(NAME, { signal: lockAbort.signal }, () => {
      if (gen !== generation) return undefined; // page was hidden meanwhile: release at once
      openStream();
      // Held until stop() resolves it (pagehide) or the document goes away.
      return new Promise((resolve) => { releaseLock = resolve; });
    }).catch(() => {}); // AbortError when stop() cancels a queued request
  }

  function stop() {
    running = false;
    generation += 1;
    closeStream();
    if (lockAbort) lockAbort.abort();
    if (releaseLock) releaseLock();
    lockAbort = releaseLock = null;
    if (channel) channel.close();
    channel = null;
  }

  // ---- page lifecycle ------------------------------------------------------

  // bfcache keeps a hidden page's stream open and would starve the host's
  // connections (PLATFORM-NOTES), and a held lock would keep leadership from
  // other tabs. So: everything goes on pagehide, comes back on pageshow.
  // A frozen tab (background tab discarding, Android) is treated the same way,
  // so a frozen leader hands the stream over instead of silencing every tab.
  window.addEventListener('pagehide', stop);
  document.addEventListener('freeze', stop);
  const resume = () => {
    shown = renderedCount();
    start(); // the stream's (or leader's) first value corrects a stale badge
    refreshCart();
  };
  window.addEventListener('pageshow', (event) => { if (event.persisted) resume(); });
  document.addEventListener('resume', resume);

  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible') return;
    // A frozen background tab may have missed relayed values: ask the leader again.
    if (channel && !source) channel.postMessage({ type: 'hello' });
    // The same count can still hide a different cart (one item up, another down).
    refreshCart();
  });

  start();
})();

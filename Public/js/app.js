// QuickCart's page script — progressive enhancement. Without this file every page
// still works: links navigate, forms post and answer 303, the badge is as fresh as the
// last page load, the tab order changes with Move up / Move down. With it:
//   · liveBadge          the badge follows the cart live, in every tab (and a notice
//                        when the cart changed in another tab, if Notifications are on)
//   · tabPlaces          each tab keeps its scroll position; the current tab again goes
//                        to its root, at the top
//   · minimiseOnScroll   the tab bar shrinks while you scroll down
//   · reorderTabs        Profile → Customize tab bar: drag and drop
//   · sharedPreferences  theme, layout and notifications follow across open tabs
// Each is self-contained and leaves quietly when its page or browser lacks what it needs.
(() => {
  'use strict';

  const root = document.documentElement;
  const never = { matches: false, addEventListener() {} };
  const reduceMotion = window.matchMedia ? matchMedia('(prefers-reduced-motion: reduce)') : never;

  // Speaks `text` through the page's polite live region; never moves focus.
  function announce(text) {
    const status = document.getElementById('live-status');
    if (!status) return;
    // Clearing first makes screen readers repeat an identical message.
    status.textContent = '';
    setTimeout(() => { status.textContent = text; }, 50);
  }

  // ==== live badge ==========================================================
  //
  // One EventSource per browser, not per tab: HTTP/1.1 gives a host six
  // connections, so a seventh tab's stream would hang every page load. Tabs elect a
  // leader with the Web Locks API; the leader alone holds the stream and relays each
  // count over a BroadcastChannel. When the leader goes, the next tab queued on the
  // lock takes over. Without Web Locks or BroadcastChannel each tab streams alone.
  function liveBadge() {
    const nav = document.querySelector('nav.tab-bar[data-live-url]');
    const link = nav && nav.querySelector('a[data-role="prominent"]');
    const badge = link && link.querySelector('[data-badge]');
    if (!badge || !('EventSource' in window)) return;

    const NAME = 'quickcart-live';
    const BUMP = 'tab__badge--bump';
    const url = nav.dataset.liveUrl;
    const shared = !!(navigator.locks && navigator.locks.request) && 'BroadcastChannel' in window;
    const onCartPage = document.body.dataset.page === 'cart';
    const labelEl = link.querySelector('.tab__label');
    const tabName = (labelEl && labelEl.textContent.trim()) || 'Cart';
    const TOAST_MS = 4000;

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
    let synced = false;         // has a count arrived since start? The first one only corrects

    const plural = (n) => `${n} ${n === 1 ? 'item' : 'items'}`;

    function renderedCount() {
      // The badge text caps at "99+", so prefer the accessible name's number.
      const m = /\d+/.exec(link.getAttribute('aria-label') || '');
      if (m) return Number(m[0]);
      return badge.hidden ? 0 : parseInt(badge.textContent, 10) || 0;
    }

    // ---- applying a count --------------------------------------------------

    function apply(count) {
      if (!Number.isInteger(count) || count < 0) return;
      last = count;
      // This page's own changes are form posts that reload it with the new count, so a
      // change after the first sync was made elsewhere: another tab or device.
      const elsewhere = synced;
      synced = true;
      if (count !== shown) {
        shown = count;
        badge.textContent = count > 99 ? '99+' : String(count);
        badge.hidden = count === 0;
        link.setAttribute('aria-label', `${tabName}, ${plural(count)}`);
        bump();
        if (elsewhere && root.dataset.notifications === 'on') notify(`Cart updated in another tab: ${plural(count)}`);
        else announce(`Cart updated: ${plural(count)}`);
      }
      if (onCartPage) {
        const cart = document.querySelector('[data-cart][data-count]');
        if (cart && Number(cart.dataset.count) !== count) refreshCart();
      }
    }

    function bump() {
      if (reduceMotion.matches) return;
      badge.classList.remove(BUMP);
      void badge.offsetWidth; // restart the animation if one is still running
      badge.classList.add(BUMP);
    }
    badge.addEventListener('animationend', () => badge.classList.remove(BUMP));

    // ---- the notice ("Cart updated in another tab") ------------------------

    // Shown only with Notifications on. It is for the eyes (aria-hidden): the live region
    // says the same words, politely, and focus never moves. It stays TOAST_MS once the
    // tab is actually visible, so a background tab still shows it when you come back.
    let toast = null;
    let toastTimer = 0;
    let hideWhenSeen = false;

    function notify(text) {
      announce(text);
      if (!toast) {
        toast = document.createElement('div');
        toast.className = 'toast';
        toast.setAttribute('aria-hidden', 'true');
        const glyph = link.querySelector('.tab__icon svg');
        if (glyph) {
          const icon = document.createElement('span');
          icon.className = 'toast__icon';
          icon.append(glyph.cloneNode(true));
          toast.append(icon);
        }
        toast.append(document.createElement('span'));
        document.body.append(toast);
        void toast.offsetWidth; // lay out the hidden state first, so the first showing animates
      }
      toast.lastChild.textContent = text;
      toast.classList.add('toast--visible');
      clearTimeout(toastTimer);
      hideWhenSeen = document.visibilityState !== 'visible';
      if (!hideWhenSeen) hideToastLater();
    }

    function hideToastLater() {
      clearTimeout(toastTimer);
      toastTimer = setTimeout(() => toast.classList.remove('toast--visible'), TOAST_MS);
    }

    // ---- the cart page -----------------------------------------------------

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

    // ---- the stream (leader or unshared tab) -------------------------------

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

    // ---- leadership --------------------------------------------------------

    function start() {
      if (running) return;
      running = true;
      synced = false;
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

    // ---- page lifecycle ----------------------------------------------------

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
      if (hideWhenSeen) { hideWhenSeen = false; hideToastLater(); }
      // A frozen background tab may have missed relayed values: ask the leader again.
      if (channel && !source) channel.postMessage({ type: 'hello' });
      // The same count can still hide a different cart (one item up, another down).
      refreshCart();
    });

    start();
  }

  // ==== each tab keeps its place ============================================
  //
  // The server already sends a tab's link to the last page left in it (the Search tab
  // to the last search). This adds the scroll position: saved per tab and address in
  // sessionStorage when the page is left, put back when the page is reached through
  // its tab link (a reload or Back restores scroll by itself). Tapping the current
  // tab goes to its root, at the top, as on iOS: the server makes that link the root,
  // and when the page already is the root we only scroll up.
  function tabPlaces() {
    const nav = document.querySelector('nav.tab-bar');
    const store = sessionStore();
    if (!nav || !store) return;

    const PLACE = 'quickcart-place:';       // + tab + ':' + path and query → scrollY
    const ARRIVING = 'quickcart-arriving';  // the address a tab link was followed to
    const tab = document.body.dataset.page || 'other';
    const here = location.pathname + location.search;
    const key = `${PLACE}${tab}:${here}`;
    let keep = true;                        // false once this tab's places are forgotten

    const save = () => { if (keep) store.set(key, String(Math.round(window.scrollY))); };

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

      if (link.getAttribute('aria-current') === 'page') {
        store.removeWhere((name) => name.startsWith(`${PLACE}${tab}:`));
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
      removeWhere: (test) => attempt(() => {
        for (let i = storage.length - 1; i >= 0; i -= 1) {
          const name = storage.key(i);
          if (name && test(name)) storage.removeItem(name);
        }
      }),
    };
  }

  // ==== minimise on scroll ==================================================
  //
  // Scrolling down past the first screenful shrinks the bar (CSS: .tab-bar--minimized,
  // icons only); scrolling up, reaching the end, or the top restores it. The page's
  // bottom padding keeps the full bar's height, so nothing in the content moves.
  // Not under prefers-reduced-motion: there the bar simply keeps its size (a sudden
  // jump is motion too), and not in the wide sidebar, which does not cover content.
  function minimiseOnScroll() {
    const nav = document.querySelector('nav.tab-bar');
    if (!nav || !window.matchMedia || !window.requestAnimationFrame) return;

    const MINIMIZED = 'tab-bar--minimized';
    const THRESHOLD = 56;   // px from the top before the bar may shrink
    const SLOP = 8;         // direction changes smaller than this are jitter or rubber-banding
    const wide = matchMedia('(min-width: 48em)');
    let anchor = window.scrollY; // where the direction was last decided
    let queued = false;

    const allowed = () => !reduceMotion.matches && !(wide.matches && root.dataset.layout === 'sidebar');
    const set = (on) => { if (nav.classList.contains(MINIMIZED) !== on) nav.classList.toggle(MINIMIZED, on); };

    function update() {
      queued = false;
      const y = Math.max(0, window.scrollY);
      const end = root.scrollHeight - window.innerHeight - 2;
      // Keyboard focus in the bar keeps it whole: the focused tab shows its label.
      const focused = !!nav.querySelector(':focus-visible');
      if (!allowed() || focused || y < THRESHOLD || y >= end) {
        set(false);
        anchor = y;
      } else if (y > anchor + SLOP) {
        set(true);
        anchor = y;
      } else if (y < anchor - SLOP) {
        set(false);
        anchor = y;
      }
    }

    const queue = () => {
      if (queued) return;
      queued = true;
      requestAnimationFrame(update);
    };

    window.addEventListener('scroll', queue, { passive: true });
    window.addEventListener('resize', queue);
    reduceMotion.addEventListener('change', update);
    wide.addEventListener('change', update);
    nav.addEventListener('focusin', update);
    window.addEventListener('pageshow', () => { anchor = window.scrollY; update(); });
  }

  // ==== Profile: drag to reorder the tab bar ================================
  //
  // The Move up / Move down forms work on their own and stay (keyboards, switch access,
  // screen readers). On top of them: drag a row by its grip with a finger, or anywhere
  // on it with a mouse. Cart is pinned: it never moves and no row can take its slot,
  // so it stays third. On drop the order is posted as the forms would post it, and the
  // page reloads so the tab bar shows it.
  function reorderTabs() {
    const list = document.querySelector('ol.tab-order[data-tab-order]');
    if (!list || !window.fetch || !window.URLSearchParams || !('PointerEvent' in window)) return;
    const rows = Array.from(list.children).filter((row) => row.matches('.tab-order__item[data-tab]'));
    const movable = rows.filter((row) => !row.classList.contains('tab-order__item--pinned'));
    const form = list.querySelector('form.tab-order__moves');
    const csrf = form && form.querySelector('input[name="csrf"]');
    if (movable.length < 2 || !csrf) return;

    const slots = movable.map((row) => rows.indexOf(row)); // where movable rows may land, e.g. 0, 1, 3
    const last = rows.length - 1;
    let drag = null;
    let saving = false;

    list.classList.add('tab-order--draggable');
    for (const row of movable) {
      const grip = document.createElement('span');
      grip.className = 'tab-order__handle';
      grip.setAttribute('aria-hidden', 'true'); // the buttons are the accessible way
      row.append(grip);
    }

    // Page coordinates, so a wheel scroll mid-drag does not throw the slots off.
    const pageY = (event) => event.clientY + window.scrollY;

    list.addEventListener('pointerdown', (event) => {
      if (drag || saving || !event.isPrimary || event.button !== 0) return;
      const row = event.target.closest('.tab-order__item');
      if (!row || !movable.includes(row) || event.target.closest('button, a, input')) return;
      // A finger elsewhere on the row scrolls the page; only the grip drags.
      if (event.pointerType !== 'mouse' && !event.target.closest('.tab-order__handle')) return;
      event.preventDefault(); // no text selection, no focus change
      const from = rows.indexOf(row);
      drag = {
        row,
        from,
        to: from,
        pointer: event.pointerId,
        startY: pageY(event),
        tops: rows.map((r) => r.getBoundingClientRect().top + window.scrollY),
        heights: rows.map((r) => r.offsetHeight),
        moved: false,
      };
      row.setPointerCapture(event.pointerId);
    });

    list.addEventListener('pointermove', (event) => {
      if (!drag || event.pointerId !== drag.pointer) return;
      const { tops, heights, from } = drag;
      const dy = Math.min(tops[last] - tops[from], Math.max(tops[0] - tops[from], pageY(event) - drag.startY));
      if (!drag.moved) {
        if (Math.abs(dy) < 4) return; // a click, not a drag (yet)
        drag.moved = true;
        list.classList.add('tab-order--dragging');
        drag.row.classList.add('tab-order__item--dragging');
      }
      drag.row.style.transform = `translateY(${dy}px)${reduceMotion.matches ? '' : ' scale(1.02)'}`;

      // The nearest slot a movable row may take: never Cart's.
      const centre = tops[from] + heights[from] / 2 + dy;
      const distance = (slot) => Math.abs(tops[slot] + heights[slot] / 2 - centre);
      const to = slots.reduce((best, slot) => (distance(slot) < distance(best) ? slot : best), slots[0]);
      if (to !== drag.to) {
        drag.to = to;
        makeRoom();
      }
    });

    // The movable tabs' ids with the dragged row moved to slot `to`.
    function orderWith(to) {
      const ids = movable.map((row) => row.dataset.tab);
      const [moved] = ids.splice(slots.indexOf(drag.from), 1);
      ids.splice(slots.indexOf(to), 0, moved);
      return ids;
    }

    // Shifts the other movable rows into the places they would take; Cart stays.
    function makeRoom() {
      const ids = orderWith(drag.to);
      for (const row of movable) {
        if (row === drag.row) continue;
        const now = rows.indexOf(row);
        const next = slots[ids.indexOf(row.dataset.tab)];
        row.style.transform = next === now ? '' : `translateY(${drag.tops[next] - drag.tops[now]}px)`;
      }
    }

    function end(event) {
      if (!drag || event.pointerId !== drag.pointer) return;
      const { row, from, to, moved, tops } = drag;
      const ids = orderWith(to);
      drag = null;
      if (!moved) return;
      if (event.type !== 'pointerup' || to === from) { settle(row, 0).then(reset); return; }
      settle(row, tops[to] - tops[from]);
      save(ids);
    }

    list.addEventListener('pointerup', end);
    list.addEventListener('pointercancel', end);
    list.addEventListener('lostpointercapture', end);
    document.addEventListener('keydown', (event) => {
      if (event.key !== 'Escape' || !drag) return;
      const { row } = drag;
      drag = null;
      settle(row, 0).then(reset);
    });

    // Lowers the lifted row into place; resolves once it is there.
    function settle(row, offset) {
      list.classList.add('tab-order--settling');
      row.style.transform = `translateY(${offset}px)`;
      const ms = reduceMotion.matches ? 0 : 230;
      return new Promise((resolve) => setTimeout(resolve, ms));
    }

    function reset() {
      list.classList.remove('tab-order--dragging', 'tab-order--settling');
      for (const row of rows) {
        row.classList.remove('tab-order__item--dragging');
        row.style.transform = '';
      }
    }

    function save(ids) {
      saving = true;
      list.setAttribute('aria-busy', 'true');
      const body = new URLSearchParams({ csrf: csrf.value, order: ids.join(',') });
      fetch(form.getAttribute('action') || '/profile/tabs', { method: 'POST', body, credentials: 'same-origin' })
        .then((res) => {
          if (!res.ok) throw new Error(`HTTP ${res.status}`);
          // The server answered 303 → Profile (followed); reloading shows the bar in the new order.
          window.location.reload();
        })
        .catch(() => {
          saving = false;
          list.removeAttribute('aria-busy');
          reset();
          announce('The tab order could not be saved. Move up and Move down still work.');
        });
    }
  }

  // ==== preferences across open tabs ========================================
  //
  // Theme, layout and notifications are per session, but saving one reloads only the
  // tab it was saved in. Each freshly loaded page says what it was rendered with, and
  // the session's other open tabs take it on without a reload. The browser's own bar
  // colour (meta theme-color) follows the theme in use.
  function sharedPreferences() {
    const meta = document.querySelector('meta[name="theme-color"]');
    const paint = () => {
      const colour = getComputedStyle(root).getPropertyValue('--bg').trim();
      if (meta && colour) meta.setAttribute('content', colour);
    };
    paint();
    if (window.matchMedia) matchMedia('(prefers-color-scheme: dark)').addEventListener('change', paint);
    if (!('BroadcastChannel' in window)) return;

    const CHOICES = {
      theme: ['system', 'light', 'dark'],
      layout: ['bar', 'sidebar'],
      notifications: ['on', 'off'],
    };
    const mine = {};
    for (const name of Object.keys(CHOICES)) mine[name] = root.dataset[name];

    function adopt(prefs) {
      if (!prefs || typeof prefs !== 'object') return;
      for (const [name, values] of Object.entries(CHOICES)) {
        if (values.includes(prefs[name])) root.dataset[name] = prefs[name];
      }
      // Controls that post the opposite of what is shown, and Profile's own settings,
      // keep in step, so a press here never undoes the choice made there.
      const layoutButton = document.querySelector('.tab-bar__layout-button');
      if (layoutButton && CHOICES.layout.includes(prefs.layout)) {
        const sidebar = prefs.layout === 'sidebar';
        layoutButton.value = sidebar ? 'bar' : 'sidebar';
        layoutButton.setAttribute('aria-pressed', String(sidebar));
        layoutButton.title = sidebar ? 'Show tab bar' : 'Show sidebar';
      }
      const toggle = document.querySelector('button.switch[name="notifications"]');
      if (toggle && CHOICES.notifications.includes(prefs.notifications)) {
        const on = prefs.notifications === 'on';
        toggle.value = on ? 'off' : 'on';
        toggle.setAttribute('aria-pressed', String(on));
      }
      const radio = CHOICES.theme.includes(prefs.theme)
        && document.querySelector(`input[name="theme"][value="${prefs.theme}"]`);
      if (radio) radio.checked = true;
      paint();
    }

    let channel = null;
    const open = () => {
      channel = new BroadcastChannel('quickcart-preferences');
      channel.onmessage = ({ data }) => adopt(data);
    };
    open();
    channel.postMessage(mine); // only a fresh page: its attributes are the server's latest
    // Like the badge's channel: closed while in the back/forward cache.
    window.addEventListener('pagehide', () => { if (channel) channel.close(); channel = null; });
    window.addEventListener('pageshow', (event) => { if (event.persisted && !channel) open(); });
  }

  liveBadge();
  tabPlaces();        // before minimiseOnScroll, which takes the restored position as its start
  minimiseOnScroll();
  reorderTabs();
  sharedPreferences();
})();

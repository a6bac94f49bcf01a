// QuickCart's page script — progressive enhancement. Without this file every page
// still works: links navigate, forms post and answer 303 back to the row they came from
// with a one-shot notice, the badge is as fresh as the last page load, the tab order
// changes with Move up / Move down. With it:
//   · liveBadge          the badge follows the cart live, in every tab (and a notice
//                        when the cart changed in another tab, if Notifications are on);
//                        the page's own "N in cart" and cart rows follow it too, and an
//                        "Offline" bar shows while the stream is down
//   · submitInPlace      forms post with fetch and the page is morphed in place: scroll,
//                        focus and history stay; the server's notice shows as a message
//   · tabPlaces          each tab keeps its scroll position; the current tab again goes
//                        to its root, at the top
//   · minimiseOnScroll   the tab bar shrinks while you scroll down
//   · reorderTabs        Profile → Customize tab bar: drag and drop
//   · applyOnChange      the theme applies as soon as it is chosen (no Save press)
//   · sharedPreferences  theme, layout and notifications follow across open tabs
// Each leaves quietly when its page or browser lacks what it needs; liveBadge and
// submitInPlace also work together, through the small interface liveBadge returns.
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
  //
  // It hands back a small interface for submitInPlace: while a form of this page is on its
  // way (`ownChangeStarted` … `ownChangeEnded`) counts update the badge quietly, since the
  // form's own message says what happened; `pageShows` tells it the count the page's
  // content now reflects; `onStale` is called when a count arrives that the content does
  // not reflect (another tab or device changed the cart), so the page refetches itself.
  function liveBadge() {
    const nav = document.querySelector('nav.tab-bar[data-live-url]');
    const link = nav && nav.querySelector('a[data-role="prominent"]');
    const badge = link && link.querySelector('[data-badge]');
    if (!badge || !('EventSource' in window)) return null;

    const NAME = 'quickcart-live';
    const BUMP = 'tab__badge--bump';
    const url = nav.dataset.liveUrl;
    const shared = !!(navigator.locks && navigator.locks.request) && 'BroadcastChannel' in window;
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
    let last = null;            // latest count known
    let lastTexts = null;       // its badge-text event (count, badge, items), answered to new followers
    let attempts = 0;           // fatal stream failures in a row, for backoff
    let retryTimer = 0;
    let running = false;        // start/stop are paired, whichever event calls them
    let synced = false;         // has a count arrived since start? The first one only corrects
    let pageCount = shown;      // the count the page's content (rows, "N in cart") reflects
    let ownChanges = 0;         // this page's form posts on their way
    let onStale = () => {};     // set by submitInPlace: refetch the page
    let offlineTimer = 0;       // shows the Offline bar once the stream has been down a while
    const OFFLINE_AFTER_MS = 3000;
    const offlineBar = makeOfflineBar();

    function renderedCount() {
      // The badge text caps at "99+", so prefer the accessible name's number.
      const m = /\d+/.exec(link.getAttribute('aria-label') || '');
      if (m) return Number(m[0]);
      return badge.hidden ? 0 : parseInt(badge.textContent, 10) || 0;
    }

    // ---- applying a count --------------------------------------------------

    // The server words the texts ("99+", "3 items"); the script only places them.
    function apply(texts) {
      const count = texts && texts.count;
      if (!Number.isInteger(count) || count < 0 || typeof texts.badge !== 'string' || typeof texts.items !== 'string') return;
      last = count;
      lastTexts = texts;
      // This page's own changes are form posts whose answer brings the new count (and says
      // what happened), so a change outside one, after the first sync, was made elsewhere:
      // another tab or device.
      const elsewhere = synced && ownChanges === 0;
      synced = true;
      if (count !== shown) {
        show(texts);
        // During this page's own post the form's message says what happened.
        if (ownChanges > 0) return;
        if (elsewhere && root.dataset.notifications === 'on') notify(`Cart updated in another tab: ${texts.items}`);
        else announce(`Cart updated: ${texts.items}`);
      }
      if (ownChanges === 0 && count !== pageCount) onStale();
    }

    function show(texts) {
      shown = texts.count;
      badge.textContent = texts.badge;
      badge.hidden = texts.count === 0;
      link.setAttribute('aria-label', `${tabName}, ${texts.items}`);
      bump();
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

    // ---- connection state ----------------------------------------------------

    // "Offline — changes will not be saved" once the stream has been down for a while, and
    // gone as soon as it is back. The bar is a polite live region made when the page loads
    // (an empty one, hidden by CSS), so its words are spoken when they appear.
    function makeOfflineBar() {
      const bar = document.createElement('div');
      bar.className = 'offline-bar';
      bar.setAttribute('role', 'status');
      bar.dataset.client = '';
      document.body.append(bar);
      return bar;
    }

    function connection(up) {
      if (up) {
        clearTimeout(offlineTimer);
        offlineTimer = 0;
        const wasOffline = offlineBar.textContent !== '';
        offlineBar.textContent = '';
        if (wasOffline) document.dispatchEvent(new CustomEvent('quickcart:online'));
      } else if (!offlineTimer && offlineBar.textContent === '') {
        offlineTimer = setTimeout(() => {
          offlineTimer = 0;
          offlineBar.textContent = 'Offline — changes will not be saved';
        }, OFFLINE_AFTER_MS);
      }
    }

    function streamState(up) {
      connection(up);
      if (channel) channel.postMessage({ type: 'connection', up });
    }

    // ---- the stream (leader or unshared tab) -------------------------------

    function openStream() {
      closeStream();
      const es = new EventSource(url);
      // `badge-text` follows each `badge` event with the count and its texts.
      es.addEventListener('badge-text', (event) => {
        let texts;
        try { texts = JSON.parse(event.data); } catch { return; }
        apply(texts);
        if (channel) channel.postMessage({ type: 'badge', texts });
      });
      es.addEventListener('open', () => { attempts = 0; streamState(true); });
      es.addEventListener('error', () => {
        if (source !== es) return;
        streamState(false);
        // CONNECTING means EventSource is already retrying per `retry:`; leave it.
        // CLOSED means it gave up for good (non-200, wrong type, 204): we retry.
        if (es.readyState === EventSource.CLOSED) scheduleReconnect();
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
        if (data.type === 'badge') apply(data.texts);
        else if (data.type === 'connection') connection(data.up === true);
        else if (data.type === 'hello' && source && last !== null) {
          channel.postMessage({ type: 'badge', texts: lastTexts });
          channel.postMessage({ type: 'connection', up: source.readyState === EventSource.OPEN });
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
      clearTimeout(offlineTimer);
      offlineTimer = 0;
      closeStream();
      if (lockAbort) lockAbort.abort();
      if (releaseLock) releaseLock();
      lockAbort = releaseLock = null;
      if (channel) channel.close();
      channel = null;
    }

    // ---- page lifecycle ----------------------------------------------------

    // bfcache keeps a hidden page's stream open and would starve the host's
    // connections (six per host over HTTP/1.1), and a held lock would keep leadership from
    // other tabs. So: everything goes on pagehide, comes back on pageshow.
    // A frozen tab (background tab discarding, Android) is treated the same way,
    // so a frozen leader hands the stream over instead of silencing every tab.
    window.addEventListener('pagehide', stop);
    document.addEventListener('freeze', stop);
    const resume = () => {
      shown = renderedCount();
      start(); // the stream's (or leader's) first value corrects a stale badge
      onStale();
    };
    window.addEventListener('pageshow', (event) => { if (event.persisted) resume(); });
    document.addEventListener('resume', resume);

    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState !== 'visible') return;
      if (hideWhenSeen) { hideWhenSeen = false; hideToastLater(); }
      // A frozen background tab may have missed relayed values: ask the leader again.
      if (channel && !source) channel.postMessage({ type: 'hello' });
      // The same count can still hide a different cart (one item up, another down).
      // (Only the cart: Home and Search would record their search again on every look.)
      if (document.body.dataset.page === 'cart') onStale();
    });

    start();

    return {
      ownChangeStarted() { ownChanges += 1; },
      ownChangeEnded() {
        ownChanges -= 1;
        // News from elsewhere that came while the post was on its way.
        if (ownChanges === 0 && last !== null && last !== pageCount) onStale();
      },
      /** The page's content was just replaced by a fresh copy rendered with `count`. */
      pageShows(count) {
        pageCount = count;
        // The morph brought the server's badge and label; the count is noted, and bumped.
        if (count !== shown) { shown = count; bump(); }
        if (ownChanges === 0 && last !== null && last !== count) onStale();
      },
      set onStale(callback) { onStale = callback; },
    };
  }

  // ==== forms post in place =================================================
  //
  // In the spirit of Hotwire Turbo's form submissions and morphing refreshes. A post form
  // is sent with fetch (the same fields, CSRF token included, plus the pressed button's
  // name and value); fetch follows the server's 303 and the page it leads to is morphed
  // into this one: nodes that did not change stay, so scroll position and focus stay too.
  // Focus goes back to the control that was pressed, or, when it is gone or disabled, to
  // its row's next control, the next row, the row before, or the page's heading. No
  // history entry is added. The server puts what happened into that page (a notice at the
  // top of main, the same words a browser without JavaScript shows); here it becomes a
  // message on screen and in the polite live region instead.
  //
  // One post at a time: a second press of a form on its way is dropped (no double
  // submits), a press of another form waits its turn. A post that fails (no connection,
  // a 5xx) leaves an inline message with Retry beside the form, never the browser's error
  // page. GET forms (Search) stay ordinary navigations.
  function submitInPlace(live) {
    if (!window.fetch || !window.DOMParser || !window.FormData || !window.URLSearchParams) return;

    const REFRESH_HEADER = 'X-QuickCart-Refresh'; // the server leaves a pending notice alone
    const MESSAGE_MS = 4000;
    let queue = Promise.resolve();
    let posting = 0;            // posts queued or on their way
    let posted = 0;             // posts answered so far: a refresh read before one is stale
    let refreshing = null;
    let refreshAgain = false;
    let staleWhileHidden = false; // a hidden tab refreshes when it is looked at again

    if (live) live.onStale = refresh;

    document.addEventListener('submit', (event) => {
      const form = event.target;
      if (event.defaultPrevented || !(form instanceof HTMLFormElement)) return;
      if ((form.getAttribute('method') || 'get').toLowerCase() !== 'post') return;
      const submitter = event.submitter || null;
      const action = new URL((submitter && submitter.getAttribute('formaction')) || form.action, location.href);
      if (action.origin !== location.origin) return;
      event.preventDefault();
      if (form.dataset.busy) return; // already on its way: a second press changes nothing

      const body = new URLSearchParams(new FormData(form));
      if (submitter && submitter.name) body.append(submitter.name, submitter.value);
      const place = placeOf(form, submitter);
      form.dataset.busy = 'true';
      form.setAttribute('aria-busy', 'true');
      clearError(form);
      posting += 1;
      if (live) live.ownChangeStarted();
      queue = queue
        .then(() => post(form, submitter, action, body, place))
        .finally(() => {
          delete form.dataset.busy;
          form.removeAttribute('aria-busy');
          posting -= 1;
          posted += 1;
          if (live) live.ownChangeEnded();
        });
    });

    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState !== 'visible' || !staleWhileHidden) return;
      staleWhileHidden = false;
      refresh();
    });

    // The stream is back: what failed while it was down may be tried again.
    document.addEventListener('quickcart:online', () => {
      for (const box of document.querySelectorAll('.form-error')) box.remove();
    });

    function post(form, submitter, action, body, place) {
      return fetch(action.href, {
        method: 'POST',
        body,
        credentials: 'same-origin',
        redirect: 'follow',
        headers: { Accept: 'text/html' },
      })
        .then((res) => res.text().then((html) => ({ res, html })))
        .then(({ res, html }) => {
          if (!res.ok) {
            showError(form, submitter, res.status, serverMessage(html));
            return;
          }
          const doc = parse(html);
          if (!doc || doc.body.dataset.page !== document.body.dataset.page) {
            // A different page (checkout leads to Profile): go there as a link would, to
            // the part it offers focus to (fetch drops the redirect's #fragment).
            const target = doc && doc.querySelector('main [id][tabindex="-1"]');
            location.assign(target ? `${res.url}#${target.id}` : res.url);
            return;
          }
          const message = takeNotice(doc);
          const restore = holdPlace(place);
          morphPage(doc);
          const here = new URL(res.url);
          if (here.pathname + here.search !== location.pathname + location.search) {
            history.replaceState(history.state, '', here.pathname + here.search);
          }
          restore();
          if (message) say(message);
        })
        .catch(() => showError(form, submitter, 0, ''));
    }

    // ---- the page refetches itself when the cart changed elsewhere -------------

    function refresh() {
      if (!/^(home|search|cart|profile)$/.test(document.body.dataset.page || '')) return;
      if (posting > 0) return; // the post's answer brings the page; news after it refreshes then
      if (document.visibilityState === 'hidden') { staleWhileHidden = true; return; }
      if (refreshing) { refreshAgain = true; return; } // bursts coalesce into one more fetch
      const before = posted;
      refreshing = fetch(location.href, {
        credentials: 'same-origin',
        cache: 'no-store',
        headers: { Accept: 'text/html', [REFRESH_HEADER]: '1' },
      })
        .then((res) => (res.ok && !res.redirected ? res.text() : null))
        .then((html) => {
          const doc = html && parse(html);
          if (!doc || doc.body.dataset.page !== document.body.dataset.page) return;
          if (posting > 0 || posted !== before) { refreshAgain = true; return; } // older than a post's answer
          takeNotice(doc);
          const restore = holdPlace(null);
          morphPage(doc);
          restore();
        })
        .catch(() => {}) // offline or aborted: the next event or page load corrects it
        .finally(() => {
          refreshing = null;
          if (refreshAgain) { refreshAgain = false; refresh(); }
        });
    }

    // ---- reading and morphing a fetched page ----------------------------------

    function parse(html) {
      const doc = new DOMParser().parseFromString(html, 'text/html');
      return doc.querySelector('main') && doc.body ? doc : null;
    }

    // The server's notice, taken out of the fetched page: here it is a message instead.
    function takeNotice(doc) {
      const notice = doc.querySelector('main [data-notice]');
      if (!notice) return '';
      const parent = notice.parentNode;
      notice.remove();
      parent.normalize(); // the line breaks around it become one text node, as without it
      return notice.textContent.trim();
    }

    function morphPage(doc) {
      for (const name of ['theme', 'layout', 'notifications']) {
        const value = doc.documentElement.dataset[name];
        if (value && root.dataset[name] !== value) root.dataset[name] = value;
      }
      if (doc.title && doc.title !== document.title) document.title = doc.title;
      const main = document.querySelector('main');
      const nav = document.querySelector('nav.tab-bar');
      const freshNav = doc.querySelector('nav.tab-bar');
      morph(main, doc.querySelector('main'));
      if (nav && freshNav) morph(nav, freshNav);
      document.dispatchEvent(new CustomEvent('quickcart:morphed'));
      if (live) live.pageShows(countIn(doc));
    }

    function countIn(doc) {
      const link = doc.querySelector('nav.tab-bar a[data-role="prominent"]');
      const m = link && /\d+/.exec(link.getAttribute('aria-label') || '');
      return m ? Number(m[0]) : 0;
    }

    // ---- keeping the place ----------------------------------------------------

    // What to come back to after a post: the pressed control (when focus was in its form)
    // and its row, with the rows around it and where they are on screen.
    function placeOf(form, submitter) {
      const active = document.activeElement;
      const control = active && active !== document.body && form.contains(active) ? active : null;
      const row = form.closest('li[id]');
      const siblings = row ? Array.from(row.parentElement.children).filter((r) => r.id) : [];
      const at = siblings.indexOf(row);
      return {
        // The bar's own forms (the layout button) change the layout: nothing to hold there.
        inMain: !!form.closest('main'),
        control: control && controlKey(control, form),
        pressed: submitter && controlKey(submitter, form),
        row: row ? row.id : null,
        index: control && row ? controlsIn(row).indexOf(control) : -1,
        next: siblings.slice(at + 1).map((r) => r.id),
        previous: siblings.slice(0, Math.max(0, at)).reverse().map((r) => r.id),
        top: (row || form).getBoundingClientRect().top,
        previousTop: at > 0 ? siblings[at - 1].getBoundingClientRect().top : 0,
      };
    }

    function controlKey(el, form) {
      return {
        action: form.getAttribute('action') || '',
        name: el.getAttribute('name') || '',
        label: accessibleName(el),
      };
    }

    function accessibleName(el) {
      return (el.getAttribute('aria-label') || el.textContent || '').replace(/\s+/g, ' ').trim();
    }

    function controlsIn(container) {
      return Array.from(container.querySelectorAll('button, input:not([type="hidden"]), select, textarea, a[href]'));
    }

    const usable = (el) => !!el && !el.disabled && el.getClientRects().length > 0;

    function findControl(key) {
      if (!key) return null;
      for (const form of document.querySelectorAll('main form, nav form')) {
        if ((form.getAttribute('action') || '') !== key.action) continue;
        const match = controlsIn(form).find((el) => (el.getAttribute('name') || '') === key.name && accessibleName(el) === key.label);
        if (match) return match;
      }
      return null;
    }

    // Call before the page changes; the function it returns puts scroll and focus back.
    // Without a place (a refresh), the element at the top of the screen stays put and
    // focus stays where it is unless its element went away.
    function holdPlace(place) {
      const focused = document.activeElement;
      const focusKey = !place && focused && focused !== document.body && focused.closest('form')
        ? controlKey(focused, focused.closest('form')) : null;
      const pin = place ? null : elementAtTop();
      const pinTop = pin ? pin.getBoundingClientRect().top : 0;

      return function restore() {
        if (!place) {
          if (pin && pin.isConnected) scrollBy(pin, pinTop);
          const now = document.activeElement;
          if (focusKey && !(now && now.closest('main, nav'))) {
            const again = findControl(focusKey);
            if (usable(again)) again.focus({ preventScroll: true });
          }
          return;
        }
        // Scroll: the row stays where it was on screen; when it is gone, the next row
        // takes its place, or the row before keeps its own.
        const row = place.row && document.getElementById(place.row);
        const next = !row && first(place.next);
        const previous = !row && !next && first(place.previous);
        if (place.inMain) {
          if (row) scrollBy(row, place.top);
          else if (next) scrollBy(next, place.top);
          else if (previous) scrollBy(previous, place.previousTop);
        }

        if (!place.control) return; // focus was elsewhere: leave it there
        const target = [
          () => findControl(place.control),
          () => row && nearestUsable(controlsIn(row), place.index),
          () => next && controlsIn(next)[place.index],
          () => next && controlsIn(next).find(usable),
          () => previous && controlsIn(previous)[place.index],
          () => previous && controlsIn(previous).find(usable),
        ].map((pick) => pick()).find(usable) || heading();
        if (target && document.activeElement !== target) target.focus({ preventScroll: true });
      };
    }

    function first(ids) {
      for (const id of ids) {
        const el = document.getElementById(id);
        if (el) return el;
      }
      return null;
    }

    // The enabled control nearest `index` in `controls`, looking before it first: "+" at
    // the limit hands focus to "−" beside it, "−" at 1 to "+".
    function nearestUsable(controls, index) {
      for (let d = 0; d < controls.length; d += 1) {
        if (usable(controls[index - d])) return controls[index - d];
        if (usable(controls[index + d])) return controls[index + d];
      }
      return null;
    }

    function heading() {
      const h1 = document.querySelector('main h1');
      if (!h1) return document.querySelector('main');
      if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
      return h1;
    }

    function scrollBy(el, wasTop) {
      const delta = el.getBoundingClientRect().top - wasTop;
      if (Math.abs(delta) >= 1) window.scrollBy(0, delta);
    }

    // The first row (or other element with an id) at the top of the screen, below the bar.
    function elementAtTop() {
      const main = document.querySelector('main');
      if (!main) return null;
      const rows = main.querySelectorAll('li[id], section, h1');
      for (const el of rows) {
        if (el.getBoundingClientRect().bottom > 0) return el;
      }
      return null;
    }

    // ---- messages --------------------------------------------------------------

    let messageBox = null;
    let messageTimer = 0;

    // Shown for the eyes (aria-hidden), spoken through the polite live region.
    function say(text) {
      announce(text);
      if (!messageBox) {
        messageBox = document.createElement('div');
        messageBox.className = 'flash';
        messageBox.setAttribute('aria-hidden', 'true');
        messageBox.dataset.client = '';
        document.body.append(messageBox);
        void messageBox.offsetWidth; // lay out the hidden state first, so it animates in
      }
      messageBox.textContent = text;
      messageBox.classList.add('flash--visible');
      clearTimeout(messageTimer);
      messageTimer = setTimeout(() => messageBox.classList.remove('flash--visible'), MESSAGE_MS);
    }

    function serverMessage(html) {
      const doc = parse(html);
      const text = doc && doc.querySelector('.error-page p');
      return text ? text.textContent.trim() : '';
    }

    // An inline message beside the form that failed, with a way forward: Retry when the
    // shop could not be reached or could not save, Reload when the page itself is stale.
    function showError(form, submitter, status, text) {
      clearError(form);
      const retry = status === 0 || status >= 500;
      const box = document.createElement('div');
      box.className = 'form-error';
      box.dataset.client = '';
      const words = document.createElement('p');
      words.textContent = text || (status === 0
        ? 'Could not reach QuickCart, so nothing was changed.'
        : 'That did not work, so nothing was changed.');
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'button button--tinted';
      button.textContent = retry ? 'Retry' : 'Reload';
      button.addEventListener('click', () => {
        if (!retry) { location.reload(); return; }
        box.remove();
        if (!form.isConnected) return;
        const again = submitter && submitter.isConnected && !submitter.disabled ? submitter : null;
        if (form.requestSubmit) form.requestSubmit(again);
        else if (again) again.click();
      });
      box.append(words, button);
      // Inside the row (a list holds only rows), across its whole width; else after the form.
      const row = form.closest('li[id]');
      if (row) row.append(box);
      else form.after(box);
      form.errorBox = box;
      announce(words.textContent);
    }

    function clearError(form) {
      if (form.errorBox) form.errorBox.remove();
      form.errorBox = null;
    }

    // ---- the morph --------------------------------------------------------------

    // Turns `from` into `to` in place, reusing nodes that match: by id (or the data-tab and
    // data-product keys), else the next node of the same kind. Nodes and classes this
    // script adds (data-client, JS_CLASSES) are kept.
    function morph(from, to) {
      if (from.isEqualNode(to)) return;
      if (from.nodeType !== Node.ELEMENT_NODE) {
        if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
        return;
      }
      syncAttributes(from, to);
      if (from.localName === 'textarea') return;
      morphChildren(from, to);
    }

    function morphChildren(from, to) {
      const keyed = new Map();
      for (const child of from.children) {
        const key = keyOf(child);
        if (key) keyed.set(key, child);
      }
      let cursor = from.firstChild;
      const freshNodes = Array.from(to.childNodes);
      freshNodes.forEach((fresh, at) => {
        cursor = skipClientNodes(cursor);
        const key = keyOf(fresh);
        let match = null;
        if (key) {
          const candidate = keyed.get(key);
          if (candidate && candidate.localName === fresh.localName) match = candidate;
          keyed.delete(key);
        } else {
          match = sameKindAhead(cursor, fresh, freshNodes.slice(at + 1));
          // Unkeyed nodes skipped on the way were deleted from the page.
          while (match && cursor !== match) {
            const next = cursor.nextSibling;
            if (!keyOf(cursor) && !isClientNode(cursor)) cursor.remove();
            cursor = next;
          }
        }
        if (!match) {
          from.insertBefore(document.importNode(fresh, true), cursor);
          return;
        }
        if (match === cursor) cursor = cursor.nextSibling;
        else from.insertBefore(match, cursor);
        morph(match, fresh);
      });
      while (cursor) {
        const next = cursor.nextSibling;
        if (!isClientNode(cursor)) cursor.remove();
        cursor = next;
      }
    }

    function keyOf(node) {
      if (node.nodeType !== Node.ELEMENT_NODE) return null;
      const key = node.id || node.getAttribute('data-tab') || node.getAttribute('data-product');
      return key ? `${node.localName}:${key}` : null;
    }

    function isClientNode(node) {
      return node.nodeType === Node.ELEMENT_NODE && node.hasAttribute('data-client');
    }

    function skipClientNodes(node) {
      let current = node;
      while (current && isClientNode(current)) current = current.nextSibling;
      return current;
    }

    // The node to morph into `fresh`: `start` when it is of the same kind, else the first
    // one after it of that kind, but only across nodes that have gone (none of them like
    // anything still to come, none keyed). Text is matched in place only.
    function sameKindAhead(start, fresh, later) {
      if (!start) return null;
      if (fresh.nodeType !== Node.ELEMENT_NODE) return start.nodeType === fresh.nodeType ? start : null;
      for (let node = start; node; node = node.nextSibling) {
        if (isClientNode(node) || node.nodeType !== Node.ELEMENT_NODE) continue;
        if (keyOf(node)) return null;
        if (sameKind(node, fresh)) return node;
        if (later.some((next) => sameKind(node, next))) return null;
      }
      return null;
    }

    const firstClass = (el) => (el.getAttribute('class') || '').split(' ')[0];
    const sameKind = (a, b) => a.nodeType === b.nodeType
      && (a.nodeType !== Node.ELEMENT_NODE || (a.localName === b.localName && firstClass(a) === firstClass(b)));

    // Classes this script sets on server-rendered elements.
    const JS_CLASSES = /^(tab-bar--minimized|tab__badge--bump|tab-order--[a-z]+|tab-order__item--dragging)$/;

    function syncAttributes(from, to) {
      for (const { name, value } of Array.from(to.attributes)) {
        if (name === 'class') continue;
        if (from.getAttribute(name) === value) continue;
        from.setAttribute(name, value);
        // A field shows its value property; the attribute alone does not change it once
        // typed in. A focused field keeps what is being typed.
        if (name === 'value' && 'value' in from && from !== document.activeElement) from.value = value;
      }
      for (const { name } of Array.from(from.attributes)) {
        if (name !== 'class' && !to.hasAttribute(name)) from.removeAttribute(name);
      }
      const kept = Array.from(from.classList).filter((c) => JS_CLASSES.test(c));
      const classes = [...(to.getAttribute('class') || '').split(/\s+/).filter(Boolean), ...kept].join(' ');
      if ((from.getAttribute('class') || '') !== classes) {
        if (classes) from.setAttribute('class', classes);
        else from.removeAttribute('class');
      }
      if (from.localName === 'input' && (from.type === 'radio' || from.type === 'checkbox')) {
        from.checked = to.hasAttribute('checked');
      }
    }
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
    // The rows in their order now: Move up / Move down posted in place reorder them.
    let rows = [];
    let movable = [];
    const readRows = () => {
      rows = Array.from(list.children).filter((row) => row.matches('.tab-order__item[data-tab]'));
      movable = rows.filter((row) => !row.classList.contains('tab-order__item--pinned'));
    };
    readRows();
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
      grip.dataset.client = ''; // kept when the page is morphed (submitInPlace)
      row.append(grip);
    }

    // Page coordinates, so a wheel scroll mid-drag does not throw the slots off.
    const pageY = (event) => event.clientY + window.scrollY;

    list.addEventListener('pointerdown', (event) => {
      if (drag || saving || !event.isPrimary || event.button !== 0) return;
      readRows();
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
        // Its name says what a press does, so it is no toggle with a pressed state.
        layoutButton.title = sidebar ? 'Show tab bar' : 'Show sidebar';
        layoutButton.setAttribute('aria-label', layoutButton.title);
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
    // A form posted in place (submitInPlace) brings the server's latest too.
    document.addEventListener('quickcart:morphed', () => {
      const now = {};
      for (const name of Object.keys(CHOICES)) now[name] = root.dataset[name];
      paint();
      if (channel && Object.keys(CHOICES).some((name) => now[name] !== mine[name])) {
        Object.assign(mine, now);
        channel.postMessage(mine);
      }
    });
    // Like the badge's channel: closed while in the back/forward cache.
    window.addEventListener('pagehide', () => { if (channel) channel.close(); channel = null; });
    window.addEventListener('pageshow', (event) => { if (event.persisted && !channel) open(); });
  }

  // Choices that take effect as soon as they are made (Profile's theme): the form posts on
  // change, so its Save button is hidden (CSS, by html[data-script]). Without the script
  // it stays a plain form with its button.
  function applyOnChange() {
    root.dataset.script = 'on';
    let chosen = null;   // the latest choice not yet sent: { form, name, value }
    let waiting = false;
    const send = () => {
      const form = chosen && chosen.form.isConnected ? chosen.form : chosen && document.querySelector('form[data-apply-on-change]');
      if (!form) { chosen = null; return; }
      // A post on its way takes no second one: send the latest choice once it is answered
      // (the answer shows the earlier choice, so the latest is put back first).
      if (form.dataset.busy) {
        if (!waiting) { waiting = true; setTimeout(() => { waiting = false; send(); }, 100); }
        return;
      }
      const input = form.querySelector(`input[name="${chosen.name}"][value="${chosen.value}"]`);
      if (input) input.checked = true;
      if (chosen.name === 'theme') root.dataset.theme = chosen.value; // seen at once, confirmed by the answer
      chosen = null;
      if (form.requestSubmit) form.requestSubmit(); else form.submit();
    };
    document.addEventListener('change', (event) => {
      const input = event.target;
      const form = input instanceof HTMLInputElement && input.form;
      if (!form || !form.hasAttribute('data-apply-on-change')) return;
      chosen = { form, name: input.name, value: input.value };
      if (input.name === 'theme') root.dataset.theme = input.value;
      send();
    });
  }

  const live = liveBadge();
  applyOnChange();
  submitInPlace(live);
  tabPlaces();        // before minimiseOnScroll, which takes the restored position as its start
  minimiseOnScroll();
  reorderTabs();
  sharedPreferences();
})();

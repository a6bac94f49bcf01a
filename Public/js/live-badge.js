// The live badge: the Cart tab's badge follows the cart over the event stream, in every
// tab, with a notice when the cart changed in another tab (Notifications on), and an
// "Offline" bar while the network is gone (not while the server refuses a stream for load:
// then it tries again when it was told to, and the badge is as fresh as the last page load).
// The network is gone when the browser says so (its `offline` event) or when the stream has
// been failing a while, a silent one included (event-stream.js). When it is back (`online`,
// or a stream open again after one was lost) the page re-reads its live parts, since news
// may have been missed meanwhile, and a stream that may have died unnoticed is opened anew.
//
// One stream per browser, not per tab: HTTP/1.1 gives a host six
// connections, so a seventh tab's stream would hang every page load. Tabs elect a
// leader with the Web Locks API; the leader alone holds the stream and relays each
// count over a BroadcastChannel. When the leader goes, the next tab queued on the
// lock takes over. Without Web Locks or BroadcastChannel each tab streams alone.
//
// It hands back a small interface for forms.js: while a form of this page is on its
// way (`ownChangeStarted` … `ownChangeEnded`) counts update the badge quietly, since the
// form's own message says what happened; `pageShows` tells it the count the page's
// content now reflects; `onStale` is called when a count arrives that the content does
// not reflect (another tab or device changed the cart, or `event: catalog` says an import
// changed what the shop sells), so the page refetches itself.
//
// The badge and the page's own counts ("Items", rows, "N in cart") change together, in
// one morph, so the page never shows two counts: during this page's post its answer brings
// both, and news from elsewhere has the page re-read itself first (onStale answers true
// when it will). Only where it cannot, or when the page has not come within NEWS_WAIT_MS,
// does the badge change alone.

import { connect } from './event-stream.js';
import { announce, ownClasses, reduceMotion, root } from './page.js';

export function start() {
  const nav = document.querySelector('nav.tab-bar[data-live-url]');
  const link = nav && nav.querySelector('a[data-role="prominent"]');
  const badge = link && link.querySelector('[data-badge]');
  if (!badge || !window.fetch || !window.ReadableStream || !window.TextDecoder || !window.AbortController) return null;

  const NAME = 'quickcart-live';
  const BUMP = 'tab__badge--bump';
  const url = nav.dataset.liveUrl;
  const shared = !!(navigator.locks && navigator.locks.request) && 'BroadcastChannel' in window;
  const labelEl = link.querySelector('.tab__label');
  const tabName = (labelEl && labelEl.textContent.trim()) || 'Cart';
  const TOAST_MS = 4000;

  // What the page shows now; announcements happen only when this changes.
  let shown = renderedCount();

  let source = null;          // the stream ({ open, close }), leader (or unshared) tab only
  let channel = null;         // BroadcastChannel while the page is shown
  let releaseLock = null;     // resolves the promise that holds the lock
  let lockAbort = null;       // cancels a still-queued lock request
  let generation = 0;         // bumps on each stop, so stale callbacks bail out
  let last = null;            // latest count known
  let lastTexts = null;       // its badge-text event (count, badge, items), answered to new followers
  let attempts = 0;           // stream failures in a row, for backoff
  let reconnectMs = 2000;     // the server's `retry:`, after a stream it had opened ended
  let opened = false;         // has a stream been open on this page before?
  let retryTimer = 0;
  let running = false;        // start/stop are paired, whichever event calls them
  let synced = false;         // has a count arrived since start? The first one only corrects
  let pageCount = shown;      // the count the page's content (rows, "N in cart") reflects
  let ownChanges = 0;         // this page's form posts on their way
  let onStale = () => false;  // set by forms.js: refetch the page; true when it will
  const orderMoved = (order) => document.dispatchEvent(new CustomEvent('quickcart:order', { detail: order }));
  let newsWaiting = null;     // news from elsewhere the refetch is bringing: { elsewhere }
  let newsTimer = 0;
  const NEWS_WAIT_MS = 3000;
  let offlineTimer = 0;       // shows the Offline bar once the stream has been down a while
  const OFFLINE_AFTER_MS = 3000;
  let streamDown = false;     // the stream (this tab's, or the leader's) failed and is not back
  let browserOffline = navigator.onLine === false;
  let rereadOnSync = false;   // a stream is open again after one was lost: re-read at its first count
  // How often the server sends each stream a keep-alive comment (the tab bar's
  // `data-live-heartbeat`, in ms; else the contract's longest, 30 s). A stream quiet for one
  // and a half of those and 3 s more has gone: a beat comes every interval, to within a
  // tenth of a second; the slack is for a slow or lossy network's delays and retransmissions.
  const heartbeatMs = Number(nav.dataset.liveHeartbeat) > 0 ? Number(nav.dataset.liveHeartbeat) : 30000;
  const quietLimit = () => heartbeatMs * 1.5 + 3000;
  const offlineBar = makeOfflineBar();

  function renderedCount() {
    // The accessible name has the number even while the badge is hidden at 0.
    const m = /\d+/.exec(link.getAttribute('aria-label') || '');
    if (m) return Number(m[0]);
    return badge.hidden ? 0 : parseInt(badge.textContent, 10) || 0;
  }

  // ---- applying a count --------------------------------------------------

  // The server words the texts ("3", "3 items"); the script only places them.
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
    const reread = rereadOnSync;
    rereadOnSync = false;
    // During this page's own post its answer brings the count, with the message of what happened.
    if (ownChanges > 0) return;
    if (count !== pageCount && onStale() === true) {
      newsWaiting = { elsewhere: elsewhere || (newsWaiting !== null && newsWaiting.elsewhere) };
      clearTimeout(newsTimer);
      newsTimer = setTimeout(() => { if (newsWaiting) tell(lastTexts, newsWaiting.elsewhere); }, NEWS_WAIT_MS);
      return;
    }
    // News missed while the stream was lost may leave the count as it was (one line up,
    // another down): the page is read again all the same.
    if (reread) onStale();
    tell(texts, elsewhere);
  }

  // Shows `texts` on the badge and says so, unless the badge says it already.
  function tell(texts, elsewhere) {
    newsWaiting = null;
    clearTimeout(newsTimer);
    if (texts.count === shown) return;
    show(texts);
    said(texts, elsewhere);
  }

  function said(texts, elsewhere) {
    if (elsewhere && root.dataset.notifications === 'on') notify(`Cart updated in another tab: ${texts.items}`);
    else announce(`Cart updated: ${texts.items}`);
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
  ownClasses(badge, BUMP);
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

  // "Offline — changes will not be saved" at once when the browser says it is offline, or
  // once the stream has been down for a while, and gone as soon as neither holds. The bar is
  // a polite live region made when the page loads (an empty one, hidden by CSS), so its words
  // are spoken when they appear.
  function makeOfflineBar() {
    const bar = document.createElement('div');
    bar.className = 'offline-bar';
    bar.setAttribute('role', 'status');
    bar.dataset.client = '';
    // In the banner, as the live region is: no words outside a landmark (CSS places it).
    (document.querySelector('body > header') || document.body).append(bar);
    return bar;
  }

  function connection(up) {
    streamDown = !up;
    showConnection();
  }

  function showConnection() {
    const words = 'Offline — changes will not be saved';
    if (!browserOffline && !streamDown) {
      clearTimeout(offlineTimer);
      offlineTimer = 0;
      const wasOffline = offlineBar.textContent !== '';
      offlineBar.textContent = '';
      if (wasOffline) document.dispatchEvent(new CustomEvent('quickcart:online'));
    } else if (browserOffline) {
      clearTimeout(offlineTimer);
      offlineTimer = 0;
      offlineBar.textContent = words;
    } else if (!offlineTimer && offlineBar.textContent === '') {
      offlineTimer = setTimeout(() => {
        offlineTimer = 0;
        offlineBar.textContent = words;
      }, OFFLINE_AFTER_MS);
    }
  }

  // `again`: open after a stream was lost, so every tab re-reads its page at the next count.
  function streamState(up, again = false) {
    connection(up);
    if (channel) channel.postMessage({ type: 'connection', up, again });
  }

  // ---- the stream (leader or unshared tab) -------------------------------

  function openStream() {
    closeStream();
    const stream = { open: false, close: null };
    const current = () => source === stream;
    stream.close = connect(url, {
      onOpen() {
        if (!current()) return;
        stream.open = true;
        attempts = 0;
        if (opened) rereadOnSync = true;
        streamState(true, opened);
        // After a stream was lost, the server may have restarted with a new release (install.js).
        document.dispatchEvent(new CustomEvent('quickcart:stream-open', { detail: { again: opened } }));
        opened = true;
      },
      quietLimit,
      onEvent(name, data) {
        if (!current()) return;
        // `badge-text` follows each `badge` event with the count and its texts.
        if (name === 'badge-text') {
          let texts;
          try { texts = JSON.parse(data); } catch { return; }
          apply(texts);
          if (channel) channel.postMessage({ type: 'badge', texts });
        } else if (name === 'catalog') {
          // An import changed what the shop sells: re-read the page, as for news from elsewhere.
          onStale();
          if (channel) channel.postMessage({ type: 'catalog' });
        } else if (name === 'order') {
          // One of the shopper's orders moved: order-live.js decides what the page does.
          let order;
          try { order = JSON.parse(data); } catch { return; }
          orderMoved(order);
          if (channel) channel.postMessage({ type: 'order', order });
        } else if (name === 'device-joined') {
          // For this device alone: another joined with the code it showed (devices.js).
          document.dispatchEvent(new CustomEvent('quickcart:device-joined', { detail: data }));
        }
      },
      onRetry(ms) { reconnectMs = ms; },
      // The server is there: no Offline bar. It says when to come back (Retry-After);
      // without that (a 403 for a session that went, say), back off.
      onRefused(ms) {
        if (!current()) return;
        streamState(true);
        reconnectAfter(ms !== null ? ms * (1 + Math.random() * 0.2) : backoff(1000, 30000));
      },
      // A stream that ended (its hour, a server stopping) is opened again; should that
      // fail, it is the network or the shop that went.
      onEnded() { if (current()) reconnectAfter(reconnectMs); },
      onFailed() {
        if (!current()) return;
        streamState(false);
        reconnectAfter(backoff(reconnectMs, 10000));
      },
    });
    source = stream;
  }

  // `base` doubling with each failure in a row, up to `cap`, ±30 % so tabs and devices spread out.
  function backoff(base, cap) {
    const delay = Math.min(cap, base * 2 ** attempts);
    attempts += 1;
    return delay * (0.7 + Math.random() * 0.6);
  }

  function reconnectAfter(ms) {
    closeStream();
    retryTimer = setTimeout(openStream, ms);
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
      else if (data.type === 'catalog') onStale();
      else if (data.type === 'order') orderMoved(data.order);
      else if (data.type === 'connection') {
        connection(data.up === true);
        if (data.again === true) rereadOnSync = true;
      } else if (data.type === 'hello' && source && last !== null) {
        channel.postMessage({ type: 'badge', texts: lastTexts });
        channel.postMessage({ type: 'connection', up: source.open });
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

  // The browser's own word on the network. Back online, a stream held here is opened anew
  // (the old connection may have died unnoticed), and its first count has every tab re-read
  // its page; a tab that follows a leader hears of it from there.
  window.addEventListener('offline', () => {
    browserOffline = true;
    showConnection();
  });
  window.addEventListener('online', () => {
    browserOffline = false;
    showConnection();
    if (!running || (shared && !releaseLock)) return;
    attempts = 0;
    openStream();
  });

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
  if (browserOffline) showConnection();

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
      // The morph brought the server's badge and label; the count is noted, and bumped, and
      // news from elsewhere that this page was re-read for is said now.
      const news = newsWaiting;
      newsWaiting = null;
      clearTimeout(newsTimer);
      if (count !== shown) {
        shown = count;
        bump();
        if (news && lastTexts && lastTexts.count === count) said(lastTexts, news.elsewhere);
      }
      if (ownChanges === 0 && last !== null && last !== count) onStale();
    },
    set onStale(callback) { onStale = callback; },
    // Re-reads the page (forms.js), as news from elsewhere does; true when it will.
    refresh() { return onStale() === true; },
  };
}

// Forms post in place, in the spirit of Hotwire Turbo's form submissions and morphing
// refreshes. A post form is sent with fetch (the same fields, CSRF token included, plus
// the pressed button's name and value); fetch follows the server's 303 and the page it
// leads to is morphed into this one: nodes that did not change stay, so scroll position
// and focus stay too. Focus goes back to the control that was pressed, or, when it is
// gone or disabled, to its row's next control, the next row, the row before, or the
// page's heading. No history entry is added. The server puts what happened into that page
// (a notice at the top of main, the same words a browser without JavaScript shows); here
// it becomes a message on screen and in the polite live region instead.
//
// One post at a time: a second press of a form on its way is dropped (no double submits),
// except a stepper's, which is queued and counts (its post is relative: the server applies
// the difference from the quantity its page showed); a press of another form waits its turn. A post that fails (no connection, a 5xx) leaves
// an inline message beside the form, never the browser's error page: Retry where nothing was
// changed, and where the post may have arrived although its answer did not (the connection
// broke), no Retry but the page read again once the shop answers, to show what it holds. GET forms
// (Search) stay ordinary navigations. (Over 400 lines: posting, morphing, keeping the place
// and the messages share one queue and one place-keeping, which splitting would expose.)
//
// `live` is the live badge's interface (live-badge.js), or null without one.

import { morph } from './morph.js';
import { announce, root } from './page.js';

// 16 random bytes in base64url (22 characters).
function changeKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function start(live) {
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
    // Already on its way: a second press changes nothing, but a stepper's counts.
    if (form.dataset.busy && !form.querySelector('input[name="shown"]')) return;

    const body = new URLSearchParams(new FormData(form));
    if (submitter && submitter.name) body.append(submitter.name, submitter.value);
    // A fresh key per press of a cart change: the shop applies each key once, so the
    // browser's own resend of a post whose answer was lost does not count again.
    if (form.hasAttribute('data-change-key')) body.append('change', changeKey());
    const place = placeOf(form, submitter);
    form.dataset.busy = 'true';
    form.setAttribute('aria-busy', 'true');
    form.postsWaiting = (form.postsWaiting || 0) + 1;
    clearError(form);
    posting += 1;
    if (live) live.ownChangeStarted();
    queue = queue
      .then(() => post(form, submitter, action, body, place))
      .finally(() => {
        form.postsWaiting -= 1;
        if (form.postsWaiting === 0) {
          delete form.dataset.busy;
          form.removeAttribute('aria-busy');
        }
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

  // The stream is back: what failed while it was down may be tried again. (A change that may
  // have been made keeps its message, which says what the page shows once it has read itself.)
  document.addEventListener('quickcart:online', () => {
    for (const box of document.querySelectorAll('.form-error:not([data-uncertain]):not([data-settled])')) box.remove();
  });

  function post(form, submitter, action, body, place) {
    // Offline, the browser sends nothing; online, a failure can come after the shop had the post.
    const unsent = navigator.onLine === false;
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
          if (!showRefusedFields(res.status, html)) showError(form, submitter, res.status, serverMessage(html));
          return;
        }
        // Signing out: the page it leads to is loaded anew, in this page's place in the
        // history, so nothing the script kept of the shopper (the live region's last words,
        // a message, a device's notice) outlives them, as nothing does without the script.
        if (form.hasAttribute('data-new-page')) {
          location.replace(res.url);
          return;
        }
        const doc = parse(html);
        // A step of a flow (checkout's Delivery leading to Review) is a page of its own:
        // Back returns to it.
        const steps = form.hasAttribute('data-navigates') && res.redirected;
        if (steps || !doc || doc.body.dataset.page !== document.body.dataset.page || otherRelease(doc)) {
          // A different page (checkout leads to Profile), or one of a newer release, whose
          // parts must not be mixed with this page's files: go there as a link would, to
          // the part it offers focus to (fetch drops the redirect's #fragment).
          const target = doc && doc.querySelector('main [id][tabindex="-1"]');
          location.assign(target ? `${res.url}#${target.id}` : res.url);
          return;
        }
        const message = takeNotice(doc);
        const restore = holdPlace(place);
        morphPage(doc);
        // Done: what the form's own script added and the answer made stale can go (devices.js).
        form.dispatchEvent(new CustomEvent('quickcart:posted'));
        const here = new URL(res.url);
        if (here.pathname + here.search !== location.pathname + location.search) {
          history.replaceState(history.state, '', here.pathname + here.search);
        }
        restore();
        const undo = placeUndo();
        if (message) say(message, undo ? `${message}. Undo available.` : message);
      })
      .catch(() => showError(form, submitter, 0, '', unsent));
  }

  // A form the server refused field by field (checkout's Delivery): its page comes back
  // (400) with everything typed and a message beside each wrong field. It is morphed in,
  // and focus goes to the first wrong field, as the page's autofocus does without script.
  function showRefusedFields(status, html) {
    const doc = status === 400 || status === 429 ? parse(html) : null;
    if (!doc || doc.body.dataset.page !== document.body.dataset.page || otherRelease(doc)) return false;
    if (!doc.querySelector('main [aria-invalid="true"]')) return false;
    morphPage(doc);
    const wrong = document.querySelector('main [autofocus]') || document.querySelector('main [aria-invalid="true"]');
    if (wrong) wrong.focus();
    return true;
  }

  // ---- the page refetches itself when the cart changed elsewhere -------------

  // Whether the page may re-read itself.
  function rereads() {
    if (!/^(home|search|cart|profile)$/.test(document.body.dataset.page || '')) return false;
    // A page holding what the shopper typed, or what they are about to order (checkout's
    // Delivery and Review), is never changed under them: its badge follows alone, and
    // Place order finds out on the server whether anything changed.
    return !document.querySelector('main [data-keeps-input]');
  }

  // Whether the page will show the news: false where it cannot re-read itself.
  function refresh() {
    if (!rereads()) return false;
    if (posting > 0) return true; // the post's answer brings the page; news after it refreshes then
    if (document.visibilityState === 'hidden') { staleWhileHidden = true; return true; }
    if (refreshing) { refreshAgain = true; return true; } // bursts coalesce into one more fetch
    const before = posted;
    refreshing = fetch(location.href, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'text/html', [REFRESH_HEADER]: '1' },
    })
      .then((res) => (res.ok && !res.redirected ? res.text() : null))
      .then((html) => {
        const doc = html && parse(html);
        if (!doc || doc.body.dataset.page !== document.body.dataset.page) { recoverLater(); return; }
        if (posting > 0 || posted !== before) { refreshAgain = true; return; } // older than a post's answer
        // A newer release's page is not morphed into this one: install.js offers a reload.
        if (otherRelease(doc)) {
          settleUncertain(true);
          document.dispatchEvent(new CustomEvent('quickcart:release'));
          return;
        }
        takeNotice(doc);
        keepUndo(doc);
        const restore = holdPlace(null);
        morphPage(doc);
        restore();
      })
      .catch(recoverLater) // offline or aborted: the next event, page load or recovery corrects it
      .finally(() => {
        refreshing = null;
        if (refreshAgain) { refreshAgain = false; refresh(); }
      });
    return true;
  }

  // ---- reading and morphing a fetched page ----------------------------------

  function otherRelease(doc) {
    return (doc.documentElement.dataset.release || '') !== (root.dataset.release || '');
  }

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

  // A refresh's page never carries a notice (the server keeps it for the page a post leads
  // to), so an Undo on show is carried into it: the news may be this page's own Remove, its
  // event arriving after the post's answer. When the cart did change meanwhile, the server
  // answers Undo with "That can no longer be undone."
  function keepUndo(doc) {
    const shown = document.querySelector('main [data-notice-undo]');
    if (!shown) return;
    const copy = doc.importNode(shown, true);
    const row = shown.closest('li[id]');
    const there = row && doc.getElementById(row.id);
    if (there) there.append(copy);
    else doc.querySelector('main').prepend(copy);
  }

  // Remove's Undo floats above the message, but in the Tab order it comes right after where
  // focus went (the end of the next row, or the heading of a cart now empty), not nine stops
  // away at the top of the page. Returns it, or null when the page shows none.
  function placeUndo() {
    const undo = document.querySelector('main [data-notice-undo]');
    const focused = document.activeElement;
    if (!undo || !focused || focused.localName === 'main' || !focused.closest('main')) return undo;
    const row = focused.closest('li[id]');
    if (row) row.append(undo);
    else focused.after(undo);
    return undo;
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
    settleUncertain();
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
    // Undo may sit in a row it does not belong to (placeUndo): its place is the row it puts back.
    const row = form.closest('[data-notice-undo]') ? null : form.closest('li[id]');
    const siblings = row ? Array.from(row.parentElement.children).filter((r) => r.id) : [];
    const at = siblings.indexOf(row);
    return {
      // The bar's own forms (the layout button) change the layout: nothing to hold there.
      inMain: !!form.closest('main'),
      element: control,
      control: control && controlKey(control, form),
      pressed: submitter && controlKey(submitter, form),
      row: row ? row.id : null,
      // Where focus belongs when the pressed control goes away with its press (Reset turns
      // itself off; Undo's notice goes): the id the form's answer without JavaScript leads to.
      after: form.dataset.focusAfter || null,
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

  // A field is named by its label: the theme's radios share their name and have no text.
  function accessibleName(el) {
    const label = el.labels && el.labels.length ? el.labels[0].textContent : el.textContent;
    return (el.getAttribute('aria-label') || label || '').replace(/\s+/g, ' ').trim();
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

  // The pressed control itself when the morph kept it in its form: a button named by what it
  // does ("Show sidebar") is named the other way after the press, so its key no longer matches.
  function kept(el, key) {
    const form = el && el.isConnected && el.closest('form');
    return form && (form.getAttribute('action') || '') === key.action && (el.getAttribute('name') || '') === key.name ? el : null;
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
        () => kept(place.element, place.control),
        () => findControl(place.control),
        () => row && nearestUsable(controlsIn(row), place.index),
        () => next && controlsIn(next)[place.index],
        () => next && controlsIn(next).find(usable),
        () => previous && controlsIn(previous)[place.index],
        () => previous && controlsIn(previous).find(usable),
        () => landing(place.after),
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

  // The element `id` names, to take focus: a row's first usable control, else the element
  // itself (a section's heading), made focusable from script only.
  function landing(id) {
    const el = id && document.getElementById(id);
    if (!el) return null;
    const control = el.matches('li') && controlsIn(el).find(usable);
    if (control) return control;
    if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
    return el;
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

  // Shown for the eyes (aria-hidden), spoken through the polite live region (`spoken`, when
  // it says more than the eyes need: the Undo beside the message is seen).
  function say(text, spoken = text) {
    announce(spoken);
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
    keepClearOf(messageBox);
    clearTimeout(messageTimer);
    messageTimer = setTimeout(() => messageBox.classList.remove('flash--visible'), MESSAGE_MS);
  }

  // The capsule must not hide the control just pressed, its focus ring or the quantity beside
  // it (WCAG 2.4.11): when it would, the page moves up by as much, as the root's scroll padding
  // keeps what Tab reaches clear of the tab bar. It rises 12 px into place (app.css), and a
  // focus ring reaches 5 px out.
  function keepClearOf(box) {
    const focused = document.activeElement;
    if (!focused || !focused.closest('main')) return;
    const capsule = box.getBoundingClientRect();
    const control = (focused.closest('li[id]') || focused).getBoundingClientRect();
    const overlap = control.bottom + 5 - (capsule.top - 16);
    if (overlap > 0 && control.right > capsule.left && control.left < capsule.right) window.scrollBy(0, overlap);
  }

  function serverMessage(html) {
    const doc = parse(html);
    const text = doc && doc.querySelector('.error-page p');
    return text ? text.textContent.trim() : '';
  }

  // An inline message beside the form that failed, with a way forward: Retry when nothing was
  // changed (the shop said so, or the post was never sent), Reload when the page itself is
  // stale. A post sent with no answer back may have been applied (the answer is what was
  // lost), and pressing again would apply it twice: so, as a careful shop does, no Retry, but
  // the page shows what the shop holds as soon as it answers, for the shopper to decide.
  function showError(form, submitter, status, text, unsent) {
    clearError(form);
    const uncertain = status === 0 && !unsent;
    const retry = status >= 500 || (status === 0 && unsent);
    const box = document.createElement('div');
    box.className = 'form-error';
    box.dataset.client = '';
    const words = document.createElement('p');
    words.textContent = text || (status !== 0 ? 'That did not work, so nothing was changed.'
      : unsent ? 'You’re offline, so this was not sent. What you entered is still here: Retry once you’re back online.'
        : rereads() ? 'Could not reach QuickCart, so this may or may not have been done. This page will show what QuickCart holds as soon as it answers.'
          : 'Could not reach QuickCart, so this may or may not have been done. Reload to see what QuickCart holds before trying again.');
    box.append(words);
    if (uncertain && rereads()) {
      box.dataset.uncertain = '';
      box.failedForm = form;
      box.failedSubmitter = submitter;
    } else {
      box.append(errorButton(form, submitter, box, retry));
    }
    // Inside the row (a list holds only rows), across its whole width; else after the form.
    const row = form.closest('li[id]');
    if (row) row.append(box);
    else form.after(box);
    form.errorBox = box;
    announce(words.textContent);
    // After this post's turn in the queue, so the read is not taken for its answer.
    if (box.dataset.uncertain !== undefined) setTimeout(recover, 0);
  }

  // Retry sends the form again as it is now; Reload loads the page.
  function errorButton(form, submitter, box, retry) {
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
    return button;
  }

  // ---- after a change that may or may not have been made ---------------------------

  let recoverTimer = 0;
  let recoverAttempts = 0;

  // Reads the page again while a change's fate is unknown: the morph (settleUncertain) ends it.
  function recover() {
    clearTimeout(recoverTimer);
    recoverTimer = 0;
    if (!document.querySelector('.form-error[data-uncertain]')) return;
    if (posting > 0) recoverLater(); // a post's answer may bring the page; else the read comes next
    else refresh();
  }

  // The shop did not answer the read: again later, backing off from 1 s to 30 s, ±30 %.
  function recoverLater() {
    if (recoverTimer || !document.querySelector('.form-error[data-uncertain]')) return;
    const delay = Math.min(30000, 1000 * 2 ** recoverAttempts) * (0.7 + Math.random() * 0.6);
    recoverAttempts += 1;
    recoverTimer = setTimeout(recover, delay);
  }

  // The page now shows what the shop holds: each message of a change in doubt says so, and
  // only now offers Retry, for the shopper who sees that the change is not there. When the
  // shop answered as a newer release, whose page is not morphed into this one, the message
  // offers Reload instead, to see what it holds before trying again.
  function settleUncertain(newRelease = false) {
    clearTimeout(recoverTimer);
    recoverTimer = 0;
    recoverAttempts = 0;
    for (const box of document.querySelectorAll('.form-error[data-uncertain]')) {
      delete box.dataset.uncertain;
      box.dataset.settled = '';
      const words = box.querySelector('p');
      words.textContent = newRelease
        ? 'QuickCart answered again, as a new version of the shop. Reload to see what it holds, and whether your change is there, before you try again.'
        : 'QuickCart answered again, and this page now shows what it holds. Check whether your change is there before you retry.';
      box.append(errorButton(box.failedForm, box.failedSubmitter, box, !newRelease));
      announce(words.textContent);
    }
  }

  function clearError(form) {
    if (form.errorBox) form.errorBox.remove();
    form.errorBox = null;
  }
}

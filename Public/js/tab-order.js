// The tab bar's layout, on Profile: drag to reorder its tabs. The Move up / Move down
// forms work on their own and stay (keyboards, switch access, screen readers). On top of
// them: drag a row by its grip with a finger, or anywhere on it with a mouse. Cart is
// pinned: it never moves and no row can take its slot, so it stays third. On drop the
// order is posted as the forms would post it, and the page reloads so the tab bar shows
// it.

import { announce, ownClasses, reduceMotion } from './page.js';

export function start() {
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

  ownClasses(list, 'tab-order--draggable', 'tab-order--dragging', 'tab-order--settling');
  list.classList.add('tab-order--draggable');
  for (const row of movable) {
    ownClasses(row, 'tab-order__item--dragging');
    const grip = document.createElement('span');
    grip.className = 'tab-order__handle';
    grip.setAttribute('aria-hidden', 'true'); // the buttons are the accessible way
    grip.dataset.client = ''; // kept when the page is morphed (morph.js)
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

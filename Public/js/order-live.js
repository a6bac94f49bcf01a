// An order's life, live: when one of the shopper's orders moves (the operator marked it paid,
// shipped, delivered or cancelled), the live badge's stream brings `event: order` and
// live-badge.js passes it on as `quickcart:order` (in every tab). A page that shows that order
// — Profile's list, or the order's own page — re-reads itself in place (forms.js's refresh,
// through the live badge's interface) and says "Order #N is now Shipped." in the polite live
// region. Other pages stay as they are. Without the script the page is right after each load.

import { announce } from './page.js';

export function start(live) {
  if (!live) return;
  document.addEventListener('quickcart:order', ({ detail }) => {
    if (!detail || typeof detail.number !== 'string' || typeof detail.label !== 'string') return;
    const shown = [...document.querySelectorAll('[data-order]')].some((el) => el.dataset.order === detail.number);
    if (!shown) return;
    live.refresh();
    announce(`Order #${detail.number} is now ${detail.label}.`);
  });
}

// What the page script's modules share: the document's root, the reduced-motion setting,
// the polite live region, and the mark of classes the script adds (read by morph.js).

export const root = document.documentElement;
const never = { matches: false, addEventListener() {} };
export const reduceMotion = window.matchMedia ? matchMedia('(prefers-reduced-motion: reduce)') : never;

// Speaks `text` through the page's polite live region; never moves focus.
export function announce(text) {
  const status = document.getElementById('live-status');
  if (!status) return;
  // Clearing first makes screen readers repeat an identical message.
  status.textContent = '';
  setTimeout(() => { status.textContent = text; }, 50);
}

// Marks `names` as classes the script may put on `el`, a server-rendered element: the
// morph keeps them when the server's copy of `el` lacks them, and brings the rest.
export function ownClasses(el, ...names) {
  const mine = new Set((el.dataset.clientClass || '').split(' ').filter(Boolean));
  for (const name of names) mine.add(name);
  el.dataset.clientClass = [...mine].join(' ');
}

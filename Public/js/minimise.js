// Minimise on scroll: scrolling down past the first screenful shrinks the bar (CSS:
// .tab-bar--minimized, icons only); scrolling up, reaching the end, or the top restores it.
// The page's bottom padding keeps the full bar's height, so nothing in the content moves.
// Not under prefers-reduced-motion: there the bar simply keeps its size (a sudden jump is
// motion too), and not in the wide sidebar, which does not cover content.

import { ownClasses, reduceMotion, root } from './page.js';

export function start() {
  const nav = document.querySelector('nav.tab-bar');
  if (!nav || !window.matchMedia || !window.requestAnimationFrame) return;

  const MINIMIZED = 'tab-bar--minimized';
  const THRESHOLD = 56;   // px from the top before the bar may shrink
  const SLOP = 8;         // direction changes smaller than this are jitter or rubber-banding
  const wide = matchMedia('(min-width: 48em)');
  let anchor = window.scrollY; // where the direction was last decided
  let queued = false;
  ownClasses(nav, MINIMIZED);

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

// Continue on another device, live. Without it the code page says how long the code lasts as
// of its loading, and Profile lists a device that joined the next time it is opened. With it:
//   · the code page counts down ("expires in 9 minutes", then seconds), and when the code has
//     expired takes it off the page and says so;
//   · the device that showed a code hears at once when another device joined with it, from
//     the live badge's stream (`event: device-joined`, handed on as `quickcart:device-joined`),
//     with a Sign it out button that posts like every form, and goes once it has.

import { announce } from './page.js';

export function start() {
  const navigation = performance.getEntriesByType ? performance.getEntriesByType('navigation')[0] : null;
  startCountdown(navigation ? navigation.responseStart : 0);
  // A page morphed in (a new code shown in place, the page re-read) brings its own count.
  document.addEventListener('quickcart:morphed', () => startCountdown(performance.now()));
  document.addEventListener('quickcart:device-joined', (event) => showJoined(event.detail));
}

let countdown = 0;

// Counts down the seconds the server said were left (`data-seconds-left`), from `answered`
// (when it said so, on the page's clock): the device's own clock, which may be off, is never
// read. At the end, the code, its QR code and link go, as on the page the server then shows.
function startCountdown(answered) {
  clearTimeout(countdown);
  const holder = document.querySelector('[data-seconds-left]');
  const words = holder && holder.querySelector('[data-expires-in]');
  if (!words) return;
  const end = answered + Number(holder.dataset.secondsLeft) * 1000;
  const tick = () => {
    const ms = end - performance.now();
    if (ms <= 0) {
      for (const part of document.querySelectorAll('[data-live-code]')) part.hidden = true;
      holder.textContent = 'This code has expired. Show a new code.';
      announce(holder.textContent);
      return;
    }
    words.textContent = wording(ms);
    countdown = setTimeout(tick, ms > 60000 ? ms % 60000 || 60000 : 1000);
  };
  tick();
}

function wording(ms) {
  if (ms >= 60000) {
    const minutes = Math.ceil(ms / 60000);
    return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  }
  const seconds = Math.ceil(ms / 1000);
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

function showJoined(data) {
  let notice;
  try { notice = JSON.parse(data); } catch { return; }
  const main = document.querySelector('main');
  const csrf = document.querySelector('input[name="csrf"]');
  if (!main || typeof notice.text !== 'string') return;
  const box = document.createElement('div');
  box.className = 'notice notice--info';
  box.setAttribute('role', 'status');
  box.dataset.deviceJoined = '';
  // Kept when the page morphs (morph.js): the join's own count change re-reads the page.
  box.dataset.client = '';
  const text = document.createElement('p');
  text.className = 'notice__text';
  text.textContent = notice.text;
  box.append(text);
  if (csrf && typeof notice.device === 'string') {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = '/profile/devices/sign-out';
    // Back to this page, wherever the notice came: signed out, the device is gone from the
    // devices list, and the offer with it; focus goes to the list on Profile, else to the
    // page's heading (forms.js).
    form.dataset.focusAfter = 'devices-title';
    form.addEventListener('quickcart:posted', () => box.remove());
    const here = location.pathname + location.search;
    for (const [name, value] of [['csrf', csrf.value], ['device', notice.device], ['return_to', here]]) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = name;
      input.value = value;
      form.append(input);
    }
    const button = document.createElement('button');
    button.type = 'submit';
    button.className = 'button button--plain';
    button.textContent = 'Sign it out';
    form.append(button);
    box.append(form);
  }
  main.prepend(box);
  announce(notice.text);
}

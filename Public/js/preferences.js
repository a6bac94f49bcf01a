// Preferences: the theme applies as soon as it is chosen, and theme, layout and
// notifications follow across open tabs.

import { root } from './page.js';

export function start() {
  applyOnChange();
  sharePreferences();
}

// Theme, layout and notifications are per session, but saving one reloads only the
// tab it was saved in. Each freshly loaded page says what it was rendered with, and
// the session's other open tabs take it on without a reload. The browser's own bar
// colour (meta theme-color) follows the theme in use.
function sharePreferences() {
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
  // A form posted in place (forms.js) brings the server's latest too.
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

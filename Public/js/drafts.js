// What is typed into a form marked data-draft="KEY" (checkout's delivery details) is kept in
// this tab's sessionStorage as it is typed, and put back when its page is loaded again: a
// reload, or Back to it after leaving, keeps every field as it was left, even one the server
// has not seen yet. A page marked data-draft-clear="KEY" (Review, once the details are saved;
// Profile, showing them) ends the draft: the server holds the details from then on.
// Without script the browser's own form restoration and the server's saved details do this.

const PREFIX = 'quickcart-draft:';

export function start() {
  let storage;
  try {
    storage = window.sessionStorage;
    if (!storage) return;
  } catch {
    return; // storage refused (a privacy setting): forms work as without script
  }
  for (const mark of document.querySelectorAll('[data-draft-clear]')) storage.removeItem(PREFIX + mark.dataset.draftClear);
  for (const form of document.querySelectorAll('form[data-draft]')) restore(form, storage);

  const keep = (event) => {
    const form = event.target && event.target.form;
    if (!form || !form.dataset.draft) return;
    const values = {};
    for (const field of form.elements) {
      if (!field.name || field.type === 'hidden' || field.type === 'submit') continue;
      if (field.type === 'radio') { if (field.checked) values[field.name] = field.value; continue; }
      values[field.name] = field.value;
    }
    try { storage.setItem(PREFIX + form.dataset.draft, JSON.stringify(values)); } catch { /* full: the server's copy stays */ }
  };
  document.addEventListener('input', keep);
  document.addEventListener('change', keep);
}

function restore(form, storage) {
  let values = null;
  try { values = JSON.parse(storage.getItem(PREFIX + form.dataset.draft) || 'null'); } catch { values = null; }
  if (!values || typeof values !== 'object') return;
  for (const [name, value] of Object.entries(values)) {
    const field = form.elements.namedItem(name);
    if (!field || typeof value !== 'string') continue;
    if (field instanceof RadioNodeList) {
      for (const radio of field) radio.checked = radio.value === value;
    } else if (field.type !== 'hidden') {
      field.value = value;
    }
  }
}

// The morph, for forms.js: turns `from` into `to` in place, reusing nodes that match: by
// id (or the data-tab and data-product keys), else the next node of the same kind. What
// the script adds is kept: elements marked data-client, and on server-rendered elements
// the classes their data-client-class names (page.js, ownClasses).

// The attribute naming an element's classes that are the script's, not the server's.
const CLIENT_CLASSES = 'data-client-class';

export function morph(from, to) {
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
    if (name !== 'class' && name !== CLIENT_CLASSES && !to.hasAttribute(name)) from.removeAttribute(name);
  }
  const mine = (from.getAttribute(CLIENT_CLASSES) || '').split(' ');
  const kept = Array.from(from.classList).filter((c) => mine.includes(c));
  const classes = [...(to.getAttribute('class') || '').split(/\s+/).filter(Boolean), ...kept].join(' ');
  if ((from.getAttribute('class') || '') !== classes) {
    if (classes) from.setAttribute('class', classes);
    else from.removeAttribute('class');
  }
  if (from.localName === 'input' && (from.type === 'radio' || from.type === 'checkbox')) {
    from.checked = to.hasAttribute('checked');
  }
}

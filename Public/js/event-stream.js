// The live badge's event stream, read with fetch rather than EventSource, which hides why a
// stream failed. Three things look alike through EventSource and are not:
//   · refused: the server answered, with 503 and Retry-After (too many streams from one
//     address, say many shoppers behind one carrier-grade NAT), and said when to come back;
//     the network is fine, and the page says nothing of being offline;
//   · ended: the server closed a stream it had opened (its hour is up, or it is stopping);
//   · failed: no answer at all, or the connection broke: the network is gone, or the shop;
//     or the stream went silent, longer than its keep-alive comments allow. A connection that
//     a NAT or a tunnel forgot fails no read and gets no FIN or RST: it only goes quiet, so
//     silence is the one sign of it. (Read with fetch, the comments are seen; EventSource
//     hides them.)
//
// connect(url, handlers) starts one attempt and returns a function that abandons it.
// handlers: onOpen(), onEvent(name, data), onRetry(ms) (the stream's `retry:`),
// onRefused(ms or null), onEnded(), onFailed(), and quietLimit(): the longest silence, in
// ms, before the first bytes or between two reads, after which the attempt has failed.

export function connect(url, handlers) {
  const abort = new AbortController();
  let done = false;
  let heard = Date.now();     // when the last bytes came (or the attempt started)
  let watchdog = 0;
  const once = (name, ...values) => {
    if (done) return;
    done = true;
    clearTimeout(watchdog);
    handlers[name](...values);
  };
  // Compares times rather than trusting one long timer, which a background tab may delay.
  const watch = () => {
    const quiet = Date.now() - heard;
    const limit = handlers.quietLimit();
    if (quiet < limit) { watchdog = setTimeout(watch, limit - quiet); return; }
    once('onFailed');
    abort.abort();
  };
  watchdog = setTimeout(watch, handlers.quietLimit());
  const hear = () => { heard = Date.now(); };

  fetch(url, {
    headers: { Accept: 'text/event-stream' },
    cache: 'no-store',
    credentials: 'same-origin',
    signal: abort.signal,
  }).then((response) => {
    const type = response.headers.get('Content-Type') || '';
    if (!response.ok || !type.startsWith('text/event-stream')) {
      if (response.body) response.body.cancel().catch(() => {});
      once('onRefused', retryAfter(response));
      return undefined;
    }
    hear();
    handlers.onOpen();
    return read(response.body, handlers, () => done, hear).then(() => once('onEnded'));
  }).catch(() => once('onFailed'));

  return () => {
    done = true;
    clearTimeout(watchdog);
    abort.abort();
  };
}

// Milliseconds a refusal asks the client to wait (Retry-After: seconds, or a date), else null.
function retryAfter(response) {
  if (response.status !== 503 && response.status !== 429) return null;
  const value = (response.headers.get('Retry-After') || '').trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

// Reads server-sent events (the text/event-stream format) until the stream ends; `heard()`
// on every read, a keep-alive comment's included.
async function read(body, handlers, abandoned, heard) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let name = '';
  let data = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (abandoned()) { reader.cancel().catch(() => {}); return; }
    if (done) return;
    heard();
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop();
    for (const raw of lines) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line === '') {
        if (data.length) handlers.onEvent(name || 'message', data.join('\n'));
        name = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue; // a keep-alive comment
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let text = colon < 0 ? '' : line.slice(colon + 1);
      if (text.startsWith(' ')) text = text.slice(1);
      if (field === 'event') name = text;
      else if (field === 'data') data.push(text);
      else if (field === 'retry' && /^\d+$/.test(text)) handlers.onRetry(Number(text));
    }
  }
}

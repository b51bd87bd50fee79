// Keeping the table fresh: a long poll while the page is shown, plain polling otherwise.
//
// Shown: ask ?since_version=N&wait=25 (with the ETag): the server answers as soon as the
// table moves past N (200), or with 304 after up to 25 s, and the page asks again at
// once. A 304 that comes back quickly means the server did not wait (a WSGI server, Redis
// down: docs/scaling.md, "Polling"): then the page falls back to asking every 3 s.
// Hidden: every 15 s, without waiting. An error: try again in 3 s.

export const POLL_MS = 3000;
export const POLL_HIDDEN_MS = 15000;
export const WAIT_SECONDS = 25;
// A 304 sooner than this (ms) after asking to wait: the server answered without waiting.
const WAITED_MS = 1000;

// ``client`` (api.js), ``url`` the table's API address, ``store`` the page state (its
// ``table.version``, ``etag`` and ``busy``). Callbacks: ``onTable(json)`` when the table
// changed, ``onSame()`` on 304, ``onOffline()`` when the request failed; ``isActive()``
// says whether to keep polling (the match is not over). Returns {schedule(ms?)}.
export function createPoll({ client, url, store, isActive, onTable, onSame, onOffline }) {
  let timer = null;
  let asking = false; // one request at a time: a wait may be open for 25 s

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(tick, ms === undefined ? (document.hidden ? POLL_HIDDEN_MS : POLL_MS) : ms);
  }

  async function tick() {
    if (asking) return; // the open request schedules the next when it ends
    if (store.busy) return schedule();
    const waits = !document.hidden;
    let next; // undefined: the plain interval
    asking = true;
    try {
      const since = `since_version=${store.table.version}`;
      const started = Date.now();
      const address = waits ? `${url}?${since}&wait=${WAIT_SECONDS}` : `${url}?${since}`;
      const answer = await client.get(address, { etag: store.etag });
      if (answer.status === 200 && !store.busy && answer.data.version >= store.table.version) {
        if (answer.etag) store.etag = answer.etag;
        onTable(answer.data);
        if (waits) next = 0;
      } else if (answer.status === 304) {
        if (answer.etag) store.etag = answer.etag;
        onSame();
        if (waits && Date.now() - started >= WAITED_MS) next = 0;
      }
    } catch (error) {
      onOffline();
    } finally {
      asking = false;
    }
    if (isActive()) schedule(next);
  }

  return { schedule };
}

// Polling: the table is asked for every 3 s while the page is shown (15 s when hidden).
// The first look asks by version (?since_version=N), later ones by the ETag the API
// answered with (If-None-Match): 304 while nothing changed.

export const POLL_MS = 3000;
export const POLL_HIDDEN_MS = 15000;

// ``client`` (api.js), ``url`` the table's API address, ``store`` the page state (its
// ``table.version``, ``etag`` and ``busy``). Callbacks: ``onTable(json)`` when the table
// changed, ``onSame()`` on 304, ``onOffline()`` when the request failed; ``isActive()``
// says whether to keep polling (the match is not over). Returns {schedule(ms?)}.
export function createPoll({ client, url, store, isActive, onTable, onSame, onOffline }) {
  let timer = null;

  function schedule(ms) {
    clearTimeout(timer);
    timer = setTimeout(tick, ms === undefined ? (document.hidden ? POLL_HIDDEN_MS : POLL_MS) : ms);
  }

  async function tick() {
    if (store.busy) return schedule();
    try {
      const address = store.etag ? url : `${url}?since_version=${store.table.version}`;
      const answer = await client.get(address, { etag: store.etag });
      if (answer.etag) store.etag = answer.etag;
      if (answer.status === 200 && !store.busy) onTable(answer.data);
      else if (answer.status === 304) onSame();
    } catch (error) {
      onOffline();
    }
    if (isActive()) schedule();
  }

  return { schedule };
}

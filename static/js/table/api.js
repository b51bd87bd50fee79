// The API client: JSON over fetch with the session cookie and the CSRF token, answers
// read with the error contract ({code, detail, rule?, fields?, retry_after?}: docs/api.md,
// "The error contract"), and a POST that is retried when it may not have arrived.
//
// A retry is safe only when the server can tell it from a second move: so a POST is
// retried only when it carries an ``Idempotency-Key``, and every retry sends the SAME
// key (the server answers a repeated key with the first answer and changes nothing).
// The caller mints one key per intent (one click), never one per request.

// Waits before the 1st, 2nd and 3rd retry; a 503's Retry-After may ask for longer.
export const RETRY_DELAYS_MS = [500, 1000, 2000];
const LONGEST_WAIT_MS = 5000;
// Answers that say the server did not do the work (or may not have): try again.
const RETRY_STATUSES = new Set([500, 502, 503, 504]);

// A fresh Idempotency-Key: a random UUID (32 hex digits where randomUUID is missing).
export function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// How long a 503 asks us to wait (Retry-After in seconds), in ms; 0 when it does not say.
function retryAfterMs(response) {
  const seconds = Number(response.headers.get("Retry-After"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, LONGEST_WAIT_MS) : 0;
}

// Answers that say nobody is signed in: the session ended (signed out in another tab).
const SIGNED_OUT_CODES = new Set(["not_authenticated", "authentication_failed"]);

// True once an answer said the session ended and the page's notice shows it.
export function sessionEnded() {
  const notice = document.getElementById("session-ended");
  return Boolean(notice && !notice.hidden);
}

// A 401/403 that says nobody is signed in: show the page's notice, "Tu sesión ha terminado:
// vuelve a entrar." with its link to sign in and come back (templates/base.html), and give
// the caller its sentence as the ``detail``. One place for every request of every page; the
// message lines stay quiet while it shows (dom.js say, talk.js). A page with no notice (no
// one was signed in when it was drawn) keeps the server's words.
function noticeSessionEnded(status, error) {
  const notice = document.getElementById("session-ended");
  if (!notice || (status !== 401 && status !== 403) || !SIGNED_OUT_CODES.has(error.code)) return;
  notice.hidden = false;
  error.detail = notice.textContent.trim().replace(/\s+/g, " ");
  error.sessionEnded = true;
}

// {ok, status, data, etag, error}: ``data`` the JSON body ({} when there is none),
// ``error`` null or {code, detail, rule, fields, retryAfter, sessionEnded?} (detail falls
// back to the status text, code to null when the body is not the contract's).
async function answerOf(response) {
  const data = response.status === 304 ? null : await response.json().catch(() => ({}));
  const etag = response.headers.get("ETag");
  if (response.ok || response.status === 304) return { ok: response.ok, status: response.status, data, etag, error: null };
  const body = data || {};
  const error = {
    code: body.code || null,
    detail: body.detail || response.statusText,
    rule: body.rule || null,
    fields: body.fields || null,
    retryAfter: body.retry_after || null,
  };
  noticeSessionEnded(response.status, error);
  return { ok: false, status: response.status, data: body, etag, error };
}

// The client for one page: ``csrfToken`` goes with every POST (session authentication).
export function apiClient(csrfToken) {
  // GET ``url``; with ``etag`` the server may answer 304 (status 304, data null).
  async function get(url, { etag = null } = {}) {
    const headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    return answerOf(await fetch(url, { headers, credentials: "same-origin" }));
  }

  // POST ``body`` (JSON) to ``url``. With ``idempotencyKey`` a network failure or a 5xx
  // is retried after RETRY_DELAYS_MS with the same key; the last answer is returned, and
  // a network failure on the last try is thrown (a TypeError, as fetch throws it).
  async function post(url, body, { idempotencyKey = null, retryDelays = RETRY_DELAYS_MS } = {}) {
    const headers = {
      "Content-Type": "application/json",
      Accept: "application/json",
      "X-CSRFToken": csrfToken,
    };
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    const delays = idempotencyKey ? retryDelays : [];
    const request = { method: "POST", credentials: "same-origin", headers };
    if (body !== undefined) request.body = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      let response;
      try {
        response = await fetch(url, request);
      } catch (error) {
        if (attempt >= delays.length) throw error;
        await sleep(delays[attempt]);
        continue;
      }
      if (!RETRY_STATUSES.has(response.status) || attempt >= delays.length) return answerOf(response);
      await sleep(Math.max(delays[attempt], retryAfterMs(response)));
    }
  }

  return { get, post };
}

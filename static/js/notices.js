// The settings page's "Avisos" section: a player who never chose a time zone (still the
// default UTC: the head's time-zone-unset, js/time_zone.js) gets the browser's own
// preselected, to confirm with "Guardar avisos".
const zone = document.querySelector("#avisos select[name=time_zone]");
const guess = Intl.DateTimeFormat().resolvedOptions().timeZone;
const unset = document.querySelector("meta[name=time-zone-unset]");
if (zone && unset && zone.value === "UTC" && guess && guess !== "UTC") {
  if ([...zone.options].some((option) => option.value === guess)) {
    zone.value = guess;
    zone.dataset.guessed = "true";
  }
}

// "Recibir avisos en este dispositivo": subscribe this browser with the Push API (the
// server's VAPID key) and tell the server (POST/DELETE /api/v1/push/subscriptions/).
const box = document.querySelector("#avisos [data-push-key]");
const toggle = box?.querySelector("[data-push-switch]");
const status = box?.querySelector("[data-push-status]");

function say(key, detail = "") {
  if (status) status.textContent = [box.dataset[key] || "", detail].filter(Boolean).join(" ");
}

// Why turning the switch on or off failed, in words: the browser's permission refused
// (NotAllowedError), its push service out of reach (a private window, a browser without
// one: AbortError, NotSupportedError, InvalidStateError, SecurityError), the server's
// refusal (its sentence), or else the browser's own message after "No se pudo cambiar".
const UNAVAILABLE = ["AbortError", "NotSupportedError", "InvalidStateError", "SecurityError"];

function said(error) {
  const message = error?.message || "";
  return message && `${box.dataset.browserSaid} «${message}»`;
}

function explain(error) {
  if (error?.name === "NotAllowedError") say("denied");
  else if (error instanceof ServerRefusal) say("refused", error.message);
  else if (UNAVAILABLE.includes(error?.name)) say("unavailable", said(error));
  else say("failed", said(error));
}

class ServerRefusal extends Error {}

function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function tellServer(method, body) {
  const csrf = document.querySelector("#avisos input[name=csrfmiddlewaretoken]")?.value;
  const response = await fetch(box.dataset.subscriptions, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf || "" },
    body: JSON.stringify(body),
  });
  if (!response.ok && !(method === "DELETE" && response.status === 404)) {
    const answer = await response.json().catch(() => ({}));
    const sentences = Object.values(answer.fields || {}).flat().filter((x) => typeof x === "string");
    throw new ServerRefusal(sentences[0] || answer.detail || `HTTP ${response.status}`);
  }
}

async function subscribe(registration) {
  if ((await Notification.requestPermission()) !== "granted") {
    say("denied");
    return false;
  }
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(box.dataset.pushKey),
  });
  await tellServer("POST", subscription.toJSON());
  return true;
}

async function unsubscribe(registration) {
  const subscription = await registration.pushManager.getSubscription();
  if (subscription) {
    await tellServer("DELETE", { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
  }
  return false;
}

async function setUp() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say("unsupported");
    return;
  }
  let registration;
  try {
    registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
  } catch (error) {  // a private window may refuse service workers
    say("unavailable", said(error));
    return;
  }
  toggle.checked = Boolean(await registration.pushManager.getSubscription());
  toggle.disabled = false;
  say(toggle.checked ? "on" : "off");
  toggle.addEventListener("change", async () => {
    toggle.disabled = true;
    try {
      toggle.checked = await (toggle.checked ? subscribe : unsubscribe)(registration);
      if (status.textContent !== box.dataset.denied) say(toggle.checked ? "on" : "off");
    } catch (error) {
      toggle.checked = Boolean(await registration.pushManager.getSubscription());
      explain(error);
    } finally {
      toggle.disabled = false;
    }
  });
}

if (toggle) setUp();

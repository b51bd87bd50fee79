// Table talk: the panel beside the log (templates/moderation/talk_panel.html). It reads
// the talk from the API (moderation.api.TalkApi), polled with the table: again whenever
// the table's version changes (a hand that ends delivers what partners wrote during it)
// and on its own timer otherwise. Messages are drawn as text, never as HTML.
//
// At a partnership table what a player writes during a hand reaches nobody until the hand
// ends (the server holds it); the rule is said under the text box, where one types.

import { apiClient, sessionEnded } from "./api.js";
import { fmt, h, keepTiles } from "./dom.js";
import { said } from "./log.js";
import { T, csrfToken, root } from "./page.js";
import { POLL_HIDDEN_MS, POLL_MS } from "./poll.js";

const TALK_POLL_MS = POLL_MS * 2;
const panel = document.getElementById("talk");
// A table closed before its match began has no talk panel, nor its words.
const words = panel ? JSON.parse(document.getElementById("talk-strings").textContent) : {};
const client = apiClient(csrfToken);
const byId = (id) => document.getElementById(id);

let talk = null; // the last answer of GET talk
let timer = null;
let reportTarget = null; // {message} or {} (a player, chosen in the form)
let reportable = []; // the other human players: [{seat, name}]

function status(text, kind) {
  if (kind === "error" && sessionEnded()) text = kind = ""; // the notice says it (api.js)
  const box = byId("talk-status");
  box.textContent = text || "";
  box.className = "talk-status" + (kind ? " " + kind : "");
}

// "tras la jugada 5 de la mano 1 (ana jugó 6-4)": the move a message followed, at every
// table (a held message shows there once its hand is over; any other says where in the
// hand it was written). Between hands it says "al empezar la mano 2" (the next hand is
// dealt as one ends) and after the match "con la partida ya terminada", not the last move.
function followed(message) {
  if (message.hand === null) return null;
  if (message.written === "match_over") return words.match_over;
  const hand = message.hand + 1;
  const move = message.after_move;
  if (!move) return fmt(words.before_first, { hand });
  // As the log says it: a lead is "salió con 6-6", the reader's own "saliste con 6-6"; a
  // draw is one move, so one tile ("robó 1 ficha").
  const play = move.lead ? "log_lead" : "log_play";
  const key = move.kind === "play" ? play : move.kind === "draw" ? "log_draws" : "log_pass";
  const what = said(key, move.seat, { tile: move.tile, n: 1 }, { inline: true });
  return fmt(words.after_move, { n: move.sequence + 1, hand, move: what });
}

// When a message was written, with the month's name as the inbox writes dates: "3 dic,
// 13:21" ("3 Dec, 13:21"), the year too when it is not this one ("3 dic 2025, 13:21"),
// never "3/12/26" (12 March to some readers). English day first, as the site's Spanish.
// In the player's saved zone (#table's data-time-zone, notices' "Zona horaria"), as the
// inbox and the e-mails write it; in the browser's while none is saved.
const DATE_LOCALE = document.documentElement.lang === "en" ? "en-GB" : document.documentElement.lang || "es";
const TIME_ZONE = knownZone(root.dataset.timeZone);

function knownZone(name) {
  if (!name) return undefined;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return name;
  } catch {
    return undefined; // a name this browser does not know: its own zone
  }
}

function yearOf(date) {
  return new Intl.DateTimeFormat("en", { year: "numeric", timeZone: TIME_ZONE }).format(date);
}

function written(iso) {
  const date = new Date(iso);
  const options = { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: TIME_ZONE };
  if (yearOf(date) !== yearOf(new Date())) options.year = "numeric";
  return new Intl.DateTimeFormat(DATE_LOCALE, options).format(date);
}

// The zone of those times, named under the panel's title as the inbox and the admin name
// theirs ("Fechas en hora de America/Havana."): the saved one, which the page already
// wrote, or the browser's, which only this script knows.
const zoneNote = byId("talk-zone");
if (zoneNote) {
  const zone = TIME_ZONE || Intl.DateTimeFormat().resolvedOptions().timeZone;
  zoneNote.textContent = fmt(words.time_zone, { zone });
}

function messageItem(message) {
  const when = written(message.created_at);
  const who = message.mine ? words.you : message.name;
  const marker = followed(message);
  const tools = [];
  if (!message.mine && !message.removed) {
    const label = fmt(words.report_named, { name: message.name, text: shortened(message.text) });
    tools.push(h("button", { type: "button", class: "link", text: words.report, "aria-label": label, onclick: () => openReport({ message }) }));
    tools.push(h("button", { type: "button", class: "link", text: fmt(words.mute_person, { name: message.name }), onclick: () => mutePerson(message) }));
  }
  return h(
    "li",
    { class: "talk-message" + (message.mine ? " mine" : "") + (message.pending ? " pending" : ""), "data-id": message.id },
    h("p", { class: "talk-head" }, h("strong", { text: who }), " ", h("time", { datetime: message.created_at, text: when })),
    message.removed
      ? h("p", { class: "talk-removed", text: fmt(words.removed, { reason: message.removed_reason }) })
      : h("p", { class: "talk-text", text: message.text }),
    marker ? h("p", { class: "talk-marker" }, keepTiles(marker)) : null,
    message.pending ? h("p", { class: "talk-marker", text: words.pending }) : null,
    tools.length ? h("p", { class: "talk-actions" }, tools) : null,
  );
}

// A message's first words, for the name of the button that reports it.
function shortened(text) {
  const words = String(text || "").replace(/\s+/g, " ").trim();
  return words.length > 40 ? words.slice(0, 39) + "…" : words;
}

// What the list shows, in one string: the list (a live region) changes only when this
// does, so a poll that brings nothing new says nothing; new messages at its end are
// added, so only they are read out.
function messageKey(message) {
  return JSON.stringify([message.id, message.removed, message.pending, message.text, followed(message)]);
}
let shownKeys = null;

function renderList() {
  const list = byId("talk-list");
  const keys = talk.messages.map(messageKey);
  const empty = talk.messages.length ? "" : emptyText();
  if (shownKeys && keys.join("\n") === shownKeys.keys.join("\n") && empty === shownKeys.empty) return;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
  const old = shownKeys ? shownKeys.keys : [];
  const grows = old.length > 0 && keys.length > old.length && old.every((key, i) => key === keys[i]);
  if (grows) list.append(...talk.messages.slice(old.length).map(messageItem));
  else list.replaceChildren(...(empty ? [h("li", { class: "empty", text: empty })] : talk.messages.map(messageItem)));
  shownKeys = { keys, empty };
  if (atBottom) list.scrollTop = list.scrollHeight;
}

function render() {
  if (!talk) return;
  renderList();
  byId("talk-rule").textContent = talk.held ? words.held_rule : words.open_rule;
  byId("talk-rule").classList.toggle("held", talk.held);
  const closed = talk.moderation.map((a) => fmt(words.moderation, { action: a.label, reason: a.reason }));
  byId("talk-moderation").hidden = !closed.length;
  byId("talk-moderation").textContent = closed.join(" · ");
  byId("talk-mute").textContent = talk.muted ? words.unmute_table : words.mute_table;
  renderMutedPeople();
  for (const node of [byId("talk-form"), byId("talk-phrases")]) node.hidden = !talk.can_post;
  if (!talk.can_post) status(words.suspended, "error");
  renderPhrases();
}

// What an empty list says: "Aún no hay mensajes.", unless the reader's mutes hide some
// (talk.hidden, delivered messages only): then that they are hidden and whose, "Los
// mensajes de alice están ocultos.", over the way back (renderMutedPeople; for the table's
// talk the "Volver a oír la charla de esta mesa" link under the panel).
function emptyText() {
  if (!talk.hidden) return words.empty;
  if (talk.muted) return words.hidden_table;
  const names = (talk.muted_people || []).filter((person) => person.hidden).map((person) => person.name);
  if (!names.length) return words.hidden_some; // their author no longer seated here
  const list = new Intl.ListFormat(document.documentElement.lang || "es", { type: "conjunction" });
  return fmt(words.hidden_people, { names: list.format(names) });
}

// "Has silenciado a alice en todas las mesas · Volver a oír": a muted person's messages
// are gone from the list (and with them the link that muted her), so the way back stays.
function renderMutedPeople() {
  const box = byId("talk-muted");
  const people = talk.muted_people || [];
  box.replaceChildren(
    ...people.map((person) => h(
      "li",
      { "data-seat": person.seat },
      fmt(words.muted_note, { name: person.name }),
      " · ",
      h("button", {
        type: "button",
        class: "link",
        text: words.hear_again,
        "aria-label": fmt(words.unmute_person, { name: person.name }),
        onclick: () => unmutePerson(person),
      }),
    )),
  );
  box.hidden = !people.length;
}

function renderPhrases() {
  const box = byId("talk-phrases");
  if (box.childElementCount) return;
  for (const phrase of talk.phrases) {
    box.append(h("button", { type: "button", class: "phrase", text: phrase.text, onclick: () => send({ phrase: phrase.key }) }));
  }
}

async function refresh() {
  clearTimeout(timer);
  try {
    const answer = await client.get(panel.dataset.url);
    if (answer.ok) {
      talk = answer.data;
      render();
    }
  } catch (error) {
    // offline: the table's own poll says so; try again on the next tick
  }
  timer = setTimeout(refresh, document.hidden ? POLL_HIDDEN_MS : TALK_POLL_MS);
}

async function send(body) {
  status(T.sending);
  const answer = await client.post(panel.dataset.url, body).catch(() => null);
  if (!answer) return status(T.offline, "error");
  if (!answer.ok) return status(fmt(words.refused, { detail: answer.error.detail }), "error");
  talk = answer.data;
  render();
  const list = byId("talk-list");
  list.scrollTop = list.scrollHeight;
  status(talk.held ? words.sent_held : words.sent, "ok");
  return true;
}

async function submitText(event) {
  event.preventDefault();
  const box = byId("talk-text");
  const text = box.value.trim();
  if (!text) {
    box.focus();
    return status(fmt(words.refused, { detail: words.empty_text }), "error");
  }
  if (await send({ text })) {
    box.value = "";
    countCharacters();
  }
}

function countCharacters() {
  const left = 300 - byId("talk-text").value.length;
  byId("talk-count").textContent = left < 60 ? String(left) : "";
}

async function toggleTableMute() {
  if (talk && talk.muted) {
    const mutes = await client.get(panel.dataset.mutes).catch(() => null);
    const mine = mutes && (mutes.data || []).find((m) => m.table === talk.table);
    if (mine) await deleteMute(mine);
  } else {
    await client.post(panel.dataset.mute, {}).catch(() => null);
  }
  refresh();
}

// DELETE talk/mutes/{id}/ (api.js knows GET and POST; the CSRF token goes along); true
// once the mute is gone.
async function deleteMute(mute) {
  const response = await fetch(`${panel.dataset.mutes}${mute.id}/`, {
    method: "DELETE",
    credentials: "same-origin",
    headers: { "X-CSRFToken": csrfToken, Accept: "application/json" },
  }).catch(() => null);
  return Boolean(response && response.ok);
}

// Muting a person hides their messages at every table: asked first, undone from the note
// under the talk (renderMutedPeople) or the settings page's "Jugadores silenciados".
async function mutePerson(message) {
  if (!window.confirm(fmt(words.mute_confirm, { name: message.name }))) return;
  const answer = await client.post(panel.dataset.mute, { seat: message.seat }).catch(() => null);
  if (!answer) status(T.offline, "error");
  else if (!answer.ok) status(fmt(words.refused, { detail: answer.error.detail }), "error");
  else status(""); // the note under the talk says it, with the way back
  refresh();
}

async function unmutePerson(person) {
  if (await deleteMute(person)) status(fmt(words.unmuted_person, { name: person.name }), "ok");
  else status(words.unmute_failed, "error");
  refresh();
}

// --- reports ---------------------------------------------------------------------------

function openReport(target) {
  reportTarget = target;
  const form = byId("talk-report");
  const select = byId("talk-report-reason");
  select.replaceChildren(...talk.report_reasons.map((r) => h("option", { value: r.key, text: r.text })));
  const title = target.message ? words.report_message : words.report_player_title;
  byId("talk-report-title").textContent = title;
  // A player's report picks whom first, under its own label ("Jugador"), then why.
  const seats = byId("talk-report-seat");
  seats.replaceChildren(...(target.message ? [] : reportable.map((p) => h("option", { value: p.seat, text: p.name }))));
  byId("talk-report-who").hidden = Boolean(target.message);
  form.hidden = false;
  (target.message ? select : seats).focus();
}

async function submitReport(event) {
  event.preventDefault();
  const body = { reason: byId("talk-report-reason").value, text: byId("talk-report-text").value.trim() };
  if (reportTarget.message) body.message = reportTarget.message.id;
  else body.seat = Number(byId("talk-report-seat").value);
  const answer = await client.post(panel.dataset.reports, body).catch(() => null);
  if (!answer) return status(T.offline, "error");
  if (!answer.ok) return status(fmt(words.refused, { detail: answer.error.detail }), "error");
  closeReport();
  status(words.report_sent, "ok");
}

function closeReport() {
  byId("talk-report").hidden = true;
  byId("talk-report-text").value = "";
  reportTarget = null;
}

// The people one may report: the table's other human players (from the table JSON).
function reportablePlayers() {
  const table = JSON.parse(document.getElementById("table-data").textContent);
  const mine = new Set(table.your_seats || [table.your_seat]);
  const seen = new Set();
  return table.players.filter((p) => {
    if (p.bot || p.open || mine.has(p.seat) || seen.has(p.name)) return false;
    seen.add(p.name);
    return true;
  });
}

export function startTalk() {
  if (!panel) return;
  reportable = reportablePlayers();
  byId("talk-report-player").hidden = !reportable.length;
  byId("talk-form").addEventListener("submit", submitText);
  byId("talk-text").addEventListener("input", countCharacters);
  byId("talk-text").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey) submitText(event);
  });
  byId("talk-mute").addEventListener("click", toggleTableMute);
  byId("talk-report-player").addEventListener("click", () => openReport({}));
  byId("talk-report").addEventListener("submit", submitReport);
  byId("talk-report-cancel").addEventListener("click", closeReport);
  // The table's version changes when a move lands or a hand ends: look at the talk then.
  new MutationObserver(refresh).observe(root, { attributes: true, attributeFilter: ["data-version"] });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  refresh();
}

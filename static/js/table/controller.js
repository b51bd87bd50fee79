// The table page's controller: draws the whole table from ``store.table`` (render), turns
// clicks into moves through the API client, and keeps the table fresh by polling. Every
// answer (a move's, a poll's) replaces the table JSON and the page is drawn again: there
// is one renderer and nothing to keep in step on the server.

import { abandonQuestion } from "./abandon.js";
import { apiClient, newKey } from "./api.js";
import { fmt, say } from "./dom.js";
import { renderHand, renderOtherHand } from "./hand.js";
import { placeLastHand, presented } from "./handover.js";
import { renderInvites } from "./invites.js";
import { renderLine } from "./line.js";
import { describeChange, renderLog } from "./log.js";
import { T, csrfToken, root, urls } from "./page.js";
import { createPoll } from "./poll.js";
import { renderPlayers, renderScoreboard } from "./seats.js";
import { canPlay, isActive, mySeats, plainName, store } from "./state.js";
import { renderResult, renderStatus } from "./status.js";
import { renderRematch } from "./rematch.js";
import { dropSinceSentenceWhenOver, isNew, markLine, noteSince, retellSinceSentence, showSinceSentence } from "./since.js";
import { renderLastHand } from "./summary.js";

const client = apiClient(csrfToken);

// What the rendered buttons do (hand.js).
const actions = {
  choose,
  send,
  sendAction,
  letPartnerLead,
  cancelEndChoice() {
    store.pending = null;
    render();
  },
};

const poll = createPoll({
  client,
  url: urls.table,
  store,
  isActive,
  onTable(table) {
    const before = store.table;
    noteSince(table, false);
    store.table = table;
    if (table.version !== before.version) {
      store.pending = null;
      sayChange(before, table);
      retellSinceSentence(table);
    }
    render();
  },
  onSame: () => asShown(renderStatus), // keep the clock moving
  onOffline: () => say(T.offline, "error"),
});

// What changed, for the message line. After a move refused as stale (take) it starts by
// saying that move was not made: the player's own move from another tab or device, or
// anything else that moved the table first, is the one that counts.
function sayChange(before, table) {
  const change = describeChange(before, table);
  if (!store.lostMove) return say(change);
  store.lostMove = false;
  if (movedByMe(before, table)) say(fmt(T.move_lost_elsewhere, { change }), "error");
  else say(change === T.updated ? T.move_lost : fmt(T.move_lost_changed, { change }), "error");
}

// Whether the first move ``after`` has and ``before`` had not is one of my seats' (made in
// another tab or on another device), read in the hand that ended meanwhile if one did.
function movedByMe(before, after) {
  const game = before.game;
  if (!game || !after.game) return false;
  const last = after.game.last_hand;
  let log = [];
  if (after.game.hand_number === game.hand_number) log = after.game.log;
  else if (last && last.number === game.hand_number) log = last.log || [];
  const first = log[game.log.length];
  return Boolean(first) && mySeats().includes(first.seat);
}

// An ended hand is held on screen until "Siguiente mano" (handover.js): ``draw`` then
// draws the table as that hand left it; store.table is the real one again right after.
// Returns the table drawn.
function asShown(draw) {
  const real = store.table;
  const shown = presented(real);
  store.table = shown;
  try {
    draw(shown);
  } finally {
    store.table = real;
  }
  return shown;
}

// The page's own title ("Mesa 12 · Dominó"): "Te toca · Mesa 12 · Dominó" on my turn.
const pageTitle = document.title;
let turnVersion = null; // the table version whose turn was last shown (null: none yet)

// Each time the turn comes to me (a version where it is mine, after another one; not on
// opening, where the status line says it), the live region says "Te toca" once, emptied
// first so that it is read again; the title says it for as long as it is my turn.
function announceTurn(mine, version) {
  document.title = mine ? `${T.turn_announce} · ${pageTitle}` : pageTitle;
  const region = document.getElementById("turn-announce");
  const comes = mine && turnVersion !== null && version !== turnVersion;
  if (!mine) region.textContent = "";
  else if (comes) {
    region.textContent = "";
    setTimeout(() => { region.textContent = T.turn_announce; }, 50);
  }
  if (turnVersion === null || !mine || comes) turnVersion = mine ? version : -1;
}

export function render() {
  const real = store.table;
  const shown = asShown(renderPieces);
  renderLastHand();
  dropSinceSentenceWhenOver(real);
  placeLastHand(real, afterNextHand);
  renderRematch(client, (answer, done) => {
    take(answer, done);
    render();
  });
  root.dataset.version = real.version;
  root.dataset.handOver = shown !== real ? "held" : "";
  root.classList.toggle("my-turn", real.your_turn && shown === real);
  announceTurn(Boolean(real.your_turn && shown === real), real.version);
}

function renderPieces(state) {
  const game = state.game;
  renderStatus();
  renderInvites(client, (answer, done) => {
    take(answer, done);
    render();
  });
  renderPlayers();
  renderScoreboard();
  renderLine();
  if (game) markLine(game, game.hand_number);
  renderHand(actions);
  renderLog(game, game ? (sequence) => isNew(game.hand_number, sequence) : null);
  renderResult();
  const leave = document.getElementById("abandon");
  leave.hidden = !isActive();
  // A table still waiting is cancelled by its creator, not lost: nobody has played (R26
  // needs a match); a guest who came by a link gives up the seat instead (R30).
  leave.textContent = state.status !== "waiting" ? T.abandon : leavesSeat(state) ? T.leave_seat : T.cancel_table;
  // Nothing to play while a hand is held or once the match is over: no empty "Tus fichas".
  const playing = state.status === "playing" || state.status === "waiting";
  for (const id of ["board", "log-section"]) document.getElementById(id).hidden = !game;
  document.getElementById("my-hand").hidden = !game || !playing;
  renderOtherHand();
  if (!playing) document.getElementById("other-hand").hidden = true;
}

// "Siguiente mano": the new hand takes the board; the status line says whose turn it is,
// once: focused, it is read out, and the message line (which said "Te toca jugar." under
// it as well) is cleared of the ended hand's last words.
function afterNextHand() {
  render();
  const target = document.getElementById("status-line");
  target.setAttribute("tabindex", "-1");
  target.focus();
  say("");
}

// --- playing -----------------------------------------------------------------------------

function choose(tile) {
  if (store.busy || !canPlay()) return;
  const moves = store.table.game.legal_moves.filter((m) => m.tile === tile);
  if (!moves.length) return;
  if (moves.length === 1) {
    send(moves[0]);
    return;
  }
  store.pending = store.pending === tile ? null : tile; // R12: the tile fits both ends; ask which
  render();
  const first = document.querySelector("#end-choice .end-btn");
  if (first) first.focus();
}

async function send(move) {
  // ``seat`` says which of my hands plays (it matters when I hold two: seven_plus_seven).
  const state = store.table;
  const body = { tile: move.tile, end: move.end, version: state.version, seat: state.your_seat };
  // A play on an empty line leads the hand, and is said as the log says it (R11).
  const said = state.game.line.length ? T.played : T.led;
  await submit(body, fmt(said, { tile: move.tile }));
}

// Draw or pass by the seat's own choice: the same moves endpoint as a play, with
// ``{action, version}`` (the server draws the top tile).
async function sendAction(action) {
  const body = { action, version: store.table.version, seat: store.table.your_seat };
  await submit(body, action === "draw" ? T.you_drew : T.you_passed);
}

// Let my bot partner lead for our pair (cuban): a pass before the lead, sent as any move
// is (the version seen, one Idempotency-Key); the bot's lead is the move the server saves.
async function letPartnerLead(partner) {
  const body = { action: "pass", version: store.table.version, seat: store.table.your_seat };
  await submit(body, fmt(T.partner_leads, { name: plainName(partner) }));
}

// Post one move (a play, a draw or a pass) unless one is on its way, then show the answer.
// One Idempotency-Key for this intent: the client's retries (network, 5xx) all send it,
// so a move whose answer was lost is applied once.
async function submit(body, doneMessage) {
  if (store.busy) return;
  store.busy = true;
  store.pending = null;
  store.restoreFocus = true;
  say(T.sending);
  render();
  try {
    take(await client.post(urls.moves, body, { idempotencyKey: newKey() }), doneMessage);
  } catch (error) {
    say(T.offline, "error");
  } finally {
    store.busy = false;
    render();
    poll.schedule(500);
  }
}

// Apply an API answer: a new view of the table, or a refusal {code, detail} shown politely.
function take(answer, doneMessage) {
  if (answer.ok) {
    noteSince(answer.data, true); // my move: the marks start again from here
    store.table = answer.data;
    store.etag = answer.etag || store.etag;
    say(doneMessage, "ok");
    return true;
  }
  store.etag = null; // stale_version, not_your_turn...: fetch the table afresh
  if (answer.error.code === "stale_version") {
    // Another tab or device (or anyone) moved the table first: the poll brings it, and
    // sayChange says this move was not made.
    store.lostMove = true;
    say(T.move_lost, "error");
    return false;
  }
  say(fmt(T.refused, { detail: answer.error.detail }), "error");
  return false;
}

// A guest (not the creator) at a waiting table that is no rematch: leaving gives up the
// seat, the table waits on (the server answers {left: true}, no table view).
function leavesSeat(state) {
  return state.status === "waiting" && !state.you_created && !state.rematch_of;
}

// Abandoning is not retried: it carries no Idempotency-Key, so a retry could not be told
// from a second request.
async function abandonMatch() {
  const state = store.table;
  const question = state.status !== "waiting" ? abandonQuestion() : leavesSeat(state) ? T.leave_confirm : T.cancel_confirm;
  if (!window.confirm(question)) return;
  store.busy = true;
  try {
    const answer = await client.post(urls.abandon);
    if (answer.ok && answer.data.left) {
      window.location.assign(urls.left); // no seat here any more: "Mis mesas" says so
      return;
    }
    take(answer, "");
  } catch (error) {
    say(T.offline, "error");
  } finally {
    store.busy = false;
    render();
  }
}

function cancelOnEscape(event) {
  if (event.key === "Escape" && store.pending !== null) {
    const tile = store.pending;
    store.pending = null;
    render();
    const back = document.querySelector(`#hand [data-tile="${tile}"]`);
    if (back) back.focus();
  }
}

// Draw the table, wire the page's own buttons and start polling.
export function start() {
  document.getElementById("abandon").addEventListener("click", abandonMatch);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) poll.schedule(0); });
  document.addEventListener("keydown", cancelOnEscape);
  noteSince(store.table, false);
  render();
  showSinceSentence(store.table);
  poll.schedule();
}

// Since your last visit: the moves made at the table since this player last looked
// (the API's since_your_last_visit, from the seat's own view, R31), marked in the log and
// on the line (the newest tile outlined, the others dashed), and told in one sentence
// when the page opens: "Desde tu última visita: ana jugó 6-4, Nino robó 2 fichas, te toca".
// Each answer (poll or move) brings the moves since the previous one; a move of mine
// starts afresh, so the marks always show what others did since I last acted or looked.

import { fmt, h, keepTiles } from "./dom.js";
import { T } from "./page.js";
import { mySeats, store } from "./state.js";
import { logGroups } from "./log.js";

const fresh = new Map(); // "hand:sequence" -> move, others' moves only
const MOST_PARTS = 8; // the sentence names at most this many moves (the latest)

function key(hand, sequence) {
  return `${hand}:${sequence}`;
}

// Take the moves an answer says are new. ``afresh``: my own move's answer, after which
// the sentence about my last visit ("…, te toca") no longer holds and goes.
export function noteSince(table, afresh) {
  if (afresh) {
    fresh.clear();
    document.getElementById("since-line")?.remove();
  }
  const since = table.since_your_last_visit;
  if (!since) return;
  const mine = mySeats();
  // Others' moves, and my own automatic passes and draws (R16): the server made those
  // for me while I was away ("pasaste", "robaste 2 fichas").
  for (const move of since.moves) {
    if (!mine.includes(move.seat) || move.automatic) fresh.set(key(move.hand, move.sequence), move);
  }
}

// A page left open that has shown newer moves (a poll while the page is in view): the
// sentence about the last visit no longer holds and goes; the marks stay. A hidden page
// keeps it, told again with the moves it has gathered meanwhile.
export function retellSinceSentence(table) {
  const line = document.getElementById("since-line");
  if (!line) return;
  if (!document.hidden) {
    line.remove();
    return;
  }
  const text = isOver(table) ? "" : sinceSentence(table);
  if (text) line.replaceChildren(...keepTiles(text));
  else line.remove();
}

// Whether the move at ``sequence`` of hand ``hand`` is new to this player.
export function isNew(hand, sequence) {
  return fresh.has(key(hand, sequence));
}

function sameTile(pair, name) {
  const [a, b] = name.split("-").map(Number);
  return (pair[0] === a && pair[1] === b) || (pair[0] === b && pair[1] === a);
}

// Mark the new tiles of the line drawn for hand ``hand`` (line.js draws .placed in order).
export function markLine(game, hand) {
  if (!game) return;
  const plays = [...fresh.values()].filter((m) => m.hand === hand && m.kind === "play");
  if (!plays.length) return;
  const newest = plays.reduce((a, b) => (b.sequence > a.sequence ? b : a));
  document.querySelectorAll("#line .placed").forEach((piece, index) => {
    const pair = game.line[index];
    if (!pair) return;
    if (sameTile(pair, newest.tile)) piece.classList.add("newest");
    else if (plays.some((m) => sameTile(pair, m.tile))) piece.classList.add("since");
  });
}

// The sentence for the moves new on opening the page, or "" when nothing is new.
export function sinceSentence(table) {
  const moves = [...fresh.values()].sort((a, b) => a.hand - b.hand || a.sequence - b.sequence);
  if (!moves.length) return "";
  const parts = [];
  const hands = [...new Set(moves.map((m) => m.hand))];
  for (const hand of hands) {
    const entries = moves
      .filter((m) => m.hand === hand)
      .map((m) => ({ ...m, lead: m.kind === "play" && m.end === null }));
    // Parts of one sentence after a colon: "…: jugaste 6-4, terminó la mano 1, te toca."
    parts.push(...logGroups(entries, { inline: true }).map((group) => group.text));
    if (table.game && hand < table.game.hand_number) {
      const ended = fmt(T.hand_ended, { n: hand + 1 });
      parts.push(ended.charAt(0).toLowerCase() + ended.slice(1));
    }
  }
  // A long absence reads as its last few moves: the log above has them all, marked.
  const shown = parts.length > MOST_PARTS ? ["…", ...parts.slice(-MOST_PARTS)] : parts;
  if (table.your_turn) shown.push(T.since_your_turn);
  return fmt(T.since_visit, { moves: shown.join(", ") });
}

// The sentence under the message line, once, when the page opens on a match going on
// (a finished one opens on its result).
export function showSinceSentence(table) {
  const text = isOver(table) ? "" : sinceSentence(table);
  if (!text) return;
  const message = document.getElementById("message");
  const line = h("p", { id: "since-line", class: "since-line", role: "status" }, keepTiles(text));
  message.after(line);
}

function isOver(table) {
  return table.status !== "playing" && table.status !== "waiting";
}

// Once the match is over the result says how it ended: the sentence about the moves
// since the last visit goes (render() calls this on every answer and poll).
export function dropSinceSentenceWhenOver(table) {
  const line = document.getElementById("since-line");
  if (line && isOver(table)) line.remove();
}

// The hand's public log in words, newest first (a draw's tile only for the seat that drew
// it: the API leaves it out for the others, R31).

import { fmt, h } from "./dom.js";
import { T } from "./page.js";
import { playerName } from "./state.js";

// One sentence per play or pass; consecutive draws by one seat read as one line.
export function logLines(game) {
  const lines = [];
  const entries = game.log;
  let led = false;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const name = playerName(entry.seat);
    if (entry.kind === "play") {
      // The hand's first play is its lead; every later one went on an end (R11).
      lines.push(fmt(led ? T.log_play : T.log_lead, { name, tile: entry.tile }));
      led = true;
    } else if (entry.kind === "pass") {
      lines.push(fmt(T.log_pass, { name }));
    } else {
      // Consecutive draws by one seat read as one line: "Nino robó 2 fichas" (R14, R16).
      const seen = [];
      let n = 0;
      while (i < entries.length && entries[i].kind === "draw" && entries[i].seat === entry.seat) {
        if (entries[i].tile) seen.push(entries[i].tile);
        n++;
        i++;
      }
      i--;
      let text = n === 1 ? fmt(T.log_draw_one, { name }) : fmt(T.log_draw_many, { name, n });
      if (seen.length) text += ` (${seen.join(", ")})`;
      lines.push(text);
    }
  }
  return lines;
}

export function renderLog(game) {
  const list = document.getElementById("log");
  list.replaceChildren();
  if (!game) return;
  const lines = logLines(game);
  if (!lines.length) list.append(h("li", { class: "empty" }, T.log_empty));
  // Newest first: on a phone the latest move is what one wants to read.
  for (const text of lines.reverse()) list.append(h("li", {}, text));
}

// What changed between two tables, for the message line: the new log lines, or "updated".
// When the hand ended meanwhile: its last moves and that it ended.
export function describeChange(before, after) {
  const last = after.game && after.game.last_hand;
  if (before.game && after.game && last && last.number === before.game.hand_number && after.game.hand_number > last.number) {
    const old = logLines(before.game).length;
    const fresh = logLines({ log: last.log || [] }).slice(old);
    return [...fresh, fmt(T.hand_ended, { n: last.number + 1 })].join(". ") + ".";
  }
  if (!before.game || !after.game || before.game.hand_number !== after.game.hand_number) return T.updated;
  const old = logLines(before.game).length;
  const fresh = logLines(after.game).slice(old);
  return fresh.length ? fresh.join(". ") + "." : T.updated;
}

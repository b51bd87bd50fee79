// The hand's public log in words, newest first (a draw's tile only for the seat that drew
// it: the API leaves it out for the others, R31). The reader's own moves read in the
// second person ("Jugaste 6-4"), everyone else's by name ("ana jugó 6-4").

import { counted, fmt, h, keepTiles } from "./dom.js";
import { T, profile } from "./page.js";
import { mySeats, plainName, playerName } from "./state.js";

// The sentence for a move of ``seat``: ``T[key]`` by name, or ``T[key + "_you"]`` for a
// seat of mine, saying which hand when one person holds two (seven_plus_seven). ``inline``:
// the move in brackets inside another sentence (talk.js: "tras la jugada 5 (jugaste 6-4)"),
// so a plain name, no hand (no brackets within brackets) and a small first letter. A
// counted text ("robó 1 ficha", "robó 3 fichas": tables/plurals.py) takes ``values.n``'s form.
export function said(key, seat, values = {}, { inline = false } = {}) {
  const form = (words) => (typeof words === "string" ? words : counted(words, values.n));
  if (!mySeats().includes(seat)) {
    return fmt(form(T[key]), { name: inline ? plainName(seat) : playerName(seat), ...values });
  }
  const move = fmt(form(T[key + "_you"]), values);
  if (inline) return move.charAt(0).toLowerCase() + move.slice(1);
  return profile.two_hands ? fmt(T.log_your_hand, { move, n: seat + 1 }) : move;
}

// One sentence per play or pass; consecutive draws by one seat read as one line. Each
// group says which entries it stands for (``indexes`` into ``entries``). An entry's
// ``lead`` (true/false) says whether a play led the hand; without it the first play does.
// ``inline``: each sentence as part of a longer one (``said``'s small first letter).
export function logGroups(entries, { inline = false } = {}) {
  const groups = [];
  let led = false;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (entry.kind === "play") {
      // The hand's first play is its lead; every later one went on an end (R11).
      const lead = entry.lead === undefined ? !led : entry.lead;
      const key = lead ? "log_lead" : "log_play";
      groups.push({ text: said(key, entry.seat, { tile: entry.tile }, { inline }), indexes: [i] });
      led = true;
    } else if (entry.kind === "pass") {
      groups.push({ text: said("log_pass", entry.seat, {}, { inline }), indexes: [i] });
    } else {
      // Consecutive draws by one seat read as one line: "Nino robó 2 fichas" (R14, R16).
      const seen = [];
      const indexes = [];
      while (i < entries.length && entries[i].kind === "draw" && entries[i].seat === entry.seat) {
        if (entries[i].tile) seen.push(entries[i].tile);
        indexes.push(i);
        i++;
      }
      i--;
      const n = indexes.length;
      let text = said("log_draws", entry.seat, { n }, { inline });
      if (seen.length) text += ` (${seen.join(", ")})`;
      groups.push({ text, indexes });
    }
  }
  return groups;
}

export function logLines(game) {
  return logGroups(game.log).map((group) => group.text);
}

// ``isNew(sequence)``: whether the move at that place of the hand's log is new since the
// player's last visit (since.js); its line is marked.
export function renderLog(game, isNew) {
  const list = document.getElementById("log");
  list.replaceChildren();
  if (!game) return;
  const groups = logGroups(game.log);
  if (!groups.length) list.append(h("li", { class: "empty" }, T.log_empty));
  // Newest first: on a phone the latest move is what one wants to read.
  for (const group of groups.reverse()) {
    const fresh = Boolean(isNew) && group.indexes.some((index) => isNew(index));
    list.append(h("li", { class: fresh ? "since" : "" }, text(group.text, fresh)));
  }
}

function text(words, fresh) {
  const line = keepTiles(words);
  return fresh ? [...line, h("span", { class: "visually-hidden" }, " " + T.since_mark)] : line;
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

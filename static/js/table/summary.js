// The summary of the hand that just ended (R19): how it ended (R17 domino, R18 blocked),
// capicúa where the profile has it, the numbers explained (explain.js, from the engine's
// explanation), who scored, and every seat's tiles and count. All of the hand summary is drawn here;
// the replay (replay/handend.js) says a hand's end with the same sentences (handSentences).

import { counted, fmt, h, ruleLink } from "./dom.js";
import { canExplain, whyNumbers } from "./explain.js";
import { T, profile } from "./page.js";
import { joinNames, manyNames, mySeats, playerName, store } from "./state.js";
import { tileNamed } from "./tiles.js";

// How the table page names the seats in a hand's summary: by name, in the third person,
// and the reader's own seats (both, holding two at seven_plus_seven) in the second:
// "Dominaste: te quedaste sin fichas.", "Te anotas 8 puntos.", in pairs "Tu pareja y tú…".
const tableSeats = {
  name: playerName,
  join: joinNames,
  many: manyNames,
  mine: (seat) => mySeats().includes(seat),
};

function howItEnded(last, who) {
  const why = h("p", { class: "why" });
  if (last.end === "domino") {
    const found = last.holdings.findIndex((tiles) => tiles.length === 0);
    const out = found >= 0 ? found : last.winners[0];
    why.append(who.mine(out) ? T.domino_you : fmt(T.domino, { name: who.name(out) }), " ", ruleLink("R17"));
  } else {
    // Where nobody draws (cuban's tiles out), a blocked hand is one nobody could play.
    why.append(profile.draws === false ? T.blocked_no_stock : T.blocked, " ", ruleLink("R18"));
  }
  return why;
}

// The numbers explained as the engine decided them (R20-R23); a hand scored some other
// way (differences, capicúa, a seat that left) links to the profile's summary instead.
function numbers(last, who) {
  if (canExplain(last.explanation)) return h("p", { class: "why numbers" }, whyNumbers(last, who));
  return h("p", { class: "why numbers" }, T.profile_scoring, " ", h("a", { href: profile.url, class: "rule" }, profile.label), ".");
}

function holdings(last) {
  const list = h("ul", { class: "holdings" });
  last.holdings.forEach((tiles, seat) => {
    const row = h("li", { class: last.winners.includes(seat) ? "winner" : "" },
      h("span", { class: "name" }, playerName(seat), last.winners.includes(seat) ? " ★" : ""),
      h("span", { class: "count" }, fmt(T.count, { n: last.counts[seat] })));
    const shown = h("span", { class: "mini-tiles", "aria-label": tiles.length ? tiles.join(", ") : T.no_tiles, role: "img" });
    for (const tile of tiles) shown.append(tileNamed(tile, false));
    if (!tiles.length) shown.append(T.no_tiles);
    row.append(shown);
    list.append(row);
  });
  return list;
}

// Who scored: by name, or to the reader whose seat (or pair, R2) it was.
function scored(last, who) {
  if (!last.winners.length || last.points < 0) return T.nobody_scored;
  const values = { names: who.join(last.winners), points: last.points };
  if (last.winners.some(who.mine)) return fmt(counted(who.many(last.winners) ? T.scored_pair_you : T.scored_you, last.points), values);
  return fmt(counted(who.many(last.winners) ? T.scored_many : T.scored, last.points), values);
}

// The sentences of hand ``last`` (a game.last_hand, or the replay's hand result): how it
// ended and by which rule, the numbers, who scored. ``who`` names the seats: ``name(seat)``,
// ``join(seats)``, ``many(seats)`` (more than one person) and ``mine(seat)`` (the
// reader's, said in the second person).
export function handSentences(last, who) {
  return [
    howItEnded(last, who),
    last.capicua ? h("p", { class: "capicua" }, h("strong", {}, T.capicua), " ", T.capicua_why) : null,
    numbers(last, who),
    h("p", { class: "scored" }, scored(last, who)),
  ].filter(Boolean);
}

// The summary of hand ``last`` on the table page: its sentences, then every seat's tiles
// face up with its count.
function handSummary(last) {
  return [...handSentences(last, tableSeats), holdings(last)];
}

export function renderLastHand() {
  const section = document.getElementById("last-hand");
  const body = document.getElementById("last-hand-body");
  const last = store.table.game && store.table.game.last_hand;
  section.hidden = !last;
  body.replaceChildren();
  if (!last) return;
  document.getElementById("last-hand-title").textContent = fmt(T.hand_result, { n: last.number + 1 });
  body.append(...handSummary(last));
}

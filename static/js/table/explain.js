// The sentence that says which rule decided a finished hand, with its numbers (R20-R23).
// It re-derives the engine's tie-breaks from the hand's counts and holdings; once the
// table's JSON carries the engine's own explanation, this module is the one to replace.

import { fmt, ruleLink } from "./dom.js";
import { T } from "./page.js";
import { inPairs, playerName } from "./state.js";
import { tileParts } from "./tiles.js";

// Like fmt, but returns nodes: ``%(rule)s`` becomes the link to that rule on /reglas/.
function fmtRule(template, rule, values) {
  return template.split(/(%\(rule\)s)/).map((part) => (part === "%(rule)s" ? ruleLink(rule) : fmt(part, values)));
}

function sumText(counts, total) {
  return counts.length === 1 ? String(total) : `${counts.join(" + ")} = ${total}`;
}

// The rule that decided the hand, with this hand's numbers (R20-R23):
// "Gana la pareja con menos puntos (Regla R22): Pareja A 24 contra Pareja B 24. Empate: nadie suma."
export function whyNumbers(last) {
  const counts = last.counts;
  const others = (winners) => counts.filter((_, seat) => !winners.includes(seat));
  if (last.end === "domino") {
    const out = last.holdings.findIndex((tiles) => tiles.length === 0);
    const nodes = fmtRule(T.why_domino, "R20", { sum: sumText(others(last.winners), last.points), points: last.points });
    if (inPairs() && out >= 0) nodes.push(" ", fmt(T.why_partner, { name: playerName((out + 2) % 4) }));
    return nodes;
  }
  if (inPairs()) {
    const team = (t) => counts.filter((_, seat) => seat % 2 === t).reduce((a, b) => a + b, 0);
    const nodes = fmtRule(T.why_teams, "R22", { a: `${T.team_a} ${team(0)}`, b: `${T.team_b} ${team(1)}` });
    if (!last.winners.length) nodes.push(" ", T.why_teams_tie);
    return nodes;
  }
  const lowest = Math.min(...counts);
  const tied = counts.map((count, seat) => (count === lowest ? seat : -1)).filter((seat) => seat >= 0);
  const nodes = [];
  if (tied.length > 1) {
    const value = (tile) => tileParts(tile).reduce((a, b) => a + b, 0);
    const values = tied
      .map((seat) => `${playerName(seat)} ${last.holdings[seat].map(value).sort((a, b) => a - b).join(", ")}`)
      .join("; ");
    nodes.push(...fmtRule(T.why_tie, "R23", { count: lowest, values }));
    if (!last.winners.length) return nodes.concat(" ", T.why_tie_nobody);
    nodes.push(" ");
  }
  const winner = last.winners[0];
  if (winner === undefined) return nodes;
  const values = { name: playerName(winner), count: counts[winner], sum: sumText(others(last.winners), last.points) };
  return nodes.concat(tied.length > 1 ? fmt(T.why_tie_winner, values) : fmtRule(T.why_lowest, "R21", values));
}

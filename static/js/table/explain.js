// The sentence that says which rule decided a finished hand, with its numbers (R20-R23).
// The engine decides and explains (dominoes.reason.HandReason, sent as
// last_hand.explanation); this module only puts its parts into words, deciding nothing.

import { counted, fmt, ruleLink } from "./dom.js";
import { T } from "./page.js";

// Every way the engine decides a hand (dominoes.reason.DECIDED_BY) has words below; a hand
// scored by differences, with a capicúa or with a seat that left links to its profile's
// summary instead.
export function canExplain(why) {
  return Boolean(why) && !why.differences && !why.multiplier && !why.out;
}

// Like fmt, but returns nodes: ``%(rule)s`` becomes the link to that rule on /reglas/.
function fmtRule(template, rule, values) {
  return template.split(/(%\(rule\)s)/).map((part) => (part === "%(rule)s" ? ruleLink(rule) : fmt(part, values)));
}

// "6 + 9 = 15" when several numbers make the points (the server's addends), else the points.
function sumText(why) {
  const addends = why.addends || [];
  if (addends.length < 2) return String(why.points);
  return `${addends.join(" + ")} = ${why.points}`;
}

function domino(why, who) {
  // The server says whose tiles scored (``scored``: the one rival, the rivals, or everyone,
  // the pair's own too) and which partner's tiles did not count (``uncounted_partner``).
  const words = { everyone: T.why_domino_all, rival: T.why_domino_rival }[why.scored] || T.why_domino;
  const nodes = fmtRule(counted(words, why.points), why.rule, { sum: sumText(why) });
  const partner = why.uncounted_partner;
  if (partner !== undefined) {
    // "Lo tuyo no cuenta: eres su pareja." / "Lo de bob no cuenta: es tu pareja." / "…: es su pareja."
    const said = who.mine(why.went_out) ? T.why_your_partner : T.why_partner;
    nodes.push(" ", who.mine(partner) ? T.why_partner_you : fmt(said, { name: who.name(partner) }));
  }
  return nodes;
}

function pairs(why, who) {
  if (why.decided_by === "lowest_player") {
    const name = who.name(why.lowest_seat);
    return fmtRule(counted(T.why_lowest_player, why.points), why.rule, { name, count: why.lowest, sum: sumText(why) });
  }
  if (why.decided_by === "pair_that_led") {
    return fmtRule(counted(T.why_pair_that_led, why.points), why.rule, { sum: sumText(why) });
  }
  const [a, b] = why.team_counts;
  const nodes = fmtRule(T.why_teams, why.rule, { a: `${T.team_a} ${a}`, b: `${T.team_b} ${b}` });
  if (why.decided_by === "nobody") nodes.push(" ", T.why_teams_tie);
  return nodes;
}

function alone(why, who) {
  const nodes = [];
  if (why.tie_break) {
    const values = why.tie_break.map((step) => `${who.name(step.seat)} ${step.values.join(", ")}`).join("; ");
    nodes.push(...fmtRule(T.why_tie, why.rule, { count: why.lowest, values }));
    if (why.decided_by === "nobody") return nodes.concat(" ", T.why_tie_nobody);
    nodes.push(" ");
  }
  const winner = why.winners[0];
  if (winner === undefined) return nodes;
  const values = { name: who.name(winner), count: why.counts[winner], sum: sumText(why) };
  const mine = who.mine(winner);
  if (why.tie_break) {
    return nodes.concat(fmt(counted(mine ? T.why_tie_winner_you : T.why_tie_winner, why.points), values));
  }
  return nodes.concat(fmtRule(counted(mine ? T.why_lowest_you : T.why_lowest, why.points), why.rule, values));
}

// The rule that decided the hand, with this hand's numbers (R20-R23):
// "Gana la pareja con menos puntos (Regla R22): Pareja A 24 contra Pareja B 24. Empate: nadie suma."
// ``who`` names the seats (summary.js handSentences): the reader's own in the second person.
export function whyNumbers(last, who) {
  const why = last.explanation;
  if (why.decided_by === "domino") return domino(why, who);
  return why.team_counts ? pairs(why, who) : alone(why, who);
}

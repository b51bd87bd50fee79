// The status line under the title (hand, whose turn, time left) and the end-of-match box.

import { counted, fmt, h } from "./dom.js";
import { T, profile } from "./page.js";
import { inPairs, joinNames, leadChoicePartner, manyNames, mySeats, plainName, playerName, store, timeLeftSentence } from "./state.js";

export function renderStatus() {
  const state = store.table;
  const line = document.getElementById("status-line");
  const game = state.game;
  const parts = [];
  if (state.status === "waiting") {
    parts.push(state.invites.length ? "" : T.waiting_other);
  } else if (state.status === "playing" && game) {
    parts.push(fmt(T.hand_n, { n: game.hand_number + 1 }) + ".");
    const mine = state.your_turn && mySeats().length > 1 ? fmt(T.your_turn_hand, { n: state.your_seat + 1 }) : T.your_turn;
    parts.push(state.your_turn ? mine : fmt(T.turn_of, { name: playerName(state.turn_seat) }));
    parts.push(pairLead(state));
    if (state.deadline) parts.push(timeLeftSentence(state.deadline));
  } else if (state.status === "hand_over" && game) {
    // An ended hand held on screen (handover.js): its box below says who plays next.
    parts.push(fmt(T.hand_over_title, { n: game.hand_number + 1 }) + ".");
  }
  line.textContent = parts.filter(Boolean).join(" ");
  line.classList.toggle("turn", state.your_turn);
}

// Who may lead when either partner of a pair may (cuban's lead after a won hand), or null:
// the pair's names, or "you or your partner", or, my partner a bot, "choose who leads:
// play a tile to lead, or let your partner (its name) lead" (the bot waits for me:
// leadChoicePartner; hand.js has the button). ``state``: a table JSON, the real one (the
// end-of-hand box says it too).
export function pairLead(state) {
  const leads = state.game && state.game.lead_seats;
  if (!leads || leads.length < 2) return null;
  if (!leads.includes(state.your_seat)) return fmt(T.lead_pair, { names: joinNames(leads) });
  const partner = leadChoicePartner(state);
  return partner === null ? T.lead_pair_you : fmt(T.lead_pair_you_bot, { name: plainName(partner) });
}

export function renderResult() {
  const state = store.table;
  const section = document.getElementById("result");
  const body = document.getElementById("result-body");
  const over = state.status === "finished" || state.status === "closed";
  const wasHidden = section.hidden;
  section.hidden = !over;
  body.replaceChildren();
  if (!over) return;
  const winners = state.winners || [];
  document.getElementById("result-title").textContent = state.game ? T.match_over_title : T.cancelled_title;
  if (!state.game) {
    // Closed before its match began: the creator (or a friend) cancelled it, or it idled.
    const why = { idle: T.outcome_idle, declined: T.rematch_was_declined }[state.outcome] || T.cancelled;
    body.append(h("p", { class: "headline" }, why));
    if (wasHidden) section.focus();
    return;
  }
  let headline;
  if (!winners.length) headline = T.no_winner;
  else if (winners.includes(state.your_seat)) headline = T.you_won;
  else headline = fmt(manyNames(winners) ? T.match_won_many : T.match_won, { names: joinNames(winners) }) + " " + T.you_lost;
  body.append(h("p", { class: "headline" }, headline));
  body.append(h("p", { class: "outcome" }, outcomeText(state)));
  body.append(finalScores(state));
  const played = handsPlayed(state.game);
  body.append(h("p", { class: "hands-played" }, played ? fmt(T.hands_played, { n: played }) : T.no_hand_played));
  if (state.game && state.game.zapato) body.append(h("p", { class: "zapato" }, h("strong", {}, T.zapato), " ", T.zapato_why));
  const replay = handsPlayed(state.game) > 0 ? h("a", { class: "button", href: `/mesas/${state.id}/partida/` }, T.see_match) : null;
  body.append(h("p", { class: "actions" }, h("a", { class: "button", href: "/" }, T.my_tables), replay));
  if (wasHidden) section.focus();
}

// Hands that were played to their end (a match left in the middle of a hand does not
// count that one).
function handsPlayed(game) {
  const last = game.last_hand;
  return last && last.number === game.hand_number ? game.hand_number + 1 : game.hand_number;
}

// The final score of every seat, or of each pair (R2), the winners first and starred.
function finalScores(state) {
  const scores = state.game.scores;
  const winners = state.winners || [];
  const sides = inPairs()
    ? [[0, 2], [1, 3]].map((seats) => ({ seats, label: `${seats[0] === 0 ? T.team_a : T.team_b} (${joinNames(seats)})` }))
    : state.players.map((p) => ({ seats: [p.seat], label: playerName(p.seat) }));
  for (const side of sides) side.won = side.seats.some((seat) => winners.includes(seat));
  sides.sort((a, b) => Number(b.won) - Number(a.won) || scores[b.seats[0]] - scores[a.seats[0]]);
  return h("ul", { class: "final-scores" },
    sides.map((side) => h("li", { class: side.won ? "winner" : "" },
      h("span", { class: "name" }, side.label, side.won ? " ★" : ""),
      h("strong", { class: "score", "data-score": scores[side.seats[0]] }, fmt(counted(T.points, scores[side.seats[0]]), { n: scores[side.seats[0]] })))));
}

// Why the match ended, naming who left or ran out of time (R25-R28): the reader in the
// second person ("Abandonaste la partida."), anyone else by name.
export function outcomeText(state) {
  const game = state.game;
  const seat = game ? game.abandoned_by : null;
  const gone = seat !== null && seat !== undefined ? playerName(seat) : null;
  const you = gone !== null && (state.your_seats || [state.your_seat]).includes(seat) ? "_you" : "";
  if (state.outcome === "abandoned" && gone) return fmt(T["outcome_abandoned" + (you || "_by")], { name: gone });
  if (state.outcome === "absent" && gone) return fmt(T["outcome_absent" + (you || "_by")], { name: gone });
  if (profile.single_hand && state.outcome === "target") return T.outcome_single_hand;
  return T["outcome_" + state.outcome] || "";
}

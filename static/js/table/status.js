// The status line under the title (hand, whose turn, time left) and the end-of-match box.

import { fmt, h } from "./dom.js";
import { T, profile } from "./page.js";
import { joinNames, mySeats, playerName, store, timeLeft } from "./state.js";

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
    const leads = game.lead_seats;
    if (leads && leads.length > 1) {
      parts.push(leads.includes(state.your_seat) ? T.lead_pair_you : fmt(T.lead_pair, { names: joinNames(leads) }));
    }
    if (state.deadline) parts.push(fmt(T.time_left, { time: timeLeft(state.deadline) }));
  }
  line.textContent = parts.filter(Boolean).join(" ");
  line.classList.toggle("turn", state.your_turn);
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
  let headline;
  if (!winners.length) headline = T.no_winner;
  else if (winners.includes(state.your_seat)) headline = T.you_won;
  else headline = fmt(T.match_won, { names: joinNames(winners) }) + " " + T.you_lost;
  body.append(h("p", { class: "headline" }, headline));
  const outcome = profile.single_hand && state.outcome === "target" ? T.outcome_single_hand : T["outcome_" + state.outcome];
  if (outcome) body.append(h("p", {}, outcome));
  if (state.game && state.game.zapato) body.append(h("p", { class: "zapato" }, h("strong", {}, T.zapato), " ", T.zapato_why));
  if (wasHidden) section.focus();
}

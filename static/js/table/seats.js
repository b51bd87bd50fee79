// The players (name, tags, tile count, whose turn), the scoreboard and the stock.

import { fmt, h } from "./dom.js";
import { T, profile } from "./page.js";
import { inPairs, joinNames, mySeats, playerName, store, timeLeft } from "./state.js";

function playerRow(player) {
  const state = store.table;
  const game = state.game;
  const me = mySeats().includes(player.seat);
  const partner = inPairs() && !me && player.seat === (state.your_seat + 2) % 4;
  const turn = state.status === "playing" && state.turn_seat === player.seat;
  const count = game ? game.tile_counts[player.seat] : null;
  const tags = [];
  if (me) tags.push(T.you);
  if (partner) tags.push(T.partner);
  if (player.bot) tags.push("bot");
  return h("li", { class: "player" + (turn ? " turn" : "") + (me ? " me" : "") },
    h("span", { class: "name" },
      turn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : null,
      player.name ? playerName(player.seat) : T.open_seat,
      tags.length ? h("small", { class: "tags" }, ` (${tags.join(", ")})`) : null),
    h("span", { class: "facts" },
      count === null ? null : h("span", { class: "count" }, count === 1 ? T.tiles_one : fmt(T.tiles_many, { n: count })),
      turn ? h("span", { class: "badge turn" }, T.to_play, state.deadline ? " · " + timeLeft(state.deadline) : "") : null));
}

export function renderPlayers() {
  const state = store.table;
  const list = document.getElementById("players");
  const game = state.game;
  list.replaceChildren();
  for (const player of state.players) list.append(playerRow(player));
  const stock = document.getElementById("stock");
  // Profiles without drawing (cuban) leave tiles out of play: they are no stock to draw.
  if (!game || game.stock_size === null) stock.textContent = "";
  else if (profile.draws === false) stock.textContent = game.stock_size ? fmt(T.out_of_play, { n: game.stock_size }) : "";
  else stock.textContent = fmt(T.stock, { n: game.stock_size });
}

export function renderScoreboard() {
  const state = store.table;
  const board = document.getElementById("scoreboard");
  board.replaceChildren();
  const scores = state.game ? state.game.scores : state.players.map((p) => p.score);
  const sides =
    inPairs()
      ? [
          { label: `${T.team_a} (${joinNames([0, 2])})`, score: scores[0], mine: state.your_seat % 2 === 0 },
          { label: `${T.team_b} (${joinNames([1, 3])})`, score: scores[1], mine: state.your_seat % 2 === 1 },
        ]
      : state.players.map((p) => ({ label: p.name || T.open_seat, score: scores[p.seat], mine: p.seat === state.your_seat }));
  board.append(h("span", { class: "target" }, profile.single_hand ? T.single_hand : fmt(T.target, { n: state.target })));
  for (const side of sides) {
    board.append(
      h("span", { class: "side" + (side.mine ? " mine" : "") },
        h("span", { class: "side-name" }, side.label),
        profile.single_hand ? null : h("meter", { min: 0, max: state.target, value: Math.min(side.score, state.target), "aria-hidden": "true" }),
        h("strong", { class: "score", "data-score": side.score }, fmt(T.points, { n: side.score })))
    );
  }
}

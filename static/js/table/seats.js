// The seating picture: every seat drawn around the line (templates/tables/table.html,
// #seating), this player at the bottom and the others in turn order. Play passes to the
// right (R3, as /reglas/ tells players): the next seat sits on the reader's right, then
// top, then left at 4 seats (the partner opposite, on top, R2); right then left at 3; the
// rival on top at 2. A finished table, or a reader without a seat, is drawn from seat 0.
// Each seat shows its number in the turn order, its name, its tiles face down (the count
// only, never a tile: R31), its score or its pair's and, highlighted, whose turn it is.
// Then the scoreboard (the target, each seat's or pair's points) and the stock.

import { counted, fmt, h } from "./dom.js";
import { seatTags } from "./names.js";
import { T, profile } from "./page.js";
import { inPairs, mySeats, pairNames, playerName, store, timeLeft } from "./state.js";

// Where each seat sits, by its distance from the bottom seat in the turn order (R3).
const POSITIONS = {
  2: ["bottom", "top"],
  3: ["bottom", "right", "left"],
  4: ["bottom", "right", "top", "left"],
};

// Tile backs drawn for a seat: more than this and the count alone says it.
const MOST_BACKS = 10;

// The seat drawn at the bottom: my first seat, before, during and after the match; a
// reader with no seat sees seat 0 there.
export function bottomSeat(state) {
  const mine = state.your_seats || [state.your_seat];
  return Number.isInteger(mine[0]) ? mine[0] : 0;
}

// "bottom", "left", "top" or "right": where ``seat`` sits at a table of ``count`` seats
// drawn with ``bottom`` at the bottom.
export function seatPosition(seat, bottom, count) {
  const places = POSITIONS[count] || POSITIONS[4];
  return places[(seat - bottom + count) % count];
}

function backs(count) {
  const shown = Math.min(count, MOST_BACKS);
  return h("span", { class: "backs", "aria-hidden": "true" }, Array.from({ length: shown }, () => h("span", { class: "back" })));
}

function seatScore(seat) {
  const state = store.table;
  const scores = state.game ? state.game.scores : state.players.map((p) => p.score);
  if (profile.single_hand) return null;
  if (inPairs()) {
    const team = seat % 2;
    return fmt(T.team_score, { team: team === 0 ? T.team_a : T.team_b, n: scores[team] });
  }
  return fmt(counted(T.points, scores[seat]), { n: scores[seat] });
}

function playerRow(player, bottom) {
  const state = store.table;
  const game = state.game;
  const me = mySeats().includes(player.seat);
  const partner = inPairs() && !me && player.seat === (state.your_seat + 2) % 4;
  const turn = state.status === "playing" && state.turn_seat === player.seat;
  const count = game ? game.tile_counts[player.seat] : null;
  const position = seatPosition(player.seat, bottom, state.players.length);
  const tags = seatTags(T, { mine: me, partner, bot: Boolean(player.bot) });
  const classes = ["player", "seat", "pos-" + position];
  if (turn) classes.push("turn");
  if (me) classes.push("me");
  if (inPairs()) classes.push(player.seat % 2 === 0 ? "team-a" : "team-b");
  return h("li", { class: classes.join(" "), "data-seat": player.seat, "data-position": position, "aria-current": turn ? "true" : null },
    h("span", { class: "seat-head" },
      h("span", { class: "order", title: fmt(T.seat_number, { n: player.seat + 1 }), "aria-hidden": "true" }, String(player.seat + 1)),
      h("span", { class: "name" },
        // No space after the mark: a name too long for the line wraps with the mark on
        // its first line instead of leaving the mark alone above it (CSS spaces them).
        turn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶") : null,
        player.name ? playerName(player.seat) : T.open_seat,
        tags ? h("small", { class: "tags" }, tags) : null)),
    h("span", { class: "facts" },
      count === null ? null : backs(count),
      count === null ? null : h("span", { class: "count" }, fmt(counted(T.tiles, count), { n: count })),
      player.name && game ? h("span", { class: "seat-score" }, seatScore(player.seat)) : null),
    turn ? h("span", { class: "badge turn" }, T.to_play, state.deadline ? " · " + timeLeft(state.deadline) : "") : null);
}

// The middle of the table: the turn order (an arrow turning the way play goes, to the
// right, R3; for screen readers the names in that order, from the seat to play, or from
// the bottom seat when nobody is) and the stock, or the tiles out of play where nobody
// draws (cuban).
function renderHub(bottom) {
  const state = store.table;
  const game = state.game;
  const order = document.getElementById("turn-order");
  if (cancelled(state)) {
    // No match was played: no turn order (its free seats), no stock.
    order.replaceChildren();
    document.getElementById("stock").textContent = "";
    return;
  }
  const seats = state.players.map((p) => p.seat);
  const playing = state.status === "playing" && Number.isInteger(state.turn_seat);
  const first = playing ? state.turn_seat : bottom;
  const names = [...seats.slice(first), ...seats.slice(0, first)].map(playerName);
  order.replaceChildren(
    h("span", { class: "turn-arrow", "aria-hidden": "true" }, "↺"),
    h("span", { class: "visually-hidden" }, fmt(T.turn_order, { names: names.join(", ") }))
  );
  const stock = document.getElementById("stock");
  if (!game || game.stock_size === null) stock.textContent = "";
  else if (profile.draws === false) stock.textContent = game.stock_size ? fmt(T.out_of_play, { n: game.stock_size }) : "";
  else stock.textContent = fmt(T.stock, { n: game.stock_size });
}

export function renderPlayers() {
  const state = store.table;
  const bottom = bottomSeat(state);
  const picture = document.getElementById("seating");
  picture.className = `seating seats-${state.players.length}` + (inPairs() ? " in-pairs" : "");
  picture.dataset.bottom = bottom;
  const list = document.getElementById("players");
  // A table closed before its match began (cancelled, idle) shows who sat, not its free seats.
  const shown = cancelled(state) ? state.players.filter((player) => !player.open) : state.players;
  list.replaceChildren(...shown.map((player) => playerRow(player, bottom)));
  renderHub(bottom);
}

function cancelled(state) {
  return state.status === "closed" && !state.game;
}

export function renderScoreboard() {
  const state = store.table;
  const board = document.getElementById("scoreboard");
  board.replaceChildren();
  // No match, no score: a cancelled table has no scoreboard (nor its "Asiento libre" rows).
  board.closest("section").hidden = cancelled(state);
  if (cancelled(state)) return;
  const scores = state.game ? state.game.scores : state.players.map((p) => p.score);
  const sides =
    inPairs()
      ? [
          { label: `${T.team_a} (${pairNames([0, 2])})`, score: scores[0], mine: state.your_seat % 2 === 0 },
          { label: `${T.team_b} (${pairNames([1, 3])})`, score: scores[1], mine: state.your_seat % 2 === 1 },
        ]
      : state.players.map((p) => ({ label: p.name || T.open_seat, score: scores[p.seat], mine: p.seat === state.your_seat }));
  board.append(h("span", { class: "target" }, profile.single_hand ? T.single_hand : fmt(T.target, { n: state.target })));
  for (const side of sides) {
    board.append(
      h("span", { class: "side" + (side.mine ? " mine" : "") },
        h("span", { class: "side-name" }, side.label),
        profile.single_hand ? null : h("meter", { min: 0, max: state.target, value: Math.min(side.score, state.target), "aria-hidden": "true" }),
        h("strong", { class: "score", "data-score": side.score }, fmt(counted(T.points, side.score), { n: side.score })))
    );
  }
}

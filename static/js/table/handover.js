// A hand that ends stays on screen. The server deals the next hand at once, but the page
// keeps the ended one (game.last_hand: its final line, its moves, every seat's tiles face
// up, the counts, the winner and the deciding rule) on top until the player presses
// "Siguiente mano"; then it says whether the new hand is theirs to play. Presentation
// only: which hand the player has let go is kept in this browser (localStorage), the
// moves still go to the real table; a player who has already played in the new hand (on
// this device or another) has let the ended one go. The end of the match keeps the last
// hand on top too.

import { fmt, h } from "./dom.js";
import { T } from "./page.js";
import { playerName } from "./state.js";
import { pairLead } from "./status.js";

const memory = {}; // where localStorage is refused (private windows)

function seenKey(table) {
  return `domino:hand-seen:${table.id}`;
}

function seenHand(table) {
  try {
    const value = window.localStorage.getItem(seenKey(table));
    if (value !== null) return Number(value);
  } catch (error) {
    /* fall back to this page's memory */
  }
  return seenKey(table) in memory ? memory[seenKey(table)] : -1;
}

function letGo(table, number) {
  memory[seenKey(table)] = number;
  try {
    window.localStorage.setItem(seenKey(table), String(number));
  } catch (error) {
    /* kept in memory for this page */
  }
}

// Whether one of the player's seats has played a tile in the hand now dealt: from any of
// their devices, so coming back on another one does not hold the ended hand again. Only
// plays count: a draw or a pass may be the engine's (R16), not the player's doing.
function playedThisHand(table) {
  const mine = table.your_seats || [table.your_seat];
  return (table.game.log || []).some((entry) => entry.kind === "play" && mine.includes(entry.seat));
}

// The ended hand to hold on screen, or null: the match goes on (the next hand is dealt)
// and the player has neither pressed "Siguiente mano" for it yet nor played since.
export function heldHand(table) {
  const game = table.game;
  if (!game || table.status !== "playing") return null;
  const last = game.last_hand;
  if (!last || last.number >= game.hand_number) return null;
  if (playedThisHand(table)) return null;
  return seenHand(table) >= last.number ? null : last;
}

// The final hand of a finished match, when the match ended with it (not by a player
// leaving in the middle of a hand).
export function finalHand(table) {
  const game = table.game;
  if (!game || table.status === "playing" || table.status === "waiting") return null;
  const last = game.last_hand;
  return last && last.number === game.hand_number ? last : null;
}

// What the page draws while a hand is held: the table as it was when that hand ended
// (its line, its log, its tile counts), with nothing to play. ``status`` "hand_over" is
// the page's own: no turn, no clock, no moves.
export function presented(table) {
  const last = heldHand(table);
  if (!last) return table;
  const line = last.line || [];
  const ends = line.length ? [line[0][0], line[line.length - 1][1]] : null;
  return {
    ...table,
    status: "hand_over",
    your_turn: false,
    turn_seat: null,
    deadline: null,
    hands: [],
    game: {
      ...table.game,
      hand_number: last.number,
      line,
      ends,
      log: last.log || [],
      tiles: [],
      legal_moves: [],
      choices: [],
      lead_seats: undefined,
      tile_counts: last.holdings.map((tiles) => tiles.length),
      stock_size: null, // that hand's stock is not in its summary: none shown
    },
  };
}

// Who plays first in the new hand, from the real table (the one the server dealt): in a
// lead either partner may take (cuban), the pair, as the status line says it; once
// someone has led (a bot plays at once), who did, then whose turn it is now.
function nextTurn(table) {
  const pair = pairLead(table);
  if (pair) {
    const ours = table.game.lead_seats.includes(table.your_seat);
    return h("p", { class: ours ? "next-turn mine" : "next-turn" }, ours ? h("strong", {}, pair) : pair);
  }
  const lead = (table.game.log || []).find((entry) => entry.kind === "play");
  const turn = table.turn_seat;
  if (table.your_turn) {
    const text = lead ? fmt(T.next_hand_led_yours, { name: playerName(lead.seat) }) : T.next_hand_yours;
    return h("p", { class: "next-turn mine" }, h("strong", {}, text));
  }
  if (turn === null || turn === undefined) return null;
  const text = lead
    ? fmt(T.next_hand_led_turn, { name: playerName(lead.seat), turn: playerName(turn) })
    : fmt(T.next_hand_turn, { name: playerName(turn) });
  return h("p", { class: "next-turn" }, text);
}

// The summary box (#last-hand, drawn by summary.js) goes on top, under the match result,
// while a hand is held or the match is over, with "Siguiente mano" for a held hand; else
// it goes back under the hand. ``onNext`` runs after "Siguiente mano".
export function placeLastHand(table, onNext) {
  const section = document.getElementById("last-hand");
  const held = heldHand(table);
  const last = held || finalHand(table);
  const onTop = Boolean(last);
  const wasOnTop = section.classList.contains("on-top");
  if (onTop && !wasOnTop) document.getElementById("result").after(section);
  if (!onTop && wasOnTop) document.getElementById("other-hand").after(section);
  section.classList.toggle("on-top", onTop);
  section.classList.toggle("held", Boolean(held));
  if (!last) return;
  document.getElementById("last-hand-title").textContent = fmt(held ? T.hand_over_title : T.final_hand_title, { n: last.number + 1 });
  if (!held) return;
  const body = document.getElementById("last-hand-body");
  body.append(nextTurn(table) || "");
  const next = h("button", { type: "button", class: "primary big next-hand", onclick: () => {
    letGo(table, held.number);
    onNext();
  } }, T.next_hand);
  body.append(h("p", { class: "actions" }, next));
  if (!wasOnTop) {
    section.setAttribute("tabindex", "-1");
    section.focus({ preventScroll: false });
  }
}

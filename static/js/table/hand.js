// My hand: the tiles as buttons (playable ones marked), the end choice when a tile fits
// both ends (R12), the draw-or-pass buttons where drawing is a choice (first_double), and
// my other hand when I hold two (seven_plus_seven), shown but not playable.
//
// ``actions`` (controller.js): choose(tile), send(move), sendAction("draw"|"pass"),
// letPartnerLead(seat), cancelEndChoice().

import { fmt, h, keepTiles } from "./dom.js";
import { T } from "./page.js";
import { canPlay, choicesOf, leadChoicePartner, mySeats, plainName, store } from "./state.js";
import { tileNamed } from "./tiles.js";

function tileButton(tile, playable, mine, actions) {
  const pending = store.pending;
  const button = h("button", {
    type: "button",
    class: "tile-btn" + (playable.has(tile) ? " playable" : "") + (pending === tile ? " selected" : ""),
    "aria-label": tile,
    "aria-describedby": playable.has(tile) ? "playable-note" : null,
    "aria-pressed": pending === tile ? "true" : null,
    "data-tile": tile,
    disabled: !(mine && playable.has(tile) && !store.busy),
    onclick: () => actions.choose(tile),
  });
  button.append(tileNamed(tile, true));
  if (playable.has(tile)) button.append(h("span", { class: "mark", "aria-hidden": "true" }, "▲"));
  return button;
}

// The hint under the title, and the title itself when I hold two hands. At my turn it
// names the line's two ends: on a phone the hand keeps to the foot of the screen, over
// the foot of the line, where one end may be.
function renderHandTitle(playing, mine, choosing, ends) {
  const hint = document.getElementById("hand-hint");
  const endsText = ends ? `${fmt(T.left_end, { pip: ends[0] })} · ${fmt(T.right_end, { pip: ends[1] })}. ` : "";
  const playHint = endsText + T.playable_hint;
  hint.textContent = playing ? (choosing ? T.choose_hint : mine ? playHint : T.waiting_turn) : "";
  // Holding two hands, the title says which seat this hand is (the one to play, if mine).
  if (mySeats().length > 1) {
    document.getElementById("hand-title").textContent = fmt(T.hand_title_seat, { n: store.table.your_seat + 1 });
    if (playing && mine && !choosing) hint.textContent = T.hand_plays_now;
  }
}

export function renderHand(actions) {
  const hand = document.getElementById("hand");
  const game = store.table.game;
  const active = document.activeElement;
  const focused = active && hand.contains(active) ? active.dataset.tile : null;
  const keepFocus = store.restoreFocus || focused !== null;
  hand.replaceChildren();
  if (!game) return;
  const playable = new Set(game.legal_moves.map((m) => m.tile));
  const mine = canPlay();
  const ends = game.line.length ? game.ends : null;
  renderHandTitle(store.table.status === "playing", mine, mine && choicesOf(game).length > 0, ends);
  hand.dataset.seat = store.table.your_seat;
  hand.append(h("span", { id: "playable-note", hidden: true }, T.playable));
  for (const tile of game.tiles) hand.append(tileButton(tile, playable, mine, actions));
  renderEndChoice(actions);
  renderChoices(actions);
  renderLeadChoice(actions);
  // Keyboard players keep their place: the same tile, else the first one they can play.
  if (keepFocus && !store.busy && store.pending === null) {
    store.restoreFocus = false;
    const again =
      hand.querySelector(`[data-tile="${focused}"]:not([disabled])`) ||
      hand.querySelector("button:not([disabled])") ||
      document.getElementById("hand-title");
    again.focus();
  }
}

// My other hand (seven_plus_seven): its tiles, shown but not playable until its turn.
export function renderOtherHand() {
  const state = store.table;
  const section = document.getElementById("other-hand");
  if (!section) return;
  const tiles = document.getElementById("other-tiles");
  const other = (state.hands || []).find((hand) => hand.seat !== state.your_seat);
  tiles.replaceChildren();
  section.hidden = !state.game || !other;
  if (section.hidden) return;
  document.getElementById("other-hand-title").textContent = fmt(T.other_hand_title, { n: other.seat + 1 });
  document.getElementById("other-hand-hint").textContent = state.status === "playing" ? T.other_hand_waits : "";
  tiles.dataset.seat = other.seat;
  tiles.setAttribute("role", "img");
  tiles.setAttribute("aria-label", fmt(T.other_hand_label, { n: other.seat + 1, tiles: other.tiles.join(", ") }));
  for (const tile of other.tiles) {
    const piece = h("span", { class: "tile-btn", "data-tile": tile });
    piece.append(tileNamed(tile, true));
    tiles.append(piece);
  }
}

function renderEndChoice(actions) {
  const box = document.getElementById("end-choice");
  const buttons = box.querySelector(".end-buttons");
  buttons.replaceChildren();
  const game = store.table.game;
  const pending = store.pending;
  if (pending === null || !game || !canPlay()) {
    box.hidden = true;
    return;
  }
  const moves = game.legal_moves.filter((m) => m.tile === pending);
  const [left, right] = game.ends;
  document.getElementById("end-choice-title").replaceChildren(...keepTiles(fmt(T.choose_end, { tile: pending })));
  for (const move of moves) {
    const side = move.end === left ? T.on_left : T.on_right;
    const pip = move.end === left ? left : right;
    buttons.append(
      h("button", { type: "button", class: "primary end-btn", "data-end": move.end, onclick: () => actions.send(move) }, fmt(side, { pip }))
    );
  }
  buttons.append(h("button", { type: "button", class: "end-cancel", onclick: () => actions.cancelEndChoice() }, T.cancel));
  box.hidden = false;
}

function renderChoices(actions) {
  const box = document.getElementById("choices");
  if (!box) return;
  const choices = choicesOf(store.table.game);
  box.replaceChildren();
  box.hidden = !choices.length || store.table.status !== "playing";
  if (box.hidden) return;
  const labels = { draw: T.choice_draw, pass: T.choice_pass };
  for (const action of choices) {
    box.append(
      h("button", {
        type: "button",
        class: "choice-btn" + (action === "draw" ? " primary" : ""),
        "data-action": action,
        disabled: store.busy,
        onclick: () => actions.sendAction(action),
      }, labels[action] || action)
    );
  }
}

// Before a lead my pair chooses with my partner a bot (cuban): "Que salga <partner>" sends
// the pass that lets the bot lead; a tile of the hand leads myself.
function renderLeadChoice(actions) {
  const box = document.getElementById("lead-choice");
  if (!box) return;
  const partner = leadChoicePartner();
  box.replaceChildren();
  box.hidden = partner === null;
  if (box.hidden) return;
  box.append(
    h("button", {
      type: "button",
      class: "choice-btn lead-partner",
      "data-action": "pass",
      disabled: store.busy,
      onclick: () => actions.letPartnerLead(partner),
    }, fmt(T.let_partner_lead, { name: plainName(partner) }))
  );
}

// The line of play: the tiles as SVG (doubles standing), the two ends marked, and the ends
// in words for screen readers and small screens.

import { fmt, h } from "./dom.js";
import { T } from "./page.js";
import { canPlay, leadChoicePartner, plainName, store } from "./state.js";
import { tileSvg } from "./tiles.js";

export function renderLine() {
  const line = document.getElementById("line");
  const endsText = document.getElementById("ends");
  const game = store.table.game;
  const hint = document.getElementById("lead-hint");
  line.replaceChildren();
  endsText.replaceChildren();
  hint.hidden = true;
  document.getElementById("board").classList.toggle("empty", Boolean(game) && !game.line.length);
  if (!game) return;
  if (!game.line.length) {
    // The hint is text beside the picture, not inside its role=img (which hides it).
    line.setAttribute("aria-label", T.line_empty);
    const partner = leadChoicePartner(); // my bot partner waits for me to choose
    hint.textContent = partner !== null ? fmt(T.lead_you_or_partner, { name: plainName(partner) }) : canPlay() ? T.lead_you : T.line_empty;
    hint.hidden = false;
    return;
  }
  const names = game.line.map(([a, b]) => `${a}-${b}`);
  line.setAttribute("aria-label", fmt(T.line_label, { tiles: names.join(", ") }));
  const [left, right] = game.ends;
  const choosing = store.pending !== null;
  const pieces = game.line.map(([a, b], index) => {
    const double = a === b;
    const piece = h("span", { class: "placed" + (double ? " double" : "") });
    piece.append(tileSvg(a, b, double));
    if (index === 0) piece.classList.add("at-left");
    if (index === game.line.length - 1) piece.classList.add("at-right");
    return piece;
  });
  const leftPill = h("span", { class: "end-marker left" + (choosing ? " choosing" : ""), "aria-hidden": "true" }, "◀ ", String(left));
  const rightPill = h("span", { class: "end-marker right" + (choosing ? " choosing" : ""), "aria-hidden": "true" }, String(right), " ▶");
  // Each pill goes in one box with its end tile, so a full row never leaves a pill alone
  // on the next one: it wraps with its tile. One tile: both pills around it.
  const last = pieces.length - 1;
  if (last === 0) {
    line.append(h("span", { class: "line-end" }, leftPill, pieces[0], rightPill));
  } else {
    line.append(h("span", { class: "line-end" }, leftPill, pieces[0]), ...pieces.slice(1, last));
    line.append(h("span", { class: "line-end" }, pieces[last], rightPill));
  }
  endsText.append(
    h("span", { class: "end-label" }, fmt(T.left_end, { pip: left })),
    " · ",
    h("span", { class: "end-label" }, fmt(T.right_end, { pip: right }))
  );
}

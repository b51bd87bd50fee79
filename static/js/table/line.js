// The line of play: the tiles as SVG (doubles standing), the two ends marked, and the ends
// in words for screen readers and small screens.

import { fmt, h } from "./dom.js";
import { T } from "./page.js";
import { canPlay, store } from "./state.js";
import { tileSvg } from "./tiles.js";

export function renderLine() {
  const line = document.getElementById("line");
  const endsText = document.getElementById("ends");
  const game = store.table.game;
  line.replaceChildren();
  endsText.replaceChildren();
  if (!game) return;
  if (!game.line.length) {
    line.setAttribute("aria-label", T.line_empty);
    line.append(h("p", { class: "empty" }, canPlay() ? T.lead_you : T.line_empty));
    return;
  }
  const names = game.line.map(([a, b]) => `${a}-${b}`);
  line.setAttribute("aria-label", fmt(T.line_label, { tiles: names.join(", ") }));
  const [left, right] = game.ends;
  const choosing = store.pending !== null;
  line.append(h("span", { class: "end-marker left" + (choosing ? " choosing" : ""), "aria-hidden": "true" }, "◀ ", String(left)));
  game.line.forEach(([a, b], index) => {
    const double = a === b;
    const piece = h("span", { class: "placed" + (double ? " double" : "") });
    piece.append(tileSvg(a, b, double));
    if (index === 0) piece.classList.add("at-left");
    if (index === game.line.length - 1) piece.classList.add("at-right");
    line.append(piece);
  });
  line.append(h("span", { class: "end-marker right" + (choosing ? " choosing" : ""), "aria-hidden": "true" }, String(right), " ▶"));
  endsText.append(
    h("span", { class: "end-label" }, fmt(T.left_end, { pip: left })),
    " · ",
    h("span", { class: "end-label" }, fmt(T.right_end, { pip: right }))
  );
}

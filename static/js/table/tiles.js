// Tiles drawn as SVG. The geometry is the same as the server's {% tile %} tag
// (tables/templatetags/tiles.py), so the rules page and the table look alike.

import { svgEl } from "./dom.js";

// Pip centres in a unit square, for 0..6 (classic layout) and 7..9 (double-nine sets:
// a 3 x 3 grid, less the middle column's ends for 7 and the centre for 8).
export const PIPS = {
  0: [],
  1: [[0.5, 0.5]],
  2: [[0.25, 0.25], [0.75, 0.75]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.25, 0.22], [0.75, 0.22], [0.25, 0.5], [0.75, 0.5], [0.25, 0.78], [0.75, 0.78]],
  7: [[0.2, 0.2], [0.8, 0.2], [0.2, 0.5], [0.5, 0.5], [0.8, 0.5], [0.2, 0.8], [0.8, 0.8]],
  8: [[0.2, 0.2], [0.5, 0.2], [0.8, 0.2], [0.2, 0.5], [0.8, 0.5], [0.2, 0.8], [0.5, 0.8], [0.8, 0.8]],
  9: [[0.2, 0.2], [0.5, 0.2], [0.8, 0.2], [0.2, 0.5], [0.5, 0.5], [0.8, 0.5], [0.2, 0.8], [0.5, 0.8], [0.8, 0.8]],
};

// A tile drawn with ``a`` first (left, or top when vertical). Decorative: the text
// label lives on the button or the line around it.
export function tileSvg(a, b, vertical) {
  const w = vertical ? 50 : 100;
  const ht = vertical ? 100 : 50;
  const svg = svgEl("svg", {
    viewBox: `0 0 ${w} ${ht}`,
    class: "tile " + (vertical ? "vertical" : "horizontal"),
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.append(svgEl("rect", { x: 1.5, y: 1.5, width: w - 3, height: ht - 3, rx: 7, class: "face" }));
  svg.append(
    vertical
      ? svgEl("line", { x1: 7, y1: 50, x2: 43, y2: 50, class: "divider" })
      : svgEl("line", { x1: 50, y1: 7, x2: 50, y2: 43, class: "divider" })
  );
  [a, b].forEach((pips, half) => {
    const ox = vertical ? 0 : half * 50;
    const oy = vertical ? half * 50 : 0;
    for (const [px, py] of PIPS[pips]) {
      // Horizontal tiles lay the six in rows, as real tiles do.
      const [x, y] = vertical ? [px, py] : [py, px];
      svg.append(svgEl("circle", { cx: ox + 4 + x * 42, cy: oy + 4 + y * 42, r: pips > 6 ? 4.5 : 5, class: `pip p${pips}` }));
    }
  });
  return svg;
}

// "6-4" -> [6, 4]
export function tileParts(name) {
  return name.split("-").map(Number);
}

// The tile named ``name`` drawn standing (hands) or lying (summaries).
export function tileNamed(name, vertical) {
  const [a, b] = tileParts(name);
  return tileSvg(a, b, vertical);
}

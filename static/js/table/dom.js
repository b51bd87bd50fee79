// Small DOM helpers for the table page: fill a translated template, build elements, say
// something in the message line, link a rule on /reglas/.

import { sessionEnded } from "./api.js";
import { T } from "./page.js";

const SVG = "http://www.w3.org/2000/svg";

// "%(name)s" placeholders (Django's style, as tables/ui_strings.py writes them).
export function fmt(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
}

// The form of a counted text for ``count`` ("1 punto", "0 puntos", "2 puntos"): ``forms``
// is {one, other} as the server sends it (tables/plurals.py plural_forms, from ngettext);
// "one" is for exactly 1, as in Spanish and English.
export function counted(forms, count) {
  return count === 1 ? forms.one : forms.other;
}

// h("li", {class, text, onclick, ...attributes}, ...children): null/false leave things out.
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "text") el.textContent = value;
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// ``text`` with each tile name ("5-5", "6-4") in a span that does not wrap, so a narrow
// column never splits one at its hyphen ("5-" / "5"). The characters stay as they are:
// copying the text gives the same hyphen, not a look-alike.
export function keepTiles(text) {
  return String(text)
    .split(/(\b\d{1,2}-\d{1,2}\b)/)
    .map((part, i) => (i % 2 ? h("span", { class: "tile-name", text: part }) : part))
    .filter((part) => part !== "");
}

export function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  return el;
}

// The message line under the title (role=status): ``kind`` "ok" or "error", or none. Once
// the session ended an error is left to the notice that says so (api.js), not repeated.
export function say(text, kind) {
  if (kind === "error" && sessionEnded()) text = kind = "";
  const box = document.getElementById("message");
  box.replaceChildren(...keepTiles(text || ""));
  box.className = "message" + (kind ? " " + kind : "");
}

// A link to rule ``id`` ("R22") on the rules page.
export function ruleLink(id) {
  return h("a", { href: `/reglas/#${id}`, class: "rule" }, fmt(T.rule, { id }));
}

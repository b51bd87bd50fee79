// The replay of a finished match: the positions the server computed from the record
// with the engine (dominoes.steps.replay_steps, in "replay-data"), stepped through hand by
// hand and move by move with the buttons or the arrow keys (← → moves, ↑ ↓ hands). Every
// hand shows every seat's tiles face up; each deal's seed and its checked hash are shown.
// The analysis (replay/analysis.js) marks the judged moves; players may share the replay
// by a public link (replay/share.js). Opened by that link (data-public), nothing changes.
// To a viewer who played the match, their own seats speak in the second person
// (replay/names.js). After a hand's last move one more step says how it ended, as the
// table page says it (table/summary.js handSentences) with every seat's count (R19).

import { analysisPanel } from "./replay/analysis.js";
import { seatNames } from "./replay/names.js";
import { sharePanel } from "./replay/share.js";
import { apiClient } from "./table/api.js";
import { counted } from "./table/dom.js";
import { handSentences } from "./table/summary.js";
import { tileNamed, tileSvg } from "./table/tiles.js";

const data = JSON.parse(document.getElementById("replay-data").textContent);
const T = JSON.parse(document.getElementById("replay-strings").textContent);
const page = document.getElementById("replay");
const isPublic = page.dataset.public === "1";
const place = { hand: 0, step: 0 };

// The last place of ``hand``: its end (one past its last move) when it ended, else its
// last move (a match may end in a hand that did not).
function lastStep(hand) {
  return hand.steps.length - (hand.result ? 0 : 1);
}

function fmt(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

// A seat's points, or in pairs (R2) its pair's, named as the table page names them
// (table/seats.js): "30 puntos", "Pareja A: 35". The pair's name and its points are two
// parts, each in its own column, so that both line up from row to row.
function seatScore(seat, scores) {
  const score = el("strong", "score");
  if (!data.pairs) {
    score.append(el("span", "points", fmt(counted(T.points, scores[seat]), { n: scores[seat] })));
    return score;
  }
  const team = seat % 2 === 0 ? T.team_a : T.team_b;
  const at = T.team_score.indexOf("%(n)s");
  const side = fmt(T.team_score.slice(0, at), { team }).trim();
  if (side) score.append(el("span", "side", side));
  score.append(el("span", "points", fmt(T.team_score.slice(at), { team, n: scores[seat % 2] })));
  return score;
}

// "Semilla: %(seed)s" into the paragraph ``id``, the seed or hash (``value``) in a span
// of its own, the only part that breaks anywhere (site.css, ".seed .digest"): the words
// around it break at their spaces. Empty without a value.
function showDigest(id, template, key, value) {
  const paragraph = document.getElementById(id);
  if (!value) {
    paragraph.replaceChildren();
    return;
  }
  const [before, after] = template.split(`%(${key})s`);
  paragraph.replaceChildren(before, el("span", "digest", value), after ?? "");
}

function said(action, step) {
  if (!action) return fmt(T.dealt, { n: place.hand + 1 });
  if (action.kind === "pass") return names.said("log_pass", action.seat);
  if (action.kind === "draw") return names.said("log_draw", action.seat, { tile: action.tile });
  const lead = step.line.length === 1;
  return names.said(lead ? "log_lead" : "log_play", action.seat, { tile: action.tile });
}

// A seat's row: its name (tagged "tú" or "tu pareja"), its tile count, its tiles face
// up and its points; at a hand's end (``result``) its count too, the winners marked.
function seatRow(tiles, seat, scores, result) {
  const row = el("li", result && result.winners.includes(seat) ? "winner" : "");
  const [name, tag] = names.label(seat);
  const named = el("span", "name", name);
  if (tag) named.append(el("small", "tags", tag));
  const count = el("span", "count", fmt(counted(T.count, tiles.length), { n: tiles.length }));
  if (result) count.append(el("span", "hand-count", fmt(T.hand_count, { n: result.counts[seat] })));
  row.append(named, count);
  const shown = el("span", "mini-tiles");
  shown.setAttribute("role", "img");
  shown.setAttribute("aria-label", tiles.join(", "));
  for (const tile of tiles) shown.append(tileNamed(tile, false));
  row.append(shown, seatScore(seat, scores));
  return row;
}

// The position line and what happened at this step: a move, or how the hand ended.
function tell(hand, step, ended) {
  const where = { hand: place.hand + 1, hands: data.hands.length, move: place.step, moves: hand.steps.length - 1 };
  document.getElementById("position").textContent = fmt(ended ? T.position_end : T.position, where);
  document.getElementById("action").textContent = ended ? fmt(T.hand_over_title, { n: place.hand + 1 }) : said(step.action, step);
  const end = document.getElementById("hand-end");
  end.hidden = !ended;
  end.replaceChildren(...(ended ? handSentences(hand.result, names) : []));
}

function render() {
  const hand = data.hands[place.hand];
  const ended = place.step === hand.steps.length;
  const step = hand.steps[ended ? place.step - 1 : place.step];
  tell(hand, step, ended);
  const judged = analysis.judgement(place.hand, place.step);
  const note = document.getElementById("judgement");
  note.hidden = !judged;
  note.textContent = judged ? judged.text : "";
  note.className = "judgement" + (judged ? ` mark-${judged.mark}` : "");
  const line = document.getElementById("line");
  line.replaceChildren();
  if (!step.line.length) line.append(el("p", "empty", T.line_empty));
  // The tile just played: at the right end when the line kept its left end, else the left.
  const before = place.step > 0 ? hand.steps[place.step - 1].line : [];
  const keptLeft = before.length && String(before[0]) === String(step.line[0]);
  const newest = !ended && step.action && step.action.kind === "play" ? (keptLeft || !before.length ? step.line.length - 1 : 0) : -1;
  step.line.forEach(([a, b], index) => {
    const piece = el("span", "placed" + (a === b ? " double" : ""));
    piece.append(tileSvg(a, b, a === b));
    if (index === newest) piece.classList.add("newest");
    line.append(piece);
  });
  line.setAttribute("aria-label", step.line.map(([a, b]) => `${a}-${b}`).join(", ") || T.line_empty);
  const seats = document.getElementById("seats");
  seats.replaceChildren(...step.holdings.map((tiles, seat) => seatRow(tiles, seat, step.scores, ended ? hand.result : null)));
  document.getElementById("stock").textContent = fmt(T.stock, { n: step.stock_left });
  showDigest("seed", T.seed, "seed", hand.seed);
  showDigest("seed-hash", T.seed_sha256, "hash", hand.seed_sha256);
  document.getElementById("seed-ok").textContent = hand.seed_checked ? "✓ " + T.seed_ok : "";
  document.getElementById("replay").dataset.place = `${place.hand}:${place.step}`;
  document.getElementById("prev-move").disabled = place.hand === 0 && place.step === 0;
  document.getElementById("prev-hand").disabled = place.hand === 0;
  const last = data.hands.length - 1;
  document.getElementById("next-move").disabled = place.hand === last && place.step === lastStep(hand);
  document.getElementById("next-hand").disabled = place.hand === last;
}

function move(delta) {
  const next = place.step + delta;
  if (next >= 0 && next <= lastStep(data.hands[place.hand])) place.step = next;
  else if (delta > 0 && place.hand < data.hands.length - 1) Object.assign(place, { hand: place.hand + 1, step: 0 });
  else if (delta < 0 && place.hand > 0) {
    place.hand -= 1;
    place.step = lastStep(data.hands[place.hand]);
  }
  render();
}

function hand(delta) {
  const next = place.hand + delta;
  if (next < 0 || next >= data.hands.length) return;
  Object.assign(place, { hand: next, step: 0 });
  render();
}

const names = seatNames({ data, T, fmt });
const client = isPublic ? null : apiClient(page.dataset.csrf);
const analysis = analysisPanel({ data, T, client, fmt, names, onChange: () => render() });
if (!isPublic) sharePanel({ data, T, csrfToken: page.dataset.csrf });

// "?hand=2&move=5" (the analysis summary's links): that place, counted as the position
// line counts it (hand from 1, move 0 the deal); out of range, the nearest that exists.
function placeFrom(search) {
  const params = new URLSearchParams(search);
  if (!params.has("hand")) return null;
  const handIndex = Math.min(Math.max(Number.parseInt(params.get("hand"), 10) - 1 || 0, 0), data.hands.length - 1);
  const step = Math.min(Math.max(Number.parseInt(params.get("move"), 10) || 0, 0), lastStep(data.hands[handIndex]));
  return { hand: handIndex, step };
}

function goTo(search) {
  const found = placeFrom(search);
  if (!found) return;
  Object.assign(place, found);
  render();
}

// A summary's link moves the replay in place (the address follows, for the back button).
document.getElementById("analysis").addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a.blunder-link");
  if (!link) return;
  event.preventDefault();
  history.pushState(null, "", link.search);
  goTo(link.search);
  document.getElementById("position").scrollIntoView({ block: "start" });
});
window.addEventListener("popstate", () => goTo(window.location.search || "?hand=1&move=0"));

document.getElementById("prev-move").addEventListener("click", () => move(-1));
document.getElementById("next-move").addEventListener("click", () => move(1));
document.getElementById("prev-hand").addEventListener("click", () => hand(-1));
document.getElementById("next-hand").addEventListener("click", () => hand(1));
document.addEventListener("keydown", (event) => {
  if (event.target.closest && event.target.closest("select, input, textarea")) return;
  const keys = { ArrowLeft: () => move(-1), ArrowRight: () => move(1), ArrowUp: () => hand(-1), ArrowDown: () => hand(1) };
  if (keys[event.key]) {
    event.preventDefault();
    keys[event.key]();
  }
});
const opening = placeFrom(window.location.search);
if (opening) Object.assign(place, opening);
render();

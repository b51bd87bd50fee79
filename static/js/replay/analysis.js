// The analysis of a finished match on the replay page: the "Analizar la
// partida" button (POST /api/v1/tables/{id}/analysis/), the progress while the worker
// judges the moves (polling GET on the same path), then the per-player summary and, when
// stepping, each judged move's mark ("imprecisión", "error", "error grave") with the
// better move named on the action's line (the viewer's own moves in the second person:
// "con 6-4 ganabas la mano"). The numbers come from the server (dominoes.analysis);
// nothing is computed here. The better move is the one that wins the hand most often
// (ties: the most expected points), so its chance is shown with the decimals it takes to
// differ from the move played ("32,9 %" against "33,4 %", not "33 %" twice).

import { counted } from "../table/dom.js";

const POLL_MS = 1500;
const WORKING = new Set(["queued", "running"]);

// "33 %", the number and its sign joined by a no-break space (never "33" / "%").
function pct(chance) {
  return `${Math.round(chance * 100)}\u00a0%`;
}

const PERCENT = [0, 1, 2].map((digits) => new Intl.NumberFormat(document.documentElement.lang || "es", {
  minimumFractionDigits: digits,
  maximumFractionDigits: digits,
}));

// Two chances (0-1) as percentages with the fewest decimals (0 to 2) that tell them apart.
function twoPercents(first, second) {
  const shown = PERCENT.map((format) => [first, second].map((chance) => `${format.format(chance * 100)}\u00a0%`));
  return shown.find(([a, b]) => a !== b) || shown[shown.length - 1];
}

// One decimal in the page's language ("2,5" in Spanish, "2.5" in English).
const ONE_DECIMAL = new Intl.NumberFormat(document.documentElement.lang || "es", {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

function decimal(value) {
  return ONE_DECIMAL.format(value);
}

function points(value) {
  return (value > 0 ? "+" : "") + decimal(value);
}

function moveName(move, T, fmt) {
  return move.end === null || move.end === undefined ? move.tile : fmt(T.move_on_end, { tile: move.tile, end: move.end });
}

// The sentence for one judged move and its mark ("best", "fine" or the move's mark); a
// move of the viewer's seat (``yours``) in the second person.
// The better move wins the hand more often ("judged"), or as often with more expected
// points ("judged_tie").
function judgementOf(move, yours, T, fmt) {
  const mine = { move: moveName(move, T, fmt), chance: pct(move.hand_win_chance), points: points(move.expected_points) };
  const you = yours ? "_you" : "";
  if (!move.best) return { mark: "best", text: fmt(T["judged_best" + you], mine) };
  const tie = move.best.hand_win_chance === move.hand_win_chance;
  const [chance, bestChance] = tie ? [mine.chance, mine.chance] : twoPercents(move.hand_win_chance, move.best.hand_win_chance);
  const best = {
    chance,
    best: moveName(move.best, T, fmt),
    best_chance: bestChance,
    best_points: points(move.best.expected_points),
  };
  const label = move.mark ? T[`mark_${move.mark}`] : T.mark_none;
  const key = tie ? "judged_tie" : "judged";
  return { mark: move.mark || "fine", text: fmt(T[key + you], { ...mine, ...best, mark: label }) };
}

// The address of the replay's position just after ``action`` of ``hand`` (both from 0),
// as the position line counts them: "?hand=2&move=5" is "Mano 2 … jugada 5" (replay.js
// opens there).
export function placeHref(hand, action) {
  return `?hand=${hand + 1}&move=${action + 1}`;
}

// After a seat's count of blunders, a link to each: " (mano 1, jugada 5 · mano 3, jugada 2)".
function blunderLinks(result, seat, T, fmt) {
  const blunders = result.moves.filter((move) => move.seat === seat && move.mark === "blunder");
  if (!blunders.length) return [];
  const parts = [" ("];
  blunders.forEach((move, index) => {
    if (index) parts.push(" · ");
    const link = document.createElement("a");
    link.className = "blunder-link";
    link.href = placeHref(move.hand, move.action);
    link.textContent = fmt(T.blunder_at, { hand: move.hand + 1, move: move.action + 1 });
    parts.push(link);
  });
  parts.push(")");
  return parts;
}

// One row per analysed seat: name (tagged as on the seats' rows), moves judged, the
// marks, the average loss.
function drawSummary(table, result, names, T, fmt) {
  const body = table.querySelector("tbody");
  const labels = Array.from(table.querySelectorAll("thead th"), (th) => th.textContent);
  body.replaceChildren();
  for (const row of result.summary) {
    const tr = document.createElement("tr");
    tr.dataset.seat = String(row.seat);
    const loss = fmt(T.summary_loss, {
      chance: pct(row.average_loss.hand_win_chance),
      points: decimal(row.average_loss.expected_points),
    });
    const cells = [names.label(row.seat).join(""), row.moves_analysed, row.inaccuracies, row.errors, row.blunders, loss];
    cells.forEach((value, column) => {
      const cell = document.createElement(column === 0 ? "th" : "td");
      if (column === 0) cell.scope = "row";
      cell.dataset.label = labels[column];
      cell.textContent = String(value);
      if (column === 4) cell.append(...blunderLinks(result, row.seat, T, fmt));
      tr.append(cell);
    });
    body.append(tr);
  }
  table.hidden = false;
}

// "Análisis hecho: 2 jugadas juzgadas. No se juzgan 4 jugadas obligadas (…)": the forced
// actions (a single legal play, a draw, a pass) counted per seat in the summary.
function doneText(result, T, fmt) {
  const judged = result.moves.length;
  const forced = result.summary.reduce((sum, row) => sum + (row.forced || 0), 0);
  const done = fmt(counted(T.analysis_done, judged), { n: judged });
  return forced ? `${done} ${fmt(counted(T.analysis_forced, forced), { n: forced })}` : done;
}

// The status line, the progress bar and (once done) the summary for ``state``.
function drawState(state, { names, T, fmt, signedIn }) {
  const kind = state ? state.status : "none";
  const status = document.getElementById("analysis-status");
  const bar = document.getElementById("analysis-progress");
  const summary = document.getElementById("analysis-summary");
  const button = document.getElementById("analyse");
  document.getElementById("analysis").dataset.status = kind;
  if (button) button.hidden = !(signedIn && (kind === "none" || kind === "failed"));
  bar.hidden = !WORKING.has(kind);
  summary.hidden = true;
  if (kind === "none") status.textContent = signedIn ? T.analysis_none : T.analysis_public_none;
  else if (kind === "queued") status.textContent = T.analysis_queued;
  else if (kind === "failed") status.textContent = T.analysis_failed;
  else if (kind === "running") {
    const { done, total } = state.progress;
    status.textContent = total ? fmt(T.analysis_running, { done, total }) : T.analysis_queued;
    bar.max = Math.max(total, 1);
    bar.value = done;
  } else {
    status.textContent = doneText(state.result, T, fmt);
    drawSummary(summary, state.result, names, T, fmt);
  }
}

// The panel; ``client`` is null on the public page (nothing to ask for there); ``names``
// is replay/names.js's. Returns ``judgement(hand, step)``: the judged move of that step
// (step 0 is the deal) or null.
export function analysisPanel({ data, T, client, fmt, names, onChange }) {
  const button = document.getElementById("analyse");
  let state = data.analysis;
  let judged = new Map();

  function update(next, notify = true) {
    state = next;
    judged = new Map();
    for (const move of state && state.result ? state.result.moves : []) judged.set(`${move.hand}:${move.action}`, move);
    drawState(state, { names, T, fmt, signedIn: Boolean(client) });
    if (notify) onChange();
  }

  async function poll() {
    const answer = await client.get(data.api.analysis);
    if (answer.ok) update(answer.data);
    if (!answer.ok || WORKING.has(state.status)) setTimeout(poll, POLL_MS);
  }

  if (button) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      // Asked, not yet answered: say so at once (a server without a worker answers only
      // once the analysis is done).
      document.getElementById("analysis-status").textContent = T.analysis_queued;
      document.getElementById("analysis-progress").hidden = false;
      const answer = await client.post(data.api.analysis);
      button.disabled = false;
      if (!answer.ok) {
        document.getElementById("analysis-status").textContent = fmt(T.failed, { detail: answer.error.detail });
        return;
      }
      update(answer.data);
      if (WORKING.has(state.status)) setTimeout(poll, POLL_MS);
    });
  }

  update(state, false);
  if (client && state && WORKING.has(state.status)) setTimeout(poll, POLL_MS);
  return {
    judgement(hand, step) {
      const move = judged.get(`${hand}:${step - 1}`);
      return move ? judgementOf(move, names.isMine(move.seat), T, fmt) : null;
    },
  };
}

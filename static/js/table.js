// The table page: draws the table from the JSON the API serves for this seat
// (selectors.table_view_for_user, built on dominoes.view_for: R31), plays moves through
// the API and polls it for changes. The first paint reads the same JSON from the page
// (json_script), so there is one renderer and nothing to keep in step on the server.

const root = document.getElementById("table");
const T = JSON.parse(document.getElementById("table-strings").textContent);
let state = JSON.parse(document.getElementById("table-data").textContent);
// The table's rule profile (tables.help.profile_facts): its name, rules link and flags.
const profileNode = document.getElementById("table-profile");
const profile = profileNode
  ? JSON.parse(profileNode.textContent)
  : { name: "classic", label: "", url: "/reglas/", pairs: true, single_hand: false };
let etag = null;
let busy = false;
let pending = null; // the tile waiting for an end choice (R12)
let pollTimer = null;
let restoreFocus = false; // put focus back in the hand after a move re-renders it

const POLL_MS = 3000;
const POLL_HIDDEN_MS = 15000;
const SVG = "http://www.w3.org/2000/svg";

// --- small helpers ------------------------------------------------------------------------

function fmt(template, values) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => String(values[key]));
}

function h(tag, attrs, ...children) {
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

function newKey() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function plainName(seat) {
  const player = state.players[seat];
  return (player && player.name) || T.open_seat;
}

// One person may hold two seats (seven_plus_seven): their name then says which hand.
function twoHands() {
  return Boolean(profile.two_hands);
}

function playerName(seat) {
  const name = plainName(seat);
  const player = state.players[seat];
  if (twoHands() && player && player.name) return fmt(T.seat_name, { name, n: seat + 1 });
  return name;
}

// Names of seats, each person once ("alice y bob", not "alice y alice").
function joinNames(seats) {
  return [...new Set(seats.map(plainName))].join(T.and);
}

// Every seat I hold: one, or both seats of my pair (seven_plus_seven).
function mySeats() {
  return state.your_seats || [state.your_seat];
}

// Four seats play in two pairs, partners opposite (R2), unless the profile plays alone.
function inPairs() {
  return state.seats === 4 && profile.pairs;
}

// Before a lead the winning pair chooses (cuban), either partner may lead: the one the
// table waits for has ``your_turn``, the other gets ``legal_moves`` too.
function canPlay() {
  const game = state.game;
  if (state.status !== "playing" || !game) return false;
  if (state.your_turn) return true;
  return Boolean(game.lead_seats && game.lead_seats.includes(state.your_seat) && game.legal_moves.length);
}

function timeLeft(deadline) {
  if (!deadline) return "";
  const ms = Date.parse(deadline) - Date.now();
  const minutes = Math.floor(ms / 60000);
  if (minutes < 1) return T.under_a_minute;
  const hours = Math.floor(minutes / 60);
  if (hours < 1) return fmt(T.minutes, { m: minutes });
  return fmt(T.hours_minutes, { h: hours, m: minutes % 60 });
}

function say(text, kind) {
  const box = document.getElementById("message");
  box.textContent = text || "";
  box.className = "message" + (kind ? " " + kind : "");
}

// --- tiles as SVG ------------------------------------------------------------------------

// Pip centres in a unit square, for 0..6 (classic layout) and 7..9 (double-nine sets:
// a 3 x 3 grid, less the middle column's ends for 7 and the centre for 8).
const PIPS = {
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

function svgEl(tag, attrs) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, value);
  return el;
}

// A tile drawn with ``a`` first (left, or top when vertical). Decorative: the text
// label lives on the button or the line around it.
function tileSvg(a, b, vertical) {
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

function tileParts(name) {
  return name.split("-").map(Number);
}

// --- rendering ---------------------------------------------------------------------------

function render() {
  const game = state.game;
  renderStatus();
  renderInvites();
  renderPlayers();
  renderScoreboard();
  renderLine();
  renderHand();
  renderLastHand();
  renderLog();
  renderResult();
  const active = state.status === "waiting" || state.status === "playing";
  document.getElementById("abandon").hidden = !active;
  for (const id of ["board", "my-hand", "log-section"]) document.getElementById(id).hidden = !game;
  renderOtherHand();
  root.dataset.version = state.version;
  root.classList.toggle("my-turn", state.your_turn);
}

function renderStatus() {
  const line = document.getElementById("status-line");
  const game = state.game;
  const parts = [];
  if (state.status === "waiting") {
    parts.push(state.invites.length ? "" : T.waiting_other);
  } else if (state.status === "playing" && game) {
    parts.push(fmt(T.hand_n, { n: game.hand_number + 1 }) + ".");
    const mine = state.your_turn && mySeats().length > 1 ? fmt(T.your_turn_hand, { n: state.your_seat + 1 }) : T.your_turn;
    parts.push(state.your_turn ? mine : fmt(T.turn_of, { name: playerName(state.turn_seat) }));
    const leads = game.lead_seats;
    if (leads && leads.length > 1) {
      parts.push(leads.includes(state.your_seat) ? T.lead_pair_you : fmt(T.lead_pair, { names: joinNames(leads) }));
    }
    if (state.deadline) parts.push(fmt(T.time_left, { time: timeLeft(state.deadline) }));
  }
  line.textContent = parts.filter(Boolean).join(" ");
  line.classList.toggle("turn", state.your_turn);
}

function renderInvites() {
  const section = document.getElementById("invites");
  const list = document.getElementById("invite-list");
  section.hidden = !state.invites.length;
  list.replaceChildren();
  if (!state.invites.length) return;
  list.append(h("p", { text: T.waiting }));
  for (const invite of state.invites) {
    const url = invite.url || new URL(invite.path, location.href).href;
    const id = `invite-${invite.seat}`;
    const hands = invite.hands || [invite.seat];
    const label = hands.length > 1
      ? fmt(T.invite_pair, { n: hands[0] + 1, m: hands[1] + 1 })
      : fmt(invite.partner ? T.invite_partner : T.invite_seat, { n: invite.seat + 1 });
    const copy = h("button", { type: "button", class: "primary copy-link", onclick: () => copyLink(url, id) }, T.copy);
    const share = navigator.share
      ? h("button", {
          type: "button",
          class: "share-link",
          onclick: () => navigator.share({ title: document.title, text: T.share_text, url }).catch(() => {}),
        }, T.share)
      : null;
    list.append(
      h("div", { class: "invite" },
        h("label", { for: id, text: label }),
        h("input", { id, type: "url", readonly: true, value: url, class: "invite-url", onfocus: (e) => e.target.select() }),
        h("div", { class: "actions" }, copy, share))
    );
  }
}

async function copyLink(url, inputId) {
  try {
    await navigator.clipboard.writeText(url);
    say(T.copied, "ok");
  } catch (error) {
    const input = document.getElementById(inputId);
    input.focus();
    input.select();
    say(document.execCommand && document.execCommand("copy") ? T.copied : T.copy_failed, "ok");
  }
}

function renderPlayers() {
  const list = document.getElementById("players");
  const game = state.game;
  list.replaceChildren();
  for (const player of state.players) {
    const me = mySeats().includes(player.seat);
    const partner = inPairs() && !me && player.seat === (state.your_seat + 2) % 4;
    const turn = state.status === "playing" && state.turn_seat === player.seat;
    const count = game ? game.tile_counts[player.seat] : null;
    const tags = [];
    if (me) tags.push(T.you);
    if (partner) tags.push(T.partner);
    if (player.bot) tags.push("bot");
    list.append(
      h("li", { class: "player" + (turn ? " turn" : "") + (me ? " me" : "") },
        h("span", { class: "name" },
          turn ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : null,
          player.name ? playerName(player.seat) : T.open_seat,
          tags.length ? h("small", { class: "tags" }, ` (${tags.join(", ")})`) : null),
        h("span", { class: "facts" },
          count === null ? null : h("span", { class: "count" }, count === 1 ? T.tiles_one : fmt(T.tiles_many, { n: count })),
          turn ? h("span", { class: "badge turn" }, T.to_play, state.deadline ? " · " + timeLeft(state.deadline) : "") : null))
    );
  }
  const stock = document.getElementById("stock");
  // Profiles without drawing (cuban) leave tiles out of play: they are no stock to draw.
  if (!game) stock.textContent = "";
  else if (profile.draws === false) stock.textContent = game.stock_size ? fmt(T.out_of_play, { n: game.stock_size }) : "";
  else stock.textContent = fmt(T.stock, { n: game.stock_size });
}

function renderScoreboard() {
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

function renderLine() {
  const line = document.getElementById("line");
  const endsText = document.getElementById("ends");
  const game = state.game;
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
  const choosing = pending !== null;
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

function renderHand() {
  const hand = document.getElementById("hand");
  const hint = document.getElementById("hand-hint");
  const game = state.game;
  const active = document.activeElement;
  const focused = active && hand.contains(active) ? active.dataset.tile : null;
  const keepFocus = restoreFocus || focused !== null;
  hand.replaceChildren();
  if (!game) return;
  const playable = new Set(game.legal_moves.map((m) => m.tile));
  const playing = state.status === "playing";
  const mine = canPlay();
  const choosing = mine && choicesOf(game).length > 0;
  hint.textContent = playing ? (choosing ? T.choose_hint : mine ? T.playable_hint : T.waiting_turn) : "";
  // Holding two hands, the title says which seat this hand is (the one to play, if mine).
  const title = document.getElementById("hand-title");
  if (mySeats().length > 1) {
    title.textContent = fmt(T.hand_title_seat, { n: state.your_seat + 1 });
    if (playing && mine && !choosing) hint.textContent = T.hand_plays_now;
  }
  hand.dataset.seat = state.your_seat;
  hand.append(h("span", { id: "playable-note", hidden: true }, T.playable));
  for (const tile of game.tiles) {
    const [a, b] = tileParts(tile);
    const can = mine && playable.has(tile) && !busy;
    const button = h("button", {
      type: "button",
      class: "tile-btn" + (playable.has(tile) ? " playable" : "") + (pending === tile ? " selected" : ""),
      "aria-label": tile,
      "aria-describedby": playable.has(tile) ? "playable-note" : null,
      "aria-pressed": pending === tile ? "true" : null,
      "data-tile": tile,
      disabled: !can,
      onclick: () => choose(tile),
    });
    button.append(tileSvg(a, b, true));
    if (playable.has(tile)) button.append(h("span", { class: "mark", "aria-hidden": "true" }, "▲"));
    hand.append(button);
  }
  renderEndChoice();
  renderChoices();
  // Keyboard players keep their place: the same tile, else the first one they can play.
  if (keepFocus && !busy && pending === null) {
    restoreFocus = false;
    const again =
      hand.querySelector(`[data-tile="${focused}"]:not([disabled])`) ||
      hand.querySelector("button:not([disabled])") ||
      document.getElementById("hand-title");
    again.focus();
  }
}

// My other hand (seven_plus_seven): its tiles, shown but not playable until its turn.
function renderOtherHand() {
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
    const [a, b] = tileParts(tile);
    const piece = h("span", { class: "tile-btn", "data-tile": tile });
    piece.append(tileSvg(a, b, true));
    tiles.append(piece);
  }
}

function renderEndChoice() {
  const box = document.getElementById("end-choice");
  const buttons = box.querySelector(".end-buttons");
  buttons.replaceChildren();
  const game = state.game;
  if (pending === null || !game || !canPlay()) {
    box.hidden = true;
    return;
  }
  const moves = game.legal_moves.filter((m) => m.tile === pending);
  const [left, right] = game.ends;
  document.getElementById("end-choice-title").textContent = fmt(T.choose_end, { tile: pending });
  for (const move of moves) {
    const side = move.end === left ? T.on_left : T.on_right;
    const pip = move.end === left ? left : right;
    buttons.append(
      h("button", { type: "button", class: "primary end-btn", "data-end": move.end, onclick: () => send(move) }, fmt(side, { pip }))
    );
  }
  buttons.append(h("button", { type: "button", class: "end-cancel", onclick: () => { pending = null; render(); } }, T.cancel));
  box.hidden = false;
}

// Draw or pass, where the profile makes them the seat's own choice (first_double):
// ``game.choices`` is ["draw", "pass"] then, else empty or absent.
function choicesOf(game) {
  return (game && state.your_turn && game.choices) || [];
}

function renderChoices() {
  const box = document.getElementById("choices");
  if (!box) return;
  const choices = choicesOf(state.game);
  box.replaceChildren();
  box.hidden = !choices.length || state.status !== "playing";
  if (box.hidden) return;
  const labels = { draw: T.choice_draw, pass: T.choice_pass };
  for (const action of choices) {
    box.append(
      h("button", {
        type: "button",
        class: "choice-btn" + (action === "draw" ? " primary" : ""),
        "data-action": action,
        disabled: busy,
        onclick: () => sendAction(action),
      }, labels[action] || action)
    );
  }
}

function logLines(game) {
  const lines = [];
  const entries = game.log;
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    const name = playerName(entry.seat);
    if (entry.kind === "play") {
      lines.push(fmt(entry.end === null ? T.log_lead : T.log_play, { name, tile: entry.tile }));
    } else if (entry.kind === "pass") {
      lines.push(fmt(T.log_pass, { name }));
    } else {
      // Consecutive draws by one seat read as one line: "Nino robó 2 fichas" (R14, R16).
      const seen = [];
      let n = 0;
      while (i < entries.length && entries[i].kind === "draw" && entries[i].seat === entry.seat) {
        if (entries[i].tile) seen.push(entries[i].tile);
        n++;
        i++;
      }
      i--;
      let text = n === 1 ? fmt(T.log_draw_one, { name }) : fmt(T.log_draw_many, { name, n });
      if (seen.length) text += ` (${seen.join(", ")})`;
      lines.push(text);
    }
  }
  return lines;
}

function renderLog() {
  const list = document.getElementById("log");
  list.replaceChildren();
  const game = state.game;
  if (!game) return;
  const lines = logLines(game);
  if (!lines.length) list.append(h("li", { class: "empty" }, T.log_empty));
  // Newest first: on a phone the latest move is what one wants to read.
  for (const text of lines.reverse()) list.append(h("li", {}, text));
}

function ruleLink(id) {
  return h("a", { href: `/reglas/#${id}`, class: "rule" }, fmt(T.rule, { id }));
}

// Like fmt, but returns nodes: ``%(rule)s`` becomes the link to that rule on /reglas/.
function fmtRule(template, rule, values) {
  return template.split(/(%\(rule\)s)/).map((part) => (part === "%(rule)s" ? ruleLink(rule) : fmt(part, values)));
}

function sumText(counts, total) {
  return counts.length === 1 ? String(total) : `${counts.join(" + ")} = ${total}`;
}

// The rule that decided the hand, with this hand's numbers (R20-R23):
// "Gana la pareja con menos puntos (Regla R22): Pareja A 24 contra Pareja B 24. Empate: nadie suma."
function whyNumbers(last) {
  const counts = last.counts;
  const others = (winners) => counts.filter((_, seat) => !winners.includes(seat));
  if (last.end === "domino") {
    const out = last.holdings.findIndex((tiles) => tiles.length === 0);
    const nodes = fmtRule(T.why_domino, "R20", { sum: sumText(others(last.winners), last.points), points: last.points });
    if (inPairs() && out >= 0) nodes.push(" ", fmt(T.why_partner, { name: playerName((out + 2) % 4) }));
    return nodes;
  }
  if (inPairs()) {
    const team = (t) => counts.filter((_, seat) => seat % 2 === t).reduce((a, b) => a + b, 0);
    const nodes = fmtRule(T.why_teams, "R22", { a: `${T.team_a} ${team(0)}`, b: `${T.team_b} ${team(1)}` });
    if (!last.winners.length) nodes.push(" ", T.why_teams_tie);
    return nodes;
  }
  const lowest = Math.min(...counts);
  const tied = counts.map((count, seat) => (count === lowest ? seat : -1)).filter((seat) => seat >= 0);
  const nodes = [];
  if (tied.length > 1) {
    const value = (tile) => tileParts(tile).reduce((a, b) => a + b, 0);
    const values = tied
      .map((seat) => `${playerName(seat)} ${last.holdings[seat].map(value).sort((a, b) => a - b).join(", ")}`)
      .join("; ");
    nodes.push(...fmtRule(T.why_tie, "R23", { count: lowest, values }));
    if (!last.winners.length) return nodes.concat(" ", T.why_tie_nobody);
    nodes.push(" ");
  }
  const winner = last.winners[0];
  if (winner === undefined) return nodes;
  const values = { name: playerName(winner), count: counts[winner], sum: sumText(others(last.winners), last.points) };
  return nodes.concat(tied.length > 1 ? fmt(T.why_tie_winner, values) : fmtRule(T.why_lowest, "R21", values));
}

function renderLastHand() {
  const section = document.getElementById("last-hand");
  const body = document.getElementById("last-hand-body");
  const last = state.game && state.game.last_hand;
  section.hidden = !last;
  body.replaceChildren();
  if (!last) return;
  document.getElementById("last-hand-title").textContent = fmt(T.hand_result, { n: last.number + 1 });
  const why = h("p", { class: "why" });
  if (last.end === "domino") {
    const out = last.holdings.findIndex((tiles) => tiles.length === 0);
    why.append(fmt(T.domino, { name: playerName(out >= 0 ? out : last.winners[0]) }), " ", ruleLink("R17"));
  } else {
    why.append(T.blocked, " ", ruleLink("R18"));
  }
  body.append(why);
  if (last.capicua) body.append(h("p", { class: "capicua" }, h("strong", {}, T.capicua), " ", T.capicua_why));
  // The numbers explained with the house rules (R20-R23); other profiles score their own
  // way, so their tables link to the profile's summary instead.
  if (profile.name === "classic") body.append(h("p", { class: "why numbers" }, whyNumbers(last)));
  else body.append(h("p", { class: "why numbers" }, T.profile_scoring, " ", h("a", { href: profile.url, class: "rule" }, profile.label), "."));
  body.append(
    h("p", { class: "scored" },
      last.winners.length && last.points >= 0
        ? fmt(T.scored, { names: joinNames(last.winners), points: last.points })
        : T.nobody_scored)
  );
  const list = h("ul", { class: "holdings" });
  last.holdings.forEach((tiles, seat) => {
    const row = h("li", { class: last.winners.includes(seat) ? "winner" : "" },
      h("span", { class: "name" }, playerName(seat), last.winners.includes(seat) ? " ★" : ""),
      h("span", { class: "count" }, fmt(T.count, { n: last.counts[seat] })));
    const shown = h("span", { class: "mini-tiles", "aria-label": tiles.length ? tiles.join(", ") : T.no_tiles, role: "img" });
    for (const tile of tiles) {
      const [a, b] = tileParts(tile);
      shown.append(tileSvg(a, b, false));
    }
    if (!tiles.length) shown.append(T.no_tiles);
    row.append(shown);
    list.append(row);
  });
  body.append(list);
}

function renderResult() {
  const section = document.getElementById("result");
  const body = document.getElementById("result-body");
  const over = state.status === "finished" || state.status === "closed";
  const wasHidden = section.hidden;
  section.hidden = !over;
  body.replaceChildren();
  if (!over) return;
  const winners = state.winners || [];
  let headline;
  if (!winners.length) headline = T.no_winner;
  else if (winners.includes(state.your_seat)) headline = T.you_won;
  else headline = fmt(T.match_won, { names: joinNames(winners) }) + " " + T.you_lost;
  body.append(h("p", { class: "headline" }, headline));
  const outcome = profile.single_hand && state.outcome === "target" ? T.outcome_single_hand : T["outcome_" + state.outcome];
  if (outcome) body.append(h("p", {}, outcome));
  if (state.game && state.game.zapato) body.append(h("p", { class: "zapato" }, h("strong", {}, T.zapato), " ", T.zapato_why));
  if (wasHidden) section.focus();
}

// --- playing -----------------------------------------------------------------------------

function choose(tile) {
  if (busy || !canPlay()) return;
  const moves = state.game.legal_moves.filter((m) => m.tile === tile);
  if (!moves.length) return;
  if (moves.length === 1) {
    send(moves[0]);
    return;
  }
  pending = pending === tile ? null : tile; // R12: the tile fits both ends; ask which
  render();
  const first = document.querySelector("#end-choice .end-btn");
  if (first) first.focus();
}

async function post(url, body) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json",
      "X-CSRFToken": root.dataset.csrf,
      "Idempotency-Key": newKey(),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function send(move) {
  // ``seat`` says which of my hands plays (it matters when I hold two: seven_plus_seven).
  const body = { tile: move.tile, end: move.end, version: state.version, seat: state.your_seat };
  await submit(body, fmt(T.played, { tile: move.tile }));
}

// Draw or pass by the seat's own choice: the same moves endpoint, fetch and
// Idempotency-Key as a play, with ``{action, version}`` (the server draws the top tile).
async function sendAction(action) {
  const body = { action, version: state.version, seat: state.your_seat };
  await submit(body, action === "draw" ? T.you_drew : T.you_passed);
}

// Post one move (a play, a draw or a pass) unless one is on its way, then show the answer.
async function submit(body, doneMessage) {
  if (busy) return;
  busy = true;
  pending = null;
  restoreFocus = true;
  say(T.sending);
  render();
  try {
    const response = await post(root.dataset.moves, body);
    await take(response, doneMessage);
  } catch (error) {
    say(T.offline, "error");
  } finally {
    busy = false;
    render();
    schedulePoll(500);
  }
}

// Apply an API answer: a new view of the table, or a refusal {code, detail} shown politely.
async function take(response, doneMessage) {
  const data = await response.json().catch(() => ({}));
  if (response.ok) {
    state = data;
    etag = response.headers.get("ETag") || etag;
    say(doneMessage, "ok");
    return true;
  }
  say(fmt(T.refused, { detail: data.detail || response.statusText }), "error");
  etag = null; // stale_version, not_your_turn...: fetch the table afresh
  return false;
}

async function abandonMatch() {
  if (!window.confirm(T.abandon_confirm)) return;
  busy = true;
  try {
    await take(await post(root.dataset.abandon), "");
  } catch (error) {
    say(T.offline, "error");
  } finally {
    busy = false;
    render();
  }
}

// --- polling -----------------------------------------------------------------------------

function schedulePoll(ms) {
  clearTimeout(pollTimer);
  pollTimer = setTimeout(poll, ms === undefined ? (document.hidden ? POLL_HIDDEN_MS : POLL_MS) : ms);
}

function describeChange(before, after) {
  if (!before.game || !after.game || before.game.hand_number !== after.game.hand_number) return T.updated;
  const old = logLines(before.game).length;
  const fresh = logLines(after.game).slice(old);
  return fresh.length ? fresh.join(". ") + "." : T.updated;
}

async function poll() {
  if (busy) return schedulePoll();
  try {
    // The first poll asks by version, then by the ETag the API answers with (304 = same).
    const url = etag ? root.dataset.api : `${root.dataset.api}?since_version=${state.version}`;
    const headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    const response = await fetch(url, { headers, credentials: "same-origin" });
    if (response.headers.get("ETag")) etag = response.headers.get("ETag");
    if (response.status === 200 && !busy) {
      const before = state;
      state = await response.json();
      if (state.version !== before.version) {
        pending = null;
        say(describeChange(before, state));
      }
      render();
    } else if (response.status === 304) {
      renderStatus(); // keep the clock moving
    }
  } catch (error) {
    say(T.offline, "error");
  }
  const active = state.status === "waiting" || state.status === "playing";
  if (active) schedulePoll();
}

document.getElementById("abandon").addEventListener("click", abandonMatch);
document.addEventListener("visibilitychange", () => { if (!document.hidden) schedulePoll(0); });
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && pending !== null) {
    const tile = pending;
    pending = null;
    render();
    const back = document.querySelector(`#hand [data-tile="${tile}"]`);
    if (back) back.focus();
  }
});

render();
schedulePoll();

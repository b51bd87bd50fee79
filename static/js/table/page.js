// What the server put in the page (templates/tables/table.html): the #table element with
// its API addresses and CSRF token in data attributes, and three json_script blocks: the
// table as this seat sees it (the API's JSON: selectors.table_view_for_user, built on
// dominoes.view_for, R31), the page's words (tables/ui_strings.py) and the rule profile.

function embedded(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : null;
}

// The replay page (replay.js) has no #table: it borrows the tile drawing and a hand's
// summary (summary.js) only.
export const root = document.getElementById("table") || document.createElement("div");

// The page's words, {key: "text with %(name)s placeholders"} in the reader's language;
// on the replay page its own (tables/ui_strings.py replay_strings), which hold the words
// of a hand's end that it borrows from summary.js.
export const T = embedded("table-strings") || embedded("replay-strings");

// The table's rule profile (tables.help.profile_facts): its name, rules link and flags.
export const profile = embedded("table-profile") || {
  name: "classic",
  label: "",
  url: "/reglas/",
  pairs: true,
  single_hand: false,
};

// The first paint reads the same JSON as polling later does.
export const firstTable = embedded("table-data");

// Where the page talks to the API.
export const urls = {
  table: root.dataset.api,
  moves: root.dataset.moves,
  abandon: root.dataset.abandon,
  left: root.dataset.left,
  rematch: root.dataset.rematch,
  rematchAccept: root.dataset.rematch + "accept/",
  rematchDecline: root.dataset.rematch + "decline/",
};
export const csrfToken = root.dataset.csrf;
// Why this player may neither ask for nor accept a rematch (a suspension's sentence), or "".
export const rematchRefused = root.dataset.refusedRematch || "";
// Who asked for this rematch (its creator), named in the offer's box; "" at any other table.
export const rematchBy = root.dataset.rematchBy || "";

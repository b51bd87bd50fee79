// The rematch: on a finished table "Revancha" asks for it (the same people, profile,
// target and seats) and opens the new table, or links to the one already asked for; on
// the rematch, a person offered their seat accepts or declines with one click, the
// others see whom the table waits for, and a line links back to the finished table. A
// player who may not (suspended: ``rematchRefused``) is told why instead of offered the
// button; declining stays. A refusal the page did not expect is said on the message line.

import { fmt, h, say } from "./dom.js";
import { T, rematchBy, rematchRefused, urls } from "./page.js";
import { joinNames, store } from "./state.js";

function go(tableId) {
  window.location.assign(`/mesas/${tableId}/`);
}

async function ask(client) {
  const answer = await client.post(urls.rematch);
  if (answer.ok) go(answer.data.id);
  else if (answer.error.code === "rematch_exists" && answer.data.table) go(answer.data.table);
  else say(fmt(T.refused, { detail: answer.error.detail }), "error");
}

// ``take(answer)``: the controller's way of showing a new table view.
async function reply(client, accept, take) {
  const answer = await client.post(accept ? urls.rematchAccept : urls.rematchDecline);
  take(answer, accept ? T.rematch_accepted : T.rematch_declined_you);
}

function offerBox(client, take) {
  const accept = rematchRefused
    ? h("span", { class: "hint error no-rematch" }, rematchRefused)
    : h("button", { type: "button", class: "primary big accept-rematch", onclick: () => reply(client, true, take) }, T.rematch_accept);
  return h("section", { id: "rematch-offer", class: "card result rematch-offer", role: "group", "aria-labelledby": "rematch-offer-title" },
    h("h2", { id: "rematch-offer-title" }, T.rematch_title),
    h("p", {}, rematchBy ? fmt(T.rematch_offer_by, { name: rematchBy }) : T.rematch_offer),
    h("p", { class: "actions" }, accept,
      h("button", { type: "button", class: "decline-rematch", onclick: () => reply(client, false, take) }, T.rematch_decline)));
}

export function renderRematch(client, take) {
  const state = store.table;
  document.getElementById("rematch-offer")?.remove();
  document.getElementById("rematch-of")?.remove();
  if (state.rematch_of) {
    const back = h("p", { id: "rematch-of", class: "profile-line" },
      h("a", { href: `/mesas/${state.rematch_of}/` }, fmt(T.rematch_of, { id: state.rematch_of })));
    document.getElementById("status-line").before(back);
  }
  if (state.rematch_pending) {
    document.getElementById("result").before(offerBox(client, take));
    document.getElementById("status-line").textContent = "";
  } else if (state.status === "waiting" && state.rematch_waiting_for && state.rematch_waiting_for.length) {
    document.getElementById("status-line").textContent = fmt(T.rematch_waiting, { names: joinNames(state.rematch_waiting_for) });
  }
  const actions = document.querySelector("#result-body .actions");
  if (state.status !== "finished" || !actions) return;
  if (!state.rematch && (state.rematch_possible === false || rematchRefused)) {
    const why = state.rematch_possible === false ? T.rematch_impossible : rematchRefused;
    actions.append(h("span", { class: "hint no-rematch" }, why));
    return;
  }
  actions.append(state.rematch
    ? h("a", { class: "button primary", href: `/mesas/${state.rematch.id}/` }, T.rematch_open)
    : h("button", { type: "button", class: "primary ask-rematch", onclick: () => ask(client) }, T.rematch));
}

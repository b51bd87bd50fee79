// The share links of a waiting table (its creator's: the API sends them to no one else):
// copy (clipboard, else select and execCommand), the system share sheet where the browser
// has one, and "Cambiar el enlace": after a confirm, POST .../invites/{seat}/renew/ gives
// the seat a new link and the old one stops working (R30), for a link that went astray.

import { fmt, h, say } from "./dom.js";
import { T, urls } from "./page.js";
import { store } from "./state.js";

// ``take(answer, done)``: the controller's way of showing a new table view.
async function renew(client, take, seat) {
  if (store.busy || !window.confirm(fmt(T.renew_confirm, { n: seat + 1 }))) return;
  store.busy = true;
  try {
    take(await client.post(`${urls.table}invites/${seat}/renew/`), T.renewed);
  } catch (error) {
    say(T.offline, "error");
  } finally {
    store.busy = false;
  }
  document.querySelector(`#invite-${seat}`)?.focus();
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

function inviteRow(invite, client, take) {
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
  const change = h("button", { type: "button", class: "renew-link", onclick: () => renew(client, take, invite.seat) }, T.renew);
  return h("div", { class: "invite" },
    h("label", { for: id, text: label }),
    h("input", { id, type: "url", readonly: true, value: url, class: "invite-url", onfocus: (e) => e.target.select() }),
    h("div", { class: "actions" }, copy, share, change));
}

export function renderInvites(client, take) {
  const invites = store.table.invites;
  const section = document.getElementById("invites");
  const list = document.getElementById("invite-list");
  section.hidden = !invites.length;
  list.replaceChildren();
  if (!invites.length) return;
  list.append(h("p", { text: invites.length > 1 ? T.waiting_many : T.waiting }));
  for (const invite of invites) list.append(inviteRow(invite, client, take));
}

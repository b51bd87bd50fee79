// The share links of a waiting table: copy (clipboard, else select and execCommand) and
// the system share sheet where the browser has one.

import { fmt, h, say } from "./dom.js";
import { T } from "./page.js";
import { store } from "./state.js";

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

function inviteRow(invite) {
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
  return h("div", { class: "invite" },
    h("label", { for: id, text: label }),
    h("input", { id, type: "url", readonly: true, value: url, class: "invite-url", onfocus: (e) => e.target.select() }),
    h("div", { class: "actions" }, copy, share));
}

export function renderInvites() {
  const invites = store.table.invites;
  const section = document.getElementById("invites");
  const list = document.getElementById("invite-list");
  section.hidden = !invites.length;
  list.replaceChildren();
  if (!invites.length) return;
  list.append(h("p", { text: invites.length > 1 ? T.waiting_many : T.waiting }));
  for (const invite of invites) list.append(inviteRow(invite));
}

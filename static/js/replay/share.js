// The public link of a finished match's replay: "Hacer pública la partida"
// (POST /api/v1/tables/{id}/public-replay/) shows the unguessable link, "Dejar de
// compartir" (DELETE) revokes it.

export function sharePanel({ data, T, csrfToken }) {
  const status = document.getElementById("share-status");
  const link = document.getElementById("share-link");
  const make = document.getElementById("share-make");
  const revoke = document.getElementById("share-revoke");
  if (!make) return;
  let current = data.public_link;

  function draw() {
    const shared = Boolean(current);
    status.textContent = shared ? T.share_public : T.share_none;
    link.hidden = !shared;
    if (shared) {
      link.href = current.path;
      link.textContent = new URL(current.path, window.location.href).href;
    }
    make.hidden = shared;
    revoke.hidden = !shared;
  }

  async function send(method) {
    const response = await fetch(data.api.public_replay, {
      method,
      credentials: "same-origin",
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken },
    });
    if (!response.ok) {
      const body = await response.json().catch(() => ({}));
      status.textContent = body.detail || response.statusText;
      return;
    }
    current = method === "POST" ? await response.json() : null;
    draw();
  }

  make.addEventListener("click", () => send("POST"));
  revoke.addEventListener("click", () => send("DELETE"));
  draw();
}

// A signed-in player who never chose a time zone (the server's "UTC" default) gets the
// browser's own, once, through the preferences API (PATCH time_zone, checked against the
// zones the server knows): quiet hours and the deadlines in e-mails then read in it.
const meta = document.querySelector("meta[name=time-zone-unset]");
const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const tried = "time-zone-sent";

if (meta && zone && !sessionStorage.getItem(tried)) {
  sessionStorage.setItem(tried, zone); // a zone the server refuses is not sent on every page
  fetch(meta.content, {
    method: "PATCH",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": meta.dataset.csrf },
    body: JSON.stringify({ time_zone: zone }),
  }).catch(() => sessionStorage.removeItem(tried));
}

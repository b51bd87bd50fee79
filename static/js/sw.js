// The service worker: shows the site's Web Push notices and opens the table on a click.
// A push's data is JSON from notices/push.py: {title, body, url, tag, kind}; public facts
// only (never a tile).
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let notice = {};
  try {
    notice = event.data ? event.data.json() : {};
  } catch {
    notice = { body: event.data ? event.data.text() : "" };
  }
  const title = notice.title || "Dominó";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: notice.body || "",
      tag: notice.tag,
      renotify: Boolean(notice.tag),
      icon: "/static/icons/icon-192.png",
      data: { url: notice.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});

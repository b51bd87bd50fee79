// Every page: register the service worker (static/js/sw.js, served at /sw.js) so the site
// installs as an app and can show Web Push notices.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
}

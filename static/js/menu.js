// Every page: the header's menu (templates/base.html) is a <details> that folds behind
// "Menú" on phones and works without this script. Wider screens show it open: site.css
// does it where the browser styles ::details-content; here the menu is opened for the
// others. On a phone an open menu closes with Escape or a tap outside it.

const menu = document.getElementById("site-menu");
const wide = window.matchMedia("(min-width: 48rem)");

function fit() {
  if (wide.matches) menu.open = true;
}

if (menu) {
  fit();
  wide.addEventListener("change", () => {
    menu.open = wide.matches;
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.open && !wide.matches) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
  document.addEventListener("click", (event) => {
    if (menu.open && !wide.matches && !menu.contains(event.target)) menu.open = false;
  });
}

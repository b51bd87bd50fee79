// The create form: show only the seats the chosen table size has, and mark the partner
// seat with four players (R2). Without this script every seat is shown; the server
// ignores the ones a smaller table does not have.
(function () {
  "use strict";
  const form = document.getElementById("create-form");
  if (!form) return;
  function update() {
    const checked = form.querySelector('input[name="seats"]:checked');
    const seats = checked ? Number(checked.value) : 2;
    form.querySelectorAll(".seat-choice").forEach(function (row) {
      const index = Number(row.dataset.seat);
      row.hidden = index >= seats;
      const partner = row.querySelector(".partner-label");
      if (partner) partner.hidden = seats !== 4;
    });
  }
  form.addEventListener("change", update);
  update();
})();

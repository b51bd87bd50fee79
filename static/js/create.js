// The create form: offer only the table sizes and targets the chosen rules allow (the
// profile's seat_counts and targets, from the page's "profile-data"), hide the target
// when one hand decides, show only the seats the chosen table size has, and mark the
// partner seat when four play in pairs (R2). In seven_plus_seven (two_hands) the creator
// plays both hands of a pair, so only the rival pair is chosen (one friend, or a bot at
// each of its seats). Without this script every option is shown and the server refuses
// the ones the rules do not allow.
(function () {
  "use strict";
  const form = document.getElementById("create-form");
  if (!form) return;
  const dataNode = document.getElementById("profile-data");
  const profiles = dataNode ? JSON.parse(dataNode.textContent) : {};
  const rulesSelect = form.querySelector('select[name="rules"]');

  // Show only the radios whose value is allowed; keep the choice if it is still allowed,
  // else take the first allowed one.
  function restrict(name, allowed) {
    const radios = Array.from(form.querySelectorAll(`input[name="${name}"]`));
    let checked = radios.find((radio) => radio.checked && allowed.includes(Number(radio.value)));
    radios.forEach((radio) => {
      const ok = allowed.includes(Number(radio.value));
      radio.closest("label").hidden = !ok;
      radio.disabled = !ok;
      if (!ok) radio.checked = false;
    });
    if (!checked) {
      checked = radios.find((radio) => !radio.disabled);
      if (checked) checked.checked = true;
    }
  }

  function update() {
    const profile = rulesSelect ? profiles[rulesSelect.value] : null;
    if (profile) {
      restrict("seats", profile.seat_counts);
      const targetField = document.getElementById("target-field");
      targetField.hidden = profile.single_hand;
      document.getElementById("single-hand-note").hidden = !profile.single_hand;
      if (!profile.single_hand) restrict("target", profile.targets);
      document.getElementById("rules-link").href = profile.url;
    }
    const pairs = profile ? profile.pairs : true;
    const twoHands = Boolean(profile && profile.two_hands);
    const checked = form.querySelector('input[name="seats"]:checked');
    const seats = checked ? Number(checked.value) : 2;
    const note = document.getElementById("pairs-note");
    if (note) note.hidden = twoHands || !(pairs && (!profile || profile.seat_counts.includes(4)));
    const twoNote = document.getElementById("two-hands-note");
    if (twoNote) twoNote.hidden = !twoHands;
    const seatLabel = document.getElementById("seat-1-label");
    if (seatLabel) seatLabel.textContent = twoHands ? seatLabel.dataset.pairLabel : seatLabel.dataset.seatLabel;
    form.querySelectorAll(".seat-choice").forEach(function (row) {
      const index = Number(row.dataset.seat);
      row.hidden = index >= seats || (twoHands && index > 1);
      const partner = row.querySelector(".partner-label");
      if (partner) partner.hidden = !(seats === 4 && pairs);
    });
  }
  form.addEventListener("change", update);
  update();
})();

// One choice for every free seat: what seat 2 gets, the seats after it get too, until the
// player picks something else for one of them.
(function () {
  "use strict";
  const form = document.getElementById("create-form");
  if (!form) return;
  const seatSelects = [1, 2, 3].map((index) => form.querySelector(`select[name="seat_${index}"]`));
  const picked = new Set();
  form.addEventListener("change", function (event) {
    const index = seatSelects.indexOf(event.target);
    if (index === 0) {
      seatSelects.slice(1).forEach((select) => {
        if (select && !picked.has(select)) select.value = seatSelects[0].value;
      });
    } else if (index > 0) {
      picked.add(event.target);
    }
  });
})();

// How a page names a seat, one way for the table page (state.js, seats.js, log.js) and the
// replay (replay/names.js): the player's name, saying which hand when one person holds
// two (seven_plus_seven: "alice (asiento 1)"), and the tags after it (" (tú, bot)").
// ``T`` is the page's words (tables/ui_strings.py seat_words).

import { fmt } from "./dom.js";

// ``name``, the player at ``seat``, as every line names them: with the seat when
// ``twoHands`` (one person holds both seats of a pair), else as it is.
export function seatName(T, name, seat, twoHands) {
  return twoHands ? fmt(T.seat_name, { name, n: seat + 1 }) : name;
}

// The tags after a seat's name, " (tú)", " (tu pareja, bot)", or null for none: ``mine``
// (a seat of the reader's), ``partner`` (the reader's partner, R2), ``bot``.
export function seatTags(T, { mine = false, partner = false, bot = false }) {
  const tags = [];
  if (mine) tags.push(T.you);
  if (partner) tags.push(T.partner);
  if (bot) tags.push(T.bot);
  return tags.length ? ` (${tags.join(", ")})` : null;
}

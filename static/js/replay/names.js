// How the replay names the seats, as the table page does and through its code
// (table/names.js): to a viewer who played the match, their own seats read "alice (tú)"
// and their moves in the second person ("Jugaste 6-4", "Saliste con 6-6"), their partner
// "Nino II (tu pareja)" (R2); every other seat, and every seat for anyone else who opens a
// public replay, by name in the third person ("Nino jugó 6-4"). A bot is tagged "Nino
// (bot)", and where one person held both seats of a pair (seven_plus_seven) each seat
// says which it is: "alice (asiento 1)". ``data.your_seats`` says which seats were the
// viewer's, ``data.bots`` which were bots (tables/replays.py). The object also names the
// seats for a hand's end as table/summary.js asks (``name``, ``join``, ``many``, ``mine``).

import { seatName, seatTags } from "../table/names.js";

export function seatNames({ data, T, fmt }) {
  const mine = new Set(data.your_seats || []);
  const first = mine.size ? Math.min(...mine) : null;
  const named = (seat) => seatName(T, data.players[seat], seat, data.two_hands);

  const people = (seats) => [...new Set(seats.map((seat) => data.players[seat]))];

  return {
    // Whether ``seat`` was the viewer's.
    isMine: (seat) => mine.has(seat),
    mine: (seat) => mine.has(seat),

    // The seat's name without its tags ("alice", "alice (asiento 1)").
    name: named,

    // Seats named each person once ("alice y bob"), and whether they are more than one.
    join: (seats) => people(seats).join(T.and),
    many: (seats) => people(seats).length > 1,

    // The seat's name with its tags in a small tail, as the table page's rows:
    // ["alice (asiento 1)", " (tú)"], ["Nino", " (bot)"] or [name, null].
    label(seat) {
      const partner = data.pairs && first !== null && !mine.has(seat) && seat === (first + 2) % 4;
      const bot = Boolean(data.bots && data.bots[seat]);
      return [named(seat), seatTags(T, { mine: mine.has(seat), partner, bot })];
    },

    // The sentence for a move of ``seat``: ``T[key]`` by name, or ``T[key + "_you"]`` for
    // a seat of the viewer's, saying which hand when one person held two (seven_plus_seven).
    said(key, seat, values = {}) {
      if (!mine.has(seat)) return fmt(T[key], { name: named(seat), ...values });
      const move = fmt(T[key + "_you"], values);
      return data.two_hands ? fmt(T.log_your_hand, { move, n: seat + 1 }) : move;
    },
  };
}

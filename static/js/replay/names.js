// How the replay names the seats, as the table page does (table/seats.js, table/log.js):
// to a viewer who played the match, their own seats read "alice (tú)" and their moves in
// the second person ("Jugaste 6-4", "Saliste con 6-6"), their partner "Nino II (tu
// pareja)" (R2); every other seat, and every seat for anyone else who opens a public
// replay, by name in the third person ("Nino jugó 6-4"). ``data.your_seats`` says which
// seats were the viewer's (tables/replays.py).

export function seatNames({ data, T, fmt }) {
  const mine = new Set(data.your_seats || []);
  const first = mine.size ? Math.min(...mine) : null;

  // "tú", "tu pareja" or nothing, as the table page tags its seats.
  function tag(seat) {
    if (mine.has(seat)) return T.you;
    if (data.pairs && first !== null && seat === (first + 2) % 4) return T.partner;
    return null;
  }

  return {
    // Whether ``seat`` was the viewer's.
    isMine: (seat) => mine.has(seat),

    // The seat's name with its tag in a small tail: [name, " (tú)"] or [name, null].
    label(seat) {
      const marked = tag(seat);
      return [data.players[seat], marked ? ` (${marked})` : null];
    },

    // The sentence for a move of ``seat``: ``T[key]`` by name, or ``T[key + "_you"]`` for
    // a seat of the viewer's, saying which hand when one person held two (seven_plus_seven).
    said(key, seat, values = {}) {
      if (!mine.has(seat)) return fmt(T[key], { name: data.players[seat], ...values });
      const move = fmt(T[key + "_you"], values);
      return data.two_hands ? fmt(T.log_your_hand, { move, n: seat + 1 }) : move;
    },
  };
}

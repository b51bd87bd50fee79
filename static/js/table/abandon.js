// What "Abandonar la partida" asks before it goes, saying what would happen, as the engine
// does it (dominoes/leaving.py, R26): at 2 seats the other player wins; in pairs the other
// pair wins; at 3 seats the one of the two others with more points wins, and level scores
// end the match with no winner. Where leavers sit out (first_double) the hand goes on
// without you between those still playing, or the last one left wins. You lose each time.

import { fmt } from "./dom.js";
import { T, profile } from "./page.js";
import { inPairs, joinNames, mySeats, plainName, store } from "./state.js";

// The confirmation's sentence for the table in ``store.table`` (a match in play).
export function abandonQuestion() {
  const state = store.table;
  const game = state.game;
  const mine = mySeats();
  const gone = new Set([...mine, ...((game && game.left_seats) || [])]);
  const others = state.players.map((p) => p.seat).filter((seat) => !gone.has(seat));
  if (profile.leavers_sit_out && others.length > 1) {
    return fmt(T.abandon_confirm_sit_out, { names: joinNames(others) });
  }
  if (inPairs() && mine.length === 1) {
    const rivals = others.filter((seat) => seat % 2 !== mine[0] % 2);
    return fmt(T.abandon_confirm_pairs, { names: joinNames(rivals) });
  }
  if (others.length === 2 && game && !inPairs()) return threeSeats(others, game.scores);
  const rivals = inPairs() ? others.filter((seat) => seat % 2 !== mine[0] % 2) : others;
  return fmt(T.abandon_confirm_rival, { name: joinNames(rivals) });
}

// Three seats: the other with more points wins; level, nobody does.
function threeSeats([first, second], scores) {
  if (scores[first] === scores[second]) {
    return fmt(T.abandon_confirm_tie, { names: joinNames([first, second]) });
  }
  const [leader, other] = scores[first] > scores[second] ? [first, second] : [second, first];
  return fmt(T.abandon_confirm_leader, { name: plainName(leader), other: plainName(other) });
}

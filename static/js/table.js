// The table page: draws the table from the JSON the API serves for this seat
// (selectors.table_view_for_user, built on dominoes.view_for: R31), plays moves through
// the API and polls it for changes. The first paint reads the same JSON from the page
// (json_script), so there is one renderer and nothing to keep in step on the server.
//
// ES modules under table/, no build step:
//   page.js        what the server put in the page (table JSON, words, profile, URLs)
//   state.js       the page state and what follows from it (names, seats, turn)
//   api.js         the API client: JSON, CSRF, error contract, POST retried with one key
//   poll.js        polling with ETag / 304
//   controller.js  render(), moves, abandon, polling, keyboard
//   abandon.js     what "Abandonar la partida" asks: what would happen (R26)
//   status.js, invites.js, seats.js, line.js, hand.js, log.js, summary.js (explain.js):
//                  the pieces of the page; dom.js and tiles.js the helpers they share
//   handover.js    an ended hand held on screen until "Siguiente mano"
//   since.js       the moves since the player's last visit, marked and told
//   rematch.js     ask for a finished table's rematch; accept or decline an offer
//   talk.js        the table's talk (moderation.api), polled with the table

import { start } from "./table/controller.js";
import { startTalk } from "./table/talk.js";

start();
startTalk();

// The page's state and what follows from it. ``store.table`` is the latest table JSON
// (replaced whole by every answer and poll); the rest is the page's own: the ETag of that
// JSON, whether a move is on its way, the tile waiting for an end choice (R12), whether
// focus goes back into the hand after the next render and whether my last move lost a race. The functions below only read.

import { counted, fmt } from "./dom.js";
import { seatName } from "./names.js";
import { T, firstTable, profile } from "./page.js";

export const store = {
  table: firstTable,
  etag: null,
  busy: false,
  pending: null, // the tile waiting for an end choice (R12)
  restoreFocus: false, // put focus back in the hand after a move re-renders it
  lostMove: false, // my move was refused as stale (409): the next change says it was not made
};

export function plainName(seat) {
  const player = store.table.players[seat];
  return (player && player.name) || T.open_seat;
}

// One person may hold two seats (seven_plus_seven): their name then says which hand.
function twoHands() {
  return Boolean(profile.two_hands);
}

export function playerName(seat) {
  const player = store.table.players[seat];
  if (!player || !player.name) return plainName(seat);
  return seatName(T, player.name, seat, twoHands());
}

// Names of seats, each person once ("alice y bob", not "alice y alice").
export function joinNames(seats) {
  return [...new Set(seats.map(plainName))].join(T.and);
}

// A pair's seats as its label says them: the people seated, each once, then the open
// seats counted ("alice y un asiento libre", "2 asientos libres"), never "Asiento libre"
// once for two open seats.
export function pairNames(seats) {
  const taken = seats.filter((seat) => store.table.players[seat]?.name);
  const open = seats.length - taken.length;
  const names = [...new Set(taken.map(plainName))];
  if (open) names.push(fmt(counted(T.open_seats, open), { n: open }));
  return names.join(T.and);
}

// Whether ``seats`` name more than one person (the verb agrees: "se anotan", "ganan").
export function manyNames(seats) {
  return new Set(seats.map(plainName)).size > 1;
}

// Every seat I hold: one, or both seats of my pair (seven_plus_seven).
export function mySeats() {
  const state = store.table;
  return state.your_seats || [state.your_seat];
}

// Four seats play in two pairs, partners opposite (R2), unless the profile plays alone.
export function inPairs() {
  return store.table.seats === 4 && profile.pairs;
}

// Before a lead the winning pair chooses (cuban), either partner may lead: the one the
// table waits for has ``your_turn``, the other gets ``legal_moves`` too.
export function canPlay() {
  const state = store.table;
  const game = state.game;
  if (state.status !== "playing" || !game) return false;
  if (state.your_turn) return true;
  return Boolean(game.lead_seats && game.lead_seats.includes(state.your_seat) && game.legal_moves.length);
}

// The bot partner's seat when I choose who leads for my pair (cuban, my partner a bot:
// the server's transitions.lead_chooser), else null: the table waits for me before the
// hand's first tile (``your_turn``, ``game.lead_seats`` has my seat and my partner's).
// I lead a tile, or send a pass, and the bot leads.
export function leadChoicePartner(state = store.table) {
  const game = state.game;
  const leads = game && game.lead_seats;
  if (state.status !== "playing" || !state.your_turn || !leads || leads.length < 2) return null;
  if (game.line.length || !leads.includes(state.your_seat)) return null;
  const partner = leads.find((seat) => seat !== state.your_seat);
  const bot = state.players.some((player) => player.seat === partner && player.bot);
  return bot ? partner : null;
}

// Draw or pass, where the profile makes them the seat's own choice (first_double):
// ``game.choices`` is ["draw", "pass"] then, else empty or absent.
export function choicesOf(game) {
  return (game && store.table.your_turn && game.choices) || [];
}

export function isActive() {
  const status = store.table.status;
  return status === "waiting" || status === "playing";
}

export function timeLeft(deadline) {
  if (!deadline) return "";
  return overdue(deadline) ? T.overdue : timeLeftAndLeading(deadline)[0];
}

// The deadline has passed (R27): the turn reads "por vencer" until the server's sweep
// forfeits it (a read never does), which the next poll then shows.
function overdue(deadline) {
  return Boolean(store.table && store.table.overdue) || Date.parse(deadline) <= Date.now();
}

// "Queda 1 día y 23 h para jugar.", "Quedan 5 h 7 min para jugar.": the verb agrees with
// the number the time starts with (tables.move_time.time_left_sentence on "Mis mesas").
export function timeLeftSentence(deadline) {
  if (overdue(deadline)) return T.overdue_sentence;
  const [time, leading] = timeLeftAndLeading(deadline);
  return fmt(counted(T.time_left, leading), { time });
}

// What is left of the turn, and the number it starts with (1 for "menos de un minuto").
function timeLeftAndLeading(deadline) {
  const ms = Date.parse(deadline) - Date.now();
  const minutes = Math.floor(ms / 60000);
  if (minutes < 1) return [T.under_a_minute, 1];
  const hours = Math.floor(minutes / 60);
  if (hours < 1) return [fmt(T.minutes, { m: minutes }), minutes];
  if (hours < 24) return [fmt(T.hours_minutes, { h: hours, m: minutes % 60 }), hours];
  // From a day up, as "Mis mesas" writes it (tables.move_time).
  const days = Math.floor(hours / 24);
  return [fmt(counted(T.day_hours, days), { d: days, h: hours % 24 }), days];
}

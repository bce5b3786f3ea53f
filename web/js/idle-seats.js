/**
 * @file IdleSeats: who is waited for, how long, and whose seat an agent plays for now
 * (docs/server.md "Leaving, idle seats and late joiners"), kept from the notifications
 * `turn_clocks`, `seat_handed_over`, `seat_taken_back` and `game_ended_early`. No DOM: the
 * IdleView draws it. Every client sees every person's clock (the server sends the clocks to
 * all), so the countdown beside a seat and the host's "Hand to an agent" come from here.
 */

import { Events } from './events.js';
import { EventBus } from './event-bus.js';
import { Notifications } from './protocol.js';

/** @type {number} Seconds a seat must be waited for before the host may hand it to an agent (`HAND_OVER_AFTER`). */
const HAND_OVER_AFTER = 60;

/**
 * One seat being waited for.
 * @typedef {Object} SeatClock
 * @property {(number|null)} deadline When its clock runs out (`Date.now()` ms), null with the clock off.
 * @property {number} since Since when it is waited for (`Date.now()` ms).
 */

/**
 * The model; only {@link apply} and {@link reset} change it.
 * @typedef {Object} IdleModel
 * @property {Object<number, SeatClock>} clocks The seats being waited for now.
 * @property {Set<number>} handedOver The seats an agent plays for while their person is idle.
 * @property {({seat: number, name: string}|null)} endedEarly Who ended the last game by leaving,
 *   until the next game starts.
 */
/** @type {IdleModel} */
const IdleSeats = {
  clocks: {},
  handedOver: new Set(),
  endedEarly: null
};

/**
 * Forget everything (a new login, or watching another table).
 * @returns {void}
 */
function reset() {
  IdleSeats.clocks = {};
  IdleSeats.handedOver = new Set();
  IdleSeats.endedEarly = null;
}

/**
 * The clocks of a `turn_clocks` context.
 * @param {(Array<import('./protocol-types.js').Clock>|undefined)} clocks The context's `clocks`.
 * @param {number} now `Date.now()`.
 * @returns {Object<number, SeatClock>} The clocks by seat.
 */
function _clocks(clocks, now) {
  /** @type {Object<number, SeatClock>} */
  const bySeat = {};
  for (const clock of Array.isArray(clocks) ? clocks : []) {
    const left = clock.seconds_left;
    bySeat[Number(clock.player_index)] = {
      deadline: typeof left === 'number' ? now + left * 1000 : null,
      since: now - (Number(clock.waited) || 0) * 1000
    };
  }
  return bySeat;
}

/**
 * The handed-over seats of a `public_state` (its `agent_plays_for`, when the server sends it).
 * @param {(import('./protocol-types.js').PublicState|null|undefined)} publicState The state.
 * @returns {Set<number>} The seats.
 */
function _handedOver(publicState) {
  const seats = (publicState || {}).agent_plays_for;
  return new Set(Array.isArray(seats) ? seats.map(Number) : []);
}

/**
 * Apply one notification; other events (and requests) are ignored.
 * @param {import('./events.js').StateChange} change The notification's payload.
 * @param {number} now `Date.now()` (a parameter, so that tests choose the time).
 * @returns {void}
 */
function apply(change, now) {
  if (change.event === Notifications.TURN_CLOCKS) {
    IdleSeats.clocks = _clocks(change.context.clocks, now);
  }
  else if (change.event === Notifications.SEAT_HANDED_OVER) {
    IdleSeats.handedOver.add(Number(change.context.player_index));
    delete IdleSeats.clocks[Number(change.context.player_index)];  // its agent answers now
  }
  else if (change.event === Notifications.SEAT_TAKEN_BACK) {
    IdleSeats.handedOver.delete(Number(change.context.player_index));
  }
  else if ((change.event === Notifications.PLAYER_JOINED && 'session_id' in change.context)
      || change.event === Notifications.SPECTATE_STARTED) {
    reset();  // a (re)connection: the snapshot says who is handed over; the clocks follow
    IdleSeats.handedOver = _handedOver(change.context.public_state);
  }
  else if (change.event === Notifications.GAME_STARTED) {
    reset();
  }
  else if (change.event === Notifications.GAME_OVER) {
    IdleSeats.clocks = {};
    IdleSeats.handedOver = new Set();
  }
  else if (change.event === Notifications.GAME_ENDED_EARLY) {
    reset();
    IdleSeats.endedEarly = { seat: Number(change.context.player_index), name: String(change.context.player_name || '') };
  }
}

/**
 * Whole seconds left on a seat's clock.
 * @param {number} seat 0..3.
 * @param {number} now `Date.now()`.
 * @returns {(number|null)} The seconds (0 when run out), or null when the seat is not waited
 *   for or its clock is off.
 */
function secondsLeft(seat, now) {
  const clock = IdleSeats.clocks[seat];
  if (!clock || clock.deadline === null) {
    return null;
  }
  return Math.max(0, Math.ceil((clock.deadline - now) / 1000));
}

/**
 * Whole seconds a seat has been waited for.
 * @param {number} seat 0..3.
 * @param {number} now `Date.now()`.
 * @returns {(number|null)} The seconds, or null when it is not waited for.
 */
function waited(seat, now) {
  const clock = IdleSeats.clocks[seat];
  return clock ? Math.max(0, Math.floor((now - clock.since) / 1000)) : null;
}

/**
 * Whether the host may hand a seat to an agent now: a person's seat waited for at least
 * {@link HAND_OVER_AFTER} seconds on one decision and not handed over already (the server
 * checks it again).
 * @param {number} seat 0..3.
 * @param {number} now `Date.now()`.
 * @returns {boolean} True when the control is offered.
 */
function canHandOver(seat, now) {
  const seconds = waited(seat, now);
  return seconds !== null && seconds >= HAND_OVER_AFTER && !IdleSeats.handedOver.has(seat);
}

/**
 * Whether any clock is running (a view redraws each second meanwhile).
 * @returns {boolean} True while somebody is waited for.
 */
function anyWaited() {
  return Object.keys(IdleSeats.clocks).length > 0;
}

/**
 * Seconds as a clock shows them.
 * @param {number} seconds Whole seconds.
 * @returns {string} E.g. "0:42", "2:00".
 */
function formatClock(seconds) {
  const whole = Math.max(0, Math.floor(seconds));
  return Math.floor(whole / 60) + ':' + String(whole % 60).padStart(2, '0');
}

/**
 * Keep the model up to date from the notifications.
 * @returns {void}
 */
function init() {
  EventBus.on(Events.STATE_CHANGED, function (change) {
    apply(change, Date.now());
  });
}

/**
 * Who is waited for, who is handed over: the model and its functions.
 * @namespace IdleSeats
 */
const IdleSeatsApi = Object.assign(IdleSeats, {
  HAND_OVER_AFTER,
  init,
  reset,
  apply,
  secondsLeft,
  waited,
  canHandOver,
  anyWaited,
  formatClock
});

export { IdleSeatsApi as IdleSeats };

/**
 * @file TrickLog: the plays and passes of the open trick in their order, and the last trick
 * taken (who played what, who took it, to whom the Dragon went), kept from the notifications
 * as a pure reducer (the server sends no history; `trick_taken` empties the open trick).
 */

import { Notifications } from './protocol.js';

/**
 * One step of a trick: a play (`cards`, `combination`) or a pass (`pass: true`).
 * @typedef {Object} TrickEntry
 * @property {number} seat Who played or passed.
 * @property {boolean} pass Whether it was a pass.
 * @property {number[][]} cards The cards played (`[]` for a pass).
 * @property {(Array|null)} combination `[type, length, rank]`, or null for a pass.
 */

/**
 * A trick that was taken.
 * @typedef {Object} TakenTrick
 * @property {TrickEntry[]} entries Its plays and passes in order.
 * @property {number} winner The seat that won it.
 * @property {(number|null)} dragonRecipient The seat the Dragon trick was given to, or null.
 * @property {number} points The trick's card points.
 */

/**
 * The log.
 * @typedef {Object} TrickLogState
 * @property {TrickEntry[]} current The open trick.
 * @property {(TakenTrick|null)} last The last trick taken: this round's, or until this round's first
 *   trick is taken the previous round's final one.
 * @property {number} taken How many tricks were taken this round (since this client knows).
 */

/**
 * An empty log.
 * @returns {TrickLogState} The log.
 */
function empty() {
  return { current: [], last: null, taken: 0 };
}

/**
 * A play entry from a protocol turn `[player_index, cards, combination]`.
 * @param {Array} turn The turn.
 * @returns {TrickEntry} The entry.
 */
function _playEntry(turn) {
  return { seat: turn[0], pass: false, cards: turn[1].slice(), combination: turn[2] };
}

/**
 * The log after a notification (the log given is not changed).
 * @param {TrickLogState} log The log before.
 * @param {string} event The notification's event.
 * @param {Object} context Its context.
 * @returns {TrickLogState} The log after.
 */
function reduce(log, event, context) {
  if (event === Notifications.PLAYER_JOINED && 'session_id' in context) {
    const state = context.public_state || {};
    return { current: (state.trick_turns || []).map(_playEntry), last: null, taken: 0 };
  }
  if (event === Notifications.ROUND_STARTED) {
    // the round's final trick stays reviewable through the next deal, until a trick is taken
    return { current: [], last: log.last, taken: 0 };
  }
  if (event === Notifications.PLAYER_PLAYED) {
    return Object.assign({}, log, { current: log.current.concat([_playEntry(context.turn)]) });
  }
  if (event === Notifications.PLAYER_PASSED) {
    const entry = { seat: context.player_index, pass: true, cards: [], combination: null };
    return Object.assign({}, log, { current: log.current.concat([entry]) });
  }
  if (event === Notifications.TRICK_TAKEN) {
    const recipient = context.dragon_recipient;
    return {
      current: [],
      last: { entries: log.current, winner: context.player_index,
        dragonRecipient: recipient === undefined ? null : recipient, points: context.points },
      taken: log.taken + 1
    };
  }
  return log;
}

/**
 * The trick log.
 * @namespace TrickLog
 */
export const TrickLog = Object.freeze({ empty, reduce });

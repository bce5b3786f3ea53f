/**
 * @file TrickLog: the plays and passes of the open trick in their order, and the last trick
 * taken (who played what, who took it, to whom the Dragon went), kept from the notifications
 * as a pure reducer (the server sends no history; `trick_taken` empties the open trick).
 */

import { Notifications } from './protocol.js';

/** @typedef {import('./protocol-types.js').NotificationPayload} NotificationPayload */
/** @typedef {[number, Array<[number, number]>, [string, number, number]]} Turn A protocol turn `[player_index, cards, combination]`. */

/**
 * One step of a trick: a play (`cards`, `combination`) or a pass (`pass: true`).
 * @typedef {Object} TrickEntry
 * @property {number} seat Who played or passed.
 * @property {boolean} pass Whether it was a pass.
 * @property {Array<[number, number]>} cards The cards played (`[]` for a pass).
 * @property {([string, number, number]|null)} combination `[type, length, rank]`, or null for a pass.
 */

/**
 * A trick that was taken.
 * @typedef {Object} TakenTrick
 * @property {TrickEntry[]} entries Its plays and passes in order.
 * @property {(number|null)} winner The seat that won it (as `trick_taken` names it).
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
 * @param {Turn} turn The turn.
 * @returns {TrickEntry} The entry.
 */
function _playEntry(turn) {
  return { seat: turn[0], pass: false, cards: turn[1].slice(), combination: turn[2] };
}

/**
 * The log after a notification (the log given is not changed).
 * @param {TrickLogState} log The log before.
 * @param {NotificationPayload} note The notification's payload.
 * @returns {TrickLogState} The log after.
 */
function reduce(log, note) {
  if (note.event === Notifications.PLAYER_JOINED && 'session_id' in note.context) {
    const turns = note.context.public_state ? note.context.public_state.trick_turns : [];
    return { current: turns.map(_playEntry), last: null, taken: 0 };
  }
  if (note.event === Notifications.ROUND_STARTED) {
    // the round's final trick stays reviewable through the next deal, until a trick is taken
    return { current: [], last: log.last, taken: 0 };
  }
  if (note.event === Notifications.PLAYER_PLAYED) {
    return Object.assign({}, log, { current: log.current.concat([_playEntry(note.context.turn)]) });
  }
  if (note.event === Notifications.PLAYER_PASSED) {
    /** @type {TrickEntry} */
    const entry = { seat: note.context.player_index, pass: true, cards: [], combination: null };
    return Object.assign({}, log, { current: log.current.concat([entry]) });
  }
  if (note.event === Notifications.TRICK_TAKEN) {
    const recipient = note.context.dragon_recipient;
    return {
      current: [],
      last: { entries: log.current, winner: note.context.player_index,
        dragonRecipient: recipient === undefined ? null : recipient, points: note.context.points },
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

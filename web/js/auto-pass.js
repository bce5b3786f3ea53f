/**
 * @file AutoPass: whether an open `play` request may be passed automatically (the auto-pass
 * toggles of the table). Pure: the decision follows only from the mode, the request and the
 * bombs the server's private state lets the seat lay.
 */

import { Notifications } from './protocol.js';

/**
 * The modes: `trick` passes every play request until the trick is taken; `bomb` does the
 * same but leaves a request to the player when the player may bomb.
 * @type {ReadonlyArray<string>}
 */
const MODES = Object.freeze(['trick', 'bomb']);

/**
 * Whether to pass this request automatically. Never when passing is not legal (a lead, or
 * the wish forces a play: `legal_plays` has no `[]`); in the `bomb` mode not when the
 * player may bomb (at the own turn the private state's `bombs` are the legal bombs, R4.3).
 * @param {(string|null)} mode `trick`, `bomb`, or null (off).
 * @param {(Object|null)} request The open request (`{action, context: {legal_plays}}`).
 * @param {Array<Array<number[]>>} bombs The bombs the seat may lay now (State.playableBombs).
 * @returns {boolean} True to pass.
 */
function shouldPass(mode, request, bombs) {
  if (!mode || !request || request.action !== 'play') {
    return false;
  }
  const legal = (request.context || {}).legal_plays || [];
  if (!legal.some(function (play) { return play.length === 0; })) {
    return false;
  }
  return mode !== 'bomb' || !bombs.length;
}

/**
 * Whether a notification ends the auto-pass: the trick was taken, or the round ended or
 * began (the page's own (re)joining ends it too; AutoPassBar sees that from the context).
 * @param {string} event The notification's event.
 * @returns {boolean} True to switch it off.
 */
function endsWith(event) {
  return event === Notifications.TRICK_TAKEN || event === Notifications.ROUND_OVER || event === Notifications.ROUND_STARTED || event === Notifications.GAME_OVER;
}

/**
 * The auto-pass decision.
 * @namespace AutoPass
 */
export const AutoPass = Object.freeze({ MODES, shouldPass, endsWith });

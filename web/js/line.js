/**
 * @file Line: another line — a stored game's round played on from a replay step against the
 * table's agents (docs/server.md, "Another line"). On `intent:line-start` it asks the server for
 * the line's table (`ReplayApi.startLine`) and joins it as the user (the login is not saved: the
 * user's own table stays theirs); the table view plays the round as any round. When the person
 * leaves the line's table (the round result's "Back to the replay", or Leave), the replay opens
 * again at the step the line started from.
 */

import { Events } from './events.js';
import { EventBus } from './event-bus.js';
import { I18n } from './i18n.js';
import { Network } from './network.js';
import { ReplayApi } from './replay-api.js';
import { User } from './user.js';
import { ViewManager } from './view-manager.js';

/**
 * The line being played.
 * @typedef {Object} LineInfo
 * @property {string} gameId The stored game.
 * @property {number} step The step it started after.
 * @property {number} seat The seat the person plays.
 * @property {(number[]|null)} gameRound What the round scored in the game, `[team 20, team 31]`
 *   (null for a round the record did not finish).
 */

/** @type {(LineInfo|null)} The line being played, or asked for. */
let _current = null;
/** @type {string} Why the last line could not start ('' when it did). */
let _failure = '';

/**
 * Ask for a line's table and join it.
 * @param {LineInfo} line The line.
 * @returns {void}
 */
function start(line) {
  _failure = '';
  ReplayApi.startLine(line.gameId, line.step, line.seat).then(function (answer) {
    _current = line;
    EventBus.emit(Events.INTENT_LOGIN,
      { name: User.getName() || I18n.t('line.you'), table: answer.table_name, save: false });
  }, function (error) {
    _failure = I18n.t(error.status === 422 ? 'line.noPosition' : 'line.failed');
    ViewManager.requestRender();
  });
}

/**
 * The person left the line's table: back to the replay, at the step the line started from.
 * @returns {void}
 */
function _onLeft() {
  const line = _current;
  if (line === null) {
    return;
  }
  _current = null;
  User.setLeftSession(null);  // a line is played once: there is no seat to come back to
  EventBus.emit(Events.INTENT_REPLAY_OPEN, { id: line.gameId, step: line.step });
}

/**
 * The line's table was not reached (refused, or no connection): no line is played.
 * @returns {void}
 */
function _forget() {
  _current = null;
}

/**
 * Subscribe to the intents and the network.
 * @returns {void}
 */
function init() {
  EventBus.on(Events.INTENT_LINE_START, start);
  EventBus.on(Events.INTENT_LINE_BACK, function () { Network.leave(); });
  EventBus.on(Events.NETWORK_LEFT, _onLeft);
  EventBus.on(Events.NETWORK_FAILED, _forget);
  EventBus.on(Events.NETWORK_REFUSED, _forget);
}

/**
 * The line being played, or null.
 * @returns {(LineInfo|null)} The line.
 */
function current() {
  return _current;
}

/**
 * Why the last line asked for could not start, or ''.
 * @returns {string} The reason, in the language of the moment it failed.
 */
function failure() {
  return _failure;
}

/**
 * Another line.
 * @namespace Line
 */
export const Line = Object.freeze({ init, current, failure });

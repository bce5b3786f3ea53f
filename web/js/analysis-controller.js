/**
 * @file AnalysisController: the analysis of the stored game shown in the replay viewer. When
 * a stored game opens it asks for its analysis' status (`ReplayApi.fetchAnalysis`); on
 * `intent:analysis-start` it asks the server to analyse the game; while the analysis is queued
 * or running it asks again, at growing but bounded intervals, until it is done or failed or
 * the viewer closes. The answers go into AnalysisState for the views to draw.
 */

import { AnalysisState } from './analysis-state.js';
import { Events } from './events.js';
import { EventBus } from './event-bus.js';
import { ReplayApi } from './replay-api.js';
import { ViewManager } from './view-manager.js';

/** @type {number} Milliseconds before the first question again while the analysis runs. */
const POLL_FIRST_MS = 500;
/** @type {number} The longest wait between two questions. */
const POLL_MAX_MS = 4000;
/** @type {ReadonlyArray<string>} The statuses that are asked about again. */
const PENDING = Object.freeze(['queued', 'running']);

/** What the views draw. */
const model = AnalysisState;
/** @type {number} The number of the game opened: answers for an older one are dropped. */
let _generation = 0;
/** @type {(number|null)} The timer of the next question. */
let _timer = null;
/** @type {number} The wait before the next question. */
let _wait = POLL_FIRST_MS;

/**
 * Stop asking (a timer pending is cancelled, answers on their way are dropped).
 * @returns {void}
 */
function _stopPolling() {
  _generation++;
  if (_timer !== null) {
    window.clearTimeout(_timer);
    _timer = null;
  }
}

/**
 * Set the state and draw it.
 * @param {string} status The status.
 * @param {Partial<import('./analysis-state.js').AnalysisFields>} [fields] `progress`, `document`, `reason`.
 * @returns {void}
 */
function _set(status, fields) {
  model.status = status;
  model.progress = (fields && fields.progress) || [0, 0];
  model.document = (fields && fields.document) || null;
  model.reason = (fields && fields.reason) || '';
  ViewManager.requestRender();
}

/**
 * The state a failed request leaves: hidden when the server does not analyse (403) or does
 * not know the game (404), else busy or offline.
 * @param {{status: number}} error The failure.
 * @returns {string} The status.
 */
function _failureStatus(error) {
  const status = error && error.status;
  if (status === 0) {
    return 'offline';
  }
  return status === 503 ? 'busy' : (status === 403 || status === 404 ? 'hidden' : 'failed');
}

/**
 * Take an answer of `GET .../analysis`: keep it, and ask again while it is pending.
 * @param {number} generation The game's number when asked.
 * @param {Object} answer `{status, progress, analysis}`.
 * @returns {void}
 */
function _take(generation, answer) {
  if (generation !== _generation) {
    return;
  }
  const status = String(answer && answer.status || 'none');
  if (status === 'off' || (status === 'none' && answer.enabled === false)) {
    _set('hidden');  // the server does not analyse games (TICHU_ANALYSIS=off)
    return;
  }
  const progress = Array.isArray(answer.progress) ? answer.progress : [0, 0];
  if (status === 'done' && answer.analysis) {
    _set('done', { document: answer.analysis });
    return;
  }
  _set(['none', 'queued', 'running', 'failed'].includes(status) ? status : 'none',
    { progress: progress, reason: status === 'failed' ? String(answer.reason || '') : '' });
  if (PENDING.includes(status)) {
    _timer = window.setTimeout(function () {
      _timer = null;
      _ask(generation);
    }, _wait);
    _wait = Math.min(POLL_MAX_MS, _wait * 2);
  }
}

/**
 * Ask for the analysis of the game shown.
 * @param {number} generation The game's number.
 * @returns {void}
 */
function _ask(generation) {
  const gameId = model.gameId;
  if (gameId === null) {
    return;  // no stored game shown (opening another one also stops the questions about this one)
  }
  ReplayApi.fetchAnalysis(gameId).then(function (answer) {
    _take(generation, answer);
  }, function (error) {
    if (generation === _generation) {
      _set(_failureStatus(error));
    }
  });
}

/**
 * Start following a stored game's analysis (or none, for a record file).
 * @param {?string} gameId The game's id.
 * @returns {void}
 */
function _open(gameId) {
  _stopPolling();
  model.gameId = gameId;
  _wait = POLL_FIRST_MS;
  _set('hidden');
  if (gameId !== null && gameId !== undefined) {
    _ask(_generation);
  }
}

/**
 * Ask the server to analyse the game shown, then follow it.
 * @returns {void}
 */
function _start() {
  if (model.gameId === null || PENDING.includes(model.status) || model.status === 'done') {
    return;
  }
  _stopPolling();
  const generation = _generation;
  _wait = POLL_FIRST_MS;
  _set('queued');
  ReplayApi.requestAnalysis(model.gameId).then(function () {
    if (generation === _generation) {
      _ask(generation);
    }
  }, function (error) {
    if (generation === _generation) {
      _set(_failureStatus(error));
    }
  });
}

/**
 * Listen to the replay viewer.
 * @returns {void}
 */
function init() {
  EventBus.on(Events.REPLAY_LOADED, function (loaded) { _open(loaded.gameId); });
  EventBus.on(Events.REPLAY_CHOOSE, function () { _open(null); });
  EventBus.on(Events.REPLAY_FAILED, function () { _open(null); });
  EventBus.on(Events.INTENT_ANALYSIS_START, _start);
  EventBus.on(Events.UI_VIEW_SHOWN, function (name) {
    if (name !== 'replay') {
      _open(null);
    }
  });
}

/**
 * Whether a question is due (a timer is set): true only while a shown game's analysis is
 * queued or running.
 * @returns {boolean} True while polling.
 */
function polling() {
  return _timer !== null;
}

/**
 * The analysis' controller.
 * @namespace AnalysisController
 */
export const AnalysisController = Object.freeze({ init, polling, POLL_FIRST_MS, POLL_MAX_MS });

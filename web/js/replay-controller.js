/**
 * @file ReplayController: opens the replay viewer. It reads the address (`#replay=<id>` with an
 * optional `&step=<n>`), turns the viewer's intents into requests of {@link ReplayApi}, and
 * hands the answers to the view over the EventBus (`replay:loaded`, `replay:choose`,
 * `replay:failed`) before showing it.
 */

import { Events } from './events.js';
import { EventBus } from './event-bus.js';
import { ReplayApi } from './replay-api.js';
import { ViewManager } from './view-manager.js';

/** @type {number} The newest request's number: an older answer that comes late is ignored. */
let _latest = 0;
/** @type {(Blob|null)} The record file shown (asked again with `?index=` for one of several). */
let _file = null;

/**
 * Read a replay address.
 * @param {string} hash `location.hash`, e.g. `#replay=abc&step=12`.
 * @returns {({id: string, step: (number|null)}|null)} The game and step, or null.
 */
function parseHash(hash) {
  const text = String(hash || '').replace(/^#/, '');
  const params = new URLSearchParams(text);
  const id = params.get('replay');
  if (!id) {
    return null;
  }
  const step = Number.parseInt(params.get('step') || '', 10);
  return { id: id, step: Number.isFinite(step) && step >= 0 ? step : null };
}

/**
 * The address of a step of a stored game.
 * @param {string} gameId The game's id.
 * @param {number} step The step's index.
 * @returns {string} E.g. `#replay=abc&step=12`.
 */
function stepHash(gameId, step) {
  return '#replay=' + encodeURIComponent(gameId) + '&step=' + step;
}

/**
 * The I18n key that explains a failed request.
 * @param {{status: number}} error The failure.
 * @returns {string} E.g. `replay.notFound`.
 */
function _failureKey(error) {
  /** @type {Object<number, string>} */
  const keys = { 0: 'replay.offline', 400: 'replay.invalid', 404: 'replay.notFound', 413: 'replay.tooLarge',
    503: 'replay.busy' };
  return keys[error && error.status] || 'replay.failed';
}

/**
 * Wait for a request, then give its answer to the view and show it.
 * @param {Promise<import('./replay-api.js').ReplayAnswer>} request The request.
 * @param {(string|null)} gameId The stored game's id (for a shareable address), or null.
 * @param {(number|null)} step The step to open at.
 * @returns {void}
 */
function _follow(request, gameId, step) {
  const number = ++_latest;
  ViewManager.show('loading', { message: 'replay.loading' });
  request.then(function (document) {
    if (number !== _latest) {
      return;
    }
    if (Array.isArray(document.records)) {
      EventBus.emit(Events.REPLAY_CHOOSE, { records: document.records });
    }
    else {
      EventBus.emit(Events.REPLAY_LOADED, { document: document, gameId: gameId, step: step });
    }
    ViewManager.show('replay');
  }, function (error) {
    if (number !== _latest) {
      return;
    }
    EventBus.emit(Events.REPLAY_FAILED, { key: _failureKey(error), detail: String(error.reason || '') });
    ViewManager.show('replay');
  });
}

/**
 * Open a stored game.
 * @param {string} gameId The game's id.
 * @param {(number|null)} step The step to open at.
 * @returns {void}
 */
function _openGame(gameId, step) {
  _file = null;
  _follow(ReplayApi.fetchGame(gameId), gameId, step);
}

/**
 * Open a record file (or one record of it).
 * @param {Blob} file The file.
 * @param {(number|null)} index Which record, for a file of several.
 * @returns {void}
 */
function _openFile(file, index) {
  _file = file;
  _follow(ReplayApi.uploadRecord(file, index), null, 0);
}

/**
 * Open the game the address names, if it names one.
 * @returns {boolean} Whether the address was a replay address.
 */
function openFromHash() {
  const found = parseHash(window.location.hash);
  if (found) {
    _openGame(found.id, found.step);
  }
  return Boolean(found);
}

/**
 * Forget the replay address (when the viewer is left).
 * @returns {void}
 */
function clearHash() {
  if (parseHash(window.location.hash)) {
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
  }
}

/**
 * Listen to the viewer's intents and to changes of the address.
 * @returns {void}
 */
function init() {
  EventBus.on(Events.INTENT_REPLAY_OPEN, function (open) { _openGame(String(open.id), open.step ?? null); });
  EventBus.on(Events.INTENT_REPLAY_FILE, function (open) {
    if (open && open.file) {
      _openFile(open.file, null);
    }
  });
  EventBus.on(Events.INTENT_REPLAY_CHOOSE, function (choice) {
    if (_file) {
      _openFile(_file, choice.index);
    }
  });
  window.addEventListener('hashchange', openFromHash);
}

/**
 * The replay viewer's controller.
 * @namespace ReplayController
 */
export const ReplayController = Object.freeze({ init, openFromHash, clearHash, parseHash, stepHash });

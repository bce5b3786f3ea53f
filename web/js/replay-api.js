/**
 * @file ReplayApi: the replay viewer's only network access (docs/server.md): a stored game's
 * steps (`GET /api/games/{id}/steps`), the steps of a record file (`POST /api/replay`), a
 * stored game's analysis (`GET`/`POST /api/games/{id}/analysis`) and another line from one of its
 * steps (`POST /api/games/{id}/lines`).
 */

/** @type {number} The largest file the server reads (2 MiB); larger ones are refused here. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** A failed request: `status` (0 without an answer) and the server's reason. */
class ReplayFailure extends Error {
  /**
   * @param {number} status The HTTP status.
   * @param {string} reason Why.
   */
  constructor(status, reason) {
    super(reason);
    /** @type {number} */
    this.status = status;
    /** @type {string} */
    this.reason = reason;
  }
}

/**
 * A failed request.
 * @param {number} status The HTTP status (0 without an answer).
 * @param {string} reason Why.
 * @returns {ReplayFailure} The error with `status` and `reason`.
 */
function _failure(status, reason) {
  return new ReplayFailure(status, reason);
}

/**
 * Read an answer: its JSON, or a failure with the server's reason (`reason` where the answer has
 * one, as the rate limit's 429 does beside its code in `error`; else the replay's `error` text).
 * @param {Response} response The answer.
 * @returns {Promise<Object>} The parsed document.
 */
function _read(response) {
  return response.json().catch(function () { return {}; }).then(function (body) {
    if (!response.ok) {
      throw _failure(response.status, String((body && (body.reason || body.error)) || response.statusText || ''));
    }
    return body;
  });
}

/**
 * Send a request; a network failure becomes a failure with status 0.
 * @param {string} url The address.
 * @param {RequestInit} [options] `fetch`'s options.
 * @returns {Promise<Object>} The parsed document.
 */
function _request(url, options) {
  return window.fetch(url, options).then(_read, function (error) {
    throw _failure(0, String(error && error.message || error));
  });
}

/**
 * A stored game's replay document.
 * @param {string} gameId The game's id.
 * @returns {Promise<Object>} `{id, players, score, steps, fault, ...}`.
 */
function fetchGame(gameId) {
  return _request('api/games/' + encodeURIComponent(gameId) + '/steps', { headers: { Accept: 'application/json' } });
}

/**
 * The replay document of a record file, or the list of its records when it holds several.
 * @param {Blob} file The file (a record, JSON Lines, or a Brettspielwelt log).
 * @param {(number|null)} [index] Which record of a file of several.
 * @returns {Promise<Object>} A replay document, or `{records: [...]}`.
 */
function uploadRecord(file, index) {
  if (file.size > MAX_FILE_BYTES) {
    return Promise.reject(_failure(413, 'too large'));
  }
  const query = index === null || index === undefined ? '' : '?index=' + encodeURIComponent(String(index));
  return _request('api/replay' + query, { method: 'POST', body: file,
    headers: { 'Content-Type': 'application/octet-stream', Accept: 'application/json' } });
}

/**
 * A stored game's analysis: its status, progress and (when done) the document.
 * @param {string} gameId The game's id.
 * @returns {Promise<Object>} `{status, progress, analysis}`; a failure with status 403 when
 *   the server does not analyse games.
 */
function fetchAnalysis(gameId) {
  return _request('api/games/' + encodeURIComponent(gameId) + '/analysis',
    { headers: { Accept: 'application/json' }, cache: 'no-store' });
}

/**
 * Ask the server to analyse a stored game.
 * @param {string} gameId The game's id.
 * @returns {Promise<Object>} The answer (202 queued, 200 done already); a failure with status
 *   403 (analysis off), 404 (unknown game) or 503 (the queue is full).
 */
function requestAnalysis(gameId) {
  return _request('api/games/' + encodeURIComponent(gameId) + '/analysis',
    { method: 'POST', headers: { Accept: 'application/json' } });
}

/**
 * Ask for a table that plays a stored game's round on from a step (another line, docs/server.md).
 * @param {string} gameId The game's id.
 * @param {number} afterStep The step after which the round is played on.
 * @param {number} seat The seat the person plays.
 * @returns {Promise<{table_name: string}>} The table to join; a failure with status 422 (no round
 *   is being played after that step), 404 (unknown game) or 503 (busy).
 */
function startLine(gameId, afterStep, seat) {
  return _request('api/games/' + encodeURIComponent(gameId) + '/lines', {
    method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify({ after_step: afterStep, seat: seat })
  });
}

/**
 * The replay viewer's requests.
 * @namespace ReplayApi
 */
export const ReplayApi = Object.freeze({
  MAX_FILE_BYTES, fetchGame, uploadRecord, fetchAnalysis, requestAnalysis, startLine
});

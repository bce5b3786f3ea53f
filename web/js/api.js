/**
 * @file Api: the history API over HTTP (docs/server.md, "History API"); the only module that
 * fetches. Every call answers a Promise of the parsed JSON, or rejects with an ApiError.
 */

/**
 * A failed call.
 * @typedef {Object} ApiError
 * @property {number} status The HTTP status (0 when the server could not be reached).
 * @property {string} error `bad_request`, `not_found`, or `network`.
 * @property {string} reason The server's reason, in English.
 */

/**
 * GET a path of the API as JSON.
 * @param {string} path The path with its query, e.g. `/api/games?limit=6`.
 * @returns {Promise<Object>} The answer's JSON.
 */
function _get(path) {
  return window.fetch(path, { headers: { Accept: 'application/json' }, cache: 'no-store' })
    .catch(function () {
      return Promise.reject({ status: 0, error: 'network', reason: 'the server cannot be reached' });
    })
    .then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        if (!response.ok) {
          return Promise.reject({ status: response.status, error: String(body.error || 'error'),
            reason: String(body.reason || response.statusText) });
        }
        return body;
      });
    });
}

/**
 * A query string from the parameters that are set.
 * @param {Object<string, (string|number|null|undefined)>} params The parameters.
 * @returns {string} E.g. `?limit=6&offset=12`, or ''.
 */
function _query(params) {
  const search = new URLSearchParams();
  Object.keys(params).forEach(function (key) {
    if (params[key] !== null && params[key] !== undefined && params[key] !== '') {
      search.set(key, String(params[key]));
    }
  });
  const text = search.toString();
  return text ? '?' + text : '';
}

/**
 * A page of stored games, newest first.
 * @param {{limit: number, offset: number, player: (string|null), people: (boolean|undefined)}} page
 *   The page and filters (`people`: only games with at least one person).
 * @returns {Promise<{games: Object[], total: number, limit: number, offset: number}>} The page.
 */
function games(page) {
  return _get('/api/games' + _query({ limit: page.limit, offset: page.offset, player: page.player,
    people: page.people ? 1 : null }));
}

/**
 * One player's statistics and rating.
 * @param {string} name The player key (a name, or an agent kind like `agent:random`).
 * @returns {Promise<Object>} The statistics.
 */
function player(name) {
  return _get('/api/players/' + encodeURIComponent(name));
}

/**
 * The players by rating.
 * @param {number} limit How many.
 * @returns {Promise<{players: Object[], limit: number}>} The leaderboard.
 */
function leaderboard(limit) {
  return _get('/api/leaderboard' + _query({ limit: limit }));
}

/**
 * The history API.
 * @namespace Api
 */
export const Api = Object.freeze({ games, player, leaderboard });

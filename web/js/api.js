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
 * A game's summary in a page of `GET /api/games` (docs/server.md "History API").
 * @typedef {object} GameSummary
 * @property {string} id The record's id.
 * @property {string} started_at When it began (ISO 8601).
 * @property {(string|null)} table_name The table it was played at.
 * @property {Array<{seat: number, name: string, kind: string, key: string}>} players The occupants at the start.
 * @property {(number[]|null)} score `[team 20, team 31]`.
 * @property {(number|null)} winner 20, 31, or null.
 * @property {number} rounds The finished rounds.
 * @property {boolean} aborted Whether it ended early.
 * @property {Array<{seat: number, round: number, event: number, name: string, kind: string, reason: string}>} seat_changes
 *   Each seat's new occupants, in order (records.md).
 * @property {({seat: number, name: string}|null)} ended_by Whose leaving ended it, or null.
 * @property {({round: number, points: number[]}|null)} unfinished The round it ended in, for a game ended early.
 */

/**
 * A player's statistics, `GET /api/players/{name}` (docs/server.md "History API"); rates are
 * 0..1 or null without a call.
 * @typedef {object} PlayerStats
 * @property {string} name The player key.
 * @property {string} kind `human` or `agent:KIND`.
 * @property {number} games
 * @property {number} finished
 * @property {number} wins
 * @property {(number|null)} win_rate
 * @property {number} rounds
 * @property {number} tichu_calls
 * @property {number} tichu_made
 * @property {(number|null)} tichu_success
 * @property {number} grand_calls
 * @property {number} grand_made
 * @property {(number|null)} grand_success
 * @property {number} double_victories
 * @property {(number|null)} points_per_round
 * @property {number} bombs
 * @property {(number|undefined)} left Games left for good (not sent by an older server).
 * @property {number} rating
 * @property {({games: number, decisions: number, mean_loss: (number|null)}|undefined)} accuracy Over the analysed games.
 */

/**
 * A player of the leaderboard, `GET /api/leaderboard` (docs/server.md "History API").
 * @typedef {object} Leader
 * @property {number} rank
 * @property {string} name
 * @property {string} kind
 * @property {number} rating
 * @property {number} games
 * @property {number} wins
 * @property {(number|undefined)} left
 */

/**
 * GET a path of the API as JSON.
 * @param {string} path The path with its query, e.g. `/api/games?limit=6`.
 * @template T
 * @returns {Promise<T>} The answer's JSON: what the path answers (docs/server.md), as its caller names it.
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
 * @returns {Promise<{games: GameSummary[], total: number, limit: number, offset: number}>} The page.
 */
function games(page) {
  return _get('/api/games' + _query({ limit: page.limit, offset: page.offset, player: page.player,
    people: page.people ? 1 : null }));
}

/**
 * One player's statistics and rating.
 * @param {string} name The player key (a name, or an agent kind like `agent:random`).
 * @returns {Promise<PlayerStats>} The statistics.
 */
function player(name) {
  return _get('/api/players/' + encodeURIComponent(name));
}

/**
 * The players by rating.
 * @param {number} limit How many.
 * @returns {Promise<{players: Leader[], limit: number}>} The leaderboard.
 */
function leaderboard(limit) {
  return _get('/api/leaderboard' + _query({ limit: limit }));
}

/**
 * The history API.
 * @namespace Api
 */
export const Api = Object.freeze({ games, player, leaderboard });

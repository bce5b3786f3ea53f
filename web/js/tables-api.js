/**
 * @file TablesApi: the open tables (`GET /api/tables`, docs/server.md), for the lists of tables
 * to watch. The only place the client fetches that endpoint.
 */

/**
 * One table of the list, as the server describes it.
 * @typedef {Object} TableEntry
 * @property {string} name The table's name.
 * @property {string[]} players The names at the four seats (agents as "Bot N").
 * @property {number} people How many people sit there.
 * @property {boolean} running Whether a game is being played.
 * @property {string} phase `lobby`, `grand_tichu`, ... (`public_state.phase`).
 * @property {number} spectators How many watch.
 * @property {boolean} watchable Whether one more spectator is admitted.
 */

/**
 * The open tables, running ones first; an empty list when the server cannot be asked.
 * @returns {Promise<TableEntry[]>} The tables.
 */
function list() {
  return window.fetch('/api/tables', { cache: 'no-store', headers: { Accept: 'application/json' } })
    .then(function (response) { return response.ok ? response.json() : { tables: [] }; })
    .then(function (data) { return Array.isArray(data.tables) ? data.tables : []; })
    .catch(function () { return []; });
}

/**
 * The tables endpoint.
 * @namespace TablesApi
 */
export const TablesApi = Object.freeze({ list });

/**
 * @file HistoryState: what the history and player views draw, as the HistoryController loaded
 * it from the history API (the views read it, only the controller writes it).
 */

/**
 * The history's state.
 * @typedef {object} HistoryFields
 * @property {string} tab The history's tab: `games` or `leaderboard`.
 * @property {?{games: Object[], total: number, limit: number, offset: number}} page The games shown.
 * @property {number} offset The first game of the page asked for.
 * @property {?string} player The player the games are filtered to, or null.
 * @property {boolean} people Whether only games with at least one person are shown.
 * @property {?Object[]} leaders The leaderboard's players.
 * @property {?Object} stats The player view's statistics.
 * @property {boolean} loading Whether an answer is awaited.
 * @property {?{status: number, error: string, reason: string}} error The last call's failure.
 * @property {string} returnTo The view the history's Back button returns to.
 */

/**
 * The history's state.
 * @namespace HistoryState
 * @type {HistoryFields}
 */
export const HistoryState = {
  tab: 'games', page: null, offset: 0, player: null, people: false, leaders: null, stats: null, loading: false,
  error: null, returnTo: 'login'
};

/**
 * @file AnalysisState: the analysis of the stored game the replay viewer shows, as the
 * AnalysisController loaded it (`GET /api/games/{id}/analysis`); the views read it, only the
 * controller writes it.
 */

/**
 * The analysis' state.
 * @typedef {object} AnalysisFields
 * @property {?string} gameId The game the state is of (null: no stored game shown).
 * @property {string} status `hidden` (a record file, an unknown game, or the server does not
 *   analyse: nothing is shown), `none` (not analysed yet), `queued`, `running`, `done`,
 *   `failed` (the server's analysis failed), `busy` (the server's queue is full) or `offline`.
 * @property {number[]} progress `[done, total]` decisions while queued or running.
 * @property {?Object} document The analysis document (`tichu-analysis/1`) when done.
 * @property {string} reason Why the server's analysis failed (its words), or ''.
 */

/**
 * The analysis' state.
 * @namespace AnalysisState
 * @type {AnalysisFields}
 */
export const AnalysisState = { gameId: null, status: 'hidden', progress: [0, 0], document: null, reason: '' };

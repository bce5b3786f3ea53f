/**
 * @file PlayerView: one player's statistics and rating (docs/ratings.md): games and wins,
 * rounds, Tichu and Grand Tichu calls with their success, double victories, the team's points
 * per round, bombs, and the accuracy over their analysed games (mean loss per decision). Draws HistoryState.stats; back to the history, or the history of
 * this player's games.
 */

import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { HistoryState } from '../history-state.js';
import { I18n } from '../i18n.js';
import { HistoryView } from './history-view.js';
import { Dom } from './dom.js';

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {string} The statistics and language last drawn. */
let _built = '';

/**
 * Find the elements and wire the buttons.
 * @returns {void}
 */
function init() {
  ['player-title', 'player-kind', 'player-rating', 'player-stats', 'player-status', 'player-back',
    'player-games'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  _elements['player-back'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_PLAYER_BACK);
  });
  _elements['player-games'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_PLAYER_GAMES);
  });
}

/**
 * A share as a percentage, or a dash.
 * @param {?number} rate 0..1, or null.
 * @returns {string} E.g. "67 %".
 */
function _percent(rate) {
  return rate === null || rate === undefined ? '–' : Math.round(rate * 100) + ' %';
}

/**
 * The term and value pairs of the statistics.
 * @param {Object} stats The statistics (docs/server.md, `GET /api/players/{name}`).
 * @returns {Array<Array<string>>} `[key, value]` pairs; the key is the term's I18n key.
 */
function _pairs(stats) {
  return [
    ['player.games', I18n.t('player.winsOf', { wins: stats.wins, games: stats.finished,
      rate: _percent(stats.win_rate) })],
    ['player.rounds', String(stats.rounds)],
    ['player.tichu', I18n.t('player.madeOf', { made: stats.tichu_made, calls: stats.tichu_calls,
      rate: _percent(stats.tichu_success) })],
    ['player.grand', I18n.t('player.madeOf', { made: stats.grand_made, calls: stats.grand_calls,
      rate: _percent(stats.grand_success) })],
    ['player.double', String(stats.double_victories)],
    ['player.points', stats.points_per_round === null ? '–' : String(stats.points_per_round)],
    ['player.bombs', String(stats.bombs)],
    ['player.left', String(stats.left ?? 0)]
  ].concat(_accuracy(stats));
}

/**
 * The accuracy over the player's analysed games (docs/server.md: `accuracy`), when any of
 * their games was analysed.
 * @param {Object} stats The statistics.
 * @returns {Array<Array<string>>} One `['player.accuracy', text]` pair, or none.
 */
function _accuracy(stats) {
  const accuracy = stats.accuracy;
  if (!accuracy || !accuracy.games || accuracy.mean_loss === null || accuracy.mean_loss === undefined) {
    return [];
  }
  const key = accuracy.games === 1 ? 'player.accuracyValueOne' : 'player.accuracyValue';
  return [['player.accuracy', I18n.t(key, { mean: Number(accuracy.mean_loss).toFixed(1),
    decisions: accuracy.decisions, games: accuracy.games })]];
}

/**
 * Draw the statistics (or the status while loading or after a failure).
 * @returns {void}
 */
function render() {
  const stats = HistoryState.stats;
  const key = I18n.getLanguage() + (stats ? JSON.stringify(stats) : '');
  let status = '';
  if (HistoryState.error) {
    status = HistoryView.errorText(HistoryState.error);
  }
  else if (HistoryState.loading) {
    status = I18n.t('history.loading');
  }
  _elements['player-status'].textContent = status;
  /** @type {HTMLButtonElement} */ (_elements['player-games']).disabled = !stats;
  if (key === _built) {
    return;
  }
  _built = key;
  _elements['player-title'].textContent = stats ? I18n.playerLabel(stats.name) : '';
  _elements['player-kind'].textContent = !stats ? ''
    : stats.kind === 'human' ? I18n.t('player.person')
      : I18n.t('player.agent', { kind: I18n.agentKindLabel(String(stats.kind).replace(/^agent:/, '')) });
  _elements['player-rating'].textContent = stats ? I18n.t('player.rating', { rating: stats.rating.toFixed(0) }) : '';
  const items = [];
  if (stats) {
    _pairs(stats).forEach(function (pair) {
      const term = document.createElement('dt');
      term.textContent = I18n.t(pair[0]);
      const value = document.createElement('dd');
      value.dataset.stat = pair[0].replace('player.', '');
      value.textContent = pair[1];
      items.push(term, value);
    });
  }
  _elements['player-stats'].replaceChildren(...items);
}

/**
 * A player's statistics.
 * @namespace PlayerView
 */
export const PlayerView = Object.freeze({ init, render });

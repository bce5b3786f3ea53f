/**
 * @file HistoryController: turns the history intents of the views into API calls (Api)
 * and view switches, and keeps the answers in HistoryState for the views to draw.
 *
 * Intents: `intent:history` (open the history from the login or the lobby), `intent:history-page`
 * (`{offset}`), `intent:history-tab` (`{tab: 'games'|'leaderboard'}`), `intent:player`
 * (`{name}`: a player key), `intent:player-games` (the history filtered to the shown player), `intent:history-all` (the
 * filter off), `intent:player-back` (from the player to the history),
 * `intent:history-back` (back to where the history was opened from), `intent:history-people`
 * (`{people}`: only games with people, or all).
 */

import { Api } from './api.js';
import { Events } from './events.js';
import { EventBus } from './event-bus.js';
import { HistoryState } from './history-state.js';
import { ViewManager } from './view-manager.js';

/** Games per page (a page fits the screen without scrolling). */
const PAGE_SIZE = 6;
/** Players on the leaderboard. */
const LEADERS = 10;

/** What the history views draw. */
const model = HistoryState;
/** @type {number} The number of the latest request: older answers are dropped. */
let _request = 0;

/**
 * Run an API call; store its answer with `store` unless a newer call was made since.
 * @param {Promise<Object>} call The call.
 * @param {function(Object): void} store Keeps the answer in the model.
 * @returns {void}
 */
function _load(call, store) {
  const number = ++_request;
  model.loading = true;
  model.error = null;
  ViewManager.requestRender();
  call.then(function (answer) {
    if (number === _request) {
      store(answer);
    }
  }, function (error) {
    if (number === _request) {
      model.error = error;
    }
  }).then(function () {
    if (number === _request) {
      model.loading = false;
      ViewManager.requestRender();
    }
  });
}

/**
 * Load the games page at `model.offset` (filtered by `model.player`).
 * @returns {void}
 */
function _loadGames() {
  _load(Api.games({ limit: PAGE_SIZE, offset: model.offset, player: model.player, people: model.people }), function (page) {
    model.page = page;
  });
}

/**
 * Load the leaderboard.
 * @returns {void}
 */
function _loadLeaders() {
  _load(Api.leaderboard(LEADERS), function (board) {
    model.leaders = board.players;
  });
}

/**
 * Open the history on a tab and load it.
 * @param {string} tab `games` or `leaderboard`.
 * @returns {void}
 */
function _openTab(tab) {
  model.tab = tab;
  if (ViewManager.activeView() !== 'history') {
    ViewManager.show('history');
  }
  if (tab === 'leaderboard') {
    _loadLeaders();
  }
  else {
    _loadGames();
  }
}

/**
 * Subscribe to the intents.
 * @returns {void}
 */
function init() {
  EventBus.on(Events.INTENT_HISTORY, function () {
    const from = ViewManager.activeView();
    model.returnTo = from === 'lobby' ? 'lobby' : 'login';
    model.offset = 0;
    model.player = null;
    model.page = null;
    _openTab('games');
  });
  EventBus.on(Events.INTENT_HISTORY_TAB, function (intent) {
    _openTab(intent.tab === 'leaderboard' ? 'leaderboard' : 'games');
  });
  EventBus.on(Events.INTENT_HISTORY_PAGE, function (intent) {
    model.offset = Math.max(0, Number(intent.offset) || 0);
    _loadGames();
  });
  EventBus.on(Events.INTENT_HISTORY_ALL, function () {
    model.player = null;
    model.offset = 0;
    _loadGames();
  });
  EventBus.on(Events.INTENT_HISTORY_PEOPLE, function (intent) {
    model.people = Boolean(intent.people);
    model.offset = 0;
    _loadGames();
  });
  EventBus.on(Events.INTENT_PLAYER, function (intent) {
    model.stats = null;
    ViewManager.show('player');
    _load(Api.player(String(intent.name)), function (stats) {
      model.stats = stats;
    });
  });
  EventBus.on(Events.INTENT_PLAYER_GAMES, function () {
    model.player = model.stats ? model.stats.name : null;
    model.offset = 0;
    model.page = null;
    _openTab('games');
  });
  EventBus.on(Events.INTENT_PLAYER_BACK, function () {
    _openTab(model.tab);
  });
  EventBus.on(Events.INTENT_HISTORY_BACK, function () {
    ViewManager.show(model.returnTo);
  });
}

/**
 * The history's controller.
 * @namespace HistoryController
 */
export const HistoryController = Object.freeze({ init, PAGE_SIZE });

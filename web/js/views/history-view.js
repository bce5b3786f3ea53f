/**
 * @file HistoryView: the stored games, newest first, a page at a time (players, score, date,
 * length in rounds, a Replay link `#replay=<id>`), and the leaderboard as a second tab; a
 * player's name opens their statistics (intent `intent:player`). Draws HistoryState;
 * the HistoryController loads it.
 */

import { EventBus } from '../event-bus.js';
import { Events } from '../events.js';
import { HistoryState } from '../history-state.js';
import { I18n } from '../i18n.js';
import { Dom } from './dom.js';

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {string} What the list and the leaderboard were last built from (answers and language). */
let _built = '';
/** @type {(Object|null)} The games page last built. */
let _builtPage = null;
/** @type {(Object[]|null)} The leaderboard last built. */
let _builtLeaders = null;

/**
 * Find the elements and wire the tabs, the paging and the back button; a click on a player's
 * name anywhere in the view asks for their statistics.
 * @returns {void}
 */
function init() {
  ['view-history', 'history-tab-games', 'history-tab-leaderboard', 'history-games', 'history-leaderboard',
    'history-filter', 'history-filter-text', 'history-all', 'history-list', 'history-newer', 'history-older',
    'history-range', 'history-status', 'history-back', 'history-people'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  _elements.leaders = Dom.part(document, '#leaderboard-table tbody');
  _elements['history-tab-games'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_HISTORY_TAB, { tab: 'games' });
  });
  _elements['history-tab-leaderboard'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_HISTORY_TAB, { tab: 'leaderboard' });
  });
  _elements['history-newer'].addEventListener('click', function () {
    _turn(-1);
  });
  _elements['history-older'].addEventListener('click', function () {
    _turn(1);
  });
  _elements['history-all'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_HISTORY_ALL);
  });
  _elements['history-people'].addEventListener('change', function () {
    EventBus.emit(Events.INTENT_HISTORY_PEOPLE, { people: /** @type {HTMLInputElement} */ (_elements['history-people']).checked });
  });
  _elements['history-back'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_HISTORY_BACK);
  });
  _elements['view-history'].addEventListener('click', function (event) {
    const link = Dom.closestTo(event, '.player-link');
    if (link) {
      EventBus.emit(Events.INTENT_PLAYER, { name: link.dataset.player });
    }
  });
}

/**
 * Ask for the next older (1) or newer (-1) page.
 * @param {number} direction 1 or -1.
 * @returns {void}
 */
function _turn(direction) {
  const page = HistoryState.page;
  if (page) {
    EventBus.emit(Events.INTENT_HISTORY_PAGE, { offset: Math.max(0, page.offset + direction * page.limit) });
  }
}

/**
 * A start time for people, in the current language.
 * @param {string} iso The record's `started_at`.
 * @returns {string} E.g. "24 Nov 2026, 10:00".
 */
function formatDate(iso) {
  const date = new Date(iso);
  if (isNaN(date.getTime())) {
    return String(iso || '');
  }
  return date.toLocaleString(I18n.getLanguage(), { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A button with a player's name that opens their statistics.
 * @param {{name: string, kind: string, key: string}} player The player (a seat of a game, or
 *   a leaderboard entry whose `name` is its key).
 * @returns {HTMLButtonElement} The `button.player-link[data-player]`.
 */
function playerLink(player) {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'player-link';
  button.dataset.player = player.key || player.name;
  const name = I18n.playerLabel(player.name);  // an agent by its level, not `agent:heuristic`
  button.textContent = name;
  button.setAttribute('aria-label', I18n.t('history.statsOf', { name: name }));
  return button;
}

/**
 * One team of a game: its two players and its score.
 * @param {Object} game The game's summary.
 * @param {number} team 20 or 31.
 * @returns {HTMLDivElement} The `div.history-team`.
 */
function _team(game, team) {
  const box = document.createElement('div');
  box.className = 'history-team team-' + team + (game.winner === team ? ' winner' : '');
  const names = document.createElement('span');
  names.className = 'history-names';
  game.players.filter(function (player) { return player.seat % 2 === (team === 20 ? 0 : 1); })
    .forEach(function (player) { names.appendChild(playerLink(player)); });
  const score = document.createElement('span');
  score.className = 'history-score';
  score.textContent = String((game.score || [])[team === 20 ? 0 : 1] ?? '–');
  box.append(names, score);
  const mark = _teamMark(game, team);
  if (mark) {
    box.appendChild(mark);
  }
  return box;
}

/**
 * The players of a game who left it for good: those who began it on a seat that someone else
 * held at its end (`seat_changes`, issue 35, finding 5).
 * @param {Object} game The summary (`players`: the occupants at the start; `seat_changes`).
 * @returns {Set<number>} Their seats.
 */
function _leftSeats(game) {
  const last = {};
  (Array.isArray(game.seat_changes) ? game.seat_changes : []).forEach(function (change) {
    last[change.seat] = change.name;
  });
  return new Set((game.players || []).filter(function (player) {
    return player.seat in last && last[player.seat] !== player.name;
  }).map(function (player) { return player.seat; }));
}

/**
 * What a team's line says beside its score: "won", and who of it left the game (issue 35,
 * finding 5: a person who left in round 1 has no part in the win, as in their statistics):
 * "Lena won, Max left" for the winners, "Max left" for the others; nothing for a team that
 * lost with its players.
 * @param {Object} game The summary.
 * @param {number} team 20 or 31.
 * @returns {(HTMLSpanElement|null)} The `span.history-won` or `span.history-left`, or null.
 */
function _teamMark(game, team) {
  const left = _leftSeats(game);
  const players = (game.players || []).filter(function (player) { return player.seat % 2 === (team === 20 ? 0 : 1); });
  const names = function (leaving) {
    return players.filter(function (player) { return left.has(player.seat) === leaving; })
      .map(function (player) { return player.name; }).join(' & ');
  };
  const gone = names(true);
  const mark = document.createElement('span');
  if (game.winner === team) {
    mark.className = 'history-won';
    mark.textContent = !gone ? I18n.t('history.won') : names(false) ? I18n.t('history.wonLeft', { won: names(false), left: gone })
      : I18n.t('history.leftMark', { left: gone });
    return mark;
  }
  if (!gone) {
    return null;
  }
  mark.className = 'history-left';
  mark.textContent = I18n.t('history.leftMark', { left: gone });
  return mark;
}

/**
 * How long a game went: its finished rounds, or for a game ended early the round it ended in
 * with the card points taken in it (`unfinished`, issue 35, finding 4: not "0 rounds, 0 : 0").
 * @param {Object} game The summary.
 * @returns {string} E.g. "3 rounds", "ended in round 1, unfinished (cards 35 : 15)".
 */
function _lengthText(game) {
  const unfinished = game.unfinished;
  if (unfinished) {
    return I18n.t('history.unfinished', { round: Number(unfinished.round) + 1, a: unfinished.points[0],
      b: unfinished.points[1] });
  }
  return game.rounds === 1 ? I18n.t('history.oneRound') : I18n.t('history.rounds', { count: game.rounds });
}

/**
 * The changes of a game's seats in words (docs/server.md "Leaving, idle seats and late
 * joiners": `seat_changes`, each naming the seat's new occupant): who left in which round and
 * who played on ("Ben left in round 3 — Bot 4 finished"), or who took a seat.
 * @param {Object} game The summary (`players`: the occupants at the start; `seat_changes`).
 * @returns {string[]} One line per change, in order.
 */
function seatChanges(game) {
  const changes = Array.isArray(game.seat_changes) ? game.seat_changes : [];
  const occupants = {};
  (game.players || []).forEach(function (player) { occupants[player.seat] = player.name; });
  return changes.map(function (change, index) {
    const before = occupants[change.seat] || '';
    occupants[change.seat] = change.name;
    const round = Number(change.round) + 1;
    if (change.reason === 'left') {
      const last = !changes.slice(index + 1).some(function (later) { return later.seat === change.seat; });
      return I18n.t(last ? 'history.leftFinished' : 'history.leftTookOver',
        { name: before, round: round, by: change.name });
    }
    return I18n.t('history.tookSeat', { name: change.name, round: round, from: before });
  });
}

/**
 * The list item of one game.
 * @param {Object} game The summary (docs/server.md, `GET /api/games`).
 * @returns {HTMLLIElement} The `li.history-game[data-game-id]`.
 */
function _gameItem(game) {
  const item = document.createElement('li');
  item.className = 'history-game';
  item.dataset.gameId = game.id;
  const meta = document.createElement('div');
  meta.className = 'history-meta';
  const date = document.createElement('span');
  date.className = 'history-date';
  date.textContent = formatDate(game.started_at);
  const length = document.createElement('span');
  length.className = 'history-rounds';
  length.textContent = _lengthText(game);
  meta.append(date, length);
  if (game.table_name) {
    const table = document.createElement('span');
    table.className = 'history-table';
    table.textContent = I18n.t('history.table', { table: game.table_name });
    meta.appendChild(table);
  }
  if (game.aborted || game.ended_by) {
    const aborted = document.createElement('span');
    aborted.className = 'history-aborted' + (game.ended_by ? ' history-ended-by' : '');
    aborted.textContent = game.ended_by ? I18n.t('history.endedBy', { name: game.ended_by.name })
      : I18n.t('history.aborted');
    meta.appendChild(aborted);
  }
  const replay = document.createElement('a');
  replay.className = 'history-replay';
  replay.href = '#replay=' + encodeURIComponent(game.id);
  replay.textContent = I18n.t('history.replay');
  replay.setAttribute('aria-label', I18n.t('history.replayOf', { date: date.textContent }));
  const teams = document.createElement('div');
  teams.className = 'history-teams';
  teams.append(_team(game, 20), _team(game, 31));
  item.append(meta, teams, replay);
  const lines = seatChanges(game);
  if (lines.length) {
    const list = document.createElement('ul');
    list.className = 'history-changes';
    list.replaceChildren(...lines.map(function (line) {
      const entry = document.createElement('li');
      entry.className = 'history-change';
      entry.textContent = line;
      return entry;
    }));
    item.appendChild(list);
  }
  return item;
}

/**
 * The leaderboard's row of one player.
 * @param {{rank: number, name: string, kind: string, rating: number, games: number, wins: number,
 *   left: (number|undefined)}} entry The entry (`left`: games left for good, docs/ratings.md).
 * @returns {HTMLTableRowElement} The `tr.leader[data-player]`.
 */
function _leaderRow(entry) {
  const row = document.createElement('tr');
  row.className = 'leader';
  row.dataset.player = entry.name;
  const cells = [String(entry.rank), null, entry.rating.toFixed(0), String(entry.games), String(entry.wins),
    String(entry.left ?? 0)];
  cells.forEach(function (text, index) {
    const cell = document.createElement(index === 1 ? 'th' : 'td');
    if (text === null) {
      cell.scope = 'row';
      cell.appendChild(playerLink({ name: entry.name, key: entry.name, kind: entry.kind }));
    }
    else {
      cell.textContent = text;
    }
    row.appendChild(cell);
  });
  return row;
}

/**
 * A failed call in words.
 * @param {{status: number, reason: string}} error The failure.
 * @returns {string} The text.
 */
function errorText(error) {
  if (error.status === 404) {
    return I18n.t('history.notFound');
  }
  return I18n.t('history.error', { reason: error.reason || String(error.status) });
}

/**
 * Draw the tabs, the page or the leaderboard, the paging and the status.
 * @returns {void}
 */
function render() {
  const state = HistoryState;
  const games = state.tab !== 'leaderboard';
  _elements['history-tab-games'].setAttribute('aria-selected', String(games));
  _elements['history-tab-leaderboard'].setAttribute('aria-selected', String(!games));
  _elements['history-tab-games'].classList.toggle('active', games);
  _elements['history-tab-leaderboard'].classList.toggle('active', !games);
  _elements['history-games'].hidden = !games;
  _elements['history-leaderboard'].hidden = games;
  const language = I18n.getLanguage();
  if (_builtPage !== state.page || _builtLeaders !== state.leaders || _built !== language) {
    _builtPage = state.page;
    _builtLeaders = state.leaders;
    _built = language;
    _elements['history-list'].replaceChildren(...(state.page ? state.page.games.map(_gameItem) : []));
    _elements.leaders.replaceChildren(...(state.leaders || []).map(_leaderRow));
  }
  const page = state.page;
  /** @type {HTMLInputElement} */ (_elements['history-people']).checked = state.people;
  _elements['history-filter'].hidden = !state.player;
  _elements['history-filter-text'].textContent = state.player ? I18n.t('history.filtered', { name: state.player }) : '';
  /** @type {HTMLButtonElement} */ (_elements['history-newer']).disabled = !page || page.offset === 0;
  /** @type {HTMLButtonElement} */ (_elements['history-older']).disabled = !page || page.offset + page.games.length >= page.total;
  _elements['history-range'].textContent = page && page.games.length
    ? I18n.t('history.range', { first: page.offset + 1, last: page.offset + page.games.length, total: page.total })
    : '';
  let status = '';
  if (state.error) {
    status = errorText(state.error);
  }
  else if (state.loading) {
    status = I18n.t('history.loading');
  }
  else if (games && page && page.total === 0) {
    status = I18n.t('history.empty');
  }
  else if (!games && state.leaders && state.leaders.length === 0) {
    status = I18n.t('history.noLeaders');
  }
  _elements['history-status'].textContent = status;
}

/**
 * The history.
 * @namespace HistoryView
 */
export const HistoryView = Object.freeze({ init, render, formatDate, playerLink, errorText, seatChanges });

/**
 * @file ScoreView: the end-of-game score sheet, round by round for both teams with the calls
 * and their outcome; the game's replay and analysis once it is stored (`game_stored`); back to
 * the lobby. The same sheet, for the game so far, is drawn in the
 * side panel's score tab (`renderSheet`, `#sheet-table`). The names are those of the seats
 * when each round was played (RoundRecord `names`), not of the seats now: a partner who
 * leaves after the game keeps their name on the sheet. Each round's row holds its points and
 * the running totals; below it a line (`tr.score-calls`) names who called what, made or failed,
 * and another (`tr.score-detail`) gives its card points, Tichu points and the order out, and
 * names the round's teams where they were not those of the header (a seat that changed hands:
 * "Lena & Max → Bot 3", issue 35, finding 5). The calls are lines of their own, not a column:
 * the side panel's sheet is narrow, and three columns leave the teams' names and the numbers
 * room to stay whole.
 */

import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { I18n } from '../i18n.js';
import { State } from '../state.js';
import { Dom } from './dom.js';

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** The sheet's columns: the round, team 20's points, team 31's points. */
const _COLUMNS = 3;

/**
 * Find the elements and wire the back button.
 * @returns {void}
 */
function init() {
  ['scores-winner', 'scores-back', 'scores-review'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  _elements['scores-back'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_SCORES_BACK);
  });
  _elements['scores-review'].addEventListener('click', function () {  // the game's replay and analysis
    if (State.storedGame !== null) {
      EventBus.emit(Events.INTENT_REPLAY_OPEN, { id: State.storedGame, step: null });
    }
  });
}

/**
 * The names of the seats the sheet shows: those of the last round played, else of the seats now.
 * @returns {string[]} The names by seat.
 */
function _sheetNames() {
  const last = State.rounds[State.rounds.length - 1];
  return last && last.names ? last.names : [0, 1, 2, 3].map(State.displayName);
}

/**
 * A team's name: its two players.
 * @param {number} team 20 or 31.
 * @param {string[]} names The names by seat.
 * @returns {string} E.g. "Anna & Ben".
 */
function _teamName(team, names) {
  const first = team === 20 ? 0 : 1;
  return names[first] + ' & ' + names[first + 2];
}

/**
 * The calls of a round in words, e.g. "Anna: Tichu (made it)".
 * @param {import('../state.js').RoundRecord} record The round.
 * @returns {string} The text, empty when no one called and no team won a double victory.
 */
function _callsText(record) {
  const names = record.names || _sheetNames();
  const parts = (record.calls || []).map(function (call) {
    return names[call.seat] + ': ' + I18n.t(call.grand ? 'call.2' : 'call.1')
      + ' (' + I18n.t(call.success ? 'scores.made' : 'scores.failed') + ')';
  });
  if (record.isDoubleVictory) {
    parts.push(I18n.t('result.doubleVictory'));
  }
  return parts.join(', ');
}

/**
 * A team's cell in a round's row: the round's points and, in brackets, the running total, each
 * kept on one line (a narrow sheet may put the total below the points, never split a number).
 * @param {number} points The team's points of the round.
 * @param {number} total The team's total after it.
 * @returns {HTMLTableCellElement} The `td.score-points`.
 */
function _pointsCell(points, total) {
  const cell = document.createElement('td');
  cell.className = 'score-points';
  const own = document.createElement('span');
  own.textContent = String(points);
  const running = document.createElement('span');
  running.textContent = '(' + total + ')';
  cell.append(own, ' ', running);
  return cell;
}

/**
 * Build the row of one round: its number and the teams' points.
 * @param {import('../state.js').RoundRecord} record The round.
 * @returns {HTMLTableRowElement} The `tr.score-round`.
 */
function _buildRow(record) {
  const row = document.createElement('tr');
  row.className = 'score-round';
  const number = document.createElement('th');
  number.scope = 'row';
  number.textContent = String(record.roundIndex + 1);
  row.append(number, _pointsCell(record.points[0], record.total[0]), _pointsCell(record.points[1], record.total[1]));
  return row;
}

/**
 * A line of the sheet across all its columns.
 * @param {string} className The row's class.
 * @param {string} text The line's text.
 * @returns {HTMLTableRowElement} The row.
 */
function _lineRow(className, text) {
  const row = document.createElement('tr');
  row.className = className;
  const cell = document.createElement('td');
  cell.colSpan = _COLUMNS;
  cell.textContent = text;
  row.appendChild(cell);
  return row;
}

/**
 * Build the line below a round's row that names who called what, made or failed.
 * @param {import('../state.js').RoundRecord} record The round.
 * @returns {(HTMLTableRowElement|null)} The `tr.score-calls`, or null when no one called (or
 *   the calls are not known: rounds before a reconnect).
 */
function _buildCalls(record) {
  const text = _callsText(record);
  return text ? _lineRow('score-calls', text) : null;
}

/**
 * Build the line below a round's row: its card points and Tichu points, and the order in which
 * the players went out (when known: not for rounds before a reconnect).
 * @param {import('../state.js').RoundRecord} record The round.
 * @returns {(HTMLTableRowElement|null)} The `tr.score-detail`, or null when nothing is known.
 */
function _buildDetail(record) {
  const names = record.names || _sheetNames();
  const parts = [];
  const header = _sheetNames();
  if ([20, 31].some(function (team) { return _teamName(team, names) !== _teamName(team, header); })) {
    parts.push(I18n.t('scores.detailTeams', { a: _teamName(20, names), b: _teamName(31, names) }));
  }
  if (record.cardPoints) {
    parts.push(I18n.t(record.isDoubleVictory ? 'scores.detailDouble' : 'scores.detailCards',
      { a: record.cardPoints[0], b: record.cardPoints[1] }));
  }
  if (record.bonus && (record.bonus[0] || record.bonus[1])) {
    parts.push(I18n.t('scores.detailBonus', { a: record.bonus[0], b: record.bonus[1] }));
  }
  if (record.outOrder && record.outOrder.length) {
    parts.push(I18n.t('result.order', { order: record.outOrder.map(function (seat, index) {
      return I18n.t('place.' + (index + 1)) + ' ' + names[seat];
    }).join(', ') }));
  }
  return parts.length ? _lineRow('score-detail', parts.join(' · ')) : null;
}

/**
 * Fill a score table: the teams' names, a row per round, the totals.
 * @param {string} prefix `scores` (the end-of-game sheet) or `sheet` (the side panel's).
 * @param {number[]} total `[team 20, team 31]`.
 * @returns {void}
 */
function _fill(prefix, total) {
  const names = _sheetNames();
  const table = Dom.byId(prefix + '-table');
  const key = JSON.stringify([I18n.getLanguage(), total, names, State.rounds.length]);
  if (table.dataset.key === key) {
    return;  // drawn from the same rounds already (the side panel's sheet renders with every frame)
  }
  table.dataset.key = key;
  Dom.byId(prefix + '-team-20').textContent = _teamName(20, names);
  Dom.byId(prefix + '-team-31').textContent = _teamName(31, names);
  [20, 31].forEach(function (team) {  // a name too long for its column ends in "…": whole on hover
    const header = Dom.byId(prefix + '-team-' + team);
    header.title = header.textContent;
  });
  Dom.byId(prefix + '-total-20').textContent = String(total[0]);
  Dom.byId(prefix + '-total-31').textContent = String(total[1]);
  const body = Dom.part(table, 'tbody');
  const rows = [];
  for (const record of State.rounds) {
    rows.push(_buildRow(record));
    for (const line of [_buildCalls(record), _buildDetail(record)]) {
      if (line) {
        rows.push(line);
      }
    }
  }
  if (!rows.length) {
    rows.push(_lineRow('sheet-empty', I18n.t('sheet.empty')));
  }
  body.replaceChildren(...rows);
}

/**
 * Draw the sheet.
 * @returns {void}
 */
function render() {
  const total = (State.gameOver && State.gameOver.total) || State.public.total || [0, 0];
  const winner = State.gameOver ? State.gameOver.winner : null;
  _elements['scores-winner'].textContent = winner ? I18n.t('scores.winner', { team: _teamName(winner, _sheetNames()) }) : '';
  _elements['scores-review'].hidden = State.storedGame === null;
  _elements['scores-review'].textContent = I18n.t('scores.review');
  _fill('scores', total);
}

/**
 * Draw the side panel's score sheet: the game so far.
 * @returns {void}
 */
function renderSheet() {
  _fill('sheet', State.public.total || [0, 0]);
}

/**
 * The score sheet.
 * @namespace ScoreView
 */
export const ScoreView = Object.freeze({ init, render, renderSheet });

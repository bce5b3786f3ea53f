/**
 * @file CenterPanel: draws the middle of the table: the open trick (each seat's latest play
 * in front of the seat, named, the newest highlighted) with owner, combination and points, the open wish, the push zones and the
 * result of the round that just ended.
 */

import { I18n } from '../../i18n.js';
import { Line } from '../../line.js';
import { Lib } from '../../lib.js';
import { State } from '../../state.js';
import { CardBuilder } from '../card-builder.js';
import { Dom } from '../dom.js';

/**
 * What the center shows besides the trick.
 * @typedef {Object} CenterModel
 * @property {(Object<string, (number[]|null)>|null)} zones The card in each push zone
 *   (`right`, `partner`, `left`), or null to hide the zones.
 * @property {boolean} zonesActive Whether the zones take cards now.
 * @property {boolean} showResult Whether the round's result is shown.
 * @property {boolean} [final] Whether the game is over (the result leads to the score sheet).
 */

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {HTMLButtonElement[]} The push zones (`button.push-zone`). */
let _zones = [];

/**
 * Find the elements.
 * @param {HTMLElement} root The table view.
 * @returns {void}
 */
function init(root) {
  ['trick', 'trick-info', 'trick-owner', 'trick-combo', 'trick-points', 'wish', 'push-zones', 'round-result']
    .forEach(function (id) { _elements[id] = Dom.byId(id); });
  _zones = Array.from(/** @type {NodeListOf<HTMLButtonElement>} */ (root.querySelectorAll('.push-zone')));
}

/**
 * Build the element of one play of the trick.
 * @param {Array} turn The play `[player_index, cards, combination]`.
 * @param {string} key Identifies the play.
 * @returns {HTMLElement} The `.trick-turn` element.
 */
function _buildTurn(turn, key) {
  const group = document.createElement('div');
  group.className = 'trick-turn';
  group.dataset.key = key;
  group.dataset.seat = String(turn[0]);
  const name = document.createElement('span');
  name.className = 'trick-turn-name';
  const cards = document.createElement('div');
  cards.className = 'trick-turn-cards';
  group.append(cards, name);
  return group;
}

/**
 * Draw the open trick: each seat's latest play of it in front of the seat (`.trick-turn`
 * with `data-seat`, the class `pos-<position>` and the player's name), the newest play
 * with the class `latest`.
 * @returns {void}
 */
function _renderTrick() {
  const turns = openTrickTurns(State.public.trick_turns || []);
  const own = State.playerIndex === null ? 0 : State.playerIndex;
  const latestBySeat = new Map();
  turns.forEach(function (turn, index) { latestBySeat.set(turn[0], index); });
  const shown = turns.filter(function (turn, index) { return latestBySeat.get(turn[0]) === index; });
  const container = _elements.trick;
  const groups = shown.map(function (turn) {
    const key = turn[0] + ':' + turn[1].map(Lib.cardKey).join(',');
    let group = /** @type {HTMLElement} */ (container.querySelector('.trick-turn[data-seat="' + turn[0] + '"]'));
    if (!group || group.dataset.key !== key) {
      group = _buildTurn(turn, key);
    }
    group.className = 'trick-turn pos-' + Lib.relativePosition(turn[0], own);
    group.classList.toggle('latest', turn === turns[turns.length - 1]);
    group.style.removeProperty('--depth');
    Dom.part(group, '.trick-turn-name').textContent = State.displayName(turn[0]);
    CardBuilder.syncCards(Dom.part(group, '.trick-turn-cards'), Lib.sortCards(turn[1]));
    return group;
  });
  const same = groups.length === container.children.length
    && groups.every(function (group, index) { return container.children[index] === group; });
  if (!same) {
    container.replaceChildren(...groups);
  }
}

/**
 * The plays of the trick on the table: after the Dog passed the lead (R3.10) and the next
 * play was made, the Dog and what came before it belong to the trick it ended, not to the
 * new one (the server keeps them in one `trick_turns`); while the Dog is the newest play it
 * is shown alone.
 * @param {Array} turns `public_state.trick_turns`.
 * @returns {Array} The turns to draw.
 */
function openTrickTurns(turns) {
  let start = 0;
  turns.forEach(function (turn, index) {
    if (index < turns.length - 1 && turn[1].length === 1 && turn[1][0][0] === Lib.CardValue.DOG) {
      start = index + 1;
    }
  });
  return turns.slice(start);
}

/**
 * Draw the trick's owner, combination and points (for the Dog's lead instead: to whom the lead
 * passes, R3.10), and the wish.
 * @returns {void}
 */
function _renderInfo() {
  const state = State.public;
  const turns = openTrickTurns(state.trick_turns || []);
  const owner = state.trick_owner_index;
  const hasTrick = turns.length > 0 && owner !== null && owner !== undefined;
  const latest = turns[turns.length - 1];
  const dog = hasTrick && Lib.isDog(latest[1]);
  _elements['trick-owner'].textContent = hasTrick && !dog ? I18n.t('trick.owner', { name: State.displayName(owner) })
    : '';
  _elements['trick-combo'].textContent = !hasTrick ? '' : dog
    ? I18n.t('trick.dog', { name: State.displayName(Lib.partnerOf(latest[0])) }) : I18n.t('combo.' + latest[2][0]);
  _elements['trick-points'].textContent = hasTrick && !dog ? I18n.t('trick.points', { points: state.trick_points || 0 })
    : '';
  const wishOpen = Boolean(state.wish_open) && state.wish_value > 0;
  _elements.wish.textContent = wishOpen ? I18n.t('trick.wish', { value: I18n.valueLabel(state.wish_value) }) : '';
  _elements.wish.hidden = !wishOpen;
}

/**
 * Draw the push zones.
 * @param {CenterModel} model What to show.
 * @returns {void}
 */
function _renderZones(model) {
  _elements['push-zones'].hidden = !model.zones;
  if (!model.zones) {
    return;
  }
  const own = State.playerIndex === null ? 0 : State.playerIndex;
  for (const zone of _zones) {
    const target = zone.dataset.target || '';  // each push zone of the markup names its target
    const card = model.zones[target];
    Dom.part(zone, '.push-zone-label').textContent =
      I18n.t('push.' + target) + ': ' + State.displayName(Lib.seatOfTarget(own, target));
    CardBuilder.syncCards(Dom.part(zone, '.push-zone-slot'), card ? [card] : []);
    zone.classList.toggle('filled', Boolean(card));
    zone.disabled = !model.zonesActive;
  }
}

/**
 * Append a row of the round-result table.
 * @param {HTMLElement} table The table.
 * @param {string} label The row's heading.
 * @param {Array<(number|string)>} values The two teams' values.
 * @param {string} cellTag `td` or `th`.
 * @returns {void}
 */
function _appendRow(table, label, values, cellTag) {
  const row = document.createElement('tr');
  const heading = document.createElement('th');
  heading.textContent = label;
  row.appendChild(heading);
  for (const value of values) {
    const cell = document.createElement(cellTag);
    cell.textContent = String(value);
    row.appendChild(cell);
  }
  table.appendChild(row);
}

/**
 * The names of a team's two seats.
 * @param {number} team 20 or 31.
 * @param {(string[]|undefined)} names The names by seat when the round was played, if known.
 * @returns {string} E.g. `Ada & Bot 3`.
 */
function _teamNames(team, names) {
  const of = names || [0, 1, 2, 3].map(State.displayName);
  return team === 20 ? of[0] + ' & ' + of[2] : of[1] + ' & ' + of[3];
}

/**
 * The callers of a round, each Tichu and Grand Tichu on its own line, made or failed (R6: made
 * when the caller went out first), and the order in which the players went out.
 * @param {import('../../state.js').RoundRecord} record The round.
 * @returns {(HTMLElement|null)} `.result-details` with `.result-call[data-seat]` items
 *   (class `made` or `failed`, `data-call="tichu|grand"`) and `.result-order`; null when
 *   neither is known.
 */
function _resultDetails(record) {
  const names = record.names || [0, 1, 2, 3].map(State.displayName);
  const list = document.createElement('ul');
  list.className = 'result-details';
  for (const call of record.calls || []) {
    const item = document.createElement('li');
    item.className = 'result-call ' + (call.success ? 'made' : 'failed');
    item.dataset.seat = String(call.seat);
    item.dataset.call = call.grand ? 'grand' : 'tichu';
    item.textContent = I18n.t('result.call', { name: names[call.seat], call: I18n.t(call.grand ? 'call.2' : 'call.1'),
      outcome: I18n.t(call.success ? 'scores.made' : 'scores.failed') });
    list.appendChild(item);
  }
  if (record.outOrder && record.outOrder.length) {
    const order = document.createElement('li');
    order.className = 'result-order';
    order.textContent = I18n.t('result.order', { order: record.outOrder.map(function (seat, index) {
      return I18n.t('place.' + (index + 1)) + ' ' + names[seat];
    }).join(' · ') });
    list.appendChild(order);
  }
  return list.children.length ? list : null;
}

/**
 * The end of another line's round: what the round scored in the game, and the way back to the
 * replay (the line's table has nothing more to play).
 * @param {import('../../line.js').LineInfo} line The line.
 * @returns {HTMLElement[]} The comparison (when the game finished the round) and the button.
 */
function _lineEnd(line) {
  const parts = [];
  if (line.gameRound) {
    const game = document.createElement('p');
    game.className = 'result-line';
    game.textContent = I18n.t('line.inTheGame', { a: line.gameRound[0], b: line.gameRound[1] });
    parts.push(game);
  }
  const back = document.createElement('button');
  back.type = 'button';
  back.className = 'line-back big-button primary';
  back.textContent = I18n.t('line.back');
  parts.push(back);
  return parts;
}

/**
 * Draw the result of the round that just ended; after the game's last round it also names
 * the winner and its button leads to the score sheet.
 * @param {boolean} visible Whether it is shown.
 * @param {boolean} final Whether the game is over.
 * @returns {void}
 */
function _renderResult(visible, final) {
  const element = _elements['round-result'];
  const record = State.lastRound;
  element.hidden = !visible || !record;
  if (!visible || !record) {
    return;
  }
  const played = Line.current();
  const key = record.roundIndex + '|' + final + '|' + I18n.getLanguage() + '|' + Boolean(played);
  if (element.dataset.key === key) {
    return;
  }
  element.dataset.key = key;
  element.classList.toggle('final', final);
  const title = document.createElement('h3');
  title.textContent = I18n.t(record.isDoubleVictory ? 'result.titleDoubleVictory' : 'result.title',
    { n: record.roundIndex + 1 });
  const table = document.createElement('table');
  _appendRow(table, '', [_teamNames(20, record.names), _teamNames(31, record.names)], 'th');
  if (record.cardPoints) {
    // R7.1: a double victory scores 200 instead of the card points
    _appendRow(table, I18n.t(record.isDoubleVictory ? 'result.doubleVictory' : 'result.cardPoints'),
      record.cardPoints, 'td');
  }
  if (record.bonus) {
    _appendRow(table, I18n.t('result.bonus'), record.bonus, 'td');
  }
  _appendRow(table, I18n.t('result.points'), record.points, 'td');
  _appendRow(table, I18n.t('result.total'), record.total, 'td');
  /** @type {HTMLElement[]} */
  const parts = [title, table];
  const details = _resultDetails(record);
  if (details) {
    parts.push(details);
  }
  const winner = final && State.gameOver ? State.gameOver.winner : null;
  if (winner === 20 || winner === 31) {
    const line = document.createElement('p');
    line.className = 'result-winner';
    line.textContent = I18n.t('result.winner', { names: _teamNames(winner, record.names) });
    parts.push(line);
  }
  if (played) {
    parts.push(..._lineEnd(played));
  }
  else {
    const close = document.createElement('button');
    close.type = 'button';
    close.className = 'result-close big-button' + (final ? ' primary' : '');
    close.textContent = I18n.t(final ? 'result.scoreSheet' : 'result.close');
    parts.push(close);
  }
  element.replaceChildren(...parts);
}

/**
 * Draw the middle of the table.
 * @param {CenterModel} model What to show besides the trick.
 * @returns {void}
 */
function render(model) {
  const resultShown = model.showResult && Boolean(State.lastRound);
  const trickHidden = Boolean(model.zones) || resultShown;
  _elements.trick.hidden = trickHidden;
  _elements['trick-info'].hidden = trickHidden;
  _renderTrick();
  _renderInfo();
  _renderZones(model);
  _renderResult(model.showResult, Boolean(model.final));
}

/**
 * The middle of the table.
 * @namespace CenterPanel
 */
export const CenterPanel = Object.freeze({ init, render, openTrickTurns });

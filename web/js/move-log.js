/**
 * @file MoveLog: the running log of a game's moves (who played what, passes, Tichu and Grand
 * Tichu calls, bombs, the wish and its fulfilment, the Dragon's gift, tricks taken, players
 * out, each round's start and points, a person leaving the table), kept from the
 * notifications the client receives as a pure reducer: the server sends no history, so a page that joins or reloads starts an empty
 * log. The names are taken when the move is made, so a player who leaves later keeps them;
 * the words are chosen when the log is drawn (`text`), in the language of that moment.
 */

import { I18n } from './i18n.js';
import { Lib } from './lib.js';
import { Notifications } from './protocol.js';

/**
 * One line of the log.
 * @typedef {Object} Move
 * @property {string} kind `round`, `call`, `play`, `bomb`, `dog` (the Dog's lead, which passes
 *   the lead to the partner), `pass`, `wish`, `wished`, `taken`, `dragon`, `out`, `points` or
 *   `left` (a person left the table).
 * @property {number} [seat] Whose move.
 * @property {string} [name] That seat's name when the move was made.
 * @property {Object} [data] What the words need (cards, combination, value, place, ...).
 */

/**
 * The log.
 * @typedef {Object} MoveLogState
 * @property {Move[]} moves The lines, oldest first.
 * @property {(number|null)} lastPlayer The seat that played last (the wish is the Mah Jong
 *   player's, whom `wish_made` does not name).
 */

/**
 * An empty log.
 * @returns {MoveLogState} The log.
 */
function empty() {
  return { moves: [], lastPlayer: null };
}

/**
 * The log after one notification; a notification that is no move leaves it as it is.
 * @param {MoveLogState} log The log so far (not changed).
 * @param {string} event The notification's `event`.
 * @param {Object} context Its `context`.
 * @param {function(number): string} nameOf The name of a seat now.
 * @param {number} limit Lines kept (the oldest go first).
 * @returns {MoveLogState} The new log.
 */
function reduce(log, event, context, nameOf, limit) {
  const move = _move(log, event, context, nameOf);
  const lastPlayer = event === Notifications.PLAYER_PLAYED ? Number(context.turn[0]) : log.lastPlayer;
  if (!move.length) {
    return lastPlayer === log.lastPlayer ? log : { moves: log.moves, lastPlayer: lastPlayer };
  }
  return { moves: log.moves.concat(move).slice(-limit), lastPlayer: lastPlayer };
}

/**
 * The lines one notification adds.
 * @param {MoveLogState} log The log so far.
 * @param {string} event The notification's `event`.
 * @param {Object} context Its `context`.
 * @param {function(number): string} nameOf The name of a seat now.
 * @returns {Move[]} The lines (none for a notification that is no move).
 */
function _move(log, event, context, nameOf) {
  const seatMove = function (kind, seat, data) {
    return { kind: kind, seat: seat, name: nameOf(seat), data: data || {} };
  };
  switch (event) {
    case Notifications.ROUND_STARTED:
      return [{ kind: 'round', data: { round: Number(context.round_index) + 1 } }];
    case Notifications.PLAYER_ANNOUNCED:
      return [seatMove('call', Number(context.player_index), { grand: Boolean(context.grand) })];
    case Notifications.PLAYER_PLAYED: {
      const turn = context.turn;
      const seat = Number(turn[0]);
      if (Lib.isDog(turn[1])) {
        return [seatMove('dog', seat, { to: Lib.partnerOf(seat), toName: nameOf(Lib.partnerOf(seat)) })];
      }
      return [seatMove(context.is_bomb ? 'bomb' : 'play', seat, { cards: turn[1], combination: turn[2] })];
    }
    case Notifications.PLAYER_PASSED:
      return [seatMove('pass', Number(context.player_index))];
    case Notifications.WISH_MADE:
      if (!context.wish_value) {
        return [];
      }
      return [log.lastPlayer === null ? { kind: 'wish', data: { value: context.wish_value } }
        : seatMove('wish', log.lastPlayer, { value: context.wish_value })];
    case Notifications.WISH_FULFILLED:
      return [{ kind: 'wished', data: {} }];
    case Notifications.TRICK_TAKEN: {
      const taken = [seatMove('taken', Number(context.player_index), { points: Number(context.points) })];
      const recipient = context.dragon_recipient;
      if (recipient !== null && recipient !== undefined) {
        taken.push(seatMove('dragon', Number(context.player_index),
          { to: Number(recipient), toName: nameOf(Number(recipient)) }));
      }
      return taken;
    }
    case Notifications.PLAYER_OUT:
      return [seatMove('out', Number(context.player_index), { place: Number(context.place) })];
    case Notifications.ROUND_OVER:
      return [{ kind: 'points', data: { points: context.points.slice(), total: context.total.slice() } }];
    case Notifications.PLAYER_LEFT: {
      if (!context.replaced_by_agent) {
        return [];
      }
      const seat = Number(context.player_index);  // the name now is the agent's (issue 35, finding 5)
      return [{ kind: 'left', seat: seat, name: String(context.player_name || ''), data: { agent: nameOf(seat) } }];
    }
    default:
      return [];
  }
}

/**
 * The cards of a play in short words, e.g. "7, 7" or "Dragon".
 * @param {number[][]} cards The cards.
 * @returns {string} The words.
 */
function _cardsText(cards) {
  return cards.map(function (card) {
    if (card[1] === 0) {
      return I18n.t('card.' + card[0]);
    }
    return card[0] > 10 ? I18n.t('value.' + card[0]) : String(card[0]);
  }).join(' ');
}

/**
 * A line of the log in the current language.
 * @param {Move} move The line.
 * @returns {string} E.g. "Ada plays Pair: 7 7".
 */
function text(move) {
  const data = move.data || {};
  const name = move.name || '';
  switch (move.kind) {
    case 'round':
      return I18n.t('log.round', { n: data.round });
    case 'call':
      return I18n.t(data.grand ? 'log.grand' : 'log.tichu', { name: name });
    case 'play':
    case 'bomb':
      return I18n.t('log.' + move.kind, { name: name, combo: I18n.t('combo.' + data.combination[0]),
        cards: _cardsText(data.cards) });
    case 'dog':
      return I18n.t('log.dog', { name: name, to: data.toName });
    case 'pass':
      return I18n.t('log.pass', { name: name });
    case 'wish':
      return I18n.t(move.name ? 'log.wish' : 'log.wishAnon',
        { name: name, value: data.value > 10 ? I18n.t('value.' + data.value) : String(data.value) });
    case 'wished':
      return I18n.t('log.wished');
    case 'taken':
      return I18n.t('log.taken', { name: name, points: data.points });
    case 'dragon':
      return I18n.t('log.dragon', { name: name, to: data.toName });
    case 'out':
      return I18n.t('log.out', { name: name, place: I18n.t('place.' + data.place) });
    case 'points':
      return I18n.t('log.points', { a: data.points[0], b: data.points[1], ta: data.total[0], tb: data.total[1] });
    case 'left':
      return I18n.t('log.left', { name: name, agent: data.agent });
    default:
      return '';
  }
}

/**
 * The move log's reducer and words.
 * @namespace MoveLog
 */
export const MoveLog = Object.freeze({ empty, reduce, text });

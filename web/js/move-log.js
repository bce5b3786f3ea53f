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

/** @typedef {import('./protocol-types.js').NotificationPayload} NotificationPayload */

/**
 * What the words of a line need; each kind sets its own fields.
 * @typedef {object} MoveData
 * @property {number} [round] `round`: the round's number, from 1.
 * @property {boolean} [grand] `call`: whether Grand Tichu.
 * @property {Array<[number, number]>} [cards] `play`, `bomb`: the cards.
 * @property {[string, number, number]} [combination] `play`, `bomb`: `[type, length, rank]`.
 * @property {number} [to] `dog`, `dragon`: the seat given the lead or the trick.
 * @property {string} [toName] `dog`, `dragon`: its name.
 * @property {number} [value] `wish`: the wished value.
 * @property {number} [points] `taken`: the trick's points.
 * @property {number} [place] `out`: the place, from 1.
 * @property {number[]} [roundPoints] `points`: the teams' points of the round.
 * @property {number[]} [total] `points`: the teams' totals.
 * @property {string} [agent] `left`: the agent who plays the seat now.
 */

/**
 * One line of the log.
 * @typedef {Object} Move
 * @property {string} kind `round`, `call`, `play`, `bomb`, `dog` (the Dog's lead, which passes
 *   the lead to the partner), `pass`, `wish`, `wished`, `taken`, `dragon`, `out`, `points` or
 *   `left` (a person left the table).
 * @property {number} [seat] Whose move.
 * @property {string} [name] That seat's name when the move was made.
 * @property {MoveData} data What the words need.
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
 * @param {NotificationPayload} note The notification's payload.
 * @param {function(number): string} nameOf The name of a seat now.
 * @param {number} limit Lines kept (the oldest go first).
 * @returns {MoveLogState} The new log.
 */
function reduce(log, note, nameOf, limit) {
  const move = _move(log, note, nameOf);
  const lastPlayer = note.event === Notifications.PLAYER_PLAYED ? note.context.turn[0] : log.lastPlayer;
  if (!move.length) {
    return lastPlayer === log.lastPlayer ? log : { moves: log.moves, lastPlayer: lastPlayer };
  }
  return { moves: log.moves.concat(move).slice(-limit), lastPlayer: lastPlayer };
}

/**
 * The lines one notification adds.
 * @param {MoveLogState} log The log so far.
 * @param {NotificationPayload} note The notification's payload.
 * @param {function(number): string} nameOf The name of a seat now.
 * @returns {Move[]} The lines (none for a notification that is no move).
 */
function _move(log, note, nameOf) {
  /**
   * A line of a seat's move.
   * @param {string} kind The line's kind.
   * @param {number} seat The seat.
   * @param {MoveData} [data] What the words need.
   * @returns {Move} The line.
   */
  const seatMove = function (kind, seat, data) {
    return { kind: kind, seat: seat, name: nameOf(seat), data: data || {} };
  };
  switch (note.event) {
    case Notifications.ROUND_STARTED:
      return [{ kind: 'round', data: { round: Number(note.context.round_index) + 1 } }];
    case Notifications.PLAYER_ANNOUNCED:
      return [seatMove('call', Number(note.context.player_index), { grand: Boolean(note.context.grand) })];
    case Notifications.PLAYER_PLAYED: {
      const turn = note.context.turn;
      const seat = Number(turn[0]);
      if (Lib.isDog(turn[1])) {
        return [seatMove('dog', seat, { to: Lib.partnerOf(seat), toName: nameOf(Lib.partnerOf(seat)) })];
      }
      return [seatMove(note.context.is_bomb ? 'bomb' : 'play', seat, { cards: turn[1], combination: turn[2] })];
    }
    case Notifications.PLAYER_PASSED:
      return [seatMove('pass', Number(note.context.player_index))];
    case Notifications.WISH_MADE:
      if (!note.context.wish_value) {
        return [];
      }
      return [log.lastPlayer === null ? { kind: 'wish', data: { value: note.context.wish_value } }
        : seatMove('wish', log.lastPlayer, { value: note.context.wish_value })];
    case Notifications.WISH_FULFILLED:
      return [{ kind: 'wished', data: {} }];
    case Notifications.TRICK_TAKEN: {
      const taken = [seatMove('taken', Number(note.context.player_index), { points: Number(note.context.points) })];
      const recipient = note.context.dragon_recipient;
      if (recipient !== null && recipient !== undefined) {
        taken.push(seatMove('dragon', Number(note.context.player_index),
          { to: Number(recipient), toName: nameOf(Number(recipient)) }));
      }
      return taken;
    }
    case Notifications.PLAYER_OUT:
      return [seatMove('out', Number(note.context.player_index), { place: Number(note.context.place) })];
    case Notifications.ROUND_OVER:
      return [{ kind: 'points', data: { roundPoints: note.context.points.slice(), total: note.context.total.slice() } }];
    case Notifications.PLAYER_LEFT: {
      if (!note.context.replaced_by_agent) {
        return [];
      }
      const seat = Number(note.context.player_index);  // the name now is the agent's (issue 35, finding 5)
      return [{ kind: 'left', seat: seat, name: String(note.context.player_name || ''), data: { agent: nameOf(seat) } }];
    }
    default:
      return [];
  }
}

/**
 * The cards of a play in short words, e.g. "7, 7" or "Dragon".
 * @param {Array<[number, number]>} cards The cards.
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
  const { round = 0, grand = false, cards = [], combination = ['', 0, 0], toName = '', value = 0, points = 0,
    place = 0, roundPoints = [0, 0], total = [0, 0], agent = '' } = move.data;
  const name = move.name || '';
  switch (move.kind) {
    case 'round':
      return I18n.t('log.round', { n: round });
    case 'call':
      return I18n.t(grand ? 'log.grand' : 'log.tichu', { name: name });
    case 'play':
    case 'bomb':
      return I18n.t('log.' + move.kind, { name: name, combo: I18n.t('combo.' + combination[0]),
        cards: _cardsText(cards) });
    case 'dog':
      return I18n.t('log.dog', { name: name, to: toName });
    case 'pass':
      return I18n.t('log.pass', { name: name });
    case 'wish':
      return I18n.t(move.name ? 'log.wish' : 'log.wishAnon',
        { name: name, value: value > 10 ? I18n.t('value.' + value) : String(value) });
    case 'wished':
      return I18n.t('log.wished');
    case 'taken':
      return I18n.t('log.taken', { name: name, points: points });
    case 'dragon':
      return I18n.t('log.dragon', { name: name, to: toName });
    case 'out':
      return I18n.t('log.out', { name: name, place: I18n.t('place.' + place) });
    case 'points':
      return I18n.t('log.points', { a: roundPoints[0], b: roundPoints[1], ta: total[0], tb: total[1] });
    case 'left':
      return I18n.t('log.left', { name: name, agent: agent });
    default:
      return '';
  }
}

/**
 * The move log's reducer and words.
 * @namespace MoveLog
 */
export const MoveLog = Object.freeze({ empty, reduce, text });

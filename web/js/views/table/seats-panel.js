/**
 * @file SeatsPanel: draws the four seats of the table (name, card count, call, place, pass,
 * whose turn) around the own one, and the teams' scores.
 */

import { I18n } from '../../i18n.js';
import { Lib } from '../../lib.js';
import { Phases } from '../../protocol.js';
import { State } from '../../state.js';
import { Dom } from '../dom.js';

/** @type {HTMLElement[]} The `.seat` elements by seat. */
const _seats = [];
/** @type {Object<number, HTMLElement>} The `.team-score` elements by team. */
const _teams = {};

/**
 * Find the seats and score boxes.
 * @param {HTMLElement} root The table view.
 * @returns {void}
 */
function init(root) {
  for (const element of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('.seat'))) {
    _seats[Number(element.dataset.seat)] = element;
  }
  for (const element of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('.team-score'))) {
    _teams[Number(element.dataset.team)] = element;
  }
}

/**
 * Set an element's text only when it changed.
 * @param {HTMLElement} element The element.
 * @param {string} text The text.
 * @returns {void}
 */
function _setText(element, text) {
  if (element.textContent !== text) {
    element.textContent = text;
  }
}

/**
 * Draw one seat.
 * @param {HTMLElement} element The `.seat` element.
 * @param {number} seat Its seat index.
 * @returns {void}
 */
function _renderSeat(element, seat) {
  const state = State.public;
  const own = State.playerIndex === null ? 0 : State.playerIndex;
  const call = (state.announcements || [])[seat] || 0;
  const place = State.placeOf(seat);
  const count = (state.count_hand_cards || [])[seat] || 0;
  const running = state.phase === Phases.GRAND_TICHU || state.phase === Phases.SCHUPF || state.phase === Phases.PLAYING;
  element.className = 'seat pos-' + Lib.relativePosition(seat, own) + ' team-' + Lib.teamOf(seat);
  element.classList.toggle('own', seat === State.playerIndex);
  element.classList.toggle('turn', state.current_turn_index === seat);
  element.classList.toggle('out', place > 0);
  element.classList.toggle('passed', Boolean(State.passed[seat]));
  _setText(Dom.part(element, '.seat-name'), State.displayName(seat));
  const callElement = /** @type {HTMLElement} */ (element.querySelector('.seat-call'));
  _setText(callElement, call ? I18n.t('call.' + call) : '');
  callElement.dataset.call = String(call);
  const countElement = /** @type {HTMLElement} */ (element.querySelector('.seat-count'));
  _setText(countElement, running ? String(count) : '');
  countElement.title = I18n.t('seat.cards', { count: count });
  _setText(Dom.part(element, '.seat-place'), place ? I18n.t('place.' + place) : '');
  _setText(Dom.part(element, '.seat-pass'), State.passed[seat] ? I18n.t('seat.pass') : '');
  const away = State.awaySeconds(seat);
  element.classList.toggle('away', away !== null);
  _setText(Dom.part(element, '.seat-away'), away === null ? '' : I18n.t('seat.away', { seconds: away }));
}

/**
 * Draw one team's score box.
 * @param {number} team 20 or 31.
 * @returns {void}
 */
function _renderTeam(team) {
  const element = _teams[team];
  const first = team === 20 ? 0 : 1;
  const points = State.public.points || [0, 0, 0, 0];
  const total = (State.public.total || [0, 0])[first];
  _setText(Dom.part(element, '.team-names'), State.displayName(first) + ' & ' + State.displayName(first + 2));
  _setText(Dom.part(element, '.team-total'), String(total));
  const roundPoints = points[first] + points[first + 2];
  _setText(Dom.part(element, '.team-round'),
    State.public.phase === Phases.PLAYING ? I18n.t('score.round', { points: Lib.formatSigned(roundPoints) }) : '');
  element.classList.toggle('own-team', State.playerIndex !== null && Lib.teamOf(State.playerIndex) === team);
}

/**
 * Draw the seats and the scores.
 * @returns {void}
 */
function render() {
  _seats.forEach(_renderSeat);
  _renderTeam(20);
  _renderTeam(31);
  _tickWhileAway();
}

/** @type {(number|null)} The timer that redraws the seats each second while a client is away. */
let _ticker = null;

/**
 * Keep the countdown of a dropped client's seat running (a redraw each second), and stop
 * when nobody is away.
 * @returns {void}
 */
function _tickWhileAway() {
  const anyAway = Object.keys(State.away).length > 0;
  if (anyAway && _ticker === null) {
    _ticker = window.setInterval(function () { _seats.forEach(_renderSeat); _tickWhileAway(); }, 1000);
  }
  else if (!anyAway && _ticker !== null) {
    window.clearInterval(_ticker);
    _ticker = null;
  }
}

/**
 * The seats.
 * @namespace SeatsPanel
 */
export const SeatsPanel = Object.freeze({ init, render });

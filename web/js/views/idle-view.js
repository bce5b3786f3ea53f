/**
 * @file IdleView: the table's parts of idle seats (docs/server.md "Leaving, idle seats and late
 * joiners"), drawn from IdleSeats:
 *
 * - beside each seat being waited for, its clock (`.seat-clock`): the seconds left ("0:42"),
 *   or with the clock off the time waited once it is long ("waiting 1:05");
 * - a seat an agent plays for while its person is idle: `.seat-agent` ("Agent playing for Ida");
 *   the own seat: the banner `#handover-banner` with `#take-back` ("I'm back", `take_back`),
 *   and the class `handed-over` on the table view (on a phone the banner stands in for the
 *   action buttons, which the person does not use meanwhile, and leaves the trick free);
 * - the host's `button.seat-hand-over` on a person's seat waited for 60 s or more (`hand_over`).
 *
 * It adds its elements to the seats once and draws itself on state changes, a language switch
 * and each second while somebody is waited for (then it also asks the table to redraw, so that
 * the status line counts down with it).
 */

import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { I18n } from '../i18n.js';
import { IdleSeats } from '../idle-seats.js';
import { State } from '../state.js';
import { ViewManager } from '../view-manager.js';
import { Dom } from './dom.js';

/** @type {number} Seconds of waiting after which a seat without a clock shows the time waited. */
const SHOW_WAITED_AFTER = 20;

/**
 * A seat's added elements.
 * @typedef {Object} SeatParts
 * @property {HTMLElement} clock `.seat-clock`.
 * @property {HTMLElement} agent `.seat-agent`.
 * @property {HTMLButtonElement} handOver `button.seat-hand-over`.
 */

/** @type {SeatParts[]} By seat. */
const _parts = [];
/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {(number|null)} The pending render frame. */
let _frame = null;
/** @type {(number|null)} The timer that redraws each second while somebody is waited for. */
let _ticker = null;

/**
 * An element with a class.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag The tag.
 * @param {string} className The class.
 * @returns {HTMLElementTagNameMap[K]} The element.
 */
function _make(tag, className) {
  const element = document.createElement(tag);
  element.className = className;
  return element;
}

/**
 * Add the clock, the agent's mark and the host's control to each seat; wire the banner.
 * @returns {void}
 */
function init() {
  for (const seat of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('#view-table .seat'))) {
    const index = Number(seat.dataset.seat);
    const parts = { clock: _make('span', 'seat-clock'), agent: _make('span', 'seat-agent'),
      handOver: _make('button', 'seat-hand-over') };
    parts.handOver.type = 'button';
    parts.handOver.hidden = true;
    parts.handOver.addEventListener('click', function () {
      EventBus.emit(Events.INTENT_HAND_OVER, { seat: index });
    });
    seat.append(parts.clock, parts.agent, parts.handOver);
    _parts[index] = parts;
  }
  ['view-table', 'handover-banner', 'handover-text', 'take-back'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  _elements['take-back'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_TAKE_BACK);
  });
  EventBus.on(Events.STATE_CHANGED, _requestRender);
  EventBus.on(Events.UI_VIEW_SHOWN, _requestRender);
  EventBus.on(Events.INTENT_LANGUAGE, _requestRender);
}

/**
 * Draw in the next frame (several asks make one drawing).
 * @returns {void}
 */
function _requestRender() {
  if (_frame === null) {
    _frame = window.requestAnimationFrame(function () {
      _frame = null;
      render();
    });
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
 * The clock shown beside a seat.
 * @param {number} seat 0..3.
 * @param {number} now `Date.now()`.
 * @returns {{text: string, kind: string, label: string}} The text ('' for none), `left` or
 *   `waited`, and its words for screen readers.
 */
function clockOf(seat, now) {
  const left = IdleSeats.secondsLeft(seat, now);
  if (left !== null) {
    return { text: IdleSeats.formatClock(left), kind: 'left', label: I18n.t('idle.leftLabel', { seconds: left }) };
  }
  const waited = IdleSeats.waited(seat, now);
  if (waited !== null && waited >= SHOW_WAITED_AFTER) {
    const time = IdleSeats.formatClock(waited);
    return { text: I18n.t('idle.waited', { time: time }), kind: 'waited', label: I18n.t('idle.waited', { time: time }) };
  }
  return { text: '', kind: '', label: '' };
}

/**
 * Draw one seat's clock, mark and control.
 * @param {SeatParts} parts Its elements.
 * @param {number} seat 0..3.
 * @param {number} now `Date.now()`.
 * @returns {void}
 */
function _renderSeat(parts, seat, now) {
  const clock = clockOf(seat, now);
  _setText(parts.clock, clock.text);
  parts.clock.dataset.clock = clock.kind;
  if (clock.label) {
    parts.clock.setAttribute('aria-label', clock.label);
  }
  else {
    parts.clock.removeAttribute('aria-label');
  }
  const handed = IdleSeats.handedOver.has(seat) && seat !== State.playerIndex;
  _setText(parts.agent, handed ? I18n.t('idle.agentFor', { name: State.displayName(seat) }) : '');
  const isHost = State.playerIndex !== null && State.public.host_index === State.playerIndex;
  const offer = isHost && seat !== State.playerIndex && IdleSeats.canHandOver(seat, now);
  parts.handOver.hidden = !offer;
  _setText(parts.handOver, I18n.t('idle.handOver'));
  parts.handOver.setAttribute('aria-label', I18n.t('idle.handOverLabel', { name: State.displayName(seat) }));
}

/**
 * Draw the seats' parts and the own banner; keep the clocks ticking while somebody is waited for.
 * @returns {void}
 */
function render() {
  const now = Date.now();
  _parts.forEach(function (parts, seat) {
    _renderSeat(parts, seat, now);
  });
  const own = State.playerIndex !== null && IdleSeats.handedOver.has(State.playerIndex);
  _elements['handover-banner'].hidden = !own;
  _elements['view-table'].classList.toggle('handed-over', own);  // on a phone the banner takes the buttons' place
  _setText(_elements['handover-text'], I18n.t('idle.banner'));
  _setText(_elements['take-back'], I18n.t('idle.takeBack'));
  _tick();
}

/**
 * Redraw each second while somebody is waited for on the table (the table too, for the status
 * line), and stop after.
 * @returns {void}
 */
function _tick() {
  const running = IdleSeats.anyWaited() && ViewManager.activeView() === 'table';
  if (running && _ticker === null) {
    _ticker = window.setInterval(function () {
      render();
      EventBus.emit(Events.UI_RENDER);
    }, 1000);
  }
  else if (!running && _ticker !== null) {
    window.clearInterval(_ticker);
    _ticker = null;
  }
}

/**
 * The idle seats on the table.
 * @namespace IdleView
 */
export const IdleView = Object.freeze({ init, render, clockOf });

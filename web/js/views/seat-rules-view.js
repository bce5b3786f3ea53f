/**
 * @file SeatRulesView: the lobby's parts of leaving, idle seats and late joiners (docs/server.md
 * "Leaving, idle seats and late joiners"):
 *
 * - `#lobby-rules`: the turn clock (`#lobby-clock`: off, 30, 60, 120 s), what happens when
 *   someone leaves (`#lobby-on-leave`: finish with an agent, or end the game) and whether
 *   newcomers may take an agent's seat during the game (`#lobby-newcomers`); the host's changes
 *   go out as `set_options` (`intent:options`), the others see them read-only; shown when the
 *   server sends the options (from `options_changed` and the own `player_joined`);
 * - `#lobby-ended`: after a person's leaving ended the game, who it was ("Ben left; the game
 *   ended early."), until the next game starts.
 *
 * It draws itself on state changes, view changes and a language switch.
 */

import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { I18n } from '../i18n.js';
import { IdleSeats } from '../idle-seats.js';
import { State } from '../state.js';
import { Dom } from './dom.js';

/** @type {number[]} The turn clocks offered when the server does not list them (`TURN_CLOCKS`; 0 is off). */
const TURN_CLOCKS = [0, 30, 60, 120];
/** @type {string[]} The values of `on_leave`. */
const ON_LEAVE = ['agent', 'end'];

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {string} The clocks and language the clock select was built for. */
let _clockChoices = '';
/** @type {string} The language the leaving select was built for. */
let _leaveChoices = '';
/** @type {(number|null)} The pending render frame. */
let _frame = null;

/**
 * Find the elements and wire the controls.
 * @returns {void}
 */
function init() {
  ['lobby-rules', 'lobby-clock', 'lobby-on-leave', 'lobby-newcomers', 'lobby-ended'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  _elements['lobby-clock'].addEventListener('change', function () {
    EventBus.emit(Events.INTENT_OPTIONS, { turn_clock: Number(/** @type {HTMLSelectElement} */ (_elements['lobby-clock']).value) });
  });
  _elements['lobby-on-leave'].addEventListener('change', function () {
    EventBus.emit(Events.INTENT_OPTIONS, { on_leave: /** @type {HTMLSelectElement} */ (_elements['lobby-on-leave']).value });
  });
  _elements['lobby-newcomers'].addEventListener('change', function () {
    EventBus.emit(Events.INTENT_OPTIONS, { newcomers: /** @type {HTMLInputElement} */ (_elements['lobby-newcomers']).checked });
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
 * Fill a select with options when its choices changed.
 * @param {HTMLSelectElement} select The select.
 * @param {Array<{value: string, text: string}>} choices The options.
 * @returns {void}
 */
function _fill(select, choices) {
  select.replaceChildren(...choices.map(function (choice) {
    const option = document.createElement('option');
    option.value = choice.value;
    option.textContent = choice.text;
    return option;
  }));
}

/**
 * The name of a turn clock.
 * @param {number} seconds 0 (off) or the seconds.
 * @returns {string} "Off", "30 s".
 */
function clockLabel(seconds) {
  return seconds ? I18n.t('rules.clockSeconds', { seconds: seconds }) : I18n.t('rules.clockOff');
}

/**
 * Draw the options (the host's controls, the others' read-only) and the notice of a game
 * that ended early.
 * @returns {void}
 */
function render() {
  const options = State.options;
  const turnClock = options ? options.turnClock : null;
  const shown = options !== null && turnClock !== null && !State.spectating;
  _elements['lobby-rules'].hidden = !shown;
  if (shown) {
    const isHost = State.playerIndex !== null && State.public.host_index === State.playerIndex;
    const offered = options.turnClocks.length ? options.turnClocks : TURN_CLOCKS;
    const clocks = offered.includes(turnClock) ? offered
      : offered.concat([turnClock]).sort(function (a, b) { return a - b; });
    const clockChoices = I18n.getLanguage() + '|' + clocks.join(',');
    if (clockChoices !== _clockChoices) {
      _clockChoices = clockChoices;
      _fill(/** @type {HTMLSelectElement} */ (_elements['lobby-clock']), clocks.map(function (seconds) {
        return { value: String(seconds), text: clockLabel(seconds) };
      }));
    }
    if (_leaveChoices !== I18n.getLanguage()) {
      _leaveChoices = I18n.getLanguage();
      _fill(/** @type {HTMLSelectElement} */ (_elements['lobby-on-leave']), ON_LEAVE.map(function (value) {
        return { value: value, text: I18n.t('rules.onLeave.' + value) };
      }));
    }
    /** @type {HTMLSelectElement} */ (_elements['lobby-clock']).value = String(turnClock);
    /** @type {HTMLSelectElement} */ (_elements['lobby-on-leave']).value = options.onLeave || 'agent';
    /** @type {HTMLInputElement} */ (_elements['lobby-newcomers']).checked = Boolean(options.newcomers);
    ['lobby-clock', 'lobby-on-leave', 'lobby-newcomers'].forEach(function (id) {
      /** @type {(HTMLInputElement|HTMLSelectElement)} */ (_elements[id]).disabled = !isHost;
    });
    _elements['lobby-rules'].classList.toggle('read-only', !isHost);
  }
  const ended = IdleSeats.endedEarly;
  _elements['lobby-ended'].hidden = !ended;
  _elements['lobby-ended'].textContent = ended ? I18n.t('rules.endedEarly', { name: ended.name }) : '';
}

/**
 * The lobby's rules of leaving and idling.
 * @namespace SeatRulesView
 */
export const SeatRulesView = Object.freeze({ init, render, clockLabel, TURN_CLOCKS });

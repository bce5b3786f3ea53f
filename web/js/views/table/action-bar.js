/**
 * @file ActionBar: draws the action buttons (pass, Tichu, bomb, hint, play) from their computed
 * states and the status line, and turns clicks and the long press (Grand Tichu) into calls.
 */

import { Config } from '../../config.js';
import { I18n } from '../../i18n.js';
import { Dom } from '../dom.js';

/**
 * What the table view does on the buttons.
 * @typedef {Object} ActionHandlers
 * @property {function(string, Object): void} onClick A button (`pass`, `tichu`, `bomb`,
 *   `hint`, `play`) was clicked; gets its current state.
 * @property {function(): void} onLongPress The Grand Tichu button was held long enough.
 * @property {function(): void} onShortPress The Grand Tichu button was let go too early.
 */

/** @type {Object<string, HTMLButtonElement>} The buttons by name. */
const _buttons = {};
/** @type {(HTMLElement|null)} */
let _status = null;
/** @type {(import('./table-controls.js').ControlStates|null)} The states last drawn. */
let _states = null;
/** @type {(ActionHandlers|null)} */
let _handlers = null;
/** @type {(number|null)} The running long-press timer. */
let _pressTimer = null;

/**
 * Whether the Tichu button now calls Grand Tichu (by a long press).
 * @returns {boolean} True in the Grand Tichu step.
 */
function _isLongPressButton() {
  return _states !== null && _states.tichu.job === 'grandTichu' && _states.tichu.enabled;
}

/**
 * Start the long press.
 * @returns {void}
 */
function _pressStart() {
  if (!_isLongPressButton() || _pressTimer !== null) {
    return;
  }
  _buttons.tichu.classList.add('pressing');
  _pressTimer = window.setTimeout(function () {
    _pressTimer = null;
    _buttons.tichu.classList.remove('pressing');
    if (_handlers) {
      _handlers.onLongPress();
    }
  }, Config.LONG_PRESS_MS);
}

/**
 * End the long press; released before the time it is a short press.
 * @param {boolean} released Whether the button was let go (not left or cancelled).
 * @returns {void}
 */
function _pressEnd(released) {
  if (_pressTimer === null) {
    return;
  }
  window.clearTimeout(_pressTimer);
  _pressTimer = null;
  _buttons.tichu.classList.remove('pressing');
  if (released && _handlers) {
    _handlers.onShortPress();
  }
}

/**
 * Wire the long press of the Tichu button (pointer and keyboard).
 * @returns {void}
 */
function _bindLongPress() {
  const button = _buttons.tichu;
  button.style.setProperty('--long-press-time', Config.LONG_PRESS_MS + 'ms');
  button.addEventListener('pointerdown', _pressStart);
  button.addEventListener('pointerup', function () { _pressEnd(true); });
  button.addEventListener('pointerleave', function () { _pressEnd(false); });
  button.addEventListener('pointercancel', function () { _pressEnd(false); });
  button.addEventListener('contextmenu', function (event) { event.preventDefault(); });
  button.addEventListener('keydown', function (event) {
    if ((event.key === 'Enter' || event.key === ' ') && !event.repeat) {
      event.preventDefault();
      _pressStart();
    }
  });
  button.addEventListener('keyup', function (event) {
    if (event.key === 'Enter' || event.key === ' ') {
      _pressEnd(true);
    }
  });
}

/**
 * Find and wire the buttons.
 * @param {ActionHandlers} handlers What the clicks do.
 * @returns {void}
 */
function init(handlers) {
  _handlers = handlers;
  _status = Dom.byId('status');
  ['pass', 'tichu', 'bomb', 'hint', 'play'].forEach(function (name) {
    const button = /** @type {HTMLButtonElement} */ (document.getElementById('btn-' + name));
    _buttons[name] = button;
    button.addEventListener('click', function () {
      if (_states && !(name === 'tichu' && _states.tichu.job === 'grandTichu')) {
        handlers.onClick(name, _states[name]);
      }
    });
  });
  _bindLongPress();
}

/**
 * Draw the buttons and the status line.
 * @param {import('./table-controls.js').ControlStates} states The buttons' states (TableControls.compute).
 * @param {string} statusText The status line.
 * @returns {void}
 */
function render(states, statusText) {
  _states = states;
  Object.keys(_buttons).forEach(function (name) {
    const button = _buttons[name];
    const state = states[name];
    const label = I18n.t(state.label);
    if (button.textContent !== label) {
      button.textContent = label;
    }
    button.disabled = !state.enabled;
    button.dataset.job = state.job || 'none';
  });
  _buttons.bomb.hidden = !states.bomb.visible;
  _buttons.hint.hidden = !states.hint.visible;
  _buttons.tichu.classList.toggle('long-press', states.tichu.job === 'grandTichu');
  if (!_isLongPressButton()) {
    _pressEnd(false);
  }
  if (_status) {
    _status.textContent = statusText;
  }
}

/**
 * The action buttons.
 * @namespace ActionBar
 */
export const ActionBar = Object.freeze({ init, render });

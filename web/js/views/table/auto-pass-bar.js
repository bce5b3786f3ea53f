/**
 * @file AutoPassBar: the two auto-pass toggles near the action buttons. "Pass until the next
 * trick" answers every `play` request with a pass until the trick is taken; "Pass, but let
 * me bomb" does the same but leaves a request to the player when the server's private state
 * lets the seat bomb.
 * Both switch themselves off when the trick is taken, and never pass where passing is not
 * legal (AutoPass.shouldPass). The pass goes out as an intent like a click on Pass.
 */

import { AutoPass } from '../../auto-pass.js';
import { Events } from '../../events.js';
import { EventBus } from '../../event-bus.js';
import { I18n } from '../../i18n.js';
import { Notifications, Phases } from '../../protocol.js';
import { State } from '../../state.js';

/** @type {number} Milliseconds before an automatic pass (so that the play can be followed). */
const DELAY_MS = 300;
/** @type {Object<string, string>} The toggles' ids by mode. */
const _IDS = { trick: 'auto-pass-trick', bomb: 'auto-pass-bomb' };

/** @type {(string|null)} The mode switched on, or null. */
let _mode = null;
/** @type {(number|null)} The pending pass. */
let _timer = null;
/** @type {Object<string, HTMLButtonElement>} The toggles by mode. */
const _buttons = {};

/**
 * Pass the open request after the delay if the mode says so.
 * @returns {void}
 */
function _consider() {
  if (_timer !== null || !State.request || !AutoPass.shouldPass(_mode, State.request, State.playableBombs())) {
    return;
  }
  const requestId = State.request.request_id;
  _timer = window.setTimeout(function () {
    _timer = null;
    if (State.request && State.request.request_id === requestId
        && AutoPass.shouldPass(_mode, State.request, State.playableBombs())) {
      EventBus.emit(Events.INTENT_RESPOND, { action: 'play', data: { cards: [] } });
      EventBus.emit(Events.UI_RENDER);
    }
  }, DELAY_MS);
}

/**
 * Switch a mode on (the other off), or off when it is on.
 * @param {string} which `trick` or `bomb`.
 * @returns {void}
 */
function toggle(which) {
  _mode = _mode === which ? null : which;
  _consider();
  EventBus.emit(Events.UI_RENDER);
}

/**
 * The mode switched on.
 * @returns {(string|null)} `trick`, `bomb` or null.
 */
function mode() {
  return _mode;
}

/**
 * Find and wire the toggles; follow the game.
 * @returns {void}
 */
function init() {
  for (const name of Object.keys(_IDS)) {
    _buttons[name] = /** @type {HTMLButtonElement} */ (document.getElementById(_IDS[name]));
    _buttons[name].addEventListener('click', function () { toggle(name); });
  }
  EventBus.on(Events.STATE_CHANGED, function (change) {
    const joinedSelf = change.event === Notifications.PLAYER_JOINED && 'session_id' in (change.context || {});
    if (AutoPass.endsWith(change.event) || joinedSelf) {
      _mode = null;
    }
    _consider();
  });
}

/**
 * Draw the toggles: pressed or not, usable while this seat plays.
 * @returns {void}
 */
function render() {
  const usable = State.public.phase === Phases.PLAYING && State.playerIndex !== null
    && !State.placeOf(State.playerIndex) && State.hand().length > 0;
  const group = _buttons.trick.parentElement;
  if (group && group.getAttribute('aria-label') !== I18n.t('tools.autoPass')) {
    group.setAttribute('aria-label', I18n.t('tools.autoPass'));
  }
  for (const name of Object.keys(_IDS)) {
    const button = _buttons[name];
    const text = I18n.t(name === 'trick' ? 'tools.autoPassTrick' : 'tools.autoPassBomb');
    if (button.textContent !== text) {
      button.textContent = text;
    }
    button.setAttribute('aria-pressed', String(_mode === name));
    button.classList.toggle('on', _mode === name);
    button.disabled = !usable && _mode !== name;
  }
}

/**
 * The auto-pass toggles.
 * @namespace AutoPassBar
 */
export const AutoPassBar = Object.freeze({ init, render, toggle, mode, DELAY_MS });

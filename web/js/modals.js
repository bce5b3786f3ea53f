/**
 * @file Modals: the wish dialog, the Dragon-gift dialog (both opened by the open request) and
 * a confirmation dialog.
 */

import { EventBus } from './event-bus.js';
import { Events } from './events.js';
import { I18n } from './i18n.js';
import { Lib } from './lib.js';
import { State } from './state.js';
import { Dom } from './views/dom.js';

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {((function(): void)|null)} What "yes" in the confirmation dialog does. */
let _onConfirm = null;
/** @type {{question: string, yes: string, no: string}} The I18n keys of the confirmation dialog's texts. */
let _confirmKeys = { question: '', yes: 'confirm.yes', no: 'confirm.no' };

/** @type {ReadonlyArray<number>} What a request without `wish_values` offers: 2..Ace. */
const _ALL_WISHES = Object.freeze(Array.from({ length: Lib.CardValue.ACE - 1 }, function (_, index) {
  return index + 2;
}));

/**
 * Wire the dialogs' buttons (the wish's and the Dragon's are drawn from each request's choices).
 * @returns {void}
 */
function init() {
  ['dialog-wish', 'dialog-dragon', 'dialog-confirm', 'confirm-text', 'confirm-yes', 'confirm-no']
    .forEach(function (id) { _elements[id] = Dom.byId(id); });
  _elements.wishGrid = Dom.part(_elements['dialog-wish'], '.wish-grid');
  _elements.dragonChoices = Dom.part(_elements['dialog-dragon'], '.dragon-choices');
  _elements.wishGrid.addEventListener('click', function (event) {
    const button = Dom.closestTo(event, 'button[data-wish]');
    if (button) {
      EventBus.emit(Events.INTENT_RESPOND, { action: 'wish', data: { wish_value: Number(button.dataset.wish) } });
    }
  });
  _elements.dragonChoices.addEventListener('click', function (event) {
    const button = Dom.closestTo(event, 'button[data-recipient]');
    if (button) {
      EventBus.emit(Events.INTENT_RESPOND, { action: 'give_dragon_away',
        data: { dragon_recipient: Number(button.dataset.recipient) } });
    }
  });
  _elements['confirm-yes'].addEventListener('click', function () {
    const onConfirm = _onConfirm;
    _closeConfirm();
    if (onConfirm) {
      onConfirm();
    }
  });
  _elements['confirm-no'].addEventListener('click', _closeConfirm);
  _elements['dialog-confirm'].addEventListener('keydown', function (event) {
    if (event.key === 'Escape') {
      _closeConfirm();
    }
  });
}

/**
 * Ask a yes/no question.
 * @param {string} questionKey The I18n key of the question.
 * @param {function(): void} onConfirm Called when the user says yes.
 * @param {{yes: string, no: string}} [answerKeys] The I18n keys of the two buttons (default:
 *   `confirm.yes` and `confirm.no`, the leave question's "Leave" and "Stay").
 * @returns {void}
 */
function confirm(questionKey, onConfirm, answerKeys) {
  const answers = answerKeys || { yes: 'confirm.yes', no: 'confirm.no' };
  _confirmKeys = { question: questionKey, yes: answers.yes, no: answers.no };
  _onConfirm = onConfirm;
  _writeConfirmTexts();
  _elements['dialog-confirm'].hidden = false;
  _elements['confirm-no'].focus();
}

/**
 * Write the confirmation dialog's question and answers in the current language.
 * @returns {void}
 */
function _writeConfirmTexts() {
  _elements['confirm-text'].textContent = I18n.t(_confirmKeys.question);
  for (const answer of ['yes', 'no']) {
    const button = _elements['confirm-' + answer];
    button.dataset.i18n = _confirmKeys[answer];
    button.textContent = I18n.t(_confirmKeys[answer]);
  }
}

/**
 * Close the confirmation dialog without confirming.
 * @returns {void}
 */
function _closeConfirm() {
  _onConfirm = null;
  _elements['dialog-confirm'].hidden = true;
}

/**
 * Draw the Dragon dialog's buttons: one per opponent, with its name and side.
 * @param {number[]} recipients The request's `opponent_indexes`.
 * @param {number} ownSeat The own seat (the sides are seen from it).
 * @returns {void}
 */
function _renderDragonChoices(recipients, ownSeat) {
  const container = _elements.dragonChoices;
  const key = recipients.join(',') + '|' + I18n.getLanguage() + '|' + recipients.map(State.displayName).join(',');
  if (container.dataset.key === key) {
    return;
  }
  container.dataset.key = key;
  container.replaceChildren();
  for (const seat of recipients) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'big-button dragon-button';
    button.dataset.recipient = String(seat);
    const name = document.createElement('strong');
    name.textContent = State.displayName(seat);
    const side = document.createElement('span');
    side.textContent = I18n.t(Lib.relativePosition(seat, ownSeat) === 'left' ? 'dialog.left' : 'dialog.right');
    button.append(name, side);
    container.appendChild(button);
  }
}

/**
 * Draw a button per value the wish request lists (`wish_values`; 0 is "no wish", where the rules
 * allow it, R5.1): the client offers what the server allows and knows no rule of its own. A
 * request without the list (a server before issue 36) offers 2..Ace.
 * @param {number[]} values The values.
 * @returns {void}
 */
function _renderWishChoices(values) {
  const grid = _elements.wishGrid;
  const key = values.join(',') + '|' + I18n.getLanguage();
  if (grid.dataset.key === key) {
    return;
  }
  grid.dataset.key = key;
  grid.replaceChildren(...values.map(function (value) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'wish-button' + (value === 0 ? ' no-wish' : '');
    button.dataset.wish = String(value);
    button.textContent = value === 0 ? I18n.t('dialog.noWish') : I18n.valueLabel(value);
    return button;
  }));
}

/**
 * Show or hide a dialog; a dialog that opens gets the keyboard focus on its first button.
 * @param {HTMLElement} dialog The dialog.
 * @param {boolean} visible Whether it is shown.
 * @returns {void}
 */
function _toggle(dialog, visible) {
  const opens = visible && dialog.hidden;
  dialog.hidden = !visible;
  if (opens) {
    window.requestAnimationFrame(function () {
      const button = dialog.querySelector('button');
      if (button && !dialog.hidden) {
        button.focus();
      }
    });
  }
}

/**
 * Show the dialog the open request asks for (wish or Dragon gift) and hide the others;
 * refresh the texts.
 * @returns {void}
 */
function render() {
  const action = State.requestAction();
  _toggle(_elements['dialog-wish'], action === 'wish');
  _toggle(_elements['dialog-dragon'], action === 'give_dragon_away');
  if (State.request && State.request.action === 'wish') {
    _renderWishChoices(State.request.context.wish_values || _ALL_WISHES);
  }
  if (State.request && State.playerIndex !== null && State.request.action === 'give_dragon_away') {
    _renderDragonChoices(State.request.context.opponent_indexes || [], State.playerIndex);
  }
  if (!_elements['dialog-confirm'].hidden) {
    _writeConfirmTexts();
  }
}

/**
 * The dialogs.
 * @namespace Modals
 */
export const Modals = Object.freeze({ init, confirm, render });

/**
 * @file HandArranger: the order of the own hand on screen and the keyboard. The hand is sorted
 * by rank (default) or by suit (`#btn-sort`); a card can be dragged to another place (pointer
 * events: a tap still selects) or moved with Alt/Shift+Arrow; the arranged order holds until
 * the next deal. Keys: arrows move the focus between the cards, Space selects, Enter presses
 * the Play button; on the table P passes, Ctrl+Enter plays, L opens the last-trick review.
 */

import { EventBus } from '../../event-bus.js';
import { Events } from '../../events.js';
import { HandOrder } from '../../hand-order.js';
import { I18n } from '../../i18n.js';
import { Notifications } from '../../protocol.js';
import { State } from '../../state.js';
import { Dom } from '../dom.js';

/** @type {number} Pixels (on screen) a pointer moves before a press becomes a drag. */
const _DRAG_THRESHOLD = 12;

/** @type {string} `rank` or `suit`. */
let _mode = 'rank';
/** @type {(string[]|null)} The arranged order (card keys), or null while sorted. */
let _order = null;
/** @type {(string|null)} The card to give the focus after the next render. */
let _focusKey = null;
/** @type {(Object|null)} The press or drag going on: `{key, element, pointerId, x, y, dragging}`. */
let _press = null;
/** @type {boolean} Whether the click that ends a drag is to be swallowed. */
let _swallowClick = false;
/** @type {Object<string, HTMLElement>} */
const _elements = {};

/**
 * Ask for a render.
 * @returns {void}
 */
function _requestRender() {
  EventBus.emit(Events.UI_RENDER);
}

/**
 * The hand cards' elements in their order on screen.
 * @returns {HTMLElement[]} The `.card` buttons.
 */
function _cardElements() {
  return Array.from(_elements.hand.querySelectorAll('.card'));
}

/**
 * The keys of the cards in their order on screen.
 * @returns {string[]} The keys.
 */
function _drawnKeys() {
  return _cardElements().map(function (element) { return element.dataset.card || ''; });  // every card has its key
}

/**
 * Move a card to a new place in the drawn order (the order becomes arranged).
 * @param {string} key The card.
 * @param {number} index Its new index.
 * @returns {void}
 */
function moveCard(key, index) {
  _order = HandOrder.move(_drawnKeys(), key, index);
  _requestRender();
}

/**
 * Press a button of the table if it can be used now (a keyboard shortcut).
 * @param {string} id The button's id.
 * @returns {boolean} Whether it was pressed.
 */
function _pressButton(id) {
  const button = /** @type {HTMLButtonElement} */ (document.getElementById(id));
  if (!button || button.disabled || button.hidden) {
    return false;
  }
  button.click();
  return true;
}

/**
 * Keys on a hand card: arrows move the focus, Alt/Shift+arrows move the card, Enter plays.
 * @param {KeyboardEvent} event The key.
 * @returns {void}
 */
function _onHandKey(event) {
  const card = Dom.closestTo(event, '.card');
  if (!card) {
    return;
  }
  const key = card.dataset.card || '';  // every card has its key
  const keys = _drawnKeys();
  const index = keys.indexOf(key);
  const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
  if (step !== undefined && (event.altKey || event.shiftKey)) {
    event.preventDefault();
    _focusKey = key;
    moveCard(key, index + step);
  }
  else if (step !== undefined || event.key === 'Home' || event.key === 'End') {
    event.preventDefault();
    const target = event.key === 'Home' ? 0 : event.key === 'End' ? keys.length - 1
      : Math.max(0, Math.min(keys.length - 1, index + step));
    _cardElements()[target].focus();
  }
  else if (event.key === 'Enter' && !event.ctrlKey && !event.metaKey) {
    event.preventDefault();  // Enter plays; Space selects (the button's own click)
    _pressButton('btn-play');
  }
}

/**
 * Whether the table takes keyboard shortcuts now: its view is shown, no dialog is open,
 * and the focus is not in a text field.
 * @param {KeyboardEvent} event The key.
 * @returns {boolean} True when a shortcut may act.
 */
function _shortcutsActive(event) {
  const view = document.getElementById('view-table');
  const typing = Dom.closestTo(event, 'input, select, textarea');
  return Boolean(view && view.classList.contains('active') && !view.hidden && !typing
    && !document.querySelector('.dialog:not([hidden])'));
}

/**
 * The table's shortcuts: P passes, Ctrl+Enter plays, L opens the last-trick review.
 * @param {KeyboardEvent} event The key.
 * @returns {void}
 */
function _onDocumentKey(event) {
  if (event.repeat || !_shortcutsActive(event)) {
    return;
  }
  const key = event.key.toLowerCase();
  const plain = !event.ctrlKey && !event.metaKey && !event.altKey;
  let done = false;
  if (key === 'enter' && (event.ctrlKey || event.metaKey)) {
    done = _pressButton('btn-play');
  }
  else if (key === 'p' && plain) {
    done = _pressButton('btn-pass');
  }
  else if (key === 'l' && plain) {
    done = _pressButton('btn-last-trick');
  }
  if (done) {
    event.preventDefault();
  }
}

/**
 * The stage's scale (the wrapper is scaled to the window).
 * @returns {number} Screen pixels per stage pixel.
 */
function _scale() {
  const wrapper = document.getElementById('wrapper');
  return wrapper && wrapper.offsetWidth ? wrapper.getBoundingClientRect().width / wrapper.offsetWidth : 1;
}

/**
 * The index where a dragged card lands: the place of the card nearest the pointer.
 * @param {number} x The pointer's x on screen.
 * @param {number} y The pointer's y on screen.
 * @returns {number} The index in the drawn order.
 */
function _dropIndex(x, y) {
  let best = -1;
  let bestDistance = Infinity;
  _cardElements().forEach(function (element, index) {
    if (element === _press.element) {
      return;
    }
    const box = element.getBoundingClientRect();
    const distance = Math.hypot(box.left + box.width / 2 - x, box.top + box.height / 2 - y);
    if (distance < bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best < 0 ? _drawnKeys().indexOf(_press.key) : best;
}

/**
 * End a press: a drag drops the card in its new place.
 * @param {PointerEvent} event The pointer event.
 * @param {boolean} drop Whether to drop (not cancelled).
 * @returns {void}
 */
function _endPress(event, drop) {
  if (!_press || event.pointerId !== _press.pointerId) {
    return;
  }
  const press = _press;
  _press = null;
  if (!press.dragging) {
    return;
  }
  press.element.classList.remove('dragging');
  press.element.style.removeProperty('translate');
  _swallowClick = true;
  window.setTimeout(function () { _swallowClick = false; }, 0);
  if (drop) {
    _focusKey = document.activeElement === press.element ? press.key : null;
    _press = press;
    const index = _dropIndex(event.clientX, event.clientY);
    _press = null;
    moveCard(press.key, index);
  }
}

/**
 * Wire the pointer drag of the hand cards.
 * @returns {void}
 */
function _bindDrag() {
  const hand = _elements.hand;
  hand.addEventListener('pointerdown', function (event) {
    const card = Dom.closestTo(event, '.card');
    if (!card || !event.isPrimary || event.button !== 0) {
      return;
    }
    _press = { key: card.dataset.card, element: card, pointerId: event.pointerId, x: event.clientX,
      y: event.clientY, dragging: false };
  });
  hand.addEventListener('pointermove', function (event) {
    if (!_press || event.pointerId !== _press.pointerId) {
      return;
    }
    const dx = event.clientX - _press.x;
    const dy = event.clientY - _press.y;
    if (!_press.dragging && Math.hypot(dx, dy) >= _DRAG_THRESHOLD) {
      _press.dragging = true;
      _press.element.classList.add('dragging');
      if (_press.element.setPointerCapture) {
        _press.element.setPointerCapture(event.pointerId);
      }
    }
    if (_press.dragging) {
      const scale = _scale();
      _press.element.style.setProperty('translate', (dx / scale) + 'px ' + (dy / scale) + 'px');
    }
  });
  hand.addEventListener('pointerup', function (event) { _endPress(event, true); });
  hand.addEventListener('pointercancel', function (event) { _endPress(event, false); });
  hand.addEventListener('click', function (event) {
    if (_swallowClick) {
      event.stopPropagation();
      event.preventDefault();
      _swallowClick = false;
    }
  }, true);
}

/**
 * Find the elements and wire the hand, the sort toggle and the shortcuts.
 * @returns {void}
 */
function init() {
  _elements.hand = Dom.byId('hand');
  _elements.sort = Dom.byId('btn-sort');
  _elements.sort.addEventListener('click', function () {
    _mode = _mode === 'rank' ? 'suit' : 'rank';
    _order = null;
    _requestRender();
  });
  _elements.hand.addEventListener('keydown', _onHandKey);
  document.addEventListener('keydown', _onDocumentKey);
  _bindDrag();
  EventBus.on(Events.STATE_CHANGED, function (change) {
    const event = change.event;
    if (event === Notifications.ROUND_STARTED || event === Notifications.HAND_CARDS_DEALT
        || (event === Notifications.PLAYER_JOINED && 'session_id' in (change.context || {}))) {
      _order = null;  // a new deal: sorted again
    }
  });
}

/**
 * The hand's cards in the order to draw them.
 * @param {number[][]} cards The cards.
 * @returns {number[][]} The cards in order.
 */
function arrange(cards) {
  return HandOrder.arrange(cards, _mode, _order);
}

/**
 * Draw the sort toggle; after the hand was drawn, give the focus back to a moved card and
 * name each card's selection for screen readers.
 * @param {Set<string>} selected Keys of the selected cards.
 * @returns {void}
 */
function render(selected) {
  const text = I18n.t('tools.sortSuit');
  if (_elements.sort.textContent !== text) {
    _elements.sort.textContent = text;
  }
  _elements.sort.setAttribute('aria-pressed', String(_mode === 'suit'));
  _elements.sort.classList.toggle('on', _mode === 'suit');
  /** @type {HTMLButtonElement} */ (_elements.sort).disabled = !State.hand().length;
  for (const element of _cardElements()) {
    element.setAttribute('aria-pressed', String(selected.has(element.dataset.card || '')));
  }
  if (_focusKey !== null) {
    const card = /** @type {HTMLElement} */ (_elements.hand.querySelector('.card[data-card="' + _focusKey + '"]'));
    _focusKey = null;
    if (card) {
      card.focus();
    }
  }
}

/**
 * The hand's order and keys.
 * @namespace HandArranger
 */
export const HandArranger = Object.freeze({ init, render, arrange, moveCard });

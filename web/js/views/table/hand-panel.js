/**
 * @file HandPanel: draws the own hand (sorted, selectable) and, for a seat that is out, the
 * other seats' hands (R8.3).
 */

import { I18n } from '../../i18n.js';
import { Lib } from '../../lib.js';
import { State } from '../../state.js';
import { CardBuilder } from '../card-builder.js';
import { Dom } from '../dom.js';

/** @type {number} Most cards in one row of the portrait hand. */
const _MAX_ROW = 7;

/** @type {Object<string, HTMLElement>} */
const _elements = {};

/**
 * Find the elements.
 * @returns {void}
 */
function init() {
  _elements.hand = Dom.byId('hand');
  _elements.revealed = Dom.byId('revealed-hands');
}

/**
 * Draw the other seats' hands while this seat is out and they are known.
 * @returns {void}
 */
function _renderRevealed() {
  const hands = State.revealedHands;
  const own = State.playerIndex;
  const container = _elements.revealed;
  const seats = [];
  if (hands && State.spectating) {
    seats.push(...[0, 1, 2, 3].filter(function (seat) { return (hands[seat] || []).length; }));
  }
  else if (hands && own !== null) {
    for (const offset of [3, 2, 1]) {
      const seat = (own + offset) % 4;
      if ((hands[seat] || []).length) {
        seats.push(seat);
      }
    }
  }
  container.hidden = !seats.length;
  const rows = seats.map(function (seat) {
    let row = /** @type {HTMLElement} */ (container.querySelector('.revealed-hand[data-seat="' + seat + '"]'));
    if (!row) {
      row = document.createElement('div');
      row.className = 'revealed-hand';
      row.dataset.seat = String(seat);
      const name = document.createElement('span');
      name.className = 'revealed-name';
      const cards = document.createElement('div');
      cards.className = 'revealed-cards';
      row.append(name, cards);
    }
    Dom.part(row, '.revealed-name').textContent = State.displayName(seat);
    CardBuilder.syncCards(Dom.part(row, '.revealed-cards'), Lib.sortCards(hands ? hands[seat] : []));
    return row;
  });
  container.replaceChildren(...rows);
}

/**
 * Draw the own hand and the revealed hands.
 * @param {number[][]} cards The hand cards to show (sorted here, unless `options.ordered`).
 * @param {Set<string>} selected Keys of the selected cards.
 * @param {{ordered: boolean, received: (Map<string, string>|undefined)}} [options] `ordered`:
 *   draw the cards in the order given (HandArranger); `received`: the cards received in the
 *   exchange (key → the giver's name), marked (the class `received`) and labelled with whom
 *   each came from.
 * @returns {void}
 */
function render(cards, selected, options) {
  const sorted = options && options.ordered ? cards.slice() : Lib.sortCards(cards);
  const perRow = sorted.length > _MAX_ROW ? Math.ceil(sorted.length / 2) : Math.max(sorted.length, 1);
  _elements.hand.style.setProperty('--per-row', String(perRow));
  CardBuilder.syncCards(_elements.hand, sorted, { interactive: true, selected: selected });
  const received = (options && options.received) || new Map();
  for (const element of /** @type {NodeListOf<HTMLElement>} */ (_elements.hand.querySelectorAll('.card'))) {
    _markReceived(element, received.get(element.dataset.card));
  }
  _renderRevealed();
}

/**
 * Mark a hand card as received in the exchange, or not: the class `received`, a small label
 * `.card-from` ("from Max") and the same words in its name for screen readers and its tooltip.
 * @param {HTMLElement} element The card.
 * @param {(string|undefined)} giver Whose push it came from, or undefined for a card not received.
 * @returns {void}
 */
function _markReceived(element, giver) {
  const name = I18n.cardName(Lib.parseCardKey(element.dataset.card || ''));  // every card has its key
  const from = giver === undefined ? '' : I18n.t('hand.receivedFrom', { name: giver });
  const label = from ? I18n.t('hand.receivedCard', { card: name, from: from }) : name;
  element.classList.toggle('received', Boolean(from));
  let tag = /** @type {(HTMLElement|null)} */ (element.querySelector('.card-from'));
  if (from && !tag) {
    tag = document.createElement('span');
    tag.className = 'card-from';
    tag.setAttribute('aria-hidden', 'true');
    element.appendChild(tag);
  }
  if (tag && !from) {
    tag.remove();
  }
  else if (tag && tag.textContent !== from) {
    tag.textContent = from;
  }
  if (element.getAttribute('aria-label') !== label) {
    element.setAttribute('aria-label', label);
    element.title = label;
  }
}

/**
 * The hands.
 * @namespace HandPanel
 */
export const HandPanel = Object.freeze({ init, render });

/**
 * @file CardBuilder: draws cards as DOM elements with inline SVG symbols (no image files),
 * and keeps a container's cards in sync with a list of cards.
 */

import { I18n } from '../i18n.js';
import { Lib } from '../lib.js';

/** @type {'http://www.w3.org/2000/svg'} The SVG namespace (its literal type types createElementNS). */
const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * The drawn symbols: lists of SVG elements `[tag, attributes]` in a 100×100 box.
 * @type {Object<string, Array<Array>>}
 */
const _SYMBOLS = {
  swords: [
    ['polygon', { points: '50,4 60,18 60,63 40,63 40,18' }],
    ['rect', { x: 24, y: 62, width: 52, height: 9, rx: 3 }],
    ['rect', { x: 45, y: 71, width: 10, height: 16 }],
    ['circle', { cx: 50, cy: 92, r: 7 }]
  ],
  pagodas: [
    ['polygon', { points: '50,2 56,16 44,16' }],
    ['path', { d: 'M20 31 Q50 12 80 31 L70 35 L30 35 Z' }],
    ['rect', { x: 37, y: 35, width: 26, height: 11 }],
    ['path', { d: 'M12 58 Q50 37 88 58 L77 62 L23 62 Z' }],
    ['rect', { x: 31, y: 62, width: 38, height: 13 }],
    ['path', { d: 'M6 86 Q50 64 94 86 L82 90 L18 90 Z' }],
    ['rect', { x: 26, y: 90, width: 48, height: 9 }]
  ],
  jade: [
    ['path', { d: 'M50 6 A44 44 0 1 1 49.99 6 Z M37 37 H63 V63 H37 Z', 'fill-rule': 'evenodd' }]
  ],
  stars: [
    ['polygon', { points: '50,6 61.2,36.6 93.8,37.8 68.1,57.9 77,89.2 50,71 23,89.2 31.9,57.9 6.2,37.8 38.8,36.6' }]
  ],
  dog: [
    ['ellipse', { cx: 50, cy: 68, rx: 23, ry: 19 }],
    ['ellipse', { cx: 22, cy: 42, rx: 9, ry: 12 }],
    ['ellipse', { cx: 40, cy: 26, rx: 9, ry: 12 }],
    ['ellipse', { cx: 60, cy: 26, rx: 9, ry: 12 }],
    ['ellipse', { cx: 78, cy: 42, rx: 9, ry: 12 }]
  ],
  mahjong: [
    ['polygon', { points: '22,54 2,40 8,68' }],
    ['ellipse', { cx: 46, cy: 60, rx: 30, ry: 22 }],
    ['circle', { cx: 73, cy: 37, r: 14 }],
    ['polygon', { points: '85,33 99,38 85,43' }],
    ['circle', { cx: 77, cy: 34, r: 3, class: 'symbol-eye' }]
  ],
  dragon: [
    ['path', { d: 'M8 88 C22 58 42 96 54 66 S66 34 76 36', fill: 'none', 'stroke-width': 14,
      'stroke-linecap': 'round', class: 'symbol-stroke' }],
    ['polygon', { points: '66,24 98,28 84,38 96,50 68,46' }],
    ['polygon', { points: '70,26 64,4 80,20' }],
    ['polygon', { points: '30,70 26,52 40,64' }],
    ['polygon', { points: '48,74 50,56 58,70' }],
    ['circle', { cx: 80, cy: 32, r: 4, class: 'symbol-eye' }]
  ],
  phoenix: [
    ['path', { d: 'M50 6 C58 30 80 30 94 20 C86 44 72 52 62 56 C72 66 74 80 66 96 C60 82 54 74 50 72 '
      + 'C46 74 40 82 34 96 C26 80 28 66 38 56 C28 52 14 44 6 20 C20 30 42 30 50 6 Z' }]
  ]
};

/** @type {string[]} Symbol names by suit number. */
const _SUIT_SYMBOLS = ['', 'swords', 'pagodas', 'jade', 'stars'];
/** @type {Object<number, string>} Symbol names of the special cards by value. */
const _SPECIAL_SYMBOLS = { 0: 'dog', 1: 'mahjong', 15: 'dragon', 16: 'phoenix' };

/**
 * Draw a symbol as an SVG element.
 * @param {string} name A key of the symbol table.
 * @param {string} className The SVG's class.
 * @returns {SVGSVGElement} The element.
 */
function _buildSymbol(name, className) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('class', className);
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  for (const shape of _SYMBOLS[name]) {
    const element = document.createElementNS(SVG_NS, shape[0]);
    for (const attribute of Object.keys(shape[1])) {
      element.setAttribute(attribute, String(shape[1][attribute]));
    }
    svg.appendChild(element);
  }
  return svg;
}

/**
 * The symbol name of a card.
 * @param {number[]} card The card.
 * @returns {string} E.g. `stars` or `phoenix`.
 */
function symbolOf(card) {
  return Lib.isSpecial(card) ? _SPECIAL_SYMBOLS[card[0]] : _SUIT_SYMBOLS[card[1]];
}

/**
 * Build a card element: the value big in the top-left corner with a small suit symbol under
 * it, and the suit's (or special card's) symbol large in the middle.
 * @param {number[]} card The card `[value, suit]`.
 * @param {{interactive?: boolean}} [options] Options: `interactive`, build a `<button>` (hand cards)
 *   instead of a `<div>`.
 * @returns {HTMLElement} The element `.card` with `data-card="VALUE-SUIT"`.
 */
function build(card, options) {
  const interactive = Boolean(options && options.interactive);
  const element = document.createElement(interactive ? 'button' : 'div');
  const symbol = symbolOf(card);
  element.className = 'card card-' + symbol + (Lib.isSpecial(card) ? ' special' : '');
  if (interactive) {
    /** @type {HTMLButtonElement} */ (element).type = 'button';
  }
  element.dataset.card = Lib.cardKey(card);
  element.dataset.lang = I18n.getLanguage();
  element.setAttribute('aria-label', I18n.cardName(card));
  element.title = I18n.cardName(card);
  const corner = document.createElement('span');
  corner.className = 'card-corner';
  const value = document.createElement('span');
  value.className = 'card-value';
  value.textContent = I18n.valueLabel(card[0]);
  corner.appendChild(value);
  if (!Lib.isSpecial(card)) {
    corner.appendChild(_buildSymbol(symbol, 'card-pip'));
  }
  element.appendChild(corner);
  element.appendChild(_buildSymbol(symbol, 'card-symbol'));
  return element;
}

/**
 * Make a container show exactly these cards in this order, reusing the elements it has (so
 * that CSS transitions run) and rebuilding those drawn in another language.
 * @param {HTMLElement} container The container.
 * @param {number[][]} cards The cards to show.
 * @param {{interactive?: boolean, selected?: Set<string>}} [options] Options: `interactive`, build
 *   buttons; `selected`, the keys of the cards that get the class `selected`.
 * @returns {void}
 */
function syncCards(container, cards, options) {
  const selected = (options && options.selected) || new Set();
  const language = I18n.getLanguage();
  const existing = new Map();
  for (const child of Array.from(/** @type {HTMLCollectionOf<HTMLElement>} */ (container.children))) {
    if (child.dataset.card && child.dataset.lang === language && !existing.has(child.dataset.card)) {
      existing.set(child.dataset.card, child);
    }
    else {
      container.removeChild(child);
    }
  }
  cards.forEach(function (card, index) {
    const key = Lib.cardKey(card);
    let element = existing.get(key);
    if (element) {
      existing.delete(key);
    }
    else {
      element = build(card, options);
    }
    element.classList.toggle('selected', selected.has(key));
    if (container.children[index] !== element) {
      container.insertBefore(element, container.children[index] || null);
    }
  });
  existing.forEach(function (element) {
    container.removeChild(element);
  });
}

/**
 * The card drawing helpers.
 * @namespace CardBuilder
 */
export const CardBuilder = Object.freeze({ build, symbolOf, syncCards });

/**
 * @file HandOrder: the order in which the own hand is drawn: sorted by rank (the default) or
 * by suit, or in an order the player arranged by hand (drag or keyboard). Pure.
 */

import { Lib } from './lib.js';

/** @type {ReadonlyArray<string>} The sort modes. */
const MODES = Object.freeze(['rank', 'suit']);

/**
 * Compare two cards by suit (the special cards first), then by value.
 * @param {number[]} first A card.
 * @param {number[]} second Another card.
 * @returns {number} Negative, zero or positive.
 */
function _bySuit(first, second) {
  return first[1] - second[1] || first[0] - second[0];
}

/**
 * A sorted copy of cards.
 * @param {number[][]} cards The cards.
 * @param {string} mode `rank` (value, then suit) or `suit` (specials first, then each suit by value).
 * @returns {number[][]} A new array.
 */
function sortCards(cards, mode) {
  return mode === 'suit' ? cards.slice().sort(_bySuit) : Lib.sortCards(cards);
}

/**
 * The cards in the order to draw them: the arranged order for the cards it names (cards it
 * does not name yet follow, sorted), else sorted.
 * @param {number[][]} cards The cards.
 * @param {string} mode The sort mode.
 * @param {(string[]|null)} order Card keys in the arranged order, or null.
 * @returns {number[][]} A new array.
 */
function arrange(cards, mode, order) {
  if (!order) {
    return sortCards(cards, mode);
  }
  const byKey = new Map(cards.map(function (card) { return [Lib.cardKey(card), card]; }));
  const placed = order.filter(function (key) { return byKey.has(key); });
  const known = new Set(placed);
  const rest = sortCards(cards.filter(function (card) { return !known.has(Lib.cardKey(card)); }), mode);
  return placed.map(function (key) { return /** @type {number[]} */ (byKey.get(key)); }).concat(rest);
}

/**
 * Move one card of an order to a new place.
 * @param {string[]} keys The card keys in order.
 * @param {string} key The card to move.
 * @param {number} index Its new index (clamped to the list).
 * @returns {string[]} A new array (the same order if the key is not in it).
 */
function move(keys, key, index) {
  const from = keys.indexOf(key);
  if (from < 0) {
    return keys.slice();
  }
  const rest = keys.filter(function (other) { return other !== key; });
  const to = Math.max(0, Math.min(rest.length, index));
  rest.splice(to, 0, key);
  return rest;
}

/**
 * The hand's order.
 * @namespace HandOrder
 */
export const HandOrder = Object.freeze({ MODES, sortCards, arrange, move });

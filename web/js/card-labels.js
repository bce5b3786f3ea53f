/**
 * @file CardLabels: cards from their record labels (records.md: `SZ` the Swords 10, `Ph` the
 * Phoenix), for the replay, the analysis and the puzzles, which all read record documents. Its
 * own module so that those views share it without importing each other. No DOM.
 */

import { Lib } from './lib.js';

/** @type {Object<string, number[]>} The special cards by label (records.md). */
const _SPECIALS = { Hu: [0, 0], Ma: [1, 0], Dr: [15, 0], Ph: [16, 0] };
/** @type {Object<string, number>} The suits by their letter. */
const _SUITS = { S: 1, B: 2, G: 3, R: 4 };
/** @type {Object<string, number>} The values written as letters. */
const _VALUES = { Z: 10, B: 11, D: 12, K: 13, A: 14 };

/**
 * A card from its record label.
 * @param {string} label E.g. `SZ` (the Swords 10) or `Ph`.
 * @returns {number[]} The card `[value, suit]`.
 */
function cardOf(label) {
  if (_SPECIALS[label]) {
    return _SPECIALS[label].slice();
  }
  return [_VALUES[label[1]] || Number(label[1]), _SUITS[label[0]]];
}

/**
 * Cards from labels, sorted as a hand.
 * @param {string[]} labels The labels.
 * @returns {number[][]} The cards.
 */
function cardsOf(labels) {
  return Lib.sortCards((labels || []).map(cardOf));
}

/**
 * Cards from record labels.
 * @namespace CardLabels
 */
export const CardLabels = Object.freeze({ cardOf, cardsOf });

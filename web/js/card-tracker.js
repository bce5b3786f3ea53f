/**
 * @file CardTracker: what is known about the cards of the round from one seat: which cards
 * were played and which are still out (neither played nor in the own hand). Which bombs the
 * cards still out could form (R3.7) is a rule: the server lists it (`private_state.unseen_bombs`,
 * docs/server.md). Pure: no DOM, no state.
 */

import { Lib } from './lib.js';

const CardValue = Lib.CardValue;

/** @type {number[]} The natural values 2..Ace. */
const _VALUES = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];
/** @type {number[]} The four suits (R1.1). */
const _SUITS = [1, 2, 3, 4];
/** @type {number[]} The special cards' values. */
const _SPECIALS = [CardValue.DOG, CardValue.MAHJONG, CardValue.DRAGON, CardValue.PHOENIX];

/**
 * The whole deck of 56 cards, lowest first.
 * @returns {number[][]} The cards.
 */
function deck() {
  const cards = _SPECIALS.map(function (value) { return [value, 0]; });
  for (const value of _VALUES) {
    for (const suit of _SUITS) {
      cards.push([value, suit]);
    }
  }
  return Lib.sortCards(cards);
}

/**
 * Where a special card is, for the summary.
 * @param {Set<string>} played Keys of the played cards.
 * @param {Set<string>} own Keys of the own hand.
 * @param {number} value The special card's value.
 * @returns {string} `played`, `hand` (in the own hand) or `out`.
 */
function _whereIs(played, own, value) {
  const key = value + '-0';
  return played.has(key) ? 'played' : own.has(key) ? 'hand' : 'out';
}

/**
 * The summary of a round's cards from one seat.
 * @typedef {Object} CardSummary
 * @property {number[][]} out The cards still out (not played, not in the own hand), sorted.
 * @property {number} playedCount How many cards were played this round.
 * @property {Object<string, string>} specials Where the special cards are, by name
 *   (`dragon`, `phoenix`, `dog`, `mahjong`): `played`, `hand` or `out`.
 * @property {number} acesOut How many Aces are still out.
 * @property {Object<number, number>} outByValue How many cards of each value 2..14 are still out.
 */

/**
 * Summarise the round's cards: what was played and what is still out.
 * @param {number[][]} playedCards Every card played this round (`public_state.played_cards`).
 * @param {number[][]} handCards The own hand.
 * @returns {CardSummary} The summary.
 */
function summarize(playedCards, handCards) {
  const played = new Set(playedCards.map(Lib.cardKey));
  const own = new Set(handCards.map(Lib.cardKey));
  const out = deck().filter(function (card) {
    const key = Lib.cardKey(card);
    return !played.has(key) && !own.has(key);
  });
  const outKeys = new Set(out.map(Lib.cardKey));
  /** @type {Object<number, number>} */
  const outByValue = {};
  for (const value of _VALUES) {
    outByValue[value] = _SUITS.filter(function (suit) { return outKeys.has(value + '-' + suit); }).length;
  }
  return {
    out: out,
    playedCount: played.size,
    specials: {
      dragon: _whereIs(played, own, CardValue.DRAGON),
      phoenix: _whereIs(played, own, CardValue.PHOENIX),
      dog: _whereIs(played, own, CardValue.DOG),
      mahjong: _whereIs(played, own, CardValue.MAHJONG)
    },
    acesOut: outByValue[CardValue.ACE],
    outByValue: outByValue
  };
}

/**
 * The card tracker.
 * @namespace CardTracker
 */
export const CardTracker = Object.freeze({ deck, summarize });

/**
 * @file Lib: pure helpers for cards, the selection as a legal play, seats, the "select" hint
 * and the server's hint. No DOM, no state, and no rule of the game of its own: which plays,
 * calls and bombs are allowed the server says (`legal_plays`, the private state).
 */

/**
 * A card as the protocol sends it: `[value, suit]` (values 0..16, suits 0..4; see records.md).
 * @typedef {number[]} Card
 */

/**
 * Suit numbers (R1.1).
 * @readonly
 * @enum {number}
 */
const Suit = Object.freeze({ SPECIAL: 0, SWORDS: 1, PAGODAS: 2, JADE: 3, STARS: 4 });

/**
 * Card values of the special and face cards (R1.1).
 * @readonly
 * @enum {number}
 */
const CardValue = Object.freeze({
  DOG: 0, MAHJONG: 1, JACK: 11, QUEEN: 12, KING: 13, ACE: 14, DRAGON: 15, PHOENIX: 16
});

/** @type {string[]} Seat positions relative to the own seat, in playing order (R1.3). */
const _POSITIONS = ['bottom', 'right', 'top', 'left'];
/**
 * The push targets in the order of `given_schupf_cards` (R2.3).
 * @type {ReadonlyArray<string>}
 */
const PUSH_TARGETS = Object.freeze(['right', 'partner', 'left']);
/** @type {Object<string, number>} Push targets and their seat offsets (R2.3). */
const _TARGET_OFFSETS = { right: 1, partner: 2, left: 3 };

/**
 * The key of a card, as used in `data-card`: `"VALUE-SUIT"`.
 * @param {Card} card The card.
 * @returns {string} E.g. `"14-4"` for the red Ace.
 */
function cardKey(card) {
  return card[0] + '-' + card[1];
}

/**
 * The card of a key made by {@link cardKey}.
 * @param {string} key E.g. `"16-0"`.
 * @returns {Card} E.g. `[16, 0]`.
 */
function parseCardKey(key) {
  const parts = key.split('-');
  return [Number(parts[0]), Number(parts[1])];
}

/**
 * Whether a card is one of the four special cards (Dog, Mah Jong, Dragon, Phoenix).
 * @param {Card} card The card.
 * @returns {boolean} True for suit 0.
 */
function isSpecial(card) {
  return card[1] === Suit.SPECIAL;
}

/**
 * Compare two cards for sorting: by value, then by suit.
 * @param {Card} first A card.
 * @param {Card} second Another card.
 * @returns {number} Negative, zero or positive.
 */
function compareCards(first, second) {
  return first[0] - second[0] || first[1] - second[1];
}

/**
 * A sorted copy of cards, lowest first (Dog, Mah Jong, 2..Ace, Dragon, Phoenix).
 * @param {Card[]} cards The cards.
 * @returns {Card[]} A new array.
 */
function sortCards(cards) {
  return cards.slice().sort(compareCards);
}

/**
 * Whether two lists hold the same cards, in any order.
 * @param {Card[]} first Some cards.
 * @param {Card[]} second Other cards.
 * @returns {boolean} True if they are equal as sets.
 */
function sameCards(first, second) {
  if (first.length !== second.length) {
    return false;
  }
  const keys = new Set(first.map(cardKey));
  return keys.size === first.length && second.every(function (card) {
    return keys.has(cardKey(card));
  });
}

/**
 * The cards of a list without the removed ones.
 * @param {Card[]} cards The cards.
 * @param {Card[]} removed The cards to take out.
 * @returns {Card[]} A new array, in the original order.
 */
function withoutCards(cards, removed) {
  const gone = new Set(removed.map(cardKey));
  return cards.filter(function (card) {
    return !gone.has(cardKey(card));
  });
}

/**
 * The legal play that consists of exactly the selected cards.
 * @param {Card[]} selection The selected cards.
 * @param {Card[][]} legalPlays The request's `legal_plays`.
 * @returns {(Card[]|null)} The matching play, or null (also for an empty selection).
 */
function findLegalPlay(selection, legalPlays) {
  if (!selection.length) {
    return null;
  }
  return legalPlays.find(function (play) {
    return sameCards(play, selection);
  }) || null;
}

/**
 * The server's hint of a `play` request as the client uses it (protocol.md: `hint`, the legal
 * plays best first, or null): only plays that are legal now, each once, in the server's order;
 * a pass is `[]`.
 * @param {(Card[][]|null|undefined)} hint The request's `hint`.
 * @param {Card[][]} legalPlays The request's `legal_plays`.
 * @returns {Card[][]} The hinted plays (empty without a hint).
 */
function hintPlays(hint, legalPlays) {
  if (!Array.isArray(hint)) {
    return [];
  }
  const seen = new Set();
  const plays = [];
  for (const play of hint) {
    if (!Array.isArray(play)) {
      continue;
    }
    const legal = play.length ? findLegalPlay(play, legalPlays)
      : legalPlays.find(function (option) { return option.length === 0; });
    const key = legal ? sortCards(legal).map(cardKey).join(' ') : null;
    if (legal && !seen.has(key)) {
      seen.add(key);
      plays.push(legal);
    }
  }
  return plays;
}

/**
 * Which hinted play the Hint button selects: the best one, and on each further press the
 * next one (after the last, the best again). A press after the player changed the selection
 * starts again from the best.
 * @param {Card[][]} hints The hinted plays ({@link hintPlays}).
 * @param {Card[]} selection The selected cards.
 * @param {(number|null)} lastIndex The index the last press of this request selected, or null.
 * @returns {number} The index into `hints`, or -1 without a hint.
 */
function nextHintIndex(hints, selection, lastIndex) {
  if (!hints.length) {
    return -1;
  }
  if (lastIndex !== null && lastIndex >= 0 && lastIndex < hints.length && sameCards(hints[lastIndex], selection)) {
    return (lastIndex + 1) % hints.length;
  }
  return 0;
}

/**
 * Whether a player or table name is one the server accepts (protocol.md): 1 to `longest`
 * characters after trimming, no control characters (any other character is the name's own,
 * shown as text, never as markup).
 * @param {string} name The name as typed.
 * @param {number} longest The most characters allowed.
 * @returns {boolean} True if acceptable.
 */
function isValidName(name, longest) {
  const trimmed = name.normalize('NFC').trim();
  return trimmed.length >= 1 && trimmed.length <= longest && !/\p{C}/u.test(trimmed);
}

/**
 * A number with its sign, for points won or lost: `+35`, `−25`, `0`.
 * @param {number} value The number.
 * @returns {string} The text (with the minus sign U+2212).
 */
function formatSigned(value) {
  if (value > 0) {
    return '+' + value;
  }
  return value < 0 ? '\u2212' + Math.abs(value) : '0';
}

/**
 * The team of a seat (R1.3): seats 0 and 2 are team 20, seats 1 and 3 team 31.
 * @param {number} seat 0..3.
 * @returns {number} 20 or 31.
 */
function teamOf(seat) {
  return seat % 2 === 0 ? 20 : 31;
}

/**
 * Where a seat sits as seen from the own seat (R1.3: +1 right, +2 partner, +3 left).
 * @param {number} seat The seat, 0..3.
 * @param {number} ownSeat The own seat, 0..3.
 * @returns {string} `bottom`, `right`, `top` or `left`.
 */
function relativePosition(seat, ownSeat) {
  return _POSITIONS[(seat - ownSeat + 4) % 4];
}

/**
 * Whether a play is the Dog (R3.10: it passes the lead to the partner and scores nothing).
 * @param {Card[]} cards The cards played.
 * @returns {boolean} True for the Dog alone.
 */
function isDog(cards) {
  return cards.length === 1 && cards[0][0] === CardValue.DOG && cards[0][1] === Suit.SPECIAL;
}

/**
 * The partner of a seat (R1.3: across the table).
 * @param {number} seat 0..3.
 * @returns {number} The partner's seat.
 */
function partnerOf(seat) {
  return (seat + 2) % 4;
}

/**
 * The seat a push target names (R2.3).
 * @param {number} ownSeat The own seat.
 * @param {string} target `right`, `partner` or `left`.
 * @returns {number} The seat, 0..3.
 */
function seatOfTarget(ownSeat, target) {
  return (ownSeat + _TARGET_OFFSETS[target]) % 4;
}

/**
 * The helpers.
 * @namespace Lib
 */
export const Lib = Object.freeze({
  Suit,
  CardValue,
  PUSH_TARGETS,
  cardKey,
  parseCardKey,
  isSpecial,
  isDog,
  partnerOf,
  compareCards,
  sortCards,
  sameCards,
  withoutCards,
  findLegalPlay,
  hintPlays,
  nextHintIndex,
  formatSigned,
  isValidName,
  teamOf,
  relativePosition,
  seatOfTarget
});

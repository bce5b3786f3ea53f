/**
 * @file PushOption: a push judged in a record's analysis (three cards, to the right, the partner
 * and the left: R2.3) drawn and said the same way by the AnalysisView and the PuzzleView.
 */

import { CardLabels } from '../card-labels.js';
import { I18n } from '../i18n.js';
import { Lib } from '../lib.js';
import { CardBuilder } from './card-builder.js';

/**
 * Whether an option of a judgement is a push of three cards.
 * @param {Object} judgement The judgement.
 * @param {string[]} cards The option's card labels.
 * @returns {boolean} Whether it is.
 */
function isPush(judgement, cards) {
  return judgement.kind === 'push' && cards.length === Lib.PUSH_TARGETS.length;
}

/**
 * The pushed cards, each with where it goes, as `.<prefix>-push-part` elements.
 * @param {string[]} cards The card labels, in the order of the targets.
 * @param {string} prefix The classes' prefix (`analysis`, `puzzle`).
 * @returns {HTMLElement[]} The parts.
 */
function parts(cards, prefix) {
  return cards.map(function (label, at) {
    const part = document.createElement('span');
    part.className = prefix + '-push-part';
    const where = document.createElement('span');
    where.className = prefix + '-push-to';
    where.textContent = I18n.t('analysis.push.' + Lib.PUSH_TARGETS[at]);
    part.append(CardBuilder.build(CardLabels.cardOf(label)), where);
    return part;
  });
}

/**
 * The pushed cards in words, each with where it goes.
 * @param {string[]} cards The card labels, in the order of the targets.
 * @param {function(number[]): string} cardText A card in words.
 * @param {string} between What stands between a card and its target (` → `, ` `).
 * @returns {string} E.g. "2 of Stars → right, Queen of Jade → partner, 5 of Swords → left".
 */
function text(cards, cardText, between) {
  return cards.map(function (label, at) {
    return cardText(CardLabels.cardOf(label)) + between + I18n.t('analysis.push.' + Lib.PUSH_TARGETS[at]);
  }).join(', ');
}

/**
 * A judged push, drawn and in words.
 * @namespace PushOption
 */
export const PushOption = Object.freeze({ isPush, parts, text });

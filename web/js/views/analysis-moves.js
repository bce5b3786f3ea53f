/**
 * @file AnalysisMoves: a move list of judged decisions (`tichu-analysis/1` judgements, docs/agents.md):
 * one button per decision naming what was played, with the judge's mark as chess annotates a
 * move (?! inaccuracy, ? mistake, ?? blunder), the decision shown marked as current. It only
 * builds the items: the caller puts them in its list and handles the clicks (each button
 * carries `data-step`), so that the analysis view and a later view of one's own mistakes
 * share it.
 */

import { Analysis } from '../analysis.js';
import { I18n } from '../i18n.js';

/** @typedef {import('../protocol-types.js').AnalysisJudgement} Judgement */

/**
 * A label's mark as an element (`.analysis-annot`), or null for a decision without a label.
 * @param {?string} label `inaccuracy`, `mistake`, `blunder` or null.
 * @returns {(HTMLElement|null)} The mark, e.g. `??`.
 */
function mark(label) {
  if (!label || !Analysis.MARKS[label]) {
    return null;
  }
  const element = document.createElement('span');
  element.className = 'analysis-annot ' + label;
  element.textContent = Analysis.MARKS[label];
  return element;
}

/**
 * The list's items: one button per judgement.
 * @param {Judgement[]} list The judgements, in the order shown.
 * @param {{what: function(Object): string, current: (Object|null)}} options What a judgement
 *   played in words, and the judgement shown (marked `aria-current`).
 * @returns {HTMLLIElement[]} The `li` items, each with a `button.analysis-move[data-step]`.
 */
function items(list, options) {
  return list.map(function (judgement) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'analysis-move';
    button.dataset.step = String(judgement.step);
    button.dataset.seat = String(judgement.seat);
    button.dataset.label = judgement.label || '';
    if (judgement === options.current) {
      button.setAttribute('aria-current', 'true');
    }
    const what = document.createElement('span');
    what.className = 'analysis-move-what';
    what.textContent = options.what(judgement);
    button.appendChild(what);
    const annotation = mark(judgement.label);
    if (annotation) {
      button.appendChild(annotation);
      button.title = I18n.t('analysis.' + judgement.label);
    }
    item.appendChild(button);
    return item;
  });
}

/**
 * The move list's builders.
 * @namespace AnalysisMoves
 */
export const AnalysisMoves = Object.freeze({ items, mark });

/**
 * @file Puzzles: "learn from your mistakes" (issue 35) as pure functions over a game's analysis
 * document (`tichu-analysis/1`, docs/agents.md "The document") and its replay steps: which of a
 * seat's judged decisions become puzzles and in which order (its inaccuracies, mistakes and
 * blunders, the costliest first), the step that shows the position in which each decision was
 * made, and whether an answer solves it (its loss against the best below the document's
 * inaccuracy threshold, and not the choice made in the game). A puzzle session is a plain
 * object that each function returns anew. No DOM: the PuzzleView draws what these compute.
 */

/** @typedef {import('./protocol-types.js').AnalysisJudgement} Judgement */

/** @type {ReadonlyArray<string>} The labels whose decisions become puzzles. */
const LABELLED = Object.freeze(['inaccuracy', 'mistake', 'blunder']);
/** @type {number} The inaccuracy threshold when a document names none (src/tichu/analysis/judge.py). */
const INACCURACY = 35;

/**
 * A puzzle session: the seat's puzzles, the one shown and what was answered to it.
 * @typedef {Object} Session
 * @property {number} seat The seat whose decisions are replayed.
 * @property {Judgement[]} puzzles The judgements, the costliest first.
 * @property {number} threshold The loss below which an answer solves a puzzle.
 * @property {number} at The puzzle shown (an index into `puzzles`).
 * @property {number[]} tried The options answered wrongly to it, in order.
 * @property {(number|null)} solved The option that solved it, or null.
 * @property {(string|null)} last The last answer's outcome: `solved`, `wrong`, or null (none yet,
 *   or a retry asked for).
 * @property {boolean} revealed Whether the solution is shown (every option's value).
 */

/**
 * A seat's labelled decisions, the costliest first (the earlier one first at equal losses).
 * @param {?Object} document The analysis document.
 * @param {number} seat The seat.
 * @returns {Judgement[]} The judgements.
 */
function puzzlesOf(document, seat) {
  const judgements = (document && Array.isArray(document.judgements)) ? document.judgements : [];
  return judgements.filter(function (judgement) {
    return judgement.seat === seat && LABELLED.includes(judgement.label)
      && Array.isArray(judgement.options) && judgement.options.length > 1;
  }).sort(function (a, b) { return (Number(b.loss) || 0) - (Number(a.loss) || 0) || a.step - b.step; });
}

/**
 * The loss below which an answer solves a puzzle: the document's inaccuracy threshold.
 * @param {?Object} document The analysis document.
 * @returns {number} Points.
 */
function thresholdOf(document) {
  const thresholds = document && document.method && document.method.thresholds;
  const value = thresholds ? Number(thresholds.inaccuracy) : NaN;
  return Number.isFinite(value) ? value : INACCURACY;
}

/**
 * The step that shows the position in which a decision was made. A judgement's `step` shows the
 * decision made; the position is the step before it, except: a Grand Tichu is decided on the
 * first eight cards (the round's `deal` step), a push on the whole hand before any card is
 * given (the round's `grand_tichu` step), and a Tichu not called is judged at the position in
 * which it was offered (its `step` itself).
 * @param {Judgement} judgement The judgement.
 * @param {Object[]} steps The replay's steps.
 * @returns {number} The step's index.
 */
function positionStep(judgement, steps) {
  const last = Math.max(0, steps.length - 1);
  const step = Math.min(last, Math.max(0, Number(judgement.step) || 0));
  const before = { grand_tichu: 'deal', push: 'grand_tichu' }[judgement.kind];
  if (before) {
    for (let at = step; at >= 0; at--) {
      if (steps[at].kind === before && steps[at].round === judgement.round) {
        return at;
      }
    }
  }
  const chosen = (judgement.options || [])[judgement.chosen] || {};
  if (judgement.kind === 'tichu' && String(chosen.text || '').trim().toLowerCase() === 'no tichu') {
    return step;
  }
  return Math.max(0, step - 1);
}

/**
 * What an option loses against the best, by the document's values.
 * @param {Judgement} judgement The judgement.
 * @param {number} index The option.
 * @returns {number} Points (0 for the best).
 */
function lossOf(judgement, index) {
  const options = judgement.options || [];
  const best = options[judgement.best] || {};
  const option = options[index] || {};
  return Math.max(0, (Number(best.mean) || 0) - (Number(option.mean) || 0));
}

/**
 * Whether an option solves a puzzle: not the choice made in the game, and losing less than
 * the threshold against the best.
 * @param {Judgement} judgement The judgement.
 * @param {number} index The option.
 * @param {number} threshold The loss below which an answer solves.
 * @returns {boolean} True when it solves.
 */
function solves(judgement, index, threshold) {
  return index !== judgement.chosen && index >= 0 && index < (judgement.options || []).length
    && lossOf(judgement, index) < threshold;
}

/**
 * The order in which a puzzle's options are offered: by the number of cards, then by their
 * text, so that nothing in it tells the values (the document lists the best first).
 * @param {Judgement} judgement The judgement.
 * @returns {number[]} The options' indices.
 */
function displayOrder(judgement) {
  const options = judgement.options || [];
  return options.map(function (_option, index) { return index; }).sort(function (a, b) {
    const first = options[a];
    const second = options[b];
    const texts = [String(first.text || ''), String(second.text || '')];
    return (first.cards || []).length - (second.cards || []).length
      || (texts[0] < texts[1] ? -1 : (texts[0] > texts[1] ? 1 : 0)) || a - b;
  });
}

/**
 * A session of a seat's puzzles, at the first (none when the seat has no labelled decision).
 * @param {?Object} document The analysis document.
 * @param {number} seat The seat.
 * @returns {Session} The session.
 */
function start(document, seat) {
  return { seat: seat, puzzles: puzzlesOf(document, seat), threshold: thresholdOf(document), at: 0, tried: [],
    solved: null, last: null, revealed: false };
}

/**
 * The puzzle shown.
 * @param {Session} session The session.
 * @returns {(Object|null)} Its judgement, or null without puzzles.
 */
function current(session) {
  return session.puzzles[session.at] || null;
}

/**
 * Answer the puzzle shown with an option: solved (the solution is shown with it), or wrong
 * (noted as tried). An answer while a wrong one is shown, or after the puzzle was solved or its
 * solution shown, changes nothing.
 * @param {Session} session The session.
 * @param {number} index The option.
 * @returns {Session} The new session.
 */
function answer(session, index) {
  const judgement = current(session);
  if (!judgement || session.solved !== null || session.revealed || session.last === 'wrong') {
    return session;
  }
  if (solves(judgement, index, session.threshold)) {
    return Object.assign({}, session, { solved: index, last: 'solved', revealed: true });
  }
  const tried = session.tried.includes(index) ? session.tried : session.tried.concat([index]);
  return Object.assign({}, session, { tried: tried, last: 'wrong' });
}

/**
 * Try the puzzle shown again after a wrong answer (the options tried stay marked).
 * @param {Session} session The session.
 * @returns {Session} The new session.
 */
function retry(session) {
  return session.last === 'wrong' && !session.revealed ? Object.assign({}, session, { last: null }) : session;
}

/**
 * Show the solution: every option's value, the best and the choice made.
 * @param {Session} session The session.
 * @returns {Session} The new session.
 */
function reveal(session) {
  return Object.assign({}, session, { revealed: true });
}

/**
 * Go to another puzzle (clamped to the puzzles there are), unanswered.
 * @param {Session} session The session.
 * @param {number} at The puzzle.
 * @returns {Session} The new session.
 */
function go(session, at) {
  const clamped = Math.max(0, Math.min(session.puzzles.length - 1, at));
  return Object.assign({}, session, { at: Math.max(0, clamped), tried: [], solved: null, last: null,
    revealed: false });
}

/**
 * The puzzle helpers.
 * @namespace Puzzles
 */
export const Puzzles = Object.freeze({
  LABELLED, INACCURACY, puzzlesOf, thresholdOf, positionStep, lossOf, solves, displayOrder, start, current,
  answer, retry, reveal, go
});

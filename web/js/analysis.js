/**
 * @file Analysis: pure helpers over a game's analysis document (`tichu-analysis/1`,
 * docs/agents.md; served as docs/server.md "Game analysis" says): the judged decisions by step, the chart's points and
 * markers, a player's costliest decisions and the step a click on the chart jumps to. No DOM,
 * no network: the AnalysisView draws what these compute.
 */

/** @typedef {import('./protocol-types.js').AnalysisJudgement} Judgement */

/** @type {ReadonlyArray<string>} The labels the chart marks (the others show in the judged panel only). */
const MARKED = Object.freeze(['mistake', 'blunder']);
/** @type {Object<string, number>} The labels by weight (for the worst label of a stretch of steps). */
const _WEIGHT = { inaccuracy: 1, mistake: 2, blunder: 3 };
/** @type {number} The smallest half range of the chart's y axis (expected points). */
const MIN_RANGE = 50;
/** @type {ReadonlyArray<string>} The judge's labels, mildest first. */
const LABELS = Object.freeze(['inaccuracy', 'mistake', 'blunder']);
/** @type {Object<string, string>} A label's mark in the move list (as chess annotates: ?!, ?, ??). */
const MARKS = Object.freeze({ inaccuracy: '?!', mistake: '?', blunder: '??' });
/** @type {Object<string, number>} The judge's thresholds when a document names none (src/tichu/analysis/judge.py). */
const THRESHOLDS = Object.freeze({ inaccuracy: 35, mistake: 60, blunder: 120 });

/**
 * The document's judgements in the order of their steps (the document's order within a step).
 * @param {?Object} document The analysis document.
 * @returns {Judgement[]} The judgements.
 */
function judgements(document) {
  const list = (document && Array.isArray(document.judgements)) ? document.judgements.slice() : [];
  return list.map(function (judgement, order) { return { judgement: judgement, order: order }; })
    .sort(function (a, b) { return a.judgement.step - b.judgement.step || a.order - b.order; })
    .map(function (entry) { return entry.judgement; });
}

/**
 * The judgements of one step, the costliest first.
 * @param {?Object} document The analysis document.
 * @param {number} step The step's index.
 * @returns {Judgement[]} The judgements made at that step.
 */
function judgementsAt(document, step) {
  return judgements(document).filter(function (judgement) { return judgement.step === step; })
    .sort(function (a, b) { return (b.loss || 0) - (a.loss || 0); });
}

/**
 * The marked judgements (mistakes and blunders), in step order.
 * @param {?Object} document The analysis document.
 * @returns {Judgement[]} The judgements whose label is marked.
 */
function markers(document) {
  return judgements(document).filter(function (judgement) {
    return judgement.label !== null && MARKED.includes(judgement.label);
  });
}

/**
 * The worst label among the judgements of a stretch of steps (for the jump selects).
 * @param {?Object} document The analysis document.
 * @param {number} from The first step.
 * @param {number} to The step after the last.
 * @returns {(string|null)} `blunder`, `mistake` or null (inaccuracies are not marked).
 */
function worstLabel(document, from, to) {
  let worst = null;
  markers(document).forEach(function (judgement) {
    const label = judgement.label || '';  // a marker has a label
    if (judgement.step >= from && judgement.step < to && (!worst || _WEIGHT[label] > _WEIGHT[worst])) {
      worst = judgement.label;
    }
  });
  return worst;
}

/**
 * The chart's geometry: x is the step (the whole game from left to right), y the advantage
 * (expected game score difference, team 20 minus team 31), 0 in the middle.
 * @param {?Object} document The analysis document.
 * @param {number} steps The steps of the game.
 * @param {{width: number, height: number, pad: number, left?: number, bottom?: number}} box
 *   The drawing's size, margin, and the room kept for the axes' labels on the left and below.
 * @returns {{range: number, zero: number, half: number,
 *   points: Array<{x: number, y: number, step: number, label: ?string}>}}
 *   The y axis' half range (points), the zero line's y, the drawing units of the half range and one
 *   point per judgement.
 */
function chart(document, steps, box) {
  const list = judgements(document);
  const largest = list.reduce(function (most, judgement) {
    return Math.max(most, Math.abs(Number(judgement.advantage) || 0));
  }, 0);
  const range = Math.max(MIN_RANGE, Math.ceil(largest / MIN_RANGE) * MIN_RANGE);
  const bottom = box.bottom || 0;
  const zero = (box.height - bottom) / 2;
  const half = zero - box.pad;
  return {
    range: range,
    zero: zero,
    half: half,
    points: list.map(function (judgement) {
      return { x: stepX(judgement.step, steps, box), y: zero - (Number(judgement.advantage) || 0) / range * half,
        step: judgement.step, label: judgement.label || null };
    })
  };
}

/**
 * The x of a step on the chart.
 * @param {number} step The step.
 * @param {number} steps The steps of the game.
 * @param {{width: number, pad: number, left?: number}} box The drawing's size, margin
 *   and the room of the y axis' labels (the margin when none).
 * @returns {number} The x.
 */
function stepX(step, steps, box) {
  const left = box.left === undefined ? box.pad : box.left;
  return left + (steps > 1 ? step / (steps - 1) : 0) * (box.width - left - box.pad);
}

/**
 * The y axis' scale: the values labelled (the half range, half of it, zero and their negatives).
 * @param {number} range The y axis' half range.
 * @returns {number[]} The values, top first.
 */
function ticks(range) {
  return [range, range / 2, 0, -range / 2, -range];
}

/**
 * The judged step nearest to a point of the chart (where a click or tap jumps).
 * @param {?Object} document The analysis document.
 * @param {number} steps The steps of the game.
 * @param {{width: number, pad: number, left?: number}} box The drawing's size and margins.
 * @param {number} x The x clicked, in the drawing's units.
 * @returns {(number|null)} The step, or null without judgements.
 */
function nearestStep(document, steps, box, x) {
  let best = null;
  let distance = Infinity;
  judgements(document).forEach(function (judgement) {
    const away = Math.abs(stepX(judgement.step, steps, box) - x);
    if (away < distance) {
      distance = away;
      best = judgement.step;
    }
  });
  return best;
}

/**
 * The next or previous marked step from a step (for the chart's keys).
 * @param {?Object} document The analysis document.
 * @param {number} step The step shown.
 * @param {number} direction 1 (on) or -1 (back).
 * @returns {(number|null)} The step, or null when there is none that way.
 */
function nextMarked(document, step, direction) {
  const steps = markers(document).map(function (judgement) { return judgement.step; });
  const found = direction > 0 ? steps.find(function (at) { return at > step; })
    : steps.reverse().find(function (at) { return at < step; });
  return found === undefined ? null : found;
}

/**
 * A seat's costliest decisions: the largest losses first (only losses above 0).
 * @param {?Object} document The analysis document.
 * @param {number} seat The seat.
 * @param {number} [count] How many (5).
 * @returns {Judgement[]} The judgements.
 */
function costliest(document, seat, count) {
  return judgements(document).filter(function (judgement) { return judgement.seat === seat && judgement.loss > 0; })
    .sort(function (a, b) { return b.loss - a.loss || a.step - b.step; })
    .slice(0, count === undefined ? 5 : count);
}

/**
 * The seats whose decisions were judged, in seat order.
 * @param {?Object} document The analysis document.
 * @returns {number[]} The seats.
 */
function judgedSeats(document) {
  const seats = new Set(judgements(document).map(function (judgement) { return judgement.seat; }));
  return [0, 1, 2, 3].filter(function (seat) { return seats.has(seat); });
}

/**
 * The seat the list of costliest decisions starts with: the viewer's own when their name
 * played a judged seat, else the first judged seat.
 * @param {?Object} document The analysis document.
 * @param {string[]} names The game's players by seat.
 * @param {?string} own The viewer's name.
 * @returns {(number|null)} The seat, or null without judgements.
 */
function startSeat(document, names, own) {
  const seats = judgedSeats(document);
  const mine = seats.find(function (seat) { return own && names[seat] === own; });
  return mine !== undefined ? mine : (seats.length ? seats[0] : null);
}

/**
 * A seat's summary line of the document (`players`), if it has one.
 * @param {?Object} document The analysis document.
 * @param {number} seat The seat.
 * @returns {(Object|null)} `{seat, name, decisions, mean_loss, given_away, ...}`.
 */
function playerSummary(document, seat) {
  const players = (document && Array.isArray(document.players)) ? document.players : [];
  return players.find(function (player) { return player.seat === seat; }) || null;
}

/**
 * The option chosen and the best option of a judgement.
 * @param {Judgement} judgement The judgement.
 * @returns {{chosen: Object, best: Object}} The two options (the same when the best was chosen).
 */
function choiceAndBest(judgement) {
  const options = judgement.options || [];
  return { chosen: options[judgement.chosen] || {}, best: options[judgement.best] || {} };
}

/**
 * A seat's judged decisions in step order (all of them, labelled or not): the move list.
 * @param {?Object} document The analysis document.
 * @param {(number|null)} seat The seat.
 * @param {number} [round] Only this round's (0-based), when given.
 * @returns {Judgement[]} The judgements.
 */
function moves(document, seat, round) {
  return judgements(document).filter(function (judgement) {
    return judgement.seat === seat && (round === undefined || judgement.round === round);
  });
}

/**
 * How many inaccuracies, mistakes and blunders a seat made (its labels in the document).
 * @param {?Object} document The analysis document.
 * @param {number} seat The seat.
 * @returns {{inaccuracy: number, mistake: number, blunder: number}} The counts.
 */
function counts(document, seat) {
  const found = { inaccuracy: 0, mistake: 0, blunder: 0 };
  moves(document, seat).forEach(function (judgement) {
    if (judgement.label !== null && LABELS.includes(judgement.label)) {
      found[judgement.label]++;
    }
  });
  return found;
}

/**
 * The least loss, beyond the judge's uncertainty, of each label (the document's `method`).
 * @param {?Object} document The analysis document.
 * @returns {Object<string, number>} The thresholds by label (points).
 */
function thresholds(document) {
  const named = document && document.method && document.method.thresholds;
  return Object.assign({}, THRESHOLDS, named || {});
}

/**
 * The analysis helpers.
 * @namespace Analysis
 */
export const Analysis = Object.freeze({
  MARKED, LABELS, MARKS, judgements, judgementsAt, markers, worstLabel, chart, stepX, ticks, nearestStep, nextMarked,
  costliest, judgedSeats, startSeat, playerSummary, choiceAndBest, moves, counts, thresholds
});

/**
 * @file AnalysisView: a stored game's analysis inside the replay viewer (AnalysisState;
 * the document's format in docs/agents.md, the API in docs/server.md "Game analysis"): the "Analyse this game" button,
 * the progress, the chart of the advantage through the game with its scale and markers at
 * mistakes and blunders (a click or tap jumps to the nearest judged step; ←/→ on the chart to
 * the previous/next marker; the point under the pointer, or else the step shown, read out below
 * it), what the marks and the ± mean, each player's counts of inaccuracies, mistakes and
 * blunders, the judged decision of the step shown (the choice made beside the best, both with
 * their expected points ± half interval; the step's other decisions one click away), the best
 * option's cards marked in the open hand, a player's move list of the round shown with its
 * marks (AnalysisMoves) and the player's five costliest decisions, each naming what was played
 * and what was better (the viewer's own seat when their name played).
 * The ReplayView calls {@link draw} when it renders; jumps go out as `intent:replay-step`.
 */

import { AnalysisState } from '../analysis-state.js';
import { Analysis } from '../analysis.js';
import { CardLabels } from '../card-labels.js';
import { EventBus } from '../event-bus.js';
import { Events } from '../events.js';
import { I18n } from '../i18n.js';
import { Lib } from '../lib.js';
import { User } from '../user.js';
import { AnalysisMoves } from './analysis-moves.js';
import { CardBuilder } from './card-builder.js';
import { Dom } from './dom.js';
import { PushOption } from './push-option.js';

/** @typedef {import('../protocol-types.js').AnalysisJudgement} Judgement */
/** @typedef {import('../protocol-types.js').AnalysisOption} Option */
/** @typedef {import('../protocol-types.js').AnalysisDocument} AnalysisDocument */

/** @type {'http://www.w3.org/2000/svg'} The SVG namespace (its literal type types createElementNS). */
const SVG = 'http://www.w3.org/2000/svg';
/** @type {number} The chart's margin (drawing units: the chart's own pixels). */
const PAD = 12;
/** @type {number} The chart's height (drawing units) at which the markers have their shapes' size. */
const MARKER_HEIGHT = 120;
/** @type {Object<string, string>} The markers' shapes around (0, 0), by label (`d` of a path). */
const SHAPES = Object.freeze({ mistake: 'M0 -11 L11 9 L-11 9 Z', blunder: 'M0 -13 L13 0 L0 13 L-13 0 Z' });
/** @type {Object<string, string>} The markers as characters (legend, selects, list). */
const SYMBOLS = Object.freeze({ mistake: '▲', blunder: '◆' });
/** @type {string} The class of the hand cards the best option would have played. */
const BEST_CLASS = 'analysis-best';

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {(number|null)} The seat whose moves and costliest decisions are listed (null: the start seat). */
let _seat = null;
/** @type {(Object|null)} The judgement chosen among the several of the step shown (null: the seat's). */
let _picked = null;
/** @type {(Object|null)} The judgement under the pointer on the chart (null: none, the step shown is read out). */
let _hover = null;
/** @type {string} The tab shown: `chart`, `moves` or `costly` (landscape shows the chart always, and the moves for `chart`). */
let _tab = 'chart';
/** @type {Array<{x: number, y: number}>} The chart's points, by judgement in step order. */
let _points = [];
/** @type {(Object|null)} The document the seat was chosen for. */
let _seatFor = null;
/** @type {string} What the list of costliest decisions was last drawn for. */
let _costlyKey = '';
/** @type {string} What the chart was last drawn for. */
let _chartKey = '';
/** @type {{steps: number, index: number, box: Object, name: function(number): string}} What the chart's events need. */
const _shown = { steps: 0, index: 0, box: { width: 1000, height: 150, pad: PAD }, name: String };

/**
 * A judged option in words or cards: played cards as small cards, anything else as words.
 * @param {Judgement} judgement The judgement.
 * @param {Option} option The option.
 * @param {function(number): string} name A seat's name.
 * @returns {HTMLElement} The `.analysis-what`.
 */
function _what(judgement, option, name) {
  const what = document.createElement('span');
  what.className = 'analysis-what';
  const cards = option.cards || [];
  if (cards.length && (judgement.kind === 'play' || judgement.kind === 'bomb')) {
    const cardsOf = CardLabels.cardOf;
    cards.map(cardsOf).forEach(function (card) { what.appendChild(CardBuilder.build(card)); });
    what.setAttribute('aria-label', cards.map(function (label) { return I18n.cardName(cardsOf(label)); }).join(', '));
    what.classList.add('analysis-cards');
    return what;
  }
  if (PushOption.isPush(judgement, cards)) {
    what.append(...PushOption.parts(cards, 'analysis'));
    what.setAttribute('aria-label', _plain(judgement, option, name));
    what.classList.add('analysis-cards', 'analysis-push');
    return what;
  }
  what.textContent = optionText(judgement, option, name);
  return what;
}

/**
 * An option that plays no cards in words of the language shown (the document's English
 * `text` when it is none of the known ones).
 * @param {Judgement} judgement The judgement.
 * @param {Option} option The option.
 * @param {function(number): string} name A seat's name.
 * @returns {string} E.g. "pass", "no Tichu", "wish for a 7", "Dragon to Ben".
 */
function optionText(judgement, option, name) {
  const text = String(option.text || '').trim();
  const plain = { pass: 'analysis.pass', tichu: 'analysis.tichu', 'no tichu': 'analysis.noTichu',
    'grand tichu': 'analysis.grandTichu', 'no grand tichu': 'analysis.noGrandTichu', 'no wish': 'analysis.noWish',
    'no bomb': 'analysis.noBomb' };
  if (plain[text.toLowerCase()]) {
    return I18n.t(plain[text.toLowerCase()]);
  }
  const wish = /^wish (\w+)$/i.exec(text);
  if (wish) {
    const value = { J: 11, Q: 12, K: 13, A: 14, B: 11, D: 12, Z: 10 }[wish[1].toUpperCase()] || Number(wish[1]);
    return value ? I18n.t('analysis.wish', { value: value > 10 ? I18n.t('value.' + value) : String(value) }) : text;
  }
  const dragon = /^dragon to seat (\d)$/i.exec(text);
  if (dragon) {
    return I18n.t('analysis.dragon', { name: name(Number(dragon[1])) });
  }
  return text;
}

/**
 * Cards in short words, as a hand is sorted: values as in the cards' corners, the special
 * cards by name, e.g. "5 5", "Dragon", "10 J Q K A".
 * @param {string[]} labels The record labels.
 * @returns {string} The words.
 */
function cardsText(labels) {
  return CardLabels.cardsOf(labels).map(_shortCard).join(' ');
}

/**
 * A card in short words: its value as in the card's corner, a special card by name.
 * @param {number[]} card The card.
 * @returns {string} E.g. "5", "K", "Dragon".
 */
function _shortCard(card) {
  return card[1] === 0 ? I18n.t('card.' + card[0]) : I18n.valueLabel(card[0]);
}

/**
 * An option in short words: the cards played or pushed, or what it is ("pass", "Tichu").
 * @param {Judgement} judgement The judgement.
 * @param {Option} option The option.
 * @param {function(number): string} name A seat's name.
 * @returns {string} E.g. "7 7", "3 right, K partner, 5 left", "no Grand Tichu".
 */
function shortText(judgement, option, name) {
  const cards = option.cards || [];
  if (cards.length && (judgement.kind === 'play' || judgement.kind === 'bomb')) {
    return cardsText(cards);
  }
  if (PushOption.isPush(judgement, cards)) {
    return PushOption.text(cards, _shortCard, ' ');
  }
  return optionText(judgement, option, name);
}

/**
 * What a decision played, for the move list: a push as "push", anything else in short words.
 * @param {Judgement} judgement The judgement.
 * @param {function(number): string} name A seat's name.
 * @returns {string} The words.
 */
function moveText(judgement, name) {
  if (judgement.kind === 'push') {
    return I18n.t('analysis.pushMove');
  }
  return shortText(judgement, Analysis.choiceAndBest(judgement).chosen, name);
}

/**
 * Expected points with their half interval, e.g. "+35 ± 8"; an exact value (a solved
 * endgame) says so, e.g. "+40 exact", never "± 0"; a sampled value without any spread over
 * its deals says that nothing measured its noise: "+40 ± ?".
 * @param {number} mean The mean.
 * @param {number} half The 95 % half interval.
 * @param {boolean} [exact] Whether the value is exact.
 * @returns {string} The text.
 */
function valueText(mean, half, exact) {
  const value = Lib.formatSigned(Math.round(Number(mean) || 0));
  if (exact) {
    return value + ' ' + I18n.t('analysis.exact');
  }
  return Number(half) > 0 ? value + ' ± ' + Math.round(Number(half)) : value + ' ± ?';
}

/**
 * One option: its name and expected points over what it is.
 * @param {string} role `chosen` or `best`.
 * @param {Judgement} judgement The judgement.
 * @param {Option} option The option.
 * @param {function(number): string} name A seat's name.
 * @returns {HTMLElement} The `.analysis-option`.
 */
function _optionRow(role, judgement, option, name) {
  const row = document.createElement('div');
  row.className = 'analysis-option ' + role;
  const head = document.createElement('p');
  head.className = 'analysis-option-head';
  const title = document.createElement('span');
  title.className = 'analysis-option-name';
  title.textContent = I18n.t(role === 'best' ? 'analysis.best' : 'analysis.chosen');
  const value = document.createElement('span');
  value.className = 'analysis-value';
  value.textContent = valueText(option.mean, option.half_width, judgement.exact === true);
  value.title = I18n.t('analysis.valueTitle');
  head.append(title, value);
  row.append(head, _what(judgement, option, name));
  return row;
}

/**
 * The verdict on a judgement in words: its label and loss, or that it was the best choice.
 * @param {Judgement} judgement The judgement.
 * @param {function(number): string} name A seat's name.
 * @returns {string} E.g. "Ada: blunder, 84 ± 12 points lost".
 */
function verdict(judgement, name) {
  const who = name(judgement.seat);
  if (judgement.chosen === judgement.best) {
    return I18n.t('analysis.verdictBest', { name: who });
  }
  const loss = { name: who, loss: Math.round(judgement.loss || 0), half: Math.round(judgement.loss_half_width || 0) };
  const exact = judgement.exact === true;
  if (!exact && !(Number(judgement.loss_half_width) > 0)) {
    return I18n.t('analysis.verdictUnmeasured', loss);
  }
  return judgement.label
    ? I18n.t(exact ? 'analysis.verdictLabelExact' : 'analysis.verdictLabel',
      Object.assign({ label: I18n.t('analysis.' + judgement.label) }, loss))
    : I18n.t(exact ? 'analysis.verdictSmallExact' : 'analysis.verdictNoise', loss);
}

/**
 * Draw the judged decision of the step shown, and a button for each other decision made there
 * (of the same player, e.g. a push and a Tichu not called, or of another player).
 * @param {(Object|null)} shownJudgement The decision shown.
 * @param {Judgement[]} others The step's other judged decisions.
 * @param {function(number): string} name A seat's name.
 * @returns {void}
 */
function _drawJudged(shownJudgement, others, name) {
  const boxes = (shownJudgement ? [shownJudgement] : []).map(function (judgement) {
    const box = document.createElement('div');
    box.className = 'analysis-judgement';
    box.dataset.seat = String(judgement.seat);
    box.dataset.kind = String(judgement.kind);
    box.dataset.label = judgement.label || '';
    const head = document.createElement('p');
    head.className = 'analysis-verdict';
    if (SYMBOLS[judgement.label]) {
      head.appendChild(_mark(judgement.label));
    }
    head.appendChild(document.createTextNode(verdict(judgement, name)));
    const annotation = AnalysisMoves.mark(judgement.label);
    if (annotation) {
      head.appendChild(annotation);
    }
    box.appendChild(head);
    const pair = Analysis.choiceAndBest(judgement);
    const options = document.createElement('div');
    options.className = 'analysis-options';
    options.appendChild(_optionRow('chosen', judgement, pair.chosen, name));
    if (judgement.chosen !== judgement.best) {
      options.appendChild(_optionRow('best', judgement, pair.best, name));
    }
    box.appendChild(options);
    return box;
  });
  if (others.length) {
    const more = document.createElement('p');
    more.className = 'analysis-more';
    more.appendChild(document.createTextNode(I18n.t('analysis.alsoHere')));
    others.forEach(function (judgement) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'analysis-other';
      button.dataset.seat = String(judgement.seat);
      button.dataset.kind = String(judgement.kind);
      const mark = judgement.label === null ? '' : Analysis.MARKS[judgement.label];
      button.textContent = name(judgement.seat) + ': ' + moveText(judgement, name) + (mark ? ' ' + mark : '');
      button.addEventListener('click', function () {
        _picked = judgement;
        _seat = judgement.seat;
        EventBus.emit(Events.UI_RENDER);
      });
      more.appendChild(button);
    });
    boxes.push(more);
  }
  _elements['analysis-judged'].replaceChildren(...boxes);
  _elements['analysis-judged'].hidden = !boxes.length;
}

/**
 * A marker character in its colour.
 * @param {string} label `mistake` or `blunder`.
 * @returns {HTMLElement} The `.analysis-mark`.
 */
function _mark(label) {
  const mark = document.createElement('span');
  mark.className = 'analysis-mark ' + label;
  mark.setAttribute('aria-hidden', 'true');
  mark.textContent = SYMBOLS[label];
  return mark;
}

/**
 * Mark the best option's cards in the deciding seat's open hand (class `analysis-best`),
 * when the best was not what was done.
 * @param {Judgement[]} judged The step's judgements.
 * @returns {void}
 */
function _markBestCards(judged) {
  document.querySelectorAll('#replay-seats .' + BEST_CLASS).forEach(function (card) {
    card.classList.remove(BEST_CLASS);
  });
  judged.forEach(function (judgement) {
    if (judgement.chosen === judgement.best) {
      return;
    }
    const hand = document.querySelector('#replay-seats .replay-seat[data-seat="' + judgement.seat
      + '"] .replay-hand');
    (Analysis.choiceAndBest(judgement).best.cards || []).forEach(function (label) {
      const key = Lib.cardKey(CardLabels.cardOf(label));
      const card = hand && hand.querySelector('.card[data-card="' + key + '"]');
      if (card) {
        card.classList.add(BEST_CLASS);
      }
    });
  });
}

/**
 * An SVG element with attributes.
 * @param {string} tag The tag.
 * @param {Object<string, (string|number)>} attributes The attributes.
 * @returns {SVGElement} The element.
 */
function _svg(tag, attributes) {
  const element = document.createElementNS(SVG, tag);
  Object.keys(attributes).forEach(function (name) { element.setAttribute(name, String(attributes[name])); });
  return element;
}

/**
 * The chart's scale: a faint line and a label at each tick of the y axis (expected score
 * difference, signed), and the rounds' numbers along the x axis.
 * @param {SVGElement} svg The chart.
 * @param {Object[]} steps The replay's steps.
 * @param {{range: number, zero: number, half: number}} geometry The y axis.
 * @param {{width: number, height: number, pad: number, left: number, bottom: number}} box The drawing.
 * @param {number} size The labels' font size (drawing units).
 * @returns {void}
 */
function _drawScale(svg, steps, geometry, box, size) {
  const crowded = geometry.half / 2 < size * 1.2;  // the half ticks' labels would touch
  Analysis.ticks(geometry.range).forEach(function (value) {
    const y = geometry.zero - value / geometry.range * geometry.half;
    svg.appendChild(_svg('line', { x1: box.left, x2: box.width - box.pad, y1: y, y2: y,
      class: value === 0 ? 'analysis-axis' : 'analysis-grid' }));
    if (crowded && Math.abs(value) !== geometry.range && value !== 0) {
      return;
    }
    const label = _svg('text', { x: box.left - size * 0.3, y: y + size * 0.35, 'text-anchor': 'end',
      'font-size': size, class: 'analysis-tick' });
    label.textContent = Lib.formatSigned(Math.round(value));
    svg.appendChild(label);
  });
  let round = -1;
  let free = 0;
  steps.forEach(function (step, at) {
    if (step.round === round) {
      return;
    }
    round = step.round;
    const x = Analysis.stepX(at, steps.length, box);
    const text = I18n.t('analysis.roundTick', { n: round + 1 });
    if (x < free || x + text.length * size * 0.62 > box.width) {
      return;  // no room beside the last label
    }
    const label = _svg('text', { x: x, y: box.height - size * 0.3, 'font-size': size, class: 'analysis-tick' });
    label.textContent = text;
    svg.appendChild(label);
    free = x + (text.length + 1) * size * 0.62;
  });
}

/**
 * Draw the chart: a band per round, the scale, the advantage as a line through the judged
 * steps, the markers, the point read out and the step shown.
 * @param {AnalysisDocument} document_ The analysis document.
 * @param {Object[]} steps The replay's steps.
 * @param {number} index The step shown.
 * @param {function(number): string} name A seat's name.
 * @returns {void}
 */
function _drawChart(document_, steps, index, name) {
  const holder = _elements['analysis-chart'];
  const size = parseFloat(window.getComputedStyle(holder).getPropertyValue('--tick-size')) || 24;
  const box = { width: Math.round(holder.clientWidth) || 1000, height: Math.round(holder.clientHeight) || 150,
    pad: Math.max(PAD, Math.round(size * 0.8)), left: 0, bottom: Math.round(size * 1.3) };
  const key = [box.width, box.height, size, steps.length, I18n.getLanguage(), AnalysisState.gameId,
    (document_.judgements || []).length].join('|');
  const range = Analysis.chart(document_, steps.length, box).range;
  const longest = Math.max(...Analysis.ticks(range).map(function (value) {
    return Lib.formatSigned(Math.round(value)).length;
  }));
  box.left = Math.round(size * (0.62 * longest + 0.6));  // room for the y axis' labels
  _shown.steps = steps.length;
  _shown.box = box;
  if (key !== _chartKey) {
    _chartKey = key;
    const geometry = Analysis.chart(document_, steps.length, box);
    _points = geometry.points;
    const scale = Math.max(1, box.height / MARKER_HEIGHT);
    const svg = _svg('svg', { viewBox: '0 0 ' + box.width + ' ' + box.height, class: 'analysis-svg',
      'aria-hidden': 'true', focusable: 'false' });
    let round = -1;
    steps.forEach(function (step, at) {
      if (step.round !== round && step.round % 2 === 1) {
        const end = steps.findIndex(function (later, after) { return after > at && later.round !== step.round; });
        const x = Analysis.stepX(at, steps.length, box);
        const to = Analysis.stepX(end < 0 ? steps.length - 1 : end, steps.length, box);
        svg.appendChild(_svg('rect', { x: x, y: 0, width: Math.max(0, to - x), height: box.height - box.bottom,
          class: 'analysis-round' }));
      }
      round = step.round;
    });
    _drawScale(svg, steps, geometry, box, size);
    if (geometry.points.length) {
      const path = geometry.points.map(function (point, at) {
        return (at ? 'L' : 'M') + point.x.toFixed(1) + ' ' + point.y.toFixed(1);
      }).join(' ');
      svg.appendChild(_svg('path', { d: path, class: 'analysis-line' }));
    }
    svg.appendChild(_svg('line', { x1: 0, x2: 0, y1: 0, y2: box.height - box.bottom, class: 'analysis-cursor' }));
    Analysis.judgements(document_).forEach(function (judgement, at) {
      const point = geometry.points[at];
      const shape = judgement.label === null ? '' : SHAPES[judgement.label];
      if (!shape) {
        return;
      }
      const marker = _svg('path', { d: shape, class: 'analysis-marker ' + judgement.label,
        transform: 'translate(' + point.x.toFixed(1) + ' ' + point.y.toFixed(1) + ') scale(' + scale + ')' });
      marker.dataset.step = String(judgement.step);
      const title = _svg('title', {});
      title.textContent = I18n.t('analysis.markerTitle', { label: I18n.t('analysis.' + judgement.label),
        name: name(judgement.seat), round: judgement.round + 1, loss: Math.round(judgement.loss || 0) });
      marker.appendChild(title);
      svg.appendChild(marker);
    });
    svg.appendChild(_svg('circle', { cx: 0, cy: 0, r: 7 * scale, class: 'analysis-hover', visibility: 'hidden' }));
    holder.replaceChildren(svg);
  }
  const cursor = /** @type {Element} */ (holder.querySelector('.analysis-cursor'));  // drawn with the chart
  const x = Analysis.stepX(index, steps.length, box).toFixed(1);
  cursor.setAttribute('x1', x);
  cursor.setAttribute('x2', x);
  const counts = { mistake: 0, blunder: 0 };
  Analysis.markers(document_).forEach(function (judgement) { counts[judgement.label]++; });
  holder.setAttribute('aria-label', I18n.t('analysis.chartLabel', { mistakes: counts.mistake,
    blunders: counts.blunder, team20: name(0) + ' & ' + name(2), team31: name(1) + ' & ' + name(3) }));
}

/**
 * Read out a judged point of the chart below it: the one under the pointer, else the decision
 * shown; the point ringed on the chart.
 * @param {(Object|null)} shownJudgement The decision of the step shown.
 * @param {function(number): string} name A seat's name.
 * @returns {void}
 */
function _drawReadout(shownJudgement, name) {
  const judgement = _hover || shownJudgement;
  const readout = _elements['analysis-readout'];
  const ring = _elements['analysis-chart'].querySelector('.analysis-hover');
  const at = judgement ? Analysis.judgements(AnalysisState.document).indexOf(judgement) : -1;
  const point = at >= 0 ? _points[at] : null;
  if (ring) {
    ring.setAttribute('visibility', point ? 'visible' : 'hidden');
    if (point) {
      ring.setAttribute('cx', point.x.toFixed(1));
      ring.setAttribute('cy', point.y.toFixed(1));
    }
  }
  readout.dataset.step = judgement ? String(judgement.step) : '';
  readout.dataset.seat = judgement ? String(judgement.seat) : '';
  readout.textContent = judgement ? I18n.t('analysis.readout', { round: judgement.round + 1,
    name: name(judgement.seat), what: moveText(judgement, name),
    mark: Analysis.MARKS[judgement.label] ? ' ' + Analysis.MARKS[judgement.label] : '',
    team20: name(0) + ' & ' + name(2), advantage: Lib.formatSigned(Math.round(Number(judgement.advantage) || 0)) })
    : I18n.t('analysis.readoutHint');
}

/**
 * Draw the legends: the chart's markers and which team is above its line, what the ± of a
 * value is, and what the move list's marks mean (the judge's thresholds).
 * @param {AnalysisDocument} document_ The analysis document.
 * @param {function(number): string} name A seat's name.
 * @returns {void}
 */
function _drawLegend(document_, name) {
  const parts = ['mistake', 'blunder'].map(function (label) {
    const item = document.createElement('span');
    item.className = 'analysis-legend-item';
    item.append(_mark(label), document.createTextNode(I18n.t('analysis.' + label)));
    return item;
  });
  const above = document.createElement('span');
  above.className = 'analysis-legend-item analysis-legend-teams';
  above.textContent = I18n.t('analysis.above', { team20: name(0) + ' & ' + name(2) });
  _elements['analysis-legend'].replaceChildren(...parts, above);
  _elements['analysis-plusminus'].textContent = I18n.t('analysis.plusMinus');
  const least = Analysis.thresholds(document_);
  const marks = Analysis.LABELS.map(function (label) {
    const item = document.createElement('span');
    item.className = 'analysis-legend-item';
    item.dataset.label = label;
    item.append(AnalysisMoves.mark(label) || '', document.createTextNode(I18n.t('analysis.markMeaning',
      { label: I18n.t('analysis.' + label), least: Math.round(least[label]) })));
    return item;
  });
  const lost = document.createElement('span');
  lost.className = 'analysis-legend-item';
  lost.textContent = I18n.t('analysis.marksLost');
  _elements['analysis-marks'].replaceChildren(...marks, lost);
}

/**
 * Draw each judged player's counts of inaccuracies, mistakes and blunders.
 * @param {AnalysisDocument} document_ The analysis document.
 * @param {function(number): string} name A seat's name.
 * @returns {void}
 */
function _drawCounts(document_, name) {
  _elements['analysis-counts'].replaceChildren(...Analysis.judgedSeats(document_).map(function (seat) {
    const found = Analysis.counts(document_, seat);
    const item = document.createElement('li');
    item.dataset.seat = String(seat);
    item.textContent = I18n.t('analysis.counts', { name: name(seat), inaccuracies: found.inaccuracy,
      mistakes: found.mistake, blunders: found.blunder });
    return item;
  }));
}

/**
 * Draw the move list: the chosen player's decisions in the round of the step shown.
 * @param {AnalysisDocument} document_ The analysis document.
 * @param {number} round The round shown (0-based).
 * @param {(Object|null)} shownJudgement The decision shown.
 * @param {function(number): string} name A seat's name.
 * @returns {void}
 */
function _drawMoves(document_, round, shownJudgement, name) {
  const list = _seat === null ? [] : Analysis.moves(document_, _seat, round);
  _elements['analysis-moves-title'].textContent = _seat === null ? ''
    : I18n.t('analysis.movesTitle', { name: name(_seat), round: round + 1 });
  _elements['analysis-moves'].replaceChildren(...AnalysisMoves.items(list, {
    what: function (judgement) { return moveText(judgement, name); }, current: shownJudgement }));
  _elements['analysis-moves-none'].hidden = list.length > 0;
}

/**
 * Draw the costliest decisions of the seat chosen (its select), and the seat's summary.
 * @param {AnalysisDocument} document_ The analysis document.
 * @param {function(number): string} name A seat's name.
 * @param {string[]} names The game's players by seat.
 * @returns {void}
 */
function _drawCostliest(document_, name, names) {
  const own = User.getName();
  const seats = Analysis.judgedSeats(document_);
  const select = /** @type {HTMLSelectElement} */ (_elements['analysis-player']);
  const optionsKey = seats.map(name).join('|');
  if (select.dataset.options !== optionsKey) {
    select.dataset.options = optionsKey;
    select.replaceChildren(...seats.map(function (seat) {
      const option = document.createElement('option');
      option.value = String(seat);
      option.textContent = name(seat);
      return option;
    }));
  }
  select.value = String(_seat);
  _elements['analysis-player-head'].hidden = seats.length < 2;
  const mine = _seat !== null && own && names[_seat] === own;
  const list = _seat === null ? [] : Analysis.costliest(document_, _seat, 5);
  // rebuilt only when it changed, so that a button keeps the focus when it is pressed
  const key = [I18n.getLanguage(), _seat, own, AnalysisState.gameId].concat(seats.map(name),
    list.map(function (judgement) { return judgement.step; })).join('|');
  if (key === _costlyKey) {
    return;
  }
  _costlyKey = key;
  _elements['analysis-costly-title'].textContent = mine ? I18n.t('analysis.costlyYours')
    : I18n.t('analysis.costlyOfName', { name: _seat === null ? '' : name(_seat) });
  _elements['analysis-costliest'].replaceChildren(...list.map(function (judgement) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'analysis-costly';
    button.dataset.step = String(judgement.step);
    button.dataset.label = judgement.label || '';
    if (judgement.label !== null && SYMBOLS[judgement.label]) {
      button.appendChild(_mark(judgement.label));
    }
    const pair = Analysis.choiceAndBest(judgement);
    const text = document.createElement('span');
    text.className = 'analysis-costly-text';
    text.textContent = I18n.t('analysis.costlyItem', { round: judgement.round + 1,
      chosen: shortText(judgement, pair.chosen, name), best: shortText(judgement, pair.best, name),
      loss: Math.round(judgement.loss) });
    button.appendChild(text);
    const annotation = AnalysisMoves.mark(judgement.label);
    if (annotation) {
      button.appendChild(annotation);
    }
    button.setAttribute('aria-label', I18n.t('analysis.costlyLabel', { round: judgement.round + 1,
      loss: Math.round(judgement.loss), chosen: _plain(judgement, pair.chosen, name),
      best: _plain(judgement, pair.best, name) }));
    item.appendChild(button);
    return item;
  }));
  _elements['analysis-none'].hidden = list.length > 0;
  const summary = _seat === null ? null : Analysis.playerSummary(document_, _seat);
  _elements['analysis-summary'].textContent = summary ? I18n.t('analysis.summary', {
    decisions: summary.decisions, mean: (Number(summary.mean_loss) || 0).toFixed(1),
    given: Math.round(Number(summary.given_away) || 0) }) : '';
}

/**
 * An option in plain words (cards by their names), for accessible labels.
 * @param {Judgement} judgement The judgement.
 * @param {Option} option The option.
 * @param {function(number): string} name A seat's name.
 * @returns {string} The words.
 */
function _plain(judgement, option, name) {
  const cards = option.cards || [];
  const cardName = function (label) { return I18n.cardName(CardLabels.cardOf(label)); };
  if (cards.length && (judgement.kind === 'play' || judgement.kind === 'bomb')) {
    return cards.map(cardName).join(', ');
  }
  if (PushOption.isPush(judgement, cards)) {
    return PushOption.text(cards, I18n.cardName, ' → ');
  }
  return optionText(judgement, option, name);
}

/**
 * The text of the status line.
 * @returns {string} Progress, failure or nothing.
 */
function _statusText() {
  const progress = AnalysisState.progress || [0, 0];
  switch (AnalysisState.status) {
    case 'queued':
      return I18n.t('analysis.queued');
    case 'running':
      return progress[1] ? I18n.t('analysis.running', { done: progress[0], total: progress[1] })
        : I18n.t('analysis.queued');
    case 'failed':
      return AnalysisState.reason ? I18n.t('analysis.failedWhy', { reason: AnalysisState.reason })
        : I18n.t('analysis.failed');
    case 'busy':
      return I18n.t('analysis.busy');
    case 'offline':
      return I18n.t('analysis.offline');
    default:
      return '';
  }
}

/**
 * The decision the panel shows at a step: the one picked there, else the chosen player's
 * costliest, else the step's costliest; and the step's others.
 * @param {AnalysisDocument} document_ The analysis document.
 * @param {number} step The step shown.
 * @returns {{shown: (Judgement|null), others: Judgement[]}} The decisions.
 */
function _shownAt(document_, step) {
  const judged = Analysis.judgementsAt(document_, step);
  const shownJudgement = judged.includes(_picked) ? _picked
    : (judged.find(function (judgement) { return judgement.seat === _seat; }) || judged[0] || null);
  return { shown: shownJudgement, others: judged.filter(function (judgement) { return judgement !== shownJudgement; }) };
}

/**
 * Draw the analysis for the step shown, or hide it (null: no game shown).
 * @param {?{steps: Object[], index: number, name: function(number): string, names: string[]}} shown
 *   The replay's steps, the step shown, a seat's name then and the players by seat.
 * @returns {void}
 */
function draw(shown) {
  const status = shown ? AnalysisState.status : 'hidden';
  const done = status === 'done' && AnalysisState.document;
  _elements['view-replay'].dataset.analysis = done ? 'done' : status;
  _elements['analysis-start'].hidden = !['none', 'failed', 'busy', 'offline'].includes(status);
  _elements['analysis-start'].textContent = I18n.t('analysis.start');
  const text = _statusText();
  _elements['analysis-status'].textContent = text;
  _elements['analysis-status'].hidden = !text;
  _elements['replay-analysis'].hidden = !text && !done;
  _elements['analysis-result'].hidden = !done;
  if (!done || !shown) {
    _elements['analysis-judged'].hidden = true;
    _markBestCards([]);
    return;
  }
  const document_ = AnalysisState.document;
  if (_seatFor !== document_) {
    _seatFor = document_;
    _seat = Analysis.startSeat(document_, shown.names, User.getName());
    _picked = null;
    _hover = null;
  }
  _elements['analysis-result'].dataset.tab = _tab;
  _elements['analysis-tabs'].querySelectorAll('.analysis-tab').forEach(function (tab) {
    tab.setAttribute('aria-selected', String(tab.getAttribute('data-tab') === _tab));
  });
  _shown.index = shown.index;
  _shown.name = shown.name;
  const at = _shownAt(document_, shown.index);
  _drawChart(document_, shown.steps, shown.index, shown.name);
  _drawReadout(at.shown, shown.name);
  _drawLegend(document_, shown.name);
  _drawCounts(document_, shown.name);
  _drawJudged(at.shown, at.others, shown.name);
  _markBestCards(at.shown ? [at.shown] : []);
  const step = shown.steps[shown.index];
  _drawMoves(document_, step ? step.round : 0, at.shown, shown.name);
  _drawCostliest(document_, shown.name, shown.names);
}

/**
 * The step a pointer event on the chart points at.
 * @param {MouseEvent} event The click or tap.
 * @returns {(number|null)} The nearest judged step.
 */
function _pointed(event) {
  const rect = _elements['analysis-chart'].getBoundingClientRect();
  if (!rect.width) {
    return null;
  }
  const x = (event.clientX - rect.left) / rect.width * _shown.box.width;
  return Analysis.nearestStep(AnalysisState.document, _shown.steps, _shown.box, x);
}

/**
 * The judgement a pointer on the chart points at: at the nearest judged step, the chosen
 * player's when they decided there.
 * @param {MouseEvent} event The pointer's move.
 * @returns {(Object|null)} The judgement.
 */
function _pointedJudgement(event) {
  const step = _pointed(event);
  if (step === null) {
    return null;
  }
  const judged = Analysis.judgementsAt(AnalysisState.document, step);
  return judged.find(function (judgement) { return judgement.seat === _seat; }) || judged[0] || null;
}

/**
 * Jump the replay to a step.
 * @param {(number|null)} step The step.
 * @returns {void}
 */
function _jump(step) {
  if (step !== null && step !== undefined && !Number.isNaN(step)) {
    EventBus.emit(Events.INTENT_REPLAY_STEP, { step: step });
  }
}

/**
 * Find the elements and wire the button, the chart, the seat select and the list.
 * @returns {void}
 */
function init() {
  ['view-replay', 'replay-analysis', 'analysis-start', 'analysis-status', 'analysis-result', 'analysis-chart',
    'analysis-tabs', 'analysis-readout', 'analysis-legend', 'analysis-marks', 'analysis-plusminus', 'analysis-counts',
    'analysis-judged', 'analysis-moves-title', 'analysis-moves', 'analysis-moves-none', 'analysis-costly-title',
    'analysis-player-head', 'analysis-player', 'analysis-costliest', 'analysis-none', 'analysis-summary'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  window.addEventListener('resize', function () { EventBus.emit(Events.UI_RENDER); });  // the chart fits its box
  _elements['analysis-start'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_ANALYSIS_START);
  });
  _elements['analysis-chart'].addEventListener('click', function (event) {
    _hover = null;
    _jump(_pointed(event));
  });
  _elements['analysis-chart'].addEventListener('pointermove', function (event) {
    if (event.pointerType === 'mouse' && AnalysisState.document) {
      _hover = _pointedJudgement(event);
      _drawReadout(_shownAt(AnalysisState.document, _shown.index).shown, _shown.name);
    }
  });
  _elements['analysis-chart'].addEventListener('pointerleave', function () {
    if (_hover && AnalysisState.document) {
      _hover = null;
      _drawReadout(_shownAt(AnalysisState.document, _shown.index).shown, _shown.name);
    }
  });
  _elements['analysis-tabs'].addEventListener('click', function (event) {
    const tab = Dom.closestTo(event, '.analysis-tab');
    if (tab) {
      _tab = tab.getAttribute('data-tab') || 'chart';
      EventBus.emit(Events.UI_RENDER);
    }
  });
  _elements['analysis-moves'].addEventListener('click', function (event) {
    const button = Dom.closestTo(event, 'button[data-step]');
    if (button) {
      _jump(Number(button.dataset.step));
    }
  });
  _elements['analysis-chart'].addEventListener('keydown', function (event) {
    const direction = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (direction && AnalysisState.document) {
      event.preventDefault();
      _jump(Analysis.nextMarked(AnalysisState.document, _shown.index, direction));
    }
  });
  _elements['analysis-player'].addEventListener('change', function (event) {
    _seat = Number(Dom.valueOf(event));
    _picked = null;
    EventBus.emit(Events.UI_RENDER);
  });
  _elements['analysis-costliest'].addEventListener('click', function (event) {
    const button = Dom.closestTo(event, 'button[data-step]');
    if (button) {
      _jump(Number(button.dataset.step));
    }
  });
  // "Learn from your mistakes" (shown by CSS once the analysis is done): the listed seat's puzzles
  Dom.byId('analysis-learn').addEventListener('click', function () {
    EventBus.emit(Events.INTENT_PUZZLES_START, { seat: _seat });
  });
}

/**
 * The analysis in the replay viewer.
 * @namespace AnalysisView
 */
export const AnalysisView = Object.freeze({ init, draw, verdict, optionText, shortText, valueText, SYMBOLS, BEST_CLASS });

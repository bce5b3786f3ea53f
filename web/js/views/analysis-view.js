/**
 * @file AnalysisView: a stored game's analysis inside the replay viewer (AnalysisState;
 * the document's format in docs/agents.md, the API in docs/server.md "Game analysis"): the "Analyse this game" button,
 * the progress, the chart of the advantage through the game with markers at mistakes and
 * blunders (a click or tap jumps to the nearest judged step; ←/→ on the chart to the
 * previous/next marker), the judged decision of the step shown (the choice made beside the best,
 * both with their expected points ± half interval), the best option's cards marked in the open
 * hand, and a player's five costliest decisions (the viewer's own seat when their name played).
 * The ReplayView calls {@link draw} when it renders; jumps go out as `intent:replay-step`.
 */

import { AnalysisState } from '../analysis-state.js';
import { Analysis } from '../analysis.js';
import { EventBus } from '../event-bus.js';
import { Events } from '../events.js';
import { I18n } from '../i18n.js';
import { Lib } from '../lib.js';
import { User } from '../user.js';
import { CardBuilder } from './card-builder.js';
import { Dom } from './dom.js';
import { ReplayView } from './replay-view.js';

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
/** @type {ReadonlyArray<string>} A push's targets in the order of its cards (R2.3). */
const PUSH_TARGETS = Lib.PUSH_TARGETS;
/** @type {string} The class of the hand cards the best option would have played. */
const BEST_CLASS = 'analysis-best';

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {(number|null)} The seat whose costliest decisions are listed (null: the start seat). */
let _seat = null;
/** @type {(Object|null)} The document the seat was chosen for. */
let _seatFor = null;
/** @type {string} What the list of costliest decisions was last drawn for. */
let _costlyKey = '';
/** @type {string} What the chart was last drawn for. */
let _chartKey = '';
/** @type {{steps: number, index: number, box: Object}} What the chart's events need. */
const _shown = { steps: 0, index: 0, box: { width: 1000, height: 150, pad: PAD } };

/**
 * A judged option in words or cards: played cards as small cards, anything else as words.
 * @param {Object} judgement The judgement.
 * @param {Object} option The option.
 * @param {function(number): string} name A seat's name.
 * @returns {HTMLElement} The `.analysis-what`.
 */
function _what(judgement, option, name) {
  const what = document.createElement('span');
  what.className = 'analysis-what';
  const cards = option.cards || [];
  if (cards.length && (judgement.kind === 'play' || judgement.kind === 'bomb')) {
    const cardsOf = ReplayView.cardOf;
    cards.map(cardsOf).forEach(function (card) { what.appendChild(CardBuilder.build(card)); });
    what.setAttribute('aria-label', cards.map(function (label) { return I18n.cardName(cardsOf(label)); }).join(', '));
    what.classList.add('analysis-cards');
    return what;
  }
  if (cards.length === PUSH_TARGETS.length && judgement.kind === 'push') {
    cards.forEach(function (label, at) {
      const part = document.createElement('span');
      part.className = 'analysis-push-part';
      const where = document.createElement('span');
      where.className = 'analysis-push-to';
      where.textContent = I18n.t('analysis.push.' + PUSH_TARGETS[at]);
      part.append(CardBuilder.build(ReplayView.cardOf(label)), where);
      what.appendChild(part);
    });
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
 * @param {Object} judgement The judgement.
 * @param {Object} option The option.
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
 * @param {Object} judgement The judgement.
 * @param {Object} option The option.
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
 * @param {Object} judgement The judgement.
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
 * Draw the judged decision of the step shown, and how many others were made there.
 * @param {Object[]} judged The decision shown (none or one).
 * @param {number} others The step's other judged decisions (of other seats).
 * @param {function(number): string} name A seat's name.
 * @returns {void}
 */
function _drawJudged(judged, others, name) {
  const boxes = judged.map(function (judgement) {
    const box = document.createElement('div');
    box.className = 'analysis-judgement';
    box.dataset.seat = String(judgement.seat);
    box.dataset.label = judgement.label || '';
    const head = document.createElement('p');
    head.className = 'analysis-verdict';
    if (SYMBOLS[judgement.label]) {
      head.appendChild(_mark(judgement.label));
    }
    head.appendChild(document.createTextNode(verdict(judgement, name)));
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
  if (others) {
    const more = document.createElement('p');
    more.className = 'analysis-more';
    more.textContent = I18n.t('analysis.more', { n: others });
    boxes.push(more);
  }
  _elements['analysis-judged'].replaceChildren(...boxes);
  _elements['analysis-judged'].hidden = !judged.length;
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
 * @param {Object[]} judged The step's judgements.
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
      const key = Lib.cardKey(ReplayView.cardOf(label));
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
 * Draw the chart: the zero line, a band per round, the advantage as a line through the
 * judged steps, the markers and the step shown.
 * @param {Object} document_ The analysis document.
 * @param {Object[]} steps The replay's steps.
 * @param {number} index The step shown.
 * @param {function(number): string} name A seat's name.
 * @returns {void}
 */
function _drawChart(document_, steps, index, name) {
  const holder = _elements['analysis-chart'];
  const box = { width: Math.round(holder.clientWidth) || 1000, height: Math.round(holder.clientHeight) || 150,
    pad: PAD };
  const key = [box.width, box.height, steps.length, I18n.getLanguage(), AnalysisState.gameId,
    (document_.judgements || []).length].join('|');
  _shown.steps = steps.length;
  _shown.box = box;
  if (key !== _chartKey) {
    _chartKey = key;
    const geometry = Analysis.chart(document_, steps.length, box);
    const scale = Math.max(1, box.height / MARKER_HEIGHT);
    const svg = _svg('svg', { viewBox: '0 0 ' + box.width + ' ' + box.height, class: 'analysis-svg',
      'aria-hidden': 'true', focusable: 'false' });
    let round = -1;
    steps.forEach(function (step, at) {
      if (step.round !== round && step.round % 2 === 1) {
        const end = steps.findIndex(function (later, after) { return after > at && later.round !== step.round; });
        const x = Analysis.stepX(at, steps.length, box);
        const to = Analysis.stepX(end < 0 ? steps.length - 1 : end, steps.length, box);
        svg.appendChild(_svg('rect', { x: x, y: 0, width: Math.max(0, to - x), height: box.height,
          class: 'analysis-round' }));
      }
      round = step.round;
    });
    svg.appendChild(_svg('line', { x1: PAD, x2: box.width - PAD, y1: geometry.zero, y2: geometry.zero,
      class: 'analysis-axis' }));
    if (geometry.points.length) {
      const path = geometry.points.map(function (point, at) {
        return (at ? 'L' : 'M') + point.x.toFixed(1) + ' ' + point.y.toFixed(1);
      }).join(' ');
      svg.appendChild(_svg('path', { d: path, class: 'analysis-line' }));
    }
    svg.appendChild(_svg('line', { x1: 0, x2: 0, y1: 0, y2: box.height, class: 'analysis-cursor' }));
    Analysis.judgements(document_).forEach(function (judgement, at) {
      const point = geometry.points[at];
      if (!SHAPES[judgement.label]) {
        return;
      }
      const marker = _svg('path', { d: SHAPES[judgement.label], class: 'analysis-marker ' + judgement.label,
        transform: 'translate(' + point.x.toFixed(1) + ' ' + point.y.toFixed(1) + ') scale(' + scale + ')' });
      marker.dataset.step = String(judgement.step);
      const title = _svg('title', {});
      title.textContent = I18n.t('analysis.markerTitle', { label: I18n.t('analysis.' + judgement.label),
        name: name(judgement.seat), round: judgement.round + 1, loss: Math.round(judgement.loss || 0) });
      marker.appendChild(title);
      svg.appendChild(marker);
    });
    holder.replaceChildren(svg);
  }
  const cursor = holder.querySelector('.analysis-cursor');
  const x = Analysis.stepX(index, steps.length, box).toFixed(1);
  cursor.setAttribute('x1', x);
  cursor.setAttribute('x2', x);
  const counts = { mistake: 0, blunder: 0 };
  Analysis.markers(document_).forEach(function (judgement) { counts[judgement.label]++; });
  holder.setAttribute('aria-label', I18n.t('analysis.chartLabel', { mistakes: counts.mistake,
    blunders: counts.blunder, team20: name(0) + ' & ' + name(2), team31: name(1) + ' & ' + name(3) }));
}

/**
 * Draw the legend: the markers' meaning and which team is above the line.
 * @param {function(number): string} name A seat's name.
 * @returns {void}
 */
function _drawLegend(name) {
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
}

/**
 * Draw the costliest decisions of the seat chosen (its select), and the seat's summary.
 * @param {Object} document_ The analysis document.
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
  select.hidden = seats.length < 2;
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
    : I18n.t(seats.length < 2 ? 'analysis.costlyOfName' : 'analysis.costlyOf',
      { name: _seat === null ? '' : name(_seat) });
  _elements['analysis-costliest'].replaceChildren(...list.map(function (judgement) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'analysis-costly';
    button.dataset.step = String(judgement.step);
    button.dataset.label = judgement.label || '';
    if (SYMBOLS[judgement.label]) {
      button.appendChild(_mark(judgement.label));
    }
    button.appendChild(document.createTextNode(I18n.t('analysis.costlyItem', { round: judgement.round + 1,
      loss: Math.round(judgement.loss) })));
    const pair = Analysis.choiceAndBest(judgement);
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
 * @param {Object} judgement The judgement.
 * @param {Object} option The option.
 * @param {function(number): string} name A seat's name.
 * @returns {string} The words.
 */
function _plain(judgement, option, name) {
  const cards = option.cards || [];
  const cardName = function (label) { return I18n.cardName(ReplayView.cardOf(label)); };
  if (cards.length && (judgement.kind === 'play' || judgement.kind === 'bomb')) {
    return cards.map(cardName).join(', ');
  }
  if (cards.length === PUSH_TARGETS.length && judgement.kind === 'push') {
    return cards.map(function (label, at) {
      return cardName(label) + ' → ' + I18n.t('analysis.push.' + PUSH_TARGETS[at]);
    }).join(', ');
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
  if (!done) {
    _markBestCards([]);
    return;
  }
  const document_ = AnalysisState.document;
  _shown.index = shown.index;
  _drawChart(document_, shown.steps, shown.index, shown.name);
  _drawLegend(shown.name);
  if (_seatFor !== document_) {
    _seatFor = document_;
    _seat = Analysis.startSeat(document_, shown.names, User.getName());
  }
  // one decision at a time (the layout keeps its room): the chosen player's, else the costliest
  const judged = Analysis.judgementsAt(document_, shown.index);
  const first = judged.find(function (judgement) { return judgement.seat === _seat; }) || judged[0];
  const one = first ? [first] : [];
  _drawJudged(one, judged.length - one.length, shown.name);
  _markBestCards(one);
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
    'analysis-legend', 'analysis-judged', 'analysis-costly-title', 'analysis-player', 'analysis-costliest',
    'analysis-none', 'analysis-summary'].forEach(function (id) {
    _elements[id] = document.getElementById(id);
  });
  window.addEventListener('resize', function () { EventBus.emit(Events.UI_RENDER); });  // the chart fits its box
  _elements['analysis-start'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_ANALYSIS_START);
  });
  _elements['analysis-chart'].addEventListener('click', function (event) { _jump(_pointed(event)); });
  _elements['analysis-chart'].addEventListener('keydown', function (event) {
    const direction = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
    if (direction && AnalysisState.document) {
      event.preventDefault();
      _jump(Analysis.nextMarked(AnalysisState.document, _shown.index, direction));
    }
  });
  _elements['analysis-player'].addEventListener('change', function (event) {
    _seat = Number(Dom.valueOf(event));
    EventBus.emit(Events.UI_RENDER);
  });
  _elements['analysis-costliest'].addEventListener('click', function (event) {
    const button = Dom.closestTo(event, 'button[data-step]');
    if (button) {
      _jump(Number(button.dataset.step));
    }
  });
  // "Learn from your mistakes" (shown by CSS once the analysis is done): the listed seat's puzzles
  document.getElementById('analysis-learn').addEventListener('click', function () {
    EventBus.emit(Events.INTENT_PUZZLES_START, { seat: _seat });
  });
}

/**
 * The analysis in the replay viewer.
 * @namespace AnalysisView
 */
export const AnalysisView = Object.freeze({ init, draw, verdict, optionText, valueText, SYMBOLS, BEST_CLASS });

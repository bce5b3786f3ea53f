/**
 * @file PuzzleView: "learn from your mistakes" (issue 35) inside the replay viewer. The analysis'
 * "Learn from your mistakes" button (`intent:puzzles-start`, with the seat whose costliest
 * decisions are listed) replaces the replay's board with a puzzle per labelled decision of that
 * seat, the costliest first (Puzzles): the position in which the decision was made as the seat
 * saw it (its own hand open, the others' cards counted, the open trick, calls and wish), the
 * question "Find a better move" and the judged options as buttons, in an order that tells
 * nothing of their values. An answer is judged by the analysis document's values: "Well found"
 * below the inaccuracy threshold, else "Not this one — try again" with a retry; "Show the
 * solution" shows every option's value ± half width, the best and what was played. Previous and
 * next puzzle, the count, and the way back to the analysis (the replay then shows the decision).
 * It draws itself on its own changes and a language switch.
 */

import { AnalysisState } from '../analysis-state.js';
import { CardLabels } from '../card-labels.js';
import { EventBus } from '../event-bus.js';
import { Events } from '../events.js';
import { I18n } from '../i18n.js';
import { Lib } from '../lib.js';
import { Puzzles } from '../puzzles.js';
import { AnalysisView } from './analysis-view.js';
import { CardBuilder } from './card-builder.js';
import { Dom } from './dom.js';
import { PushOption } from './push-option.js';
import { ReplayView } from './replay-view.js';

/** @typedef {import('../protocol-types.js').AnalysisJudgement} Judgement */
/** @typedef {import('../protocol-types.js').AnalysisOption} Option */

/** @type {number} Plays of the open trick shown (the last ones). */
const TRICK_SHOWN = 3;
/** @type {ReadonlyArray<string>} The kinds whose options play cards. */
const CARD_KINDS = Object.freeze(['play', 'bomb']);

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {(Object|null)} The replay document of the game shown (its steps and players). */
let _replay = null;
/** @type {(import('../puzzles.js').Session|null)} The puzzles shown (null: none, the replay is shown). */
let _session = null;
/** @type {string} What the options were last drawn for (rebuilt only when it changes, so that focus stays). */
let _optionsKey = '';
/** @type {(number|null)} The pending render frame. */
let _frame = null;

/**
 * A seat's name at a step: who held it then, else the record's player.
 * @param {number} seat 0..3.
 * @param {?Object} step The step.
 * @returns {string} The name.
 */
function _nameAt(seat, step) {
  const then = step && Array.isArray(step.names) ? step.names[seat] : '';
  const players = (_replay && _replay.players) || [];
  return String(then || players[seat] || I18n.t('replay.seat', { n: seat + 1 }));
}

/**
 * An option in plain words (cards by their names): the buttons' names and the solution's line.
 * @param {Judgement} judgement The judgement.
 * @param {Option} option The option.
 * @param {function(number): string} name A seat's name.
 * @returns {string} E.g. "Queen of Swords", "2 of Stars → right, …", "no Grand Tichu".
 */
function plainText(judgement, option, name) {
  const cards = option.cards || [];
  if (cards.length && CARD_KINDS.includes(judgement.kind)) {
    return cards.map(function (label) { return I18n.cardName(CardLabels.cardOf(label)); }).join(', ');
  }
  if (PushOption.isPush(judgement, cards)) {
    return PushOption.text(cards, I18n.cardName, ' → ');
  }
  return AnalysisView.optionText(judgement, option, name);
}

/**
 * An option in short words (values for cards, as in the cards' corners), for the solution's line
 * beside the buttons that show the cards themselves.
 * @param {Judgement} judgement The judgement.
 * @param {Option} option The option.
 * @param {function(number): string} name A seat's name.
 * @returns {string} E.g. "Q", "7 7", "1 → right, 8 → partner, 5 → left", "pass".
 */
function shortText(judgement, option, name) {
  const cards = option.cards || [];
  const short = function (card) { return card[1] === 0 ? I18n.t('card.' + card[0]) : I18n.valueLabel(card[0]); };
  if (cards.length && CARD_KINDS.includes(judgement.kind)) {
    return CardLabels.cardsOf(cards).map(short).join(' ');
  }
  if (PushOption.isPush(judgement, cards)) {
    return PushOption.text(cards, short, ' → ');
  }
  return AnalysisView.optionText(judgement, option, name);
}

/**
 * What an option is, as its button shows it: the cards played or pushed, else words.
 * @param {Judgement} judgement The judgement.
 * @param {Option} option The option.
 * @param {function(number): string} name A seat's name.
 * @returns {HTMLElement} The `.puzzle-what`.
 */
function _what(judgement, option, name) {
  const what = document.createElement('span');
  what.className = 'puzzle-what';
  const cards = option.cards || [];
  if (cards.length && CARD_KINDS.includes(judgement.kind)) {
    what.classList.add('puzzle-cards');
    CardLabels.cardsOf(cards).forEach(function (card) { what.appendChild(CardBuilder.build(card)); });
    return what;
  }
  if (PushOption.isPush(judgement, cards)) {
    what.classList.add('puzzle-cards', 'puzzle-push');
    what.append(...PushOption.parts(cards, 'puzzle'));
    return what;
  }
  what.textContent = AnalysisView.optionText(judgement, option, name);
  return what;
}

/**
 * The tags of an option: best, good too, played, tried (the values' tags only in the solution).
 * @param {import('../puzzles.js').Session} session The session.
 * @param {Judgement} judgement The judgement.
 * @param {number} index The option.
 * @returns {string[]} The tags' keys (`best`, `good`, `played`, `tried`).
 */
function _tags(session, judgement, index) {
  const tags = [];
  if (session.revealed) {
    if (index === judgement.best) {
      tags.push('best');
    }
    else if (Puzzles.solves(judgement, index, session.threshold)) {
      tags.push('good');
    }
    if (index === judgement.chosen) {
      tags.push('played');
    }
  }
  if (session.tried.includes(index) && !tags.includes('played')) {
    tags.push('tried');
  }
  return tags;
}

/**
 * One option's button: what it is, and in the solution its tags and value.
 * @param {import('../puzzles.js').Session} session The session.
 * @param {Judgement} judgement The judgement.
 * @param {number} index The option.
 * @param {function(number): string} name A seat's name.
 * @returns {HTMLButtonElement} The `button.puzzle-option`.
 */
function _optionButton(session, judgement, index, name) {
  const option = judgement.options[index];
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'puzzle-option';
  button.dataset.option = String(index);
  const tags = _tags(session, judgement, index);
  tags.forEach(function (tag) { button.classList.add('is-' + tag); });
  if (session.solved === index) {
    button.classList.add('is-solved');
  }
  button.disabled = session.revealed || session.solved !== null || session.last === 'wrong'
    || session.tried.includes(index);
  button.appendChild(_what(judgement, option, name));
  const words = [plainText(judgement, option, name)];
  if (tags.length || session.revealed) {
    const foot = document.createElement('span');
    foot.className = 'puzzle-foot';
    tags.forEach(function (tag) {
      const badge = document.createElement('span');
      badge.className = 'puzzle-tag ' + tag;
      badge.textContent = I18n.t('puzzle.tag.' + tag);
      foot.appendChild(badge);
      words.push(badge.textContent);
    });
    if (session.revealed) {
      const value = document.createElement('span');
      value.className = 'puzzle-value';
      value.textContent = AnalysisView.valueText(option.mean, option.half_width, judgement.exact === true);
      value.title = I18n.t('analysis.valueTitle');
      foot.appendChild(value);
      words.push(value.textContent);
    }
    button.appendChild(foot);
  }
  button.setAttribute('aria-label', words.join(', '));
  return button;
}

/**
 * What the last answer earned, and the solution once shown.
 * @param {import('../puzzles.js').Session} session The session.
 * @param {Judgement} judgement The judgement.
 * @param {function(number): string} name A seat's name.
 * @returns {string} The feedback's text.
 */
function feedbackText(session, judgement, name) {
  const parts = [];
  if (session.last === 'solved' && session.solved !== null) {
    parts.push(session.solved === judgement.best ? I18n.t('puzzle.solvedBest')
      : I18n.t('puzzle.solvedClose', { loss: Math.round(Puzzles.lossOf(judgement, session.solved)) }));
  }
  else if (session.last === 'wrong') {
    const last = session.tried[session.tried.length - 1];
    parts.push(I18n.t(last === judgement.chosen ? 'puzzle.wrongPlayed' : 'puzzle.wrong'));
  }
  if (session.revealed) {
    const exact = judgement.exact === true;
    const best = judgement.options[judgement.best];
    const played = judgement.options[judgement.chosen];
    parts.push(I18n.t('puzzle.solution', {
      best: shortText(judgement, best, name), value: AnalysisView.valueText(best.mean, best.half_width, exact),
      played: shortText(judgement, played, name),
      played_value: AnalysisView.valueText(played.mean, played.half_width, exact),
      loss: Math.round(Number(judgement.loss) || Puzzles.lossOf(judgement, judgement.chosen)) }));
  }
  return parts.join(' ');
}

/**
 * A small badge (a call, the cards' count, out).
 * @param {string} className Its class.
 * @param {string} text Its text.
 * @returns {HTMLElement} The `span`.
 */
function _badge(className, text) {
  const badge = document.createElement('span');
  badge.className = className;
  badge.textContent = text;
  return badge;
}

/**
 * Draw the position as the seat saw it: where and what it cost, the last step, the other three
 * seats (name, cards counted, call, out), the open trick and the seat's own hand.
 * @param {Judgement} judgement The judgement.
 * @param {Object} step The position's step.
 * @param {function(number): string} name A seat's name.
 * @returns {void}
 */
function _drawPosition(judgement, step, name) {
  const seat = judgement.seat;
  const where = step.trick > 0 ? I18n.t('replay.whereTrick', { round: step.round + 1, trick: step.trick })
    : I18n.t('replay.where', { round: step.round + 1 });
  const wished = step.wish > 10 ? I18n.t('value.' + step.wish) : String(step.wish);
  const wish = step.wish && step.wish_open ? ' · ' + I18n.t('trick.wish', { value: wished }) : '';
  _elements['puzzle-where'].textContent = where + wish + ' · ' + I18n.t('puzzle.cost', {
    label: I18n.t('analysis.' + judgement.label), loss: Math.round(Number(judgement.loss) || 0) });
  _elements['puzzle-last'].textContent = ReplayView.describe(step);
  _elements['puzzle-others'].replaceChildren(...[3, 2, 1].map(function (offset) {
    const other = (seat + offset) % 4;
    const box = document.createElement('div');
    box.className = 'puzzle-seat team-' + Lib.teamOf(other);
    box.dataset.seat = String(other);
    box.dataset.position = Lib.relativePosition(other, seat);
    box.appendChild(_badge('puzzle-seat-name', name(other)));
    const count = (step.hands[other] || []).length;
    box.appendChild(_badge('puzzle-seat-count', count === 1 ? I18n.t('puzzle.card') : I18n.t('puzzle.cards', { n: count })));
    if (step.calls[other]) {
      box.appendChild(_badge('puzzle-seat-call', I18n.t('call.' + step.calls[other])));
    }
    const place = step.out_order.indexOf(other);
    if (place >= 0) {
      box.appendChild(_badge('puzzle-seat-out', I18n.t('replay.out', { place: place + 1 })));
    }
    return box;
  }));
  const playing = !['deal', 'grand_tichu'].includes(step.kind);
  _elements['puzzle-trick'].hidden = !playing;
  const turns = (step.trick_turns || []).slice(-TRICK_SHOWN);
  _elements['puzzle-trick'].replaceChildren(...(turns.length ? turns.map(function (turn) {
    const play = document.createElement('div');
    play.className = 'puzzle-play';
    const cards = document.createElement('div');
    cards.className = 'puzzle-play-cards';
    CardLabels.cardsOf(turn.cards).forEach(function (card) { cards.appendChild(CardBuilder.build(card)); });
    play.append(_badge('puzzle-play-name', name(turn.seat)), cards);
    return play;
  }) : [_badge('puzzle-leads', I18n.t('puzzle.leads'))]));
  const own = _elements['puzzle-own-name'];
  own.replaceChildren(document.createTextNode(I18n.t('puzzle.hand', { name: name(seat) })));
  if (step.calls[seat]) {
    own.appendChild(_badge('puzzle-seat-call', I18n.t('call.' + step.calls[seat])));
  }
  CardBuilder.syncCards(_elements['puzzle-hand'], CardLabels.cardsOf(step.hands[seat]));
}

/**
 * Draw the puzzle shown (or that the seat has none), or hide the puzzles.
 * @returns {void}
 */
function render() {
  const session = _session;
  const on = session !== null && _replay !== null;
  _elements['puzzle'].hidden = !on;
  if (on) {
    _elements['view-replay'].dataset.puzzle = 'on';
  }
  else {
    delete _elements['view-replay'].dataset.puzzle;
    _optionsKey = '';
    return;
  }
  const steps = _replay.steps || [];
  const judgement = Puzzles.current(session);
  const step = judgement ? steps[Puzzles.positionStep(judgement, steps)] : steps[0];
  const name = function (seat) { return _nameAt(seat, step); };
  _elements['puzzle-title'].textContent = judgement
    ? I18n.t('puzzle.title', { n: session.at + 1, total: session.puzzles.length }) : I18n.t('puzzle.learn');
  _elements['puzzle-empty'].hidden = Boolean(judgement);
  _elements['puzzle-body'].hidden = !judgement;
  if (!judgement || !step) {
    _elements['puzzle-empty'].textContent = I18n.t('puzzle.empty', { name: name(session.seat) });
    return;
  }
  _elements['puzzle'].dataset.kind = judgement.kind;
  _drawPosition(judgement, step, name);
  _elements['puzzle-question'].replaceChildren(_badge('puzzle-find', I18n.t('puzzle.question')),
    _badge('puzzle-ask', I18n.t('puzzle.ask.' + judgement.kind, { name: name(judgement.seat) })));
  const key = [I18n.getLanguage(), AnalysisState.gameId, session.seat, session.at, session.tried.join(','),
    session.solved, session.last, session.revealed].join('|');
  if (key !== _optionsKey) {
    _optionsKey = key;
    _elements['puzzle-options'].replaceChildren(...Puzzles.displayOrder(judgement).map(function (index) {
      return _optionButton(session, judgement, index, name);
    }));
  }
  const feedback = feedbackText(session, judgement, name);
  _elements['puzzle-feedback'].textContent = feedback;
  _elements['puzzle-feedback'].hidden = !feedback;
  _elements['puzzle-feedback'].dataset.outcome = session.last || (session.revealed ? 'revealed' : '');
  _elements['puzzle-retry'].hidden = session.last !== 'wrong' || session.revealed;
  _elements['puzzle-reveal'].hidden = session.revealed;
  /** @type {HTMLButtonElement} */ (_elements['puzzle-prev']).disabled = session.at === 0;
  /** @type {HTMLButtonElement} */ (_elements['puzzle-next']).disabled = session.at >= session.puzzles.length - 1;
}

/**
 * Draw in the next frame (several asks make one drawing).
 * @returns {void}
 */
function _requestRender() {
  if (_frame === null) {
    _frame = window.requestAnimationFrame(function () {
      _frame = null;
      render();
    });
  }
}

/**
 * Take a new session and draw it.
 * @param {(import('../puzzles.js').Session|null)} session The session, or null to close the puzzles.
 * @returns {void}
 */
function _set(session) {
  _session = session;
  _requestRender();
}

/**
 * Start the puzzles of a seat of the analysed game shown.
 * @param {{seat: (number|null)}} start The seat.
 * @returns {void}
 */
function _start(start) {
  const seat = start ? Number(start.seat) : NaN;
  if (!AnalysisState.document || !_replay || !Number.isInteger(seat)) {
    return;
  }
  _set(Puzzles.start(AnalysisState.document, seat));
  window.scrollTo(0, 0);
}

/**
 * Back to the analysis: the replay shows the step of the decision of the puzzle shown.
 * @returns {void}
 */
function _back() {
  const judgement = _session ? Puzzles.current(_session) : null;
  _set(null);
  if (judgement) {
    EventBus.emit(Events.INTENT_REPLAY_STEP, { step: judgement.step });
  }
  render();
  _elements['analysis-learn'].focus();
}

/**
 * Find the elements and wire the buttons and the events.
 * @returns {void}
 */
function init() {
  ['view-replay', 'analysis-learn', 'puzzle', 'puzzle-title', 'puzzle-back', 'puzzle-empty', 'puzzle-body',
    'puzzle-where', 'puzzle-last', 'puzzle-others', 'puzzle-trick', 'puzzle-own-name', 'puzzle-hand',
    'puzzle-question', 'puzzle-options', 'puzzle-feedback', 'puzzle-retry', 'puzzle-reveal', 'puzzle-prev',
    'puzzle-next'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  const click = function (id, handler) { _elements[id].addEventListener('click', handler); };
  click('puzzle-back', _back);
  click('puzzle-retry', function () { if (_session) { _set(Puzzles.retry(_session)); } });
  click('puzzle-reveal', function () { if (_session) { _set(Puzzles.reveal(_session)); } });
  click('puzzle-prev', function () { if (_session) { _set(Puzzles.go(_session, _session.at - 1)); } });
  click('puzzle-next', function () { if (_session) { _set(Puzzles.go(_session, _session.at + 1)); } });
  click('puzzle-options', function (event) {
    const button = Dom.closestTo(event, 'button[data-option]');
    if (button && _session) {
      _set(Puzzles.answer(_session, Number(button.dataset.option)));
    }
  });
  EventBus.on(Events.INTENT_PUZZLES_START, _start);
  EventBus.on(Events.REPLAY_LOADED, function (loaded) {
    _replay = loaded.document;
    _set(null);
  });
  EventBus.on(Events.REPLAY_CHOOSE, function () {
    _replay = null;
    _set(null);
  });
  EventBus.on(Events.REPLAY_FAILED, function () {
    _replay = null;
    _set(null);
  });
  EventBus.on(Events.UI_VIEW_SHOWN, function (name) {
    if (name !== 'replay') {
      _set(null);
    }
  });
  EventBus.on(Events.INTENT_LANGUAGE, _requestRender);
}

/**
 * The puzzles of "learn from your mistakes".
 * @namespace PuzzleView
 */
export const PuzzleView = Object.freeze({ init, render, plainText, shortText, feedbackText });

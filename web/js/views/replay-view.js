/**
 * @file ReplayView: a game replayed step by step through the rules (the steps come from the
 * server, docs/server.md): the four open hands, the trick, calls, wish and score, a line that
 * says what happened, and the controls (first, back, play/pause at a speed, forward, last,
 * jump to a round or trick; keys ←/→, Home/End, Space). The address follows the step
 * (`#replay=<id>&step=<n>`), so that it can be shared. A record file dropped on the page or
 * chosen with "Open a record" opens here too. A stored game's analysis is drawn into the view
 * by the AnalysisView (called from {@link render}; its jumps come back as `intent:replay-step`),
 * and the round and trick selects mark the mistakes and blunders of their steps.
 */

import { AnalysisState } from '../analysis-state.js';
import { Analysis } from '../analysis.js';
import { CardLabels } from '../card-labels.js';
import { EventBus } from '../event-bus.js';
import { Events } from '../events.js';
import { I18n } from '../i18n.js';
import { ReplayController } from '../replay-controller.js';
import { ViewManager } from '../view-manager.js';
import { AnalysisView } from './analysis-view.js';
import { CardBuilder } from './card-builder.js';
import { Dom } from './dom.js';
import { LineView } from './line-view.js';

/** @type {number} Milliseconds per step at speed 1×. */
const STEP_MS = 1000;
/** @type {number[]} The speeds offered. */
const SPEEDS = [0.5, 1, 2, 4];
/** @type {number} Plays of the open trick shown (the older ones are counted). */
const TRICK_SHOWN = 4;

/** @type {Object<string, string>} The controls' icons: SVG paths in a 100×100 box (`chevron` ones are strokes). */
const _ICONS = {
  first: 'M20 16 V84 M76 16 L42 50 L76 84',
  prev: 'M66 16 L32 50 L66 84',
  next: 'M34 16 L68 50 L34 84',
  last: 'M80 16 V84 M24 16 L58 50 L24 84',
  play: 'M28 14 L84 50 L28 86 Z',
  pause: 'M24 16 H42 V84 H24 Z M58 16 H76 V84 H58 Z'
};
/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {(Object|null)} The replay document (`{id, players, steps, fault, ...}`). */
let _document = null;
/** @type {(string|null)} The stored game's id (null for a file: no shareable address). */
let _gameId = null;
/** @type {number} The step shown. */
let _index = 0;
/** @type {({key: string, detail: string}|null)} Why nothing can be shown. */
let _error = null;
/** @type {(Array<Object>|null)} The records of a file of several, to choose from. */
let _choices = null;
/** @type {(number|null)} The playback timer. */
let _timer = null;
/** @type {number} */
let _speed = 1;
/** @type {string} What the selects were last built for (rebuilt when it changes). */
let _builtFor = '';

/**
 * A seat's name at the step shown: the record's player, or who held the seat then when the
 * seat changed hands ("Bot 3 for Ben": the step's `names`, docs/server.md).
 * @param {number} seat 0..3.
 * @returns {string} The name.
 */
function _name(seat) {
  const players = (_document && _document.players) || [];
  const player = players[seat] ? String(players[seat]) : I18n.t('replay.seat', { n: seat + 1 });
  const step = _document && _document.steps ? _document.steps[_index] : null;
  const then = step && step.names ? step.names[seat] : null;
  return then && then !== player ? I18n.t('replay.substitute', { name: then, player: player }) : player;
}

/**
 * A value in words: 7, Jack, Ace.
 * @param {number} value 2..14.
 * @returns {string} The word.
 */
function _valueName(value) {
  return value >= 11 && value <= 14 ? I18n.t('value.' + value) : String(value);
}

/**
 * A play's combination in words, e.g. "a pair of 7s".
 * @param {{cards: string[], combo: string, rank: number}} step A play or bomb step.
 * @returns {string} The words.
 */
function comboText(step) {
  const cards = step.cards || [];
  const value = _valueName(step.rank);
  if (step.combo === 'single') {
    return I18n.t('replay.combo.single', { card: I18n.cardName(CardLabels.cardOf(cards[0])) });
  }
  if (step.combo === 'bomb') {
    const four = cards.length === 4 && cards.every(function (label) { return label[1] === cards[0][1]; });
    return I18n.t(four ? 'replay.combo.bomb4' : 'replay.combo.bombStreet', { value: value });
  }
  if (['pair', 'triple', 'stair', 'fullhouse', 'street', 'dog'].includes(step.combo)) {
    return I18n.t('replay.combo.' + step.combo, { value: value, count: cards.length });
  }
  return cards.join(' ');
}

/**
 * What a step did, in words.
 * @param {Object} step The step.
 * @returns {string} E.g. "Ada plays a pair of 7s."
 */
function describe(step) {
  const name = step.seat === null || step.seat === undefined ? '' : _name(step.seat);
  switch (step.kind) {
    case 'deal':
      return I18n.t('replay.step.deal', { round: step.round + 1 });
    case 'grand_tichu':
      return step.value && step.value.length
        ? I18n.t('replay.step.grandTichu', { names: step.value.map(_name).join(', ') })
        : I18n.t('replay.step.noGrandTichu');
    case 'push':
      return I18n.t('replay.step.push');
    case 'tichu':
      return I18n.t('replay.step.tichu', { name: name });
    case 'play':
      return I18n.t('replay.step.play', { name: name, combo: comboText(step) });
    case 'bomb':
      return I18n.t('replay.step.bomb', { name: name, combo: comboText(step) });
    case 'pass':
      return I18n.t('replay.step.pass', { name: name });
    case 'wish':
      return step.value ? I18n.t('replay.step.wish', { name: name, value: _valueName(step.value) })
        : I18n.t('replay.step.noWish', { name: name });
    case 'dragon':
      return I18n.t('replay.step.dragon', { name: name, to: _name(step.value), points: step.points });
    case 'trick':
      return I18n.t('replay.step.trick', { name: name, points: step.points });
    case 'round_end':
      return I18n.t(step.double_victory ? 'replay.step.doubleVictory' : 'replay.step.roundEnd', {
        round: step.round + 1, a: step.round_score[0], b: step.round_score[1] });
    default:
      return '';
  }
}

/**
 * The first step of each round and of each trick, for the jump selects.
 * @returns {Array<{round: number, first: number, starts: Array<{label: string, index: number, trick?: number}>}>}
 *   Per round: its first step, and the first steps of its tricks.
 */
function _sections() {
  const rounds = [];
  (_document ? _document.steps : []).forEach(function (step, index) {
    if (!rounds[step.round]) {
      rounds[step.round] = { round: step.round, first: index, starts: [{ label: I18n.t('replay.dealing'), index: index }] };
    }
    const starts = rounds[step.round].starts;
    if (step.kind === 'round_end') {
      starts.push({ label: I18n.t('replay.roundEnd'), index: index });
    }
    else if (step.trick > 0 && !starts.some(function (start) { return start.trick === step.trick; })) {
      starts.push({ label: I18n.t('replay.trickN', { n: step.trick }), index: index, trick: step.trick });
    }
  });
  return rounds.filter(Boolean);
}

/**
 * Show a step (clamped to the steps there are); the address follows.
 * @param {number} index The step.
 * @returns {void}
 */
function go(index) {
  if (!_document || !_document.steps.length) {
    return;
  }
  _index = Math.max(0, Math.min(_document.steps.length - 1, index));
  if (_index === _document.steps.length - 1) {
    _stop();
  }
  _updateHash();
  ViewManager.requestRender();
}

/**
 * Write the step into the address (without a history entry; a stored game only).
 * @returns {void}
 */
function _updateHash() {
  if (_gameId === null || ViewManager.activeView() !== 'replay') {
    return;
  }
  const hash = ReplayController.stepHash(_gameId, _index);
  if (window.location.hash !== hash) {
    window.history.replaceState(null, '', hash);
  }
}

/**
 * Stop the playback.
 * @returns {void}
 */
function _stop() {
  if (_timer !== null) {
    window.clearTimeout(_timer);
    _timer = null;
  }
  ViewManager.requestRender();
}

/**
 * Go one step on after the speed's delay, and on until the end or a stop.
 * @returns {void}
 */
function _schedule() {
  _timer = window.setTimeout(function () {
    _timer = null;
    if (_document && _index < _document.steps.length - 1) {
      go(_index + 1);
      if (_index < _document.steps.length - 1) {
        _schedule();
      }
    }
    ViewManager.requestRender();
  }, STEP_MS / _speed);
}

/**
 * Start or stop the playback (from the start again at the end).
 * @returns {void}
 */
function togglePlay() {
  if (_timer !== null) {
    _stop();
    return;
  }
  if (!_document || !_document.steps.length) {
    return;
  }
  if (_index >= _document.steps.length - 1) {
    go(0);
  }
  _schedule();
  ViewManager.requestRender();
}

/**
 * Handle the keys while the view is shown: ←/→ a step, Home/End the ends, Space plays.
 * @param {KeyboardEvent} event The key.
 * @returns {void}
 */
function _onKey(event) {
  if (ViewManager.activeView() !== 'replay' || !_document || event.altKey || event.ctrlKey || event.metaKey) {
    return;
  }
  if (Dom.closestTo(event, 'select, input, textarea, [role="dialog"], #analysis-chart')
    || _elements['view-replay'].dataset.puzzle) {  // the puzzles (PuzzleView) lie over the replay
    return;
  }
  const actions = {
    ArrowLeft: function () { _stop(); go(_index - 1); },
    ArrowRight: function () { _stop(); go(_index + 1); },
    Home: function () { _stop(); go(0); },
    End: function () { _stop(); go(_document.steps.length - 1); },
    ' ': togglePlay
  };
  if (actions[event.key]) {
    event.preventDefault();
    actions[event.key]();
  }
}

/**
 * Put an icon into a control (its accessible name is its `aria-label`).
 * @param {HTMLElement} button The control.
 * @param {string} name A key of the icon table.
 * @returns {void}
 */
function _setIcon(button, name) {
  if (button.dataset.icon === name) {
    return;
  }
  button.dataset.icon = name;
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('class', 'replay-icon');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', _ICONS[name]);
  path.setAttribute('class', name === 'play' || name === 'pause' ? 'replay-icon-fill' : 'replay-icon-stroke');
  svg.appendChild(path);
  button.replaceChildren(svg);
}

/**
 * Open a file chosen or dropped.
 * @param {(File|null|undefined)} file The file, if any.
 * @returns {void}
 */
function _openFile(file) {
  if (file) {
    EventBus.emit(Events.INTENT_REPLAY_FILE, { file: file });
  }
}

/**
 * Whether a drag carries files.
 * @param {DragEvent} event The drag.
 * @returns {boolean} True for files.
 */
function _carriesFiles(event) {
  return Boolean(event.dataTransfer && Array.from(event.dataTransfer.types || []).includes('Files'));
}

/**
 * Find the elements, build the seats and wire the controls, the keys, the file picker and
 * dropping a file on the page.
 * @returns {void}
 */
function init() {
  ['view-replay', 'replay-title', 'replay-back', 'replay-open', 'replay-score-20', 'replay-score-31',
    'replay-team-20', 'replay-team-31', 'replay-where', 'replay-wish', 'replay-step-text', 'replay-fault',
    'replay-error', 'replay-seats', 'replay-trick', 'replay-records', 'replay-first', 'replay-prev', 'replay-play',
    'replay-next', 'replay-last', 'replay-position', 'replay-round', 'replay-trick-select', 'replay-speed',
    'replay-file-input', 'login-open-record'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  const seats = [];
  for (let seat = 0; seat < 4; seat++) {
    const box = document.createElement('div');
    box.className = 'replay-seat team-' + (seat % 2 === 0 ? '20' : '31');
    box.dataset.seat = String(seat);
    const head = document.createElement('div');
    head.className = 'replay-seat-head';
    ['replay-seat-name', 'replay-seat-call', 'replay-seat-mark', 'replay-seat-info'].forEach(function (name) {
      const part = document.createElement('span');
      part.className = name;
      head.appendChild(part);
    });
    const hand = document.createElement('div');
    hand.className = 'replay-hand';
    box.appendChild(head);
    box.appendChild(hand);
    seats.push(box);
  }
  _elements['replay-seats'].replaceChildren(...seats);
  SPEEDS.forEach(function (speed) {
    const option = document.createElement('option');
    option.value = String(speed);
    option.textContent = speed + '×';
    option.selected = speed === _speed;
    _elements['replay-speed'].appendChild(option);
  });
  const click = function (id, handler) { _elements[id].addEventListener('click', handler); };
  click('replay-first', function () { _stop(); go(0); });
  click('replay-prev', function () { _stop(); go(_index - 1); });
  click('replay-play', togglePlay);
  click('replay-next', function () { _stop(); go(_index + 1); });
  click('replay-last', function () { _stop(); go(_document ? _document.steps.length - 1 : 0); });
  click('replay-back', function () {
    _stop();
    EventBus.emit(Events.INTENT_REPLAY_BACK);
  });
  const pick = function () { _elements['replay-file-input'].click(); };
  click('replay-open', pick);
  click('login-open-record', pick);
  _elements['replay-file-input'].addEventListener('change', function () {
    const input = /** @type {HTMLInputElement} */ (_elements['replay-file-input']);
    const file = input.files && input.files[0];
    input.value = '';
    _openFile(file);
  });
  _elements['replay-round'].addEventListener('change', function (event) {
    _stop();
    go(Number(Dom.valueOf(event)));
  });
  _elements['replay-trick-select'].addEventListener('change', function (event) {
    _stop();
    go(Number(Dom.valueOf(event)));
  });
  _elements['replay-speed'].addEventListener('change', function (event) {
    _speed = Number(Dom.valueOf(event)) || 1;
    if (_timer !== null) {
      window.clearTimeout(_timer);
      _schedule();
    }
  });
  _elements['replay-records'].addEventListener('click', function (event) {
    const button = Dom.closestTo(event, 'button[data-index]');
    if (button) {
      EventBus.emit(Events.INTENT_REPLAY_CHOOSE, { index: Number(button.dataset.index) });
    }
  });
  document.addEventListener('keydown', _onKey);
  document.addEventListener('dragover', function (event) {
    if (event.dataTransfer && _carriesFiles(event)) {
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
    }
  });
  document.addEventListener('drop', function (event) {
    if (event.dataTransfer && _carriesFiles(event)) {
      event.preventDefault();
      _openFile(event.dataTransfer.files[0]);
    }
  });
  EventBus.on(Events.REPLAY_LOADED, function (loaded) {
    _stop();
    _document = loaded.document;
    _gameId = loaded.gameId;
    _error = null;
    _choices = null;
    _builtFor = '';
    const last = Math.max(0, _document.steps.length - 1);
    _index = Math.min(last, loaded.step === null || loaded.step === undefined ? 0 : loaded.step);
  });
  EventBus.on(Events.REPLAY_CHOOSE, function (choice) {
    _stop();
    _document = null;
    _gameId = null;
    _error = null;
    _choices = choice.records;
  });
  EventBus.on(Events.REPLAY_FAILED, function (failure) {
    _stop();
    _document = null;
    _gameId = null;
    _choices = null;
    _error = failure;
  });
  EventBus.on(Events.UI_VIEW_SHOWN, function (name) {
    if (name !== 'replay') {
      _stop();
    }
  });
  EventBus.on(Events.INTENT_REPLAY_STEP, function (jump) {
    _stop();
    go(Number(jump.step));
  });
}

/**
 * Called when the view is shown: the address names the step.
 * @returns {void}
 */
function onShow() {
  _updateHash();
}

/**
 * Fill a select with options (when they changed).
 * @param {HTMLSelectElement} select The select.
 * @param {Array<{label: string, index: number}>} options The options; the value is the step.
 * @param {number} chosen The value to select.
 * @returns {void}
 */
function _fillSelect(select, options, chosen) {
  const key = options.map(function (option) { return option.index + ':' + option.label; }).join('|');
  if (select.dataset.options !== key) {
    select.dataset.options = key;
    select.replaceChildren(...options.map(function (option) {
      const element = document.createElement('option');
      element.value = String(option.index);
      element.textContent = option.label;
      return element;
    }));
  }
  select.value = String(chosen);
}

/**
 * Draw the round and trick selects for the step shown.
 * @param {Object} step The step.
 * @returns {void}
 */
function _drawJumps(step) {
  const sections = _sections();
  const rounds = sections.map(function (section, at) {
    const end = at + 1 < sections.length ? sections[at + 1].first : _document.steps.length;
    return { label: _marked(I18n.t('replay.roundN', { n: section.round + 1 }), section.first, end),
      index: section.first };
  });
  const current = sections.find(function (section) { return section.round === step.round; }) || sections[0];
  _fillSelect(/** @type {HTMLSelectElement} */ (_elements['replay-round']), rounds, current.first);
  let chosen = current.starts[0].index;
  current.starts.forEach(function (start) {
    if (start.index <= _index) {
      chosen = start.index;
    }
  });
  const next = sections[sections.indexOf(current) + 1];
  const roundEnd = next ? next.first : _document.steps.length;
  _fillSelect(/** @type {HTMLSelectElement} */ (_elements['replay-trick-select']), current.starts.map(function (start, at) {
    const end = at + 1 < current.starts.length ? current.starts[at + 1].index : roundEnd;
    return { label: _marked(start.label, start.index, end), index: start.index };
  }), chosen);
}

/**
 * A jump's label with the marker of the worst mistake or blunder of its steps, if any
 * (the game's analysis, AnalysisState).
 * @param {string} label The label.
 * @param {number} from The jump's first step.
 * @param {number} to The step after its last.
 * @returns {string} E.g. "Trick 3 ◆".
 */
function _marked(label, from, to) {
  const state = AnalysisState;
  const worst = state.status === 'done' ? Analysis.worstLabel(state.document, from, to) : null;
  return worst ? label + ' ' + AnalysisView.SYMBOLS[worst] : label;
}

/**
 * A group of cards with a caption (a play in the trick, a push, a trick taken).
 * @param {string} caption The caption.
 * @param {string[]} labels The cards.
 * @param {string} className Extra class.
 * @returns {HTMLElement} The `.replay-play`.
 */
function _group(caption, labels, className) {
  const group = document.createElement('div');
  group.className = 'replay-play ' + className;
  const label = document.createElement('span');
  label.className = 'replay-play-name';
  label.textContent = caption;
  const cards = document.createElement('div');
  cards.className = 'replay-play-cards';
  (labels || []).map(CardLabels.cardOf).forEach(function (card) { cards.appendChild(CardBuilder.build(card)); });
  group.appendChild(label);
  group.appendChild(cards);
  return group;
}

/**
 * Draw the middle: the open trick's last plays, the pushes, or the trick just taken.
 * @param {Object} step The step.
 * @returns {void}
 */
function _drawTrick(step) {
  const groups = [];
  if (step.kind === 'push') {
    step.push.forEach(function (cards, seat) {
      groups.push(_group(I18n.t('replay.pushed', { name: _name(seat) }), cards, 'seat-' + seat));
    });
  }
  else if (step.kind === 'trick' || step.kind === 'dragon') {
    const taker = step.kind === 'dragon' ? step.value : step.seat;
    groups.push(_group(I18n.t('replay.taken', { name: _name(taker), points: step.points }), step.cards, 'taken'));
  }
  else {
    const turns = step.trick_turns || [];
    const shown = turns.slice(-TRICK_SHOWN);
    if (turns.length > shown.length) {
      const more = document.createElement('p');
      more.className = 'replay-earlier';
      more.textContent = I18n.t('replay.earlier', { n: turns.length - shown.length });
      groups.push(more);
    }
    shown.forEach(function (turn, position) {
      const last = position === shown.length - 1;
      groups.push(_group(_name(turn.seat), turn.cards, 'seat-' + turn.seat + (last ? ' top' : '')));
    });
  }
  _elements['replay-trick'].replaceChildren(...groups);
}

/**
 * The seats that passed since the open trick's last play (the steps just before).
 * @returns {Set<number>} The seats.
 */
function _passedSeats() {
  const passed = new Set();
  for (let index = _index; index >= 0; index--) {
    const step = _document.steps[index];
    if (step.kind === 'pass') {
      passed.add(step.seat);
    }
    else if (step.kind !== 'tichu') {
      break;
    }
  }
  return passed;
}

/** @type {Set<string>} The kinds of steps before a round's play begins (no one is to play yet). */
const _BEFORE_PLAY = new Set(['deal', 'grand_tichu', 'tichu']);

/**
 * Whether the play of the round has begun at the step shown: a step since the round's deal
 * that is not the deal, a Grand Tichu decision or a call (the push, a play, ...). Before it
 * the step's `turn` is only the seat whose decision the record takes next, not a seat to play.
 * @returns {boolean} True once someone is to play.
 */
function _playBegun() {
  for (let index = _index; index >= 0; index--) {
    const kind = _document.steps[index].kind;
    if (kind === 'deal') {
      return false;
    }
    if (!_BEFORE_PLAY.has(kind)) {
      return true;
    }
  }
  return false;
}

/**
 * Draw the four seats: name, call, mark (turn, passed, out), points, and the open hand.
 * @param {Object} step The step.
 * @returns {void}
 */
function _drawSeats(step) {
  const passed = _passedSeats();
  const turn = _playBegun() ? step.turn : null;
  Array.from(_elements['replay-seats'].children).forEach(function (box, seat) {
    const parts = /** @type {HTMLCollectionOf<HTMLElement>} */ (/** @type {Element} */ (box.firstChild).children);
    const call = step.calls[seat];
    const place = step.out_order.indexOf(seat);
    parts[0].textContent = _name(seat);
    parts[1].textContent = call ? I18n.t('call.' + call) : '';
    parts[1].hidden = !call;
    let mark = '';
    if (place >= 0) {
      mark = I18n.t('replay.out', { place: place + 1 });
    }
    else if (passed.has(seat)) {
      mark = I18n.t('replay.passed');
    }
    else if (turn === seat) {
      mark = I18n.t('replay.turn');
    }
    parts[2].textContent = mark;
    parts[2].hidden = !mark;
    parts[3].textContent = I18n.t('replay.won', { points: step.won_points[seat], tricks: step.tricks_won[seat] });
    box.classList.toggle('acting', step.seat === seat);
    box.classList.toggle('turn', turn === seat);
    box.setAttribute('aria-label', I18n.t('replay.seatLabel', { name: _name(seat), count: step.hands[seat].length }));
    CardBuilder.syncCards(/** @type {HTMLElement} */ (box.lastChild), CardLabels.cardsOf(step.hands[seat]));
  });
}

/**
 * Draw the records of a file to choose from.
 * @returns {void}
 */
function _drawChoices() {
  _elements['replay-records'].replaceChildren(...(_choices || []).map(function (record, position) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'replay-record';
    button.dataset.index = String(record.index ?? position);
    const score = Array.isArray(record.score) ? record.score.join(' : ') : '';
    button.textContent = I18n.t('replay.recordN', { n: position + 1, players: (record.players || []).join(', '),
      score: score });
    return button;
  }));
}

/**
 * Draw the view.
 * @returns {void}
 */
function render() {
  const view = _elements['view-replay'];
  const steps = _document ? _document.steps : [];
  const state = _error ? 'failed' : (_choices ? 'choosing' : (steps.length ? 'showing' : 'failed'));
  view.dataset.state = state;
  _elements['replay-back'].textContent = I18n.t('replay.back');
  _elements['replay-open'].textContent = I18n.t('replay.open');
  _elements['replay-error'].hidden = state !== 'failed';
  _elements['replay-records'].hidden = state !== 'choosing';
  if (state !== 'showing') {
    AnalysisView.draw(null);
    LineView.draw(null);
  }
  if (state === 'failed') {
    _elements['replay-title'].textContent = I18n.t('replay.title');
    const error = _error || { key: 'replay.empty', detail: (_document && _document.fault || {}).reason || '' };
    _elements['replay-error'].textContent = I18n.t(error.key) + (error.detail ? ' (' + error.detail + ')' : '');
    return;
  }
  if (state === 'choosing') {
    _elements['replay-title'].textContent = I18n.t('replay.choose');
    _drawChoices();
    return;
  }
  const step = steps[_index];
  _elements['replay-title'].textContent = I18n.t('replay.title') + ': ' + [0, 1, 2, 3].map(_name).join(', ');
  _elements['replay-team-20'].textContent = _name(0) + ' & ' + _name(2);
  _elements['replay-team-31'].textContent = _name(1) + ' & ' + _name(3);
  _elements['replay-score-20'].textContent = String(step.score[0]);
  _elements['replay-score-31'].textContent = String(step.score[1]);
  _elements['replay-where'].textContent = step.trick > 0
    ? I18n.t('replay.whereTrick', { round: step.round + 1, trick: step.trick })
    : I18n.t('replay.where', { round: step.round + 1 });
  _elements['replay-wish'].textContent = step.wish && step.wish_open
    ? I18n.t('trick.wish', { value: _valueName(step.wish) }) : '';
  _elements['replay-wish'].hidden = !(step.wish && step.wish_open);
  _elements['replay-step-text'].textContent = describe(step);
  const fault = _document.fault;
  const atFault = fault && _index === steps.length - 1;
  _elements['replay-fault'].hidden = !atFault;
  _elements['replay-fault'].textContent = atFault
    ? I18n.t(_document.aborted && fault.rule === 'R7.4' ? 'replay.aborted' : 'replay.fault',
      { rule: fault.rule, reason: fault.reason }) : '';
  _elements['replay-position'].textContent = I18n.t('replay.position', { n: _index + 1, total: steps.length });
  _drawSeats(step);
  _drawTrick(step);
  AnalysisView.draw({ steps: steps, index: _index, name: _name,
    names: (_document.players || []).map(String) });
  LineView.draw({ gameId: _gameId, steps: steps, index: _index, name: _name });
  if (_builtFor !== I18n.getLanguage()) {
    _builtFor = I18n.getLanguage();
    _elements['replay-round'].dataset.options = '';
    _elements['replay-trick-select'].dataset.options = '';
  }
  _drawJumps(step);
  const playing = _timer !== null;
  const labels = { 'replay-first': 'replay.first', 'replay-prev': 'replay.prev', 'replay-next': 'replay.next',
    'replay-last': 'replay.last', 'replay-play': playing ? 'replay.pause' : 'replay.play' };
  Object.keys(labels).forEach(function (id) {
    _elements[id].setAttribute('aria-label', I18n.t(labels[id]));
    _elements[id].title = I18n.t(labels[id]);
  });
  _setIcon(_elements['replay-first'], 'first');
  _setIcon(_elements['replay-prev'], 'prev');
  _setIcon(_elements['replay-next'], 'next');
  _setIcon(_elements['replay-last'], 'last');
  _setIcon(_elements['replay-play'], playing ? 'pause' : 'play');
  _elements['replay-play'].setAttribute('aria-pressed', String(playing));
  /** @type {HTMLButtonElement} */ (_elements['replay-first']).disabled = _index === 0;
  /** @type {HTMLButtonElement} */ (_elements['replay-prev']).disabled = _index === 0;
  /** @type {HTMLButtonElement} */ (_elements['replay-next']).disabled = _index === steps.length - 1;
  /** @type {HTMLButtonElement} */ (_elements['replay-last']).disabled = _index === steps.length - 1;
}

/**
 * The replay viewer.
 * @namespace ReplayView
 */
export const ReplayView = Object.freeze({ init, onShow, render, go, togglePlay, describe, comboText });

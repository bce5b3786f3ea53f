/**
 * @file TableView: the table. It keeps what is only on screen (selected cards, cards in the
 * push zones, the received cards to highlight), turns taps into intents on the EventBus, and
 * draws the table through its helpers (SeatsPanel, CenterPanel, HandPanel, ActionBar).
 */

import { EventBus } from '../event-bus.js';
import { Events } from '../events.js';
import { I18n } from '../i18n.js';
import { IdleSeats } from '../idle-seats.js';
import { Lib } from '../lib.js';
import { Modals } from '../modals.js';
import { Notifications, Phases } from '../protocol.js';
import { State } from '../state.js';
import { Dom } from './dom.js';
import { ActionBar } from './table/action-bar.js';
import { AutoPassBar } from './table/auto-pass-bar.js';
import { CenterPanel } from './table/center-panel.js';
import { HandArranger } from './table/hand-arranger.js';
import { HandPanel } from './table/hand-panel.js';
import { SeatsPanel } from './table/seats-panel.js';
import { TableControls } from './table/table-controls.js';
import { TrickReview } from './table/trick-review.js';

/**
 * What is only on screen.
 * `nextHint` is the request and the index of the hinted play the Hint button selected last;
 * `ownAction` what the own seat did last in the open trick (TableControls.ownAction);
 * `received` the cards received in the exchange (key → the seat that pushed it), highlighted in
 * the hand with whom each came from until the seat's first play or pass of the round.
 * @type {{selected: Set<string>, push: Object<string, (string|null)>, received: Map<string, number>,
 *   resultDismissed: boolean, nextHint: {requestId: (string|null), index: (number|null)},
 *   ownAction: (string|null)}}
 */
const _ui = {
  selected: new Set(),
  push: { right: null, partner: null, left: null },
  received: new Map(),
  resultDismissed: false,
  nextHint: { requestId: null, index: null },
  ownAction: null
};

/** @type {string} The tag of the hint's toast: it goes when the turn moves on. */
const _HINT_TOAST = 'hint';
/** @type {Set<string>} The events after which the hint's toast no longer holds. */
const _TURN_MOVED = new Set(['request', Notifications.PLAYER_PLAYED, Notifications.PLAYER_PASSED, Notifications.PLAYER_TURN_CHANGED, Notifications.TRICK_TAKEN,
  Notifications.ROUND_OVER, Notifications.REQUEST_CANCELLED]);

/**
 * Forget the selection and the push zones.
 * @returns {void}
 */
function _resetCards() {
  _ui.selected = new Set();
  _ui.push = { right: null, partner: null, left: null };
  _ui.nextHint = { requestId: null, index: null };
}

/**
 * Ask for a render in the next animation frame.
 * @returns {void}
 */
function _requestRender() {
  EventBus.emit(Events.UI_RENDER);
}

/**
 * Send the answer to the open request.
 * @param {string} action The request's action.
 * @param {Object} data The `response_data`.
 * @returns {void}
 */
function _respond(action, data) {
  EventBus.emit(Events.INTENT_RESPOND, { action: action, data: data });
}

/**
 * The cards lying in the push zones, by target.
 * @returns {Object<string, (number[]|null)>} `right`, `partner`, `left`.
 */
function _zoneCards() {
  /** @type {Object<string, (number[]|null)>} */
  const cards = {};
  for (const target of Lib.PUSH_TARGETS) {
    cards[target] = _ui.push[target] ? Lib.parseCardKey(_ui.push[target]) : null;
  }
  return cards;
}

/**
 * The cards of a `[right, partner, left]` triple by target.
 * @param {number[][]} triple The three cards.
 * @returns {Object<string, number[]>} `right`, `partner`, `left`.
 */
function _byTarget(triple) {
  return { right: triple[0], partner: triple[1], left: triple[2] };
}

/**
 * The hand as drawn: in the push step without the cards in the push zones (or pushed) and
 * without received cards (the private state may bring them just before `start_playing`).
 * @returns {number[][]} The cards.
 */
function _visibleHand() {
  let cards = State.hand();
  if (State.public.phase === Phases.SCHUPF) {
    const given = State.private.given_schupf_cards;
    const zones = _zoneCards();
    cards = Lib.withoutCards(cards, given || Lib.PUSH_TARGETS.map(function (target) { return zones[target]; })
      .filter(Boolean));
  }
  // the private state may bring the received cards just before start_playing (docs/server.md,
  // "What a seat may do beyond its turn"): they join the hand with it
  if (State.public.phase === Phases.SCHUPF && State.private.received_schupf_cards) {
    cards = Lib.withoutCards(cards, State.private.received_schupf_cards);
  }
  return cards;
}

/**
 * The selected cards that are in the drawn hand.
 * @returns {number[][]} The cards.
 */
function _selection() {
  const keys = new Set(_visibleHand().map(Lib.cardKey));
  return Array.from(_ui.selected).filter(function (key) { return keys.has(key); }).map(Lib.parseCardKey);
}

/**
 * The push zones' contents and whether they take cards, or null when they are hidden (they
 * show only in the push step).
 * @returns {{zones: (Object<string, (number[]|null)>|null), active: boolean}} The zones.
 */
function _zoneModel() {
  if (State.public.phase === Phases.SCHUPF && State.hand().length) {
    const given = State.private.given_schupf_cards;
    return given ? { zones: _byTarget(given), active: false }
      : { zones: _zoneCards(), active: State.requestAction() === 'schupf' };
  }
  return { zones: null, active: false };
}

/**
 * The open `play` request's legal plays.
 * @returns {number[][][]} The plays, or `[]` without such a request.
 */
function _legalPlays() {
  return State.request && State.request.action === 'play' ? State.request.context.legal_plays || [] : [];
}

/**
 * The number of cards in the push zones.
 * @returns {number} 0..3.
 */
function _pushCount() {
  return Lib.PUSH_TARGETS.filter(function (target) { return _ui.push[target]; }).length;
}

/**
 * The status line: what this seat is to do, or who is playing.
 * @returns {string} The text.
 */
function _statusText() {
  const state = State.public;
  const action = State.requestAction();
  if (action === 'wish' || action === 'give_dragon_away') {
    return I18n.t(action === 'wish' ? 'status.wish' : 'status.dragon');
  }
  if (state.phase === Phases.GRAND_TICHU) {
    return action === 'announce_grand_tichu' ? I18n.t('status.grandTichu') : _waitingText();
  }
  if (state.phase === Phases.SCHUPF) {
    if (action !== 'schupf') {
      return _waitingText();
    }
    return I18n.t(_pushCount() === 3 ? 'status.pushReady' : 'status.push');
  }
  if (state.phase === Phases.ROUND_OVER) {
    return I18n.t('status.roundOver');
  }
  if (state.phase === Phases.GAME_OVER) {
    return I18n.t('status.gameOver');
  }
  if (state.phase !== Phases.PLAYING) {
    return '';
  }
  return _playingStatus(action);
}

/**
 * "Waiting for the others…", naming those whose clock runs (IdleSeats: everyone's clock is
 * known), e.g. "Waiting for Max…" while the others have decided.
 * @returns {string} The text.
 */
function _waitingText() {
  const names = Object.keys(IdleSeats.clocks).map(Number).filter(function (seat) {
    return seat !== State.playerIndex;
  }).sort(function (first, second) { return first - second; }).map(State.displayName);
  if (!names.length) {
    return I18n.t('status.waiting');
  }
  const last = names[names.length - 1];
  const others = names.slice(0, -1);
  return I18n.t('status.waitingFor', { names: others.length ? I18n.t('status.names', { first: others.join(', '),
    last: last }) : last });
}

/**
 * The status line while playing.
 * @param {(string|null)} action The open request's action.
 * @returns {string} The text.
 */
function _playingStatus(action) {
  const place = State.playerIndex !== null && State.placeOf(State.playerIndex);
  if (place) {
    return I18n.t('status.out', { place: I18n.t('place.' + place) });
  }
  if (action === 'play') {
    if (!_legalPlays().some(function (play) { return play.length > 0; })) {
      return I18n.t('status.noMove');
    }
    const problem = _selectionProblem();
    if (problem) {
      return I18n.t(problem.key, problem.params);
    }
    return I18n.t(State.request && State.request.action === 'play' && State.request.context.trick_combination
      ? 'status.yourTurn' : 'status.yourLead');
  }
  // right after the own action: "You passed. Bot 2 is playing.", never "Ada is playing" to Ada
  const status = TableControls.turnStatus({ turn: State.public.current_turn_index, seat: State.playerIndex,
    ownAction: _ui.ownAction, agentPlays: State.playerIndex !== null && IdleSeats.handedOver.has(State.playerIndex) });
  if (status && status.key === 'status.waiting') {
    return _waitingText();
  }
  return status ? I18n.t(status.key, { name: status.seat === null ? '' : State.displayName(status.seat) }) : '';
}

/**
 * Why the selection cannot be played, in words for the status line.
 * @returns {({key: string, params: Object<string, (string|number)>}|null)} The I18n key and parameters, or null.
 */
function _selectionProblem() {
  const request = State.request;
  const context = request && request.action === 'play' ? request.context : null;
  const problem = TableControls.selectionProblem({
    selection: _selection(),
    legalPlays: _legalPlays(),
    trickCombination: (context && context.trick_combination) || null,
    wishValue: (context && Number(context.wish_value)) || 0
  });
  if (problem && problem.key === 'reason.wish') {
    return { key: problem.key, params: { value: I18n.valueLabel(Number(problem.params.value)) } };
  }
  if (problem && (problem.key === 'reason.beat' || problem.key === 'reason.shape')) {
    return { key: problem.key, params: { combo: I18n.t('combo.' + problem.params.combo) } };
  }
  return problem;
}

/**
 * Select the server's next hinted play (the Hint button): the best one first, then on each
 * press the next; a hinted pass clears the selection and says so.
 * @returns {void}
 */
function _selectNextHint() {
  const hints = State.hintPlays();
  const requestId = State.request ? State.request.request_id : null;
  const last = _ui.nextHint.requestId === requestId ? _ui.nextHint.index : null;
  const index = Lib.nextHintIndex(hints, _selection(), last);
  if (index < 0) {
    return;
  }
  _ui.nextHint = { requestId: requestId, index: index };
  _ui.selected = new Set(hints[index].map(Lib.cardKey));
  if (!hints[index].length) {
    EventBus.emit(Events.UI_TOAST, { text: I18n.t('notice.hintPass'), tag: _HINT_TOAST });
  }
}

/**
 * A click on an action button, by the job its state names.
 * @param {string} name `pass`, `tichu`, `bomb`, `hint` or `play`.
 * @param {import('./table/table-controls.js').ButtonState} state The button's state.
 * @returns {void}
 */
function _onButton(name, state) {
  const job = state.job;
  if (job === 'continue') {
    _respond('announce_grand_tichu', { announced: false });
  }
  else if (job === 'pass') {
    _ui.selected = new Set();
    _respond('play', { cards: [] });
  }
  else if (job === 'announce') {
    // a Tichu call is worth 100 points either way: one tap next to Pass must not make it
    Modals.confirm('confirm.tichu', function () { EventBus.emit(Events.INTENT_ANNOUNCE); },
      { yes: 'confirm.tichuYes', no: 'confirm.cancel' });
  }
  else if (job === 'nextHint') {
    _selectNextHint();
  }
  else if (job === 'play') {
    const play = Lib.findLegalPlay(_selection(), _legalPlays());
    if (play) {
      _ui.selected = new Set();
      _respond('play', { cards: play });
    }
  }
  else if (job === 'push') {
    const zones = _zoneCards();
    _respond('schupf', { given_schupf_cards: Lib.PUSH_TARGETS.map(function (target) { return zones[target]; }) });
  }
  else if (job === 'select') {
    _ui.selected = new Set((state.cards || []).map(Lib.cardKey));
  }
  else if (job === 'throw') {
    _ui.selected = new Set();
    if (State.requestAction() === 'play') {
      _respond('play', { cards: state.cards });
    }
    else {
      EventBus.emit(Events.INTENT_BOMB, { cards: state.cards });
    }
  }
  _requestRender();
}

/**
 * A tap on a hand card: in the push step it picks one card, while playing it toggles the
 * card's selection.
 * @param {string} key The card's key.
 * @returns {void}
 */
function _onHandCard(key) {
  const phase = State.public.phase;
  if (phase === Phases.SCHUPF && State.requestAction() === 'schupf') {
    _ui.selected = _ui.selected.has(key) ? new Set() : new Set([key]);
  }
  else if (phase === Phases.PLAYING) {
    if (!_ui.selected.delete(key)) {
      _ui.selected.add(key);
    }
  }
  else {
    return;
  }
  _requestRender();
}

/**
 * A tap on a push zone: it takes the picked hand card, or gives its card back.
 * @param {string} target `right`, `partner` or `left`.
 * @returns {void}
 */
function _onZone(target) {
  if (State.requestAction() !== 'schupf') {
    return;
  }
  const picked = _selection()[0];
  if (picked) {
    _ui.push[target] = Lib.cardKey(picked);
    _ui.selected = new Set();
  }
  else {
    _ui.push[target] = null;
  }
  _requestRender();
}

/**
 * Close the round's result; after the game's last round, go on to the score sheet.
 * @returns {void}
 */
function _closeResult() {
  if (State.public.phase === Phases.GAME_OVER) {
    EventBus.emit(Events.INTENT_SHOW_SCORES);
    return;
  }
  _ui.resultDismissed = true;
  _requestRender();
}

/**
 * The received cards and who pushed each (`received_schupf_cards` is `[from_right,
 * from_partner, from_left]`, R2.3).
 * @param {number[][]} cards The received cards.
 * @returns {Map<string, number>} Card key → the giver's seat.
 */
function _receivedFrom(cards) {
  const own = State.playerIndex === null ? 0 : State.playerIndex;
  return new Map(cards.map(function (card, index) {
    return [Lib.cardKey(card), Lib.seatOfTarget(own, Lib.PUSH_TARGETS[index])];
  }));
}

/**
 * Keep the screen-only state in step with the game.
 * @param {import('../events.js').StateChange} change What changed.
 * @returns {void}
 */
function _onStateChanged(change) {
  const event = change.event;
  if (_TURN_MOVED.has(event)) {
    EventBus.emit(Events.UI_TOAST_DROP, _HINT_TOAST);
  }
  _ui.ownAction = TableControls.ownAction(_ui.ownAction, change, State.playerIndex);
  if (event === Notifications.ROUND_STARTED || (change.event === Notifications.PLAYER_JOINED && 'session_id' in change.context)) {
    _resetCards();
    _ui.received = new Map();
  }
  else if (event === Notifications.START_PLAYING) {
    // the received cards go straight into the hand, highlighted (no step that costs clock time)
    _resetCards();
    _ui.received = _receivedFrom(State.private.received_schupf_cards || []);
  }
  else if (_ui.ownAction !== null) {
    _ui.received = new Map();  // the seat played or passed: the highlight has done its job
  }
  else if (event === Notifications.ROUND_OVER) {
    _ui.resultDismissed = false;
  }
  const held = new Set(State.hand().map(Lib.cardKey));
  _ui.selected.forEach(function (key) {
    if (!held.has(key)) {
      _ui.selected.delete(key);
    }
  });
}

/**
 * Find the elements and wire the taps.
 * @returns {void}
 */
function init() {
  const root = Dom.byId('view-table');
  SeatsPanel.init(root);
  CenterPanel.init(root);
  HandPanel.init();
  HandArranger.init();
  TrickReview.init();
  AutoPassBar.init();
  ActionBar.init({
    onClick: _onButton,
    onLongPress: function () { _respond('announce_grand_tichu', { announced: true }); },
    onShortPress: function () { EventBus.emit(Events.UI_TOAST, I18n.t('notice.longPress')); }
  });
  Dom.byId('hand').addEventListener('click', function (event) {
    const card = Dom.closestTo(event, '.card');
    if (card && card.dataset.card) {
      _onHandCard(card.dataset.card);
    }
  });
  for (const zone of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('.push-zone'))) {
    const target = zone.dataset.target;
    if (target) {
      zone.addEventListener('click', function () { _onZone(target); });
    }
  }
  Dom.byId('round-result').addEventListener('click', function (event) {
    if (Dom.closestTo(event, '.result-close')) {
      _closeResult();
    }
    else if (Dom.closestTo(event, '.line-back')) {
      EventBus.emit(Events.INTENT_LINE_BACK);
    }
  });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && !root.hidden && !Dom.byId('round-result').hidden) {
      _closeResult();
    }
  });
  EventBus.on(Events.STATE_CHANGED, _onStateChanged);
  EventBus.on(Events.INTENT_RESPOND, function (answer) {
    // the own pass or play, said at once (the server's notification confirms it); this
    // runs before the AppController sends the answer and closes the request
    if (answer.action === 'play' && State.requestAction() === 'play') {
      _ui.ownAction = answer.data.cards.length ? 'play' : 'pass';
    }
  });
}

/**
 * Draw the table from the State and the screen-only state.
 * @returns {void}
 */
function render() {
  const phase = State.public.phase;
  const zones = _zoneModel();
  SeatsPanel.render();
  const final = phase === Phases.GAME_OVER;
  CenterPanel.render({
    zones: zones.zones,
    zonesActive: zones.active,
    showResult: final || (!_ui.resultDismissed && (phase === Phases.ROUND_OVER || phase === Phases.GRAND_TICHU)),
    final: final
  });
  const received = new Map(Array.from(_ui.received, function (entry) {
    return [entry[0], State.displayName(entry[1])];
  }));
  HandPanel.render(HandArranger.arrange(_visibleHand()), _ui.selected, { ordered: true, received: received });
  HandArranger.render(_ui.selected);
  TrickReview.render();
  AutoPassBar.render();
  ActionBar.render(TableControls.compute({
    phase: phase,
    requestAction: State.requestAction(),
    legalPlays: _legalPlays(),
    selection: _selection(),
    pushCount: _pushCount(),
    hasPushed: Boolean(State.private.given_schupf_cards),
    canAnnounce: State.canAnnounceTichu(),
    bombs: State.playableBombs(),
    hints: State.hintPlays()
  }), _withClock(_statusText()));
  _tickWhileTimed();
}

/**
 * The status line with the turn clock: the own open request's seconds left, else those of the
 * seat at turn (`turn_clocks`: everyone sees everyone's clock), when a clock runs.
 * @param {string} text The status.
 * @returns {string} The status, and the seconds left.
 */
function _withClock(text) {
  let left = State.requestSecondsLeft();
  const turn = State.public.current_turn_index;
  if (left === null && typeof turn === 'number') {
    left = IdleSeats.secondsLeft(turn, Date.now());
  }
  return left === null ? text : I18n.t('status.clock', { status: text, seconds: left });
}

/** @type {(number|null)} The timer that redraws each second while a timed request is open. */
let _clock = null;

/**
 * Keep the turn clock running while a timed request is open, and stop it after.
 * @returns {void}
 */
function _tickWhileTimed() {
  const timed = State.requestSecondsLeft() !== null;
  if (timed && _clock === null) {
    _clock = window.setInterval(render, 1000);
  }
  else if (!timed && _clock !== null) {
    window.clearInterval(_clock);
    _clock = null;
  }
}

/**
 * The table.
 * @namespace TableView
 */
export const TableView = Object.freeze({ init, render });

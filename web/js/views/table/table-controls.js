/**
 * @file TableControls: the action buttons' labels, enabled states and jobs per phase (design
 * document 8.1.5, bombs 8.1.6, the server's hint) as a pure function of the situation.
 */

import { Lib } from '../../lib.js';
import { Notifications, Phases } from '../../protocol.js';

/**
 * The situation the buttons depend on.
 * @typedef {Object} ControlSituation
 * @property {string} phase `public_state.phase`.
 * @property {(string|null)} requestAction The open request's action, or null.
 * @property {number[][][]} legalPlays The open `play` request's `legal_plays` (else `[]`).
 * @property {number[][]} selection The selected hand cards.
 * @property {number} pushCount Cards lying in the push zones (0..3).
 * @property {boolean} hasPushed Whether this seat's push was sent.
 * @property {boolean} canAnnounce Whether a plain Tichu may be called now.
 * @property {number[][][]} bombs The bombs that may be played now.
 * @property {number[][][]} [hints] The open `play` request's hinted plays (State.hintPlays; `[]` without).
 */

/**
 * One button's state.
 * @typedef {Object} ButtonState
 * @property {string} label The I18n key of its label.
 * @property {boolean} enabled Whether it can be used now.
 * @property {string} [job] What a click does (`play`, `push`, `none`;
 *   for the bomb `select` or `throw`; for Tichu `announce` or `grandTichu`; for the hint
 *   button `nextHint`).
 * @property {boolean} [visible] For the bomb and hint buttons: whether it is shown.
 * @property {number[][]} [cards] For the bomb button: the bomb to select or throw.
 */

/**
 * The four buttons' states.
 * @typedef {Object} ControlStates
 * @property {ButtonState} pass `#btn-pass`.
 * @property {ButtonState} tichu `#btn-tichu`.
 * @property {ButtonState} play `#btn-play`.
 * @property {ButtonState} bomb `#btn-bomb`.
 * @property {ButtonState} hint `#btn-hint`.
 */

/** @type {ButtonState} The hint button where the server sent no hint. */
const _NO_HINT = Object.freeze({ label: 'button.hint', enabled: false, visible: false, job: 'none' });

/**
 * The bomb button: it selects the weakest bomb (the first: the server lists them weakest first,
 * R3.8), or throws the selected one.
 * @param {{bombs: number[][][], selection?: number[][]}} situation The bombs that may be played,
 *   weakest first, and the selected hand cards (none: no bomb is offered).
 * @returns {ButtonState} The state.
 */
function _bombState(situation) {
  if (!situation.bombs.length) {
    return { label: 'button.bomb', enabled: false, visible: false, job: 'none', cards: [] };
  }
  const chosen = situation.bombs.find(function (bomb) { return Lib.sameCards(bomb, situation.selection || []); });
  if (chosen) {
    return { label: 'button.throwBomb', enabled: true, visible: true, job: 'throw', cards: chosen };
  }
  return { label: 'button.bomb', enabled: true, visible: true, job: 'select',
    cards: situation.bombs[0] };
}

/**
 * The hint button: shown at the own turn when the request carries a hint; each click selects
 * the next hinted play.
 * @param {ControlSituation} situation The situation.
 * @returns {ButtonState} The state.
 */
function _hintState(situation) {
  if (!(situation.hints || []).length) {
    return _NO_HINT;
  }
  return { label: 'button.hint', enabled: true, visible: true, job: 'nextHint' };
}

/**
 * The play button at the own turn (8.1.5 B, D): enabled when the selection is a legal play.
 * @param {ControlSituation} situation The situation.
 * @returns {ButtonState} The state.
 */
function _playTurnState(situation) {
  const plays = situation.legalPlays.filter(function (play) { return play.length > 0; });
  if (!plays.length) {
    return { label: 'button.noMove', enabled: false, job: 'none' };
  }
  return { label: 'button.play', enabled: Lib.findLegalPlay(situation.selection, plays) !== null, job: 'play' };
}

/**
 * Why the selected cards cannot be played now, for the status line (the Play button only
 * greys out): the open wish (R5) when every legal play must fulfil it; on a trick (R4: only
 * a higher one of its kind, or a bomb), a selection of another number of cards than the
 * trick's combination (`trick_combination[1]`) forms no combination that goes on it, one of
 * that number does not beat it; on a lead, not a combination at all. Each reason is true of
 * any selection that is not a legal play (a bomb that may be played is one).
 * @param {{selection: number[][], legalPlays: number[][][], trickCombination: ([string, number, number]|null),
 *   wishValue: number}} situation The selection and the open `play` request's context.
 * @returns {({key: string, params: Object<string, (string|number)>}|null)} The I18n key and its parameters, or null
 *   when nothing is selected or the selection is a legal play.
 */
function selectionProblem(situation) {
  const plays = situation.legalPlays.filter(function (play) { return play.length > 0; });
  if (!situation.selection.length || !plays.length || Lib.findLegalPlay(situation.selection, plays)) {
    return null;
  }
  const wish = situation.wishValue;
  /** @param {number[][]} cards A play. @returns {boolean} Whether it holds the wished value. */
  const hasWish = function (cards) { return cards.some(function (card) { return card[0] === wish; }); };
  if (wish > 0 && plays.every(hasWish) && !hasWish(situation.selection)) {
    return { key: 'reason.wish', params: { value: wish } };
  }
  const trick = situation.trickCombination;
  if (trick) {
    const fits = situation.selection.length === trick[1];
    return { key: fits ? 'reason.beat' : 'reason.shape', params: { combo: trick[0] } };
  }
  return { key: 'reason.combination', params: {} };
}

/**
 * What the own seat did last in the open trick, kept over the notifications, so that the
 * status line speaks to the player right after the own action ("You passed."), never of
 * them: `pass` or `play` after the own pass or play (a bomb too), null again once another
 * seat acts, the trick is taken, a round begins or the page (re)joins.
 * @param {(string|null)} previous The value before the notification.
 * @param {import('../../events.js').StateChange} change The notification (or request) taken in.
 * @param {(number|null)} seat The own seat.
 * @returns {(string|null)} `pass`, `play` or null.
 */
function ownAction(previous, change, seat) {
  if (change.event === Notifications.PLAYER_PLAYED) {
    return change.context.turn[0] === seat ? 'play' : null;
  }
  if (change.event === Notifications.PLAYER_PASSED) {
    return change.context.player_index === seat ? 'pass' : null;
  }
  const rejoined = change.event === Notifications.PLAYER_JOINED && 'session_id' in change.context;
  if (change.event === Notifications.TRICK_TAKEN || change.event === Notifications.ROUND_STARTED || rejoined) {
    return null;
  }
  return previous;
}

/**
 * The status line while the own seat waits in a trick (no request open): whose turn it is,
 * after the own action first what the player did, in the second person ("You played."), or,
 * while an agent plays the seat for its idle person, what the agent did ("Your agent
 * played."); the own seat is never named (the turn may still point to it right after the own
 * answer).
 * @param {{turn: (number|null|undefined), seat: (number|null), ownAction: (string|null),
 *   agentPlays?: boolean}} situation The seat at turn, the own seat, TableControls.ownAction
 *   and whether an agent plays the own seat now (IdleSeats.handedOver).
 * @returns {({key: string, seat: (number|null)}|null)} The I18n key and the seat whose name
 *   fills `{name}`, or null when nobody is at turn.
 */
function turnStatus(situation) {
  const turn = situation.turn;
  if (turn === null || turn === undefined) {
    return null;
  }
  const who = situation.agentPlays ? 'status.agent' : 'status.you';
  const own = situation.ownAction === 'pass' ? who + 'Passed' : situation.ownAction === 'play'
    ? who + 'Played' : null;
  if (turn === situation.seat) {
    return { key: own || 'status.waiting', seat: null };
  }
  return { key: own ? own + 'TurnOf' : 'status.turnOf', seat: turn };
}

/**
 * Compute the buttons' states.
 * @param {ControlSituation} situation The situation.
 * @returns {ControlStates} The states.
 */
function compute(situation) {
  const action = situation.requestAction;
  const tichu = { label: 'button.tichu', enabled: situation.canAnnounce, job: 'announce' };
  const idlePlay = { label: 'button.play', enabled: false, job: 'none' };
  const pass = { label: 'button.pass', enabled: false, job: 'pass' };
  if (situation.phase === Phases.GRAND_TICHU) {
    const asked = action === 'announce_grand_tichu';
    return {
      pass: { label: 'button.continue', enabled: asked, job: 'continue' },
      tichu: { label: 'button.grandTichu', enabled: asked, job: 'grandTichu' },
      play: idlePlay,
      bomb: _bombState({ bombs: [] }),
      hint: _NO_HINT
    };
  }
  if (situation.phase === Phases.SCHUPF) {
    const canPush = action === 'schupf' && situation.pushCount === 3;
    return {
      pass: pass,
      tichu: { label: 'button.tichu', enabled: false, job: 'announce' },
      play: { label: 'button.push', enabled: canPush, job: situation.hasPushed ? 'none' : 'push' },
      bomb: _bombState({ bombs: [] }),
      hint: _NO_HINT
    };
  }
  if (situation.phase !== Phases.PLAYING) {
    return { pass: pass, tichu: { label: 'button.tichu', enabled: false, job: 'announce' }, play: idlePlay,
      bomb: _bombState({ bombs: [] }), hint: _NO_HINT };
  }
  if (action === 'play') {
    const canPass = situation.legalPlays.some(function (play) { return play.length === 0; });
    return {
      pass: { label: 'button.pass', enabled: canPass, job: 'pass' },
      tichu: tichu,
      play: _playTurnState(situation),
      bomb: _bombState(situation),
      hint: _hintState(situation)
    };
  }
  return { pass: pass, tichu: tichu, play: idlePlay, bomb: _bombState(situation), hint: _NO_HINT };
}

/**
 * The controls' logic.
 * @namespace TableControls
 */
export const TableControls = Object.freeze({ compute, selectionProblem, ownAction, turnStatus });

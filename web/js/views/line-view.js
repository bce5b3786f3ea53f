/**
 * @file LineView: the replay viewer's "Play on from here as …" (another line, docs/server.md):
 * at a step of a stored game after which a round is still being played, a button per seat
 * starts the line for that seat (`intent:line-start`, handled by Line); a line the server could
 * not start says why. The replay view calls `draw` with what it shows.
 */

import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { I18n } from '../i18n.js';
import { Line } from '../line.js';

/**
 * What the replay view shows.
 * @typedef {Object} LineModel
 * @property {(string|null)} gameId The stored game (null for a record file: no line).
 * @property {Object[]} steps The replay's steps.
 * @property {number} index The step shown.
 * @property {function(number): string} name A seat's name at that step.
 */

/** @type {(LineModel|null)} What was drawn last (the buttons read it when clicked). */
let _model = null;

/**
 * Whether a round is being played after the step: not the round's end, nor its last play
 * (the step before a round's end); the server decides in the end (422 otherwise).
 * @param {Object[]} steps The steps.
 * @param {number} index The step.
 * @returns {boolean} Whether a line can start there.
 */
function playable(steps, index) {
  const step = steps[index];
  const next = steps[index + 1];
  return Boolean(step) && step.kind !== 'round_end' && !(next && next.kind === 'round_end');
}

/**
 * What the round of a step scored in the game, or null if the record does not finish it.
 * @param {Object[]} steps The steps.
 * @param {number} index The step.
 * @returns {(number[]|null)} `[team 20, team 31]`.
 */
function gameRound(steps, index) {
  const round = steps[index].round;
  const end = steps.find(function (step) { return step.kind === 'round_end' && step.round === round; });
  return end ? end.round_score : null;
}

/**
 * Start the line for a seat at the step drawn.
 * @param {number} seat The seat.
 * @returns {void}
 */
function _start(seat) {
  const model = _model;
  if (!model || model.gameId === null) {
    return;
  }
  EventBus.emit(Events.INTENT_LINE_START, { gameId: model.gameId, step: model.index, seat: seat,
    gameRound: gameRound(model.steps, model.index) });
}

/**
 * Wire the seat buttons.
 * @returns {void}
 */
function init() {
  document.getElementById('line-seats').addEventListener('click', function (event) {
    const target = /** @type {HTMLElement} */ (event.target);
    const button = target.closest ? /** @type {(HTMLElement|null)} */ (target.closest('.line-seat')) : null;
    if (button) {
      _start(Number(button.dataset.seat));
    }
  });
}

/**
 * Draw the offer for the step shown, or hide it.
 * @param {(LineModel|null)} model What the replay view shows, or null when it shows no game.
 * @returns {void}
 */
function draw(model) {
  _model = model;
  const box = /** @type {HTMLElement} */ (document.getElementById('replay-line'));
  box.hidden = !model || model.gameId === null || !playable(model.steps, model.index);
  if (box.hidden || !model) {
    return;
  }
  /** @type {HTMLElement} */ (document.getElementById('line-label')).textContent = I18n.t('line.playOn');
  const buttons = /** @type {HTMLElement} */ (document.getElementById('line-seats'));
  const names = [0, 1, 2, 3].map(model.name);
  const key = JSON.stringify([names, I18n.getLanguage()]);
  if (buttons.dataset.key !== key) {
    buttons.dataset.key = key;
    buttons.replaceChildren(...names.map(function (name, seat) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'line-seat replay-tool team-' + (seat % 2 === 0 ? '20' : '31');
      button.dataset.seat = String(seat);
      button.textContent = name;
      button.setAttribute('aria-label', I18n.t('line.playAs', { name: name }));
      return button;
    }));
  }
  const failure = /** @type {HTMLElement} */ (document.getElementById('line-failure'));
  failure.textContent = Line.failure();
  failure.hidden = !Line.failure();
}

/**
 * The replay viewer's offer of another line.
 * @namespace LineView
 */
export const LineView = Object.freeze({ init, draw, playable, gameRound });

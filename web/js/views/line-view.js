/**
 * @file LineView: the replay viewer's "Play on…" (another line, docs/server.md): at a step of a
 * stored game after which a round is still being played, `#line-open` (beside the replay's jumps)
 * opens `#dialog-line`, "Play on from here as", with a button per seat that starts the line for
 * that seat (`intent:line-start`, handled by Line); a line the server could not start says why
 * there. The replay view calls `draw` with what it shows.
 */

import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { I18n } from '../i18n.js';
import { Line } from '../line.js';
import { Dom } from './dom.js';

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
/** @type {boolean} Whether the seat dialog is open. */
let _open = false;

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
 * Start the line for a seat at the step drawn (the dialog stays open until the table shows, or
 * says why the line did not start).
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
 * Open or close the seat dialog.
 * @param {boolean} open Whether it is open.
 * @returns {void}
 */
function _setOpen(open) {
  _open = open;
  draw(_model);
}

/**
 * Wire the button, the dialog's seats and its cancel (Escape too).
 * @returns {void}
 */
function init() {
  Dom.byId('line-open').addEventListener('click', function () { _setOpen(true); });
  Dom.byId('line-cancel').addEventListener('click', function () { _setOpen(false); });
  Dom.byId('line-seats').addEventListener('click', function (event) {
    const target = /** @type {HTMLElement} */ (event.target);
    const button = target.closest ? /** @type {(HTMLElement|null)} */ (target.closest('.line-seat')) : null;
    if (button) {
      _start(Number(button.dataset.seat));
    }
  });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && _open) {
      _setOpen(false);
    }
  });
  EventBus.on(Events.UI_VIEW_SHOWN, function (name) {
    if (name !== 'replay' && _open) {
      _setOpen(false);  // the line's table (or another view) took the screen
    }
  });
}

/**
 * Draw the button for the step shown (or hide it), and the seat dialog while it is open.
 * @param {(LineModel|null)} model What the replay view shows, or null when it shows no game.
 * @returns {void}
 */
function draw(model) {
  _model = model;
  const offered = Boolean(model && model.gameId !== null && playable(model.steps, model.index));
  const button = /** @type {HTMLButtonElement} */ (document.getElementById('line-open'));
  button.hidden = !offered;
  button.textContent = I18n.t('line.open');
  const dialog = Dom.byId('dialog-line');
  dialog.hidden = !(offered && _open);
  if (dialog.hidden || !model) {
    return;
  }
  Dom.byId('line-label').textContent = I18n.t('line.playOn');
  Dom.byId('line-explain').textContent = I18n.t('line.explain');
  Dom.byId('line-cancel').textContent = I18n.t('line.cancel');
  const seats = Dom.byId('line-seats');
  const names = [0, 1, 2, 3].map(model.name);
  const key = JSON.stringify([names, I18n.getLanguage()]);
  if (seats.dataset.key !== key) {
    seats.dataset.key = key;
    seats.replaceChildren(...names.map(function (name, seat) {
      const choice = document.createElement('button');
      choice.type = 'button';
      choice.className = 'line-seat big-button team-' + (seat % 2 === 0 ? '20' : '31');
      choice.dataset.seat = String(seat);
      choice.textContent = name;
      choice.setAttribute('aria-label', I18n.t('line.playAs', { name: name }));
      return choice;
    }));
  }
  const failure = Dom.byId('line-failure');
  failure.textContent = Line.failure();
  failure.hidden = !Line.failure();
}

/**
 * The replay viewer's offer of another line.
 * @namespace LineView
 */
export const LineView = Object.freeze({ init, draw, playable, gameRound });

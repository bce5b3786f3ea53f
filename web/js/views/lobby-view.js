/**
 * @file LobbyView: the four seats in their teams (0+2 against 1+3); the host swaps seats by
 * tapping two of them, chooses the table's options (the agents' level, shown with its
 * description; hints; the target score)
 * and starts the game once everyone is ready; the others see the options read-only and say
 * that they are ready (`#lobby-ready`; a "ready" tag on their seat for everyone).
 */

import { Config } from '../config.js';
import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { I18n } from '../i18n.js';
import { Notifications } from '../protocol.js';
import { State } from '../state.js';
import { Dom } from './dom.js';

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {HTMLElement[]} The seat buttons by seat. */
const _seats = [];
/** @type {(number|null)} The seat the host tapped first. */
let _picked = null;
/** @type {string} The levels (or agent kinds) and language the agent select was built for. */
let _agentChoices = '';
/** @type {string} The target scores and language the target select was built for. */
let _targetChoices = '';

/**
 * Wire the seats and buttons.
 * @returns {void}
 */
function init() {
  ['lobby-title', 'lobby-hint', 'lobby-start', 'lobby-leave', 'lobby-options', 'lobby-agent',
    'lobby-agent-about', 'lobby-hints', 'lobby-social', 'lobby-target', 'lobby-ready'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  for (const seat of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('.lobby-seat'))) {
    _seats[Number(seat.dataset.seat)] = seat;
    seat.addEventListener('click', function () {
      _onSeat(Number(seat.dataset.seat));
    });
  }
  _elements['lobby-start'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_START);
  });
  _elements['lobby-leave'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_LEAVE);
  });
  Dom.byId('lobby-history').addEventListener('click', function () {
    EventBus.emit(Events.INTENT_HISTORY);
  });
  _elements['lobby-agent'].addEventListener('change', function () {
    if (_isHost()) {
      EventBus.emit(Events.INTENT_OPTIONS, { agent: /** @type {HTMLSelectElement} */ (_elements['lobby-agent']).value });
    }
  });
  _elements['lobby-hints'].addEventListener('change', function () {
    if (_isHost()) {
      EventBus.emit(Events.INTENT_OPTIONS, { hints: /** @type {HTMLInputElement} */ (_elements['lobby-hints']).checked });
    }
  });
  _elements['lobby-target'].addEventListener('change', function () {
    if (_isHost()) {
      EventBus.emit(Events.INTENT_OPTIONS, { target_score: Number(/** @type {HTMLSelectElement} */ (_elements['lobby-target']).value) });
    }
  });
  _elements['lobby-ready'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_READY, { ready: !State.isReady() });
  });
  EventBus.on(Events.STATE_CHANGED, function (change) {
    if (change.event === Notifications.PLAYERS_SWAPPED || change.event === Notifications.PLAYER_JOINED) {
      _picked = null;
    }
  });
}

/**
 * Whether this client is the table's host.
 * @returns {boolean} True for the host.
 */
function _isHost() {
  return State.playerIndex !== null && State.public.host_index === State.playerIndex;
}

/**
 * A tap on a seat: the host picks a seat, then swaps it with the next one tapped.
 * @param {number} seat The seat tapped.
 * @returns {void}
 */
function _onSeat(seat) {
  if (!_isHost()) {
    return;
  }
  if (seat === State.playerIndex) {
    EventBus.emit(Events.UI_TOAST, I18n.t('lobby.ownSeatFixed'));
  }
  else if (_picked === null) {
    _picked = seat;
  }
  else if (_picked === seat) {
    _picked = null;
  }
  else {
    EventBus.emit(Events.INTENT_SWAP, { first: _picked, second: seat });
    _picked = null;
  }
  render();
}

/**
 * Draw the table's options: the host may change them, the others see them read-only. The
 * controls show what the server last said (a refused change springs back).
 * @param {boolean} isHost Whether this client is the host.
 * @returns {void}
 */
function _renderOptions(isHost) {
  const options = State.options;
  _elements['lobby-options'].hidden = !options;
  if (!options) {
    return;
  }
  const select = /** @type {HTMLSelectElement} */ (_elements['lobby-agent']);
  const offered = options.levels.length ? options.levels : options.agents;
  const values = offered.includes(options.agent) ? offered : offered.concat([options.agent]);
  const choices = I18n.getLanguage() + '|' + values.join(',');
  if (choices !== _agentChoices) {
    _agentChoices = choices;
    select.replaceChildren.apply(select, values.map(function (value) {
      const option = document.createElement('option');
      option.value = value;
      option.textContent = I18n.levelLabel(value);
      return option;
    }));
  }
  select.value = options.agent;
  _elements['lobby-agent-about'].textContent = I18n.levelAbout(options.agent);
  select.disabled = !isHost;
  /** @type {HTMLInputElement} */ (_elements['lobby-hints']).checked = options.hints;
  /** @type {HTMLInputElement} */ (_elements['lobby-hints']).disabled = !isHost;
  _elements['lobby-options'].classList.toggle('read-only', !isHost);
}

/**
 * Draw the target score (the host chooses among the offered ones, the others see it) and
 * the Ready button (for everyone but the host, whose Start is its readiness).
 * @param {boolean} isHost Whether this client is the host.
 * @returns {void}
 */
function _renderSocial(isHost) {
  const lobby = State.lobby;
  _elements['lobby-social'].hidden = !lobby;
  if (!lobby) {
    return;
  }
  const select = /** @type {HTMLSelectElement} */ (_elements['lobby-target']);
  const scores = Config.TARGET_SCORES.filter(function (score) {
    return score >= lobby.targetRange[0] && score <= lobby.targetRange[1];
  });
  if (!scores.includes(lobby.targetScore)) {
    scores.push(lobby.targetScore);
    scores.sort(function (a, b) { return a - b; });
  }
  const choices = I18n.getLanguage() + '|' + scores.join(',');
  if (choices !== _targetChoices) {
    _targetChoices = choices;
    select.replaceChildren.apply(select, scores.map(function (score) {
      const option = document.createElement('option');
      option.value = String(score);
      option.textContent = I18n.t('lobby.targetOption', { score: score });
      return option;
    }));
  }
  select.value = String(lobby.targetScore);
  select.disabled = !isHost;
  _elements['lobby-social'].classList.toggle('read-only', !isHost);
  const ready = State.isReady();
  const button = _elements['lobby-ready'];
  button.hidden = isHost;
  button.textContent = (ready ? '✓ ' : '') + I18n.t('lobby.ready');  // a toggle keeps its name
  button.setAttribute('aria-pressed', String(ready));
  button.setAttribute('aria-label', I18n.t('lobby.readyLabel'));
  button.classList.toggle('primary', !ready);
}

/**
 * The names of the people the host waits for (not ready yet).
 * @returns {string[]} The names.
 */
function _waitingFor() {
  const lobby = State.lobby;
  if (!lobby) {
    return [];
  }
  const names = [];
  lobby.ready.forEach(function (ready, seat) {
    if (ready === false && seat !== State.public.host_index) {
      names.push(State.displayName(seat));
    }
  });
  return names;
}

/**
 * Draw the seats, the hint, the options and the buttons.
 * @returns {void}
 */
function render() {
  const isHost = _isHost();
  const hostIndex = State.public.host_index;
  _elements['lobby-title'].textContent = I18n.t('lobby.title', { table: State.public.table_name || '' });
  _seats.forEach(function (element, seat) {
    Dom.part(element, '.seat-name').textContent = State.displayName(seat);
    const tags = [];
    if (seat === State.playerIndex) {
      tags.push(I18n.t('lobby.you'));
    }
    if (seat === hostIndex) {
      tags.push(I18n.t('lobby.host'));
    }
    const ready = Boolean(State.lobby && State.lobby.ready[seat]) && seat !== hostIndex;
    if (ready) {
      tags.push(I18n.t('lobby.readyTag'));
    }
    element.classList.toggle('ready', ready);
    Dom.part(element, '.seat-tags').textContent = tags.join(' · ');
    element.classList.toggle('own', seat === State.playerIndex);
    element.classList.toggle('host', seat === hostIndex);
    element.classList.toggle('picked', seat === _picked);
    element.classList.toggle('swappable', isHost && seat !== State.playerIndex);
  });
  let hint = I18n.t('lobby.hintHost');
  if (!isHost) {
    hint = I18n.t('lobby.hintGuest', { host: hostIndex === null || hostIndex === undefined ? '…' : State.displayName(hostIndex) });
  }
  else if (_picked !== null) {
    hint = I18n.t('lobby.hintPicked');
  }
  else if (_waitingFor().length) {
    hint = I18n.t('lobby.hintWaiting', { names: _waitingFor().join(', ') });
  }
  _elements['lobby-hint'].textContent = hint;
  _renderOptions(isHost);
  _renderSocial(isHost);
  /** @type {HTMLButtonElement} */ (_elements['lobby-start']).disabled = !isHost || !State.everyoneReady();
}

/**
 * The lobby.
 * @namespace LobbyView
 */
export const LobbyView = Object.freeze({ init, render });

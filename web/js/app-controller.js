/**
 * @file AppController: turns server messages into State updates, view switches and sounds,
 * and user intents into messages to the server (design document 8.1.7, 8.4.1).
 */

import { Config } from './config.js';
import { Events } from './events.js';
import { EventBus } from './event-bus.js';
import { I18n } from './i18n.js';
import { IdleSeats } from './idle-seats.js';
import { Modals } from './modals.js';
import { Network } from './network.js';
import { Commands, Notifications } from './protocol.js';
import { ReplayController } from './replay-controller.js';
import { SoundManager } from './sound.js';
import { Spectate } from './spectate.js';
import { State } from './state.js';
import { User } from './user.js';
import { ViewManager } from './view-manager.js';

/** @typedef {import('./network.js').Payloads} Payloads The payload of each message to the server, by its type. */

/** @type {string} The type of the last message sent (`response`, `bomb`, `announce`, ...). */
let _lastSent = '';
/**
 * The error received at connect time, before the socket closed; `spectate` is whether a table
 * closed to newcomers admits a spectator (GAME_ALREADY_STARTED's `context.spectate`).
 * @type {({code: number, reason: string, spectate: boolean}|null)}
 */
let _closingError = null;

/**
 * The login that tries the session of a seat the user left first; a refused session joins by name.
 * @type {({name: string, table: string}|null)}
 */
let _rejoining = null;

/**
 * Send a message and remember its type.
 * @template {keyof Payloads} K
 * @param {K} type The message type.
 * @param {Payloads[K]} [payload] The payload.
 * @returns {void}
 */
function _send(type, payload) {
  _lastSent = type;
  Network.send(type, payload);
}

/**
 * Show a message in the toast.
 * @param {string} text The message in the current language.
 * @returns {void}
 */
function _toast(text) {
  EventBus.emit(Events.UI_TOAST, text);
}

/**
 * The view that fits the State after joining.
 * @returns {string} `table` while a game runs, else `lobby`.
 */
function _viewForState() {
  return State.public.is_running ? 'table' : 'lobby';
}

/**
 * Views, sounds and notices that follow a notification (after the State was updated).
 * @param {import('./protocol-types.js').NotificationPayload} note The notification's payload.
 * @param {boolean} returning For another seat's `player_joined`: whether it is a person coming
 *   back ({@link _isReturning}).
 * @returns {void}
 */
function _afterNotification(note, returning) {
  const event = note.event;
  if (note.event === Notifications.PLAYER_JOINED && note.context.session_id !== undefined) {
    _rejoining = null;
    User.setLeftSession(null);
    User.setSessionId(note.context.session_id);
    Network.setSessionId(note.context.session_id);
    _send(Commands.TABLE_SYNC);  // the chat, readiness and target score (docs/server.md)
    EventBus.emit(Events.UI_CONNECTION, { lost: false });
    ViewManager.show(_viewForState());
  }
  else if (note.event === Notifications.PLAYER_JOINED) {
    _toast(I18n.t(returning ? 'notice.playerBack' : 'notice.playerJoined', { name: note.context.player_name }));
  }
  else if (note.event === Notifications.PLAYER_LEFT) {
    _toast(I18n.t('notice.playerLeft', { name: note.context.player_name }));
  }
  else if (event === Notifications.GAME_STARTED) {
    ViewManager.show('table');
  }
  else if (event === Notifications.GAME_ENDED_EARLY) {
    ViewManager.show('lobby');  // the lobby says who ended it (SeatRulesView)
  }
  else if (event === Notifications.REQUEST_CANCELLED) {
    _toast(I18n.t(_cancelledBecauseHandedOver() ? 'notice.requestHandedOver' : 'notice.requestCancelled'));
  }
  else if (note.event === Notifications.PLAYER_PLAYED) {
    SoundManager.play(note.context.is_bomb ? 'bomb' : 'play');
  }
  else if (event === Notifications.PLAYER_PASSED) {
    SoundManager.play('pass');
  }
  else if (event === Notifications.PLAYER_ANNOUNCED) {
    SoundManager.play('announce');
  }
}

/**
 * Whether the own open request was cancelled because the seat went to its stand-in (the host's
 * hand-over: `seat_handed_over` for the own seat comes first, docs/server.md) rather than by an
 * out-of-turn bomb, the only other reason the server cancels a request.
 * @returns {boolean} True while the own seat is handed over.
 */
function _cancelledBecauseHandedOver() {
  return State.playerIndex !== null && IdleSeats.handedOver.has(State.playerIndex);
}

/**
 * Whether another seat's `player_joined` is a person coming back (a reload, a new
 * connection) rather than someone new: the seat dropped (`player_disconnected`), or its name
 * was already there. Read before the State takes the notification.
 * @param {import('./protocol-types.js').PlayerJoined} context The notification's context.
 * @returns {boolean} True for a returning person.
 */
function _isReturning(context) {
  const seat = context.player_index;
  const names = State.public.player_names || [];
  return seat in State.away || (Boolean(context.player_name) && names[seat] === context.player_name);
}

/**
 * Handle an error message from the server.
 * @param {import('./protocol-types.js').ErrorPayload} error The error's payload.
 * @returns {void}
 */
function _onError(error) {
  const code = Number(error.code);
  if (State.playerIndex === null) {
    // refused at connect time: the socket closes next
    const context = error.context || {};
    _closingError = { code: code, reason: String(context.reason || ''), spectate: context.spectate === true };
    return;
  }
  if (_lastSent === Commands.CHAT && code === Config.UNAUTHORIZED_CODE) {
    _toast(I18n.t('chat.outOfRound'));
    return;
  }
  if (_lastSent === Commands.CHAT || _lastSent === Commands.REACTION) {
    if (code === Config.SERVER_BUSY_CODE || code === Config.INVALID_MESSAGE_CODE) {
      _toast(I18n.t(code === Config.SERVER_BUSY_CODE ? 'chat.tooFast' : 'chat.invalid'));
      return;
    }
  }
  if (code === Config.ACTION_TIMEOUT_CODE) {
    State.closeRequest();
  }
  else if (Config.CLOSED_REQUEST_ERROR_CODES.includes(code)) {
    State.closeRequest();
  }
  else if (Config.REFUSAL_ERROR_CODES.includes(code) && _lastSent === Commands.RESPONSE) {
    State.reopenRequest();
  }
  if (ViewManager.activeView() === 'loading') {
    ViewManager.show(_viewForState());
  }
  _toast(I18n.errorText(code));
}

/**
 * Handle one message from the server.
 * @param {import('./protocol-types.js').ServerMessage} message The message.
 * @returns {void}
 */
function _onMessage(message) {
  if (message.type === 'notification') {
    const note = message.payload;
    const returning = note.event === Notifications.PLAYER_JOINED && !('session_id' in note.context)
      && _isReturning(note.context);
    State.apply(note.event, note.context);
    EventBus.emit(Events.STATE_CHANGED, { event: note.event, context: note.context });
    _afterNotification(note, returning);
  }
  else if (message.type === 'request') {
    State.openRequest(message.payload);
    EventBus.emit(Events.STATE_CHANGED, { event: 'request', context: message.payload });
    SoundManager.play('turn');
  }
  else if (message.type === 'error') {
    _onError(message.payload);
  }
  ViewManager.requestRender();
}

/**
 * Go back to the login, with an error to show.
 * @param {(import('./events.js').LoginError|null)} error The error, or null.
 * @returns {void}
 */
function _backToLogin(error) {
  State.reset();
  EventBus.emit(Events.UI_CONNECTION, { lost: false });
  EventBus.emit(Events.UI_LOGIN_ERROR, error);
  ViewManager.show('login');
}

/**
 * The server refused the connection (close 1008): a refused login or session, or the seat
 * was opened in another window.
 * @returns {void}
 */
function _onRefused() {
  const error = _closingError;
  _closingError = null;
  if (error === null) {
    _backToLogin({ key: 'login.replaced' });
  }
  else if (Config.SESSION_ERROR_CODES.includes(error.code) && _rejoining !== null) {
    // the seat left is gone (taken, or the game is over): join by name as anyone
    const login = _rejoining;
    _rejoining = null;
    User.setLeftSession(null);
    Network.join(login.name, login.table);
  }
  else if (Config.SESSION_ERROR_CODES.includes(error.code)) {
    User.setSessionId(null);
    Network.setSessionId(null);
    _backToLogin({ key: 'login.sessionLost' });
  }
  else if (error.code === Config.GAME_ALREADY_STARTED_CODE) {
    // a running game at a table closed to newcomers: perhaps watch it instead
    _backToLogin({ key: 'login.closedTable', watch: error.spectate ? User.getTable() : null });
  }
  else if (error.code === Config.INVALID_MESSAGE_CODE) {
    _backToLogin({ key: error.reason.includes('table_name') ? 'login.errorTable' : 'login.errorName' });
  }
  else {
    _backToLogin({ code: error.code });
  }
}

/**
 * Leave the table for good: forget the session (kept only to take this seat back by logging in
 * again under the same name) and show the login.
 * @returns {void}
 */
function _onLeft() {
  const session = User.getSessionId();
  User.setLeftSession(session ? { name: User.getName() || '', table: User.getTable() || '', session: session } : null);
  User.setSessionId(null);
  Network.setSessionId(null);
  _backToLogin(null);
}

/**
 * The `response_data` of a `response`, one per request action.
 * @typedef {(import('./protocol-types.js').GrandTichuAnswer | import('./protocol-types.js').SchupfAnswer
 *   | import('./protocol-types.js').PlayAnswer | import('./protocol-types.js').WishAnswer
 *   | import('./protocol-types.js').DragonAnswer)} Answer
 */

/**
 * Send the answer to the open request.
 * @param {{action: string, data: Answer}} intent The answer.
 * @returns {void}
 */
function _onRespond(intent) {
  const request = State.request;
  if (!request || request.action !== intent.action) {
    return;
  }
  // the view built `data` for this action (TableView, Modals, AutoPassBar): the pair matches
  const response = /** @type {Payloads['response']} */ (
    { request_id: request.request_id, action: request.action, response_data: intent.data });
  _send(Commands.RESPONSE, response);
  State.answerRequest(intent.data);
  ViewManager.requestRender();
}

/**
 * Ask before leaving a running game; leave the lobby at once.
 * @returns {void}
 */
function _onLeave() {
  if (State.public.is_running && !State.spectating) {
    Modals.confirm('confirm.leave', Network.leave);
  }
  else {
    Network.leave();
  }
}

/**
 * Subscribe to the network's reports and the views' intents.
 * @returns {void}
 */
function init() {
  EventBus.on(Events.NETWORK_MESSAGE, _onMessage);
  EventBus.on(Events.NETWORK_LOST, function () {
    EventBus.emit(Events.UI_CONNECTION, { lost: true });
    ViewManager.requestRender();
  });
  EventBus.on(Events.NETWORK_REFUSED, _onRefused);
  EventBus.on(Events.NETWORK_FAILED, function () { _backToLogin({ key: 'login.errorConnect' }); });
  EventBus.on(Events.NETWORK_LEFT, _onLeft);
  EventBus.on(Events.INTENT_LOGIN, function (login) {
    if (login.save !== false) {
      User.saveLogin(login.name, login.table);
    }
    State.reset();
    _closingError = null;
    ViewManager.show('loading');
    const left = User.getLeftSession(login.name, login.table);
    _rejoining = left ? { name: login.name, table: login.table } : null;
    if (left) {
      Network.resume(left);  // the seat left here under this name: only its session takes it back
    }
    else {
      Network.join(login.name, login.table);
    }
  });
  EventBus.on(Events.INTENT_SWAP, function (swap) {
    _send(Commands.SWAP_PLAYERS, { player_index_1: swap.first, player_index_2: swap.second });
  });
  EventBus.on(Events.INTENT_OPTIONS, function (options) {
    _send(Commands.SET_OPTIONS, options);
  });
  EventBus.on(Events.INTENT_READY, function (ready) {
    _send(Commands.SET_READY, { ready: Boolean(ready.ready) });
  });
  EventBus.on(Events.INTENT_CHAT, function (chat) { _send(Commands.CHAT, { text: chat.text }); });
  EventBus.on(Events.INTENT_REACTION, function (reaction) { _send(Commands.REACTION, { reaction: reaction.reaction }); });
  EventBus.on(Events.INTENT_START, function () {
    _send(Commands.START_GAME);
    ViewManager.show('loading', { message: 'loading.starting' });
  });
  EventBus.on(Events.INTENT_LEAVE, _onLeave);
  EventBus.on(Events.INTENT_RESPOND, _onRespond);
  EventBus.on(Events.INTENT_ANNOUNCE, function () { _send(Commands.ANNOUNCE); });
  EventBus.on(Events.INTENT_BOMB, function (bomb) { _send(Commands.BOMB, { cards: bomb.cards }); });
  EventBus.on(Events.INTENT_TAKE_BACK, function () { _send(Commands.TAKE_BACK); });
  EventBus.on(Events.INTENT_HAND_OVER, function (handOver) { _send(Commands.HAND_OVER, { player_index: handOver.seat }); });
  EventBus.on(Events.INTENT_LANGUAGE, function () {
    I18n.setLanguage(I18n.otherLanguage());
    User.setLanguage(I18n.getLanguage());
    ViewManager.requestRender();
  });
  EventBus.on(Events.INTENT_MUTE, function () {
    SoundManager.setMuted(!SoundManager.isMuted());
    User.setMuted(SoundManager.isMuted());
    ViewManager.requestRender();
  });
  EventBus.on(Events.INTENT_SCORES_BACK, function () { ViewManager.show('lobby'); });
  EventBus.on(Events.INTENT_SHOW_SCORES, function () { ViewManager.show('scores'); });
  EventBus.on(Events.INTENT_REPLAY_BACK, _onReplayBack);
  // No `leave` when the page goes away: a reload or a closed tab comes back with its
  // session within the grace period (only the Leave button gives the seat away).
}

/**
 * Start: the remembered language and mute, then back to the seat of a remembered session,
 * or the login.
 * @returns {void}
 */
function start() {
  I18n.setLanguage(User.getLanguage() || I18n.detectLanguage(navigator.languages || [navigator.language]));
  SoundManager.setMuted(User.isMuted());
  if (!ReplayController.openFromHash()) {  // a replay address opens the replay viewer first
    _enter();
  }
}

/**
 * Back to the seat of a remembered session, or the login.
 * @returns {void}
 */
function _enter() {
  const sessionId = User.getSessionId();
  if (sessionId) {
    ViewManager.show('loading');
    Network.resume(sessionId);
  }
  else if (!Spectate.resume()) {  // a spectator watches its table again after a reload
    ViewManager.show('login');
  }
}

/**
 * Leave the replay viewer: back to the table or lobby when seated, else as at the start.
 * @returns {void}
 */
function _onReplayBack() {
  ReplayController.clearHash();
  if (State.playerIndex !== null) {
    ViewManager.show(_viewForState());
  }
  else {
    _enter();
  }
}

/**
 * The controller.
 * @namespace AppController
 */
export const AppController = Object.freeze({ init, start });

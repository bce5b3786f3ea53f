/**
 * @file Network: the WebSocket to the server (same host, ws: or wss:), reconnecting every
 * second with the session id after a drop. It reports on the EventBus:
 * `network:open`, `network:message` (the parsed message), `network:lost` (a drop; retrying),
 * `network:refused` (closed with 1008: the session or login was refused; `{reason}`),
 * `network:failed` (no connection and no session to retry with) and `network:left`.
 */

import { Config } from './config.js';
import { Events } from './events.js';
import { EventBus } from './event-bus.js';
import { Commands } from './protocol.js';

/**
 * The payload of each message to the server, by its type.
 * @typedef {{[M in import('./protocol-types.js').ClientMessage as M['type']]: M['payload']}} Payloads
 */

/** @type {(WebSocket|null)} */
let _socket = null;
/** @type {(string|null)} The session to reconnect with. */
let _sessionId = null;
/** @type {(number|null)} The pending reconnect timer. */
let _retryTimer = null;
/** @type {boolean} Whether the client sent `leave` on the current socket. */
let _leaving = false;
/** @type {(string|null)} The table watched as a spectator (rejoined after a drop), or null. */
let _spectateTable = null;

/**
 * The endpoint's URL on the page's host.
 * @param {Object<string, string>} query The query parameters.
 * @returns {string} E.g. `ws://host:8080/ws?player_name=Anna&table_name=home`.
 */
function _url(query) {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return scheme + '//' + window.location.host + '/ws?' + new URLSearchParams(query).toString();
}

/**
 * Open a socket with the given query and wire its handlers.
 * @param {Object<string, string>} query The query parameters.
 * @returns {void}
 */
function _open(query) {
  _leaving = false;
  const socket = new WebSocket(_url(query));
  _socket = socket;
  socket.addEventListener('open', function () {
    EventBus.emit(Events.NETWORK_OPEN);
  });
  socket.addEventListener('message', function (event) {
    let message;
    try {
      message = JSON.parse(event.data);
    }
    catch {
      return; // not JSON: nothing the client can act on
    }
    if (message && typeof message === 'object') {
      EventBus.emit(Events.NETWORK_MESSAGE, message);
    }
  });
  socket.addEventListener('close', function (event) {
    if (_socket === socket) {
      _socket = null;
      _onClose(event);
    }
  });
}

/**
 * Decide what a closed socket means: left, refused, or a drop to retry.
 * @param {CloseEvent} event The close event.
 * @returns {void}
 */
function _onClose(event) {
  if (_leaving) {
    EventBus.emit(Events.NETWORK_LEFT);
  }
  else if (event.code === Config.POLICY_VIOLATION_CLOSE_CODE) {
    EventBus.emit(Events.NETWORK_REFUSED, { reason: event.reason });
  }
  else if (_sessionId || (_spectateTable && event.code !== Config.TRY_AGAIN_LATER_CLOSE_CODE)) {
    EventBus.emit(Events.NETWORK_LOST);
    _scheduleRetry();
  }
  else {
    EventBus.emit(Events.NETWORK_FAILED);
  }
}

/**
 * Try to reconnect with the session after the reconnect interval.
 * @returns {void}
 */
function _scheduleRetry() {
  _cancelRetry();
  _retryTimer = window.setTimeout(function () {
    _retryTimer = null;
    if (_sessionId && !_socket) {
      _open({ session_id: _sessionId });
    }
    else if (_spectateTable && !_socket) {
      _open({ table_name: _spectateTable, spectate: '1' });
    }
  }, Config.RECONNECT_INTERVAL_MS);
}

/**
 * Stop a pending reconnect.
 * @returns {void}
 */
function _cancelRetry() {
  if (_retryTimer !== null) {
    window.clearTimeout(_retryTimer);
    _retryTimer = null;
  }
}

/**
 * Join a table by name (first join).
 * @param {string} playerName The player's name.
 * @param {string} tableName The table's name.
 * @returns {void}
 */
function join(playerName, tableName) {
  _disconnect();
  _sessionId = null;
  _spectateTable = null;
  _open({ player_name: playerName, table_name: tableName });
}

/**
 * Return to a seat with a session id (and keep returning after each drop).
 * @param {string} sessionId The session id of `player_joined`.
 * @returns {void}
 */
function resume(sessionId) {
  _disconnect();
  _sessionId = sessionId;
  _spectateTable = null;
  _open({ session_id: sessionId });
}

/**
 * Watch a table as a spectator (docs/server.md "Spectators"); after a drop the client joins
 * again as a spectator (there is no session to resume).
 * @param {string} tableName The table's name.
 * @returns {void}
 */
function spectate(tableName) {
  _disconnect();
  _sessionId = null;
  _spectateTable = tableName;
  _open({ table_name: tableName, spectate: '1' });
}

/**
 * Remember the session to reconnect with after a drop.
 * @param {(string|null)} sessionId The id, or null to stop reconnecting.
 * @returns {void}
 */
function setSessionId(sessionId) {
  _sessionId = sessionId;
}

/**
 * Send one message `{type, payload}` if connected.
 * @template {keyof Payloads} K
 * @param {K} type The message type, e.g. `response`.
 * @param {Payloads[K]} [payload] The payload; left out when undefined.
 * @returns {boolean} Whether it was sent.
 */
function send(type, payload) {
  if (!_socket || _socket.readyState !== WebSocket.OPEN) {
    return false;
  }
  const message = payload === undefined ? { type: type } : { type: type, payload: payload };
  _socket.send(JSON.stringify(message));
  return true;
}

/**
 * Leave the table: send `leave`; the server closes the socket and an agent takes the seat.
 * @returns {void}
 */
function leave() {
  _cancelRetry();
  _spectateTable = null;
  if (send(Commands.LEAVE)) {
    _leaving = true;
  }
  else {
    _disconnect();
    EventBus.emit(Events.NETWORK_LEFT);
  }
}

/**
 * Close the socket without reporting it and stop reconnecting.
 * @returns {void}
 */
function _disconnect() {
  _cancelRetry();
  if (_socket) {
    const socket = _socket;
    _socket = null;
    socket.close();
  }
}

/**
 * The connection.
 * @namespace Network
 */
export const Network = Object.freeze({
  join,
  resume,
  spectate,
  setSessionId,
  send,
  leave
});

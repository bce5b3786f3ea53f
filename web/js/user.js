/**
 * @file User: what the client remembers about its user in localStorage (name, table,
 * session id, language, mute).
 */

import { Config } from './config.js';

const KEYS = Config.STORAGE_KEYS;

/**
 * Read a stored value; storage may be unavailable (private mode), then nothing is stored.
 * @param {string} key The storage key.
 * @returns {(string|null)} The value or null.
 */
function _read(key) {
  try {
    return window.localStorage.getItem(key);
  }
  catch {
    return null;
  }
}

/**
 * Store a value, or remove it for null.
 * @param {string} key The storage key.
 * @param {(string|null)} value The value.
 * @returns {void}
 */
function _write(key, value) {
  try {
    if (value === null) {
      window.localStorage.removeItem(key);
    }
    else {
      window.localStorage.setItem(key, value);
    }
  }
  catch {
    // Storage is unavailable or full: the client works without remembering.
  }
}

/**
 * The remembered player name.
 * @returns {string} The name, or "".
 */
function getName() {
  return _read(KEYS.NAME) || '';
}

/**
 * The remembered table name.
 * @returns {string} The table, or "".
 */
function getTable() {
  return _read(KEYS.TABLE) || '';
}

/**
 * Remember the name and table of a login.
 * @param {string} name The player name.
 * @param {string} table The table name.
 * @returns {void}
 */
function saveLogin(name, table) {
  _write(KEYS.NAME, name);
  _write(KEYS.TABLE, table);
}

/**
 * The session id to reconnect with.
 * @returns {(string|null)} The id, or null.
 */
function getSessionId() {
  return _read(KEYS.SESSION);
}

/**
 * Remember or forget the session id.
 * @param {(string|null)} sessionId The id; null forgets it.
 * @returns {void}
 */
function setSessionId(sessionId) {
  _write(KEYS.SESSION, sessionId);
}

/**
 * The session of a seat the user left at a table under a name: only it takes that seat back
 * (a name is no proof, docs/server.md "Who a person is").
 * @param {string} name The player name of the login.
 * @param {string} table The table name of the login.
 * @returns {(string|null)} The session id, or null when the user left no seat there under that name.
 */
function getLeftSession(name, table) {
  try {
    const left = JSON.parse(_read(KEYS.LEFT) || 'null');
    const same = left && left.table === table && String(left.name).toLowerCase() === name.toLowerCase();
    return same ? String(left.session) : null;
  }
  catch {
    return null;
  }
}

/**
 * Remember the session of the seat the user leaves, or forget it.
 * @param {({name: string, table: string, session: string}|null)} left The seat left; null forgets it.
 * @returns {void}
 */
function setLeftSession(left) {
  _write(KEYS.LEFT, left === null ? null : JSON.stringify(left));
}

/**
 * The chosen language.
 * @returns {(string|null)} `en`, `de`, or null when never chosen.
 */
function getLanguage() {
  return _read(KEYS.LANGUAGE);
}

/**
 * Remember the chosen language.
 * @param {string} language `en` or `de`.
 * @returns {void}
 */
function setLanguage(language) {
  _write(KEYS.LANGUAGE, language);
}

/**
 * Whether sounds are muted.
 * @returns {boolean} True when muted.
 */
function isMuted() {
  return _read(KEYS.MUTED) === '1';
}

/**
 * Remember whether sounds are muted.
 * @param {boolean} muted True to mute.
 * @returns {void}
 */
function setMuted(muted) {
  _write(KEYS.MUTED, muted ? '1' : '0');
}

/**
 * Whether incoming chat and reactions are hidden.
 * @returns {boolean} True when the chat is muted.
 */
function isChatMuted() {
  return _read(KEYS.CHAT_MUTED) === '1';
}

/**
 * Remember whether incoming chat and reactions are hidden.
 * @param {boolean} muted True to hide them.
 * @returns {void}
 */
function setChatMuted(muted) {
  _write(KEYS.CHAT_MUTED, muted ? '1' : '0');
}

/**
 * The user's remembered data.
 * @namespace User
 */
export const User = Object.freeze({
  getName,
  getTable,
  saveLogin,
  getSessionId,
  setSessionId,
  getLeftSession,
  setLeftSession,
  getLanguage,
  setLanguage,
  isMuted,
  setMuted,
  isChatMuted,
  setChatMuted
});

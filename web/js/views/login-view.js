/**
 * @file LoginView: name and table (remembered), checked before joining.
 */

import { Config } from '../config.js';
import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { I18n } from '../i18n.js';
import { Lib } from '../lib.js';
import { User } from '../user.js';
import { Dom } from './dom.js';

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/**
 * The error shown, or null (`watch`: `#login-watch` offers to watch that table).
 * @type {(import('../events.js').LoginError|null)}
 */
let _error = null;

/**
 * Wire the form and listen for login errors (`ui:login-error` with `{key}` or `{code}`).
 * @returns {void}
 */
function init() {
  ['login-form', 'login-name', 'login-table', 'login-error', 'login-watch'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  _elements['login-form'].addEventListener('submit', function (event) {
    event.preventDefault();
    _submit();
  });
  Dom.byId('login-history').addEventListener('click', function () {
    EventBus.emit(Events.INTENT_HISTORY);
  });
  _elements['login-watch'].addEventListener('click', function () {
    if (_error && _error.watch) {
      const table = _error.watch;
      _error = null;
      EventBus.emit(Events.INTENT_WATCH, { table: table });
    }
  });
  EventBus.on(Events.UI_LOGIN_ERROR, function (error) {
    _error = error;
    render();
  });
}

/**
 * Check the inputs and ask to join.
 * @returns {void}
 */
function _submit() {
  const name = /** @type {HTMLInputElement} */ (_elements['login-name']).value.trim();
  const table = /** @type {HTMLInputElement} */ (_elements['login-table']).value.trim();
  if (!Lib.isValidName(name, Config.MAX_NAME_LENGTH)) {
    _error = { key: 'login.errorName' };
    _elements['login-name'].focus();
  }
  else if (!Lib.isValidName(table, Config.MAX_TABLE_LENGTH)) {
    _error = { key: 'login.errorTable' };
    _elements['login-table'].focus();
  }
  else {
    _error = null;
    EventBus.emit(Events.INTENT_LOGIN, { name: name, table: table });
  }
  render();
}

/**
 * Called when the view is shown: fill in the remembered name and table.
 * @returns {void}
 */
function onShow() {
  /** @type {HTMLInputElement} */ (_elements['login-name']).value = /** @type {HTMLInputElement} */ (_elements['login-name']).value || User.getName();
  /** @type {HTMLInputElement} */ (_elements['login-table']).value = /** @type {HTMLInputElement} */ (_elements['login-table']).value || User.getTable();
}

/**
 * Draw the error, if any.
 * @returns {void}
 */
function render() {
  let text = '';
  if (_error) {
    text = _error.code ? I18n.errorText(_error.code) : I18n.t(_error.key || '');
  }
  _elements['login-error'].textContent = text;
  const watch = Boolean(_error && _error.watch);
  _elements['login-watch'].hidden = !watch;
  _elements['login-watch'].textContent = watch ? I18n.t('login.watchInstead') : '';
}

/**
 * The login screen.
 * @namespace LoginView
 */
export const LoginView = Object.freeze({ init, onShow, render });

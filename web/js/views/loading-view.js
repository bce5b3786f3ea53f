/**
 * @file LoadingView: the loading screen shown while connecting or starting a game.
 */

import { I18n } from '../i18n.js';

/** @type {(HTMLElement|null)} */
let _text = null;
/** @type {string} The I18n key of the message shown. */
let _messageKey = 'loading.connecting';

/**
 * Find the view's elements.
 * @returns {void}
 */
function init() {
  _text = document.getElementById('loading-text');
}

/**
 * Called when the view is shown.
 * @param {{message: string}} [options] The I18n key of the message (default: connecting).
 * @returns {void}
 */
function onShow(options) {
  _messageKey = (options && options.message) || 'loading.connecting';
}

/**
 * Draw the message.
 * @returns {void}
 */
function render() {
  if (_text) {
    _text.textContent = I18n.t(_messageKey);
  }
}

/**
 * The loading screen.
 * @namespace LoadingView
 */
export const LoadingView = Object.freeze({ init, onShow, render });

/**
 * @file ToolbarView: what is shown on every view: the language switch, the mute button, the
 * leave button, the connection status and the toast for messages.
 */

import { Config } from '../config.js';
import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { I18n } from '../i18n.js';
import { SoundManager } from '../sound.js';
import { State } from '../state.js';
import { Dom } from './dom.js';

/** @type {'http://www.w3.org/2000/svg'} The SVG namespace (its literal type types createElementNS). */
const SVG_NS = 'http://www.w3.org/2000/svg';

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {boolean} Whether the connection dropped and is being re-established. */
let _connectionLost = false;
/** @type {(number|null)} */
let _toastTimer = null;
/** @type {(string|null)} The tag of the message shown, which `ui:toast-drop` takes away. */
let _toastTag = null;

/**
 * Wire the buttons and listen for messages to show.
 * @returns {void}
 */
function init() {
  ['lang-switch', 'mute', 'leave', 'toast', 'connection-status'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  _elements['lang-switch'].addEventListener('click', function () {
    EventBus.emit(Events.INTENT_LANGUAGE);
  });
  _elements.mute.addEventListener('click', function () {
    EventBus.emit(Events.INTENT_MUTE);
  });
  _elements.leave.addEventListener('click', function () {
    EventBus.emit(Events.INTENT_LEAVE);
  });
  _elements.toast.addEventListener('click', _hideToast);
  EventBus.on(Events.UI_TOAST, function (message) {
    if (typeof message === 'string') {
      toast(message);
    }
    else {
      toast(message.text, message.tag);
    }
  });
  EventBus.on(Events.UI_TOAST_DROP, function (tag) {
    if (_toastTag === tag) {
      _hideToast();  // a notice that no longer holds (a hint once the turn moved on)
    }
  });
  EventBus.on(Events.UI_VIEW_SHOWN, _hideToast);
  EventBus.on(Events.UI_CONNECTION, function (status) {
    _connectionLost = Boolean(status.lost);
  });
}

/**
 * Show a message for a few seconds.
 * @param {string} text The message, already in the current language.
 * @param {string} [tag] What kind of message it is, so that `ui:toast-drop` can take it away
 *   early (`ui:toast` with `{text, tag}`).
 * @returns {void}
 */
function toast(text, tag) {
  _toastTag = tag || null;
  _elements.toast.textContent = text;
  _elements.toast.hidden = false;
  if (_toastTimer !== null) {
    window.clearTimeout(_toastTimer);
  }
  _toastTimer = window.setTimeout(_hideToast, Config.TOAST_MS);
}

/**
 * Hide the toast.
 * @returns {void}
 */
function _hideToast() {
  _toastTag = null;
  _elements.toast.hidden = true;
  if (_toastTimer !== null) {
    window.clearTimeout(_toastTimer);
    _toastTimer = null;
  }
}

/**
 * Draw a speaker icon, crossed out when muted.
 * @param {boolean} muted Whether sounds are muted.
 * @returns {SVGSVGElement} The icon.
 */
function _speakerIcon(muted) {
  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('viewBox', '0 0 100 100');
  svg.setAttribute('class', 'tool-icon');
  svg.setAttribute('aria-hidden', 'true');
  const speaker = document.createElementNS(SVG_NS, 'path');
  speaker.setAttribute('d', 'M10 38 H30 L55 16 V84 L30 62 H10 Z');
  svg.appendChild(speaker);
  const sign = document.createElementNS(SVG_NS, 'path');
  sign.setAttribute('d', muted ? 'M66 36 L90 64 M90 36 L66 64' : 'M66 34 Q78 50 66 66 M76 24 Q96 50 76 76');
  sign.setAttribute('class', 'tool-icon-stroke');
  svg.appendChild(sign);
  return svg;
}

/**
 * Refresh the toolbar's texts and states.
 * @returns {void}
 */
function render() {
  const langSwitch = _elements['lang-switch'];
  langSwitch.textContent = I18n.otherLanguage().toUpperCase();
  langSwitch.title = I18n.t('toolbar.language');
  langSwitch.setAttribute('aria-label', I18n.t('toolbar.language'));
  const muted = SoundManager.isMuted();
  _elements.mute.classList.toggle('muted', muted);
  _elements.mute.setAttribute('aria-pressed', String(muted));
  _elements.mute.title = I18n.t(muted ? 'toolbar.soundOff' : 'toolbar.soundOn');
  _elements.mute.setAttribute('aria-label', _elements.mute.title);
  if (_elements.mute.dataset.muted !== String(muted)) {
    _elements.mute.dataset.muted = String(muted);
    _elements.mute.replaceChildren(_speakerIcon(muted));
  }
  _elements.leave.hidden = State.playerIndex === null && !State.spectating;
  _elements['connection-status'].hidden = !_connectionLost;
  _elements['connection-status'].textContent = I18n.t('connection.lost');
}

/**
 * The toolbar.
 * @namespace ToolbarView
 */
export const ToolbarView = Object.freeze({ init, render, toast });

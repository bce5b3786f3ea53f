/**
 * @file ViewManager: shows one view at a time, scales the stage into the browser window (a
 * 1080×1920 portrait stage, or 1920×1080 on landscape screens, grown to the window's shape)
 * and renders the active view once per animation frame.
 */

import { Config } from './config.js';
import { Events } from './events.js';
import { EventBus } from './event-bus.js';
import { I18n } from './i18n.js';
import { Modals } from './modals.js';
import { SocialView } from './views/social-view.js';
import { ToolbarView } from './views/toolbar-view.js';
import { Dom } from './views/dom.js';

/**
 * A view module.
 * @typedef {Object} View
 * @property {function(): void} init Finds its elements and wires its input.
 * @property {function(): void} render Draws itself from the State.
 * @property {function(Object=): void} [onShow] Called when it becomes the active view.
 */

/** @type {Object<string, View>} The views by name (`loading`, `login`, `lobby`, `table`, `scores`). */
const _views = {};
/** @type {(string|null)} */
let _active = null;
/** @type {(number|null)} The requested animation frame. */
let _frame = null;
/** @type {(string|null)} The language the static texts were last written in. */
let _staticLanguage = null;

/**
 * Add a view; its element is the section `#view-NAME`.
 * @param {string} name The view's name.
 * @param {View} view The view module.
 * @returns {void}
 */
function register(name, view) {
  _views[name] = view;
}

/**
 * Fit the stage into the window without bands: the orientation with the larger scale wins,
 * and the stage grows beyond its base size (1080×1920 or 1920×1080) along the axis the
 * window has room to spare, so that it fills the window. The extra stage pixels are in the
 * CSS variables `--extra-x` and `--extra-y` of `#wrapper`, for the layout to use.
 * While the side panel is open (`SocialView.isOpen()`: chat, move log, score sheet) it gets
 * room of its own beside the views (landscape, `Config.SIDE_PANEL.width`) or below them
 * (portrait, `.height`): the stage is fitted as if it were that much wider or taller, so the
 * panel never lies over the table or the lobby (`--panel` on `#wrapper`, class `panel-open`).
 * @returns {void}
 */
function _applyLayout() {
  const wrapper = Dom.byId('wrapper');
  const width = window.innerWidth;
  const height = window.innerHeight;
  const landscape = width > height;
  const stage = landscape ? Config.STAGE_LANDSCAPE : Config.STAGE_PORTRAIT;
  const open = SocialView.isOpen();
  const panel = open ? (landscape ? Config.SIDE_PANEL.width : Config.SIDE_PANEL.height) : 0;
  const baseWidth = stage.width + (landscape ? panel : 0);
  const baseHeight = stage.height + (landscape ? 0 : panel);
  const scale = Math.min(width / baseWidth, height / baseHeight);
  const stageWidth = Math.max(baseWidth, Math.ceil(width / scale));
  const stageHeight = Math.max(baseHeight, Math.ceil(height / scale));
  wrapper.classList.toggle('layout-landscape', landscape);
  wrapper.classList.toggle('layout-portrait', !landscape);
  wrapper.classList.toggle('panel-open', open);
  wrapper.style.width = stageWidth + 'px';
  wrapper.style.height = stageHeight + 'px';
  wrapper.style.setProperty('--extra-x', (stageWidth - baseWidth) + 'px');
  wrapper.style.setProperty('--extra-y', (stageHeight - baseHeight) + 'px');
  wrapper.style.setProperty('--panel', panel + 'px');
  wrapper.style.transform = 'scale(' + scale + ')';
}

/**
 * Write the static texts (elements with `data-i18n`) in the current language.
 * @returns {void}
 */
function _translateStatic() {
  const language = I18n.getLanguage();
  if (language === _staticLanguage) {
    return;
  }
  _staticLanguage = language;
  document.documentElement.lang = language;
  document.title = I18n.t('app.title');
  for (const element of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-i18n]'))) {
    element.textContent = I18n.t(element.dataset.i18n || '');
  }
}

/**
 * Render what is on screen.
 * @returns {void}
 */
function _render() {
  _frame = null;
  _translateStatic();
  ToolbarView.render();
  if (_active) {
    _views[_active].render();
  }
  Modals.render();
  SocialView.render(_active);
}

/**
 * Ask for a render in the next animation frame (several asks make one render).
 * @returns {void}
 */
function requestRender() {
  if (_frame === null) {
    _frame = window.requestAnimationFrame(_render);
  }
}

/**
 * Initialise every registered view, the layout and the render requests (`ui:render`).
 * @returns {void}
 */
function init() {
  ToolbarView.init();
  Modals.init();
  SocialView.init();
  Object.keys(_views).forEach(function (name) { _views[name].init(); });
  _applyLayout();
  window.addEventListener('resize', _applyLayout);
  EventBus.on(Events.UI_PANEL, _applyLayout);
  EventBus.on(Events.UI_RENDER, requestRender);
}

/**
 * Show one view and hide the others; a change of view is announced (`ui:view-shown`), so
 * that a notice about the old view does not stay over the new one.
 * @param {string} name The view's name.
 * @param {Object} [options] Passed to the view's `onShow`.
 * @returns {void}
 */
function show(name, options) {
  Object.keys(_views).forEach(function (other) {
    const element = Dom.byId('view-' + other);
    element.hidden = other !== name;
    element.classList.toggle('active', other === name);
  });
  if (_active !== name) {
    EventBus.emit(Events.UI_VIEW_SHOWN, name);
  }
  _active = name;
  if (_views[name].onShow) {
    _views[name].onShow(options);
  }
  requestRender();
}

/**
 * The active view's name.
 * @returns {(string|null)} E.g. `table`.
 */
function activeView() {
  return _active;
}

/**
 * The view switcher.
 * @namespace ViewManager
 */
export const ViewManager = Object.freeze({ register, init, show, activeView, requestRender });

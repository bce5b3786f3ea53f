/**
 * @file WatchView: everything about spectators (docs/server.md "Spectators") in one place.
 *
 * - The lists of tables to watch (`.watch-list` in the login view and the lobby, from
 *   `GET /api/tables` through TablesApi), each table with a "Watch" button.
 * - The watcher count in the toolbar (`#watchers`: an eye and the count, from
 *   `spectators_changed`), for the people at the table and the spectators.
 * - The "Watching" badge (`#spectate-badge`) and the read-only table of a spectator
 *   (`#wrapper.spectating`: no hand, no action buttons).
 * - In the lobby: the host's option to admit spectators (`#lobby-spectators`) and each
 *   person's consent to show all hands to spectators (`#lobby-spectate-allow`).
 *
 * It draws itself (on state changes, view changes and a language switch) and sends its
 * intents through the EventBus (`intent:watch`, `intent:options`, `intent:spectator-hands`).
 */

import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { I18n } from '../i18n.js';
import { State } from '../state.js';
import { TablesApi } from '../tables-api.js';
import { ViewManager } from '../view-manager.js';
import { Dom } from './dom.js';

/** @type {number} Tables a list shows (login: more room than the lobby). */
const _LOGIN_ROWS = 5;
const _LOBBY_ROWS = 3;
/** @type {number} Milliseconds between two refreshes of a shown list. */
const _REFRESH_MS = 4000;
/** @type {'http://www.w3.org/2000/svg'} The SVG namespace (its literal type types createElementNS). */
const _SVG = 'http://www.w3.org/2000/svg';

/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {import('../tables-api.js').TableEntry[]} The tables last fetched. */
let _tables = [];
/** @type {(number|null)} The refresh timer while a list is shown. */
let _timer = null;
/** @type {(number|null)} The pending render frame. */
let _frame = null;

/**
 * An eye icon (decorative).
 * @returns {SVGElement} The icon.
 */
function _eyeIcon() {
  const svg = document.createElementNS(_SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 48 48');
  svg.setAttribute('class', 'watch-eye');
  svg.setAttribute('aria-hidden', 'true');
  const outline = document.createElementNS(_SVG, 'path');
  outline.setAttribute('d', 'M4 24 C12 10 36 10 44 24 C36 38 12 38 4 24 Z');
  outline.setAttribute('class', 'watch-eye-line');
  const pupil = document.createElementNS(_SVG, 'circle');
  pupil.setAttribute('cx', '24');
  pupil.setAttribute('cy', '24');
  pupil.setAttribute('r', '7');
  svg.append(outline, pupil);
  return svg;
}

/**
 * Find the elements and wire the controls.
 * @returns {void}
 */
function init() {
  ['watchers', 'watchers-count', 'spectate-badge', 'wrapper', 'lobby-spectate', 'lobby-spectators',
    'lobby-spectate-allow', 'login-tables', 'lobby-tables'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  _elements.watchers.prepend(_eyeIcon());
  _elements['lobby-spectators'].addEventListener('change', function () {
    EventBus.emit(Events.INTENT_OPTIONS, { spectators: /** @type {HTMLInputElement} */ (_elements['lobby-spectators']).checked });
  });
  _elements['lobby-spectate-allow'].addEventListener('change', function () {
    EventBus.emit(Events.INTENT_SPECTATOR_HANDS, { allow: /** @type {HTMLInputElement} */ (_elements['lobby-spectate-allow']).checked });
  });
  EventBus.on(Events.UI_VIEW_SHOWN, _onView);
  EventBus.on(Events.STATE_CHANGED, _requestRender);
  EventBus.on(Events.INTENT_LANGUAGE, _requestRender);
}

/**
 * A view was shown: fetch the tables now and every few seconds while a list is visible.
 * @param {string} view The view's name.
 * @returns {void}
 */
function _onView(view) {
  if (_timer !== null) {
    window.clearInterval(_timer);
    _timer = null;
  }
  if (view === 'login' || view === 'lobby') {
    _refresh();
    _timer = window.setInterval(_refresh, _REFRESH_MS);
  }
  _requestRender();
}

/**
 * Fetch the tables, then draw.
 * @returns {void}
 */
function _refresh() {
  TablesApi.list().then(function (tables) {
    _tables = tables;
    _requestRender();
  });
}

/**
 * Draw in the next frame (several asks make one drawing).
 * @returns {void}
 */
function _requestRender() {
  if (_frame === null) {
    _frame = window.requestAnimationFrame(function () {
      _frame = null;
      render();
    });
  }
}

/**
 * Draw one list of tables to watch.
 * @param {HTMLElement} container The `.watch-list`.
 * @param {import('../tables-api.js').TableEntry[]} tables The tables to list.
 * @param {number} rows The most rows.
 * @returns {void}
 */
function _renderList(container, tables, rows) {
  container.hidden = !tables.length;
  Dom.part(container, '.watch-title').textContent = I18n.t('spectate.tables');
  const items = tables.slice(0, rows).map(function (table) {
    const item = document.createElement('li');
    item.className = 'watch-table';
    item.dataset.table = table.name;
    const text = document.createElement('div');
    text.className = 'watch-text';
    const name = document.createElement('span');
    name.className = 'watch-name';
    name.textContent = table.name;
    const line = document.createElement('span');
    line.className = 'watch-line';
    const state = !table.watchable && table.spectators === 0 ? 'spectate.closed'
      : table.running ? 'spectate.playing' : 'spectate.lobby';
    line.textContent = I18n.t('spectate.tableLine', { players: table.players.join(', '), state: I18n.t(state) });
    text.append(name, line);
    const count = document.createElement('span');
    count.className = 'watch-count';
    count.textContent = String(table.spectators);
    count.setAttribute('aria-label', I18n.t('spectate.count', { count: table.spectators }));
    count.prepend(_eyeIcon());
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'watch-button';
    button.textContent = I18n.t('spectate.watch');
    button.setAttribute('aria-label', I18n.t('spectate.watchLabel', { table: table.name }));
    button.disabled = !table.watchable;
    button.addEventListener('click', function () {
      EventBus.emit(Events.INTENT_WATCH, { table: table.name });
    });
    item.append(text, count, button);
    return item;
  });
  Dom.part(container, '.watch-tables').replaceChildren(...items);
}

/**
 * Draw the lists, the watcher count, the badge and the lobby's controls.
 * @returns {void}
 */
function render() {
  const view = ViewManager.activeView();
  const spectators = State.spectators;
  _renderList(_elements['login-tables'], view === 'login' ? _tables : [], _LOGIN_ROWS);
  const own = State.public.table_name;
  const others = _tables.filter(function (table) { return table.name !== own; });
  _renderList(_elements['lobby-tables'], view === 'lobby' && !State.spectating ? others : [], _LOBBY_ROWS);
  const atTable = view === 'lobby' || view === 'table' || view === 'scores';
  const showCount = atTable && spectators !== null && (State.spectating || State.playerIndex !== null);
  _elements.watchers.hidden = !showCount;
  if (showCount) {
    _elements['watchers-count'].textContent = String(spectators.count);
    _elements.watchers.setAttribute('aria-label', I18n.t('spectate.count', { count: spectators.count }));
    _elements.watchers.title = I18n.t('spectate.count', { count: spectators.count });
  }
  _elements['spectate-badge'].hidden = !(State.spectating && atTable);
  _elements['spectate-badge'].textContent = I18n.t('spectate.watching');
  _elements.wrapper.classList.toggle('spectating', State.spectating);
  const seat = State.playerIndex;
  const seated = seat !== null && spectators !== null;
  _elements['lobby-spectate'].hidden = !seated;
  if (seated) {
    const isHost = State.public.host_index === State.playerIndex;
    const host = /** @type {HTMLInputElement} */ (_elements['lobby-spectators']);
    host.checked = spectators.allowed;
    host.disabled = !isHost;
    const allow = /** @type {HTMLInputElement} */ (_elements['lobby-spectate-allow']);
    allow.checked = spectators.allow[seat] === true;
    allow.title = I18n.t('spectate.allowLabel');
  }
}

/**
 * The spectators' parts of the views.
 * @namespace WatchView
 */
export const WatchView = Object.freeze({ init, render });

/**
 * @file SocialView: the side panel `#dialog-chat` on the lobby and the table, with three
 * tabs: the table's chat (docs/server.md: `chat`, `reaction`), the move log (`MoveLog`) and the
 * score sheet of the game so far. "Chat" in the toolbar (`#chat-toggle`, with the unread
 * count `#chat-unread` while the chat is not shown) opens it on the chat, `#log-toggle` on the
 * log and `#sheet-toggle` on the score sheet (both on the table). The chat tab holds the chat
 * lines (`#chat-log`), the quick reactions, a text field and the mute toggle `#chat-mute`
 * (kept in localStorage: it hides incoming chat and reactions). A reaction also shows for a
 * moment as a bubble (`.reaction-bubble`) at the sender's seat. The panel takes room of its
 * own (ViewManager fits the stage beside or above it), so it never covers the table; opening
 * or closing it emits `ui:panel`. On the table it shows the target score next to the scores
 * (`#score-target`). Names and texts are shown as text, never as markup.
 */

import { Config } from '../config.js';
import { Events } from '../events.js';
import { EventBus } from '../event-bus.js';
import { I18n } from '../i18n.js';
import { MoveLog } from '../move-log.js';
import { Notifications } from '../protocol.js';
import { State } from '../state.js';
import { User } from '../user.js';
import { ScoreView } from './score-view.js';
import { Dom } from './dom.js';

/** @type {string[]} The panel's tabs, in their order. */
const _TABS = ['chat', 'log', 'sheet'];
/** @type {Object<string, HTMLElement>} */
const _elements = {};
/** @type {HTMLButtonElement[]} The reaction buttons, in the order of `Config.REACTIONS`. */
const _reactionButtons = [];
/** @type {(string|null)} The tab shown (`chat`, `log`, `sheet`), or null while the panel is closed. */
let _tab = null;
/** @type {boolean} Whether the panel was open when the layout was last told (`ui:panel`). */
let _laidOut = false;
/** @type {import('../move-log.js').MoveLogState} The move log. */
let _moves = MoveLog.empty();
/** @type {string} What the move log was last drawn from. */
let _movesDrawn = '';
/** @type {number} Lines from others that arrived while the chat was not shown. */
let _unread = 0;
/** @type {(string|null)} The view shown (`lobby`, `table`, ...), as the ViewManager reports it. */
let _view = null;
/** @type {string} What the chat log was last drawn from (lines, language, mute). */
let _drawn = '';
/** @type {number} Counts the changes of the chat lines (what the log is drawn from). */
let _version = 0;

/**
 * Whether a line is from another client and the chat is muted (it is then not shown).
 * @param {number} seat The sender's seat.
 * @returns {boolean} True when hidden.
 */
function _hidden(seat) {
  return User.isChatMuted() && seat !== State.playerIndex;
}

/**
 * Show a tab of the panel, or close it (null); showing the chat reads its unread lines and
 * focuses the text field. Closing gives the focus back to the toolbar's toggle.
 * @param {(string|null)} tab `chat`, `log`, `sheet` or null.
 * @returns {void}
 */
function _show(tab) {
  const closing = tab === null ? _tab : null;
  _tab = tab;
  if (tab === 'chat') {
    _unread = 0;
  }
  render(_view);
  if (tab === 'chat') {
    _elements['chat-input'].focus();
  }
  else if (tab) {
    _elements['panel-tab-' + tab].focus();
  }
  else if (closing) {
    const toggle = _elements[closing + '-toggle'];
    if (!toggle.hidden) {
      toggle.focus();
    }
  }
}

/**
 * A toolbar toggle: open the panel on its tab, or close the panel when that tab is shown.
 * @param {string} tab `chat`, `log` or `sheet`.
 * @returns {void}
 */
function _toggle(tab) {
  _show(_tab === tab ? null : tab);
}

/**
 * Whether the side panel is open (ViewManager gives it room of its own).
 * @returns {boolean} True when open.
 */
function isOpen() {
  return _tab !== null;
}

/**
 * Send the typed text (trimmed; an empty one is not sent).
 * @param {Event} event The form's submit event.
 * @returns {void}
 */
function _onSubmit(event) {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ (_elements['chat-input']);
  const text = input.value.trim();
  if (!text) {
    return;
  }
  EventBus.emit(Events.INTENT_CHAT, { text: text.slice(0, Config.CHAT_MAX_LENGTH) });
  input.value = '';
}

/**
 * Show a reaction for a moment as a bubble at the sender's seat (on the table or in the lobby).
 * @param {number} seat The sender's seat.
 * @param {string} reaction The reaction's id.
 * @returns {void}
 */
function _bubble(seat, reaction) {
  const selector = _view === 'lobby' ? '.lobby-seat' : '.seat';
  const root = document.getElementById(_view === 'lobby' ? 'view-lobby' : 'view-table');
  const seatElement = root ? root.querySelector(selector + '[data-seat="' + seat + '"]') : null;
  if (!seatElement) {
    return;
  }
  for (const old of seatElement.querySelectorAll('.reaction-bubble')) {
    old.remove();
  }
  const bubble = document.createElement('span');
  bubble.className = 'reaction-bubble';
  bubble.dataset.reaction = reaction;
  bubble.setAttribute('role', 'status');
  bubble.textContent = I18n.t('reaction.' + reaction);
  seatElement.appendChild(bubble);
  seatElement.classList.add('reacting');
  window.setTimeout(function () {
    bubble.remove();
    if (!seatElement.querySelector('.reaction-bubble')) {
      seatElement.classList.remove('reacting');
    }
  }, Config.REACTION_BUBBLE_MS);
}

/**
 * After the State took a notification: add it to the move log (a new game or a new
 * connection starts the log anew), count unread chat lines and show reactions.
 * @param {import('../events.js').StateChange} change What changed.
 * @returns {void}
 */
function _onStateChanged(change) {
  if (change.event === 'request') {
    return;
  }
  if (change.event === Notifications.GAME_STARTED || (change.event === Notifications.PLAYER_JOINED && change.context.session_id)
      || change.event === Notifications.SPECTATE_STARTED) {
    _moves = MoveLog.empty();
  }
  if (change.event !== Notifications.PLAYER_LEFT || State.public.is_running) {  // a leave in the lobby is no move of a game
    _moves = MoveLog.reduce(_moves, change, State.displayName, Config.MOVE_LOG_LINES);
  }
  if (change.event === Notifications.CHAT_HISTORY) {
    _version += 1;
  }
  if (change.event !== Notifications.CHAT_MESSAGE && change.event !== Notifications.REACTION) {
    return;
  }
  _version += 1;
  const seat = Number(change.context.player_index);
  if (_hidden(seat)) {
    return;
  }
  if (_tab !== 'chat' && seat !== State.playerIndex) {
    _unread += 1;
  }
  if (change.event === Notifications.REACTION && Config.REACTIONS.includes(change.context.reaction)) {
    _bubble(seat, change.context.reaction);
  }
}

/**
 * Wire the toggle, the panel and the reaction buttons.
 * @returns {void}
 */
function init() {
  ['chat-toggle', 'chat-unread', 'log-toggle', 'sheet-toggle', 'dialog-chat', 'chat-mute', 'chat-close',
    'chat-log', 'chat-reactions', 'chat-form', 'chat-input', 'chat-send', 'move-log', 'panel-tab-chat',
    'panel-tab-log', 'panel-tab-sheet', 'chat-pane', 'log-pane', 'sheet-pane'].forEach(function (id) {
    _elements[id] = Dom.byId(id);
  });
  /** @type {HTMLInputElement} */ (_elements['chat-input']).maxLength = Config.CHAT_MAX_LENGTH;
  _TABS.forEach(function (tab) {
    _elements[tab + '-toggle'].addEventListener('click', function () { _toggle(tab); });
    _elements['panel-tab-' + tab].addEventListener('click', function () { _show(tab); });
  });
  _elements['chat-close'].addEventListener('click', function () { _show(null); });
  _elements['dialog-chat'].addEventListener('keydown', function (event) {
    if (event.key === 'Escape') {
      _show(null);
    }
    else if ((event.key === 'ArrowLeft' || event.key === 'ArrowRight') && /** @type {Element} */ (event.target).matches('.panel-tab')) {
      const tabs = _TABS.filter(function (tab) { return !_elements['panel-tab-' + tab].hidden; });
      const step = event.key === 'ArrowRight' ? 1 : tabs.length - 1;
      _show(tabs[(tabs.indexOf(_tab || '') + step) % tabs.length]);
    }
  });
  _elements['chat-mute'].addEventListener('click', function () {
    User.setChatMuted(!User.isChatMuted());
    render(_view);
  });
  _elements['chat-form'].addEventListener('submit', _onSubmit);
  for (const reaction of Config.REACTIONS) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'chat-reaction';
    button.dataset.reaction = reaction;
    button.addEventListener('click', function () { EventBus.emit(Events.INTENT_REACTION, { reaction: reaction }); });
    _reactionButtons.push(button);
    _elements['chat-reactions'].appendChild(button);
  }
  EventBus.on(Events.STATE_CHANGED, _onStateChanged);
}

/**
 * One chat line as a list item: the sender's name and the text (or the reaction's words).
 * @param {import('../state.js').ChatLine} line A line of the State's chat.
 * @returns {HTMLLIElement} The item.
 */
function _lineItem(line) {
  const item = document.createElement('li');
  item.className = 'chat-line' + (line.reaction ? ' chat-line-reaction' : '')
    + (line.seat === State.playerIndex ? ' own' : '');
  item.dataset.seat = String(line.seat);
  const name = document.createElement('span');
  name.className = 'chat-name';
  name.textContent = line.name;
  const text = document.createElement('span');
  text.className = 'chat-text';
  text.textContent = line.reaction ? I18n.t('reaction.' + line.reaction) : line.text;
  item.append(name, text);
  return item;
}

/**
 * Draw the chat lines (only when they, the language or the mute changed).
 * @returns {void}
 */
function _renderLog() {
  const muted = User.isChatMuted();
  const lines = State.chat.filter(function (line) { return !_hidden(line.seat); });
  const key = [I18n.getLanguage(), muted, State.playerIndex, _version].join('|');
  if (key === _drawn) {
    return;
  }
  _drawn = key;
  const log = _elements['chat-log'];
  const items = lines.map(_lineItem);
  if (!items.length) {
    const empty = document.createElement('li');
    empty.className = 'chat-empty';
    empty.textContent = I18n.t(muted ? 'chat.muted' : 'chat.empty');
    items.push(empty);
  }
  log.replaceChildren.apply(log, items);
  log.scrollTop = log.scrollHeight;
}

/**
 * The target score beside the table's scores (`#score-target`, "to 1000").
 * @param {(number|null)} score The target score while the table is shown and the target known, else null.
 * @returns {void}
 */
function _renderTarget(score) {
  const scoreboard = document.getElementById('scoreboard');
  if (!scoreboard) {
    return;
  }
  let target = document.getElementById('score-target');
  if (!target) {
    target = document.createElement('span');
    target.id = 'score-target';
    scoreboard.appendChild(target);
  }
  target.hidden = score === null;
  if (score !== null) {
    target.textContent = I18n.t('score.target', { score: score });
  }
}

/**
 * Draw the move log (only when it or the language changed), newest at the bottom.
 * @returns {void}
 */
function _renderMoves() {
  const key = I18n.getLanguage() + '|' + _moves.moves.length + '|'
    + (_moves.moves.length ? MoveLog.text(_moves.moves[_moves.moves.length - 1]) : '');
  if (key === _movesDrawn) {
    return;
  }
  _movesDrawn = key;
  const log = _elements['move-log'];
  const items = _moves.moves.map(function (move) {
    const item = document.createElement('li');
    item.className = 'move move-' + move.kind;
    if (move.seat !== undefined) {
      item.dataset.seat = String(move.seat);
    }
    item.textContent = MoveLog.text(move);
    return item;
  });
  if (!items.length) {
    const empty = document.createElement('li');
    empty.className = 'move-empty';
    empty.textContent = I18n.t('log.empty');
    items.push(empty);
  }
  log.replaceChildren.apply(log, items);
  log.scrollTop = log.scrollHeight;
}

/**
 * Draw a toolbar toggle: shown where its tab is offered, `aria-expanded` while its tab shows.
 * @param {string} tab `chat`, `log` or `sheet`.
 * @param {boolean} offered Whether the tab is offered on this view.
 * @returns {void}
 */
function _renderToggle(tab, offered) {
  const toggle = _elements[tab + '-toggle'];
  toggle.hidden = !offered;
  toggle.setAttribute('aria-expanded', String(_tab === tab));
  _elements['panel-tab-' + tab].hidden = !offered;
  const selected = _tab === tab;
  _elements['panel-tab-' + tab].setAttribute('aria-selected', String(selected));
  _elements['panel-tab-' + tab].tabIndex = selected ? 0 : -1;
  _elements[tab + '-pane'].hidden = !selected;
}

/**
 * Draw the toggles, the panel and the target score for the view shown.
 * @param {(string|null)} view The active view's name.
 * @returns {void}
 */
function render(view) {
  _view = view;
  const seated = State.playerIndex !== null;
  /** @type {Object<string, boolean>} */
  const offered = {
    chat: (view === 'lobby' || view === 'table') && seated,
    log: view === 'table',
    sheet: view === 'table'
  };
  if (_tab && !offered[_tab]) {
    _tab = null;
  }
  _TABS.forEach(function (tab) { _renderToggle(tab, offered[tab]); });
  _elements['dialog-chat'].hidden = _tab === null;
  _elements['dialog-chat'].setAttribute('aria-label', I18n.t('chat.title'));
  if (_laidOut !== (_tab !== null)) {
    _laidOut = _tab !== null;
    EventBus.emit(Events.UI_PANEL, _laidOut);
  }
  const toggle = _elements['chat-toggle'];
  Dom.part(toggle, '.chat-toggle-label').textContent = I18n.t('chat.open');
  const unread = _tab === 'chat' ? 0 : _unread;
  _elements['chat-unread'].hidden = unread === 0;
  _elements['chat-unread'].textContent = unread > 99 ? '99+' : String(unread);
  toggle.setAttribute('aria-label', unread ? I18n.t('chat.unreadLabel', { count: unread }) : I18n.t('chat.openLabel'));
  _elements['log-toggle'].setAttribute('aria-label', I18n.t('panel.logLabel'));
  _elements['sheet-toggle'].setAttribute('aria-label', I18n.t('panel.sheetLabel'));
  const muted = User.isChatMuted();
  const mute = _elements['chat-mute'];
  mute.textContent = I18n.t(muted ? 'chat.unmute' : 'chat.mute');
  mute.setAttribute('aria-pressed', String(muted));
  mute.setAttribute('aria-label', I18n.t(muted ? 'chat.unmuteLabel' : 'chat.muteLabel'));
  _elements['chat-close'].textContent = '×';
  _elements['chat-close'].setAttribute('aria-label', I18n.t(_tab === 'chat' ? 'chat.closeLabel' : 'panel.closeLabel'));
  _elements['chat-input'].setAttribute('aria-label', I18n.t('chat.input'));
  /** @type {HTMLInputElement} */ (_elements['chat-input']).placeholder = I18n.t('chat.input');
  _elements['chat-reactions'].setAttribute('aria-label', I18n.t('chat.reactionsLabel'));
  _reactionButtons.forEach(function (button) {
    button.textContent = I18n.t('reaction.' + button.dataset.reaction);
  });
  if (_tab === 'chat') {
    _renderLog();
  }
  else if (_tab === 'log') {
    _renderMoves();
  }
  else if (_tab === 'sheet') {
    ScoreView.renderSheet();
  }
  _renderTarget(view === 'table' && State.lobby ? State.lobby.targetScore : null);
}

/**
 * The side panel (chat, move log, score sheet) and its toggles.
 * @namespace SocialView
 */
export const SocialView = Object.freeze({ init, render, isOpen });

/**
 * @file SocialView: the table's chat on the lobby and the table (docs/server.md: `chat`,
 * `reaction`). A "Chat" button in the toolbar (`#chat-toggle`, with the unread count
 * `#chat-unread` while the panel is closed) opens the panel `#dialog-chat`: the chat lines
 * (`#chat-log`), the quick reactions, a text field and the mute toggle `#chat-mute` (kept in
 * localStorage: it hides incoming chat and reactions). A reaction also shows for a moment as a
 * bubble (`.reaction-bubble`) at the sender's seat. On the table it shows the target score
 * next to the scores (`#score-target`). Names and texts are shown as text, never as markup.
 */
(function (Tichu) {
  'use strict';

  const Config = Tichu.Config;
  const EventBus = Tichu.EventBus;
  const I18n = Tichu.I18n;
  const State = Tichu.State;
  const User = Tichu.User;

  /** @type {Object<string, HTMLElement>} */
  const _elements = {};
  /** @type {HTMLButtonElement[]} The reaction buttons, in the order of `Config.REACTIONS`. */
  const _reactionButtons = [];
  /** @type {boolean} Whether the panel is open. */
  let _open = false;
  /** @type {number} Lines from others that arrived while the panel was closed. */
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
   * Open or close the panel; opening reads the unread lines and focuses the text field.
   * @param {boolean} open Whether to open it.
   * @returns {void}
   */
  function _setOpen(open) {
    _open = open;
    if (open) {
      _unread = 0;
    }
    render(_view);
    if (open) {
      _elements['chat-input'].focus();
    }
    else if (!_elements['chat-toggle'].hidden) {
      _elements['chat-toggle'].focus();
    }
  }

  /**
   * Send the typed text (trimmed; an empty one is not sent).
   * @param {Event} event The form's submit event.
   * @returns {void}
   */
  function _onSubmit(event) {
    event.preventDefault();
    const input = _elements['chat-input'];
    const text = input.value.trim();
    if (!text) {
      return;
    }
    EventBus.emit('intent:chat', { text: text.slice(0, Config.CHAT_MAX_LENGTH) });
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
    window.setTimeout(function () { bubble.remove(); }, Config.REACTION_BUBBLE_MS);
  }

  /**
   * Count unread lines and show reactions after the State took a chat notification.
   * @param {{event: string, context: Object}} change What changed.
   * @returns {void}
   */
  function _onStateChanged(change) {
    const event = change.event;
    if (event === 'chat_history') {
      _version += 1;
    }
    if (event !== 'chat_message' && event !== 'reaction') {
      return;
    }
    _version += 1;
    const seat = Number(change.context.player_index);
    if (_hidden(seat)) {
      return;
    }
    if (!_open && seat !== State.playerIndex) {
      _unread += 1;
    }
    if (event === 'reaction' && Config.REACTIONS.includes(change.context.reaction)) {
      _bubble(seat, change.context.reaction);
    }
  }

  /**
   * Wire the toggle, the panel and the reaction buttons.
   * @returns {void}
   */
  function init() {
    ['chat-toggle', 'chat-unread', 'dialog-chat', 'chat-mute', 'chat-close', 'chat-log', 'chat-reactions',
      'chat-form', 'chat-input', 'chat-send'].forEach(function (id) {
      _elements[id] = document.getElementById(id);
    });
    _elements['chat-input'].maxLength = Config.CHAT_MAX_LENGTH;
    _elements['chat-toggle'].addEventListener('click', function () { _setOpen(!_open); });
    _elements['chat-close'].addEventListener('click', function () { _setOpen(false); });
    _elements['dialog-chat'].addEventListener('keydown', function (event) {
      if (event.key === 'Escape') {
        _setOpen(false);
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
      button.addEventListener('click', function () { EventBus.emit('intent:reaction', { reaction: reaction }); });
      _reactionButtons.push(button);
      _elements['chat-reactions'].appendChild(button);
    }
    EventBus.on('state:changed', _onStateChanged);
  }

  /**
   * One chat line as a list item: the sender's name and the text (or the reaction's words).
   * @param {Object} line A `ChatLine` of the State.
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
   * @param {boolean} shown Whether the table is shown and the target known.
   * @returns {void}
   */
  function _renderTarget(shown) {
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
    target.hidden = !shown;
    if (shown) {
      target.textContent = I18n.t('score.target', { score: State.lobby.targetScore });
    }
  }

  /**
   * Draw the toggle, the panel and the target score for the view shown.
   * @param {(string|null)} view The active view's name.
   * @returns {void}
   */
  function render(view) {
    _view = view;
    const available = (view === 'lobby' || view === 'table') && State.playerIndex !== null;
    const toggle = _elements['chat-toggle'];
    toggle.hidden = !available;
    if (!available) {
      _open = false;
    }
    _elements['dialog-chat'].hidden = !_open;
    toggle.setAttribute('aria-expanded', String(_open));
    toggle.querySelector('.chat-toggle-label').textContent = I18n.t('chat.open');
    const unread = _open ? 0 : _unread;
    _elements['chat-unread'].hidden = unread === 0;
    _elements['chat-unread'].textContent = unread > 99 ? '99+' : String(unread);
    toggle.setAttribute('aria-label', unread ? I18n.t('chat.unreadLabel', { count: unread }) : I18n.t('chat.openLabel'));
    const muted = User.isChatMuted();
    const mute = _elements['chat-mute'];
    mute.textContent = I18n.t(muted ? 'chat.unmute' : 'chat.mute');
    mute.setAttribute('aria-pressed', String(muted));
    mute.setAttribute('aria-label', I18n.t(muted ? 'chat.unmuteLabel' : 'chat.muteLabel'));
    _elements['chat-close'].textContent = '×';
    _elements['chat-close'].setAttribute('aria-label', I18n.t('chat.closeLabel'));
    _elements['chat-input'].setAttribute('aria-label', I18n.t('chat.input'));
    _elements['chat-input'].placeholder = I18n.t('chat.input');
    _elements['chat-reactions'].setAttribute('aria-label', I18n.t('chat.reactionsLabel'));
    _reactionButtons.forEach(function (button) {
      button.textContent = I18n.t('reaction.' + button.dataset.reaction);
    });
    if (_open) {
      _renderLog();
    }
    _renderTarget(view === 'table' && Boolean(State.lobby));
  }

  /**
   * The chat panel and its toggle.
   * @namespace SocialView
   * @type {Object}
   */
  Tichu.SocialView = Object.freeze({ init, render });
})(window.Tichu = window.Tichu || {});

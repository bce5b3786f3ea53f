/**
 * @file LobbyView: the four seats in their teams (0+2 against 1+3); the host swaps seats by
 * tapping two of them, chooses the table's options (the agents' kind, hints) and starts the
 * game; the others see the options read-only.
 */
(function (Tichu) {
  'use strict';

  const EventBus = Tichu.EventBus;
  const I18n = Tichu.I18n;
  const State = Tichu.State;

  /** @type {Object<string, HTMLElement>} */
  const _elements = {};
  /** @type {HTMLElement[]} The seat buttons by seat. */
  const _seats = [];
  /** @type {(number|null)} The seat the host tapped first. */
  let _picked = null;
  /** @type {string} The agent kinds and language the agent select was built for. */
  let _agentChoices = '';

  /**
   * Wire the seats and buttons.
   * @returns {void}
   */
  function init() {
    ['lobby-title', 'lobby-hint', 'lobby-start', 'lobby-leave', 'lobby-options', 'lobby-agent',
      'lobby-hints'].forEach(function (id) {
      _elements[id] = document.getElementById(id);
    });
    for (const seat of document.querySelectorAll('.lobby-seat')) {
      _seats[Number(seat.dataset.seat)] = seat;
      seat.addEventListener('click', function () {
        _onSeat(Number(seat.dataset.seat));
      });
    }
    _elements['lobby-start'].addEventListener('click', function () {
      EventBus.emit('intent:start');
    });
    _elements['lobby-leave'].addEventListener('click', function () {
      EventBus.emit('intent:leave');
    });
    _elements['lobby-agent'].addEventListener('change', function () {
      if (_isHost()) {
        EventBus.emit('intent:options', { agent: _elements['lobby-agent'].value });
      }
    });
    _elements['lobby-hints'].addEventListener('change', function () {
      if (_isHost()) {
        EventBus.emit('intent:options', { hints: _elements['lobby-hints'].checked });
      }
    });
    EventBus.on('state:changed', function (change) {
      if (change.event === 'players_swapped' || change.event === 'player_joined') {
        _picked = null;
      }
    });
  }

  /**
   * Whether this client is the table's host.
   * @returns {boolean} True for the host.
   */
  function _isHost() {
    return State.playerIndex !== null && State.public.host_index === State.playerIndex;
  }

  /**
   * A tap on a seat: the host picks a seat, then swaps it with the next one tapped.
   * @param {number} seat The seat tapped.
   * @returns {void}
   */
  function _onSeat(seat) {
    if (!_isHost()) {
      return;
    }
    if (seat === State.playerIndex) {
      EventBus.emit('ui:toast', I18n.t('lobby.ownSeatFixed'));
    }
    else if (_picked === null) {
      _picked = seat;
    }
    else if (_picked === seat) {
      _picked = null;
    }
    else {
      EventBus.emit('intent:swap', { first: _picked, second: seat });
      _picked = null;
    }
    render();
  }

  /**
   * Draw the table's options: the host may change them, the others see them read-only. The
   * controls show what the server last said (a refused change springs back).
   * @param {boolean} isHost Whether this client is the host.
   * @returns {void}
   */
  function _renderOptions(isHost) {
    const options = State.options;
    _elements['lobby-options'].hidden = !options;
    if (!options) {
      return;
    }
    const select = _elements['lobby-agent'];
    const kinds = options.agents.includes(options.agent) ? options.agents : options.agents.concat([options.agent]);
    const choices = I18n.getLanguage() + '|' + kinds.join(',');
    if (choices !== _agentChoices) {
      _agentChoices = choices;
      select.replaceChildren.apply(select, kinds.map(function (kind) {
        const option = document.createElement('option');
        option.value = kind;
        option.textContent = I18n.agentLabel(kind);
        return option;
      }));
    }
    select.value = options.agent;
    select.disabled = !isHost;
    _elements['lobby-hints'].checked = options.hints;
    _elements['lobby-hints'].disabled = !isHost;
    _elements['lobby-options'].classList.toggle('read-only', !isHost);
  }

  /**
   * Draw the seats, the hint, the options and the buttons.
   * @returns {void}
   */
  function render() {
    const isHost = _isHost();
    const hostIndex = State.public.host_index;
    _elements['lobby-title'].textContent = I18n.t('lobby.title', { table: State.public.table_name || '' });
    _seats.forEach(function (element, seat) {
      element.querySelector('.seat-name').textContent = State.displayName(seat);
      const tags = [];
      if (seat === State.playerIndex) {
        tags.push(I18n.t('lobby.you'));
      }
      if (seat === hostIndex) {
        tags.push(I18n.t('lobby.host'));
      }
      element.querySelector('.seat-tags').textContent = tags.join(' · ');
      element.classList.toggle('own', seat === State.playerIndex);
      element.classList.toggle('host', seat === hostIndex);
      element.classList.toggle('picked', seat === _picked);
      element.classList.toggle('swappable', isHost && seat !== State.playerIndex);
    });
    let hint = I18n.t('lobby.hintHost');
    if (!isHost) {
      hint = I18n.t('lobby.hintGuest', { host: hostIndex === null || hostIndex === undefined ? '…' : State.displayName(hostIndex) });
    }
    else if (_picked !== null) {
      hint = I18n.t('lobby.hintPicked');
    }
    _elements['lobby-hint'].textContent = hint;
    _renderOptions(isHost);
    _elements['lobby-start'].disabled = !isHost;
  }

  /**
   * The lobby.
   * @namespace LobbyView
   * @type {Object}
   */
  Tichu.LobbyView = Object.freeze({ init, render });
})(window.Tichu = window.Tichu || {});

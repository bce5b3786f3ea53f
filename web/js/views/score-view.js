/**
 * @file ScoreView: the end-of-game score sheet, round by round for both teams with the calls
 * and their outcome; back to the lobby.
 */
(function (Tichu) {
  'use strict';

  const EventBus = Tichu.EventBus;
  const I18n = Tichu.I18n;
  const State = Tichu.State;

  /** @type {Object<string, HTMLElement>} */
  const _elements = {};

  /**
   * Find the elements and wire the back button.
   * @returns {void}
   */
  function init() {
    ['scores-winner', 'scores-team-20', 'scores-team-31', 'scores-total-20', 'scores-total-31', 'scores-back']
      .forEach(function (id) { _elements[id] = document.getElementById(id); });
    _elements.body = document.querySelector('#scores-table tbody');
    _elements['scores-back'].addEventListener('click', function () {
      EventBus.emit('intent:scores-back');
    });
  }

  /**
   * A team's name: its two players.
   * @param {number} team 20 or 31.
   * @returns {string} E.g. "Anna & Ben".
   */
  function _teamName(team) {
    const first = team === 20 ? 0 : 1;
    return State.displayName(first) + ' & ' + State.displayName(first + 2);
  }

  /**
   * The calls of a round in words, e.g. "Anna: Tichu (made it)".
   * @param {(Array<{seat: number, grand: boolean, success: boolean}>|null)} calls The calls.
   * @param {boolean} isDoubleVictory Whether the round was a double victory.
   * @returns {string} The text.
   */
  function _callsText(calls, isDoubleVictory) {
    const parts = (calls || []).map(function (call) {
      return State.displayName(call.seat) + ': ' + I18n.t(call.grand ? 'call.2' : 'call.1')
        + ' (' + I18n.t(call.success ? 'scores.made' : 'scores.failed') + ')';
    });
    if (isDoubleVictory) {
      parts.push(I18n.t('result.doubleVictory'));
    }
    return parts.length ? parts.join(', ') : I18n.t('scores.noCalls');
  }

  /**
   * Build the row of one round.
   * @param {Object} record The round (State's RoundRecord).
   * @returns {HTMLTableRowElement} The `tr.score-round`.
   */
  function _buildRow(record) {
    const row = document.createElement('tr');
    row.className = 'score-round';
    const cells = [String(record.roundIndex + 1), String(record.points[0]) + ' (' + record.total[0] + ')',
      String(record.points[1]) + ' (' + record.total[1] + ')', _callsText(record.calls, record.isDoubleVictory)];
    cells.forEach(function (text, index) {
      const cell = document.createElement(index === 0 ? 'th' : 'td');
      cell.textContent = text;
      row.appendChild(cell);
    });
    return row;
  }

  /**
   * Draw the sheet.
   * @returns {void}
   */
  function render() {
    const total = (State.gameOver && State.gameOver.total) || State.public.total || [0, 0];
    const winner = State.gameOver ? State.gameOver.winner : null;
    _elements['scores-winner'].textContent = winner ? I18n.t('scores.winner', { team: _teamName(winner) }) : '';
    _elements['scores-team-20'].textContent = _teamName(20);
    _elements['scores-team-31'].textContent = _teamName(31);
    _elements['scores-total-20'].textContent = String(total[0]);
    _elements['scores-total-31'].textContent = String(total[1]);
    _elements.body.replaceChildren(...State.rounds.map(_buildRow));
  }

  /**
   * The score sheet.
   * @namespace ScoreView
   * @type {Object}
   */
  Tichu.ScoreView = Object.freeze({ init, render });
})(window.Tichu = window.Tichu || {});

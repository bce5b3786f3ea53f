/**
 * @file TrickReview: the "Last trick" button and its dialog (`#dialog-review`) with two tabs:
 * the last trick taken (every play and pass with who made it, who took the trick and to whom
 * the Dragon went) and the cards still out (CardTracker), with the bombs they could still form
 * as the server lists them (`private_state.unseen_bombs`). It keeps the TrickLog from the
 * notifications on the EventBus.
 */

import { CardTracker } from '../../card-tracker.js';
import { Events } from '../../events.js';
import { EventBus } from '../../event-bus.js';
import { I18n } from '../../i18n.js';
import { Lib } from '../../lib.js';
import { Notifications, Phases } from '../../protocol.js';
import { State } from '../../state.js';
import { TrickLog } from '../../trick-log.js';
import { CardBuilder } from '../card-builder.js';
import { Dom } from '../dom.js';

/** @type {string[]} The tabs. */
const _TABS = ['trick', 'cards'];
/** @type {Object<string, number>} The special cards of the summary by name. */
const _SPECIALS = { dragon: 15, phoenix: 16, dog: 0, mahjong: 1 };

/** @type {number} More plays and passes than this are laid out in columns on a wide screen. */
const _LONG_TRICK = 6;
/** @type {number} More than this: three columns on a wide screen, two on a tall one. */
const _LONGER_TRICK = 14;

/** @type {import('../../trick-log.js').TrickLogState} The tricks of the round. */
let _log = TrickLog.empty();
/** @type {boolean} Whether the dialog is open. */
let _open = false;
/** @type {string} The tab shown. */
let _tab = 'trick';
/** @type {Object<string, HTMLElement>} */
const _elements = {};

/**
 * Open the dialog on a tab and give it the keyboard focus.
 * @param {string} [tab] `trick` or `cards` (default: the one shown last).
 * @returns {void}
 */
function open(tab) {
  if (/** @type {HTMLButtonElement} */ (_elements.button).disabled) {
    return;
  }
  _tab = tab || _tab;
  _open = true;
  render();
  _elements['tab-' + _tab].focus();
}

/**
 * Close the dialog; the focus goes back to the button.
 * @returns {void}
 */
function close() {
  if (!_open) {
    return;
  }
  _open = false;
  render();
  _elements.button.focus();
}

/**
 * Find the elements and wire them; keep the log from the notifications.
 * @returns {void}
 */
function init() {
  for (const id of ['btn-last-trick', 'dialog-review', 'review-tab-trick', 'review-tab-cards', 'review-trick',
    'review-cards', 'review-close']) {
    _elements[id] = Dom.byId(id);
  }
  _elements.button = _elements['btn-last-trick'];
  _elements.dialog = _elements['dialog-review'];
  _elements['tab-trick'] = _elements['review-tab-trick'];
  _elements['tab-cards'] = _elements['review-tab-cards'];
  _elements.button.addEventListener('click', function () { open(); });
  _elements['review-close'].addEventListener('click', close);
  _TABS.forEach(function (tab, index) {
    const button = _elements['tab-' + tab];
    button.addEventListener('click', function () {
      _tab = tab;
      render();
    });
    button.addEventListener('keydown', function (event) {
      if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
        _tab = _TABS[(index + 1) % _TABS.length];
        render();
        _elements['tab-' + _tab].focus();
      }
    });
  });
  _elements.dialog.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  });
  _elements.dialog.addEventListener('click', function (event) {
    if (event.target === _elements.dialog) {
      close();  // a click beside the panel
    }
  });
  EventBus.on(Events.STATE_CHANGED, function (/** @type {import('../../events.js').StateChange} */ change) {
    if (change.event === 'request') {
      if (change.context.action === 'wish' || change.context.action === 'give_dragon_away') {
        _open = false;  // the wish and Dragon dialogs come first
      }
      return;
    }
    _log = TrickLog.reduce(_log, change);
    if (change.event === Notifications.PLAYER_JOINED && 'session_id' in change.context) {
      _open = false;  // a (re)join closes the review
    }
  });
}

/**
 * A small element with a class and a text.
 * @param {string} tag The tag.
 * @param {string} className The class.
 * @param {string} text The text.
 * @returns {HTMLElement} The element.
 */
function _element(tag, className, text) {
  const element = document.createElement(tag);
  element.className = className;
  element.textContent = text;
  return element;
}

/**
 * The content of the "last trick" tab.
 * @returns {HTMLElement[]} Its elements.
 */
function _trickContent() {
  const last = _log.last;
  if (!last) {
    return [_element('p', 'review-empty', I18n.t('review.none'))];
  }
  const list = document.createElement('ol');
  list.className = 'review-plays';
  // a long trick goes into columns, so that every play and Close fit on the screen
  list.classList.toggle('long', last.entries.length > _LONG_TRICK);
  list.classList.toggle('longer', last.entries.length > _LONGER_TRICK);
  for (const entry of last.entries) {
    const item = document.createElement('li');
    item.className = 'review-play' + (entry.pass ? ' pass' : '');
    item.dataset.seat = String(entry.seat);
    item.appendChild(_element('span', 'review-name', State.displayName(entry.seat)));
    if (entry.pass) {
      item.appendChild(_element('span', 'review-pass', I18n.t('review.pass')));
    }
    else {
      const cards = document.createElement('div');
      cards.className = 'review-turn-cards';
      CardBuilder.syncCards(cards, Lib.sortCards(entry.cards));
      item.appendChild(cards);
    }
    list.appendChild(item);
  }
  const taken = _element('p', 'review-taken', I18n.t('review.takenBy',
    { name: last.winner === null ? '' : State.displayName(last.winner), points: last.points }));
  taken.dataset.seat = String(last.winner);
  const parts = [list, taken];
  if (last.dragonRecipient !== null) {
    const dragon = _element('p', 'review-dragon', I18n.t('review.dragonTo',
      { name: State.displayName(last.dragonRecipient) }));
    dragon.dataset.seat = String(last.dragonRecipient);
    parts.push(dragon);
  }
  return parts;
}

/**
 * One line of the "cards out" tab.
 * @param {string} name Its `data-fact`.
 * @param {string} label The label.
 * @param {string} value The value.
 * @returns {HTMLElement} The `.review-fact` row.
 */
function _fact(name, label, value) {
  const row = document.createElement('div');
  row.className = 'review-fact';
  row.dataset.fact = name;
  row.append(_element('dt', 'review-fact-label', label), _element('dd', 'review-fact-value', value));
  return row;
}

/**
 * The content of the "cards out" tab.
 * @returns {HTMLElement[]} Its elements.
 */
function _cardsContent() {
  const summary = CardTracker.summarize(State.public.played_cards || [], State.hand());
  const facts = document.createElement('dl');
  facts.className = 'review-facts';
  for (const name of Object.keys(_SPECIALS)) {
    const where = summary.specials[name];
    const row = _fact(name, I18n.t('card.' + _SPECIALS[name]), I18n.t('review.where.' + where));
    row.dataset.where = where;
    facts.appendChild(row);
  }
  facts.appendChild(_fact('aces', I18n.t('review.aces'), String(summary.acesOut)));
  // which bombs the cards still out could form is the server's word (R3.7, docs/server.md)
  const unseen = State.private.unseen_bombs || { four_of_a_kind: [], straight_flush: [] };
  const fours = unseen.four_of_a_kind.map(I18n.valueLabel).join(' ');
  facts.appendChild(_fact('four-of-a-kind', I18n.t('review.fourKinds'),
    unseen.four_of_a_kind.length ? unseen.four_of_a_kind.length + ' (' + fours + ')' : I18n.t('review.nothing')));
  const suits = unseen.straight_flush.map(/** @param {number} suit 1..4. @returns {string} Its name. */ function (suit) { return I18n.t('suit.' + suit); }).join(', ');
  facts.appendChild(_fact('straight-flush', I18n.t('review.straightFlush'), suits || I18n.t('review.nothing')));
  facts.appendChild(_fact('played', I18n.t('review.played'), String(summary.playedCount)));
  facts.appendChild(_fact('out', I18n.t('review.out'), String(summary.out.length)));
  const table = document.createElement('table');
  table.className = 'review-values';
  const head = document.createElement('tr');
  const counts = document.createElement('tr');
  head.appendChild(_element('th', '', I18n.t('review.value')));
  counts.appendChild(_element('th', '', I18n.t('review.stillOut')));
  Object.keys(summary.outByValue).map(Number).sort(function (a, b) { return a - b; }).forEach(function (value) {
    head.appendChild(_element('th', '', I18n.valueLabel(value)));
    const cell = _element('td', '', String(summary.outByValue[value]));
    cell.dataset.value = String(value);
    counts.appendChild(cell);
  });
  table.append(head, counts);
  return [facts, table];
}

/**
 * Draw the button and, while open, the dialog.
 * @returns {void}
 */
function render() {
  const phase = State.public.phase;
  // after a round the next deal starts at once: its final trick stays reviewable meanwhile
  const usable = State.playerIndex !== null && (phase === Phases.PLAYING || phase === Phases.ROUND_OVER || _log.last !== null);
  /** @type {HTMLButtonElement} */ (_elements.button).disabled = !usable;
  _elements.button.textContent = I18n.t('tools.lastTrick');
  _elements.button.setAttribute('aria-label', I18n.t('tools.lastTrickLabel'));
  _elements.button.setAttribute('aria-expanded', String(_open));
  if (!usable) {
    _open = false;
  }
  _elements.dialog.hidden = !_open;
  if (!_open) {
    return;
  }
  for (const tab of _TABS) {
    const button = _elements['tab-' + tab];
    const panel = _elements['review-' + tab];
    button.setAttribute('aria-selected', String(tab === _tab));
    button.tabIndex = tab === _tab ? 0 : -1;
    panel.hidden = tab !== _tab;
  }
  _elements['review-trick'].replaceChildren(..._trickContent());
  _elements['review-cards'].replaceChildren(..._cardsContent());
}

/**
 * The last-trick review.
 * @namespace TrickReview
 */
export const TrickReview = Object.freeze({ init, render, open, close });

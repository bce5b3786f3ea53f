/**
 * @file Spectate: watching a table (docs/server.md "Spectators"). `intent:watch {table}` opens
 * a spectator's socket (`/ws?table_name=T&spectate=1`), leaving the own seat first if there is
 * one; the table is remembered, so that a reload watches it again; `spectate_started` shows the
 * lobby or the table; the Leave button (`intent:leave`) ends the watching. `intent:spectator-hands`
 * sends a person's consent to show all hands to spectators.
 */

import { Config } from './config.js';
import { Events } from './events.js';
import { EventBus } from './event-bus.js';
import { Network } from './network.js';
import { Commands, Notifications } from './protocol.js';
import { State } from './state.js';
import { ViewManager } from './view-manager.js';

/** @type {(string|null)} A table to watch once the own seat is given up. */
let _pending = null;

/**
 * The remembered table (localStorage), or null.
 * @returns {(string|null)} The table's name.
 */
function remembered() {
  try {
    return window.localStorage.getItem(Config.STORAGE_KEYS.SPECTATE);
  }
  catch {
    return null;
  }
}

/**
 * Remember or forget the watched table.
 * @param {(string|null)} table The table, or null.
 * @returns {void}
 */
function _remember(table) {
  try {
    if (table === null) {
      window.localStorage.removeItem(Config.STORAGE_KEYS.SPECTATE);
    }
    else {
      window.localStorage.setItem(Config.STORAGE_KEYS.SPECTATE, table);
    }
  }
  catch {
    // no storage: a reload shows the login instead
  }
}

/**
 * Open a spectator's socket to a table.
 * @param {string} table The table's name.
 * @returns {void}
 */
function watch(table) {
  _remember(table);
  State.reset();
  State.spectating = true;
  ViewManager.show('loading');
  Network.spectate(table);
}

/**
 * Subscribe to the intents and the messages.
 * @returns {void}
 */
function init() {
  EventBus.on(Events.INTENT_WATCH, function (intent) {
    if (State.playerIndex !== null) {
      _pending = intent.table;  // leave the seat first; watch once the server closed it
      Network.leave();
    }
    else {
      watch(intent.table);
    }
  });
  EventBus.on(Events.NETWORK_LEFT, function () {
    _remember(null);
    if (_pending !== null) {
      const table = _pending;
      _pending = null;
      watch(table);
    }
  });
  EventBus.on(Events.NETWORK_REFUSED, function () { _remember(null); });
  EventBus.on(Events.NETWORK_FAILED, function () { _remember(null); });
  EventBus.on(Events.INTENT_SPECTATOR_HANDS, function (intent) {
    Network.send(Commands.SET_SPECTATOR_HANDS, { allow: Boolean(intent.allow) });
  });
  EventBus.on(Events.STATE_CHANGED, function (change) {
    if (change.event === Notifications.SPECTATE_STARTED) {
      EventBus.emit(Events.UI_CONNECTION, { lost: false });
      ViewManager.show(State.public.is_running ? 'table' : 'lobby');
    }
    else if (change.event === Notifications.GAME_STARTED && State.spectating) {
      ViewManager.show('table');
    }
  });
}

/**
 * Watch the remembered table again (after a reload).
 * @returns {boolean} Whether a table was remembered.
 */
function resume() {
  const table = remembered();
  if (table) {
    watch(table);
    return true;
  }
  return false;
}

/**
 * Watching tables.
 * @namespace Spectate
 */
export const Spectate = Object.freeze({ init, resume, watch, remembered });

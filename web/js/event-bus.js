/**
 * @file EventBus: the central publish/subscribe hub between network, controller and views.
 */

/** @typedef {import('./events.js').EventName} EventName One of the catalogue's names (events.js). */

/** @type {Map<EventName, Set<function(*): void>>} */
const _handlers = new Map();

/**
 * Subscribe to an event.
 * @param {EventName} name The event's name, e.g. `network:message`.
 * @param {function(*): void} handler Called with the event's payload.
 * @returns {void}
 */
function on(name, handler) {
  let handlers = _handlers.get(name);
  if (!handlers) {
    handlers = new Set();
    _handlers.set(name, handlers);
  }
  handlers.add(handler);
}

/**
 * Unsubscribe a handler.
 * @param {EventName} name The event's name.
 * @param {function(*): void} handler The handler given to {@link on}.
 * @returns {void}
 */
function off(name, handler) {
  const handlers = _handlers.get(name);
  if (handlers) {
    handlers.delete(handler);
  }
}

/**
 * Call every handler of an event, in the order they subscribed.
 * @param {EventName} name The event's name.
 * @param {*} [payload] Passed to each handler (any value: each event has its own, events.js).
 * @returns {void}
 */
function emit(name, payload) {
  const handlers = _handlers.get(name);
  if (!handlers) {
    return;
  }
  for (const handler of Array.from(handlers)) {
    handler(payload);
  }
}

/**
 * The event bus.
 * @namespace EventBus
 */
export const EventBus = Object.freeze({ on, off, emit });

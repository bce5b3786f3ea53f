/**
 * @file Dom: small typed helpers for the views' event handlers (the DOM's own types say too
 * little: an event's target is any `EventTarget`, `closest` finds any `Element`).
 */

/**
 * The nearest element around an event's target (the target included) that matches a selector.
 * @param {Event} event The event.
 * @param {string} selector A CSS selector.
 * @returns {(HTMLElement|null)} The element, or null (also when the target is no element).
 */
function closestTo(event, selector) {
  const target = event.target;
  return target instanceof Element ? /** @type {(HTMLElement|null)} */ (target.closest(selector)) : null;
}

/**
 * The value of the form field an event came from (a `select` or an `input`).
 * @param {Event} event The `change` or `input` event.
 * @returns {string} The field's value.
 */
function valueOf(event) {
  return /** @type {(HTMLInputElement|HTMLSelectElement)} */ (event.target).value;
}

/**
 * An element of the page's own markup (index.html) by its id: the markup guarantees it, so the
 * type leaves out the null of `getElementById`.
 * @param {string} id The element's id.
 * @returns {HTMLElement} The element.
 */
function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/**
 * A part of an element that the markup or the code that built the element guarantees (the first
 * match of a selector): the type leaves out the null of `querySelector`.
 * @param {ParentNode} parent The element.
 * @param {string} selector A CSS selector.
 * @returns {HTMLElement} The part.
 */
function part(parent, selector) {
  return /** @type {HTMLElement} */ (parent.querySelector(selector));
}

/**
 * The helpers.
 * @namespace Dom
 */
export const Dom = Object.freeze({ closestTo, valueOf, byId, part });

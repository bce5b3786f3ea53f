/**
 * @file TestRunner: a small unit-test runner for the browser (describe/it/assert). It prints
 * the results into the page and sets `window.TEST_RESULTS = {passed, failed, failures}` when
 * done, for a headless browser to read.
 */

/**
 * A failed test.
 * @typedef {Object} Failure
 * @property {string} suite The `describe` name.
 * @property {string} test The `it` name.
 * @property {string} message Why it failed.
 */

/** @type {Array<{name: string, tests: Array<{name: string, body: function(): *}>}>} */
const _suites = [];
/** @type {(Object|null)} The suite being declared. */
let _current = null;

/**
 * Declare a group of tests.
 * @param {string} name The group's name.
 * @param {function(): void} body Declares the tests with {@link it}.
 * @returns {void}
 */
function describe(name, body) {
  const suite = { name: name, tests: [] };
  _suites.push(suite);
  _current = suite;
  body();
  _current = null;
}

/**
 * Declare a test; it fails when its body throws (or its promise rejects).
 * @param {string} name What it checks.
 * @param {function(): *} body The test.
 * @returns {void}
 */
function it(name, body) {
  if (!_current) {
    throw new Error('it() outside describe(): ' + name);
  }
  _current.tests.push({ name: name, body: body });
}

/**
 * Whether two values are deeply equal (arrays, plain objects, Sets, primitives).
 * @param {*} actual A value.
 * @param {*} expected Another value.
 * @returns {boolean} True if equal.
 */
function _isEqual(actual, expected) {
  if (Object.is(actual, expected)) {
    return true;
  }
  if (actual instanceof Set && expected instanceof Set) {
    return actual.size === expected.size && Array.from(actual).every(function (item) { return expected.has(item); });
  }
  if (typeof actual !== 'object' || typeof expected !== 'object' || actual === null || expected === null
    || Array.isArray(actual) !== Array.isArray(expected)) {
    return false;
  }
  const keys = Object.keys(actual);
  return keys.length === Object.keys(expected).length && keys.every(function (key) {
    return Object.prototype.hasOwnProperty.call(expected, key) && _isEqual(actual[key], expected[key]);
  });
}

/**
 * A readable form of a value for failure messages.
 * @param {*} value The value.
 * @returns {string} The text.
 */
function _show(value) {
  if (value instanceof Set) {
    return 'Set(' + JSON.stringify(Array.from(value)) + ')';
  }
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/**
 * The assertions; each throws an Error with a message when it fails. They take any value
 * (`{*}`): what a test compares may be of any type.
 * @namespace assert
 */
const assert = Object.freeze({
  /**
   * The value is truthy.
   * @param {*} value The value.
   * @param {string} [message] What was expected.
   * @returns {void}
   */
  ok: function (value, message) {
    if (!value) {
      throw new Error(message || 'expected a truthy value, got ' + _show(value));
    }
  },
  /**
   * The value is neither null nor undefined; it is returned, typed so.
   * @template T
   * @param {T} value The value.
   * @param {string} [message] What was expected.
   * @returns {NonNullable<T>} The value.
   */
  present: function (value, message) {
    if (value === null || value === undefined) {
      throw new Error(message || 'expected a value, got ' + _show(value));
    }
    return /** @type {NonNullable<T>} */ (value);
  },
  /**
   * The values are identical (`Object.is`).
   * @param {*} actual The value.
   * @param {*} expected The expected value.
   * @param {string} [message] Context.
   * @returns {void}
   */
  equal: function (actual, expected, message) {
    if (!Object.is(actual, expected)) {
      throw new Error((message ? message + ': ' : '') + 'expected ' + _show(expected) + ', got ' + _show(actual));
    }
  },
  /**
   * The values are deeply equal.
   * @param {*} actual The value.
   * @param {*} expected The expected value.
   * @param {string} [message] Context.
   * @returns {void}
   */
  deepEqual: function (actual, expected, message) {
    if (!_isEqual(actual, expected)) {
      throw new Error((message ? message + ': ' : '') + 'expected ' + _show(expected) + ', got ' + _show(actual));
    }
  }
});

/**
 * Print one line of the report.
 * @param {HTMLElement} list The report list.
 * @param {string} text The line.
 * @param {string} className `pass` or `fail`.
 * @returns {void}
 */
function _report(list, text, className) {
  const item = document.createElement('li');
  item.className = className;
  item.textContent = text;
  list.appendChild(item);
}

/**
 * Run every declared test in order, print the results, and set `window.TEST_RESULTS`.
 * @param {HTMLElement} output Where to print.
 * @returns {Promise<{passed: number, failed: number, failures: Failure[]}>} The results.
 */
async function run(output) {
  /** @type {{passed: number, failed: number, failures: Failure[]}} */
  const results = { passed: 0, failed: 0, failures: [] };
  const list = document.createElement('ul');
  const summary = document.createElement('p');
  summary.id = 'summary';
  output.append(summary, list);
  for (const suite of _suites) {
    for (const test of suite.tests) {
      try {
        await test.body();
        results.passed += 1;
        _report(list, '✓ ' + suite.name + ' › ' + test.name, 'pass');
      }
      catch (error) {
        results.failed += 1;
        const message = error instanceof Error && error.message ? error.message : String(error);
        results.failures.push({ suite: suite.name, test: test.name, message: message });
        _report(list, '✗ ' + suite.name + ' › ' + test.name + ': ' + message, 'fail');
      }
    }
  }
  summary.textContent = results.passed + ' passed, ' + results.failed + ' failed';
  summary.className = results.failed ? 'fail' : 'pass';
  Object.defineProperty(window, 'TEST_RESULTS', { value: results, enumerable: true });
  return results;
}

/**
 * The test runner.
 * @namespace TestRunner
 */
export const TestRunner = Object.freeze({ describe, it, assert, run });

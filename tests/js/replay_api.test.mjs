/**
 * @file Node's test of the replay viewer's network module (web/js/replay-api.js): a refused
 * request becomes a failure with the server's reason, the rate limit's 429 included, whose body
 * carries a code in `error` and the words for people in `reason` (issue 33, finding 4).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';

/**
 * Load ReplayApi with a `window.fetch` that answers every request with `status` and `body`.
 * @param {number} status The HTTP status to answer.
 * @param {Object} body The JSON body to answer.
 * @returns {Promise<Object>} The ReplayApi namespace.
 */
async function apiAnswering(status, body) {
  globalThis.window = /** @type {any} */ ({
    fetch: async function () {
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    },
  });
  return (await import('../../web/js/replay-api.js')).ReplayApi;
}

test('a 429 shows the reason, not the code', async function () {
  const api = await apiAnswering(429, { error: 'too_many_requests', reason: 'too many requests; try again in 3 s' });
  await assert.rejects(api.fetchGame('g1'), { status: 429, reason: 'too many requests; try again in 3 s' });
});

test('a refused replay shows its error text', async function () {
  const api = await apiAnswering(400, { error: 'line 1 is no game record' });
  await assert.rejects(api.fetchGame('g1'), { status: 400, reason: 'line 1 is no game record' });
});

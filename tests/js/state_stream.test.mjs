/**
 * @file Node's own test of the browser's State on the golden stream (`node --test tests/js/`):
 * the hand it works out from the notifications alone is the one every request carries (the
 * server's truth), and the stream takes it through a whole game. The comparison with the Python
 * client is tests/client/test_two_clients.py.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { loadState } from './state_stream.mjs';

const STREAM = fileURLToPath(new URL('../data/golden_stream.txt', import.meta.url));

test('the browser State tracks the hand and the game of the golden stream', async function () {
  const State = await loadState();
  const frames = readFileSync(STREAM, 'utf8').split('\n').filter(Boolean).map(function (line) {
    return JSON.parse(line);
  }).filter(function (frame) { return 'type' in frame && 'payload' in frame; });
  /** @param {Array<number[]>} cards @returns {Array<number[]>} Sorted by value, then suit. */
  function sorted(cards) {
    return cards.slice().sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
  }
  /** @returns {Object} A deep copy of the State's snapshot. */
  function snapshot() {
    return JSON.parse(JSON.stringify(State.snapshot()));
  }
  State.reset();
  let checked = 0;
  frames.forEach(function (frame, step) {
    if (frame.type === 'notification') {
      State.apply(frame.payload.event, frame.payload.context || {});
    }
    else if (frame.type === 'request' && frame.payload.context.hand_cards) {
      assert.deepEqual(snapshot().hand_cards, sorted(frame.payload.context.hand_cards), 'frame ' + step);
      checked += 1;
    }
  });
  assert.ok(checked > 100, 'only ' + checked + ' requests carried the hand');
  assert.equal(snapshot().phase, 'game_over');
});

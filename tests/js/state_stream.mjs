/**
 * @file Drive the browser's State (web/js/state.js) with a stream of server frames and print
 * its snapshot after each one: one JSON line per frame, in order.
 *
 * Usage: `node tests/js/state_stream.mjs FRAMES` where FRAMES holds one server frame (a JSON
 * object with `type` and `payload`) per line. Notifications go to `State.apply`; requests and
 * errors are not the reducer's (the controller's) and leave the state as it is. Used by
 * tests/client/test_two_clients.py, which feeds the same frames to the Python client.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The browser's State, loaded without a browser: web/js/state.js is an ES module that touches
 * no DOM (eslint.config.js gives it no browser globals), so Node imports it as the page does.
 * @returns {Promise<Object>} The `State` object.
 */
export async function loadState() {
  return (await import('../../web/js/state.js')).State;
}

/**
 * The State's snapshot after each frame.
 * @param {Object} State The loaded State.
 * @param {Object[]} frames The server's frames.
 * @returns {Object[]} One snapshot per frame.
 */
export function snapshots(State, frames) {
  State.reset();
  return frames.map(function (frame) {
    if (frame.type === 'notification') {
      State.apply(String(frame.payload.event), frame.payload.context || {});
    }
    return State.snapshot();
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const frames = readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean).map(function (line) {
    return JSON.parse(line);
  });
  const State = await loadState();
  process.stdout.write(snapshots(State, frames).map(function (view) { return JSON.stringify(view); }).join('\n') + '\n');
}

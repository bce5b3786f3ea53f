// ESLint for the browser client (web/js): native ES modules, vanilla JS, no build step.
// `npx eslint web` in bin/test; the versions are pinned in package.json (tooling only).
import js from '@eslint/js';
import globals from 'globals';
import { Notifications } from './web/js/protocol.js';

/** Every event-bus call names its event through the catalogue (web/js/events.js). */
const EVENT_NAMES_FROM_THE_CATALOGUE = {
  selector: "CallExpression[callee.object.name='EventBus'][callee.property.name=/^(on|off|emit)$/]" +
    ":not([arguments.0.type='MemberExpression'][arguments.0.object.name='Events'])",
  message: 'Name the event through the catalogue: EventBus.on/off/emit(Events.X, ...) (web/js/events.js).'
};

/**
 * Every notification of the server is named through the protocol's catalogue (web/js/protocol.js):
 * a string equal to a notification's name is refused anywhere else in web/js.
 */
const NOTIFICATION_NAMES_FROM_THE_CATALOGUE = {
  selector: 'Literal[value=/^(' + Object.values(Notifications).join('|') + ')$/]',
  message: "Name the server's notification through the catalogue: Notifications.X (web/js/protocol.js)."
};

/**
 * The modules without a DOM: the State and what it imports, and the other pure modules. Node
 * imports the State (its golden-stream test), so these see no browser globals at all.
 */
const DOM_FREE = ['state.js', 'lib.js', 'config.js', 'events.js', 'protocol.js', 'card-labels.js', 'i18n.js', 'card-tracker.js', 'trick-log.js',
  'hand-order.js', 'auto-pass.js', 'move-log.js', 'analysis.js', 'analysis-state.js', 'history-state.js',
  'idle-seats.js', 'event-bus.js'].map(function (name) { return 'web/js/' + name; });

export default [
  js.configs.recommended,
  {
    files: ['web/js/**/*.js'],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: {}
    },
    rules: {
      'no-restricted-syntax': ['error', EVENT_NAMES_FROM_THE_CATALOGUE, NOTIFICATION_NAMES_FROM_THE_CATALOGUE],
      // The page builds its DOM with createElement and textContent, never from HTML strings.
      'no-restricted-properties': ['error',
        { property: 'innerHTML', message: 'Build the DOM with createElement and textContent.' },
        { property: 'outerHTML', message: 'Build the DOM with createElement and textContent.' },
        { property: 'insertAdjacentHTML', message: 'Build the DOM with createElement and textContent.' }],
      'no-unused-vars': ['error', { args: 'none' }],
      'no-var': 'error',
      'prefer-const': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-shadow': 'error'
    }
  },
  {
    files: ['web/js/protocol.js'],
    rules: { 'no-restricted-syntax': ['error', EVENT_NAMES_FROM_THE_CATALOGUE] }
  },
  {
    files: ['web/js/**/*.js'],
    ignores: DOM_FREE,
    languageOptions: { globals: { ...globals.browser } }
  },
  {
    files: ['eslint.config.js'],
    languageOptions: { sourceType: 'module', globals: { ...globals.node } }
  }
];

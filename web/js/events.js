/**
 * @file Events: the catalogue of the event bus's event names. Every `EventBus.on`, `off` and
 * `emit` names its event through this object (ESLint's `no-restricted-syntax` rule in
 * eslint.config.js refuses anything else), so that each event is written once, with who
 * emits it and what its payload is.
 *
 * Four families: `network:*` come from the WebSocket (`Network`), `state:*` from the
 * `AppController` after the `State` took a server message in, `intent:*` are what the user
 * asked for (emitted by the views, handled by the controllers), `ui:*` are between the views
 * and the `ViewManager`, and `replay:*` go from the `ReplayController` to the replay viewer.
 * No DOM: the module can be imported in Node.
 */

/**
 * The payload of `state:changed`: a notification's `{event, context}`, or a request as
 * `{event: 'request', context}`; checking `event` narrows `context`.
 * @typedef {(import('./protocol-types.js').NotificationPayload
 *   | {event: 'request', context: import('./protocol-types.js').RequestPayload})} StateChange
 */

/**
 * The event names; frozen.
 * @namespace Events
 */
export const Events = Object.freeze({
  /** Network: the socket opened. No payload. */
  NETWORK_OPEN: 'network:open',
  /** Network: a server message arrived. Payload: the parsed message `{type, payload}`. */
  NETWORK_MESSAGE: 'network:message',
  /** Network: the socket dropped; it reconnects. No payload. */
  NETWORK_LOST: 'network:lost',
  /** Network: the first connection failed. No payload. */
  NETWORK_FAILED: 'network:failed',
  /** Network: the server closed the session (policy violation). Payload: `{reason: string}`. */
  NETWORK_REFUSED: 'network:refused',
  /** Network: the own `leave` was answered, or the socket closed after it. No payload. */
  NETWORK_LEFT: 'network:left',

  /**
   * AppController: the State took a notification (or a request) in.
   * Payload: a `StateChange`, `{event, context}` (`event` is `request` for a request).
   */
  STATE_CHANGED: 'state:changed',

  /**
   * LoginView, Line: join a table. Payload: `{name: string, table: string, save: (boolean|undefined)}`
   * (`save: false`: not remembered as the user's table, for another line's). AppController.
   */
  INTENT_LOGIN: 'intent:login',
  /** ToolbarView, LobbyView: leave the table (with a confirmation in a game). No payload. AppController. */
  INTENT_LEAVE: 'intent:leave',
  /** ToolbarView: switch the language. No payload. AppController and the self-drawing views. */
  INTENT_LANGUAGE: 'intent:language',
  /** ToolbarView: mute or unmute the sounds. No payload. AppController. */
  INTENT_MUTE: 'intent:mute',
  /** LobbyView: the host swaps two seats. Payload: `{first: number, second: number}`. AppController. */
  INTENT_SWAP: 'intent:swap',
  /** LobbyView: the host starts the game. No payload. AppController. */
  INTENT_START: 'intent:start',
  /** LobbyView: ready or not. Payload: `{ready: boolean}`. AppController. */
  INTENT_READY: 'intent:ready',
  /**
   * LobbyView, SeatRulesView, WatchView: the host sets a table option. Payload: one field of
   * `set_options` (`{agent}`, `{hints}`, `{target_score}`, `{turn_clock}`, ...). AppController.
   */
  INTENT_OPTIONS: 'intent:options',
  /**
   * TableView, Modals, AutoPassBar: answer the open request.
   * Payload: `{action: string, data: Object}`. AppController (and TableView clears the selection).
   */
  INTENT_RESPOND: 'intent:respond',
  /** TableView: call Tichu. No payload. AppController. */
  INTENT_ANNOUNCE: 'intent:announce',
  /** TableView: throw a bomb out of turn. Payload: `{cards: number[][]}`. AppController. */
  INTENT_BOMB: 'intent:bomb',
  /** TableView: show the score sheet. No payload. AppController. */
  INTENT_SHOW_SCORES: 'intent:show-scores',
  /** ScoreView: back to the lobby. No payload. AppController. */
  INTENT_SCORES_BACK: 'intent:scores-back',
  /** SocialView: send a chat line. Payload: `{text: string}`. AppController. */
  INTENT_CHAT: 'intent:chat',
  /** SocialView: send a quick reaction. Payload: `{reaction: string}`. AppController. */
  INTENT_REACTION: 'intent:reaction',
  /** IdleView: the host hands a waited-for seat to an agent. Payload: `{seat: number}`. AppController. */
  INTENT_HAND_OVER: 'intent:hand-over',
  /** IdleView: take the own seat back from the agent. No payload. AppController. */
  INTENT_TAKE_BACK: 'intent:take-back',
  /** LoginView, WatchView: watch a table. Payload: `{table: string}`. Spectate. */
  INTENT_WATCH: 'intent:watch',
  /** WatchView: the host lets spectators see the hands or not. Payload: `{allow: boolean}`. Spectate. */
  INTENT_SPECTATOR_HANDS: 'intent:spectator-hands',
  /** LoginView, LobbyView: open the history. No payload. HistoryController. */
  INTENT_HISTORY: 'intent:history',
  /** HistoryView: back from the history. No payload. HistoryController. */
  INTENT_HISTORY_BACK: 'intent:history-back',
  /** HistoryView: another page of games. Payload: `{offset: number}`. HistoryController. */
  INTENT_HISTORY_PAGE: 'intent:history-page',
  /** HistoryView: drop the player filter. No payload. HistoryController. */
  INTENT_HISTORY_ALL: 'intent:history-all',
  /** HistoryView: only games with people, or all. Payload: `{people: boolean}`. HistoryController. */
  INTENT_HISTORY_PEOPLE: 'intent:history-people',
  /** HistoryView: switch tab. Payload: `{tab: 'games'|'leaderboard'}`. HistoryController. */
  INTENT_HISTORY_TAB: 'intent:history-tab',
  /** HistoryView: show a player's statistics. Payload: `{name: string}`. HistoryController. */
  INTENT_PLAYER: 'intent:player',
  /** PlayerView: back from a player's statistics. No payload. HistoryController. */
  INTENT_PLAYER_BACK: 'intent:player-back',
  /** PlayerView: the history filtered to the player. No payload. HistoryController. */
  INTENT_PLAYER_GAMES: 'intent:player-games',
  /**
   * Open a stored game in the replay viewer. Payload: `{id: (string|number), step: (number|null)}`.
   * ReplayController. (The page itself opens games through the address `#replay=<id>`.)
   */
  INTENT_REPLAY_OPEN: 'intent:replay-open',
  /** ReplayView: open a record file. Payload: `{file: File}`. ReplayController. */
  INTENT_REPLAY_FILE: 'intent:replay-file',
  /** ReplayView: choose one game of a record with several. Payload: `{index: number}`. ReplayController. */
  INTENT_REPLAY_CHOOSE: 'intent:replay-choose',
  /** AnalysisView, PuzzleView: jump to a step. Payload: `{step: number}`. ReplayView. */
  INTENT_REPLAY_STEP: 'intent:replay-step',
  /** ReplayView: leave the replay viewer. No payload. AppController. */
  INTENT_REPLAY_BACK: 'intent:replay-back',
  /** AnalysisView: start the analysis of the stored game shown. No payload. AnalysisController. */
  INTENT_ANALYSIS_START: 'intent:analysis-start',
  /**
   * LineView: play a stored game's round on from a step (another line).
   * Payload: `{gameId: string, step: number, seat: number, gameRound: (number[]|null)}`. Line.
   */
  INTENT_LINE_START: 'intent:line-start',
  /** TableView: leave another line's table, back to the replay. No payload. Line. */
  INTENT_LINE_BACK: 'intent:line-back',
  /**
   * AnalysisView ("Learn from your mistakes"): replay a seat's costly decisions as puzzles.
   * Payload: `{seat: number}` (the seat whose costliest decisions are listed). PuzzleView.
   */
  INTENT_PUZZLES_START: 'intent:puzzles-start',

  /**
   * ReplayController: a game to replay arrived.
   * Payload: `{document: Object, gameId: (string|null), step: (number|null)}`. ReplayView, AnalysisController.
   */
  REPLAY_LOADED: 'replay:loaded',
  /** ReplayController: a record holds several games. Payload: `{records: Object[]}`. ReplayView, AnalysisController. */
  REPLAY_CHOOSE: 'replay:choose',
  /** ReplayController: a game could not be opened. Payload: `{key: string, detail: string}`. ReplayView, AnalysisController. */
  REPLAY_FAILED: 'replay:failed',

  /** Any view: draw again (batched in `requestAnimationFrame`). No payload. ViewManager. */
  UI_RENDER: 'ui:render',
  /** ViewManager: a view was shown. Payload: the view's name. Views and controllers. */
  UI_VIEW_SHOWN: 'ui:view-shown',
  /** SocialView: the side panel opened or closed. Payload: whether it is laid out. ViewManager. */
  UI_PANEL: 'ui:panel',
  /**
   * AppController, LobbyView, TableView: show a message in the toast.
   * Payload: its text, or `{text: string, tag: string}` to drop it later by tag. ToolbarView.
   */
  UI_TOAST: 'ui:toast',
  /** TableView: hide the toast if it shows the message of this tag. Payload: the tag. ToolbarView. */
  UI_TOAST_DROP: 'ui:toast-drop',
  /** AppController, Spectate: the connection is lost or back. Payload: `{lost: boolean}`. ToolbarView. */
  UI_CONNECTION: 'ui:connection',
  /** AppController: back at the login, with why. Payload: a {@link LoginError} or null. LoginView. */
  UI_LOGIN_ERROR: 'ui:login-error'
});

/**
 * An event's name: one of the values of {@link Events}.
 * @typedef {typeof Events[keyof typeof Events]} EventName
 */

/**
 * Why the page is back at the login (the payload of `ui:login-error`): an I18n key or a server
 * error code (translated when drawn); `watch` names a table that refused a newcomer but admits
 * a spectator.
 * @typedef {Object} LoginError
 * @property {string} [key] An I18n key.
 * @property {number} [code] A server error code.
 * @property {(string|null)} [watch] The table to watch instead.
 */

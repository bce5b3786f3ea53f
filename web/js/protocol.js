/**
 * @file Protocol: the catalogue of the WebSocket protocol's names (docs/protocol.md,
 * docs/server.md): the server's notifications, the messages a client sends and the table's
 * phases. Each name is written here once; every module names them through these objects. ESLint's
 * `no-restricted-syntax` rule (eslint.config.js) refuses a notification's name as a bare string
 * anywhere else, and tests/web/test_protocol_catalogue.py checks that each object lists exactly
 * the server's names (`NOTIFICATIONS` and `CLIENT_TYPES` in src/tichu/server/wire/, `TablePhase`
 * in src/tichu/core/views.py), so that the two sides cannot drift. No DOM: Node imports it too.
 */

/**
 * The notifications the server sends (`{type: 'notification', payload: {event, context}}`), by
 * their `event`; frozen. Each line says what the notification tells.
 * @namespace Notifications
 */
export const Notifications = Object.freeze({
  /** A seat played cards: `{turn, trick_points, trick_owner_index, is_bomb, out_of_turn}`. */
  PLAYER_PLAYED: 'player_played',
  /** A seat passed: `{player_index}`. */
  PLAYER_PASSED: 'player_passed',
  /** The turn moved: `{current_turn_index}`. */
  PLAYER_TURN_CHANGED: 'player_turn_changed',
  /** A trick was collected: `{player_index, points, dragon_recipient}`. */
  TRICK_TAKEN: 'trick_taken',
  /** A seat called Tichu or Grand Tichu: `{player_index, grand}`. */
  PLAYER_ANNOUNCED: 'player_announced',
  /** A seat pushed its three cards: `{player_index}`. */
  PLAYER_SCHUPFED: 'player_schupfed',
  /** A seat went out: `{player_index, place}`. */
  PLAYER_OUT: 'player_out',
  /** The other hands, to a seat that is out where the table allows it: `{hands}`. */
  HANDS_REVEALED: 'hands_revealed',
  /** The Mah Jong's wish: `{wish_value}`. */
  WISH_MADE: 'wish_made',
  /** The wish was fulfilled: `{}`. */
  WISH_FULFILLED: 'wish_fulfilled',
  /** Cards were dealt: `{count}`, to the own seat also `{hand_cards}`. */
  HAND_CARDS_DEALT: 'hand_cards_dealt',
  /** The push is done and play starts: `{start_player_index}` (+ the own `received_schupf_cards`). */
  START_PLAYING: 'start_playing',
  /** A round started: `{round_index}`. */
  ROUND_STARTED: 'round_started',
  /** A round ended: `{card_points, bonus, points, total, out_order, is_double_victory}`. */
  ROUND_OVER: 'round_over',
  /** The game started: `{}`. */
  GAME_STARTED: 'game_started',
  /** The game ended: `{game_score, total, winner}`. */
  GAME_OVER: 'game_over',
  /** Someone took a seat: `{player_index, player_name}`; the joining client's own also has its session and state. */
  PLAYER_JOINED: 'player_joined',
  /** A seat's connection dropped: `{player_index, ...}` (docs/server.md). */
  PLAYER_DISCONNECTED: 'player_disconnected',
  /** Someone left: `{player_index, player_name, host_index, replaced_by_agent}`. */
  PLAYER_LEFT: 'player_left',
  /** The host swapped two seats: `{player_index_1, player_index_2}`. */
  PLAYERS_SWAPPED: 'players_swapped',
  /** The own seat's private state changed: `{private_state}`. */
  PRIVATE_STATE_CHANGED: 'private_state_changed',
  /** An interrupt cancelled the own open request: `{request_id}`. */
  REQUEST_CANCELLED: 'request_cancelled',
  /** The table's options: `{agent, hints, agents, levels, turn_clock, ...}`. */
  OPTIONS_CHANGED: 'options_changed',
  /** The lobby's extension state: the target score and the readiness. */
  LOBBY_STATE: 'lobby_state',
  /** A line of chat: `{player_index, player_name, text}`. */
  CHAT_MESSAGE: 'chat_message',
  /** The kept chat lines, oldest first: `{messages}`. */
  CHAT_HISTORY: 'chat_history',
  /** A quick reaction: `{player_index, player_name, reaction}`. */
  REACTION: 'reaction',
  /** How many watch, and the limit: `{count, limit, ...}`. */
  SPECTATORS_CHANGED: 'spectators_changed',
  /** Every hand, to spectators where the seats allow it. */
  SPECTATOR_HANDS: 'spectator_hands',
  /** A spectator is in: the table's state. */
  SPECTATE_STARTED: 'spectate_started',
  /** The seats' turn clocks. */
  TURN_CLOCKS: 'turn_clocks',
  /** A seat went to its stand-in. */
  SEAT_HANDED_OVER: 'seat_handed_over',
  /** A seat's person took it back from the stand-in. */
  SEAT_TAKEN_BACK: 'seat_taken_back',
  /** The game ended before its target score. */
  GAME_ENDED_EARLY: 'game_ended_early',
  /** A line of games ended. */
  LINE_OVER: 'line_over',
  /** The game was stored: its replay and analysis can be opened. */
  GAME_STORED: 'game_stored'
});

/**
 * The messages a client sends (`{type, payload}`), by their `type`; frozen.
 * @namespace Commands
 */
export const Commands = Object.freeze({
  /** Call a plain Tichu (R6.1). */
  ANNOUNCE: 'announce',
  /** Lay a bomb out of turn (R4.3): `{cards}`. */
  BOMB: 'bomb',
  /** A line of chat: `{text}`. */
  CHAT: 'chat',
  /** Hand the seat over to its stand-in: `{player_index}`. */
  HAND_OVER: 'hand_over',
  /** Leave the table. */
  LEAVE: 'leave',
  /** Keep-alive; the server answers `pong`. */
  PING: 'ping',
  /** A quick reaction: `{reaction}`. */
  REACTION: 'reaction',
  /** Answer a request: `{request_id, action, response_data}`. */
  RESPONSE: 'response',
  /** The host sets a table option. */
  SET_OPTIONS: 'set_options',
  /** Ready or not in the lobby: `{ready}`. */
  SET_READY: 'set_ready',
  /** Show the own hand to spectators or not: `{allow}`. */
  SET_SPECTATOR_HANDS: 'set_spectator_hands',
  /** The host starts the game. */
  START_GAME: 'start_game',
  /** The host swaps two seats: `{player_index_1, player_index_2}`. */
  SWAP_PLAYERS: 'swap_players',
  /** Ask for the chat, the readiness and the target score. */
  TABLE_SYNC: 'table_sync',
  /** Take the seat back from the stand-in. */
  TAKE_BACK: 'take_back'
});

/**
 * What the table is doing (`public_state.phase`); frozen.
 * @namespace Phases
 */
export const Phases = Object.freeze({
  /** Before the game, or between games. */
  LOBBY: 'lobby',
  /** The first eight cards are out; the seats decide on Grand Tichu (R2.1). */
  GRAND_TICHU: 'grand_tichu',
  /** The seats push three cards (R2.3). */
  SCHUPF: 'schupf',
  /** Tricks are played. */
  PLAYING: 'playing',
  /** A round is over; the next one comes. */
  ROUND_OVER: 'round_over',
  /** The game is over. */
  GAME_OVER: 'game_over'
});

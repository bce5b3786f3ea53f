/**
 * @file Config: the client's constants (stage sizes, timings, storage keys, protocol codes).
 */

/**
 * The client's constants; frozen.
 * @namespace Config
 * @property {{width: number, height: number}} STAGE_PORTRAIT The 9:16 stage, in stage pixels.
 * @property {{width: number, height: number}} STAGE_LANDSCAPE The 16:9 stage, in stage pixels.
 * @property {number} RECONNECT_INTERVAL_MS Pause before each reconnect attempt.
 * @property {number} LONG_PRESS_MS How long the Tichu button is held to call Grand Tichu.
 * @property {number} TOAST_MS How long a message stays in the toast.
 * @property {number} MAX_NAME_LENGTH Longest player name (protocol.md).
 * @property {number} MAX_TABLE_LENGTH Longest table name (protocol.md).
 * @property {number} POLICY_VIOLATION_CLOSE_CODE The close code of a refused session.
 * @property {number} TRY_AGAIN_LATER_CLOSE_CODE The close code of a busy server (not retried by a spectator).
 * @property {number[]} SESSION_ERROR_CODES Error codes of a refused session (SESSION_EXPIRED, SESSION_NOT_FOUND).
 * @property {number[]} REFUSAL_ERROR_CODES Error codes after which a response's request stays open.
 * @property {number[]} CLOSED_REQUEST_ERROR_CODES Error codes after which the answered request is known to be closed.
 * @property {number} ACTION_TIMEOUT_CODE The error code of a decision an agent took for the seat.
 * @property {number} INVALID_MESSAGE_CODE The error code of invalid query parameters at connect time.
 * @property {number} GAME_ALREADY_STARTED_CODE The error code of joining a running game closed to newcomers.
 * @property {number} UNAUTHORIZED_CODE The error code of a chat line from a seat that is out (it sees every hand).
 * @property {Object<string, string>} STORAGE_KEYS The localStorage keys.
 * @property {number} CHAT_MAX_LENGTH Characters a chat text may have (the server's bound).
 * @property {string[]} REACTIONS The quick reactions' ids, in the order of their buttons.
 * @property {number} REACTION_BUBBLE_MS How long a reaction's bubble stays at the sender's seat.
 * @property {number[]} TARGET_SCORES The target scores the lobby offers (and the current one).
 * @property {{width: number, height: number}} SIDE_PANEL The side panel's room (chat, move log,
 *   score sheet): its width beside the landscape stage, its height below the portrait stage.
 * @property {number} MOVE_LOG_LINES Lines the move log keeps.
 * @property {number} SERVER_BUSY_CODE The error code of a message over a rate (the chat's included).
 */
const Config = Object.freeze({
  STAGE_PORTRAIT: Object.freeze({ width: 1080, height: 1920 }),
  STAGE_LANDSCAPE: Object.freeze({ width: 1920, height: 1080 }),
  RECONNECT_INTERVAL_MS: 1000,
  LONG_PRESS_MS: 700,
  TOAST_MS: 3500,
  MAX_NAME_LENGTH: 20,
  MAX_TABLE_LENGTH: 40,
  POLICY_VIOLATION_CLOSE_CODE: 1008,
  TRY_AGAIN_LATER_CLOSE_CODE: 1013,
  SESSION_ERROR_CODES: Object.freeze([200, 201]),
  REFUSAL_ERROR_CODES: Object.freeze([102, 103, 300, 302, 303, 306, 308]),
  CLOSED_REQUEST_ERROR_CODES: Object.freeze([301, 310]),
  ACTION_TIMEOUT_CODE: 309,
  INVALID_MESSAGE_CODE: 101,
  GAME_ALREADY_STARTED_CODE: 400,
  UNAUTHORIZED_CODE: 104,
  STORAGE_KEYS: Object.freeze({
    NAME: 'tichu.name',
    TABLE: 'tichu.table',
    SESSION: 'tichu.session',
    LEFT: 'tichu.left',
    LANGUAGE: 'tichu.language',
    MUTED: 'tichu.muted',
    CHAT_MUTED: 'tichu.chatMuted',
    SPECTATE: 'tichu.spectate'
  }),
  CHAT_MAX_LENGTH: 200,
  REACTIONS: Object.freeze(['nice', 'good_luck', 'oops', 'well_played', 'thanks']),
  REACTION_BUBBLE_MS: 2500,
  TARGET_SCORES: Object.freeze([250, 500, 1000, 1500, 2000]),
  SIDE_PANEL: Object.freeze({ width: 600, height: 780 }),
  MOVE_LOG_LINES: 400,
  SERVER_BUSY_CODE: 105
});

export { Config };

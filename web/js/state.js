/**
 * @file State: the game as this seat knows it, kept up to date from the server's messages
 * (the logic of the Python client's `TableState`, src/tichu/client/state.py): the public and
 * private state as the server sends them, their fields replaced by those each game event
 * carries (`public_delta`, `private_delta`; docs/server.md, "The state with every event"), never
 * worked out from the events (issue 36).
 */

import { I18n } from './i18n.js';
import { Lib } from './lib.js';
import { Phases } from './protocol.js';

/**
 * One finished round as the score sheet shows it.
 * @typedef {Object} RoundRecord
 * @property {number} roundIndex From 0.
 * @property {(number[]|null)} cardPoints `[team 20, team 31]`, null when unknown (after a reconnect).
 * @property {(number[]|null)} bonus `[team 20, team 31]` of Tichu calls, null when unknown.
 * @property {number[]} points `[team 20, team 31]` of the round.
 * @property {number[]} total `[team 20, team 31]` after the round.
 * @property {(Array<{seat: number, grand: boolean, success: boolean}>|null)} calls The calls and
 *   whether the caller went out first; null when unknown.
 * @property {boolean} isDoubleVictory Whether a team went out first and second (R7.1).
 * @property {string[]} names The four seats' names when the round was played (the sheet keeps
 *   them when a player leaves later); a seat that changed hands during the round names everyone
 *   who held it, in order ("Max → Bot 3").
 * @property {number[]} outOrder The seats in the order they went out (`out_order`); empty when unknown.
 */

/**
 * A request as the protocol sends it (`timeout`: seconds left, or null).
 * @typedef {import('./protocol-types.js').RequestPayload} Request
 */

/**
 * The table's options (docs/server.md: `set_options`), as the server last told them.
 * @typedef {Object} TableOptions
 * @property {string} agent The agent kind of the empty seats.
 * @property {boolean} hints Whether `play` requests carry a hint.
 * @property {string[]} agents The agent kinds the server knows (protocol clients may send them).
 * @property {string[]} levels The levels the host chooses among in the lobby, weakest first.
 * @property {(number|null)} turnClock Seconds a person has for each decision (0: off), or null
 *   from a server without the option (docs/server.md "Leaving, idle seats and late joiners").
 * @property {number[]} turnClocks The turn clocks the host chooses among (`[]` when not sent).
 * @property {(string|null)} onLeave `agent` or `end`: what happens when a person leaves a running
 *   game, or null from a server without the option.
 * @property {(boolean|null)} newcomers Whether a newcomer may take an agent's seat during the
 *   game, or null from a server without the option.
 */

/**
 * The lobby's extension state (docs/server.md: `lobby_state`), as the server last told it.
 * @typedef {Object} LobbyState
 * @property {number} targetScore The score the game is played to.
 * @property {number[]} targetRange `[min, max]` the host may choose.
 * @property {Array<(boolean|null)>} ready Per seat: ready, not ready, or null (an agent, or a
 *   client that does not speak the extension: it never holds up the start).
 */

/**
 * One line of the table's chat (`chat_message`, or a `reaction` with `reaction` set).
 * @typedef {Object} ChatLine
 * @property {number} seat The sender's seat.
 * @property {string} name The sender's name (shown as text).
 * @property {string} text The text ('' for a reaction).
 * @property {(string|null)} reaction The reaction's id, or null for a text.
 */

/**
 * The table's spectators, as the last `spectators_changed` says.
 * @typedef {object} Spectators
 * @property {number} count How many watch.
 * @property {number} limit How many may watch.
 * @property {boolean} allowed Whether the table lets spectators in.
 * @property {boolean} handsOpen Whether spectators see the hands.
 * @property {Array<(boolean|null)>} allow Per seat: whether its person lets spectators see the hand.
 */

/**
 * The client's game state's fields. The views read them; only the controller changes them,
 * through the functions below (the exported `State` is these fields and those functions).
 * @typedef {Object} StateFields
 * @property {(number|null)} playerIndex The own seat, or null before joining.
 * @property {Object<string, *>} public The protocol's `public_state`, its fields replaced by each event's `public_delta`.
 * @property {Object<string, *>} private The protocol's `private_state`, its fields replaced by each event's
 *   `private_delta` and wholly by `private_state_changed`; its `may_announce`
 *   and `bombs` (what the seat may do beyond its turn, R6.1, R4.3) are the server's, replaced by
 *   each `private_state_changed` (docs/server.md): the client does not work them out.
 * @property {Set<number>} clientSeats Seats known to be held by clients.
 * @property {(Array<Array<number[]>>|null)} revealedHands The other hands while this seat is out (R8.3).
 * @property {(Request|null)} request The open request not yet answered.
 * @property {boolean[]} passed Per seat: passed since the last play (`public_state.passed`).
 * @property {RoundRecord[]} rounds The finished rounds of the game.
 * @property {(RoundRecord|null)} lastRound The round that just ended, until the next push.
 * @property {(import('./protocol-types.js').GameOver|null)} gameOver The `game_over` context of the last game.
 * @property {(string|null)} storedGame The id of the last game played to its end and stored
 *   (`game_stored`): its replay and analysis.
 * @property {(TableOptions|null)} options The table's options, or null when the server sends none.
 * @property {Object<number, number>} away The seats whose clients dropped, with the time
 *   (`Date.now()` ms) an agent takes the seat unless they come back (`player_disconnected`).
 * @property {(LobbyState|null)} lobby The target score and readiness, or null from a server without them.
 * @property {ChatLine[]} chat The last chat lines (at most `Config.CHAT_LINES`).
 * @property {boolean} spectating Whether this client watches the table (no seat; docs/server.md "Spectators").
 * @property {(Spectators|null)} spectators The last `spectators_changed` context, or null from a
 *   server without spectators.
 */
/** @type {StateFields} */
const State = {
  playerIndex: null,
  public: {},
  private: {},
  clientSeats: new Set(),
  revealedHands: null,
  request: null,
  passed: [false, false, false, false],
  rounds: [],
  lastRound: null,
  gameOver: null,
  storedGame: null,
  options: null,
  away: {},
  lobby: null,
  chat: [],
  spectating: false,
  spectators: null
};

/** @type {string} How the server names agents: "Bot " and the seat number (server/table.py). */
const _AGENT_PREFIX = 'Bot ';
/** @type {(Request|null)} The request answered last, restored when the answer is refused. */
let _answered = null;
/**
 * @type {(string|null)} The own answer to a `play` request on its way: `sent` until the
 * server's `player_played` or `player_passed` confirms it, then, after a play, `played` until
 * the next message (the `private_state_changed` a play brings comes right after it); else
 * null. Meanwhile the call and the bombs told for the seat's turn may be out of date (a bomb
 * at one's turn is the answer; the Mah Jong's wish stops bombs), so neither is offered.
 */
let _answering = null;
/**
 * @type {(string[][]|null)} Who held each seat during the running round, in order (its names at
 * `round_started`, then each new occupant's), for the round's {@link RoundRecord} `names`; null
 * when the round's start was not seen (a page that joined during it takes the names then).
 */
let _roundHolders = null;
/** @type {WeakMap<Object, number>} When each timed request runs out (`Date.now()` ms). */
const _deadlines = new WeakMap();

/**
 * Note when a request with a `timeout` (seconds left, protocol.md) runs out.
 * @param {(Request|null)} request The request.
 * @returns {void}
 */
function _startClock(request) {
  if (request && typeof request.timeout === 'number' && request.timeout > 0 && !_deadlines.has(request)) {
    _deadlines.set(request, Date.now() + request.timeout * 1000);
  }
}

/**
 * Forget everything (before a new login).
 * @returns {void}
 */
function reset() {
  State.playerIndex = null;
  State.public = {};
  State.private = {};
  State.clientSeats = new Set();
  State.revealedHands = null;
  State.request = null;
  State.passed = [false, false, false, false];
  State.rounds = [];
  State.lastRound = null;
  State.gameOver = null;
  State.storedGame = null;
  State.options = null;
  State.away = {};
  State.lobby = null;
  State.chat = [];
  State.spectating = false;
  State.spectators = null;
  _roundHolders = null;
  _answered = null;
  _answering = null;
}

/** @type {number} Chat lines the client keeps (the server sends at most 30 as history). */
const _CHAT_LINES = 100;

/**
 * Keep a chat line, dropping the oldest beyond {@link _CHAT_LINES}.
 * @param {Object<string, *>} context A `chat_message` or `reaction` context.
 * @param {(string|null)} reaction The reaction's id, or null.
 * @returns {void}
 */
function _addChat(context, reaction) {
  State.chat.push({ seat: Number(context.player_index), name: String(context.player_name || ''),
    text: reaction ? '' : String(context.text || ''), reaction: reaction });
  if (State.chat.length > _CHAT_LINES) {
    State.chat.splice(0, State.chat.length - _CHAT_LINES);
  }
}

/**
 * Set a seat's readiness (the lobby state kept in step between two `lobby_state`s).
 * @param {number} seat 0..3.
 * @param {(boolean|null)} ready The readiness.
 * @returns {void}
 */
function _setReady(seat, ready) {
  if (State.lobby) {
    State.lobby.ready[seat] = ready;
  }
}

/**
 * The table's options from a message's context, or null if it has none.
 * @param {*} options `{agent, hints, agents, levels, turn_clock, turn_clocks, on_leave, newcomers}`.
 * @returns {(TableOptions|null)} A copy.
 */
function _options(options) {
  if (!options || typeof options !== 'object') {
    return null;
  }
  const levels = Array.isArray(options.levels) ? options.levels : [];
  return { agent: String(options.agent || ''), hints: Boolean(options.hints),
    agents: Array.isArray(options.agents) ? options.agents.map(String) : [],
    levels: levels.filter(/** @param {*} level @returns {boolean} */ function (level) {
      return level && typeof level === 'object';
    }).map(/** @param {{level: *}} level @returns {string} */ function (level) {
      return String(level.level);
    }),
    turnClock: typeof options.turn_clock === 'number' ? options.turn_clock : null,
    turnClocks: Array.isArray(options.turn_clocks) ? options.turn_clocks.map(Number) : [],
    onLeave: typeof options.on_leave === 'string' ? options.on_leave : null,
    newcomers: typeof options.newcomers === 'boolean' ? options.newcomers : null };
}

/**
 * A per-seat list of `public_state`, created with zeros when missing.
 * @param {string} key E.g. `count_hand_cards`.
 * @returns {Array<*>} The list (the state's own, to change in place).
 */
function _seats(key) {
  if (!Array.isArray(State.public[key])) {
    State.public[key] = [0, 0, 0, 0];
  }
  return State.public[key];
}

/**
 * The own hand.
 * @returns {Array<number[]>} The cards (the state's own list; do not change it).
 */
function hand() {
  return State.private.hand_cards || [];
}

/**
 * The four seats' names as they are now ("Bot N" for an agent's seat).
 * @returns {string[]} The names by seat.
 */
function _names() {
  return [0, 1, 2, 3].map(displayName);
}

/**
 * Rounds of a game known only by their scores (after a reconnect).
 * @param {Array<number[]>} roundScores `public_state.round_scores`.
 * @returns {RoundRecord[]} The records with running totals.
 */
function _roundsFromScores(roundScores) {
  const total = [0, 0];
  return roundScores.map(function (points, index) {
    total[0] += points[0];
    total[1] += points[1];
    return { roundIndex: index, cardPoints: null, bonus: null, points: points.slice(), total: total.slice(),
      calls: null, isDoubleVictory: false, names: _names(), outOrder: [] };
  });
}

/**
 * After a swap, an agent's name that moved with it ("Bot N" of the seat it came from) is
 * dropped: the server names an agent after its new seat, which {@link displayName} shows.
 * @param {number} seat The seat the name moved to.
 * @param {number} from The seat it came from.
 * @returns {void}
 */
function _forgetMovedAgentName(seat, from) {
  const names = _seats('player_names');
  if (!State.clientSeats.has(seat) && seat !== State.public.host_index && names[seat] === _AGENT_PREFIX + (from + 1)) {
    names[seat] = '';
  }
}

/** @type {Object<string, function(Object<string, *>): void>} The notification handlers by event. */
const _HANDLERS = {
  player_joined: function (context) {
    const seat = context.player_index;
    if ('session_id' in context) {
      State.playerIndex = seat;
      State.public = JSON.parse(JSON.stringify(context.public_state || {}));
      State.private = JSON.parse(JSON.stringify(context.private_state || {}));
      State.clientSeats = new Set([seat]);
      State.revealedHands = null;
      State.passed = _passedSeats(State.public.passed);
      State.rounds = _roundsFromScores(State.public.round_scores || []);
      State.lastRound = null;
      State.request = context.pending_request || null;
      _startClock(State.request);
      State.away = {};
      for (const entry of State.public.away || []) {
        State.away[entry[0]] = Date.now() + entry[1] * 1000;
      }
      State.options = _options(context.options);
      _roundHolders = null;
      _answered = null;
      _answering = null;
      return;
    }
    _seats('player_names')[seat] = context.player_name;
    _noteHolder(seat);
    State.clientSeats.add(seat);
    _setReady(seat, null);  // until its client says it speaks the extension (lobby_state)
    delete State.away[seat];  // back (or a new client on the seat)
  },
  player_disconnected: function (context) {
    State.away[context.player_index] = Date.now() + context.seconds * 1000;
  },
  player_left: function (context) {
    State.public.host_index = context.host_index;
    State.clientSeats.delete(context.player_index);
    delete State.away[context.player_index];
    _setReady(context.player_index, null);
    if (context.replaced_by_agent) {
      _seats('player_names')[context.player_index] = '';
      _noteHolder(context.player_index);
    }
  },
  players_swapped: function (context) {
    const first = context.player_index_1;
    const second = context.player_index_2;
    const names = _seats('player_names');
    const swapped = names[first];
    names[first] = names[second];
    names[second] = swapped;
    State.clientSeats = new Set(Array.from(State.clientSeats, function (seat) {
      return seat === first ? second : seat === second ? first : seat;
    }));
    _forgetMovedAgentName(first, second);
    _forgetMovedAgentName(second, first);
    if (State.lobby) {  // readiness moves with the people and is cleared (the server says so if it was set)
      const ready = State.lobby.ready;
      const moved = ready[first];
      ready[first] = ready[second] === null ? null : false;
      ready[second] = moved === null ? null : false;
    }
    if (State.playerIndex === first || State.playerIndex === second) {
      State.playerIndex = State.playerIndex === first ? second : first;
      State.private.player_index = State.playerIndex;
    }
  },
  game_started: function () {
    State.rounds = [];
    State.lastRound = null;
    State.gameOver = null;
    State.storedGame = null;
    if (State.lobby) {  // readiness is for one start (the server clears it without a message)
      State.lobby.ready = State.lobby.ready.map(function (ready) { return ready === null ? null : false; });
    }
  },
  round_started: function () {
    State.revealedHands = null;
    _roundHolders = _names().map(function (name) { return [name]; });
  },
  hand_cards_dealt: function (context) {
    if (Number(context.count) !== 8) {
      State.lastRound = null;
    }
  },
  player_passed: function (context) {
    if (context.player_index === State.playerIndex) {
      _answering = null;  // after the own pass the bombs told still hold; a change would follow now
    }
  },
  player_played: function (context) {
    const seat = context.turn[0];
    if (seat === State.playerIndex && _answering === 'sent') {
      _answering = 'played';
    }
    if (State.revealedHands) {  // protocol.md: the seat tracks the rest from player_played
      State.revealedHands[seat] = Lib.withoutCards(State.revealedHands[seat] || [], context.turn[1]);
    }
  },
  hands_revealed: function (context) {
    State.revealedHands = context.hands.map(/** @param {Array<number[]>} cards @returns {Array<number[]>} */
      function (cards) { return cards.slice(); });
  },
  round_over: function (context) {
    const record = _roundRecord(context);
    State.rounds.push(record);
    State.lastRound = record;
    State.request = null;
  },
  game_over: function (context) {
    State.gameOver = /** @type {import('./protocol-types.js').GameOver} */ (context);  // the server's `game_over`
    State.request = null;
  },
  game_stored: function (context) {
    State.storedGame = String(context.game_id);
  },
  game_ended_early: function () {
    // a person's leaving ended the game (on_leave "end"): the table is back in its lobby
    Object.assign(State.public, { phase: Phases.GAME_OVER, is_running: false, current_turn_index: null });
    State.request = null;
  },
  request_cancelled: function (context) {
    closeRequest(context.request_id);
  },
  private_state_changed: function (context) {
    State.private = JSON.parse(JSON.stringify(context.private_state || {}));
  },
  options_changed: function (context) {
    State.options = _options(context);
  },
  lobby_state: function (context) {
    const range = Array.isArray(context.target_score_range) ? context.target_score_range : [0, 0];
    const ready = Array.isArray(context.ready) ? context.ready : [];
    State.lobby = { targetScore: Number(context.target_score), targetRange: [Number(range[0]), Number(range[1])],
      ready: [0, 1, 2, 3].map(function (seat) { return typeof ready[seat] === 'boolean' ? ready[seat] : null; }) };
  },
  chat_history: function (context) {
    State.chat = [];
    for (const line of Array.isArray(context.messages) ? context.messages : []) {
      _addChat(line, null);
    }
  },
  chat_message: function (context) {
    _addChat(context, null);
  },
  reaction: function (context) {
    _addChat(context, String(context.reaction || ''));
  },
  spectate_started: function (context) {
    // a spectator's snapshot (docs/server.md "Spectators"): the public state only, no seat
    State.spectating = true;
    State.playerIndex = null;
    State.public = JSON.parse(JSON.stringify(context.public_state || {}));
    State.private = { hand_cards: [] };
    State.clientSeats = new Set();
    State.revealedHands = null;
    State.passed = _passedSeats(State.public.passed);
    State.rounds = _roundsFromScores(State.public.round_scores || []);
    State.lastRound = null;
    State.request = null;
    State.away = {};
    for (const entry of State.public.away || []) {
      State.away[entry[0]] = Date.now() + entry[1] * 1000;
    }
    State.options = _options(context.options);
    if (context.lobby_state) {
      _HANDLERS.lobby_state(context.lobby_state);
    }
  },
  spectators_changed: function (context) {
    State.spectators = { count: Number(context.count) || 0, limit: Number(context.limit) || 0,
      allowed: context.allowed !== false, handsOpen: Boolean(context.hands_open),
      allow: Array.isArray(context.allow) ? context.allow.slice(0, 4) : [] };
  },
  spectator_hands: function (context) {
    State.revealedHands = Array.isArray(context.hands)
      ? context.hands.map(function (cards) { return cards.slice(); }) : null;
  }
};

/**
 * The score-sheet record of a `round_over` notification; the calls come from the round's
 * announcements (R6: a call is made when its caller went out first).
 * @param {Object<string, *>} context The notification's context.
 * @returns {RoundRecord} The record.
 */
function _roundRecord(context) {
  const first = (context.out_order || [])[0];
  /** @type {Array<{seat: number, grand: boolean, success: boolean}>} */
  const calls = [];
  _seats('announcements').forEach(function (call, seat) {
    if (call) {
      calls.push({ seat: seat, grand: call === 2, success: seat === first });
    }
  });
  return {
    roundIndex: State.public.round_index || 0, cardPoints: context.card_points, bonus: context.bonus,
    points: context.points, total: context.total, calls: calls, isDoubleVictory: Boolean(context.is_double_victory),
    names: _roundNames(), outOrder: (context.out_order || []).slice()
  };
}

/**
 * Note a seat's new occupant for the running round's record (issue 35, finding 5: the score
 * sheet names who held each seat in each round).
 * @param {number} seat 0..3.
 * @returns {void}
 */
function _noteHolder(seat) {
  const holders = _roundHolders ? _roundHolders[seat] : null;
  const name = displayName(seat);
  if (holders && holders[holders.length - 1] !== name) {
    holders.push(name);
  }
}

/**
 * The names of the seats for the running round's record: everyone who held a seat during it,
 * in order, or the names now when the round's start was not seen.
 * @returns {string[]} The names by seat, e.g. "Max → Bot 3" for a seat Max left.
 */
function _roundNames() {
  return _roundHolders ? _roundHolders.map(function (holders) { return holders.join(' → '); }) : _names();
}

/**
 * Take the state a game event brings (docs/server.md, "The state with every event"): the fields
 * of `public_state` and `private_state` that changed, replaced as sent; nothing is worked out.
 * @param {{public_delta?: Object<string, *>, private_delta?: Object<string, *>}} context A notification's context.
 * @returns {void}
 */
function _replace(context) {
  const publicDelta = context.public_delta;
  if (publicDelta && typeof publicDelta === 'object') {
    Object.assign(State.public, JSON.parse(JSON.stringify(publicDelta)));
    if ('passed' in publicDelta) {
      State.passed = _passedSeats(State.public.passed);
    }
  }
  const privateDelta = context.private_delta;
  if (privateDelta && typeof privateDelta === 'object') {
    Object.assign(State.private, JSON.parse(JSON.stringify(privateDelta)));
  }
}

/**
 * Per seat, whether it passed since the last play, from `public_state.passed`.
 * @param {*} passed The seats that passed.
 * @returns {boolean[]} Seat 0..3.
 */
function _passedSeats(passed) {
  const seats = Array.isArray(passed) ? passed : [];
  return [0, 1, 2, 3].map(function (seat) { return seats.indexOf(seat) >= 0; });
}

/**
 * Apply one notification: the state it carries (`public_delta`, `private_delta`), then what the
 * event means beyond it (the seats' names, the score sheet, the open request); an event without
 * either is ignored.
 * @param {string} event The notification's `event`.
 * @param {Object} context Its `context`.
 * @returns {void}
 */
function apply(event, context) {
  const afterOwnPlay = _answering === 'played';
  _replace(context || {});
  const handler = _HANDLERS[event];
  if (handler) {
    handler(context || {});
  }
  if (afterOwnPlay) {
    _answering = null;  // the server told right after the own play what it changed, if anything
  }
}

/**
 * Keep a request the server sent as the open one (its hand, if given, is the current hand).
 * @param {Request} request The request's payload.
 * @returns {void}
 */
function openRequest(request) {
  const context = request.context;
  if (context && 'hand_cards' in context && context.hand_cards) {
    State.private.hand_cards = context.hand_cards.slice();
  }
  State.request = request;
  _startClock(request);
  _answered = null;
  _answering = null;
}

/**
 * Note that the open request was answered (pushed cards are remembered, R8.2).
 * @param {Object<string, *>} responseData The answer sent.
 * @returns {void}
 */
function answerRequest(responseData) {
  if (State.request && State.request.action === 'schupf') {
    State.private.given_schupf_cards = responseData.given_schupf_cards;
  }
  _answering = State.request && State.request.action === 'play' ? 'sent' : null;
  _answered = State.request;
  State.request = null;
}

/**
 * The server refused the last answer: its request is open again.
 * @returns {void}
 */
function reopenRequest() {
  if (_answered) {
    if (_answered.action === 'schupf') {
      State.private.given_schupf_cards = null;
    }
    State.request = _answered;
    _answered = null;
    _answering = null;
  }
}

/**
 * Close the open (or answered) request: cancelled by a bomb, timed out or obsolete.
 * @param {string} [requestId] Close only the request with this id.
 * @returns {void}
 */
function closeRequest(requestId) {
  if (State.request && (requestId === undefined || State.request.request_id === requestId)) {
    State.request = null;
  }
  if (_answered && (requestId === undefined || _answered.request_id === requestId)) {
    _answered = null;
    _answering = null;
  }
}

/**
 * The action of the open request.
 * @returns {(string|null)} E.g. `play`, or null.
 */
function requestAction() {
  return State.request ? State.request.action : null;
}

/**
 * Whole seconds left for the open request when the server set a turn timeout (after it an
 * agent decides for this seat), or null without a limit or request.
 * @returns {(number|null)} The seconds left.
 */
function requestSecondsLeft() {
  const deadline = State.request ? _deadlines.get(State.request) : undefined;
  return deadline === undefined ? null : Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

/**
 * The open `play` request's hint: its plays that are legal, best first (Lib.hintPlays).
 * @returns {Array<Array<number[]>>} The plays, or `[]` without a hint.
 */
function hintPlays() {
  if (!State.request || State.request.action !== 'play') {
    return [];
  }
  const context = State.request.context || {};
  return Lib.hintPlays(context.hint, context.legal_plays || []);
}

/**
 * The name shown for a seat; an agent's seat shows "Bot N".
 * @param {number} seat 0..3.
 * @returns {string} The name.
 */
function displayName(seat) {
  const names = State.public.player_names || [];
  return names[seat] || I18n.t('seat.agent', { n: seat + 1 });
}

/**
 * Whether this seat may call Tichu now (R2.4, R6.1, R6.3), as the server's private state says
 * (not while the own answer to a `play` request is on its way).
 * @returns {boolean} True when `announce` would be accepted.
 */
function canAnnounceTichu() {
  return _answering === null && State.private.may_announce === true;
}

/**
 * The bombs this seat may lay now, as the server's private state says (R4.3): at its turn
 * those among its legal plays (played as the answer), else those it may throw out of turn
 * (none while the own answer to a `play` request is on its way).
 * @returns {Array<Array<number[]>>} The bombs' cards (the state's own lists; do not change them).
 */
function playableBombs() {
  return _answering === null && Array.isArray(State.private.bombs) ? State.private.bombs : [];
}

/**
 * Whole seconds until an agent takes a dropped client's seat, or null if its client is there.
 * @param {number} seat 0..3.
 * @returns {(number|null)} The seconds left (0 when due), or null.
 */
function awaySeconds(seat) {
  const until = State.away[seat];
  return until === undefined ? null : Math.max(0, Math.ceil((until - Date.now()) / 1000));
}

/**
 * Whether the host may start as far as readiness goes: every client that speaks the
 * extension, the host aside, is ready (agents and other clients never hold up the start;
 * the host's own press of Start is its readiness).
 * @returns {boolean} True when nobody is waited for.
 */
function everyoneReady() {
  const lobby = State.lobby;
  return !lobby || lobby.ready.every(function (ready, seat) {
    return seat === State.public.host_index || ready !== false;
  });
}

/**
 * Whether this client said it is ready.
 * @returns {boolean} True when ready.
 */
function isReady() {
  return Boolean(State.lobby && State.playerIndex !== null && State.lobby.ready[State.playerIndex]);
}

/**
 * The seat's place if it is out (R4.4).
 * @param {number} seat 0..3.
 * @returns {number} 1..4, or 0 while it plays.
 */
function placeOf(seat) {
  return (State.public.out_order || []).indexOf(seat) + 1;
}

/**
 * The table state in the one shape the Python client's `TableState.snapshot()` gives too
 * (src/tichu/client/state.py), so that a test can drive both with one stream and compare them
 * after every message (tests/client/test_two_clients.py). Hands are sorted (a hand is a set;
 * the order is the views'); a missing field is null.
 * @returns {Object<string, *>} Plain JSON: `seat`, the `public_state` fields both clients keep, the
 *   seats that `passed`, `client_seats` (sorted), `revealed_hands`, and the private state's
 *   `hand_cards`, `given_schupf_cards`, `received_schupf_cards`, `may_announce` and `bombs`.
 */
function snapshot() {
  /** @param {*} value @returns {*} A deep copy, or null for undefined. */
  function plain(value) {
    return value === undefined ? null : JSON.parse(JSON.stringify(value));
  }
  /** @param {*} cards @returns {(Array<number[]>|null)} The cards sorted by value, then suit. */
  function sorted(cards) {
    return Array.isArray(cards) ? plain(cards).sort(/** @param {number[]} a @param {number[]} b @returns {number} */
      function (a, b) { return a[0] - b[0] || a[1] - b[1]; }) : null;
  }
  /** @type {Object<string, *>} */
  const view = { seat: State.playerIndex };
  for (const key of ['player_names', 'host_index', 'is_running', 'phase', 'round_index', 'current_turn_index',
    'count_hand_cards', 'announcements', 'wish_value', 'wish_open', 'trick_turns', 'trick_owner_index',
    'trick_points', 'points', 'tricks_won', 'out_order', 'played_cards', 'count_pushed', 'round_scores', 'total']) {
    view[key] = plain(State.public[key]);
  }
  view.passed = [0, 1, 2, 3].filter(function (seat) { return State.passed[seat]; });
  view.client_seats = Array.from(State.clientSeats).sort(function (a, b) { return a - b; });
  view.revealed_hands = State.revealedHands ? State.revealedHands.map(sorted) : null;
  view.hand_cards = sorted(State.private.hand_cards) || [];
  view.given_schupf_cards = sorted(State.private.given_schupf_cards);
  view.received_schupf_cards = sorted(State.private.received_schupf_cards);
  view.may_announce = State.private.may_announce === true;
  view.bombs = plain(State.private.bombs || []);
  return view;
}

/**
 * The client's game state: its fields and the functions that read and change them.
 * @namespace State
 */
const StateApi = Object.assign(State, {
  reset,
  apply,
  hand,
  openRequest,
  answerRequest,
  reopenRequest,
  closeRequest,
  requestAction,
  hintPlays,
  displayName,
  canAnnounceTichu,
  playableBombs,
  awaySeconds,
  requestSecondsLeft,
  everyoneReady,
  isReady,
  placeOf,
  snapshot
});

export { StateApi as State };

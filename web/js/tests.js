/**
 * @file The client's unit tests (run by tests.html): Lib, I18n, EventBus, State, the
 * table's button logic and the card builder, on the real module files.
 */
import { TestRunner } from './test-runner.js';
import { Analysis } from './analysis.js';
import { AutoPass } from './auto-pass.js';
import { CardLabels } from './card-labels.js';
import { CardTracker } from './card-tracker.js';
import { Events } from './events.js';
import { EventBus } from './event-bus.js';
import { HandOrder } from './hand-order.js';
import { I18n } from './i18n.js';
import { IdleSeats } from './idle-seats.js';
import { Lib } from './lib.js';
import { MoveLog } from './move-log.js';
import { Notifications, Phases } from './protocol.js';
import { Puzzles } from './puzzles.js';
import { ReplayController } from './replay-controller.js';
import { State } from './state.js';
import { TrickLog } from './trick-log.js';
import { AnalysisView } from './views/analysis-view.js';
import { CardBuilder } from './views/card-builder.js';
import { HistoryView } from './views/history-view.js';
import { PuzzleView } from './views/puzzle-view.js';
import { ReplayView } from './views/replay-view.js';
import { CenterPanel } from './views/table/center-panel.js';
import { TableControls } from './views/table/table-controls.js';

const { describe, it, assert, run } = TestRunner;

/** @type {Array<[number, number]>} The four sevens. */
const FOUR_SEVENS = [[7, 1], [7, 2], [7, 3], [7, 4]];

/**
 * A `player_joined` context for this client at seat 0, as sent on joining.
 * @param {Partial<import('./protocol-types.js').PublicState>} [publicState] Fields of `public_state` to set.
 * @param {Partial<import('./protocol-types.js').PrivateState>} [privateState] Fields of `private_state` to set.
 * @returns {import('./protocol-types.js').PlayerJoined} The context.
 */
function joined(publicState, privateState) {
  /** @type {import('./protocol-types.js').PublicState} */
  const publicDefaults = {
    table_name: 'home', player_names: ['Anna', 'Bot 2', 'Ben', 'Bot 4'], host_index: 0, is_running: true,
    phase: Phases.PLAYING, round_index: 0, current_turn_index: 1, count_hand_cards: [14, 14, 14, 14],
    announcements: [0, 0, 0, 0], wish_value: 0, wish_open: false, trick_turns: [], trick_owner_index: null,
    trick_points: 0, points: [0, 0, 0, 0], tricks_won: [0, 0, 0, 0], out_order: [], played_cards: [],
    count_pushed: [3, 3, 3, 3], round_scores: [], total: [0, 0]
  };
  /** @type {import('./protocol-types.js').PrivateState} */
  const privateDefaults = {
    player_index: 0, hand_cards: [[2, 1], [3, 1], [5, 2], [10, 3], [13, 4], [14, 4], [16, 0]],
    given_schupf_cards: null, received_schupf_cards: null, may_announce: false, bombs: [],
    unseen_bombs: { four_of_a_kind: [], straight_flush: [] }
  };
  return {
    player_index: 0, player_name: 'Anna', session_id: 'abc', protocol_version: 1, pending_request: null,
    public_state: Object.assign(publicDefaults, publicState),
    private_state: Object.assign(privateDefaults, privateState)
  };
}

/** @typedef {import('./protocol-types.js').NotificationPayload} NotificationPayload */

/**
 * A whole `player_played` notification, as the server sends it (issue 36: the reducers take it typed).
 * @param {[number, Array<[number, number]>, [string, number, number]]} turn `[seat, cards, combination]`.
 * @param {boolean} [isBomb] Whether the play is a bomb.
 * @returns {NotificationPayload} The notification's payload.
 */
function playedNote(turn, isBomb) {
  return { event: Notifications.PLAYER_PLAYED, context: { turn: turn, trick_points: 0, trick_owner_index: turn[0],
    is_bomb: Boolean(isBomb), out_of_turn: false } };
}

/**
 * A `player_passed` notification.
 * @param {number} seat Who passed.
 * @returns {NotificationPayload} The notification's payload.
 */
function passedNote(seat) {
  return { event: Notifications.PLAYER_PASSED, context: { player_index: seat } };
}

/**
 * A `trick_taken` notification.
 * @param {number} seat Who took the trick.
 * @param {number} points Its points.
 * @param {(number|null)} recipient The seat given the Dragon trick, or null.
 * @returns {NotificationPayload} The notification's payload.
 */
function takenNote(seat, points, recipient) {
  return { event: Notifications.TRICK_TAKEN, context: { player_index: seat, points: points, dragon_recipient: recipient } };
}

/** A `player_turn_changed` notification: no move. @type {NotificationPayload} */
const TURN_CHANGED = { event: Notifications.PLAYER_TURN_CHANGED, context: { current_turn_index: 1 } };

/**
 * A judged decision with the fields a test sets and neutral values for the others.
 * @param {Partial<import('./protocol-types.js').AnalysisJudgement>} fields The fields to set.
 * @returns {import('./protocol-types.js').AnalysisJudgement} The judgement.
 */
function judgedDecision(fields) {
  return Object.assign({ step: 0, round: 0, seat: 0, kind: 'play', options: [], best: 0, chosen: 0, loss: 0,
    loss_half_width: 0, label: null, advantage: 0, samples: 0 }, fields);
}

/**
 * A replay step with the fields a test sets and an empty deal's for the others.
 * @param {Partial<import('./protocol-types.js').Step>} fields The fields to set.
 * @returns {import('./protocol-types.js').Step} The step.
 */
function stepOf(fields) {
  return Object.assign({ kind: 'deal', round: 0, trick: 0, seat: null, hands: [], trick_turns: [], trick_owner: null,
    turn: null, wish: 0, wish_open: false, calls: [], out_order: [], won_points: [], tricks_won: [], score: [0, 0],
    names: [] }, fields);
}

/** @type {import('./protocol-types.js').AnalysisMethod} An analysis method naming no thresholds of its own. */
const method = { agent: 'random', samples: 16, z: 1.96, seed: 1, thresholds: {} };

/**
 * An analysis document with the given judgements and no player summary.
 * @param {import('./protocol-types.js').AnalysisJudgement[]} judgements The judgements.
 * @param {Object<string, number>} [thresholds] The method's thresholds by label (none: the judge's defaults).
 * @returns {import('./protocol-types.js').AnalysisDocument} The document.
 */
function analysisDocument(judgements, thresholds) {
  return { format: 'tichu-analysis/1', game_id: 'g', method: Object.assign({}, method, { thresholds: thresholds || {} }),
    players: [], judgements: judgements };
}

/**
 * An analysis document without a judgement.
 * @returns {import('./protocol-types.js').AnalysisDocument} The document.
 */
function emptyDocument() {
  return analysisDocument([]);
}

/**
 * An option of a judged decision with the fields a test sets and neutral values for the others.
 * @param {Partial<import('./protocol-types.js').AnalysisOption>} fields The fields to set.
 * @returns {import('./protocol-types.js').AnalysisOption} The option.
 */
function judgedOption(fields) {
  return Object.assign({ text: '', cards: [], mean: 0, half_width: 0 }, fields);
}

/**
 * A `play` request.
 * @param {Array<Array<[number, number]>>} legalPlays The legal plays.
 * @param {([string, number, number]|null)} [trick] The combination on the table.
 * @returns {{request_id: string, action: 'play', context: import('./protocol-types.js').PlayContext,
 *   timeout: (number|null)}} The request payload.
 */
function playRequest(legalPlays, trick) {
  return { request_id: 'r1', action: 'play', timeout: null, context: {
    hand_cards: /** @type {Array<[number, number]>} */ (State.hand()), trick_combination: trick || null, trick_owner_index: trick ? 1 : null,
    wish_value: 0, legal_plays: legalPlays, hint: null } };
}

/**
 * A ControlSituation with defaults.
 * @param {Partial<import('./views/table/table-controls.js').ControlSituation>} fields The fields to set.
 * @returns {import('./views/table/table-controls.js').ControlSituation} The situation.
 */
function situation(fields) {
  return Object.assign({ phase: Phases.PLAYING, requestAction: null, legalPlays: [], selection: [], pushCount: 0,
    hasPushed: false, canAnnounce: false, bombs: [], hints: [] }, fields);
}

describe('Lib: cards', function () {
  it('keys a card as VALUE-SUIT and back', function () {
    assert.equal(Lib.cardKey([14, 4]), '14-4');
    assert.deepEqual(Lib.parseCardKey('16-0'), [16, 0]);
  });
  it('sorts by value then suit, specials at their values', function () {
    const sorted = Lib.sortCards([[16, 0], [5, 3], [0, 0], [5, 1], [15, 0], [1, 0], [14, 2]]);
    assert.deepEqual(sorted, [[0, 0], [1, 0], [5, 1], [5, 3], [14, 2], [15, 0], [16, 0]]);
  });
  it('does not change the sorted list', function () {
    const cards = [[9, 1], [2, 1]];
    Lib.sortCards(cards);
    assert.deepEqual(cards, [[9, 1], [2, 1]]);
  });
  it('compares card lists as sets', function () {
    assert.ok(Lib.sameCards([[2, 1], [3, 2]], [[3, 2], [2, 1]]));
    assert.ok(!Lib.sameCards([[2, 1]], [[2, 1], [3, 2]]));
    assert.ok(!Lib.sameCards([[2, 1], [2, 1]], [[2, 1], [3, 2]]));
  });
  it('removes cards', function () {
    assert.deepEqual(Lib.withoutCards([[2, 1], [3, 2], [4, 3]], [[3, 2]]), [[2, 1], [4, 3]]);
  });
  it('accepts the names the server accepts', function () {
    assert.ok(Lib.isValidName('  Anna Lena ', 20));
    assert.ok(Lib.isValidName('Jürg', 4));
    assert.ok(!Lib.isValidName('   ', 20), 'empty');
    assert.ok(!Lib.isValidName('x'.repeat(21), 20), 'too long');
    assert.ok(Lib.isValidName("O'Brien & <b>Co</b>", 20), 'a name of its own, shown as text');
    assert.ok(!Lib.isValidName('tab\there', 20), 'control character');
  });
  it('formats signed points', function () {
    assert.deepEqual([35, -25, 0].map(Lib.formatSigned), ['+35', '\u221225', '0']);
  });
});

describe('Lib: legal selection', function () {
  const legal = [[[5, 1], [5, 2]], [[9, 3]], []];
  it('finds the legal play equal to the selection as a set', function () {
    assert.deepEqual(Lib.findLegalPlay([[5, 2], [5, 1]], legal), [[5, 1], [5, 2]]);
  });
  it('refuses a selection that is only part of a play or more than one', function () {
    assert.equal(Lib.findLegalPlay([[5, 2]], legal), null);
    assert.equal(Lib.findLegalPlay([[9, 3], [5, 1]], legal), null);
  });
  it('never matches an empty selection to the pass', function () {
    assert.equal(Lib.findLegalPlay([], legal), null);
  });
});

describe('Lib: the server hint (Hint button)', function () {
  const legal = [[[2, 1]], [[5, 1], [5, 2]], [[9, 3]], []];
  it('keeps only legal plays, each once, in the server order', function () {
    const malformed = [[[5, 2], [5, 1]], [[9, 3]], [[14, 4]], [[5, 1], [5, 2]], [], [[2, 1]], 'junk', [[2, 1]]];
    const hint = /** @type {number[][][]} */ (/** @type {unknown} */ (malformed));  // with an item no play
    assert.deepEqual(Lib.hintPlays(hint, legal), [[[5, 1], [5, 2]], [[9, 3]], [], [[2, 1]]]);
    assert.deepEqual(Lib.hintPlays(null, legal), []);
    assert.deepEqual(Lib.hintPlays([[]], [[[2, 1]]]), [], 'no pass on a lead');
  });
  it('selects the best hinted play first, then cycles through the others', function () {
    const hints = Lib.hintPlays([[[9, 3]], [[5, 1], [5, 2]], [[2, 1]]], legal);
    let index = Lib.nextHintIndex(hints, [], null);
    const chosen = [];
    for (let press = 0; press < 4; press++) {
      chosen.push(hints[index]);
      index = Lib.nextHintIndex(hints, hints[index], index);
    }
    assert.deepEqual(chosen, [[[9, 3]], [[5, 1], [5, 2]], [[2, 1]], [[9, 3]]]);
  });
  it('starts again from the best play after the player changed the selection', function () {
    const hints = Lib.hintPlays([[[9, 3]], [[5, 1], [5, 2]]], legal);
    assert.equal(Lib.nextHintIndex(hints, [[5, 2], [5, 1]], 1), 0, 'after the last, the best again');
    assert.equal(Lib.nextHintIndex(hints, [[5, 2]], 1), 0, 'the selection changed');
    assert.equal(Lib.nextHintIndex(hints, [[5, 2], [5, 1]], null), 0, 'a first press');
    assert.equal(Lib.nextHintIndex(hints, [[9, 3]], 0), 1);
    assert.equal(Lib.nextHintIndex(hints, [[9, 3]], 7), 0, 'an index of another request');
  });
  it('cycles over a hinted pass (an empty selection)', function () {
    const hints = Lib.hintPlays([[], [[9, 3]]], legal);
    assert.equal(Lib.nextHintIndex(hints, [], null), 0);
    assert.equal(Lib.nextHintIndex(hints, [], 0), 1);
  });
  it('gives no index without a hint', function () {
    assert.equal(Lib.nextHintIndex([], [], null), -1);
  });
});

describe('Lib: seats', function () {
  it('names teams 20 and 31 (R1.3)', function () {
    assert.deepEqual([0, 1, 2, 3].map(Lib.teamOf), [20, 31, 20, 31]);
  });
  it('places the seats around the own one', function () {
    assert.deepEqual([0, 1, 2, 3].map(function (seat) { return Lib.relativePosition(seat, 1); }),
      ['left', 'bottom', 'right', 'top']);
  });
  it('maps push targets to seats', function () {
    assert.deepEqual(Lib.PUSH_TARGETS.map(function (target) { return Lib.seatOfTarget(3, target); }), [0, 1, 2]);
  });
});

describe('I18n', function () {
  it('has every key in both languages, none empty', function () {
    const english = I18n.keys('en').sort();
    const german = I18n.keys('de').sort();
    assert.deepEqual(german, english);
    for (const language of I18n.LANGUAGES) {
      I18n.setLanguage(language);
      for (const key of english) {
        assert.ok(I18n.t(key).trim().length > 0, language + ' ' + key + ' is empty');
      }
    }
    I18n.setLanguage('en');
  });
  it('uses the same placeholders in both languages', function () {
    for (const key of I18n.keys('en')) {
      I18n.setLanguage('en');
      const english = (I18n.t(key).match(/\{\w+\}/g) || []).sort();
      I18n.setLanguage('de');
      const german = (I18n.t(key).match(/\{\w+\}/g) || []).sort();
      assert.deepEqual(german, english, key);
    }
    I18n.setLanguage('en');
  });
  it('has a text for every protocol error code', function () {
    const codes = [100, 101, 102, 103, 104, 105, 106, 107, 200, 201, 202, 203, 204, 205, 300, 301, 302, 303,
      304, 305, 306, 307, 308, 309, 310, 400, 401];
    for (const code of codes) {
      assert.ok(I18n.keys('en').includes('error.' + code), 'error.' + code);
    }
    assert.equal(I18n.errorText(999), 'Error 999.');
  });
  it('fills in parameters', function () {
    assert.equal(I18n.t('trick.points', { points: 25 }), '25 points');
  });
  it('detects the language from the browser preferences', function () {
    assert.equal(I18n.detectLanguage(['de-CH', 'en']), 'de');
    assert.equal(I18n.detectLanguage(['fr-FR', 'en-GB']), 'en');
    assert.equal(I18n.detectLanguage(['fr']), 'en');
  });
  it('labels the values in the corner and names the cards, per language', function () {
    assert.equal(I18n.valueLabel(14), 'A');
    assert.equal(I18n.valueLabel(11), 'J');
    assert.equal(I18n.cardName([12, 2]), 'Queen of Pagodas');
    I18n.setLanguage('de');
    assert.equal(I18n.valueLabel(11), 'B');
    assert.equal(I18n.cardName([16, 0]), 'Phönix');
    assert.equal(I18n.otherLanguage(), 'en');
    I18n.setLanguage('en');
  });
  it('names the agent kinds in both languages', function () {
    assert.deepEqual(['random', 'rule', 'heuristic', 'montecarlo'].map(I18n.agentLabel),
      ['Random', 'Rule', 'Heuristic', 'Monte Carlo']);
    assert.equal(I18n.agentLabel('montecarlo:0.2'), 'Monte Carlo (0.2)');
    assert.equal(I18n.agentLabel('future'), 'future');
    assert.deepEqual(['beginner', 'casual', 'strong', 'expert', 'random'].map(I18n.levelLabel),
      ['Beginner', 'Casual', 'Strong', 'Expert', 'Random']);
    assert.ok(I18n.levelAbout('beginner').includes('forgets which cards are out'));
    assert.equal(I18n.levelAbout('montecarlo:0.2'), 'A setting of the server, not one of the levels.');
    I18n.setLanguage('de');
    assert.deepEqual(['random', 'rule', 'heuristic', 'montecarlo'].map(I18n.agentLabel),
      ['Zufall', 'Regel', 'Heuristik', 'Monte Carlo']);
    assert.equal(I18n.t('button.hint'), 'Tipp');
    assert.deepEqual(['beginner', 'casual', 'strong', 'expert'].map(I18n.levelLabel),
      ['Anfänger', 'Gelegenheitsspieler', 'Stark', 'Experte']);
    I18n.setLanguage('en');
    assert.equal(I18n.t('button.hint'), 'Hint');
  });
});

describe('EventBus', function () {
  it('calls subscribers until they unsubscribe', function () {
    /** @type {unknown[]} */
    const seen = [];
    /** @param {unknown} payload The event's payload. */
    const handler = function (payload) { seen.push(payload); };
    EventBus.on(Events.UI_RENDER, handler);
    EventBus.emit(Events.UI_RENDER, 1);
    EventBus.off(Events.UI_RENDER, handler);
    EventBus.emit(Events.UI_RENDER, 2);
    assert.deepEqual(seen, [1]);
  });
});

describe('Events', function () {
  it('names each event once, as family:name, and cannot be changed', function () {
    const names = Object.values(Events);
    assert.equal(new Set(names).size, names.length, 'no two constants share a name');
    for (const name of names) {
      assert.ok(/^(network|state|intent|replay|ui):[a-z]+(-[a-z]+)*$/.test(name), name);
    }
    assert.ok(Object.isFrozen(Events));
    assert.equal(Events.INTENT_PLAYER, 'intent:player', 'the names the browser tests emit stay');
  });
});

describe('State: joining and the lobby', function () {
  it('takes the whole state from player_joined', function () {
    State.reset();
    const context = joined({ round_scores: [[100, 0], [20, 80]] }, {});
    context.pending_request = playRequest([[[2, 1]]]);
    State.apply(Notifications.PLAYER_JOINED, context);
    assert.equal(State.playerIndex, 0);
    assert.equal(State.public.table_name, 'home');
    assert.equal(State.hand().length, 7);
    assert.equal(State.requestAction(), 'play');
    assert.deepEqual(State.rounds.map(function (round) { return round.total; }), [[100, 0], [120, 80]]);
  });
  it('adds other clients and swaps seats, the own one included', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined({ is_running: false, phase: Phases.LOBBY }));
    State.apply(Notifications.PLAYER_JOINED, { player_index: 1, player_name: 'Ben' });
    assert.equal(State.displayName(1), 'Ben');
    State.apply(Notifications.PLAYERS_SWAPPED, { player_index_1: 0, player_index_2: 2 });
    assert.equal(State.playerIndex, 2);
    assert.equal(State.displayName(2), 'Anna');
    assert.ok(State.clientSeats.has(2) && State.clientSeats.has(1));
  });
  it('names an agent after its new seat when seats are swapped', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined({ is_running: false, phase: Phases.LOBBY, player_names: ['Anna', 'Bot 2', 'Bot 3', 'Ben'] }));
    State.apply(Notifications.PLAYER_JOINED, { player_index: 3, player_name: 'Ben' });
    State.apply(Notifications.PLAYERS_SWAPPED, { player_index_1: 1, player_index_2: 3 });
    assert.deepEqual([0, 1, 2, 3].map(State.displayName), ['Anna', 'Ben', 'Bot 3', 'Bot 4']);
    State.apply(Notifications.PLAYERS_SWAPPED, { player_index_1: 2, player_index_2: 3 });
    assert.deepEqual([0, 1, 2, 3].map(State.displayName), ['Anna', 'Ben', 'Bot 3', 'Bot 4']);
  });
  it('keeps the table options from player_joined and options_changed', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, Object.assign(joined({ is_running: false, phase: Phases.LOBBY }), {
      options: { agent: 'montecarlo', hints: true, agents: ['random', 'rule', 'heuristic', 'montecarlo'] } }));
    assert.deepEqual(State.options, { agent: 'montecarlo', hints: true,
      agents: ['random', 'rule', 'heuristic', 'montecarlo'], levels: [], turnClock: null, turnClocks: [], onLeave: null, newcomers: null });
    State.apply(Notifications.OPTIONS_CHANGED, { agent: 'casual', hints: false, agents: ['random', 'rule'],
      levels: [{ level: 'beginner', agent: 'beginner' }, { level: 'casual', agent: 'rule' }] });
    assert.deepEqual(State.options, { agent: 'casual', hints: false, agents: ['random', 'rule'],
      levels: ['beginner', 'casual'], turnClock: null, turnClocks: [], onLeave: null, newcomers: null });
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined());
    assert.equal(State.options, null, 'a server without options');
  });
  it('keeps readiness, the target score and the chat (lobby_state, chat_*, reaction)', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined({ is_running: false, phase: Phases.LOBBY }));
    assert.equal(State.lobby, null, 'a server without the extension');
    assert.ok(State.everyoneReady(), 'nothing to wait for without it');
    State.apply(Notifications.LOBBY_STATE, { target_score: 500, target_score_range: [100, 10000], ready: [false, null, false, null] });
    assert.deepEqual(State.lobby, { targetScore: 500, targetRange: [100, 10000], ready: [false, null, false, null] });
    assert.ok(!State.everyoneReady(), 'seat 2 is not ready');
    State.apply(Notifications.LOBBY_STATE, { target_score: 500, target_score_range: [100, 10000], ready: [false, null, true, null] });
    assert.ok(State.everyoneReady(), 'the host (seat 0) need not be ready; agents never hold up the start');
    assert.ok(!State.isReady());
    State.apply(Notifications.PLAYERS_SWAPPED, { player_index_1: 2, player_index_2: 3 });
    assert.deepEqual(assert.present(State.lobby).ready, [false, null, null, false], 'readiness moves and is cleared');
    State.apply(Notifications.PLAYER_LEFT, { player_index: 3, player_name: 'Ben', host_index: 0, replaced_by_agent: true });
    assert.deepEqual(assert.present(State.lobby).ready, [false, null, null, null]);
    State.apply(Notifications.CHAT_HISTORY, { messages: [{ player_index: 2, player_name: '<b>Ben</b>', text: 'hi & bye' }] });
    State.apply(Notifications.CHAT_MESSAGE, { player_index: 0, player_name: 'Anna', text: 'hello' });
    State.apply(Notifications.REACTION, { player_index: 2, player_name: '<b>Ben</b>', reaction: 'nice' });
    assert.deepEqual(State.chat, [
      { seat: 2, name: '<b>Ben</b>', text: 'hi & bye', reaction: null },
      { seat: 0, name: 'Anna', text: 'hello', reaction: null },
      { seat: 2, name: '<b>Ben</b>', text: '', reaction: 'nice' }]);
    for (let number = 0; number < 150; number++) {
      State.apply(Notifications.CHAT_MESSAGE, { player_index: 0, player_name: 'Anna', text: String(number) });
    }
    assert.equal(State.chat.length, 100, 'the client keeps a bounded number of lines');
    assert.equal(State.chat[99].text, '149');
  });
  it('watches a table as a spectator (spectate_started, spectators_changed, spectator_hands)', function () {
    State.reset();
    const seated = joined();
    State.apply(Notifications.SPECTATE_STARTED, { table_name: 'home', public_state: seated.public_state,
      options: { agent: 'rule', hints: true, agents: ['rule'] },
      lobby_state: { target_score: 500, target_score_range: [100, 10000], ready: [null, null, null, null] },
      protocol_version: 1 });
    assert.ok(State.spectating);
    assert.equal(State.playerIndex, null, 'a spectator has no seat');
    assert.deepEqual(State.hand(), [], 'and no hand');
    assert.equal(State.request, null);
    assert.equal(State.public.table_name, 'home');
    assert.equal(assert.present(State.lobby).targetScore, 500);
    assert.equal(State.spectators, null, 'a server without the count');
    State.apply(Notifications.SPECTATORS_CHANGED, { count: 2, limit: 20, allowed: true, hands_open: false, allow: [false, null, null, null] });
    assert.deepEqual(State.spectators, { count: 2, limit: 20, allowed: true, handsOpen: false, allow: [false, null, null, null] });
    State.apply(Notifications.SPECTATOR_HANDS, { hands: [[[2, 1]], [[3, 1]], [[4, 1]], [[5, 1]]] });
    assert.deepEqual(State.revealedHands, [[[2, 1]], [[3, 1]], [[4, 1]], [[5, 1]]]);
    State.apply(Notifications.SPECTATOR_HANDS, { hands: null });
    assert.equal(State.revealedHands, null, 'the hands close again');
    State.reset();
    assert.ok(!State.spectating && State.spectators === null);
  });
  it('shows an agent on a seat a client left', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined());
    State.apply(Notifications.PLAYER_LEFT, { player_index: 2, player_name: 'Ben', host_index: 0, replaced_by_agent: true });
    assert.equal(State.displayName(2), 'Bot 3');
  });
});

describe('State: a round', function () {
  it('replaces the fields each event carries and works out nothing else (issue 36)', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined({ phase: 'schupf' }, { hand_cards: [[2, 1], [3, 1], [4, 1]] }));
    State.apply(Notifications.PLAYER_SCHUPFED, { player_index: 0 });
    assert.deepEqual(State.public.count_hand_cards, [14, 14, 14, 14], 'no -3 around the push: the server says');
    State.apply(Notifications.PLAYER_SCHUPFED, { player_index: 3, private_delta: { hand_cards: [[5, 2]], received_schupf_cards: null },
      public_delta: { phase: 'playing', current_turn_index: 2, count_pushed: [3, 3, 3, 3] } });
    assert.deepEqual(State.hand(), [[5, 2]]);
    assert.deepEqual([State.public.phase, State.public.current_turn_index], ['playing', 2]);
    assert.deepEqual(State.public.announcements, [0, 0, 0, 0], 'a field not sent is kept');
    State.apply(Notifications.PLAYER_PLAYED, { turn: [2, [[15, 0]], ['single', 1, 15]], trick_points: 25, trick_owner_index: 2,
      is_bomb: false, out_of_turn: false });
    assert.deepEqual(State.public.trick_turns, [], 'no play appended: the delta brings the trick');
    State.apply(Notifications.PLAYER_PASSED, { player_index: 3, public_delta: { passed: [3], current_turn_index: 0 } });
    assert.deepEqual(State.passed, [false, false, false, true]);
    State.apply(Notifications.TRICK_TAKEN, { player_index: 2, points: 25, dragon_recipient: 3,
      public_delta: { points: [0, 0, 0, 25], tricks_won: [0, 0, 0, 1], passed: [] } });
    assert.deepEqual(State.public.points, [0, 0, 0, 25]);
    assert.deepEqual(State.passed, [false, false, false, false]);
  });
  it('tracks the revealed hands from the plays (R8.3)', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined());
    State.apply(Notifications.HANDS_REVEALED, { hands: [[], [[3, 2], [4, 2]], [[9, 9]], [[12, 1]]] });
    State.apply(Notifications.PLAYER_PLAYED, { turn: [1, [[3, 2]], ['single', 1, 3]], trick_points: 0, trick_owner_index: 1,
      is_bomb: false, out_of_turn: false });
    assert.deepEqual(assert.present(State.revealedHands)[1], [[4, 2]]);
    State.apply(Notifications.ROUND_STARTED, { round_index: 1 });
    assert.equal(State.revealedHands, null);
  });
  it('records a round with its calls and their outcome', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined({ announcements: [1, 0, 2, 0] }));
    State.apply(Notifications.ROUND_OVER, { card_points: [60, 40], bonus: [-100, 0], points: [-40, 40], total: [-40, 40],
      out_order: [2, 1, 0], is_double_victory: false,
      public_delta: { phase: Notifications.ROUND_OVER, round_scores: [[-40, 40]], total: [-40, 40] } });
    assert.equal(State.public.phase, Notifications.ROUND_OVER);
    assert.deepEqual(assert.present(State.lastRound).calls, [{ seat: 0, grand: false, success: false }, { seat: 2, grand: true, success: true }]);
    assert.deepEqual(State.public.round_scores, [[-40, 40]]);
    State.apply(Notifications.GAME_OVER, { game_score: [[-40], [40]], total: [-40, 40], winner: 31,
      public_delta: { phase: Notifications.GAME_OVER, is_running: false } });
    assert.ok(!State.public.is_running);
    assert.equal(assert.present(State.gameOver).winner, 31);
  });
  it('names everyone who held a seat during a round (issue 35, finding 5)', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined({ player_names: ['Anna', 'Max', 'Ben', 'Bot 4'] }));
    State.apply(Notifications.ROUND_STARTED, { round_index: 0 });
    State.apply(Notifications.PLAYER_LEFT, { player_index: 1, player_name: 'Max', host_index: 0, replaced_by_agent: true });
    State.apply(Notifications.ROUND_OVER, { card_points: [60, 40], bonus: [0, 0], points: [60, 40], total: [60, 40],
      out_order: [2, 1, 0], is_double_victory: false });
    assert.deepEqual(State.rounds[0].names, ['Anna', 'Max → Bot 2', 'Ben', 'Bot 4']);
    State.apply(Notifications.ROUND_STARTED, { round_index: 1 });
    State.apply(Notifications.ROUND_OVER, { card_points: [50, 50], bonus: [0, 0], points: [50, 50], total: [110, 90],
      out_order: [0, 1, 2], is_double_victory: false });
    assert.deepEqual(State.rounds[1].names, ['Anna', 'Bot 2', 'Ben', 'Bot 4'], 'the next round: its holders only');
  });
});

describe('State: requests', function () {
  it('reopens a refused answer and closes a cancelled request', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined());
    State.openRequest(playRequest([[[2, 1]]]));
    State.answerRequest({ cards: [[2, 1]] });
    assert.equal(State.request, null);
    State.reopenRequest();
    assert.equal(State.requestAction(), 'play');
    State.apply(Notifications.REQUEST_CANCELLED, { request_id: 'other' });
    assert.equal(State.requestAction(), 'play');
    State.apply(Notifications.REQUEST_CANCELLED, { request_id: 'r1' });
    assert.equal(State.request, null);
  });
  it('reads the hint of a play request (only legal plays)', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined());
    const request = playRequest([[[2, 1]], [[16, 0]], [[13, 4], [16, 0]]]);
    assert.deepEqual(State.hintPlays(), []);
    State.openRequest(request);
    assert.deepEqual(State.hintPlays(), [], 'hint null');
    request.context.hint = [[[16, 0], [13, 4]], [[3, 1]], [[2, 1]], [[16, 0]]];
    assert.deepEqual(State.hintPlays(), [[[13, 4], [16, 0]], [[2, 1]], [[16, 0]]]);
    State.answerRequest({ cards: [[2, 1]] });
    assert.deepEqual(State.hintPlays(), []);
  });
  it('takes what the seat may do beyond its turn from the server (R6.1, R4.3)', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined({ trick_turns: [[1, [[14, 1]], ['single', 1, 14]]], trick_owner_index: 1 },
      { hand_cards: FOUR_SEVENS.concat([[2, 2]]), may_announce: true, bombs: [FOUR_SEVENS] }));
    assert.ok(State.canAnnounceTichu());
    assert.deepEqual(State.playableBombs(), [FOUR_SEVENS]);
    const changed = Object.assign({}, State.private, { may_announce: false, bombs: [] });
    State.apply(Notifications.PRIVATE_STATE_CHANGED, { private_state: changed });
    assert.ok(!State.canAnnounceTichu());
    assert.deepEqual(State.playableBombs(), [], 'the hand holds a bomb, but the server says none may land now');
    assert.deepEqual(State.private, changed, 'the private state replaced');
    assert.ok(State.private !== changed, 'as a copy');
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined({}, { hand_cards: FOUR_SEVENS.concat([[2, 2]]), may_announce: undefined,
      bombs: undefined }));
    assert.ok(!State.canAnnounceTichu(), 'a server without the extension: no call offered');
    assert.deepEqual(State.playableBombs(), [], 'nor a bomb');
  });
  it('offers neither the call nor a bomb while the own play is on its way', function () {
    State.reset();
    /** @type {Array<[number, number]>} */
    const mahJong = [[1, 0]];
    State.apply(Notifications.PLAYER_JOINED, joined({ current_turn_index: 0 },
      { hand_cards: FOUR_SEVENS.concat(mahJong), may_announce: true, bombs: [FOUR_SEVENS] }));
    State.openRequest(playRequest([mahJong, FOUR_SEVENS, FOUR_SEVENS.concat(mahJong)]));
    assert.deepEqual([State.canAnnounceTichu(), State.playableBombs().length], [true, 1], 'at the own lead');
    State.answerRequest({ cards: mahJong });
    assert.deepEqual([State.canAnnounceTichu(), State.playableBombs().length], [false, 0], 'the answer sent');
    State.apply(Notifications.PLAYER_PLAYED, { turn: [0, mahJong, ['single', 1, 1]], trick_points: 0, trick_owner_index: 0,
      is_bomb: false, out_of_turn: false });
    assert.equal(State.playableBombs().length, 0, 'played: what it changed comes next');
    State.apply(Notifications.PRIVATE_STATE_CHANGED, { private_state: Object.assign({}, State.private,
      { may_announce: false, bombs: [] }) });
    assert.deepEqual([State.canAnnounceTichu(), State.playableBombs().length], [false, 0], 'the wish is chosen');
    State.apply(Notifications.WISH_MADE, { wish_value: 8 });
    State.apply(Notifications.PRIVATE_STATE_CHANGED, { private_state: Object.assign({}, State.private, { bombs: [FOUR_SEVENS] }) });
    assert.equal(State.playableBombs().length, 1, 'the server offers the bomb again');
    State.openRequest(playRequest([[], FOUR_SEVENS]));
    State.answerRequest({ cards: [] });
    assert.equal(State.playableBombs().length, 0, 'the pass sent');
    State.reopenRequest();
    assert.equal(State.playableBombs().length, 1, 'the pass refused: the request is open again');
    State.answerRequest({ cards: [] });
    State.apply(Notifications.PLAYER_PASSED, { player_index: 0 });
    assert.equal(State.playableBombs().length, 1, 'a pass confirmed leaves the bombs as told');
  });
  it('shows the passes of the open trick again after a reconnect (public_state.passed)', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined({ trick_turns: [[1, [[14, 1]], ['single', 1, 14]]], trick_owner_index: 1,
      passed: [2, 3] }));
    assert.deepEqual(State.passed, [false, false, true, true]);
  });
  it('counts down the seat of a dropped client until it is back or an agent takes it', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined({ away: [[1, 12.3]] }));
    assert.equal(State.awaySeconds(1), 13);
    assert.equal(State.awaySeconds(2), null);
    State.apply(Notifications.PLAYER_DISCONNECTED, { player_index: 2, player_name: 'Ben', seconds: 20 });
    assert.equal(State.awaySeconds(2), 20);
    State.apply(Notifications.PLAYER_JOINED, { player_index: 2, player_name: 'Ben' });
    assert.equal(State.awaySeconds(2), null, 'back');
    State.apply(Notifications.PLAYER_LEFT, { player_index: 1, player_name: 'Bot 2', host_index: 0, replaced_by_agent: true });
    assert.equal(State.awaySeconds(1), null, 'an agent took the seat');
  });
  it('runs a turn clock only for a request with a timeout', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined());
    const untimed = playRequest([[[2, 1]], []]);
    State.openRequest(untimed);
    assert.equal(State.requestSecondsLeft(), null, 'no limit');
    const timed = Object.assign(playRequest([[[2, 1]], []]), { timeout: 12.4 });
    State.openRequest(timed);
    assert.equal(State.requestSecondsLeft(), 13);
    State.answerRequest({ cards: [[2, 1]] });
    assert.equal(State.requestSecondsLeft(), null, 'answered');
  });
});

describe('TableControls (design 8.1.5)', function () {
  it('Grand Tichu step: continue, long press, play disabled', function () {
    const states = TableControls.compute(situation({ phase: Phases.GRAND_TICHU, requestAction: 'announce_grand_tichu' }));
    assert.deepEqual([states.pass.label, states.pass.enabled], ['button.continue', true]);
    assert.deepEqual([states.tichu.job, states.tichu.enabled], ['grandTichu', true]);
    assert.ok(!states.play.enabled);
  });
  it('push step: push enabled with three cards in the zones', function () {
    const two = TableControls.compute(situation({ phase: Phases.SCHUPF, requestAction: 'schupf', pushCount: 2 }));
    const three = TableControls.compute(situation({ phase: Phases.SCHUPF, requestAction: 'schupf', pushCount: 3 }));
    assert.deepEqual([two.play.label, two.play.enabled, three.play.enabled], ['button.push', false, true]);
    assert.ok(!three.pass.enabled && !three.tichu.enabled);
  });
  it('not at turn: pass and play disabled', function () {
    const states = TableControls.compute(situation({ canAnnounce: true }));
    assert.ok(!states.pass.enabled && !states.play.enabled && states.tichu.enabled);
  });
  it('at turn without a legal card: pass, no move', function () {
    const states = TableControls.compute(situation({ requestAction: 'play', legalPlays: [[]] }));
    assert.deepEqual([states.play.label, states.play.enabled, states.pass.enabled], ['button.noMove', false, true]);
  });
  it('at turn, nothing selected: Play disabled (no proposal); pass disabled on a lead', function () {
    const states = TableControls.compute(situation({ requestAction: 'play', legalPlays: [[[2, 1]]] }));
    assert.deepEqual([states.play.label, states.play.job, states.play.enabled], ['button.play', 'play', false]);
    assert.ok(!states.pass.enabled);
  });
  it('an unplayable selection says why: the wish (R5), the trick to beat (R4), no combination', function () {
    /**
     * @param {Partial<{selection: number[][], legalPlays: number[][][], trickCombination: ([string, number, number]|null),
     *   wishValue: number}>} fields The situation's fields to set.
     * @returns {({key: string, params: Object}|null)} Why the selection is no legal play.
     */
    const problem = function (fields) {
      return TableControls.selectionProblem(Object.assign({ selection: [], legalPlays: [],
        trickCombination: null, wishValue: 0 }, fields));
    };
    const pairs = [[[9, 1], [9, 2]], [[7, 1], [7, 3]], []];
    assert.equal(problem({ selection: [[9, 1], [9, 2]], legalPlays: pairs, trickCombination: ['pair', 2, 5] }), null);
    assert.equal(problem({ legalPlays: pairs }), null, 'nothing selected');
    assert.deepEqual(problem({ selection: [[4, 1], [4, 2]], legalPlays: pairs, trickCombination: ['pair', 2, 5] }),
      { key: 'reason.beat', params: { combo: 'pair' } });
    assert.deepEqual(problem({ selection: [[4, 1], [9, 2]], legalPlays: [[[10, 1]], []],
      trickCombination: ['single', 1, 5] }), { key: 'reason.shape', params: { combo: 'single' } },
    'two cards on a Single form no combination that goes on it');
    assert.deepEqual(problem({ selection: [[4, 1], [9, 2]], legalPlays: [[[4, 1]], [[9, 2]]] }),
      { key: 'reason.combination', params: {} });
    const wished = [[[7, 1]], [[7, 1], [7, 3]]];
    assert.deepEqual(problem({ selection: [[9, 1]], legalPlays: wished, wishValue: 7 }),
      { key: 'reason.wish', params: { value: 7 } });
    assert.deepEqual(problem({ selection: [[9, 1]], legalPlays: [[[7, 1]], [[9, 1], [9, 2]]], wishValue: 7 }),
      { key: 'reason.combination', params: {} }, 'the wish does not bind when a play without it is legal');
    assert.equal(problem({ selection: [[2, 1]], legalPlays: [[]], trickCombination: ['single', 1, 14] }), null,
      'only passing is legal: the status says so already');
  });
  it('at turn with a selection: play only for a legal one', function () {
    const legal = [[[2, 1]], [[5, 1], [5, 2]], []];
    const good = TableControls.compute(situation({ requestAction: 'play', legalPlays: legal, selection: [[5, 2], [5, 1]] }));
    const bad = TableControls.compute(situation({ requestAction: 'play', legalPlays: legal, selection: [[5, 2]] }));
    assert.deepEqual([good.play.label, good.play.enabled, bad.play.enabled], ['button.play', true, false]);
  });
  it('hint button: shown at the own turn only when the request carries a hint', function () {
    const legal = [[[2, 1]], [[5, 1], [5, 2]], []];
    const hinted = TableControls.compute(situation({ requestAction: 'play', legalPlays: legal, hints: [legal[1]] }));
    assert.deepEqual([hinted.hint.visible, hinted.hint.enabled, hinted.hint.job, hinted.hint.label],
      [true, true, 'nextHint', 'button.hint']);
    const selected = TableControls.compute(situation({ requestAction: 'play', legalPlays: legal, hints: [legal[1]],
      selection: [[5, 1], [5, 2]] }));
    assert.ok(selected.hint.visible && selected.play.enabled, 'the hinted play can be played');
    assert.ok(!TableControls.compute(situation({ requestAction: 'play', legalPlays: legal, hints: [] })).hint.visible);
    assert.ok(!TableControls.compute(situation({ requestAction: 'play', legalPlays: legal })).hint.visible);
    assert.ok(!TableControls.compute(situation({ hints: [legal[1]] })).hint.visible, 'not at turn');
    for (const phase of ['grand_tichu', 'schupf', Notifications.ROUND_OVER]) {
      assert.ok(!TableControls.compute(situation({ phase: phase })).hint.visible, phase);
    }
  });
  it('after the own action the status speaks to the player, never of them (issue 11, item 12)', function () {
    let own = null;
    own = TableControls.ownAction(own, passedNote(0), 0);
    assert.equal(own, 'pass');
    assert.deepEqual(TableControls.turnStatus({ turn: 0, seat: 0, ownAction: own }),
      { key: 'status.youPassed', seat: null }, 'the turn still points here: not "Anna is playing."');
    assert.deepEqual(TableControls.turnStatus({ turn: 1, seat: 0, ownAction: own }),
      { key: 'status.youPassedTurnOf', seat: 1 });
    assert.equal(I18n.t('status.youPassedTurnOf', { name: 'Bot 2' }), 'You passed. Bot 2 is playing.');
    own = TableControls.ownAction(own, playedNote([1, [[9, 1]], ['single', 1, 9]]), 0);
    assert.equal(own, null, 'another seat acted');
    assert.deepEqual(TableControls.turnStatus({ turn: 2, seat: 0, ownAction: own }),
      { key: 'status.turnOf', seat: 2 });
    own = TableControls.ownAction(own, playedNote([0, [[5, 1], [5, 2]], ['pair', 2, 5]]), 0);
    assert.equal(own, 'play');
    assert.equal(TableControls.ownAction(own, TURN_CHANGED, 0), 'play');
    assert.equal(TableControls.ownAction(own, takenNote(0, 0, null), 0), null);
    assert.equal(TableControls.ownAction(own, { event: Notifications.ROUND_STARTED, context: { round_index: 1 } }, 0), null);
    assert.equal(TableControls.ownAction(own, { event: Notifications.PLAYER_JOINED, context: joined() }, 0), null);
    assert.equal(TableControls.ownAction(own,
      { event: Notifications.PLAYER_JOINED, context: { player_index: 2, player_name: 'Ben' } }, 0), 'play');
    assert.deepEqual(TableControls.turnStatus({ turn: 0, seat: 0, ownAction: null }),
      { key: 'status.waiting', seat: null });
    assert.equal(TableControls.turnStatus({ turn: null, seat: 0, ownAction: 'play' }), null);
  });
  it('while an agent plays the own seat, the status names its moves as the agent\'s (issue 35, finding 9)', function () {
    assert.deepEqual(TableControls.turnStatus({ turn: 1, seat: 0, ownAction: 'play', agentPlays: true }),
      { key: 'status.agentPlayedTurnOf', seat: 1 });
    assert.deepEqual(TableControls.turnStatus({ turn: 0, seat: 0, ownAction: 'pass', agentPlays: true }),
      { key: 'status.agentPassed', seat: null });
    assert.deepEqual(TableControls.turnStatus({ turn: 1, seat: 0, ownAction: 'play', agentPlays: false }),
      { key: 'status.youPlayedTurnOf', seat: 1 });
  });
  it('bomb button: selects the first bomb (the server lists the weakest first), then throws the selected one', function () {
    const flush = [[2, 3], [3, 3], [4, 3], [5, 3], [6, 3]];
    const offered = TableControls.compute(situation({ bombs: [FOUR_SEVENS, flush] }));
    assert.deepEqual([offered.bomb.visible, offered.bomb.job, offered.bomb.cards], [true, 'select', FOUR_SEVENS]);
    const chosen = TableControls.compute(situation({ bombs: [FOUR_SEVENS, flush], selection: flush }));
    assert.deepEqual([chosen.bomb.job, chosen.bomb.label], ['throw', 'button.throwBomb']);
    assert.ok(!TableControls.compute(situation({})).bomb.visible);
  });
});

describe('CardBuilder', function () {
  const fixture = assert.present(document.getElementById('fixture'));
  it('builds a card with its key, suit class, value and symbols', function () {
    const card = CardBuilder.build([14, 4]);
    assert.equal(card.tagName, 'DIV');
    assert.equal(card.dataset.card, '14-4');
    assert.ok(card.classList.contains('card') && card.classList.contains('card-stars'));
    assert.equal(assert.present(card.querySelector('.card-value')).textContent, 'A');
    assert.equal(card.querySelectorAll('svg').length, 2);
    assert.equal(card.getAttribute('aria-label'), 'Ace of Stars');
  });
  it('builds the special cards recognisably', function () {
    const names = [[0, 0], [1, 0], [15, 0], [16, 0]].map(function (special) {
      const card = CardBuilder.build(special);
      assert.ok(card.classList.contains('special'));
      return CardBuilder.symbolOf(special) + ':' + assert.present(card.querySelector('.card-value')).textContent;
    });
    assert.deepEqual(names, ['dog:Dog', 'mahjong:1', 'dragon:Dr', 'phoenix:Ph']);
  });
  it('builds buttons for hand cards', function () {
    const card = CardBuilder.build([2, 1], { interactive: true });
    assert.equal(card.tagName, 'BUTTON');
    assert.equal(/** @type {HTMLButtonElement} */ (card).type, 'button');
  });
  it('syncs a container: order, reuse, selection', function () {
    fixture.replaceChildren();
    CardBuilder.syncCards(fixture, [[2, 1], [3, 1]]);
    const first = fixture.children[0];
    CardBuilder.syncCards(fixture, [[1, 0], [2, 1]], { selected: new Set(['2-1']) });
    assert.deepEqual(Array.from(/** @type {HTMLCollectionOf<HTMLElement>} */ (fixture.children), function (child) { return child.dataset.card; }), ['1-0', '2-1']);
    assert.equal(fixture.children[1], first, 'the element is reused');
    assert.ok(first.classList.contains('selected'));
  });
  it('redraws cards after a language switch', function () {
    fixture.replaceChildren();
    CardBuilder.syncCards(fixture, [[11, 2]]);
    I18n.setLanguage('de');
    CardBuilder.syncCards(fixture, [[11, 2]]);
    assert.equal(assert.present(fixture.querySelector('.card-value')).textContent, 'B');
    assert.equal(fixture.children.length, 1);
    I18n.setLanguage('en');
  });
});

describe('CardTracker: cards still out', function () {
  it('has a deck of 56 cards', function () {
    assert.equal(CardTracker.deck().length, 56);
  });
  it('counts nothing played at the start: all but the own hand is out', function () {
    const summary = CardTracker.summarize([], [[14, 1], [16, 0], [2, 3]]);
    assert.equal(summary.out.length, 53);
    assert.equal(summary.playedCount, 0);
    assert.equal(summary.acesOut, 3);
    assert.deepEqual(summary.specials, { dragon: 'out', phoenix: 'hand', dog: 'out', mahjong: 'out' });
  });
  it('takes played cards and the own hand out of what is out', function () {
    const played = [[15, 0], [0, 0], [14, 2], [7, 1], [9, 3]];
    const summary = CardTracker.summarize(played, [[1, 0], [14, 3], [7, 4]]);
    assert.deepEqual(summary.specials, { dragon: 'played', phoenix: 'out', dog: 'played', mahjong: 'hand' });
    assert.equal(summary.acesOut, 2);
    assert.equal(summary.outByValue[7], 2);
    assert.equal(summary.playedCount, 5);
    assert.equal(summary.outByValue[8], 4);
    assert.equal(summary.out.length, 56 - 5 - 3);
  });
});

describe('CenterPanel: the plays of the open trick', function () {
  /** @typedef {import('./protocol-types.js').PublicState['trick_turns'][number]} TrickTurn */
  /** @type {TrickTurn} */
  const dog = [1, [[0, 0]], ['single', 1, 0]];
  /** @type {TrickTurn} */
  const seven = [3, [[7, 4]], ['single', 1, 7]];
  /** @type {TrickTurn} */
  const nine = [0, [[9, 1]], ['single', 1, 9]];
  it('drops the Dog once a play follows it (R3.10: it passed the lead)', function () {
    assert.deepEqual(CenterPanel.openTrickTurns([dog]), [dog], 'the Dog alone is shown');
    assert.deepEqual(CenterPanel.openTrickTurns([dog, seven, nine]), [seven, nine]);
    assert.deepEqual(CenterPanel.openTrickTurns([seven, nine]), [seven, nine], 'a trick without the Dog');
  });
});

describe('TrickLog: the last trick', function () {
  it('keeps plays and passes in order and the taken trick with its winner', function () {
    let log = TrickLog.empty();
    log = TrickLog.reduce(log, playedNote([1, [[5, 1]], ['single', 1, 5]]));
    log = TrickLog.reduce(log, passedNote(2));
    log = TrickLog.reduce(log, playedNote([3, [[15, 0]], ['single', 1, 15]]));
    assert.equal(log.current.length, 3);
    assert.ok(log.current[1].pass);
    log = TrickLog.reduce(log, takenNote(3, 30, 0));
    assert.deepEqual(log.current, []);
    assert.equal(assert.present(log.last).winner, 3);
    assert.equal(assert.present(log.last).dragonRecipient, 0);
    assert.equal(assert.present(log.last).points, 30);
    assert.deepEqual(assert.present(log.last).entries.map(function (entry) { return entry.seat; }), [1, 2, 3]);
    assert.equal(log.taken, 1);
  });
  it('keeps the last round\'s final trick until a trick of the new round is taken', function () {
    let log = TrickLog.reduce(TrickLog.empty(), playedNote([1, [[5, 1]], ['single', 1, 5]]));
    log = TrickLog.reduce(log, takenNote(1, 5, null));
    log = TrickLog.reduce(log, { event: Notifications.ROUND_STARTED, context: { round_index: 1 } });
    assert.equal(assert.present(log.last).winner, 1, 'the final trick is kept over the deal');
    assert.equal(log.taken, 0);
    log = TrickLog.reduce(log, playedNote([2, [[9, 1]], ['single', 1, 9]]));
    log = TrickLog.reduce(log, takenNote(2, 0, null));
    assert.equal(assert.present(log.last).winner, 2, 'the new round\'s first trick replaces it');
  });
  it('starts from the open trick on joining', function () {
    let log = TrickLog.reduce(TrickLog.empty(), takenNote(1, 0, null));
    log = TrickLog.reduce(log, { event: Notifications.PLAYER_JOINED, context: joined({ trick_turns: [] }) });
    assert.equal(log.last, null);
    log = TrickLog.reduce(log, { event: Notifications.PLAYER_JOINED, context: joined({ trick_turns: [[2, [[9, 4]], ['single', 1, 9]]] }) });
    assert.equal(log.current.length, 1);
    assert.equal(log.current[0].seat, 2);
    assert.equal(TrickLog.reduce(log, TURN_CHANGED), log, 'other events leave it');
  });
});

describe('MoveLog: the running log of the moves', function () {
  const names = ['Anna', 'Rolf', 'Ben', 'Dora'];
  /** @param {number} seat 0..3. @returns {string} Its name. */
  const nameOf = function (seat) { return names[seat]; };
  it('keeps the moves with the names of their moment, and the wish as the Mah Jong player\'s', function () {
    let log = MoveLog.empty();
    log = MoveLog.reduce(log, playedNote([2, [[1, 0]], ['single', 1, 1]]), nameOf, 10);
    log = MoveLog.reduce(log, { event: Notifications.WISH_MADE, context: { wish_value: 12 } }, nameOf, 10);
    names[2] = 'Bot 3';
    log = MoveLog.reduce(log, passedNote(2), nameOf, 10);
    names[2] = 'Ben';
    assert.deepEqual(log.moves.map(function (move) { return move.kind; }), ['play', 'wish', 'pass']);
    assert.equal(log.moves[1].name, 'Ben');
    assert.equal(log.moves[2].name, 'Bot 3', 'the name when the move was made');
    assert.equal(MoveLog.reduce(log, TURN_CHANGED, nameOf, 10), log, 'other events leave it');
  });
  it('says that the Dog passes the lead to the partner, not "Single" (issue 35, finding 9)', function () {
    const log = MoveLog.reduce(MoveLog.empty(), playedNote([1, [[0, 0]], ['single', 1, 0]]), nameOf, 10);
    assert.deepEqual(log.moves.map(function (move) { return move.kind; }), ['dog']);
    assert.equal(MoveLog.text(log.moves[0]), 'Rolf plays the Dog: the lead passes to Dora.');
  });
  it('keeps at most the limit, the newest', function () {
    let log = MoveLog.empty();
    for (let seat = 0; seat < 4; seat += 1) {
      log = MoveLog.reduce(log, passedNote(seat), nameOf, 3);
    }
    assert.deepEqual(log.moves.map(function (move) { return move.seat; }), [1, 2, 3]);
  });
  it('adds the Dragon gift to the trick taken', function () {
    const log = MoveLog.reduce(MoveLog.empty(), takenNote(1, 25, 2), nameOf, 10);
    assert.deepEqual(log.moves.map(function (move) { return move.kind; }), ['taken', 'dragon']);
    assert.equal(log.moves[1].data?.toName, 'Ben');
  });
  it('says who left the table and who plays the seat now (issue 35, finding 5)', function () {
    names[1] = 'Bot 2';  // the State took the notification first: the seat is the agent's
    const log = MoveLog.reduce(MoveLog.empty(), { event: Notifications.PLAYER_LEFT,
      context: { player_index: 1, player_name: 'Rolf', host_index: 0, replaced_by_agent: true } }, nameOf, 10);
    names[1] = 'Rolf';
    assert.deepEqual(log.moves.map(function (move) { return [move.kind, move.name]; }), [['left', 'Rolf']]);
    assert.equal(MoveLog.text(log.moves[0]), 'Rolf left the table; Bot 2 plays the seat.');
  });
});

describe('HandOrder: sorting and arranging the hand', function () {
  const cards = [[14, 1], [2, 4], [16, 0], [2, 1], [9, 4], [1, 0]];
  /** @param {number[][]} list Cards. @returns {string[]} Their keys. */
  const keys = function (list) { return list.map(Lib.cardKey); };
  it('sorts by rank (default) and by suit', function () {
    assert.deepEqual(keys(HandOrder.sortCards(cards, 'rank')), ['1-0', '2-1', '2-4', '9-4', '14-1', '16-0']);
    assert.deepEqual(keys(HandOrder.sortCards(cards, 'suit')), ['1-0', '16-0', '2-1', '14-1', '2-4', '9-4']);
  });
  it('moves a card to a new place', function () {
    assert.deepEqual(HandOrder.move(['a', 'b', 'c', 'd'], 'a', 2), ['b', 'c', 'a', 'd']);
    assert.deepEqual(HandOrder.move(['a', 'b', 'c'], 'c', 0), ['c', 'a', 'b']);
    assert.deepEqual(HandOrder.move(['a', 'b'], 'b', 9), ['a', 'b']);
    assert.deepEqual(HandOrder.move(['a', 'b'], 'x', 0), ['a', 'b']);
  });
  it('keeps an arranged order and puts new cards after it, sorted', function () {
    const order = ['9-4', '2-1', '14-1', '1-0'];
    const hand = [[14, 1], [2, 1], [9, 4], [3, 3], [2, 2]];  // 1-0 played; 3-3, 2-2 new
    assert.deepEqual(keys(HandOrder.arrange(hand, 'rank', order)), ['9-4', '2-1', '14-1', '2-2', '3-3']);
    assert.deepEqual(keys(HandOrder.arrange(hand, 'suit', null)), ['2-1', '14-1', '2-2', '3-3', '9-4']);
  });
});

describe('AutoPass: the decision', function () {
  /**
   * A `play` request.
   * @param {Array<Array<[number, number]>>} legal Its legal plays.
   * @returns {import('./protocol-types.js').RequestPayload} The request.
   */
  const request = function (legal) {
    return { request_id: 'r1', action: 'play', timeout: null, context: { hand_cards: [], trick_combination: null,
      trick_owner_index: null, wish_value: 0, legal_plays: legal, hint: null } };
  };
  it('passes in both modes when passing is legal and no bomb is possible', function () {
    assert.ok(AutoPass.shouldPass('trick', request([[], [[9, 1]]]), []));
    assert.ok(AutoPass.shouldPass('bomb', request([[], [[9, 1]]]), []));
  });
  it('never passes a lead or when the wish forces a play, nor when off', function () {
    assert.ok(!AutoPass.shouldPass('trick', request([[[9, 1]]]), []));
    assert.ok(!AutoPass.shouldPass(null, request([[]]), []));
    assert.ok(!AutoPass.shouldPass('trick',
      { request_id: 'r2', action: 'wish', timeout: null, context: { wish_values: [] } }, []));
    assert.ok(!AutoPass.shouldPass('trick', null, []));
  });
  it('leaves a request to the player in the bomb mode only when the server offers a bomb (R4.3)', function () {
    /** @type {Array<[number, number]>} */
    const sevens = [[7, 1], [7, 2], [7, 3], [7, 4]];
    const withBomb = request([[], sevens]);
    assert.ok(AutoPass.shouldPass('trick', withBomb, [FOUR_SEVENS]));
    assert.ok(!AutoPass.shouldPass('bomb', withBomb, [FOUR_SEVENS]));
    assert.ok(!AutoPass.shouldPass('bomb', request([[], [[9, 1]]]), [FOUR_SEVENS]), 'the bombs are the server\'s');
    assert.ok(!AutoPass.shouldPass('bomb', request([[[9, 1]]]), []), 'not where passing is not legal');
  });
  it('ends with the trick', function () {
    assert.ok(AutoPass.endsWith(Notifications.TRICK_TAKEN));
    assert.ok(AutoPass.endsWith(Notifications.ROUND_OVER));
    assert.ok(!AutoPass.endsWith(Notifications.PLAYER_PLAYED));
    assert.ok(!AutoPass.endsWith(Notifications.PLAYER_PASSED));
  });
});

describe('Replay viewer: labels, words and addresses', function () {
  it('reads record labels as cards', function () {
    assert.deepEqual(CardLabels.cardOf('SZ'), [10, 1]);
    assert.deepEqual(CardLabels.cardOf('RA'), [14, 4]);
    assert.deepEqual(CardLabels.cardOf('GB'), [11, 3]);
    assert.deepEqual(CardLabels.cardOf('B7'), [7, 2]);
    assert.deepEqual(CardLabels.cardOf('Hu'), [0, 0]);
    assert.deepEqual(CardLabels.cardOf('Ma'), [1, 0]);
    assert.deepEqual(CardLabels.cardOf('Dr'), [15, 0]);
    assert.deepEqual(CardLabels.cardOf('Ph'), [16, 0]);
  });
  it('says what a step did, in English and German', function () {
    I18n.setLanguage('en');
    const pair = stepOf({ kind: 'play', seat: 1, cards: ['S7', 'R7'], combo: 'pair', rank: 7 });
    assert.equal(ReplayView.describe(pair), 'Seat 2 plays a pair of 7s.');
    assert.equal(ReplayView.comboText({ cards: ['SA'], combo: 'single', rank: 14 }), 'the Ace of Swords');
    assert.equal(ReplayView.comboText({ cards: ['S9', 'R9', 'G9', 'B9'], combo: 'bomb', rank: 9 }), 'four 9s');
    assert.equal(ReplayView.describe(stepOf({ kind: 'wish', seat: 0, value: 12 })), 'Seat 1 wishes for a Queen.');
    assert.equal(ReplayView.describe(stepOf({ kind: 'round_end', seat: null, round: 0, round_score: [60, 40] })),
      'Round 1 ends: 60 : 40.');
    I18n.setLanguage('de');
    assert.equal(ReplayView.describe(stepOf({ kind: 'pass', seat: 3 })), 'Platz 4 passt.');
    I18n.setLanguage('en');
  });
  it('reads and writes the replay address', function () {
    assert.deepEqual(ReplayController.parseHash('#replay=abc-1&step=12'), { id: 'abc-1', step: 12 });
    assert.deepEqual(ReplayController.parseHash('#replay=x'), { id: 'x', step: null });
    assert.deepEqual(ReplayController.parseHash('#replay=x&step=-3'), { id: 'x', step: null });
    assert.equal(ReplayController.parseHash('#lobby'), null);
    assert.equal(ReplayController.parseHash(''), null);
    assert.equal(ReplayController.stepHash('a b', 3), '#replay=a%20b&step=3');
    assert.deepEqual(ReplayController.parseHash(ReplayController.stepHash('a b', 3)), { id: 'a b', step: 3 });
  });
});

describe('Analysis: the chart, the markers, the costliest decisions', function () {
  /**
   * A judgement of the analysis document (docs/server.md "Game analysis").
   * @param {number} step The step.
   * @param {number} seat The seat.
   * @param {number} loss The loss.
   * @param {?string} label The label.
   * @param {number} advantage The advantage after it.
   * @returns {import('./protocol-types.js').AnalysisJudgement} The judgement.
   */
  function judgement(step, seat, loss, label, advantage) {
    return { step: step, round: step < 50 ? 0 : 1, seat: seat, kind: 'play', best: 0, chosen: loss ? 1 : 0,
      options: [{ text: 'Dr', cards: ['Dr'], mean: 40, half_width: 6 },
        { text: 'R5 G5', cards: ['R5', 'G5'], mean: 40 - loss, half_width: 8 }],
      loss: loss, loss_half_width: 10, label: label, advantage: advantage, samples: 16 };
  }
  /**
   * The analysis document of the tests: seven judgements, Ada's summary.
   * @returns {import('./protocol-types.js').AnalysisDocument} The document.
   */
  const documentOf = function () {
    return { format: 'tichu-analysis/1', game_id: 'g', method: method, players: [
      { seat: 0, name: 'Ada', decisions: 5, mean_loss: 25.2, given_away: 126, inaccuracies: 1, mistakes: 1,
        blunders: 1 }],
    judgements: [judgement(60, 0, 90, 'blunder', -120), judgement(10, 0, 0, null, 30),
      judgement(20, 0, 20, 'inaccuracy', 10), judgement(20, 1, 5, null, 15), judgement(40, 0, 45, 'mistake', -20),
      judgement(80, 0, 3, null, -100), judgement(90, 2, 7, null, -90)] };
  };
  const box = { width: 1000, height: 120, pad: 10 };

  it('orders the judgements by step and finds those of a step, the costliest first', function () {
    const doc = documentOf();
    assert.deepEqual(Analysis.judgements(doc).map(function (j) { return j.step; }), [10, 20, 20, 40, 60, 80, 90]);
    assert.deepEqual(Analysis.judgementsAt(doc, 20).map(function (j) { return j.seat; }), [0, 1]);
    assert.deepEqual(Analysis.judgementsAt(doc, 21), []);
    assert.deepEqual(Analysis.judgements(null), []);
  });
  it('marks mistakes and blunders only, and the worst of a stretch of steps', function () {
    const doc = documentOf();
    assert.deepEqual(Analysis.markers(doc).map(function (j) { return j.label; }), ['mistake', 'blunder']);
    assert.equal(Analysis.worstLabel(doc, 0, 50), 'mistake');
    assert.equal(Analysis.worstLabel(doc, 0, 61), 'blunder');
    assert.equal(Analysis.worstLabel(doc, 0, 40), null);
    assert.equal(Analysis.worstLabel(doc, 61, 100), null);
  });
  it('draws the advantage: a point per judgement, 0 in the middle, team 20 above', function () {
    const chart = Analysis.chart(documentOf(), 101, box);
    assert.equal(chart.range, 150);
    assert.equal(chart.zero, 60);
    assert.equal(chart.points.length, 7);
    assert.equal(chart.points[0].x, 10 + 10 / 100 * 980);
    assert.equal(chart.points[0].y, 60 - 30 / 150 * 50);
    assert.ok(chart.points[4].y > 60, 'team 31 ahead is below the line');
    assert.equal(chart.points[4].label, 'blunder');
    assert.equal(Analysis.chart(emptyDocument(), 10, box).range, 50);
  });
  it('jumps from a click to the nearest judged step, and on to the next marker', function () {
    const doc = documentOf();
    assert.equal(Analysis.nearestStep(doc, 101, box, Analysis.stepX(57, 101, box)), 60);
    assert.equal(Analysis.nearestStep(doc, 101, box, 0), 10);
    assert.equal(Analysis.nearestStep(emptyDocument(), 101, box, 0), null);
    assert.equal(Analysis.nextMarked(doc, 0, 1), 40);
    assert.equal(Analysis.nextMarked(doc, 40, 1), 60);
    assert.equal(Analysis.nextMarked(doc, 60, 1), null);
    assert.equal(Analysis.nextMarked(doc, 60, -1), 40);
  });
  it('lists a seat\'s five costliest decisions and starts with the viewer\'s own seat', function () {
    const doc = documentOf();
    assert.deepEqual(Analysis.costliest(doc, 0).map(function (j) { return j.step; }), [60, 40, 20, 80]);
    assert.deepEqual(Analysis.costliest(doc, 0, 2).map(function (j) { return j.loss; }), [90, 45]);
    assert.deepEqual(Analysis.judgedSeats(doc), [0, 1, 2]);
    const names = ['Ada', 'Ben', 'Cleo', 'Dan'];
    assert.equal(Analysis.startSeat(doc, names, 'Cleo'), 2);
    assert.equal(Analysis.startSeat(doc, names, 'Dan'), 0, 'Dan made no judged decision');
    assert.equal(Analysis.startSeat(doc, names, null), 0);
    assert.equal(Analysis.startSeat(emptyDocument(), names, 'Ada'), null);
    assert.equal(Analysis.playerSummary(doc, 0)?.mean_loss, 25.2);
    assert.equal(Analysis.playerSummary(doc, 3), null);
  });
  it('says the verdict, the options and the values in English and German', function () {
    /** @param {number} seat 0..3. @returns {string} Its name. */
    const name = function (seat) { return ['Ada', 'Ben', 'Cleo', 'Dan'][seat]; };
    const blunder = judgement(60, 0, 90.4, 'blunder', -120);
    assert.equal(AnalysisView.verdict(blunder, name), 'Ada: blunder, 90 ± 10 points lost');
    assert.equal(AnalysisView.verdict(judgement(10, 1, 0, null, 0), name), 'Ben: the best choice');
    assert.equal(AnalysisView.verdict(judgement(10, 2, 6, null, 0), name),
      'Cleo: 6 ± 10 points lost, within the noise');
    assert.equal(AnalysisView.valueText(35.2, 8.1), '+35 ± 8');
    assert.equal(AnalysisView.valueText(-4.6, 0.4), '\u22125 ± 0');
    // issue 34, finding 1: a solved endgame's values and losses are exact, never "± 0"
    assert.equal(AnalysisView.valueText(40, 0, true), '+40 exact');
    const exactBlunder = Object.assign(judgement(60, 0, 130, 'blunder', -120), { exact: true, loss_half_width: 0 });
    assert.equal(AnalysisView.verdict(exactBlunder, name), 'Ada: blunder, 130 points lost, exact');
    const exactSmall = Object.assign(judgement(10, 2, 10, null, 0), { exact: true, loss_half_width: 0 });
    assert.equal(AnalysisView.verdict(exactSmall, name), 'Cleo: 10 points lost, exact, below the thresholds');
    // issue 34, part 4: a sampled loss without spread over its deals is not shown as certain
    assert.equal(AnalysisView.valueText(40, 0), '+40 ± ?');
    const unmeasured = Object.assign(judgement(10, 2, 50, null, 0), { loss_half_width: 0 });
    assert.equal(AnalysisView.verdict(unmeasured, name),
      'Cleo: 50 points lost, not established (no spread over the deals)');
    /** @param {string} text The option's text. @returns {import('./protocol-types.js').AnalysisOption} The option. */
    const option = function (text) { return judgedOption({ text: text, cards: [] }); };
    const tichu = judgedDecision({ kind: 'tichu', seat: 0 });
    assert.equal(AnalysisView.optionText(tichu, option('no Tichu'), name), 'no Tichu');
    assert.equal(AnalysisView.optionText(judgedDecision({ kind: 'wish', seat: 0 }), option('wish 12'), name), 'wish for a Queen');
    assert.equal(AnalysisView.optionText(judgedDecision({ kind: 'dragon', seat: 0 }), option('Dragon to seat 1'), name), 'Dragon to Ben');
    assert.equal(AnalysisView.optionText(judgedDecision({ kind: 'push', seat: 0 }), option('R2 → right'), name), 'R2 → right');
    I18n.setLanguage('de');
    assert.equal(AnalysisView.verdict(blunder, name), 'Ada: grober Fehler, 90 ± 10 Punkte verschenkt');
    assert.equal(AnalysisView.verdict(exactBlunder, name), 'Ada: grober Fehler, 130 Punkte verschenkt, exakt');
    assert.equal(AnalysisView.verdict(unmeasured, name),
      'Cleo: 50 Punkte verschenkt, nicht gesichert (keine Streuung über die Deals)');
    assert.equal(AnalysisView.optionText(tichu, option('pass'), name), 'passen');
    I18n.setLanguage('en');
  });
  it('lists a seat\'s moves of a round and counts its labels (issue 35, finding 8)', function () {
    const doc = documentOf();
    assert.deepEqual(Analysis.moves(doc, 0).map(function (j) { return j.step; }), [10, 20, 40, 60, 80]);
    assert.deepEqual(Analysis.moves(doc, 0, 1).map(function (j) { return j.step; }), [60, 80]);
    assert.deepEqual(Analysis.counts(doc, 0), { inaccuracy: 1, mistake: 1, blunder: 1 });
    assert.deepEqual(Analysis.counts(doc, 1), { inaccuracy: 0, mistake: 0, blunder: 0 });
    assert.deepEqual(Analysis.MARKS, { inaccuracy: '?!', mistake: '?', blunder: '??' });
    assert.deepEqual(Analysis.thresholds(doc), { inaccuracy: 35, mistake: 60, blunder: 120 });
    assert.equal(Analysis.thresholds(analysisDocument([], { inaccuracy: 30, mistake: 50, blunder: 100 })).mistake,
      50);
  });
  it('keeps room for the scale: the y axis\' ticks and the labels\' margins (issue 35, finding 8)', function () {
    assert.deepEqual(Analysis.ticks(150), [150, 75, 0, -75, -150]);
    const scaled = { width: 1000, height: 150, pad: 10, left: 60, bottom: 30 };
    assert.equal(Analysis.stepX(0, 101, scaled), 60);
    assert.equal(Analysis.stepX(100, 101, scaled), 990);
    const chart = Analysis.chart(documentOf(), 101, scaled);
    assert.equal(chart.zero, 60);
    assert.equal(chart.half, 50);
  });
  it('names options in short words: the cards as in their corners, a push with its targets', function () {
    /** @param {number} seat 0..3. @returns {string} Its name. */
    const name = function (seat) { return ['Ada', 'Ben', 'Cleo', 'Dan'][seat]; };
    const play = judgement(60, 0, 90, 'blunder', -120);
    assert.equal(AnalysisView.shortText(play, judgedOption({ cards: ['GB', 'RB'] }), name), 'J J');
    assert.equal(AnalysisView.shortText(play, judgedOption({ cards: ['Dr'] }), name), 'Dragon');
    const push = judgedDecision({ kind: 'push', seat: 0 });
    assert.equal(AnalysisView.shortText(push, judgedOption({ cards: ['Ma', 'SZ', 'RA'] }), name), 'Mah Jong right, 10 partner, A left');
    const grand = judgedDecision({ kind: 'grand_tichu', seat: 0 });
    assert.equal(AnalysisView.shortText(grand, judgedOption({ text: 'no Grand Tichu', cards: [] }), name),
      'no Grand Tichu');
    I18n.setLanguage('de');
    assert.equal(AnalysisView.shortText(play, judgedOption({ cards: ['GD', 'RD'] }), name), 'D D');
    assert.equal(AnalysisView.shortText(push, judgedOption({ cards: ['Ma', 'SZ', 'RA'] }), name), 'Mah Jong rechts, 10 Partner, A links');
    I18n.setLanguage('en');
  });
});

  describe('IdleSeats: clocks, hand-overs and a game ended early', function () {
  it('counts every seat down from turn_clocks, and the time waited', function () {
    IdleSeats.reset();
    IdleSeats.apply({ event: Notifications.TURN_CLOCKS, context: { clocks: [{ player_index: 2, seconds_left: 42, waited: 18 },
      { player_index: 1, seconds_left: null, waited: 5 }] } }, 1000000);
    assert.equal(IdleSeats.secondsLeft(2, 1000000), 42);
    assert.equal(IdleSeats.secondsLeft(2, 1010500), 32);
    assert.equal(IdleSeats.secondsLeft(2, 2000000), 0);
    assert.equal(IdleSeats.secondsLeft(1, 1000000), null, 'the clock is off');
    assert.equal(IdleSeats.waited(1, 1003000), 8);
    assert.equal(IdleSeats.secondsLeft(0, 1000000), null, 'not waited for');
    assert.equal(IdleSeats.waited(0, 1000000), null);
    assert.equal(IdleSeats.formatClock(42), '0:42');
    assert.equal(IdleSeats.formatClock(120), '2:00');
    IdleSeats.apply({ event: Notifications.TURN_CLOCKS, context: { clocks: [] } }, 1001000);
    assert.ok(!IdleSeats.anyWaited());
  });
  it('offers the hand-over after 60 s of waiting, not for a seat handed over', function () {
    IdleSeats.reset();
    IdleSeats.apply({ event: Notifications.TURN_CLOCKS, context: { clocks: [{ player_index: 3, seconds_left: null, waited: 50 }] } }, 0);
    assert.ok(!IdleSeats.canHandOver(3, 9000));
    assert.ok(IdleSeats.canHandOver(3, 10000));
    IdleSeats.apply({ event: Notifications.SEAT_HANDED_OVER, context: { player_index: 3, player_name: 'Ida', reason: 'host' } }, 10000);
    assert.ok(IdleSeats.handedOver.has(3));
    assert.ok(!IdleSeats.canHandOver(3, 20000));
    IdleSeats.apply({ event: Notifications.SEAT_TAKEN_BACK, context: { player_index: 3, player_name: 'Ida' } }, 20000);
    assert.ok(!IdleSeats.handedOver.has(3));
  });
  it('takes the handed-over seats from the own player_joined', function () {
    IdleSeats.reset();
    IdleSeats.apply({ event: Notifications.PLAYER_JOINED, context: joined({ agent_plays_for: [0, 2] }) }, 0);
    assert.deepEqual(Array.from(IdleSeats.handedOver).sort(), [0, 2]);
    IdleSeats.apply({ event: Notifications.PLAYER_JOINED, context: { player_index: 1, player_name: 'Ben' } }, 0);
    assert.deepEqual(Array.from(IdleSeats.handedOver).sort(), [0, 2], 'another client changes nothing');
    IdleSeats.apply({ event: Notifications.GAME_OVER, context: { game_score: [[100, 0]], total: [100, 0], winner: 0 } }, 0);
    assert.equal(IdleSeats.handedOver.size, 0);
  });
  it('remembers who ended the game early until the next game, and State goes to the lobby', function () {
    State.reset();
    State.apply(Notifications.PLAYER_JOINED, joined());
    State.openRequest(playRequest([[[2, 1]]]));
    IdleSeats.reset();
    State.apply(Notifications.GAME_ENDED_EARLY, { player_index: 2, player_name: 'Ben' });
    IdleSeats.apply({ event: Notifications.GAME_ENDED_EARLY, context: { player_index: 2, player_name: 'Ben' } }, 0);
    assert.equal(State.public.is_running, false);
    assert.equal(State.request, null);
    assert.deepEqual(IdleSeats.endedEarly, { seat: 2, name: 'Ben' });
    I18n.setLanguage('en');
    assert.equal(I18n.t('rules.endedEarly', { name: 'Ben' }), 'Ben left; the game ended early.');
    IdleSeats.apply({ event: Notifications.GAME_STARTED, context: {} }, 0);
    assert.equal(IdleSeats.endedEarly, null);
  });
  it('keeps the turn clock, the leaving rule and the newcomers option', function () {
    State.reset();
    const context = joined({ is_running: false, phase: Phases.LOBBY });
    context.options = { agent: 'random', hints: true, agents: ['random'], levels: [], turn_clock: 60, turn_clocks: [0, 60],
      on_leave: 'agent', newcomers: false };
    State.apply(Notifications.PLAYER_JOINED, context);
    assert.equal(assert.present(State.options).turnClock, 60);
    assert.equal(assert.present(State.options).onLeave, 'agent');
    assert.equal(assert.present(State.options).newcomers, false);
    State.apply(Notifications.OPTIONS_CHANGED, { agent: 'random', hints: true, turn_clock: 0, on_leave: 'end', newcomers: true });
    assert.equal(assert.present(State.options).turnClock, 0);
    assert.equal(assert.present(State.options).onLeave, 'end');
    assert.equal(assert.present(State.options).newcomers, true);
    State.apply(Notifications.OPTIONS_CHANGED, { agent: 'random', hints: true });
    assert.equal(assert.present(State.options).turnClock, null, 'a server without the options');
  });
  it('says who left a game and who played on, in English and German', function () {
    const game = { players: [{ seat: 0, name: 'Anna' }, { seat: 1, name: 'Ben' }, { seat: 2, name: 'Bot 3' },
      { seat: 3, name: 'Bot 4' }], seat_changes: [
      { seat: 1, round: 2, event: 5, name: 'Bot 2', kind: 'agent:random', reason: 'left' },
      { seat: 2, round: 2, event: 9, name: 'Ida', kind: 'human', reason: 'joined' }] };
    I18n.setLanguage('en');
    assert.deepEqual(HistoryView.seatChanges(game), ['Ben left in round 3 — Bot 2 finished',
      'Ida took the seat of Bot 3 in round 3']);
    game.seat_changes.push({ seat: 1, round: 3, event: 0, name: 'Ben', kind: 'human', reason: 'joined' });
    assert.equal(HistoryView.seatChanges(game)[0], 'Ben left in round 3 — Bot 2 took over');
    assert.equal(HistoryView.seatChanges(game)[2], 'Ben took the seat of Bot 2 in round 4');
    I18n.setLanguage('de');
    assert.equal(HistoryView.seatChanges({ players: game.players, seat_changes: game.seat_changes.slice(0, 1) })[0],
      'Ben ging in Runde 3 — Bot 2 spielte zu Ende');
    I18n.setLanguage('en');
    assert.deepEqual(HistoryView.seatChanges({ players: game.players }), [], 'an older record');
  });
});

describe('Puzzles: learn from your mistakes (issue 35, finding 8)', function () {
  /**
   * A judged decision (docs/agents.md "The document"): options best first.
   * @param {number} step The step.
   * @param {number} seat The seat.
   * @param {string} kind The kind.
   * @param {?string} label The label.
   * @param {number[]} means The options' means, best first.
   * @param {number} chosen The choice made.
   * @param {string[]} [texts] The options' texts.
   * @returns {import('./protocol-types.js').AnalysisJudgement} The judgement.
   */
  function judged(step, seat, kind, label, means, chosen, texts) {
    return { step: step, round: 0, seat: seat, kind: kind, best: 0, chosen: chosen, label: label,
      loss: means[0] - means[chosen], loss_half_width: 10, exact: false, advantage: 0, samples: 16,
      options: means.map(function (mean, at) {
        const text = texts ? texts[at] : ['SA', 'S7 R7', 'pass', 'G2'][at];
        return { text: text, cards: text === 'pass' || texts ? [] : text.split(' '), mean: mean, half_width: 8 };
      }) };
  }
  const documentOf = function () {
    return analysisDocument([
        judged(12, 0, 'play', 'mistake', [50, 20, -30], 2),
        judged(3, 0, 'push', 'inaccuracy', [10, -40], 1, ['a', 'b']),
        judged(40, 0, 'play', 'blunder', [90, 70, 60, -100], 3),
        judged(41, 0, 'play', null, [5, 0], 1),
        judged(44, 1, 'play', 'blunder', [90, -90], 1),
        judged(50, 0, 'tichu', 'mistake', [20, -70], 1, ['Tichu', 'no Tichu']),
        judged(60, 0, 'tichu', 'inaccuracy', [20, -30], 1, ['no Tichu', 'Tichu'])],
    { inaccuracy: 30, mistake: 60, blunder: 120 });
  };
  const steps = [stepOf({ kind: 'deal', round: 0 }), stepOf({ kind: 'grand_tichu', round: 0 }),
    stepOf({ kind: 'push', round: 0 })].concat(Array.from({ length: 60 }, function () { return stepOf({ kind: 'play', round: 0 }); }));

  it('makes puzzles of the seat\'s labelled decisions only, the costliest first', function () {
    const list = Puzzles.puzzlesOf(documentOf(), 0);
    assert.deepEqual(list.map(function (j) { return j.step; }), [40, 50, 12, 3, 60], 'equal losses: the earlier first');
    assert.deepEqual(Puzzles.puzzlesOf(documentOf(), 1).map(function (j) { return j.step; }), [44]);
    assert.deepEqual(Puzzles.puzzlesOf(documentOf(), 2), [], 'a seat without labelled decisions');
    assert.deepEqual(Puzzles.puzzlesOf(null, 0), []);
    const empty = Puzzles.start(documentOf(), 3);
    assert.equal(Puzzles.current(empty), null);
  });
  it('shows the position before the decision', function () {
    const doc = documentOf();
    /** @param {number} step A step. @returns {import('./protocol-types.js').AnalysisJudgement} Its judgement. */
    const at = function (step) { return doc.judgements.filter(function (j) { return j.step === step; })[0]; };
    assert.equal(Puzzles.positionStep(at(12), steps), 11, 'a play: the step before');
    assert.equal(Puzzles.positionStep(at(50), steps), 50, 'a Tichu not called: where it was offered');
    assert.equal(Puzzles.positionStep(at(60), steps), 59, 'a Tichu called: the step before the call');
    assert.equal(Puzzles.positionStep(Object.assign({}, at(3), { step: 2 }), steps), 1,
      'a push: the round\'s Grand Tichu step');
    assert.equal(Puzzles.positionStep(judgedDecision({ step: 1, round: 0, kind: 'grand_tichu', options: [], chosen: 0 }), steps), 0,
      'a Grand Tichu: the deal (eight cards)');
  });
  it('counts an answer below the inaccuracy threshold as solved, never the choice made', function () {
    const blunder = documentOf().judgements[2];  // means 90, 70, 60, -100; chosen 3; threshold 30
    assert.equal(Puzzles.thresholdOf(documentOf()), 30);
    assert.equal(Puzzles.thresholdOf(emptyDocument()), Puzzles.INACCURACY);
    assert.ok(Puzzles.solves(blunder, 0, 30), 'the best');
    assert.ok(Puzzles.solves(blunder, 1, 30), '20 below the best');
    assert.ok(!Puzzles.solves(blunder, 2, 30), '30 below: not below the threshold');
    assert.ok(!Puzzles.solves(blunder, 3, 30), 'the choice made');
    const close = Object.assign({}, blunder, { chosen: 1 });
    assert.ok(!Puzzles.solves(close, 1, 30), 'the choice made, even within the threshold');
    assert.equal(Puzzles.lossOf(blunder, 2), 30);
    assert.equal(Puzzles.lossOf(blunder, 0), 0);
  });
  it('plays a session: wrong, retry, solved; the solution; next and previous', function () {
    let session = Puzzles.start(documentOf(), 0);
    assert.equal(session.puzzles.length, 5);
    assert.equal(Puzzles.current(session)?.step, 40);
    session = Puzzles.answer(session, 3);
    assert.equal(session.last, 'wrong');
    assert.deepEqual(session.tried, [3]);
    assert.equal(Puzzles.answer(session, 0), session, 'no answer before the retry');
    session = Puzzles.retry(session);
    assert.equal(session.last, null);
    session = Puzzles.answer(session, 1);
    assert.equal(session.last, 'solved');
    assert.equal(session.solved, 1);
    assert.ok(session.revealed, 'a solved puzzle shows the values');
    session = Puzzles.go(session, session.at + 1);
    assert.equal(Puzzles.current(session)?.step, 50);
    assert.deepEqual([session.solved, session.last, session.revealed, session.tried], [null, null, false, []]);
    session = Puzzles.reveal(Puzzles.answer(session, 1));
    assert.ok(session.revealed);
    assert.equal(Puzzles.retry(session), session, 'no retry once the solution is shown');
    assert.equal(Puzzles.go(session, -1).at, 0);
    assert.equal(Puzzles.go(session, 99).at, 4);
  });
  it('offers the options in an order that does not tell the best', function () {
    const blunder = documentOf().judgements[2];  // SA (best), S7 R7, pass, G2
    assert.deepEqual(Puzzles.displayOrder(blunder), [2, 3, 0, 1]);
    assert.ok(Puzzles.displayOrder(blunder)[0] !== blunder.best);
  });
  it('says what an answer earned, in English and German', function () {
    const blunder = documentOf().judgements[2];
    const name = function () { return 'Ada'; };
    let session = Puzzles.go(Puzzles.start(documentOf(), 0), 0);
    I18n.setLanguage('en');
    assert.equal(PuzzleView.feedbackText(Puzzles.answer(session, 3), blunder, name),
      'Not this one — that was played in the game. Try again.');
    session = Puzzles.answer(session, 1);
    assert.equal(PuzzleView.feedbackText(session, blunder, name).split('. ')[0],
      'Well found! Within 20 points of the best move');
    I18n.setLanguage('de');
    assert.ok(PuzzleView.feedbackText(session, blunder, name).startsWith('Gut gefunden!'));
    assert.ok(PuzzleView.feedbackText(session, blunder, name).includes('Am besten: A (+90 ± 8)'));
    I18n.setLanguage('en');
    assert.equal(PuzzleView.shortText(blunder, blunder.options[1], name), '7 7');
  });
});

run(assert.present(document.getElementById('results')));

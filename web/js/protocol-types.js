// The protocol's message and payload types (docs/protocol.md), generated from the server's
// wire types through docs/protocol.schema.json, and the replay and analysis documents
// (src/tichu/records/parts.py): do not edit. Regenerate with
//   python -m tichu.server.wire.jsdoc > web/js/protocol-types.js
// Use them as `import('./protocol-types.js').PublicState` in a JSDoc type.

/**
 * Any JSON value: only where the protocol leaves a value open (narrow it before use; JSDoc
 * cannot spell a recursive type).
 * @typedef {unknown} JsonValue
 */

/**
 * A message a client sends.
 * @typedef {(
 *   | {type: 'ping', payload?: (Ping|null)}
 *   | {type: 'leave', payload?: (Leave|null)}
 *   | {type: 'response', payload: ({request_id: string, action: 'announce_grand_tichu', response_data?: GrandTichuAnswer}|{request_id: string, action: 'schupf', response_data?: SchupfAnswer}|{request_id: string, action: 'play', response_data?: PlayAnswer}|{request_id: string, action: 'wish', response_data?: WishAnswer}|{request_id: string, action: 'give_dragon_away', response_data?: DragonAnswer})}
 *   | {type: 'announce', payload?: (Announce|null)}
 *   | {type: 'bomb', payload: Bomb}
 *   | {type: 'swap_players', payload: SwapPlayers}
 *   | {type: 'start_game', payload?: (StartGame|null)}
 *   | {type: 'set_options', payload?: (SetOptions|null)}
 *   | {type: 'table_sync', payload?: (TableSync|null)}
 *   | {type: 'chat', payload: Chat}
 *   | {type: 'reaction', payload: Reaction}
 *   | {type: 'set_ready', payload: SetReady}
 *   | {type: 'set_spectator_hands', payload: SetSpectatorHands}
 *   | {type: 'take_back', payload?: (TakeBack|null)}
 *   | {type: 'hand_over', payload: HandOver}
 * )} ClientMessage
 */

/**
 * A message the server sends.
 * @typedef {(
 *   | RequestMessage
 *   | NotificationMessage
 *   | ErrorMessage
 *   | PongMessage
 * )} ServerMessage
 */

/**
 * ``announce``: call Tichu (R6.1).
 * @typedef {Record<string, never>} Announce
 */

/**
 * ``bomb``: lay a bomb, in turn or out of it (R4.3).
 * @typedef {object} Bomb
 * @property {Array<[number, number]>} cards
 */

/**
 * ``chat`` (docs/server.md): a line of chat.
 * @typedef {object} Chat
 * @property {string} text
 */

/**
 * The ``response_data`` of ``give_dragon_away``: the opponent who gets the trick (R4.5).
 * @typedef {object} DragonAnswer
 * @property {number} dragon_recipient
 */

/**
 * The ``response_data`` of ``announce_grand_tichu``: whether the seat calls Grand Tichu (R2.4).
 * @typedef {object} GrandTichuAnswer
 * @property {boolean} announced
 */

/**
 * ``hand_over`` (docs/server.md): the host hands an idle seat to its stand-in.
 * @typedef {object} HandOver
 * @property {number} player_index
 */

/**
 * ``leave``: the client goes; an agent takes its seat.
 * @typedef {Record<string, never>} Leave
 */

/**
 * ``ping``: the keep-alive; answered with ``pong``.
 * @typedef {Record<string, never>} Ping
 */

/**
 * The ``response_data`` of ``play``: the cards played, none to pass.
 * @typedef {object} PlayAnswer
 * @property {Array<[number, number]>} cards
 */

/**
 * ``reaction`` (docs/server.md): one of the table's reactions.
 * @typedef {object} Reaction
 * @property {string} reaction
 */

/**
 * ``response``: the answer to the open request ``request_id``; its values
 * @typedef {object} Response
 * @property {string} request_id
 * @property {string} action
 * @property {{[key: string]: JsonValue}} [response_data]
 */

/**
 * The ``response_data`` of ``schupf``: the cards to the right, the partner and the left (R2.5).
 * @typedef {object} SchupfAnswer
 * @property {Array<[number, number]>} given_schupf_cards
 */

/**
 * ``set_options`` (docs/server.md): the host changes at least one of the table's options.
 * @typedef {object} SetOptions
 * @property {(string|null)} [agent]
 * @property {(boolean|null)} [hints]
 * @property {(number|null)} [target_score]
 * @property {(boolean|null)} [spectators]
 * @property {(number|null)} [turn_clock]
 * @property {(string|null)} [on_leave]
 * @property {(boolean|null)} [newcomers]
 */

/**
 * ``set_ready`` (docs/server.md): the seat is ready to start, or no longer.
 * @typedef {object} SetReady
 * @property {boolean} ready
 */

/**
 * ``set_spectator_hands`` (docs/server.md): whether spectators may see this seat's hand.
 * @typedef {object} SetSpectatorHands
 * @property {boolean} allow
 */

/**
 * ``start_game``: the host starts the game.
 * @typedef {Record<string, never>} StartGame
 */

/**
 * ``swap_players``: the host swaps two seats in the lobby.
 * @typedef {object} SwapPlayers
 * @property {number} player_index_1
 * @property {number} player_index_2
 */

/**
 * ``table_sync`` (docs/server.md): the client wants the lobby's, chat's and clocks' messages.
 * @typedef {Record<string, never>} TableSync
 */

/**
 * ``take_back`` (docs/server.md): the person takes the seat back from its stand-in.
 * @typedef {Record<string, never>} TakeBack
 */

/**
 * The ``response_data`` of ``wish``: the wished value (R5.1).
 * @typedef {object} WishAnswer
 * @property {number} wish_value
 */

/**
 * ``chat_history``: the kept lines, oldest first.
 * @typedef {object} ChatHistory
 * @property {Array<ChatLine>} messages
 */

/**
 * ``chat_message``: a line of chat.
 * @typedef {object} ChatLine
 * @property {number} player_index
 * @property {string} player_name
 * @property {string} text
 */

/**
 * A seat's turn clock (``seconds_left``: null without a limit).
 * @typedef {object} Clock
 * @property {number} player_index
 * @property {(number|null)} seconds_left
 * @property {number} waited
 */

/**
 * The context of ``give_dragon_away``: the opponents who may get the trick.
 * @typedef {object} DragonContext
 * @property {Array<number>} opponent_indexes
 */

/**
 * A context without values of its own (``game_started``, ``wish_fulfilled``).
 * @typedef {object} Empty
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 */

/**
 * ``error``.
 * @typedef {object} ErrorMessage
 * @property {'error'} type
 * @property {ErrorPayload} payload
 */

/**
 * An error: its message, code (server/codes.py) and details.
 * @typedef {object} ErrorPayload
 * @property {string} message
 * @property {number} code
 * @property {{[key: string]: JsonValue}} context
 */

/**
 * ``game_over``: the teams' points of each round, the totals and the winning team.
 * @typedef {object} GameOver
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {Array<Array<number>>} game_score
 * @property {Array<number>} total
 * @property {(number|null)} winner
 */

/**
 * ``game_stored``: the game just played to its end is stored under this id (its replay and
 * @typedef {object} GameStored
 * @property {string} game_id
 */

/**
 * ``hand_cards_dealt``; ``hand_cards`` is the seat's own hand (not to spectators).
 * @typedef {object} HandCardsDealt
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {number} count
 * @property {Array<[number, number]>} [hand_cards]
 */

/**
 * The context of ``announce_grand_tichu`` and ``schupf``: the seat's hand.
 * @typedef {object} HandContext
 * @property {Array<[number, number]>} hand_cards
 */

/**
 * ``hands_revealed``: every hand at the end of a round.
 * @typedef {object} HandsRevealed
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {Array<Array<[number, number]>>} hands
 */

/**
 * A level of the agents: its name and agent spec.
 * @typedef {object} Level
 * @property {string} level
 * @property {string} agent
 */

/**
 * ``line_over``: the round played on from a stored game's position is over (docs/server.md,
 * @typedef {object} LineOver
 * @property {string} game_id
 * @property {number} step
 * @property {number} seat
 */

/**
 * ``lobby_state``: the target score, its range, and per seat whether it is ready.
 * @typedef {object} LobbyState
 * @property {number} target_score
 * @property {[number, number]} target_score_range
 * @property {Array<(boolean|null)>} ready
 */

/**
 * ``notification``.
 * @typedef {object} NotificationMessage
 * @property {'notification'} type
 * @property {NotificationPayload} payload
 */

/**
 * @typedef {(
 *   | {event: 'player_played', context: PlayerPlayed}
 *   | {event: 'player_passed', context: PlayerIndex}
 *   | {event: 'player_turn_changed', context: TurnChanged}
 *   | {event: 'trick_taken', context: TrickTaken}
 *   | {event: 'player_announced', context: PlayerAnnounced}
 *   | {event: 'player_schupfed', context: PlayerIndex}
 *   | {event: 'player_out', context: PlayerOut}
 *   | {event: 'hands_revealed', context: HandsRevealed}
 *   | {event: 'wish_made', context: WishMade}
 *   | {event: 'wish_fulfilled', context: Empty}
 *   | {event: 'hand_cards_dealt', context: HandCardsDealt}
 *   | {event: 'start_playing', context: StartPlaying}
 *   | {event: 'round_started', context: RoundStarted}
 *   | {event: 'round_over', context: RoundOver}
 *   | {event: 'game_started', context: Empty}
 *   | {event: 'game_over', context: GameOver}
 *   | {event: 'player_joined', context: PlayerJoined}
 *   | {event: 'player_disconnected', context: PlayerDisconnected}
 *   | {event: 'player_left', context: PlayerLeft}
 *   | {event: 'players_swapped', context: PlayersSwapped}
 *   | {event: 'private_state_changed', context: PrivateStateChanged}
 *   | {event: 'request_cancelled', context: RequestCancelled}
 *   | {event: 'options_changed', context: TableOptions}
 *   | {event: 'lobby_state', context: LobbyState}
 *   | {event: 'chat_message', context: ChatLine}
 *   | {event: 'chat_history', context: ChatHistory}
 *   | {event: 'reaction', context: ReactionSent}
 *   | {event: 'spectators_changed', context: SpectatorsChanged}
 *   | {event: 'spectator_hands', context: SpectatorHands}
 *   | {event: 'spectate_started', context: SpectateStarted}
 *   | {event: 'turn_clocks', context: TurnClocks}
 *   | {event: 'seat_handed_over', context: SeatHandedOver}
 *   | {event: 'seat_taken_back', context: SeatEvent}
 *   | {event: 'game_ended_early', context: SeatEvent}
 *   | {event: 'line_over', context: LineOver}
 *   | {event: 'game_stored', context: GameStored}
 * )} NotificationPayload
 */

/**
 * The context of ``play``: the hand, the trick, the wish, the legal plays and the hint.
 * @typedef {object} PlayContext
 * @property {Array<[number, number]>} hand_cards
 * @property {([string, number, number]|null)} trick_combination
 * @property {(number|null)} trick_owner_index
 * @property {(number|null)} wish_value
 * @property {Array<Array<[number, number]>>} legal_plays
 * @property {(Array<Array<[number, number]>>|null)} hint
 */

/**
 * ``player_announced``.
 * @typedef {object} PlayerAnnounced
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {number} player_index
 * @property {boolean} grand
 */

/**
 * ``player_disconnected``: an agent takes the seat after ``seconds``.
 * @typedef {object} PlayerDisconnected
 * @property {number} player_index
 * @property {string} player_name
 * @property {number} seconds
 */

/**
 * ``player_passed``, ``player_schupfed``: the seat.
 * @typedef {object} PlayerIndex
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {number} player_index
 */

/**
 * ``player_joined``: to the others the seat and name; to the joining client also its
 * @typedef {object} PlayerJoined
 * @property {number} player_index
 * @property {string} player_name
 * @property {string} [session_id]
 * @property {PublicState} [public_state]
 * @property {PrivateState} [private_state]
 * @property {(RequestPayload|null)} [pending_request]
 * @property {number} [protocol_version]
 * @property {TableOptions} [options]
 */

/**
 * ``player_left``.
 * @typedef {object} PlayerLeft
 * @property {number} player_index
 * @property {string} player_name
 * @property {(number|null)} host_index
 * @property {boolean} replaced_by_agent
 */

/**
 * ``player_out``.
 * @typedef {object} PlayerOut
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {number} player_index
 * @property {number} place
 */

/**
 * ``player_played``.
 * @typedef {object} PlayerPlayed
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {[number, Array<[number, number]>, [string, number, number]]} turn
 * @property {number} trick_points
 * @property {(number|null)} trick_owner_index
 * @property {boolean} is_bomb
 * @property {boolean} out_of_turn
 */

/**
 * ``players_swapped``.
 * @typedef {object} PlayersSwapped
 * @property {number} player_index_1
 * @property {number} player_index_2
 */

/**
 * ``pong``: the answer to ``ping``.
 * @typedef {object} PongMessage
 * @property {'pong'} type
 */

/**
 * ``private_delta``: the fields of the seat's ``private_state`` that changed since it was
 * @typedef {object} PrivateDelta
 * @property {(number|null)} [player_index]
 * @property {Array<[number, number]>} [hand_cards]
 * @property {(Array<[number, number]>|null)} [given_schupf_cards]
 * @property {(Array<[number, number]>|null)} [received_schupf_cards]
 * @property {boolean} [may_announce]
 * @property {Array<Array<[number, number]>>} [bombs]
 * @property {UnseenBombs} [unseen_bombs]
 */

/**
 * ``private_state``: what only its seat sees (R8.2), with what it may do beyond its turn.
 * @typedef {object} PrivateState
 * @property {(number|null)} player_index
 * @property {Array<[number, number]>} hand_cards
 * @property {(Array<[number, number]>|null)} given_schupf_cards
 * @property {(Array<[number, number]>|null)} received_schupf_cards
 * @property {boolean} may_announce
 * @property {Array<Array<[number, number]>>} bombs
 * @property {UnseenBombs} unseen_bombs
 */

/**
 * ``private_state_changed``: the seat's whole private state.
 * @typedef {object} PrivateStateChanged
 * @property {PrivateState} private_state
 */

/**
 * ``public_delta``: the fields of ``public_state`` (with ``passed``) that changed since the
 * @typedef {object} PublicDelta
 * @property {string} [table_name]
 * @property {Array<string>} [player_names]
 * @property {(number|null)} [host_index]
 * @property {boolean} [is_running]
 * @property {string} [phase]
 * @property {number} [round_index]
 * @property {(number|null)} [current_turn_index]
 * @property {Array<number>} [count_hand_cards]
 * @property {Array<number>} [announcements]
 * @property {number} [wish_value]
 * @property {boolean} [wish_open]
 * @property {Array<[number, Array<[number, number]>, [string, number, number]]>} [trick_turns]
 * @property {(number|null)} [trick_owner_index]
 * @property {number} [trick_points]
 * @property {Array<number>} [points]
 * @property {Array<number>} [tricks_won]
 * @property {Array<number>} [out_order]
 * @property {Array<[number, number]>} [played_cards]
 * @property {Array<number>} [count_pushed]
 * @property {Array<Array<number>>} [round_scores]
 * @property {Array<number>} [total]
 * @property {Array<number>} [passed]
 */

/**
 * ``public_state``: what every seat sees (R8.1). ``passed``, ``away`` and ``agent_plays_for``
 * @typedef {object} PublicState
 * @property {string} table_name
 * @property {Array<string>} player_names
 * @property {(number|null)} host_index
 * @property {boolean} is_running
 * @property {string} phase
 * @property {number} round_index
 * @property {(number|null)} current_turn_index
 * @property {Array<number>} count_hand_cards
 * @property {Array<number>} announcements
 * @property {number} wish_value
 * @property {boolean} wish_open
 * @property {Array<[number, Array<[number, number]>, [string, number, number]]>} trick_turns
 * @property {(number|null)} trick_owner_index
 * @property {number} trick_points
 * @property {Array<number>} points
 * @property {Array<number>} tricks_won
 * @property {Array<number>} out_order
 * @property {Array<[number, number]>} played_cards
 * @property {Array<number>} count_pushed
 * @property {Array<Array<number>>} round_scores
 * @property {Array<number>} total
 * @property {Array<number>} [passed]
 * @property {Array<[number, number]>} [away]
 * @property {Array<number>} [agent_plays_for]
 */

/**
 * ``reaction``.
 * @typedef {object} ReactionSent
 * @property {number} player_index
 * @property {string} player_name
 * @property {string} reaction
 */

/**
 * ``request_cancelled``.
 * @typedef {object} RequestCancelled
 * @property {string} request_id
 */

/**
 * ``request``.
 * @typedef {object} RequestMessage
 * @property {'request'} type
 * @property {RequestPayload} payload
 */

/**
 * @typedef {(
 *   | {request_id: string, action: 'announce_grand_tichu', context: HandContext, timeout: (number|null)}
 *   | {request_id: string, action: 'schupf', context: HandContext, timeout: (number|null)}
 *   | {request_id: string, action: 'play', context: PlayContext, timeout: (number|null)}
 *   | {request_id: string, action: 'wish', context: WishContext, timeout: (number|null)}
 *   | {request_id: string, action: 'give_dragon_away', context: DragonContext, timeout: (number|null)}
 * )} RequestPayload
 */

/**
 * ``round_over``.
 * @typedef {object} RoundOver
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {Array<number>} card_points
 * @property {Array<number>} bonus
 * @property {Array<number>} points
 * @property {Array<number>} total
 * @property {Array<number>} out_order
 * @property {boolean} is_double_victory
 */

/**
 * ``round_started``.
 * @typedef {object} RoundStarted
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {number} round_index
 */

/**
 * ``seat_taken_back``, ``game_ended_early``: the seat and its person.
 * @typedef {object} SeatEvent
 * @property {number} player_index
 * @property {string} player_name
 */

/**
 * ``seat_handed_over``.
 * @typedef {object} SeatHandedOver
 * @property {number} player_index
 * @property {string} player_name
 * @property {string} reason
 */

/**
 * ``spectate_started``: the public snapshot a spectator starts from.
 * @typedef {object} SpectateStarted
 * @property {string} table_name
 * @property {PublicState} public_state
 * @property {TableOptions} options
 * @property {LobbyState} lobby_state
 * @property {number} protocol_version
 */

/**
 * ``spectator_hands``: the four hands while they are open, else null.
 * @typedef {object} SpectatorHands
 * @property {(Array<Array<[number, number]>>|null)} hands
 */

/**
 * ``spectators_changed`` (``allow`` per seat; null for an agent).
 * @typedef {object} SpectatorsChanged
 * @property {number} count
 * @property {number} limit
 * @property {boolean} allowed
 * @property {boolean} hands_open
 * @property {Array<(boolean|null)>} allow
 */

/**
 * ``start_playing``; ``received_schupf_cards`` only to the seat that received them.
 * @typedef {object} StartPlaying
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {number} start_player_index
 * @property {(Array<[number, number]>|null)} [received_schupf_cards]
 */

/**
 * The table's options (docs/server.md, ``options_changed``).
 * @typedef {object} TableOptions
 * @property {string} agent
 * @property {boolean} hints
 * @property {Array<string>} agents
 * @property {Array<Level>} levels
 * @property {number} turn_clock
 * @property {Array<number>} turn_clocks
 * @property {string} on_leave
 * @property {boolean} newcomers
 */

/**
 * ``trick_taken`` (``dragon_recipient``: the seat given the Dragon trick, else null).
 * @typedef {object} TrickTaken
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {(number|null)} player_index
 * @property {number} points
 * @property {(number|null)} dragon_recipient
 */

/**
 * ``player_turn_changed``.
 * @typedef {object} TurnChanged
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {number} current_turn_index
 */

/**
 * ``turn_clocks``.
 * @typedef {object} TurnClocks
 * @property {Array<Clock>} clocks
 */

/**
 * ``private_state.unseen_bombs``: the bombs the cards the seat has not seen (neither in its
 * @typedef {object} UnseenBombs
 * @property {Array<number>} four_of_a_kind
 * @property {Array<number>} straight_flush
 */

/**
 * The context of ``wish``: the values the rules allow (2..14, and 0 for no wish where they
 * @typedef {object} WishContext
 * @property {Array<number>} wish_values
 */

/**
 * ``wish_made``.
 * @typedef {object} WishMade
 * @property {PublicDelta} [public_delta]
 * @property {PrivateDelta} [private_delta]
 * @property {number} wish_value
 */

/**
 * An analysis document (``tichu-analysis/1``, docs/agents.md "Game analysis"); here, beside
 * @typedef {object} AnalysisDocument
 * @property {string} format
 * @property {JsonValue} game_id
 * @property {AnalysisMethod} method
 * @property {Array<AnalysisPlayer>} players
 * @property {Array<AnalysisJudgement>} judgements
 */

/**
 * One judged decision of an analysis document; ``options`` best first (docs/agents.md).
 * @typedef {object} AnalysisJudgement
 * @property {number} step
 * @property {number} round
 * @property {number} seat
 * @property {string} kind
 * @property {Array<AnalysisOption>} options
 * @property {number} best
 * @property {number} chosen
 * @property {number} loss
 * @property {number} loss_half_width
 * @property {(string|null)} label
 * @property {number} advantage
 * @property {number} samples
 * @property {boolean} [exact]
 * @property {Array<string>} [line]
 */

/**
 * How an analysis document's decisions were judged.
 * @typedef {object} AnalysisMethod
 * @property {string} agent
 * @property {number} samples
 * @property {number} z
 * @property {number} seed
 * @property {{[key: string]: number}} thresholds
 */

/**
 * One option of a judged decision (``tichu-analysis/1``): what it is and its expected points.
 * @typedef {object} AnalysisOption
 * @property {string} text
 * @property {Array<string>} cards
 * @property {number} mean
 * @property {number} half_width
 */

/**
 * A judged seat's player in an analysis document: their decisions and losses.
 * @typedef {object} AnalysisPlayer
 * @property {number} seat
 * @property {string} name
 * @property {number} decisions
 * @property {number} mean_loss
 * @property {number} given_away
 * @property {number} inaccuracies
 * @property {number} mistakes
 * @property {number} blunders
 */

/**
 * A replay's first fault.
 * @typedef {object} Fault
 * @property {(number|null)} round
 * @property {(number|null)} event
 * @property {string} rule
 * @property {string} reason
 */

/**
 * The replay viewer's document of a record.
 * @typedef {object} ReplayDocument
 * @property {JsonValue} id
 * @property {JsonValue} started_at
 * @property {Array<JsonValue>} players
 * @property {JsonValue} score
 * @property {JsonValue} winner
 * @property {(number|null)} rounds
 * @property {Array<JsonValue>} player_kinds
 * @property {{[key: string]: JsonValue}} rules
 * @property {boolean} aborted
 * @property {Array<Step>} steps
 * @property {({[key: string]: JsonValue}|null)} ended_by
 * @property {(Fault|null)} fault
 */

/**
 * One step of the replay viewer: what happened (``kind``, its own fields) and the table after it.
 * @typedef {object} Step
 * @property {string} kind
 * @property {number} round
 * @property {number} trick
 * @property {(number|null)} seat
 * @property {Array<Array<string>>} hands
 * @property {Array<TrickTurn>} trick_turns
 * @property {(number|null)} trick_owner
 * @property {(number|null)} turn
 * @property {number} wish
 * @property {boolean} wish_open
 * @property {Array<number>} calls
 * @property {Array<number>} out_order
 * @property {Array<number>} won_points
 * @property {Array<number>} tricks_won
 * @property {Array<number>} score
 * @property {Array<string>} names
 * @property {(number|Array<number>)} [value]
 * @property {Array<Array<string>>} [push]
 * @property {Array<string>} [cards]
 * @property {number} [points]
 * @property {(string|null)} [combo]
 * @property {number} [rank]
 * @property {Array<number>} [round_score]
 * @property {Array<number>} [card_points]
 * @property {Array<number>} [bonus]
 * @property {boolean} [double_victory]
 * @property {Array<(boolean|null)>} [tichu_success]
 */

/**
 * A play of the open trick in a step.
 * @typedef {object} TrickTurn
 * @property {number} seat
 * @property {Array<string>} cards
 */

export {};

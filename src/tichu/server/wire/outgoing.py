"""What the server sends (protocol.md and docs/server.md): every message as a ``TypedDict``.

The builders of :mod:`tichu.server.wire.protocol` return these types; :data:`NOTIFICATIONS`
names the context of each notification and :data:`REQUESTS` that of each request's action, so
that :mod:`tichu.server.wire.schema` can derive the JSON Schema of every message from here.
A key the protocol may leave out is ``NotRequired``; a value that may be null is ``X | None``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, ForwardRef, Literal, NotRequired, TypedDict, Union, get_args, get_origin

#: A JSON value of whatever kind: used only where the protocol leaves a value open (an error's details, which
#: may repeat what a client sent).
JsonValue = Union[dict[str, "JsonValue"], list["JsonValue"], str, int, float, bool, None]  # noqa: UP007


@dataclass(frozen=True)
class Shape:
    """A JSON array of fixed length whose items have these types, in order (for the schema;
    the server builds such arrays as lists)."""

    items: tuple[object, ...]


def is_json_value(hint: object) -> bool:
    """Whether a type, as ``typing.get_type_hints`` gives it, is :data:`JsonValue` (any JSON value)."""
    if isinstance(hint, ForwardRef):
        return hint.__forward_arg__ == "JsonValue"
    scalars = {str, int, float, bool, type(None)}
    return get_origin(hint) is Union and scalars < set(get_args(hint)) and len(get_args(hint)) == len(scalars) + 2


#: A card: ``[value, suit]`` (protocol.md, "Cards").
Card = Annotated[list[int], Shape((int, int))]
#: Cards as a list of ``[value, suit]``, highest first.
Cards = list[Card]
#: A combination: ``[type, length, rank]``; a Phoenix single ranks ``x.5`` (R3.6).
Combination = Annotated[list[str | int | float], Shape((str, int, float))]
#: A play of a trick: ``[seat, cards, combination]``.
Turn = Annotated[list[int | Cards | Combination], Shape((int, Cards, Combination))]
#: The error details: at most the client's own values (clipped) and why (``reason``, ``rule``).
ErrorContext = dict[str, JsonValue]


# -- states --------------------------------------------------------------------------------------

class PublicState(TypedDict):
    """``public_state``: what every seat sees (R8.1). ``passed``, ``away`` and ``agent_plays_for``
    are added where a client joins or watches (docs/server.md)."""

    table_name: str
    player_names: list[str]
    host_index: int | None
    is_running: bool
    phase: str
    round_index: int
    current_turn_index: int | None
    count_hand_cards: list[int]
    announcements: list[int]
    wish_value: int
    wish_open: bool
    trick_turns: list[Turn]
    trick_owner_index: int | None
    trick_points: int
    points: list[int]
    tricks_won: list[int]
    out_order: list[int]
    played_cards: Cards
    count_pushed: list[int]
    round_scores: list[list[int]]
    total: list[int]
    passed: NotRequired[list[int]]
    away: NotRequired[list[Annotated[list[float], Shape((int, float))]]]
    agent_plays_for: NotRequired[list[int]]


class UnseenBombs(TypedDict):
    """``private_state.unseen_bombs``: the bombs the cards the seat has not seen (neither in its
    hand nor played) could still form (R3.7)."""

    four_of_a_kind: list[int]
    straight_flush: list[int]


class PrivateState(TypedDict):
    """``private_state``: what only its seat sees (R8.2), with what it may do beyond its turn."""

    player_index: int | None
    hand_cards: Cards
    given_schupf_cards: list[Card] | None
    received_schupf_cards: list[Card] | None
    may_announce: bool
    bombs: list[Cards]
    unseen_bombs: UnseenBombs


class Level(TypedDict):
    """A level of the agents: its name and agent spec."""

    level: str
    agent: str


class TableOptions(TypedDict):
    """The table's options (docs/server.md, ``options_changed``)."""

    agent: str
    hints: bool
    agents: list[str]
    levels: list[Level]
    turn_clock: float
    turn_clocks: list[int]
    on_leave: str
    newcomers: bool


class LobbyState(TypedDict):
    """``lobby_state``: the target score, its range, and per seat whether it is ready."""

    target_score: int
    target_score_range: Annotated[list[int], Shape((int, int))]
    ready: list[bool | None]


# -- requests -------------------------------------------------------------------------------------

class HandContext(TypedDict):
    """The context of ``announce_grand_tichu`` and ``schupf``: the seat's hand."""

    hand_cards: Cards


class PlayContext(TypedDict):
    """The context of ``play``: the hand, the trick, the wish, the legal plays and the hint."""

    hand_cards: Cards
    trick_combination: Combination | None
    trick_owner_index: int | None
    wish_value: int | None
    legal_plays: list[Cards]
    hint: list[Cards] | None


class WishContext(TypedDict):
    """The context of ``wish``: the values the rules allow (2..14, and 0 for no wish where they
    allow none, R5.1), as ``give_dragon_away`` lists its recipients."""

    wish_values: list[int]


class DragonContext(TypedDict):
    """The context of ``give_dragon_away``: the opponents who may get the trick."""

    opponent_indexes: list[int]


RequestContext = HandContext | PlayContext | WishContext | DragonContext
#: The context of each request's action.
REQUESTS: dict[str, type[RequestContext]] = {
    "announce_grand_tichu": HandContext, "schupf": HandContext, "play": PlayContext, "wish": WishContext,
    "give_dragon_away": DragonContext}


class RequestPayload(TypedDict):
    """A request: the engine asks the seat (``timeout``: seconds, null for no limit)."""

    request_id: str
    action: str
    context: RequestContext
    timeout: float | None


class RequestMessage(TypedDict):
    """``request``."""

    type: Literal["request"]
    payload: RequestPayload


# -- notifications of the game (protocol.md, "Notifications") -------------------------------------

class PublicDelta(TypedDict):
    """``public_delta``: the fields of ``public_state`` (with ``passed``) that changed since the
    client was last sent them, with their new values (docs/server.md, "The state with every event")."""

    table_name: NotRequired[str]
    player_names: NotRequired[list[str]]
    host_index: NotRequired[int | None]
    is_running: NotRequired[bool]
    phase: NotRequired[str]
    round_index: NotRequired[int]
    current_turn_index: NotRequired[int | None]
    count_hand_cards: NotRequired[list[int]]
    announcements: NotRequired[list[int]]
    wish_value: NotRequired[int]
    wish_open: NotRequired[bool]
    trick_turns: NotRequired[list[Turn]]
    trick_owner_index: NotRequired[int | None]
    trick_points: NotRequired[int]
    points: NotRequired[list[int]]
    tricks_won: NotRequired[list[int]]
    out_order: NotRequired[list[int]]
    played_cards: NotRequired[Cards]
    count_pushed: NotRequired[list[int]]
    round_scores: NotRequired[list[list[int]]]
    total: NotRequired[list[int]]
    passed: NotRequired[list[int]]


class PrivateDelta(TypedDict):
    """``private_delta``: the fields of the seat's ``private_state`` that changed since it was
    last sent them, with their new values (to that seat only, R8.2)."""

    player_index: NotRequired[int | None]
    hand_cards: NotRequired[Cards]
    given_schupf_cards: NotRequired[list[Card] | None]
    received_schupf_cards: NotRequired[list[Card] | None]
    may_announce: NotRequired[bool]
    bombs: NotRequired[list[Cards]]
    unseen_bombs: NotRequired[UnseenBombs]


class StateDelta(TypedDict):
    """What every notification of a game event carries besides its own context: the state after
    it, as the fields that changed (left out when none did). A client replaces those fields and
    works out nothing from the event (issue 36)."""

    public_delta: NotRequired[PublicDelta]
    private_delta: NotRequired[PrivateDelta]


class Empty(StateDelta):
    """A context without values of its own (``game_started``, ``wish_fulfilled``)."""


class PlayerPlayed(StateDelta):
    """``player_played``."""

    turn: Turn
    trick_points: int
    trick_owner_index: int | None
    is_bomb: bool
    out_of_turn: bool


class PlayerIndex(StateDelta):
    """``player_passed``, ``player_schupfed``: the seat."""

    player_index: int


class TurnChanged(StateDelta):
    """``player_turn_changed``."""

    current_turn_index: int


class TrickTaken(StateDelta):
    """``trick_taken`` (``dragon_recipient``: the seat given the Dragon trick, else null)."""

    player_index: int | None
    points: int
    dragon_recipient: int | None


class PlayerAnnounced(StateDelta):
    """``player_announced``."""

    player_index: int
    grand: bool


class PlayerOut(StateDelta):
    """``player_out``."""

    player_index: int
    place: int


class HandsRevealed(StateDelta):
    """``hands_revealed``: every hand at the end of a round."""

    hands: list[Cards]


class WishMade(StateDelta):
    """``wish_made``."""

    wish_value: int


class HandCardsDealt(StateDelta):
    """``hand_cards_dealt``; ``hand_cards`` is the seat's own hand (not to spectators)."""

    count: int
    hand_cards: NotRequired[Cards]


class StartPlaying(StateDelta):
    """``start_playing``; ``received_schupf_cards`` only to the seat that received them."""

    start_player_index: int
    received_schupf_cards: NotRequired[list[Card] | None]


class RoundStarted(StateDelta):
    """``round_started``."""

    round_index: int


class RoundOver(StateDelta):
    """``round_over``."""

    card_points: list[int]
    bonus: list[int]
    points: list[int]
    total: list[int]
    out_order: list[int]
    is_double_victory: bool


class GameOver(StateDelta):
    """``game_over``: the teams' points of each round, the totals and the winning team."""

    game_score: list[list[int]]
    total: list[int]
    winner: int | None


#: The context of an engine event's notification.
EventContext = (PlayerPlayed | PlayerIndex | TurnChanged | TrickTaken | PlayerAnnounced | PlayerOut | HandsRevealed
                | WishMade | Empty | HandCardsDealt | StartPlaying | RoundStarted | RoundOver | GameOver)


# -- notifications of the table (protocol.md and docs/server.md) ----------------------------------

class PlayerJoined(TypedDict):
    """``player_joined``: to the others the seat and name; to the joining client also its
    session, the states, its open request, the protocol version and the options."""

    player_index: int
    player_name: str
    session_id: NotRequired[str]
    public_state: NotRequired[PublicState]
    private_state: NotRequired[PrivateState]
    pending_request: NotRequired[RequestPayload | None]
    protocol_version: NotRequired[int]
    options: NotRequired[TableOptions]


class PlayerDisconnected(TypedDict):
    """``player_disconnected``: an agent takes the seat after ``seconds``."""

    player_index: int
    player_name: str
    seconds: float


class PlayerLeft(TypedDict):
    """``player_left``."""

    player_index: int
    player_name: str
    host_index: int | None
    replaced_by_agent: bool


class PlayersSwapped(TypedDict):
    """``players_swapped``."""

    player_index_1: int
    player_index_2: int


class PrivateStateChanged(TypedDict):
    """``private_state_changed``: the seat's whole private state."""

    private_state: PrivateState


class RequestCancelled(TypedDict):
    """``request_cancelled``."""

    request_id: str


class ChatLine(TypedDict):
    """``chat_message``: a line of chat."""

    player_index: int
    player_name: str
    text: str


class ChatHistory(TypedDict):
    """``chat_history``: the kept lines, oldest first."""

    messages: list[ChatLine]


class ReactionSent(TypedDict):
    """``reaction``."""

    player_index: int
    player_name: str
    reaction: str


class SpectatorsChanged(TypedDict):
    """``spectators_changed`` (``allow`` per seat; null for an agent)."""

    count: int
    limit: int
    allowed: bool
    hands_open: bool
    allow: list[bool | None]


class SpectatorHands(TypedDict):
    """``spectator_hands``: the four hands while they are open, else null."""

    hands: list[Cards] | None


class SpectateStarted(TypedDict):
    """``spectate_started``: the public snapshot a spectator starts from."""

    table_name: str
    public_state: PublicState
    options: TableOptions
    lobby_state: LobbyState
    protocol_version: int


class Clock(TypedDict):
    """A seat's turn clock (``seconds_left``: null without a limit)."""

    player_index: int
    seconds_left: float | None
    waited: float


class TurnClocks(TypedDict):
    """``turn_clocks``."""

    clocks: list[Clock]


class SeatHandedOver(TypedDict):
    """``seat_handed_over``."""

    player_index: int
    player_name: str
    reason: str


class SeatEvent(TypedDict):
    """``seat_taken_back``, ``game_ended_early``: the seat and its person."""

    player_index: int
    player_name: str


class LineOver(TypedDict):
    """``line_over``: the round played on from a stored game's position is over (docs/server.md,
    "Another line"): the game, the step it started after and the seat the person played."""

    game_id: str
    step: int
    seat: int


class GameStored(TypedDict):
    """``game_stored``: the game just played to its end is stored under this id (its replay and
    analysis: docs/server.md, "Replays", "Game analysis")."""

    game_id: str


#: The context of each notification.
NOTIFICATIONS: dict[str, type[Mapping[str, object]]] = {
    "player_played": PlayerPlayed, "player_passed": PlayerIndex, "player_turn_changed": TurnChanged,
    "trick_taken": TrickTaken, "player_announced": PlayerAnnounced, "player_schupfed": PlayerIndex,
    "player_out": PlayerOut, "hands_revealed": HandsRevealed, "wish_made": WishMade, "wish_fulfilled": Empty,
    "hand_cards_dealt": HandCardsDealt, "start_playing": StartPlaying, "round_started": RoundStarted,
    "round_over": RoundOver, "game_started": Empty, "game_over": GameOver,
    "player_joined": PlayerJoined, "player_disconnected": PlayerDisconnected, "player_left": PlayerLeft,
    "players_swapped": PlayersSwapped, "private_state_changed": PrivateStateChanged,
    "request_cancelled": RequestCancelled, "options_changed": TableOptions, "lobby_state": LobbyState,
    "chat_message": ChatLine, "chat_history": ChatHistory, "reaction": ReactionSent,
    "spectators_changed": SpectatorsChanged, "spectator_hands": SpectatorHands, "spectate_started": SpectateStarted,
    "turn_clocks": TurnClocks, "seat_handed_over": SeatHandedOver, "seat_taken_back": SeatEvent,
    "game_ended_early": SeatEvent, "line_over": LineOver, "game_stored": GameStored,
}


class NotificationPayload(TypedDict):
    """A notification: the event's name and its context (:data:`NOTIFICATIONS`)."""

    event: str
    context: Mapping[str, object]


class NotificationMessage(TypedDict):
    """``notification``."""

    type: Literal["notification"]
    payload: NotificationPayload


class ErrorPayload(TypedDict):
    """An error: its message, code (server/codes.py) and details."""

    message: str
    code: int
    context: ErrorContext


class ErrorMessage(TypedDict):
    """``error``."""

    type: Literal["error"]
    payload: ErrorPayload


class PongMessage(TypedDict):
    """``pong``: the answer to ``ping``."""

    type: Literal["pong"]


#: Every message the server sends.
ServerMessage = RequestMessage | NotificationMessage | ErrorMessage | PongMessage

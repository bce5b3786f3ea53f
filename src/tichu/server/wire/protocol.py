"""Messages of the WebSocket protocol (protocol.md): parsing client input, building server output.

Everything a client sends is untrusted: :func:`parse_message` and the ``*_from_json``
helpers turn it into checked values or raise :class:`ProtocolError`, which the handler
answers with an ``error`` message; nothing here changes any state.

This module is also the one place where the engine's events and a seat's states become the
protocol's JSON (:func:`event_text`, :func:`public_state_json`, :func:`table_public_json`,
:func:`private_state_json`), and where a rule violation of the core becomes an error code (:data:`VIOLATION_CODES`).
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Mapping, Sequence

from tichu.core.cards import PHOENIX, card_index, cards_of
from tichu.core.combos import BOMB, SINGLE, CombinationType, Play, weakest_first
from tichu.core.errors import RuleViolation, Violation
from tichu.core.round import Round
from tichu.core.unseen import UnseenBombs, unseen_bombs
from tichu.core.views import PrivateState, PublicState, TableInfo, build_public_state
from tichu.engine.events import (
    Event,
    GameOver,
    GameStarted,
    HandCardsDealt,
    HandsRevealed,
    PlayerAnnounced,
    PlayerOut,
    PlayerPassed,
    PlayerPlayed,
    PlayerSchupfed,
    RoundOver,
    RoundStarted,
    StartPlaying,
    TrickTaken,
    TurnChanged,
    WishFulfilled,
    WishMade,
)
from tichu.server.codes import ErrorCode
from tichu.server.wire import outgoing as out
from tichu.server.wire.connection import encode
from tichu.server.wire.outgoing import ErrorContext, JsonValue

PROTOCOL_VERSION = 1
#: Largest text frame that is read; larger ones are refused with INVALID_MESSAGE.
MAX_FRAME = 64 * 1024
#: Frames over this size close the connection (1009), as aiohttp's limit.
MAX_FRAME_HARD = 1024 * 1024
#: Characters of a client's string that an error repeats (:func:`clip`).
ECHO_LIMIT = 64
#: Characters of JSON text of a client's other values that an error repeats (:func:`echo`).
ECHO_JSON_LIMIT = 256
#: Characters of an error's reason.
REASON_LIMIT = 256

_MESSAGES = {
    ErrorCode.UNKNOWN_ERROR: "An unknown error occurred.",
    ErrorCode.INVALID_MESSAGE: "Invalid message.",
    ErrorCode.UNKNOWN_CARD: "At least one card does not exist.",
    ErrorCode.NOT_HAND_CARD: "At least one card is not in your hand.",
    ErrorCode.SERVER_BUSY: "The server is busy; try again later.",
    ErrorCode.SERVER_DOWN: "The server is shutting down.",
    ErrorCode.SESSION_NOT_FOUND: "Session not found.",
    ErrorCode.TABLE_FULL: "The table is full.",
    ErrorCode.NAME_TAKEN: "This name is already taken at this table.",
    ErrorCode.INVALID_ACTION: "Invalid action.",
    ErrorCode.INVALID_RESPONSE: "There is no open request for this response.",
    ErrorCode.NOT_UNIQUE_CARDS: "At least two cards are the same.",
    ErrorCode.INVALID_COMBINATION: "The cards form no combination.",
    ErrorCode.NOT_YOUR_TURN: "It is not your turn.",
    ErrorCode.INTERRUPT_DENIED: "No bomb can be played now.",
    ErrorCode.INVALID_WISH: "Invalid wish.",
    ErrorCode.INVALID_ANNOUNCE: "Tichu cannot be called now.",
    ErrorCode.INVALID_DRAGON_RECIPIENT: "The Dragon trick must go to an opponent.",
    ErrorCode.ACTION_TIMEOUT: "Time is up: an agent decided for you.",
    ErrorCode.REQUEST_OBSOLETE: "This request is no longer open.",
    ErrorCode.GAME_ALREADY_STARTED: "The game has already started.",
    ErrorCode.NOT_LOBBY_HOST: "Only the host can do this.",
}
#: The error code that answers each kind of rule violation (the one place of this mapping).
VIOLATION_CODES = {
    Violation.UNKNOWN_CARD: ErrorCode.UNKNOWN_CARD,
    Violation.DUPLICATE_CARD: ErrorCode.NOT_UNIQUE_CARDS,
    Violation.NOT_IN_HAND: ErrorCode.NOT_HAND_CARD,
    Violation.NO_COMBINATION: ErrorCode.INVALID_COMBINATION,
    Violation.NOT_YOUR_TURN: ErrorCode.NOT_YOUR_TURN,
    Violation.BOMB_NOT_ALLOWED: ErrorCode.INTERRUPT_DENIED,
    Violation.CALL_NOT_ALLOWED: ErrorCode.INVALID_ANNOUNCE,
    Violation.WISH_NOT_ALLOWED: ErrorCode.INVALID_WISH,
    Violation.DRAGON_RECIPIENT: ErrorCode.INVALID_DRAGON_RECIPIENT,
    Violation.ACTION_NOT_ALLOWED: ErrorCode.INVALID_ACTION,
}
#: Letters that look like those of the agents' names, after NFKC and case folding: Cyrillic,
#: Greek and Armenian look-alikes of b, o and t, and what passes for the digit 1 or o.
_CONFUSABLES = str.maketrans({"в": "b", "ь": "b", "β": "b", "о": "o", "ο": "o", "օ": "o", "0": "o", "т": "t",
                              "τ": "t", "l": "1", "i": "1", "ı": "1", "|": "1"})


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """A client's string as an error may repeat it: at most ``limit`` characters, cut with an ellipsis.

    :param text: The string.
    :param limit: Its longest length.
    :returns: The string, or its start and ``…``.
    """
    return text if len(text) <= limit else text[:limit - 1] + "…"


def echo(value: object) -> JsonValue:
    """A client's value as an error may repeat it: a string clipped (:func:`clip`), any other
    value as it is unless its JSON text is longer than :data:`ECHO_JSON_LIMIT`, then that text clipped.

    :param value: A JSON value (tuples count as lists).
    :returns: The value to put into the error's context.
    """
    if isinstance(value, str):
        return clip(value)
    if isinstance(value, bool | float | None) or (isinstance(value, int) and -10**18 < value < 10**18):
        return value
    text = json.dumps(value, separators=(",", ":"))
    return _json_value(value) if len(text) <= ECHO_JSON_LIMIT else clip(text, ECHO_JSON_LIMIT)


def _json_value(value: object) -> JsonValue:
    """A value that ``json.dumps`` writes, as the JSON value it writes (tuples become lists)."""
    if isinstance(value, str | int | float | bool | None):
        return value
    if isinstance(value, list | tuple):
        return [_json_value(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _json_value(item) for key, item in value.items()}
    raise TypeError(f"no JSON value: {value!r}")


class ProtocolError(Exception):
    """A refused client message: answered with ``error`` and otherwise ignored.

    Every context value goes through :func:`echo` and the reason through :func:`clip`, so an
    error stays small whatever the client sent.

    :ivar code: The protocol error code.
    :ivar context: Details for the client (always a dict).
    """

    def __init__(self, code: ErrorCode, reason: str = "", **context: object) -> None:
        """Build the error.

        :param code: The protocol error code.
        :param reason: (Optional) What was wrong, for ``context.reason`` and the message.
        :param context: Details for the client, client input included.
        """
        reason = clip(reason, REASON_LIMIT)
        super().__init__(reason or _MESSAGES.get(code, code.name))
        self.code = code
        self.context: ErrorContext = {key: echo(value) for key, value in context.items()}
        if reason:
            self.context.setdefault("reason", reason)

    @classmethod
    def from_violation(cls, violation: RuleViolation, **context: object) -> ProtocolError:
        """The protocol error for a rule violation (the code of its kind, the rule and the reason)."""
        return cls(VIOLATION_CODES[violation.violation], violation.reason, rule=violation.rule, **context)


#: The answer to ``ping``.
PONG: out.PongMessage = {"type": "pong"}


def error_message(code: ErrorCode, context: ErrorContext | None = None, message: str | None = None) -> out.ErrorMessage:
    """An ``error`` message."""
    return {"type": "error", "payload": {"message": message or _MESSAGES.get(code, code.name), "code": int(code),
                                         "context": context or {}}}


def notification(event: str, context: Mapping[str, object]) -> out.NotificationMessage:
    """A ``notification`` message (the context of each event: :data:`~tichu.server.wire.outgoing.NOTIFICATIONS`)."""
    return {"type": "notification", "payload": {"event": event, "context": context}}


def cards_from_json(cards: Sequence[tuple[int, int]], *, limit: int = 14) -> int:
    """The mask of cards a client gave as ``[value, suit]`` pairs (their shape checked by
    :func:`~tichu.server.wire.incoming.parse_command`).

    :raises ProtocolError: ``INVALID_MESSAGE`` for more than ``limit`` cards, ``UNKNOWN_CARD``
        for a pair that is no card, ``NOT_UNIQUE_CARDS`` for a card given twice.
    """
    if len(cards) > limit:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"cards are a list of at most {limit} [value, suit] pairs")
    mask = 0
    for value, suit in cards:
        try:
            bit = 1 << card_index((value, suit))
        except RuleViolation as error:
            raise ProtocolError(ErrorCode.UNKNOWN_CARD, error.reason, cards=cards) from error
        if mask & bit:
            raise ProtocolError(ErrorCode.NOT_UNIQUE_CARDS, "a card is given twice", cards=cards)
        mask |= bit
    return mask


def clean_name(raw: str | None, what: str, longest: int) -> str:
    """A player or table name: trimmed (NFC), 1..``longest`` characters, no control characters.

    Every other character is a name's own (``O'Brien``, ``Tom & Jerry``): protocol.md echoes names
    exactly, and clients show them as text, never as markup.

    :raises ProtocolError: (``INVALID_MESSAGE``) naming the problem in ``context.reason``.
    """
    if raw is None:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"{what} is missing")
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= longest:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"{what} must have 1 to {longest} characters")
    if any(unicodedata.category(char).startswith("C") for char in name):
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"{what} must not contain control characters")
    return name


def clean_chat_text(raw: str, longest: int) -> str:
    """A chat text: trimmed (NFC), 1..``longest`` characters, no control characters (no line
    breaks either). Every other character is the text's own and is echoed exactly; clients show
    it as text, never as markup.

    :param raw: The ``text`` field of a ``chat`` message.
    :param longest: The most characters allowed.
    :returns: The cleaned text.
    :raises ProtocolError: (``INVALID_MESSAGE``) naming the problem in ``context.reason``.
    """
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, "text is empty")
    if len(text) > longest:
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"text must have at most {longest} characters",
                            length=len(text))
    if any(unicodedata.category(char).startswith("C") and char not in _TEXT_FORMAT for char in text):
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, "text must not contain control characters")
    return text


#: Format characters a chat text may hold all the same: the joiners of emoji sequences.
_TEXT_FORMAT = frozenset({"\u200d", "\ufe0f"})


def agent_name(seat: int) -> str:
    """The name an agent has at a seat (``Bot 1`` .. ``Bot 4``).

    :param seat: The seat, 0..3.
    :returns: The name.
    """
    return f"Bot {seat + 1}"


def _skeleton(name: str) -> str:
    """What a name looks like: NFKC, case-folded, confusable letters replaced, no whitespace."""
    folded = unicodedata.normalize("NFKC", name).casefold().translate(_CONFUSABLES)
    return "".join(folded.split())


_AGENT_SKELETONS = frozenset(_skeleton(agent_name(seat)) for seat in range(4))


def clean_player_name(raw: str | None) -> str:
    """A person's name: :func:`clean_name` (1..20 characters), and not one of the agents' names or a look-alike.

    :param raw: The ``player_name`` query parameter.
    :returns: The cleaned name.
    :raises ProtocolError: (``INVALID_MESSAGE``) naming the problem in ``context.reason``.
    """
    name = clean_name(raw, "player_name", 20)
    if _skeleton(name) in _AGENT_SKELETONS:
        agents = f"{agent_name(0)} to {agent_name(3)}"
        raise ProtocolError(ErrorCode.INVALID_MESSAGE, f"player_name must not look like an agent's name ({agents})")
    return name


# -- server output: cards, states and events as JSON -------------------------------------------

#: Protocol names of the combination types (protocol.md, "Messages").
COMBINATION_NAMES = {int(kind): kind.name.lower() for kind in CombinationType}


def cards_json(mask: int) -> out.Cards:
    """Cards of a mask as protocol ``[value, suit]`` pairs, highest first."""
    return [[card.value, card.suit] for card in cards_of(mask)]


def combination_json(play: Play) -> out.Combination:
    """A play as the protocol's ``[type, length, rank]``; a Phoenix single ranks ``x.5`` (R3.6)."""
    mask, kind, length, rank = play
    shown: int | float = rank + 0.5 if kind == SINGLE and mask == PHOENIX else rank
    return [COMBINATION_NAMES[kind], length, shown]


def _triple_json(triple: tuple[int, int, int] | None) -> out.Cards | None:
    """Three single-card masks (a push) as ``[value, suit]`` pairs, or ``None``."""
    return None if triple is None else [cards_json(card)[0] for card in triple]


def public_state_json(state: PublicState) -> out.PublicState:
    """The protocol's ``public_state`` object. ``wish_value`` is 0 unless a wish is open
    (protocol.md: 0 = no open wish; a fulfilled wish is none, R5.4); ``wish_open`` is kept."""
    return {
        "table_name": state.table_name, "player_names": list(state.player_names),
        "host_index": state.host_index, "is_running": state.is_running, "phase": state.phase.value,
        "round_index": state.round_index, "current_turn_index": state.current_turn_index,
        "count_hand_cards": list(state.count_hand_cards), "announcements": list(state.announcements),
        "wish_value": state.wish_value if state.wish_open else 0, "wish_open": state.wish_open,
        "trick_turns": [[seat, cards_json(play.cards), combination_json(play)] for seat, play in state.trick_turns],
        "trick_owner_index": state.trick_owner_index, "trick_points": state.trick_points,
        "points": list(state.points), "tricks_won": list(state.tricks_won),
        "out_order": list(state.out_order), "played_cards": cards_json(state.played_cards),
        "count_pushed": list(state.count_pushed),
        "round_scores": [list(pair) for pair in state.round_scores], "total": list(state.total),
    }


def private_state_json(state: PrivateState) -> out.PrivateState:
    """The protocol's ``private_state`` object, with what the seat may do beyond its turn
    (docs/server.md, an extension): ``may_announce`` (R6.1) and ``bombs``, the bombs it may
    lay now (R4.3), each as its cards, the weakest first (R3.8); ``unseen_bombs``, the values of
    the four-of-a-kind bombs and the suits of the straight flushes the cards the seat has not seen
    could still form (R3.7)."""
    return {
        "player_index": state.player_index, "hand_cards": cards_json(state.hand_cards),
        "given_schupf_cards": _triple_json(state.given_schupf_cards),
        "received_schupf_cards": _triple_json(state.received_schupf_cards),
        "may_announce": state.may_announce,
        "bombs": [cards_json(bomb.cards) for bomb in weakest_first(state.bombs)],
        "unseen_bombs": unseen_bombs_json(unseen_bombs(state.unseen_cards)),
    }


def unseen_bombs_json(bombs: UnseenBombs) -> out.UnseenBombs:
    """The protocol's ``unseen_bombs``: the values of four of a kind and the suits of straight flushes."""
    return {"four_of_a_kind": list(bombs.four_of_a_kind), "straight_flush": list(bombs.straight_flush)}


def event_json(event: Event) -> tuple[str, out.EventContext]:
    """An event's protocol name and public context (protocol.md, "Notifications")."""
    match event:
        case PlayerPlayed(seat, play, trick_points, trick_owner, out_of_turn):
            return "player_played", {"turn": [seat, cards_json(play.cards), combination_json(play)],
                                     "trick_points": trick_points, "trick_owner_index": trick_owner,
                                     "is_bomb": play.kind == BOMB, "out_of_turn": out_of_turn}
        case PlayerPassed(seat):
            return "player_passed", {"player_index": seat}
        case TurnChanged(seat):
            return "player_turn_changed", {"current_turn_index": seat}
        case TrickTaken(winner, points, recipient):
            return "trick_taken", {"player_index": winner, "points": points, "dragon_recipient": recipient}
        case PlayerAnnounced(seat, grand):
            return "player_announced", {"player_index": seat, "grand": grand}
        case PlayerSchupfed(seat):
            return "player_schupfed", {"player_index": seat}
        case PlayerOut(seat, place):
            return "player_out", {"player_index": seat, "place": place}
        case HandsRevealed(hands):
            return "hands_revealed", {"hands": [cards_json(hand) for hand in hands]}
        case WishMade(value):
            return "wish_made", {"wish_value": value}
        case WishFulfilled():
            return "wish_fulfilled", {}
        case HandCardsDealt(count):
            return "hand_cards_dealt", {"count": count}
        case StartPlaying(leader):
            return "start_playing", {"start_player_index": leader}
        case RoundStarted(round_index):
            return "round_started", {"round_index": round_index}
        case RoundOver(card_points, bonus, points, total, out_order, double_victory):
            return "round_over", {"card_points": list(card_points), "bonus": list(bonus), "points": list(points),
                                  "total": list(total), "out_order": list(out_order),
                                  "is_double_victory": double_victory}
        case GameStarted():
            return "game_started", {}
        case GameOver(round_points, total, winner):
            return "game_over", {"game_score": [[points[0] for points in round_points],
                                                [points[1] for points in round_points]],
                                 "total": list(total), "winner": winner}
    raise TypeError(f"no protocol form for {event!r}")


def table_public_json(info: TableInfo, round_: Round | None) -> out.PublicState:
    """A table's ``public_state`` as a seat joining it or watching it gets it, and as every event's
    ``public_delta`` keeps it: :func:`public_state_json` with ``passed``, the seats that passed
    since the open trick's last play (R4.1, R8.1)."""
    return {**public_state_json(build_public_state(info, round_)),
            "passed": round_.passed_since_last_play() if round_ is not None else []}


_last_shared: tuple[Event | None, tuple[str, ...], str] = (None, (), "")


def event_text(event: Event, private: PrivateState | None, public_delta: Mapping[str, object],
               private_delta: Mapping[str, object] | None = None) -> str:
    """The ``notification`` of an event for one seat or spectator, as JSON text.

    The seat's private part is added by event type (R8.2): its new hand to
    ``hand_cards_dealt``, its received cards to ``start_playing``; then the state after the
    event, as the fields that changed for this client (:mod:`tichu.server.wire.deltas`):
    ``private_delta`` and ``public_delta``, each left out when empty. A message without a
    private part reads alike for everyone sent the same public fields and is encoded once.

    :param event: The event.
    :param private: The seat's private state now, or ``None`` for a spectator.
    :param public_delta: The fields of ``public_state`` that changed for this client.
    :param private_delta: The fields of the seat's ``private_state`` that changed.
    :returns: The message text.
    """
    global _last_shared
    extra: dict[str, object] = {}
    if private is not None and isinstance(event, HandCardsDealt):
        extra["hand_cards"] = cards_json(private.hand_cards)
    elif private is not None and isinstance(event, StartPlaying):
        extra["received_schupf_cards"] = _triple_json(private.received_schupf_cards)
    if private_delta:
        extra["private_delta"] = private_delta
    if extra:
        if public_delta:
            extra["public_delta"] = public_delta
        name, context = event_json(event)
        return encode(notification(name, {**context, **extra}))
    key = tuple(public_delta)
    if _last_shared[0] is not event or _last_shared[1] != key:
        name, context = event_json(event)
        shared = {**context, "public_delta": public_delta} if public_delta else context
        _last_shared = (event, key, encode(notification(name, shared)))
    return _last_shared[2]

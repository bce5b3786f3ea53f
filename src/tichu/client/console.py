"""The terminal side of the WebSocket client: commands typed by people, the table as text.

:class:`ConsoleBrain` is the :class:`~tichu.client.bots.Brain` of ``tichu-client`` without
``--agent``: it prints the table and each question and answers from the lines it is fed,
checked against the request (:func:`interpret`) before anything is sent. Cards are typed
as labels (records.md), in any case:

>>> parse_command("s5 B5")
Command(verb='cards', cards=(Card(value=5, suit=1), Card(value=5, suit=2)), numbers=())
>>> parse_command("swap 1 2")
Command(verb='swap', cards=(), numbers=(1, 2))
>>> format_cards([[5, 1], [16, 0], [14, 4]], sort=True)
'Ph RA S5'
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from tichu.client.bots import Brain, Seat
from tichu.client.connection import TableClient
from tichu.client.messages import Answer, request_context
from tichu.client.state import TableState
from tichu.core.cards import CARDS, LABELS, Card, card_index
from tichu.core.errors import RuleViolation
from tichu.core.seats import TEAM_NAMES, team_of
from tichu.server.wire import outgoing as out
from tichu.server.wire.incoming import DragonAnswer, GrandTichuAnswer, PlayAnswer, SchupfAnswer, WishAnswer
from tichu.server.wire.outgoing import (
    DragonContext,
    ErrorPayload,
    HandContext,
    PlayContext,
    RequestPayload,
    WishContext,
)

__all__ = ["HELP", "Command", "CommandError", "ConsoleBrain", "describe_event", "format_cards", "interpret",
           "options_text", "parse_command", "prompt_for", "render_table"]

CALL_NAMES = {1: "Tichu", 2: "Grand Tichu"}
A = TypeVar("A", bound=Answer)
C = TypeVar("C", bound=Mapping[str, object])
VALUE_NAMES = {10: "10", 11: "Jack", 12: "Queen", 13: "King", 14: "Ace"}


def _label(pair: Sequence[int]) -> str:
    try:
        return LABELS[card_index(Card(int(pair[0]), int(pair[1])))]
    except (RuleViolation, IndexError, TypeError, ValueError):
        return f"?{list(pair)}"


def format_cards(cards: Iterable[Sequence[int]], *, sort: bool = False) -> str:
    """Format protocol cards as labels (records.md) joined by spaces.

    :param cards: ``[value, suit]`` pairs.
    :param sort: Sort highest value first, as players hold a hand.
    :returns: For example ``"Dr RA S5"``; a pair that is no card shows as ``?[v, s]``.
    """
    pairs = list(cards)
    if sort:
        pairs.sort(key=lambda pair: (-pair[0], -pair[1]))
    return " ".join(_label(pair) for pair in pairs)


def _same_cards(first: Iterable[Sequence[int]], second: Iterable[Sequence[int]]) -> bool:
    return sorted(map(tuple, first)) == sorted(map(tuple, second))


def _pairs(cards: Iterable[Sequence[int]]) -> tuple[tuple[int, int], ...]:
    """Cards as the answers' ``(value, suit)`` pairs."""
    return tuple((int(card[0]), int(card[1])) for card in cards)


class CommandError(ValueError):
    """A line a person typed that is no command, or no answer to the open request."""


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed line of the console.

    :ivar verb: ``cards``, ``pass``, ``yes``, ``no``, ``tichu``, ``bomb``, ``wish``,
        ``dragon``, ``number``, ``start``, ``swap``, ``show``, ``help`` or ``quit``.
    :ivar cards: The cards named (``cards``, ``bomb``).
    :ivar numbers: The numbers given (``wish``, ``dragon``, ``number``, ``swap``).
    """

    verb: str
    cards: tuple[Card, ...] = ()
    numbers: tuple[int, ...] = ()


HELP = """Commands:
  S5 B5          play these cards (labels: S B G R suits, 2-9 Z B D K A; Hu Ma Dr Ph)
  pass           pass
  yes / no       answer Grand Tichu
  S2 Ph B3       push three cards: to the right, to your partner, to the left
  wish 8         wish a value (2..14 or 2-9 Z B D K A)
  dragon 1       give the Dragon trick to seat 1 (or just: 1)
  tichu          call Tichu
  bomb SA BA GA RA   throw a bomb
  start          start the game (host)
  swap 1 2       swap two seats (host, lobby)
  show           show the table
  quit           leave the table"""

_UNPROMPTED_VERBS = frozenset({"tichu", "start", "swap", "show", "help"})
_CARD_BY_LABEL = {label.upper(): CARDS[index] for index, label in enumerate(LABELS)}
_VALUE_BY_LETTER = {"Z": 10, "B": 11, "J": 11, "D": 12, "Q": 12, "K": 13, "A": 14}
_PLAIN_VERBS = {"pass": "pass", "yes": "yes", "y": "yes", "grand": "yes", "no": "no", "n": "no",
                "tichu": "tichu", "start": "start", "show": "show", "help": "help", "?": "help",
                "quit": "quit", "exit": "quit"}


def parse_command(line: str) -> Command:
    """Parse a line typed at the console (case does not matter).

    :param line: For example ``"S5 B5"``, ``"pass"``, ``"bomb SA BA GA RA"``, ``"swap 1 2"``.
    :returns: The command.
    :raises CommandError: With a message for people, if the line is no command.
    """
    words = line.split()
    if not words:
        raise CommandError("type a command (help lists them)")
    head, rest = words[0].lower(), words[1:]
    if head in _PLAIN_VERBS and not rest:
        return Command(_PLAIN_VERBS[head])
    if head == "bomb":
        if not rest:
            raise CommandError("name the bomb's cards: bomb SA BA GA RA")
        return Command("bomb", cards=_parse_cards(rest))
    if head == "wish" and len(rest) == 1:
        return Command("wish", numbers=(_parse_value(rest[0]),))
    if head in ("dragon", "give") and len(rest) == 1:
        return Command("dragon", numbers=(_parse_seat(rest[0]),))
    if head == "swap" and len(rest) == 2:
        return Command("swap", numbers=(_parse_seat(rest[0]), _parse_seat(rest[1])))
    if head.isdigit() and not rest:
        return Command("number", numbers=(int(head),))
    if all(word.upper() in _CARD_BY_LABEL for word in words):
        return Command("cards", cards=_parse_cards(words))
    raise CommandError(f"not understood: {line.strip()!r} (help lists the commands)")


def _parse_cards(words: Sequence[str]) -> tuple[Card, ...]:
    unknown = [word for word in words if word.upper() not in _CARD_BY_LABEL]
    if unknown:
        raise CommandError(f"unknown card {unknown[0]!r} (labels like S5, BZ, RA, Ph, Dr)")
    cards = tuple(_CARD_BY_LABEL[word.upper()] for word in words)
    if len(set(cards)) != len(cards):
        raise CommandError("a card is named twice")
    return cards


def _parse_value(word: str) -> int:
    value = int(word) if word.isdigit() else _VALUE_BY_LETTER.get(word.upper(), -1)
    if value != 0 and not 2 <= value <= 14:
        raise CommandError(f"no card value {word!r}: wish 2..14 (or 2-9 Z B D K A, 0 for none)")
    return value


def _parse_seat(word: str) -> int:
    if not (word.isdigit() and int(word) < 4):
        raise CommandError(f"no seat {word!r}: seats are 0..3")
    return int(word)


def interpret(command: Command, request: RequestPayload) -> Answer:
    """Turn a command into the answer to a request, checked against the request's context.

    :param command: The parsed line.
    :param request: The open ``request`` payload.
    :returns: The answer.
    :raises CommandError: With a message for people, if the command does not answer the
        request or breaks a rule the context shows.
    """
    action = request["action"]
    if action == "announce_grand_tichu":
        return _interpret_grand_tichu(command)
    if action == "schupf":
        return _interpret_schupf(command, request_context(request, HandContext))
    if action == "play":
        return _interpret_play(command, request_context(request, PlayContext))
    if action == "wish":
        return _interpret_wish(command, request_context(request, WishContext))
    if action == "give_dragon_away":
        return _interpret_dragon(command, request_context(request, DragonContext))
    raise CommandError(f"cannot answer the request {action!r}")


def _interpret_grand_tichu(command: Command) -> GrandTichuAnswer:
    if command.verb not in ("yes", "no", "pass"):
        raise CommandError("Grand Tichu? answer yes or no")
    return GrandTichuAnswer(announced=command.verb == "yes")


def _interpret_schupf(command: Command, context: HandContext) -> SchupfAnswer:
    if command.verb != "cards" or len(command.cards) != 3:
        raise CommandError("name three cards to push: to the right, to your partner, to the left")
    _check_held(command.cards, context["hand_cards"])
    return SchupfAnswer(given_schupf_cards=_pairs(command.cards))


def _interpret_play(command: Command, context: PlayContext) -> PlayAnswer:
    legal = context["legal_plays"]
    if command.verb == "pass":
        if [] not in legal:
            raise CommandError("you cannot pass now: you lead, or the wish must be fulfilled")
        return PlayAnswer(cards=())
    if command.verb not in ("cards", "bomb"):
        raise CommandError("play cards (e.g. S5 B5) or pass")
    _check_held(command.cards, context["hand_cards"])
    match = next((play for play in legal if play and _same_cards(play, command.cards)), None)
    if match is None:
        wish = context["wish_value"] or 0
        reason = f"; the wish ({wish}) must be fulfilled if you can" if wish else ""
        raise CommandError(f"{format_cards(command.cards)} is not a legal play now{reason}")
    return PlayAnswer(cards=_pairs(match))


def _check_held(cards: Sequence[Card], hand: Sequence[Sequence[int]]) -> None:
    held = {tuple(pair) for pair in hand}
    missing = [card for card in cards if tuple(card) not in held]
    if missing:
        raise CommandError(f"you do not hold {format_cards(missing)}")


def _interpret_wish(command: Command, context: WishContext) -> WishAnswer:
    values = context["wish_values"]
    if command.verb not in ("wish", "number") or command.numbers[0] not in values:
        raise CommandError(f"wish one of {_wish_choices(values)}")
    return WishAnswer(wish_value=command.numbers[0])


def _wish_choices(values: Iterable[int]) -> str:
    """The values the server lists for a wish, for people (``0`` as ``0 for none``)."""
    return ", ".join("0 for none" if value == 0 else str(value) for value in values)


def _interpret_dragon(command: Command, context: DragonContext) -> DragonAnswer:
    opponents = context["opponent_indexes"]
    if command.verb not in ("dragon", "number") or command.numbers[0] not in opponents:
        raise CommandError(f"give the Dragon trick to seat {' or '.join(map(str, opponents))}")
    return DragonAnswer(dragon_recipient=command.numbers[0])


def render_table(state: TableState) -> str:
    """Render the table in plain text: seats, counts, calls, trick, wish, score, own hand, and
    what the seat may do beyond its turn (:func:`options_text`).

    :param state: The seat's view.
    :returns: Several lines.
    """
    public = state.public
    total = public.get("total") or [0, 0]
    lines = [f"Table {public.get('table_name', '?')}: round {int(public.get('round_index') or 0) + 1}, "
             f"{public.get('phase', 'lobby')}; score team 20: {total[0]}, team 31: {total[1]}"]
    lines += [_render_seat(state, seat) for seat in range(4)]
    lines.append(_render_trick(state))
    if public.get("wish_open", bool(public.get("wish_value"))):
        lines.append(f"Wish: {_value_name(int(public['wish_value']))}")
    lines.append(f"Your hand: {format_cards(state.hand, sort=True) or '(empty)'}")
    options = options_text(state)
    if options is not None:
        lines.append(options)
    return "\n".join(lines)


def options_text(state: TableState) -> str | None:
    """What the seat may do beyond its turn, as the server's private state says (a Tichu call,
    R6.1; the bombs it may lay now, R4.3), with the commands for it.

    :param state: The seat's view.
    :returns: One line, or ``None`` when it may do neither.
    """
    options = ["call Tichu (tichu)"] if state.may_announce else []
    if state.bombs:
        options.append(f"bomb ({', '.join(f'bomb {format_cards(bomb)}' for bomb in state.bombs)})")
    return f"You may {' or '.join(options)}" if options else None


def _render_seat(state: TableState, seat: int) -> str:
    public = state.public
    marks = []
    if seat == state.player_index:
        marks.append("you")
    if seat == public.get("host_index"):
        marks.append("host")
    call = CALL_NAMES.get((public.get("announcements") or [0] * 4)[seat])
    if call:
        marks.append(call)
    out_order = public.get("out_order") or []
    if seat in out_order:
        marks.append(f"out #{out_order.index(seat) + 1}")
    if seat == public.get("current_turn_index"):
        marks.append("at turn")
    count = (public.get("count_hand_cards") or [0] * 4)[seat]
    points = (public.get("points") or [0] * 4)[seat]
    return f"  {seat} {state.name(seat):<20} team {TEAM_NAMES[team_of(seat)]}  {count:>2} cards  " \
           f"{points:>3} points  {', '.join(marks)}".rstrip()


def _render_trick(state: TableState) -> str:
    turns = state.public.get("trick_turns") or []
    if not turns:
        return "Trick: (none)"
    plays = "; ".join(f"{state.name(turn[0])}: {format_cards(turn[1])}" for turn in turns)
    owner = state.public.get("trick_owner_index")
    owner_text = f", owner {state.name(owner)}" if owner is not None else ""
    return f"Trick: {plays}{owner_text}, {state.public.get('trick_points', 0)} points"


def _value_name(value: int) -> str:
    return VALUE_NAMES.get(value, str(value))


def describe_event(state: TableState, event: str, context: Mapping[str, object]) -> str | None:
    """Describe a notification in one line for people (after :meth:`TableState.apply`).

    :param state: The seat's view (for names).
    :param event: The notification's event.
    :param context: Its context (of the type :data:`~tichu.server.wire.outgoing.NOTIFICATIONS`
        names for the event).
    :returns: The line, or ``None`` for an event not worth a line (a change of the private state
        that leaves the seat neither a call nor a bomb); a context not of its event's shape is
        shown as it is.
    """
    describe = _DESCRIPTIONS.get(event)
    if describe is None:
        return None
    try:
        return describe(state, context)
    except (KeyError, IndexError, TypeError, ValueError):
        return f"{event}: {dict(context)}"


#: How a notification is described: from the seat's view and the context (read as its event's type).
Description = Callable[[TableState, Mapping[str, object]], "str | None"]


def _describing(kind: type[C], describe: Callable[[TableState, C], str | None]) -> Description:
    """A description of the notifications whose context is a ``kind``."""
    def described(state: TableState, context: Mapping[str, object]) -> str | None:
        return describe(state, cast(C, context))  # its event's type: read_message checked it
    return described


def _played(state: TableState, context: out.PlayerPlayed) -> str:
    seat, cards, combination = cast(tuple[int, out.Cards, list[object]], context["turn"])  # Turn's shape
    how = "bombs" if context["out_of_turn"] else "plays"
    return f"{state.name(seat)} {how} {format_cards(cards)} ({combination[0]} {combination[2]})"


def _trick_taken(state: TableState, context: out.TrickTaken) -> str:
    taker, recipient = context["player_index"], context["dragon_recipient"]
    text = f"{state.name(taker) if taker is not None else '?'} takes the trick ({context['points']} points)"
    return text if recipient is None else f"{text}; the Dragon trick goes to {state.name(recipient)}"


def _left(state: TableState, context: out.PlayerLeft) -> str:
    agent = " (an agent plays on)" if context["replaced_by_agent"] else ""
    return f"{context['player_name']} leaves seat {context['player_index']}{agent}"


def _start_playing(state: TableState, context: out.StartPlaying) -> str:
    received = context.get("received_schupf_cards") or []
    return f"Received {format_cards(received)}; {state.name(context['start_player_index'])} leads."


_DESCRIPTIONS: dict[str, Description] = {
    "player_joined": _describing(out.PlayerJoined,
                                 lambda s, c: f"{c['player_name']} joins at seat {c['player_index']}"),
    "player_left": _describing(out.PlayerLeft, _left),
    "players_swapped": _describing(out.PlayersSwapped,
                                   lambda s, c: f"seats {c['player_index_1']} and {c['player_index_2']} swapped"),
    "game_started": lambda s, c: "The game starts.",
    "round_started": _describing(out.RoundStarted, lambda s, c: f"Round {c['round_index'] + 1} starts."),
    "hand_cards_dealt": lambda s, c: f"Dealt: {format_cards(s.hand, sort=True)}",
    "player_announced": _describing(out.PlayerAnnounced, lambda s, c: f"{s.name(c['player_index'])} calls "
                                                                      f"{CALL_NAMES[2 if c['grand'] else 1]}!"),
    "start_playing": _describing(out.StartPlaying, _start_playing),
    "player_passed": _describing(out.PlayerIndex, lambda s, c: f"{s.name(c['player_index'])} passes"),
    "player_played": _describing(out.PlayerPlayed, _played),
    "player_out": _describing(out.PlayerOut, lambda s, c: f"{s.name(c['player_index'])} is out (#{c['place']})"),
    "wish_made": _describing(out.WishMade, lambda s, c: f"Wish: {_value_name(c['wish_value'])}"),
    "wish_fulfilled": lambda s, c: "The wish is fulfilled.",
    "request_cancelled": lambda s, c: "(A bomb cancelled your turn.)",
    "private_state_changed": lambda s, c: options_text(s),
    "trick_taken": _describing(out.TrickTaken, _trick_taken),
    "round_over": _describing(out.RoundOver, lambda s, c: f"Round over: {c['points'][0]} : {c['points'][1]}, "
                                                          f"total {c['total'][0]} : {c['total'][1]}"),
    "game_over": _describing(out.GameOver, lambda s, c: f"Game over: team {c['winner']} wins, "
                                                        f"{c['total'][0]} : {c['total'][1]}"),
}


_PROMPTS = {
    "announce_grand_tichu": "Grand Tichu? (yes/no)",
    "schupf": "Push three cards: to the right, to your partner, to the left (e.g. S2 Ph B3)",
    "play": "Your turn: type cards (e.g. S5 B5) or pass",
    "wish": "Wish a value (e.g. wish 8, wish K): one of",
    "give_dragon_away": "Give the Dragon trick to an opponent: dragon SEAT",
}


def prompt_for(request: RequestPayload) -> str:
    """The question a request asks a person, with the choices and the hint where the server sends them."""
    action = request["action"]
    prompt = _PROMPTS.get(action, action)
    if action == "give_dragon_away":
        prompt += f" ({' or '.join(map(str, request_context(request, DragonContext)['opponent_indexes']))})"
    elif action == "wish":
        prompt += f" {_wish_choices(request_context(request, WishContext)['wish_values'])}"
    elif action == "play":
        hint = request_context(request, PlayContext)["hint"]
        if hint:
            prompt += f" [hint: {format_cards(hint[0]) or 'pass'}]"
    return f"> {prompt}"


class ConsoleBrain(Brain):
    """Asks a person: prints the table and the question, and takes the answer from the
    lines that :meth:`handle_line` is fed (``tichu-client`` feeds it stdin).

    :ivar output: Where text for the person goes (``print`` by default).
    """

    def __init__(self, output: Callable[[str], None] = print) -> None:
        self.output = output
        self._answers: asyncio.Queue[Command] = asyncio.Queue()
        self._asking: str | None = None

    async def announce_grand_tichu(self, client: Seat, context: HandContext) -> GrandTichuAnswer:
        return await self._ask(client, "announce_grand_tichu", context, _interpret_grand_tichu)

    async def schupf(self, client: Seat, context: HandContext) -> SchupfAnswer:
        return await self._ask(client, "schupf", context, lambda command: _interpret_schupf(command, context))

    async def play(self, client: Seat, context: PlayContext) -> PlayAnswer:
        return await self._ask(client, "play", context, lambda command: _interpret_play(command, context))

    async def wish(self, client: Seat, context: WishContext) -> WishAnswer:
        return await self._ask(client, "wish", context, lambda command: _interpret_wish(command, context))

    async def give_dragon_away(self, client: Seat, context: DragonContext) -> DragonAnswer:
        return await self._ask(client, "give_dragon_away", context,
                               lambda command: _interpret_dragon(command, context))

    async def refused(self, client: Seat, request: RequestPayload, tried: Sequence[Answer]) -> Answer | None:
        return await self._ask(client, request["action"], request["context"],
                               lambda command: interpret(command, request))

    async def _ask(self, client: Seat, action: str, context: out.RequestContext,
                   answer: Callable[[Command], A]) -> A:
        """Show the table and the question, then take lines until one answers it.

        :param answer: Turns a command into the answer, or raises :class:`CommandError`.
        """
        while not self._answers.empty():
            self._answers.get_nowait()  # typed before the question
        self.output(render_table(client.state))
        self.output(prompt_for({"request_id": "", "action": action, "context": context, "timeout": None}))
        self._asking = action
        try:
            while True:
                try:
                    return answer(await self._answers.get())
                except CommandError as error:
                    self.output(f"! {error}")
        finally:
            self._asking = None

    async def on_notification(self, client: Seat, event: str, context: Mapping[str, object]) -> None:
        line = describe_event(client.state, event, context)
        if line is not None:
            self.output(line)

    async def on_error(self, client: Seat, error: ErrorPayload) -> None:
        self.output(f"! server: {error['message']} (error {error['code']})")

    async def handle_line(self, client: TableClient, line: str) -> bool:
        """Act on one typed line: answer the open question or send an unprompted message.

        :param client: The client.
        :param line: The line.
        :returns: ``False`` after ``quit`` (the client has left), else ``True``.
        """
        try:
            command = parse_command(line)
        except CommandError as error:
            self.output(f"! {error}")
            return True
        if command.verb == "quit":
            await client.leave()
            return False
        if self._answers_question(command):
            self._answers.put_nowait(command)
        else:
            await self._unprompted(client, command)
        return True

    def _answers_question(self, command: Command) -> bool:
        if self._asking is None or command.verb in _UNPROMPTED_VERBS:
            return False
        return command.verb != "bomb" or self._asking == "play"  # a bomb at one's turn is the play

    async def _unprompted(self, client: TableClient, command: Command) -> None:
        if command.verb == "tichu":
            await client.announce()
        elif command.verb == "bomb":
            await client.bomb([list(card) for card in command.cards])
        elif command.verb == "start":
            await client.start_game()
        elif command.verb == "swap":
            await client.swap_players(*command.numbers)
        elif command.verb == "show":
            self.output(render_table(client.state))
        elif command.verb == "help":
            self.output(HELP)
        else:
            self.output("! nothing to decide now")

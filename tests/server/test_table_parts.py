"""Issue 36, finding 2: a table's objects each do one job and are tested alone, built with fakes of
what they are handed (no whole :class:`~tichu.server.tables.table.Table`, no socket); and the
drawing of docs/architecture.md, "A table's objects", names exactly the objects ``Table``
composes.

The people here are :class:`~tichu.server.tables.peer.Peer` objects that keep what they are sent;
the spectators and the game are fakes.
"""

from __future__ import annotations

import ast
import asyncio
import inspect
import json
import re
import textwrap
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest

from tichu.agents.agent import Agent
from tichu.agents.random_agent import RandomAgent
from tichu.agents.stand_in import StandIn
from tichu.core.combos import PASS_PLAY, Play
from tichu.core.round import Round
from tichu.core.views import SeatView, TableInfo
from tichu.engine.engine import GameEngine
from tichu.server.codes import ErrorCode
from tichu.server.tables import table as table_module
from tichu.server.tables.agent_seat import SeatAgents, ServerAgent
from tichu.server.tables.broadcast import Broadcast
from tichu.server.tables.hints import Hints
from tichu.server.tables.idle import IdleClocks
from tichu.server.tables.lobby import Lobby
from tichu.server.tables.options import TableOptions
from tichu.server.tables.peer import Peer
from tichu.server.tables.seating import Seats
from tichu.server.tables.social import CHAT_BURST, Social
from tichu.server.tables.spectators import Spectators
from tichu.server.tables.talk import Talk
from tichu.server.wire.outgoing import ServerMessage
from tichu.server.wire.protocol import ProtocolError, agent_name, error_message
from tichu.server.workers.agent_pool import AgentPool

ARCHITECTURE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
#: Seconds a test waits at most for a state (a slow, loaded machine included).
DEADLINE = 30.0


class _Source:
    """A table's facts without a round: what a peer's private state is built from."""

    def __init__(self) -> None:
        self.info = TableInfo(table_name="t")
        self.round: Round | None = None


class Person(Peer):
    """A peer that keeps every message it is sent (decoded), and no socket."""

    def __init__(self, name: str, seat: int) -> None:
        super().__init__(name, seat, _Source(), StandIn(RandomAgent(name)), AgentPool(1))
        self.heard: list[Mapping[str, object]] = []

    def send(self, message: ServerMessage | str) -> None:
        self.heard.append(json.loads(message) if isinstance(message, str) else dict(message))

    def send_error(self, error: ProtocolError) -> None:
        self.send(error_message(error.code, error.context, str(error)))

    def events(self) -> list[str]:
        """The events of the notifications it heard, in order."""
        return [_event(message) for message in self.heard if message.get("type") == "notification"]

    def errors(self) -> list[int]:
        """The codes of the errors it heard, in order."""
        return [int(str(_payload(message)["code"])) for message in self.heard if message.get("type") == "error"]


class Audience:
    """The spectators as a :class:`Broadcast` sees them: what they were sent."""

    def __init__(self) -> None:
        self.heard: list[str] = []
        self.errors: list[ErrorCode] = []

    def send(self, message: Mapping[str, object] | str) -> None:
        self.heard.append(_event(json.loads(message) if isinstance(message, str) else message))

    def send_error(self, error: ProtocolError) -> None:
        self.errors.append(error.code)


class Watched:
    """The table as its :class:`Spectators` see it."""

    def __init__(self, seats: Seats) -> None:
        self.seats = seats
        self.info = TableInfo(table_name="t")
        self.round: Round | None = None
        self.told = 0

    @property
    def clients(self) -> list[Peer]:
        return self.seats.clients

    def spectators_changed(self) -> None:
        self.told += 1


class Game:
    """The table's game: none, or one running without an engine to ask."""

    def __init__(self, running: bool = False) -> None:
        self.engine: GameEngine | None = None
        self.is_running = running


def _payload(message: Mapping[str, object]) -> dict[str, object]:
    payload = message["payload"]
    assert isinstance(payload, dict)
    return payload


def _event(message: Mapping[str, object]) -> str:
    return str(_payload(message)["event"])


def _context(message: Mapping[str, object]) -> dict[str, object]:
    context = _payload(message)["context"]
    assert isinstance(context, dict)
    return context


def _heard(person: Person, event: str) -> list[dict[str, object]]:
    """The contexts of ``event`` a person heard."""
    return [_context(message) for message in person.heard if message.get("type") == "notification"
            and _event(message) == event]


def _seated(*names: str) -> tuple[Seats, list[Person]]:
    """Seats with a person per name, at seats 0, 1, ... in that order."""
    seats = Seats("t", TableInfo(table_name="t", player_names=[agent_name(seat) for seat in range(4)]), 60.0)
    people = [Person(name, seat) for seat, name in enumerate(names)]
    for person in people:
        seats.take(person)
    return seats, people


# -- Seats ----------------------------------------------------------------------------------------

def test_seats_make_the_first_person_host_and_the_next_to_join_host_after_them() -> None:
    """Issue 36: :class:`Seats` keeps who sits where and who is host (the first to join, then the
    next one); a person who left alone may take its seat back (docs/server.md, "Who a person is")."""
    seats, (ann, ben, cid) = _seated("Ann", "Ben", "Cid")
    assert seats.info.host_index == 0 and seats.info.player_names[:3] == ["Ann", "Ben", "Cid"]
    seats.unseat(ann, "agent 0")
    assert seats.info.host_index == 1 and seats.peers[0] is None and seats.info.player_names[0] == "agent 0"
    assert seats.knows(ann) and seats.knows(ben) and seats.followed()
    assert seats.free() == [0, 3] and seats.unclaimed([0, 3]) == 3, "a newcomer goes where nobody left first"
    seats.retake(ann)
    assert seats.peers[0] is ann and seats.joined == [ben, cid, ann] and seats.info.host_index == 1
    seats.forget_departed()
    seats.unseat(cid, "agent 2")
    seats.forget_departed()
    assert not seats.knows(cid), "after a game's start or end nobody who left holds a seat"


def test_seats_refuse_a_taken_name_and_a_full_table() -> None:
    """Issue 36: a seated person's name is refused; during a game also the name of a person who
    left it (they come back with their session id); a fifth person finds no seat."""
    seats, (ann, _, _, _) = _seated("Ann", "Ben", "Cid", "Dee")
    with pytest.raises(ProtocolError) as full:
        seats.free()
    assert full.value.code == ErrorCode.TABLE_FULL
    with pytest.raises(ProtocolError) as taken:
        seats.check_name("ann", running=False)
    assert taken.value.code == ErrorCode.NAME_TAKEN
    seats.unseat(ann, "agent 0")
    seats.check_name("Ann", running=False)
    with pytest.raises(ProtocolError) as left:
        seats.check_name("Ann", running=True)
    assert left.value.code == ErrorCode.NAME_TAKEN


def test_seats_swap_people_and_names() -> None:
    """Issue 36: a swap moves the people with their names; an agent's seat keeps an agent's name."""
    seats, (_, ben) = _seated("Ann", "Ben")
    assert seats.swap(1, 3) == [ben]
    assert ben.seat == 3 and seats.peers[3] is ben and seats.peers[1] is None
    assert seats.info.player_names == ["Ann", agent_name(1), agent_name(2), "Ben"]


async def test_seats_hold_a_dropped_seat_for_the_grace_period() -> None:
    """Issue 36: a dropped person's seat is held for the grace period, then handed on; a person
    back within it keeps the seat, and ``away`` shows who is away."""
    seats, (ann, ben) = _seated("Ann", "Ben")
    seats.grace_period = 0.05
    over: asyncio.Queue[Peer] = asyncio.Queue()
    seats.hold(ann, over.put_nowait)
    seats.hold(ben, over.put_nowait)
    assert sorted(seat for seat, _ in seats.away_json()) == [0, 1]
    assert seats.back(ben) and not seats.back(ben)
    assert await asyncio.wait_for(over.get(), DEADLINE) is ann
    assert seats.away_json() == [] and over.empty()


# -- Broadcast ------------------------------------------------------------------------------------

def test_broadcast_tells_everyone_or_the_listeners() -> None:
    """Issue 36: :class:`Broadcast` sends to every client (but one, if asked) and spectator, or to
    the clients that sent ``table_sync`` (and the spectators, if asked); errors to everyone."""
    seats, (ann, ben) = _seated("Ann", "Ben")
    social: Social[Peer] = Social()
    audience = Audience()
    broadcast = Broadcast(seats, social, audience)
    broadcast.to_all("player_joined", {"player_index": 1, "player_name": "Ben"}, but=ben)
    social.subscribe(ann)
    broadcast.to_listeners("reaction", {"player_index": 1, "player_name": "Ben", "reaction": "oops"},
                           spectators=False)
    broadcast.to_listeners("turn_clocks", {"clocks": []}, spectators=True)
    broadcast.error(ErrorCode.UNKNOWN_ERROR)
    assert ann.events() == ["player_joined", "reaction", "turn_clocks"]
    assert ben.events() == []
    assert audience.heard == ["player_joined", "turn_clocks"]
    assert ann.errors() == ben.errors() == [ErrorCode.UNKNOWN_ERROR] and audience.errors == [ErrorCode.UNKNOWN_ERROR]


# -- Talk -----------------------------------------------------------------------------------------

def test_talk_sends_chat_to_the_listeners_and_keeps_it_within_the_rate() -> None:
    """Issue 36: :class:`Talk` sends a chat line to the listening clients and keeps it for later
    ones; beyond the chat rate a line is refused and nothing is sent or kept; an unknown reaction
    is refused."""
    seats, (ann, ben) = _seated("Ann", "Ben")
    social: Social[Peer] = Social(clock=lambda: 0.0)
    talk = Talk(social, Broadcast(seats, social, Audience()), Game())
    social.subscribe(ben)
    for number in range(CHAT_BURST):
        talk.chat(ann, f"hello {number}")
    with pytest.raises(ProtocolError) as busy:
        talk.chat(ann, "one too many")
    assert busy.value.code == ErrorCode.SERVER_BUSY
    with pytest.raises(ProtocolError) as unknown:
        talk.react(ben, "boo")
    assert unknown.value.code == ErrorCode.INVALID_ACTION
    assert [line["text"] for line in _heard(ben, "chat_message")] == [f"hello {n}" for n in range(CHAT_BURST)]
    assert ann.events() == [], "Ann never sent table_sync"
    assert [line["text"] for line in talk.history()["messages"]] == [f"hello {n}" for n in range(CHAT_BURST)]
    assert not talk.sees_hands(ann), "no game: nobody sees every hand (R8.3)"


# -- Lobby ----------------------------------------------------------------------------------------

def _lobby(seats: Seats, game: Game) -> tuple[Lobby, Social[Peer], TableOptions, Watched]:
    social: Social[Peer] = Social()
    options = TableOptions(agent="random", hints=False)
    watched = Watched(seats)
    spectators = Spectators(4, watched)
    agents = SeatAgents(lambda kind, name: RandomAgent(name), AgentPool(1), 0.0, options, seats.followed)
    lobby = Lobby("t", 1000, info=seats.info, options=options, seats=seats, social=social,
                  broadcast=Broadcast(seats, social, spectators), spectators=spectators, agents=agents, game=game)
    return lobby, social, options, watched


def test_the_lobby_is_the_hosts_and_only_before_the_game() -> None:
    """Issue 36: :class:`Lobby` lets the host alone swap seats and change options, and only in the
    lobby; the host's own seat cannot move."""
    seats, (ann, ben) = _seated("Ann", "Ben")
    game = Game()
    lobby, _, options, _ = _lobby(seats, game)
    refusals = []
    attempts: list[Callable[[], None]] = [lambda: lobby.swap(ben, 0, 2), lambda: lobby.swap(ann, 0, 2),
                                          lambda: lobby.set_options(ann, agent="nobody")]
    for attempt in attempts:
        with pytest.raises(ProtocolError) as refused:
            attempt()
        refusals.append(refused.value.code)
    game.is_running = True
    with pytest.raises(ProtocolError) as running:
        lobby.set_options(ann, hints=True)
    assert refusals == [ErrorCode.NOT_LOBBY_HOST, ErrorCode.INVALID_ACTION, ErrorCode.INVALID_ACTION]
    assert running.value.code == ErrorCode.GAME_ALREADY_STARTED and not options.hints
    assert ann.events() == ben.events() == []


def test_the_lobby_keeps_readiness_until_the_terms_change() -> None:
    """Issue 36: readiness is shown to the listening clients (``lobby_state``); a change of the
    options makes everyone not ready, and everyone hears ``options_changed``; a ready person who
    leaves takes their readiness along."""
    seats, (ann, ben) = _seated("Ann", "Ben")
    lobby, social, options, watched = _lobby(seats, Game())
    lobby.sync(ann)
    lobby.set_ready(ben, True)
    assert [state["ready"] for state in _heard(ann, "lobby_state")] == [[False, None, None, None],
                                                                        [False, True, None, None]]
    lobby.set_options(ann, hints=True, target_score=500, spectators=False)
    assert options.hints and lobby.target_score == 500 and not social.ready(ben)
    assert _heard(ann, "lobby_state")[-1] == {"target_score": 500, "target_score_range": [100, 10000],
                                              "ready": [False, False, None, None]}
    assert ben.events() == ["lobby_state", "options_changed", "lobby_state"]
    assert watched.told == 1, "the spectators' option changed: the table's listeners hear of it"
    lobby.set_ready(ben, True)
    lobby.leave(ben)
    assert _heard(ann, "lobby_state")[-1]["ready"] == [False, None, None, None]


# -- IdleClocks -----------------------------------------------------------------------------------

def test_idle_clocks_tell_of_a_seat_handed_over_and_refuse_what_is_not_allowed() -> None:
    """Issue 36: :class:`IdleClocks` (every peer's watcher) tells everyone of a seat handed over or
    taken back, and the listening clients the clocks; only the host hands a seat over, only during
    a game; a seat not handed over cannot be taken back."""
    seats, (ann, ben) = _seated("Ann", "Ben")
    social: Social[Peer] = Social()
    game = Game()
    clocks = IdleClocks("t", seats.info, seats, Broadcast(seats, social, Audience()), game)
    social.subscribe(ann)
    ben.watcher = clocks
    ben.hand_over("timeout")
    assert clocks.handed_over_seats() == [1]
    assert _heard(ann, "seat_handed_over") == [{"player_index": 1, "player_name": "Ben", "reason": "timeout"}]
    assert ben.take_back() and clocks.handed_over_seats() == []
    assert ann.events() == ["seat_handed_over", "turn_clocks", "seat_taken_back", "turn_clocks"]
    assert ben.events() == ["seat_handed_over", "seat_taken_back"]
    codes = []
    for who, running in ((ben, True), (ann, False), (ann, True)):
        game.is_running = running
        with pytest.raises(ProtocolError) as refused:
            clocks.hand_over(who, 1)
        codes.append(refused.value.code)
    with pytest.raises(ProtocolError) as not_handed:
        clocks.take_back(ben)
    assert codes == [ErrorCode.NOT_LOBBY_HOST, ErrorCode.INVALID_ACTION, ErrorCode.INVALID_ACTION]
    assert not_handed.value.code == ErrorCode.INVALID_ACTION


# -- SeatAgents and Hints -------------------------------------------------------------------------

def test_seat_agents_are_of_the_tables_kind_and_paced_while_followed() -> None:
    """Issue 36: :class:`SeatAgents` makes the agents of the kind the options name now, stand-ins
    around them, and players paced while people follow the table."""
    made: list[tuple[str, str]] = []

    def factory(kind: str, name: str) -> Agent:
        made.append((kind, name))
        return RandomAgent(name)

    options = TableOptions(agent="random", hints=False)
    followed = [True]
    agents = SeatAgents(factory, AgentPool(1), 2.0, options, lambda: followed[0])
    options.agent = "rule"
    assert isinstance(agents.stand_in(2), StandIn) and made == [("rule", agent_name(2))]
    player = agents.player(agents.agent(3))
    assert isinstance(player, ServerAgent) and player.name == agent_name(3) and player.delay == 2.0


class _Ranker:
    """A hint ranker that must not be asked."""

    def hint(self, view: SeatView, legal: Sequence[Play]) -> list[Play]:
        raise AssertionError("no hint is ranked while hints are off")


async def test_hints_are_given_only_while_the_options_say_so() -> None:
    """Issue 36: :class:`Hints` asks its ranker only while the table gives hints."""
    hints = Hints(AgentPool(1), _Ranker(), TableOptions(agent="random", hints=False), "t")
    assert await hints.hint(SeatView.of(_Source(), 0), [PASS_PLAY]) is None


# -- the drawing ----------------------------------------------------------------------------------

def drawn_objects(text: str) -> set[tuple[str, str]]:
    """``(attribute, class)`` of every object the drawing in "A table's objects" names (its lines
    ``├─ name: Class`` or ``└─ name: Class``)."""
    section = text.split("## A table's objects", 1)[1].split("\n## ", 1)[0]
    drawing = section.split("```", 2)[1]
    return set(re.findall(r"[├└]─ (\w+): (\w+)", drawing))


def composed_objects() -> set[tuple[str, str]]:
    """``(attribute, class)`` of every object ``Table.__init__`` makes (``self.name = Class(...)``)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(table_module.Table.__init__)))
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        target = node.target if isinstance(node, ast.AnnAssign) else \
            node.targets[0] if isinstance(node, ast.Assign) else None
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
                and isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
            found.add((target.attr, value.func.id))
    return found


def test_the_drawing_names_exactly_the_objects_a_table_composes() -> None:
    """Issue 36: docs/architecture.md draws a table's objects; the drawing names exactly those
    ``Table.__init__`` makes, so the two cannot drift apart."""
    composed = composed_objects()
    assert {"seats", "broadcast", "lobby", "talk", "clocks", "session", "spectators"} <= {name for name, _ in composed}
    assert drawn_objects(ARCHITECTURE.read_text(encoding="utf-8")) == composed


def test_the_drawing_check_sees_a_missing_object() -> None:
    """Issue 36: the check fails for a drawing that leaves an object out."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    cut = re.sub(r"\n[^\n]*[├└]─ talk: Talk[^\n]*", "", text)
    assert cut != text and drawn_objects(cut) != composed_objects()

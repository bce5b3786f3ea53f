"""A seat belongs to a person by proof, not by name (docs/server.md, "Who a person is"): issue 33,
finding 1 (a departed person's seat taken by name alone; seat changes that lock a seat) and
finding 7 (``on_leave: "end"`` and a passer-by).

A person who left a running game comes back with their session id, even after ``leave``; a
name alone never receives a seat with a hand, and the record's seat changes stay bounded
whatever the joins and leaves, never refusing the rightful person.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.support.live_server import Message, eventually, read_table_records
from tests.support.raw_client import Client, Server, StartServer, is_event
from tichu.engine.player import Player
from tichu.records.parts import SeatChange
from tichu.server.tables import session as session_module
from tichu.server.tables.session import GameSession

NAME_TAKEN, GAME_ALREADY_STARTED, SESSION_EXPIRED = 204, 400, 200
#: Seconds a test waits at most for a state (a slow, loaded machine included).
DEADLINE = 60.0


def mid_trick_play(request: Message) -> bool:
    """A ``play`` request with a combination on the table (not a lead)."""
    return request["action"] == "play" and request["context"]["trick_combination"] is not None


async def started(server: Server, table: str, **options: Any) -> tuple[Client, Client, asyncio.Task[Message]]:
    """Anna (host, seat 0) and Ben (seat 1) start a game with ``options``; Anna plays on in a task,
    Ben stops at a ``play`` request mid-trick (his hand has cards)."""
    anna = await server.join("Anna", table, seed=1)
    ben = await server.join("Ben", table, seed=2)
    if options:
        await anna.send_type("set_options", **options)
        await ben.wait_event("options_changed", **options)
    await anna.send_type("start_game")
    hosting = asyncio.create_task(anna.play(timeout=DEADLINE * 2))
    await ben.play(until=None, hold=mid_trick_play, timeout=DEADLINE)
    return anna, ben, hosting


async def test_a_departed_persons_seat_is_not_given_by_name(start_server: StartServer) -> None:
    """Issue 33, finding 1: Ben leaves; a socket named ``ben`` gets no seat and no card of Ben's
    hand (``NAME_TAKEN``, at a closed and at an open table); the real Ben with his session id gets
    his seat back, his hand with it."""
    async with asyncio.timeout(DEADLINE * 2):
        server = await start_server()
        for table, newcomers in (("closed", False), ("open", True)):
            anna, ben, hosting = await started(server, table, **({"newcomers": True} if newcomers else {}))
            seat = ben.seat
            await ben.send_type("leave")
            await ben.wait_closed(timeout=DEADLINE)
            thief = await server.raw(f"table_name={table}&player_name=ben", name="thief")
            await thief.wait_closed(timeout=DEADLINE)
            [refusal] = thief.errors()
            assert refusal["code"] == NAME_TAKEN, refusal
            assert not [m for m in thief.messages if is_event(m, "player_joined")], "no seat for a name alone"
            assert server.table(table).peers[seat or 0] is None
            back = await server.reconnect(ben, seed=3)
            assert back.seat == seat and back.hand, "Ben has his seat and his hand back"
            assert server.table(table).peers[seat or 0] is not None
            await asyncio.gather(hosting, back.play(timeout=DEADLINE * 2))
            back.assert_clean()


async def test_a_newcomer_takes_a_seat_nobody_left_first(start_server: StartServer) -> None:
    """Issue 33, finding 1: at a table open to newcomers, a newcomer is seated where no person who
    left may come back; only a newcomer who takes Ben's seat (none other free) ends his claim:
    Ben then gets ``SESSION_EXPIRED``."""
    async with asyncio.timeout(DEADLINE * 2):
        server = await start_server()
        anna, ben, hosting = await started(server, "open", newcomers=True)
        seat = ben.seat
        await ben.send_type("leave")
        await ben.wait_closed(timeout=DEADLINE)
        carl = await server.join("Carl", "open", seed=4)
        dora = await server.join("Dora", "open", seed=5)
        assert seat not in (carl.seat, dora.seat)
        eve = await server.join("Eve", "open", seed=6)
        assert eve.seat == seat
        late = await server.raw(f"session_id={ben.session_id}", name="Ben")
        await late.wait_closed(timeout=DEADLINE)
        assert [error["code"] for error in late.errors()] == [SESSION_EXPIRED]
        hosting.cancel()


async def test_leaving_and_coming_back_never_locks_the_seat(start_server: StartServer,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33, finding 1: Ben leaves and comes back with his session id far more often than the
    record keeps seat changes: he always gets his seat back, and the record's ``seat_changes``
    stay within the bound (a return past it cancels his own leave)."""
    monkeypatch.setattr(session_module, "MAX_SEAT_CHANGES", 4, raising=False)
    async with asyncio.timeout(DEADLINE * 3):
        server = await start_server()
        anna, ben, hosting = await started(server, "loop")
        seat = ben.seat
        for cycle in range(12):
            await ben.send_type("leave")
            await ben.wait_closed(timeout=DEADLINE)
            ben = await server.reconnect(ben, seed=10 + cycle)
            assert ben.seat == seat
            assert len(server.table("loop").session.seat_changes) <= 4 + 1
        await asyncio.gather(hosting, ben.play(timeout=DEADLINE * 2))
        [record] = read_table_records(server, "loop")
        assert len(record.get("seat_changes", [])) <= 4 + 1


class _Table:
    """What a :class:`GameSession` holds of its table, for the pure tests of the record's changes."""

    def ended(self) -> None:
        """The game ended."""

    def failed(self) -> None:
        """The game failed."""


class _Occupant(Player):
    """A seat's occupant: a name and a kind."""

    def __init__(self, name: str, kind: str) -> None:
        super().__init__(name)
        self.kind = kind


def _session(table: _Table) -> GameSession:
    session = GameSession("t", table, None, on_ended=table.ended, on_failed=table.failed)  # type: ignore[arg-type]
    session.starters = [("Anna", "human"), ("Ben", "human"), ("agent 2", "agent:random"), ("agent 3", "agent:random")]
    return session


def _change(seat: int, event: int, name: str, kind: str, reason: str) -> SeatChange:
    return {"seat": seat, "round": 0, "event": event, "name": name, "kind": kind, "reason": reason}


def test_changes_with_nothing_played_between_coalesce() -> None:
    """Issue 33, finding 1: a leave and a return where nothing was played between leave no change;
    a newcomer taking the seat there stands alone for both."""
    table = _Table()
    session = _session(table)
    session._add_change(_change(1, 5, "agent 1", "agent:random", "left"))
    session._add_change(_change(1, 5, "Ben", "human", "joined"))
    assert session.seat_changes == []
    session._add_change(_change(1, 7, "agent 1", "agent:random", "left"))
    session._add_change(_change(1, 7, "Carl", "human", "joined"))
    assert session.seat_changes == [_change(1, 7, "Carl", "human", "joined")]
    session._add_change(_change(1, 9, "agent 1", "agent:random", "left"))
    assert len(session.seat_changes) == 2


def test_past_the_bound_a_return_cancels_the_leave(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 33, finding 1: at the bound, Ben's return (events played between) cancels his leave:
    the record never grows past the bound and one leave a seat."""
    monkeypatch.setattr(session_module, "MAX_SEAT_CHANGES", 2)
    table = _Table()
    session = _session(table)
    for event in range(0, 40, 2):
        session._add_change(_change(1, event, "agent 1", "agent:random", "left"))
        session._add_change(_change(1, event + 1, "Ben", "human", "joined"))
        assert len(session.seat_changes) <= 3
    assert [change["reason"] for change in session.seat_changes] == ["left", "joined"]


async def test_on_leave_end_counts_only_who_started(start_server: StartServer) -> None:
    """Issue 33, finding 7: with ``newcomers`` and ``on_leave: "end"``, a passer-by who joins and
    leaves does not end the game (an agent takes the seat); a starter's leave still does."""
    async with asyncio.timeout(DEADLINE * 2):
        server = await start_server()
        anna = await server.join("Anna", "end", seed=1)
        await anna.send_type("set_options", newcomers=True, on_leave="end")
        await anna.wait_event("options_changed", on_leave="end")
        await anna.send_type("start_game")
        hosting = asyncio.create_task(anna.play(until="game_ended_early", timeout=DEADLINE * 2))
        passer = await server.join("Passer", "end", seed=2)
        await passer.send_type("leave")
        await passer.wait_closed(timeout=DEADLINE)
        await anna.wait_event("player_left", player_name="Passer", timeout=DEADLINE)
        assert server.table("end").is_running and not anna.events("game_ended_early")
        hosting.cancel()
        await anna.send_type("leave")
        await eventually(lambda: not server.table("end").is_running, timeout=DEADLINE)
        [record] = read_table_records(server, "end", aborted=True)
        assert record["ended_by"] == {"seat": 0, "name": "Anna"}

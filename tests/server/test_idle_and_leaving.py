"""Leaving, idle seats and late joiners (docs/server.md, issue 23): the turn clock option and the
clocks every listening client sees, a seat handed to its agent after two timeouts in a row or by
the host after a long silence and taken back by its person, a game that ends when a person
leaves, and a table closed to newcomers once its game has started.

These are the server's half of the findings "An idle player stalls the table" and "A game
someone left is finished by agents and stored under the agents' names"; the records' and the
statistics' half is in ``tests/records/test_stats_and_rating.py``.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.support.checks import expect_refused
from tests.support.live_server import WAIT, Message, eventually, read_table_records
from tests.support.raw_client import GAME_WAIT, Server, StartServer, is_event, is_request
from tichu.records.record import replay
from tichu.server.tables import idle as idle_module
from tichu.server.tables import session as session_module

INVALID_MESSAGE, INVALID_ACTION, GAME_ALREADY_STARTED, NOT_LOBBY_HOST = 101, 300, 400, 401


def mid_trick_play(request: Message) -> bool:
    """A ``play`` request with a combination on the table (not a lead)."""
    return request["action"] == "play" and request["context"]["trick_combination"] is not None


def _prompted(server: Server, table: str, seat: int | None) -> bool:
    """Whether the rules core offers the seat its calls and bombs (as to an agent)."""
    engine = server.table(table).engine
    assert engine is not None and engine.state is not None and seat is not None
    return bool(engine.state.prompted[seat])


async def test_the_host_chooses_a_turn_clock_from_the_offered_ones(start_server: StartServer) -> None:
    """``turn_clock`` is one of 0, 30, 60, 120 (else 300 with the choices; not an integer: 101);
    everyone hears it in ``options_changed``, and the game's requests carry it as ``timeout``."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "clock", seed=1)
        guest = await server.join("Guest", "clock", seed=2)
        error = await expect_refused(server, host, "clock", {"type": "set_options", "payload": {"turn_clock": 45}},
                                     INVALID_ACTION)
        assert error["context"]["turn_clocks"] == [0, 30, 60, 120]
        await expect_refused(server, host, "clock", {"type": "set_options", "payload": {"turn_clock": "30"}},
                             INVALID_MESSAGE)
        await expect_refused(server, host, "clock", {"type": "set_options", "payload": {"on_leave": "vanish"}},
                             INVALID_ACTION)
        await expect_refused(server, guest, "clock", {"type": "set_options", "payload": {"turn_clock": 30}},
                             NOT_LOBBY_HOST)
        await host.send_type("set_options", turn_clock=30, on_leave="end", newcomers=True)
        heard = await guest.wait_event("options_changed", turn_clock=30)
        assert heard["on_leave"] == "end" and heard["newcomers"] is True
        await host.send_type("start_game")
        request = (await guest.play(until=None, hold=lambda request: True))["payload"]
        assert request["timeout"] == 30


async def test_two_timeouts_in_a_row_hand_the_seat_to_an_agent_until_its_person_acts(
        start_server: StartServer) -> None:
    """Idle Ida: her clock runs out twice in a row, her seat goes to her agent
    (``seat_handed_over``, reason ``timeout``), and she gets no request while it plays for her;
    the others saw her clock count (``turn_clocks`` with her seat and the seconds left).
    ``take_back`` gives her the seat back (``seat_taken_back``); she finishes the game."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(turn_timeout=0.3)
        ida = await server.join("Ida", "idle", seed=1)
        ben = await server.join("Ben", "idle", seed=2)
        for client in (ida, ben):
            await client.send_type("table_sync")
        await ida.send_type("start_game")
        benning = asyncio.create_task(ben.play())
        handed = await ben.wait_event("seat_handed_over", player_index=ida.seat, timeout=GAME_WAIT)
        assert handed == {"player_index": ida.seat, "player_name": "Ida", "reason": "timeout"}
        clocks = [clock for context in ben.events("turn_clocks") for clock in context["clocks"]
                  if clock["player_index"] == ida.seat]
        assert clocks and all(clock["seconds_left"] is not None and clock["seconds_left"] <= 0.3 for clock in clocks)
        assert len([m for m in ida.messages if is_event(m, "seat_handed_over")]) == 1
        assert _prompted(server, "idle", ida.seat), "her agent is offered the calls and bombs"
        spectator = await server.raw("table_name=idle&spectate=1", name="watcher")
        _, started = await spectator.wait_for(lambda m: is_event(m, "spectate_started"))
        assert started["payload"]["context"]["public_state"]["agent_plays_for"] == [ida.seat]
        mark = len(ida.messages)
        await ben.wait_for(lambda m: is_event(m, "player_played") and m["payload"]["context"]["turn"][0] == ida.seat,
                           timeout=GAME_WAIT)
        assert not [m for m in ida.messages[mark:] if is_request(m)], "a handed-over seat is asked nothing"
        await ida.send_type("take_back")
        await ben.wait_event("seat_taken_back", player_index=ida.seat, player_name="Ida")
        assert not _prompted(server, "idle", ida.seat), "she calls and bombs by herself again"
        await ida.play()
        await benning
        assert not [m for m in ida.events("seat_handed_over")[1:]], "she answered in time after taking it back"
        [record] = read_table_records(server, "idle")
        assert "seat_changes" not in record, "the seat stayed hers: she let the agent play some turns"
        assert record["players"][ida.seat or 0] == {"name": "Ida", "kind": "human"}
        assert replay(record) is None


async def test_take_back_of_a_seat_that_is_not_handed_over_is_refused(start_server: StartServer) -> None:
    """``take_back`` when the seat is one's own already: 300, nothing changes."""
    server = await start_server()
    host = await server.join("Host", "t")
    await expect_refused(server, host, "t", {"type": "take_back"}, INVALID_ACTION)


async def test_the_host_hands_a_silent_seat_to_an_agent(start_server: StartServer,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a clock, Ben walks away with a request open: before the silence is long enough the
    host's ``hand_over`` is refused (300 with ``waited``), as it is from a guest (401) and for an
    agent's seat (300); after it, the seat goes to Ben's agent (reason ``host``): Ben's request is
    cancelled and answered by the agent, and he is asked nothing until he takes the seat back."""
    monkeypatch.setattr(idle_module, "HAND_OVER_AFTER", 0.5)
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "walk", seed=1)
        ben = await server.join("Ben", "walk", seed=2)
        await host.send_type("start_game")
        hosting = asyncio.create_task(host.play(until=None))
        held = (await ben.play(until=None, hold=mid_trick_play))["payload"]
        hosting.cancel()  # the game waits for Ben now: nothing for the host to answer
        await asyncio.gather(hosting, return_exceptions=True)
        error = await host.expect_error({"type": "hand_over", "payload": {"player_index": ben.seat}}, INVALID_ACTION)
        assert error["context"]["waited"] is not None and error["context"]["waited"] < 0.5
        await ben.expect_error({"type": "hand_over", "payload": {"player_index": host.seat}}, NOT_LOBBY_HOST)
        await host.expect_error({"type": "hand_over", "payload": {"player_index": 3}}, INVALID_ACTION)
        await asyncio.sleep(0.5)  # the silence the rule asks for, then the host may act
        await host.send_type("hand_over", player_index=ben.seat)
        handed = await host.wait_event("seat_handed_over")
        assert handed == {"player_index": ben.seat, "player_name": "Ben", "reason": "host"}
        await ben.wait_event("request_cancelled", request_id=held["request_id"])
        told = [m["payload"]["event"] for m in ben.messages
                if is_event(m, "seat_handed_over") or is_event(m, "request_cancelled")]
        assert told == ["seat_handed_over", "request_cancelled"], \
            f"issue 35, finding 6: Ben's page reads the cancellation by the hand-over told before it: {told}"
        mark = len(ben.messages)
        hosting = asyncio.create_task(host.play())
        for _ in range(2):  # the agent answers the cancelled request, then Ben's next turn
            mark = 1 + (await ben.wait_for(lambda m: is_event(m, "player_turn_changed", current_turn_index=ben.seat),
                                           start=mark))[0]
        acted, _ = await ben.wait_for(lambda m: is_event(m, "player_passed", player_index=ben.seat) or (
            is_event(m, "player_played") and m["payload"]["context"]["turn"][0] == ben.seat), start=mark)
        assert not [m for m in ben.messages[mark - 1:acted] if is_request(m)], "a handed-over seat is asked nothing"
        await ben.send_type("take_back")
        await host.wait_event("seat_taken_back", player_index=ben.seat)
        await asyncio.gather(hosting, ben.play())
        ben.assert_clean()


async def test_a_person_leaving_ends_the_game_when_the_host_chose_so(start_server: StartServer) -> None:
    """``on_leave: "end"``: Guest leaves mid-game; everyone hears ``game_ended_early``, the table is
    back in its lobby, and the game is stored as ended early by Guest, Guest named on the seat."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "end", seed=1)
        guest = await server.join("Guest", "end", seed=2)
        await host.send_type("set_options", on_leave="end")
        await guest.wait_event("options_changed", on_leave="end")
        await host.send_type("start_game")
        hosting = asyncio.create_task(host.play(until="game_ended_early"))
        await guest.play(until=None, hold=mid_trick_play)
        await guest.send_type("leave")
        ended = (await hosting)["payload"]["context"]
        assert ended == {"player_index": guest.seat, "player_name": "Guest"}
        await host.wait_event("player_left", player_index=guest.seat)
        await eventually(lambda: not server.table("end").is_running)
        [record] = read_table_records(server, "end", aborted=True)
        assert record["aborted"] is True and record["winner"] is None
        assert record["ended_by"] == {"seat": guest.seat, "name": "Guest"}
        assert record["players"][guest.seat or 0] == {"name": "Guest", "kind": "human"}
        assert "seat_changes" not in record
        await host.send_type("start_game")  # the lobby works: a new game starts
        await host.wait_event("game_started", start=len(host.messages) - 1, timeout=WAIT)


async def test_a_running_table_is_closed_to_newcomers_but_not_to_who_left(start_server: StartServer) -> None:
    """By default a newcomer cannot take an agent's seat in a running game (400 with
    ``spectate``, then closed); Guest, who left, takes her own seat back with her session id
    (issue 33: never by her name alone). The record names Guest on her seat, the agent that
    played it between, and where each change happened."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "closed", seed=1)
        guest = await server.join("Guest", "closed", seed=2)
        await host.send_type("start_game")
        hosting = asyncio.create_task(host.play())
        await guest.play(until=None, hold=mid_trick_play)
        seat = guest.seat
        await guest.send_type("leave")
        await guest.wait_closed()
        stranger = await server.raw("table_name=closed&player_name=Nina", name="Nina")
        await stranger.wait_closed()
        [refusal] = stranger.errors()
        assert refusal["code"] == GAME_ALREADY_STARTED and refusal["context"]["spectate"] is True
        back = await server.reconnect(guest, seed=3)
        assert back.seat == seat
        await asyncio.gather(hosting, back.play())
        [record] = read_table_records(server, "closed")
        assert record["players"][seat or 0] == {"name": "Guest", "kind": "human"}
        changes = record.get("seat_changes", [])
        if changes:  # none when nothing was played between her leave and her return (issue 33)
            assert [(change["seat"], change["reason"]) for change in changes] == [(seat, "left"), (seat, "joined")]
            assert changes[0]["kind"].startswith("agent:") and changes[1]["name"] == "Guest"
            assert (changes[0]["round"], changes[0]["event"]) < (changes[1]["round"], changes[1]["event"])
        assert replay(record) is None


async def test_the_seat_changes_of_a_game_are_bounded(start_server: StartServer,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Newcomers cannot grow the game's record without bound: past ``MAX_SEAT_CHANGES`` a
    newcomer's join is refused (400), nothing changes; the person who left is never refused
    (issue 33, finding 1): her return cancels her leave in the record."""
    monkeypatch.setattr(session_module, "MAX_SEAT_CHANGES", 2)
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        host = await server.join("Host", "loop", seed=1)
        guest = await server.join("Guest", "loop", seed=2)
        await host.send_type("set_options", newcomers=True)
        await guest.wait_event("options_changed", newcomers=True)
        await host.send_type("start_game")
        hosting = asyncio.create_task(host.play())
        await guest.play(until=None, hold=mid_trick_play)
        await guest.send_type("leave")  # change 1
        await guest.wait_closed()
        nina = await server.join("Nina", "loop", seed=3)  # change 2: an agent's seat, not Guest's
        assert nina.seat not in (host.seat, guest.seat)
        refused = await server.raw("table_name=loop&player_name=Otto", name="Otto")
        await refused.wait_closed()
        [error] = refused.errors()
        assert error["code"] == GAME_ALREADY_STARTED and "2 times" in error["message"]
        back = await server.reconnect(guest, seed=4)
        assert back.seat == guest.seat
        await asyncio.gather(hosting, back.play(), nina.play())
        [record] = read_table_records(server, "loop")
        assert [(change["name"], change["reason"]) for change in record["seat_changes"]] == [("Nina", "joined")]

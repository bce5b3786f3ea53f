"""Another line (docs/server.md, "Another line"; issue 35): a stored game's round played on from
one of its steps by a person against the table's agents, then over, with nothing stored."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest

from tests.support.cards import card_set, labels_set
from tests.support.live_server import Message
from tests.support.raw_client import GAME_WAIT, Server, StartServer
from tichu.arena.arena import Arena
from tichu.records.positions import position_after
from tichu.records.steps import record_steps
from tichu.server.keys import FACTORY, STORE
from tichu.server.tables.lines import LINE_PREFIX, Line, PendingLines

Record = dict[str, Any]
GAME_ALREADY_STARTED = 400


@pytest.fixture(scope="module")
def record() -> Record:
    found: list[Record] = []
    Arena(["random", "rule", "random", "rule"], games=1, seed=23, workers=1, target_score=300,
          records=True).run(on_record=found.append)
    return found[0]


async def _post(server: Server, game_id: str, body: object) -> tuple[int, Message]:
    async with aiohttp.ClientSession() as session, \
            session.post(f"{server.url}api/games/{game_id}/lines", json=body) as response:
        return response.status, await response.json()


async def _stored(start_server: StartServer, record: Record) -> Server:
    server = await start_server()
    assert await server.app[STORE].read(lambda games: games.archive.add(record))
    return server


async def test_a_person_plays_a_round_on_from_a_step_and_it_ends_there(start_server: StartServer,
                                                                       record: Record) -> None:
    """After a play in the second round whose next decision is seat 1's, Lena asks for a line as
    seat 1 and joins its table: she holds seat 1's hand of that step, the trick and the calls are
    the step's, the score is that of the rounds before, and she is asked for her play. The round
    is played to its end (R7) and then ``line_over``; no next round is dealt, no game is over and
    nothing is stored."""
    steps, _ = record_steps(record)
    step = next(index for index, made in enumerate(steps)
                if made["round"] == 1 and made["kind"] == "play" and made["turn"] == 1 and made["trick"] > 2)
    async with asyncio.timeout(GAME_WAIT):
        server = await _stored(start_server, record)
        status, answer = await _post(server, record["id"], {"after_step": step, "seat": 1})
        assert status == 201 and answer["table_name"].startswith(LINE_PREFIX), answer
        lena = await server.join("Lena", answer["table_name"], seed=3)
        assert lena.seat == 1
        [joined] = [context for context in lena.events("player_joined") if "session_id" in context]
        public, private = joined["public_state"], joined["private_state"]
        assert public["is_running"] and public["round_index"] == 1 and public["phase"] == "playing"
        assert public["total"] == steps[step]["score"] and public["announcements"] == steps[step]["calls"]
        assert card_set(private["hand_cards"]) == labels_set(" ".join(steps[step]["hands"][1]))
        over = (await lena.play(until="line_over"))["payload"]["context"]
        assert over == {"game_id": record["id"], "step": step, "seat": 1}
        assert len(lena.events("round_over")) == 1 and not lena.events("round_started")
        assert not lena.events("game_over") and not lena.events("game_started")
        assert server.all_records() == [record], "a line is practice: nothing stored"
        lena.assert_clean()



async def test_a_line_from_the_deal_asks_the_grand_tichu_first(start_server: StartServer, record: Record) -> None:
    """From a round's deal the person is asked for Grand Tichu on the step's eight cards (R2.1)."""
    steps, _ = record_steps(record)
    step = next(index for index, made in enumerate(steps) if made["round"] == 1 and made["kind"] == "deal")
    server = await _stored(start_server, record)
    status, answer = await _post(server, record["id"], {"after_step": step, "seat": 2})
    assert status == 201
    mia = await server.join("Mia", answer["table_name"], seed=4)
    _, request = await mia.wait_for(lambda m: m.get("type") == "request")
    assert request["payload"]["action"] == "announce_grand_tichu"
    assert card_set(request["payload"]["context"]["hand_cards"]) == labels_set(" ".join(steps[step]["hands"][2]))


async def test_a_line_is_played_once_and_refused_where_there_is_none(start_server: StartServer,
                                                                     record: Record) -> None:
    """A second person at a line's table is a newcomer at a running table (400); a body that is not
    ``{after_step, seat}`` 400, an unknown game 404, a step past the record or at a round's end 422.
    None of them leaves a line waiting."""
    steps, _ = record_steps(record)
    server = await _stored(start_server, record)
    status, answer = await _post(server, record["id"], {"after_step": 5, "seat": 0})
    await server.join("Ann", answer["table_name"])
    stranger = await server.raw(f"table_name={answer['table_name']}&player_name=Ben", name="Ben")
    await stranger.wait_closed()
    assert [error["code"] for error in stranger.errors()] == [GAME_ALREADY_STARTED]
    end = next(index for index, made in enumerate(steps) if made["kind"] == "round_end")
    for body, expected in (([1], 400), ({"after_step": -1, "seat": 0}, 400), ({"after_step": 1, "seat": 4}, 400),
                           ({"after_step": True, "seat": 0}, 400), ({"after_step": len(steps), "seat": 0}, 422),
                           ({"after_step": end, "seat": 0}, 422)):
        status, error = await _post(server, record["id"], body)
        assert status == expected, (body, error)
    assert (await _post(server, "nope", {"after_step": 1, "seat": 0}))[0] == 404
    assert len(server.app[FACTORY].lines) == 0


def test_pending_lines_are_bounded_in_number_and_age(record: Record) -> None:
    """At most ``limit`` lines wait (the oldest goes), each ``ttl`` seconds; a line is taken once."""
    now = [0.0]
    lines = PendingLines(limit=2, ttl=10.0, clock=lambda: now[0])
    line = Line(record["id"], 0, position_after(record, 3))
    first, second = lines.add(line), lines.add(line)
    third = lines.add(line)
    assert len(lines) == 2 and lines.take(first) is None
    assert lines.take(second) is line and lines.take(second) is None
    now[0] = 10.5
    assert lines.take(third) is None and len(lines) == 0

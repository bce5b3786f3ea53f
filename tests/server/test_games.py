"""Whole games over real WebSockets (protocol.md "Messages", "Notifications"; rules R7.4)."""

from __future__ import annotations

import asyncio

from tests.support.checks import check_combinations, check_requests
from tests.support.extras import require
from tests.support.live_server import Message, read_table_records
from tests.support.raw_client import GAME_WAIT, Client, StartServer
from tichu.records.record import replay


def check_game_over(clients: list[Client], game_over: list[Message]) -> None:
    """Every client saw the same ``game_over``, consistent with its ``round_over`` notifications (R7.3, R7.4)."""
    first = game_over[0]
    assert all(other == first for other in game_over), game_over
    scores, total = first["game_score"], first["total"]
    assert len(scores) == 2 and len(scores[0]) == len(scores[1]) >= 1
    assert total == [sum(scores[0]), sum(scores[1])]
    assert max(total) >= 200 and total[0] != total[1]
    assert first["winner"] == (20 if total[0] > total[1] else 31)
    for client in clients:
        rounds = client.events("round_over")
        assert [r["points"] for r in rounds] == [list(pair) for pair in zip(scores[0], scores[1])]
        running = [0, 0]
        for result in rounds:
            cards, bonus, points = result["card_points"], result["bonus"], result["points"]
            assert points == [cards[0] + bonus[0], cards[1] + bonus[1]]
            running = [running[0] + points[0], running[1] + points[1]]
            assert result["total"] == running
            if result["is_double_victory"]:  # R7.1
                assert sorted(cards) == [0, 200] and len(result["out_order"]) == 2
            else:  # R7.2
                assert sum(cards) == 100 and len(result["out_order"]) == 3
            assert len(set(result["out_order"])) == len(result["out_order"])
        client.assert_clean()
        assert check_requests(client) > 0
        check_combinations(client)


async def test_one_client_and_three_agents_play_a_whole_game(start_server: StartServer) -> None:
    """One client seat and three agents play to ``game_over`` (protocol.md: ``start_game``, empty
    seats are played by agents); the record names one human and three agents."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        anna = await server.join("Anna", "solo")
        await anna.send_type("start_game")
        game_over = await anna.play()
        check_game_over([anna], [game_over["payload"]["context"]])
        assert anna.events("game_started") == [{"public_delta": {"is_running": True}}]  # Issue 36: the state sent
        [record] = read_table_records(server, "solo")
        assert [p["kind"] for p in record["players"]] == ["human", "agent:random", "agent:random", "agent:random"]
        assert record["score"] == game_over["payload"]["context"]["total"]
        assert replay(record) is None


async def test_a_policy_for_the_learning_environment_fills_the_empty_seats(start_server: StartServer) -> None:
    """``TICHU_AGENT=policy:package.module:factory`` (docs/learning.md): the server's agents in
    empty seats play the policy over the learning agents' action catalogue, through the agent
    pool like any agent, to ``game_over``."""
    require("numpy", "learn")
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(agent="policy:tichu.agents.learning.policy_agent:random_policy")
        anna = await server.join("Anna", "policy")
        await anna.send_type("start_game")
        game_over = await anna.play()
        check_game_over([anna], [game_over["payload"]["context"]])
        [record] = read_table_records(server, "policy")
        assert [p["kind"] for p in record["players"]] == ["human"] + ["agent:policy"] * 3
        assert replay(record) is None


async def test_four_clients_play_a_whole_game(start_server: StartServer) -> None:
    """Four client seats (no agent) play to ``game_over``; every seat gets the same result."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server()
        clients = [await server.join(name, "full", seed=seat) for seat, name in enumerate(["A", "B", "C", "D"])]
        assert [c.seat for c in clients] == [0, 1, 2, 3]
        await clients[0].send_type("start_game")
        results = await asyncio.gather(*(client.play() for client in clients))
        check_game_over(clients, [result["payload"]["context"] for result in results])
        [record] = read_table_records(server, "full")
        assert [p["kind"] for p in record["players"]] == ["human"] * 4
        assert [p["name"] for p in record["players"]] == ["A", "B", "C", "D"]
        assert replay(record) is None

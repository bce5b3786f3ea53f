"""No seat ever receives another seat's hand cards (R8.1, R8.2, R8.3; protocol.md "Notifications").

Every message sent to every client seat during whole games is checked against the game
record the server wrote (records.md: the deal, the push and the plays of each round).
"""

from __future__ import annotations

import asyncio

from tests.support.checks import check_combinations, check_requests, check_seat_messages
from tests.support.live_server import read_table_records
from tests.support.raw_client import GAME_WAIT, StartServer


async def test_no_seat_receives_another_seats_cards(start_server: StartServer) -> None:
    """Two whole games, one with four client seats and one with two clients and two agents,
    run at once; every message each client received holds only its own hand cards (R8.2),
    ``hands_revealed`` only once it is out (R8.3), and plays carry only the played cards (with
    well-formed combinations, a Phoenix single ranked x.5, R3.6)."""
    async with asyncio.timeout(GAME_WAIT):
        server = await start_server(target_score=400, seed=11)
        four = [await server.join(f"P{seat}", "four", seed=seat) for seat in range(4)]
        two = [await server.join(f"Q{seat}", "two", seed=10 + seat) for seat in range(2)]
        await two[0].send_type("swap_players", player_index_1=1, player_index_2=2)  # clients at 0 and 2
        await two[1].wait_event("players_swapped")
        for host in (four[0], two[0]):
            await host.send_type("start_game")
        await asyncio.gather(*(client.play() for client in four + two))
        revealed = phoenixes = 0
        for table, clients in (("four", four), ("two", two)):
            [record] = read_table_records(server, table)
            for client in clients:
                client.assert_clean()
                assert check_requests(client) > 0
                phoenixes += check_combinations(client)
                revealed += check_seat_messages(client, record)
        assert [client.seat for client in two] == [0, 2]
        assert revealed > 0  # the R8.3 path was exercised
        assert phoenixes > 0  # and the x.5 rank of a Phoenix single

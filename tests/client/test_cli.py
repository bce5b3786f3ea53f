"""The command line (``tichu-client``) as a subprocess against a scripted fake server."""

from __future__ import annotations

import asyncio
import sys

from tests.client.conftest import HAND, FakeSeat, FakeServer, joined


async def _start_cli(*args: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tichu.cli.client", *args,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)


async def _run_cli(*args: str) -> tuple[int, str]:
    process = await _start_cli(*args)
    output, _ = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode is not None
    return process.returncode, output.decode()


async def test_cli_bot_plays_until_game_over(server: FakeServer) -> None:
    async def script(seat: FakeSeat) -> None:
        assert seat.query == {"player_name": "Bot", "table_name": "t"}
        await seat.notify("player_joined", **joined())
        await seat.request({"request_id": "g", "action": "announce_grand_tichu", "timeout": None,
                            "context": {"hand_cards": HAND[:8]}})
        assert (await seat.next("response"))["payload"]["request_id"] == "g"
        await seat.notify("game_over", game_score=[[0], [0]], total=[0, 0], winner=20)
        await seat.next("leave")

    server.scripts.append(script)
    status, output = await _run_cli("--port", str(server.port), "--name", "Bot", "--table", "t",
                                    "--agent", "random", "--seed", "1")
    assert status == 0 and "seat 0, 1 game(s) over" in output


async def test_cli_interactive_reads_stdin(server: FakeServer) -> None:
    async def script(seat: FakeSeat) -> None:
        await seat.notify("player_joined", **joined())
        await seat.request({"request_id": "g", "action": "announce_grand_tichu", "timeout": None,
                            "context": {"hand_cards": HAND[:8]}})
        response = (await seat.next("response"))["payload"]
        assert response["response_data"] == {"announced": True}
        await seat.notify("game_over", game_score=[[0], [0]], total=[0, 0], winner=20)
        await seat.next("leave")

    server.scripts.append(script)
    process = await _start_cli("--port", str(server.port), "--name", "Anna", "--table", "t")
    assert process.stdin is not None and process.stdout is not None
    shown: list[str] = []
    async with asyncio.timeout(20):
        while not shown or not shown[-1].startswith("> Grand Tichu? (yes/no)"):
            shown.append((await process.stdout.readline()).decode().rstrip("\n"))
        process.stdin.write(b"maybe\nyes\n")  # stdin stays open: its end would leave the table
        await process.stdin.drain()
        output, _ = await process.communicate()
    assert process.returncode == 0, output
    assert "! not understood: 'maybe'" in output.decode() and "Game over: team 20 wins" in output.decode()


async def test_cli_interactive_waits_for_the_seat_before_reading_stdin(server: FakeServer) -> None:
    """An input that ends before the server answered the join does not leave the table: the
    server's refusal still reaches the player, one line and exit status 1 (the client quit at the
    end of its input and reported a closed connection instead)."""
    input_ended = asyncio.Event()

    async def script(seat: FakeSeat) -> None:
        await input_ended.wait()
        await seat.quiet()
        await seat.error(404, "unknown session")

    server.scripts.append(script)
    process = await _start_cli("--port", str(server.port), "--session-id", "00000000-0000-4000-8000-000000000000")
    assert process.stdin is not None
    process.stdin.close()
    input_ended.set()
    output, _ = await asyncio.wait_for(process.communicate(), 20)
    assert process.returncode == 1, output
    assert "refused by the server: unknown session (code 404)" in output.decode(), output


async def test_cli_reports_a_failed_connection() -> None:
    status, output = await _run_cli("--port", "1", "--name", "Anna", "--table", "t", "--agent", "random")
    assert status == 1 and "cannot connect" in output
    status, output = await _run_cli("--name", "Anna")
    assert status == 2 and "give --name and --table" in output

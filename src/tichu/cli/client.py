"""Join a Tichu table over WebSocket: as a bot (--agent random) or interactively.

Examples: ``tichu-client --name Anna --table home`` (type ``help`` once connected),
``tichu-client --name Bot --table home --agent random --think 0.2 --start --games 2``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import AsyncGenerator

import aiohttp

from tichu.cli.arguments import integer, number, port
from tichu.cli.errors import CommandError, CommandParser, run_command
from tichu.client.bots import RandomBrain
from tichu.client.connection import TableClient, run_bot
from tichu.client.console import ConsoleBrain
from tichu.client.messages import error_of


def parser() -> CommandParser:
    """The command line's parser."""
    parser = CommandParser("tichu-client", __doc__)
    parser.add_argument("--host", default="127.0.0.1", help="server host (default 127.0.0.1)")
    parser.add_argument("--port", type=port, default=8080, help="server port, 1..65535 (default 8080)")
    parser.add_argument("--name", help="your name at the table")
    parser.add_argument("--table", help="the table to join (opened if it does not exist)")
    parser.add_argument("--session-id", help="rejoin this session instead of joining by name")
    parser.add_argument("--agent", choices=["random"], help="play as a bot; without it you play at the terminal")
    parser.add_argument("--seed", type=int, default=None, help="seed of the random agent")
    parser.add_argument("--think", type=number(0, 60), default=0.0,
                        help="seconds the agent waits before answering, 0..60")
    parser.add_argument("--start", action="store_true", help="as host, start the game once --clients are seated")
    parser.add_argument("--clients", type=integer(1, 4), default=1, help="clients to wait for with --start (default 1)")
    parser.add_argument("--games", type=integer(0), default=1, help="leave after this many games; 0: stay (default 1)")
    parser.add_argument("--verbose", action="store_true", help="log the client's warnings and details")
    return parser


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line.

    :param argv: The arguments (default: ``sys.argv[1:]``).
    :returns: The options.
    """
    command = parser()
    args = command.parse_args(argv)
    _check(command, args)
    return args


def _check(command: CommandParser, args: argparse.Namespace) -> None:
    """A first join needs a name and a table; a rejoin the session id."""
    if args.session_id is None and not (args.name and args.table):
        command.error("give --name and --table, or --session-id")


async def stdin_lines() -> AsyncGenerator[str, None]:
    """Yield the lines of stdin without blocking the event loop, until end of input.

    A terminal or a pipe is watched with ``loop.add_reader``; where that is not possible
    (a regular file, Windows) lines are read in the default executor.
    """
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue()
    fd = sys.stdin.fileno()
    try:
        loop.add_reader(fd, lambda: chunks.put_nowait(os.read(fd, 4096)))
    except (NotImplementedError, OSError):
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            yield line
        return
    try:
        pending = b""
        while chunk := await chunks.get():
            *lines, pending = (pending + chunk).split(b"\n")
            for line_bytes in lines:
                yield line_bytes.decode("utf-8", "replace")
        if pending:
            yield pending.decode("utf-8", "replace")
    finally:
        loop.remove_reader(fd)


async def read_commands(brain: ConsoleBrain, client: TableClient) -> None:
    """Feed the typed lines to the brain until ``quit`` or end of input (which leaves too).

    Nothing is read before the server gave the seat: a line typed (or an input that ends)
    before would leave a table not yet joined, and a refusal would be lost.
    """
    try:
        await client.wait_for(lambda _: client.player_index is not None)
    except ConnectionError:
        return
    async with contextlib.aclosing(stdin_lines()) as lines:
        async for line in lines:
            if not await brain.handle_line(client, line):
                return
    await brain.handle_line(client, "quit")


async def play_interactive(args: argparse.Namespace) -> TableClient:
    """Play at the terminal: print the table and events, answer from stdin.

    :param args: The options.
    :returns: The closed client.
    """
    brain = ConsoleBrain()
    client = TableClient(brain)
    await client.connect(args.host, args.port, player_name=args.name, table_name=args.table,
                         session_id=args.session_id)
    print("Connected; type help for the commands.")
    tasks = {asyncio.create_task(client.run(games=args.games or None, start_when=_start_when(args))),
             asyncio.create_task(read_commands(brain, client))}
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await client.finish()
    return client


def _start_when(args: argparse.Namespace) -> int | None:
    return args.clients if args.start else None


async def play(args: argparse.Namespace) -> TableClient:
    """Play as the chosen agent, or interactively without one."""
    if args.agent is None:
        return await play_interactive(args)
    return await run_bot(args.host, args.port, args.name, args.table, brain=RandomBrain(args.seed, args.think),
                         session_id=args.session_id, start_when=_start_when(args), games=args.games or None)


def summary(client: TableClient) -> str:
    """One line about a finished session: seat, games, messages, close code and session."""
    return (f"seat {client.player_index}, {client.games_over} game(s) over, {len(client.received)} messages "
            f"received, {len(client.sent)} sent, close code {client.close_code}, session {client.session_id}")


def refusal(client: TableClient) -> str | None:
    """Why the server refused the client a seat (its last error), or ``None`` if it was seated.

    A server that refuses a join (a full table, a taken name, an expired session) sends an
    ``error`` and closes (protocol.md, "Connecting"); the client then never had a seat.
    """
    if client.player_index is not None:
        return None
    errors = [error for error in (error_of(entry.message) for entry in client.received) if error is not None]
    if not errors:
        return f"the server closed the connection before a seat was taken (close code {client.close_code})"
    last = errors[-1]
    message = last["message"]
    details = [f"{key}={value}" for key, value in last["context"].items() if str(value) not in message]
    return f"refused by the server: {message} (code {last['code']}{''.join(', ' + item for item in details)})"


def main(argv: list[str] | None = None) -> int:
    """Run the client; the exit status is 1 when the connection failed or the server refused a seat."""
    command = parser()

    def body(args: argparse.Namespace) -> int:
        _check(command, args)
        return connect_and_play(args)

    return run_command(command, argv, body)


def connect_and_play(args: argparse.Namespace) -> int:
    """Play; print the session's summary, or why there was none."""
    logging.basicConfig(level=logging.INFO if args.verbose else logging.ERROR, format="%(levelname)s %(message)s")
    try:
        client = asyncio.run(play(args))
    except (aiohttp.ClientError, OSError) as error:
        raise CommandError(f"cannot connect to {args.host}:{args.port}: {error}") from error
    refused = refusal(client)
    if refused is not None:
        raise CommandError(refused)
    print(summary(client))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Start the Tichu server: the browser client at ``/`` and the WebSocket at ``/ws``.

Settings come from the environment and ``.env`` (see ``.env.example``); ``--host`` and
``--port`` override them. Stop with Ctrl+C (or SIGTERM): open games are told
``SERVER_DOWN`` and their records are written.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys

import tichu
from tichu.cli.arguments import port
from tichu.cli.errors import USAGE, CommandError, CommandParser, run_command
from tichu.server.config import Settings
from tichu.server.run import run


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and serve until stopped; 2 for a bad argument or setting, 1 if the
    server cannot start (one line each)."""
    parser = CommandParser("tichu-server", __doc__)
    parser.add_argument("--host", help="address to listen on (default: TICHU_HOST or 0.0.0.0)")
    parser.add_argument("--port", type=port, help="port to listen on, 1..65535 (default: TICHU_PORT or 8080)")
    parser.add_argument("--version", action="version", version=f"%(prog)s {tichu.__version__}")
    return run_command(parser, argv, serve)


def serve(args: argparse.Namespace) -> int:
    """Serve with the settings of the environment, ``--host`` and ``--port`` over them.

    :raises CommandError: With exit status 2 for a setting of the environment or ``.env`` that
        does not fit (named by the message), before anything starts.
    """
    try:
        settings = Settings.load()
    except ValueError as error:
        raise CommandError(f"bad setting: {error}", USAGE) from error
    overrides = {key: value for key, value in (("host", args.host), ("port", args.port)) if value is not None}
    run(dataclasses.replace(settings, **overrides))
    return 0


if __name__ == "__main__":
    sys.exit(main())

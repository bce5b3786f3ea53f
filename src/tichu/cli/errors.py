"""How every command fails: one line on stderr naming the problem, and the exit status.

A bad argument is the parser's business (:class:`CommandParser`): one line and exit status 2,
with the usage left to ``--help``. A failure while the command runs is one line and exit
status 1 (:func:`run_command`), or the status a :class:`CommandError` carries. A traceback is
for the developer, not the user: only ``--debug``, which every command accepts, shows it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import NoReturn

#: Exit status of a bad argument (argparse's).
USAGE = 2

#: Exit status of a failure while the command runs.
FAILURE = 1

#: Exit status after Ctrl+C (128 + SIGINT), as a shell reports it.
INTERRUPTED = 130


class CommandError(Exception):
    """A failure the command foresaw, said in one line for the user.

    :ivar status: The exit status (:data:`FAILURE` unless given).
    """

    def __init__(self, message: str, status: int = FAILURE) -> None:
        """:param message: What went wrong, naming the file or setting concerned.
        :param status: The exit status."""
        super().__init__(message)
        self.status = status


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``PROG: error: ...``) and exit status 2.

    argparse prints the usage above the error; a user who mistyped one argument reads the
    one line that names it, and ``--help`` has the usage. Every command gets ``--debug``.
    """

    def __init__(self, prog: str, description: str | None) -> None:
        """:param prog: The command's name (``tichu-arena``), also under ``python -m``.
        :param description: The first line of the command's help."""
        super().__init__(prog=prog, description=(description or "").splitlines()[0] or None)
        self.add_argument("--debug", action="store_true", help="show the traceback of a failure")

    def error(self, message: str) -> NoReturn:
        """Print the one line and exit with status 2."""
        self.exit(USAGE, f"{self.prog}: error: {one_line(message)}\n")


def one_line(text: str) -> str:
    """The text with its line breaks and runs of spaces folded into single spaces."""
    return " ".join(text.split())


def describe(error: BaseException) -> str:
    """A failure as one line: a foreseen one by its message, any other with its type too."""
    if isinstance(error, CommandError | OSError):
        return one_line(str(error))
    return one_line(f"{type(error).__name__}: {error} (--debug shows the traceback)")


def content_problem(error: ValueError) -> str:
    """Why a file's content cannot be read, as one line (the caller names the file).

    :param error: What reading it raised: a :class:`UnicodeDecodeError` for bytes that are no
        text, or any other :class:`ValueError` (a log line the rules refuse, a line that is no JSON).
    """
    if isinstance(error, UnicodeDecodeError):
        return f"not a text file (byte {error.start} cannot be decoded)"
    return one_line(str(error))


def run_command(parser: CommandParser, argv: list[str] | None, body: Callable[[argparse.Namespace], int]) -> int:
    """Parse the arguments and run the command's body; a failure becomes one line and its status.

    :param parser: The command's parser (bad arguments exit from here with status 2).
    :param argv: The arguments (default: ``sys.argv[1:]``).
    :param body: The command's work; returns the exit status.
    :returns: The exit status: the body's, a :class:`CommandError`'s, 1 for any other failure,
        130 after Ctrl+C.
    :raises Exception: The failure itself with ``--debug``.
    """
    args = parser.parse_args(argv)
    try:
        return body(args)
    except KeyboardInterrupt:
        return INTERRUPTED
    except Exception as error:
        if args.debug:
            raise
        print(f"{parser.prog}: {describe(error)}", file=sys.stderr)
        return error.status if isinstance(error, CommandError) else FAILURE


def missing_extra(extra: str, error: ImportError) -> str:
    """The line that names an optional extra a command needs and how to install it.

    :param extra: The extra of pyproject.toml (``spiel``, ``learn``, ``cluster``).
    :param error: The failed import, whose module is named.
    """
    module = error.name or one_line(str(error))
    return (f"needs the optional extra '{extra}' (cannot import {module}): pip install 'tichu[{extra}]', "
            f"or in a checkout .venv/bin/pip install -e '.[{extra}]' (bin/test installs it)")

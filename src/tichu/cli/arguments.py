"""Argument types of the commands: numbers in a range, agent names, files that exist.

Each is an argparse ``type``: a bad value raises :class:`argparse.ArgumentTypeError`, which the
parser reports as one line naming the argument (:class:`~tichu.cli.errors.CommandParser`),
before the command does any work.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from tichu.agents.registry import make_agent
from tichu.cli.errors import missing_extra

#: The suffix of a Brettspielwelt log.
BSW_SUFFIX = ".tch"


def integer(low: int, high: int | None = None) -> Callable[[str], int]:
    """An integer type that accepts ``low`` .. ``high`` (no upper bound without ``high``)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < low or (high is not None and value > high):
            span = f"at least {low}" if high is None else f"{low}..{high}"
            raise argparse.ArgumentTypeError(f"must be {span}, not {value}")
        return value

    return parse


def number(low: float, high: float | None = None) -> Callable[[str], float]:
    """A float type that accepts ``low`` .. ``high`` (no upper bound without ``high``); never NaN."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not value >= low or (high is not None and not value <= high):
            span = f"at least {low:g}" if high is None else f"{low:g}..{high:g}"
            raise argparse.ArgumentTypeError(f"must be {span}, not {text}")
        return value

    return parse


#: A TCP port.
port = integer(1, 65535)


def agent(text: str) -> str:
    """An agent's name as the registry knows it (``heuristic``, ``montecarlo:0.1``, ``policy:m:f``).

    The agent is made once to check the name and its setting; the name is returned.
    """
    try:
        make_agent(text)
    except ImportError as error:
        raise argparse.ArgumentTypeError(f"agent {text!r} {missing_extra('learn', error)}") from None
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def existing_path(text: str) -> Path:
    """A file or folder that exists."""
    path = Path(text)
    if not path.exists():
        raise argparse.ArgumentTypeError(f"no such file or folder: {text}")
    return path


def existing_file(text: str) -> Path:
    """A file that exists (not a folder)."""
    path = existing_path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"not a file: {text}")
    return path


def record_file(text: str) -> Path:
    """A file of game records (JSON Lines) that exists; a Brettspielwelt log is pointed to its command."""
    path = existing_file(text)
    if path.suffix == BSW_SUFFIX:
        raise argparse.ArgumentTypeError(f"{text} is a Brettspielwelt log, not a record file: "
                                         "tichu-bsw-import replays it and writes it as records")
    return path

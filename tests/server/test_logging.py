"""Where the server logs: the console always, ``data/logs/server.log`` unless ``TICHU_LOG_FILE``
is off (a Pi's journal keeps the console's lines; the file would wear the SD card twice)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from logging.handlers import RotatingFileHandler
from pathlib import Path

import pytest

from tichu.server.config import Settings
from tichu.server.logs import configure_logging


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """Put the root logger's handlers and level back after the test."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in root.handlers:
        if handler not in handlers:
            handler.close()
    root.handlers[:] = handlers
    root.setLevel(level)


@pytest.mark.parametrize("log_file", [True, False])
def test_the_log_file_is_written_unless_turned_off(tmp_path: Path, log_file: bool) -> None:
    settings = Settings.load({"TICHU_DATA_DIR": str(tmp_path), "TICHU_LOG_FILE": "on" if log_file else "off",
                              "TICHU_LOG_LEVEL": "warning"}, env_file=None)
    configure_logging(settings)
    logging.getLogger("tichu.test").warning("a line")
    files = [handler for handler in logging.getLogger().handlers if isinstance(handler, RotatingFileHandler)]
    assert len(files) == (1 if log_file else 0)
    assert (tmp_path / "logs" / "server.log").is_file() == log_file
    assert logging.getLogger().level == logging.WARNING

"""The server's logging: the console, and JSON lines in ``data/logs/server.log``."""

from __future__ import annotations

import json
import logging
from logging.handlers import RotatingFileHandler

from tichu.server.config import Settings
from tichu.server.guard.limits import AcceptErrorFilter


class JsonFormatter(logging.Formatter):
    """One JSON object per log line: time, level, logger, message (and the exception)."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {"time": self.formatTime(record), "level": record.levelname, "logger": record.name,
                 "message": record.getMessage()}
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def configure_logging(settings: Settings) -> None:
    """Log to the console and, unless ``log_file`` is off, as JSON lines to
    ``data/logs/server.log`` (rotated at 1 MiB, 5 kept).

    asyncio's accept errors (``EMFILE``...) are logged once per ``accept_error_interval``.
    """
    console = logging.StreamHandler()
    console.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handlers: list[logging.Handler] = [console]
    if settings.log_file:
        folder = settings.data_dir / "logs"
        folder.mkdir(parents=True, exist_ok=True)
        file_handler = RotatingFileHandler(folder / "server.log", maxBytes=1 << 20, backupCount=5, encoding="utf-8")
        file_handler.setFormatter(JsonFormatter())
        handlers.append(file_handler)
    root = logging.getLogger()
    root.handlers[:] = handlers
    root.setLevel(settings.log_level.upper())
    asyncio_log = logging.getLogger("asyncio")
    for old in [found for found in asyncio_log.filters if isinstance(found, AcceptErrorFilter)]:
        asyncio_log.removeFilter(old)
    asyncio_log.addFilter(AcceptErrorFilter(settings.accept_error_interval))

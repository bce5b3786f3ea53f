"""A bound on the server's stop: once SIGINT or SIGTERM has started the shutdown, the process
ends within :data:`EXIT_SECONDS`, whatever still runs.

The shutdown itself is bounded step by step (connections, tables, the agent pool's processes,
the game store), and the tests check that each state ends well within the bound. This guard
is the last line behind them: should a thread still be waited for at the interpreter's exit
(``concurrent.futures`` joins its executors' threads there, and every non-daemon thread is
joined), a person pressing Ctrl+C or systemd stopping the service would wait forever. The
guard logs what was still running and ends the process with :data:`FORCED_EXIT`.
"""

from __future__ import annotations

import logging
import os
import threading

log = logging.getLogger(__name__)

#: Seconds from the start of the shutdown to the forced exit.
EXIT_SECONDS = 9.0
#: The exit status of a forced exit (a clean stop exits with 0).
FORCED_EXIT = 3


def arm(seconds: float = EXIT_SECONDS) -> threading.Timer:
    """Start the countdown to a forced exit (a daemon thread: it never delays an exit itself).

    :param seconds: Seconds until the process is ended.
    :returns: The timer (tests cancel it).
    """
    timer = threading.Timer(seconds, _force_exit, args=(seconds,))
    timer.name = "exit-guard"
    timer.daemon = True
    timer.start()
    return timer


def _force_exit(seconds: float) -> None:
    """End the process now: log which threads still run, flush the logs, ``os._exit``."""
    running = sorted(thread.name for thread in threading.enumerate()
                     if thread is not threading.current_thread() and thread.is_alive())
    log.critical("the server did not exit within %.0f s of the stop signal; ending it now "
                 "(threads still running: %s)", seconds, ", ".join(running) or "none")
    for handler in logging.getLogger().handlers:
        handler.flush()
    os._exit(FORCED_EXIT)


__all__ = ["EXIT_SECONDS", "FORCED_EXIT", "arm"]

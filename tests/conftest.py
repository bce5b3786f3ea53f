"""Shared fixtures: the one way tests find ``../shared`` (rule vectors, real games).

The specifications live in ``docs/`` (rules, protocol, records); ``shared/`` holds the test
data the project never edits.

``shared/`` lives beside the checkout and is never copied into it. Without it the tests
that need it are skipped with the reason; with ``CI=true`` its absence fails them.

The hooks that report on the whole run live here too: this file is loaded by pytest-xdist's
controller as well as by its workers, the conftest files of subfolders only by the workers.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import SCREENSHOTS, screenshots_since

ROOT = Path(__file__).resolve().parents[1]
#: When this run started (``time.time()``), to tell the screenshots it wrote.
STARTED = pytest.StashKey[float]()


def _find_shared() -> Path | None:
    configured = os.environ.get("TICHU_SHARED")
    candidate = Path(configured) if configured else ROOT.parent / "shared"
    return candidate if (candidate / "vectors").is_dir() else None


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """The ``shared/`` folder beside the checkout (or ``$TICHU_SHARED``)."""
    found = _find_shared()
    if found is None:
        reason = f"shared/ not found beside the checkout ({ROOT.parent / 'shared'}) nor in $TICHU_SHARED"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but {reason}", pytrace=False)
        pytest.skip(reason)
    return found


def pytest_sessionstart(session: pytest.Session) -> None:
    """Note when the run started."""
    session.config.stash[STARTED] = time.time()


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Name the screenshots the browser tests wrote in this run (in any xdist worker)."""
    names = screenshots_since(config.stash[STARTED])
    if names:
        terminalreporter.write_sep("-", f"web screenshots: {len(names)} files in {SCREENSHOTS}")
        terminalreporter.write_line(" ".join(names))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the files that hold slow tests first (otherwise in the usual order).

    In parallel runs (``bin/test``: one file per worker at a time) a long file that starts last
    keeps one worker busy while the others are idle; started first, the short files fill in
    around it.
    """
    slow_files = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow_files)

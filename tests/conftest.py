"""Shared fixtures: the one way tests find ``../shared`` (spec, vectors, real games).

``shared/`` lives beside the checkout and is never copied into it. Without it the tests
that need it are skipped with the reason; with ``CI=true`` its absence fails them.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _find_shared() -> Path | None:
    configured = os.environ.get("TICHU_SHARED")
    candidate = Path(configured) if configured else ROOT.parent / "shared"
    return candidate if (candidate / "spec").is_dir() else None


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

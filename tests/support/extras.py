"""Optional parts a test needs (a browser, Ray, PettingZoo): skip without them, but fail under
``CI=true``, where ``.ci/run`` installs every extra and the tests must run."""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import NoReturn

import pytest


def unavailable(reason: str) -> NoReturn:
    """Skip, or fail under ``CI=true``."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)


def require(module: str, extra: str) -> ModuleType:
    """Import ``module`` from the optional extra ``extra`` (``pip install -e .[extra]``)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        unavailable(f"the Python package {module} is not installed (pip install -e .[{extra}])")

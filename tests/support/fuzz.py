"""Inputs for fuzzing a live server: examples of a hypothesis strategy, drawn up front."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st


def collect_examples(strategy: st.SearchStrategy[Any], count: int) -> list[Any]:
    """Draw ``count`` examples of a hypothesis strategy (deterministically, no shrinking).

    A plain synchronous ``@given`` function collects them, so the async tests can send
    them over a live socket.
    """
    examples: list[Any] = []

    @hypothesis_settings(max_examples=count, database=None, derandomize=True, deadline=None,
                         phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(example: Any) -> None:
        examples.append(example)

    collect()
    return examples


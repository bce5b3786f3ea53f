"""The server's settings refuse what no server can run with (issue 33, finding 8: a negative
target score was accepted and every game ended at its first round)."""

from __future__ import annotations

import pytest

from tichu.server.config import AT_LEAST_ONE, Settings


@pytest.mark.parametrize(("variable", "value"), [
    ("TICHU_TARGET_SCORE", "-5"), ("TICHU_TARGET_SCORE", "0"), ("TICHU_MAX_CONNECTIONS", "0"),
    ("TICHU_MAX_TABLES", "-1"), ("TICHU_AGENT_WORKERS", "-1"), ("TICHU_PORT", "99999"),
    ("TICHU_MAX_SPECTATORS", "-3"), ("TICHU_OUTBOX_BYTES", "0"),
])
def test_a_setting_out_of_its_range_is_refused_naming_it(variable: str, value: str) -> None:
    """Issue 33, finding 8: a count below its least value stops the server with the setting's name."""
    with pytest.raises(ValueError, match=variable):
        Settings.load({variable: value}, env_file=None)


def test_the_least_values_are_accepted() -> None:
    """Issue 33, finding 8: 1 for what needs one, 0 where none is meaningful (no spectators, a free port)."""
    settings = Settings.load({**{f"TICHU_{name.upper()}": "1" for name in AT_LEAST_ONE},
                              "TICHU_MAX_SPECTATORS": "0", "TICHU_PORT": "0", "TICHU_SEED": "-3"}, env_file=None)
    assert settings.target_score == 1 and settings.max_spectators == 0 and settings.port == 0
    assert settings.seed == -3

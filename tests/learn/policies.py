"""Policies for the tests, importable by the registry's ``policy:tests.learn.policies:...``."""

from __future__ import annotations

import zlib

import numpy as np
import numpy.typing as npt

from tichu.agents.learning.policy_agent import Policy


def observation_hash_policy(seed: int | None = None) -> Policy:
    """Chooses by a checksum of the whole observation: any change in what the seat observes
    changes its choice almost surely, so equal choices mean equal observations (the R8 test)."""

    def choose(observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
        allowed = np.flatnonzero(action_mask)
        return int(allowed[zlib.crc32(observation.tobytes()) % len(allowed)])

    return choose


def forbidden_policy(seed: int | None = None) -> Policy:
    """Always chooses an action its mask forbids (a broken policy)."""

    def choose(observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
        return int(np.flatnonzero(action_mask == 0)[0])

    return choose

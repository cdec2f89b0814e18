"""``duel_v1``: the duel as a two-agent PettingZoo AEC environment, current version.

The same game, agents, actions, masks and rewards as :mod:`.duel_v0`, with the defaults
of ``hexdojo/Duel-v1`` (``hexdojo.envs.DUEL_V1_DEFAULTS``): every observation number
scaled to [-1, 1] (``observation_scale="unit"``) and a small wound shaping. The version
history and the observation's meaning are in ``DuelEnv``'s docstring.

    from hexdojo.envs import duel_v1
    env = duel_v1.env()
    par = duel_v1.parallel_env()   # PettingZoo's turn-based Parallel converter
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from . import DUEL_V1_DEFAULTS, duel_v0
from .fight_aec import wrapped


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's standard safety wrappers."""
    return wrapped(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The same game as a Parallel env (PettingZoo's turn-based converter)."""
    return turn_based_aec_to_parallel(env(**kwargs))


class raw_env(duel_v0.raw_env):  # noqa: N801 - PettingZoo's naming convention
    """The unwrapped AEC duel with Duel-v1's defaults (any option can still be passed)."""

    metadata = {**duel_v0.raw_env.metadata, "name": "duel_v1"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**{**DUEL_V1_DEFAULTS, **kwargs})

"""``armed_duel_v0``: the duel with weapons as a two-agent PettingZoo AEC environment (issue 19).

The same game, agents, masks and rewards as :mod:`.duel_v1`, with the defaults of
``hexdojo/ArmedDuel-v0`` (``hexdojo.envs.ARMED_DUEL_DEFAULTS``): Chu against a guard (sword
and shield, a sheathed dagger), the armed catalogue (every weapon maneuver: Stand and
attack, Block, Parry, Ready weapon, ...) and the observation's weapon fields
(``observation.ARMED_FIELDS``). ``DuelEnv``'s docstring has the version history; this task
was first published as ``duel_v2`` / ``hexdojo/Duel-v2``, now deprecated aliases.

    from hexdojo.envs import armed_duel_v0
    env = armed_duel_v0.env()
    par = armed_duel_v0.parallel_env()   # PettingZoo's turn-based Parallel converter
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from . import ARMED_DUEL_DEFAULTS, duel_v0
from .fight_aec import wrapped


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's standard safety wrappers."""
    return wrapped(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The same game as a Parallel env (PettingZoo's turn-based converter)."""
    return turn_based_aec_to_parallel(env(**kwargs))


class raw_env(duel_v0.raw_env):  # noqa: N801 - PettingZoo's naming convention
    """The unwrapped AEC duel with ArmedDuel-v0's defaults (any option can still be passed)."""

    metadata = {**duel_v0.raw_env.metadata, "name": "armed_duel_v0"}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**{**ARMED_DUEL_DEFAULTS, **kwargs})

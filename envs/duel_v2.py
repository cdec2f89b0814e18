"""``duel_v2``: a deprecated alias of :mod:`.armed_duel_v0`, the duel with weapons (issue 35).

Duel-v2 was the armed duel's first name; it is another task than the unarmed Duel, not a
newer version of it, so it now lives under its own name. This module makes the same envs
and says so once per process (``envs/aliases.py``).

    from hexdojo.envs import armed_duel_v0      # use this
    env = armed_duel_v0.env()
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from . import armed_duel_v0
from .aliases import warn_duel_v2_once
from .fight_aec import wrapped


def env(**kwargs: Any) -> AECEnv:
    """``armed_duel_v0.env()``, with the alias's one warning."""
    return wrapped(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """``armed_duel_v0.parallel_env()``, with the alias's one warning."""
    return turn_based_aec_to_parallel(env(**kwargs))


class raw_env(armed_duel_v0.raw_env):  # noqa: N801 - PettingZoo's naming convention
    """``armed_duel_v0.raw_env`` under its old name (its metadata keeps ``duel_v2``)."""

    metadata = {**armed_duel_v0.raw_env.metadata, "name": "duel_v2"}

    def __init__(self, **kwargs: Any) -> None:
        warn_duel_v2_once()
        super().__init__(**kwargs)

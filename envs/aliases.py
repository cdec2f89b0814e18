"""``hexdojo/Duel-v2``, kept as a deprecated alias of ``hexdojo/ArmedDuel-v0`` (issue 35).

Duel-v2 was the armed duel (issue 19: Chu against the guard, the armed catalogue): another
task, not a newer version of the unarmed duel, yet Gymnasium ranks ids by version within a
name, so its ``-v2`` made every ``gymnasium.make("hexdojo/Duel-v1")`` warn that v1 was "out
of date". The armed duel is now ``hexdojo/ArmedDuel-v0``; Duel-v2 still makes the same env
(single and vector) for old code and says once per process what it is.
"""

from __future__ import annotations

import warnings
from typing import Any

from gymnasium.envs.registration import EnvSpec

#: The one line the alias prints, the first time it is made in a process.
DUEL_V2_MESSAGE = ("hexdojo/Duel-v2 is the armed duel (Chu against the guard), now registered as "
                   "hexdojo/ArmedDuel-v0 (PettingZoo: hexdojo.envs.armed_duel_v0); Duel-v2 is a "
                   "deprecated alias that will be removed")

_warned = False


def warn_duel_v2_once() -> None:
    """Say once per process that Duel-v2 is the armed duel under another name. A
    ``FutureWarning`` (shown by default), since the people who meet it run experiments."""
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(DUEL_V2_MESSAGE, FutureWarning, stacklevel=4)


def duel_v2(**kwargs: Any) -> Any:
    """Duel-v2's entry point: the armed duel (``DuelEnv`` with ArmedDuel-v0's defaults)."""
    # envs/__init__.py imports this module to register the ids: at the top, this import
    from .duel import DuelEnv  # optional: gymnasium's envs, would load with hexdojo.envs.rules

    warn_duel_v2_once()
    return DuelEnv(**kwargs)


def duel_v2_vector(**kwargs: Any) -> Any:
    """Duel-v2's vector entry point: ``NativeDuelVectorEnv`` with ArmedDuel-v0's defaults."""
    from .vector_env import NativeDuelVectorEnv  # optional: gymnasium's envs (as duel_v2's)

    warn_duel_v2_once()
    return NativeDuelVectorEnv(**kwargs)


def rank_as(alias: EnvSpec, target: EnvSpec) -> None:
    """Have Gymnasium rank the alias's spec as the task it makes (its namespace, name and
    version: ArmedDuel v0), so that its id's ``-v2`` is no newer version of the unarmed
    Duel: ``find_highest_version`` then sees Duel v0 and v1 only. The id, the registry key
    and everything ``make`` reads stay the alias's."""
    alias.namespace, alias.name, alias.version = target.namespace, target.name, target.version

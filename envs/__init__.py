"""hexdojo environments: the rules engine (``hexdojo.envs.rules``) and the RL wrappers."""

from __future__ import annotations

from typing import Any

#: Gymnasium id of the single-agent duel with the first (raw-unit) observation.
DUEL_ID = "hexdojo/Duel-v0"
#: Gymnasium id of the current duel: a Chu mirror with the observation scaled to [-1, 1]
#: by default (``DuelEnv``'s docstring, "Version History"). New work should use it.
DUEL_V1_ID = "hexdojo/Duel-v1"
#: What Duel-v1's defaults change against ``DuelEnv``'s (= Duel-v0's) defaults: measured
#: in docs/learnability.md (a default MaskablePPO learnt nothing on Duel-v0's).
DUEL_V1_DEFAULTS: dict[str, Any] = {"fighters": ("chu", "chu"), "observation_scale": "unit"}
#: Gymnasium id of the duel with weapons (issue 19): Chu against a guard (sword, shield,
#: a sheathed dagger), the armed catalogue and the observation's weapon fields.
ARMED_DUEL_ID = "hexdojo/ArmedDuel-v0"
#: ArmedDuel-v0's defaults against ``DuelEnv``'s: Duel-v1's, an armed opponent, the armed catalogue.
ARMED_DUEL_DEFAULTS: dict[str, Any] = {"fighters": ("chu", "guard"), "observation_scale": "unit",
                                       "armed": True}
#: The armed duel's first id, a deprecated alias of ``ARMED_DUEL_ID`` (``envs/aliases.py``):
#: another task, not a newer Duel, so it no longer makes Duel-v1 look "out of date".
DUEL_V2_ID = "hexdojo/Duel-v2"
DUEL_V2_DEFAULTS = ARMED_DUEL_DEFAULTS
#: Gymnasium id of one fighter of any scene (issue 18): ``SkirmishEnv``'s docstring.
SKIRMISH_ID = "hexdojo/Skirmish-v0"

try:  # the rules engine (hexdojo.envs.rules) must work without Gymnasium installed
    from gymnasium.envs.registration import register, registry
except ImportError:  # pragma: no cover - gymnasium is a core dependency
    pass
else:
    # vectorization_mode="vector_entry_point": N duels stepped in the native core (vector_env.py)
    _VECTOR = "hexdojo.envs.vector_env:NativeDuelVectorEnv"
    if DUEL_ID not in registry:
        register(id=DUEL_ID, entry_point="hexdojo.envs.duel:DuelEnv", vector_entry_point=_VECTOR,
                 order_enforce=False, disable_env_checker=True)
    if DUEL_V1_ID not in registry:
        register(id=DUEL_V1_ID, entry_point="hexdojo.envs.duel:DuelEnv", vector_entry_point=_VECTOR,
                 kwargs=dict(DUEL_V1_DEFAULTS), order_enforce=False, disable_env_checker=True)
    if ARMED_DUEL_ID not in registry:
        register(id=ARMED_DUEL_ID, entry_point="hexdojo.envs.duel:DuelEnv", vector_entry_point=_VECTOR,
                 kwargs=dict(ARMED_DUEL_DEFAULTS), order_enforce=False, disable_env_checker=True)
    if DUEL_V2_ID not in registry:
        from .aliases import rank_as

        register(id=DUEL_V2_ID, entry_point="hexdojo.envs.aliases:duel_v2",
                 vector_entry_point="hexdojo.envs.aliases:duel_v2_vector",
                 kwargs=dict(ARMED_DUEL_DEFAULTS), order_enforce=False, disable_env_checker=True)
        rank_as(registry[DUEL_V2_ID], registry[ARMED_DUEL_ID])
    if SKIRMISH_ID not in registry:
        register(id=SKIRMISH_ID, entry_point="hexdojo.envs.skirmish:SkirmishEnv",
                 order_enforce=False, disable_env_checker=True)


def _preload_in_forkserver() -> None:
    """Have multiprocessing's forkserver import this package, so that worker processes it
    forks (SB3's ``SubprocVecEnv``, gymnasium's ``AsyncVectorEnv``) know the short ids even
    when the parent's ``__main__`` imported hexdojo inside a function, under pytest or in a
    notebook (else ``NamespaceNotFound`` in the worker). Only a forkserver started after
    this import gets it; with the ``spawn`` start method write the long id
    ``"hexdojo.envs:hexdojo/Duel-v1"``, which gymnasium imports itself."""
    import multiprocessing
    from multiprocessing import forkserver

    current = list(getattr(getattr(forkserver, "_forkserver", None), "_preload_modules", None)
                   or ["__main__"])
    if __name__ not in current:
        multiprocessing.set_forkserver_preload([*current, __name__])


_preload_in_forkserver()

# The helpers agents need, loaded on first use so that importing the rules engine
# (a subpackage) stays cheap.
_LAZY = {
    "Catalogue": "catalogue", "action_mask": "catalogue", "catalogue_for": "catalogue",
    "ObservationEncoder": "observation", "encode_observation": "observation",
    "encoder_for": "observation", "DuelEnv": "duel", "SkirmishEnv": "skirmish",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ARMED_DUEL_DEFAULTS", "ARMED_DUEL_ID", "DUEL_ID", "DUEL_V1_DEFAULTS", "DUEL_V1_ID",
           "DUEL_V2_DEFAULTS", "DUEL_V2_ID", "SKIRMISH_ID", *_LAZY]

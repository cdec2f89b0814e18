"""hexdojo environments: the rules engine (``hexdojo.envs.rules``) and the RL wrappers."""

from __future__ import annotations

from typing import Any

#: Gymnasium id of the single-agent duel (``gymnasium.make(DUEL_ID, **options)``).
DUEL_ID = "hexdojo/Duel-v0"

try:  # the rules engine (hexdojo.envs.rules) must work without Gymnasium installed
    from gymnasium.envs.registration import register, registry
except ImportError:  # pragma: no cover - gymnasium is a core dependency
    pass
else:
    if DUEL_ID not in registry:
        register(id=DUEL_ID, entry_point="hexdojo.envs.duel:DuelEnv",
                 order_enforce=False, disable_env_checker=True)

# The helpers agents need, loaded on first use so that importing the rules engine
# (a subpackage) stays cheap.
_LAZY = {
    "Catalogue": "catalogue", "action_mask": "catalogue", "catalogue_for": "catalogue",
    "ObservationEncoder": "observation", "encode_observation": "observation",
    "encoder_for": "observation", "DuelEnv": "duel",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["DUEL_ID", *_LAZY]

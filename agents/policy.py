"""A trained MaskablePPO policy playing as an :class:`Agent` (checkpoints in tournaments,
as environment opponents and as frozen self-play snapshots).

The policy sees exactly what it saw in training: the environment's observation encoder
for the fighter to move, and the exact legality mask; so it never picks an illegal
choice. Needs the ``rl`` extra (stable-baselines3, sb3-contrib, torch).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .base import Agent, AgentError

if TYPE_CHECKING:
    from hexdojo.envs.rules import Choice, State


def _maskable_ppo() -> Any:
    try:
        from sb3_contrib import MaskablePPO
    except ImportError:  # pragma: no cover - depends on the installed extras
        raise AgentError(
            "learned agents need the rl extra: python -m pip install -e '.[rl]'"
        ) from None
    return MaskablePPO


class LearnedAgent(Agent):
    """A MaskablePPO model (in memory, or loaded from a ``.zip`` checkpoint)."""

    def __init__(self, model: Any, name: str | None = None, deterministic: bool = True,
                 seed: int | None = None, path: str | None = None) -> None:
        self.model = model
        self.path = path  # set when loaded from a checkpoint: pickles as the path
        self.name = name or "learned"
        self.deterministic = deterministic
        self._rng = np.random.default_rng(seed)
        from gymnasium import spaces

        self._flat = isinstance(model.observation_space, spaces.Box)
        obs_space = model.observation_space
        n_obs = int(np.prod(obs_space.shape)) if self._flat else sum(
            int(np.prod(sp.shape)) for sp in obs_space.spaces.values())
        self._spaces = (n_obs, int(model.action_space.n))
        self.illegal = 0  # choices the policy made that the engine rejected (must stay 0)

    @classmethod
    def load(cls, path: str | Path, deterministic: bool = True, name: str | None = None
             ) -> LearnedAgent:
        p = Path(path)
        if not p.is_file():
            raise AgentError(f"checkpoint {str(p)!r}: file not found")
        ppo = _maskable_ppo()
        try:
            model = ppo.load(str(p), device="cpu")
        except Exception as exc:  # corrupt or foreign zip
            raise AgentError(f"checkpoint {str(p)!r}: not a MaskablePPO model ({exc})") from None
        return cls(model, name=name or p.stem, deterministic=deterministic, path=str(p))

    def __getstate__(self) -> dict[str, Any]:
        """Pickle a checkpoint agent as its path (for tournament worker processes)."""
        state = dict(self.__dict__)
        if self.path is not None:
            state["model"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if self.model is None and self.path is not None:
            self.model = _maskable_ppo().load(self.path, device="cpu")

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
            import torch

            torch.manual_seed(int(seed) % (2**31))

    def _check_spaces(self, n_obs: int, n_actions: int) -> None:
        """A model trained on another observation or action layout (an older hexdojo, other
        rules data) cannot play: say so instead of failing inside torch."""
        if (n_obs, n_actions) != self._spaces:
            raise AgentError(
                f"checkpoint {self.path or self.name!r}: trained on observations of "
                f"{self._spaces[0]} numbers and {self._spaces[1]} actions; this game has "
                f"{n_obs} and {n_actions} (the observation or the rules data changed since): "
                "retrain it"
            )

    def act(self, state: State) -> Choice:
        from hexdojo.envs.catalogue import catalogue_for
        from hexdojo.envs.observation import encoder_for

        i = state.decision.fighter
        cat = catalogue_for(state.t)
        enc = encoder_for(state.game)
        legal = state.legal_choices()
        ids = cat.ids(legal)
        flat = enc.encode_flat(state, i, ids)
        self._check_spaces(flat.size, cat.n)
        obs = flat if self._flat else enc.to_dict(flat)
        mask = np.zeros(cat.n, dtype=bool)
        mask[ids] = True
        action, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        choice = cat.choice_for(int(action), state, i)
        if choice not in legal:  # cannot happen with an exact mask; counted, never executed
            self.illegal += 1
            choice = legal[int(self._rng.integers(len(legal)))]
        return choice

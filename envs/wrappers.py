"""The action mask inside the observation, where other libraries look for it (issue 35).

hexdojo's Gymnasium envs give the exact mask as ``info["action_mask"]`` and
``env.action_masks()`` (sb3-contrib's MaskablePPO reads the latter). Other libraries read it
from the observation, under their own keys:

* ``MaskInObservation(env)``: ``{"observation": obs, "action_mask": mask}``, PettingZoo's
  convention (its board games, SuperSuit's wrappers, PettingZoo's
  ``TerminateIllegalWrapper``), also what hexdojo's own AEC envs (``duel_v1``) observe;
  ``obs_key="observations"`` gives RLlib's action-masking RLModule's keys;
* ``TianshouMask(env)``: ``{"obs": obs, "mask": mask}``, Tianshou's (its DQN family adds a
  large negative value to the Q of every masked action, ``batch.obs.mask``, and explores
  among the allowed ones only).

The mask is the ``info["action_mask"]`` of the same reset or step (int8, 1 = legal), so it
is exact for the observation it comes with; the wrapped env keeps ``action_masks()`` too.
Documented in docs/integrations.md ("Masks where each library looks"), tested in
tests/envs/test_env_wrappers.py and tests/envs/test_integration_tianshou.py.

    env = TianshouMask(gym.make("hexdojo/Duel-v1", flat_observation=True))
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium as gym
import numpy as np
from gymnasium import spaces

__all__ = ["MaskInObservation", "TianshouMask"]


class MaskInObservation(gym.Wrapper, gym.utils.RecordConstructorArgs):
    """``{obs_key: the env's observation, mask_key: the exact action mask}`` (module
    docstring). Its arguments are recorded, as Gymnasium's own wrappers', so ``env.spec``
    can make the wrapped env again (``check_env`` does)."""

    def __init__(self, env: gym.Env, obs_key: str = "observation",
                 mask_key: str = "action_mask") -> None:
        gym.utils.RecordConstructorArgs.__init__(self, obs_key=obs_key, mask_key=mask_key)
        if not isinstance(env.action_space, spaces.Discrete):
            raise ValueError(f"action_space {env.action_space}: allowed Discrete (one flat "
                             "catalogue, one mask)")
        if obs_key == mask_key:
            raise ValueError(f"obs_key and mask_key {obs_key!r}: they must differ")
        super().__init__(env)
        self.obs_key, self.mask_key = obs_key, mask_key
        self.observation_space = spaces.Dict({
            obs_key: env.observation_space,
            mask_key: spaces.MultiBinary(int(env.action_space.n))})

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        obs, info = self.env.reset(seed=seed, options=options)
        return self._with_mask(obs, info), info

    def step(self, action: Any) -> tuple[dict[str, Any], SupportsFloat, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._with_mask(obs, info), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The env's own masks (MaskablePPO still works through the wrapper)."""
        return self.env.unwrapped.action_masks()

    def _with_mask(self, obs: Any, info: dict[str, Any]) -> dict[str, Any]:
        if "action_mask" not in info:
            raise ValueError("info has no 'action_mask': MaskInObservation wraps hexdojo's envs "
                             "(or any env that puts its mask there)")
        return {self.obs_key: obs, self.mask_key: np.asarray(info["action_mask"], dtype=np.int8)}


class TianshouMask(MaskInObservation):
    """Tianshou's convention: ``{"obs": obs, "mask": mask}`` (``batch.obs.mask``)."""

    def __init__(self, env: gym.Env) -> None:
        gym.utils.RecordConstructorArgs.__init__(self)  # first: nothing to record
        super().__init__(env, obs_key="obs", mask_key="mask")

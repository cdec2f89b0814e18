"""``NativeVecEnv``: Stable-Baselines3's ``VecEnv`` over the native vector of duels
(``hexdojo.envs.vector_env.NativeDuelVectorEnv``), so MaskablePPO collects its rollouts
from N duels stepped in one call into the core, their opponents played there too (issue 30)
or, for an opponent only Python can play, asked through its ``act`` per slot (issue 32).

SB3's conventions: ``reset()`` returns the observations only; ``step_wait()`` returns
``(obs, rewards, dones, infos)`` with ``dones = terminated | truncated``, and for a slot whose
episode ended its ``info`` holds ``terminal_observation`` (the episode's last observation;
``obs`` already holds the next episode's first, the core restarted it in the same call),
``TimeLimit.truncated``, Monitor's ``episode`` record (``r``, ``l``, ``t``) and ``outcome``
(+1 won, -1 lost, 0 draw) and ``side`` (the learner's side in the episode that ended;
``sides`` holds each slot's side in its current episode). ``action_masks()`` (what
MaskablePPO asks, also through ``env_method("action_masks")``) gives the N exact masks.
``seed(s)`` seeds the next reset (slot k with ``s + k``). ``get_attr``/``set_attr`` read
and write the vector env's attributes (the same value for every index); ``env_method``
calls its methods.

    from hexdojo.envs.sb3 import NativeVecEnv
    venv = NativeVecEnv(num_envs=64, opponent="greedy", flat_observation=True)
    MaskablePPO("MlpPolicy", venv).learn(100_000)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from .vector_env import NativeDuelVectorEnv


class NativeVecEnv(VecEnv):
    """SB3's VecEnv over ``NativeDuelVectorEnv`` (see the module docstring)."""

    def __init__(self, venv: NativeDuelVectorEnv | None = None, num_envs: int = 64,
                 refresh_every: int = 4096, **kwargs: Any) -> None:
        self.venv = venv if venv is not None else NativeDuelVectorEnv(num_envs, **kwargs)
        n = self.venv.num_envs
        super().__init__(n, self.venv.single_observation_space, self.venv.single_action_space)
        self.render_mode = None
        self._seed: int | None = None
        self._actions: np.ndarray | None = None
        self._ret = np.zeros(n, np.float64)
        self._len = np.zeros(n, np.int64)
        self._t0 = time.time()
        self._steps = 0
        #: each slot's learner side in its current episode (0 or 1), after every reset and step
        self.sides = np.zeros(n, np.int32)
        #: re-ask the opponent pool for its players every this many env steps (a training
        #: pool's new snapshots join the episodes started after)
        self.refresh_every = int(refresh_every)

    # ------------------------------------------------------------------ SB3's VecEnv API
    def reset(self) -> Any:
        obs, info = self.venv.reset(seed=self._seed)
        self.sides = info["side"]
        self._seed = None
        self._ret[:] = 0
        self._len[:] = 0
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[Any, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        obs, rewards, term, trunc, info = self.venv.step(self._actions)
        self._actions = None
        ended_sides, self.sides = self.sides, info["side"]
        dones = term | trunc
        self._ret += rewards
        self._len += 1
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final, final_info = info["final_obs"], info["final_info"]
            now = round(time.time() - self._t0, 6)
            for k in np.flatnonzero(dones):
                infos[k] = {"terminal_observation": final[k],
                            "TimeLimit.truncated": bool(trunc[k] and not term[k]),
                            "episode": {"r": float(self._ret[k]), "l": int(self._len[k]), "t": now},
                            "outcome": int(final_info[k]["outcome"]), "side": int(ended_sides[k])}
                self._ret[k] = 0.0
                self._len[k] = 0
        self._steps += self.num_envs
        if self.refresh_every and self._steps % self.refresh_every < self.num_envs:
            self.venv.set_opponent_pool()
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """The N exact masks (bool), MaskablePPO's ``action_masks``."""
        return self.venv.action_masks()

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        self._seed = seed
        return [None if seed is None else seed + k for k in range(self.num_envs)]

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        value = getattr(self, attr_name) if attr_name in ("action_masks", "venv") else \
            getattr(self.venv, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[k] for k in rows]
        out = getattr(self.venv, method_name)(*args, **kwargs)
        return [out for _ in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

"""The general NPC's training environments (issue 33): many pairings of random sheets at
once, each a group of duels stepped in the core, the sheets appended to every observation.

``GeneralVecEnv`` is an SB3 ``VecEnv`` over several ``NativeVecEnv`` groups, one pairing
(and one rules variant) each. Every observation is the armed duel's flat, unit-scaled
observation (one layout for every pairing: Duel-v2's) followed by both sheets from the
learner's side (``hexdojo.envs.sheets``), so one policy learns to read who is fighting.
:meth:`GeneralVecEnv.resample` replaces every group with fresh pairings between rollouts
(a callback does it after PPO has bootstrapped the rollout's returns), so over a run the
policy sees thousands of sheets.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

from hexdojo.envs.rules import Game
from hexdojo.envs.sb3 import NativeVecEnv
from hexdojo.envs.sheets import general_space, sheet_views, with_sheets

#: (fighter sheets, rules) of one group: the rules a path, a mapping or None (the shipped)
Pairing = tuple[Sequence[Any], Any]


class GeneralVecEnv(VecEnv):
    """Groups of native duels, one pairing each, sheets in the observation (see the module)."""

    def __init__(self, pairings: Sequence[Pairing], slots: int, opponent: Callable[[], Any],
                 radius: int = 4, turn_limit: int | None = 20, shaping: float = 0.0) -> None:
        self.slots, self.make_opponent = int(slots), opponent
        self.kw = {"radius": radius, "turn_limit": turn_limit, "shaping": shaping}
        self.groups: list[NativeVecEnv] = []
        self.views: list[np.ndarray] = []
        self._build(pairings)
        first = self.groups[0].venv.single_env
        super().__init__(len(pairings) * self.slots, general_space(first.game),
                         first.action_space)
        self._seed: int | None = None
        self._actions: np.ndarray | None = None

    def _build(self, pairings: Sequence[Pairing]) -> None:
        """One ``NativeVecEnv`` per pairing, armed catalogue and unit scaling for all."""
        for g in self.groups:
            g.close()
        self.groups, self.views = [], []
        for fighters, rules in pairings:
            venv = NativeVecEnv(num_envs=self.slots, fighters=tuple(fighters), rules=rules,
                                armed=True, flat_observation=True, observation_scale="unit",
                                opponent=self.make_opponent(), agent_side=None,
                                refresh_every=0, **self.kw)
            self.groups.append(venv)
            self.views.append(sheet_views(venv.venv.single_env.game))

    def resample(self, pairings: Sequence[Pairing], seed: int) -> np.ndarray:
        """New pairings in every group (as many as before); returns the first observations."""
        if len(pairings) != len(self.groups):
            raise ValueError(f"resample: {len(pairings)} pairings for {len(self.groups)} groups")
        self._build(pairings)
        self._seed = seed
        return self.reset()

    # ------------------------------------------------------------------ SB3's VecEnv API
    def reset(self) -> np.ndarray:
        out = []
        for k, g in enumerate(self.groups):
            g.seed(None if self._seed is None else self._seed + k * self.slots)
            out.append(with_sheets(g.reset(), self.views[k], g.sides))
        self._seed = None
        return np.concatenate(out)

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        obs, rew, done, infos = [], [], [], []
        for k, g in enumerate(self.groups):
            g.step_async(self._actions[k * self.slots:(k + 1) * self.slots])
            o, r, d, info = g.step_wait()
            for row in info:
                if "terminal_observation" in row:
                    row["terminal_observation"] = with_sheets(
                        row["terminal_observation"], self.views[k], row["side"])
            obs.append(with_sheets(o, self.views[k], g.sides))
            rew.append(r)
            done.append(d)
            infos += info
        self._actions = None
        return np.concatenate(obs), np.concatenate(rew), np.concatenate(done), infos

    def action_masks(self) -> np.ndarray:
        """Every slot's exact mask (bool), MaskablePPO's ``action_masks``."""
        return np.concatenate([g.action_masks() for g in self.groups])

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        self._seed = seed
        return [None if seed is None else seed + k for k in range(self.num_envs)]

    def close(self) -> None:
        for g in self.groups:
            g.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        if attr_name == "action_masks":
            return [self.action_masks for _ in self._get_indices(indices)]
        return [getattr(self.groups[k // self.slots], attr_name) for k in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        for g in self.groups:
            g.set_attr(attr_name, value)

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[k] for k in rows]
        return [getattr(self.groups[k // self.slots], method_name)(*args, **kwargs)[0] for k in rows]

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]



class Resample(BaseCallback):
    """Fresh pairings for every group of ``env`` every ``every`` rollouts (after PPO
    computed the rollout's returns: nothing is bootstrapped across pairings), and a
    progress line every 30 s (steps, steps/s, the pool's recent score)."""

    def __init__(self, env: GeneralVecEnv, draw: Callable[[int], Sequence[Pairing]], every: int,
                 seed: int, total: int, say: Callable[[str], None]) -> None:
        super().__init__()
        self.env, self.draw, self.every, self.seed_base = env, draw, every, seed
        self.total, self.say = total, say
        self.rollouts, self.t0 = 0, time.perf_counter()
        self.last = self.t0
        self.outcomes: list[int] = []

    def _on_step(self) -> bool:
        self.outcomes += [row["outcome"] for row in self.locals["infos"] if "outcome" in row]
        if time.perf_counter() - self.last >= 30:
            self.last = time.perf_counter()
            recent = self.outcomes[-2000:]
            score = (np.mean(recent) + 1) / 2 if recent else float("nan")
            self.say(f"{self.num_timesteps:,} / {self.total:,} steps, "
                     f"{self.num_timesteps / (self.last - self.t0):,.0f} steps/s, "
                     f"score against the pool {score:.1%} (last {len(recent)} fights)")
        return True

    def _on_rollout_end(self) -> None:
        self.rollouts += 1
        if self.rollouts % self.every == 0:
            obs = self.env.resample(self.draw(self.rollouts), self.seed_base + self.rollouts)
            self.model._last_obs = obs
            self.model._last_episode_starts = np.ones(self.env.num_envs, dtype=bool)


def game_of(pairing: Pairing, radius: int = 4, turn_limit: int | None = 20) -> Game:
    """The game of one pairing (what the sheets' views and a fight are made from)."""
    fighters, rules = pairing
    return Game.create(list(fighters), rules=rules, radius=radius, turn_limit=turn_limit)

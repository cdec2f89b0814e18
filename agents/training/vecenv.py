"""The vectorised training environments: ``hexdojo/Duel-v1`` (or one place of a scene on
``hexdojo/Skirmish-v0``) with the flat observation and exact masks, an opponent pool in
each, the learner's side swapped every episode (ANCHORS pitfall 3), and a timer of the
time spent inside them."""

from __future__ import annotations

import multiprocessing as mp
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv, VecEnvWrapper

from hexdojo.envs.duel import DuelEnv
from hexdojo.envs.sb3 import NativeVecEnv
from hexdojo.envs.skirmish import SkirmishEnv
from hexdojo.envs.vector_env import OpponentNotNative

from ..files import atomic_write_text
from ..interrupts import worker_signals
from ..plugins import PluginFault
from ..style import StyleReward
from .config import TrainConfig
from .pool import PoolOpponent


class AlternateSides(gym.Wrapper):
    """Swap the learner's side every episode (ANCHORS pitfall 3)."""

    def __init__(self, env: gym.Env, start: int = 0) -> None:
        super().__init__(env)
        self._next = start

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        opts = dict(options or {})
        opts.setdefault("side", self._next)
        self._next = 1 - self._next
        return self.env.reset(seed=seed, options=opts)


def make_env(cfg: TrainConfig, rank: int, snapshot_dir: Path | None) -> gym.Env:
    """Environment ``rank`` of a run, its own pool seeded from the run's seed."""
    opp = PoolOpponent(cfg.pool.scripted, snapshot_dir if cfg.pool.self_play else None,
                       cfg.pool.self_play_prob, seed=cfg.seed * 1000 + rank)
    env: gym.Env
    if cfg.scene is not None:  # one place of a scene; the pool plays every other place
        env = SkirmishEnv(scene=cfg.scene, fighter=cfg.place, opponents=opp, rules=cfg.rules,
                          flat_observation=True)
        return Monitor(_styled(env, cfg))
    side = None if cfg.side in ("random", "alternate") else int(cfg.side)
    env = DuelEnv(fighters=cfg.fighters, rules=cfg.rules, radius=cfg.radius,
                  turn_limit=cfg.turn_limit, opponent=opp, agent_side=side,
                  shaping=cfg.shaping, flat_observation=True,
                  observation_scale=cfg.observation_scale)
    env = _styled(env, cfg)
    if cfg.side == "alternate":
        env = AlternateSides(env, start=rank % 2)
    return Monitor(env)


def _styled(env: gym.Env, cfg: TrainConfig) -> gym.Env:
    """With a ``style``, the reward term per style move (agents/style.py), duel or scene."""
    if cfg.style is None:
        return env

    return StyleReward(env, cfg.style, cfg.style_weight)


#: where a SubprocVecEnv worker leaves a plug-in's fault for the parent (in the run folder)
FAULT_FILE = ".env_fault"


class GuestFault(gym.Wrapper):
    """In a ``SubprocVecEnv`` worker: a plug-in opponent's fault (``PluginFault``) is
    written to ``fault`` for the parent to say in one line, and the worker ends quietly
    (SB3's worker would print a traceback and the parent see only a broken pipe)."""

    def __init__(self, env: gym.Env, fault: Path) -> None:
        super().__init__(env)
        self.fault = fault

    def reset(self, **kwargs: Any) -> Any:
        return self._guarded(self.env.reset, **kwargs)

    def step(self, action: Any) -> Any:
        return self._guarded(self.env.step, action)

    def _guarded(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except PluginFault as exc:
            atomic_write_text(self.fault, str(exc))
            os._exit(3)


def make_env_fn(cfg: TrainConfig, rank: int, snapshot_dir: Path | None) -> Callable[[], gym.Env]:
    """A factory of environment ``rank`` (what ``DummyVecEnv``/``SubprocVecEnv`` take)."""

    def _init() -> gym.Env:
        if mp.parent_process() is None:
            return make_env(cfg, rank, snapshot_dir)
        worker_signals()  # a SubprocVecEnv worker: the parent answers Ctrl-C; dies with it
        env = make_env(cfg, rank, snapshot_dir)
        return GuestFault(env, snapshot_dir.parent / FAULT_FILE) if snapshot_dir else env

    return _init


def worker_fault(root: Path) -> PluginFault | None:
    """The fault a worker left in the run folder ``root`` (the file removed), or None."""
    path = root / FAULT_FILE
    if not path.is_file():
        return None
    text = path.read_text(encoding="utf-8").strip()
    path.unlink(missing_ok=True)
    return PluginFault(text)


class VecTimer(VecEnvWrapper):
    """Counts the time spent in the environments (steps, resets, masks): the measure behind
    "environment time <= 15 % of training wall time"."""

    def __init__(self, venv: Any) -> None:
        super().__init__(venv)
        self.env_seconds = 0.0

    def reset(self) -> Any:
        t0 = time.perf_counter()
        out = self.venv.reset()
        self.env_seconds += time.perf_counter() - t0
        return out

    def step_async(self, actions: np.ndarray) -> None:
        self._t0 = time.perf_counter()
        self.venv.step_async(actions)

    def step_wait(self) -> Any:
        out = self.venv.step_wait()
        self.env_seconds += time.perf_counter() - self._t0
        return out

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kw: Any) -> Any:
        t0 = time.perf_counter()
        out = self.venv.env_method(method_name, *args, indices=indices, **kw)
        self.env_seconds += time.perf_counter() - t0
        return out


def make_native_vec_env(cfg: TrainConfig, snapshot_dir: Path | None) -> Any:
    """The run's ``n_envs`` duels in the core (``hexdojo.envs.sb3.NativeVecEnv``): one pool
    (its draws per slot and episode come from the slots' generators), the learner's side
    drawn each episode (``alternate`` or ``random``; ``0``/``1`` fixed)."""
    opp = PoolOpponent(cfg.pool.scripted, snapshot_dir if cfg.pool.self_play else None,
                       cfg.pool.self_play_prob, seed=cfg.seed * 1000)
    side = None if cfg.side in ("random", "alternate") else int(cfg.side)
    return NativeVecEnv(num_envs=cfg.n_envs, fighters=cfg.fighters, rules=cfg.rules,
                        radius=cfg.radius, turn_limit=cfg.turn_limit, opponent=opp,
                        agent_side=side, shaping=cfg.shaping, flat_observation=True,
                        observation_scale=cfg.observation_scale)


def native_fits(cfg: TrainConfig) -> bool:
    """Can the run use the native vector env (a duel without a style reward, a pool the
    core can play: no plug-in)? Otherwise ``vec_env = "native"`` (the shipped default)
    trains on ``dummy`` Python envs."""
    return cfg.scene is None and cfg.style is None


def make_vec_env(cfg: TrainConfig, snapshot_dir: Path | None) -> VecTimer:
    """The run's ``n_envs`` environments, seeded from ``cfg.seed`` and timed (``native``
    where it fits: :func:`native_fits`)."""
    if cfg.vec_env == "native" and native_fits(cfg):
        try:
            vec = make_native_vec_env(cfg, snapshot_dir)
        except OpponentNotNative:  # a plug-in in the pool: only Python plays it
            vec = None
        if vec is not None:
            vec.seed(cfg.seed)
            return VecTimer(vec)
    fns = [make_env_fn(cfg, r, snapshot_dir) for r in range(cfg.n_envs)]
    vec = SubprocVecEnv(fns) if cfg.vec_env == "subproc" and cfg.n_envs > 1 else DummyVecEnv(fns)
    vec.seed(cfg.seed)
    return VecTimer(vec)


def time_profile(vec: Any, wall: float, eval_seconds: float) -> dict[str, Any]:
    """Where the training wall time went: the environments as PPO sees them (rules,
    observation, mask *and* the opponents' thinking), split into the opponents' share
    (time inside the pool agents' ``act``) and the rest (the environment proper). With
    subprocess envs the opponents' seconds are averaged over the envs, which run in
    parallel, so the split is approximate there."""
    opponent = sum(vec.get_attr("opponent_seconds"))
    if not isinstance(vec.unwrapped, DummyVecEnv):
        opponent /= max(1, vec.num_envs)
    env = vec.env_seconds
    rules = max(0.0, env - opponent)

    def share(x: float) -> float | None:
        return round(x / wall, 4) if wall > 0 else None

    return {"wall_seconds": round(wall, 2), "env_seconds": round(env, 2),
            "opponent_seconds": round(opponent, 4), "rules_env_seconds": round(rules, 4),
            "eval_seconds": round(eval_seconds, 2), "env_fraction": share(env),
            "opponent_fraction": share(opponent), "rules_env_fraction": share(rules)}

"""NPC training with MaskablePPO on ``hexdojo/Duel-v1`` (``hexdojo train``; the
observation scaling is ``observation_scale``: "unit" = Duel-v1, "raw" = Duel-v0).

What a run does, CleanRL-style in one readable file:

* vectorised duel environments (flat observation, exact masks; settings from
  ``agents/hyperparams/duel_v1.toml``), the learner's side swapped
  every episode (ANCHORS pitfall 3);
* an opponent pool in every environment mixing the scripted ladder with frozen snapshots
  of the learner (self-play kept honest by scripted bots, pitfall 4);
* periodic evaluation against the ladder (``eval.csv`` and TensorBoard), periodic
  checkpoints, TensorBoard logs and a progress bar;
* resume: a run killed at any point continues from its last checkpoint. Every file is
  written to a temporary name and renamed into place, so none is ever half-written.

Run layout (``runs/<name>/``): ``config.json``, ``checkpoints/latest.zip``, ``snapshots/``,
``tb/``, ``eval.csv``, ``run.json`` (progress), ``npc.zip`` (the final model).
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from hexdojo.envs.boundary import DRAW
from hexdojo.envs.rules import Game

from .base import Agent
from .report import atomic_write_text  # one atomic writer for every file hexdojo writes
from .train_config import PPOConfig, TrainConfig

# ----------------------------------------------------------------------------- files


def snapshot_paths(folder: Path | None) -> list[Path]:
    """The learner's snapshots in ``folder`` (oldest first): the run's listing and the
    opponent pool's, one function."""
    if folder is None or not folder.is_dir():
        return []
    return sorted(folder.glob("snap_*.zip"))


def atomic_save_model(model: Any, path: Path) -> None:
    """``model.save`` to ``path`` (a .zip) atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".tmp.zip")
    model.save(str(tmp))
    os.replace(tmp, path)


class RunDir:
    """Paths of one training run."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.config = self.root / "config.json"
        self.latest = self.root / "checkpoints" / "latest.zip"
        self.snapshots = self.root / "snapshots"
        self.tb = self.root / "tb"
        self.eval_csv = self.root / "eval.csv"
        self.progress = self.root / "run.json"
        self.final = self.root / "npc.zip"
        self.best = self.root / "best.zip"  # best mean evaluation win rate so far

    def snapshot_paths(self) -> list[Path]:
        return snapshot_paths(self.snapshots)


# ----------------------------------------------------------------------------- opponents


class PoolOpponent(Agent):
    """Each fight, one opponent drawn from the scripted ladder or the learner's snapshots.

    Snapshots are read from a folder at the start of each fight, so environments in other
    processes see new snapshots without any messaging.
    """

    def __init__(self, scripted: list[str], snapshot_dir: str | Path | None,
                 self_play_prob: float, seed: int = 0) -> None:
        from .registry import make_agent

        self.name = "pool"
        self.scripted = [make_agent(s) for s in scripted]
        self.snapshot_dir = Path(snapshot_dir) if snapshot_dir is not None else None
        self.self_play_prob = self_play_prob
        self._rng = np.random.default_rng(seed)
        self._loaded: dict[str, Agent] = {}
        self.current: Agent = self.scripted[0]

    def _snapshots(self) -> list[Path]:
        return snapshot_paths(self.snapshot_dir)

    def seed(self, seed: int) -> None:
        """Called by the environment at each reset: draw this fight's opponent."""
        self._rng = np.random.default_rng(seed)
        snaps = self._snapshots()
        if snaps and self._rng.random() < self.self_play_prob:
            p = snaps[int(self._rng.integers(len(snaps)))]
            agent = self._loaded.get(str(p))
            if agent is None:
                from .policy import LearnedAgent

                agent = LearnedAgent.load(p, deterministic=False)
                self._loaded[str(p)] = agent
            self.current = agent
        else:
            self.current = self.scripted[int(self._rng.integers(len(self.scripted)))]
        self.current.reset(int(self._rng.integers(2**31)))

    def reset(self, seed: int | None = None) -> None:
        self.seed(0 if seed is None else seed)

    def act(self, state: Any) -> Any:
        return self.current.act(state)


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


def make_env_fn(cfg: TrainConfig, rank: int, snapshot_dir: Path | None) -> Callable[[], gym.Env]:
    def _init() -> gym.Env:
        from stable_baselines3.common.monitor import Monitor

        from hexdojo.envs.duel import DuelEnv

        opp = PoolOpponent(cfg.pool.scripted, snapshot_dir if cfg.pool.self_play else None,
                           cfg.pool.self_play_prob, seed=cfg.seed * 1000 + rank)
        if cfg.scene is not None:  # one place of a scene; the pool plays every other place
            from hexdojo.envs.skirmish import SkirmishEnv

            return Monitor(SkirmishEnv(scene=cfg.scene, fighter=cfg.place, opponents=opp,
                                       rules=cfg.rules, flat_observation=True))
        side = None if cfg.side in ("random", "alternate") else int(cfg.side)
        env: gym.Env = DuelEnv(fighters=cfg.fighters, rules=cfg.rules, radius=cfg.radius,
                               turn_limit=cfg.turn_limit, opponent=opp, agent_side=side,
                               shaping=cfg.shaping, flat_observation=True,
                               observation_scale=cfg.observation_scale)
        if cfg.side == "alternate":
            env = AlternateSides(env, start=rank % 2)
        return Monitor(env)

    return _init


def timed_vec_env(vec: Any) -> Any:
    """Wrap a VecEnv so the time spent in the environments (steps, resets, masks) is
    counted: the measure behind "environment time <= 15 % of training wall time"."""
    from stable_baselines3.common.vec_env import VecEnvWrapper

    class VecTimer(VecEnvWrapper):
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

    return VecTimer(vec)


def time_profile(vec: Any, wall: float, eval_seconds: float) -> dict[str, Any]:
    """Where the training wall time went: the environments as PPO sees them (rules,
    observation, mask *and* the opponents' thinking), split into the opponents' share
    (time inside the pool agents' ``act``) and the rest (the environment proper). With
    subprocess envs the opponents' seconds are averaged over the envs, which run in
    parallel, so the split is approximate there."""
    from stable_baselines3.common.vec_env import DummyVecEnv

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


# ----------------------------------------------------------------------------- evaluation


def evaluate(learner: Agent, game: Game, opponents: list[str], episodes: int, seed: int
             ) -> dict[str, float]:
    """Win rate of ``learner`` against each opponent, half the fights on each side."""
    from .registry import make_agent
    from .tournament import play_fight

    out: dict[str, float] = {}
    for name in opponents:
        opp = make_agent(name)
        wins = 0.0
        for k in range(episodes):
            side = k % 2
            pair = (learner, opp) if side == 0 else (opp, learner)
            s = play_fight(game, pair, seed + k)
            if s.winner == side:
                wins += 1
            elif s.winner is None:
                wins += 0.5
        out[name] = wins / episodes
    return out


def evaluate_env(model: Any, env: gym.Env, episodes: int, seed: int,
                 deterministic: bool = True) -> dict[str, Any]:
    """Play ``model`` (a MaskablePPO) in ``env`` itself, fight ``k`` reset with seed
    ``seed + k``: the env's own opponent, sides and observation, exactly as a user's
    ``make_vec_env`` run meets them. Returns wins, draws, losses and the agent's action
    counts by name (what a policy that learnt nothing shows: pass, wait, turn)."""
    from collections import Counter

    out: dict[str, Any] = {"wins": 0, "draws": 0, "losses": 0, "episodes": episodes}
    by_side = {0: [0, 0], 1: [0, 0]}  # side -> [wins, fights]: a lopsided pairing shows here
    actions: Counter[str] = Counter()
    base = env.unwrapped
    for k in range(episodes):
        obs, info = env.reset(seed=seed + k)
        while True:
            mask = base.action_masks()
            action, _ = model.predict(obs, action_masks=mask, deterministic=deterministic)
            actions[base.action_names[int(action)]] += 1
            obs, _, terminated, truncated, info = env.step(int(action))
            if terminated or truncated:
                break
        winner = (info.get("result") or {}).get("winner", DRAW)  # no result: truncated
        key = "draws" if winner == DRAW else ("wins" if winner == base.side else "losses")
        out[key] += 1
        by_side[base.side][0] += key == "wins"
        by_side[base.side][1] += 1
    out["by_side"] = {str(k): v for k, v in by_side.items()}
    out["actions"] = dict(actions.most_common())
    return out


# ----------------------------------------------------------------------------- training


def ppo_kwargs(p: PPOConfig) -> dict[str, Any]:
    """MaskablePPO keyword arguments of a ``[ppo]`` table (training and the scripts)."""
    lr: Any = _linear(p.learning_rate) if p.lr_schedule == "linear" else p.learning_rate
    return {"learning_rate": lr, "n_steps": p.n_steps, "batch_size": p.batch_size,
            "n_epochs": p.n_epochs, "gamma": p.gamma, "gae_lambda": p.gae_lambda,
            "ent_coef": p.ent_coef, "clip_range": p.clip_range,
            "policy_kwargs": {"net_arch": list(p.net_arch)}}


#: seconds between progress lines when no bar is shown (output not a terminal)
PROGRESS_EVERY = 30.0


def _callback(cfg: TrainConfig, run: RunDir, game: Game, lines: bool = False) -> Any:
    """The run's callback; with ``lines``, a progress line every ``PROGRESS_EVERY`` s
    (for logs and CI, where SB3's bar is off)."""
    from stable_baselines3.common.callbacks import BaseCallback

    from .policy import LearnedAgent

    class RunCallback(BaseCallback):
        """Checkpoints, snapshots and evaluations at step thresholds (resume-safe)."""

        def _on_training_start(self) -> None:
            n = self.model.num_timesteps
            self.next_ckpt = (n // cfg.checkpoint_every + 1) * cfg.checkpoint_every
            self.next_snap = (n // cfg.pool.snapshot_every + 1) * cfg.pool.snapshot_every
            self.next_eval = (n // cfg.eval.every + 1) * cfg.eval.every
            self.t0 = self.last_ckpt = time.time()
            rows = read_eval(run.eval_csv)  # resumed: the best so far stays the bar
            self.best = max((_mean_rate(r) for r in rows), default=-1.0) if run.best.is_file() \
                else -1.0

        def _on_step(self) -> bool:
            n = self.model.num_timesteps
            if lines and time.time() - getattr(self, "last_line", self.t0) >= PROGRESS_EVERY:
                self.last_line = time.time()
                print(f"training: {n:,}/{cfg.total_steps:,} env steps ({n / cfg.total_steps:.0%}), "
                      f"{self.last_line - self.t0:.0f} s", flush=True)
            if cfg.pool.self_play and n >= self.next_snap:
                self.next_snap += cfg.pool.snapshot_every
                atomic_save_model(self.model, run.snapshots / f"snap_{n:010d}.zip")
                for old in run.snapshot_paths()[: -cfg.pool.max_snapshots]:
                    old.unlink(missing_ok=True)
            if n >= self.next_eval:
                self.next_eval += cfg.eval.every
                self.evaluate(n)
            if n >= self.next_ckpt or time.time() - self.last_ckpt >= cfg.checkpoint_seconds:
                if n >= self.next_ckpt:
                    self.next_ckpt += cfg.checkpoint_every
                self.checkpoint(n)
            return True

        eval_seconds = 0.0

        def evaluate(self, n: int) -> None:
            t0 = time.perf_counter()
            agent = LearnedAgent(self.model, name=cfg.name, deterministic=True)
            rates = evaluate(agent, game, cfg.eval.opponents, cfg.eval.episodes, seed=10_000)
            for k, v in rates.items():
                self.logger.record(f"eval/win_rate_{k}", v)
            rows = read_eval(run.eval_csv)
            rows.append({"steps": n, **{k: round(v, 4) for k, v in rates.items()}})
            write_eval(run.eval_csv, rows)
            score = _mean_rate(rows[-1])
            if score > self.best:  # model selection on the evaluation fights
                self.best = score
                atomic_save_model(self.model, run.best)
                save_meta(run.best, cfg, game, n)
            self.eval_seconds += time.perf_counter() - t0

        def checkpoint(self, n: int) -> None:
            self.last_ckpt = time.time()
            atomic_save_model(self.model, run.latest)
            save_meta(run.latest, cfg, game, n)
            atomic_write_text(run.progress, json.dumps(
                {"steps": n, "total_steps": cfg.total_steps, "done": False}, indent=2))

    return RunCallback()


def save_meta(path: Path, cfg: TrainConfig, game: Game, steps: int) -> None:
    """The checkpoint's sidecar (``npc.zip`` -> ``npc.json``): what it was trained on."""
    from .checkpoint_meta import npc_meta, write_meta

    write_meta(path, npc_meta(cfg, game, steps))


def _mean_rate(row: dict[str, Any]) -> float:
    rates = [v for k, v in row.items() if k != "steps"]
    return sum(rates) / len(rates) if rates else 0.0


def read_eval(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as fh:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(fh)]


def write_eval(path: Path, rows: list[dict[str, Any]]) -> None:
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: (int(v) if k == "steps" else v) for k, v in r.items()})
    atomic_write_text(path, buf.getvalue())


class _linear:
    """Learning rate falling linearly to 0 over the run (SB3 passes the progress left)."""

    def __init__(self, start: float) -> None:
        self.start = start

    def __call__(self, progress_remaining: float) -> float:
        return self.start * progress_remaining


def check_same_config(run: RunDir, cfg: TrainConfig) -> None:
    """A resumed run must keep its configuration (only ``total_steps`` may grow)."""
    old = json.loads(run.config.read_text())
    new = json.loads(cfg.model_dump_json())
    free = ("total_steps", "checkpoint_seconds")  # may change between sessions of a run
    diff = sorted(k for k in set(old) | set(new)
                  if k not in free and old.get(k) != new.get(k))
    if diff:
        raise ValueError(
            f"{run.root}: this run was trained with other settings ({', '.join(diff)}); "
            "resume it with the same configuration or use another --out"
        )


def train_game(cfg: TrainConfig) -> Game:
    """The engine game a run trains and evaluates on: its two fighters, or its scene (whose
    sides the evaluation fights pit the learner against each opponent on)."""
    if cfg.scene is not None:
        game = Game.from_scene(cfg.scene, rules=cfg.rules)
        if cfg.place is not None and cfg.place >= len(game.profiles):
            raise ValueError(f"place: value {cfg.place}: the scene {cfg.scene!r} has places "
                             f"0..{len(game.profiles) - 1}")
        return game
    return Game.create(list(cfg.fighters), rules=cfg.rules, radius=cfg.radius,
                       turn_limit=cfg.turn_limit)


def train(cfg: TrainConfig, out: str | Path | None = None, resume: bool = False,
          progress: bool = True) -> Path:
    """Train (or resume) a run; returns the path of the final model ``npc.zip``."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    import hexdojo.envs  # noqa: F401  (registers hexdojo/Duel-v0)

    from .registry import make_agent

    torch.set_num_threads(1)
    for spec in [*cfg.pool.scripted, *cfg.eval.opponents]:
        make_agent(spec)  # a bad agent name fails here, before anything is written
    game = train_game(cfg)  # a bad scene, place or fighter fails before anything is written
    run = RunDir(out or Path("runs") / cfg.name)
    if run.root.exists() and not resume and (run.latest.exists() or run.final.exists()):
        raise FileExistsError(
            f"{run.root}: a run is already there; use --resume to continue it or another --out"
        )
    if resume and run.config.is_file():
        check_same_config(run, cfg)
    run.root.mkdir(parents=True, exist_ok=True)
    atomic_write_text(run.config, cfg.model_dump_json(indent=2))
    fns = [make_env_fn(cfg, r, run.snapshots) for r in range(cfg.n_envs)]
    vec = SubprocVecEnv(fns) if cfg.vec_env == "subproc" and cfg.n_envs > 1 else DummyVecEnv(fns)
    vec.seed(cfg.seed)
    vec = timed_vec_env(vec)
    p = cfg.ppo
    if resume and run.latest.exists():
        from hexdojo.envs.observation import encoder_for

        from .policy import check_checkpoint_observation

        if cfg.scene is None:  # a scene's run: check_same_config keeps its spaces
            check_checkpoint_observation(run.latest, vec.observation_space, encoder_for(game))
        model = MaskablePPO.load(str(run.latest), env=vec, device=cfg.device,
                                 tensorboard_log=str(run.tb))
        reset = False
    else:
        model = MaskablePPO("MlpPolicy", vec, **ppo_kwargs(p), tensorboard_log=str(run.tb),
                            seed=cfg.seed, device=cfg.device, verbose=0)
        reset = True
    remaining = cfg.total_steps - model.num_timesteps
    cb = _callback(cfg, run, game, lines=not progress)
    t0 = time.perf_counter()
    try:
        if remaining > 0:
            model.learn(total_timesteps=remaining, callback=cb,
                        reset_num_timesteps=reset, tb_log_name="ppo", progress_bar=progress)
        wall = time.perf_counter() - t0
        atomic_save_model(model, run.latest)
        save_meta(run.latest, cfg, game, int(model.num_timesteps))
        atomic_save_model(model, run.final)
        save_meta(run.final, cfg, game, int(model.num_timesteps))
        atomic_write_text(run.progress, json.dumps({
            "steps": int(model.num_timesteps), "total_steps": cfg.total_steps, "done": True,
            **time_profile(vec, wall, getattr(cb, "eval_seconds", 0.0)),
        }, indent=2))
    finally:
        vec.close()
    return run.final

"""The run's callback: checkpoints, snapshots for the pool, periodic evaluations (with
model selection) and progress lines, all at step thresholds so a resumed run carries on
where it stopped."""

from __future__ import annotations

import time

from stable_baselines3.common.callbacks import BaseCallback

from hexdojo.envs.rules import Game

from ..policy import LearnedAgent
from .config import TrainConfig
from .evaluate import evaluate_places, evaluate_sides, trained_sides
from .rundir import RunDir, mean_rate, read_eval, write_eval

#: seconds between progress lines when no bar is shown (output not a terminal)
PROGRESS_EVERY = 30.0

#: the evaluation fights' dice: the same for every evaluation of every run
EVAL_SEED = 10_000


class RunCallback(BaseCallback):
    """Checkpoints, snapshots and evaluations at step thresholds (resume-safe); with
    ``lines``, a progress line every ``PROGRESS_EVERY`` s (for logs and CI, where SB3's
    bar is off)."""

    def __init__(self, cfg: TrainConfig, run: RunDir, game: Game, lines: bool = False) -> None:
        super().__init__()
        self.cfg, self.run, self.game, self.lines = cfg, run, game, lines
        self.eval_seconds = 0.0

    def _on_training_start(self) -> None:
        n, cfg = self.model.num_timesteps, self.cfg
        self.next_ckpt = (n // cfg.checkpoint_every + 1) * cfg.checkpoint_every
        self.next_snap = (n // cfg.pool.snapshot_every + 1) * cfg.pool.snapshot_every
        self.next_eval = (n // cfg.eval.every + 1) * cfg.eval.every
        self.t0 = self.last_ckpt = self.last_line = time.time()
        rows = read_eval(self.run.eval_csv)  # resumed: the best so far stays the bar
        self.best = max((mean_rate(r) for r in rows), default=-1.0) if self.run.best.is_file() \
            else -1.0

    def _on_step(self) -> bool:
        n, cfg = self.model.num_timesteps, self.cfg
        if self.lines and time.time() - self.last_line >= PROGRESS_EVERY:
            self.last_line = time.time()
            print(f"training: {n:,}/{cfg.total_steps:,} env steps ({n / cfg.total_steps:.0%}), "
                  f"{self.last_line - self.t0:.0f} s", flush=True)
        if cfg.pool.self_play and n >= self.next_snap:
            self.next_snap += cfg.pool.snapshot_every
            self.run.save_snapshot(self.model, n, keep=cfg.pool.max_snapshots)
        if n >= self.next_eval:
            self.next_eval += cfg.eval.every
            self.evaluate(n)
        if n >= self.next_ckpt or time.time() - self.last_ckpt >= cfg.checkpoint_seconds:
            if n >= self.next_ckpt:
                self.next_ckpt += cfg.checkpoint_every
            self.checkpoint(n)
        return True

    def evaluate(self, n: int) -> None:
        """One evaluation row in ``eval.csv`` (and TensorBoard); a new best is kept."""
        t0 = time.perf_counter()
        cfg = self.cfg
        agent = LearnedAgent(self.model, name=cfg.name, deterministic=True)
        if cfg.scene is not None:  # in its place, the opponent in every other one
            places = (cfg.place,) if cfg.place is not None else tuple(
                range(len(self.game.profiles)))
            rates = evaluate_places(agent, self.game, cfg.eval.opponents, cfg.eval.episodes,
                                    EVAL_SEED, places)
        else:
            rates = evaluate_sides(agent, self.game, cfg.eval.opponents, cfg.eval.episodes,
                                   seed=EVAL_SEED, sides=trained_sides(cfg.side))
        for k, v in rates.items():
            self.logger.record(f"eval/win_rate_{k}", v)
        rows = read_eval(self.run.eval_csv)
        rows.append({"steps": n, **{k: round(v, 4) for k, v in rates.items()}})
        write_eval(self.run.eval_csv, rows)
        score = mean_rate(rows[-1])
        if score > self.best:  # model selection on the evaluation fights
            self.best = score
            self.run.save(self.model, self.run.best, cfg, self.game, n)
        self.eval_seconds += time.perf_counter() - t0

    def checkpoint(self, n: int) -> None:
        """``checkpoints/latest.zip`` and ``run.json``: what ``--resume`` starts from."""
        self.last_ckpt = time.time()
        self.run.save(self.model, self.run.latest, self.cfg, self.game, n)
        self.run.write_progress(n, self.cfg, done=False)

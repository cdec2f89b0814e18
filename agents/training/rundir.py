"""The run folder of one training run, and every file written into it.

Layout (``runs/<name>/``): ``config.json``, ``checkpoints/latest.zip``, ``snapshots/``,
``tb/``, ``eval.csv``, ``run.json`` (progress), ``npc.zip`` (the final model), ``best.zip``
(the best mean evaluation so far), each model with its ``.json`` sidecar. Every file is
written to a temporary name and renamed into place, so a run killed at any moment leaves
only whole files and ``--resume`` continues from the last checkpoint.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

from hexdojo.envs.rules import Game

from ..checkpoint_meta import npc_meta, trained_steps, write_meta
from ..report import atomic_write_text  # one atomic writer for every file hexdojo writes
from .config import TrainConfig


def snapshot_paths(folder: Path | None) -> list[Path]:
    """The learner's snapshots in ``folder`` (oldest first): the run's listing and the
    opponent pool's, one function."""
    if folder is None or not folder.is_dir():
        return []
    # not a snapshot still being written (atomic_save_model's temp file), nor one a killed
    # run left half-written: the pool would load it
    return sorted(p for p in folder.glob("snap_*.zip") if not p.name.endswith(".tmp.zip"))


def atomic_save_model(model: Any, path: Path) -> None:
    """``model.save`` to ``path`` (a .zip) atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".tmp.zip")
    try:
        model.save(str(tmp))
        os.replace(tmp, path)
    except BaseException as exc:  # a full disk, an interrupt: the old file stays, no temp file
        tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError) and exc.errno is not None:
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
        raise


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

    def save(self, model: Any, path: Path, cfg: TrainConfig, game: Game, steps: int) -> None:
        """A model and its sidecar (``latest``, ``best`` or ``final``)."""
        atomic_save_model(model, path)
        save_meta(path, cfg, game, steps)

    def save_snapshot(self, model: Any, steps: int, keep: int) -> None:
        """A frozen copy of the learner for the pool; only the newest ``keep`` stay."""
        atomic_save_model(model, self.snapshots / f"snap_{steps:010d}.zip")
        for old in self.snapshot_paths()[:-keep]:
            old.unlink(missing_ok=True)

    def write_progress(self, steps: int, cfg: TrainConfig, done: bool, **extra: Any) -> None:
        """``run.json``: how far the run is (and, once done, where the time went)."""
        atomic_write_text(self.progress, json.dumps(
            {"steps": steps, "total_steps": cfg.total_steps, "done": done, **extra}, indent=2))


def save_meta(path: Path, cfg: TrainConfig, game: Game, steps: int) -> None:
    """The checkpoint's sidecar (``npc.zip`` -> ``npc.json``): what it was trained on."""
    write_meta(path, npc_meta(cfg, game, steps))


def mean_rate(row: dict[str, Any]) -> float:
    """The mean win rate of one ``eval.csv`` row (the model selection's score): over its
    opponents, each on the run's trained side(s) (the per-side columns ``name@A`` are
    already in it)."""
    rates = [v for k, v in row.items() if k != "steps" and "@" not in k]
    return sum(rates) / len(rates) if rates else 0.0


def read_eval(path: Path) -> list[dict[str, Any]]:
    """The rows of ``eval.csv`` (none when there is no file yet)."""
    if not path.is_file():
        return []
    with open(path, newline="", encoding="utf-8") as fh:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(fh)]


def write_eval(path: Path, rows: list[dict[str, Any]]) -> None:
    """``eval.csv`` from its rows (columns in first-seen order)."""
    keys: list[str] = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=keys, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({k: (int(v) if k == "steps" else v) for k, v in r.items()})
    atomic_write_text(path, buf.getvalue())


def check_same_config(run: RunDir, cfg: TrainConfig) -> None:
    """A resumed run must keep its configuration (only ``total_steps`` may grow)."""
    old = json.loads(run.config.read_text())
    new = json.loads(cfg.model_dump_json())
    # may change between sessions of a run (``rllib``: the other backend's settings)
    free = ("total_steps", "checkpoint_seconds", "rllib")
    fields = type(cfg).model_fields  # a setting added since the run began: its default
    added = {k: fields[k].default for k in set(new) - set(old) if k in fields}
    diff = sorted(k for k in set(old) | set(new)
                  if k not in free and old.get(k, added.get(k)) != new.get(k))
    if diff:
        raise ValueError(
            f"{run.root}: this run was trained with other settings ({', '.join(diff)}); "
            "resume it with the same configuration or use another --out"
        )


def check_resume_steps(run: RunDir, total: int) -> None:
    """``--resume --steps N`` must not ask for fewer steps than the checkpoint has: that
    would rewrite ``npc.zip`` and record N steps for a model trained longer."""
    done = trained_steps(run.latest.with_suffix(".json"), run.latest)
    if done is not None and total < done:
        raise ValueError(f"{run.root}: --steps {total:,} is fewer than the {done:,} env steps "
                         "its checkpoint has trained; give at least that many to resume")

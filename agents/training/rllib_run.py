"""``hexdojo train --backend rllib``'s run: Ray, the iterations, checkpoints, resume, metrics.

Where it runs: ``--address`` or ``RAY_ADDRESS`` names a running cluster to join; without
either a Ray is started on this machine for the run, bound to 127.0.0.1. A loopback
address (``127.0.0.1:PORT``, ``localhost:PORT``) is kept on loopback: Ray 2.60 rewrites
127.0.0.1 to the machine's own network address (``resolve_ip_for_localhost``) unless
``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` is set before ray is imported, which is done here.

What a killed run keeps: every ``rllib.checkpoint_every`` iterations RLlib's checkpoint is
written into a temporary folder, renamed to ``checkpoints/iter_N/``, and only then
committed by rewriting ``hexdojo_rllib.json`` atomically (its ``checkpoint``,
``iteration`` and ``env_steps``); older ones are deleted after the commit. A run killed at
any moment leaves the marker naming a whole checkpoint; ``--resume`` restores it (RLlib's
``restore_from_path``: the learner, the optimizer, the iteration and the lifetime step
counts) and trains the iterations left. TensorBoard scalars go to ``tb/rllib/``, with the
steps a killed run logged past its checkpoint purged on resume.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..files import atomic_write_text
from ..rllib_backend import (
    MARKER,
    POLICY,
    build_config,
    env_options,
    need_rllib,
    read_marker,
    train_batch,
)
from .config import TrainConfig

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
RAY_ENV = "RAY_ADDRESS"
CLUSTER_ENV = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"

#: what a checkpoint *is*: a resumed run must keep them (the scale, the batch, the PPO
#: settings and the iterations may change between sessions, e.g. to resume on more machines)
IDENTITY = {"env_options": "duel (fighters, rules, radius, turn_limit, shaping, observation_scale, "
                           "scene)", "net_arch": "ppo.net_arch"}


class RLlibRun:
    """Paths of one rllib run folder."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.marker = self.root / MARKER
        self.checkpoints = self.root / "checkpoints"
        self.tb = self.root / "tb" / "rllib"


# --------------------------------------------------------------------------------- Ray

def cluster_address(address: str | None) -> str | None:
    """The cluster to join: ``--address``, else ``RAY_ADDRESS``, else none (a local Ray)."""
    chosen = (address or os.environ.get(RAY_ENV) or "").strip()
    return None if chosen in ("", "local") else chosen


def is_loopback(address: str) -> bool:
    """``127.0.0.1:6379``, ``localhost:6379``, ``[::1]:6379``."""
    host = address.removeprefix("ray://").rsplit(":", 1)[0].strip("[]")
    return host in LOOPBACK_HOSTS


def ready_ray(address: str | None) -> str | None:
    """The cluster's address (:func:`cluster_address`), after keeping a local Ray or a
    loopback address on loopback and checking that the rllib extra is there: call it
    before anything imports ray (Ray reads ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER`` once, when
    it is imported; ``need_rllib`` imports it)."""
    address = cluster_address(address)
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if (address is None or is_loopback(address)) and "ray" not in sys.modules:
        os.environ.setdefault(CLUSTER_ENV, "0")
    need_rllib()
    return address


def import_ray(address: str | None) -> Any:
    """The ray module (after :func:`ready_ray`); one line when ray was imported before a
    loopback address could be kept on loopback."""
    loopback = address is None or is_loopback(address)
    import ray
    from ray._private import ray_constants

    if address is not None and loopback and ray_constants.ENABLE_RAY_CLUSTER:
        raise ValueError(f"ray: address {address!r}: Ray would rewrite 127.0.0.1 to this "
                         f"machine's network address; set {CLUSTER_ENV}=0 before starting "
                         "(docs/training.md, 'On a Ray cluster')")
    return ray


def connect(ray: Any, address: str | None, cfg: TrainConfig) -> None:
    """Join the cluster at ``address``, or start a loopback-only Ray with CPUs for the
    driver, the env runners and the learners."""
    try:
        if address is None:
            cpus = max(2, cfg.rllib.num_env_runners + cfg.rllib.num_learners + 1)
            ray.init(address="local", num_cpus=cpus, include_dashboard=False,
                     log_to_driver=False, _node_ip_address=LOOPBACK_HOSTS[0])
        else:
            ray.init(address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError) as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        if address is None:
            raise ValueError(f"ray: cannot start a local Ray ({first})") from None
        raise ValueError(
            f"ray: cannot join the cluster at {address!r} ({first}); a cluster with token "
            "authentication (Ray's default once ~/.ray/auth_token exists) needs "
            "RAY_AUTH_MODE=token here too (docs/training.md, 'On a Ray cluster')") from None


# ------------------------------------------------------------------------ the run folder

def prepare(run: RLlibRun, cfg: TrainConfig, resume: bool) -> dict[str, Any] | None:
    """The committed state to resume from (none for a new run), after the refusals: a new
    run over an existing one, a resume with nothing to resume, another duel or net, fewer
    iterations than done."""
    if not resume:
        if run.marker.is_file() or (run.root / "checkpoints" / "latest.zip").is_file():
            raise ValueError(f"{run.root}: holds a training run; continue it with --resume "
                             "or give another --out (nothing is overwritten)")
        return None
    if not run.marker.is_file():
        raise ValueError(f"{run.root}: no rllib checkpoint to resume ({MARKER})")
    meta = read_marker(run.root)
    if "iteration" not in meta:
        raise ValueError(f"{run.root}: written before rllib runs could resume; train a new "
                         "run in another --out")
    mine = identity(cfg)
    diff = [k for k in IDENTITY if meta.get("identity", {}).get(k) != mine[k]]
    if diff:
        raise ValueError(f"{run.root}: this run was trained with another "
                         f"{' and '.join(IDENTITY[k] for k in diff)}; resume it with the same "
                         "configuration or use another --out")
    if cfg.rllib.iterations < meta["iteration"]:
        raise ValueError(f"{run.root}: --iterations {cfg.rllib.iterations} is fewer than the "
                         f"{meta['iteration']} its checkpoint has trained; give at least that")
    return meta


def identity(cfg: TrainConfig) -> dict[str, Any]:
    """What the checkpoint is (JSON values, as the marker stores them)."""
    return json.loads(json.dumps({"env_options": env_options(cfg),
                                  "net_arch": list(cfg.ppo.net_arch)}))


def save_checkpoint(algo: Any, run: RLlibRun, cfg: TrainConfig, row: dict[str, Any]) -> None:
    """RLlib's checkpoint into ``checkpoints/iter_N`` (a temporary folder renamed), then
    committed in the marker, then the older ones beyond ``keep_checkpoints`` deleted."""
    name = f"iter_{row['iteration']:06d}"
    run.checkpoints.mkdir(parents=True, exist_ok=True)
    tmp = run.checkpoints / f".{name}.tmp{os.getpid()}"
    final = run.checkpoints / name
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        algo.save_to_path(str(tmp.resolve()))
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    shutil.rmtree(final, ignore_errors=True)  # a killed run's, never committed
    os.replace(tmp, final)
    atomic_write_text(run.marker, json.dumps({
        "env": "duel_v1", "env_options": env_options(cfg), "policy": POLICY,
        "checkpoint": f"checkpoints/{name}", "iteration": row["iteration"],
        "env_steps": row["env_steps_lifetime"], "identity": identity(cfg),
        "config": json.loads(cfg.model_dump_json())}, indent=2) + "\n")
    prune(run, cfg.rllib.keep_checkpoints, name)


def prune(run: RLlibRun, keep: int, committed: str) -> None:
    """Delete checkpoints beyond the newest ``keep`` and temporary folders of killed runs
    (never the committed one)."""
    done = sorted(p for p in run.checkpoints.glob("iter_*") if p.is_dir())
    for old in done[:-keep]:
        if old.name != committed:
            shutil.rmtree(old, ignore_errors=True)
    for tmp in run.checkpoints.glob(".iter_*.tmp*"):
        if tmp.name.rsplit("tmp", 1)[-1] != str(os.getpid()):
            shutil.rmtree(tmp, ignore_errors=True)


# ------------------------------------------------------------------------ the iterations

def summary(res: dict[str, Any], seconds: float) -> dict[str, Any]:
    """One iteration's figures from RLlib's result."""
    runners = res.get("env_runners", {})
    steps = int(runners.get("num_env_steps_sampled", 0))
    learner = res.get("learners", {}).get(POLICY, {})
    return {"iteration": int(res["training_iteration"]), "env_steps": steps,
            "env_steps_lifetime": int(runners.get("num_env_steps_sampled_lifetime", steps)),
            "seconds": seconds, "steps_per_s": steps / seconds if seconds else 0.0,
            "episodes": int(runners.get("num_episodes", 0)),
            "episode_len_mean": runners.get("episode_len_mean"),
            "policy_loss": learner.get("policy_loss"), "vf_loss": learner.get("vf_loss"),
            "entropy": learner.get("entropy"), "mean_kl": learner.get("mean_kl_loss")}


SCALARS = ("steps_per_s", "episodes", "episode_len_mean", "policy_loss", "vf_loss", "entropy",
           "mean_kl")


def log_scalars(writer: Any, row: dict[str, Any]) -> None:
    """TensorBoard ``rllib/<figure>`` at the lifetime env step (SB3's x axis)."""
    for key in SCALARS:
        value = row.get(key)
        if value is not None and math.isfinite(float(value)):
            writer.add_scalar(f"rllib/{key}", float(value), row["env_steps_lifetime"])
    writer.add_scalar("rllib/iteration", row["iteration"], row["env_steps_lifetime"])
    writer.flush()


def iterate(algo: Any, run: RLlibRun, cfg: TrainConfig, writer: Any,
            log: Callable[[str], None]) -> list[dict[str, Any]]:
    """Train up to ``rllib.iterations``, checkpointing every ``checkpoint_every`` and at
    the end; the figures of the iterations trained now."""
    rows: list[dict[str, Any]] = []
    total, every = cfg.rllib.iterations, cfg.rllib.checkpoint_every
    while algo.training_iteration < total:
        t0 = time.perf_counter()
        row = summary(algo.train(), time.perf_counter() - t0)
        rows.append(row)
        log_scalars(writer, row)
        log(f"iteration {row['iteration']}/{total}: {row['env_steps']} env steps in "
            f"{row['seconds']:.1f} s ({row['steps_per_s']:.0f} steps/s; "
            f"{row['env_steps_lifetime']} in all)")
        if row["iteration"] % every == 0 or row["iteration"] >= total:
            save_checkpoint(algo, run, cfg, row)
    return rows


def train_rllib(cfg: TrainConfig, out: Path, resume: bool = False, address: str | None = None,
                log: Callable[[str], None] = print) -> dict[str, Any]:
    """Train (or resume) the run in ``out`` on the cluster at ``address`` (or
    ``RAY_ADDRESS``, or a local Ray); the figures of the iterations trained."""
    address = ready_ray(address)
    run = RLlibRun(out)
    meta = prepare(run, cfg, resume)
    if meta is not None and meta["iteration"] >= cfg.rllib.iterations:
        log(f"{run.root}: already trained {meta['iteration']} iterations; nothing to do")
        return {"iterations": [], "resumed_from": meta["iteration"], "checkpoint": meta["checkpoint"]}
    ray = import_ray(address)
    started = not ray.is_initialized()
    if started:
        connect(ray, address, cfg)
    try:
        rows = _run(run, cfg, meta, log)
    finally:
        if started:
            ray.shutdown()
    committed = json.loads(run.marker.read_text(encoding="utf-8"))
    return {"iterations": rows, "resumed_from": meta["iteration"] if meta else 0,
            "checkpoint": committed["checkpoint"], "env_runners": cfg.rllib.num_env_runners,
            "train_batch": train_batch(cfg)}


def _run(run: RLlibRun, cfg: TrainConfig, meta: dict[str, Any] | None,
         log: Callable[[str], None]) -> list[dict[str, Any]]:
    """Build (and restore) the algorithm, iterate, stop it whatever happens."""
    from torch.utils.tensorboard import SummaryWriter

    algo = build_config(cfg).build_algo()
    try:
        if meta is not None:
            algo.restore_from_path(str((run.root / meta["checkpoint"]).resolve()))
            log(f"resumed {run.root} at iteration {algo.training_iteration} "
                f"({meta['env_steps']} env steps)")
        run.tb.mkdir(parents=True, exist_ok=True)
        writer = SummaryWriter(str(run.tb), purge_step=meta["env_steps"] + 1 if meta else None)
        try:
            return iterate(algo, run, cfg, writer, log)
        finally:
            writer.close()
    finally:
        algo.stop()

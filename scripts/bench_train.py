"""``hexdojo train``'s steps per second on the main job's configuration, the Python envs and
the native vector env side by side in one run (issue 30), with where the time went, for the
update settings before issue 30's last step (10 epochs of 512-sample minibatches) and the
shipped ones.

Every run trains the shipped ``agents/hyperparams/duel_v1.toml`` (chu vs boris, the pool of
the five scripted styles and self-play snapshots, 4,096 steps a rollout) for ``--steps``
learner steps without the imitation warm start or the periodic evaluation (neither is what
is compared). The old path: ``vec_env = "dummy"``, 4 envs x 1,024 steps, the opponents
called from Python each decision. The new one: ``vec_env = "native"``, 64 duels x 64 steps
(the same rollout), the scripted opponents inside the core, the snapshots answered in one
batch. Prints steps per second of the learning phase and where the time went: the
environments as PPO sees them (``run.json``'s profile, the opponents' thinking among it),
the policy's forwards with SB3's rollout bookkeeping, and the updates (``MaskablePPO.train``).
Each run also counts the CPU seconds of this process in the learning phase (steadier than
wall seconds on a shared machine). The four runs are repeated ``--repeat`` times,
interleaved, and each repeat prints its ratios, per wall and per CPU second: the shipped
native path against the Python envs before (issue 30's target, ">= 4x today's"), against
the Python envs on the same shipped settings, and the native path before against the
Python envs before.
``scripts/bench_ppo_update.py`` splits one update further.

    python scripts/bench_train.py                  # 40,000 steps each, 2 repeats
    python scripts/bench_train.py --steps 20000 --repeat 3 --json bench_train.json
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from sb3_contrib import MaskablePPO

from hexdojo.agents.files import atomic_write_text
from hexdojo.agents.training.config import load_config
from hexdojo.agents.training.ppo import train

#: the two ways of stepping the envs (the same 4,096-step rollout)
PATHS = {"python (dummy, 4 envs)": {"vec_env": "dummy", "n_envs": 4, "ppo": {"n_steps": 1024}},
         "native (64 duels)": {"vec_env": "native", "n_envs": 64, "ppo": {"n_steps": 64}}}
#: the update settings compared: the main job's before this measurement, and the shipped ones
#: (``{}``: agents/hyperparams/duel_v1.toml as it is)
UPDATES = {"before": {"n_epochs": 10, "batch_size": 512}, "shipped": {}}
#: the ratios printed per repeat: (name, numerator row, denominator row)
RATIOS = (("shipped native / python before (issue 30's target: >= 4x)",
           "native (64 duels), shipped", "python (dummy, 4 envs), before"),
          ("shipped native / python on the same shipped settings",
           "native (64 duels), shipped", "python (dummy, 4 envs), shipped"),
          ("native / python, both before", "native (64 duels), before",
           "python (dummy, 4 envs), before"))


class Timed:
    """Wall and CPU seconds inside one of ``MaskablePPO``'s methods (``learn``: the learning
    phase; ``train``: the updates). CPU seconds of this process are the steadier figure on
    a shared machine: another job's load takes wall time, not this process's CPU time (one
    torch thread, the envs in this process on both paths)."""

    def __init__(self, method: str) -> None:
        self.method, self.wall, self.cpu = method, 0.0, 0.0
        self._original = getattr(MaskablePPO, method)

    def __enter__(self) -> Timed:
        timer, original = self, self._original

        def timed(model, *args, **kwargs):
            t0, c0 = time.perf_counter(), time.process_time()
            try:
                return original(model, *args, **kwargs)
            finally:
                timer.wall += time.perf_counter() - t0
                timer.cpu += time.process_time() - c0

        setattr(MaskablePPO, self.method, timed)
        return self

    def __exit__(self, *exc: object) -> None:
        setattr(MaskablePPO, self.method, self._original)


def run(label: str, steps: int, overrides: dict) -> dict:
    """One training run of ``steps`` steps in a temporary folder: its time profile."""
    cfg = load_config(None, {**overrides, "total_steps": steps, "imitation": {"fights": 0},
                             "eval": {"every": 10 * steps}, "pool": {"snapshot_every": 4096},
                             "checkpoint_every": 10 * steps, "checkpoint_seconds": 86_400})
    with tempfile.TemporaryDirectory() as tmp, Timed("learn") as learning, Timed("train") as updates:
        train(cfg, Path(tmp) / "run", progress=False)
        prof = json.loads((Path(tmp) / "run" / "run.json").read_text())
    learn = prof["wall_seconds"]
    out = {"path": label, "steps": prof["steps"], "learn_seconds": learn,
           "learn_cpu_seconds": round(learning.cpu, 2),
           "steps_per_second": round(prof["steps"] / learn, 1),
           "steps_per_cpu_second": round(prof["steps"] / learning.cpu, 1),
           "env_seconds": prof["env_seconds"], "opponent_seconds": prof["opponent_seconds"],
           "update_seconds": round(updates.wall, 2), "update_cpu_seconds": round(updates.cpu, 2)}
    out["collection_seconds"] = round(learn - prof["env_seconds"] - prof["eval_seconds"] - updates.wall, 2)
    print(f"{label}: {out['steps_per_second']:,.0f} steps/s, {out['steps_per_cpu_second']:,.0f} per CPU "
          f"second ({out['steps']:,} steps in {learn:.1f} s, {learning.cpu:.1f} CPU s: "
          f"envs {out['env_seconds']:.1f} s, of which opponents {out['opponent_seconds']:.1f} s; "
          f"policy forwards and SB3's bookkeeping {out['collection_seconds']:.1f} s; "
          f"updates {out['update_seconds']:.1f} s, {updates.cpu:.1f} CPU s)", flush=True)
    return out


def runs() -> dict[str, dict]:
    """Every row's label and config overrides: each path with each update setting."""
    out = {}
    for update, ppo in UPDATES.items():
        for path, overrides in PATHS.items():
            out[f"{path}, {update}"] = {**overrides, "ppo": {**overrides["ppo"], **ppo}}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=40_000)
    ap.add_argument("--repeat", type=int, default=2, help="rounds of the four runs")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    repeats = []
    for i in range(args.repeat):
        print(f"repeat {i + 1} of {args.repeat}", flush=True)
        rows = {label: run(label, args.steps, ov) for label, ov in runs().items()}
        ratios = {name: {unit: round(rows[a][unit] / rows[b][unit], 3)
                         for unit in ("steps_per_second", "steps_per_cpu_second")}
                  for name, a, b in RATIOS}
        for name, r in ratios.items():
            print(f"  {name}: {r['steps_per_second']:.2f}x per wall second, "
                  f"{r['steps_per_cpu_second']:.2f}x per CPU second", flush=True)
        repeats.append({"rows": list(rows.values()), "ratios": ratios})
    if args.json:
        atomic_write_text(Path(args.json), json.dumps({"repeats": repeats}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Scaling of ``hexdojo train --backend rllib`` with the number of env runners (1, 2, 4).

Each configuration trains a fresh run through the backend itself (``train_rllib``: a
local Ray bound to 127.0.0.1, or the cluster of ``--address``/``RAY_ADDRESS``) for
``--iterations`` PPO iterations and reports env steps per second of wall time over all
but the first (warm-up) iteration: the whole iteration (the runners sampling, the learner
updating, the weights synced), since that is what a run gets. The train batch is
``--batch-per-runner`` env steps per runner, so it grows with the runners (issue 35) and
each runner samples the same amount whatever their number; the per-runner rate is the
rate divided by the runners. On a machine with fewer cores than runners + 1 the runners
share cores: the script prints the core count next to the figures, to be read with it.

Wall time depends on what else the machine runs; on a local Ray the script also counts the
CPU seconds of the whole run (this process and its descendants: the GCS, the raylet, the
runners, the learner) over the timed iterations, giving env steps per CPU second (what
each step costs, whatever the load) and the cores the run kept busy.

    python scripts/bench_rllib.py                                  # 1, 2 and 4 env runners
    python scripts/bench_rllib.py --runners 1 2 --iterations 6 --json
    RAY_ADDRESS=HEAD:6379 python scripts/bench_rllib.py --runners 8 16 32
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

#: the benchmark's run: the shipped hyper-parameters but one epoch over a per-runner batch
#: small enough for a 2-core machine (``--config`` replaces it)
BENCH = {"n_envs": 8, "ppo": {"n_epochs": 1}}


def bench(runners: int, iterations: int, batch: int, config: str | None,
          address: str | None) -> dict:
    """One configuration's figures (``iterations`` of which the first is not timed)."""
    from hexdojo.agents.training.config import load_config
    from hexdojo.agents.training.rllib_run import train_rllib

    overrides = {**({} if config else BENCH), "rllib": {
        "iterations": iterations, "num_env_runners": runners, "train_batch_per_runner": batch,
        "checkpoint_every": 1_000_000}}
    cfg = load_config(config, overrides)
    clock = CpuClock(local=address is None and not os.environ.get("RAY_ADDRESS"))
    with tempfile.TemporaryDirectory() as tmp:
        res = train_rllib(cfg, Path(tmp) / "run", address=address, log=clock)
    rows = res["iterations"][1:] or res["iterations"]
    rates = [r["steps_per_s"] for r in rows]
    steps = sum(r["env_steps"] for r in rows)
    secs = sum(r["seconds"] for r in rows)
    cpu = clock.marks[-1] - clock.marks[0] if len(clock.marks) > 1 else None
    return {"env_runners": runners, "train_batch": res["train_batch"],
            "iterations_timed": len(rows), "env_steps": steps, "steps_per_s": steps / secs,
            "per_runner": steps / secs / max(1, runners), "min": min(rates), "max": max(rates),
            "median": statistics.median(rates),
            "steps_per_cpu_s": steps / cpu if cpu else None,
            "cores_busy": cpu / secs if cpu else None}


class CpuClock:
    """The run's log: each iteration's line is printed, and on a local Ray the CPU seconds
    of this process and its descendants are noted when it comes."""

    def __init__(self, local: bool) -> None:
        self.local = local
        self.marks: list[float] = []

    def __call__(self, line: str) -> None:
        print(line, file=sys.stderr)
        if self.local and line.startswith("iteration "):
            self.marks.append(tree_cpu_seconds())


def tree_cpu_seconds() -> float:
    """User + system CPU seconds of this process and every live descendant."""
    import psutil  # Ray's own copy (ray/thirdparty_files, on the path once ray is imported)

    me = psutil.Process()
    total = 0.0
    for proc in [me, *me.children(recursive=True)]:
        try:
            t = proc.cpu_times()
            total += t.user + t.system
        except psutil.Error:  # a worker that ended between the listing and the reading
            continue
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runners", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--iterations", type=int, default=4)
    ap.add_argument("--batch-per-runner", type=int, default=2048)
    ap.add_argument("--config", default=None, help="a training TOML instead of the bench's run")
    ap.add_argument("--address", default=None)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out = {"cpus": os.cpu_count(), "load_avg": os.getloadavg(), "batch_per_runner": a.batch_per_runner,
           "config": a.config or BENCH,
           "results": [bench(n, a.iterations, a.batch_per_runner, a.config, a.address)
                       for n in a.runners]}
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['cpus']} CPUs (load {out['load_avg'][0]:.1f} at the start), "
          f"{a.batch_per_runner} env steps per runner per iteration")
    for r in out["results"]:
        cpu = (f"; {r['steps_per_cpu_s']:.0f} per CPU second, {r['cores_busy']:.2f} cores busy"
               if r["steps_per_cpu_s"] else "")
        print(f"{r['env_runners']} env runner(s): {r['steps_per_s']:.0f} env steps/s, "
              f"{r['per_runner']:.0f} per runner (iterations {r['min']:.0f}..{r['max']:.0f}, "
              f"train batch {r['train_batch']}, {r['env_steps']} steps timed){cpu}")


if __name__ == "__main__":
    main()

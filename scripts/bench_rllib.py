"""RLlib sampling + training speed of ``hexdojo train --backend rllib`` with 1 and 2 env runners.

Each configuration starts a fresh local Ray, builds the same PPO (masking RLModule,
self-play, train batch ``--batch`` env steps per iteration), runs ``--iterations``
iterations and reports env steps per second of wall time over all but the first (warm-up)
iteration, with the range over iterations. On a Ray cluster pass ``--address auto`` (after
``ray start --head`` here and ``ray start --address=HEAD:6379`` on the other machines).

    python scripts/bench_rllib.py                       # 1 and 2 env runners
    python scripts/bench_rllib.py --runners 1 2 4 --iterations 6 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path


def bench(runners: int, iterations: int, batch: int, address: str | None) -> dict:
    from hexdojo.agents.rllib_backend import train_rllib
    from hexdojo.envs import DUEL_V1_DEFAULTS

    with tempfile.TemporaryDirectory() as tmp:
        res = train_rllib(Path(tmp) / "run", dict(DUEL_V1_DEFAULTS), iterations, runners,
                          seed=0, address=address, log=lambda s: print(s, file=sys.stderr),
                          train_batch=batch)
    rows = res["iterations"][1:] or res["iterations"]
    rates = [r["steps_per_s"] for r in rows]
    steps = sum(r["env_steps"] for r in rows)
    secs = sum(r["seconds"] for r in rows)
    return {"env_runners": runners, "iterations_timed": len(rows), "env_steps": steps,
            "steps_per_s": steps / secs, "min": min(rates), "max": max(rates),
            "median": statistics.median(rates)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--iterations", type=int, default=4)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--address", default=None)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out = {"cpus": os.cpu_count(), "batch": a.batch,
           "results": [bench(n, a.iterations, a.batch, a.address) for n in a.runners]}
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(f"{out['cpus']} CPUs, train batch {a.batch} env steps per iteration")
    for r in out["results"]:
        print(f"{r['env_runners']} env runner(s): {r['steps_per_s']:.0f} env steps/s "
              f"(iterations {r['min']:.0f}..{r['max']:.0f}, {r['env_steps']} steps timed)")


if __name__ == "__main__":
    main()

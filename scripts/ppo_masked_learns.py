"""Does ``examples/ppo_masked.py`` learn? Its win rate against random play, first and last
episodes of a run, with 95 % Wilson intervals (issue 35).

Runs the example as a user would (its defaults but ``--total-timesteps``), reads its
TensorBoard run back and counts its episodes' returns (+1 a win, -1 a loss, 0 a draw):
the first ``--window`` episodes (the untrained policy) against the last ``--window`` (the
policy sampled as it trains, not a separate evaluation). Also the illegal actions (0 when
the mask holds) and the run's steps per second on this machine.

    python scripts/ppo_masked_learns.py                       # 200k steps, ~3 min on 2 busy cores
    python scripts/ppo_masked_learns.py --steps 100000 --seed 2 --json
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from hexdojo.agents.ratings import wilson

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "ppo_masked.py"


def scalars(run_dir: Path, tag: str) -> np.ndarray:
    acc = EventAccumulator(str(run_dir), size_guidance={"scalars": 0})
    acc.Reload()
    return np.array([e.value for e in acc.Scalars(tag)])


def rate(returns: np.ndarray) -> dict[str, float]:
    """Wins among ``returns``, in percent, with the 95 % Wilson interval."""
    wins, n = int((returns == 1).sum()), len(returns)
    lo, hi = wilson(wins, n)
    return {"win": 100 * wins / n, "lo": 100 * lo, "hi": 100 * hi, "n": n}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200_000, help="the run's total env steps")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--window", type=int, default=1000, help="episodes at each end")
    ap.add_argument("--json", action="store_true", help="one JSON line instead of text")
    a = ap.parse_args(argv)
    if a.steps < 8192 or a.window < 10:
        ap.error(f"--steps {a.steps} / --window {a.window}: at least 8192 and 10")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, str(EXAMPLE), "--total-timesteps", str(a.steps),
                        "--seed", str(a.seed), "--log-dir", tmp], check=True, capture_output=True)
        wall = time.perf_counter() - t0
        (run_dir,) = list(Path(tmp).iterdir())
        returns = scalars(run_dir, "charts/episodic_return")
        illegal = int(scalars(run_dir, "charts/illegal_actions")[-1])
        sps = float(scalars(run_dir, "charts/SPS")[-1])
    if len(returns) < 2 * a.window:
        ap.error(f"{len(returns)} episodes: fewer than twice --window {a.window}")
    out = {"steps": a.steps, "seed": a.seed, "episodes": len(returns), "first": rate(returns[:a.window]),
           "last": rate(returns[-a.window:]), "illegal_actions": illegal, "steps_per_s": sps,
           "wall_s": round(wall, 1)}
    if a.json:
        print(json.dumps(out))
        return 0
    for k in ("first", "last"):
        r = out[k]
        print(f"{k} {r['n']} episodes: wins {r['win']:.1f} % [{r['lo']:.1f}, {r['hi']:.1f}]")
    print(f"{len(returns)} episodes, {illegal} illegal actions, {sps:,.0f} steps/s, {wall:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

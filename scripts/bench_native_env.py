"""The native vector env's speed (issue 15): N duels stepped in the core per call, against
PettingZoo's connect_four_v3 in the same process, on one core.

Every slot plays a random legal action drawn in Python from the masks the env hands out
(``random_legal``: a few numpy calls for all N rows, one random number per row); the opponent is the
env's own random play inside the core. Reported: total env steps/s (all slots together) for
each N, with the flat observation and with the ``Dict`` (views of the flat vector), and the
ratio to connect_four_v3's steps/s measured in the same run.

    python scripts/bench_native_env.py                 # N = 1 and 64
    python scripts/bench_native_env.py --envs 1 16 64 256 --steps 200000 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_env import _pin_one_core, bench_connect_four  # noqa: E402


def random_legal(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal id per row of ``mask`` (n x m, nonzero = legal), vectorised:
    the legal ids of all rows in one flat list, a random offset into each row's run."""
    n, m = mask.shape
    nz = np.flatnonzero(mask)
    counts = np.count_nonzero(mask, axis=1)
    starts = np.cumsum(counts) - counts
    pick = starts + (rng.random(n) * counts).astype(np.int64)
    return nz[pick] - np.arange(n, dtype=np.int64) * m


def bench_native(num_envs: int, steps: int, seed: int, flat: bool, env_id: str) -> float:
    """Total env steps/s of the native vector env with ``num_envs`` slots."""
    import gymnasium as gym

    import hexdojo.envs  # noqa: F401 - registers the ids

    env = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point",
                       flat_observation=flat)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    calls = max(1, steps // num_envs)
    t0 = time.perf_counter()
    for _ in range(calls):
        mask = info["action_mask"]
        actions = random_legal(mask, rng)
        _, _, _, _, info = env.step(actions)
    return calls * num_envs / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, nargs="+", default=[1, 64], help="slots per vector env")
    ap.add_argument("--steps", type=int, default=100_000, help="env steps per measurement")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds; medians reported")
    ap.add_argument("--env-id", default="hexdojo/Duel-v1")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="one JSON line instead of text")
    args = ap.parse_args(argv)
    pinned = _pin_one_core()
    c4, runs = [], {(n, f): [] for n in args.envs for f in (True, False)}
    for r in range(args.rounds):
        c4.append(bench_connect_four(min(args.steps, 40_000), args.seed + r))
        for (n, flat), out in runs.items():
            out.append(bench_native(n, args.steps, args.seed + r, flat, args.env_id))
    ref = statistics.median(c4)
    res = {"connect_four_v3": round(ref), "pinned": pinned, "env_id": args.env_id}
    for (n, flat), out in runs.items():
        v = statistics.median(out)
        res[f"native_{n}_{'flat' if flat else 'dict'}"] = {"steps_per_s": round(v),
                                                            "ratio": round(v / ref, 2)}
    if args.json:
        print(json.dumps(res))
        return 0
    print(f"connect_four_v3: {ref:,.0f} steps/s ({pinned}); {args.env_id}, native vector env:")
    for (n, flat), _ in runs.items():
        x = res[f"native_{n}_{'flat' if flat else 'dict'}"]
        print(f"  {n:>4} duels, {'flat' if flat else 'Dict'}: {x['steps_per_s']:>10,} steps/s "
              f"= {x['ratio']:.2f}x connect_four_v3")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

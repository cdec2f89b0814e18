"""The native vector env's speed (issue 15): N duels stepped in the core per call, against
PettingZoo's connect_four_v3 in the same process, on one core.

Every slot plays a random legal action drawn in Python from the masks the env hands out
(``random_legal``: a few numpy calls for all N rows, one random number per row). The
opponents (``--opponents``): ``random`` (the default, the env's own random play inside the
core), an agent name (``greedy``: its native player inside the core, issue 30) and
``python:NAME`` (the same agent asked through its Python ``act`` on a ``State`` of each of
its decisions, its native player hidden: issue 32's Python opponent of the vector env; one
fifth of ``--steps`` per measurement, the rate is what counts). Reported: total env steps/s
(all slots together) for each opponent and N, with the flat observation and with the
``Dict`` (views of the flat vector), and the ratio to connect_four_v3's steps/s measured in
the same rounds.

    python scripts/bench_native_env.py                 # N = 1 and 64, random play
    python scripts/bench_native_env.py --opponents random greedy python:greedy
    python scripts/bench_native_env.py --envs 1 16 64 256 --steps 200000 --json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

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


class PythonOnly:
    """An agent with its native player hidden: the env asks its ``act`` from Python."""

    def __init__(self, agent: Any) -> None:
        self.agent, self.name = agent, f"python:{agent.name}"

    def act(self, state: Any) -> Any:
        return self.agent.act(state)

    def reset(self, seed: int | None = None) -> None:
        self.agent.reset(seed)


def make_opponent(spec: str) -> Any:
    """``random`` (None: the core's play), an agent name, or ``python:NAME`` (PythonOnly)."""
    if spec == "random":
        return None
    from hexdojo.agents.registry import make_agent

    if spec.startswith("python:"):
        return PythonOnly(make_agent(spec.removeprefix("python:")))
    return make_agent(spec)


def bench_native(num_envs: int, steps: int, seed: int, flat: bool, env_id: str,
                 opponent: str = "random") -> float:
    """Total env steps/s of the native vector env with ``num_envs`` slots."""
    import gymnasium as gym

    import hexdojo.envs  # noqa: F401 - registers the ids

    env = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode="vector_entry_point",
                       flat_observation=flat, opponent=make_opponent(opponent))
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    calls = max(1, steps // num_envs)
    t0 = time.perf_counter()
    for _ in range(calls):
        mask = info["action_mask"]
        actions = random_legal(mask, rng)
        _, _, _, _, info = env.step(actions)
    return calls * num_envs / (time.perf_counter() - t0)


def _key(opponent: str, n: int, flat: bool) -> str:
    """The JSON key of a measurement (random play keeps the keys it always had)."""
    head = "native" if opponent == "random" else f"{opponent}"
    return f"{head}_{n}_{'flat' if flat else 'dict'}"


def measure(args: argparse.Namespace) -> tuple[float, dict[tuple[str, int, bool], float]]:
    """connect_four_v3's median and each (opponent, N, flat)'s, in alternating rounds."""
    c4, runs = [], {(o, n, f): [] for o in args.opponents for n in args.envs for f in (True, False)}
    for r in range(args.rounds):
        c4.append(bench_connect_four(min(args.steps, 40_000), args.seed + r))
        for (opp, n, flat), out in runs.items():
            steps = args.steps // 5 if opp.startswith("python:") else args.steps
            out.append(bench_native(n, steps, args.seed + r, flat, args.env_id, opp))
    return statistics.median(c4), {k: statistics.median(v) for k, v in runs.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, nargs="+", default=[1, 64], help="slots per vector env")
    ap.add_argument("--steps", type=int, default=100_000, help="env steps per measurement")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds; medians reported")
    ap.add_argument("--opponents", nargs="+", default=["random"],
                    help="random, an agent name (played in the core) or python:NAME (its act)")
    ap.add_argument("--env-id", default="hexdojo/Duel-v1")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="one JSON line instead of text")
    args = ap.parse_args(argv)
    pinned = _pin_one_core()
    ref, med = measure(args)
    res: dict[str, Any] = {"connect_four_v3": round(ref), "pinned": pinned, "env_id": args.env_id}
    for (opp, n, flat), v in med.items():
        res[_key(opp, n, flat)] = {"steps_per_s": round(v), "ratio": round(v / ref, 2)}
    if args.json:
        print(json.dumps(res))
        return 0
    print(f"connect_four_v3: {ref:,.0f} steps/s ({pinned}); {args.env_id}, native vector env:")
    for opp, n, flat in med:
        x = res[_key(opp, n, flat)]
        print(f"  {opp:>14}, {n:>4} duels, {'flat' if flat else 'Dict'}: {x['steps_per_s']:>10,} "
              f"steps/s = {x['ratio']:.2f}x connect_four_v3")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

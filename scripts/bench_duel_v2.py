"""Duel-v2's speed against Duel-v1's: random legal play, observation + mask every step.

The same loop as ``scripts/bench_env.py``'s Duel-v0 one (read ``info["action_mask"]``,
pick a uniformly random legal id, step), through ``gymnasium.make`` of each id with its
defaults (Duel-v1: the Chu mirror, 369 ids, 280 numbers; Duel-v2: Chu against the guard,
824 ids, 442 numbers), one process pinned to one core, the two interleaved round by round
so that a busy machine slows both alike; the median round of each is printed.

    python scripts/bench_duel_v2.py                 # steps/s of both and their ratio
    python scripts/bench_duel_v2.py --steps 20000 --rounds 5 --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time


def _pin_one_core() -> str:
    try:
        cpu = min(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpu})
        return f"pinned to cpu {cpu}"
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return "not pinned"


def steps_per_second(env_id: str, steps: int, seed: int, **options: object) -> float:
    """Env steps/s of ``env_id`` under random legal actions (obs + mask included)."""
    import gymnasium as gym
    import numpy as np

    import hexdojo.envs  # noqa: F401 - registers the ids

    env = gym.make(env_id, **options)
    rng = np.random.default_rng(seed)
    rand = rng.random
    flatnonzero = np.flatnonzero
    _, info = env.reset(seed=seed)
    t0 = time.perf_counter()
    for _ in range(steps):
        ids = flatnonzero(info["action_mask"])
        _, _, term, trunc, info = env.step(ids[int(rand() * len(ids))])
        if term or trunc:
            _, info = env.reset()
    return steps / (time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=10_000, help="steps per round and env")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median kept)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="one JSON line instead of text")
    a = ap.parse_args(argv)
    if a.steps < 1 or a.rounds < 1:
        ap.error(f"--steps {a.steps} / --rounds {a.rounds}: both must be at least 1")
    pinned = _pin_one_core()
    rates: dict[str, list[float]] = {"hexdojo/Duel-v1": [], "hexdojo/Duel-v2": []}
    for r in range(a.rounds):
        for env_id, out in rates.items():
            out.append(steps_per_second(env_id, a.steps, a.seed + r))
    med = {k: statistics.median(v) for k, v in rates.items()}
    ratio = med["hexdojo/Duel-v2"] / med["hexdojo/Duel-v1"]
    if a.json:
        print(json.dumps({"steps": a.steps, "rounds": a.rounds, "pinned": pinned,
                          "steps_per_s": med, "v2_over_v1": ratio}))
    else:
        for k, v in med.items():
            print(f"{k}: {v:,.0f} steps/s (median of {a.rounds} x {a.steps:,} steps; {pinned})")
        print(f"Duel-v2 / Duel-v1: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

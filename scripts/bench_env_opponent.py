"""Env steps per CPU second with a scripted opponent (what the main job's training steps
against), on the native core and on the Python engine, in one run.

Random legal actions for the learner, ``hexdojo/Duel-v1``, chu vs boris; the opponent is a
scripted style, which on the core is the native bot (issue 15). CPU time of this process,
the steadier figure on a shared machine.

    python scripts/bench_env_opponent.py                       # greedy and striker
    python scripts/bench_env_opponent.py --opponents counter --steps 5000
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import gymnasium as gym
import numpy as np

import hexdojo.envs  # noqa: F401 - registers the ids


def steps_per_cpu_second(opponent: str, engine: str, steps: int) -> float:
    """Random legal play against ``opponent`` on ``engine`` for ``steps`` env steps."""
    os.environ["HEXDOJO_ENGINE"] = engine
    env = gym.make("hexdojo/Duel-v1", opponent=opponent, fighters=("chu", "boris"))
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    t0 = time.process_time()
    for _ in range(steps):
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            _, info = env.reset()
    return steps / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponents", nargs="+", default=["greedy", "striker"])
    ap.add_argument("--steps", type=int, default=3000)
    args = ap.parse_args(argv)
    for opp in args.opponents:
        py = steps_per_cpu_second(opp, "python", args.steps)
        nat = steps_per_cpu_second(opp, "native", args.steps)
        print(f"{opp}: native {nat:,.0f}, Python {py:,.0f} steps per CPU second ({nat / py:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

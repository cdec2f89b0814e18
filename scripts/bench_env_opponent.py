"""Env steps per CPU second with a scripted opponent (what the main job's training steps
against), against random play's and PettingZoo connect_four_v3's in one run.

Random legal actions for the learner, ``hexdojo/Duel-v1``, chu vs boris; the opponent is a
scripted style, the native bot (issue 15; on the Python engine, deleted since, these steps
were 3.4-3.5x slower). CPU time of this process, the steadier figure on a shared machine.

    python scripts/bench_env_opponent.py                       # greedy and striker
    python scripts/bench_env_opponent.py --opponents counter --steps 5000
"""

from __future__ import annotations

import argparse
import sys
import time

import gymnasium as gym
import numpy as np
from bench_env import bench_connect_four

import hexdojo.envs  # noqa: F401 - registers the ids


def steps_per_cpu_second(opponent: str, steps: int) -> float:
    """Random legal play against ``opponent`` for ``steps`` env steps."""
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
    base = steps_per_cpu_second("random", args.steps)
    t0 = time.process_time()
    bench_connect_four(args.steps, 0)
    c4 = args.steps / (time.process_time() - t0)
    print(f"random opponent: {base:,.0f} steps per CPU second; connect_four_v3: {c4:,.0f}")
    for opp in args.opponents:
        got = steps_per_cpu_second(opp, args.steps)
        print(f"{opp}: {got:,.0f} steps per CPU second ({got / base:.2f}x random's, "
              f"{got / c4:.2f}x connect_four_v3's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Env steps per CPU second with a scripted opponent (what the main job's training steps
against), against random play's and PettingZoo connect_four_v3's in one run.

Random legal actions for the learner (the same cheap pick as ``bench_env``'s
connect_four_v3 loop), ``hexdojo/Duel-v1``, chu vs boris; the opponent is a scripted style.
Since issue 30 a native opponent (``native_player``: the scripted styles, mcts, search) is
played inside the core on the env's fast path; ``--python`` also measures the env's Python
path (``native=False``: the opponent's ``act`` called from Python each decision), the path
every non-random opponent took before. CPU time of this process, the steadier figure on a
shared machine.

    python scripts/bench_env_opponent.py                       # greedy and striker, flat and Dict
    python scripts/bench_env_opponent.py --opponents counter --steps 5000 --python
    python scripts/bench_env_opponent.py --checkpoint runs/npc/npc.zip   # a past self, batched

``--checkpoint`` also measures the native vector env (64 duels) against a trained policy,
answered in one batched forward per step for every slot waiting on it (issue 30): total env
steps per CPU second, flat observation.
"""

from __future__ import annotations

import argparse
import sys
import time

import gymnasium as gym
import numpy as np
from bench_env import bench_connect_four

import hexdojo.envs  # noqa: F401 - registers the ids


def steps_per_cpu_second(opponent: str, steps: int, flat: bool, native: bool | None = None) -> float:
    """Random legal play against ``opponent`` for ``steps`` env steps."""
    env = gym.make("hexdojo/Duel-v1", opponent=opponent, fighters=("chu", "boris"),
                   flat_observation=flat, native=native)
    rng = np.random.default_rng(0)
    rand, flatnonzero = rng.random, np.flatnonzero
    _, info = env.reset(seed=0)
    t0 = time.process_time()
    for _ in range(steps):
        ids = flatnonzero(info["action_mask"])
        _, _, term, trunc, info = env.step(int(ids[int(rand() * len(ids))]))
        if term or trunc:
            _, info = env.reset()
    return steps / (time.process_time() - t0)


def vector_vs_checkpoint(path: str, steps: int, n: int = 64) -> float:
    """Env steps per CPU second of ``n`` native duels against checkpoint ``path`` (batched)."""
    import torch

    from hexdojo.agents.policy import LearnedAgent
    from hexdojo.envs.vector_env import NativeDuelVectorEnv

    torch.set_num_threads(1)  # a small net (docs/npc.md): training's setting

    env = NativeDuelVectorEnv(n, opponent=LearnedAgent.load(path, deterministic=False),
                              fighters=("chu", "boris"), flat_observation=True)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    rounds = max(1, steps // n)
    t0 = time.process_time()
    for _ in range(rounds):
        masks = env.action_masks()
        u = rng.random(n)
        env.step(np.array([np.flatnonzero(m)[int(x * m.sum())] for m, x in zip(masks, u, strict=True)]))
    return rounds * n / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponents", nargs="+", default=["greedy", "striker"])
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--python", action="store_true", help="also the env's Python path (native=False)")
    ap.add_argument("--checkpoint", default=None, help="also 64 native duels against this checkpoint")
    args = ap.parse_args(argv)
    t0 = time.process_time()
    bench_connect_four(args.steps, 0)
    c4 = args.steps / (time.process_time() - t0)
    print(f"connect_four_v3: {c4:,.0f} steps per CPU second")
    for flat in (True, False):
        form = "flat" if flat else "Dict"
        base = steps_per_cpu_second("random", args.steps, flat)
        print(f"[{form}] random opponent: {base:,.0f} ({base / c4:.2f}x connect_four_v3's)")
        for opp in args.opponents:
            got = steps_per_cpu_second(opp, args.steps, flat)
            line = (f"[{form}] {opp}: {got:,.0f} steps per CPU second ({got / base:.2f}x random's, "
                    f"{got / c4:.2f}x connect_four_v3's)")
            if args.python:
                slow = steps_per_cpu_second(opp, args.steps, flat, native=False)
                line += f"; its Python path {slow:,.0f} ({slow / c4:.2f}x): the core {got / slow:.1f}x faster"
            print(line)
    if args.checkpoint:
        got = vector_vs_checkpoint(args.checkpoint, 20 * args.steps)
        print(f"[flat] 64 native duels vs {args.checkpoint} (batched): {got:,.0f} steps per CPU "
              f"second ({got / c4:.2f}x connect_four_v3's)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

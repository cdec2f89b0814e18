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
    python scripts/bench_env_opponent.py --checkpoint runs/npc/npc.zip   # a past self

``--checkpoint`` also measures a trained policy as the opponent, sampled at temperature 1 (a
past self of the training pool), flat observation: the single env with the policy played
inside the core (``LearnedAgent.native_player``, a ``_bots.NetPlayer``) and through its Python
``act`` (``native=False``); and the native vector env (64 duels) with the policy inside the
core against the same policy answered in one batched torch forward per round for every slot
waiting on it (``batch_act``, torch's sampler: the path before the native player; issue 30).
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import gymnasium as gym
import numpy as np
from bench_env import bench_connect_four

import hexdojo.envs  # noqa: F401 - registers the ids


def steps_per_cpu_second(opponent: Any, steps: int, flat: bool, native: bool | None = None) -> float:
    """Random legal play against ``opponent`` (a name or an agent) for ``steps`` env steps."""
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


def checkpoint(path: str, native: bool) -> Any:
    """The policy at ``path`` sampled at temperature 1: with ``native``, through its native
    player (the same draws as its ``act``); else as the training pool loads a past self
    (``deterministic=False``: torch's sampler in ``act``, Gumbel-max in ``batch_act``), which
    the core cannot play. torch on one thread (a small net, docs/npc.md: training's setting)."""
    import torch

    from hexdojo.agents.policy import LearnedAgent

    torch.set_num_threads(1)
    if native:
        agent = LearnedAgent.load(path, temperature=1.0)
        assert agent.native_player(agent_game()) is not None, "no native player for this checkpoint"
        return agent
    return LearnedAgent.load(path, deterministic=False)


def agent_game() -> Any:
    from hexdojo.envs.rules import Game

    return Game.create(["chu", "boris"])


def vector_vs_checkpoint(path: str, steps: int, native: bool, n: int = 64) -> float:
    """Env steps per CPU second of ``n`` native duels against checkpoint ``path``: played
    inside the core (``native``) or answered in batched forwards."""
    from hexdojo.envs.vector_env import NativeDuelVectorEnv

    env = NativeDuelVectorEnv(n, opponent=checkpoint(path, native), fighters=("chu", "boris"),
                              flat_observation=True, native=True if native else None)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    rounds = max(1, steps // n)
    t0 = time.process_time()
    for _ in range(rounds):
        masks = env.action_masks()
        u = rng.random(n)
        env.step(np.array([np.flatnonzero(m)[int(x * m.sum())] for m, x in zip(masks, u, strict=True)]))
    return rounds * n / (time.process_time() - t0)


def checkpoint_rows(path: str, steps: int, c4: float) -> None:
    """The checkpoint's rows: the single env (native player, then its Python act) and 64
    native duels (native player, then batched forwards), each a ratio to connect_four_v3."""
    rows = [("single env, the policy inside the core", steps_per_cpu_second(
                checkpoint(path, True), steps, True, native=True)),
            ("single env, its Python act (native=False)", steps_per_cpu_second(
                checkpoint(path, True), steps, True, native=False)),
            ("64 native duels, the policy inside the core", vector_vs_checkpoint(path, 20 * steps, True)),
            ("64 native duels, batched forwards", vector_vs_checkpoint(path, 20 * steps, False))]
    for what, got in rows:
        print(f"[flat] vs {path} (sampled), {what}: {got:,.0f} steps per CPU second "
              f"({got / c4:.2f}x connect_four_v3's)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--opponents", nargs="+", default=["greedy", "striker"])
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--python", action="store_true", help="also the env's Python path (native=False)")
    ap.add_argument("--checkpoint", default=None,
                    help="also a trained policy as the opponent (single env, 64 native duels)")
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
        checkpoint_rows(args.checkpoint, args.steps, c4)
    return 0


if __name__ == "__main__":
    sys.exit(main())

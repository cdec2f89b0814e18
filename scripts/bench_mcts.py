"""MCTS simulations per second of the default ``mcts`` agent on mid-fight states.

Why: a search agent's speed is clone(), legal_choices() and apply() in a loop plus its
scripted policy's scoring; issue 15 asks the native core for >= 10x the Python engine's
simulations/s at the default settings. The states are the same on both engines: Chu
mirror fights played ``--prefix`` random legal decisions in (seeded), kept where the agent
searches (not a forced or odds-exact decision). Simulations are counted as they run (the
agent stops early when the root has a single child).

    python scripts/bench_mcts.py [--states 12] [--engine python|native|both]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from hexdojo.agents.registry import make_agent
from hexdojo.envs.rules import Game

ENGINES = ("python", "native")


def states(engine: str, n: int, prefix: int, fighters: list[str]) -> list[Any]:
    """``n`` mid-fight states where the default mcts agent searches (seeded, so both
    engines get the same states)."""
    game, agent = Game.create(fighters), make_agent("mcts")
    out: list[Any] = []
    seed = 0
    while len(out) < n and seed < 50 * n:
        s, rng = game.new_state(seed, engine=engine), np.random.default_rng(seed)
        seed += 1
        for _ in range(prefix):
            if s.is_over:
                break
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
        while not s.is_over and agent.policy_only(s) is not None:
            s.apply(agent.policy.act(s))
        if not s.is_over:
            out.append(s)
    return out


def measure(engine: str, n: int, prefix: int, fighters: list[str]) -> float:
    """Simulations/s of one default mcts agent deciding each state once."""
    agent = make_agent("mcts")
    sims = 0
    run = agent._simulate

    def counted(*a: Any) -> None:
        nonlocal sims
        sims += 1
        run(*a)

    agent._simulate = counted  # type: ignore[method-assign]
    todo = states(engine, n, prefix, fighters)
    t0, c0 = time.perf_counter(), time.process_time()
    for s in todo:
        agent.reset(0)
        agent.act(s)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"[{engine}] {len(todo)} states, {sims} simulations in {wall:.2f} s: "
          f"{sims / wall:,.0f} simulations/s ({sims / cpu:,.0f} per CPU second), "
          f"{wall / len(todo) * 1000:.0f} ms per decision")
    return sims / cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=12)
    ap.add_argument("--prefix", type=int, default=6, help="random decisions before a state")
    ap.add_argument("--fighters", default="chu,chu")
    ap.add_argument("--engine", choices=(*ENGINES, "both"), default="python")
    args = ap.parse_args()
    engines = ENGINES if args.engine == "both" else (args.engine,)
    got = {e: measure(e, args.states, args.prefix, args.fighters.split(",")) for e in engines}
    if len(got) == 2:
        print(f"native/python simulations per CPU second: {got['native'] / got['python']:.1f}x"
              " (target >= 10x)")


if __name__ == "__main__":
    main()

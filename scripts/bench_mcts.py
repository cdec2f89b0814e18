"""MCTS simulations per second of the default ``mcts`` agent on mid-fight states.

Why: a search agent's speed is clone(), legal_choices() and apply() in a loop plus its
scripted policy's scoring; issue 15 asked for >= 10x the Python engine's simulations/s at
the default settings (met: 34-46x, docs/history/native-core-port.md; the Python engine and,
since issue 32, the Python copy of the search are deleted: the search runs inside the core,
agents/native/search.hpp). The states: Chu mirror fights played ``--prefix`` random legal
decisions in (seeded), kept where the agent searches (not a forced or odds-exact decision).
Simulations are counted as the seeds the agent draws (one per simulation; the agent stops
early when the root has a single child).

    python scripts/bench_mcts.py [--states 12]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np

from hexdojo.agents.registry import make_agent
from hexdojo.agents.search import SEARCHED
from hexdojo.envs.rules import Game


class CountingRng:
    """The agent's generator, counting the per-decision seeds drawn (one per simulation)."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng, self.drawn = rng, 0

    def integers(self, *a: Any, size: int, **k: Any) -> Any:
        self.drawn += size
        return self.rng.integers(*a, size=size, **k)


def states(n: int, prefix: int, fighters: list[str]) -> list[Any]:
    """``n`` mid-fight states where the default mcts agent searches (seeded, so both
    modes get the same states)."""
    game, agent = Game.create(fighters), make_agent("mcts")
    out: list[Any] = []
    seed = 0
    while len(out) < n and seed < 50 * n:
        s, rng = game.new_state(seed), np.random.default_rng(seed)
        seed += 1
        for _ in range(prefix):
            if s.is_over:
                break
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
        while not s.is_over and (s.decision.kind not in SEARCHED or len(s.legal_choices()) == 1):
            s.apply(agent.policy.act(s))
        if not s.is_over:
            out.append(s)
    return out


def measure(n: int, prefix: int, fighters: list[str]) -> float:
    """Simulations/s of one default mcts agent deciding each state once."""
    agent = make_agent("mcts")
    todo = states(n, prefix, fighters)
    sims = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for s in todo:
        agent.reset(0)
        agent.rng = rng = CountingRng(agent.rng)
        agent.act(s)
        sims += rng.drawn
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"{len(todo)} states, {sims} simulations in {wall:.2f} s: "
          f"{sims / wall:,.0f} simulations/s ({sims / cpu:,.0f} per CPU second), "
          f"{wall / len(todo) * 1000:.1f} ms per decision")
    return sims / cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=12)
    ap.add_argument("--prefix", type=int, default=6, help="random decisions before a state")
    ap.add_argument("--fighters", default="chu,chu")
    args = ap.parse_args()
    measure(args.states, args.prefix, args.fighters.split(","))


if __name__ == "__main__":
    main()

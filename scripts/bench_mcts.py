"""MCTS simulations per second of the default ``mcts`` agent on mid-fight states.

Why: a search agent's speed is clone(), legal_choices() and apply() in a loop plus its
scripted policy's scoring; issue 15 asked for >= 10x the Python engine's simulations/s at
the default settings (met: 34-46x, docs/history/native-core-port.md; the Python engine and,
since issue 32, the Python copy of the search are deleted: the search runs inside the core,
agents/native/search.hpp). The states: Chu mirror fights played ``--prefix`` random legal
decisions in (seeded), kept where the agent searches (not a forced or odds-exact decision).
Simulations are counted as the seeds the agent draws (one per simulation; the agent stops
early when the root has a single child).

``--prior`` measures ``GuidedMCTS`` (96 simulations, width 2) over a learned prior
(``--checkpoint``, the shipped general NPC by default) in the forms the search takes
(issue 32, "the native search takes a prior"): ``native`` (the network copied into the core,
``_bots.PriorPolicy``), ``callable`` (a Python callable returning the same network's logits,
asked through ``_bots.CallbackPrior`` at each node the tree expands: the same tree, so the
difference is the callback's cost), ``torch`` (a callable scoring with the policy in torch, as
a plug-in would) or ``all`` (the three, on the same states, in one run).

    python scripts/bench_mcts.py [--states 12]
    python scripts/bench_mcts.py --prior all --states 24
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from hexdojo.agents import scripted_core, search_core
from hexdojo.agents.guided import GuidedMCTS
from hexdojo.agents.policy import LearnedAgent
from hexdojo.agents.registry import make_agent
from hexdojo.agents.search import SEARCHED
from hexdojo.envs.rules import Game, State
from hexdojo.envs.sheets import general_inputs

GENERAL = Path(__file__).parents[1] / "agents" / "data" / "general_npc.zip"
PRIORS = ("native", "callable", "torch")


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


def measure(n: int, prefix: int, fighters: list[str],
            make: Callable[[], Any] = lambda: make_agent("mcts"), label: str = "mcts") -> float:
    """Simulations/s of one agent (``make()``, the default mcts agent unless told) deciding
    each state once."""
    agent = make()
    todo = states(n, prefix, fighters)
    sims = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for s in todo:
        agent.reset(0)
        agent.rng = rng = CountingRng(agent.rng)
        agent.act(s)
        sims += rng.drawn
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"{label}: {len(todo)} states, {sims} simulations in {wall:.2f} s: "
          f"{sims / wall:,.0f} simulations/s ({sims / cpu:,.0f} per CPU second), "
          f"{wall / len(todo) * 1000:.1f} ms per decision")
    return sims / cpu


def network_logits(agent: LearnedAgent) -> Callable[[State], list[float]]:
    """A Python callable returning the native network's own logits (the same ranking, so
    the same tree as the native prior: what differs is the call into Python)."""
    nets: dict[int, tuple[Any, Any]] = {}

    def score(state: State) -> list[float]:
        game = state.game
        if id(game) not in nets:
            nets[id(game)] = (game, search_core.prior_policy(GuidedMCTS(agent), game))
        return nets[id(game)][1].legal_logits(scripted_core.core_of(state))

    return score


def torch_logits(agent: LearnedAgent) -> Callable[[State], Any]:
    """A Python callable scoring with the policy in torch, as a plug-in would."""
    import torch  # optional: the rl extra

    policy = agent.model.policy

    def score(state: State) -> Any:
        if agent.general:
            obs, mask, _, ids, _ = general_inputs(state)
        else:
            obs, mask, _, ids = agent.duel_inputs(state)
        with torch.no_grad():
            o, _ = policy.obs_to_tensor(obs)
            z = policy.get_distribution(o, action_masks=mask[None]).distribution.logits[0]
        return z.numpy()[ids]

    return score


def measure_prior(kind: str, args: argparse.Namespace) -> float:
    """Simulations per CPU second of GuidedMCTS over the checkpoint as prior ``kind``."""
    agent = LearnedAgent.load(args.checkpoint)
    prior = {"native": lambda: agent, "callable": lambda: network_logits(agent),
             "torch": lambda: torch_logits(agent)}[kind]()
    return measure(args.states, args.prefix, args.fighters.split(","),
                   lambda: GuidedMCTS(prior, sims=96, width=2), f"guided, {kind} prior")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=12)
    ap.add_argument("--prefix", type=int, default=6, help="random decisions before a state")
    ap.add_argument("--fighters", default="chu,chu")
    ap.add_argument("--prior", choices=[*PRIORS, "all"], default=None,
                    help="measure GuidedMCTS over --checkpoint as this prior (all: each)")
    ap.add_argument("--checkpoint", type=Path, default=GENERAL, help="the prior's checkpoint")
    args = ap.parse_args()
    if args.prior is None:
        measure(args.states, args.prefix, args.fighters.split(","))
        return
    rates = {k: measure_prior(k, args) for k in (PRIORS if args.prior == "all" else [args.prior])}
    if len(rates) > 1:
        print("per CPU second, relative to the native prior: " + ", ".join(
            f"{k} {v / rates['native']:.2f}x" for k, v in rates.items()))


if __name__ == "__main__":
    main()

"""An MCTS agent: open-loop UCT over the engine's ``clone()``.

Why open loop: the engine rolls its dice between decisions, so the same choices lead to
many states. Each simulation clones the state, gives the clone *fresh* dice (a search
must not peek at the real fight's future rolls) and walks a tree whose nodes are
sequences of choices, not states: statistics pool over the dice, which is what a
decision has to be good against. Both fighters' decisions are tree nodes, each picked by
UCB1 from the deciding fighter's own point of view (the opponent is assumed to play
well, so the search is cautious against strong and weak play alike). An
``opponent_model`` agent, where given, plays the other fighter inside the simulations
instead, and ``caution`` weighs the searcher's own wounds more in the score.

Branching is kept affordable as in ``search``: at a new node the scripted policy ranks
the legal choices and only its best ``width`` become children; decisions the policy
answers from exact odds (risk, soak, hold) and forced ones are played by the policy
inside the simulation. Below a new leaf the policy plays both sides to a horizon of
turns, and :func:`hexdojo.agents.search.evaluate` scores the end (win/loss, or wounds).

Budget: ``sims`` simulations per decision, and an optional ``time`` budget in
milliseconds that stops early (results then depend on the machine's speed; leave it at 0
for reproducible fights).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from hexdojo.envs.rules import Choice, State

from . import native_search
from .base import Agent
from .search import SEARCH_PARAMS, SEARCHED, RolloutSearch

MCTS_PARAMS: dict[str, tuple[type, float, float, str]] = {
    **SEARCH_PARAMS,
    "sims": (int, 1, 100_000, "simulations per decision"),
    "width": (int, 1, 64, "children per node (the rollout policy's best choices)"),
    "c": (float, 0, 10, "UCB1 exploration constant (values lie in -1..1)"),
}


@dataclass
class Node:
    """Statistics of one sequence of choices; ``value`` sums outcomes for the searcher."""

    visits: int = 0
    value: float = 0.0
    #: the children in the policy's rank order (dicts keep insertion order)
    children: dict[Choice, Node] = field(default_factory=dict)


class MCTSAgent(RolloutSearch):
    """Open-loop UCT with a scripted prior (top ``width``) and scripted rollouts."""

    def __init__(self, sims: int = 96, width: int = 4, horizon: int = 2, c: float = 0.7,
                 time: float = 0.0, policy: str = "greedy", seed: int | None = 0,
                 name: str = "mcts", caution: float = 0.0,
                 opponent_model: Agent | None = None) -> None:
        super().__init__(sims, width, horizon, time, policy, seed, name, caution)
        self.c = c
        #: plays the other fighter's decisions inside the simulations, in the tree and the
        #: rollouts alike (reset from each simulation's seed), instead of searching them as
        #: if he played well; None: both fighters are searched
        self.opponent_model = opponent_model

    def act(self, state: State) -> Choice:
        native = native_search.mcts_choice(self, state, MCTSAgent)  # the same choice, inside the core
        if native is not None:
            return native
        forced = self.policy_only(state)
        if forced is not None:
            return forced
        root = Node()
        self._expand(root, state)
        if len(root.children) == 1:
            return next(iter(root.children))
        me = state.decision.fighter  # type: ignore[union-attr]
        seeds = self.rng.integers(0, 2**63 - 1, size=self.sims)
        deadline = self.deadline()
        for n in range(self.sims):
            self._simulate(root, state, int(seeds[n]), me)
            if deadline is not None and time.perf_counter() > deadline:
                break
        # the most visited child (ties: the policy's rank order)
        return max(root.children, key=lambda ch: root.children[ch].visits)

    def native_player(self, game: Any) -> Any | None:
        """This agent inside the core (``_bots.SearchPlayer``: the same choices) for the
        tournament's fast path; None where the Python search must run."""
        return native_search.search_player(self, game, MCTSAgent, True)

    def _expand(self, node: Node, sim: State) -> None:
        """Give a new node its children: the policy's best ``width`` legal choices."""
        node.children = {ch: Node() for ch in self.policy.ranked(sim)[: self.width]}

    def _select(self, node: Node, sim: State, sign: float) -> Choice | None:
        """UCB1 among the node's children that are legal in this simulation (unvisited
        first, in rank order); None if none is (another dice outcome, other options)."""
        legal = set(sim.legal_choices())
        best, best_u = None, -math.inf
        log_n = math.log(node.visits + 1)
        for ch, child in node.children.items():
            if ch not in legal:
                continue
            if child.visits == 0:
                return ch
            u = sign * child.value / child.visits + self.c * math.sqrt(log_n / child.visits)
            if u > best_u:
                best, best_u = ch, u
        return best

    def _simulate(self, root: Node, state: State, seed: int, me: int) -> None:
        """One simulation: descend by UCB1, expand one node, roll out, back up."""
        sim = self.fresh_clone(state, seed)
        model = self.opponent_model
        if model is not None:
            model.reset(seed % 2**31)
        stop = state.turn + self.horizon
        node, path = root, [root]
        while not sim.is_over and sim.turn <= stop:
            d = sim.decision
            assert d is not None
            if model is not None and d.fighter != me:
                sim.apply(model.act(sim))
                continue
            if d.kind not in SEARCHED or len(sim.legal_choices()) == 1:
                sim.apply(self.policy.act(sim))  # odds-exact or forced: no tree node
                continue
            if not node.children and node is not root:
                self._expand(node, sim)
                break  # a new leaf: roll out from here
            ch = self._select(node, sim, 1.0 if d.fighter == me else -1.0)
            if ch is None:
                break  # none of this node's children is legal here: roll out
            sim.apply(ch)
            node = node.children[ch]
            path.append(node)
        self.play_out(sim, stop, me)
        v = self.score(sim, me)
        for n in path:
            n.visits += 1
            n.value += v

"""An MCTS agent: open-loop UCT over the rules core's fights.

Why open loop: the engine rolls its dice between decisions, so the same choices lead to
many states. Each simulation clones the fight, gives the clone *fresh* dice (a search
must not peek at the real fight's future rolls) and walks a tree whose nodes are
sequences of choices, not states: statistics pool over the dice, which is what a
decision has to be good against. Both fighters' decisions are tree nodes, each picked by
UCB1 from the deciding fighter's own point of view (the opponent is assumed to play
well, so the search is cautious against strong and weak play alike). An
``opponent_model`` agent, where given, plays the other fighter inside the simulations
instead (reset from each simulation's seed), and ``caution`` weighs the searcher's own
wounds more in the score.

Branching is kept affordable as in ``search``: at a new node the scripted policy ranks
the legal choices and only its best ``width`` become children; decisions the policy
answers from exact odds (risk, soak, hold) and forced ones are played by the policy
inside the simulation. Below a new leaf the policy plays both sides to a horizon of
turns, and :func:`hexdojo.agents.search.evaluate` scores the end (win/loss, or wounds).
The tree and the simulations run inside the core (``agents/native/search.hpp``).

Budget: ``sims`` simulations per decision, and an optional ``time`` budget in
milliseconds that stops early (results then depend on the machine's speed; leave it at 0
for reproducible fights).
"""

from __future__ import annotations

from typing import Any

from hexdojo.envs.rules import Choice, State

from . import search_core
from .base import Agent
from .search import SEARCH_PARAMS, RolloutSearch

MCTS_PARAMS: dict[str, tuple[type, float, float, str]] = {
    **SEARCH_PARAMS,
    "sims": (int, 1, 100_000, "simulations per decision"),
    "width": (int, 1, 64, "children per node (the rollout policy's best choices)"),
    "c": (float, 0, 10, "UCB1 exploration constant (values lie in -1..1)"),
}


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
        #: if he played well; None: both fighters are searched. It needs a native form
        #: (a scripted style, random play: :func:`.search_core.native_policy`)
        self.opponent_model = opponent_model

    def act(self, state: State) -> Choice:
        """The search's choice (``_bots.mcts_act``): the root's most visited child (ties:
        the policy's rank order)."""
        return search_core.mcts_choice(self, state)

    def native_player(self, game: Any) -> Any:
        """This agent as a native player (``_bots.SearchPlayer``) for the tournament's
        fast path."""
        return search_core.search_player(self, game, mcts=True)

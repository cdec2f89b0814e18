"""A search agent: determinised Monte-Carlo rollouts over the rules core's fights.

Why this shape: the engine rolls its own dice between decisions, so the game tree is full
of chance nodes. Instead of expanding them, each simulation clones the fight, gives the
clone *fresh* dice (a search must not peek at the real fight's future rolls), plays the
candidate choice and then both sides with a cheap scripted policy until the fight ends or
a horizon of turns is reached, and scores the outcome. Every candidate is evaluated on the
same set of dice seeds (common random numbers), so the comparison between candidates is
not drowned by luck. Candidates are the scripted policy's top few choices, which keeps the
branching (up to ~100 legal choices in a follow-on window) affordable.

Risk, soak and hold decisions use the scripted policy's exact odds directly.

The search itself runs inside the core (``agents/native/search.hpp``, through
:mod:`.search_core`): these classes hold its parameters and the seeded generator its
per-decision seeds come from. Budgets: ``sims`` simulations per decision in total, and an
optional ``time`` budget in milliseconds that stops early (results then depend on the
machine's speed; leave it at 0 for reproducible fights).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hexdojo.envs.rules import Choice, State

from . import _bots, search_core
from .base import Agent
from .scripted import STYLES, HeuristicAgent

SEARCH_PARAMS: dict[str, tuple[type, float, float, str]] = {
    "sims": (int, 1, 100_000, "simulations per decision (all candidates together)"),
    "width": (int, 1, 64, "candidates searched (the rollout policy's best)"),
    "horizon": (int, 1, 100, "turns simulated beyond the current one"),
    "time": (float, 0, 600_000, "optional time budget per decision in ms (0: none)"),
    "caution": (float, 0, 10, "own wounds weigh (1 + caution) times in the score (0: even)"),
}
#: the decision kinds a search agent searches; the others (risk, soak, hold) and forced ones
#: are the policy's (search.hpp ``searched``)
SEARCHED = ("action", "reaction", "follow_on", "phase")


class RolloutSearch(Agent):
    """What the search agents share: the policy that ranks candidates and plays the
    rollouts (a scripted style; anything with a native form, see
    :func:`.search_core.native_policy`), a seeded generator for the simulations' fresh
    dice, and the budgets."""

    def __init__(self, sims: int, width: int, horizon: int, time: float, policy: str,
                 seed: int | None, name: str, caution: float = 0.0) -> None:
        self.sims = sims
        self.width = width
        self.horizon = horizon
        self.time_ms = time
        self.policy: Any = HeuristicAgent(STYLES[policy], policy)
        self.name = name
        self.caution = caution
        #: plays the other fighter inside the simulations (see MCTSAgent); None: the policy
        self.opponent_model: Agent | None = None
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)


class SearchAgent(RolloutSearch):
    """Flat Monte-Carlo search with a scripted rollout policy and common random numbers."""

    def __init__(self, sims: int = 48, width: int = 4, horizon: int = 2, time: float = 0.0,
                 policy: str = "greedy", seed: int | None = 0, name: str = "search",
                 caution: float = 0.0) -> None:
        super().__init__(sims, width, horizon, time, policy, seed, name, caution)

    def act(self, state: State) -> Choice:
        """The search's choice (``_bots.search_act``): ``sims // width`` rounds of one
        rollout per candidate on shared seeds, the best mean played (ties: the policy's
        rank order)."""
        return search_core.search_choice(self, state)

    def native_player(self, game: Any) -> Any:
        """This agent as a native player (``_bots.SearchPlayer``) for the tournament's
        fast path."""
        return search_core.search_player(self, game, mcts=False)


def evaluate(s: State, me: int, caution: float = 0.0) -> float:
    """The search's score of a fight for ``me`` (search.hpp ``evaluate``): +1 won, -1 lost,
    0 drawn; an unfinished fight scores its wounds and position, tanh(score / 30) * 0.9.

    ``caution`` makes ``me``'s own hurt weigh (1 + caution) times the opponent's: a
    cautious searcher gives up a wound it could deal rather than risk one."""
    return float(_bots.evaluate(search_core.core(s), me, caution))

"""The learned policy as the prior of the MCTS agent: the NPC's strongest level.

Why: the MCTS agent's tree children are the scripted greedy policy's best ``width``
choices, so the search can never find a move greedy ranks low. The trained NPC ranks
choices by what won in training; giving the tree its ranking lets the search refine the
policy instead of a scripted one, the way AlphaZero's search refines its network's prior.
Decisions the search leaves to the policy (forced ones, and risk, soak and hold, answered
from exact odds) and the rollouts stay with the scripted policy, whose odds are exact there.

The network's layers are copied out of torch once per game into a ``_bots.PriorPolicy``
(:func:`.search_core.prior_policy`) that ranks the tree's children on the core's own
observation, inside the native search. A styled policy (``LearnedAgent.style``, the general
NPC's ``--style``) ranks with its lean added to the logits, as it plays
(:func:`.search_core.style_lean`).

Width 2 by default (the prior's two best choices): against ``mcts`` (issue 33, section 3;
``scripts/master_seats.py``, 400 fights a seat) the shipped general NPC's prior at width 2
scores 56.6 % in the Chu mirror where width 4 scores 50.6 %, and +13.2 points over ``mcts``
as Boris where width 4 gains +10.8: a learned prior is worth trusting more than greedy's.
"""

from __future__ import annotations

from typing import Any

from hexdojo.envs.rules import Choice, State

from . import search_core
from .mcts import MCTSAgent


class GuidedMCTS(MCTSAgent):
    """Open-loop UCT whose children are a learned policy's top ``width`` choices."""

    def __init__(self, prior: Any, sims: int = 96, width: int = 2, horizon: int = 2,
                 c: float = 0.7, seed: int | None = 0, name: str = "guided",
                 opponent_model: Any = None, time: float = 0.0) -> None:
        """``prior``: a :class:`~.policy.LearnedAgent` (an SB3 MlpPolicy actor);
        ``opponent_model`` (an agent with a native form) plays the other fighter inside the
        simulations instead of the tree searching his choices (see :class:`MCTSAgent`)."""
        super().__init__(sims=sims, width=width, horizon=horizon, c=c, seed=seed, name=name,
                         opponent_model=opponent_model, time=time)
        self.prior = prior

    def act(self, state: State) -> Choice:
        """The native search with the prior's network as the tree's ranking."""
        return search_core.prior_choice(self, state)

    def native_player(self, game: Any) -> Any:
        """This agent inside the core (the tournament's fast path)."""
        return search_core.prior_player(self, game)

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.prior.reset(seed)

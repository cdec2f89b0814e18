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

The prior may also be a checkpoint path (loaded as the learned policy above; a run folder
means its ``npc.zip``) or a Python prior asked from inside the search (a callable
``f(state)`` or an object's ``prior(state)`` giving one score per legal choice, higher
first; or an agent's ``ranked(state)``): the contract is :mod:`.search_core`'s, and a plug-in
or a hand-written ranking then steers the same native tree, duels and groups alike, at the
price of a Python call per node expanded.

Width 2 by default (the prior's two best choices): against ``mcts`` (issue 33, section 3;
``scripts/master_seats.py``, 400 fights a seat) the shipped general NPC's prior at width 2
scores 56.6 % in the Chu mirror where width 4 scores 50.6 %, and +13.2 points over ``mcts``
as Boris where width 4 gains +10.8: a learned prior is worth trusting more than greedy's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hexdojo.envs.rules import Choice, State

from . import search_core
from .base import AgentError
from .mcts import MCTSAgent
from .policy import LearnedAgent


class GuidedMCTS(MCTSAgent):
    """Open-loop UCT whose children are a prior's top ``width`` choices (a learned policy,
    its checkpoint, or a Python prior: see the module docstring)."""

    def __init__(self, prior: Any, sims: int = 96, width: int = 2, horizon: int = 2,
                 c: float = 0.7, seed: int | None = 0, name: str = "guided",
                 opponent_model: Any = None, time: float = 0.0, caution: float = 0.0) -> None:
        """``prior``: a :class:`~.policy.LearnedAgent` (an SB3 MlpPolicy actor), a checkpoint
        path (``*.zip``, or a run folder holding ``npc.zip``), or a Python prior
        (:func:`.search_core.prior_scorer`); ``opponent_model`` (an agent with a native form)
        plays the other fighter inside the simulations instead of the tree searching his
        choices (see :class:`MCTSAgent`). A prior the search cannot ask is one AgentError
        line here, not at the first decision."""
        super().__init__(sims=sims, width=width, horizon=horizon, c=c, seed=seed, name=name,
                         opponent_model=opponent_model, time=time, caution=caution)
        self.prior = load_prior(prior) if isinstance(prior, str | os.PathLike) else prior
        search_core.check_prior(self)

    def act(self, state: State) -> Choice:
        """The native search with the prior's network as the tree's ranking."""
        return search_core.prior_choice(self, state)

    def native_player(self, game: Any) -> Any:
        """This agent inside the core (the tournament's fast path)."""
        return search_core.prior_player(self, game)

    def reset(self, seed: int | None = None) -> None:
        """The search's generator, and the prior's where it has one (a plain callable has
        none)."""
        super().reset(seed)
        reset = getattr(self.prior, "reset", None)
        if callable(reset):
            reset(seed)


def load_prior(path: str | os.PathLike[str]) -> LearnedAgent:
    """A checkpoint as a prior: ``*.zip``, or a run folder's ``npc.zip``; one AgentError line
    where there is none."""
    p = Path(path)
    if p.is_dir() and (p / "npc.zip").is_file():
        p = p / "npc.zip"
    if not p.is_file():
        raise AgentError(f"prior {str(path)!r}: no checkpoint there; allowed a checkpoint file "
                         "(*.zip) or a run folder holding npc.zip")
    agent = LearnedAgent.load(p)
    agent.spec = str(p)  # as the registry's checkpoints (registry.spec_of records it)
    return agent

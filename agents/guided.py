"""The learned policy as the prior of the MCTS agent: the NPC's strongest level.

Why: the MCTS agent's tree children are the scripted greedy policy's best ``width``
choices, so the search can never find a move greedy ranks low. The trained NPC ranks
choices by what won in training; giving the tree its ranking (and, optionally, its
rollouts) lets the search refine the policy instead of a scripted one, the way
AlphaZero's search refines its network's prior. Decisions the search leaves to the
policy (forced ones, and risk, soak and hold, answered from exact odds) stay with the
scripted policy, whose odds are exact there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hexdojo.envs.rules import Choice, State

from . import native_search
from .mcts import MCTSAgent, Node


def policy_ranking(agent: Any, state: State) -> list[Choice]:
    """The decider's legal choices, most probable first under a learned agent's policy
    (ties: the engine's legal order)."""
    import torch

    obs, mask, legal, ids = agent.duel_inputs(state)
    policy = agent.model.policy
    obs_t, _ = policy.obs_to_tensor(obs)
    with torch.no_grad():
        logits = policy.get_distribution(obs_t, action_masks=mask[None]).distribution.logits
    z = logits[0].cpu().numpy()[ids]
    order = np.argsort(-z, kind="stable")
    return [legal[int(k)] for k in order]


class GuidedMCTS(MCTSAgent):
    """Open-loop UCT whose children are a learned policy's top ``width`` choices."""

    def __init__(self, prior: Any, sims: int = 96, width: int = 4, horizon: int = 2,
                 c: float = 0.7, seed: int | None = 0, name: str = "guided",
                 opponent_model: Any = None) -> None:
        """``opponent_model`` (an agent) plays the other fighter inside the simulations
        instead of the tree searching his choices (see :class:`MCTSAgent`)."""
        super().__init__(sims=sims, width=width, horizon=horizon, c=c, seed=seed, name=name,
                         opponent_model=opponent_model)
        self.prior = prior

    def act(self, state: State) -> Choice:
        """The search inside the core with the prior's network copied out of torch
        (``_bots.PriorPolicy``); the Python tree where the prior has no native form."""
        native = native_search.prior_choice(self, state)
        return native if native is not None else super().act(state)

    def native_player(self, game: Any) -> Any | None:
        """This agent inside the core (the tournament's fast path), or None."""
        return native_search.prior_player(self, game)

    def _expand(self, node: Node, sim: State) -> None:
        node.children = {ch: Node() for ch in policy_ranking(self.prior, sim)[: self.width]}

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.prior.reset(seed)

"""A search agent: determinised Monte-Carlo rollouts over the engine's ``clone()``.

Why this shape: the engine rolls its own dice between decisions, so the game tree is full
of chance nodes. Instead of expanding them, each simulation clones the state, gives the
clone *fresh* dice (a search must not peek at the real fight's future rolls), plays the
candidate choice and then both sides with a cheap scripted policy until the fight ends or
a horizon of turns is reached, and scores the outcome. Every candidate is evaluated on the
same set of dice seeds (common random numbers), so the comparison between candidates is
not drowned by luck. Candidates are the scripted policy's top few choices, which keeps the
branching (up to ~100 legal choices in a follow-on window) affordable.

Risk, soak and hold decisions use the scripted policy's exact odds directly.

Budgets: ``sims`` simulations per decision in total, and an optional ``time`` budget in
milliseconds that stops early (results then depend on the machine's speed; leave it at 0
for reproducible fights).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from hexdojo.envs.rules import Choice, State
from hexdojo.envs.rules.dice import Dice

from . import native_search
from .base import Agent
from .heuristics import WOUND_VALUE
from .scripted import STYLES, HeuristicAgent

SEARCH_PARAMS: dict[str, tuple[type, float, float, str]] = {
    "sims": (int, 1, 100_000, "simulations per decision (all candidates together)"),
    "width": (int, 1, 64, "candidates searched (the rollout policy's best)"),
    "horizon": (int, 1, 100, "turns simulated beyond the current one"),
    "time": (float, 0, 600_000, "optional time budget per decision in ms (0: none)"),
    "caution": (float, 0, 10, "own wounds weigh (1 + caution) times in the score (0: even)"),
}
SEARCHED = ("action", "reaction", "follow_on", "phase")


class RolloutSearch(Agent):
    """What the search agents share: the scripted policy that ranks candidates and plays
    the rollouts, a seeded generator for the simulations' fresh dice, the budgets, and
    the decisions left to the policy (forced ones, and those it answers from exact odds)."""

    def __init__(self, sims: int, width: int, horizon: int, time: float, policy: str,
                 seed: int | None, name: str, caution: float = 0.0) -> None:
        self.sims = sims
        self.width = width
        self.horizon = horizon
        self.time_ms = time
        self.policy = HeuristicAgent(STYLES[policy], policy)
        self.name = name
        self.caution = caution
        #: plays the other fighter inside the simulations (see MCTSAgent); None: the policy
        self.opponent_model: Agent | None = None
        #: False: always the Python search, even on the native core (the native one makes the
        #: same choices; tests/agents/test_bots_search.py compares them)
        self.native = True
        self.rng = np.random.default_rng(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def policy_only(self, state: State) -> Choice | None:
        """The policy's choice where there is nothing to search, else None."""
        d = state.decision
        choices = state.legal_choices()
        if d is None or not choices:
            raise ValueError("act() called on a finished fight")
        if len(choices) == 1 or d.kind not in SEARCHED:
            return self.policy.act(state)
        return None

    def deadline(self) -> float | None:
        """When the optional time budget of this decision runs out (perf_counter)."""
        return time.perf_counter() + self.time_ms / 1000.0 if self.time_ms > 0 else None

    def fresh_clone(self, state: State, seed: int) -> State:
        """A copy of ``state`` with fresh dice: a search never sees the fight's own rolls."""
        c = state.clone()
        c.dice = Dice(seed, state.t.data.dice.die_sides)
        return c

    def score(self, sim: State, me: int) -> float:
        """The simulation's outcome for ``me`` (:func:`evaluate` with this agent's caution)."""
        return evaluate(sim, me, self.caution)

    def play_out(self, sim: State, stop: int, me: int | None = None) -> None:
        """The policy plays both sides until the fight ends or turn ``stop`` is over (the
        side other than ``me`` played by ``opponent_model`` where the agent has one)."""
        pol = self.policy
        model = self.opponent_model
        if model is None or me is None:
            while not sim.is_over and sim.turn <= stop:
                sim.apply(pol.act(sim))
            return
        while not sim.is_over and sim.turn <= stop:
            sim.apply((pol if sim.decision.fighter == me else model).act(sim))  # type: ignore[union-attr]


class SearchAgent(RolloutSearch):
    """Flat Monte-Carlo search with a scripted rollout policy and common random numbers."""

    def __init__(self, sims: int = 48, width: int = 4, horizon: int = 2, time: float = 0.0,
                 policy: str = "greedy", seed: int | None = 0, name: str = "search",
                 caution: float = 0.0) -> None:
        super().__init__(sims, width, horizon, time, policy, seed, name, caution)

    def act(self, state: State) -> Choice:
        native = native_search.search_choice(self, state, SearchAgent)  # the same choice, inside the core
        if native is not None:
            return native
        forced = self.policy_only(state)
        if forced is not None:
            return forced
        cands = self.policy.ranked(state)[: self.width]
        if len(cands) == 1:
            return cands[0]
        me = state.decision.fighter  # type: ignore[union-attr]
        per = max(1, self.sims // len(cands))
        seeds = self.rng.integers(0, 2**63 - 1, size=per)
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        deadline = self.deadline()
        for n in range(per):
            for ci, c in enumerate(cands):
                totals[ci] += self.rollout(state, c, int(seeds[n]), me)
                counts[ci] += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        best = max(range(len(cands)), key=lambda ci: (totals[ci] / counts[ci], -ci))
        return cands[best]

    def native_player(self, game: Any) -> Any | None:
        """This agent inside the core (``_bots.SearchPlayer``: the same choices) for the
        tournament's fast path; None where the Python search must run."""
        return native_search.search_player(self, game, SearchAgent, False)

    def rollout(self, state: State, first: Choice, seed: int, me: int) -> float:
        """Play ``first`` then the policy for both sides on fresh dice; score for ``me``."""
        c = self.fresh_clone(state, seed)
        c.apply(first)
        self.play_out(c, state.turn + self.horizon)
        return self.score(c, me)


def evaluate(s: State, me: int, caution: float = 0.0) -> float:
    """+1 won, -1 lost, 0 drawn; an unfinished fight scores its wounds and position.

    ``caution`` makes ``me``'s own hurt weigh (1 + caution) times the opponent's: a
    cautious searcher gives up a wound it could deal rather than risk one."""
    if s.is_over:
        w = s.winner
        return 0.0 if w is None else (1.0 if w == me else -1.0)
    score = 0.0
    for f in s.fighters:
        hurt = sum(WOUND_VALUE[lv] for _, lv in f.wounds) + 2.0 * f.worst
        if f.prone:
            hurt += 3.0
        score += -(1.0 + caution) * hurt if f.idx == me else hurt
    # math.tanh, the libm call the native search makes too (numpy's SIMD tanh can differ
    # from it in the last bit)
    return math.tanh(score / 30.0) * 0.9

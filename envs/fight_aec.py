"""What the PettingZoo AEC environments share (``duel_v0``/``duel_v1``, ``skirmish_v0``):
the AEC scaffolding around an engine fight, one agent per fighter.

The engine's decision order is the agent order: whoever must decide now is
``agent_selection``. A subclass says how an action id becomes a ``Choice`` (``_choice``),
what an agent observes (``observe``) and the rewards (``_rewards``); the action checks,
the rejection of illegal actions and its truncation, the bookkeeping PettingZoo asks for
and rendering are here, once.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from hexdojo.envs.rules import Choice, IllegalChoice, State

from .boundary import (
    ILLEGAL_REASONS,
    RESULT_REASONS,
    check_action,
    check_flag,
    check_illegal_limit,
    illegal_code,
    result_info,
)
from .render import render_frame


def wrapped(raw: AECEnv) -> AECEnv:
    """``raw`` in PettingZoo's standard safety wrappers (what every module's ``env()`` is)."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw))


class FightAEC(AECEnv):
    """An engine fight as an AEC environment, one agent per fighter."""

    metadata: dict[str, Any]
    catalogue: Any
    game: Any

    def _setup(self, strict: bool, illegal_limit: int | None, flat_observation: bool,
               render_mode: str | None) -> None:
        """The options and counters every such env has (call first in ``__init__``)."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: allowed {self.metadata['render_modes']}")
        self.strict = check_flag("strict", strict)
        self.illegal_limit = check_illegal_limit(illegal_limit)
        #: the engine's sentence for the last rejected action ("" before any)
        self.last_reason = ""
        self.flat_observation = check_flag("flat_observation", flat_observation)
        self.render_mode = render_mode
        self.fight: State | None = None
        self._np_random: np.random.Generator | None = None
        self._log_from = 0
        self._illegal = 0

    def _set_agents(self, names: list[str], observation: spaces.Space) -> None:
        """One agent per fighter, each observing ``{"observation", "action_mask"}``."""
        self.possible_agents = list(names)
        self._index = {a: i for i, a in enumerate(names)}
        n = self.catalogue.n
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation,
                            "action_mask": spaces.Box(0, 1, (n,), np.int8)})
            for a in names}
        self.action_spaces = {a: spaces.Discrete(n) for a in names}

    # ------------------------------------------------------------------ what a subclass says
    def _choice(self, a: int, st: State, i: int) -> Choice:
        raise NotImplementedError

    def _rewards(self, st: State, over: bool, before: Any) -> dict[str, float]:
        raise NotImplementedError

    def _before(self, st: State) -> Any:
        """What the rewards need from the fight before the step (nothing by default)."""
        return None

    def _truncate(self, st: State) -> None:
        """``illegal_limit`` rejections in a row: every agent is truncated."""
        self.truncations = dict.fromkeys(self.agents, True)

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def action_names(self) -> tuple[str, ...]:
        """Readable name of every action id."""
        return self.catalogue.names

    @property
    def reason_names(self) -> dict[str, tuple[str, ...]]:
        """The readable text of ``info``'s codes (``boundary``'s tables)."""
        return {"result.reason": RESULT_REASONS, "illegal_reason": ILLEGAL_REASONS}

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new fight; all randomness from a generator seeded by ``seed``. ``options`` are
        ignored: PettingZoo's ``api_test`` passes arbitrary ones and expects them accepted."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        self.fight = self.game.new_state(int(self._np_random.integers(2**63 - 1)))
        agents = self.possible_agents
        self.agents = list(agents)
        self.rewards = dict.fromkeys(agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(agents, 0.0)
        self.terminations = dict.fromkeys(agents, False)
        self.truncations = dict.fromkeys(agents, False)
        self.infos = {a: {} for a in agents}
        self._log_from = 0
        self._illegal = self._streak = 0
        d = self.fight.decision
        assert d is not None, "a new fight always starts with a decision"
        self.agent_selection = agents[d.fighter]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.fight
        assert st is not None
        a = check_action(action, self.catalogue.n)
        choice = self._choice(a, st, self._index[agent])
        self._cumulative_rewards[agent] = 0.0
        reason = st.why_illegal(choice)
        if reason is not None:
            self._reject(agent, a, choice, reason)
            return
        self._streak = 0
        before = self._before(st)
        self._log_from = len(st.events)
        st.apply(choice)
        over = st.is_over
        self.rewards = self._rewards(st, over, before)
        self.infos = {ag: {} for ag in self.agents}
        if over:
            for ag in self.possible_agents:
                self.infos[ag] = {"result": result_info(st.result)}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            d = st.decision
            assert d is not None
            self.agent_selection = self.possible_agents[d.fighter]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _reject(self, agent: str, a: int, choice: Choice, reason: str) -> None:
        """An illegal action: no change (``IllegalChoice`` in strict mode); the limit truncates."""
        st = self.fight
        assert st is not None
        if self.strict:
            raise IllegalChoice(choice, reason)
        self.last_reason = f"{self.catalogue.names[a]}: {reason}"
        self._illegal += 1
        self._streak += 1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.infos[agent] = {"illegal": a, "illegal_reason": illegal_code(st, choice),
                             "illegal_actions": self._illegal}
        if self.illegal_limit is not None and self._streak >= self.illegal_limit:
            self._truncate(st)
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        """The frame of ``render_mode``; "human" prints the ANSI board and returns None."""
        return render_frame(self.fight, self.render_mode, self._log_from)

    def close(self) -> None:
        """Nothing to release (idempotent)."""

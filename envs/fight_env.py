"""What the single-agent environments share (``DuelEnv``, ``SkirmishEnv``): the Gymnasium
scaffolding around one fighter of an engine fight.

``AgentEnv`` is what both have, once: the options and counters, the rejection of illegal
actions (``_reject``), rendering, ``action_masks``. ``FightEnv`` adds the step path of a
fight played in Python, which ``SkirmishEnv`` (a group fight) uses: the agent plays one
place; every other place is played inside ``step()`` by its policy (uniform random legal
play from the env's ``np_random`` when None), on the ``State``. A subclass says which place
the agent plays (``_place``), how an action id becomes a ``Choice`` (``_choice``), what it
observes (``_observe``) and its reward (``_reward``). ``DuelEnv`` steps in the core instead
(``envs/duel_core.py``: one path for every opponent, issue 32) and derives from
``AgentEnv`` only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from time import perf_counter
from typing import Any

import gymnasium as gym
import numpy as np

from hexdojo.envs.rules import Choice, IllegalChoice, State

from .boundary import check_action, check_flag, check_illegal_limit, check_number, illegal_code, result_info
from .catalogue import Catalogue
from .render import render_frame

Policy = Callable[[State], Choice]


class AgentEnv(gym.Env):
    """One fighter of an engine fight as a Gymnasium env: what every such env has."""

    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}
    catalogue: Catalogue
    game: Any

    def _setup(self, strict: bool, illegal_penalty: float, illegal_limit: int | None,
               render_mode: str | None) -> None:
        """The options and counters every such env has (call first in ``__init__``)."""
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: allowed {self.metadata['render_modes']}")
        self.strict = check_flag("strict", strict)
        self.illegal_penalty = check_number("illegal_penalty", illegal_penalty)
        self.illegal_limit = check_illegal_limit(illegal_limit)
        self.render_mode = render_mode
        self.fight: State | None = None
        self._illegal = self._streak = self._log_from = 0
        #: the engine's sentence for the last rejected action ("" before any)
        self.last_reason = ""
        #: rejected actions over the env's whole life (a masked agent keeps this at 0)
        self.illegal_total = 0
        #: seconds spent inside an opponent agent's ``act`` over the env's whole life (the
        #: opponent's thinking, not the rules: training reports the two apart); the
        #: built-in random opponent is not timed
        self.opponent_seconds = 0.0

    # ------------------------------------------------------------------ what a subclass says
    def _choice(self, a: int) -> Choice:
        """The engine ``Choice`` action id ``a`` means for the agent now."""
        raise NotImplementedError

    def _observe_rejected(self) -> Any:
        """The unchanged observation after a rejection, in fresh arrays (``self._mask`` too)."""
        raise NotImplementedError

    def render(self) -> str | np.ndarray | None:
        """The frame of ``render_mode``; "human" prints the ANSI board and returns None."""
        return render_frame(self.fight, self.render_mode, self._log_from)

    def close(self) -> None:
        """Nothing to release (idempotent)."""

    def action_masks(self) -> np.ndarray:
        """The exact legality mask of the current decision (what MaskablePPO reads)."""
        return self._mask.astype(bool)

    @property
    def action_names(self) -> tuple[str, ...]:
        """Readable name of every action id."""
        return self.catalogue.names

    # ------------------------------------------------------------------ internals
    def _reject(self, a: int) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """An illegal action: no change (or ``IllegalChoice`` in strict mode)."""
        st = self.fight
        assert st is not None
        choice = self._choice(a)
        reason = st.why_illegal(choice) or "not legal now"
        if self.strict:
            raise IllegalChoice(choice, reason)
        self.last_reason = f"{self.catalogue.names[a]}: {reason}"
        self._illegal += 1
        self.illegal_total += 1
        self._streak += 1
        obs = self._observe_rejected()
        truncated = self.illegal_limit is not None and self._streak >= self.illegal_limit
        info: dict[str, Any] = {"action_mask": self._mask, "illegal_actions": self._illegal,
                                "illegal": a, "illegal_reason": illegal_code(st, choice)}
        return obs, self.illegal_penalty, st.is_over, truncated, info


class FightEnv(AgentEnv):
    """One fighter of an engine fight played in Python, against (and beside) places played in
    ``step()`` by Python policies on the ``State`` (``SkirmishEnv``)."""

    # ------------------------------------------------------------------ what a subclass says
    def _agent(self) -> int:
        """The fighter the agent plays this episode."""
        raise NotImplementedError

    def _policy(self, fighter: int) -> Policy | None:
        """The policy of another place (None: uniform random legal play)."""
        raise NotImplementedError

    def _place(self, options: dict[str, Any] | None) -> tuple[str, int]:
        """Choose (and take) the agent's place for an episode: its info key and value."""
        raise NotImplementedError

    def _opponents(self) -> Iterable[Any]:
        """The opponent objects, each once, in a fixed order (their ``reset`` is seeded)."""
        raise NotImplementedError

    def _observe(self) -> Any:
        """Fresh mask (``self._mask``) and observation of the agent's current decision."""
        raise NotImplementedError

    def _reward(self, st: State, terminated: bool, before: Any) -> float:
        raise NotImplementedError

    def _before(self, st: State) -> Any:
        """What the reward needs from the fight before the step (nothing by default)."""
        return None

    def _observe_rejected(self) -> Any:
        """The unchanged observation after a rejection, in fresh arrays."""
        return self._observe()

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[Any, dict[str, Any]]:
        """Start a fight. Never returns a finished one: should it end before the agent is
        asked anything, a new fight is drawn from the same generator."""
        super().reset(seed=seed)
        key, place = self._place(options)
        for o in self._opponents():
            r = getattr(o, "reset", None)
            if callable(r):
                r(seed=int(self.np_random.integers(2**31)))
        for _ in range(1000):
            self.fight = self.game.new_state(int(self.np_random.integers(2**63 - 1)))
            self._run_others()
            if not self.fight.is_over:
                break
        else:
            raise RuntimeError("1000 fights in a row ended before the agent had a decision")
        self._illegal = self._streak = self._log_from = 0
        obs = self._observe()
        if self.render_mode == "human":
            self.render()
        return obs, {"action_mask": self._mask, key: place}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        st = self.fight
        if st is None:
            raise RuntimeError("call reset() before step()")
        a = check_action(action, self.catalogue.n)
        if not self._mask[a]:
            return self._reject(a)
        self._streak = 0
        before = self._before(st)
        self._log_from = len(st.events)
        st.apply(self._choice(a))
        self._run_others()
        terminated = st.is_over
        reward = self._reward(st, terminated, before)
        obs = self._observe()
        info: dict[str, Any] = {"action_mask": self._mask, "illegal_actions": self._illegal}
        if terminated:
            info["result"] = result_info(st.result)
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, False, info

    # ------------------------------------------------------------------ internals
    def _run_others(self) -> None:
        """Let the other places decide until the agent must, or the fight is over (an
        agent who is out never decides again, so his fight is played to its end)."""
        st = self.fight
        assert st is not None
        me, rand = self._agent(), self.np_random.random
        d = st.decision
        while d is not None and d.fighter != me:
            policy = self._policy(d.fighter)
            if policy is None:
                legal = st.legal_choices()
                st.apply(legal[int(rand() * len(legal))])
            else:
                t0 = perf_counter()
                choice = policy(st)
                self.opponent_seconds += perf_counter() - t0
                st.apply(choice)
            d = st.decision

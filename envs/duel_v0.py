"""``duel_v0``: the duel as a two-agent PettingZoo AEC environment.

Agents ``player_0`` and ``player_1`` are fighters 0 and 1. The engine's decision order
*is* the agent order: whoever must decide now (a phase choice, an action, a reaction to
the other's attack, a follow-on, a soak, a risk level, a hold choice) is
``agent_selection``, so reactions and follow-ons are simply the other agent being
selected. Observations follow the PettingZoo classic convention
``{"observation": <same Dict (or flat Box) as hexdojo/Duel-v0>, "action_mask": int8}``;
the mask of the agent not deciding is all zeros. Same catalogue and render as the
Gymnasium environment.

Rewards: +1 to the winner and -1 to the loser when the fight ends (0 each for a draw),
plus the optional wound ``shaping``. Illegal actions follow the Gymnasium env's policy:
rejected with no state change, the rejected id in ``infos[agent]["illegal"]`` and its class
in ``infos[agent]["illegal_reason"]`` (``boundary.ILLEGAL_REASONS``; the engine's sentence
is ``env.unwrapped.last_reason``), or ``IllegalChoice`` raised in ``strict`` mode;
``illegal_limit`` (default 100) rejections in a row truncate both agents, so policies that
ignore the mask still end their fights. Every ``info`` leaf is a number (``boundary``).

``parallel_env(...)`` is the same game as a PettingZoo Parallel env (the turn-based
converter: only the selected agent's action counts each step).

    from hexdojo.envs import duel_v0
    env = duel_v0.env(render_mode="ansi")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from hexdojo.envs.rules import IllegalChoice, State

from .boundary import (
    DEFAULT_ILLEGAL_LIMIT,
    ILLEGAL_REASONS,
    RESULT_REASONS,
    check_action,
    check_illegal_limit,
    illegal_code,
    result_info,
)
from .catalogue import catalogue_for
from .duel import DEFAULT_FIGHTERS, FighterSpec, make_game, terminal_reward, wound_total
from .observation import check_scaling, encoder_for
from .render import render_frame

AGENTS = ("player_0", "player_1")


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's standard safety wrappers."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The same game as a Parallel env (PettingZoo's turn-based converter)."""
    return turn_based_aec_to_parallel(env(**kwargs))


class raw_env(AECEnv):  # noqa: N801 - PettingZoo's naming convention
    """The unwrapped AEC duel. Options as ``DuelEnv`` (no opponent, no side; ``scene`` for
    a two-fighter scene's start, e.g. ``"duel_3"``); the defaults are Duel-v0's (Chu vs
    Urlik, raw observation): ``duel_v1`` for the current ones."""

    metadata = {
        "render_modes": ["ansi", "human", "rgb_array"],
        "name": "duel_v0",
        "is_parallelizable": True,
        "render_fps": 4,
    }

    def __init__(
        self,
        fighters: tuple[FighterSpec, FighterSpec] | list[FighterSpec] | None = DEFAULT_FIGHTERS,
        rules: str | Path | Mapping[str, Any] | None = None,
        radius: int = 4,
        turn_limit: int | None = None,
        shaping: float = 0.0,
        strict: bool = False,
        flat_observation: bool = False,
        render_mode: str | None = None,
        observation_scale: str = "raw",
        scene: str | Path | Mapping[str, Any] | None = None,
        illegal_limit: int | None = DEFAULT_ILLEGAL_LIMIT,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: allowed {self.metadata['render_modes']}")
        self.game = make_game(fighters, rules, radius, turn_limit, scene)
        self.catalogue = catalogue_for(self.game.tables)
        self.encoder = encoder_for(self.game)
        self.shaping = float(shaping)
        self.strict = strict
        self.illegal_limit = check_illegal_limit(illegal_limit)
        #: the engine's sentence for the last rejected action ("" before any)
        self.last_reason = ""
        self.flat_observation = flat_observation
        self.observation_scale = check_scaling(observation_scale)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self._index = {a: i for i, a in enumerate(AGENTS)}
        n = self.catalogue.n
        obs = self.encoder.observation_space(observation_scale, flat_observation)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": spaces.Box(0, 1, (n,), np.int8)})
            for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in AGENTS}
        self.fight: State | None = None
        self._np_random: np.random.Generator | None = None
        self._log_from = 0
        self._illegal = 0

    # ------------------------------------------------------------------ spaces
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ AEC API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new fight; all randomness from a generator seeded by ``seed``. ``options`` are
        ignored: PettingZoo's ``api_test`` passes arbitrary ones and expects them accepted."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        rng = self._np_random
        self.fight = self.game.new_state(int(rng.integers(2**63 - 1)))
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in AGENTS}
        self._cumulative_rewards = {a: 0.0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self._log_from = 0
        self._illegal = 0
        self._streak = 0
        d = self.fight.decision
        assert d is not None, "a new fight always starts with a decision"
        self.agent_selection = AGENTS[d.fighter]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self.fight
        assert st is not None, "call reset() first"
        flat, mask = self.encoder.encode_with_mask(st, self._index[agent])
        self.encoder.rescale(flat, self.observation_scale)
        obs = flat if self.flat_observation else self.encoder.to_dict(flat)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        st = self.fight
        assert st is not None
        i = self._index[agent]
        a = check_action(action, self.catalogue.n)
        choice = self.catalogue.choice_for(a, st, i)
        self._cumulative_rewards[agent] = 0.0
        reason = st.why_illegal(choice)
        if reason is not None:
            self._reject(agent, a, choice, reason)
            return
        self._streak = 0
        if self.shaping:
            before = wound_total(st, 1) - wound_total(st, 0)
        self._log_from = len(st.events)
        st.apply(choice)
        rewards = {ag: 0.0 for ag in AGENTS}
        if self.shaping:
            delta = self.shaping * (wound_total(st, 1) - wound_total(st, 0) - before)
            rewards = {AGENTS[0]: delta, AGENTS[1]: -delta}
        self.infos = {ag: {} for ag in AGENTS}
        if st.is_over:
            for k, ag in enumerate(AGENTS):
                rewards[ag] += terminal_reward(st, k)
                self.infos[ag] = {"result": result_info(st.result)}
            self.terminations = {ag: True for ag in AGENTS}
        else:
            d = st.decision
            assert d is not None
            self.agent_selection = AGENTS[d.fighter]
        self.rewards = rewards
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _reject(self, agent: str, a: int, choice: Any, reason: str) -> None:
        """An illegal action: no change (``IllegalChoice`` in strict mode); the limit truncates."""
        st = self.fight
        assert st is not None
        if self.strict:
            raise IllegalChoice(choice, reason)
        self.last_reason = f"{self.catalogue.names[a]}: {reason}"
        self._illegal += 1
        self._streak += 1
        self.rewards = {ag: 0.0 for ag in self.agents}
        self.infos[agent] = {"illegal": a, "illegal_reason": illegal_code(st, choice),
                             "illegal_actions": self._illegal}
        if self.illegal_limit is not None and self._streak >= self.illegal_limit:
            self.truncations = {ag: True for ag in self.agents}
            for ag in self.agents:
                self.infos[ag] = {**self.infos[ag], "result": result_info(
                    {"winner": None, "reason": "illegal limit", "turn": st.turn})}
        self._accumulate_rewards()

    @property
    def reason_names(self) -> dict[str, tuple[str, ...]]:
        """The readable text of ``info``'s codes (``boundary``'s tables)."""
        return {"result.reason": RESULT_REASONS, "illegal_reason": ILLEGAL_REASONS}

    def render(self) -> str | np.ndarray | None:
        """The frame of ``render_mode``; "human" prints the ANSI board and returns None."""
        return render_frame(self.fight, self.render_mode, self._log_from)

    def close(self) -> None:
        """Nothing to release (idempotent)."""

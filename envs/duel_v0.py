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
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from hexdojo.envs.rules import Choice, State

from .boundary import DEFAULT_ILLEGAL_LIMIT, result_info
from .catalogue import catalogue_for, resolve_armed
from .duel import DEFAULT_FIGHTERS, FighterSpec, make_game, terminal_reward, wound_total
from .fight_aec import FightAEC, wrapped
from .observation import check_scaling, encoder_for

AGENTS = ("player_0", "player_1")


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's standard safety wrappers."""
    return wrapped(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The same game as a Parallel env (PettingZoo's turn-based converter)."""
    return turn_based_aec_to_parallel(env(**kwargs))


class raw_env(FightAEC):  # noqa: N801 - PettingZoo's naming convention
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
        armed: bool | None = None,
    ) -> None:
        super().__init__()
        self._setup(strict, illegal_limit, flat_observation, render_mode)
        self.game = make_game(fighters, rules, radius, turn_limit, scene)
        self.armed = resolve_armed(self.game, armed)
        self.catalogue = catalogue_for(self.game.tables, self.armed)
        self.encoder = encoder_for(self.game, self.armed)
        self.shaping = float(shaping)
        self.observation_scale = check_scaling(observation_scale)
        self._set_agents(list(AGENTS), self.encoder.observation_space(observation_scale,
                                                                      flat_observation))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        st = self.fight
        assert st is not None, "call reset() first"
        flat, mask = self.encoder.encode_with_mask(st, self._index[agent])
        self.encoder.rescale(flat, self.observation_scale)
        obs = flat if self.flat_observation else self.encoder.to_dict(flat)
        return {"observation": obs, "action_mask": mask}

    # ------------------------------------------------------------------ FightAEC's hooks
    def _choice(self, a: int, st: State, i: int) -> Choice:
        return self.catalogue.choice_for(a, st, i)

    def _before(self, st: State) -> int | None:
        """Wound levels fighter 0 inflicted minus taken so far (shaping rewards the change)."""
        return wound_total(st, 1) - wound_total(st, 0) if self.shaping else None

    def _rewards(self, st: State, over: bool, before: int | None) -> dict[str, float]:
        rewards = {ag: 0.0 for ag in AGENTS}
        if self.shaping:
            delta = self.shaping * (wound_total(st, 1) - wound_total(st, 0) - before)
            rewards = {AGENTS[0]: delta, AGENTS[1]: -delta}
        if over:
            for k, ag in enumerate(AGENTS):
                rewards[ag] += terminal_reward(st, k)
        return rewards

    def _truncate(self, st: State) -> None:
        """Every agent truncated, each told the result: a draw by the illegal limit."""
        super()._truncate(st)
        for ag in self.agents:
            self.infos[ag] = {**self.infos[ag], "result": result_info(
                {"winner": None, "reason": "illegal limit", "turn": st.turn})}

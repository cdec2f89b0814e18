"""``skirmish_v0``: any scene (a duel, two against one, an ambush...) as a PettingZoo AEC env.

One agent per fighter of the scene, named ``"<fighter>_<index>"`` (``"chu_0"``,
``"boris_1"``, ``"novice_2"`` for ``two_vs_one``), in fighter order. The engine's decision
order *is* the agent order: whoever must decide now (a phase choice, an action, a
reaction, a follow-on, a soak, a risk level, a hold choice) is ``agent_selection``.

Observations follow the PettingZoo classic convention ``{"observation": ..., "action_mask":
int8}``; the observation is the group encoding of ``skirmish_spaces`` (the fighter
himself, then one block per other fighter in his *slot order*: allies, then enemies, each
by distance, then index; every number in [-1, 1]; with an armed fighter in the scene also
the weapon fields of ``observation.ARMED_FIELDS`` for him and every slot, e.g. what the guard
holds in each hand and whether he can use it). Actions are one flat ``Discrete(N)``:
the duel catalogue, whose attack ids aim at slot 0, plus one id per attack for every
further slot (``GroupCatalogue``); the mask is exact and all zeros for an agent that is
not deciding.

Rewards: when the fight ends, +1 to every fighter of the winning side, -1 to every fighter
of the other sides, 0 to all for a draw (the turn limit). A fighter who is out
(unconscious, dead, yielded) stays an agent until the end of the fight: he is never
selected again, his mask is all zeros, and he gets his side's reward at the end (all
agents terminate together, which ``api_test`` and the turn-based Parallel converter
accept). Illegal actions are rejected with no change (the engine's reason in
``infos[agent]["illegal"]`` the id, ``"illegal_reason"`` a code of ``boundary.ILLEGAL_REASONS``,
``last_reason`` the engine's sentence), or raise ``IllegalChoice`` with ``strict=True``;
``illegal_limit`` (default 100) rejections in a row truncate every agent.

    from hexdojo.envs import skirmish_v0
    env = skirmish_v0.env(scene="two_vs_one", render_mode="ansi")
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

``parallel_env(...)`` is the same game through PettingZoo's ``turn_based_aec_to_parallel``
(only the selected agent's action counts each step).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from hexdojo.envs.rules import Choice, Game, State

from .boundary import DEFAULT_ILLEGAL_LIMIT
from .fight_aec import FightAEC, wrapped
from .skirmish_spaces import observe, slot_order, spaces_for

RENDER_MODES = ["ansi", "human", "rgb_array"]


def env(**kwargs: Any) -> AECEnv:
    """The AEC environment with PettingZoo's standard safety wrappers."""
    return wrapped(raw_env(**kwargs))


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The same game as a Parallel env (PettingZoo's turn-based converter)."""
    return turn_based_aec_to_parallel(env(**kwargs))


def agent_names(game: Game) -> list[str]:
    """``"<fighter name>_<index>"`` per fighter, lower case (``"chu_0"``)."""
    return [f"{re.sub(r'[^a-z0-9]+', '_', p.name.lower()).strip('_')}_{i}"
            for i, p in enumerate(game.profiles)]


def side_reward(state: State, i: int) -> float:
    """+1 if fighter ``i``'s side won, -1 if another side did, 0 for a draw or no end yet."""
    w = state.winner
    if w is None:
        return 0.0
    return 1.0 if state.game.sides[i] == w else -1.0


def make_scene_game(scene: Any, rules: Any = None,
                    fighters: Sequence[str | Path | Mapping[str, Any]] | None = None) -> Game:
    """``Game.from_scene`` (a shipped name, a TOML path, a dict or an engine ``Game``)."""
    if isinstance(scene, Game):
        return scene
    return Game.from_scene(scene, rules=rules, fighters=fighters)


class raw_env(FightAEC):  # noqa: N801 - PettingZoo's naming convention
    """The unwrapped AEC skirmish (module docstring).

    Arguments: ``scene`` (a shipped scene name such as ``"two_vs_one"``, a TOML path, a
    dict or a ``Game``; default ``"two_vs_one"``), ``rules`` (overrides merged over the
    scene's), ``fighters`` (replacing the scene's, place by place), ``strict``,
    ``flat_observation`` (one ``Box`` instead of the ``Dict``), ``render_mode``.
    """

    metadata = {"render_modes": RENDER_MODES, "name": "skirmish_v0",
                "is_parallelizable": True, "render_fps": 4}

    def __init__(self, scene: Any = "two_vs_one", rules: Any = None,
                 fighters: Sequence[str | Path | Mapping[str, Any]] | None = None,
                 strict: bool = False, flat_observation: bool = False,
                 render_mode: str | None = None,
                 illegal_limit: int | None = DEFAULT_ILLEGAL_LIMIT) -> None:
        super().__init__()
        self._setup(strict, illegal_limit, flat_observation, render_mode)
        self.game = make_scene_game(scene, rules, fighters)
        self.catalogue, self.encoder = spaces_for(self.game)
        self._set_agents(agent_names(self.game), self.encoder.observation_space(flat_observation))

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.fight is not None, "call reset() first"
        obs, mask, _ = observe(self.fight, self._index[agent], self.flat_observation)
        return {"observation": obs, "action_mask": mask}

    # ------------------------------------------------------------------ FightAEC's hooks
    def _choice(self, a: int, st: State, i: int) -> Choice:
        return self.catalogue.choice(a, slot_order(st, i))

    def _rewards(self, st: State, over: bool, before: Any) -> dict[str, float]:
        rewards = dict.fromkeys(self.agents, 0.0)
        if over:
            for k, ag in enumerate(self.possible_agents):
                rewards[ag] = side_reward(st, k)
        return rewards

"""``hexdojo/Skirmish-v0``: one fighter of any scene as a single-agent Gymnasium env.

The group counterpart of ``hexdojo/Duel-v1``: the agent plays one place of a scene (the
hero of ``two_vs_one``, or one of the two guards), every other fighter is played inside
``step()`` by the given opponents. Spaces and masks are ``skirmish_v0``'s
(``skirmish_spaces``), so a policy trained here plays the same place in the AEC env.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from hexdojo.envs.rules import Choice, State

from .boundary import (
    DEFAULT_ILLEGAL_LIMIT,
    check_flag,
    check_options,
)
from .duel import as_policy
from .fight_env import FightEnv, Policy
from .opponents import resolve_opponent
from .skirmish_spaces import observe, spaces_for
from .skirmish_v0 import RENDER_MODES, make_scene_game, side_reward


def _resolve(opponent: Any) -> Any:
    """An agent name (``"greedy"``) through the agents' registry; anything else as is."""
    return resolve_opponent(opponent)  # envs/opponents.py: the installed agent registry


class SkirmishEnv(FightEnv):
    """One fighter of a scene against (and beside) fighters played inside ``step()``.

    ## Description

    Any scene of the *Age of Magic* combat rules (``docs/scenes.md``): a duel, two
    guards against the hero, two against two, an ambush, the monk against armed guards.
    The agent plays the place ``fighter`` of the scene; every other place, ally or enemy,
    is played by its opponent policy (uniform random legal play drawn from the env's
    ``np_random`` by default).
    Every decision the engine asks of the agent is one step.

    ## Action Space

    ``Discrete(N)``: the duel catalogue (369 ids for the shipped rules, attacks aimed at
    target slot 0) plus one id per attack (309) for each further slot, so ``N = 369 +
    309 (K - 1)`` with ``K`` the other fighters: 678 for ``two_vs_one``, 987 for
    ``two_vs_two``, 369 for any duel. A scene with an armed fighter (``monk_vs_guard``,
    ``monk_vs_two_guards``) takes the armed catalogue: ``N = 824 + 741 (K - 1)`` (824 and
    1,565). Slot ``s`` is the ``s``-th other fighter of the
    observation's order (allies, then enemies, each by distance, then index).
    ``action_masks()`` and ``info["action_mask"]`` are the exact mask.

    ## Observation Space

    A ``Dict`` of float32 ``Box``es in [-1, 1] (``flat_observation=True``: one ``Box``,
    the fields concatenated in sorted key order): the duel's decision fields
    (``decision_kind``, ``incoming_*``, ``roll_*``, ``follow_on*``, ``soak_wound``,
    ``risk_roll``, ``turn``), the agent's ``self_*`` fields (position, facing, AP, flags,
    height, edge, wounds, worst wound, phasing, first to act) and per slot ``others_*``
    (offset, distance, arcs both ways, facing, AP, flags, height, edge, wounds, worst,
    ally, attacker, phasing, first, holds both ways): ``213 + 65 K`` numbers for
    the shipped rules (343 for ``two_vs_one``, 408 for ``two_vs_two``, 278 for a duel).
    Under the armed catalogue it gains ArmedDuel-v0's weapon fields (``observation.ARMED_FIELDS``):
    ``incoming_weapon``/``incoming_mode`` and, for self and per slot, ``hands``,
    ``usable``, ``sheathed``, ``stuck``, ``dropped_here``, ``dropped_near``: ``319 + 121 K``
    numbers (440 for ``monk_vs_guard``, 561 for ``monk_vs_two_guards``).

    ## Rewards

    +1 when the agent's side wins (even if the agent himself is out), -1 when another side
    wins, 0 for a draw (the turn limit); ``illegal_penalty`` for a rejected action.

    ## Starting State

    A fresh fight of the scene drawn from ``np_random`` (dice, initiative, a start
    distance range). ``reset`` never returns a finished fight or one where the agent has
    nothing left to decide.

    ## Episode End

    1. Termination: one side is left standing, or the turn limit (a draw). The agent being
       out ends *his* episode too: the rest of the fight is played out inside that step
       and its result is the reward.
    2. Truncation: only ``illegal_limit`` rejected actions in a row (default 100).

    ## Arguments

    | Parameter | Default | Description |
    |---|---|---|
    | ``scene`` | ``"two_vs_one"`` | shipped scene name, TOML path, dict or engine ``Game`` |
    | ``fighter`` | 0 | the place the agent plays; None = a random place each episode |
    | ``opponents`` | None | one policy for all other places, or a list, one per place |
    | ``rules`` | None | rule overrides merged over the scene's |
    | ``fighters`` | None | fighters replacing the scene's, place by place |
    | ``flat_observation`` | False | one flat ``Box`` instead of the ``Dict`` |
    | ``strict`` | False | raise ``IllegalChoice`` on an illegal action |
    | ``illegal_penalty``, ``illegal_limit`` | 0.0, 100 | as ``hexdojo/Duel-v0`` |
    | ``render_mode`` | None | "ansi", "human" (prints the ansi frame) or "rgb_array" |

    A policy is None/"random" (uniform legal play), an agent name (``"greedy"``), an
    object with ``act(state)`` or a callable ``f(state) -> Choice``; in a list, the
    agent's own place is ignored.

    ## Version History

    * v0: initial version.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(self, scene: Any = "two_vs_one", fighter: int | None = 0, opponents: Any = None,
                 rules: str | Path | Mapping[str, Any] | None = None,
                 fighters: Sequence[Any] | None = None, flat_observation: bool = False,
                 strict: bool = False, illegal_penalty: float = 0.0,
                 illegal_limit: int | None = DEFAULT_ILLEGAL_LIMIT,
                 render_mode: str | None = None) -> None:
        self._setup(strict, illegal_penalty, illegal_limit, render_mode)
        self.game = make_scene_game(scene, rules, fighters)
        n = len(self.game.profiles)
        if fighter is not None and (isinstance(fighter, bool) or fighter not in range(n)):
            raise ValueError(f"fighter {fighter!r}: allowed None (random) or 0..{n - 1} "
                             f"(the scene's places)")
        self.fighter = fighter
        if isinstance(opponents, (list, tuple)):
            if len(opponents) != n:
                raise ValueError(f"opponents: {len(opponents)} given, the scene has {n} places "
                                 "(give one per place; the agent's is ignored)")
            self.opponents = [_resolve(o) for o in opponents]
        else:
            self.opponents = [_resolve(opponents)] * n
        self._policies: list[Policy | None] = [as_policy(o) for o in self.opponents]
        self.catalogue, self.encoder = spaces_for(self.game)
        self.flat_observation = check_flag("flat_observation", flat_observation)
        self.action_space = gym.spaces.Discrete(self.catalogue.n)
        self.observation_space = self.encoder.observation_space(flat_observation)
        self.me = 0 if fighter is None else fighter
        self._slots: tuple[int, ...] = ()
        self._mask = np.zeros(self.catalogue.n, dtype=np.int8)
        self._obs: Any = None

    @property
    def side(self) -> int:
        """The agent's side this episode (``State.winner`` names the winning side), as
        ``DuelEnv.side``: evaluation code compares the two."""
        return self.game.sides[self.me]

    # ------------------------------------------------------------------ FightEnv's hooks
    def _place(self, options: dict[str, Any] | None) -> tuple[str, int]:
        """Option ``fighter`` fixes the agent's place for this episode."""
        n = len(self.game.profiles)
        me = check_options(options, ("fighter",)).get("fighter", self.fighter)
        if me is None:
            me = int(self.np_random.integers(n))
        if me not in range(n):
            raise ValueError(f"fighter {me!r}: allowed 0..{n - 1}")
        self.me = me
        return "fighter", me

    def _agent(self) -> int:
        return self.me

    def _policy(self, fighter: int) -> Policy | None:
        return self._policies[fighter]

    def _opponents(self) -> list[Any]:
        return list({id(o): o for o in self.opponents}.values())  # each once, in order

    def _choice(self, a: int) -> Choice:
        return self.catalogue.choice(a, self._slots)

    def _reward(self, st: State, terminated: bool, before: Any) -> float:
        return side_reward(st, self.me) if terminated else 0.0

    def _observe(self) -> Any:
        assert self.fight is not None
        self._obs, self._mask, self._slots = observe(self.fight, self.me, self.flat_observation)
        return self._obs

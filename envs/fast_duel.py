"""The single duel env's fast path (issue 15): ``DuelEnv`` against the default random
opponent, or an opponent with a native player (a scripted style, mcts, search: issue 30),
steps in the native core, one call per ``step()``.

A one-slot ``_core.DuelVector`` without autoreset does the work: it applies the agent's
choice, plays the random opponent until the agent must decide again (or the fight ends),
and writes the observation (already scaled) and the exact mask into fresh numpy arrays.
What the core does not do stays in ``DuelEnv``: the action's checks, the rejection of an
illegal action (the core is only handed legal ones), the counters, ``info``, render.
``env.fight`` is a ``State`` over a copy of the slot's fight, built only when asked.

Seeding: ``reset(seed=s)`` seeds the env's ``np_random``; the agent's side is drawn from it
as on the Python path, then four 64-bit integers, the slot's PCG64 state and increment
(``core_generator``), from which the fight's dice and the random opponent's choices come. Same
seed, same actions: the same episodes; not the Python path's episodes (its opponent draws
from ``np_random``), equally distributed.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hexdojo.envs.rules import Dice, Game, State, _core
from hexdojo.envs.rules.scenario import ScenarioBoard
from hexdojo.envs.rules.to_core import _profile, compile_tables, core_dice, core_state

from .observation_layout import native_layout

_SEED_MASK = (1 << 64) - 1


def pcg64(seed: int) -> _core.Pcg64:
    """numpy's PCG64 for ``seed`` (through its SeedSequence), as the core's generator."""
    st = np.random.PCG64(seed).state
    g = _core.Pcg64()
    s, inc = st["state"]["state"], st["state"]["inc"]
    g.set((s >> 64, s & _SEED_MASK), (inc >> 64, inc & _SEED_MASK))
    return g


def core_generator(rng: np.random.Generator) -> _core.Pcg64:
    """A core PCG64 whose 128-bit state and increment (made odd) are four 64-bit draws of
    ``rng`` (cheaper than a SeedSequence per episode)."""
    hi, lo, ihi, ilo = (int(x) for x in rng.integers(0, 2**64, size=4, dtype=np.uint64))
    g = _core.Pcg64()
    g.set((hi, lo), (ihi, ilo | 1))
    return g


def unstarted_fight(game: Game) -> _core.Fight:
    """A native fight of ``game`` set up at its start and not started (no turn, no dice
    rolled): the prototype every episode of a ``DuelVector`` copies before its first turn."""
    board = ScenarioBoard(game, game.start_positions(Dice(0)))  # the start: turn 0, no frame
    ct = compile_tables(game.tables)
    return _core.Fight.from_state(ct, [_profile(ct, p) for p in game.profiles],
                                  list(game.side_names), game.turn_limit, core_state(board),
                                  core_dice(0), [], False)


def fixed_start(game: Game) -> bool:
    """Does the start roll no dice (a scene's distance range does: the core cannot draw it)?"""
    return game.scene is None or isinstance(game.scene.start.distance, int)


def make_vector(env: Any, n: int, *, autoreset: bool, events: bool) -> _core.DuelVector:
    """A ``DuelVector`` of ``n`` slots with ``env``'s (a ``DuelEnv``'s) game and options."""
    enc, tables = env.encoder, compile_tables(env.game.tables)
    opt = _core.VectorOptions()
    opt.side = -1 if env.agent_side is None else env.agent_side
    opt.shaping, opt.illegal_penalty = env.shaping, env.illegal_penalty
    opt.illegal_limit = -1 if env.illegal_limit is None else env.illegal_limit
    opt.unit = env.observation_scale == "unit"
    opt.autoreset, opt.events = autoreset, events
    return _core.DuelVector(unstarted_fight(env.game), _core.Catalogue(tables, env.armed),
                            native_layout(enc), enc.unit_factor.tolist(), opt, n)


class FastDuel:
    """One native duel for ``DuelEnv``'s fast path (see the module docstring)."""

    def __init__(self, env: Any, events: bool, opponent: Any = None) -> None:
        self.game = env.game
        self.core = make_vector(env, 1, autoreset=False, events=events)
        if opponent is not None:  # a native player (issue 30): the core plays it
            self.core.set_pool(0, [opponent])
        self.opponent = opponent
        size = env.encoder.size
        # bound once: a step hands the core one integer, and copies out what it returns
        self._obs, self._mask = np.zeros((1, size), np.float32), np.zeros((1, env.catalogue.n), np.int8)
        self.core.bind(obs=self._obs, mask=self._mask, reward=np.zeros(1, np.float32),
                       terminated=np.zeros(1, np.uint8), truncated=np.zeros(1, np.uint8),
                       final_obs=np.zeros((1, size), np.float32), has_final=np.zeros(1, np.uint8),
                       side=np.zeros(1, np.int32), illegal=np.zeros(1, np.int32),
                       outcome=np.zeros(1, np.int32))
        #: the bound rows the core writes (the env copies them out: returned arrays are never
        #: shared between steps); ``DuelEnv.step`` reads them and calls ``core.step_bound``
        #: itself, one Python call less a step than through ``step``
        self.obs_row, self.mask_row = self._obs[0], self._mask[0]
        self.n = env.catalogue.n
        #: is id ``a`` legal now (a numpy int8 of the bound mask; 0 once the episode ended)
        self.legal = self.mask_row.item

    def reset(self, rng: np.random.Generator, side: int) -> tuple[np.ndarray, np.ndarray]:
        """Start an episode with the agent as ``side``, the core's generator drawn from
        ``rng`` (``core_generator``): (observation, mask), fresh arrays."""
        self.core.side = side
        self.core.reset_bound([core_generator(rng)])
        return self.obs_row.copy(), self.mask_row.copy()

    def step(self, a: int) -> tuple[np.ndarray, np.ndarray, int, bool]:
        """Apply legal id ``a``, play the opponent: (observation, mask, outcome, over) with
        outcome +1 won, -1 lost, 0 a draw or not over; fresh arrays."""
        over, outcome = self.core.step_bound(a)
        return self.obs_row.copy(), self.mask_row.copy(), outcome, over

    def delta(self) -> int:
        """The last step's wound levels inflicted minus taken (what shaping rewards)."""
        return self.core.delta(0)

    def n_events(self) -> int:
        return self.core.n_events(0)

    def result(self) -> dict[str, Any] | None:
        """``State.result`` of the slot's fight (None while it goes on)."""
        return self.core.fight(0).result

    def state(self) -> State:
        """The slot's fight as a ``State`` (over a copy of the slot's core fight)."""
        return State.from_core(self.game, self.core.fight(0))

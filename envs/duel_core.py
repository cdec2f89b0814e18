"""The single duel env's one step path (issue 15; issue 32 made it the only one): ``DuelEnv``
steps in the native core, one call per ``step()``, whatever its opponent.

A one-slot ``_core.DuelVector`` without autoreset does the work: it applies the agent's
choice, plays the opponent until the agent must decide again (or the fight ends), and writes
the observation (already scaled) and the exact mask into bound numpy rows. The opponent is
the core's uniform random legal play (the default), a native player (``native_player(game)``:
the scripted styles, mcts, search; issue 30) played inside the core, or a Python opponent
(any ``act(state)`` object or callable): the slot's pool then holds one *external* player,
the core stops at each of its decisions, and ``DuelEnv`` asks it on a ``State`` over a copy of
the slot's fight and answers with the choice's catalogue id (``answer_bound``). What the core
does not do stays in ``DuelEnv``: the action's checks, the rejection of an illegal action (the
core is only handed legal ones), the counters, ``info``, render. ``env.fight`` is a ``State``
over a copy of the slot's fight, built only when asked.

Seeding: ``reset(seed=s)`` seeds the env's ``np_random``; the agent's side is drawn from it,
then (a scene whose start distance is a range only) the start's seed (``Dice(seed)`` rolls
the distance, the episode's prototype is set to that start: an episode the core restarts
keeps it), then four 64-bit integers, the slot's PCG64 state and increment
(``core_generator``). From the slot's generator come the fight's dice, the random
opponent's choices and, for a pool's opponent, its seed: a native player is reset with it
inside the core, a Python one by ``DuelEnv`` (``reset(seed=core.opponent_seed(0))``) at the
start of every episode, restarts included. A native player and a Python one draw the same,
so the same agent gives the same episode in either language (``native=False``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from hexdojo.envs.rules import Choice, Dice, Game, State, _core
from hexdojo.envs.rules.scenario import ScenarioBoard
from hexdojo.envs.rules.scene import start_hexes
from hexdojo.envs.rules.to_core import _profile, compile_tables, core_dice, core_state

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


def unstarted_fight(game: Game, start: Dice | None = None) -> _core.Fight:
    """A native fight of ``game`` set up at its start and not started (no turn, no dice
    rolled): the prototype every episode of a ``DuelVector`` copies before its first turn.
    ``start``: the dice a scene's distance range is drawn from (a fixed start rolls none)."""
    return _fight_at(game, game.start_positions(Dice(0) if start is None else start))


def start_fights(game: Game) -> list[_core.Fight]:
    """One unstarted fight per start distance of the scene's range, nearest first (a fixed
    start: its one): the vector env's prototypes, of which the core draws one per episode
    (``DuelVector.set_protos``), uniformly as ``Game.start_positions`` draws a distance."""
    if fixed_start(game):
        return [unstarted_fight(game)]
    lo, hi = game.scene.start.distance
    return [_fight_at(game, start_hexes(game.scene, d)) for d in range(lo, hi + 1)]


def _fight_at(game: Game, positions: list) -> _core.Fight:
    """``game``'s native fight with its fighters at ``positions`` (hex, facing), not started."""
    board = ScenarioBoard(game, positions)
    ct = compile_tables(game.tables)
    return _core.Fight.from_state(ct, [_profile(ct, p) for p in game.profiles],
                                  list(game.side_names), game.turn_limit, core_state(board),
                                  core_dice(0), [], False)


def fixed_start(game: Game) -> bool:
    """Does the start roll no dice (a scene's distance range does: the core cannot draw it)?"""
    return game.scene is None or isinstance(game.scene.start.distance, int)


def answer_id(catalogue: Any, mask_row: np.ndarray, st: State, choice: Any, label: str,
              where: str = "") -> int:
    """The catalogue id of a Python opponent's ``choice`` on ``st`` (his decision); not a legal
    choice of his now: one ``ValueError`` line naming the opponent (``label``; ``where``: a
    prefix, the vector env's slot), the choice and why. The single env and the vector env
    answer the core's stops with it."""
    me = st.decision.fighter
    try:
        i = catalogue.id_for(choice)
    except (ValueError, TypeError, AttributeError):
        i = -1
    if i >= 0 and mask_row[i] and catalogue.choices_for(me)[i] == choice:
        return i
    why = st.why_illegal(choice) if isinstance(choice, Choice) else \
        f"a {type(choice).__name__}, not a Choice of state.legal_choices()"
    raise ValueError(f"{where}opponent {label!r} (fighter {me}) returned {choice!r}: not a legal "
                     f"choice now ({why or 'not the catalogue choice of the opponent'})")


def make_vector(env: Any, n: int, *, autoreset: bool, events: bool) -> _core.DuelVector:
    """A ``DuelVector`` of ``n`` slots with ``env``'s (a ``DuelEnv``'s) game and options."""
    enc = env.encoder
    opt = _core.VectorOptions()
    opt.side = -1 if env.agent_side is None else env.agent_side
    opt.shaping, opt.illegal_penalty = env.shaping, env.illegal_penalty
    opt.illegal_limit = -1 if env.illegal_limit is None else env.illegal_limit
    opt.unit = env.observation_scale == "unit"
    opt.autoreset, opt.events = autoreset, events
    return _core.DuelVector(unstarted_fight(env.game), enc.core_catalogue, enc.core_layout,
                            enc.unit_factor.tolist(), opt, n)


class DuelCore:
    """One native duel for ``DuelEnv`` (see the module docstring): the bound one-slot vector
    and its opponent (``player``: a native one the core plays; ``external``: a Python one the
    env answers for; neither: the core's random play)."""

    def __init__(self, env: Any, events: bool, player: Any = None, external: bool = False) -> None:
        self.game = env.game
        self.core = make_vector(env, 1, autoreset=False, events=events)
        size, n = env.encoder.size, env.catalogue.n
        self._opp = {"opp_obs": np.zeros((1, size), np.float32), "opp_mask": np.zeros((1, n), np.int8),
                     "waiting": np.zeros(1, np.int32)}
        if player is not None:  # a native player (issue 30): the core plays it
            self.core.set_pool(0, [player])
        elif external:  # a Python opponent (issue 32): the core waits for it, every episode
            self.core.bind_external(**self._opp)  # before bind(): the bound buffers take them
            self.core.set_pool(0, [], 1.0, 1)
        self.player, self.external = player, external
        #: the waiting opponent's mask row (what an answer is checked against)
        self.opp_mask_row = self._opp["opp_mask"][0]
        #: the episode (``core.episode(0)``) whose Python opponent was last reset
        self.seeded = -1
        #: does the start roll dice (a scene's distance range): a prototype per episode
        self.ranged = not fixed_start(self.game)
        # bound once: a step hands the core one integer, and copies out what it returns
        self._obs, self._mask = np.zeros((1, size), np.float32), np.zeros((1, n), np.int8)
        self.core.bind(obs=self._obs, mask=self._mask, reward=np.zeros(1, np.float32),
                       terminated=np.zeros(1, np.uint8), truncated=np.zeros(1, np.uint8),
                       final_obs=np.zeros((1, size), np.float32), has_final=np.zeros(1, np.uint8),
                       side=np.zeros(1, np.int32), illegal=np.zeros(1, np.int32),
                       outcome=np.zeros(1, np.int32))
        #: the bound rows the core writes (the env copies them out: returned arrays are never
        #: shared between steps); ``DuelEnv.step`` reads them and calls ``core.step_bound``
        #: itself, one Python call less a step than through ``step``
        self.obs_row, self.mask_row = self._obs[0], self._mask[0]
        self.n = n
        #: is id ``a`` legal now (a numpy int8 of the bound mask; 0 once the episode ended)
        self.legal = self.mask_row.item

    def reset(self, rng: np.random.Generator, side: int) -> tuple[np.ndarray, np.ndarray]:
        """Start an episode with the agent as ``side``: a ranged start drawn from ``rng``
        first, then the core's generator (``core_generator``). (observation, mask), fresh
        arrays; with a Python opponent the slot may wait for it (``DuelEnv`` answers)."""
        self.core.side = side
        if self.ranged:
            self.core.set_proto(unstarted_fight(self.game, Dice(int(rng.integers(2**63 - 1)))))
        self.core.reset_bound([core_generator(rng)])
        return self.obs_row.copy(), self.mask_row.copy()

    def step(self, a: int) -> tuple[np.ndarray, np.ndarray, int, bool]:
        """Apply legal id ``a``, play the core's opponent: (observation, mask, outcome, over)
        with outcome +1 won, -1 lost, 0 a draw or not over; fresh arrays."""
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

"""``gymnasium.make_vec("hexdojo/Duel-v1", num_envs=N, vectorization_mode="vector_entry_point")``:
N duels stepped in one call inside the native core (issue 15).

Each of the N slots is Duel-v1 (``envs/duel.py``: the same observation, mask, rewards, episode
end and illegal-action policy) against the default opponent, uniform random legal play, which
the core plays itself; one ``step(actions)`` crosses into the core once for all N. Episodes
restart inside ``step`` (Gymnasium's same-step autoreset): a finished episode's last
observation is in ``info["final_obs"]`` (``info["_final_obs"]`` says which slots), its result
in ``info["final_info"]``. ``action_masks()`` gives the N exact masks (MaskablePPO's
``hexdojo.envs.sb3.NativeVecEnv`` wraps this env as SB3's ``VecEnv``).

Seeding: ``reset(seed=s)`` seeds slot k with numpy's ``PCG64(s + k)`` (SeedSequence); each
episode of a slot draws the agent's side (unless ``agent_side``), then (a scene whose start
distance is a range only) its start: the core holds one prototype per distance of the range
(``duel_core.start_fights``) and draws one uniformly from the slot's generator (an episode
the core restarts because it ended before the agent decided draws again), then its dice
generator's 128-bit state and increment, then (an opponent other than random play) its
opponent and that opponent's seed; the random opponent's choices come from it too. Same
seed, same actions: the same episodes, whatever else runs in the process and whatever the
number of slots (slot k of a 4-slot and of an 8-slot vector play alike). The random
opponent's draws and a ranged start's differ from the single env's (``np_random``), so the
two envs play different (equally distributed) fights from the same seed.

Opponents (issues 30, 32): uniform random legal play by default; an agent with a native
player (``native_player(game)``: the scripted styles, mcts, search) plays inside the core; an
opponent pool (``native_pool(game)``: ``(players, external, policies)``, e.g. the training
pool ``hexdojo.agents.training.pool.PoolOpponent``) draws each episode one of its native
players or, with probability ``external``, one of its ``policies``; any other opponent (an
``act(state)`` object, a callable, a plug-in; or, with ``native=False``, any agent) is every
episode's external player. An external player with ``batch_act(obs, masks) -> ids`` (a past
self, a checkpoint) is asked once per vector step for every slot waiting on it, one batched
forward instead of a Python call per decision; one without it is asked like the single env's
Python opponent: its ``act`` on a ``State`` over a copy of the slot's fight, one call per
decision of his, then one ``answer`` into the core for every waiting slot; a choice that is
not legal is one ``ValueError`` line naming the slot, the opponent and the choice. Each slot
plays its own copy of such an opponent (``copy.deepcopy``, made when the slot first meets it;
the object passed in is never asked), reset with the seed the core drew for it
(``reset(seed=...)``, if it has one) when it first decides in an episode: a native player
draws the same, so the same agent gives the same episodes natively or through its ``act``
(``native=False``), and the slots never share an opponent's state. ``native=True`` refuses an
opponent without a native player or ``batch_act`` in one line. Arguments are Duel-v1's
otherwise (no ``strict``, no ``render_mode``).
"""

from __future__ import annotations

import copy
import time
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from hexdojo.envs.rules import State

from .duel import DuelEnv, as_policy
from .duel_core import answer_id, fixed_start, make_vector, start_fights, unstarted_fight
from .duel_core import pcg64 as _pcg64
from .opponents import resolve_opponent

__all__ = ["NativeDuelVectorEnv", "OpponentNotNative", "is_native", "unstarted_fight"]


class NativeDuelVectorEnv(VectorEnv):
    """N Duel-v1 duels stepped natively, their opponents too (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 64, opponent: Any = None, **kwargs: Any) -> None:
        if not 1 <= int(num_envs) <= 100_000:
            raise ValueError(f"num_envs {num_envs!r}: allowed 1..100000")
        for bad in ("strict", "render_mode"):
            if kwargs.get(bad):
                raise ValueError(f"{bad}={kwargs[bad]!r}: not available in the native vector env")
        single = DuelEnv(**kwargs)  # the arguments' checks, the game, catalogue and spaces
        self.num_envs = int(num_envs)
        self.single_env = single
        self.encoder, self.catalogue = single.encoder, single.catalogue
        self.flat = single.flat_observation
        self.single_observation_space = single.observation_space
        self.single_action_space = single.action_space
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.core = make_vector(single, self.num_envs, autoreset=True, events=False)
        if not fixed_start(single.game):  # a ranged start: the core draws one per episode
            self.core.set_protos(start_fights(single.game))
        enc = self.encoder
        n, size, m = self.num_envs, enc.size, self.catalogue.n
        self.opponent = resolve_opponent(opponent)
        self._native: bool | None = kwargs.get("native")
        self._policies: list[Any] = []
        #: each slot's own copy of an external player asked through ``act``, by (policy, slot)
        self._copies: dict[tuple[int, int], tuple[Any, Any, Any]] = {}
        #: the episode (``core.episode(k)``) whose copy slot k last reset
        self._seeded = np.full(n, -1, np.int64)
        self._ext = {"opp_obs": np.zeros((n, size), np.float32), "opp_mask": np.zeros((n, m), np.int8),
                     "waiting": np.zeros(n, np.int32)}
        self.core.bind_external(**self._ext)
        self.set_opponent_pool()
        self._buf = {"obs": np.zeros((n, size), np.float32), "mask": np.zeros((n, m), np.int8),
                     "reward": np.zeros(n, np.float32), "terminated": np.zeros(n, np.uint8),
                     "truncated": np.zeros(n, np.uint8), "final_obs": np.zeros((n, size), np.float32),
                     "has_final": np.zeros(n, np.uint8), "side": np.zeros(n, np.int32),
                     "illegal": np.zeros(n, np.int32), "outcome": np.zeros(n, np.int32)}
        self._illegal_total = 0
        #: seconds spent in the external opponents' batch_act (training's time profile)
        self._external_seconds = 0.0

    # ------------------------------------------------------------------ gymnasium API
    def reset(self, *, seed: int | list[int] | None = None, options: dict | None = None):
        """Start every slot's episode (``seed``: slot k gets ``seed + k``; a list: one each)."""
        super().reset(seed=seed)
        if seed is None:
            seeds = [int(x) for x in np.random.SeedSequence().generate_state(self.num_envs, np.uint64)]
        elif isinstance(seed, int):
            seeds = [seed + k for k in range(self.num_envs)]
        else:
            seeds = [int(x) for x in seed]
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed: {len(seeds)} seeds for {self.num_envs} envs")
        self.core.reset([_pcg64(s) for s in seeds], **self._buf)
        self._answer_opponents(self._buf)
        return self._obs(self._buf["obs"]), {"action_mask": self._buf["mask"].copy(),
                                              "side": self._buf["side"].copy()}

    def step(self, actions: Any):
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise ValueError(f"actions: expected {self.num_envs} integer ids, got shape "
                             f"{a.shape} of {a.dtype}")
        if a.size and (a.min() < 0 or a.max() >= self.catalogue.n):
            raise ValueError(f"actions: ids allowed 0..{self.catalogue.n - 1}, got "
                             f"{int(a.min())}..{int(a.max())}")
        b = self._buf
        n, size, m = self.num_envs, self.encoder.size, self.catalogue.n
        # fresh output arrays the core writes in full: nothing returned is shared with a later step
        b.update(obs=np.empty((n, size), np.float32), mask=np.empty((n, m), np.int8),
                 reward=np.empty(n, np.float32), terminated=np.empty(n, np.uint8),
                 truncated=np.empty(n, np.uint8))
        self.core.step(np.ascontiguousarray(a, dtype=np.int64), **b)
        self._answer_opponents(b)
        self._illegal_total += int((b["illegal"] >= 0).sum())
        obs = b["obs"] if self.flat else {k: b["obs"][:, s] for k, s in self.encoder.slices}
        return obs, b["reward"], b["terminated"].view(bool), b["truncated"].view(bool), self._infos()

    def set_opponent_pool(self) -> None:
        """Ask the opponent for its players again (a training pool's new snapshots), for the
        episodes every slot starts from now on."""
        got = opponent_pool(self.opponent, self.single_env.game, self._native)
        if got is None:
            return
        players, external, policies = got
        for p in policies:  # each answers through batch_act or act: else one TypeError line
            if not callable(getattr(p, "batch_act", None)):
                as_policy(p)
        self._policies = list(policies)
        self._players = [players] + [self._own_players(len(players)) for _ in range(1, self.num_envs)]
        for k, own in enumerate(self._players):
            self.core.set_pool(k, own, float(external) if policies else 0.0, len(policies))

    def _own_players(self, count: int) -> list[Any]:
        """Another slot's native players, asked of the opponent again: a native player keeps
        state between its decisions (random play's generator, the search's tree), so each
        slot plays its own and slot k's episodes do not depend on the other slots."""
        if count == 0:
            return []
        got = opponent_pool(self.opponent, self.single_env.game, self._native)
        if got is None or len(got[0]) != count:
            raise ValueError(f"opponent {getattr(self.opponent, 'name', self.opponent)!r}: its "
                             f"pool gave {count} native players, then another number")
        return list(got[0])

    def _answer_opponents(self, b: dict[str, np.ndarray]) -> None:
        """Every slot waiting on an external opponent: one batched ``batch_act`` per policy
        that has it, one ``act`` on the slot's ``State`` per slot of one that has not; then
        one ``answer`` for all, until each slot waits on its agent again."""
        waiting = self._ext["waiting"]
        if not waiting.any():
            return
        t0 = time.perf_counter()
        while waiting.any():
            acts = np.zeros(self.num_envs, np.int64)
            for j in np.unique(waiting[waiting > 0]):
                rows = np.flatnonzero(waiting == j)
                policy = self._policies[int(j) - 1]
                if callable(getattr(policy, "batch_act", None)):
                    got = policy.batch_act(self._ext["opp_obs"][rows],
                                           self._ext["opp_mask"][rows].astype(bool))
                    acts[rows] = np.asarray(got, dtype=np.int64).reshape(-1)
                else:
                    for k in rows.tolist():
                        acts[k] = self._ask(policy, k)
            self.core.answer(acts, **b)
        self._external_seconds += time.perf_counter() - t0

    def _ask(self, policy: Any, k: int) -> int:
        """Slot k's own copy of ``policy`` (reset with the core's seed at its first decision
        of an episode) asked on a ``State`` over a copy of the slot's fight: the choice's id."""
        key = (id(policy), k)
        held = self._copies.get(key)
        if held is None or held[0] is not policy:
            own = copy.deepcopy(policy)
            held = self._copies[key] = (policy, own, as_policy(own))
        own, act = held[1], held[2]
        episode = self.core.episode(k)
        if self._seeded[k] != episode:
            self._seeded[k] = episode
            reset = getattr(own, "reset", None)
            if callable(reset):
                reset(seed=self.core.opponent_seed(k))
        st = State.from_core(self.single_env.game, self.core.fight(k))
        return answer_id(self.catalogue, self._ext["opp_mask"][k], st, act(st),
                         str(getattr(policy, "name", None) or policy), where=f"slot {k}: ")

    @property
    def opponent_seconds(self) -> float:
        """Seconds the opponents have thought: the native players inside the core and the
        external policies' batches (training's time profile)."""
        return self.core.opponent_ns * 1e-9 + self._external_seconds

    def action_masks(self) -> np.ndarray:
        """The N exact masks (bool) of the current decisions."""
        return self._buf["mask"].astype(bool)

    @property
    def illegal_total(self) -> int:
        """Rejected actions over the env's life (a masked agent keeps this at 0)."""
        return self._illegal_total

    # ------------------------------------------------------------------ internals
    def _obs(self, flat: np.ndarray) -> Any:
        out = flat.copy()
        if self.flat:
            return out
        return {k: out[:, s] for k, s in self.encoder.slices}

    def _infos(self) -> dict[str, Any]:
        b = self._buf
        infos: dict[str, Any] = {"action_mask": b["mask"], "side": b["side"].copy(),
                                 "illegal": b["illegal"].copy()}
        done = b["has_final"].astype(bool)
        if done.any():
            rows = np.flatnonzero(done)
            fo = b["final_obs"].copy()  # one copy; each ended slot's observation a row (or views) of it
            final = np.empty(self.num_envs, dtype=object)
            final_info = np.empty(self.num_envs, dtype=object)
            slices = None if self.flat else self.encoder.slices
            for k in rows:
                row = fo[k]
                final[k] = row if slices is None else {key: row[sl] for key, sl in slices}
                final_info[k] = {"outcome": int(b["outcome"][k])}  # +1 won, -1 lost, 0 draw
            infos.update(final_obs=final, _final_obs=done, final_info=final_info,
                         _final_info=done)
        return infos


class OpponentNotNative(ValueError):
    """``native=True`` and an opponent only Python can play (no native player, no
    ``batch_act``): refused in one line."""


def opponent_pool(opponent: Any, game: Any, native: bool | None = None
                  ) -> tuple[list[Any], float, list[Any]] | None:
    """(native players, external probability, external policies) of an opponent; None for
    random play. An opponent only Python can play (or any with ``native=False``) is every
    episode's external policy, asked through ``batch_act`` or ``act``; with ``native=True``
    it is an ``OpponentNotNative`` line instead."""
    if opponent is None or (isinstance(opponent, str) and opponent == "random"):
        return None
    if native is not False:
        got = native_pool(opponent, game)
        if got is not None:
            return got
    label = getattr(opponent, "name", None) or opponent
    if native is True and not callable(getattr(opponent, "batch_act", None)):
        raise OpponentNotNative(f"native=True: opponent {label!r} has no native player "
                                "(native_player(game)), pool or batch_act for the vector env "
                                "to play; pass native=None to ask its act(state) from Python")
    if not callable(getattr(opponent, "batch_act", None)):
        as_policy(opponent)  # an object with act(state) or a callable, else one TypeError line
    return [], 1.0, [opponent]


def native_pool(opponent: Any, game: Any) -> tuple[list[Any], float, list[Any]] | None:
    """The opponent's pool (``native_pool(game)``) or native player as a pool; None if it
    has neither."""
    pool = getattr(opponent, "native_pool", None)
    got = pool(game) if callable(pool) else None
    if got is not None:
        return got
    ask = getattr(opponent, "native_player", None)
    player = ask(game) if callable(ask) else None
    return None if player is None else ([player], 0.0, [])


def is_native(env: Any) -> bool:
    """Is ``env`` the native vector env (MaskablePPO's wrapper asks)?"""
    return isinstance(env, NativeDuelVectorEnv) or isinstance(
        getattr(env, "unwrapped", None), NativeDuelVectorEnv)

"""The native vector env (issue 15): N Duel-v1 duels against random play stepped in the core.

The strongest check replays every slot through the Python API: the slot's generator (numpy's
PCG64 for seed + k) is mirrored with the core's own ``Pcg64``, each episode's side and dice
are drawn from it as the core draws them, the random opponent's choices likewise, and at
every step the replayed fight, seen through the Python encoders ``envs/observation.py`` and
``envs/catalogue.py``, must give the vector env's observation, mask, reward and episode end.
"""

from __future__ import annotations

from dataclasses import replace

import gymnasium as gym
import numpy as np
import pytest

import hexdojo.envs  # noqa: F401 - registers the ids
from hexdojo.envs.rules import Dice, Game
from hexdojo.envs.rules.scene import StartRule
from hexdojo.envs.vector_env import NativeDuelVectorEnv, _pcg64

_M = (1 << 64) - 1


class Replay:
    """One slot's episodes through the Python API, drawn as the core draws them."""

    def __init__(self, env: NativeDuelVectorEnv, seed: int, side: int | None) -> None:
        self.single = env.single_env
        self.rng = _pcg64(seed)
        self.fixed_side = side
        self.distances: list[int] = []
        self.new_episode()

    def new_episode(self) -> None:
        g = self.single.game
        while True:
            self.side = self.fixed_side if self.fixed_side is not None else self.rng.bounded(1)
            if g.scene is not None and not isinstance(g.scene.start.distance, int):
                g = self.ranged_start(self.single.game)
            hi, lo, ihi, ilo = (self.rng.next64() for _ in range(4))
            bg = np.random.PCG64()
            bg.state = {"bit_generator": "PCG64", "state": {"state": (hi << 64) | lo,
                                                            "inc": (ihi << 64) | ilo | 1},
                        "has_uint32": 0, "uinteger": 0}
            self.s = g.new_state(Dice(np.random.Generator(bg), g.tables.data.dice.die_sides))
            self.opponent()
            if not self.s.is_over:
                return

    def ranged_start(self, game: Game) -> Game:
        """The game at this episode's start distance, drawn as the core draws its prototype
        (uniformly over the range, from the slot's generator, after the side)."""
        lo, hi = game.scene.start.distance
        d = lo + self.rng.bounded(hi - lo)
        self.distances.append(d)
        return replace(game, scene=game.scene.model_copy(update={"start": StartRule(distance=d)}))

    def opponent(self) -> None:
        s = self.s
        while s.decision is not None and s.decision.fighter != self.side:
            legal = s.legal_choices()
            s.apply(legal[0 if len(legal) == 1 else self.rng.bounded(len(legal) - 1)])

    def observe(self) -> tuple[np.ndarray, np.ndarray]:
        enc = self.single.encoder
        flat, mask = enc.encode_with_mask(self.s, self.side)
        return enc.rescale(flat, self.single.observation_scale), mask


#: a two-fighter scene whose start distance is drawn (1..4 hexes) each episode
RANGED = {"name": "ranged", "start": {"distance": [1, 4]},
          "fighters": [{"fighter": "chu"}, {"fighter": "boris"}]}


@pytest.mark.parametrize("kwargs", [
    {},
    {"fighters": ("chu", "guard"), "armed": True},  # ArmedDuel-v0's
    {"agent_side": 1, "shaping": 0.1, "fighters": ("boris", "cogan")},
    {"scene": RANGED, "fighters": None},  # the core draws the start per episode (issue 32)
], ids=["v1", "v2-armed", "side1-shaped", "ranged-start"])
def test_every_slot_replays_through_the_python_api(kwargs) -> None:
    n, seed = 4, 11
    env = NativeDuelVectorEnv(num_envs=n, flat_observation=True, observation_scale="unit",
                              **{"fighters": ("chu", "chu"), **kwargs})
    obs, info = env.reset(seed=seed)
    replays = [Replay(env, seed + k, kwargs.get("agent_side")) for k in range(n)]
    rng = np.random.default_rng(0)
    ended = 0
    for step in range(400):
        for k, r in enumerate(replays):
            want_obs, want_mask = r.observe()
            assert np.array_equal(info["action_mask"][k], want_mask), (k, step)
            assert np.array_equal(obs[k], want_obs), (k, step)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
        obs, reward, term, trunc, info = env.step(actions)
        for k, r in enumerate(replays):
            me = r.side
            before = (sum(lv for _, lv in r.s.fighters[1 - me].wounds)
                      - sum(lv for _, lv in r.s.fighters[me].wounds))
            r.s.apply(env.catalogue.choice_for(int(actions[k]), r.s, me))
            r.opponent()
            want = outcome = 0.0
            if r.s.is_over:
                w = r.s.winner
                want = outcome = 0.0 if w is None else (1.0 if w == me else -1.0)
            shaping = env.single_env.shaping
            if shaping:
                after = (sum(lv for _, lv in r.s.fighters[1 - me].wounds)
                         - sum(lv for _, lv in r.s.fighters[me].wounds))
                want += shaping * (after - before)
            assert term[k] == r.s.is_over and not trunc[k], (k, step)
            assert reward[k] == pytest.approx(want, abs=1e-6), (k, step)
            if r.s.is_over:
                ended += 1
                final = r.observe()[0]
                assert info["_final_obs"][k] and np.array_equal(info["final_obs"][k], final)
                assert info["final_info"][k]["outcome"] == outcome
                r.new_episode()
    assert ended >= 5  # episodes ended and restarted inside step, and replayed
    if "scene" in kwargs:  # the starts drawn: the whole range, and what the core says it drew
        assert {d for r in replays for d in r.distances} == {1, 2, 3, 4}
        assert [env.core.start(k) + 1 for k in range(n)] == [r.distances[-1] for r in replays]


def test_make_vec_gives_the_native_env_with_batched_spaces() -> None:
    env = gym.make_vec("hexdojo/Duel-v1", num_envs=3, vectorization_mode="vector_entry_point")
    assert isinstance(env.unwrapped, NativeDuelVectorEnv)
    single = gym.make("hexdojo/Duel-v1")
    assert env.single_observation_space == single.observation_space  # the Dict, Duel-v1's
    obs, info = env.reset(seed=0)
    assert set(obs) == set(single.observation_space.spaces)
    assert all(v.shape[0] == 3 for v in obs.values())
    assert env.observation_space.contains(obs)
    assert info["action_mask"].shape == (3, single.action_space.n)
    assert env.unwrapped.action_masks().any(axis=1).all()  # every slot has a legal action


def test_an_illegal_action_is_rejected_and_the_fight_unchanged() -> None:
    env = NativeDuelVectorEnv(num_envs=2, flat_observation=True, illegal_limit=3,
                              illegal_penalty=-0.5)
    obs, info = env.reset(seed=3)
    bad = np.array([int(np.flatnonzero(m == 0)[0]) for m in info["action_mask"]])
    for k in range(3):
        obs2, reward, term, trunc, info2 = env.step(bad)
        assert (info2["illegal"] == bad).all() and (reward == -0.5).all()
        assert trunc.all() == (k == 2)
        if k < 2:
            assert np.array_equal(obs2, obs)
    assert env.illegal_total == 6


def test_the_same_seed_gives_the_same_episodes() -> None:
    def run(seed: int) -> list:
        env = NativeDuelVectorEnv(num_envs=3, flat_observation=True)
        _, info = env.reset(seed=seed)
        rng = np.random.default_rng(1)
        out = []
        for _ in range(60):
            a = np.array([rng.choice(np.flatnonzero(m)) for m in info["action_mask"]])
            obs, r, term, _, info = env.step(a)
            out.append((obs.sum(), r.tolist(), term.tolist()))
        return out

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_bad_arguments_are_one_line_errors() -> None:
    """Python-only opponents and ranged starts are taken since issue 32; ``native=True``
    without a native player, a non-opponent and bad actions are one line each."""
    NativeDuelVectorEnv(num_envs=2, opponent=lambda s: s.legal_choices()[0])  # Python only: taken
    NativeDuelVectorEnv(num_envs=2, scene=RANGED, fighters=None)  # a ranged start: taken
    with pytest.raises(ValueError, match=r"^native=True: opponent .* has no native player"):
        NativeDuelVectorEnv(num_envs=2, opponent=lambda s: s.legal_choices()[0], native=True)
    with pytest.raises(TypeError, match=r"^opponent 42: expected None, 'random', an object"):
        NativeDuelVectorEnv(num_envs=2, opponent=42)
    env = NativeDuelVectorEnv(num_envs=2)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="expected 2 integer ids"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="ids allowed 0.."):
        env.step(np.array([0, 10_000]))

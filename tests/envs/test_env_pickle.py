"""Every registered env pickles with its default options (issue 35): pickle, deepcopy and
cloudpickle (what SubprocVecEnv with spawn or forkserver, RLlib and Ray workers use). A copy
keeps the env's options and replays the same episode from the same seed; the single duel's
fast path (a core that cannot be pickled) is rebuilt, and an episode under way on it is not
carried: the copy asks for reset() first, in one line."""

from __future__ import annotations

import copy
import pickle
import warnings

import cloudpickle
import gymnasium as gym
import numpy as np
import pytest

import hexdojo.envs  # noqa: F401  (registers the ids)

IDS = sorted(k for k in gym.registry if k.startswith("hexdojo/"))
COPIES = {"pickle": lambda e: pickle.loads(pickle.dumps(e)), "deepcopy": copy.deepcopy,
          "cloudpickle": lambda e: cloudpickle.loads(cloudpickle.dumps(e))}


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", category=DeprecationWarning)
    warnings.filterwarnings("ignore", message="hexdojo/Duel-v2", category=FutureWarning)


def test_the_ids_include_the_armed_duel_and_its_alias() -> None:
    """IDS is read from the registry: a registration that went missing would drop its tests."""
    assert {"hexdojo/Duel-v0", "hexdojo/Duel-v1", "hexdojo/ArmedDuel-v0", "hexdojo/Duel-v2",
            "hexdojo/Skirmish-v0"} <= set(IDS)


def _flat(obs) -> np.ndarray:
    return obs if isinstance(obs, np.ndarray) else np.concatenate([obs[k] for k in sorted(obs)])


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize("env_id", IDS)
def test_every_registered_env_copies_and_replays_its_seed(env_id: str, how: str) -> None:
    env = gym.make(env_id)
    obs, info = env.reset(seed=7)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))  # mid-episode
    twin = COPIES[how](env)
    got, info2 = twin.reset(seed=7)
    assert np.array_equal(_flat(got), _flat(obs))
    assert np.array_equal(info2["action_mask"], info["action_mask"])
    twin.step(int(np.flatnonzero(info2["action_mask"])[0]))
    assert twin.unwrapped.observation_space == env.unwrapped.observation_space


@pytest.mark.parametrize("native", [None, False])
def test_a_copy_asks_for_reset_and_keeps_its_opponent(native: bool | None) -> None:
    """A copy rebuilds the core's duel with the same opponent: greedy played inside the core
    (native=None) or asked through its Python act (native=False, issue 32), and replays the
    original's seeded episode."""
    env = gym.make("hexdojo/Duel-v1", opponent="greedy", native=native)
    obs, info = env.reset(seed=3)
    fast = env.unwrapped._duel
    assert (fast.player is not None) == (native is None) and fast.external == (native is False)
    twin = pickle.loads(pickle.dumps(env.unwrapped))
    assert (twin._duel.player is not None, twin._duel.external) == (fast.player is not None, fast.external)
    with pytest.raises(RuntimeError, match="reset"):
        twin.step(int(np.flatnonzero(info["action_mask"])[0]))
    got, info2 = twin.reset(seed=3)
    assert np.array_equal(_flat(got), _flat(obs))
    assert np.array_equal(info2["action_mask"], info["action_mask"])

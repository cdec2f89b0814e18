"""The mask inside the observation (issue 35, ``hexdojo.envs.wrappers``): PettingZoo's and
SuperSuit's ``{"observation", "action_mask"}``, RLlib's ``{"observations", ...}`` and
Tianshou's ``{"obs", "mask"}``. The mask must be the env's exact mask of the same step
(a stale one, from the step before, would let a policy pick an illegal action), the
wrapped observation the env's own, and Gymnasium's checker must pass."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hexdojo.envs  # noqa: F401 - registers the ids
from hexdojo.envs.wrappers import MaskInObservation, TianshouMask

KEYS = {"pettingzoo": (lambda e: MaskInObservation(e), "observation", "action_mask"),
        "rllib": (lambda e: MaskInObservation(e, obs_key="observations"), "observations", "action_mask"),
        "tianshou": (TianshouMask, "obs", "mask")}


def _flat(obs) -> np.ndarray:
    return obs if isinstance(obs, np.ndarray) else np.concatenate([obs[k] for k in sorted(obs)])


@pytest.mark.parametrize("env_id", ["hexdojo/Duel-v1", "hexdojo/Skirmish-v0"])
@pytest.mark.parametrize("convention", sorted(KEYS))
def test_the_mask_is_the_envs_own_at_every_step(env_id: str, convention: str) -> None:
    wrap, ok, mk = KEYS[convention]
    env, bare = wrap(gym.make(env_id)), gym.make(env_id)
    assert set(env.observation_space.spaces) == {ok, mk}
    obs, info = env.reset(seed=4)
    ref, _ = bare.reset(seed=4)
    rng = np.random.default_rng(0)
    ends = 0
    for _ in range(400):
        assert obs in env.observation_space and obs[mk].dtype == np.int8
        np.testing.assert_array_equal(obs[mk], info["action_mask"])
        np.testing.assert_array_equal(obs[mk], env.action_masks())
        np.testing.assert_array_equal(_flat(obs[ok]), _flat(ref))
        legal = np.flatnonzero(obs[mk])
        a = int(rng.choice(legal)) if rng.random() < 0.9 else int(rng.integers(len(obs[mk])))
        obs, r, term, trunc, info = env.step(a)
        ref, r2, *_ = bare.step(a)
        assert r == r2
        if term or trunc:
            ends += 1
            obs, info = env.reset()
            ref, _ = bare.reset()
    assert ends >= 1


@pytest.mark.filterwarnings("ignore:.*is different from the unwrapped version")
@pytest.mark.parametrize("convention", sorted(KEYS))
def test_gymnasium_checker_and_the_spec_rebuild_the_wrapper(convention: str) -> None:
    wrap, ok, mk = KEYS[convention]
    env = wrap(gym.make("hexdojo/Duel-v1", flat_observation=True))
    check_env(env, skip_render_check=True)
    again = gym.make(env.spec)
    assert type(again) is type(env) and set(again.reset(seed=0)[0]) == {ok, mk}


def test_bad_wrapping_is_one_clear_line() -> None:
    with pytest.raises(ValueError, match="obs_key and mask_key 'x': they must differ"):
        MaskInObservation(gym.make("hexdojo/Duel-v1"), obs_key="x", mask_key="x")
    box = gym.make("CartPole-v1")
    box.action_space = gym.spaces.Box(-1, 1, (2,))
    with pytest.raises(ValueError, match="allowed Discrete"):
        MaskInObservation(box)
    with pytest.raises(ValueError, match="info has no 'action_mask'"):
        MaskInObservation(gym.make("CartPole-v1")).reset(seed=0)

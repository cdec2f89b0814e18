"""Scripted agents plug into Duel-v0's opponent slot by name (issues 3 and 4)."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import hexdojo.envs  # noqa: F401  (registers hexdojo/Duel-v0)
from hexdojo.agents.base import Agent, AgentError


def _episode(env, seed):
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace = [obs.tobytes()]
    done = False
    while not done:
        a = int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))
        obs, r, term, trunc, info = env.step(a)
        trace.append(obs.tobytes())
        done = term or trunc
    return trace, r


@pytest.mark.parametrize("name", ["greedy", "striker:aggression=0.9", "counter"])
def test_opponent_by_name_is_an_agent_and_seeded_episodes_repeat(name):
    env = gym.make("hexdojo/Duel-v0", opponent=name, flat_observation=True, turn_limit=6)
    assert isinstance(env.unwrapped.opponent, Agent)
    assert env.unwrapped.opponent.name.split(":")[0] == name.split(":")[0]
    assert _episode(env, 5) == _episode(env, 5)


def test_unknown_opponent_name_is_a_clear_error():
    with pytest.raises(AgentError) as e:
        gym.make("hexdojo/Duel-v0", opponent="kung-fu-panda")
    assert "kung-fu-panda" in str(e.value) and "greedy" in str(e.value)

"""The wrapper that gives RLlib its masking keys is plain PettingZoo, tested without Ray
(the Ray run itself: tests/training/test_integration_rllib.py)."""

from __future__ import annotations

import numpy as np

from hexdojo.agents.rllib_backend import RLlibKeys
from hexdojo.envs import duel_v1


def test_rllib_keys_renames_the_observation_and_makes_the_mask_float():
    inner = duel_v1.env(turn_limit=4, flat_observation=True)
    env = RLlibKeys(duel_v1.env(turn_limit=4, flat_observation=True))
    env.reset(seed=0)
    inner.reset(seed=0)
    agent = env.agent_selection
    space = env.observation_space(agent)
    o, ref = env.observe(agent), inner.observe(agent)
    assert set(space.spaces) == {"observations", "action_mask"} and space.contains(o)
    assert o["action_mask"].dtype == np.float32
    assert np.array_equal(o["observations"], ref["observation"])
    assert np.array_equal(o["action_mask"], ref["action_mask"].astype(np.float32))

"""Tianshou's collector and replay buffer over the hexdojo envs (issue 17): every ``info``
leaf must stack into a finite numeric array (a string there became NaNs, and Tianshou's
``raise_on_nan_in_buffer`` check then raised ``MalformedBufferError``)."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import hexdojo.envs  # noqa: F401 - registers the ids

tianshou = pytest.importorskip("tianshou")
from tianshou.algorithm.algorithm_base import Policy  # noqa: E402
from tianshou.data import Batch, Collector, VectorReplayBuffer  # noqa: E402
from tianshou.env import DummyVectorEnv  # noqa: E402

pytestmark = pytest.mark.tianshou


class MostlyMasked(Policy):
    """A legal action from ``info["action_mask"]``, or any id one time in five (rejections)."""

    def __init__(self, space: gym.spaces.Discrete, seed: int) -> None:
        super().__init__(action_space=space)
        self.rng = np.random.default_rng(seed)

    def forward(self, batch: Any, state: Any = None, **kwargs: Any) -> Batch:
        acts = [int(self.rng.integers(len(m))) if self.rng.random() < 0.2
                else int(self.rng.choice(np.flatnonzero(m))) for m in batch.info["action_mask"]]
        return Batch(act=np.array(acts), state=state)


@pytest.mark.parametrize("env_id", ["hexdojo/Duel-v1", "hexdojo/Skirmish-v0"])
def test_collector_fills_a_buffer_with_numeric_infos(env_id: str) -> None:
    envs = DummyVectorEnv([lambda: gym.make(env_id, flat_observation=True) for _ in range(2)])
    envs.seed([0, 1])
    buf = VectorReplayBuffer(2_000, 2)
    collector = Collector(MostlyMasked(envs.action_space[0], 0), envs, buf,
                          raise_on_nan_in_buffer=True)
    collector.reset()
    stats = collector.collect(n_step=600)
    assert stats.n_collected_steps == 600 and stats.n_collected_episodes >= 3
    batch, _ = buf.sample(0)
    info = batch.info
    assert {"action_mask", "illegal_actions", "illegal", "illegal_reason", "result"} <= set(info.keys())
    for key in ("illegal_actions", "illegal", "illegal_reason"):
        assert np.issubdtype(info[key].dtype, np.integer), key
    for key in ("winner", "reason", "turn"):
        col = info.result[key]
        assert np.issubdtype(col.dtype, np.integer) and np.isfinite(col).all(), key
    ends = batch.terminated.astype(bool)
    assert set(np.unique(info.result.reason[ends])) <= {0, 1}  # last standing / turn limit

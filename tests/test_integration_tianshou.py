"""Tianshou's collector and replay buffer over the hexdojo envs (issue 17): every ``info``
leaf must stack into a finite numeric array (a string there became NaNs, and Tianshou's
``raise_on_nan_in_buffer`` check then raised ``MalformedBufferError``); a short masked DQN
training run on Duel-v1."""

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
from tianshou.utils.torch_utils import policy_within_training_step  # noqa: E402

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


class MaskInObs(gym.ObservationWrapper):
    """Tianshou's masking convention: ``obs = {"obs": ..., "mask": ...}``."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.observation_space = gym.spaces.Dict({
            "obs": env.observation_space, "mask": gym.spaces.MultiBinary(int(env.action_space.n))})

    def observation(self, obs: Any) -> dict[str, Any]:
        return {"obs": obs, "mask": self.env.unwrapped.action_masks()}


def test_a_short_masked_dqn_training_run() -> None:
    import torch
    from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.utils.net.common import Net

    torch.manual_seed(0)

    def make() -> gym.Env:
        return MaskInObs(gym.make("hexdojo/Duel-v1", flat_observation=True))

    envs = DummyVectorEnv([make, make])
    envs.seed([0, 1])
    probe = make()
    net = Net(state_shape=probe.observation_space["obs"].shape, action_shape=int(probe.action_space.n),
              hidden_sizes=[64])
    policy = DiscreteQLearningPolicy(model=net, action_space=probe.action_space, eps_training=0.2)
    algo = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), target_update_freq=20)
    buf = VectorReplayBuffer(4_000, 2)
    collector = Collector(algo, envs, buf, exploration_noise=True, raise_on_nan_in_buffer=True)
    collector.reset()
    losses = []
    for _ in range(12):
        with policy_within_training_step(algo.policy):
            collector.collect(n_step=64)
            algo.policy.train()
            losses.append(float(algo.update(buffer=buf, sample_size=64).loss))
    assert len(buf) == 12 * 64 and np.all(np.isfinite(losses))
    n = len(buf)
    assert not buf.info.illegal_actions[:n].any()  # greedy and exploring actions both masked
    assert buf.terminated[:n].any()  # fights ended and their results stacked as numbers
    assert np.issubdtype(buf.info.result.reason.dtype, np.integer)

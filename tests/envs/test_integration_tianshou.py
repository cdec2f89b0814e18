"""Tianshou's collector and replay buffer over the hexdojo envs (issue 17): every ``info``
leaf must stack into a finite numeric array (a string there became NaNs, and Tianshou's
``raise_on_nan_in_buffer`` check then raised ``MalformedBufferError``); the masked DQN
snippet of docs/integrations.md over ``hexdojo.envs.wrappers.TianshouMask`` (issue 35)."""

from __future__ import annotations

import re
from pathlib import Path
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
ROOT = Path(__file__).parents[2]


class MostlyMasked(Policy):
    """A legal action from ``info["action_mask"]``, or any id one time in five (rejections)."""

    def __init__(self, space: gym.spaces.Discrete, seed: int) -> None:
        super().__init__(action_space=space)
        self.rng = np.random.default_rng(seed)

    def forward(self, batch: Any, state: Any = None, **kwargs: Any) -> Batch:
        acts = [int(self.rng.integers(len(m))) if self.rng.random() < 0.2
                else int(self.rng.choice(np.flatnonzero(m))) for m in batch.info["action_mask"]]
        return Batch(act=np.array(acts), state=state)


@pytest.mark.slow
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


def _snippet() -> str:
    """The Tianshou snippet of docs/integrations.md, as a reader copies it."""
    text = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    return next(b for b in blocks if "TianshouMask" in b and "run_training" in b)


@pytest.mark.slow
def test_the_docs_tianshou_snippet_trains_with_the_mask_obeyed() -> None:
    """The snippet's own code, smaller: every stored action is legal under the mask stored
    with its observation (``TianshouMask``'s), fights end and the results stack."""
    import torch

    torch.manual_seed(0)
    code = _snippet()
    sizes = "EPOCHS, EPOCH_STEPS, TEST_FIGHTS = 10, 5_000, 50"
    assert sizes in code
    ns: dict[str, Any] = {"__name__": "snippet"}
    exec(compile(code.replace(sizes, "EPOCHS, EPOCH_STEPS, TEST_FIGHTS = 1, 512, 2"),  # noqa: S102
                 "integrations.md", "exec"), ns)
    buf = ns["buffer"]
    filled = buf.sample_indices(0)  # every stored transition, across the 4 sub-buffers
    assert len(filled) == len(buf) >= 512 and np.isfinite(ns["result"].best_reward)
    masks, acts = buf.obs.mask[filled], buf.act[filled]
    assert masks.shape == (len(filled), 369) and masks[np.arange(len(filled)), acts].all()
    assert not buf.info.illegal_actions[filled].any()  # greedy and exploring actions masked
    assert buf.terminated[filled].any()  # fights ended and their results stacked as numbers
    assert np.issubdtype(buf.info.result.reason.dtype, np.integer)


def test_tianshous_pettingzoo_env_reads_the_aec_mask() -> None:
    """Tianshou's multi-agent wrapper turns duel_v1's ``{"observation", "action_mask"}``
    into its ``{"obs", "mask"}`` (docs/integrations.md says so)."""
    from tianshou.env import PettingZooEnv

    from hexdojo.envs import duel_v1

    env = PettingZooEnv(duel_v1.env())
    obs, _ = env.reset(seed=0)
    raw = env.env.unwrapped
    for _ in range(100):
        want = raw.observe(raw.agent_selection)["action_mask"]
        assert obs["agent_id"] == raw.agent_selection
        np.testing.assert_array_equal(np.asarray(obs["mask"]), want == 1)
        obs, _, term, trunc, _ = env.step(int(np.flatnonzero(obs["mask"])[0]))
        if term or trunc:
            break

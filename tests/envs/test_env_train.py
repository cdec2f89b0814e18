"""Smoke test (issue 3): MaskablePPO trains on hexdojo/Duel-v0 (needs the rl extra)."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")


@pytest.mark.slow
def test_maskable_ppo_trains_a_few_thousand_steps() -> None:
    import gymnasium as gym
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    import hexdojo.envs  # noqa: F401

    venv = make_vec_env("hexdojo/Duel-v0", n_envs=2, seed=0)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=512, batch_size=128, n_epochs=2,
                        seed=0, device="cpu")
    model.learn(total_timesteps=3072)
    assert model.num_timesteps >= 3072
    assert venv.get_attr("illegal_total") == [0, 0]  # the mask kept every action legal
    env = gym.make("hexdojo/Duel-v0")
    obs, _ = env.reset(seed=1)
    mask = env.unwrapped.action_masks()
    action, _ = model.predict(obs, action_masks=mask, deterministic=True)
    assert mask[int(action)]

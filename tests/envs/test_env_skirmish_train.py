"""Smoke test (issue 18): MaskablePPO on the 2v1 scene, as the hero and as a guard, executes
no illegal action and reads the env's mask at every step (needs the rl extra)."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

import numpy as np  # noqa: E402

from hexdojo.envs.skirmish import SkirmishEnv  # noqa: E402


class CountingSkirmish(SkirmishEnv):
    """Counts the ``action_masks()`` calls (what MaskablePPO reads before each action)."""

    mask_calls = 0

    def action_masks(self) -> np.ndarray:
        self.mask_calls += 1
        return super().action_masks()


@pytest.mark.slow
@pytest.mark.parametrize("fighter", [0, 1])  # the hero, then one of the two guards
def test_maskable_ppo_on_two_vs_one_plays_only_legal_actions(fighter: int) -> None:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    envs = [CountingSkirmish(scene="two_vs_one", fighter=fighter, strict=True) for _ in range(2)]
    venv = DummyVecEnv([lambda e=e: e for e in envs])
    venv.seed(fighter)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=512, batch_size=128, n_epochs=1,
                        seed=0, device="cpu")
    model.learn(total_timesteps=2048)
    assert model.num_timesteps >= 2048
    # strict=True would have raised on any illegal action; none was even rejected
    assert [e.illegal_total for e in envs] == [0, 0]
    # the policy asked the env for its mask before every action it took
    assert sum(e.mask_calls for e in envs) >= model.num_timesteps
    env = SkirmishEnv(scene="two_vs_one", fighter=fighter)
    obs, _ = env.reset(seed=1)
    mask = env.action_masks()
    action, _ = model.predict(obs, action_masks=mask, deterministic=True)
    assert mask[int(action)]

"""The imitation warm start (issue 14, NPC strength): demonstrations as the policy sees
them, a clone that agrees with its teacher, determinism, and its place in a run."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from hexdojo.agents.imitation import clone, demonstrate  # noqa: E402
from hexdojo.agents.policy import LearnedAgent  # noqa: E402
from hexdojo.agents.registry import make_agent  # noqa: E402
from hexdojo.agents.training.config import load_config  # noqa: E402
from hexdojo.agents.training.ppo import train  # noqa: E402
from hexdojo.envs.catalogue import catalogue_for  # noqa: E402
from hexdojo.envs.rules import Game  # noqa: E402

TINY = {
    "total_steps": 64, "n_envs": 1, "turn_limit": 6, "checkpoint_every": 64,
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [64]},
    "imitation": {"fights": 40, "teacher": "greedy", "opponents": ["random"], "epochs": 30},
    "pool": {"scripted": ["random"], "self_play": False},
    "eval": {"every": 10_000, "episodes": 2, "opponents": ["random"]},
}


def _game() -> Game:
    return Game.create(["chu", "boris"], radius=4, turn_limit=6)


def test_demonstrations_record_the_teachers_legal_choice_and_the_outcome() -> None:
    game = _game()
    d = demonstrate(game, make_agent("greedy"), [make_agent("random")], 4, seed=3)
    assert len(d) > 10 and d.obs.shape[0] == d.masks.shape[0] == len(d)
    assert d.masks.shape[1] == catalogue_for(game.tables).n
    # the teacher's action is always legal, and forced decisions are left out
    assert d.masks[np.arange(len(d)), d.actions].all()
    assert (d.masks.sum(axis=1) > 1).all()
    # value targets: the outcome, discounted, never beyond +-1
    assert np.all(np.abs(d.returns) <= 1.0) and np.any(d.returns != 0)
    again = demonstrate(game, make_agent("greedy"), [make_agent("random")], 4, seed=3)
    assert np.array_equal(d.obs, again.obs) and np.array_equal(d.actions, again.actions)


@pytest.mark.slow
def test_training_starts_from_a_clone_that_plays_like_its_teacher(tmp_path) -> None:
    """The warm start clones greedy before PPO: the run says so in run.json, the policy
    picks greedy's choice at most of greedy's decisions, and the same seed gives the same
    weights (determinism)."""
    cfg = load_config(overrides=TINY)
    final = train(cfg, tmp_path / "a", progress=False)
    warm = json.loads((tmp_path / "a" / "run.json").read_text())["imitation"]
    assert warm["teacher"] == "greedy" and warm["decisions"] > 100
    assert warm["agreement"] > 0.6, warm
    train(load_config(overrides=TINY), tmp_path / "b", progress=False)
    a = LearnedAgent.load(final).model.policy.state_dict()
    b = LearnedAgent.load(tmp_path / "b" / "npc.zip").model.policy.state_dict()
    assert all(np.array_equal(a[k].numpy(), b[k].numpy()) for k in a)


def test_no_warm_start_leaves_no_trace(tmp_path) -> None:
    cfg = load_config(overrides=dict(TINY, imitation={"fights": 0}))
    train(cfg, tmp_path / "r", progress=False)
    assert "imitation" not in json.loads((tmp_path / "r" / "run.json").read_text())


def test_clone_raises_agreement_over_an_untrained_policy() -> None:
    from sb3_contrib import MaskablePPO

    from hexdojo.envs.duel import DuelEnv

    game = _game()
    d = demonstrate(game, make_agent("greedy"), [make_agent("random")], 20, seed=5)
    env = DuelEnv(fighters=["chu", "boris"], turn_limit=6, flat_observation=True,
                  observation_scale="unit")
    model = MaskablePPO("MlpPolicy", env, seed=0, policy_kwargs={"net_arch": [64]})
    before = clone(model.policy, d, epochs=1, lr=1e-12)["agreement"]
    after = clone(model.policy, d, epochs=30)["agreement"]
    assert after > before + 0.2 and after > 0.7, (before, after)

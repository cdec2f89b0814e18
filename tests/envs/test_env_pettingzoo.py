"""hexdojo.envs.duel_v0 (issue 3): PettingZoo AEC API, seeding, turn-taking by decision."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from hexdojo.envs import duel_v0
from hexdojo.envs.boundary import DRAW
from hexdojo.envs.rules import IllegalChoice


@pytest.mark.parametrize("flat", [False, True])
def test_api_test(flat: bool) -> None:
    api_test(duel_v0.env(flat_observation=flat), num_cycles=400)


def test_api_test_raw_env() -> None:
    api_test(duel_v0.raw_env(), num_cycles=200)


def test_seed_test() -> None:
    seed_test(duel_v0.env, num_cycles=400)


def test_reactions_and_follow_ons_select_the_other_agent() -> None:
    env = duel_v0.raw_env()
    rng = np.random.default_rng(0)
    switched = kinds = 0
    seen: set[str] = set()
    for seed in range(10):
        env.reset(seed=seed)
        for agent in env.agent_iter(10_000):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            d = env.fight.decision
            assert agent == f"player_{d.fighter}"  # the engine's decider is selected
            other = "player_1" if agent == "player_0" else "player_0"
            assert env.observe(other)["action_mask"].sum() == 0
            assert obs["observation"]["deciding"][0] == 1
            assert obs["action_mask"].sum() == len(env.fight.legal_choices())
            seen.add(d.kind)
            if d.kind in ("reaction", "follow_on", "soak"):
                kinds += 1
                phasing = np.flatnonzero(obs["observation"]["phase"])[0]
                switched += int(d.kind == "reaction" and phasing == 1)  # opp's phase
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert {"phase", "action", "reaction", "follow_on", "soak", "risk"} <= seen
    assert kinds and switched  # reactions come in the other fighter's phase


def test_zero_sum_outcome_rewards() -> None:
    env = duel_v0.env(fighters=("chu", "chu"))  # a mirror match: both sides win some
    rng = np.random.default_rng(1)
    winners = set()
    for seed in range(20):
        env.reset(seed=seed)
        totals = {a: 0.0 for a in env.possible_agents}
        for agent in env.agent_iter(10_000):
            obs, reward, term, trunc, info = env.last()
            totals[agent] += reward
            if term or trunc:
                result = info["result"]
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        w = result["winner"]
        winners.add(w)
        if w == DRAW:
            assert totals == {"player_0": 0.0, "player_1": 0.0}
        else:
            assert totals[f"player_{w}"] == 1.0 and totals[f"player_{1 - w}"] == -1.0
    assert {0, 1} <= winners


def test_illegal_action_rejected_then_strict_raises() -> None:
    env = duel_v0.raw_env()
    env.reset(seed=3)
    agent = env.agent_selection
    obs = env.observe(agent)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    events = list(env.fight.events)
    env.step(bad)
    assert env.agent_selection == agent and env.fight.events == events
    assert "illegal" in env.infos[agent] and env.infos[agent]["illegal_actions"] == 1
    strict = duel_v0.raw_env(strict=True)
    strict.reset(seed=3)
    with pytest.raises(IllegalChoice) as exc:
        strict.step(bad)
    assert exc.value.reason == env.fight.why_illegal(
        env.catalogue.choice_for(bad, env.fight, int(agent[-1])))


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_render_modes(mode: str) -> None:
    env = duel_v0.env(render_mode=mode)
    env.reset(seed=0)
    out = env.render()
    if mode == "ansi":
        assert isinstance(out, str) and "Chu" in out and "Urlik" in out
    else:
        assert isinstance(out, np.ndarray) and out.dtype == np.uint8 and out.shape[2] == 3
    env.close()
    env.close()


def test_pettingzoo_render_test() -> None:
    """PettingZoo's render_test over every mode in metadata, "human" included."""
    assert "human" in duel_v0.raw_env.metadata["render_modes"]
    render_test(duel_v0.env, custom_tests={"ansi": lambda out: "turn" in out and "Chu" in out})

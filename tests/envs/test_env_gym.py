"""hexdojo/Duel-v0 (issue 3): Gymnasium API, illegal-action policy, opponents, rewards,
vector envs. The checkers of Gymnasium and SB3 run on the env as users make it."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import hexdojo.envs  # noqa: F401 - registers hexdojo/Duel-v0
from hexdojo.envs.boundary import DRAW
from hexdojo.envs.duel import DuelEnv
from hexdojo.envs.rules import Choice, IllegalChoice, State


def random_legal(info: dict[str, Any], rng: np.random.Generator) -> int:
    ids = np.flatnonzero(info["action_mask"])
    return int(ids[rng.integers(len(ids))])


def play(env: gym.Env, seed: int, rng: np.random.Generator, max_steps: int = 10_000
         ) -> tuple[float, dict[str, Any], int]:
    """One episode of random legal actions: (return, last info, steps)."""
    _, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while steps < max_steps:
        _, r, term, trunc, info = env.step(random_legal(info, rng))
        total += r
        steps += 1
        if term or trunc:
            break
    return total, info, steps


# ------------------------------------------------------------------ checkers
@pytest.mark.parametrize("flat", [False, True])
def test_gymnasium_check_env_passes_without_warnings(flat: bool) -> None:
    env = gym.make("hexdojo/Duel-v0", flat_observation=flat)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        check_env(env.unwrapped)  # also renders every mode in metadata through the spec


@pytest.mark.parametrize("flat", [False, True])
def test_sb3_check_env_passes(flat: bool) -> None:
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    env = gym.make("hexdojo/Duel-v0", flat_observation=flat).unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        sb3_checker.check_env(env)


def test_registration_passes_options_through() -> None:
    env = gym.make("hexdojo/Duel-v0", fighters=("boris", "cogan"), radius=3, turn_limit=7)
    u = env.unwrapped
    assert isinstance(u, DuelEnv)
    assert [p.name for p in u.game.profiles] == ["Boris", "Cogan"]
    assert u.game.radius == 3 and u.game.turn_limit == 7
    assert env.spec is not None and env.spec.id == "hexdojo/Duel-v0"
    assert u.observation_space["turn"].high[0] == 7
    assert u.observation_space["self_pos"].high[0] == 3


def test_make_skips_redundant_wrappers_but_keeps_order_checks() -> None:
    """gym.make returns the env without OrderEnforcing and PassiveEnvChecker (a wrapper
    layer each on every step): the env refuses step() before reset() itself with a clear
    message, and the full checker runs above. The passive checker can be asked for."""
    env = gym.make("hexdojo/Duel-v0")
    assert env.unwrapped is env
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    assert env.render() is None
    checked = gym.make("hexdojo/Duel-v0", disable_env_checker=False)
    assert type(checked).__name__ == "PassiveEnvChecker"


def test_bad_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="exactly two fighters"):
        DuelEnv(fighters=("chu", "urlik", "boris"))
    with pytest.raises(ValueError, match="agent_side"):
        DuelEnv(agent_side=2)
    with pytest.raises(TypeError, match="opponent"):
        DuelEnv(opponent=42)
    with pytest.raises(ValueError, match="render_mode"):
        DuelEnv(render_mode="window")


# ------------------------------------------------------------------ steps = agent decisions
def test_every_step_is_an_agent_decision_of_every_kind() -> None:
    env = DuelEnv()
    rng = np.random.default_rng(0)
    kinds: set[str] = set()
    for seed in range(40):
        _, info = env.reset(seed=seed)
        while True:
            st = env.fight
            d = st.decision
            assert d is not None and d.fighter == env.side  # only the agent's decisions
            kinds.add(d.kind)
            legal = st.legal_choices()
            assert info["action_mask"].sum() == len(legal)
            assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool))
            _, _, term, trunc, info = env.step(random_legal(info, rng))
            if term or trunc:
                assert env.fight.is_over and info["action_mask"].sum() == 0
                break
    assert {"phase", "action", "reaction", "follow_on", "soak", "risk"} <= kinds


def test_reset_options_and_random_side() -> None:
    env = DuelEnv()
    sides = {env.reset(seed=s)[1]["side"] for s in range(20)}
    assert sides == {0, 1}
    for s in range(5):
        assert env.reset(seed=s, options={"side": 1})[1]["side"] == 1
    fixed = DuelEnv(agent_side=0)
    assert {fixed.reset(seed=s)[1]["side"] for s in range(10)} == {0}


# ------------------------------------------------------------------ illegal actions
def _illegal_action(env: DuelEnv, info: dict[str, Any]) -> int:
    return int(np.flatnonzero(info["action_mask"] == 0)[-1])


def test_illegal_action_is_rejected_without_state_change() -> None:
    env = DuelEnv()
    obs, info = env.reset(seed=5)
    a = _illegal_action(env, info)
    events = list(env.fight.events)
    decision = env.fight.decision
    obs2, r, term, trunc, info2 = env.step(a)
    assert (r, term, trunc) == (0.0, False, False)
    assert env.fight.events == events and env.fight.decision == decision
    assert all(np.array_equal(obs[k], obs2[k]) for k in obs)
    assert np.array_equal(info["action_mask"], info2["action_mask"])
    reason = env.fight.why_illegal(env.catalogue.choice_for(a, env.fight, env.side))
    assert reason and info2["illegal"] == a and env.last_reason.endswith(reason)
    assert env.last_reason.startswith(env.action_names[a])
    assert env.reason_names["illegal_reason"][info2["illegal_reason"]]
    assert info2["illegal_actions"] == 1 and env.illegal_total == 1
    _, _, _, _, info3 = env.step(random_legal(info2, np.random.default_rng(0)))
    assert "illegal" not in info3 and info3["illegal_actions"] == 1


def test_illegal_penalty_and_limit() -> None:
    env = DuelEnv(illegal_penalty=-0.1, illegal_limit=3)
    _, info = env.reset(seed=2)
    a = _illegal_action(env, info)
    results = [env.step(a)[1:4] for _ in range(3)]
    assert results == [(-0.1, False, False), (-0.1, False, False), (-0.1, False, True)]


def test_strict_mode_raises_the_engine_reason() -> None:
    env = DuelEnv(strict=True)
    _, info = env.reset(seed=5)
    a = _illegal_action(env, info)
    expected = env.fight.why_illegal(env.catalogue.choice_for(a, env.fight, env.side))
    with pytest.raises(IllegalChoice) as exc:
        env.step(a)
    assert exc.value.reason == expected


def test_out_of_range_action_raises() -> None:
    env = DuelEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="outside the catalogue"):
        env.step(env.catalogue.n)


# ------------------------------------------------------------------ opponents
class CountingAgent:
    """An agent object: first legal choice; records what it was asked and its seeds."""

    def __init__(self) -> None:
        self.asked: list[int] = []
        self.seeds: list[int | None] = []

    def act(self, state: State) -> Choice:
        self.asked.append(state.decision.fighter)
        return state.legal_choices()[0]

    def reset(self, seed: int | None = None) -> None:
        self.seeds.append(seed)


def test_opponent_object_plays_the_other_side_and_is_seeded() -> None:
    opp = CountingAgent()
    env = DuelEnv(opponent=opp, agent_side=0)
    play(env, 3, np.random.default_rng(0))
    assert opp.asked and set(opp.asked) == {1}
    play(env, 3, np.random.default_rng(0))
    assert len(opp.seeds) == 2 and opp.seeds[0] == opp.seeds[1] is not None


def test_opponent_callable() -> None:
    calls = []

    def last_choice(state: State) -> Choice:
        calls.append(state.decision.fighter)
        return state.legal_choices()[-1]

    env = DuelEnv(opponent=last_choice, agent_side=1)
    play(env, 4, np.random.default_rng(1))
    assert calls and set(calls) == {0}


# ------------------------------------------------------------------ rewards
def test_opponent_thinking_time_is_counted_apart() -> None:
    """``opponent_seconds`` sums the time inside the opponent's act (training reports it
    apart from the rules' time); the built-in random opponent is not timed."""
    import time

    calls = []

    def slow_first(state: State) -> Choice:
        calls.append(1)
        time.sleep(0.002)
        return state.legal_choices()[0]

    env = DuelEnv(opponent=slow_first, agent_side=0)
    play(env, 3, np.random.default_rng(0))
    assert calls and env.opponent_seconds >= 0.002 * len(calls)
    plain = DuelEnv(agent_side=0)
    play(plain, 3, np.random.default_rng(0))
    assert plain.opponent_seconds == 0.0


def test_outcome_rewards() -> None:
    env = DuelEnv()
    rng = np.random.default_rng(3)
    outcomes = set()
    for seed in range(30):
        ret, info, _ = play(env, seed, rng)
        w = info["result"]["winner"]
        expected = 0.0 if w == DRAW else (1.0 if w == env.side else -1.0)
        assert ret == expected
        outcomes.add(expected)
    assert {1.0, -1.0} <= outcomes


def test_wound_shaping() -> None:
    env = DuelEnv(shaping=0.05)
    rng = np.random.default_rng(4)
    for seed in range(10):
        ret, info, _ = play(env, seed, rng)
        me, op = env.side, 1 - env.side
        lv = [sum(level for _, level in f.wounds) for f in env.fight.fighters]
        w = info["result"]["winner"]
        outcome = 0.0 if w == DRAW else (1.0 if w == me else -1.0)
        assert ret == pytest.approx(outcome + 0.05 * (lv[op] - lv[me]))


# ------------------------------------------------------------------ observation forms
def test_flat_observation_is_gymnasium_flatten_of_the_dict() -> None:
    d_env, f_env = DuelEnv(), DuelEnv(flat_observation=True)
    rng = np.random.default_rng(5)
    obs_d, info = d_env.reset(seed=9)
    obs_f, _ = f_env.reset(seed=9)
    for _ in range(60):
        assert obs_d in d_env.observation_space and obs_f in f_env.observation_space
        assert np.array_equal(gym.spaces.flatten(d_env.observation_space, obs_d), obs_f)
        a = random_legal(info, rng)
        obs_d, _, term, _, info = d_env.step(a)
        obs_f, *_ = f_env.step(a)
        if term:
            break
    assert gym.spaces.flatdim(d_env.observation_space) == f_env.observation_space.shape[0]


# ------------------------------------------------------------------ vector envs
@pytest.mark.parametrize("mode", ["next_step", "same_step"])
def test_gymnasium_make_vec_with_masks(mode: str) -> None:
    """With Gymnasium's default NEXT_STEP autoreset a finished sub-env shows an all-zero
    mask until its next step resets it (the action is ignored); SAME_STEP resets at once."""
    auto = gym.vector.AutoresetMode.SAME_STEP if mode == "same_step" else gym.vector.AutoresetMode.NEXT_STEP
    envs = gym.make_vec("hexdojo/Duel-v0", num_envs=2, vectorization_mode="sync",
                        vector_kwargs={"autoreset_mode": auto})
    _, infos = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        masks = np.stack(envs.call("action_masks"))
        assert masks.shape == (2, envs.single_action_space.n)
        assert np.array_equal(masks, infos["action_mask"].astype(bool))
        if mode == "same_step":
            assert masks.any(axis=1).all()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        _, _, term, _, infos = envs.step(actions)
        finished += int(term.sum())
    assert finished >= 2
    assert envs.get_attr("illegal_total") == (0, 0)
    envs.close()


@pytest.mark.slow
@pytest.mark.parametrize("vec", ["dummy", "subproc"])
def test_sb3_vec_envs_with_masks(vec: str) -> None:
    pytest.importorskip("sb3_contrib")
    from functools import partial

    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    fns = [partial(DuelEnv, agent_side=i) for i in range(2)]  # picklable factories
    venv = DummyVecEnv(fns) if vec == "dummy" else SubprocVecEnv(fns)
    try:
        venv.seed(0)
        venv.reset()
        rng = np.random.default_rng(0)
        for _ in range(40):
            masks = get_action_masks(venv)
            assert masks.shape == (2, venv.action_space.n) and masks.any(axis=1).all()
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
            venv.step(actions)
        assert venv.get_attr("illegal_total") == [0, 0]
    finally:
        venv.close()

"""The env boundary as other people's tools meet it (issue 17): unmasked policies end their
episodes, ``info`` is numeric, PettingZoo's Parallel and render tests, ``SubprocVecEnv`` by
the short id, strict actions and reset options."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test, render_test

import hexdojo.envs  # noqa: F401 - registers the ids
from hexdojo.envs import duel_v0, duel_v1, skirmish_v0
from hexdojo.envs.boundary import (
    DEFAULT_ILLEGAL_LIMIT,
    DRAW,
    ILLEGAL_REASONS,
    RESULT_REASONS,
    check_action,
)
from hexdojo.envs.duel import DuelEnv

GYM_IDS = ["hexdojo/Duel-v0", "hexdojo/Duel-v1", "hexdojo/Skirmish-v0"]
AEC_MODULES = {"duel_v0": duel_v0, "duel_v1": duel_v1, "skirmish_v0": skirmish_v0}


def leaves(x: Any, path: str = "info") -> Iterator[tuple[str, Any]]:
    """Every leaf of a nested info dict with its path."""
    if isinstance(x, dict):
        for k, v in x.items():
            yield from leaves(v, f"{path}.{k}")
    else:
        yield path, x


def assert_numeric(info: dict[str, Any]) -> None:
    for path, v in leaves(info):
        ok = (isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool)) or (
            isinstance(v, np.ndarray) and np.issubdtype(v.dtype, np.number))
        assert ok, f"{path} = {v!r} is not numeric"


# ------------------------------------------------------------------ unmasked policies end
@pytest.mark.parametrize("env_id", GYM_IDS)
def test_an_always_action_0_policy_ends_its_episodes(env_id: str) -> None:
    env = gym.make(env_id)
    for seed in range(3):
        env.reset(seed=seed)
        for steps in range(1, 10_000):  # noqa: B007
            _, _, term, trunc, info = env.step(0)
            if term or trunc:
                break
        assert term or trunc, "an unmasked policy never finished"
        if trunc:  # the default limit: 100 rejections in a row
            assert info["illegal_actions"] >= DEFAULT_ILLEGAL_LIMIT
    assert env.unwrapped.illegal_limit == DEFAULT_ILLEGAL_LIMIT


def test_the_limit_counts_rejections_in_a_row_and_none_means_no_limit() -> None:
    env = DuelEnv(illegal_limit=3)
    _, info = env.reset(seed=0)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    good = int(np.flatnonzero(info["action_mask"])[0])
    assert [env.step(bad)[3] for _ in range(2)] == [False, False]
    env.step(good)  # a legal action breaks the streak
    env.reset(seed=0)
    assert [env.step(bad)[3] for _ in range(3)] == [False, False, True]
    free = DuelEnv(illegal_limit=None)
    free.reset(seed=0)
    assert not any(free.step(bad)[3] for _ in range(300))
    with pytest.raises(ValueError, match="illegal_limit"):
        DuelEnv(illegal_limit=0)


def test_sb3_plain_evaluate_policy_with_an_unmasked_ppo_finishes() -> None:
    """SB3's evaluate_policy knows nothing of masks: a deterministic unmasked PPO repeats
    rejected actions, and the default limit still ends every episode."""
    from stable_baselines3 import PPO
    from stable_baselines3.common.evaluation import evaluate_policy

    env = gym.make("hexdojo/Duel-v1", flat_observation=True)
    model = PPO("MlpPolicy", env, n_steps=64, batch_size=32, seed=0, device="cpu")
    rewards, lengths = evaluate_policy(model, env, n_eval_episodes=3, deterministic=True,
                                       return_episode_rewards=True)
    assert len(lengths) == 3 and all(0 < n < 5_000 for n in lengths)
    assert all(-1.0 <= r <= 1.0 for r in rewards)


@pytest.mark.parametrize("name", sorted(AEC_MODULES))
def test_pettingzoo_always_action_0_ends_the_fight(name: str) -> None:
    env = AEC_MODULES[name].env()
    env.reset(seed=1)
    n = 0
    for _agent in env.agent_iter(20_000):
        _, _, term, trunc, info = env.last()
        env.step(None if term or trunc else 0)
        n += 1
    assert env.agents == [] and n < 20_000
    raw = env.unwrapped
    assert raw.illegal_limit == DEFAULT_ILLEGAL_LIMIT and raw.last_reason


# ------------------------------------------------------------------ numeric info
@pytest.mark.parametrize("env_id", GYM_IDS)
def test_every_gym_info_leaf_is_numeric(env_id: str) -> None:
    """Random actions, a quarter of them unmasked (rejections), over many steps."""
    env = gym.make(env_id)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    seen: set[str] = set()
    for _ in range(1_500):
        assert_numeric(info)
        mask = info["action_mask"]
        a = int(rng.integers(len(mask))) if rng.random() < 0.25 else int(rng.choice(np.flatnonzero(mask)))
        _, _, term, trunc, info = env.step(a)
        seen |= set(info)
        if "illegal" in info:
            assert info["illegal"] == a and 0 <= info["illegal_reason"] < len(ILLEGAL_REASONS)
            assert env.unwrapped.last_reason.startswith(env.unwrapped.action_names[a])
        if term or trunc:
            assert_numeric(info)
            if term:
                res = info["result"]
                assert RESULT_REASONS[res["reason"]] in ("last standing", "turn limit")
                assert res["winner"] == (DRAW if env.unwrapped.fight.winner is None
                                         else env.unwrapped.fight.winner)
            _, info = env.reset()
    assert {"result", "illegal", "illegal_reason"} <= seen


@pytest.mark.parametrize("name", sorted(AEC_MODULES))
def test_every_pettingzoo_info_leaf_is_numeric(name: str) -> None:
    env = AEC_MODULES[name].env()
    rng = np.random.default_rng(1)
    results = 0
    for seed in range(8):
        env.reset(seed=seed)
        for agent in env.agent_iter(3_000):
            obs, _, term, trunc, _ = env.last()
            for ag in env.possible_agents:
                assert_numeric(env.infos.get(ag, {}))
            if term or trunc:
                results += "result" in env.infos[agent]
                env.step(None)
                continue
            mask = obs["action_mask"]
            unmasked = rng.random() < 0.2
            env.step(int(rng.integers(len(mask))) if unmasked else int(rng.choice(np.flatnonzero(mask))))
    assert results > 0


# ------------------------------------------------------------------ Parallel and render
@pytest.mark.parametrize("name", ["duel_v0", "duel_v1"])
def test_parallel_env_passes_pettingzoo_parallel_tests(name: str) -> None:
    mod = AEC_MODULES[name]
    par = mod.parallel_env()
    assert set(par.possible_agents) == {"player_0", "player_1"}
    parallel_api_test(par, num_cycles=300)
    parallel_seed_test(lambda: mod.parallel_env(), num_cycles=300)


@pytest.mark.parametrize("name", sorted(AEC_MODULES))
def test_pettingzoo_render_test_with_human_mode(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    mod = AEC_MODULES[name]
    assert "human" in mod.raw_env.metadata["render_modes"]
    render_test(mod.env)
    env = mod.env(render_mode="human")
    env.reset(seed=0)
    capsys.readouterr()
    assert env.render() is None
    assert "turn" in capsys.readouterr().out


@pytest.mark.parametrize("env_id", GYM_IDS)
def test_gym_human_mode_prints_the_ansi_board(env_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    env = gym.make(env_id, render_mode="human")
    _, info = env.reset(seed=0)
    printed = capsys.readouterr().out  # rendered by reset, as gymnasium's convention
    ansi = gym.make(env_id, render_mode="ansi")
    ansi.reset(seed=0)
    assert printed == ansi.render() + "\n"
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "turn" in capsys.readouterr().out  # and by step
    assert env.render() is None


# ------------------------------------------------------------------ SubprocVecEnv by short id
@pytest.mark.slow
def test_subproc_vec_env_by_the_short_id() -> None:
    """In a fresh interpreter whose ``__main__`` imports hexdojo only inside a function (as
    pytest and notebooks do), the forkserver workers still know the short id."""
    code = textwrap.dedent("""
        def main():
            import hexdojo.envs  # noqa: F401
            from stable_baselines3.common.env_util import make_vec_env
            from stable_baselines3.common.vec_env import SubprocVecEnv
            v = make_vec_env("hexdojo/Duel-v1", n_envs=2, vec_env_cls=SubprocVecEnv, seed=0)
            obs = v.reset()
            print("envs", v.num_envs, obs["turn"].shape[0], v.get_attr("spec")[0].id)
            v.close()
        if __name__ == "__main__":
            main()
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "envs 2 2 hexdojo/Duel-v1" in out.stdout


# ------------------------------------------------------------------ strict inputs
@pytest.mark.parametrize("make", [lambda: DuelEnv(), lambda: gym.make("hexdojo/Skirmish-v0")])
@pytest.mark.parametrize("bad, err", [(0.5, TypeError), ("3", TypeError), ("abc", TypeError),
                                       (None, TypeError), (True, TypeError), (3.0, TypeError),
                                       (np.array([2]), ValueError), (-1, ValueError),
                                       (10**6, ValueError)])
def test_bad_actions_are_refused_naming_the_space(make: Callable[[], Any], bad: Any,
                                                  err: type[Exception]) -> None:
    env = make()
    env.reset(seed=0)
    n = env.action_space.n
    with pytest.raises(err, match=rf"Discrete\({n}\)"):
        env.step(bad)


def test_numpy_integers_and_0d_arrays_still_work() -> None:
    env = DuelEnv()
    _, info = env.reset(seed=0)
    a = int(np.flatnonzero(info["action_mask"])[0])
    for form in (np.int64(a), np.int32(a), np.array(a), np.uint16(a)):
        assert check_action(form, env.action_space.n) == a
    env.step(np.array(a))  # a 0-d array is one action
    env.reset(seed=0)
    env.step(np.int64(a))


@pytest.mark.parametrize("name", sorted(AEC_MODULES))
def test_pettingzoo_raw_envs_refuse_a_float_action(name: str) -> None:
    raw = AEC_MODULES[name].raw_env()
    raw.reset(seed=0)
    with pytest.raises(TypeError, match="Discrete"):
        raw.step(0.5)


@pytest.mark.parametrize("env_id, allowed", [("hexdojo/Duel-v1", "side"),
                                             ("hexdojo/Skirmish-v0", "fighter")])
def test_unknown_reset_options_are_refused_with_the_allowed_keys(env_id: str, allowed: str) -> None:
    env = gym.make(env_id)
    with pytest.raises(ValueError, match=rf"\['sied'\]: unknown; allowed keys: \['{allowed}'\]"):
        env.reset(seed=0, options={"sied": 1})
    env.reset(seed=0, options={allowed: 0})


def test_a_double_knock_out_has_its_own_result_code_aom3221():
    """§1.6 (aom3221): a counter tie can knock both fighters out; the env's numeric info
    names that end (code 3), not an unknown one."""
    from hexdojo.envs.boundary import result_info

    got = result_info({"winner": None, "reason": "double knock-out", "turn": 2})
    assert RESULT_REASONS[got["reason"]] == "double knock-out" and got["winner"] == -1

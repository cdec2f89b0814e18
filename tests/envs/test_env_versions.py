"""Env versions (issue 20): hexdojo/Duel-v1 scales the same observation to [-1, 1] and
plays a Chu mirror by default; Duel-v0 keeps its raw numbers and its defaults; a policy
trained on one scaling is refused on the other with one line. Issue 35: the armed duel is
its own task, ``hexdojo/ArmedDuel-v0``; ``Duel-v2`` is its deprecated alias, which says so
once, and no longer makes Gymnasium call Duel-v1 "out of date"."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

import hexdojo.envs  # noqa: F401  (registers the ids)
from hexdojo.envs import (
    ARMED_DUEL_DEFAULTS,
    DUEL_V1_DEFAULTS,
    aliases,
    armed_duel_v0,
    duel_v0,
    duel_v1,
    duel_v2,
)
from hexdojo.envs.observation import encode_observation, encoder_for
from hexdojo.envs.rules import Game


def play(env_id: str, seed: int, steps: int, **options) -> list:
    """Observations of a fixed action sequence (the first legal id at every step)."""
    env = gym.make(env_id, **options)
    obs, info = env.reset(seed=seed)
    out = [obs]
    for _ in range(steps):
        obs, _, term, trunc, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        out.append(obs)
        if term or trunc:
            obs, info = env.reset()
    return out


@pytest.mark.parametrize("flat", [False, True])
def test_v1_is_v0_divided_by_each_fields_bound(flat: bool) -> None:
    """Same seed, same actions, same fighters: every v1 number is the v0 number over the
    field's largest bound (AP / 30, roll_basics / 50, turn / turn_limit ...), in [-1, 1]."""
    fighters = ("chu", "chu")
    raw = play("hexdojo/Duel-v0", 3, 300, fighters=fighters, flat_observation=flat)
    unit = play("hexdojo/Duel-v1", 3, 300, flat_observation=flat)
    enc = encoder_for(Game.create(list(fighters)))
    div = {"self_ap": 30, "roll_basics": 50, "turn": 20, "opp_offset": 8, "self_pos": 4,
           "self_wounds": 6, "opp_edge": 4, "decision_kind": 1}
    seen_basics = False
    for r, u in zip(raw, unit, strict=True):
        if flat:
            np.testing.assert_allclose(u, r * enc.unit_factor, rtol=1e-6)
            assert np.abs(u).max() <= 1.0
            continue
        for k, d in div.items():
            np.testing.assert_allclose(u[k], r[k] / d, rtol=1e-6)
        assert max(np.abs(v).max() for v in u.values()) <= 1.0
        seen_basics |= bool(np.any(r["roll_basics"] != 0))
    assert flat or seen_basics, "the sequence reaches a roll with basic values"


def test_v1_spaces_bounds_and_checker() -> None:
    env = gym.make("hexdojo/Duel-v1")
    sp = env.observation_space
    assert sp["self_ap"].high[0] == 1 and sp["opp_offset"].low[0] == -1
    np.testing.assert_allclose(sp["roll_basics"].low, -0.6)
    assert all(np.all(b.high <= 1) and np.all(b.low >= -1) for b in sp.spaces.values())
    check_env(env.unwrapped, skip_render_check=True)
    flat = gym.make("hexdojo/Duel-v1", flat_observation=True).observation_space
    assert flat.high.max() == 1 and flat.low.min() == -1


def test_v0_keeps_its_defaults_and_v1_changes_only_the_documented_ones() -> None:
    v0, v1 = gym.make("hexdojo/Duel-v0").unwrapped, gym.make("hexdojo/Duel-v1").unwrapped
    assert [f.name for f in v0.game.profiles] == ["Chu", "Urlik"]
    assert [f.name for f in v1.game.profiles] == ["Chu A", "Chu B"]  # a mirror
    assert v0.observation_space["self_ap"].high[0] == 30 and v0.observation_scale == "raw"
    assert v0.shaping == v1.shaping == 0.0
    assert DUEL_V1_DEFAULTS == {"fighters": ("chu", "chu"), "observation_scale": "unit"}
    # an option given to make wins over the version's default
    v1u = gym.make("hexdojo/Duel-v1", fighters=("chu", "urlik"), observation_scale="raw").unwrapped
    assert [f.name for f in v1u.game.profiles] == ["Chu", "Urlik"]
    assert v1u.observation_space == v0.observation_space


def test_bad_scale_is_one_clear_line() -> None:
    with pytest.raises(ValueError, match=r"observation_scale 'big': allowed 'raw', 'unit'"):
        gym.make("hexdojo/Duel-v1", observation_scale="big")
    with pytest.raises(ValueError, match="observation_scale"):
        duel_v1.raw_env(observation_scale="big")


def test_pettingzoo_duel_v1() -> None:
    api_test(duel_v1.env(), num_cycles=200)
    e = duel_v1.raw_env()
    assert e.metadata["name"] == "duel_v1" and duel_v0.raw_env.metadata["name"] == "duel_v0"
    e.reset(seed=2)
    obs = e.observe(e.agent_selection)["observation"]
    assert obs in e.observation_space(e.agent_selection)["observation"]
    assert max(np.abs(v).max() for v in obs.values()) <= 1.0
    st = e.fight
    np.testing.assert_allclose(obs["self_ap"], encode_observation(st, st.decision.fighter)["self_ap"] / 30)
    assert encode_observation(st, 0, "unit")["self_ap"][0] <= 1.0


@pytest.mark.parametrize("env_id", ["hexdojo/Duel-v1", "hexdojo/ArmedDuel-v0"])
def test_current_ids_make_without_any_warning(env_id: str) -> None:
    """Every warning an error (Gymnasium's own "once" filters replaced): Duel-v1 is the
    current unarmed benchmark, not "out of date" because an armed duel was once called v2
    (Duel-v0 still is, truly: v1 replaced it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gym.make(env_id).reset(seed=0)
        gym.make_vec(env_id, num_envs=2, vectorization_mode="vector_entry_point").reset(seed=0)
    assert gym.envs.registration.find_highest_version("hexdojo", "Duel") == 1


def _first_obs(env_id: str) -> np.ndarray:
    obs, _ = gym.make(env_id, flat_observation=True).reset(seed=5)
    return obs


def test_duel_v2_is_the_armed_duel_and_says_so_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aliases, "_warned", False)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        old = gym.make("hexdojo/Duel-v2")
        gym.make("hexdojo/Duel-v2")
        gym.make_vec("hexdojo/Duel-v2", num_envs=2, vectorization_mode="vector_entry_point")
        duel_v2.env()
    said = [w for w in got if "ArmedDuel-v0" in str(w.message)]
    assert len(said) == 1 and said[0].category is FutureWarning
    assert "armed duel" in str(said[0].message) and "\n" not in str(said[0].message)
    assert said[0].filename == __file__  # pointed at the caller, not inside Gymnasium
    assert old.action_space.n == 824 and old.unwrapped.catalogue.armed
    assert old.spec.id == "hexdojo/Duel-v2" and old.spec.kwargs == ARMED_DUEL_DEFAULTS
    np.testing.assert_array_equal(_first_obs("hexdojo/Duel-v2"), _first_obs("hexdojo/ArmedDuel-v0"))


def test_pettingzoo_alias_and_new_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(aliases, "_warned", False)
    with pytest.warns(FutureWarning, match="hexdojo.envs.armed_duel_v0"):
        old = duel_v2.raw_env()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        new = armed_duel_v0.raw_env()
    assert new.metadata["name"] == "armed_duel_v0" and old.catalogue.n == new.catalogue.n == 824

"""The single duel env's core path (issue 15, ``envs/duel_core.py``; the only one since
issue 32): ``DuelEnv`` against
the random opponent stepped in the native core.

The replay mirrors the env's seeding (``np_random`` gives the side, then the core's seed;
the core's PCG64 gives the dice and the opponent's choices, as ``tests/core/test_core_vector.py``
draws them) in the Python engine, and at every step the Python engine's fight must give
the fast path's observation, mask, reward, episode end and result; rejected actions must
carry the Python engine's reason, and ``env.fight`` must be the Python engine's fight.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import hexdojo.envs  # noqa: F401 - registers the ids
from hexdojo.envs.boundary import result_info
from hexdojo.envs.duel import DuelEnv, terminal_reward, wound_total
from hexdojo.envs.duel_core import core_generator
from hexdojo.envs.rules import IllegalChoice

from ..core.test_core_vector import Replay


class FastReplay(Replay):
    """``Replay`` from the core generator the fast path's reset drew (``core_generator``)."""

    def __init__(self, env: DuelEnv, rng: np.random.Generator, side: int) -> None:
        self.single, self.fixed_side = env, side
        self.rng = core_generator(rng)
        self.new_episode()


def _replay(env: DuelEnv, rng: np.random.Generator, side: int | None) -> Replay:
    """The Python engine's episode the fast path's reset just started (its draws mirrored)."""
    side = int(rng.integers(2)) if side is None else side
    return FastReplay(env, rng, side)


def _check(env: DuelEnv, rep: Replay, obs, mask) -> None:
    flat, want_mask = rep.observe()
    got = obs if env.flat_observation else np.concatenate([obs[k] for k, _ in env.encoder.slices])
    if not env.flat_observation:
        flat = np.concatenate([flat[s] for _, s in env.encoder.slices])
    np.testing.assert_array_equal(got, flat)
    np.testing.assert_array_equal(mask, want_mask)
    assert env.side == rep.side


def _reward(env: DuelEnv, rep: Replay, before: int) -> float:
    s, me = rep.s, rep.side
    r = terminal_reward(s, me) if s.is_over else 0.0
    if env.shaping:
        r += env.shaping * (wound_total(s, 1 - me) - wound_total(s, me) - before)
    return r


def _step(env: DuelEnv, rep: Replay, a: int) -> tuple[bool, dict]:
    """One legal step on both: whether the episode ended, and the env's info."""
    s, me = rep.s, rep.side
    before = wound_total(s, 1 - me) - wound_total(s, me)
    obs, r, term, trunc, info = env.step(a)
    s.apply(env.catalogue.choice_for(a, s, me))
    rep.opponent()
    _check(env, rep, obs, info["action_mask"])
    assert r == _reward(env, rep, before) and term == s.is_over and not trunc
    if term:
        assert info["result"] == result_info(s.result)
    return term, info


@pytest.mark.parametrize("kwargs", [
    {"shaping": 0.05},  # Duel-v0: Chu vs Urlik, raw scale, the Dict
    {"fighters": ("chu", "chu"), "observation_scale": "unit", "flat_observation": True,
     "agent_side": 1},
    {"fighters": ("chu", "guard"), "armed": True, "observation_scale": "unit"},  # ArmedDuel-v0's
    {"fighters": ("knife_fighter", "spearman"), "flat_observation": True, "shaping": 0.1},
])
def test_fast_path_replays_in_the_python_engine(kwargs) -> None:
    env = DuelEnv(native=True, **kwargs)
    act = np.random.default_rng(7)
    steps = rejected = ends = 0
    for seed in (3, 11):
        rng = np.random.default_rng(seed)  # gymnasium's np_random for this seed
        obs, info = env.reset(seed=seed)
        for _episode in range(10):
            rep = _replay(env, rng, kwargs.get("agent_side"))
            _check(env, rep, obs, info["action_mask"])
            while True:
                mask = info["action_mask"]
                if act.random() < 0.1:  # a rejected id: the Python engine's reason, no change
                    bad = int(act.choice(np.flatnonzero(mask == 0)))
                    choice = env.catalogue.choice_for(bad, rep.s, rep.side)
                    _, r, term, trunc, info = env.step(bad)
                    assert info["illegal"] == bad and r == env.illegal_penalty and not term
                    assert env.last_reason.endswith(rep.s.why_illegal(choice))
                    rejected += 1
                    continue
                assert env.fight.decision == rep.s.decision  # env.fight: the engine's fight
                steps += 1
                term, info = _step(env, rep, int(act.choice(np.flatnonzero(mask))))
                if term:
                    ends += 1
                    break
            assert env.fight.is_over and env.fight.result == rep.s.result
            obs, info = env.reset()
    assert steps > 100 and rejected > 5 and ends == 20


def test_every_opponent_steps_in_the_core_and_native_true_refuses_a_python_one() -> None:
    """One step path (issue 32): random play, a native player and a Python opponent all run
    in the core (a Python one as its external player); ``native=False`` asks even a
    native-capable agent through its ``act``; ``native=True`` refuses a Python-only one."""
    assert not DuelEnv()._duel.external and DuelEnv()._duel.player is None
    assert not DuelEnv(native=False)._duel.external  # random play: the core's own
    assert gym.make("hexdojo/ArmedDuel-v0").unwrapped._duel.player is None
    assert DuelEnv(opponent="greedy")._duel.player is not None  # a native player (issue 30)
    assert DuelEnv(opponent="greedy", native=False)._duel.external
    assert DuelEnv(opponent=lambda s: s.legal_choices()[0])._duel.external  # Python only
    with pytest.raises(ValueError, match="native=True: opponent .* has no native player"):
        DuelEnv(opponent=lambda s: s.legal_choices()[0], native=True)
    with pytest.raises(ValueError, match="native 'yes': allowed None"):
        DuelEnv(native="yes")


def test_fast_path_keeps_strict_illegal_limit_and_step_before_reset() -> None:
    env = DuelEnv(illegal_limit=3)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    _, info = env.reset(seed=5)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    truncs = [env.step(bad)[3] for _ in range(3)]
    assert truncs == [False, False, True] and env.illegal_total == 3
    strict = DuelEnv(strict=True)
    _, info = strict.reset(seed=5)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalChoice) as exc:
        strict.step(bad)
    st = strict.fight
    assert exc.value.reason == st.why_illegal(strict.catalogue.choice_for(bad, st, strict.side))


def test_fast_path_same_seed_same_episodes_and_events_for_render() -> None:
    def run(seed: int) -> tuple[list, list]:
        env = DuelEnv(render_mode="ansi", flat_observation=True)
        obs, info = env.reset(seed=seed)
        act, seen = np.random.default_rng(0), [obs.tobytes()]
        for _ in range(60):
            obs, r, term, _, info = env.step(int(act.choice(np.flatnonzero(info["action_mask"]))))
            seen.append((obs.tobytes(), r))
            if term:
                break
        # the render shows the last step's events (kept by the fast path for it)
        assert env.fight.events and env.fight.render_log(env._log_from)[-1] in env.render()
        return seen, env.fight.events

    a, b, c = run(4), run(4), run(5)
    assert a == b and a[0] != c[0]


def test_fast_path_checks_ids_against_its_own_mask_not_the_returned_one() -> None:
    """The fast path's legality check reads the core's mask, not the array it handed out:
    a caller writing into ``info["action_mask"]`` (returned data is the caller's) cannot
    make an illegal id pass; the step is rejected with the Python engine's reason and the
    fight is unchanged. Numpy and Python integer ids take the same path."""
    env = DuelEnv(fighters=("chu", "urlik"), native=True, flat_observation=True)
    obs, info = env.reset(seed=3)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    info["action_mask"][:] = 1
    before = env.fight.events
    obs2, reward, term, trunc, info2 = env.step(np.int64(bad))
    assert info2["illegal"] == bad and info2["illegal_reason"] > 0 and reward == env.illegal_penalty
    assert np.array_equal(obs2, obs) and not term and env.fight.events == before
    assert info2["action_mask"][bad] == 0
    good = int(np.flatnonzero(info2["action_mask"])[0])
    _, _, _, _, info3 = env.step(np.int64(good))
    assert "illegal" not in info3

"""The group environments of issue 18: ``skirmish_v0`` (PettingZoo AEC / Parallel) and
``hexdojo/Skirmish-v0`` (Gymnasium, one fighter of a scene), plus the duel envs' ``scene=``."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import hexdojo.envs  # noqa: F401  (registers the ids)
from hexdojo.envs import duel_v0, skirmish_v0
from hexdojo.envs.catalogue import catalogue_for
from hexdojo.envs.duel import DuelEnv
from hexdojo.envs.rules import Game, hexgrid
from hexdojo.envs.skirmish import SkirmishEnv
from hexdojo.envs.skirmish_spaces import observe, slot_order, spaces_for

from ..conftest import check_mask_exact

GROUP_SCENES = ["two_vs_one", "two_vs_two", "ambush", "rider_vs_foot", "duel_3"]
GAMES = {name: Game.from_scene(name) for name in GROUP_SCENES}


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")


# ---------------------------------------------------------------- PettingZoo AEC / Parallel
@pytest.mark.parametrize("scene", ["two_vs_one", "two_vs_two", "ambush", "rider_vs_foot"])
def test_api_test(scene: str) -> None:
    api_test(skirmish_v0.env(scene=scene), num_cycles=300)


def test_api_test_flat_and_raw() -> None:
    api_test(skirmish_v0.env(scene="two_vs_one", flat_observation=True), num_cycles=200)
    api_test(skirmish_v0.raw_env(scene="two_vs_two"), num_cycles=200)


def test_seed_test() -> None:
    seed_test(lambda: skirmish_v0.env(scene="two_vs_one"), num_cycles=300)


@pytest.mark.parametrize("scene", ["two_vs_one", "two_vs_two"])
def test_parallel_tests_through_the_turn_based_converter(scene: str) -> None:
    parallel_api_test(skirmish_v0.parallel_env(scene=scene), num_cycles=300)
    parallel_seed_test(lambda: skirmish_v0.parallel_env(scene=scene), num_cycles=300)


def test_agents_are_the_fighters_in_order_and_the_decider_is_selected() -> None:
    e = skirmish_v0.env(scene="two_vs_one")
    assert e.possible_agents == ["chu_0", "boris_1", "novice_2"]
    e.reset(seed=3)
    raw = e.unwrapped
    rng = np.random.default_rng(0)
    for agent in e.agent_iter(max_iter=400):
        obs, _, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        i = e.possible_agents.index(agent)
        assert raw.fight.decision.fighter == i
        assert raw.fight.fighters[i].out is None  # a fighter who is out is never selected
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
        for other in e.possible_agents:  # nobody else may act now
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def _play_aec_to_end(scene: str, seed: int) -> tuple[dict[str, float], object]:
    e = skirmish_v0.env(scene=scene)
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter(max_iter=20_000):
        obs, reward, term, trunc, _ = e.last()
        total[agent] += reward
        if term or trunc:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total, e.unwrapped


@pytest.mark.parametrize("seed", range(6))
def test_rewards_go_to_whole_sides(seed: int) -> None:
    total, raw = _play_aec_to_end("two_vs_one", seed)
    st_ = raw.fight
    assert st_.is_over and raw.agents == []  # every agent, out or not, ended with the fight
    w = st_.winner
    for i, agent in enumerate(raw.possible_agents):
        want = 0.0 if w is None else (1.0 if raw.game.sides[i] == w else -1.0)
        assert total[agent] == want
    if w == 1:  # the guards won: both get +1, even one who was knocked out
        assert total["boris_1"] == total["novice_2"] == 1.0


# ---------------------------------------------------------------- slots, catalogue, mask
def test_slot_order_allies_first_then_enemies_by_distance() -> None:
    s = GAMES["two_vs_one"].new_state(0)
    # chu at (0,0) has two enemies at distance 2: by index
    assert slot_order(s, 0) == (1, 2)
    # boris: his ally novice first (distance 4), then chu (distance 2)
    assert slot_order(s, 1) == (2, 0)
    # novice next to chu (a scenario's board): now nearer than boris
    s = GAMES["two_vs_one"].new_state(0, scenario={"fighters": [{}, {}, {"pos": [0, 1]}]})
    assert s.fighters[2].pos == (0, 1) and slot_order(s, 0) == (2, 1)


def test_attack_ids_aim_at_the_slot_and_two_fighters_keep_the_duel_ids() -> None:
    game = GAMES["two_vs_one"]
    cat, _ = spaces_for(game)
    duel = catalogue_for(game.tables)
    n_att = int(duel.is_attack.sum())
    assert cat.n == duel.n + n_att  # two slots: one more id per attack
    a = int(np.flatnonzero(duel.is_attack)[0])
    slots = (2, 1)
    assert cat.choice(a, slots).target == 2  # the duel id aims at slot 0
    assert cat.choice(cat.id_of(a, 1), slots).target == 1
    assert cat.choice(0, slots) == duel.templates[0]  # a choice without target is as is
    c2, _ = spaces_for(GAMES["duel_3"])
    assert c2.n == duel.n and c2.names == duel.names


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scene=st.sampled_from(["two_vs_one", "two_vs_two", "ambush", "rider_vs_foot"]),
       seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 250))
def test_mask_is_exact_over_random_states(scene: str, seed: int, steps: int) -> None:
    """mask[id] == 1 <=> the engine accepts the id's choice, for every id (hypothesis)."""
    check_mask_exact(GAMES[scene], seed, steps)


def test_an_attack_on_the_ally_slot_is_masked_with_the_engines_reason() -> None:
    """Wherever a guard may attack the hero, the same attack at his ally's slot is masked
    and the engine says why (nobody attacks his own side, ``sides.friendly_attacks``)."""
    game = GAMES["two_vs_one"]
    cat, _ = spaces_for(game)
    found = 0
    for seed in range(40):
        s = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_over:
            me = s.decision.fighter
            if me in (1, 2):
                _, mask, slots = observe(s, me)
                for a in np.flatnonzero(mask):
                    if cat.slot_of[a] == 1:  # a legal attack at the enemy (slot 1)
                        ally_id = cat.id_of(cat.base_of[a], 0)
                        assert not mask[ally_id]
                        reason = s.why_illegal(cat.choice(ally_id, slots)) or ""
                        found += "on your side" in reason
            legal = s.legal_choices()
            s.apply(legal[int(rng.integers(len(legal)))])
    assert found > 0


def test_observation_describes_slots_from_the_fighters_point_of_view() -> None:
    game = GAMES["two_vs_one"]
    s = game.new_state(1)
    obs, _, slots = observe(s, 1)
    rad = game.radius
    assert slots == (2, 0)
    assert list(obs["others_ally"]) == [1.0, 0.0]
    assert obs["others_distance"][0] * 2 * rad == hexgrid.distance(s.fighters[1].pos, s.fighters[2].pos)
    assert obs["others_offset"][2:].tolist() == [(0 - 2) / (2 * rad), 0.0]  # chu is 2 hexes W
    facing = obs["others_facing"].reshape(2, 6)
    assert facing[1].argmax() == s.fighters[0].facing and facing[0].argmax() == s.fighters[2].facing


# ---------------------------------------------------------------- Gymnasium single-agent
@pytest.mark.parametrize(("scene", "fighter", "flat"),
                         [("two_vs_one", 0, False), ("two_vs_one", 1, True), ("two_vs_two", 3, False)])
def test_check_env(scene: str, fighter: int, flat: bool) -> None:
    check_env(SkirmishEnv(scene=scene, fighter=fighter, flat_observation=flat), skip_render_check=True)


def test_gym_episodes_reward_the_agents_side_and_keep_to_the_mask() -> None:
    env = gym.make("hexdojo/Skirmish-v0", scene="two_vs_one", fighter=2, strict=True)
    seen = set()
    for ep in range(8):
        obs, info = env.reset(seed=ep)
        assert env.observation_space.contains(obs) and info["fighter"] == 2
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            assert env.unwrapped.fight.decision.fighter == 2
            a = int(env.unwrapped.np_random.choice(np.flatnonzero(mask)))
            obs, reward, term, trunc, info = env.step(a)
            done = term or trunc
        st_ = env.unwrapped.fight
        w = st_.winner
        assert reward == (0.0 if w is None else (1.0 if w == 1 else -1.0))  # novice is a guard
        seen.add(reward)
    assert env.unwrapped.illegal_total == 0
    assert len(seen) >= 2


def test_gym_opponents_per_place_are_called_for_their_places() -> None:
    calls: list[int] = []

    def first_legal(state):  # noqa: ANN001, ANN202
        calls.append(state.decision.fighter)
        return state.legal_choices()[0]

    env = SkirmishEnv(scene="two_vs_one", fighter=0, opponents=[None, first_legal, "random"])
    env.reset(seed=0)
    for _ in range(200):
        _, _, term, _, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
        if term:
            break
    assert calls and set(calls) == {1}  # boris only: novice is random, chu is the agent


def test_gym_rejects_a_masked_action_and_bad_arguments() -> None:
    env = SkirmishEnv(scene="two_vs_one")
    obs, _ = env.reset(seed=0)
    bad = int(np.flatnonzero(~env.action_masks())[0])
    before = (len(env.fight.events), env.fight.decision)
    obs2, reward, term, trunc, info = env.step(bad)
    assert "illegal" in info and reward == 0.0 and not term and not trunc
    assert (len(env.fight.events), env.fight.decision) == before
    assert all(np.array_equal(obs[k], obs2[k]) for k in obs)
    with pytest.raises(ValueError, match="fighter 5"):
        SkirmishEnv(scene="two_vs_one", fighter=5)
    with pytest.raises(ValueError, match="opponents: 2 given"):
        SkirmishEnv(scene="two_vs_one", opponents=[None, None])


def test_render_modes() -> None:
    e = SkirmishEnv(scene="two_vs_one", render_mode="ansi")
    e.reset(seed=0)
    text = e.render()
    assert isinstance(text, str) and "Novice" in text
    a = skirmish_v0.env(scene="two_vs_one", render_mode="human")
    a.reset(seed=0)
    assert a.render() is None


# ---------------------------------------------------------------- the duel envs' scene=
def _episode(env: gym.Env, seed: int) -> list:
    obs, _ = env.reset(seed=seed)
    out = [obs["distance"].tolist()]
    done = False
    while not done:
        a = int(np.flatnonzero(env.action_masks())[0])
        obs, r, te, tr, _ = env.step(a)
        out.append((a, r, obs["self_wounds"].tolist(), obs["opp_pos"].tolist()))
        done = te or tr
    return out


def test_duel_scene_duel_2_is_the_default_set_up() -> None:
    for seed in range(3):
        assert _episode(DuelEnv(), seed) == _episode(DuelEnv(scene="duel_2"), seed)


def test_duel_scene_duel_3_starts_three_hexes_apart() -> None:
    e = duel_v0.raw_env(scene="duel_3")
    e.reset(seed=0)
    a, b = e.fight.fighters
    assert hexgrid.distance(a.pos, b.pos) == 3 and (a.facing, b.facing) == (0, 3)
    g = DuelEnv(scene="duel_3").game
    assert [p.name for p in g.profiles] == ["Chu", "Urlik"]  # the env's fighters in its places


def test_duel_scene_ambush_with_the_scenes_own_fighters() -> None:
    e = DuelEnv(scene="ambush", fighters=None)
    s = e.game.new_state(0)
    boris, chu = s.fighters
    assert (boris.name, chu.name) == ("Boris", "Chu")
    assert hexgrid.distance(boris.pos, chu.pos) == 1
    assert s.arc(1, 0) == 3  # chu stands in boris's rear hex
    with pytest.raises(ValueError, match="two fighters on two sides|places"):
        DuelEnv(scene="two_vs_one")


# ---------------------------------------------------------------- determinism
def _digest(seed: int) -> str:
    """Hash of one AEC 2v2 fight (observations, agents, actions, rewards, event log)."""
    import hashlib
    import json

    e = skirmish_v0.env(scene="two_vs_two")
    e.reset(seed=seed)
    h = hashlib.sha256()
    for agent in e.agent_iter(max_iter=5000):
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            e.step(None)
            continue
        h.update(obs["observation"]["others_offset"].tobytes() + obs["action_mask"].tobytes())
        a = int(np.flatnonzero(obs["action_mask"])[-1])
        h.update(f"{agent} {a} {reward}".encode())
        e.step(a)
    h.update(json.dumps(e.unwrapped.fight.events, sort_keys=True, default=str).encode())
    return h.hexdigest()


@pytest.mark.slow
def test_same_seed_same_fight_across_processes_and_hash_seeds() -> None:
    import os
    import subprocess
    import sys

    code = "from tests.envs.test_env_skirmish import _digest; print(_digest(5))"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    outs = {subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True,
                           check=True, env={**os.environ, "PYTHONHASHSEED": hs}).stdout.strip()
            for hs in ("0", "4242")}
    assert outs == {_digest(5)}

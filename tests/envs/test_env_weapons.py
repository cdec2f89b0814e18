"""ArmedDuel-v0, first published as Duel-v2 (issue 19, the environments): the armed catalogue,
mask and observation.

The armed catalogue must give every choice the engine can produce with weapons an id
(random chu-vs-guard, spearman and knife-fighter fights), its mask must be exact, the
unarmed catalogue of Duel-v0/v1 must stay exactly as it was, and the observation must
see weapons drawn, dropped, stuck and attacking (loaded scenarios from the rules kit).
"""

from __future__ import annotations

import hashlib

import gymnasium as gym
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hexdojo.envs  # noqa: F401 - registers the ids
from hexdojo.envs import ARMED_DUEL_DEFAULTS, armed_duel_v0
from hexdojo.envs.catalogue import catalogue_for, resolve_armed
from hexdojo.envs.duel import DuelEnv
from hexdojo.envs.observation import ARMED_FIELDS, encoder_for
from hexdojo.envs.rules import Game

from ..envs.test_env_mask import check_exact
from ..rules_kit import duel, fighter, react

ARMED = ("guard", "spearman", "knife_fighter")
PAIRS = [("chu", "guard"), ("chu", "spearman"), ("chu", "knife_fighter"),
         ("guard", "spearman"), ("knife_fighter", "guard")]
WEAPON_MANEUVERS = ("Stand and attack", "Advance and attack", "Close Combat Weapon Attack",
                    "Block", "Parry", "Ready weapon", "Drop weapon", "Pull out weapon")
#: sha256 of Duel-v0/v1's 369 action names (one per line) before weapons landed
UNARMED_NAMES_SHA = "2b64742d115d4941"


def _tables():
    return Game.create(["chu", "guard"]).tables


def _walk(game: Game, seed: int):
    """Yield every decision state of a random legal fight (seeded)."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    while not state.is_over:
        yield state
        ch = state.legal_choices()
        state.apply(ch[int(rng.integers(len(ch)))])


# --------------------------------------------------------------------------- catalogue
def test_unarmed_catalogue_is_duel_v1s_369_ids_unchanged():
    cat = catalogue_for(_tables())
    assert not cat.armed and cat.n == 369
    assert hashlib.sha256("\n".join(cat.names).encode()).hexdigest()[:16] == UNARMED_NAMES_SHA
    assert not set(cat.maneuvers) & set(WEAPON_MANEUVERS)
    assert gym.make("hexdojo/Duel-v1").action_space.n == 369


def test_armed_catalogue_extends_the_unarmed_one_with_every_weapon_maneuver():
    t = _tables()
    una, arm = catalogue_for(t), catalogue_for(t, armed=True)
    assert arm is catalogue_for(t, True) and arm is not una  # cached per (rules, armed)
    assert arm.templates[:una.n] == una.templates and arm.names[:una.n] == una.names
    assert arm.maneuvers[len(una.maneuvers):] == WEAPON_MANEUVERS
    assert arm.n == 824 and len(set(arm.names)) == arm.n  # the shipped rules; names unique
    assert "Ready weapon (dagger)" in arm.names and "Drop weapon (left hand)" in arm.names


@pytest.mark.parametrize("pair", PAIRS)
def test_every_legal_armed_choice_has_an_id_and_the_mask_is_the_legal_list(pair):
    """No legal choice without an id; the ids map back to exactly the legal choices."""
    game = Game.create(list(pair))
    cat = catalogue_for(game.tables, armed=True)
    seen: set[str] = set()
    for seed in range(6):
        for state in _walk(game, 100 + seed):
            legal = state.legal_choices()
            i = state.decision.fighter
            ids = cat.ids(legal)  # KeyError if any legal choice had no id
            mask = cat.mask(state, i)
            assert int(mask.sum()) == len(set(ids)) == len(legal)
            assert {cat.choice_for(a, state, i) for a in np.flatnonzero(mask)} == set(legal)
            seen.update(c.maneuver for c in legal if c.maneuver in WEAPON_MANEUVERS)
    assert {"Stand and attack", "Block"} <= seen or "Close Combat Weapon Attack" in seen


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=st.sampled_from(("chu", "boris", *ARMED)), b=st.sampled_from(ARMED),
       seed=st.integers(0, 10_000), steps=st.integers(0, 80))
def test_armed_mask_is_exact_on_random_states(a, b, seed, steps):
    """test_env_mask's exactness check (every allowed id accepted, every forbidden id
    rejected with a reason and no state change), on armed presets' states."""
    game = Game.create([a, b])
    cat = catalogue_for(game.tables, armed=True)
    for k, state in enumerate(_walk(game, seed)):
        if k == steps:
            assert check_exact(state, cat) >= 1
            break


def test_armed_is_chosen_by_the_fighters_or_asked_for():
    """``armed=None``: the armed catalogue exactly when a fighter carries a weapon;
    ArmedDuel-v0 asks for it even for an unarmed pairing; forcing unarmed with a guard is one
    clear error."""
    assert DuelEnv(fighters=("chu", "guard")).catalogue.armed
    assert not DuelEnv(fighters=("chu", "urlik")).catalogue.armed
    assert gym.make("hexdojo/ArmedDuel-v0", fighters=("chu", "chu")).action_space.n == 824
    with pytest.raises(ValueError, match="armed=False"):
        resolve_armed(Game.create(["chu", "guard"]), False)


# --------------------------------------------------------------------------- env APIs
def test_armed_duel_passes_gymnasiums_env_checker():
    from gymnasium.utils.env_checker import check_env

    env = gym.make("hexdojo/ArmedDuel-v0")
    assert ARMED_DUEL_DEFAULTS["fighters"] == ("chu", "guard")
    assert env.action_space.n == 824
    assert gym.spaces.flatdim(env.observation_space) == 442
    check_env(env.unwrapped, skip_render_check=True)


def test_armed_duel_passes_pettingzoos_api_test():
    from pettingzoo.test import api_test

    env = armed_duel_v0.env()
    assert env.unwrapped.metadata["name"] == "armed_duel_v0" and env.unwrapped.catalogue.n == 824
    api_test(env, num_cycles=300)


def test_armed_duel_is_deterministic_with_a_seed():
    def run(seed: int) -> list[np.ndarray]:
        env = gym.make("hexdojo/ArmedDuel-v0", flat_observation=True)
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        out = [obs]
        for _ in range(200):
            legal = np.flatnonzero(info["action_mask"])
            obs, _, term, trunc, info = env.step(int(rng.choice(legal)))
            out.append(obs)
            if term or trunc:
                obs, info = env.reset()
                out.append(obs)
        return out

    a, b = run(7), run(7)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert any(not np.array_equal(x, y) for x, y in zip(a, run(8), strict=False))


def test_openspiel_and_skirmish_take_the_armed_catalogue_for_armed_fighters():
    """The OpenSpiel game and the group fight decide like ``armed=None``: a guard among
    the fighters gives the armed catalogue, its legal actions all have ids."""
    pyspiel = pytest.importorskip("pyspiel")
    import hexdojo.envs.spiel  # noqa: F401 - registers the game
    from hexdojo.envs.skirmish_spaces import observe, spaces_for

    game = pyspiel.load_game("hexdojo_duel", {"fighters": "chu guard", "turn_limit": 6})
    assert game.num_distinct_actions() == 824
    unarmed = pyspiel.load_game("hexdojo_duel", {"fighters": "chu urlik"})
    assert unarmed.num_distinct_actions() == 369
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        else:
            legal = state.legal_actions()
            assert legal and max(legal) < 824
            state.apply_action(legal[int(rng.integers(len(legal)))])
    group = Game.create(["chu", "guard", "spearman"])
    cat, _ = spaces_for(group)
    assert cat.base.armed and cat.base.n == 824
    for st_ in _walk(group, 5):
        _, mask, slots = observe(st_, st_.decision.fighter, flat=True)
        legal = st_.legal_choices()  # each one an id (KeyError otherwise), the mask = them
        assert set(np.flatnonzero(mask)) == set(cat.ids(legal, slots)) and mask.any()


# --------------------------------------------------------------------------- observation
def _obs(state, fighter_: int = 0) -> dict[str, np.ndarray]:
    enc = encoder_for(state.game, True)
    return enc.encode(state, fighter_)


def test_unarmed_observation_has_no_weapon_fields_and_the_armed_one_all():
    game = Game.create(["chu", "chu"])
    una, arm = encoder_for(game), encoder_for(game, True)
    assert una.size == 280 and not set(una.keys) & {f"self_{k}" for k in ARMED_FIELDS}
    assert arm.size == 442
    for k in ARMED_FIELDS:
        assert k in arm.keys or (f"self_{k}" in arm.keys and f"opp_{k}" in arm.keys)


def test_observation_sees_a_weapon_dropped_then_readied_aom314a():
    """Drop weapon (free) puts the shield on the ground in A's hex; Ready weapon (3 AP)
    picks it up again into the empty left hand."""
    a = fighter("A", combat=2, weapons={"right": "sword", "left": "shield", "sheathed": ["dagger"]})
    state, _ = duel(a, fighter("B"))
    t = state.t
    n_w = len(t.weapon_ids)
    sword, shield, dagger = (t.weapon_ids.index(w) for w in ("sword", "shield", "dagger"))
    o = _obs(state)
    assert o["self_hands"][sword] == 1 and o["self_hands"][n_w + 1 + shield] == 1
    assert list(o["self_usable"]) == [1, 1] and o["self_sheathed"][dagger] == 1
    assert o["self_dropped_here"].sum() == 0 and o["opp_dropped_near"][shield] == 0
    state.apply(react("Drop weapon", option=1))
    o = _obs(state)
    assert o["self_hands"][n_w + 1 + n_w] == 1 and o["self_usable"][1] == 0  # left empty
    assert o["self_dropped_here"][shield] == 1 and o["opp_dropped_near"][shield] == 1
    assert _obs(state, 1)["self_dropped_near"][shield] == 1  # B, next to it, sees it too
    state.apply(react("Ready weapon", option=shield))
    o = _obs(state)
    assert o["self_hands"][n_w + 1 + shield] == 1 and o["self_dropped_here"].sum() == 0


def test_observation_sees_a_stuck_weapon_aom1d35():
    state, _ = duel(fighter("A"), fighter("B"), fb={"stuck": [["dagger", "Chest"]],
                                                    "wounds": [["Chest", "Medium"]]})
    o = _obs(state)
    assert o["opp_stuck"][state.t.locations.index("Chest")] == 1 and o["self_stuck"].sum() == 0


def test_reaction_to_a_sword_cut_sees_the_weapon_and_mode_aom3142():
    """The defender deciding his reaction sees the attack's weapon (sword) and mode (cut:
    mode 0), from ``State.context()``'s ``weapon``/``mode``; the attacker does not."""
    a = fighter("A", weapon_skills={"Sword": 4}, weapons={"right": "sword"})
    state, _ = duel(a, fighter("B"))
    state.apply(react("Stand and attack", target=1, location="Chest", option=1))  # thrust
    assert state.decision.kind == "reaction" and state.decision.fighter == 1
    ctx = state.context()
    assert (ctx["weapon"], ctx["mode"]) == ("sword", 1)
    o = _obs(state, 1)
    assert o["incoming_weapon"][state.t.weapon_ids.index("sword")] == 1
    assert list(o["incoming_mode"]) == [0, 1]
    assert _obs(state, 0)["incoming_weapon"].sum() == 0


def test_unarmed_attack_has_no_weapon_in_context():
    state, _ = duel(fighter("A", ma=2), fighter("B"))
    state.apply(react("Martial Strike", target=1, location="Chest"))
    assert state.decision.kind == "reaction" and "weapon" not in state.context()


# --------------------------------------------------------------------------- training
def test_maskable_ppo_runs_on_the_armed_duel_with_no_illegal_action():
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    venv = make_vec_env("hexdojo/ArmedDuel-v0", n_envs=1, seed=0)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=128, batch_size=64, n_epochs=1,
                        seed=0, device="cpu")
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    assert venv.get_attr("illegal_total") == [0]

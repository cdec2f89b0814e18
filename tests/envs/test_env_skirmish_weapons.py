"""The group fight's weapon fields (issue 19): ``skirmish_v0`` / ``hexdojo/Skirmish-v0`` in
the armed scenes ``monk_vs_guard`` and ``monk_vs_two_guards``.

Under the armed catalogue the group observation gains the duel's weapon fields
(``observation.ARMED_FIELDS``) for the fighter himself and for every slot, and the incoming
attack's weapon and mode; unarmed scenes keep their observation number for number (pinned
hashes of the encodings before the weapon fields landed), and the armed scenes keep every
field they had (pinned too). Loaded scenarios (the rules kit's dice) show a guard's dropped
sword and a sword cut as every fighter sees them (aom314a: dropping is free; aom3142: a
weapon attack's mode).
"""

from __future__ import annotations

import hashlib
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test

import hexdojo.envs  # noqa: F401  (registers the ids)
from hexdojo.envs import skirmish_v0
from hexdojo.envs.observation import ARMED_FIELDS
from hexdojo.envs.rules import Game, LoadedDice
from hexdojo.envs.skirmish import SkirmishEnv
from hexdojo.envs.skirmish_spaces import WEAPON_FIELDS, observe, spaces_for

from ..conftest import check_mask_exact
from ..rules_kit import react

ARMED_SCENES = ("monk_vs_guard", "monk_vs_two_guards")
GAMES = {name: Game.from_scene(name) for name in ARMED_SCENES}
#: sha256[:16] of every fighter's flat observation, mask and slot order at every decision
#: of seeds 0-2 (``_group_hash``), measured on the encoder before the weapon fields landed;
#: re-pinned by issue 28 (aom3221, aom3225: random play meets other situations)
UNARMED_PINS = {
    "two_vs_one": ("8abee5f384bec4af", 343), "two_vs_two": ("09e3826d11ce71ae", 408),
    "ambush": ("b05c9c41acad29f6", 278), "rider_vs_foot": ("6623377f64565ea8", 278),
    "duel_3": ("90ae37dc599f1d87", 278)}
#: the same for the armed scenes, over their fields other than the weapon ones
ARMED_PINS = {"monk_vs_guard": ("261f6e00dd20b7da", 318),
              "monk_vs_two_guards": ("161f6b79696b0792", 383)}
#: sizes with the weapon fields: 319 + 121 K (K: the other fighters)
ARMED_SIZES = {"monk_vs_guard": 440, "monk_vs_two_guards": 561}


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.filterwarnings("ignore", module="pettingzoo")


def _weaponless(obs: dict[str, np.ndarray]) -> np.ndarray:
    """The flat observation without the weapon fields (sorted keys, as the flat form)."""
    new = {"incoming_weapon", "incoming_mode"} | {f"{w}_{f}" for w in ("self", "others")
                                                  for f in WEAPON_FIELDS}
    return np.concatenate([obs[k] for k in sorted(obs) if k not in new])


def _group_hash(game: Game, strip: bool, seeds: tuple[int, ...] = (0, 1, 2)) -> tuple[str, int]:
    """Hash of every fighter's observation (``strip``: less the weapon fields), mask and
    slots at each decision of random legal fights, and the observation's size."""
    h = hashlib.sha256()
    size = 0
    for seed in seeds:
        s = game.new_state(seed)
        rng = np.random.default_rng(seed)
        for _ in range(400):
            if s.is_over:
                break
            for me in range(len(s.fighters)):
                obs, mask, slots = observe(s, me, flat=not strip)
                vec = _weaponless(obs) if strip else obs
                size = vec.size
                h.update(vec.tobytes())
                h.update(mask.tobytes())
                h.update(bytes(slots))
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
    return h.hexdigest()[:16], size


# ---------------------------------------------------------------- layout, and nothing else moved
@pytest.mark.parametrize("scene", sorted(UNARMED_PINS))
def test_unarmed_scene_observations_are_unchanged(scene: str) -> None:
    game = Game.from_scene(scene)
    assert not spaces_for(game)[1].armed
    assert _group_hash(game, strip=False) == UNARMED_PINS[scene]


@pytest.mark.parametrize("scene", ARMED_SCENES)
def test_armed_scenes_keep_every_earlier_field_number_for_number(scene: str) -> None:
    assert _group_hash(GAMES[scene], strip=True) == ARMED_PINS[scene]


@pytest.mark.parametrize("scene", ARMED_SCENES)
def test_armed_layout_has_the_duel_weapon_fields_for_self_and_every_slot(scene: str) -> None:
    game = GAMES[scene]
    cat, enc = spaces_for(game)
    k = len(game.profiles) - 1
    assert enc.armed and cat.base.armed
    assert enc.size == ARMED_SIZES[scene] == 319 + 121 * k
    assert gym.spaces.flatdim(enc.space) == enc.size == enc.flat_space.shape[0]
    duel = enc.duel
    for f in ARMED_FIELDS:
        if f.startswith("incoming_"):
            assert enc.space[f].shape == duel.space[f].shape
            continue
        n = duel.space[f"self_{f}"].shape[0]
        assert enc.space[f"self_{f}"].shape == (n,)
        assert enc.space[f"others_{f}"].shape == (k * n,)
        assert float(enc.space[f"others_{f}"].high.max()) == 1.0  # unit-scaled
    unarmed = spaces_for(Game.from_scene("two_vs_one"))[1]
    assert not {f"self_{f}" for f in WEAPON_FIELDS} & set(unarmed.space.spaces)


# ---------------------------------------------------------------- env APIs
@pytest.mark.parametrize("scene", ARMED_SCENES)
def test_api_test(scene: str) -> None:
    env = skirmish_v0.env(scene=scene)
    assert gym.spaces.flatdim(env.observation_space(env.possible_agents[0])["observation"]) \
        == ARMED_SIZES[scene]
    api_test(env, num_cycles=300)


@pytest.mark.parametrize(("fighter", "flat"), [(0, False), (2, True)])
def test_check_env(fighter: int, flat: bool) -> None:
    env = gym.make("hexdojo/Skirmish-v0", scene="monk_vs_two_guards", fighter=fighter,
                   flat_observation=flat)
    assert gym.spaces.flatdim(env.observation_space) == 561
    check_env(env.unwrapped, skip_render_check=True)
    check_env(SkirmishEnv(scene="monk_vs_guard", fighter=1), skip_render_check=True)


# ---------------------------------------------------------------- loaded scenarios
def _two_guards(dice: tuple[int, ...] = ()) -> object:
    """monk_vs_two_guards with the guard next to Chu (E, facing W), the spearman 2 W, the
    guard's phase."""
    sc = {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 10}, {"pos": [1, 0], "facing": 3, "ap": 10},
                       {"pos": [-2, 0], "facing": 0, "ap": 10}], "phase": 1}
    return GAMES["monk_vs_two_guards"].new_state(LoadedDice(list(dice)), scenario=sc)


def _slot(obs: dict[str, np.ndarray], field: str, slot: int) -> np.ndarray:
    return obs[f"others_{field}"].reshape(2, -1)[slot]


def test_everyone_sees_the_guard_drop_his_sword_aom314a() -> None:
    """Drop weapon (free, option = the right hand): the guard's right hand turns empty and
    unusable in his own view and in Chu's and the spearman's slots for him, and the sword
    lies in his hex, next to Chu's."""
    s = _two_guards()
    t = s.t
    n_w = len(t.weapon_ids)
    sword, shield, spear = (t.weapon_ids.index(w) for w in ("sword", "shield", "spear"))
    chu, spear_man = observe(s, 0), observe(s, 2)
    assert chu[2] == (1, 2) and spear_man[2] == (1, 0)  # the guard is slot 0 of both
    before = [chu[0], spear_man[0]]
    for o, _, _ in (chu, spear_man):
        hands = _slot(o, "hands", 0).reshape(2, n_w + 1)
        assert hands[0].argmax() == sword and hands[1].argmax() == shield
        assert list(_slot(o, "usable", 0)) == [1, 1]
    assert list(chu[0]["others_hands"].reshape(2, 2, n_w + 1)[1].argmax(1)) == [spear, spear]
    s.apply(react("Drop weapon", option=0))
    me = observe(s, 1)[0]
    assert me["self_hands"].reshape(2, n_w + 1)[0].argmax() == n_w  # right hand empty
    assert list(me["self_usable"]) == [0, 1] and me["self_dropped_here"][sword] == 0.5  # 1 of 2
    for (o, _, _), old in zip((observe(s, 0), observe(s, 2)), before, strict=True):
        assert _slot(o, "hands", 0).reshape(2, n_w + 1)[0].argmax() == n_w
        assert list(_slot(o, "usable", 0)) == [0, 1]
        assert _slot(o, "dropped_here", 0)[sword] == 0.5
        assert not np.array_equal(o["others_hands"], old["others_hands"])
    chu_after = observe(s, 0)[0]
    assert chu_after["self_dropped_near"][sword] == 0.5 and chu_after["self_dropped_here"].sum() == 0
    assert _slot(chu_after, "dropped_near", 1).sum() == 0  # the spearman, 2 hexes away: not near


def test_chu_reacting_to_a_sword_thrust_sees_the_weapon_and_mode_aom3142() -> None:
    """The guard thrusts (Stand and attack, option 1 = right hand, mode 1): Chu, deciding
    his reaction, sees the sword and mode 1 and the guard's slot as the attacker; the
    spearman, not deciding, sees no incoming weapon."""
    s = _two_guards()
    s.apply(react("Stand and attack", target=0, location="Chest", option=1))
    assert s.decision.kind == "reaction" and s.decision.fighter == 0
    chu, mask, _ = observe(s, 0)
    assert chu["incoming_weapon"][s.t.weapon_ids.index("sword")] == 1
    assert list(chu["incoming_mode"]) == [0, 1] and list(chu["others_attacker"]) == [1, 0]
    spear_man, spear_mask, _ = observe(s, 2)
    assert spear_man["incoming_weapon"].sum() == 0 and not spear_mask.any() and mask.any()


# ---------------------------------------------------------------- ids and masks
def test_every_legal_choice_has_an_id_in_random_monk_vs_two_guards_fights() -> None:
    """ids(legal) never misses (KeyError otherwise), the mask's ids give back exactly the
    legal choices, and weapon maneuvers are among them."""
    game = GAMES["monk_vs_two_guards"]
    cat, enc = spaces_for(game)
    seen: set[str] = set()
    for seed in range(8):
        s = game.new_state(seed)
        rng = np.random.default_rng(seed)
        while not s.is_over:
            me = s.decision.fighter
            obs, mask, slots = observe(s, me, flat=True)
            legal = s.legal_choices()
            assert enc.flat_space.contains(obs)
            assert int(mask.sum()) == len(set(cat.ids(legal, slots))) == len(legal)
            assert {cat.choice(int(a), slots) for a in np.flatnonzero(mask)} == set(legal)
            seen.update(c.maneuver for c in legal if c.maneuver)
            s.apply(legal[int(rng.integers(len(legal)))])
    assert {"Stand and attack", "Drop weapon"} <= seen


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 200))
def test_mask_is_exact_on_random_monk_vs_two_guards_states(seed: int, steps: int) -> None:
    """mask[id] == 1 <=> the engine accepts the id's choice, for every id of the armed
    group catalogue, and all zeros for a fighter who is not deciding."""
    check_mask_exact(GAMES["monk_vs_two_guards"], seed, steps)


def test_the_blocked_attackers_locked_hand_reads_unusable_in_a_group_aom322e() -> None:
    """aom322e/§3: after Chu's Forearm Block of the guard's sword (MA 4 + CO 1 + 4
    unencumbered - 2 = 7 against Sword 6 + CO 1 = 7: ties favour the defender), Chu's
    follow-on window shows the guard's sword hand locked, in a fight of three too (the
    window names the blocked attacker)."""
    from hexdojo.envs.rules import Choice

    s = _two_guards()
    s.apply(Choice("maneuver", "Stand and attack", 0, "Chest", 0, 0))
    for c in (react("Forearm Block"), Choice("risk", risk=0), Choice("risk", risk=0)):
        s.apply(c)
    assert s.decision == (0, "follow_on", "") and s.context()["locked_fighter"] == 1
    chu = observe(s, 0)
    assert chu[2] == (1, 2) and list(_slot(chu[0], "usable", 0)) == [0, 1]
    assert list(_slot(chu[0], "usable", 1)) == [1, 1]  # the spearman's spear: free

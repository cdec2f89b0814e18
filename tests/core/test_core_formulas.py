"""The rules formulas the native core computes (envs/rules/core/formulas.hpp, bound as
``_core.formulas``), through their Python API (envs/rules/formulas.py; RULES §1.3,
§1.8-§1.17, aom315, aom316, aom1d31, aom1d34, aom322d): what holds for every preset
fighter, sheets varied from them, maneuver, location, damage type, margin, penalty, wound
level, AP and result, under the shipped rules and two variants.

Until issue 15 this file compared the core with formulas.py's Python copy of each formula;
that copy is gone (one copy, the core's), so what only compared the two went with it. What
stays can fail on its own: each sheet form equals ``basic`` plus the condition, totals are
the sum of their terms, the terms the rules name (encumbrance x Martial Arts, margin,
resistance, self-injury) have their stated values, the bands are monotone and cover every
level, ties go the way the rules say, the variants change the results, and bad input is one
clear error. Hand-computed cases citing the rules are in tests/rules/test_formulas.py.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import Game, _core, preset_names, to_core
from hexdojo.envs.rules import formulas as fm
from hexdojo.envs.rules.fighter import load_profile
from hexdojo.envs.rules.tables import h2, load_tables

VARIANTS = {  # margins x1.5 and ties hitting; other numbers and damage types
    "ties_hit": {"attack": {"hit_requires_higher": False, "margin_damage_per_point": 1.5},
                 "wounds": {"upper_bounds": [1, 2.5, 5, 8, 11, 14]}},
    "numbers": {"maneuvers": {"Punch": {"attack_mod": 1.5, "damage": 2.5, "ap": 3},
                              "Drop Dodge": {"bonus_by_attack": False, "defence_bonus": 1.5},
                              "Martial Strike": {"damage_types": ["Cutting", "Blunt"]}}},
}
RULE_SETS = {"shipped": load_tables(), **{k: load_tables(v) for k, v in VARIANTS.items()}}
SETS = list(RULE_SETS)
PROFILES = {k: [load_profile(n, t.data) for n in preset_names()] for k, t in RULE_SETS.items()}
EXAMPLES = settings(max_examples=150, deadline=None)
RESULTS = range(-20, 61)  # half points: margins, differences, roll results
PAIN_ORDER = ("unconscious", "stunned", "staggered", "none")
KNOCKBACK_ORDER = ("none", "off balance", "knocked back", "knocked over")
REACTIONS = ("dodge", "block", "parry", "weapon_block", "leg_grab")  # defensive categories


@st.composite
def sheets(draw, key: str):
    """A preset fighter of rule set ``key``, or one with its numbers varied (encumbrance,
    helmet, characteristics, skills, specialisms, PV): the formulas only read the sheet."""
    t = RULE_SETS[key]
    p = draw(st.sampled_from(PROFILES[key]))
    if not draw(st.booleans()):
        return p
    n = st.integers(-8, 16)
    return dataclasses.replace(
        p, enc_mod=draw(st.integers(-12, 5)), helmet_mod=draw(st.integers(-6, 1)),
        chars={c: draw(n) for c in t.data.characteristics},
        skills={s: draw(st.integers(0, 24)) for s in t.data.skills},
        specs={s: draw(st.integers(0, 6)) for s in to_core.compile_tables(t).specialisms},
        pv={loc: draw(st.integers(0, 24)) for loc in t.locations})


@st.composite
def fighter_case(draw):
    key = draw(st.sampled_from(SETS))
    return key, RULE_SETS[key], draw(sheets(key))


def _pen(draw) -> int:
    return draw(st.sampled_from([0, -2, -6]) | st.integers(-12, 0))


def _rolls(d):
    return {"ap": d.turn.ap, "initiative": d.turn.initiative, "soak": d.soak.roll,
            "pain": d.pain.roll, "knockback": d.knockback.roll,
            "default_defence": d.attack.default_defence, "stay_mounted": d.mounted.stay_mounted}


# ---------------------------------------------------------------- basic values (§1.3, §1.8)
@EXAMPLES
@given(case=fighter_case(), data=st.data())
def test_basic_is_the_sum_of_its_terms_in_the_rules_order(case, data) -> None:
    """§1.3, §1.8: skill, specialisms, characteristic (+ its modifiers), the extra terms,
    then the worst wound's impairment (§1.14) and the stagger/stun penalty named by the
    status (§1.12) last; zero extras left out; each extra adds exactly its value."""
    _, t, p = case
    d = t.data
    skill = data.draw(st.sampled_from([None, *d.skills]))
    char = data.draw(st.sampled_from([None, *d.characteristics]))
    specs = data.draw(st.lists(st.sampled_from(to_core.compile_tables(t).specialisms), max_size=3))
    extra = data.draw(st.lists(st.tuples(st.sampled_from(["Punch", "aim Head", "rear", "bonus"]),
                                         st.integers(-6, 6)), max_size=5))
    worst = data.draw(st.integers(0, t.fatal))
    pen = _pen(data.draw)
    status = data.draw(st.sampled_from(["", "stunned", "staggered"]))
    total, terms = fm.basic(t, p, skill, char, specs, extra, worst, pen, status)
    assert total == sum(v for _, v in terms)
    names = [n for n, _ in terms]
    if skill is not None:
        assert terms[0] == (skill, p.skills.get(skill, 0))
    if char is not None:
        assert (char, p.chars.get(char, 0)) in terms
    tail = [(n, v) for n, v in extra if v]
    cond = [("wounds", fm.penalty(t, worst, 0))] if fm.penalty(t, worst, 0) else []
    cond += [(status or "penalty", pen)] if pen else []
    assert terms[len(terms) - len(cond) - len(tail):] == tail + cond
    assert ("specialism" in names) == bool(skill and sum(p.specs.get(s, 0) for s in specs))
    assert fm.basic(t, p, skill, char, specs, [*extra, ("x", 3)], worst, pen, status)[0] == total + 3
    assert fm.penalty(t, worst, pen) == fm.penalty(t, worst, 0) + pen


@pytest.mark.parametrize("key", SETS)
def test_encumbrance_and_helmet_terms_for_every_modifier(key: str) -> None:
    """§1.16 aom1d1: the encumbrance modifier on every CO roll, x martial_arts_multiplier with
    Martial Arts (int(), so truncated toward zero: -1 x 1.5 is -1); §1.4 aom312: the helmet on
    PE rolls. Every skill and characteristic, modifiers -12..5 half points."""
    t = RULE_SETS[key]
    d = t.data
    enc, helmet = d.encumbrance, d.helmets.characteristic
    base = PROFILES[key][0]
    for mod in range(-12, 6):
        p = dataclasses.replace(base, enc_mod=mod, helmet_mod=mod // 3)
        for skill in [None, *d.skills]:
            mult = enc.martial_arts_multiplier if skill in enc.multiplied_with else 1
            for char in d.characteristics:
                terms = dict(fm.basic(t, p, skill, char)[1])
                want = int(mod * mult) if char == enc.characteristic and mod else None
                assert terms.get("encumbrance") == want, (mod, skill, char)
                want = p.helmet_mod if char == helmet and p.helmet_mod else None
                assert terms.get("helmet") == want, (mod, skill, char)


@EXAMPLES
@given(case=fighter_case(), data=st.data())
def test_the_sheet_forms_are_basic_plus_the_condition(case, data) -> None:
    """Each ``*_basic_of`` (what a hypothetical roll starts from) is ``basic`` of the roll's
    skill, characteristic, specialisms and modifiers (§1.11 soak, §1.12 pain, §1.13
    knock-back, aom316 damage, a data-described roll + its bonus) plus the condition."""
    _, t, p = case
    d = t.data
    pen = _pen(data.draw)
    extra = data.draw(st.lists(st.tuples(st.just("x"), st.integers(-4, 4)), max_size=2))
    for spec in _rolls(d).values():
        want = fm.basic(t, p, spec.skill, spec.characteristic, spec.specialisms,
                        [*extra, ("bonus", h2(spec.bonus))])[0] + pen
        assert fm.spec_basic_of(t, p, spec, pen, extra) == want
    assert fm.soak_basic_of(t, p, pen) == fm.spec_basic_of(t, p, d.soak.roll, pen)
    m = data.draw(st.sampled_from(list(t.maneuvers)))
    loc = data.draw(st.sampled_from(t.locations))
    margin, rating = data.draw(st.integers(-20, 40)), data.draw(st.none() | st.integers(-4, 20))
    dmg = fm.damage_extra(t, m, margin, loc, True, rating)
    assert fm.damage_basic_of(t, p, pen, m, margin, loc, True, rating) == \
        fm.basic(t, p, None, d.damage.characteristic, (), dmg)[0] + pen
    dtype = data.draw(st.sampled_from(list(d.damage_types)))
    level, mounted = data.draw(st.integers(0, t.fatal)), data.draw(st.booleans())
    assert fm.pain_basic_of(t, p, pen, dtype, loc, level) == fm.spec_basic_of(
        t, p, d.pain.roll, pen, fm.pain_extra(t, dtype, loc, level))
    kb = d.knockback.roll
    assert fm.knockback_basic_of(t, p, pen, dtype, loc, mounted) == fm.basic(
        t, p, fm.knockback_skill(t, mounted), kb.characteristic, kb.specialisms,
        fm.knockback_extra(t, dtype, loc, mounted))[0] + pen


# ---------------------------------------------------------------- damage (aom316, §1.17)
@EXAMPLES
@given(case=fighter_case(), data=st.data())
def test_damage_terms_resistance_and_self_injury(case, data) -> None:
    """aom316: rating (a weapon mode's when given), margin x attack.margin_damage_per_point
    truncated as int() truncates (negative margins too), the location's row; DR = ST + PV at
    the location; §1.17: DR - the striker's skill and specialisms + the maneuver's extra, None
    where the location is unarmoured and self_injury.requires_armour."""
    key, t, p = case
    target = data.draw(sheets(key))
    m = data.draw(st.sampled_from(list(t.maneuvers)))
    spec = t.maneuvers[m]
    margin, loc = data.draw(st.integers(-20, 40)), data.draw(st.sampled_from(t.locations))
    use_margin, rating = data.draw(st.booleans()), data.draw(st.none() | st.integers(-4, 20))
    per_point = t.data.attack.margin_damage_per_point
    assert fm.damage_extra(t, m, margin, loc, use_margin, rating) == [
        ("rating", h2(spec.damage or 0) if rating is None else rating),
        ("margin", int(margin * per_point) if use_margin else 0),
        (f"location {loc}", t.aim[t.loc_aim[loc]].damage)]
    dr = fm.damage_resistance(t, target, loc)
    assert dr == target.char(t.data.damage.resistance) + target.pv[loc]
    got = fm.self_injury_basic(t, p, target, m, loc)
    if target.pv[loc] == 0 and t.data.self_injury.requires_armour:
        assert got is None
    else:
        skill = p.skill(spec.self_injury_skill) + p.spec_total(spec.specialisms)
        assert got == dr - skill + h2(spec.self_injury_extra)


@pytest.mark.parametrize("key", SETS)
def test_damage_type_for_every_option(key: str) -> None:
    """aom3221: the striker's choice among the maneuver's damage types (the last one beyond)."""
    t = RULE_SETS[key]
    for m, spec in t.maneuvers.items():
        for option in range(5) if spec.damage_types else ():
            assert fm.damage_type(t, m, option) == spec.damage_types[min(option, len(spec.damage_types) - 1)]


# ---------------------------------------------------------------- bands (§1.10-§1.13)
@pytest.mark.parametrize("key", SETS)
def test_the_bands_are_monotone_and_cover_every_level(key: str) -> None:
    """§1.10 wound table, §1.11 soak levels (aom314c), §1.12 pain bands (§5.19), §1.13
    knock-back bands (aom1d34, §5.20), over every result -20..60: more damage never wounds
    less, a better soak never removes less, a better pain roll never hurts more, a bigger
    failure never knocks back less; each band is reached, none beyond the table."""
    t = RULE_SETS[key]
    levels = [fm.wound_level(t, v) for v in RESULTS]
    soaks = [fm.soak_levels(t, v) for v in RESULTS]
    pains = [PAIN_ORDER.index(fm.pain_effect(t, v)) for v in RESULTS]
    kbs = [fm.knockback_band(t.data.knockback, v) for v in RESULTS]
    for seq in (levels, soaks, pains, [KNOCKBACK_ORDER.index(e) for e, _, _ in kbs],
                [ap for _, ap, _ in kbs]):
        assert seq == sorted(seq)
    assert levels[0] == 0 and set(levels) == set(range(t.fatal + 1))
    # each level is the first whose upper bound (the data's, half points) is >= the value
    assert levels == [sum(v > ub for ub in t.wound_bounds) for v in RESULTS]
    assert soaks[0] == 0 and soaks == [sum(v > ub for ub in t.soak_bounds) for v in RESULTS]
    assert set(pains) == set(range(4)) and {KNOCKBACK_ORDER.index(e) for e, _, _ in kbs} == set(range(4))
    for v, (effect, ap, over) in zip(RESULTS, kbs, strict=True):
        assert over == (effect == "knocked over") and (effect == "none") == (v <= 0) and (ap == 0) == (v <= 0)


@pytest.mark.parametrize("key", SETS)
def test_roll_result_and_soak_for_every_risk_level_and_ap(key: str) -> None:
    """§1.3: basic + 2 x the dice's sum - per_die x dice risked (numbers and numpy arrays of
    sums alike); §1.11: a wound from an attack or a lock is soaked with the Soak maneuver's
    AP, never a self-inflicted one, never a level 0."""
    t = RULE_SETS[key]
    for n in range(t.max_risk + 1):
        sums = np.arange(n, 6 * n + 1)
        got = fm.roll_result(7, n, sums, t.per_die_h)
        assert isinstance(got, np.ndarray) and got.tolist() == [7 + 2 * s - t.per_die_h * n for s in sums]
        assert fm.roll_result(7, n, 3 * n, t.per_die_h) == 7 + 6 * n - t.per_die_h * n
    soak_ap = t.maneuvers["Soak"].ap
    for level in range(t.fatal + 1):
        for ap in range(0, 9):
            for kind in ("attack", "lock", "self"):
                assert fm.can_soak(t, level, ap, kind) == (level > 0 and kind != "self" and ap >= soak_ap)


# ---------------------------------------------------------------- attack and defence (§1.8)
@pytest.mark.parametrize("key", SETS)
def test_ties_and_hit_thresholds_for_every_reaction(key: str) -> None:
    """aom315: an attack hits when it beats the defence by the threshold: 0 (ties hit) or 1
    (they miss: against a Leg Grab, aom3226, and with attack.hit_requires_higher, §5.2); one
    rule, not two stacked. §1.6: simultaneous attacks both land on a tie; aom322d: a Break
    Hold needs strictly more."""
    t = RULE_SETS[key]
    strict = t.data.attack.hit_requires_higher
    for r in [None, *t.maneuvers]:
        leg_grab = r is not None and t.maneuvers[r].category == "leg_grab"
        assert fm.hit_threshold(t, r) == (1 if strict or leg_grab else 0)
        for a in (-3, 0, 10):
            assert fm.hits(t, a + 1, a, r) and not fm.hits(t, a - 1, a, r)
            assert fm.hits(t, a, a, r) == (fm.hit_threshold(t, r) == 0)
    for a in range(-3, 4):
        for b in range(-3, 4):
            assert fm.counter_hits(a, b) == (a >= b) and fm.break_succeeds(a, b) == (a > b)


@pytest.mark.parametrize("key", SETS)
def test_defence_bonus_depends_on_the_attack_only_where_the_rules_say(key: str) -> None:
    """aom315 table: a reaction's bonus is its own (defence_bonus), except Drop Dodge's by
    the attack's maneuver or aim (§5.11 PROPOSED, bonus_by_attack) and the Forearm Block's,
    reduced against weapons (§5.12 PROPOSED); aom317: the aim's attack modifier."""
    t = RULE_SETS[key]
    names = list(t.maneuvers)
    for r, m in t.maneuvers.items():
        got = {(a, loc): fm.defence_bonus(t, r, a, loc)
               for a in [None, *names] for loc in [None, *t.locations]}
        if m.bonus_by_attack:
            dd = t.data.drop_dodge
            for (a, loc), v in got.items():
                aim = t.loc_aim[loc] if loc is not None else t.data.attack.default_aim
                assert v == h2(dd.by_maneuver[a] if a in dd.by_maneuver else dd.by_aim.get(aim, 0))
        elif m.category == "block":
            fb = t.data.forearm_block
            by_weapon = {"close": fb.bonus_vs_close_weapons, "melee": fb.bonus_vs_melee_weapons}
            for (a, _), v in got.items():
                need = t.maneuvers[a].weapon if a is not None else None
                assert v == h2(by_weapon.get(need, fb.bonus_vs_unarmed))
        else:
            assert set(got.values()) == {h2(m.defence_bonus)}, r
    for loc in t.locations:
        assert fm.aim_attack(t, loc) == t.aim[t.loc_aim[loc]].attack


def test_a_variant_changes_what_the_core_computes() -> None:
    """The formulas read the tables: ties hit under attack.hit_requires_higher = false (§5.2),
    a margin of 3 adds int(3 x 1.5) = 4 half points, not 1 (aom316); a Punch of +1½ (numbers)."""
    base, ties, numbers = RULE_SETS["shipped"], RULE_SETS["ties_hit"], RULE_SETS["numbers"]
    assert not fm.hits(base, 10, 10, None) and fm.hits(ties, 10, 10, None)
    assert dict(fm.damage_extra(base, "Punch", 3, "Chest"))["margin"] == 1
    assert dict(fm.damage_extra(ties, "Punch", 3, "Chest"))["margin"] == 4
    assert dict(fm.damage_extra(ties, "Punch", -3, "Chest"))["margin"] == -4
    assert dict(fm.damage_extra(numbers, "Punch", 0, "Chest"))["rating"] == 5
    assert fm.defence_bonus(numbers, "Drop Dodge", "Kick", None) == 3


def test_the_state_forms_are_sums_of_their_terms_in_fights() -> None:
    """At every decision of seeded random fights (armed, mounted and unarmed presets): the
    attack's total is the sum of its terms and carries its §1.8 modifiers (the nonzero ones,
    in order); the defence's too, with the reaction's own bonus (aom315)."""
    rng = random.Random(7)
    seen = 0
    for k, pair in enumerate([("chu", "urlik"), ("guard", "spearman"), ("rider", "boris")]):
        s = Game.create(list(pair)).new_state(k)
        while not s.is_over:
            x = s.decision.fighter
            m = rng.choice(list(s.t.maneuvers))
            loc = rng.choice([None, *s.t.locations])
            total, terms = fm.attack_basic(s, x, 1 - x, m, loc)
            mods = [tv for tv in fm.attack_modifiers(s, x, 1 - x, m, loc) if tv[1]]
            assert total == sum(v for _, v in terms) and [tv for tv in terms if tv in mods] == mods
            r = rng.choice([None, *(n for n, v in s.t.maneuvers.items() if v.category in REACTIONS)])
            total, terms = fm.defence_basic(s, 1 - x, x, r, m, loc)
            assert total == sum(v for _, v in terms)
            bonus = fm.defence_bonus(s.t, r, m, loc) if r is not None else 0
            assert r is None or not bonus or (r, bonus) in terms
            seen += 1
            s.apply(rng.choice(s.legal_choices()))
    assert seen > 50


# ---------------------------------------------------------------- the bench's chain
def test_the_cores_hit_chain_is_the_apis() -> None:
    """scripts/bench_core_formulas.py times one hit's arithmetic inside the core
    (``time_hits``) against the same chain through formulas.py: the checksums agree."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).parents[2] / "scripts" / "bench_core_formulas.py"
    spec = importlib.util.spec_from_file_location("bench_core_formulas", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    t = RULE_SETS["numbers"]
    x, y = PROFILES["numbers"][1], PROFILES["numbers"][6]
    ct = to_core.compile_tables(t)
    core = _core.formulas.time_hits(ct, to_core.compile_profile(ct, x), to_core.compile_profile(ct, y),
                                    list(t.maneuvers).index("Martial Strike"), 300)[1]
    assert bench.api_chain(t, x, y, "Martial Strike", 300)[1] == core


# ---------------------------------------------------------------- the boundary
def test_bad_input_is_one_clear_python_error() -> None:
    """Unknown ids and names, out-of-range locations, negative counts, too many terms:
    ValueError with the argument and what is allowed, never a crash (the core trusts ids
    past the boundary)."""
    t = RULE_SETS["shipped"]
    ct = to_core.compile_tables(t)
    cp = to_core.compile_profile(ct, PROFILES["shipped"][0])
    f = _core.formulas
    cases = [
        (lambda: f.aim_attack(ct, 12), r"location: id 12: allowed 0..11"),
        (lambda: f.aim_attack(ct, -1), r"location: id -1: allowed 0..11"),
        (lambda: f.defence_bonus(ct, 33, -1, -1), r"maneuver: id 33: allowed 0..32"),
        (lambda: f.pain_extra(ct, 3, 0, 0), r"damage type: id 3: allowed 0..2"),
        (lambda: f.pain_extra(ct, 0, 0, 7), r"wound level: id 7: allowed 0..6"),
        (lambda: f.basic(ct, cp, 99, -1), r"skill: id 99: allowed 0..10 or -1"),
        (lambda: f.basic(ct, cp, -1, -1, [-1]), r"specialism: id -1"),
        (lambda: f.basic(ct, cp, -1, -1, [], [("x", 1)] * 13), r"extra: 13 terms: allowed at most 12"),
        (lambda: f.roll_result(0, -1, 0, 6), r"n: value -1: allowed 0..1000000"),
        (lambda: f.damage_type(ct, 4, -1), r"option: value -1: allowed 0.."),
        (lambda: f.damage_type(ct, 0, 0), r"maneuver Move: no damage types"),
        (lambda: f.spec_basic_of(ct, cp, 7), r"roll: id 7: allowed 0..6"),
        (lambda: f.wound_level(ct, 2**30), r"diff: value 1073741824: allowed"),
        (lambda: fm.damage_extra(t, "Punch", 0, "Tail"), r"location 'Tail': unknown"),
        (lambda: fm.pain_extra(t, "Fire", "Head", 1), r"damage type 'Fire': unknown"),
        (lambda: fm.spec_basic_of(t, PROFILES["shipped"][0], t.data.break_hold.methods["technique"]),
         r"not one of the rolls the rules data describes"),
        (lambda: fm.knockback_band(t.data.knockback, 2**30), r"fail: value 1073741824"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()
    with pytest.raises(TypeError):
        f.aim_attack(ct, "Head")
    fight = Game.create(["chu", "urlik"]).new_state(0)._core
    for call, message in [
            (lambda: f.attack_basic(fight, 0, 1, 99, -1), r"maneuver: id 99"),
            (lambda: f.attack_basic(fight, 0, 1, 4, 12), r"location: id 12"),
            (lambda: f.defence_basic(fight, 2, 0, -1, -1, -1), r"y: id 2: allowed 0..1"),
            (lambda: f.attack_modifiers(fight, 0, 0, 4, -1), r"the same fighter 0"),
            (lambda: f.break_hold_basics(fight, 0, 1, 9, 0, 0), r"hold kind: id 9"),
            (lambda: f.break_hold_basics(fight, 0, 1, 0, 0, -1), r"method: id -1")]:
        with pytest.raises(ValueError, match=message):
            call()

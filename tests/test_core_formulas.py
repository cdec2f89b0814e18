"""The native core's state-free formulas (layer 2) give the Python formulas' values, terms
and labels (envs/rules/formulas.py; RULES §1.3, §1.8-§1.17, aom315, aom316, aom1d31,
aom1d34, aom322d): differential, with hypothesis, for every preset fighter (and sheets
varied from them), maneuver, location, damage type, margin, penalty, wound level, AP and
result, under the shipped rules and two variants (tests/test_core_tables.py VARIANTS)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import _core, native
from hexdojo.envs.rules import formulas as F
from hexdojo.envs.rules.fighter import load_profile
from tests.test_core_tables import PRESETS, RULE_SETS

SETS = list(RULE_SETS)
PROFILES = {k: [load_profile(n, t.data) for n in PRESETS] for k, t in RULE_SETS.items()}
EXAMPLES = settings(max_examples=150, deadline=None)
RESULTS = range(-20, 61)  # half points: margins, differences, roll results


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
        specs={s: draw(st.integers(0, 6)) for s in native.compile_tables(t).specialisms},
        pv={loc: draw(st.integers(0, 24)) for loc in t.locations})


@st.composite
def fighter_case(draw):
    key = draw(st.sampled_from(SETS))
    return key, RULE_SETS[key], draw(sheets(key))


def _pen(draw) -> int:
    return draw(st.sampled_from([0, -2, -6]) | st.integers(-12, 0))


@EXAMPLES
@given(case=fighter_case(), data=st.data())
def test_basic_totals_and_terms(case, data) -> None:
    """§1.3, §1.8: skill + specialisms + characteristic + encumbrance (x2 with Martial Arts,
    §1.16) + helmet (§1.4 aom312) + extra + worst wound (§1.14) + stagger/stun (§1.12), the
    zero terms left out, in Python's order and with its labels."""
    _, t, p = case
    d = t.data
    skill = data.draw(st.sampled_from([None, *d.skills]))
    char = data.draw(st.sampled_from([None, *d.characteristics]))
    specs = data.draw(st.lists(st.sampled_from(native.compile_tables(t).specialisms), max_size=3))
    extra = data.draw(st.lists(st.tuples(st.sampled_from(["Punch", "aim Head", "rear", "bonus"]),
                                         st.integers(-6, 6)), max_size=5))
    worst = data.draw(st.integers(0, t.fatal))
    pen = _pen(data.draw)
    status = data.draw(st.sampled_from(["", "stunned", "staggered"]))
    args = (skill, char, specs, extra, worst, pen, status)
    assert native.basic(t, p, *args) == F.basic(t, p, *args)


@pytest.mark.parametrize("key", SETS)
def test_encumbrance_and_helmet_terms_for_every_modifier(key: str) -> None:
    """§1.16 aom1d1: the encumbrance modifier on every CO roll, x martial_arts_multiplier with
    Martial Arts (int(), so truncated toward zero: -1 x 1.5 is -1); §1.4 aom312: the helmet on
    PE rolls. Every skill and characteristic, modifiers -12..5 half points."""
    t = RULE_SETS[key]
    d = t.data
    base = PROFILES[key][0]
    for enc in range(-12, 6):
        p = dataclasses.replace(base, enc_mod=enc, helmet_mod=enc // 3)
        for skill in [None, *d.skills]:
            for char in d.characteristics:
                assert native.basic(t, p, skill, char) == F.basic(t, p, skill, char), (enc, skill)


def _rolls(d):
    return {"ap": d.turn.ap, "initiative": d.turn.initiative, "soak": d.soak.roll,
            "pain": d.pain.roll, "knockback": d.knockback.roll,
            "default_defence": d.attack.default_defence, "stay_mounted": d.mounted.stay_mounted}


@EXAMPLES
@given(case=fighter_case(), roll=st.sampled_from(list(_core.ROLLS)), data=st.data())
def test_spec_basic_of_every_roll_the_data_describes(case, roll, data) -> None:
    """The AP (§1.5 aom313), initiative (§1.4 aom312), soak (§1.11), pain (§1.12), knock-back
    (§1.13), default defence (§1.8 aom315) and stay-mounted (aom347) rolls, with their bonus."""
    _, t, p = case
    pen = _pen(data.draw)
    extra = data.draw(st.lists(st.tuples(st.just("x"), st.integers(-4, 4)), max_size=2))
    spec = _rolls(t.data)[roll]
    assert native.spec_basic_of(t, p, roll, pen, extra) == F.spec_basic_of(t, p, spec, pen, extra)
    assert native.soak_basic_of(t, p, pen) == F.soak_basic_of(t, p, pen)


@EXAMPLES
@given(case=fighter_case(), data=st.data())
def test_damage_terms_and_basic_value(case, data) -> None:
    """aom316: rating (a weapon mode's when given), margin x attack.margin_damage_per_point
    (truncated as int() truncates, negative margins too), location; + ST and the condition."""
    _, t, p = case
    m = data.draw(st.sampled_from(list(t.maneuvers)))
    margin = data.draw(st.integers(-20, 40))
    loc = data.draw(st.sampled_from(t.locations))
    use_margin = data.draw(st.booleans())
    rating = data.draw(st.none() | st.integers(-4, 20))
    pen = _pen(data.draw)
    assert native.damage_extra(t, m, margin, loc, use_margin, rating) == F.damage_extra(
        t, m, margin, loc, use_margin, rating)
    assert native.damage_basic_of(t, p, pen, m, margin, loc, use_margin, rating) == \
        F.damage_basic_of(t, p, pen, m, margin, loc, use_margin, rating)


@EXAMPLES
@given(case=fighter_case(), data=st.data())
def test_pain_and_knockback_rolls(case, data) -> None:
    """§1.12 aom1d31: damage type, location, the new wound's level; §1.13 aom1d34: damage type
    and location (a rider's column, Riding in the saddle)."""
    key, t, p = case
    dtype = data.draw(st.sampled_from(list(t.data.damage_types)))
    loc = data.draw(st.sampled_from(t.locations))
    level = data.draw(st.integers(0, t.fatal))
    mounted = data.draw(st.booleans())
    pen = _pen(data.draw)
    assert native.pain_basic_of(t, p, pen, dtype, loc, level) == F.pain_basic_of(
        t, p, pen, dtype, loc, level)
    assert native.knockback_basic_of(t, p, pen, dtype, loc, mounted) == F.knockback_basic_of(
        t, p, pen, dtype, loc, mounted)


@EXAMPLES
@given(case=fighter_case(), data=st.data())
def test_resistance_and_self_injury(case, data) -> None:
    """aom316: DR = ST + PV at the location; §1.17: striking armour hurts (None where the
    location is unarmoured and self_injury.requires_armour)."""
    key, t, p = case
    target = data.draw(sheets(key))
    m = data.draw(st.sampled_from(list(t.maneuvers)))
    loc = data.draw(st.sampled_from(t.locations))
    assert native.damage_resistance(t, target, loc) == F.damage_resistance(t, target, loc)
    assert native.self_injury_basic(t, p, target, m, loc) == F.self_injury_basic(t, p, target, m, loc)


@pytest.mark.parametrize("key", SETS)
def test_every_terms_table_exhaustively(key: str) -> None:
    """pain_extra (§1.12) and knockback_extra (§1.13) for every damage type, location, wound
    level and seat: the labels the event log shows ("location Head", "Light", "Blunt")."""
    t = RULE_SETS[key]
    for dtype in t.data.damage_types:
        for loc in t.locations:
            for level in range(t.fatal + 1):
                assert native.pain_extra(t, dtype, loc, level) == F.pain_extra(t, dtype, loc, level)
            for mounted in (False, True):
                assert native.knockback_extra(t, dtype, loc, mounted) == F.knockback_extra(
                    t, dtype, loc, mounted)
    for mounted in (False, True):
        assert native.knockback_skill(t, mounted) == F.knockback_skill(t, mounted)


@pytest.mark.parametrize("key", SETS)
def test_bands_over_every_result(key: str) -> None:
    """§1.10 wound table, §1.11 soak levels (aom314c), §1.12 pain bands (§5.19), §1.13
    knock-back bands (aom1d34, §5.20), §1.3 roll result, for every result -20..60."""
    t = RULE_SETS[key]
    for v in RESULTS:
        assert native.wound_level(t, v) == F.wound_level(t, v)
        assert native.soak_levels(t, v) == F.soak_levels(t, v)
        assert native.pain_effect(t, v) == F.pain_effect(t, v)
        assert native.knockback_band(t, v) == F.knockback_band(t.data.knockback, v)
        assert _core.formulas.band(v, list(t.wound_bounds)) == F.band(v, t.wound_bounds)
        for n in range(t.max_risk + 1):
            assert _core.formulas.roll_result(v, n, 3 * n, t.per_die_h) == F.roll_result(
                v, n, 3 * n, t.per_die_h)


@pytest.mark.parametrize("key", SETS)
def test_soak_and_penalty_for_every_level_and_ap(key: str) -> None:
    """§1.11: a wound from an attack or a lock is soaked with the Soak maneuver's AP, never a
    self-inflicted one; §1.14 + §1.12: the condition's penalty."""
    t = RULE_SETS[key]
    for level in range(t.fatal + 1):
        for ap in range(0, 9):
            for kind in ("attack", "lock", "self"):
                assert native.can_soak(t, level, ap, kind) == F.can_soak(t, level, ap, kind)
        for pen in (0, -2, -6):
            assert native.penalty(t, level, pen) == F.penalty(t, level, pen)


@pytest.mark.parametrize("key", SETS)
def test_defence_bonus_for_every_reaction_attack_and_aim(key: str) -> None:
    """aom315 table: each reaction's bonus against every attack (None: no attack named) and
    aim (None: unaimed, the default aim): Drop Dodge by maneuver or aim (§5.11), Forearm
    Block reduced against weapons (§5.12); the hit threshold (aom3226 Leg Grab, §5.2)."""
    t = RULE_SETS[key]
    names = list(t.maneuvers)
    for r in names:
        for a in [None, *names]:
            for loc in [None, *t.locations]:
                assert native.defence_bonus(t, r, a, loc) == F.defence_bonus(t, r, a, loc), (r, a, loc)
    for r in [None, *names]:
        assert native.hit_threshold(t, r) == F.hit_threshold(t, r)
        for diff in (-1, 0, 1):
            assert native.hits(t, 10 + diff, 10, r) == F.hits(t, 10 + diff, 10, r)
    for loc in t.locations:
        assert native.aim_attack(t, loc) == F.aim_attack(t, loc)


@pytest.mark.parametrize("key", SETS)
def test_damage_type_for_every_option(key: str) -> None:
    """aom3221: the striker's choice among the maneuver's damage types (the last one beyond)."""
    t = RULE_SETS[key]
    for m, spec in t.maneuvers.items():
        for option in range(5) if spec.damage_types else ():
            assert native.damage_type(t, m, option) == F.damage_type(t, m, option)


def test_opposed_outcomes() -> None:
    """§1.6: simultaneous attacks land when at least the other (both on a tie); aom322d: a
    Break Hold needs more than the holder."""
    for a in range(-3, 4):
        for b in range(-3, 4):
            assert _core.formulas.counter_hits(a, b) == F.counter_hits(a, b)
            assert _core.formulas.break_succeeds(a, b) == F.break_succeeds(a, b)


def test_a_variant_changes_what_the_core_computes() -> None:
    """The formulas read the tables: ties hit under attack.hit_requires_higher = false (§5.2),
    a margin of 3 adds int(3 x 1.5) = 4 half points, not 1 (aom316)."""
    base, ties = RULE_SETS["shipped"], RULE_SETS["ties_hit"]
    assert not native.hits(base, 10, 10, None) and native.hits(ties, 10, 10, None)
    assert dict(native.damage_extra(base, "Punch", 3, "Chest"))["margin"] == 1
    assert dict(native.damage_extra(ties, "Punch", 3, "Chest"))["margin"] == 4
    assert dict(native.damage_extra(ties, "Punch", -3, "Chest"))["margin"] == -4


def test_bad_input_is_one_clear_python_error() -> None:
    """Unknown ids, out-of-range locations, negative counts, too many terms: ValueError with
    the argument and what is allowed, never a crash (the core trusts ids past the boundary)."""
    t = RULE_SETS["shipped"]
    ct = native.compile_tables(t)
    cp = native.compile_profile(ct, PROFILES["shipped"][0])
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
        (lambda: native.damage_extra(t, "Punch", 0, "Tail"), r"location 'Tail': unknown"),
        (lambda: native.spec_basic_of(t, PROFILES["shipped"][0], "luck"), r"roll 'luck': unknown"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()
    with pytest.raises(TypeError):
        f.aim_attack(ct, "Head")

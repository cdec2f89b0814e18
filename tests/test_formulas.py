"""The rules formulas (envs/rules/formulas.py, issue 16): hand-computed small cases citing
the rule, the two shapes of a formula agreeing, and no formula outside the module.

All values are half points (``tables.h2``): 1 point = 2. The test fighter ``T`` has ST 2,
CO 1, WP 1; Combat 3, Martial Arts 4, Athletics 2, Riding 1; specialisms Martial Strike 1,
Toughness 1/2, Acrobatics 1; "light" encumbrance (+1 on CO rolls, §1.16); PV 2 at the
Head only.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hexdojo.envs.rules import Game, load_tables
from hexdojo.envs.rules import formulas as fm
from hexdojo.envs.rules.fighter import load_profile

ROOT = Path(__file__).parent.parent

T_SHEET = {
    "name": "T", "encumbrance": "light", "creation_limits": False,
    "characteristics": {"ST": 2, "CO": 1, "PE": 0, "WP": 1},
    "skills": {"Combat": 3, "Martial Arts": 4, "Athletics": 2, "Riding": 1},
    "specialisms": {"Martial Strike": 1, "Toughness": 0.5, "Acrobatics": 1},
    "armour": {"body": 0, "helmet": 0, "locations": {"Head": 2}},
}


@pytest.fixture(scope="module")
def t():
    return load_tables()


@pytest.fixture(scope="module")
def p(t):
    return load_profile(dict(T_SHEET), t.data)


def test_roll_result_par_1_3():
    """§1.3: basic 5 (10), two dice summing 7, 3 points (6) a die: 10 + 14 - 12 = 12."""
    assert fm.roll_result(10, 2, 7, 6) == 12
    assert fm.roll_result(10, 0, 0, 6) == 10  # no dice risked: the basic value


def test_basic_doubles_encumbrance_for_martial_arts_par_1_16(t, p):
    """Martial Strike: MA 4 + specialism 1 + CO 1 + light encumbrance 1 doubled (aom1d1,
    §1.16) = 8 points; Combat + CO takes the encumbrance once: 3 + 1 + 1 = 5."""
    total, terms = fm.basic(t, p, "Martial Arts", "CO", ["Martial Strike"])
    assert total == 16
    assert terms == [("Martial Arts", 8), ("specialism", 2), ("CO", 2), ("encumbrance", 4)]
    assert fm.basic(t, p, "Combat", "CO")[0] == 10


def test_basic_adds_wounds_and_stun_last_par_1_12_par_1_14(t, p):
    """A Light wound (-1, aom1d32) and a stun (-3, §1.12) come last, named."""
    total, terms = fm.basic(t, p, "Combat", "CO", worst=2, pen=-6, status="stunned")
    assert total == 10 - 2 - 6
    assert terms[-2:] == [("wounds", -2), ("stunned", -6)]
    assert fm.penalty(t, 2, -6) == -8


def test_hit_threshold_and_ties_aom315_aom3226_par_5_2():
    """Ties hit the default defence (aom315) and a dodge, not a Leg Grab (the grabber wins
    ties, aom3226); with attack.hit_requires_higher (§5.2 PROPOSED, the shipped reading)
    no tie hits."""
    t = load_tables({"attack": {"hit_requires_higher": False}})
    assert fm.hit_threshold(t, None) == 0 and fm.hit_threshold(t, "Jump back dodge") == 0
    assert fm.hit_threshold(t, "Leg Grab") == 1
    assert fm.hits(t, 10, 10, None) and fm.hits(t, 10, 10, "Forearm Block")
    assert not fm.hits(t, 10, 10, "Leg Grab") and fm.hits(t, 11, 10, "Leg Grab")
    strict = load_tables()
    assert strict.data.attack.hit_requires_higher
    assert fm.hit_threshold(strict, None) == 1 and not fm.hits(strict, 10, 10, None)
    assert fm.hit_threshold(strict, "Leg Grab") == 1  # not 2: one rule, not two stacked


def test_counter_and_break_hold_ties_par_1_6_aom322d():
    assert fm.counter_hits(10, 10) and fm.counter_hits(11, 10) and not fm.counter_hits(9, 10)
    assert not fm.break_succeeds(10, 10) and fm.break_succeeds(11, 10)  # must score higher


def test_damage_basic_and_resistance_aom316(t, p):
    """Martial Strike at the Head by a margin of 2½: ST 2 + rating 5 + half the margin
    (1¼, floored to 1) + Head 2 = 10 points; DR at the Head: ST 2 + PV 2 = 4."""
    assert fm.damage_extra(t, "Martial Strike", 5, "Head") == [
        ("rating", 10), ("margin", 2), ("location Head", 4)]
    assert fm.damage_basic_of(t, p, 0, "Martial Strike", 5, "Head") == 20
    assert fm.damage_basic_of(t, p, -2, "Martial Strike", 5, "Head", use_margin=False) == 16
    assert fm.damage_resistance(t, p, "Head") == 8 and fm.damage_resistance(t, p, "Chest") == 4
    assert fm.damage_type(t, "Martial Strike", 1) == "Impaling"  # the striker's choice (aom3221)
    assert fm.damage_type(t, "Punch", 1) == "Blunt"  # one type only


@pytest.mark.parametrize(("diff", "level"), [(-4, 0), (0, 0), (1, 1), (6, 1), (7, 2),
                                             (18, 3), (30, 5), (31, 6)])
def test_wound_level_table_par_1_10(t, diff, level):
    """§1.10 aom316: None up to 0, Scratch up to 3, Light up to 6 ... above 15 Fatal."""
    assert fm.wound_level(t, diff) == level


@pytest.mark.parametrize(("result", "levels"), [(-2, 0), (0, 0), (1, 1), (10, 1), (11, 2),
                                                (50, 5), (51, 6)])
def test_soak_table_aom314c(t, result, levels):
    """§1.11 aom314c: up to 0 removes nothing, up to 5 one level, ... above 25 six."""
    assert fm.soak_levels(t, result) == levels


def test_soak_basic_and_when_par_1_11(t, p):
    """Soak: Combat 3 + ST 2 (specialisms Soak/Soaking 0) = 5; impaired by the condition."""
    assert fm.spec_basic_of(t, p, t.data.soak.roll) == 10
    assert fm.spec_basic_of(t, p, t.data.soak.roll, -2) == 8
    assert fm.soak_basic_of(t, p, -2) == 8
    soak_ap = t.maneuvers[t.soak].ap
    assert fm.can_soak(t, 1, soak_ap) and not fm.can_soak(t, 1, soak_ap - 1)
    assert not fm.can_soak(t, 0, 9) and not fm.can_soak(t, 3, 9, "self")


@pytest.mark.parametrize(("result", "effect"), [(-3, "unconscious"), (0, "unconscious"),
                                                (1, "stunned"), (7, "stunned"),
                                                (8, "staggered"), (13, "staggered"),
                                                (14, "none")])
def test_pain_bands_par_1_12_par_5_19(t, result, effect):
    """§1.12 aom1d31, §5.19 PROPOSED: 0 or less unconscious, below 4 stunned, below 7
    staggered."""
    assert fm.pain_effect(t, result) == effect


def test_pain_basic_aom1d31(t, p):
    """A Light wound from a Blunt blow to the Head: Combat 3 + Toughness ½ + WP 1, Blunt -2,
    Head -3, Light +3 = 2½."""
    assert fm.pain_extra(t, "Blunt", "Head", 2) == [("Blunt", -4), ("location Head", -6),
                                                    ("Light", 6)]
    assert fm.pain_basic_of(t, p, 0, "Blunt", "Head", 2) == 5


def test_knockback_basic_on_foot_and_mounted_aom1d34(t, p):
    """Athletics 2 + Acrobatics 1 + ST 2, Blunt -2, Leg -2 on foot = 1; in the saddle
    Riding 1 replaces Athletics and the Leg counts 0 = 2."""
    assert fm.knockback_basic_of(t, p, 0, "Blunt", "L Leg") == 2
    assert fm.knockback_skill(t, True) == "Riding"
    assert fm.knockback_basic_of(t, p, 0, "Blunt", "L Leg", mounted=True) == 4


@pytest.mark.parametrize(("fail", "band"), [(0, ("none", 0, False)), (6, ("off balance", 1, False)),
                                            (7, ("knocked back", 2, False)),
                                            (13, ("knocked back", 2, False)),
                                            (14, ("knocked over", 2, True))])
def test_knockback_band_aom1d34_par_5_20(t, fail, band):
    """Fail by up to 3: -1 AP; by more: back a hex, -2 AP; by 7 or more also over."""
    assert fm.knockback_band(t.data.knockback, fail) == band


def test_self_injury_par_1_17(t, p):
    """§1.17: a Punch on T's armoured Head: DR 4 - Combat 3 = 1; a Head Butt +2 = 3; on the
    unarmoured Chest nothing (self_injury.requires_armour)."""
    assert fm.self_injury_basic(t, p, p, "Punch", "Head") == 2
    assert fm.self_injury_basic(t, p, p, "Head Butt", "Head") == 6
    assert fm.self_injury_basic(t, p, p, "Punch", "Chest") is None


def test_defence_bonus_aom315(t):
    """The Forearm Block's bonus against unarmed attacks is the data's (+2)."""
    assert fm.defence_bonus(t, "Forearm Block", "Punch", "Chest") == 4


def test_the_state_forms_equal_the_sheet_forms(t):
    """What the engine rolls on (``State.basic`` and friends) equals what the agents
    estimate with (``*_basic_of`` + ``penalty``), for a wounded, staggered fighter."""
    game = Game.create([dict(T_SHEET), "chu"])
    s = game.new_state(1, scenario={"fighters": [{"pos": [0, 0], "wounds": [["Chest", "Medium"]],
                                                  "status": "staggered", "ap": 6}, {"pos": [1, 0]}],
                                    "phase": 0})
    f = s.fighters[0]
    pen = fm.penalty(s.t, f.worst, f.pen)
    assert pen == -4 - 2
    assert s.spec_basic(0, s.t.data.soak.roll)[0] == fm.spec_basic_of(s.t, f.p, s.t.data.soak.roll, pen)
    extra = fm.pain_extra(s.t, "Blunt", "Head", 2)
    assert s.spec_basic(0, s.t.data.pain.roll, extra)[0] == fm.pain_basic_of(
        s.t, f.p, pen, "Blunt", "Head", 2)
    dmg = fm.damage_extra(s.t, "Martial Strike", 5, "Head")
    assert s.basic(0, None, s.t.data.damage.characteristic, (), dmg)[0] == fm.damage_basic_of(
        s.t, f.p, pen, "Martial Strike", 5, "Head")
    kb = s.t.data.knockback
    assert s.basic(0, kb.roll.skill, kb.roll.characteristic, kb.roll.specialisms,
                   fm.knockback_extra(s.t, "Blunt", "L Leg", False))[0] == fm.knockback_basic_of(
        s.t, f.p, pen, "Blunt", "L Leg")


# ------------------------------------------------------------------ no formula elsewhere
#: attributes only a rules formula reads: the roll tables and the sheet's numbers. An agent
#: that reads one is re-deriving a rule (ask envs/rules/formulas.py instead).
RULE_NUMBERS = frozenset({
    "impairment", "wound_bounds", "soak_bounds", "wound_pain", "margin_damage_per_point",
    "martial_arts_multiplier", "enc_mod", "helmet_mod", "pv", "unconscious_at_most",
    "stunned_below", "staggered_below", "break_attempt_bonus", "break_holder_bonus",
    "hit_requires_higher", "off_balance_max_fail", "knocked_over_min_fail",
    "knocked_back_ap_loss", "off_balance_ap_loss", "self_injury_extra", "held_attack_mod",
    "holder_attack_bonus", "holder_other_mod", "rear_bonus", "bonus_vs_unarmed", "by_aim",
    "by_maneuver", "defence_bonus", "attack_mod", "stun_penalty", "stagger_penalty", "chars",
    "skills", "specs", "spec_total", "char",
})


def formula_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """Reads of rule numbers (not through the formulas module), ``x.aim[...]`` (the aim
    table) and home-made half-point converters (``def h2``) in a module's syntax tree."""
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and n.attr in RULE_NUMBERS and not (
                isinstance(n.value, ast.Name) and n.value.id in ("fm", "formulas")):
            out.append((n.lineno, ast.unparse(n)))
        elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Attribute) \
                and n.value.attr == "aim":
            out.append((n.lineno, ast.unparse(n)))
        elif isinstance(n, ast.FunctionDef) and n.name == "h2":
            out.append((n.lineno, "def h2"))
    return out


def test_no_rules_formula_in_the_agents():
    bad = [f"{p.relative_to(ROOT)}:{line} {what}" for p in sorted((ROOT / "agents").rglob("*.py"))
           for line, what in formula_reads(ast.parse(p.read_text(encoding="utf-8")))]
    assert not bad, "a rules formula outside envs/rules/formulas.py: " + "; ".join(bad)


def test_the_check_sees_a_copied_formula():
    """The copies that lived in agents/heuristics.py before issue 16 are caught."""
    old = ("def h2(x):\n    return int(round(x * 2))\n"
           "def f(t, p, yp, loc):\n"
           "    b = p.char('ST') + t.aim[t.loc_aim[loc]].damage\n"
           "    return b - yp.pv[loc] + t.impairment[0]\n")
    found = {what for _, what in formula_reads(ast.parse(old))}
    assert {"def h2", "p.char", "t.aim[t.loc_aim[loc]]", "yp.pv", "t.impairment"} <= found
    assert not formula_reads(ast.parse("x = fm.defence_bonus(t, 'Leg Grab', None, None)"))

"""The rules formulas (envs/rules/formulas.py, issue 16; computed by the native core since
issue 15): hand-computed small cases citing the rule, the two shapes of a formula agreeing,
and no formula outside the core (not in the agents, not in formulas.py, its Python face).

All values are half points (``tables.h2``): 1 point = 2. The test fighter ``T`` has ST 2,
CO 1, WP 1; Combat 3, Martial Arts 4, Athletics 2, Riding 1; specialisms Martial Strike 1,
Toughness 1/2, Acrobatics 1; "light" encumbrance (+1 on CO rolls, §1.16); PV 2 at the
Head only.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from hexdojo.envs.rules import Game, Hold, load_tables
from hexdojo.envs.rules import formulas as fm
from hexdojo.envs.rules.fighter import load_profile

ROOT = Path(__file__).parents[2]

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
    soak_ap = t.maneuvers["Soak"].ap
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
    """What the engine rolls on (``fighter_basic``: the fighter as he stands, read from the
    core's fight) equals what a hypothetical roll starts from (``*_basic_of`` + ``penalty``),
    for a wounded, staggered fighter."""
    game = Game.create([dict(T_SHEET), "chu"])
    s = game.new_state(1, scenario={"fighters": [{"pos": [0, 0], "wounds": [["Chest", "Medium"]],
                                                  "status": "staggered", "ap": 6}, {"pos": [1, 0]}],
                                    "phase": 0})
    f = s.fighters[0]
    pen = fm.penalty(s.t, f.worst, f.pen)
    assert pen == -4 - 2
    soak = s.t.data.soak.roll
    assert fm.fighter_spec_basic(s, 0, soak)[0] == fm.spec_basic_of(s.t, f.p, soak, pen)
    extra = fm.pain_extra(s.t, "Blunt", "Head", 2)
    assert fm.fighter_spec_basic(s, 0, s.t.data.pain.roll, extra)[0] == fm.pain_basic_of(
        s.t, f.p, pen, "Blunt", "Head", 2)
    dmg = fm.damage_extra(s.t, "Martial Strike", 5, "Head")
    assert fm.fighter_basic(s, 0, None, s.t.data.damage.characteristic, (), dmg)[0] == fm.damage_basic_of(
        s.t, f.p, pen, "Martial Strike", 5, "Head")
    kb = s.t.data.knockback
    assert fm.fighter_basic(s, 0, kb.roll.skill, kb.roll.characteristic, kb.roll.specialisms,
                            fm.knockback_extra(s.t, "Blunt", "L Leg", False))[0] == fm.knockback_basic_of(
        s.t, f.p, pen, "Blunt", "L Leg")
    total, terms = fm.fighter_basic(s, 0, "Combat", "CO", worst=0)  # before the wound impairs
    assert total == 10 - 2 and terms[-1] == ("staggered", -2) and ("wounds", -4) not in terms


def _wounded_t_behind_chu():
    """T (wounded Medium, staggered) stands behind chu: both face direction 0."""
    game = Game.create([dict(T_SHEET), "chu"])
    return game.new_state(1, scenario={"fighters": [
        {"pos": [0, 0], "facing": 0, "wounds": [["Chest", "Medium"]], "status": "staggered", "ap": 6},
        {"pos": [1, 0], "facing": 0}], "phase": 0})


def test_the_state_forms_attack_and_defence_par_1_8_aom315():
    """T's Martial Strike on chu from behind: MA 4 + Martial Strike 1 + CO 1 + light
    encumbrance 1 doubled (§1.16) + the maneuver's +1 + rear +2 (aom315) - Medium wound 2
    (§1.14) - staggered 1 (§1.12) = 8 points; aimed at the Head -4 more (aom317). His default
    defence: Combat 3 + CO 1 + encumbrance 1 - 3 = 2; a Forearm Block: MA 4 + CO 1 +
    encumbrance 2 + the block's +2 against an unarmed attack (aom315) - 3 = 6."""
    s = _wounded_t_behind_chu()
    assert s.arc(0, 1) in s.t.rear_arc
    total, terms = fm.attack_basic(s, 0, 1, "Martial Strike", None)
    assert total == 16 and terms == [
        ("Martial Arts", 8), ("specialism", 2), ("CO", 2), ("encumbrance", 4),
        ("Martial Strike", 2), ("rear", 4), ("wounds", -4), ("staggered", -2)]
    assert fm.attack_modifiers(s, 0, 1, "Martial Strike", "Head") == [
        ("Martial Strike", 2), ("aim Head", -8), ("rear", 4)]
    assert fm.attack_basic(s, 0, 1, "Martial Strike", "Head")[0] == 16 - 8
    assert fm.defence_basic(s, 0, 1, None, "Punch", None)[0] == 4
    total, terms = fm.defence_basic(s, 0, 1, "Forearm Block", "Punch", None)
    assert total == 12 and ("Forearm Block", 4) in terms


def test_the_state_forms_break_hold_aom322d():
    """T breaking chu's arm lock by technique after two failed attempts: MA 4 + WP 1 + 1 an
    attempt (holds.break_attempt_bonus) x 2 - 3 = 4 points; chu resists with the better of
    methods (the first of equals), + the arm lock's +2 (break_holder_bonus, aom3227)."""
    s = _wounded_t_behind_chu()
    (eb, eterms, em), (hb, hterms, hm) = fm.break_hold_basics(
        s, 0, Hold(1, 0, "arm_lock", None, 1, attempts=2), 1)
    assert (eb, em) == (8, "technique")
    assert eterms == [("Martial Arts", 8), ("WP", 2), ("earlier attempts", 4), ("wounds", -4),
                      ("staggered", -2)]
    chu, bh = s.fighters[1].p, s.t.data.break_hold
    values = {m: fm.basic(s.t, chu, bh.methods[m].skill, bh.methods[m].characteristic)[0] + 4
              for m in bh.holder_methods}
    first_best = max(bh.holder_methods, key=lambda m: values[m])
    assert (hb, hm) == (values[first_best], first_best) and ("arm_lock hold", 4) in hterms


def test_the_state_forms_refuse_bad_input():
    """One clear ValueError (the argument, what is allowed), never a crash, at the core's
    boundary: an unknown name, a fighter out of range, a fighter against himself."""
    s = _wounded_t_behind_chu()
    arm = Hold(1, 0, "arm", None, 1)
    for call, message in [
            (lambda: fm.attack_basic(s, 0, 1, "Fireball", None), "maneuver 'Fireball': unknown"),
            (lambda: fm.attack_basic(s, 0, 5, "Punch", None), r"y: id 5: allowed 0..1"),
            (lambda: fm.attack_basic(s, 1, 1, "Punch", None), "the same fighter 1"),
            (lambda: fm.attack_basic(s, 0, 1, "Punch", None, -1), r"option: value -1"),
            (lambda: fm.defence_basic(s, 1, 0, None, "Punch", "Tail"), "location 'Tail': unknown"),
            (lambda: fm.break_hold_basics(s, 0, arm, 7), r"method: id 7: allowed 0..2"),
            (lambda: fm.break_hold_basics(s, 0, arm._replace(attempts=-1), 0), "attempts"),
            (lambda: fm.fighter_basic(s, 3, "Combat", "CO"), r"i: id 3: allowed 0..1"),
            (lambda: fm.fighter_basic(s, 0, "Combat", "CO", extra=[("x", 1)] * 9), "extra: 9 terms"),
            (lambda: fm.fighter_basic(s, 0, "Combat", "CO", worst=9), r"wound level: id 9"),
            (lambda: fm.fighter_spec_basic(s, 0, s.t.data.break_hold.methods["technique"]),
             "not one of the rolls the rules data describes")]:
        with pytest.raises(ValueError, match=message):
            call()


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
                isinstance(n.value, ast.Name) and n.value.id in ("fm", "formulas", "_F")):
            out.append((n.lineno, ast.unparse(n)))
        elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Attribute) \
                and n.value.attr == "aim":
            out.append((n.lineno, ast.unparse(n)))
        elif isinstance(n, ast.FunctionDef) and n.name == "h2":
            out.append((n.lineno, "def h2"))
    return out


NUMBER_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow)


def arithmetic(tree: ast.AST) -> list[tuple[int, str]]:
    """Sums, products, differences, quotients and ordering comparisons in a syntax tree (a
    list's concatenation excepted): what a formula computes with."""
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.AugAssign) or (isinstance(n, ast.Compare) and any(
                isinstance(o, (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) for o in n.ops)):
            out.append((n.lineno, ast.unparse(n)))
        elif isinstance(n, ast.BinOp) and isinstance(n.op, NUMBER_OPS) and not (
                isinstance(n.op, ast.Add) and any(
                isinstance(v, ast.List) or (isinstance(v, ast.Call) and ast.unparse(v.func) == "list")
                for v in (n.left, n.right))):
            out.append((n.lineno, ast.unparse(n)))
    return out


def test_no_rules_formula_in_the_agents():
    bad = [f"{p.relative_to(ROOT)}:{line} {what}" for p in sorted((ROOT / "agents").rglob("*.py"))
           for line, what in formula_reads(ast.parse(p.read_text(encoding="utf-8")))]
    assert not bad, "a rules formula outside the core (ask envs/rules/formulas.py): " + "; ".join(bad)


def test_formulas_py_computes_nothing_itself():
    """formulas.py is the core's Python face (issue 15, "Each rule once"): it reads no rule
    number and does no arithmetic; every value comes from ``_core.formulas``."""
    tree = ast.parse((ROOT / "envs" / "rules" / "formulas.py").read_text(encoding="utf-8"))
    bad = formula_reads(tree) + arithmetic(tree)
    assert not bad, "a rules formula copied into formulas.py: " + "; ".join(f"{n} {w}" for n, w in bad)
    calls = {ast.unparse(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert {"_F.attack_basic", "_F.defence_basic", "_F.knockback_band", "_F.wound_level"} <= calls


def test_the_check_sees_a_copied_formula():
    """The copies that lived in agents/heuristics.py before issue 16 are caught, and so is
    formulas.py's own Python knock-back band from before issue 15."""
    old = ("def h2(x):\n    return int(round(x * 2))\n"
           "def f(t, p, yp, loc):\n"
           "    b = p.char('ST') + t.aim[t.loc_aim[loc]].damage\n"
           "    return b - yp.pv[loc] + t.impairment[0]\n")
    found = {what for _, what in formula_reads(ast.parse(old))}
    assert {"def h2", "p.char", "t.aim[t.loc_aim[loc]]", "yp.pv", "t.impairment"} <= found
    assert not formula_reads(ast.parse("x = fm.defence_bonus(t, 'Leg Grab', None, None)"))
    band = ("def knockback_band(kb, fail):\n"
            "    if fail <= h2(kb.off_balance_max_fail):\n"
            "        return 'off balance', kb.off_balance_ap_loss, False\n")
    assert formula_reads(ast.parse(band)) and arithmetic(ast.parse(band))
    assert arithmetic(ast.parse("total += v")) and arithmetic(ast.parse("x = 2 * s + b - per * n"))
    assert not arithmetic(ast.parse("terms = list(extra) + [('bonus', 2)]\nok = a == b"))

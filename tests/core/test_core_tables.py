"""The native core's compiled tables and profiles (layer 2) hold what the Python engine's
``Tables`` and ``Profile`` hold: every name table in the data's order, every maneuver field,
every rule number in half points (tables.h2), and the lookups tables.py derives (attack
flags, candidate lists, param domains, allowed locations aom317/aom3213, reaches, AP). Checked
on the shipped rules and on rule variants, so the core reads data, not constants; bad input
is one clear Python error, never a crash."""

from __future__ import annotations

import dataclasses

import pytest

from hexdojo.envs.rules import _core, to_core
from hexdojo.envs.rules.fighter import load_profile, preset_names
from hexdojo.envs.rules.tables import h2, load_tables

#: rule variants (override dicts) the layer-2 tests run under besides the shipped rules
VARIANTS = {
    "ties_hit": {"attack": {"hit_requires_higher": False, "margin_damage_per_point": 1.5},
                 "wounds": {"upper_bounds": [1, 2.5, 5, 8, 11, 14]}},
    "numbers": {
        "maneuvers": {"Punch": {"attack_mod": 1.5, "damage": 2.5, "ap": 3},
                      "Drop Dodge": {"bonus_by_attack": False, "defence_bonus": 1.5},
                      "Martial Strike": {"damage_types": ["Cutting", "Blunt"]}},
        "encumbrance": {"martial_arts_multiplier": 1.5},
        "soak": {"upper_bounds": [1, 4, 9, 16, 21, 30]},
        "pain": {"stunned_below": 3, "staggered_below": 8.5,
                 "roll": {"specialisms": ["Toughness"], "bonus": 1.5}},
        "knockback": {"off_balance_max_fail": 2.5, "knocked_over_min_fail": 5},
        "forearm_block": {"bonus_vs_unarmed": 1.5, "bonus_vs_melee_weapons": -3},
        "prone": {"kick_any_location": False, "stand_up_ap": 3},
        "movement": {"move_back_max": 2},
        "self_injury": {"requires_armour": False},
        "holds": {"break_attempt_bonus": 1.5},
    },
}
RULE_SETS = {"shipped": load_tables(), **{k: load_tables(v) for k, v in VARIANTS.items()}}
PRESETS = preset_names()


@pytest.fixture(params=list(RULE_SETS), scope="module")
def rules(request):
    t = RULE_SETS[request.param]
    return t, to_core.compile_tables(t)


def test_a_variant_changes_the_compiled_numbers() -> None:
    """The variants do change the data (else the tests under them would prove nothing)."""
    a, b = (to_core.compile_tables(RULE_SETS[k]) for k in ("shipped", "numbers"))
    punch = [m.name for m in a.maneuvers].index("Punch")
    assert (a.maneuvers[punch].attack_mod, b.maneuvers[punch].attack_mod) == (0, 3)
    assert a.encumbrance.martial_arts_multiplier == 4 and b.encumbrance.martial_arts_multiplier == 3
    c = to_core.compile_tables(RULE_SETS["ties_hit"])
    assert a.attack.hit_requires_higher and not c.attack.hit_requires_higher
    assert c.wounds.upper_bounds == [2, 5, 10, 16, 22, 28]


def test_name_tables_keep_the_python_order(rules) -> None:
    """Ids are indices into the Python data's order; every id table keeps the names."""
    t, ct = rules
    d = t.data
    assert [m.name for m in ct.maneuvers] == list(t.maneuvers)
    assert ct.location_names == list(t.locations)
    assert ct.aim_rows == list(d.aim)
    assert ct.damage_type_names == list(d.damage_types)
    assert ct.wounds.levels == list(t.wound_levels)
    assert ct.weapon_ids == list(t.weapon_ids)
    assert ct.hold_kind_names == list(d.holds.kinds)
    assert ct.characteristics == list(d.characteristics) and ct.skills == list(d.skills)
    assert ct.break_hold.method_names == list(d.break_hold.methods)
    assert ct.specialisms[:len(d.specialisms)] == list(d.specialisms)
    rolled = {s for m in d.maneuvers.values() for s in m.specialisms}
    assert rolled <= set(ct.specialisms)
    assert ct.id == t.id


def _name(names, i):
    return None if i == -1 else names[i]


def test_every_maneuver_field_is_the_python_one(rules) -> None:
    """Every field of ruleset.Maneuver, through the ids and h2 (§1.8, aom315, aom317)."""
    t, ct = rules
    for cm, (name, m) in zip(ct.maneuvers, t.maneuvers.items(), strict=True):
        assert cm.name == name
        assert cm.ap == m.ap and _core.CATEGORIES[cm.category] == m.category
        assert (cm.tag_a, cm.tag_r) == tuple(x in m.tags for x in "AR")  # F: t.follow_ons
        assert _name(ct.skills, cm.skill) == m.skill
        assert _name(ct.characteristics, cm.characteristic) == m.characteristic
        assert [ct.specialisms[s] for s in cm.specialisms] == m.specialisms
        assert cm.attack_mod == h2(m.attack_mod) and cm.defence_bonus == h2(m.defence_bonus)
        aim = {_core.AIM_ANY: "any", _core.AIM_WHOLE: "whole"}.get(cm.aim_kind)
        assert (aim or [ct.aim_rows[a] for a in cm.aim]) == m.aim
        assert (cm.damage if cm.has_damage else None) == (None if m.damage is None else h2(m.damage))
        assert [ct.damage_type_names[x] for x in cm.damage_types] == m.damage_types
        assert [_core.TRIGGERS[x] for x in cm.reacts_to] == m.reacts_to
        assert [ct.maneuvers[x].name for x in cm.against] == m.against
        assert _name(_core.MOVES, cm.moves) == m.moves
        assert _name(_core.BODY_PARTS, cm.self_injury) == m.self_injury
        assert _name(ct.skills, cm.self_injury_skill) == m.self_injury_skill
        assert cm.self_injury_extra == h2(m.self_injury_extra)
        assert _name(_core.LIMBS, cm.limb) == m.limb
        assert _name(ct.hold_kind_names, cm.hold) == m.hold
        assert _name(ct.hold_kind_names, cm.needs_hold) == m.needs_hold
        assert _core.MOUNTED_USES[cm.mounted] == m.mounted
        assert (cm.mounted_attack_mod if cm.has_mounted_attack_mod else None) == (
            None if m.mounted_attack_mod is None else h2(m.mounted_attack_mod))
        assert _name(_core.WEAPON_NEEDS, cm.weapon) == m.weapon
        assert cm.pages == m.pages and dict(cm.proposed) == m.proposed
        for f in ("range", "may_close", "may_advance", "any_direction", "may_turn", "counter",
                  "bonus_by_attack", "front_arc_only", "kick", "usable_when_held", "knocks_prone",
                  "no_defence", "no_knockback", "ends_hold", "unhorses", "available", "advances",
                  "armed_only"):
            assert getattr(cm, f) == getattr(m, f), (name, f)


def test_rule_numbers_are_half_points(rules) -> None:
    """Aim rows (aom317, aom1d31, aom1d34), wounds (§1.10, §1.14), soak (§1.11), dice (§1.3),
    pain (§1.12), knock-back (§1.13), as tables.py computes them."""
    t, ct = rules
    d = t.data
    for row, (k, a) in zip(ct.aim, t.aim.items(), strict=True):
        assert (row.attack, row.damage, row.pain, row.knockback) == (a.attack, a.damage, a.pain,
                                                                      a.knockback), k
        kbm = d.aim[k].knockback_mounted
        assert (row.knockback_mounted if row.has_knockback_mounted else None) == (
            None if kbm is None else h2(kbm))
    assert [ct.aim_rows[x.aim] for x in ct.locations] == [t.loc_aim[n] for n in t.locations]
    assert ct.wounds.upper_bounds == list(t.wound_bounds)
    assert ct.wounds.impairment == list(t.impairment) and ct.wounds.pain == list(t.wound_pain)
    assert ct.soak.upper_bounds == list(t.soak_bounds)
    assert (ct.dice.per_die, ct.dice.max_risk, ct.dice.die_sides) == (
        t.per_die_h, t.max_risk, d.dice.die_sides)
    assert ct.pain.stunned_below == h2(d.pain.stunned_below)
    assert ct.pain.roll.bonus == h2(d.pain.roll.bonus)
    assert ct.knockback.off_balance_max_fail == h2(d.knockback.off_balance_max_fail)
    assert ct.attack.margin_damage_per_point == h2(d.attack.margin_damage_per_point)
    assert ct.attack.rear_arc == sorted(t.rear_arc)
    assert ct.holds.break_attempt_bonus == h2(d.holds.break_attempt_bonus)
    assert [ct.damage_type_names[w.modes[0].damage_type] for w in ct.weapons if w.modes] == [
        w.modes[0].damage_type for w in d.weapons.values() if w.modes]
    assert [k.held_may for k in ct.hold_kinds] == [
        [list(t.maneuvers).index(n) for n in k.held_may] for k in d.holds.kinds.values()]


def test_derived_lookups(rules) -> None:
    """seal() derives, once: attack flags (§1.8; the Python names read them too), the soak
    maneuver (§1.11), the candidate lists of each window (tags A / R, available), the hold
    each maneuver makes (§1.18), the costliest AP (a weapon mode's included, aom3142), the
    reaches (§2.1) and the follow-on graph (§3), checked against the data by hand."""
    t, ct = rules
    d, names = t.data, list(t.maneuvers)
    ns = lambda ids: tuple(names[i] for i in ids)  # noqa: E731
    assert [bool(x) for x in ct.is_attack] == [t.is_attack(n) for n in names]
    assert ns(ct.unarmed_maneuvers) == t.unarmed_maneuvers
    assert names[ct.soak_maneuver] == "Soak"
    acts, reacts = set(ns(ct.action_maneuvers)), set(ns(ct.reaction_maneuvers))
    assert {"Martial Strike", "Move", "Grapple", "Kick"} <= acts and "Forearm Block" not in acts
    assert {"Forearm Block", "Jump back dodge", "Leg Grab", "Move"} <= reacts  # Move is A and R
    assert not {"Kick", "Grapple", "Head Butt", "Martial Throw"} & reacts  # A only, or F only
    assert "Speak" not in acts | reacts | set(ns(ct.held_action_maneuvers))  # not available
    assert acts <= set(ns(ct.held_action_maneuvers))
    held = {n for n, m in d.maneuvers.items() if m.available and m.usable_when_held}
    assert held <= set(ns(ct.held_action_maneuvers))
    assert {ct.hold_kind_names[k]: names[m] for k, m in enumerate(ct.hold_by_maneuver)
            if m != -1} == {m.hold: n for n, m in d.maneuvers.items() if m.hold}
    costs = [m.ap for m in t.maneuvers.values()] + [md.ap for w in d.weapons.values() for md in w.modes]
    assert ct.max_ap_cost == max(costs)
    assert ct.move_reach == max(1, d.movement.move_forward_max, d.movement.move_back_max)
    assert ct.attack_reach == 1 + max([1] + [w.reach for w in d.weapons.values()])
    assert (ct.max_modes, ct.fatal) == (t.max_modes, t.fatal)
    assert {names[i]: ns(f) for i, f in enumerate(ct.follow_ons) if f} == t.follow_ons


def test_param_domains_and_allowed_locations_by_hand() -> None:
    """The core derives every maneuver's parameter domain (the action catalogue) and where
    it may be aimed (aom317; a Kick anywhere at a prone target, aom3213); Python reads them
    (``to_core.param_domain``). Checked by hand against the rules data of a few maneuvers."""
    t = load_tables()
    ct = to_core.compile_tables(t)
    names = list(t.maneuvers)
    locs = lambda ids: tuple(None if i == -1 else t.locations[i] for i in ids)  # noqa: E731
    aimed = lambda *aims: tuple(loc for loc in t.locations if t.loc_aim[loc] in aims)  # noqa: E731
    mv = t.data.movement
    # Turn: the turn steps; Move: may turn, forward 1..max then back 1..max, unaimed
    assert to_core.param_domain(t, "Turn") == ((1, -1, 2, -2, 3), (None,), (0,))
    steps = (*range(1, mv.move_forward_max + 1), *(-k for k in range(1, mv.move_back_max + 1)))
    assert to_core.param_domain(t, "Move") == ((0, 1, -1), (None,), steps)
    # Kick: aimed at abdomen, groin or a leg standing; anywhere at a prone target (aom3213)
    k = names.index("Kick")
    assert locs(ct.allowed_upright[k]) == aimed("Abdomen", "Groin", "Leg")
    assert locs(ct.allowed_prone[k]) == t.locations
    assert to_core.param_domain(t, "Kick")[1] == t.locations  # the catalogue holds every aim
    # Punch: never anywhere, prone or not; Martial Strike: anywhere (aim "any")
    p = names.index("Punch")
    punch = aimed("Chest", "Abdomen", "Arm", "Head")
    assert locs(ct.allowed_upright[p]) == locs(ct.allowed_prone[p]) == punch
    assert to_core.param_domain(t, "Martial Strike")[1] == t.locations
    # a weapon attack's option is hand x mode (§2.1); Ready weapon's the weapon; Grapple unaimed
    assert to_core.param_domain(t, "Stand and attack")[2] == tuple(range(2 * t.max_modes))
    assert to_core.param_domain(t, "Ready weapon")[2] == tuple(range(len(t.weapon_ids)))
    assert to_core.param_domain(t, "Grapple")[1] == (None,)
    assert to_core.param_domain(t, "Martial Throw")[2] == tuple(mv.throw_landing)
    with pytest.raises(ValueError, match="maneuver 'Nope': unknown"):
        to_core.param_domain(t, "Nope")


@pytest.mark.parametrize("preset", PRESETS)
def test_a_compiled_profile_holds_the_sheet(rules, preset: str) -> None:
    """§1.1 characteristics, §1.2 skills and specialisms, §1.10 PV, §1.16 encumbrance,
    §1.4 helmet, §1.20 mounted, risk defaults and weapons, by id."""
    t, ct = rules
    p = load_profile(preset, t.data)
    cp = to_core.compile_profile(ct, p)
    assert cp.chars == [p.char(c) for c in t.data.characteristics]
    assert cp.skills == [p.skill(s) for s in t.data.skills]
    assert dict(zip(ct.specialisms, cp.specs, strict=True)) == {s: p.specs.get(s, 0) for s in ct.specialisms}
    assert cp.pv == [p.pv[loc] for loc in t.locations]
    assert (cp.enc_mod, cp.helmet_mod, cp.mounted, cp.height) == (
        p.enc_mod, p.helmet_mod, p.mounted, p.height)
    assert (cp.risk.ap, cp.risk.damage, cp.risk.lock_damage) == (
        p.risk.ap, p.risk.damage, p.risk.lock_damage)
    assert [None if w == -1 else ct.weapon_ids[w] for w in cp.hands] == list(p.hands)
    assert [ct.weapon_ids[w] for w in cp.sheathed] == list(p.sheathed)


def test_tables_compile_once_per_rule_set_and_stay_sealed() -> None:
    """One compile per rule set (issue 15: the core gets compiled tables once); later layers
    rely on sealed tables never changing under them."""
    t = RULE_SETS["shipped"]
    ct = to_core.compile_tables(t)
    assert to_core.compile_tables(t) is ct
    assert to_core.compile_tables(RULE_SETS["numbers"]) is not ct
    assert ct.sealed
    with pytest.raises(AttributeError, match="sealed: cannot set maneuvers"):
        ct.maneuvers = []
    with pytest.raises(ValueError, match="sealed already"):
        ct.seal()


def _filled(t):
    """A fresh, unsealed copy of t's compiled tables (every field set as compile_tables does)."""
    ct = _core.Tables()
    ids = to_core.TableIds(t)
    ct.id = t.id
    to_core._names_and_rows(ct, t, ids)
    to_core._turn_attack_body(ct, t.data, ids)
    to_core._pain_holds(ct, t.data, ids)
    to_core._weapons_movement(ct, t.data, ids)
    return ct


def test_seal_refuses_an_unknown_id_with_the_field() -> None:
    """Issue 15, no crash at the boundary: an id out of its table is one ValueError naming
    the field, never an out-of-range read."""
    t = RULE_SETS["shipped"]
    ct = _filled(t)
    ms = ct.maneuvers
    ms[4].damage_types = [7]
    ct.maneuvers = ms
    with pytest.raises(ValueError, match=r"maneuvers.Punch.damage_types: id 7: allowed 0..2"):
        ct.seal()
    ct = _filled(t)
    locs = ct.locations
    locs[0].aim = -1
    ct.locations = locs
    with pytest.raises(ValueError, match=r"locations.aim: id -1: allowed 0..8"):
        ct.seal()
    ct = _filled(t)
    a = ct.attack
    a.rear_arc = [2, 6]
    ct.attack = a
    with pytest.raises(ValueError, match=r"attack.rear_arc: id 6: allowed 0..5"):
        ct.seal()
    ct = _filled(t)
    ct.follow_ons = []
    with pytest.raises(ValueError, match=r"follow_ons: 0 entries, 33 needed"):
        ct.seal()
    assert not ct.sealed


def test_formulas_refuse_unsealed_tables_and_foreign_profiles() -> None:
    """Issue 15, no crash at the boundary: unchecked tables, a sheet compiled for other rules
    or of the wrong size, an unknown weapon in hand: one ValueError each."""
    t, v = RULE_SETS["shipped"], RULE_SETS["numbers"]
    ct, cv = to_core.compile_tables(t), to_core.compile_tables(v)
    with pytest.raises(ValueError, match="not sealed"):
        _core.formulas.wound_level(_filled(t), 3)
    cp = to_core.compile_profile(ct, load_profile("chu", t.data))
    with pytest.raises(ValueError, match="compiled for rules"):
        _core.formulas.soak_basic_of(cv, cp, 0)
    cp.pv = [0]
    with pytest.raises(ValueError, match=r"profile.pv: 1 entries, 12 needed"):
        _core.formulas.soak_basic_of(ct, cp, 0)
    cp = to_core.compile_profile(ct, load_profile("guard", t.data))
    cp.hands = [99, -1]
    with pytest.raises(ValueError, match="profile.hands: weapon id 99: unknown"):
        cp.check(ct)


def test_a_profile_with_a_specialism_no_roll_names_compiles_without_it() -> None:
    """§1.2 aom195: a specialism adds only to the rolls that name it (formulas.basic sums
    the roll's own names), so one no roll names has nothing to compile to."""
    t = RULE_SETS["shipped"]
    p = dataclasses.replace(load_profile("chu", t.data), specs={"juggling": 6, "dodge": 2})
    cp = to_core.compile_profile(to_core.compile_tables(t), p)
    assert sum(cp.specs) == 2

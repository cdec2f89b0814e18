"""§1.10 damage and wounds (aom316, aom317, aom1c4, aom1c41, aom1d3): basic damage, damage
resistance, the wound table, armour materials, wounds recorded separately, Fatal."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import PASS
from tests.rules_kit import duel, events, fighter, last, strike, terms


def hit(a, b, location="Chest", maneuver="Martial Strike", dice=(), **kw):
    state, d = duel(a, b, list(dice), ap_b=0, **kw)
    strike(state, maneuver, location)
    return state, [e for e in state.events if e["type"] == "damage" and e["kind"] == "attack"]


def test_basic_damage_formula_aom316():
    """§1.10 aom316/aom317: ST 2 + Martial Strike 5 + 1/2 x margin 6 + Head +2 = 12.

    Attack: Martial Arts 9 + 1 - 4 (Head) = 6 vs default defence 0 -> margin 6.
    """
    a = fighter("A", ST=2, ma=9)
    state, dmg = hit(a, fighter("B", ST=3), "Head")
    assert last(state, "attack")["margin"] == 6
    assert dmg[0]["roll"]["terms"] == [["ST", 2], ["rating", 5], ["margin", 3],
                                       ["location Head", 2]]
    assert dmg[0]["roll"]["result"] == 12
    # DR = ST 3 + PV 0; 12 - 3 = 9 -> Medium
    assert dmg[0]["dr"] == 3
    assert dmg[0]["wound"] == "Medium"


@pytest.mark.parametrize(
    ("maneuver", "location", "rating", "page"),
    [
        ("Martial Strike", "Chest", 5, "aom3221"),
        ("Martial Kick", "Chest", 6, "aom3222"),
        ("Spinning Kick", "Chest", 8, "aom3223"),
        ("Leg Sweep", "R Leg", 4, "aom3224"),
        ("Punch", "Chest", 5, "aom3212"),
        ("Kick", "R Leg", 6, "aom3213"),
    ],
)
def test_damage_ratings(maneuver, location, rating, page):
    """§1.10/§2: damage rating of each striking maneuver (ST 0, margin 1 -> +1/2)."""
    # attack roll must be exactly 1 over the default defence 0
    skill = {"Martial Strike": 0, "Martial Kick": 0, "Spinning Kick": 1, "Leg Sweep": 3,
             "Punch": 1, "Kick": 3}[maneuver]
    a = fighter("A", ma=skill, combat=skill)
    state, dmg = hit(a, fighter("B", athletics=12), location, maneuver)
    assert last(state, "attack")["margin"] == 1
    assert terms(dmg[0]["roll"])["rating"] == rating, page
    assert dmg[0]["roll"]["result"] == rating + 0.5


# damage is ST_a + 5 + 1/2 (margin 1); DR = PV (B's ST 0); wound by damage - DR
WOUND_CASES = [
    (0, 5.5, 0, "None"),
    (0, 5, 0.5, "Scratch"),
    (0, 2.5, 3, "Scratch"),
    (0, 2, 3.5, "Light"),
    (0.5, 0, 6, "Light"),
    (1, 0, 6.5, "Medium"),
    (3.5, 0, 9, "Medium"),
    (4, 0, 9.5, "Serious"),
    (6.5, 0, 12, "Serious"),
    (7, 0, 12.5, "Critical"),
    (9.5, 0, 15, "Critical"),
    (10, 0, 15.5, "Fatal"),
]


@pytest.mark.parametrize(("st_a", "pv", "diff", "wound"), WOUND_CASES)
def test_wound_table_boundaries_aom316(st_a, pv, diff, wound):
    """§1.10 aom316 wound table: <=0 none; up to 3 Scratch; 3 1/2-6 Light; 6 1/2-9 Medium;
    9 1/2-12 Serious; 12 1/2-15 Critical; >= 15 1/2 Fatal."""
    a = fighter("A", ST=st_a, ma=0)
    b = fighter("B", body=pv, athletics=12, WP=10, combat=12)
    # B's default defence is Combat 12: give A the margin with Martial Arts 12 instead
    a["skills"]["Martial Arts"] = 12
    state, dmg = hit(a, b)
    assert last(state, "attack")["margin"] == 1
    assert dmg[0]["roll"]["result"] - dmg[0]["dr"] == diff
    assert dmg[0]["wound"] == wound
    recorded = [e["wound"] for e in events(state, "wound")]
    assert recorded == ([] if wound == "None" else [wound])


def test_fatal_wound_kills_and_ends_the_fight_aom1d3():
    """§1.10 aom1d3/§5.30: a Fatal wound kills outright; the fight ends, A wins."""
    a = fighter("A", ST=10, ma=12)
    b = fighter("B", combat=12)
    state, _ = hit(a, b)
    assert last(state, "wound")["effect"] == "killed"
    assert state.fighters[1].out == "dead"
    assert state.is_over
    assert state.winner == 0
    assert events(state, "pain") == []  # no immediate-reaction roll for the dead


def test_each_wound_is_recorded_separately_aom1d3():
    """§1.10 aom1d3: two hits give two separate wounds.

    B: ST -1 (DR -1), default defence 0, WP 10 (shrugs off pain), Athletics 12.
    1st, Chest: Martial Strike 4 vs 0 -> 5 + 2 = 7 - (-1) = 8: Medium.
    2nd, Abdomen: 4 - 1 = 3 vs 0 - 2 (Medium impairment, §1.14) -> margin 5:
    5 + 2 1/2 + 1 = 8 1/2 - (-1) = 9 1/2: Serious.
    """
    a = fighter("A", ma=3)
    b = fighter("B", WP=10, athletics=12, ST=-1)
    state, _ = duel(a, b, ap_b=0)
    strike(state)
    assert state.decision.kind == "follow_on"
    state.apply(PASS)
    strike(state, location="Abdomen")
    assert last(state, "attack")["defence"]["result"] == -2
    wounds = [(e["location"], e["wound"]) for e in events(state, "wound")]
    assert wounds == [("Chest", "Medium"), ("Abdomen", "Serious")]
    assert state.fighters[1].wounds == (("Chest", 3), ("Abdomen", 4))
    assert last(state, "wound")["worst"] == "Serious"


@pytest.mark.parametrize(
    ("material", "pv"),
    [("rags", 0), ("robes", 1), ("heavy_clothing", 2), ("leather", 3),
     ("studded_leather", 4), ("light_mail", 6), ("heavy_mail", 8), ("partial_plate", 10),
     ("full_plate", 12)],
)
def test_body_armour_protection_values_aom1c41(material, pv):
    """§1.10 aom1c41: PV by body armour; DR at the Chest = ST 1 + PV."""
    a = fighter("A", ma=12)
    b = fighter("B", ST=1, body=material)
    _, dmg = hit(a, b)
    assert dmg[0]["dr"] == 1 + pv


def test_layered_armour_best_pv_counts_aom1c4():
    """§1.10 aom1c4: heavy clothing (PV 2) with leather gauntlets (PV 3) on the hands:
    the R Hand has DR ST 0 + 3, the Chest ST 0 + 2."""
    b = fighter("B", body="heavy_clothing", locations={"R Hand": 3, "L Hand": 3})
    drs = {}
    for loc in ("R Hand", "Chest"):
        _, dmg = hit(fighter("A", ma=12), b, loc)
        drs[loc] = dmg[0]["dr"]
    assert drs == {"R Hand": 3, "Chest": 2}


def test_damage_roll_risk_is_the_attackers_profile_aom316():
    """§1.10/§1.3 aom316: the damage roll risks the attacker's profile risk.damage dice:
    2 dice (4, 5) on basic 5 1/2 -> 9 + 5 1/2 - 6 = 8 1/2."""
    a = fighter("A", ma=0, damage=2)
    b = fighter("B", body=12)
    state, dmg = hit(a, b, dice=[4, 5])
    assert dmg[0]["roll"]["risk"] == 2
    assert dmg[0]["roll"]["dice"] == [4, 5]
    assert dmg[0]["roll"]["result"] == 8.5


@pytest.mark.parametrize(("option", "dtype"), [(0, "Blunt"), (1, "Impaling")])
def test_martial_strike_blunt_or_impaling_aom3221(option, dtype):
    """§1.10 aom3221: the striker chooses Blunt or Impaling for a Martial Strike."""
    a = fighter("A", ma=12)
    state, _ = duel(a, fighter("B", body=12), ap_b=0)
    strike(state, option=option)
    dmg = [e for e in state.events if e["type"] == "damage" and e["kind"] == "attack"]
    assert dmg[0]["damage_type"] == dtype

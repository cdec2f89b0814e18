"""§1.9 aiming (aom317): attack and damage modifiers by location, which armour covers each
location, and the locations each maneuver may aim at (aom3212, aom3213, aom3223, aom3224,
aom3225, aom3216)."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import Choice
from tests.rules_kit import attack, duel, fighter, last, strike, terms

# (location, attack modifier, damage modifier) straight from the aom317 table
AIM = [
    ("Head", -4, 2),
    ("Eyes", -8, 3),
    ("Throat", -6, 3),
    ("Chest", 0, 0),
    ("L Arm", -1, 0),
    ("R Arm", -1, 0),
    ("L Hand", -3, 0),
    ("R Hand", -3, 0),
    ("Abdomen", -1, 1),
    ("Groin", -3, 1),
    ("L Leg", -2, 0),
    ("R Leg", -2, 0),
]


@pytest.mark.parametrize(("location", "att_mod", "dmg_mod"), AIM)
def test_aiming_modifiers_aom317(location, att_mod, dmg_mod):
    """§1.9 aom317: Martial Strike with Martial Arts 8 (8 + 1 = 9 at the Chest) against
    defence 0; damage = ST 0 + 5 + 1/2 x margin + the location's damage modifier."""
    a = fighter("A", ma=8)
    b = fighter("B")
    state, _ = duel(a, b, ap_b=0)
    strike(state, location=location)
    ev = last(state, "attack")
    att = 9 + att_mod
    assert terms(ev["attack"]).get(f"aim {location}", 0) == att_mod
    assert ev["attack"]["result"] == att
    assert ev["outcome"] == "hit"
    dmg = last(state, "damage")
    assert terms(dmg["roll"]).get(f"location {location}", 0) == dmg_mod
    assert dmg["roll"]["result"] == 5 + att / 2 + dmg_mod


def test_worked_damage_values_by_location_aom317():
    """§1.9 aom317, worked by hand: Head 5 + 2 1/2 + 2 = 9 1/2; Eyes 5 + 1/2 + 3 = 8 1/2;
    Abdomen 5 + 4 + 1 = 10; Leg 5 + 3 1/2 = 8 1/2."""
    got = {}
    for loc in ("Head", "Eyes", "Abdomen", "R Leg"):
        state, _ = duel(fighter("A", ma=8), fighter("B"), ap_b=0)
        strike(state, location=loc)
        got[loc] = last(state, "damage")["roll"]["result"]
    assert got == {"Head": 9.5, "Eyes": 8.5, "Abdomen": 10, "R Leg": 8.5}


@pytest.mark.parametrize(
    ("location", "dr"),
    [("Head", 7), ("Eyes", 7), ("Throat", 7), ("Chest", 4), ("Groin", 4), ("L Hand", 4),
     ("R Leg", 4)],
)
def test_helmet_covers_head_eyes_throat_body_armour_the_rest_aom317_aom1c4(location, dr):
    """§1.9/§1.10 aom317, aom1c4: DR = ST 1 + helmet PV 6 on Head/Eyes/Throat, ST 1 +
    body PV 3 (leather) elsewhere."""
    b = fighter("B", ST=1, body="leather", helmet="open_helmet")
    state, _ = duel(fighter("A", ma=12), b, ap_b=0)
    strike(state, location=location)
    assert [d["dr"] for d in state.events if d["type"] == "damage"][0] == dr


def aims(maneuver: str, **kw) -> set:
    state, _ = duel(fighter("A", ma=3, combat=3), fighter("B"), **kw)
    return {c.location for c in state.legal_choices()
            if c.maneuver == maneuver and c.turn == 0 and c.option == 0}


ARMS = {"L Arm", "R Arm"}
LEGS = {"L Leg", "R Leg"}


@pytest.mark.parametrize(
    ("maneuver", "allowed", "page"),
    [
        ("Punch", {"Chest", "Abdomen", "Head"} | ARMS, "aom3212"),
        ("Kick", {"Abdomen", "Groin"} | LEGS, "aom3213"),
        ("Spinning Kick", {"Chest", "Head"} | ARMS, "aom3223"),
        ("Leg Sweep", LEGS, "aom3224"),
        ("Arm Grab", ARMS, "aom3225"),
        ("Grapple", {None}, "aom3216"),
        ("Martial Strike", {loc for loc, _, _ in AIM}, "aom3221"),
        ("Martial Kick", {loc for loc, _, _ in AIM}, "aom3222"),
    ],
)
def test_locations_each_maneuver_may_aim_at(maneuver, allowed, page):
    """§1.9/§2: restricted aiming lists; whole-body Grapple takes no location."""
    assert aims(maneuver) == allowed, page


def test_punch_may_not_aim_at_the_groin_aom3212():
    """§1.9 aom3212: Punch aims at Chest, Abdomen, Arms or Head only."""
    state, _ = duel(fighter("A", combat=3), fighter("B"))
    assert state.why_illegal(attack("Punch", location="Groin")) == \
        "Punch: cannot aim at the Groin (only Chest, Abdomen, Arm, Head)"


def test_kick_aims_anywhere_at_a_prone_target_aom3213():
    """§1.9/§1.19 aom3213: a Kick may target any location of a prone opponent."""
    assert aims("Kick", fb={"prone": True}) == {loc for loc, _, _ in AIM}
    state, _ = duel(fighter("A", combat=3), fighter("B"))
    assert "cannot aim at the Head" in state.why_illegal(attack("Kick", location="Head"))


def test_a_location_must_be_declared_aom317():
    """§1.9 aom317: an aimed maneuver needs a declared location; a whole-body one refuses it."""
    state, _ = duel(fighter("A", ma=3, combat=3), fighter("B"))
    assert "needs an aimed location" in state.why_illegal(attack("Martial Strike", location=None))
    assert state.why_illegal(attack("Grapple", location="Chest")) == \
        "Grapple: whole-body maneuver, cannot aim"


def test_default_aim_is_the_chest_aom317():
    """§1.9 aom317 (attack.whole_body_location = Chest): an un-aimed whole-body hit (a
    Martial Throw following an Arm Grab) strikes Chest armour: DR = ST 0 + body PV 3."""
    a = fighter("A", ma=6)
    b = fighter("B", body="leather", athletics=12)
    state, _ = duel(a, b, pos_b=(0, 0), ap_b=0)
    strike(state, "Arm Grab", "R Arm")
    assert state.decision == (0, "follow_on", "")
    state.apply(Choice("maneuver", "Martial Throw", target=1, option=3))
    state.apply(Choice("risk", risk=0))
    state.apply(Choice("risk", risk=0))
    dmg = [e for e in state.events if e["type"] == "damage" and e["kind"] == "attack"][0]
    assert dmg["maneuver"] == "Martial Throw"
    assert dmg["location"] == "Chest"
    assert dmg["dr"] == 3

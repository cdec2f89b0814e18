"""§1.17 self-injury when striking armour (aom3212, aom3213, aom3214, aom3221, aom3222,
aom3223); §5.22 PROPOSED details (target's DR at the struck location; pain roll, no
knock-back)."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import PASS, Choice, Game, LoadedDice
from tests.rules_kit import duel, events, fighter, last, strike


def self_hits(state):
    return [e for e in events(state, "damage") if e["kind"] == "self"]


def test_martial_strike_into_light_mail_worked_example_aom3221():
    """§1.17 aom3221 worked example: Chu (Martial Arts 4 + Martial Strike specialism 1,
    ST 0, robes PV 1) Martial Strikes Urlik (ST 1 + light mail PV 6 = DR 7) in the Chest.

    Attack: 4 + 1 + CO 1 + unencumbered 2 x 2 + 1 = 11 vs Urlik's Combat 3 + CO 0 + heavy
    -2 = 1 -> margin 10. Damage: ST 0 + 5 + 5, 1 die (3): 10 vs DR 7 -> Scratch.
    Self-injury: basic = Urlik's DR 7 - Chu's skill 5 = 2, Blunt, on Chu's hand; Chu's DR
    there = ST 0 + PV 1 -> 1 -> Scratch. Chu's pain roll: Combat 2 + WP 1 - 2 (Blunt)
    + 3 (Hand) + 6 (Scratch) = 10 -> no effect (§5.22); no knock-back for Chu.
    """
    dice = LoadedDice([3])
    state = Game.create(["chu", "urlik"]).new_state(dice, scenario={
        "fighters": [{"pos": [0, 0], "facing": 0, "ap": 10},
                     {"pos": [1, 0], "facing": 3, "ap": 10}],
        "phase": 0})
    strike(state)
    ev = last(state, "attack")
    assert (ev["attack"]["result"], ev["defence"]["result"], ev["margin"]) == (11, 1, 10)
    dmg = [e for e in events(state, "damage") if e["kind"] == "attack"][0]
    assert (dmg["roll"]["result"], dmg["dr"], dmg["wound"]) == (10, 7, "Scratch")
    state.apply(PASS)  # Urlik does not soak
    own = self_hits(state)
    assert len(own) == 1
    assert own[0]["target"] == "Chu"
    assert own[0]["location"] == "R Hand"
    assert own[0]["damage_type"] == "Blunt"
    assert own[0]["roll"]["result"] == 2
    assert own[0]["dr"] == 1
    assert own[0]["wound"] == "Scratch"
    pain = [e for e in events(state, "pain") if e["actor"] == "Chu"][0]
    assert pain["roll"]["result"] == 10
    assert pain["effect"] == "none"
    assert [e["actor"] for e in events(state, "knockback")] == ["Urlik"]
    assert state.fighters[0].wounds == (("R Hand", 1),)
    assert dice.used == 1


@pytest.mark.parametrize(
    ("maneuver", "location", "part", "skill", "page"),
    [
        ("Martial Strike", "Chest", "R Hand", {"ma": 3, "specs": {"Martial Strike": 1}},
         "aom3221"),
        ("Martial Kick", "Chest", "R Leg", {"ma": 3, "specs": {"Martial Kick": 1}}, "aom3222"),
        ("Spinning Kick", "Chest", "R Leg", {"ma": 3, "specs": {"Spinning Kick": 1}},
         "aom3223"),
        ("Punch", "Chest", "R Hand", {"combat": 3, "specs": {"Punch": 1}}, "aom3212"),
        ("Kick", "Abdomen", "R Leg", {"combat": 3, "specs": {"Kick": 1}}, "aom3213"),
    ],
)
def test_self_injury_is_target_dr_minus_skill(maneuver, location, part, skill, page):
    """§1.17: basic = target's DR (ST 2 + PV 8 heavy mail = 10) - striker's skill with the
    relevant specialism (3 + 1) = 6, on the striking part; striker DR there 0 -> Light."""
    a = fighter("A", WP=10, **skill)
    b = fighter("B", ST=2, body="heavy_mail", CO=-4)
    state, _ = duel(a, b, ap_b=0)
    strike(state, maneuver, location)
    assert last(state, "attack")["outcome"] == "hit", page
    own = self_hits(state)
    assert [(e["location"], e["roll"]["result"], e["dr"], e["wound"]) for e in own] == \
        [(part, 6, 0, "Light")], page


def test_head_butt_adds_two_aom3214():
    """§1.17 aom3214: Head Butt self-injury = target DR + 2 - Combat skill, on the head.

    B: ST 1 + leather 3 = DR 4; A: Combat 3 -> 4 + 2 - 3 = 3 to A's Head (DR 0): Scratch.
    The Head Butt follows A's successful Arm Grab (aom3225).
    """
    a = fighter("A", combat=3, ma=3, WP=10)
    b = fighter("B", ST=1, body="leather", CO=-3, WP=10, athletics=12)
    state, _ = duel(a, b, pos_b=(0, 0), ap_b=0)
    strike(state, "Arm Grab", "R Arm")
    assert state.decision == (0, "follow_on", "")
    state.apply(Choice("maneuver", "Head Butt", target=1, location="Chest"))
    state.apply(Choice("risk", risk=0))
    state.apply(Choice("risk", risk=0))
    own = self_hits(state)
    assert [(e["location"], e["roll"]["result"], e["wound"]) for e in own] == \
        [("Head", 3, "Scratch")]


def test_struck_location_armour_counts_par_5_22():
    """§5.22 PROPOSED: the target's DR at the struck location: B has an open helmet (PV 6)
    and no body armour; a Martial Strike (skill 3) at the Head: 1 + 6 - 3 = 4 on A's hand;
    at the Chest nothing (unarmoured there)."""
    a = fighter("A", ma=3, WP=10)
    b = fighter("B", ST=1, helmet="open_helmet", CO=-5, WP=10, athletics=12)
    state, _ = duel(a, b, ap_b=0)
    strike(state, location="Head")
    assert last(state, "attack")["outcome"] == "hit"
    assert [(e["location"], e["roll"]["result"]) for e in self_hits(state)] == [("R Hand", 4)]
    state2, _ = duel(a, b, ap_b=0)
    strike(state2, location="Chest")
    assert last(state2, "attack")["outcome"] == "hit"
    assert self_hits(state2) == []


def test_skilled_striker_is_not_hurt_aom3221():
    """§1.17: target DR 7 - skill 10 = -3: no wound for the striker (and no pain roll)."""
    a = fighter("A", ma=10, WP=0)
    b = fighter("B", ST=1, body="light_mail")
    state, _ = duel(a, b, ap_b=0)
    strike(state)
    own = self_hits(state)
    assert [(e["roll"]["result"], e["wound"]) for e in own] == [(-3, "None")]
    assert [e["actor"] for e in events(state, "pain")] == ["B"]  # B's own Light wound


def test_no_self_injury_against_an_unarmoured_target_aom3212():
    """§1.17: only against an armoured target: B with ST 5 but PV 0 (DR 5) hurts nobody."""
    a = fighter("A")
    b = fighter("B", ST=5)
    state, _ = duel(a, b, ap_b=0)
    strike(state)
    assert last(state, "attack")["outcome"] == "hit"
    assert self_hits(state) == []


def test_no_self_injury_after_a_miss_aom3221():
    """§1.17: only after a *successful* strike."""
    a = fighter("A")
    b = fighter("B", body="full_plate", combat=3)
    state, _ = duel(a, b, ap_b=0)
    strike(state)
    assert last(state, "attack")["outcome"] == "miss"
    assert events(state, "damage") == []


def test_self_injury_has_no_knockback_par_5_22():
    """§5.22 PROPOSED: no knock-back roll for a self-inflicted wound: A (Athletics 0)
    takes 6 on the hand and rolls only for pain."""
    a = fighter("A", ma=1, WP=10)
    b = fighter("B", ST=1, body="full_plate", CO=-3, athletics=12)
    state, _ = duel(a, b, ap_b=0)
    strike(state)
    own = self_hits(state)
    assert (own[0]["roll"]["result"], own[0]["wound"]) == (12, "Serious")
    assert [e["actor"] for e in events(state, "knockback")] == ["B"]
    assert [e["actor"] for e in events(state, "pain")] == ["A"]


def test_self_injury_pain_roll_can_be_switched_off_par_5_22():
    """§5.22 PROPOSED as a named parameter: pain.self_injury_pain_roll = false -> no pain
    roll for the striker's own wound (the wound is still recorded)."""
    a = fighter("A", ma=1, WP=10)
    b = fighter("B", ST=1, body="full_plate", CO=-3, athletics=12)
    state, _ = duel(a, b, ap_b=0, rules={"pain": {"self_injury_pain_roll": False}})
    strike(state)
    assert [e["actor"] for e in events(state, "pain")] == []
    assert state.fighters[0].wounds == (("R Hand", 4),)

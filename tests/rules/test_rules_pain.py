"""§1.12 immediate reaction to a wound (aom1d31): WP + Combat (+ Toughness) with damage
type, location and wound modifiers; unconscious / stunned / staggered; §5.19 PROPOSED
half-point bands; effects on AP and on every roll for the rest of the turn."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import END, PASS, Choice
from tests.rules_kit import duel, events, fighter, last, strike, terms


def light_chest_hit(wp: float, ap_b: int = 0, toughness: float = 0, **kw):
    """A (ST 0, Martial Arts 0) hits B's Chest: Martial Strike 1 vs defence 0 -> damage
    5 1/2 vs DR 0: a Light wound. B's pain roll = WP + Toughness - 2 (Blunt) + 0 (Chest)
    + 3 (Light) = WP + Toughness + 1."""
    a = fighter("A")
    b = fighter("B", WP=wp, athletics=12, specs={"Toughness": toughness})
    state, dice = duel(a, b, ap_b=ap_b, **kw)
    strike(state)
    if state.decision is not None and state.decision.kind == "soak":
        state.apply(PASS)
    return state


@pytest.mark.parametrize(
    ("wp", "result", "effect"),
    [
        (-1, 0, "unconscious"),
        (-0.5, 0.5, "stunned"),
        (2, 3, "stunned"),
        (2.5, 3.5, "stunned"),
        (3, 4, "staggered"),
        (5.5, 6.5, "staggered"),
        (6, 7, "none"),
    ],
)
def test_immediate_reaction_bands_aom1d31_par_5_19(wp, result, effect):
    """§1.12 aom1d31 + §5.19 PROPOSED: <=0 unconscious; >0 and <4 stunned; >=4 and <7
    staggered; >=7 no effect."""
    state = light_chest_hit(wp)
    ev = last(state, "pain")
    assert ev["roll"]["result"] == result
    assert ev["effect"] == effect


def test_pain_roll_terms_aom1d31():
    """§1.12 aom1d31: Combat + Toughness specialism + WP + Blunt -2 + Light +3."""
    state = light_chest_hit(2.5, toughness=0.5)
    roll = last(state, "pain")["roll"]
    assert roll["terms"] == [["Combat", 0], ["specialism", 0.5], ["WP", 2.5], ["Blunt", -2],
                             ["Light", 3]]
    assert roll["result"] == 4


@pytest.mark.parametrize(
    ("location", "mod"),
    [("Head", -3), ("Eyes", 0), ("Throat", 0), ("Chest", 0), ("R Arm", 3), ("L Hand", 3),
     ("Abdomen", 0), ("Groin", -3), ("R Leg", 3)],
)
def test_pain_location_modifier_aom1d31(location, mod):
    """§1.12 aom1d31: Leg/Hand/Arm +3; Throat/Eyes/Chest/Abdomen 0; Groin/Head -3."""
    a = fighter("A", ma=12)
    b = fighter("B", WP=10, athletics=12)
    state, _ = duel(a, b, ap_b=0)
    strike(state, location=location)
    roll = [e for e in events(state, "pain") if e["a"] == 1][0]["roll"]
    assert terms(roll).get(f"location {location}", 0) == mod


@pytest.mark.parametrize(("option", "dtype", "mod"), [(0, "Blunt", -2), (1, "Impaling", 2)])
def test_pain_damage_type_modifier_aom1d31(option, dtype, mod):
    """§1.12 aom1d31: Impaling +2, Blunt -2 (Martial Strike may be either, aom3221)."""
    a = fighter("A")
    b = fighter("B", WP=10, athletics=12)
    state, _ = duel(a, b, ap_b=0)
    strike(state, option=option)
    roll = last(state, "pain")["roll"]
    assert terms(roll)[dtype] == mod
    # WP 10 + type + Light +3
    assert roll["result"] == 13 + mod


@pytest.mark.parametrize(
    ("st_a", "wound", "mod"),
    [(-2.5, "Scratch", 6), (0, "Light", 3), (1, "Medium", 0), (4, "Serious", -3),
     (7, "Critical", -6)],
)
def test_pain_wound_level_modifier_aom1d31(st_a, wound, mod):
    """§1.12 aom1d31: Scratch +6, Light +3, Medium 0, Serious -3, Critical -6.
    Damage = ST + 5 1/2 (margin 1) vs DR 0."""
    a = fighter("A", ST=st_a)
    b = fighter("B", WP=10, athletics=12)
    state, _ = duel(a, b, ap_b=0)
    strike(state)
    assert last(state, "wound")["wound"] == wound
    roll = last(state, "pain")["roll"]
    assert terms(roll).get(wound, 0) == mod
    assert roll["result"] == 10 - 2 + mod


def test_stunned_loses_all_ap_and_minus_three_aom1d31():
    """§1.12 aom1d31: stunned: all AP left this turn are lost, -3 on every roll this turn."""
    state = light_chest_hit(2, ap_b=6)
    assert last(state, "pain")["effect"] == "stunned"
    b = state.fighters[1]
    assert (b.ap, b.status) == (0, "stunned")
    # A strikes again (follow-on): B's default defence now carries -1 (Light) and -3
    state.apply(Choice("maneuver", "Martial Strike", target=1, location="Chest"))
    state.apply(Choice("risk", risk=0))
    state.apply(Choice("risk", risk=0))
    roll = last(state, "attack")["defence"]
    assert terms(roll) == {"Combat": 0, "CO": 0, "wounds": -1, "stunned": -3}
    assert roll["result"] == -4


def test_staggered_loses_one_ap_and_minus_one_aom1d31():
    """§1.12 aom1d31: staggered: -1 AP (6 -> 5), -1 on every roll for the rest of the turn."""
    state = light_chest_hit(3, ap_b=6)
    assert last(state, "pain")["effect"] == "staggered"
    b = state.fighters[1]
    assert (b.ap, b.status) == (5, "staggered")
    state.apply(Choice("maneuver", "Martial Strike", target=1, location="Chest"))
    state.apply(PASS)  # B's reaction window: no reaction
    state.apply(Choice("risk", risk=0))
    state.apply(Choice("risk", risk=0))
    roll = last(state, "attack")["defence"]
    assert terms(roll) == {"Combat": 0, "CO": 0, "wounds": -1, "staggered": -1}


def test_unconscious_ends_the_fight_par_5_30():
    """§1.12 aom1d31, §5.30 PROPOSED: pain result 0 -> unconscious; B is out, A wins."""
    state = light_chest_hit(-1)
    assert state.fighters[1].out == "unconscious"
    assert state.is_over and state.winner == 0


def test_pain_is_rolled_before_the_new_wounds_impairment_aom1d32():
    """§1.12 aom1d31/aom1d32: a first wound (Serious) does not impair its own pain roll:
    no 'wounds' term; an earlier Light wound does (-1)."""
    a = fighter("A", ST=4)
    b = fighter("B", WP=10, athletics=12)
    state, _ = duel(a, b, ap_b=0)
    strike(state)
    roll = last(state, "pain")["roll"]
    assert "wounds" not in terms(roll)
    assert roll["result"] == 10 - 2 - 3
    state2, _ = duel(a, b, ap_b=0, fb={"wounds": [["R Arm", "Light"]]})
    strike(state2)
    # defence -1 now: margin 2 -> damage 4 + 5 + 1 = 10: Serious again
    roll2 = last(state2, "pain")["roll"]
    assert terms(roll2)["wounds"] == -1
    assert roll2["result"] == 10 - 2 - 3 - 1


def test_pain_risk_is_the_profile_default_aom1d31():
    """§1.12/§1.3: nobody chooses the pain roll's risk: B's profile risks 1 die (face 2):
    WP 3 - 2 (Blunt) + 3 (Light) = 4, risked: 4 + 2 - 3 = 3 -> stunned, not staggered."""
    a = fighter("A")
    b = fighter("B", WP=3, athletics=12, pain=1)
    state, dice = duel(a, b, [2], ap_b=0)
    strike(state)
    roll = last(state, "pain")["roll"]
    assert (roll["risk"], roll["dice"], roll["result"]) == (1, [2], 3)
    assert last(state, "pain")["effect"] == "stunned"


def test_stagger_and_stun_last_only_this_turn_aom1d31():
    """§1.12 aom1d31: 'for the rest of the turn': B, staggered in turn 1 (-1 on rolls),
    rolls turn 2's AP without the penalty: Combat 6 + CO -6 = 0 -> minimum 3 AP."""
    a = fighter("A", tactics=1)
    b = fighter("B", combat=6, CO=-6)
    state, dice = duel(a, b, [1, 1], ap_a=5, ap_b=0, fb={"status": "staggered"})
    assert state.fighters[1].status == "staggered"
    state.apply(END)  # A ends; B (0 AP) ends at once; turn 2 begins
    assert state.turn == 2
    start = [e for e in events(state, "turn_start") if e["a"] == 1][0]
    assert start["ap_roll"]["terms"] == [["Combat", 6], ["CO", -6]]
    assert start["ap_roll"]["result"] == 0
    assert state.fighters[1].status == ""
    assert state.fighters[1].ap == 3

"""§1.14 ongoing impairment (aom1d32): the single worst wound carried gives a penalty on all
dice rolls: None 0, Scratch 0, Light -1, Medium -2, Serious -4, Critical -6."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import END, PASS, Choice
from tests.rules_kit import duel, events, fighter, last, risk, strike, terms


@pytest.mark.parametrize(
    ("wound", "penalty"),
    [("Scratch", 0), ("Light", -1), ("Medium", -2), ("Serious", -4), ("Critical", -6)],
)
def test_worst_wound_penalty_on_attack_rolls_aom1d32(wound, penalty):
    """§1.14 aom1d32: A's Martial Strike (Martial Arts 6 + 1 = 7) with one wound."""
    a = fighter("A", ma=6)
    state, _ = duel(a, fighter("B", combat=12), ap_b=0, fa={"wounds": [["L Arm", wound]]})
    strike(state)
    roll = last(state, "attack")["attack"]
    assert terms(roll).get("wounds", 0) == penalty
    assert roll["result"] == 7 + penalty


def test_only_the_single_worst_wound_counts_aom1d32():
    """§1.14 aom1d32: Light, Light and Medium wounds: -2 (the worst), not -4."""
    a = fighter("A", ma=6)
    wounds = [["L Arm", "Light"], ["Chest", "Light"], ["R Leg", "Medium"]]
    state, _ = duel(a, fighter("B", combat=12), ap_b=0, fa={"wounds": wounds})
    strike(state)
    assert last(state, "attack")["attack"]["result"] == 5


def test_impairment_applies_to_defence_rolls_aom1d32():
    """§1.14 aom1d32: B's default defence Combat 4 + CO 0 with a Serious wound: 0."""
    a = fighter("A", ma=0)
    b = fighter("B", combat=4)
    state, _ = duel(a, b, fb={"wounds": [["Chest", "Serious"]]})
    strike(state)
    roll = last(state, "attack")["defence"]
    assert roll["terms"] == [["Combat", 4], ["CO", 0], ["wounds", -4]]
    assert roll["result"] == 0


def test_impairment_applies_to_the_ap_roll_aom1d32_aom313():
    """§1.14/§1.5: turn 2's AP roll of B (Combat 7, Medium wound): 7 - 2 = 5 AP."""
    a = fighter("A", tactics=1)
    b = fighter("B", combat=7)
    state, _ = duel(a, b, [1, 1], ap_a=1, ap_b=0, fb={"wounds": [["Chest", "Medium"]]})
    state.apply(END)
    assert state.turn == 2
    start = [e for e in events(state, "turn_start") if e["a"] == 1][0]
    assert start["ap_roll"]["terms"] == [["Combat", 7], ["CO", 0], ["wounds", -2]]
    assert state.fighters[1].ap == 5


def test_impairment_applies_to_soak_rolls_aom1d32():
    """§1.14 aom1d32: B (Light wound already) soaks: Combat 5 + ST 0 - 1 = 4."""
    a = fighter("A", ma=2)
    b = fighter("B", combat=5, CO=-5)
    state, _ = duel(a, b, fb={"wounds": [["L Leg", "Light"]]})
    strike(state)
    assert state.decision.kind == "soak"
    state.apply(Choice("maneuver", "Soak"))
    state.apply(risk(0))
    roll = last(state, "soak")["roll"]
    assert roll["terms"] == [["Combat", 5], ["ST", 0], ["wounds", -1]]
    assert roll["result"] == 4


def test_scratch_gives_no_penalty_aom1d32():
    """§1.14 aom1d32: a Scratch carries no penalty (no 'wounds' term at all)."""
    a = fighter("A")
    b = fighter("B", combat=3)
    state, _ = duel(a, b, fb={"wounds": [["Chest", "Scratch"]]})
    strike(state, reaction=PASS)
    assert "wounds" not in terms(last(state, "attack")["defence"])


def test_a_lighter_new_wound_keeps_the_worst_aom1d32():
    """§1.14 aom1d32: B carries a Serious wound and takes a Light one: the worst stays
    Serious (-4), so B's next default defence is Combat 4 - 4 = 0."""
    a = fighter("A", ma=4)
    b = fighter("B", combat=4, WP=10, athletics=12)
    state, _ = duel(a, b, ap_b=0, fb={"wounds": [["R Leg", "Serious"]]})
    strike(state)  # 5 vs 0: 5 + 2 1/2 = 7 1/2 vs DR 0 -> Medium
    assert last(state, "wound")["wound"] == "Medium"
    assert last(state, "wound")["worst"] == "Serious"
    state.apply(PASS)  # no follow-on
    strike(state)
    assert terms(last(state, "attack")["defence"])["wounds"] == -4


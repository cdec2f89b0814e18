"""§1.11 soak (aom314c, aom316): Combat (+ Soak specialism) + ST reduces a wound's
severity by result bands; 1 AP; declared once the wound level is known."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import PASS, Choice
from tests.rules_kit import duel, events, fighter, last, react, risk, strike

SOAK = Choice("maneuver", "Soak")
LADDER = ["Fatal", "Critical", "Serious", "Medium", "Light", "Scratch", "None"]


def fatal_blow(soak_spec: float, faces=(), specs_name="Soak", ap_b=10):
    """A deals a Fatal wound to B, who may soak.

    A: ST 10, Martial Arts 12: Martial Strike 13 vs B's default defence
    Combat 10 + CO -10 = 0 -> margin 13; damage 10 + 5 + 6 1/2 = 21 1/2 vs DR 0: Fatal.
    B's soak basic = Combat 10 + specialism + ST 0.
    """
    a = fighter("A", ST=10, ma=12)
    b = fighter("B", combat=10, CO=-10, specs={specs_name: soak_spec})
    state, dice = duel(a, b, list(faces), ap_b=ap_b)
    strike(state)
    return state, dice


@pytest.mark.parametrize(
    ("spec", "n", "faces", "result", "levels"),
    [
        (0, 5, [1, 1, 1, 1, 1], 0, 0),
        (0.5, 5, [1, 1, 1, 1, 1], 0.5, 1),
        (0, 5, [2, 2, 2, 2, 2], 5, 1),
        (0.5, 5, [2, 2, 2, 2, 2], 5.5, 2),
        (0, 0, [], 10, 2),
        (0.5, 0, [], 10.5, 3),
        (5, 0, [], 15, 3),
        (5.5, 0, [], 15.5, 4),
        (10, 0, [], 20, 4),
        (9.5, 1, [4], 20.5, 5),
        (10, 2, [6, 5], 25, 5),
        (9.5, 2, [6, 6], 25.5, 6),
    ],
)
def test_soak_bands_aom314c(spec, n, faces, result, levels):
    """§1.11 aom314c: <=0 -> 0 levels; 1/2-5 -> 1; 5 1/2-10 -> 2; 10 1/2-15 -> 3;
    15 1/2-20 -> 4; 20 1/2-25 -> 5; >= 25 1/2 -> 6, down the ladder from Fatal."""
    state, dice = fatal_blow(spec, faces)
    assert state.decision == (1, "soak", "")
    assert last(state, "damage")["wound"] == "Fatal"  # known before deciding
    state.apply(SOAK)
    assert state.decision == (1, "risk", "soak")
    state.apply(risk(n))
    ev = last(state, "soak")
    assert ev["roll"]["basic"] == 10 + spec
    assert ev["roll"]["result"] == result
    assert ev["levels"] == levels
    assert ev["before"] == "Fatal"
    assert ev["after"] == LADDER[levels]
    assert dice.used == n


def test_soak_costs_one_ap_aom314c():
    """§1.11 aom314c: Soak costs 1 AP (10 -> 9)."""
    state, _ = fatal_blow(5)
    state.apply(SOAK)
    assert state.fighters[1].ap == 9


def test_soak_roll_is_combat_soak_specialism_st_aom314c():
    """§1.11 aom314c: the roll's terms are Combat, the Soak/Soaking specialism and ST."""
    state, _ = fatal_blow(2, specs_name="Soaking")
    state.apply(SOAK)
    state.apply(risk(0))
    assert last(state, "soak")["roll"]["terms"] == [["Combat", 10], ["specialism", 2],
                                                    ["ST", 0]]


def test_not_soaking_takes_the_wound_aom316():
    """§1.11: passing the soak decision keeps the Fatal wound: B is killed."""
    state, _ = fatal_blow(10)
    state.apply(PASS)
    assert events(state, "soak") == []
    assert last(state, "wound")["wound"] == "Fatal"
    assert state.fighters[1].out == "dead"


def test_soak_needs_one_ap_aom314c():
    """§1.11/§1.5: B with 0 AP is not asked to soak."""
    state, _ = fatal_blow(10, ap_b=0)
    assert state.fighters[1].out == "dead"
    assert events(state, "soak") == []


def test_no_soak_decision_without_a_wound_aom314c():
    """§1.11: the wound level must be known and above None: armour stopping the blow
    (damage 5 + 1/2 x margin 2 = 6 vs DR 12) gives no soak decision."""
    a = fighter("A")
    b = fighter("B", body=12, athletics=12, CO=-1)
    state, _ = duel(a, b)
    strike(state)
    dmg = [e for e in events(state, "damage") if e["kind"] == "attack"]
    assert (dmg[0]["roll"]["result"], dmg[0]["dr"], dmg[0]["wound"]) == (6, 12, "None")
    assert events(state, "soak") == []
    assert state.fighters[1].ap == 10


def test_soak_after_a_failed_dodge_aom314c():
    """§1.11 aom314c: after a failed Side-step dodge (1 AP) Soak follows (1 AP): 2 -> 0.

    Side-step: Combat 10 + CO -10 + 2 = 2 < 13.
    """
    a = fighter("A", ST=10, ma=12)
    b = fighter("B", combat=10, CO=-10, specs={"Soak": 10})
    state, _ = duel(a, b, ap_b=2)
    strike(state, reaction=react("Side-step dodge"))
    assert last(state, "attack")["outcome"] == "hit"
    assert state.decision == (1, "soak", "")
    state.apply(SOAK)
    state.apply(risk(0))
    assert last(state, "soak")["after"] == "Light"  # 20 -> 4 levels: Fatal -> Light
    assert state.fighters[1].ap == 0

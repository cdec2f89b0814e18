"""§1.3 dice rolls (aom112, aom313, aom316, aom1d39; §5.1 PROPOSED risk options).

A roll turns a basic value into a result by risking n dice: n d6 + basic - 3n.
Expected numbers are worked by hand from the rules text and the pages' worked examples.
"""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import PASS, Choice, Dice, Game, IllegalChoice, LoadedDice
from tests.rules_kit import attack, duel, fighter, last, risk, strike


def turn_one(a, b, faces):
    """Turn 1 without a scenario: per fighter AP dice, initiative dice, one tie die."""
    dice = LoadedDice(faces)
    state = Game.create([a, b]).new_state(dice)
    return state, dice, [e for e in state.events if e["type"] == "turn_start"]


def test_no_risk_gives_the_basic_value_aom313_aom314c():
    """§1.3 aom313: basic 8 with no risk is a "guaranteed" 8 AP; no die is rolled."""
    a = fighter("A", combat=6, CO=2)
    b = fighter("B")
    # only the two initiative tie dice are rolled
    state, dice, starts = turn_one(a, b, [1, 1])
    assert dice.used == 2
    assert starts[0]["ap_roll"]["basic"] == 8
    assert starts[0]["ap_roll"]["dice"] == []
    assert starts[0]["ap_roll"]["result"] == 8
    assert state.fighters[0].ap == 8


@pytest.mark.parametrize(
    ("n", "faces", "expected"),
    [
        (1, [6], 11),  # D + 5 with a 6
        (1, [1], 6),  # D + 5 with a 1
        (2, [6, 5], 13),  # 2D + 2: the "8 -> 13 AP" of aom313
        (2, [1, 1], 4),  # 2D + 2 with two 1s
    ],
)
def test_risking_dice_costs_three_points_each_aom313(n, faces, expected):
    """§1.3 aom313: basic 8 risked as D+5 or 2D+2 (3 points per die)."""
    a = fighter("A", combat=6, CO=2, ap=n)
    state, dice, starts = turn_one(a, fighter("B"), faces + [1, 1])
    roll = starts[0]["ap_roll"]
    assert roll["risk"] == n
    assert roll["dice"] == faces
    assert roll["result"] == expected
    assert state.fighters[0].ap == expected
    assert dice.used == n + 2


def test_result_may_exceed_the_basic_value_aom316():
    """§1.3 aom316: basic damage 17, risking 15 points = 5D+2; 3+4+4+3+4 = 18 -> 20.

    Damage basic = ST 6 + Martial Strike rating 5 + 1/2 x margin 12 = 17 (§1.10).
    Attack: Martial Arts 6 + CO 0 + Martial Strike +1 = 7 vs defence Combat 0 + CO -5 = -5.
    """
    a = fighter("A", ST=6, ma=6, damage=5)
    b = fighter("B", CO=-5)
    state, dice = duel(a, b, [3, 4, 4, 3, 4], pos_b=(0, 0), ap_b=0)  # 0 AP: no soak
    strike(state)
    att = last(state, "attack")
    assert att["attack"]["result"] == 7
    assert att["defence"]["result"] == -5
    assert att["margin"] == 12
    dmg = last(state, "damage")
    assert dmg["roll"]["basic"] == 17
    assert dmg["roll"]["risk"] == 5
    assert dmg["roll"]["dice"] == [3, 4, 4, 3, 4]
    assert dmg["roll"]["result"] == 20
    assert dmg["wound"] == "Fatal"  # 20 - DR 0 >= 15 1/2 (§1.10)
    assert dice.used == 5


def test_three_dice_on_twelve_is_3d_plus_3_aom1d39():
    """§1.3 aom1d39: basic 12 risked with 3 dice is 3D+3 (here a soak roll, §1.11).

    Soak basic = Combat 8 + Soak specialism 1 + ST 3 = 12; faces 6, 6, 6 -> 21.
    """
    a = fighter("A", ST=10, ma=10)
    b = fighter("B", ST=3, combat=8, specs={"Soak": 1})
    state, dice = duel(a, b, [6, 6, 6], pos_b=(0, 0))
    strike(state)
    assert state.decision.kind == "soak"
    state.apply(Choice("maneuver", "Soak"))
    state.apply(risk(3))
    soak = last(state, "soak")
    assert soak["roll"]["basic"] == 12
    assert soak["roll"]["dice"] == [6, 6, 6]
    assert soak["roll"]["result"] == 21


def test_negative_constants_and_half_points_are_kept_aom312():
    """§1.3/§5.1 aom312: basic 2 1/2 with 2 dice is 2D - 3 1/2 (majority rule, not the
    page's 2D - 4 1/2); half points stay exact: faces 3, 4 -> 3 1/2."""
    b = fighter("B", tactics=1.5, PE=1, initiative=2)
    state, dice, starts = turn_one(fighter("A"), b, [1, 3, 4, 1])
    roll = starts[1]["initiative_roll"]
    assert roll["basic"] == 2.5
    assert roll["dice"] == [3, 4]
    assert roll["result"] == 3.5


def test_result_can_be_negative_with_low_faces_par_5_1():
    """§5.1 PROPOSED: negative constants allowed; basic 2 with 2 dice of 1 gives -2."""
    b = fighter("B", tactics=2, initiative=2)
    state, dice, starts = turn_one(fighter("A"), b, [1, 1, 1, 1])
    assert starts[1]["initiative_roll"]["result"] == -2


def test_each_die_raises_the_expected_result_by_half_par_1_3():
    """§1.3: one risked d6 has mean 3 1/2 - 3 = +1/2 over the basic value.

    Exact: over the six faces, the AP roll (basic 8, risk 1) averages 8 1/2.
    """
    results = []
    for face in range(1, 7):
        a = fighter("A", combat=6, CO=2, ap=1)
        _, _, starts = turn_one(a, fighter("B"), [face, 1, 1])
        results.append(starts[0]["ap_roll"]["result"])
    assert results == [6, 7, 8, 9, 10, 11]
    assert sum(results) / 6 == 8.5


def test_risk_may_be_zero_to_six_dice_par_5_1():
    """§5.1 PROPOSED: n = 0..6 dice; a risk of 7 is refused with a reason."""
    state, _ = duel(fighter("A", ma=2), fighter("B"), pos_b=(0, 0))
    state.apply(attack("Martial Strike"))
    state.apply(PASS)
    assert state.decision.kind == "risk"
    assert state.decision.about == "attack"
    assert [c.risk for c in state.legal_choices()] == [0, 1, 2, 3, 4, 5, 6]
    assert "0..6" in state.why_illegal(risk(7))
    with pytest.raises(IllegalChoice):
        state.apply(risk(7))


def test_dice_are_d6_par_5_1():
    """§5.1 PROPOSED: D is a d6: a seeded die only shows faces 1..6, and all of them."""
    faces = Dice(12345).faces(600)
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_basic_value_is_one_skill_plus_one_characteristic_aom112():
    """§1.3 aom112: basic = skill (+ specialisms) + characteristic + bonuses.

    Martial Strike: Martial Arts 3 + Martial Strike specialism 1.5 + CO 1 + maneuver +1 = 6.5.
    """
    a = fighter("A", CO=1, ma=3, specs={"Martial Strike": 1.5})
    state, _ = duel(a, fighter("B", combat=9), pos_b=(0, 0))
    strike(state)
    roll = last(state, "attack")["attack"]
    assert roll["terms"] == [["Martial Arts", 3], ["specialism", 1.5], ["CO", 1],
                             ["Martial Strike", 1]]
    assert roll["basic"] == 6.5
    assert roll["result"] == 6.5

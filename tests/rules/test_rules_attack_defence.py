"""§1.8 attack and defence rolls (aom315, aom321, aom322x); §5.2 ties; §5.11 Drop Dodge
table; §5.12 Forearm Block; Leg Grab ties (aom3226)."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import PASS
from tests.rules_kit import attack, duel, events, fighter, last, react, risk, strike, terms

# A defender with distinct numbers everywhere: Combat 3, Martial Arts 4, CO 1, light
# encumbrance (+1, doubled to +2 with Martial Arts, §1.16), dodge 1, block/parry 1/2,
# Soak 2 (never in a defence roll).
DEF = fighter("D", combat=3, ma=4, CO=1, enc="light",
              specs={"dodge": 1, "block/parry": 0.5, "Soak": 2, "Leg Grab": 0})


def defend(reaction, maneuver="Martial Strike", location="Chest", atk=None, **kw):
    """A (Martial Arts 0, CO 0) attacks D with ``maneuver``; D reacts with ``reaction``."""
    a = atk or fighter("A", ST=-5)
    state, _ = duel(a, DEF, **kw)
    strike(state, maneuver, location, reaction=reaction)
    return state, last(state, "attack")


def test_martial_arts_attack_roll_aom3221_aom1d1():
    """§1.8 aom3221: Martial Strike = Martial Arts 4 + Martial Strike specialism 1 + CO 1
    + encumbrance (unencumbered +2, doubled = +4) + maneuver +1 = 11."""
    a = fighter("A", ma=4, CO=1, enc="unencumbered", specs={"Martial Strike": 1})
    state, _ = duel(a, fighter("B", combat=12), ap_b=0)
    strike(state)
    roll = last(state, "attack")["attack"]
    assert roll["terms"] == [["Martial Arts", 4], ["specialism", 1], ["CO", 1],
                             ["encumbrance", 4], ["Martial Strike", 1]]
    assert roll["result"] == 11


def test_brawling_attack_roll_uses_combat_aom321():
    """§1.8 aom321/aom3212: Punch = Combat 3 + Punch specialism 1 + CO 1 + encumbrance
    (unencumbered +2, not doubled) + 0 = 7."""
    a = fighter("A", combat=3, ma=6, CO=1, enc="unencumbered", specs={"Punch": 1})
    state, _ = duel(a, fighter("B", combat=12), ap_b=0)
    strike(state, "Punch")
    roll = last(state, "attack")["attack"]
    assert roll["terms"][:4] == [["Combat", 3], ["specialism", 1], ["CO", 1],
                                 ["encumbrance", 2]]
    assert roll["result"] == 7


@pytest.mark.parametrize(
    ("maneuver", "location", "expected", "page"),
    [
        ("Martial Strike", "Chest", 3, "aom3221"),  # +1
        ("Martial Kick", "Chest", 3, "aom3222"),  # +1
        ("Spinning Kick", "Chest", 2, "aom3223"),  # +0
        ("Leg Sweep", "R Leg", 0, "aom3224"),  # +0, -2 Legs
        ("Arm Grab", "R Arm", 1, "aom3225"),  # +0, -1 Arm
        ("Punch", "Chest", 2, "aom3212"),  # +0
        ("Kick", "Abdomen", 1, "aom3213"),  # +0, -1 Abdomen
        ("Grapple", None, 0, "aom3216"),  # -2, whole body
    ],
)
def test_maneuver_attack_modifiers(maneuver, location, expected, page):
    """§1.8/§2: each maneuver's own attack modifier on Martial Arts 2 / Combat 2, CO 0."""
    a = fighter("A", ma=2, combat=2)
    state, _ = duel(a, fighter("B", combat=12), ap_b=0)
    strike(state, maneuver, location)
    assert last(state, "attack")["attack"]["result"] == expected, page


def test_default_defence_is_combat_plus_co_without_specialisms_aom315():
    """§1.8 aom315: no reaction: Combat 3 + CO 1 + encumbrance +1 = 5 (dodge, block and
    Soak specialisms do not count)."""
    _, ev = defend(PASS)
    assert ev["defence_maneuver"] == "none"
    assert ev["defence"]["terms"] == [["Combat", 3], ["CO", 1], ["encumbrance", 1]]
    assert ev["defence"]["result"] == 5


def test_default_defence_bonus_is_read_from_the_rules_data_aom315():
    """The default defence's ``bonus`` in rules.toml is a real knob: +1½ on it raises the
    defence from 5 to 6½ (it was once ignored by the engine)."""
    rules = {"attack": {"default_defence": {"skill": "Combat", "characteristic": "CO",
                                            "specialisms": [], "bonus": 1.5}}}
    _, ev = defend(PASS, rules=rules)
    assert ev["defence"]["terms"][-1] == ["bonus", 1.5]
    assert ev["defence"]["result"] == 6.5


def test_public_basic_values_are_what_the_engine_rolls_on():
    """``attack_basic``/``defence_basic`` (what agents estimate with) equal the basic values
    of the rolls the engine then makes, risk 0 (§1.8)."""
    from hexdojo.envs.rules import attack_basic, defence_basic

    for reaction, maneuver, location in [(PASS, "Martial Strike", "Chest"),
                                         ("Drop Dodge", "Martial Strike", "Head"),
                                         ("Forearm Block", "Punch", "Abdomen"),
                                         ("Rolling Dodge", "Martial Kick", "L Leg")]:
        state, _ = duel(fighter("A", ST=-5), DEF)
        ba, _ = attack_basic(state, 0, 1, maneuver, location)
        rname = None if reaction is PASS else reaction
        bd, _ = defence_basic(state, 1, 0, rname, maneuver, location)
        strike(state, maneuver, location,
               reaction=PASS if rname is None else react(rname, turn=0))
        ev = last(state, "attack")
        assert (ev["attack"]["basic"] * 2, ev["defence"]["basic"] * 2) == (ba, bd), reaction


@pytest.mark.parametrize(
    ("reaction", "expected", "page"),
    [
        # Combat 3 + dodge 1 + CO 1 + encumbrance 1 + 3
        ("Jump back dodge", 9, "aom3146"),
        # Combat 3 + dodge 1 + CO 1 + encumbrance 1 + 2
        ("Side-step dodge", 8, "aom3147"),
        # Martial Arts 4 + dodge 1 + CO 1 + encumbrance 1 x 2 + 2
        ("Rolling Dodge", 10, "aom322b"),
        # Martial Arts 4 + dodge 1 + CO 1 + encumbrance 2 + Chest +2 (§5.11)
        ("Drop Dodge", 10, "aom322c"),
        # Martial Arts 4 + block/parry 1/2 + CO 1 + encumbrance 2 + 2 vs unarmed
        ("Forearm Block", 9.5, "aom322e"),
    ],
)
def test_defence_table_aom315(reaction, expected, page):
    """§1.8 aom315 defence table, one row per defensive reaction."""
    _, ev = defend(react(reaction))
    assert ev["defence_maneuver"] == reaction
    assert ev["defence"]["result"] == expected, page
    assert ev["outcome"] == "miss"


def test_leg_grab_roll_aom3226():
    """§1.8 aom3226: Leg Grab = Martial Arts 4 + CO 1 + encumbrance 1 x 2 = 7 vs a kick."""
    _, ev = defend(react("Leg Grab"), "Martial Kick")
    assert ev["defence_maneuver"] == "Leg Grab"
    assert ev["defence"]["result"] == 7


@pytest.mark.parametrize(
    ("maneuver", "location", "bonus"),
    [
        ("Martial Strike", "Head", 4),
        ("Martial Strike", "Eyes", 4),
        ("Martial Strike", "Throat", 4),
        ("Martial Strike", "Chest", 2),
        ("Martial Strike", "L Arm", 2),
        ("Martial Strike", "R Hand", 2),
        ("Martial Strike", "Abdomen", 1),
        ("Martial Strike", "Groin", 1),
        ("Martial Strike", "L Leg", 0),
        ("Spinning Kick", "Chest", 4),
        ("Kick", "Abdomen", 0),
        ("Leg Sweep", "R Leg", 0),
    ],
)
def test_drop_dodge_bonus_by_attack_par_5_11(maneuver, location, bonus):
    """§5.11 PROPOSED (aom322c table missing): +4 vs Head/Eyes/Throat and Spinning Kick,
    +2 vs Chest/Arm/Hand, +1 vs Abdomen/Groin, +0 vs Legs, Kick, Leg Sweep.
    Drop Dodge base: Martial Arts 4 + dodge 1 + CO 1 + encumbrance 2 = 8."""
    _, ev = defend(react("Drop Dodge"), maneuver, location)
    assert terms(ev["defence"]).get("Drop Dodge", 0) == bonus
    assert ev["defence"]["result"] == 8 + bonus


def test_tie_favours_the_defender_par_5_2():
    """§5.2 PROPOSED: attack 5 = defence 5 is a miss."""
    a = fighter("A", ma=4)
    state, _ = duel(a, fighter("B", combat=5))
    strike(state)
    ev = last(state, "attack")
    assert (ev["attack"]["result"], ev["defence"]["result"]) == (5, 5)
    assert ev["outcome"] == "miss"
    assert events(state, "damage") == []


def test_higher_attack_hits_par_5_2():
    """§5.2 PROPOSED: attack 5 1/2 > defence 5 hits, margin 1/2."""
    a = fighter("A", ma=4, specs={"Martial Strike": 0.5})
    state, _ = duel(a, fighter("B", combat=5, ST=10))
    strike(state)
    ev = last(state, "attack")
    assert ev["outcome"] == "hit"
    assert ev["margin"] == 0.5


def test_leg_grab_wins_ties_aom3226():
    """§1.8 aom3226: Leg Grab succeeds on >= the kicker's result: Martial Kick 5 (MA 4 + 1)
    vs Leg Grab 5 (MA 5): the kick fails and the kicker's leg is held."""
    a = fighter("A", ma=4)
    b = fighter("B", ma=5)
    state, _ = duel(a, b)
    strike(state, "Martial Kick", reaction=react("Leg Grab"))
    ev = last(state, "attack")
    assert (ev["attack"]["result"], ev["defence"]["result"]) == (5, 5)
    assert ev["outcome"] == "miss"
    hold = last(state, "hold")
    assert (hold["holder"], hold["held"], hold["hold"]) == (1, 0, "leg")
    # hexdojo attack.leg_grab_pulls_kicker_in: the caught kicker is in the grabber's hex
    assert state.fighters[0].pos == state.fighters[1].pos == (1, 0)


def test_leg_grab_fails_below_the_kick_aom3226():
    """§1.8 aom3226: Leg Grab 4 < kick 5: the kick lands, no hold."""
    a = fighter("A", ma=4)
    b = fighter("B", ma=4, ST=10)
    state, _ = duel(a, b)
    strike(state, "Martial Kick", reaction=react("Leg Grab"))
    assert last(state, "attack")["outcome"] == "hit"
    assert state.holds == []


def test_defence_risk_is_the_defenders_choice_aom315():
    """§1.8/§1.3: the defender risks 2 dice on Side-step 8: 8 + 5 + 6 - 6 = 13."""
    a = fighter("A", ST=-5)
    state, dice = duel(a, DEF, [5, 6])
    state.apply(attack("Martial Strike"))
    state.apply(react("Side-step dodge"))
    state.apply(risk(0))
    assert state.decision == (1, "risk", "defence")
    state.apply(risk(2))
    assert last(state, "attack")["defence"]["result"] == 13
    assert dice.used == 2

"""§1.19 prone (aom3224, aom3228, aom1d34, aom3213, aom3222) and §5.18 PROPOSED stand-up
and fighting-while-prone rules."""

from __future__ import annotations

from hexdojo.envs.rules import Choice
from tests.rules_kit import attack, duel, events, fighter, last, react, risk, strike

STAND = Choice("maneuver", "Stand up")


def names(state) -> set[str]:
    return {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"}


def test_leg_sweep_knocks_prone_aom3224():
    """§1.19 aom3224: a Leg Sweep hit leaves the target prone at once; damage 4 to the leg
    (Martial Arts 3 + 0 - 2 = 1 vs 0: 4 + 1/2 = 4 1/2 vs DR 0 -> Light)."""
    a = fighter("A", ma=3)
    b = fighter("B", WP=10, athletics=12)
    state, _ = duel(a, b, ap_b=0)
    strike(state, "Leg Sweep", "R Leg")
    assert last(state, "prone")["why"] == "Leg Sweep"
    assert state.fighters[1].prone is True
    dmg = [e for e in events(state, "damage") if e["kind"] == "attack"][0]
    assert (dmg["location"], dmg["roll"]["result"], dmg["wound"]) == ("R Leg", 4.5, "Light")


def test_leg_sweep_may_be_followed_by_a_martial_kick_at_the_prone_target_aom3224():
    """§1.19 aom3224: Leg Sweep -> Martial Kick follow-on against the now prone target."""
    a = fighter("A", ma=3)
    b = fighter("B", WP=10, athletics=12)
    state, _ = duel(a, b, ap_b=0)
    strike(state, "Leg Sweep", "R Leg")
    assert state.decision == (0, "follow_on", "")
    assert names(state) == {"Martial Kick"}


def test_prone_fighter_may_only_kick_turn_or_stand_par_5_18():
    """§5.18 PROPOSED: while prone only Martial Kick (kicks from prone, aom3222), Soak,
    Break Hold, Speak and Turn - plus Stand up."""
    state, _ = duel(fighter("A", ma=3), fighter("B"), fa={"prone": True})
    assert names(state) == {"Martial Kick", "Turn", "Stand up"}
    assert state.why_illegal(attack("Martial Strike")) == (
        "Martial Strike: not allowed while prone (allowed: Martial Kick, Soak, Break Hold, "
        "Turn, Stand up)")


def test_stand_up_costs_two_ap_no_movement_par_5_18():
    """§5.18 PROPOSED: Stand up, 2 AP, no movement."""
    state, _ = duel(fighter("A"), fighter("B"), ap_a=5, fa={"prone": True})
    state.apply(STAND)
    a = state.fighters[0]
    assert (a.prone, a.ap, a.pos) == (False, 3, (0, 0))
    assert last(state, "stand_up")["via"] == "action"


def test_stand_up_needs_two_ap_par_5_18():
    """§5.18/§1.5: with 1 AP a prone fighter cannot stand up."""
    state, _ = duel(fighter("A", ma=2), fighter("B"), ap_a=1, fa={"prone": True})
    assert state.why_illegal(STAND) == "Stand up: needs 2 AP, A has 1"


def test_stand_up_only_when_prone_par_5_18():
    """§5.18 PROPOSED: Stand up is only for a prone fighter."""
    state, _ = duel(fighter("A"), fighter("B"))
    assert state.why_illegal(STAND) == "Stand up: not prone"


def test_prone_defender_cannot_dodge_but_may_stand_up_par_5_18():
    """§5.18 PROPOSED: no dodges while prone; Stand up is also a reaction: B stands (2 AP)
    and then defends with the default defence."""
    a = fighter("A", ma=3)
    b = fighter("B", combat=5)
    state, _ = duel(a, b, fb={"prone": True})
    state.apply(attack("Martial Kick"))
    assert names(state) == {"Turn", "Stand up"}
    assert "not allowed while prone" in state.why_illegal(react("Side-step dodge"))
    state.apply(STAND)
    state.apply(risk(0))
    state.apply(risk(0))
    assert last(state, "stand_up")["via"] == "reaction"
    assert state.fighters[1].prone is False
    assert state.fighters[1].ap == 8
    ev = last(state, "attack")
    assert (ev["defence_maneuver"], ev["defence"]["result"], ev["outcome"]) == ("none", 5, "miss")


def test_martial_kick_from_prone_aom3222():
    """§1.19 aom3222: Martial Kick covers kicks from prone: allowed and rolled normally."""
    a = fighter("A", ma=3)
    state, _ = duel(a, fighter("B", combat=12), ap_b=0, fa={"prone": True})
    strike(state, "Martial Kick")
    assert last(state, "attack")["attack"]["result"] == 4


def test_knocked_over_is_prone_aom1d34():
    """§1.19 aom1d34: knock-back 'knocked over' leaves the victim prone (see §1.13)."""
    a = fighter("A", ST=3, body=12)
    b = fighter("B", body=12)
    state, _ = duel(a, b)
    strike(state, "Martial Kick")
    # difficulty 3 + 6 + 1/2 = 9 1/2; roll 0 - 2 = -2: fail by 11 1/2
    assert last(state, "knockback")["effect"] == "knocked over"
    assert state.fighters[1].prone is True


def test_prone_stand_up_ap_parameter_par_5_18():
    """§5.18 PROPOSED default as a named parameter: prone.stand_up_ap = 1 (its only place)."""
    state, _ = duel(fighter("A"), fighter("B"), ap_a=5, fa={"prone": True},
                    rules={"prone": {"stand_up_ap": 1}})
    state.apply(STAND)
    assert state.fighters[0].ap == 4


def test_prone_allowed_list_is_a_named_parameter_par_5_18():
    """§5.18 PROPOSED default as a named parameter: prone.allowed without Martial Kick."""
    rules = {"prone": {"allowed": ["Soak", "Break Hold", "Turn", "Stand up"]}}
    state, _ = duel(fighter("A", ma=3), fighter("B"), fa={"prone": True}, rules=rules)
    assert names(state) == {"Turn", "Stand up"}

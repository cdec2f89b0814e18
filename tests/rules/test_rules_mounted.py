"""§1.20 mounted fighters (aom3221, aom3225, aom3216, aom3226, aom3224, aom347, aom1d34);
§5.26 PROPOSED mounted use of the other maneuvers; §5.8 Pull Down."""

from __future__ import annotations

from hexdojo.envs.rules import PASS, Choice
from tests.rules_kit import attack, duel, events, fighter, last, risk, strike, terms


def rider(name="R", **kw):
    return fighter(name, mounted=True, height=1, **kw)


def names(state) -> set[str]:
    return {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"}


def test_rider_cannot_strike_someone_on_foot_aom3221():
    """§1.20 aom3221/aom3225: close martial arts mounted only at the same height: a rider
    has no attack on a fighter standing in the same hex."""
    state, _ = duel(rider(ma=3, combat=3), fighter("G"), pos_b=(0, 0))
    assert names(state) == {"Move", "Turn"}
    assert state.why_illegal(attack("Martial Strike")) == \
        "Martial Strike: mounted, only against someone at the same height (§1.20)"


def test_rider_strikes_a_rider_at_minus_two_aom3221():
    """§1.20 aom3221: against someone at the same height, Martial Strike at -2:
    Martial Arts 4 + 1 - 2 = 3."""
    state, _ = duel(rider(ma=4), rider("S", combat=12), pos_b=(0, 0), ap_b=0)
    strike(state)
    roll = last(state, "attack")["attack"]
    assert terms(roll)["mounted"] == -2
    assert roll["result"] == 3


def test_rider_arm_grab_at_minus_two_aom3225():
    """§1.20 aom3225: Arm Grab mounted, same height, -2: 4 + 0 - 1 - 2 = 1."""
    state, _ = duel(rider(ma=4), rider("S", combat=12), pos_b=(0, 0), ap_b=0)
    strike(state, "Arm Grab", "R Arm")
    assert last(state, "attack")["attack"]["result"] == 1


def test_no_leg_grab_leg_sweep_or_range_one_kicks_mounted_aom3226_aom3224_par_5_26():
    """§1.20 aom3226, aom3224; §5.26 PROPOSED: Leg Sweep, Martial Kick and Spinning Kick are
    not allowed mounted; a rider's actions against a rider are Punch, Kick, Martial
    Strike, Arm Grab, Grapple (and Move, Turn)."""
    state, _ = duel(rider(ma=3, combat=3), rider("S"), pos_b=(0, 0))
    assert names(state) == {"Punch", "Kick", "Martial Strike", "Arm Grab", "Grapple", "Move",
                            "Turn"}
    assert state.why_illegal(attack("Leg Sweep", location="R Leg")) == \
        "Leg Sweep: not allowed mounted (§1.20)"
    # Leg Grab is not offered to a rider against a Martial Kick
    kick_state, _ = duel(fighter("G", ma=3), rider("S", ma=5))
    kick_state.apply(attack("Martial Kick"))
    assert "Leg Grab" not in names(kick_state)
    assert kick_state.why_illegal(Choice("maneuver", "Leg Grab")) == \
        "Leg Grab: not allowed mounted (§1.20)"


def test_mounted_grapple_has_no_penalty_aom3216():
    """§1.20 aom3216: Grapple mounted: same-height restriction, no penalty stated (and
    §5.26 does not extend the -2 to it): Combat 4 - 2 (Grapple) = 2."""
    state, _ = duel(rider(combat=4), rider("S", combat=12), pos_b=(0, 0), ap_b=0)
    strike(state, "Grapple", None)
    roll = last(state, "attack")["attack"]
    assert "mounted" not in terms(roll)
    assert roll["result"] == 2


def test_mounted_grapple_still_needs_the_same_height_aom3216():
    """§1.20 aom3216: a mounted grappler cannot grapple someone on foot."""
    state, _ = duel(rider(combat=4), fighter("G"), pos_b=(0, 0))
    assert state.why_illegal(attack("Grapple", location=None)) == \
        "Grapple: mounted, only against someone at the same height (§1.20)"


def test_rider_knockback_uses_riding_aom1d34():
    """§1.13/§1.20 aom1d34: riders roll Riding + ST (not Athletics); Leg modifier 0 (the -2
    is 'on foot'): Riding 3 + ST 0 - 2 (Blunt) = 1."""
    a = fighter("A", ma=4, body=12)
    b = rider("S", riding=3, athletics=9, body=12)
    state, _ = duel(a, b, pos_b=(0, 0), ap_b=0)
    strike(state, location="R Leg")
    roll = last(state, "knockback")["roll"]
    assert roll["terms"] == [["Riding", 3], ["ST", 0], ["Blunt", -2]]


def test_knocked_over_rider_falls_off_aom1d34_aom347():
    """§1.13/§1.20 aom1d34, aom347: knocked over -> falls off the mount, prone, height 0.
    Difficulty 5 + 1/2 x margin 8 = 9; Riding 0 - 2 = -2: fail by 11."""
    a = fighter("A", ma=7, body=12)
    b = rider("S", body=12)
    state, _ = duel(a, b, pos_b=(0, 0), ap_b=5)
    strike(state)
    assert last(state, "knockback")["effect"] == "knocked over"
    assert last(state, "falls_off")["why"] == "knocked over"
    s = state.fighters[1]
    assert (s.mounted, s.prone, s.height) == (False, True, 0)


def test_stunned_rider_rolls_to_stay_mounted_aom347():
    """§1.12/§1.20 aom347: stunned -> Riding + CO (with the -3 stun penalty, §1.12) against
    4 (hexdojo mounted.stay_mounted_difficulty): Riding 6 - 3 = 3 < 4 -> falls off;
    Riding 7 - 3 = 4 stays on (though the knock-back that follows, Riding 7 - 2 - 1 - 3 = 1
    vs 5 1/2 with 0 AP, then unseats him: §1.13)."""
    for riding, why in ((6, ["stunned"]), (7, ["knocked back"])):
        a = fighter("A")
        b = rider("S", riding=riding, WP=1)
        state, _ = duel(a, b, pos_b=(0, 0), ap_b=0)
        strike(state)
        # Light wound (5 1/2): pain WP 1 - 2 + 3 = 2 -> stunned
        assert last(state, "pain")["effect"] == "stunned"
        assert [e["why"] for e in events(state, "falls_off")] == why, riding


def test_unconscious_rider_falls_off_aom347():
    """§1.12/§1.20 aom347: unconscious -> falls off."""
    a = fighter("A")
    b = rider("S", WP=-1, athletics=12)
    state, _ = duel(a, b, pos_b=(0, 0), ap_b=0)
    strike(state)
    assert last(state, "pain")["effect"] == "unconscious"
    assert last(state, "falls_off")["why"] == "unconscious"


def test_pull_down_unhorses_par_5_8_aom347():
    """§1.20 aom347, §5.8 PROPOSED: Pull Down follows an Arm Grab (+0, +1 holding, no
    defensive reaction, damage 3 Blunt); the rider is dragged off, prone, into an adjacent
    hex (§2.3 aom347, mounted.pull_down_lands: in front of G, who faces east); the hold ends."""
    g = fighter("G", ma=6)
    s = rider("S", combat=3, WP=10, athletics=12)
    state, _ = duel(g, s, pos_b=(0, 0))
    strike(state, "Arm Grab", "R Arm")
    assert "Pull Down" in names(state)
    state.apply(Choice("maneuver", "Pull Down", target=1))
    assert names(state) == {"Break Hold"}
    state.apply(PASS)
    state.apply(risk(0))
    state.apply(risk(0))
    ev = last(state, "attack")
    assert ev["attack"]["result"] == 6 + 0 + 1
    assert last(state, "falls_off")["why"] == "Pull Down"
    b = state.fighters[1]
    assert (b.mounted, b.prone, b.pos) == (False, True, (1, 0))
    assert state.holds == []
    dmg = [e for e in events(state, "damage") if e["kind"] == "attack"][-1]
    assert dmg["maneuver"] == "Pull Down"
    assert terms(dmg["roll"])["rating"] == 3


def test_mounted_penalty_is_a_named_parameter_par_5_26():
    """§5.26 PROPOSED default as a named parameter: mounted.attack_mod = -1."""
    state, _ = duel(rider(ma=4), rider("S", combat=12), pos_b=(0, 0), ap_b=0,
                    rules={"mounted": {"attack_mod": -1}})
    strike(state)
    assert last(state, "attack")["attack"]["result"] == 4


def test_range1_kicks_allowed_parameter_par_5_26():
    state, _ = duel(rider(ma=3), rider("S"), rules={"mounted": {"range1_kicks_allowed": True}})
    assert "Martial Kick" in names(state)

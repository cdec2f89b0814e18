"""§1.6 actions, reactions, follow-ons and counter-attacks; §4 reaction matrix; §5.3, §5.7.

Counter-attack reactions are resolved simultaneously: both roll attack, nobody rolls
defence, the higher hits, equal results both hit (aom3142, aom3211, aom3212, aom3221,
aom3225).
"""

from __future__ import annotations

from hexdojo.envs.rules import PASS, Choice
from tests.rules_kit import attack, duel, events, fighter, last, react, risk, strike


def names(state) -> set[str]:
    return {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"}


# Fighters without damage potential on either side keep these tests about the rolls.
A = fighter("A", ma=3, combat=3, CO=1)
B = fighter("B", ma=3, combat=3)


def counter_strike(b_ma: float, faces=(), ra=0, rd=0):
    """A closes with a Martial Strike, B counters with a Martial Strike at A's Chest."""
    # light mail (PV 6): the blows (ST 5 + 5 + margin) wound nobody (no soak decision);
    # Athletics 10: nobody is knocked back
    b = fighter("B", ma=b_ma, ST=5, athletics=10, body="light_mail")
    a = fighter("A", ma=3, CO=1, ST=5, athletics=10, body="light_mail")
    state, dice = duel(a, b, list(faces))
    strike(state, reaction=react("Martial Strike", target=0, location="Chest"), ra=ra, rd=rd)
    return state, dice


def test_counter_attack_higher_result_hits_aom3221():
    """§1.6 aom3221: A 5 (MA 3 + CO 1 + 1) vs B's counter 4 (MA 2 + 1 + ... ) -> A hits,
    B misses; no defence roll is made (the counter's roll is an attack roll)."""
    state, _ = counter_strike(b_ma=2)
    ev = last(state, "attack")
    assert ev["rule"] == "§1.6"
    assert ev["counter"] == "Martial Strike"
    assert ev["attack"]["result"] == 5
    assert ev["defence"]["what"] == "attack"
    assert ev["defence"]["terms"] == [["Martial Arts", 2], ["CO", 0], ["Martial Strike", 1]]
    assert ev["defence"]["result"] == 3
    assert ev["outcome"] == "hit"
    dmg = [d for d in events(state, "damage") if d["kind"] == "attack"]
    assert [(d["actor"], d["target"]) for d in dmg] == [("A", "B")]
    # margin 5 - 3 = 2 -> +1 damage: ST 5 + 5 + 1 = 11 (§1.10)
    assert dmg[0]["roll"]["result"] == 11


def test_counter_attack_equal_results_both_hit_aom3221():
    """§1.6 aom3221: equal results (5 = 5) -> both hit at once, margin 0 each; both blows
    are resolved before either fighter's follow-on window opens."""
    state, _ = counter_strike(b_ma=4)
    ev = last(state, "attack")
    assert ev["attack"]["result"] == ev["defence"]["result"] == 5
    assert ev["outcome"] == "both hit"
    dmg = [d for d in events(state, "damage") if d["kind"] == "attack"]
    assert [(d["actor"], d["target"]) for d in dmg] == [("A", "B"), ("B", "A")]
    # ST 5 + rating 5, no margin bonus on either side
    assert [d["roll"]["result"] for d in dmg] == [10, 10]
    assert state.decision == (0, "follow_on", "")


def test_counter_attack_lower_attacker_is_countered_aom3221():
    """§1.6: B's counter 6 beats A's 5: only B hits (outcome 'countered'), margin 1 -> +1/2."""
    state, _ = counter_strike(b_ma=5)
    ev = last(state, "attack")
    assert ev["outcome"] == "countered"
    dmg = [d for d in events(state, "damage") if d["kind"] == "attack"]
    assert [(d["actor"], d["target"]) for d in dmg] == [("B", "A")]
    assert dmg[0]["roll"]["result"] == 10.5


def test_counter_attack_risks_dice_on_both_sides_par_1_6():
    """§1.6/§1.3: each side risks its own dice: A 1 die (5 + 6 - 3 = 8), B 2 dice
    (4 + 1 + 1 - 6 = 0); the counter's risk decision is labelled 'counter-attack'."""
    b = fighter("B", ma=3, ST=5)
    a = fighter("A", ma=3, CO=1, ST=5)
    state, dice = duel(a, b, [6, 1, 1])
    state.apply(attack("Martial Strike"))
    state.apply(react("Martial Strike", target=0, location="Chest"))
    state.apply(risk(1))
    assert state.decision == (1, "risk", "counter-attack")
    state.apply(risk(2))
    ev = last(state, "attack")
    assert ev["attack"]["dice"] == [6]
    assert ev["attack"]["result"] == 8
    assert ev["defence"]["dice"] == [1, 1]
    assert ev["defence"]["result"] == 0
    assert ev["outcome"] == "hit"
    assert dice.used == 3


def test_arm_grab_counter_grab_is_simultaneous_aom3225():
    """§1.6/§4 aom3225: Arm Grab answers a Martial Strike simultaneously; B's grab 3
    (MA 4 + 0 - 1 for the Arm) beats A's strike 2 (MA 1 + 1): B holds A's arm, A misses."""
    a = fighter("A", ma=1)
    b = fighter("B", ma=4)
    state, _ = duel(a, b)
    strike(state, reaction=react("Arm Grab", target=0, location="R Arm"))
    ev = last(state, "attack")
    assert ev["counter"] == "Arm Grab"
    assert ev["attack"]["result"] == 2
    assert ev["defence"]["result"] == 3
    assert ev["outcome"] == "countered"
    assert events(state, "damage") == []
    hold = last(state, "hold")
    assert (hold["holder"], hold["held"], hold["hold"], hold["location"]) == (1, 0, "arm", "R Arm")


def test_reactions_to_a_closing_martial_strike_par_4():
    """§4: a Martial Strike closing into my hex: Punch / Martial Strike (closing), Arm Grab
    (aimed at me), Forearm Block, the dodges from the front arc, Turn; not Leg Grab (kicks
    only), not action-only maneuvers (Kick, Spinning Kick, Grapple, Leg Sweep)."""
    state, _ = duel(A, B)
    state.apply(attack("Martial Strike"))
    assert state.decision == (1, "reaction", "")
    assert state.context()["closing"] is True
    assert names(state) == {"Punch", "Martial Strike", "Arm Grab", "Forearm Block",
                            "Jump back dodge", "Side-step dodge", "Rolling Dodge",
                            "Drop Dodge", "Turn"}


def test_no_closing_no_closing_counters_par_4():
    """§4: already in the same hex (no closing), Punch and Martial Strike are no longer
    possible reactions; Arm Grab still is (it answers the Martial Strike itself)."""
    state, _ = duel(A, B, pos_b=(0, 0))
    state.apply(attack("Martial Strike"))
    assert state.context()["closing"] is False
    assert names(state) == {"Arm Grab", "Forearm Block", "Jump back dodge", "Side-step dodge",
                            "Rolling Dodge", "Drop Dodge", "Turn"}


def test_reactions_to_a_martial_kick_par_4():
    """§4 aom3226, aom322e: a Martial Kick can be answered by Leg Grab and Forearm Block;
    Arm Grab answers only Martial Strike, Arm Grab and Punch."""
    state, _ = duel(A, B)
    state.apply(attack("Martial Kick"))
    assert names(state) == {"Leg Grab", "Forearm Block", "Jump back dodge", "Side-step dodge",
                            "Rolling Dodge", "Drop Dodge", "Turn"}
    assert "only answers Martial Strike, Arm Grab, Punch" in state.why_illegal(
        react("Arm Grab", target=0, location="R Arm"))


def test_spinning_kick_allows_forearm_block_not_leg_grab_aom322e_aom3226():
    """§4: Forearm Block answers a Spinning Kick (aom322e); Leg Grab only Kick and
    Martial Kick (aom3226)."""
    state, _ = duel(A, B)
    state.apply(attack("Spinning Kick"))
    got = names(state)
    assert "Forearm Block" in got
    assert "Leg Grab" not in got
    assert "Leg Grab: only answers Kick, Martial Kick" == state.why_illegal(react("Leg Grab"))


def test_leg_sweep_cannot_be_forearm_blocked_aom322e():
    """§4 aom322e: Forearm Block answers Punch, Kick, Martial Strike, Martial Kick, Spinning
    Kick - not a Leg Sweep."""
    state, _ = duel(A, B)
    state.apply(attack("Leg Sweep", location="R Leg"))
    assert names(state) == {"Jump back dodge", "Side-step dodge", "Rolling Dodge",
                            "Drop Dodge", "Turn"}


def test_moving_into_my_hex_triggers_closing_counters_aom3221():
    """§1.7/§4 aom3212, aom3221: A moves 2 hexes into B's hex: B may Punch or Martial Strike
    (closing), Martial Kick (entered the adjacent area, §5.7) or Turn."""
    state, _ = duel(A, B, pos_a=(-1, 0))
    state.apply(Choice("maneuver", "Move", option=2))
    assert state.fighters[0].pos == (1, 0)
    assert state.decision == (1, "reaction", "")
    assert names(state) == {"Punch", "Martial Strike", "Martial Kick", "Turn"}


def test_moving_next_to_me_triggers_martial_kick_par_5_7():
    """§5.7 PROPOSED: Martial Kick reacts to an opponent moving into an adjacent hex who was
    not adjacent at the start (like Stand and attack); no closing, so no Punch/Strike."""
    state, _ = duel(A, B, pos_a=(-1, 0))
    state.apply(Choice("maneuver", "Move", option=1))
    assert state.fighters[0].pos == (0, 0)
    assert names(state) == {"Martial Kick", "Turn"}


def test_moving_while_already_adjacent_triggers_no_kick_par_5_7():
    """§5.7 PROPOSED: A, adjacent already, steps to another hex next to B: no Martial Kick
    (only Turn, a reaction to movement, aom3121)."""
    state, _ = duel(A, B)
    # turn left to NE and step to (1, -1), still adjacent to B at (1, 0)
    state.apply(Choice("maneuver", "Move", turn=1, option=1))
    assert state.fighters[0].pos == (1, -1)
    assert names(state) == {"Turn"}


def test_martial_kick_reaction_to_entry_is_a_normal_attack_par_5_7():
    """§5.7: B's Martial Kick reaction is an attack on A: A gets a reaction window to it."""
    state, _ = duel(A, B, pos_a=(-1, 0))
    state.apply(Choice("maneuver", "Move", option=1))
    state.apply(react("Martial Kick", target=0, location="Chest"))
    assert state.decision == (0, "reaction", "")
    assert state.context()["attack"] == "Martial Kick"
    assert state.context()["attacker"] == 1
    assert state.fighters[1].ap == 8  # Martial Kick 2 AP


def test_reaction_costs_ap_aom314():
    """§1.6/§1.5 aom314: a Side-step dodge costs B 1 AP (10 -> 9) and A's strike 1 AP."""
    state, _ = duel(A, B)
    strike(state, reaction=react("Side-step dodge"))
    assert last(state, "reaction")["maneuver"] == "Side-step dodge"
    assert state.fighters[1].ap == 9
    assert state.fighters[0].ap == 9


def test_no_follow_on_after_a_failed_maneuver_aom314():
    """§1.6 aom314: follow-ons exploit a *successful* maneuver: after A's Martial Strike
    misses (4 vs 6), A gets no follow-on window; the next decision is A's next action."""
    a = fighter("A", ma=3)
    b = fighter("B", combat=6)
    state, _ = duel(a, b)
    strike(state)
    assert last(state, "attack")["outcome"] == "miss"
    assert state.decision == (0, "action", "")


def test_follow_on_after_a_successful_maneuver_aom314():
    """§1.6 aom314/§3: after a hit the striker is offered the follow-on window."""
    a = fighter("A", ma=3)
    b = fighter("B", ST=9)  # DR 9: no wound, no soak decision
    state, _ = duel(a, b, ap_b=0)
    strike(state)
    assert last(state, "attack")["outcome"] == "hit"
    assert state.decision == (0, "follow_on", "")
    assert state.context()["after"] == "Martial Strike"


def test_action_only_maneuvers_are_not_reactions_aom314():
    """§1.6 tags: Kick is [A] only, so it is refused as a reaction with the reason."""
    state, _ = duel(A, B)
    state.apply(attack("Martial Strike"))
    assert state.why_illegal(react("Kick", target=0, location="Abdomen")) == \
        "Kick: not a reaction (tags A)"


def test_pass_takes_the_default_defence_aom315():
    """§1.6/§1.8: without a reaction the default defence is rolled (Combat + CO)."""
    state, _ = duel(A, B)
    strike(state, reaction=PASS)
    ev = last(state, "attack")
    assert ev["defence_maneuver"] == "none"
    assert ev["defence"]["terms"] == [["Combat", 3], ["CO", 0]]

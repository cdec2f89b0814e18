"""The Martial Strike and Arm Grab pages taken word for word (issue 28: aom3221, aom3225;
RULES §1.6, §1.17, §1.18, §1.20, §3), with loaded dice (every roll risks 0 dice: a result is
its basic value, computed here by hand) in duels, three-fighter fights, armed and mounted
fights. Each test names the page it checks; the readings the pages leave open are rules
keys (``attack.counter_needs_non_phasing``, ``forearm_block.grab_after_kick``,
``mounted.close_from_other_hex``, ``movement.dodge_triggers_attacker``,
``attack.striking_hand``), tested both ways.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hexdojo.envs.rules import PASS, RELEASE, Choice, Game, LoadedDice

from ..rules_kit import attack, duel, events, fighter, last, play, react, risk, strike


def fx(name: str, **kw: Any) -> dict[str, Any]:
    return {**fighter(name, **kw), "creation_limits": False}


def armed(name: str, right: str | None = None, left: str | None = None, **kw: Any) -> dict[str, Any]:
    return fx(name, weapon_skills={"Knife": 2, "Sword": 2}, weapons={"right": right, "left": left}, **kw)


def trio(a: dict, b: dict, c: dict, fighters: list[dict[str, Any]], rules=None, **sc: Any):
    game = Game.create([a, b, c], rules=rules, radius=4)
    return game.new_state(LoadedDice([]), scenario={"fighters": fighters, **sc})


def names(state) -> set[str | None]:
    return {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"}


def grab_arms(state, target: int) -> set[str]:
    return {c.location for c in state.legal_choices() if c.maneuver == "Arm Grab" and c.target == target}


def hold_of(state, holder: int):
    return next(h for h in state.holds if h.holder == holder)


# ----------------------------------------------------------------- 1. a counter tie (§1.6)
def _tie(wp_a: float, wp_b: float):
    """A (Martial Arts 4) closes into B's hex with a Martial Strike (4 + 1 = 5); B counters
    with his own (4 + 1 = 5): equal results, both hit (aom3221)."""
    s, _ = duel(fx("A", ma=4, WP=wp_a), fx("B", ma=4, WP=wp_b))
    s.apply(attack("Martial Strike", location="Chest"))
    s.apply(Choice("maneuver", "Martial Strike", target=0, location="Chest"))
    play(s, risk(0), risk(0))
    assert last(s, "attack")["outcome"] == "both hit"
    return s


def test_a_counter_tie_rolls_both_blows_before_either_lands_aom3221_s1_6():
    """aom3221/aom3225 (§1.6): "both attacks hit their targets simultaneously": B's damage
    (5: no margin, no impairment) is rolled before A's blow wounds him, so it is A's 5 too;
    both damage rolls come before any wound."""
    s = _tie(9, 9)
    while s.decision is not None and s.decision.kind == "soak":
        s.apply(PASS)
    types = [e["type"] for e in s.events]
    first_wound = types.index("wound")
    dmg = events(s, "damage")
    assert [(d["a"], d["t"]) for d in dmg[:2]] == [(0, 1), (1, 0)]
    second = types.index("damage", types.index("damage") + 1)
    assert types.index("damage") < second < first_wound
    assert dmg[0]["roll"]["basic"] == dmg[1]["roll"]["basic"] == 5  # B's blow not weakened


def test_a_counter_tie_can_end_in_a_double_knock_out_aom3221_s1_6():
    """§1.6 with §1.12: WP -9 makes any wound's pain roll <= 0 (unconscious); A's blow
    knocks B out, and B's simultaneous blow still lands: both down, a draw reported as a
    double knock-out."""
    s = _tie(-9, -9)
    while s.decision is not None:
        s.apply(PASS)
    assert s.fighters[0].out == s.fighters[1].out == "unconscious"
    assert s.is_over and s.result["winner"] is None and s.result["reason"] == "double knock-out"


def test_a_counter_tie_in_a_group_leaves_the_third_standing_aom3221():
    """§1.6 in a three-fighter fight: A and B knock each other out at once; C, on neither's
    side, is the last standing."""
    a, b, c = fx("A", ma=4, WP=-9), fx("B", ma=4, WP=-9), fx("C")
    s = trio(a, b, c, [{"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [1, 0], "facing": 3, "ap": 6},
                       {"pos": [-3, 0], "facing": 0, "ap": 6}], phase=0)
    s.apply(attack("Martial Strike", target=1, location="Chest"))
    s.apply(Choice("maneuver", "Martial Strike", target=0, location="Chest"))
    play(s, risk(0), risk(0))
    while s.decision is not None and s.decision.kind in ("soak", "follow_on"):
        s.apply(PASS)
    assert s.fighters[0].out == s.fighters[1].out == "unconscious"
    assert [e["roll"]["basic"] for e in events(s, "damage")] == [5, 5]  # both from before
    assert s.is_over and s.result["winner"] == 2 and s.result["reason"] == "last standing"


# ----------------------------------------------------------------- 2. closing into a full hex
def test_closing_into_a_hex_is_a_closing_for_everyone_in_it_aom3221():
    """aom3221 ("an opponent closing into the character's hex"): A closes on B in the hex
    B shares with C; C is asked first and may answer with a Martial Strike or a Punch; the
    log says he reacted to A's closing; then B, the target, answers the attack."""
    a, b, c = fx("A", WP=10, athletics=12), fx("B"), fx("C", ma=4)
    s = trio(a, b, c, [{"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [1, 0], "facing": 3, "ap": 6},
                       {"pos": [1, 0], "facing": 3, "ap": 6}], phase=0)
    s.apply(attack("Martial Strike", target=1, location="Chest"))
    assert s.decision == (2, "reaction", "") and s.context()["attacker"] == 0
    assert {"Martial Strike", "Punch"} <= names(s) and "Arm Grab" not in names(s)  # no attack on C
    s.apply(Choice("maneuver", "Martial Strike", target=0, location="Chest"))
    ev = last(s, "reaction")
    assert (ev["a"], ev["trigger"], ev["against"]) == (2, "closing", "A closing in (Martial Strike)")
    assert last(s, "declare")["a"] == 2 and last(s, "declare")["via"] == "reaction"
    play(s, PASS, risk(0), risk(0))  # A does not defend; C's 4 + 1 = 5 vs A's 0: a hit
    assert last(s, "attack")["outcome"] == "hit" and last(s, "attack")["a"] == 2
    while s.decision is not None and s.decision.fighter != 1:
        s.apply(PASS)
    assert s.decision == (1, "reaction", "") and s.context()["attack"] == "Martial Strike"


def test_closing_in_a_duel_asks_only_the_target_aom3221():
    """aom3221 in a duel: the target is the only opponent in the hex; his window answers
    the closing and the attack at once (no second window)."""
    s, _ = duel(fx("A"), fx("B", ma=4))
    s.apply(attack("Martial Strike", location="Chest"))
    assert s.decision == (1, "reaction", "") and s.context()["closing"] is True
    assert not events(s, "reaction")


def test_no_one_on_the_closers_side_is_asked_aom3221():
    """aom3221 speaks of an opponent closing: C, on A's side, sharing B's hex, is not asked."""
    game = replace(Game.create([fx("A"), fx("B"), fx("C", ma=4)], radius=4), sides=(0, 1, 0))
    s = game.new_state(LoadedDice([]), scenario={"fighters": [
        {"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [1, 0], "facing": 3, "ap": 6},
        {"pos": [1, 0], "facing": 3, "ap": 6}], "phase": 0})
    s.apply(attack("Martial Strike", target=1, location="Chest"))
    assert s.decision.fighter == 1


# ----------------------------------------------------------------- 4. release at any time
def _holding(n: int = 2, **kw: Any):
    """A holds the other's (B's, or C's) right arm; it is B's phase."""
    a, b = fx("A", ma=4), fx("B", ma=4)
    fighters = [{"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [0, 0], "facing": 3, "ap": 6}]
    held = 1
    if n == 3:
        fighters = [{"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [1, 0], "facing": 3, "ap": 6},
                    {"pos": [0, 0], "facing": 3, "ap": 6}]
        held = 2
    game = Game.create([a, b, fx("C")][:n], radius=4, **kw)
    sc = {"fighters": fighters, "phase": 1,
          "holds": [{"holder": 0, "held": held, "kind": "arm", "location": "R Arm"}]}
    return game.new_state(LoadedDice([]), scenario=sc)


def test_the_holder_may_release_in_a_reaction_window_aom3225_s1_18():
    """aom3225 (§1.18, "may release at any time"): B, held, punches A; A's reaction window
    offers Release; releasing frees B at once and gives A the same window again."""
    s = _holding()
    s.apply(attack("Punch", target=0, location="Chest"))
    assert s.decision == (0, "reaction", "") and RELEASE in s.legal_choices()
    s.apply(RELEASE)
    assert s.holds == [] and last(s, "hold_ends")["why"] == "released"
    assert s.decision == (0, "reaction", "") and RELEASE not in s.legal_choices()
    assert "Forearm Block" in names(s)


def test_the_holder_may_release_in_a_follow_on_and_a_soak_window_aom3225():
    """aom3225: Release also sits in the holder's follow-on window (after his Arm Grab) and
    in his soak window."""
    s, _ = duel(fx("A", ma=4), fx("B"), pos_b=(0, 0))
    strike(s, "Arm Grab", "R Arm")
    assert s.decision == (0, "follow_on", "") and RELEASE in s.legal_choices()
    s.apply(RELEASE)
    assert s.holds == [] and s.decision == (0, "follow_on", "")
    h, _ = duel(fx("A", ma=4), fx("B", combat=6, ST=9), pos_b=(0, 0), phase=1,
                holds=[{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}])
    strike(h, "Punch", "Chest", target=0)
    assert h.decision == (0, "soak", "") and RELEASE in h.legal_choices()


def test_release_frees_a_third_fighter_at_once_aom3225():
    """aom3225 in a three-fighter fight: A holds C; B attacks A; A lets C go from his
    reaction window; C is free at once. With holds.release_ap above A's AP, no Release."""
    s = _holding(3)
    s.apply(attack("Martial Strike", target=0, location="Chest"))
    assert s.decision == (2, "reaction", "")  # C, in A's hex, is asked about the closing first
    s.apply(PASS)
    assert s.decision.fighter == 0 and RELEASE in s.legal_choices()
    s.apply(RELEASE)
    assert s.hold_on(2) is None
    costly = _holding(3, rules={"holds": {"release_ap": 7}})
    costly.apply(attack("Martial Strike", target=0, location="Chest"))
    costly.apply(PASS)
    assert costly.decision.fighter == 0 and RELEASE not in costly.legal_choices()


# ----------------------------------------------------------------- 5. the other hand
def test_the_arm_grab_keeps_its_hand_the_follow_up_uses_the_other_aom3225():
    """aom3225 ("follow up a Punch or Martial Strike (using his/her other hand)"): A grabs
    with his right (both free: attack.striking_hand); his follow-ups Punch and Martial Strike
    use the left. With a dagger in his left hand there is no hand left for them (Head Butt
    still is)."""
    s, _ = duel(fx("A", ma=4, combat=4), fx("B"), pos_b=(0, 0))
    strike(s, "Arm Grab", "R Arm")
    assert hold_of(s, 0).hand == 0
    assert {"Punch", "Martial Strike", "Head Butt"} <= names(s)
    k, _ = duel(armed("A", left="dagger", ma=4, combat=4), fx("B"), pos_b=(0, 0))
    strike(k, "Arm Grab", "R Arm")
    assert hold_of(k, 0).hand == 0
    assert not names(k) & {"Punch", "Martial Strike"} and "Head Butt" in names(k)
    assert "free arm" in k.why_illegal(Choice("maneuver", "Punch", 1, "Chest"))


def test_a_grab_with_the_left_keeps_the_left_aom3225():
    """aom3225: with a dagger in the right hand, A grabs with his free left; the dagger
    hand is no free hand either, so no Punch or Martial Strike follows."""
    s, _ = duel(armed("A", right="dagger", ma=4, combat=4), fx("B"), pos_b=(0, 0))
    strike(s, "Arm Grab", "L Arm")
    assert hold_of(s, 0).hand == 1
    assert not names(s) & {"Punch", "Martial Strike"}


# ----------------------------------------------------------------- 6. the held fighter's free arm
def _armoured(name: str, **kw: Any) -> dict[str, Any]:
    return fx(name, body="full_plate", WP=10, athletics=12, **kw)


def test_a_held_fighter_strikes_with_his_free_hand_aom3225_aom3221():
    """aom3225 ("cannot use the arm that is grabbed"), aom3221 ("hit on the hand"): B holds
    A's right arm; A's Punch at the armoured B is made with the left, and the self-injury
    falls on A's L Hand."""
    s, _ = duel(fx("A", combat=4, WP=10), _armoured("B"), pos_b=(0, 0),
                holds=[{"holder": 1, "held": 0, "kind": "arm", "location": "R Arm"}])
    strike(s, "Punch", "Chest")
    assert last(s, "attack")["outcome"] == "hit"
    while s.decision is not None and s.decision.kind in ("soak", "follow_on"):
        s.apply(PASS)
    assert [e["location"] for e in events(s, "damage") if e["kind"] == "self"] == ["L Hand"]


def test_the_striking_hand_is_the_free_one_aom3221():
    """aom3221: a free fighter strikes with the right (attack.striking_hand); with a dagger
    in his right hand, with the left; a left-hander's rule set says the left first."""
    left_first = {"attack": {"striking_hand": "L Hand"}}
    for fighter_a, rules, hand in ((fx("A", combat=4, WP=10), None, "R Hand"),
                                   (armed("A", right="dagger", combat=4, WP=10), None, "L Hand"),
                                   (fx("A", combat=4, WP=10), left_first, "L Hand")):
        s, _ = duel(fighter_a, _armoured("B"), pos_b=(0, 0), rules=rules)
        strike(s, "Punch", "Chest")
        while s.decision is not None and s.decision.kind in ("soak", "follow_on"):
            s.apply(PASS)
        assert [e["location"] for e in events(s, "damage") if e["kind"] == "self"] == [hand]


def test_a_held_fighter_with_a_weapon_in_his_free_hand_cannot_punch_aom3225():
    """aom3225: B holds A's right arm and A's left holds a dagger: no arm left to punch."""
    s, _ = duel(armed("A", left="dagger", combat=4), fx("B"), pos_b=(0, 0),
                holds=[{"holder": 1, "held": 0, "kind": "arm", "location": "R Arm"}])
    assert "Punch" not in names(s) and "Martial Strike" not in names(s)


# ----------------------------------------------------------------- 7. the arm that attacked
def test_the_grab_after_a_forearm_block_takes_the_arm_that_struck_aom3225():
    """aom3225 ("grab the arm that attacked him/her and that the character blocked"): A
    punches with his right (both free) and B grabs only A's R Arm; with a dagger in A's right
    A punches with the left, and B may grab only the L Arm."""
    for fighter_a, arm in ((fx("A", combat=1), "R Arm"), (armed("A", right="dagger", combat=1), "L Arm")):
        s, _ = duel(fighter_a, fx("B", ma=6))
        strike(s, "Punch", "Chest", reaction=react("Forearm Block"))
        assert last(s, "attack")["outcome"] == "miss" and s.decision == (1, "follow_on", "")
        assert s.context()["locked"] == arm
        assert grab_arms(s, 0) == {arm}


def test_no_grab_after_blocking_a_kick_unless_the_key_says_either_arm_aom3225():
    """aom3225 names the arm that attacked; a kick has none: no Arm Grab follows a blocked
    kick (forearm_block.grab_after_kick = "none"); "either_arm" is the other reading."""
    for reading, arms in (("none", set()), ("either_arm", {"L Arm", "R Arm"})):
        s, _ = duel(fx("A", ma=1), fx("B", ma=6), rules={"forearm_block": {"grab_after_kick": reading}})
        strike(s, "Martial Kick", "Chest", reaction=react("Forearm Block"))
        assert s.decision == (1, "follow_on", "")
        assert grab_arms(s, 0) == arms
        if reading == "none":
            assert "no arm" in s.why_illegal(Choice("maneuver", "Arm Grab", 0, "R Arm"))


# ----------------------------------------------------------------- 8. who may counter
def test_the_phasing_fighter_does_not_counter_a_follow_on_aom3221_aom3225():
    """aom3221, aom3225 ("A non-phasing character can carry out ... as a reaction"): A's
    Punch is blocked by B, whose follow-on Martial Strike A may still block, but not answer
    with a counter-attack Arm Grab; with attack.counter_needs_non_phasing = [] (RULES §1.4's
    reading) he may."""
    for rules, countered in ((None, False), ({"attack": {"counter_needs_non_phasing": []}}, True)):
        s, _ = duel(fx("A", combat=1, ma=4), fx("B", ma=6), rules=rules)
        strike(s, "Punch", "Chest", reaction=react("Forearm Block"))
        s.apply(attack("Martial Strike", target=0, location="Chest"))
        assert s.decision == (0, "reaction", "")
        assert ("Arm Grab" in names(s)) is countered
        assert "Forearm Block" in names(s)
        if not countered:
            assert "non-phasing" in s.why_illegal(Choice("maneuver", "Arm Grab", 1, "R Arm"))


# ----------------------------------------------------------------- 10. mounted: the same hex
def _riders(rules=None, pos_b=(1, 0)):
    rider = dict(mounted=True, height=1, riding=4, ma=4)
    return duel(fx("A", **rider), fx("B", **rider), pos_b=pos_b, rules=rules)[0]


def test_mounted_grapples_only_in_the_same_hex_aom3221_aom3225_s1_20():
    """aom3221, aom3225 ("only against an opponent that is at the same height and in the
    same hex"): riders side by side may not close for an Arm Grab or a Martial Strike; on
    the same mount they may; mounted.close_from_other_hex = true is the closing reading."""
    s = _riders()
    assert not names(s) & {"Arm Grab", "Martial Strike"}
    assert "same hex" in s.why_illegal(Choice("maneuver", "Arm Grab", 1, "R Arm"))
    assert {"Arm Grab", "Martial Strike"} <= names(_riders(pos_b=(0, 0)))
    assert {"Arm Grab", "Martial Strike"} <= names(_riders({"mounted": {"close_from_other_hex": True}}))

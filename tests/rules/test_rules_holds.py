"""§1.18 holds and Break Hold (aom3225, aom3216, aom3226, aom3227, aom3228, aom322a,
aom322d); §5.13-5.17 PROPOSED defaults; §5.24 lock damage location."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import END, PASS, RELEASE, Choice, Game, LoadedDice
from tests.rules_kit import attack, duel, events, fighter, last, react, risk, strike, terms

ARM_HOLD_ON_B = {"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}
ARM_HOLD_ON_A = {"holder": 1, "held": 0, "kind": "arm", "location": "R Arm"}


def held_state(a, b, kind="arm", holder=0, location="R Arm", **kw):
    hold = {"holder": holder, "held": 1 - holder, "kind": kind, "location": location}
    return duel(a, b, pos_b=(0, 0), holds=[hold], **kw)


def names(state) -> set[str]:
    return {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"}


def trio(a, b, c, scenario, faces=()):
    dice = LoadedDice(list(faces))
    return Game.create([a, b, c]).new_state(dice, scenario=scenario), dice


# ------------------------------------------------------------------ creating holds
def test_arm_grab_holds_one_arm_aom3225():
    """§1.18 aom3225: a successful Arm Grab (Martial Arts 4 + 0 - 1 = 3 vs 0) holds the
    aimed arm; no damage roll; the grabber may follow on."""
    state, _ = duel(fighter("A", ma=4), fighter("B"))
    strike(state, "Arm Grab", "L Arm")
    assert last(state, "attack")["attack"]["result"] == 3
    assert [(h.holder, h.held, h.kind, h.location) for h in state.holds] == \
        [(0, 1, "arm", "L Arm")]
    assert events(state, "damage") == []
    assert state.decision == (0, "follow_on", "")


def test_grapple_holds_both_arms_aom3216():
    """§1.18 aom3216: Grapple (Combat 4 - 2 = 2 vs 0) holds both arms."""
    state, _ = duel(fighter("A", combat=4), fighter("B"))
    strike(state, "Grapple", None)
    assert last(state, "attack")["attack"]["result"] == 2
    assert [(h.holder, h.held, h.kind) for h in state.holds] == [(0, 1, "both_arms")]


# ------------------------------------------------------------------ the held fighter
def test_held_fighter_cannot_leave_the_hex_aom3225():
    """§1.18 aom3225, §5.14 PROPOSED: arm-held B may attack the holder (not with the held
    arm), break the hold - but not Move, dodge away, Turn or kick from range."""
    state, _ = held_state(fighter("A"), fighter("B", ma=3, combat=3), phase=1)
    assert names(state) == {"Punch", "Kick", "Head Butt", "Martial Strike", "Arm Grab",
                            "Break Hold"}
    assert "not allowed while held" in state.why_illegal(Choice("maneuver", "Move", option=1))


@pytest.mark.parametrize(
    ("kind", "maneuver", "location", "base", "mod", "page"),
    [
        ("arm", "Kick", "Abdomen", 5, -2, "aom3225"),
        ("leg", "Punch", "Chest", 6, -4, "aom3226"),
        ("both_arms", "Kick", "Abdomen", 5, -2, "aom3216"),
        ("head_lock", "Punch", "Chest", 6, -4, "§5.14"),
    ],
)
def test_held_fighter_attacks_the_holder_at_a_penalty(kind, maneuver, location, base, mod,
                                                      page):
    """§1.18: arm held -2 (aom3225), leg held -4 (aom3226), grappled -2 (aom3216; kick or
    head butt), head-locked -4 (§5.14 PROPOSED). B: Combat 6 (Kick at the Abdomen -1)."""
    a = fighter("A", combat=12)
    b = fighter("B", combat=6)
    state, _ = held_state(a, b, kind=kind, phase=1, location=None)
    strike(state, maneuver, location, target=0)
    roll = last(state, "attack")["attack"]
    assert terms(roll)[f"held ({kind})"] == mod, page
    assert roll["result"] == base + mod


def test_grappled_fighter_may_only_kick_or_head_butt_aom3216():
    """§1.18 aom3216: both arms grappled: Kick or Head Butt the holder, Break Hold."""
    state, _ = held_state(fighter("A"), fighter("B", ma=3, combat=3), kind="both_arms",
                          phase=1, location=None)
    assert names(state) == {"Kick", "Head Butt", "Break Hold"}


def test_grappled_from_behind_cannot_attack_aom3216():
    """§1.18 aom3216: grappled from behind: no kicks or head butts at the holder."""
    a = fighter("A", combat=6)
    b = fighter("B", combat=3)
    state, _ = duel(a, b, facing_b=0)  # B's back to A
    strike(state, "Grapple", None)
    assert state.holds[0].from_behind is True
    state.apply(END)
    assert state.decision == (1, "action", "")
    assert names(state) == {"Break Hold"}


def test_held_fighter_may_only_attack_the_holder_aom3225():
    """§1.18 aom3225: B, arm-held by A, cannot strike C who stands in the same hex."""
    a, b, c = fighter("A"), fighter("B", ma=3), fighter("C")
    state, _ = trio(a, b, c, {
        "fighters": [{"pos": [0, 0], "facing": 0, "ap": 5}, {"pos": [0, 0], "facing": 3, "ap": 5},
                     {"pos": [0, 0], "facing": 3, "ap": 5}],
        "holds": [ARM_HOLD_ON_B], "phase": 1})
    assert state.why_illegal(attack("Martial Strike", target=2)) == \
        "Martial Strike: while held, only the holder can be attacked"
    assert attack("Martial Strike", target=0) in state.legal_choices()


# ------------------------------------------------------------------ the holder
def test_holder_gets_plus_one_against_the_held_arm_aom3225():
    """§1.18 aom3225: holder +1 on attacks against the opponent whose arm he holds:
    Martial Strike 3 + 1 + 1 = 5."""
    state, _ = held_state(fighter("A", ma=3), fighter("B", combat=12), ap_b=0)
    strike(state)
    roll = last(state, "attack")["attack"]
    assert terms(roll)["holding"] == 1
    assert roll["result"] == 5


def test_holder_cannot_leave_the_hex_par_5_15():
    """§5.15 PROPOSED: the holder cannot move out of the hex without releasing."""
    state, _ = held_state(fighter("A"), fighter("B"))
    assert state.why_illegal(Choice("maneuver", "Move", option=1)) == \
        "Move: holding someone; release first (a holder cannot leave the hex)"


def test_release_is_free_par_5_17():
    """§1.18 aom3225, §5.17 PROPOSED: the holder may release at any time, 0 AP."""
    state, _ = held_state(fighter("A"), fighter("B"), ap_a=3)
    assert RELEASE in state.legal_choices()
    state.apply(RELEASE)
    assert state.holds == []
    assert last(state, "hold_ends")["why"] == "released"
    assert state.fighters[0].ap == 3


def test_release_cost_is_a_named_parameter_par_5_17():
    """§5.17 PROPOSED default as a named parameter: holds.release_ap = 1 makes letting go
    cost 1 AP (3 -> 2); with 0 AP the holder cannot release."""
    rules = {"holds": {"release_ap": 1}}
    state, _ = held_state(fighter("A"), fighter("B"), ap_a=3, rules=rules)
    state.apply(RELEASE)
    assert state.fighters[0].ap == 2
    state2, _ = held_state(fighter("A"), fighter("B"), ap_a=0, ap_b=2, rules=rules)
    # A, at 0 AP, has only 'end phase': it is taken at once and B's phase follows
    assert last(state2, "phase_ends")["actor"] == "A"
    assert state2.decision == (1, "action", "")
    assert len(state2.holds) == 1


def test_maintain_cost_is_a_named_parameter_par_5_17():
    """§5.17 PROPOSED default as a named parameter: holds.maintain_ap = 1 should cost the
    holder 1 AP to keep the hold into a new turn."""
    a = fighter("A", combat=4, tactics=1)
    state, _ = held_state(a, fighter("B"), dice=[1, 1], ap_a=0, ap_b=0,
                          rules={"holds": {"maintain_ap": 1}})
    assert state.decision == (0, "action", "")  # A may still release the hold (0 AP)
    state.apply(END)
    assert state.turn == 2
    assert state.fighters[0].ap == 4 - 1
    assert last(state, "hold_kept")["ap"] == 1 and len(state.holds) == 1


def test_holder_who_cannot_pay_to_keep_the_hold_lets_go_par_5_17():
    """§5.17: with holds.maintain_ap = 5 > A's 4 AP, the hold ends at the new turn."""
    a = fighter("A", combat=4, tactics=1)
    state, _ = held_state(a, fighter("B"), dice=[1, 1], ap_a=0, ap_b=0,
                          rules={"holds": {"maintain_ap": 5}})
    state.apply(END)
    assert state.turn == 2 and state.holds == [] and state.fighters[0].ap == 4
    assert last(state, "hold_ends")["why"] == "cannot pay to keep it"


def test_one_hold_per_holder_par_5_17():
    """§5.17 PROPOSED: A, holding B, cannot Arm Grab C."""
    a, b, c = fighter("A", ma=3), fighter("B"), fighter("C")
    state, _ = trio(a, b, c, {
        "fighters": [{"pos": [0, 0], "facing": 0, "ap": 5}, {"pos": [0, 0], "facing": 3, "ap": 5},
                     {"pos": [0, 0], "facing": 3, "ap": 5}],
        "holds": [ARM_HOLD_ON_B], "phase": 0})
    assert state.why_illegal(attack("Arm Grab", target=2, location="R Arm")) == \
        "Arm Grab: already holding B (one hold at a time)"


def test_head_lock_holder_minus_two_on_other_maneuvers_aom322a():
    """§1.18 aom322a: a Head Lock holder takes -2 on other maneuvers (striking C:
    Martial Strike 3 + 1 - 2 = 2) and on defending against C."""
    a, b, c = fighter("A", ma=3, combat=4), fighter("B"), fighter("C", combat=12)
    state, _ = trio(a, b, c, {
        "fighters": [{"pos": [0, 0], "facing": 0, "ap": 5}, {"pos": [0, 0], "facing": 3, "ap": 0},
                     {"pos": [0, 0], "facing": 3, "ap": 0}],
        "holds": [{"holder": 0, "held": 1, "kind": "head_lock", "location": "Head"}],
        "phase": 0})
    strike(state, target=2)
    roll = last(state, "attack")["attack"]
    assert terms(roll)["holding (head_lock)"] == -2
    assert roll["result"] == 2


# ------------------------------------------------------------------ ending holds
def test_staggering_the_holder_breaks_the_hold_aom3225():
    """§1.12/§1.18 aom3225: B holds A's arm; A's Martial Strike (4 + 1 - 2 = 3 vs 0) hits:
    5 + 1 1/2 = 6 1/2 vs DR 0 -> Medium; B's pain WP 6 - 2 + 0 = 4 -> staggered: hold ends."""
    a = fighter("A", ma=4)
    b = fighter("B", WP=6, athletics=12)
    state, _ = held_state(a, b, holder=1, ap_b=0)
    strike(state)
    assert last(state, "pain")["effect"] == "staggered"
    assert state.holds == []
    assert last(state, "hold_ends")["why"] == "holder staggered"


def test_holder_not_staggered_keeps_the_hold_aom3225():
    """§1.18 aom3225: the same blow on a WP 9 holder (pain 7: no effect) keeps the hold."""
    a = fighter("A", ma=4)
    b = fighter("B", WP=9, athletics=12)
    state, _ = held_state(a, b, holder=1, ap_b=0)
    strike(state)
    assert last(state, "pain")["effect"] == "none"
    assert len(state.holds) == 1


def break_hold(state, option: int, re: int = 0, rh: int = 0):
    state.apply(Choice("maneuver", "Break Hold", option=option))
    state.apply(risk(re))
    state.apply(risk(rh))
    return last(state, "break_hold")


@pytest.mark.parametrize(
    ("option", "method", "expected"),
    [(0, "brute force", 5), (1, "technique", 5), (2, "contortion", 6)],
)
def test_break_hold_methods_aom322d(option, method, expected):
    """§1.18 aom322d: brute force Combat 2 + ST 3, technique Martial Arts 1 + WP 4,
    contortion Athletics 4 + CO 2; costs 2 AP."""
    b = fighter("B", combat=2, ST=3, ma=1, WP=4, athletics=4, CO=2)
    state, _ = held_state(fighter("A"), b, phase=1)
    ev = break_hold(state, option)
    assert ev["escaper"]["what"] == f"break hold ({method})"
    assert ev["escaper"]["result"] == expected
    assert state.fighters[1].ap == 8


def test_escaper_must_score_higher_aom322d():
    """§1.18 aom322d: escaper 4 vs holder 4 -> still held (the holder wins ties);
    the holder resists with his best method (technique 2 + 2 = 4 > brute force 3)."""
    a = fighter("A", combat=2, ST=1, ma=2, WP=2)
    b = fighter("B", combat=4)
    state, _ = held_state(a, b, phase=1)
    ev = break_hold(state, 0)
    assert ev["holder"]["what"] == "hold (technique)"
    assert (ev["escaper"]["result"], ev["holder"]["result"]) == (4, 4)
    assert ev["outcome"] == "held"
    assert len(state.holds) == 1


def test_successive_attempts_get_plus_one_aom322d():
    """§1.18 aom322d: +1 for each successive attempt against the same hold: the 2nd try
    (4 + 1 = 5) beats the holder's 4."""
    a = fighter("A", combat=4)
    b = fighter("B", combat=4)
    state, _ = held_state(a, b, phase=1)
    assert break_hold(state, 0)["outcome"] == "held"
    ev = break_hold(state, 0)
    assert terms(ev["escaper"])["earlier attempts"] == 1
    assert ev["escaper"]["result"] == 5
    assert ev["outcome"] == "broken"
    assert state.holds == []
    assert state.fighters[1].ap == 6


def test_arm_lock_is_harder_to_break_par_5_13():
    """§5.13 PROPOSED: the holder gets +2 against a Break Hold from an Arm/wrist Lock:
    escaper 5 vs holder 4 + 2 = 6 -> held."""
    a = fighter("A", combat=4)
    b = fighter("B", combat=5)
    state, _ = held_state(a, b, kind="arm_lock", phase=1)
    ev = break_hold(state, 0)
    assert terms(ev["holder"])["arm_lock hold"] == 2
    assert (ev["escaper"]["result"], ev["holder"]["result"]) == (5, 6)
    assert ev["outcome"] == "held"


def test_break_hold_is_also_a_reaction_aom322d():
    """§1.18 aom322d [A/R]: attacked by the holder, the held fighter may answer with Break
    Hold; if it succeeds the attack still goes on against the freed fighter."""
    a = fighter("A", ma=3)
    b = fighter("B", combat=5)
    state, _ = held_state(a, b)
    state.apply(attack("Martial Strike"))
    assert "Break Hold" in names(state)
    state.apply(react("Break Hold", option=0))
    ev = break_hold_reaction_rolls(state)
    assert ev["outcome"] == "broken"
    assert state.holds == []


@pytest.mark.parametrize(("maneuver", "location", "option"),
                         [("Arm/wrist Lock", "R Arm", 0), ("Martial Throw", None, 3)])
def test_breaking_free_foils_a_lock_or_throw_aom322d(maneuver, location, option):
    """§1.18 + aom322d (``holds.hold_maneuvers_need_the_hold``, our reading): after an Arm
    Grab, A goes for a lock or a throw; B answers with Break Hold (Martial Arts 8 + WP 10
    = 18 vs A's 2) and breaks free, so the maneuver made from the hold is foiled: no
    attack roll, no new hold, nobody thrown, A's 2 AP spent."""
    state, _ = duel(fighter("A", ma=2), fighter("B", WP=10, ma=8, athletics=0), pos_b=(0, 0))
    strike(state, "Arm Grab", "R Arm")
    ap = state.fighters[0].ap
    state.apply(Choice("maneuver", maneuver, target=1, location=location, option=option))
    state.apply(react("Break Hold", option=1))
    assert break_hold_reaction_rolls(state)["outcome"] == "broken"
    foiled = last(state, "foiled")
    assert (foiled["maneuver"], foiled["why"]) == (maneuver, "the hold was broken")
    assert last(state, "attack")["maneuver"] == "Arm Grab"  # no roll for the foiled one
    assert state.holds == [] and state.fighters[1].prone is False
    assert state.fighters[0].ap == ap - 2
    assert state.decision == (0, "action", "")


def test_with_the_reading_off_the_throw_still_lands_aom322d():
    """``hold_maneuvers_need_the_hold = false``: the throw goes on against the freed
    fighter (default defence) and leaves him prone, as before this reading."""
    rules = {"holds": {"hold_maneuvers_need_the_hold": False}}
    state, _ = duel(fighter("A", ma=2), fighter("B", WP=10, ma=8, athletics=0), pos_b=(0, 0),
                    rules=rules)
    strike(state, "Arm Grab", "R Arm")
    state.apply(Choice("maneuver", "Martial Throw", target=1, option=3))
    state.apply(react("Break Hold", option=1))
    assert break_hold_reaction_rolls(state)["outcome"] == "broken"
    state.apply(risk(0))
    state.apply(risk(0))
    assert last(state, "attack")["maneuver"] == "Martial Throw"
    assert events(state, "foiled") == [] and state.fighters[1].prone is True


def break_hold_reaction_rolls(state):
    state.apply(risk(0))  # escaper
    state.apply(risk(0))  # holder
    return last(state, "break_hold")


# ------------------------------------------------------------------ follow-ups on holds
def test_martial_throw_ends_the_hold_and_leaves_the_target_prone_aom3228():
    """§1.18/§1.19 aom3228: after an Arm Grab, a Martial Throw (no defensive reaction,
    +1 whole body) throws B into the hex at A's rear (option 3: A faces E -> (-1,0)), prone;
    the hold ends; A stays standing; no knock-back; damage 4 Blunt."""
    a = fighter("A", ma=3)
    b = fighter("B", WP=10, athletics=0)
    state, _ = duel(a, b, pos_b=(0, 0))
    strike(state, "Arm Grab", "R Arm")
    state.apply(Choice("maneuver", "Martial Throw", target=1, option=3))
    # no defensive reaction: B may only try to Break Hold
    assert state.decision == (1, "reaction", "")
    assert names(state) == {"Break Hold"}
    state.apply(PASS)
    state.apply(risk(0))
    state.apply(risk(0))
    ev = last(state, "attack")
    assert ev["attack"]["result"] == 3 + 1 + 1  # MA 3, +1 throw, +1 holding
    assert state.holds == []
    assert state.fighters[1].pos == (-1, 0)
    assert state.fighters[1].prone is True
    assert state.fighters[0].prone is False
    dmg = [e for e in events(state, "damage") if e["kind"] == "attack"]
    assert terms(dmg[0]["roll"])["rating"] == 4
    assert events(state, "knockback") == []


def test_martial_throw_lands_beside_or_behind_only_aom3228():
    """§1.18 aom3228: the landing hex is at the thrower's side or rear (options 2, 3, 4)."""
    state, _ = duel(fighter("A", ma=3), fighter("B", athletics=0), pos_b=(0, 0))
    strike(state, "Arm Grab", "R Arm")
    assert {c.option for c in state.legal_choices() if c.maneuver == "Martial Throw"} == \
        {2, 3, 4}


def test_arm_wrist_lock_follows_arm_grab_without_defence_aom3227():
    """§1.18 aom3227: Arm/wrist Lock (+3, -1 arm) after an Arm Grab, on the held arm only,
    no defensive reaction; damage 4 Blunt, no knock-back; the hold becomes a lock."""
    a = fighter("A", ma=2)
    b = fighter("B", WP=10, athletics=0)
    state, _ = duel(a, b, pos_b=(0, 0))
    strike(state, "Arm Grab", "R Arm")
    lock_l = Choice("maneuver", "Arm/wrist Lock", target=1, location="L Arm")
    assert state.why_illegal(lock_l) == "Arm/wrist Lock: must lock the held arm (R Arm)"
    state.apply(Choice("maneuver", "Arm/wrist Lock", target=1, location="R Arm"))
    assert names(state) == {"Break Hold"}  # no dodge, no block: only Break Hold
    state.apply(PASS)
    state.apply(risk(0))
    state.apply(risk(0))
    ev = last(state, "attack")
    assert ev["attack"]["result"] == 2 + 3 - 1 + 1  # MA 2, +3, arm -1, holding +1
    assert [(h.kind, h.location) for h in state.holds] == [("arm_lock", "R Arm")]
    assert events(state, "knockback") == []


def test_head_lock_follows_martial_strike_defence_allowed_aom322a():
    """§1.18 aom322a: Head Lock (+0, -4 Head) follows a successful Martial Strike; the
    target may defend (reaction window); damage 5; no knock-back; creates a head lock."""
    a = fighter("A", ma=8, ST=-5)
    b = fighter("B", WP=10, athletics=0, ST=5)
    state, _ = duel(a, b, pos_b=(0, 0))
    strike(state)
    assert state.decision == (0, "follow_on", "")
    state.apply(Choice("maneuver", "Head Lock", target=1, location="Head"))
    assert state.decision == (1, "reaction", "")
    state.apply(PASS)
    state.apply(risk(0))
    state.apply(risk(0))
    ev = last(state, "attack")
    assert ev["attack"]["result"] == 8 - 4
    assert [(h.kind, h.location) for h in state.holds] == [("head_lock", "Head")]
    assert [e["actor"] for e in events(state, "knockback")] == ["B"]  # the strike only


def test_martial_kick_after_leg_grab_ends_the_hold_aom3226():
    """§1.18 aom3226: after catching a kick (Leg Grab), a Martial Kick follow-up ends the
    hold."""
    a = fighter("A", ma=1)
    b = fighter("B", ma=4, WP=10)
    state, _ = duel(a, b)
    strike(state, "Martial Kick", reaction=react("Leg Grab"))
    assert [(h.holder, h.kind) for h in state.holds] == [(1, "leg")]
    assert state.decision == (1, "follow_on", "")
    assert names(state) == {"Martial Kick", "Martial Throw"}
    state.apply(Choice("maneuver", "Martial Kick", target=0, location="Chest"))
    assert state.holds == []
    assert last(state, "hold_ends")["why"] == "Martial Kick follows Leg Grab"


# ------------------------------------------------------------------ painful locks
def test_lock_damage_in_the_holders_next_phase_par_5_16():
    """§5.16 PROPOSED: a painful lock made in turn 1 hurts in the holder's phase of turn 2:
    ST 1 + Head Lock 5 + Head +2 = 8 (no margin, lock risk 0) vs DR 0 -> Medium; B (WP 10)
    rolls pain; no knock-back."""
    a = fighter("A", ST=1, tactics=1)
    b = fighter("B", WP=10, athletics=0)
    state, dice = duel(a, b, [1, 1], pos_b=(0, 0), ap_a=0, ap_b=0, phase=None,
                       holds=[{"holder": 0, "held": 1, "kind": "head_lock",
                               "location": "Head", "turn": 1}],
                       fa={"phased": True}, fb={"phased": True})
    assert state.turn == 2  # turn 1 ended at once: everyone had phased
    assert events(state, "damage") == []
    state.apply(Choice("phase", option=1))  # A (initiative 1) takes the phase
    dmg = [e for e in events(state, "damage") if e["kind"] == "lock"]
    assert len(dmg) == 1
    assert dmg[0]["maneuver"] == "Head Lock"
    assert dmg[0]["location"] == "Head"
    assert dmg[0]["roll"]["terms"] == [["ST", 1], ["rating", 5], ["location Head", 2]]
    assert dmg[0]["roll"]["result"] == 8
    assert dmg[0]["wound"] == "Medium"
    assert events(state, "attack") == []
    assert events(state, "knockback") == []


def test_no_lock_damage_in_the_turn_the_lock_was_made_par_5_16():
    """§5.16 PROPOSED: the repeat damage comes in *later* turns only: a lock dated turn 2
    does not hurt at the start of the holder's phase in turn 2."""
    a = fighter("A", ST=1, tactics=1)
    b = fighter("B", WP=10, athletics=0)
    state, _ = duel(a, b, [1, 1], pos_b=(0, 0), ap_a=0, ap_b=0, phase=None,
                    holds=[{"holder": 0, "held": 1, "kind": "head_lock",
                            "location": "Head", "turn": 2}],
                    fa={"phased": True}, fb={"phased": True})
    assert state.turn == 2
    state.apply(Choice("phase", option=1))
    assert last(state, "phase")["actor"] == "A"
    assert events(state, "damage") == []


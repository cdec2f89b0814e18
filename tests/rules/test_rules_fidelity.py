"""Rule readings corrected after the audit (issue 12), each with loaded dice.

Every expected number is computed by hand from RULES.md in the docstring or comment next
to it; the fighters are test fighters past the §1.2 creation limits on purpose.
"""

from __future__ import annotations

from typing import Any

from hexdojo.envs.rules import PASS, Choice, Game, LoadedDice

from ..rules_kit import attack, duel, events, fighter, last, play, react, risk, strike, terms


def fx(name: str, **kw: Any) -> dict[str, Any]:
    """A test fighter exempt from the §1.2 creation limits (extreme numbers on purpose)."""
    return {**fighter(name, **kw), "creation_limits": False}


def trio(a: dict, b: dict, c: dict, sc: dict[str, Any], dice=(), rules=None):
    """A three-fighter fight from a scenario (free-for-all: the engine has no sides yet)."""
    game = Game.create([a, b, c], rules=rules, radius=4)
    return game.new_state(LoadedDice(list(dice)), scenario=sc)


def legal_names(state) -> set[str | None]:
    return {c.maneuver for c in state.legal_choices()}


# ----------------------------------------------------------------- 1. knock-back before impairment
def test_knockback_rolled_before_the_new_wounds_impairment_aom1d31_aom1d32_aom1d39():
    """aom1d31/aom1d32 (the example aom1d39): the rolls a hit forces come before its own
    wound's ongoing impairment. A: Martial Arts 4 -> Martial Strike 4 + 1 = 5 vs B's default
    defence 0: hit by 5; damage 5 + 5 x 1/2 = 7.5 vs DR 0 -> Medium (-2 from now on). B's
    pain roll: WP 9 - 2 (Blunt) + 0 (Medium) = 7: no effect. Knock-back: Athletics 10 - 2
    (Blunt) = 8 >= 7.5: no effect, no "wounds" term. With the Medium wound counted the roll
    would be 6 and fail (off balance)."""
    a, b = fx("A", ma=4), fx("B", WP=9, athletics=10)
    s, _ = duel(a, b, pos_b=(0, 0), facing_b=3)
    strike(s, "Martial Strike", "Chest")
    assert s.decision.kind == "soak"
    s.apply(PASS)
    kb = last(s, "knockback")
    assert "wounds" not in terms(kb["roll"])
    assert kb["roll"]["basic"] == 8 and kb["effect"] == "none"
    assert last(s, "wound")["wound"] == "Medium"
    # the new wound impairs from the next roll on: B's defence against the follow-on
    assert s.decision.kind == "follow_on"
    strike(s, "Martial Strike", "Chest")
    assert terms(last(s, "attack")["defence"])["wounds"] == -2


def test_knockback_carries_only_the_wounds_before_the_hit_aom1d32():
    """aom1d32: with a Light wound already (-1), a new Medium wound impairs only later:
    B's defence -1 -> A hits by 6, damage 5 + 3 = 8 (Medium). Pain: 9 - 2 - 1 = 6 ->
    staggered (-1 for the turn). Knock-back: 10 - 2 - 1 (the Light wound, not the Medium's
    -2) - 1 (staggered) = 6 vs 8: fails by 2 -> off balance."""
    a, b = fx("A", ma=4), fx("B", WP=9, athletics=10)
    s, _ = duel(a, b, pos_b=(0, 0), facing_b=3, fb={"wounds": [["Abdomen", "Light"]]})
    strike(s, "Martial Strike", "Chest")
    s.apply(PASS)  # no soak
    assert last(s, "pain")["effect"] == "staggered"
    kb = last(s, "knockback")
    t = terms(kb["roll"])
    assert t["wounds"] == -1 and t["staggered"] == -1
    assert kb["roll"]["basic"] == 6 and kb["effect"] == "off balance"


# ----------------------------------------------------------------- 2. Leg Grab needs the front arc
def test_leg_grab_is_a_defence_and_needs_the_front_arc_s1_8_s5_3():
    """§1.8 counts Leg Grab as a defence roll; §5.3(c): defensive reactions only against
    attacks through the front three hexes (even after the optional 60-degree turn). A kick
    from directly behind offers no Leg Grab; the same kick from the front does."""
    a, b = fx("A", ma=4), fx("B", ma=4)
    s, _ = duel(a, b, facing_b=0)  # B at (1, 0) facing east: A is directly behind
    s.apply(attack("Martial Kick", location="Chest"))
    assert s.decision.kind == "reaction" and s.decision.fighter == 1
    assert "Leg Grab" not in legal_names(s)
    why = s.why_illegal(react("Leg Grab"))
    assert why is not None and "front three hexes" in why
    s2, _ = duel(a, b)  # B faces A
    s2.apply(attack("Martial Kick", location="Chest"))
    assert "Leg Grab" in legal_names(s2)


# ----------------------------------------------------------------- 3. after a Forearm Block
def _blocked(maneuver: str, location: str, held: bool = False, rules=None):
    """A attacks B with ``maneuver``; B's Forearm Block (Martial Arts 4 + 2 = 6 vs A's
    1 or less) succeeds; B follows with a Martial Strike at A's Chest: A's reaction window."""
    a, b = fx("A"), fx("B", ma=4)
    extra: dict[str, Any] = {}
    if held:  # B holds A's right arm (aom3225): A attacks with the free arm
        extra = {"holds": [{"holder": 1, "held": 0, "kind": "arm", "location": "R Arm"}]}
    s, _ = duel(a, b, pos_b=(0, 0), facing_b=3, rules=rules, **extra)
    strike(s, maneuver, location, reaction=react("Forearm Block"))
    assert last(s, "attack")["outcome"] == "miss"
    assert s.decision.kind == "follow_on" and s.decision.fighter == 1
    s.apply(attack("Martial Strike", target=0, location="Chest"))
    assert s.decision.kind == "reaction" and s.decision.fighter == 0
    return s


def test_after_a_blocked_punch_the_other_arm_may_block_aom322e():
    """aom322e, §3: the opponent may not defend the follow-on with the limb that was
    blocked; a blocked Punch leaves the other arm free for a Forearm Block."""
    s = _blocked("Punch", "Chest")
    assert "Forearm Block" in legal_names(s)
    assert s.context().get("locked") is None  # the defender's window: nothing locked for him
    # the follower knew the arm was locked when choosing the follow-on
    s2 = _blocked("Punch", "Chest")
    assert last(s2, "declare")["via"] == "follow_on"


def test_after_a_blocked_kick_both_arms_may_block_aom322e():
    """aom322e: a blocked Kick locks a leg; both arms stay free for a Forearm Block."""
    s = _blocked("Kick", "Abdomen")
    assert "Forearm Block" in legal_names(s)


def test_a_held_puncher_blocked_has_no_arm_left_aom322e_aom3225():
    """aom3225 + aom322e: A, his right arm grabbed (arm hold: one free arm), punches with
    the free arm; B's Forearm Block locks it: A has no arm left to block the follow-on."""
    s = _blocked("Punch", "Chest", held=True)
    assert "Forearm Block" not in legal_names(s)
    why = s.why_illegal(react("Forearm Block"))
    assert why is not None and "locked" in why and "aom322e" in why


def test_follow_on_context_names_the_locked_limb_s3():
    """§3: the follow-on's decision says which of the target's limbs is locked (agents
    estimate the target's defence with it)."""
    a, b = fx("A"), fx("B", ma=4)
    s, _ = duel(a, b, pos_b=(0, 0), facing_b=3)
    strike(s, "Punch", "Chest", reaction=react("Forearm Block"))
    assert s.decision.kind == "follow_on"
    # aom3225: the arm that attacked (A's right: both his hands are free, attack.striking_hand)
    assert s.context()["after"] == "Forearm Block" and s.context()["locked"] == "R Arm"


def test_free_arms_of_a_hold_decides_the_forearm_block_aom3225():
    """holds.kinds.arm.free_arms (aom3225: the grabbed arm cannot defend): with the shipped
    1 the held fighter may Forearm Block with the other arm; a designer's 0 bars it (and his
    arm attacks: Punch, Martial Strike)."""
    a, b = fx("A", ma=4), fx("B", ma=4)
    hold = {"holds": [{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}]}
    s, _ = duel(a, b, pos_b=(0, 0), facing_b=3, **hold)
    s.apply(attack("Martial Strike", location="Chest"))
    assert "Forearm Block" in legal_names(s)
    rules = {"holds": {"kinds": {"arm": {"free_arms": 0}}}}
    s0, _ = duel(a, b, pos_b=(0, 0), facing_b=3, rules=rules, **hold)
    s0.apply(attack("Martial Strike", location="Chest"))
    assert "Forearm Block" not in legal_names(s0)
    assert "no free arm" in s0.why_illegal(react("Forearm Block"))
    s1, _ = duel(a, b, pos_b=(0, 0), facing_b=3, rules=rules, phase=1, **hold)
    assert not legal_names(s1) & {"Punch", "Martial Strike", "Arm Grab"}


# ----------------------------------------------------------------- 4. a holder who is out
def test_an_unconscious_holder_lets_go_s1_18_s1_12_s5_30():
    """§1.18 with §1.12 and §5.30: A holds C's arm; B knocks A unconscious (WP -9: any
    wound's pain roll is <= 0); A keeps no hold: C is free (no Break Hold to spend AP on,
    and he may move again)."""
    a, b, c = fx("A", WP=-9), fx("B", ma=6), fx("C")
    sc = {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [1, 0], "facing": 3, "ap": 6},
                       {"pos": [0, 0], "facing": 0, "ap": 6}],
          "holds": [{"holder": 0, "held": 2, "kind": "arm", "location": "R Arm"}], "phase": 1}
    s = trio(a, b, c, sc)
    # B's Martial Strike (6 + 1 = 7 vs A's 0) closes into A's hex, where C is too: C may
    # answer the closing first (aom3221), then A; A takes the wound
    s.apply(attack("Martial Strike", target=0, location="Chest"))
    assert s.decision == (2, "reaction", "") and s.context()["attack"] == "Martial Strike"
    play(s, PASS, PASS, risk(0), risk(0))
    assert s.decision.kind == "soak" and s.decision.fighter == 0
    s.apply(PASS)
    assert s.fighters[0].out == "unconscious"
    assert s.hold_on(2) is None and s.holds == []
    ends = last(s, "hold_ends")
    assert ends["holder"] == 0 and ends["held"] == 2 and ends["why"] == "holder unconscious"
    assert not s.is_over  # B and C fight on


# ----------------------------------------------------------------- 5. helmets reduce PE
def _initiative(helmet: Any, rules=None) -> dict[str, Any]:
    a, b = fx("A", PE=1, tactics=3, helmet=helmet), fx("B")
    s = Game.create([a, b], rules=rules).new_state(LoadedDice([1, 2]))
    return next(e for e in s.events if e["type"] == "turn_start" and e["a"] == 0)["initiative_roll"]


def test_helmets_reduce_pe_for_initiative_s1_4_aom312():
    """§1.4 aom312: initiative = Tactics + PE, and helmets can reduce PE (PROPOSED amounts,
    helmets.materials): an open helmet -1 (3 + 1 - 1 = 3), a closed helmet -2, a bare PV 10
    the closed helmet's -2, no helmet nothing; the modifier shows as a "helmet" term."""
    r = _initiative("open_helmet")
    assert terms(r)["helmet"] == -1 and r["basic"] == 3
    assert terms(_initiative("closed_helmet"))["helmet"] == -2
    assert terms(_initiative(10))["helmet"] == -2
    assert "helmet" not in terms(_initiative(0)) and _initiative(0)["basic"] == 4
    rules = {"helmets": {"materials": {"open_helmet": {"modifier": -1.5}}}}
    assert terms(_initiative("open_helmet", rules))["helmet"] == -1.5


def test_helmet_protects_the_head_s1_10():
    """§1.10 aom316: a helmet's PV protects Head, Eyes and Throat (the open helmet: 6)."""
    g = Game.create([fx("A", helmet="open_helmet"), fx("B")])
    pv = g.profiles[0].pv
    assert pv["Head"] == pv["Eyes"] == pv["Throat"] == 12 and pv["Chest"] == 0  # half points


# ----------------------------------------------------------------- 6. a dodge that closes
def _dodge_into_c(rules=None):
    """A (0,0) closes on B (1,0) with a Martial Strike; B jumps back (Combat 4 + 3 = 7 vs
    1) directly away from A's approach, into C's hex (2,0)."""
    a, b, c = fx("A"), fx("B", combat=4), fx("C", ma=4)
    sc = {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 6}, {"pos": [1, 0], "facing": 3, "ap": 6},
                       {"pos": [2, 0], "facing": 3, "ap": 6}], "phase": 0}
    s = trio(a, b, c, sc, rules=rules)
    s.apply(attack("Martial Strike", target=1, location="Chest"))
    assert s.decision.fighter == 1
    s.apply(react("Jump back dodge"))
    s.apply(risk(0))
    s.apply(risk(0))
    return s


def test_a_dodge_into_a_fighters_hex_is_a_closing_s4_aom3212_aom3221():
    """§4 row 1 (aom3212, aom3221): a fighter who closes into my hex, by any move, a
    dodge included, triggers my closing reactions (Punch, Martial Strike)."""
    s = _dodge_into_c()
    assert s.fighters[1].pos == (2, 0) == s.fighters[2].pos
    assert s.decision == (0, "reaction", "")  # A, whose strike it answered, is asked too
    s.apply(PASS)
    assert s.decision.fighter == 2 and s.decision.kind == "reaction"
    assert s.context()["attacker"] == 1 and s.context()["attack"] == "Jump back dodge"
    counter = Choice("maneuver", "Martial Strike", target=1, location="Chest")
    assert counter in s.legal_choices()
    s.apply(counter)
    assert last(s, "declare")["via"] == "reaction" and last(s, "declare")["t"] == 1


def test_a_dodge_into_the_non_phasing_attackers_hex_is_a_closing_aom3221():
    """aom3221 ("as a result of a move, jump back, side-step or parry"; issue 28 item 3):
    A's Martial Kick from the next hex is blocked by B's Forearm Block (4 + 2 = 6 vs 5);
    B's follow-on Martial Kick (5) is answered by A's Rolling Dodge (4 + 2 = 6), which
    closes A into B's hex: B, the non-phasing attacker, may strike A as a closing reaction.
    With ``movement.dodge_triggers_attacker = false`` (the older reading) he is not asked."""
    a, b = fx("A", ma=4), fx("B", ma=4)
    for on in (True, False):
        s, _ = duel(a, b, rules={"movement": {"dodge_triggers_attacker": on}})
        strike(s, "Martial Kick", "Chest", reaction=react("Forearm Block"))
        assert s.decision == (1, "follow_on", "")
        strike(s, "Martial Kick", "Chest", target=0, reaction=react("Rolling Dodge"))
        assert last(s, "attack")["outcome"] == "miss"
        assert s.fighters[0].pos == s.fighters[1].pos == (1, 0)
        if on:
            assert s.decision == (1, "reaction", "") and s.context()["attack"] == "Rolling Dodge"
            assert {"Martial Strike", "Punch"} <= legal_names(s)
            s.apply(Choice("maneuver", "Martial Strike", target=0, location="Chest"))
            assert last(s, "declare")["via"] == "reaction" and last(s, "declare")["a"] == 1
        else:
            assert s.decision == (0, "follow_on", "")  # A's follow-on after his dodge


def test_the_phasing_attacker_may_punch_but_not_martial_strike_a_dodge_aom3221():
    """aom3221 with item 8 of issue 28: the phasing attacker is asked about the Rolling
    Dodge that closed into his hex, but the Martial Strike reaction is a non-phasing
    fighter's (``attack.counter_needs_non_phasing``); Punch is not on that list."""
    a, b = fx("A", ma=0), fx("B", ma=4)
    s, _ = duel(a, b)
    strike(s, "Martial Kick", "Chest", reaction=react("Rolling Dodge"))
    assert s.fighters[1].pos == s.fighters[0].pos == (0, 0)
    assert s.decision == (0, "reaction", "")
    assert "Punch" in legal_names(s) and "Martial Strike" not in legal_names(s)
    assert "non-phasing" in s.why_illegal(Choice("maneuver", "Martial Strike", 1, "Chest"))


# ----------------------------------------------------------------- 7. Pull Down landing hex
def _pull_down(rules=None):
    """A (on foot, Martial Arts 6) grabs the rider B's arm (6 + 0 - 1 = 5 vs B's default
    defence 0), then follows with a Pull Down (6 vs 0; no defence, B is held)."""
    a = fx("A", ma=6)
    b = fx("B", WP=9, athletics=10, riding=10, mounted=True, height=1)
    s, _ = duel(a, b, pos_b=(0, 0), facing_b=3, rules=rules)
    strike(s, "Arm Grab", "R Arm")
    assert s.decision.kind == "follow_on"
    play(s, attack("Pull Down", location=None), PASS, risk(0), risk(0))  # B: no Break Hold
    assert last(s, "attack")["outcome"] == "hit"
    return s


def test_pull_down_lands_the_rider_in_an_adjacent_hex_s2_3_aom347():
    """§2.3 aom347: a rider pulled down lands prone in an adjacent hex (default
    mounted.pull_down_lands = "adjacent": in front of the puller, who faces east)."""
    s = _pull_down()
    b = s.fighters[1]
    assert not b.mounted and b.prone
    assert b.pos == (1, 0)
    assert last(s, "lands")["to"] == [1, 0]


def test_pull_down_same_hex_reading_s5_8():
    """§5.8 PROPOSED: the rider lands in the same hex (mounted.pull_down_lands = "same")."""
    s = _pull_down({"mounted": {"pull_down_lands": "same"}})
    b = s.fighters[1]
    assert not b.mounted and b.prone and b.pos == (0, 0)
    assert not events(s, "lands")


# ----------------------------------------------------------------- the die named from the data
def test_event_text_names_the_die_from_the_data_s1_3():
    """§1.3 / §5.1 PROPOSED: the die is dice.die_sides (a d6 by default); the log names it
    and the faces stay on it."""
    import numpy as np

    for sides in (6, 8):
        g = Game.create(["chu", "boris"], rules={"dice": {"die_sides": sides}})
        s = g.new_state(3)
        rng = np.random.default_rng(3)
        while not s.is_over:
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
        rolled = [r for e in s.events for r in e.values()
                  if isinstance(r, dict) and r.get("risk")]
        assert rolled and all(r["sides"] == sides and max(r["dice"]) <= sides for r in rolled)
        text = " ".join(s.render_log())
        assert f"d{sides}:" in text and (sides == 6 or "d6:" not in text)

"""Weapons (issue 19): loaded situations, values computed by hand from RULES.md.

Every test names the section or page it checks. Fighters are the rules kit's (every
default roll risks no dice, so results equal basic values); a weapon attack's option is
``hand x 2 + mode`` (the shipped weapons have at most two modes), a Block's or Parry's the
hand (0 right, 1 left).
"""

from __future__ import annotations

from typing import Any

import pytest

from hexdojo.envs.rules import PASS, Choice, Game, attack_basic
from hexdojo.envs.rules import weapons as wp
from hexdojo.envs.rules.model import Window
from hexdojo.envs.rules.notation import choice_words, parse, words
from hexdojo.envs.rules.reason_texts import NativeView

from ..rules_kit import attack, duel, fighter, last, pass_dodge_window, play, react, risk, strike, terms

TOUGH = {"WP": 10, "athletics": 12}


def armed(name: str, right: str | None = None, left: str | None = None,
          sheathed: tuple[str, ...] = (), skills: dict[str, float] | None = None,
          **kw: Any) -> dict[str, Any]:
    """A kit fighter carrying weapons (a two-handed one goes in ``right``)."""
    return fighter(name, weapon_skills=skills or {},
                   weapons={"right": right, "left": left, "sheathed": list(sheathed)}, **kw)


def maneuvers(state) -> set[str]:
    return {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"}


def legal(state, c: Choice) -> bool:
    return state.why_illegal(c) is None


SWORD_A = armed("A", right="sword", skills={"Sword": 4}, CO=1)


# --------------------------------------------------------------------------- attacks
def test_stand_and_attack_rolls_the_weapon_skill_and_mode_aom3142():
    """aom3142: weapon skill + CO + weapon modifier; AP by mode (sword cut 3); damage by the
    weapon (cut 8 Cutting): 0 ST + 8 + 5 x 1/2 margin = 10 1/2 (aom316)."""
    state, _ = duel(SWORD_A, fighter("B", ST=5, **TOUGH))
    strike(state, "Stand and attack", "Chest", option=0)
    ev = last(state, "attack")
    assert terms(ev["attack"]) == {"Sword": 4, "CO": 1}
    assert ev["attack"]["result"] == 5 and ev["defence"]["result"] == 0
    assert state.fighters[0].ap == 10 - 3
    assert last(state, "declare")["weapon"] == "sword" and last(state, "declare")["mode"] == "cut"
    dmg = last(state, "damage")
    assert (dmg["roll"]["result"], dmg["damage_type"], dmg["weapon"]) == (10.5, "Cutting", "sword")


def test_each_mode_has_its_own_ap_damage_and_type_aom3142():
    """aom3142 (AP 2-4 by weapon mode): the sword's thrust costs 2 AP, rates 7 Impaling:
    0 + 7 + 2 1/2 = 9 1/2; with 2 AP left the 3-AP cut is refused, the thrust allowed."""
    state, _ = duel(SWORD_A, fighter("B", ST=5, **TOUGH))
    strike(state, "Stand and attack", "Chest", option=1)
    assert state.fighters[0].ap == 8
    dmg = last(state, "damage")
    assert (dmg["roll"]["result"], dmg["damage_type"]) == (9.5, "Impaling")
    low, _ = duel(SWORD_A, fighter("B"), ap_a=2)
    assert "needs 3 AP" in low.why_illegal(attack("Stand and attack", option=0))
    assert legal(low, attack("Stand and attack", option=1))


def test_advance_and_attack_steps_forward_with_the_closing_modifier_aom3143_aom315():
    """aom3143: one hex forward, then the strike; aom315: +1/2 closing (the sword's
    closing_attack_mod): 4 + 1 + 1/2 = 5 1/2."""
    state, _ = duel(SWORD_A, fighter("B", **TOUGH), pos_b=(2, 0))
    assert not legal(state, attack("Stand and attack"))  # two hexes: out of reach
    strike(state, "Advance and attack", "Chest", option=0)
    assert state.fighters[0].pos == (1, 0)
    assert terms(last(state, "attack")["attack"]) == {"Sword": 4, "CO": 1, "sword": 0.5}


def test_a_melee_weapon_does_not_strike_into_its_own_hex_par_1_7():
    """§1.7/aom3142 (hexdojo ``armed.melee_in_own_hex``): melee weapons strike into the
    front hexes; an opponent in one's own hex needs a close-combat weapon."""
    a = armed("A", right="sword", sheathed=("dagger",), skills={"Sword": 4})
    state, _ = duel(a, fighter("B"), pos_b=(0, 0))
    assert "in your hex" in state.why_illegal(attack("Stand and attack"))
    assert "Stand and attack" not in maneuvers(state)
    over, _ = duel(a, fighter("B"), pos_b=(0, 0), rules={"armed": {"melee_in_own_hex": True}})
    assert legal(over, attack("Stand and attack"))


@pytest.mark.parametrize(("pos_b", "ok"), [((1, 0), True), ((2, 0), True), ((2, -1), True),
                                           ((1, 1), True), ((0, 2), False), ((3, 0), False)])
def test_a_polearm_also_strikes_the_three_hexes_beyond_aom3142(pos_b, ok):
    """aom3142: a polearm strikes the front three hexes and the next three beyond (two
    along the facing, and along it then front-left/right: ``armed.reach_beyond``)."""
    a = armed("A", right="spear", skills={"Spear": 4})
    state, _ = duel(a, fighter("B"), pos_b=pos_b)
    assert legal(state, attack("Stand and attack")) is ok
    if not ok:
        assert "reach" in state.why_illegal(attack("Stand and attack"))


def test_close_combat_weapon_attack_closes_without_a_closing_bonus_aom3211():
    """aom3211: a close-combat weapon (dagger) attacks in the same hex, closing from the
    next; weapon skill + CO, no closing bonus: Knife 4 + CO 1 = 5."""
    a = armed("A", right="dagger", skills={"Knife": 4}, CO=1)
    state, _ = duel(a, fighter("B", **TOUGH))
    strike(state, "Close Combat Weapon Attack", "Chest", option=0)
    assert last(state, "declare")["closing"] is True
    assert state.fighters[0].pos == (1, 0)
    assert terms(last(state, "attack")["attack"]) == {"Knife": 4, "CO": 1}


def test_arm_maneuvers_need_an_empty_hand_and_dropping_is_free_aom314a_aom3221():
    """aom3221 (a Martial Strike follows a one-handed block: the other hand strikes): a hand
    holding a weapon makes no Punch; aom314a: dropping a weapon costs nothing."""
    a = armed("A", right="sword", left="shield", combat=2)
    state, _ = duel(a, fighter("B"))
    assert "no free arm" in state.why_illegal(attack("Punch"))
    state.apply(react("Drop weapon", option=1))
    assert state.fighters[0].ap == 10 and state.fighters[0].hands == ("sword", None)
    assert state.dropped == (((0, 0), "shield"),)
    assert legal(state, attack("Punch"))


# --------------------------------------------------------------------------- defences
def _blocker(**kw: Any) -> dict[str, Any]:
    return armed("B", right="sword", left="shield", skills={"Sword": 3, "Shield": 2}, CO=1, **kw)


def test_block_rolls_the_weapon_skill_and_its_parry_bonus_aom315_aom3145():
    """aom315: Block = blocking weapon skill + CO + the weapon's parry bonus: sword 3 + 1
    + 1 = 5; the shield's 2 + 1 + 2 = 5."""
    for hand, skill, bonus in ((0, "Sword", "sword parry bonus"), (1, "Shield", "shield parry bonus")):
        state, _ = duel(fighter("A", ma=6), _blocker())
        strike(state, "Martial Strike", reaction=react("Block", option=hand))
        t = terms(last(state, "attack")["defence"])
        assert t[skill] == (3 if hand == 0 else 2) and t[bonus] == (1 if hand == 0 else 2)
        assert last(state, "attack")["defence"]["result"] == 5
        assert last(state, "reaction")["weapon"] == ("sword" if hand == 0 else "shield")


@pytest.mark.parametrize(("pos_a", "facing_a", "arc", "shield_ok"),
                         [((0, 0), 0, "front", True), ((0, 1), 1, "front-left", True),
                          ((1, -1), 5, "front-right", False)])
def test_a_shield_covers_only_its_side_aom3145(pos_a, facing_a, arc, shield_ok):
    """aom3145: a weapon blocks attacks from the front three hexes, a shield from the three
    hexes of its side (left hand: front, front-left, rear-left, ``armed.shield_side``)."""
    state, _ = duel(fighter("A", ma=6), _blocker(), pos_a=pos_a, facing_a=facing_a)
    state.apply(attack("Martial Kick"))
    assert state.context()["arc"] == ["front", "front-left", "rear-left", "rear", "rear-right",
                                      "front-right"].index(arc)
    assert legal(state, react("Block", option=0))  # the sword: any front hex
    assert legal(state, react("Block", option=1)) is shield_ok
    if not shield_ok:
        assert "covers" in state.why_illegal(react("Block", option=1))


def test_parry_adds_three_and_steps_back_then_ripostes_aom315_aom3143_par_5_10():
    """aom315: Parry = weapon skill + CO + parry bonus + 3 = 3 + 1 + 1 + 3 = 8; §5.10
    PROPOSED: the parrier steps back one hex; aom3143: the riposte is Advance and attack,
    and weapons do not lock: the first attacker may parry it with the same sword."""
    a = armed("A", right="sword", skills={"Sword": 4})
    state, _ = duel(a, _blocker())
    strike(state, "Stand and attack", "Chest", option=0, reaction=react("Parry", option=0))
    ev = last(state, "attack")
    assert (ev["defence"]["result"], ev["outcome"]) == (8, "miss")
    assert state.fighters[1].pos == (2, 0)
    pass_dodge_window(state)  # the parrier's step is a movement A may answer (aom3221)
    assert state.decision == (1, "follow_on", "")
    assert maneuvers(state) == {"Advance and attack"}
    state.apply(attack("Advance and attack", target=0, option=1))
    assert state.fighters[1].pos == (1, 0)
    assert legal(state, react("Parry", option=0))


def test_forearm_block_against_weapons_is_reduced_par_5_12():
    """aom322e + §5.12 PROPOSED: against a melee weapon the Forearm Block's factor is -2
    (not +2), against a close-combat weapon +0: MA 4 + CO 0 - 2 = 2, and 4 + 0 = 4."""
    for weapon, skill, name, bonus, want in (("sword", "Sword", "Stand and attack", -2, 2),
                                             ("dagger", "Knife", "Close Combat Weapon Attack", 0, 4)):
        a = armed("A", right=weapon, skills={skill: 2})
        state, _ = duel(a, fighter("B", ma=4, **TOUGH))
        strike(state, name, "Chest", reaction=react("Forearm Block"))
        d = last(state, "attack")["defence"]
        assert d["result"] == want and terms(d).get("Forearm Block", 0) == bonus


def test_a_block_locks_the_attacking_weapon_and_needs_a_second_weapon_aom3145():
    """aom3145: after a Block the attacker's weapon stays locked: it cannot defend the
    follow-on (his shield can); the blocker's own follow-on is made with a second weapon."""
    a = armed("A", right="sword", left="shield", skills={"Sword": 2, "Shield": 2})
    b = armed("B", right="sword", left="dagger", skills={"Sword": 3, "Knife": 3}, CO=1)
    state, _ = duel(a, b)
    strike(state, "Stand and attack", "Chest", option=0, reaction=react("Block", option=0))
    assert last(state, "attack")["outcome"] == "miss"
    assert state.decision == (1, "follow_on", "") and state.context()["locked"] == "R Arm"
    assert "second weapon" in state.why_illegal(attack("Stand and attack", target=0, option=0))
    state.apply(attack("Close Combat Weapon Attack", target=0, option=2))  # left hand: dagger stab
    assert "locked by the block" in state.why_illegal(react("Block", option=0))
    assert legal(state, react("Block", option=1))


def test_after_a_side_step_the_attacking_weapon_may_defend_aom3147():
    """aom3147/§3: after a Side-step the opponent may block or parry the follow-on with the
    original attacking weapon (nothing is locked)."""
    a = armed("A", right="sword", skills={"Sword": 2})
    state, _ = duel(a, fighter("B", combat=6, ma=4))
    strike(state, "Stand and attack", "Chest", option=0, reaction=react("Side-step dodge", option=0))
    assert last(state, "attack")["outcome"] == "miss" and state.fighters[1].pos == (0, 1)
    pass_dodge_window(state)
    state.apply(attack("Martial Strike", target=0))
    assert "locked" not in state.context()
    assert legal(state, react("Block", option=0)) and legal(state, react("Parry", option=0))


@pytest.mark.parametrize(("weapon", "strike_ok"), [("staff", False), ("sword", True)])
def test_no_martial_strike_after_a_two_handed_block_aom3221(weapon, strike_ok):
    """aom3221: a Martial Strike may follow a Block with a weapon, not one with a
    two-handed weapon (``armed.two_handed_block_bars``; the other hand is not free either):
    after the staff's block no follow-on is possible, so none is asked for."""
    b = armed("B", right=weapon, skills={"Staff": 4, "Sword": 4}, ma=4)
    state, _ = duel(fighter("A", ma=1), b)
    strike(state, "Martial Strike", reaction=react("Block", option=0))
    assert last(state, "attack")["outcome"] == "miss"
    assert (state.decision == (1, "follow_on", "")) is strike_ok
    view = NativeView(state, Window("follow_on", 1, after="Block", own_hand=0))
    assert ("Martial Strike" in {c.maneuver for c in view.choices()}) is strike_ok
    if not strike_ok:
        reason = view.maneuver_reason(Choice("maneuver", "Martial Strike", 0, "Chest"))
        assert "two-handed staff (aom3221)" in reason


def test_forearm_block_then_arm_grab_grabs_the_weapon_arm_aom3225_aom322e():
    """aom3225: after a Forearm Block the blocking arm grabs the blocked arm: against a
    sword in the right hand, the Arm Grab follow-on can only take the R Arm."""
    a = armed("A", right="sword", skills={"Sword": 1})
    state, _ = duel(a, fighter("B", ma=6))
    strike(state, "Stand and attack", "Chest", option=0, reaction=react("Forearm Block"))
    assert last(state, "attack")["outcome"] == "miss"
    grabs = {c.location for c in state.legal_choices() if c.maneuver == "Arm Grab"}
    assert grabs == {"R Arm"}
    assert "blocked arm" in state.why_illegal(attack("Arm Grab", target=0, location="L Arm"))


def test_after_a_forearm_block_the_weapon_cannot_defend_aom322e():
    """aom322e (follow-ups with "the opponent's locked weapon/arm unable to defend"): after
    a Forearm Block of a sword attack, the sword cannot block or parry the follow-on."""
    a = armed("A", right="sword", skills={"Sword": 1})
    state, _ = duel(a, fighter("B", ma=6))
    strike(state, "Stand and attack", "Chest", option=0, reaction=react("Forearm Block"))
    state.apply(attack("Martial Strike", target=0))
    assert state.context()["attack"] == "Martial Strike"
    for name in ("Block", "Parry"):
        assert "locked by the block" in state.why_illegal(react(name, option=0))


@pytest.mark.parametrize("name", ["Stand and attack", "Advance and attack",
                                  "Close Combat Weapon Attack", "Block", "Parry", "Ready weapon"])
def test_weapon_maneuver_tags_match_the_csv_par_2_1(name):
    """§2.1/§2.2 (maneuvers.csv): the weapon maneuvers' tags."""
    want = {"Stand and attack": {"A", "R", "F"}, "Advance and attack": {"A", "F"},
            "Close Combat Weapon Attack": {"A", "R", "F"}, "Block": {"R"}, "Parry": {"R"},
            "Ready weapon": {"A", "R"}}[name]
    state, _ = duel(fighter("A"), fighter("B"))
    assert set(state.t.maneuvers[name].tags) == want


# --------------------------------------------------------------------------- losing weapons
def test_an_arm_lock_drops_the_weapon_of_the_locked_arm_aom3227():
    """aom3227: the arm-locked limb drops its weapon (it falls in the hex)."""
    a = armed("A", right="sword", left="dagger", skills={"Sword": 2})
    state, _ = duel(a, fighter("B", ma=6), pos_b=(0, 0), phase=1)
    strike(state, "Arm Grab", "R Arm", target=0)  # MA 6 - 1 = 5 vs 0: the arm is held
    assert state.fighters[0].hands == ("sword", "dagger")  # a grab drops nothing
    strike(state, "Arm/wrist Lock", "R Arm", target=0)
    assert last(state, "attack")["outcome"] == "hit"
    assert state.fighters[0].hands == (None, "dagger")
    assert state.dropped == (((0, 0), "sword"),)
    assert last(state, "drops")["why"] == "arm locked"


@pytest.mark.parametrize(("location", "wp", "effect", "drops"), [
    ("R Arm", 0, "stunned", True),     # pain 0 + 0 - 2 Blunt + 3 Arm + 0 Medium = 1
    ("R Arm", 4, "staggered", False),  # 5: a staggered arm keeps its weapon
    ("R Hand", 4, "staggered", True),  # aim -3: margin 4, damage 7 (Medium), pain 5
])
def test_stun_and_stagger_drop_what_the_struck_limb_holds_par_1_12(location, wp, effect, drops):
    """§1.12 (aom1d31): stunned drops what is held in a struck arm or hand, staggered what
    is held in a struck hand. Martial Strike MA 6 + 1 - 1 (arm) = 6 vs 0: damage 5 + 3 = 8,
    Medium; at the hand 6 + 1 - 3 = 4: 5 + 2 = 7, Medium."""
    b = armed("B", right="sword", WP=wp, athletics=12)
    state, _ = duel(fighter("A", ma=6), b)
    strike(state, "Martial Strike", location)
    if state.decision is not None and state.decision.kind == "soak":
        state.apply(PASS)
    assert last(state, "pain")["effect"] == effect
    assert (state.fighters[1].hands[0] is None) is drops


def test_an_impaling_weapon_sticks_on_a_medium_wound_par_1_15():
    """§1.15 (aom1d35): a Medium-or-worse wound from an impaling weapon leaves it stuck: a
    knife's -2 on the victim's CO rolls; the striker no longer holds it. Stab: Knife 4 vs 0,
    damage 6 + 2 = 8, Medium. A cutting slash (5 + 2 = 7, Medium too) never sticks."""
    for option, sticks in ((0, True), (1, False)):
        a = armed("A", right="dagger", skills={"Knife": 4})
        state, _ = duel(a, fighter("B", **TOUGH))
        strike(state, "Close Combat Weapon Attack", "Chest", option=option)
        if state.decision is not None and state.decision.kind == "soak":
            state.apply(PASS)
        assert last(state, "wound")["wound"] == "Medium"
        assert state.fighters[1].stuck == ((("dagger", "Chest"),) if sticks else ())
        assert state.fighters[0].hands == ((None, None) if sticks else ("dagger", None))
        _, t = attack_basic(state, 1, 0, "Punch", None)  # a CO roll of the victim's
        assert (("stuck dagger", -4) in t) is sticks  # half points


def test_pulling_out_a_stuck_weapon_costs_2_ap_and_worsens_the_wound_aom1d35():
    """§1.15 (aom1d35): removal in combat is a 2-AP action and worsens the wound one level;
    the weapon falls in the hex."""
    state, _ = duel(fighter("A"), fighter("B"), phase=1,
                    fb={"stuck": [["dagger", "Chest"]], "wounds": [["Chest", "Medium"]]})
    state.apply(react("Pull out weapon"))
    b = state.fighters[1]
    assert (b.ap, b.stuck, b.wounds) == (8, (), (("Chest", 4),))  # Serious
    assert state.dropped == (((1, 0), "dagger"),)
    assert "stuck" not in " ".join(n for n, _ in attack_basic(state, 1, 0, "Punch", None)[1])


def test_ready_weapon_draws_or_picks_up_for_3_ap_aom314a():
    """aom314a: Ready weapon costs 3 AP and draws a sheathed weapon or picks up one lying in
    the hex, into an empty hand (a two-handed weapon needs both); others may answer it
    (aom3121: Turn, Ready weapon)."""
    t = ("dagger", "short_sword", "sword", "bastard_sword", "axe", "spear", "staff", "shield")
    a = armed("A", sheathed=("dagger",))
    state, _ = duel(a, fighter("B"), dropped=[{"pos": [0, 0], "weapon": "spear"}])
    state.apply(react("Ready weapon", option=t.index("dagger")))
    assert state.fighters[0].hands == ("dagger", None) and state.fighters[0].ap == 7
    assert last(state, "ready")["how"] == "drawn"
    assert state.decision == (1, "reaction", "") and state.context()["attack"] == "Ready weapon"
    state.apply(PASS)
    assert "needs 2 empty hand" in state.why_illegal(react("Ready weapon", option=t.index("spear")))
    play(state, react("Drop weapon", option=0), react("Ready weapon", option=t.index("spear")))
    assert state.fighters[0].hands == ("spear", "spear")
    assert last(state, "ready")["how"] == "picked up"
    assert state.dropped == (((0, 0), "dagger"),)


# --------------------------------------------------------------------------- reactions
def test_stand_and_attack_answers_entering_the_strike_zone_aom3142():
    """aom3142: Stand and attack reacts to an opponent moving into a target hex, but not
    to one already in a target hex at the start of that move."""
    b = armed("B", right="sword", skills={"Sword": 3})
    state, _ = duel(fighter("A"), b, pos_b=(2, 0))
    state.apply(react("Move", option=1))  # (0,0) -> (1,0): into B's front hexes
    assert state.decision == (1, "reaction", "")
    assert "Stand and attack" in maneuvers(state)
    inside, _ = duel(fighter("A"), b, pos_a=(1, 1), facing_a=2, pos_b=(2, 0))
    inside.apply(react("Move", option=1))  # (1,1) -> (1,0): from one target hex to another
    assert "Stand and attack" not in maneuvers(inside)


def test_stand_and_attack_against_an_advance_is_simultaneous_aom3142_par_1_6():
    """aom3121 (vs Advance and attack: stand and melee attack if it enters the strike
    zone) and §1.6: the counter-attack is resolved simultaneously (both roll attacks)."""
    a = armed("A", right="sword", skills={"Sword": 2})
    b = armed("B", right="sword", skills={"Sword": 3})
    state, _ = duel(a, b, pos_b=(2, 0))
    state.apply(attack("Advance and attack", option=0))
    assert "Stand and attack" in maneuvers(state)
    play(state, attack("Stand and attack", target=0, option=1), risk(0), risk(0))
    ev = last(state, "attack")
    assert ev["counter"] == "Stand and attack"
    assert (ev["attack"]["result"], ev["defence"]["result"]) == (2.5, 3)  # 2 + 1/2 vs 3


# --------------------------------------------------------------------------- notation
def test_weapon_choices_in_words_name_the_weapon_and_mode():
    """The notation writes a weapon attack's option as the weapon and its mode for the
    deciding fighter ("sword cut"), and as the hand and mode in the state-free catalogue."""
    state, _ = duel(SWORD_A, fighter("B"))
    c = attack("Stand and attack", option=1)
    assert words(state, c) == "Stand and attack @ Chest (sword thrust)"
    assert choice_words(state.t, c) == "Stand and attack @ Chest (right hand, mode 2)"
    assert parse(state, "stand and attack chest sword thrust") == c


# --------------------------------------------------------------------------- scenes
@pytest.mark.parametrize(("scene", "armed_sides"), [("monk_vs_guard", ["guard"]),
                                                    ("monk_vs_two_guards", ["guards", "guards"])])
def test_armed_scenes_set_the_monk_against_weapons(scene, armed_sides):
    """Issue 19: shipped scenes pit the unarmed monk against armed opponents; the armed
    fighters start with their weapons in hand (a two-handed spear in both hands)."""
    from hexdojo.envs.rules import Game

    g = Game.from_scene(scene)
    s = g.new_state(3)
    assert s.fighters[0].name == "Chu" and s.fighters[0].hands == (None, None)
    armed = [f for f in s.fighters[1:]]
    assert [g.side_name(g.side_of(f.idx)) for f in armed] == armed_sides
    assert all(f.hands[0] is not None for f in armed)
    assert {f.hands for f in armed} <= {("sword", "shield"), ("spear", "spear")}


def test_a_block_locks_only_the_blocked_attackers_weapon_in_a_group_aom3145():
    """aom3145/§3: the block locks the weapon of the fighter who was blocked; a follow-on
    against a third fighter meets his weapons free (the lock is not passed on)."""
    from hexdojo.envs.rules import Game, LoadedDice

    a = armed("A", right="sword", skills={"Sword": 1})
    c = armed("C", right="sword", left="shield", skills={"Sword": 2, "Shield": 2})
    game = Game.create([a, fighter("B", ma=6), c], radius=4)
    sc = {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 10}, {"pos": [1, 0], "facing": 3, "ap": 10},
                       {"pos": [1, -1], "facing": 5, "ap": 10}], "phase": 0}  # C in B's front
    state = game.new_state(LoadedDice([]), scenario=sc)
    strike(state, "Stand and attack", "Chest", option=0, reaction=react("Forearm Block"))
    assert state.context()["locked"] == "R Arm" and state.context()["locked_fighter"] == 0
    grabs = {(ch.target, ch.location) for ch in state.legal_choices() if ch.maneuver == "Arm Grab"}
    assert {loc for tg, loc in grabs if tg == 0} == {"R Arm"}  # the blocked arm of A
    assert {loc for tg, loc in grabs if tg == 2} == {"L Arm", "R Arm"}  # C's arms are free
    state.apply(attack("Martial Strike", target=2))
    assert "locked" not in state.context()
    assert legal(state, react("Block", option=0))  # C's own sword was never blocked


def test_the_grab_of_the_blocked_arm_does_not_depend_on_earlier_fights_aom3225():
    """aom3225 (Arm Grab of the blocked arm) and the project's determinism: an armed
    defender's follow-on after a Forearm Block of a leg (no arm attacked: no Arm Grab by
    default, either arm with ``forearm_block.grab_after_kick = "either_arm"``) must not
    leave its choices in a memo for the same position after a blocked spear
    (only the R Arm): the memo's key names the blocked limb in every kind of window."""
    a = armed("A", left="dagger", ma=6)
    for reading, arms in (("none", set()), ("either_arm", {"L Arm", "R Arm"})):
        rules = {"forearm_block": {"grab_after_kick": reading}}
        kicker, _ = duel(a, fighter("B", ma=1), phase=1, rules=rules)
        strike(kicker, "Martial Kick", target=0, reaction=react("Forearm Block"))
        assert kicker.decision == (0, "follow_on", "") and kicker.context()["locked"] == "leg"
        assert {c.location for c in kicker.legal_choices() if c.maneuver == "Arm Grab"} == arms
    spear, _ = duel(a, armed("B", right="spear", skills={"Spear": 1}), phase=1)
    strike(spear, "Stand and attack", target=0, reaction=react("Forearm Block"))
    assert spear.decision == (0, "follow_on", "") and spear.context()["locked"] == "R Arm"
    assert {c.location for c in spear.legal_choices() if c.maneuver == "Arm Grab"} == {"R Arm"}


def test_the_board_names_each_fighters_weapons():
    """The text board (terminal play, replays) shows what each fighter holds, has sheathed
    and has stuck in him; an unarmed fighter's line is as before (no weapon words)."""
    from hexdojo.envs.render import status_line

    g = armed("G", right="sword", left="shield", sheathed=("dagger",))
    state, _ = duel(fighter("M"), g, fb={"stuck": [["spear", "Chest"]]})
    assert "sword R, shield L, sheathed dagger, stuck spear (Chest)" in status_line(state, 1)
    assert "sword" not in status_line(state, 0) and "sheathed" not in status_line(state, 0)
    spear, _ = duel(armed("S", right="spear"), fighter("M"))
    assert "spear both" in status_line(spear, 0)


def test_a_weapon_maneuvers_weapon_mode_and_ap_are_read_from_the_core_aom3142() -> None:
    """§2.1: a weapon attack's option is hand x max_modes + mode; aom3142: its AP is the
    mode's (the guard's sword: cut 3, thrust 2); a Block's option is the hand (the shield,
    left); an unarmed maneuver has no weapon and costs its own AP. The notation and menus
    read these through the core (``weapons.py`` over ``_core.fight_weapon_use``)."""
    s = Game.create(["chu", "guard"]).new_state(seed=0)
    n = s.t.max_modes
    assert wp.used_weapon(s, 1, "Stand and attack", 0 * n + 0) == "sword"
    assert wp.attack_mode(s, 1, "Stand and attack", 0 * n + 0).name == "cut"
    assert wp.cost(s, 1, "Stand and attack", 0 * n + 0) == 3
    assert wp.attack_mode(s, 1, "Stand and attack", 0 * n + 1).name == "thrust"
    assert wp.cost(s, 1, "Stand and attack", 0 * n + 1) == 2
    assert wp.used_weapon(s, 1, "Block", 1) == "shield"
    assert wp.attack_mode(s, 1, "Block", 1) is None
    assert wp.used_weapon(s, 0, "Punch", 0) is None
    assert wp.cost(s, 0, "Punch", 0) == s.t.maneuvers["Punch"].ap
    assert wp.used_weapon(s, 0, "Stand and attack", 0) is None  # Chu's hands are empty

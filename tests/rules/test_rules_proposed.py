"""§5 gaps: every PROPOSED default is a named parameter of the rules data with its
proposed value, and overriding it changes what the engine does.

Items covered by an override test in a topic file are noted there: §5.17 release_ap
(test_rules_holds), §5.18 (test_rules_prone), §5.22 (test_rules_self_injury), §5.25
(test_rules_turn), §5.26 (test_rules_mounted), §5.29 (test_rules_encumbrance),
§5.5/§5.6/§5.8/§5.28 values (test_rules_maneuver_data). §5.12's factors against weapons
are not keys while no attack is made with a weapon (no key the engine never reads).
"""

from __future__ import annotations

from typing import Any

import pytest

from hexdojo.envs.rules import PASS, Choice, Dice, Game, LoadedDice, RulesError, load_rules_data
from tests.rules_kit import attack, duel, events, fighter, last, react, risk, strike, terms

DATA, _ = load_rules_data()


def get(path: str) -> Any:
    """A value of the rules data by dotted path (quoted names for maneuvers)."""
    obj: Any = DATA
    for part in path.split("|"):
        obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
    return obj


DEFAULTS = [
    ("§5.1", "dice|die_sides", 6),
    ("§5.1", "dice|points_per_die", 3),
    ("§5.1", "dice|max_risk_dice", 6),
    ("§5.2", "attack|hit_requires_higher", True),
    ("§5.2", "attack|margin_damage_per_point", 0.5),
    ("§5.3", "maneuvers|Martial Strike|reacts_to", ["closing"]),
    ("§5.4", "attack|rear_arc", [2, 3, 4]),
    ("§5.5", "maneuvers|Spinning Kick|ap", 3),
    ("§5.5", "maneuvers|Arm/wrist Lock|ap", 2),
    ("§5.5", "maneuvers|Martial Throw|ap", 2),
    ("§5.5", "maneuvers|Head Lock|ap", 2),
    ("§5.5", "maneuvers|Pull Down|ap", 2),
    ("§5.5", "maneuvers|Parry|ap", 1),
    ("§5.6", "maneuvers|Spinning Kick|tags", ["A"]),
    ("§5.6", "maneuvers|Arm/wrist Lock|tags", ["F"]),
    ("§5.6", "maneuvers|Grapple|tags", ["A"]),
    ("§5.7", "maneuvers|Martial Kick|reacts_to", ["adjacent_entry"]),
    ("§5.8", "maneuvers|Pull Down|damage", 3),
    ("§5.10", "maneuvers|Parry|weapon", "parry"),
    ("§5.10", "maneuvers|Parry|moves", "away"),
    ("§5.12", "forearm_block|bonus_vs_close_weapons", 0),
    ("§5.12", "forearm_block|bonus_vs_melee_weapons", -2),
    ("§5.11", "drop_dodge|by_aim",
     {"Head": 4, "Eyes": 4, "Throat": 4, "Chest": 2, "Arm": 2, "Hand": 2, "Abdomen": 1,
      "Groin": 1, "Leg": 0}),
    ("§5.11", "drop_dodge|by_maneuver", {"Spinning Kick": 4, "Kick": 0, "Leg Sweep": 0}),
    ("§5.12", "forearm_block|bonus_vs_unarmed", 2),
    ("§5.12", "maneuvers|Forearm Block|characteristic", "CO"),
    ("§5.13", "holds|kinds|arm_lock|break_holder_bonus", 2),
    ("§5.14", "holds|kinds|head_lock|held_attack_mod", -4),
    ("§5.15", "knockback|holder_knocked_back_releases", True),
    ("§5.16", "holds|lock_damage_in_holder_phase", True),
    ("§5.16", "lock_damage|uses_margin", False),
    ("§5.16", "lock_damage|knockback", False),
    ("§5.17", "holds|maintain_ap", 0),
    ("§5.17", "holds|release_ap", 0),
    ("§5.17", "holds|one_hold_per_holder", True),
    ("§5.18", "prone|stand_up_ap", 2),
    ("§5.18", "prone|allowed", ["Martial Kick", "Soak", "Break Hold", "Turn", "Stand up"]),
    ("§5.19", "pain|unconscious_at_most", 0),
    ("§5.19", "pain|stunned_below", 4),
    ("§5.19", "pain|staggered_below", 7),
    ("§5.20", "knockback|knocked_over_min_fail", 7),
    ("§5.20", "knockback|off_balance_max_fail", 3),
    ("§5.22", "self_injury|locations", {"foot": "R Leg", "head": "Head"}),  # a hand: the striking one
    # the readings of aom3221 and aom3225 (issue 28), each a named key
    ("aom3221", "attack|striking_hand", "R Hand"),
    ("aom3225", "attack|counter_needs_non_phasing", ["Martial Strike", "Arm Grab"]),
    ("aom3225", "forearm_block|grab_after_kick", "none"),
    ("aom3225", "mounted|close_from_other_hex", False),
    ("aom3221", "movement|dodge_triggers_attacker", True),
    ("aom3225", "holds|kinds|arm|holder_arms", 1),
    ("§5.22", "pain|self_injury_pain_roll", True),
    ("§5.23", "damage_types|Impaling|pain", 2),
    ("§5.23", "damage_types|Impaling|knockback", 2),
    ("§5.25", "turn|unused_ap_lost", True),
    ("§5.26", "mounted|attack_mod", -2),
    ("§5.26", "mounted|range1_kicks_allowed", False),
    ("§5.27", "characteristics", ["ST", "CO", "PE", "CH", "IQ", "WP"]),
    ("§5.28", "maneuvers|Grapple|skill", "Combat"),
    ("§5.29", "encumbrance|bands",
     {"unencumbered": 2, "light": 1, "average": 0, "heavy": -2, "very_heavy": -4,
      "extreme": -6}),
]


@pytest.mark.parametrize(("item", "path", "value"), DEFAULTS,
                         ids=[f"{i}:{p}" for i, p, _ in DEFAULTS])
def test_proposed_default_is_a_named_parameter(item, path, value):
    """§5: each PROPOSED default sits in rules.toml under a name, with the proposed value."""
    assert get(path) == value, item


def test_overrides_are_validated_par_5():
    """§5 (rules as data): a bad override names the field and is refused."""
    with pytest.raises(RulesError, match="pain.stunned_below"):
        load_rules_data({"pain": {"stunned_below": "four"}})


# ------------------------------------------------------------------ override behaviour
def ap_turn(rules, faces, **kw):
    a = fighter("A", combat=6, CO=2, **kw)
    dice = LoadedDice(faces)
    state = Game.create([a, fighter("B")], rules=rules).new_state(dice)
    return state, [e for e in state.events if e["type"] == "turn_start"][0]


def test_points_per_die_override_par_5_1():
    """§5.1: dice.points_per_die = 2: basic 8 with one die (6) -> 6 + 8 - 2 = 12 AP."""
    _, start = ap_turn({"dice": {"points_per_die": 2}}, [6, 1, 1], ap=1)
    assert start["ap_roll"]["result"] == 12


def test_max_risk_override_par_5_1():
    """§5.1: dice.max_risk_dice = 3: risk choices 0..3 only."""
    state, _ = duel(fighter("A"), fighter("B"), pos_b=(0, 0),
                    rules={"dice": {"max_risk_dice": 3}})
    state.apply(attack("Martial Strike"))
    state.apply(PASS)
    assert [c.risk for c in state.legal_choices()] == [0, 1, 2, 3]


def test_die_sides_override_par_5_1():
    """§5.1: dice.die_sides = 10: a seeded fight's dice show faces up to 10."""
    game = Game.create([fighter("A"), fighter("B")], rules={"dice": {"die_sides": 10}})
    state = game.new_state(7)
    assert state.dice.sides == 10
    assert max(Dice(7, 10).faces(200)) == 10


def test_ties_override_par_5_2():
    """§5.2: attack.hit_requires_higher = false: 5 vs 5 hits."""
    state, _ = duel(fighter("A", ma=4), fighter("B", combat=5, ST=10), ap_b=0,
                    rules={"attack": {"hit_requires_higher": False}})
    strike(state)
    assert last(state, "attack")["outcome"] == "hit"


def test_reaction_eligibility_is_data_par_5_3():
    """§5.3 (b): the reaction must be in the trigger's list: removing 'closing' from the
    Martial Strike's triggers takes the counter-strike away."""
    rules = {"maneuvers": {"Martial Strike": {"reacts_to": []}}}
    state, _ = duel(fighter("A", ma=3), fighter("B", ma=3), rules=rules)
    state.apply(attack("Martial Strike"))
    assert "Martial Strike" not in {c.maneuver for c in state.legal_choices()}
    assert "Punch" in {c.maneuver for c in state.legal_choices()}  # still reacts to closing
    state2, _ = duel(fighter("A", ma=3), fighter("B", ma=3))
    state2.apply(attack("Martial Strike"))
    assert "Martial Strike" in {c.maneuver for c in state2.legal_choices()}


def test_rear_arc_override_par_5_4():
    """§5.4: attack.rear_arc = [3]: a kick from B's rear-left hex gets no +2 any more."""
    a = fighter("A", ma=3)
    b = fighter("B", combat=12)
    for rules, rear in ((None, 2), ({"attack": {"rear_arc": [3]}}, None)):
        state, _ = duel(a, b, facing_b=1, ap_b=0, rules=rules)  # A at B's rear-left
        strike(state, "Martial Kick")
        assert terms(last(state, "attack")["attack"]).get("rear") == rear


def test_ap_cost_override_par_5_5():
    """§5.5: maneuvers.'Spinning Kick'.ap = 4: 10 -> 6 AP."""
    state, _ = duel(fighter("A", ma=3), fighter("B", combat=12), ap_b=0,
                    rules={"maneuvers": {"Spinning Kick": {"ap": 4}}})
    strike(state, "Spinning Kick")
    assert state.fighters[0].ap == 6


def test_tags_override_par_5_6():
    """§5.6: maneuvers.'Spinning Kick'.tags = ['F']: no longer an action."""
    state, _ = duel(fighter("A", ma=3), fighter("B"),
                    rules={"maneuvers": {"Spinning Kick": {"tags": ["F"]}}})
    assert state.why_illegal(attack("Spinning Kick")) == "Spinning Kick: not an action (tags F)"


def test_martial_kick_reaction_override_par_5_7():
    """§5.7: maneuvers.'Martial Kick'.reacts_to = []: no kick at someone stepping close."""
    rules = {"maneuvers": {"Martial Kick": {"reacts_to": []}}}
    state, _ = duel(fighter("A"), fighter("B", ma=3), pos_a=(-1, 0), rules=rules)
    state.apply(Choice("maneuver", "Move", option=1))
    assert state.decision == (1, "reaction", "")
    assert {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"} == {"Turn"}


def test_pull_down_override_par_5_8():
    """§5.8: maneuvers.'Pull Down'.damage = 5: the rating term follows the data."""
    g = fighter("G", ma=6)
    s = fighter("S", combat=3, WP=10, athletics=12, mounted=True, height=1)
    state, _ = duel(g, s, pos_b=(0, 0), rules={"maneuvers": {"Pull Down": {"damage": 5}}})
    strike(state, "Arm Grab", "R Arm")
    state.apply(Choice("maneuver", "Pull Down", target=1))
    state.apply(PASS)
    state.apply(risk(0))
    state.apply(risk(0))
    dmg = [e for e in events(state, "damage") if e["maneuver"] == "Pull Down"][0]
    assert terms(dmg["roll"])["rating"] == 5


def test_sixth_brawling_maneuver_is_omitted_par_5_9():
    """§5.9 PROPOSED: the unknown brawling maneuver 3.2.1.5 is omitted: the Combat-skill
    attacks are exactly Punch, Kick, Head Butt, Grapple."""
    combat = {n for n, m in DATA.maneuvers.items()
              if m.skill == "Combat" and m.category in ("strike", "grab") and m.available}
    assert combat == {"Punch", "Kick", "Head Butt", "Grapple"}


def test_parry_needs_a_weapon_par_5_10():
    """§5.10 PROPOSED: Parry needs a weapon: never offered bare-handed."""
    state, _ = duel(fighter("A", ma=3), fighter("B", combat=3))
    state.apply(attack("Martial Strike"))
    assert state.why_illegal(react("Parry")) == "Parry: needs a parry weapon in hand"


def test_drop_dodge_table_override_par_5_11():
    """§5.11: drop_dodge.by_aim.Chest = 3: Drop Dodge vs a Chest strike 0 + 3 = 3."""
    rules = {"drop_dodge": {"by_aim": {"Chest": 3}}}
    state, _ = duel(fighter("A"), fighter("B"), rules=rules)
    strike(state, reaction=react("Drop Dodge"))
    assert last(state, "attack")["defence"]["result"] == 3


def test_forearm_block_bonus_override_par_5_12():
    """§5.12: forearm_block.bonus_vs_unarmed = 3: Forearm Block 0 + 3 = 3."""
    rules = {"forearm_block": {"bonus_vs_unarmed": 3}}
    state, _ = duel(fighter("A"), fighter("B"), rules=rules)
    strike(state, reaction=react("Forearm Block"))
    assert last(state, "attack")["defence"]["result"] == 3


def test_arm_lock_break_bonus_override_par_5_13():
    """§5.13: holds.kinds.arm_lock.break_holder_bonus = 0: escaper 5 beats holder 4."""
    rules = {"holds": {"kinds": {"arm_lock": {"break_holder_bonus": 0}}}}
    state, _ = duel(fighter("A", combat=4), fighter("B", combat=5), pos_b=(0, 0), phase=1,
                    holds=[{"holder": 0, "held": 1, "kind": "arm_lock", "location": "R Arm"}],
                    rules=rules)
    state.apply(Choice("maneuver", "Break Hold", option=0))
    state.apply(risk(0))
    state.apply(risk(0))
    assert last(state, "break_hold")["outcome"] == "broken"


def test_held_whitelist_override_par_5_14():
    """§5.14: holds.kinds.arm.held_may without Punch: an arm-held fighter cannot punch."""
    rules = {"holds": {"kinds": {"arm": {"held_may": ["Break Hold", "Soak"]}}}}
    state, _ = duel(fighter("A"), fighter("B", combat=3), pos_b=(0, 0), phase=1,
                    holds=[{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}],
                    rules=rules)
    assert {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"} == {"Break Hold"}


def test_lock_damage_timing_override_par_5_16():
    """§5.16: holds.lock_damage_in_holder_phase = false: no damage in turn 2's phase."""
    a = fighter("A", ST=1, tactics=1)
    b = fighter("B", WP=10)
    for rules, n in ((None, 1), ({"holds": {"lock_damage_in_holder_phase": False}}, 0)):
        state, _ = duel(a, b, [1, 1], pos_b=(0, 0), ap_a=0, ap_b=0, phase=None, rules=rules,
                        holds=[{"holder": 0, "held": 1, "kind": "head_lock",
                                "location": "Head", "turn": 1}],
                        fa={"phased": True}, fb={"phased": True})
        state.apply(Choice("phase", option=1))
        assert len([e for e in events(state, "damage") if e["kind"] == "lock"]) == n


def test_one_hold_per_holder_override_par_5_17():
    """§5.17: holds.one_hold_per_holder = false: A, holding B, may Arm Grab C too."""
    rules = {"holds": {"one_hold_per_holder": False}}
    game = Game.create([fighter("A", ma=3), fighter("B"), fighter("C")], rules=rules)
    state = game.new_state(LoadedDice([]), scenario={
        "fighters": [{"pos": [0, 0], "facing": 0, "ap": 5}, {"pos": [0, 0], "facing": 3, "ap": 5},
                     {"pos": [0, 0], "facing": 3, "ap": 5}],
        "holds": [{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}], "phase": 0})
    assert attack("Arm Grab", target=2, location="R Arm") in state.legal_choices()


def test_pain_bands_override_par_5_19():
    """§5.19: pain.staggered_below = 8: a pain result of 7 now staggers."""
    a = fighter("A")
    b = fighter("B", WP=6, athletics=12)  # 6 - 2 + 3 (Light) = 7
    for rules, effect in ((None, "none"), ({"pain": {"staggered_below": 8}}, "staggered")):
        state, _ = duel(a, b, ap_b=0, rules=rules)
        strike(state)
        assert last(state, "pain")["effect"] == effect


def test_knocked_over_band_override_par_5_20():
    """§5.20: knockback.knocked_over_min_fail = 6: failing by 6 1/2 now knocks over."""
    a = fighter("A", body=12)
    b = fighter("B", athletics=2, body=12)  # 0 vs 6 1/2 (Martial Kick 6 + 1/2)
    for rules, effect in ((None, "knocked back"),
                          ({"knockback": {"knocked_over_min_fail": 6}}, "knocked over")):
        state, _ = duel(a, b, rules=rules)
        strike(state, "Martial Kick")
        assert last(state, "knockback")["effect"] == effect


def test_self_injury_location_override_par_5_22():
    """§5.22 with aom3221 ("hit on the hand": the hand that struck): attack.striking_hand =
    'L Hand' makes the left the hand a free fighter strikes with, so the left is hurt; a
    hand in self_injury.locations is refused (it is always the striking one)."""
    a = fighter("A", WP=10)
    b = fighter("B", body="full_plate", CO=-3, athletics=12)
    with pytest.raises(RulesError, match="self_injury.locations"):
        duel(a, b, rules={"self_injury": {"locations": {"hand": "L Hand"}}})
    state, _ = duel(a, b, ap_b=0, rules={"attack": {"striking_hand": "L Hand"}})
    strike(state)
    assert [e["location"] for e in events(state, "damage") if e["kind"] == "self"] == ["L Hand"]


def test_impaling_modifiers_override_par_5_23():
    """§5.23: damage_types.Impaling.pain = 0 and .knockback = 0 (bare hand never sticks;
    Impaling only changes these two modifiers)."""
    rules = {"damage_types": {"Impaling": {"pain": 0, "knockback": 0}}}
    a = fighter("A")
    b = fighter("B", WP=10, athletics=12)
    state, _ = duel(a, b, ap_b=0, rules=rules)
    strike(state, option=1)
    assert "Impaling" not in terms(last(state, "pain")["roll"])
    assert "Impaling" not in terms(last(state, "knockback")["roll"])
    assert last(state, "wound")["wound"] == "Light"  # no stuck weapon, no extra effect


def test_whole_body_location_override_par_5_24():
    """§5.24: no location bonus for a Martial Throw (whole body, Chest armour); with
    attack.whole_body_location = 'Abdomen' the throw gets the Abdomen's +1."""
    for rules, mod in ((None, 0), ({"attack": {"whole_body_location": "Abdomen"}}, 1)):
        state, _ = duel(fighter("A", ma=6), fighter("B", ST=10, athletics=12), pos_b=(0, 0),
                        ap_b=0, rules=rules)
        strike(state, "Arm Grab", "R Arm")
        state.apply(Choice("maneuver", "Martial Throw", target=1, option=3))
        state.apply(risk(0))
        state.apply(risk(0))
        dmg = [e for e in events(state, "damage") if e["maneuver"] == "Martial Throw"][0]
        assert sum(v for n, v in dmg["roll"]["terms"] if n.startswith("location")) == mod


def test_characteristics_are_the_sheets_par_5_27():
    """§5.27: a fighter naming a characteristic outside ST CO PE CH IQ WP is refused."""
    bad = fighter("X")
    bad["characteristics"]["AG"] = 1
    with pytest.raises(RulesError, match="characteristics.AG"):
        Game.create([bad, fighter("B")])


def test_grapple_skill_override_par_5_28():
    """§5.28: maneuvers.Grapple.skill = 'Martial Arts': the Grapple roll uses it."""
    state, _ = duel(fighter("A", ma=5, combat=1), fighter("B", combat=12), ap_b=0,
                    rules={"maneuvers": {"Grapple": {"skill": "Martial Arts"}}})
    strike(state, "Grapple", None)
    assert last(state, "attack")["attack"]["terms"][0] == ["Martial Arts", 5]

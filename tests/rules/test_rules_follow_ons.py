"""§3 follow-on graph (after a successful ... may follow with), checked both as data and
as the follow-on windows the engine opens; 'who may defend a follow-on' (aom322e)."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import PASS, Choice, load_rules_data
from tests.rules_kit import duel, events, fighter, last, pass_dodge_window, react, risk, strike

# RULES §3, rows and entries limited to maneuvers available bare-handed (Block, Parry,
# Stand and attack, Advance and attack and Close Combat Weapon Attack need a weapon).
GRAPH = {
    "Block": {"Stand and attack", "Martial Strike", "Punch", "Close Combat Weapon Attack"},
    "Side-step dodge": {"Stand and attack", "Martial Strike", "Close Combat Weapon Attack"},
    "Parry": {"Advance and attack"},
    "Forearm Block": {"Punch", "Head Butt", "Martial Strike", "Martial Kick", "Arm Grab",
                      "Close Combat Weapon Attack"},
    "Rolling Dodge": {"Martial Strike", "Martial Kick"},
    "Drop Dodge": {"Martial Kick", "Leg Sweep"},
    "Martial Strike": {"Martial Strike", "Arm Grab", "Head Lock"},
    "Martial Kick": {"Leg Sweep"},
    "Leg Sweep": {"Martial Kick"},
    "Arm Grab": {"Punch", "Martial Strike", "Head Butt", "Arm/wrist Lock", "Martial Throw",
                 "Pull Down"},
    "Leg Grab": {"Martial Kick", "Martial Throw"},
    "Arm/wrist Lock": {"Martial Throw"},
    "Head Lock": {"Martial Throw"},
}


def names(state) -> set[str]:
    return {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"}


def test_follow_on_graph_data_matches_par_3():
    """§3: rules.toml's follow_ons equal the §3 table (weapon rows included)."""
    data, _ = load_rules_data()
    assert {k: set(v) for k, v in data.follow_ons.items()} == GRAPH


def test_follow_on_targets_carry_the_f_tag_par_3():
    """§3/§1.6: every maneuver reached by the graph can be a follow-on ([F] tag)."""
    data, _ = load_rules_data()
    for after, nexts in GRAPH.items():
        for n in nexts:
            assert "F" in data.maneuvers[n].tags, (after, n)


# The attacker A hits, B (tough, Athletics 12: never knocked away) is the target.
TOUGH = fighter("B", WP=10, athletics=12, ST=5)


@pytest.mark.parametrize(
    ("maneuver", "location", "pos_b"),
    [
        ("Martial Strike", "Chest", (0, 0)),
        ("Arm Grab", "R Arm", (0, 0)),
        ("Martial Kick", "Chest", (1, 0)),
        ("Leg Sweep", "R Leg", (1, 0)),
    ],
)
def test_follow_on_window_after_a_successful_attack_par_3(maneuver, location, pos_b):
    """§3: after a hit the attacker is offered exactly the graph's follow-ups."""
    a = fighter("A", ma=6, combat=6)
    state, _ = duel(a, TOUGH, pos_b=pos_b, ap_b=0)
    strike(state, maneuver, location)
    assert last(state, "attack")["outcome"] == "hit"
    assert state.decision == (0, "follow_on", "")
    assert names(state) == GRAPH[maneuver]


@pytest.mark.parametrize(
    ("reaction", "attack_name", "expected"),
    [
        # unarmed defenders: the weapon follow-ups need a weapon in hand (aom3211, aom3142)
        ("Forearm Block", "Martial Strike", GRAPH["Forearm Block"] - {"Close Combat Weapon Attack"}),
        ("Side-step dodge", "Martial Strike", {"Martial Strike"}),
        ("Drop Dodge", "Martial Strike", GRAPH["Drop Dodge"]),
        ("Leg Grab", "Martial Kick", GRAPH["Leg Grab"]),
        # a Rolling Dodge carries B through A's hex, leaving A behind B: only the Martial
        # Kick (which may strike behind, aom3222) is possible (closing needs the front arc)
        ("Rolling Dodge", "Martial Strike", {"Martial Kick"}),
    ],
)
def test_follow_on_window_after_a_successful_defence_par_3(reaction, attack_name, expected):
    """§3: after a successful block, dodge or Leg Grab the defender may follow on."""
    a = fighter("A", ma=1, WP=10, athletics=12)
    b = fighter("B", ma=6, combat=6)
    state, _ = duel(a, b)
    strike(state, attack_name, reaction=react(reaction))
    assert last(state, "attack")["outcome"] == "miss"
    pass_dodge_window(state)  # a dodge that moves is a movement A may answer (aom3221)
    assert state.decision == (1, "follow_on", "")
    assert names(state) <= GRAPH[reaction]
    assert names(state) == expected


def test_no_follow_on_after_a_jump_back_par_3():
    """§3: a successful Jump back dodge has no follow-ups (only Soak on failure)."""
    a = fighter("A", ma=1)
    b = fighter("B", combat=6)
    state, _ = duel(a, b)
    strike(state, reaction=react("Jump back dodge"))
    assert last(state, "attack")["outcome"] == "miss"
    pass_dodge_window(state)
    assert state.decision == (0, "action", "")


def test_no_follow_on_after_a_failed_forearm_block_par_3():
    """§3: a failed Forearm Block gives the blocker no follow-on (only Soak, §1.11): the
    next window is the striker's own follow-on."""
    a = fighter("A", ma=8)
    b = fighter("B", ma=0, ST=10, athletics=12)
    state, _ = duel(a, b)
    strike(state, reaction=react("Forearm Block"))
    assert last(state, "attack")["outcome"] == "hit"
    assert state.decision == (0, "follow_on", "")
    assert state.context()["after"] == "Martial Strike"


def test_blocked_arm_is_locked_the_other_blocks_the_follow_on_aom322e():
    """§3 aom322e: after B's successful Forearm Block of A's Martial Strike, the striking arm
    is locked for B's follow-on; A's other arm is free, so a Forearm Block (and a dodge)
    still answers it (issue 12: only the blocked limb is barred)."""
    a = fighter("A", ma=1)
    b = fighter("B", ma=6)
    state, _ = duel(a, b)
    strike(state, reaction=react("Forearm Block"))
    state.apply(Choice("maneuver", "Martial Strike", target=0, location="Chest"))
    assert state.decision == (0, "reaction", "")
    assert "Forearm Block" in names(state)
    assert "Side-step dodge" in names(state)
    assert last(state, "declare")["via"] == "follow_on"


def test_combination_martial_strikes_aom3221():
    """§3 aom3221: Martial Strike -> Martial Strike -> Martial Strike, 1 AP each (4 -> 1)."""
    a = fighter("A", ma=6)
    state, _ = duel(a, fighter("B", ST=10, athletics=12), pos_b=(0, 0), ap_a=4, ap_b=0)
    strike(state)
    for _ in range(2):
        assert state.decision == (0, "follow_on", "")
        state.apply(Choice("maneuver", "Martial Strike", target=1, location="Chest"))
        state.apply(risk(0))
        state.apply(risk(0))
    vias = [e["via"] for e in events(state, "declare")]
    assert vias == ["action", "follow_on", "follow_on"]
    assert state.fighters[0].ap == 1
    assert state.decision == (0, "follow_on", "")


def test_follow_on_may_be_declined_par_3():
    """§3: passing the follow-on window returns to the phasing fighter's actions."""
    state, _ = duel(fighter("A", ma=6), TOUGH, pos_b=(0, 0), ap_b=0)
    strike(state)
    state.apply(PASS)
    assert state.decision == (0, "action", "")

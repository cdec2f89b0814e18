"""§1.13 knock-back (aom1d34): ST + Athletics (+ Acrobatics) against the basic damage
before armour and soak; modifiers; off balance / knocked back / knocked over (§5.20
PROPOSED band gap, direction); holds and knock-back (aom3225, §5.15)."""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import PASS, Choice
from tests.rules_kit import duel, events, fighter, last, react, risk, strike, terms

# B in full plate (PV 12): no blow below wounds it, so no soak, pain or impairment gets in
# the way; A's own armour keeps the self-injury on A's foot/hand harmless.
A = fighter("A", body=12)


def kicked(athletics: float, ap_b: int = 5, st_a: float = 0, location="Chest", **kw):
    """A Martial Kicks B from the adjacent hex W of B: attack 1 vs 0, margin 1: difficulty
    = ST_a + 6 + 1/2. B's roll = Athletics + ST 0 - 2 (Blunt) + location modifier."""
    a = fighter("A", ST=st_a, body=12)
    b = fighter("B", athletics=athletics, body=12)
    state, dice = duel(a, b, ap_b=ap_b, **kw)
    strike(state, "Martial Kick", location)
    return state


@pytest.mark.parametrize(
    ("athletics", "result", "effect", "ap", "pos", "prone"),
    [
        (8.5, 6.5, "none", 5, (1, 0), False),
        (8, 6, "off balance", 4, (1, 0), False),  # fail by 1/2
        (5.5, 3.5, "off balance", 4, (1, 0), False),  # fail by 3
        (5, 3, "knocked back", 3, (2, 0), False),  # fail by 3 1/2
        (2, 0, "knocked back", 3, (2, 0), False),  # fail by 6 1/2 (§5.20 gap)
        (1.5, -0.5, "knocked over", 3, (2, 0), True),  # fail by 7
    ],
)
def test_knockback_outcomes_aom1d34_par_5_20(athletics, result, effect, ap, pos, prone):
    """§1.13 aom1d34: success -> nothing; fail by <=3 off balance (-1 AP); fail by >3 and
    <7 knocked back 1 hex (-2 AP); fail by >=7 knocked over: back 1 hex, -2 AP, prone.
    Difficulty 6 1/2, even though armour stops all the damage."""
    state = kicked(athletics)
    dmg = [e for e in events(state, "damage") if e["kind"] == "attack"][0]
    assert dmg["wound"] == "None"
    ev = last(state, "knockback")
    assert ev["difficulty"] == 6.5
    assert ev["roll"]["result"] == result
    assert ev["effect"] == effect
    b = state.fighters[1]
    assert (b.ap, b.pos, b.prone) == (ap, pos, prone)


def test_knockback_roll_terms_aom1d34():
    """§1.13 aom1d34: Athletics + Acrobatics specialism + ST + Blunt -2."""
    a = fighter("A", body=12)
    b = fighter("B", ST=1, athletics=2, body=12, specs={"Acrobatics": 1})
    state, _ = duel(a, b)
    strike(state, "Martial Kick")
    assert last(state, "knockback")["roll"]["terms"] == [
        ["Athletics", 2], ["specialism", 1], ["ST", 1], ["Blunt", -2]]


@pytest.mark.parametrize(
    ("location", "mod"),
    [("Head", 0), ("Eyes", 0), ("Throat", 0), ("Chest", 0), ("Abdomen", 0), ("Groin", 0),
     ("L Arm", 2), ("R Hand", 2), ("R Leg", -2)],
)
def test_knockback_location_modifier_aom1d34(location, mod):
    """§1.13 aom1d34: Hand/Arm +2; Head/Eyes/Throat/Chest/Abdomen/Groin 0; Leg (on foot) -2."""
    a = fighter("A", ma=12, body=12)
    b = fighter("B", athletics=12, body=20, helmet=20)  # DR 20: no wound anywhere
    state, _ = duel(a, b)
    strike(state, "Martial Kick", location)
    assert terms(last(state, "knockback")["roll"]).get(f"location {location}", 0) == mod


@pytest.mark.parametrize(("option", "dtype", "mod"), [(0, "Blunt", -2), (1, "Impaling", 2)])
def test_knockback_damage_type_modifier_aom1d34(option, dtype, mod):
    """§1.13 aom1d34: Impaling +2, Blunt -2."""
    a = fighter("A", body=12)
    b = fighter("B", athletics=12, body=12)
    state, _ = duel(a, b, pos_b=(0, 0))
    strike(state, option=option)
    assert terms(last(state, "knockback")["roll"])[dtype] == mod


def test_off_balance_without_ap_falls_over_aom1d34():
    """§1.13 aom1d34: off balance with no AP left: falls over (prone)."""
    state = kicked(8, ap_b=0)
    ev = last(state, "knockback")
    assert (ev["effect"], ev["falls"]) == ("off balance", True)
    assert state.fighters[1].prone is True
    assert state.fighters[1].pos == (1, 0)


def test_knocked_back_with_one_ap_falls_over_aom1d34():
    """§1.13 aom1d34: knocked back with fewer than 2 AP: falls over, AP 1 -> 0."""
    state = kicked(5, ap_b=1)
    ev = last(state, "knockback")
    assert (ev["effect"], ev["falls"]) == ("knocked back", True)
    b = state.fighters[1]
    assert (b.ap, b.pos, b.prone) == (0, (2, 0), True)


def test_knockback_direction_is_away_from_the_attacker_par_5_20():
    """§5.20 PROPOSED: directly away from the attacker: A kicks from the NW hex of B at
    (1,0), i.e. from (1,-1): B goes SE to (1,1)."""
    state = kicked(5, pos_a=(1, -1), facing_a=5, pos_b=(1, 0), facing_b=2)
    assert last(state, "knockback")["effect"] == "knocked back"
    assert state.fighters[1].pos == (1, 1)


def test_same_hex_knockback_follows_the_attackers_facing_par_5_20():
    """§5.20 PROPOSED: in the same hex, along the attacker's facing (A faces NE: B from
    (0,0) to (1,-1)). Martial Strike: 1 vs 0 -> damage 5 1/2; Athletics 1 - 2 = -1: fail
    by 6 1/2 -> knocked back."""
    a = fighter("A", body=12)
    b = fighter("B", athletics=1, body=12)
    state, _ = duel(a, b, pos_b=(0, 0), facing_a=1)
    strike(state)
    assert last(state, "knockback")["effect"] == "knocked back"
    assert state.fighters[1].pos == (1, -1)


def test_difficulty_is_the_damage_before_soak_aom1d34():
    """§1.13 aom1d34: difficulty = basic damage before armour and soak: B soaks a Light
    wound (5 1/2 vs DR 0) away, the knock-back difficulty is still 5 1/2."""
    a = fighter("A")
    b = fighter("B", athletics=12, combat=5, CO=-5, specs={"Soak": 1})  # soak 6: 2 levels
    state, _ = duel(a, b)
    strike(state)
    state.apply(Choice("maneuver", "Soak"))
    state.apply(risk(0))
    assert last(state, "soak")["after"] == "None"
    assert last(state, "knockback")["difficulty"] == 5.5


def test_held_victim_knocked_back_holder_moves_along_aom3225_par_5_15():
    """§1.13 aom3225, §5.15 PROPOSED: A holds B's arm and strikes (+1 holding): B knocked
    back; A chooses to move along: both end in (1,0), the hold stays."""
    b = fighter("B", athletics=1.5, body=12)
    state, _ = duel(A, b, pos_b=(0, 0),
                    holds=[{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}])
    strike(state)
    assert last(state, "knockback")["effect"] == "knocked back"
    assert state.decision == (0, "hold", "")
    state.apply(Choice("hold", option=1))
    assert state.fighters[0].pos == state.fighters[1].pos == (1, 0)
    assert len(state.holds) == 1
    assert last(state, "moves_along")["actor"] == "A"


def test_held_victim_knocked_back_holder_lets_go_aom3225_par_5_15():
    """§1.13 aom3225: the holder may let go instead: B alone moves to (1,0), hold ends."""
    b = fighter("B", athletics=1.5, body=12)
    state, _ = duel(A, b, pos_b=(0, 0),
                    holds=[{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}])
    strike(state)
    state.apply(Choice("hold", option=0))
    assert state.fighters[0].pos == (0, 0)
    assert state.fighters[1].pos == (1, 0)
    assert state.holds == []
    assert last(state, "hold_ends")["why"] == "let go"


def test_holder_knocked_back_lets_go():
    """§1.13 (hexdojo knockback.holder_knocked_back_releases): B holds A's arm; A strikes
    the holder (-2 held) and knocks B back: B's hold on A ends."""
    a = fighter("A", ma=2, body=12)
    b = fighter("B", athletics=1.5, body=12)
    state, _ = duel(a, b, pos_b=(0, 0),
                    holds=[{"holder": 1, "held": 0, "kind": "arm", "location": "R Arm"}])
    strike(state, reaction=PASS)
    assert terms(last(state, "attack")["attack"])["held (arm)"] == -2
    assert last(state, "knockback")["effect"] == "knocked back"
    assert state.holds == []
    assert last(state, "hold_ends")["why"] == "holder knocked back"


def test_no_knockback_from_holds_without_damage_par_5_21():
    """§5.21 PROPOSED: an Arm Grab (no damage roll) causes no knock-back."""
    a = fighter("A", ma=4)
    b = fighter("B")
    state, _ = duel(a, b)
    strike(state, "Arm Grab", "R Arm", reaction=PASS)
    assert last(state, "attack")["outcome"] == "hit"
    assert events(state, "damage") == events(state, "knockback") == []


def test_dodge_moves_then_knockback_uses_new_position_aom3146():
    """§1.13 with a failed Jump back dodge: the failed dodge does not move B (hexdojo
    movement.dodge_moves_only_on_success); B is then knocked back from (1,0) to (2,0)."""
    a = fighter("A", ma=12, body=12)
    b = fighter("B", athletics=1, body=12)
    state, _ = duel(a, b)
    strike(state, "Martial Kick", reaction=react("Jump back dodge"))
    assert last(state, "attack")["outcome"] == "hit"
    assert events(state, "dodge_move") == []
    assert state.fighters[1].pos == (2, 0)


def test_knockback_band_boundaries_aom1d34_par_5_20():
    """§1.13 aom1d34 (and the §5.20 PROPOSED gap): fail by 0 nothing; by 1/2 to 3 off
    balance, -1 AP; by 3 1/2 to 6 1/2 knocked back, -2 AP; by 7 or more knocked over.
    Half points: the one function the engine and the agents' estimate both use."""
    from hexdojo.envs.rules import Game, knockback_band

    kb = Game.create(["chu", "chu"]).tables.data.knockback
    assert [knockback_band(kb, f) for f in (0, 1, 6, 7, 13, 14, 30)] == [
        ("none", 0, False), ("off balance", 1, False), ("off balance", 1, False),
        ("knocked back", 2, False), ("knocked back", 2, False),
        ("knocked over", 2, True), ("knocked over", 2, True)]

"""§1.7 board, hexes, facing, movement, closing and rear hexes (aom311, aom3141, aom3142,
aom3149, aom315, aom321, aom322; §5.4 PROPOSED rear arc and same-hex approach).

Axial hexes; facing 0..5 = E, NE, NW, W, SW, SE (counter-clockwise).
"""

from __future__ import annotations

import pytest

from hexdojo.envs.rules import PASS, Choice, Game
from tests.rules_kit import attack, duel, fighter, last, react, strike, terms

A = fighter("A", ma=3, combat=3)
B = fighter("B", ma=3, combat=3)


def move(option: int, turn: int = 0) -> Choice:
    return Choice("maneuver", "Move", option=option, turn=turn)


def test_move_free_turn_then_two_forward_aom3141():
    """§1.7 aom3141: free 60-degree turn (E -> NE), then 2 hexes forward: (0,0) -> (2,-2);
    1 AP."""
    state, _ = duel(A, B, pos_b=(-3, 0), facing_b=0)
    state.apply(move(2, turn=1))
    assert state.fighters[0].pos == (2, -2)
    assert state.fighters[0].facing == 1
    assert state.fighters[0].ap == 9
    ev = last(state, "move")
    assert (ev["to"], ev["facing"]) == ([2, -2], "NE")


def test_move_one_back_aom3141():
    """§1.7 aom3141: 1 hex back, still facing E: (0,0) -> (-1,0)."""
    state, _ = duel(A, B, pos_b=(3, 0))
    state.apply(move(-1))
    assert state.fighters[0].pos == (-1, 0)
    assert state.fighters[0].facing == 0


def test_move_at_most_two_forward_one_back_aom3141():
    """§1.7 aom3141: 3 hexes forward or 2 back are not moves."""
    state, _ = duel(A, B, pos_b=(3, 0))
    assert state.why_illegal(move(3)) == "Move: option must be one of (1, 2, -1)"
    assert state.why_illegal(move(-2)) == "Move: option must be one of (1, 2, -1)"


def test_nobody_leaves_the_arena_aom311():
    """§1.7 (hexdojo arena radius 4): at (4,0) facing E, a step forward leaves the board."""
    state, _ = duel(A, B, pos_a=(4, 0), pos_b=(0, 0))
    assert state.why_illegal(move(1)) == "Move: would leave the arena"


def test_no_move_through_an_occupied_hex():
    """§1.7 (hexdojo movement.move_through_occupied = false): B in the first hex blocks a
    2-hex move; stopping in B's hex (closing) is allowed."""
    state, _ = duel(A, B, pos_b=(1, 0))
    assert state.why_illegal(move(2)) == "Move: cannot move through an occupied hex"
    state2, _ = duel(A, B, pos_a=(-1, 0))
    assert move(2) in state2.legal_choices()


@pytest.mark.parametrize(("turn", "facing"), [(1, 1), (-1, 5), (2, 2), (-2, 4), (3, 3)])
def test_turn_60_120_180_in_place_aom3149(turn, facing):
    """§1.7 aom3149: Turn 60, 120 or 180 degrees either way, in place, 1 AP."""
    state, _ = duel(A, B, pos_b=(3, 0))
    state.apply(Choice("maneuver", "Turn", turn=turn))
    assert state.fighters[0].facing == facing
    assert state.fighters[0].pos == (0, 0)
    assert state.fighters[0].ap == 9


def test_closing_steps_into_the_targets_hex_aom321_aom322():
    """§1.7 aom322: a range-0 maneuver from an adjacent hex includes the step into the
    target's hex at no extra cost (Martial Strike: 1 AP in all)."""
    state, _ = duel(A, B)
    strike(state)
    assert last(state, "declare")["closing"] is True
    assert state.fighters[0].pos == (1, 0)
    assert state.fighters[0].ap == 9


def test_range_zero_needs_same_or_adjacent_hex_aom32():
    """§1.7 aom32: B two hexes away cannot be struck with a Martial Strike."""
    state, _ = duel(A, B, pos_b=(2, 0))
    assert state.why_illegal(attack("Martial Strike")) == \
        "Martial Strike: B is not in or next to your hex"


def test_closing_goes_through_the_front_arc():
    """§1.7 (hexdojo attack.closing_requires_front_arc): A facing W cannot close into B's
    hex to the E, even with the 60-degree turn."""
    state, _ = duel(A, B, facing_a=3)
    assert attack("Martial Strike") not in state.legal_choices()
    assert "front three hexes" in state.why_illegal(attack("Martial Strike", turn=1))


def test_range_one_needs_an_adjacent_hex_aom3222():
    """§1.7 aom3222: Martial Kick (range 1) reaches an adjacent hex, not one 2 hexes away."""
    state, _ = duel(A, B, pos_b=(2, 0))
    assert state.why_illegal(attack("Martial Kick")) == \
        "Martial Kick: B is not in an adjacent hex"


def test_flying_kick_moves_one_hex_first_aom3222():
    """§1.7 aom3222: a flying Martial Kick moves 1 hex forward, then kicks: (-1,0) -> (0,0)."""
    state, _ = duel(A, B, pos_a=(-1, 0))
    state.apply(attack("Martial Kick", option=1))
    assert state.fighters[0].pos == (0, 0)
    assert state.fighters[0].ap == 8


def test_back_kick_hits_a_hex_behind_aom3222():
    """§1.7 aom3222: the Martial Kick may hit an adjacent hex behind; a Spinning Kick (front
    hexes only) may not."""
    state, _ = duel(A, B, facing_a=3)
    assert attack("Martial Kick") in state.legal_choices()
    assert state.why_illegal(attack("Spinning Kick")) == \
        "Spinning Kick: B is not in your front three hexes"


def kick_from(pos_a, facing_a, facing_b, **kw):
    """A Martial Kicks B (at (1,0)) from ``pos_a``; returns A's attack roll terms."""
    a = fighter("A", ma=3)
    b = fighter("B", combat=12)  # always misses: the test is about the attack terms
    state, _ = duel(a, b, pos_a=pos_a, facing_a=facing_a, facing_b=facing_b, **kw)
    strike(state, "Martial Kick")
    return state, terms(last(state, "attack")["attack"])


@pytest.mark.parametrize(
    ("facing_b", "arc", "rear"),
    [(3, 0, None), (2, 1, None), (4, 5, None), (1, 2, 2), (5, 4, 2), (0, 3, 2)],
)
def test_rear_hex_gives_plus_two_aom315(facing_b, arc, rear):
    """§1.7 aom315, §5.4 PROPOSED: A in the hex W of B; B faces W (front), NW/SW
    (front-right/left), NE/SE (rear-right/left) or E (rear): +2 only from the three rear
    hexes."""
    state, t = kick_from((0, 0), 0, facing_b, ap_b=0)
    assert state.arc(0, 1) == arc
    assert t.get("rear") == rear
    assert last(state, "attack")["attack"]["result"] == 4 + (rear or 0)


def test_rear_is_judged_after_the_reaction_aom315():
    """§1.7 aom315: B facing A turns 180 degrees as a reaction: A now strikes from B's rear
    hex: Martial Kick 3 + 1 + rear 2 = 6."""
    a = fighter("A", ma=3)
    b = fighter("B", combat=12)
    state, _ = duel(a, b)
    state.apply(attack("Martial Kick"))
    state.apply(react("Turn", turn=3))
    assert state.fighters[1].facing == 0
    state.apply(Choice("risk", risk=0))
    state.apply(Choice("risk", risk=0))
    t = terms(last(state, "attack")["attack"])
    assert t["rear"] == 2
    assert last(state, "attack")["attack"]["result"] == 6


def test_a_dodge_may_turn_first_to_face_a_rear_left_attack_aom3147():
    """§1.7 aom3147/aom322c: dodges only work through the front three hexes *after* the
    optional 60-degree turn: from rear-left (B facing NE), a Drop Dodge turning left works,
    turning right or not at all does not; after turning, the rear bonus is gone."""
    a = fighter("A", ma=3)
    b = fighter("B", ma=1)
    state, _ = duel(a, b, facing_b=1)
    state.apply(attack("Martial Kick"))
    assert state.context()["arc"] == 2
    dodges = {c.turn for c in state.legal_choices() if c.maneuver == "Drop Dodge"}
    assert dodges == {1}
    assert "comes from the rear" in state.why_illegal(react("Drop Dodge"))
    state.apply(react("Drop Dodge", turn=1))
    state.apply(Choice("risk", risk=0))
    state.apply(Choice("risk", risk=0))
    ev = last(state, "attack")
    assert state.fighters[1].facing == 2
    assert "rear" not in terms(ev["attack"])
    assert ev["attack"]["result"] == 4


def test_nothing_from_directly_behind_can_be_dodged_aom3146():
    """§1.7 aom3145-3147, aom322b/c/e: an attack from directly behind cannot be blocked or
    dodged, even after a 60-degree turn. Against a Martial Kick only Turn remains: a Leg
    Grab is a defence roll too (§1.8) and needs the front arc (§5.3(c), issue 12)."""
    state, _ = duel(A, B, facing_b=0)
    state.apply(attack("Martial Kick"))
    assert state.context()["arc"] == 3
    assert {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"} == \
        {"Turn"}
    assert state.why_illegal(react("Side-step dodge")).startswith(
        "Side-step dodge: the attack comes from the rear")
    assert "comes from the rear" in state.why_illegal(react("Forearm Block", turn=1))
    assert "comes from the rear" in state.why_illegal(react("Leg Grab"))


def test_closing_from_behind_counts_as_rear_in_the_same_hex_par_5_4():
    """§5.4 PROPOSED: for same-hex attacks the hex the attacker came from counts: A closes
    into B's hex from behind: +2 (Martial Strike 3 + 1 + 2 = 6)."""
    a = fighter("A", ma=3)
    b = fighter("B", combat=12)
    state, _ = duel(a, b, facing_b=0, ap_b=0)
    strike(state)
    assert state.fighters[0].pos == state.fighters[1].pos
    assert terms(last(state, "attack")["attack"])["rear"] == 2
    assert last(state, "attack")["attack"]["result"] == 6


def test_same_hex_rear_resets_when_the_target_turns_par_5_4():
    """§5.4 PROPOSED: A came in from behind, then B turns (Turn as a reaction, 60 degrees):
    the approach resets and A counts as in front: no rear bonus."""
    a = fighter("A", ma=3)
    b = fighter("B", combat=12)
    state, _ = duel(a, b, pos_b=(0, 0), facing_b=0,
                    approach=[{"from": 0, "to": 1, "direction": 3}])
    assert state.arc(0, 1) == 3
    state.apply(attack("Martial Strike"))
    state.apply(react("Turn", turn=1))
    state.apply(Choice("risk", risk=0))
    state.apply(Choice("risk", risk=0))
    assert "rear" not in terms(last(state, "attack")["attack"])


def test_default_same_hex_is_in_front_par_5_4():
    """§5.4 PROPOSED: two fighters placed in one hex face each other (no rear bonus)."""
    state, _ = duel(A, B, pos_b=(0, 0))
    assert state.arc(0, 1) == 0
    strike(state, reaction=PASS)
    assert "rear" not in terms(last(state, "attack")["attack"])


def test_mirror_match_fighters_get_distinct_names():
    """Repeated profiles are told apart in logs and boards ("Chu A", "Chu B"); unique
    names stay as they are (our convention, not a rule)."""
    g = Game.create(["chu", "chu", "boris"])
    assert [p.name for p in g.profiles] == ["Chu A", "Chu B", "Boris"]
    assert [p.name for p in Game.create(["chu", "boris"]).profiles] == ["Chu", "Boris"]
    log = g.new_state(0).render_log()
    assert any(line.startswith("Turn 1: Chu A ") for line in log)
    assert any(line.startswith("Turn 1: Chu B ") for line in log)

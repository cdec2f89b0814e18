"""Beyond the duel (issue 18): sides, the group rules and scenes, with loaded dice."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from hexdojo.envs.rules import PASS, Choice, Dice, Game, LoadedDice, RulesError
from hexdojo.envs.rules import hexgrid as hx
from hexdojo.envs.rules.scene import scene_names

from ..rules_kit import attack, fighter, last, play, react, risk, terms

A, B, C = fighter("A", ma=6), fighter("B", WP=9), fighter("C", ma=4)


def group(fighters: list[dict], sides: list[str], hexes: list[tuple[int, int]], facings: list[int],
          *, phase: int = 0, rules: dict | None = None, dice=(), holds=(), ap: int = 6):
    """A scene of explicit hexes and sides, then a scenario on top (AP, holds, whose phase)."""
    sc = {"name": "test", "rules": rules,
          "fighters": [{"fighter": f, "side": sd, "hex": list(h), "facing": fc}
                       for f, sd, h, fc in zip(fighters, sides, hexes, facings, strict=True)]}
    game = Game.from_scene(sc)
    scenario: dict[str, Any] = {
        "fighters": [{"pos": list(h), "facing": fc, "ap": ap} for h, fc in zip(hexes, facings, strict=True)],
        "phase": phase, "holds": list(holds)}
    return game.new_state(LoadedDice(list(dice)), scenario=scenario)


def names(state) -> set[str | None]:
    return {c.maneuver for c in state.legal_choices() if c.kind == "maneuver"}


# ----------------------------------------------------------------- sides
def test_a_fight_ends_when_one_side_is_left_standing_s5_30():
    """§5.30: out of the fight when unconscious or dead; with sides, the fight ends when one
    side is left standing, and that side wins (the event names it). B (WP -9) is knocked
    out by A: his ally C still stands, so the fight goes on."""
    weak = {**fighter("B", WP=-9)}
    s = group([A, weak, C], ["heroes", "guards", "guards"], [(0, 0), (1, 0), (-1, 0)], [0, 3, 0])
    play(s, attack("Martial Strike", target=1), PASS, risk(0), risk(0), PASS)
    assert s.fighters[1].out == "unconscious" and not s.is_over
    game = s.game
    assert game.sides == (0, 1, 1) and game.side_names == ("heroes", "guards")
    s.knock_out(2, "dead")  # C out too (a test shortcut, §5.30): the guards have nobody left
    assert s.check_over() and s.winner == 0
    assert last(s, "fight_ends")["side"] == "heroes"
    assert s.render_log()[-1].startswith("Fight ends: heroes wins")


def test_nobody_attacks_his_own_side_by_default_hexdojo():
    """sides.friendly_attacks (hexdojo): A may not attack his ally C (the reason says so);
    with the key on he may."""
    s = group([A, B, C], ["x", "y", "x"], [(0, 0), (1, 0), (0, 1)], [0, 3, 0])
    assert not any(c.target == 2 for c in s.legal_choices() if c.kind == "maneuver")
    assert "is on your side" in s.why_illegal(attack("Martial Strike", target=2))
    s2 = group([A, B, C], ["x", "y", "x"], [(0, 0), (1, 0), (0, 1)], [0, 3, 0],
               rules={"sides": {"friendly_attacks": True}})
    assert any(c.target == 2 for c in s2.legal_choices() if c.kind == "maneuver")


# ----------------------------------------------------------------- group rules
def test_move_as_a_reaction_follows_a_phasing_ally_s2_1_aom3141_aom3121():
    """§2.1, aom3141, aom3121: Move is a reaction only to follow a phasing character of
    one's group, in the same direction (and, movement.follow_no_farther, no farther). A
    moves 1 hex east: his ally C may follow 1 hex east, not 2, not west; the enemy B may
    not follow at all."""
    s = group([A, B, C], ["x", "y", "x"], [(0, 0), (3, -1), (0, 1)], [0, 3, 0])
    s.apply(Choice("maneuver", "Move", option=1))
    while s.decision.fighter != 2:
        assert "Move" not in names(s)  # B: no follow
        s.apply(PASS)
    moves = [c for c in s.legal_choices() if c.maneuver == "Move"]
    assert moves == [Choice("maneuver", "Move", option=1)]
    assert "no farther" in s.why_illegal(Choice("maneuver", "Move", option=2))
    assert "the way the leader went" in s.why_illegal(Choice("maneuver", "Move", option=-1))
    s.apply(moves[0])
    assert s.fighters[2].pos == (1, 1) and last(s, "move")["via"] == "reaction"
    far = group([A, B, C], ["x", "y", "x"], [(0, 0), (3, -1), (0, 1)], [0, 3, 0],
                rules={"movement": {"follow_no_farther": False}})
    far.apply(Choice("maneuver", "Move", option=1))
    while far.decision.fighter != 2:
        far.apply(PASS)
    assert Choice("maneuver", "Move", option=2) in far.legal_choices()


def test_knock_back_into_a_fighters_hex_is_a_closing_for_him_s4_aom1d34():
    """§4 row 1 with §1.13 (aom1d34): B is knocked back into C's hex: C may answer the
    closing (a Martial Strike counter). A (Martial Arts 6) closes into B's hex: 6 + 1 = 7
    vs 0, damage 5 + 3.5 = 8.5 (Medium); B's pain 9 - 2 = 7: none; knock-back Athletics 0
    - 2 = -2 vs 8.5: fails by 10.5 -> knocked over, back one hex along A's facing (east)."""
    s = group([A, B, C], ["x", "y", "z"], [(0, 0), (1, 0), (2, 0)], [0, 3, 3])
    play(s, attack("Martial Strike", target=1), PASS, risk(0), risk(0), PASS)
    assert last(s, "knockback")["effect"] == "knocked over"
    assert s.fighters[1].pos == (2, 0)
    assert s.decision.fighter == 2 and s.decision.kind == "reaction"
    assert Choice("maneuver", "Martial Strike", target=1, location="Chest") in s.legal_choices()


def test_a_third_fighter_attacks_a_held_fighter_s1_18_aom3225():
    """§1.18 (aom3225, §5.14): A holds B's right arm; C attacks B. B may not dodge away
    (held: no move) but may Forearm Block with his free arm; he may not counter C (while
    held he attacks only his holder)."""
    arm = [{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}]
    s = group([A, {**fighter("B", ma=4)}, C], ["x", "y", "x"], [(1, 0), (1, 0), (2, 0)], [0, 0, 3],
              phase=2, holds=arm)
    s.apply(attack("Martial Strike", target=1))  # C closes into the shared hex
    assert s.decision.fighter == 1
    got = names(s)
    assert "Forearm Block" in got and "Jump back dodge" not in got and "Martial Strike" not in got
    assert "only the holder" in s.why_illegal(Choice("maneuver", "Martial Strike", target=2,
                                                     location="Chest"))


def test_a_head_lock_holder_attacked_by_a_third_defends_at_minus_2_aom322a():
    """aom322a: the Head Lock holder may still block or strike someone else, at -2 on those
    maneuvers: C attacks A, who holds B in a head lock: A's defence has 'holding' -2."""
    lock = [{"holder": 0, "held": 1, "kind": "head_lock"}]
    s = group([A, B, C], ["x", "y", "y"], [(1, 0), (1, 0), (2, 0)], [0, 3, 3], phase=2, holds=lock)
    play(s, attack("Martial Strike", target=0), react("Forearm Block"), risk(0), risk(0))
    assert terms(last(s, "attack")["defence"])["holding (head_lock)"] == -2


# ----------------------------------------------------------------- scenes
def test_shipped_scenes_load_and_fight():
    for name in ("duel_1", "duel_2", "duel_3", "ambush", "two_vs_one", "two_vs_two", "rider_vs_foot"):
        assert name in scene_names()
        game = Game.from_scene(name)
        s = game.new_state(0)
        rng = np.random.default_rng(0)
        while not s.is_over:
            ch = s.legal_choices()
            s.apply(ch[int(rng.integers(len(ch)))])
        assert s.result["winner"] in (None, *set(game.sides))


def test_the_duel_is_the_two_fighter_scene():
    """duel_2 is the default set-up: the same seed gives the same fight as Game.create."""
    for seed in range(3):
        a = Game.create(["chu", "boris"]).new_state(seed)
        b = Game.from_scene("duel_2").new_state(seed)
        rng_a, rng_b = np.random.default_rng(seed), np.random.default_rng(seed)
        while not a.is_over:
            ca, cb = a.legal_choices(), b.legal_choices()
            assert ca == cb
            a.apply(ca[int(rng_a.integers(len(ca)))])
            b.apply(cb[int(rng_b.integers(len(cb)))])
        assert a.events == b.events


@pytest.mark.parametrize("name,distance", [("duel_1", 1), ("duel_2", 2), ("duel_3", 3)])
def test_duels_start_at_their_distance(name: str, distance: int):
    (pa, fa), (pb, fb) = Game.from_scene(name).start_positions(None)
    assert hx.distance(pa, pb) == distance and (fa, fb) == (0, 3)


def test_the_ambush_starts_in_the_rear_arc_aom315():
    """The ambusher starts directly behind his victim (relative direction 3: rear, the +2
    of aom315), who faces away."""
    g = Game.from_scene("ambush")
    (pa, fa), (pb, _) = g.start_positions(None)
    assert hx.relative(hx.direction_to(pa, pb), fa) == 3
    assert g.side_names == ("ambushed", "ambusher")
    s = g.new_state(0)
    assert s.arc(1, 0) == 3 or s.turn > 1


def test_a_start_distance_range_is_drawn_from_the_fights_dice():
    sc = {"name": "r", "start": {"distance": [1, 3]}, "fighters": [{"fighter": "chu"}, {"fighter": "boris"}]}
    g = Game.from_scene(sc)
    got = {hx.distance(*(p for p, _ in g.start_positions(Dice(seed)))) for seed in range(40)}
    assert got == {1, 2, 3}
    again = [g.start_positions(Dice(7)) for _ in range(2)]
    assert again[0] == again[1]


@pytest.mark.parametrize("raw,needle", [
    ({"name": "x", "fighterz": []}, "unknown field 'fighterz'; did you mean 'fighters'?"),
    ({"name": "x", "fighters": [{"fighter": "chu", "hex": [9, 0]}, {"fighter": "boris", "hex": [0, 0]}]},
     "start hex [9, 0] outside the arena of radius 4"),
    ({"name": "x", "fighters": [{"fighter": "chu", "hex": [0, 0]}, {"fighter": "boris"}]},
     "give every fighter a hex, or none"),
    ({"name": "x", "fighters": [{"fighter": "chu", "facing": "N"}, {"fighter": "boris"}]},
     "fighters[0].facing': value 'N': allowed 0..5 or E, NE, NW, W, SW, SE"),
    ({"name": "x", "start": {"distance": 7}, "fighters": [{"fighter": "chu"}, {"fighter": "boris"}]},
     "start.distance"),
])
def test_bad_scenes_get_one_clear_line(raw: dict, needle: str):
    with pytest.raises(RulesError) as err:
        Game.from_scene(raw)
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_scene_rules_merge_under_the_callers_rules():
    sc = {"name": "r", "rules": {"attack": {"rear_bonus": 4}},
          "fighters": [{"fighter": "chu"}, {"fighter": "boris"}]}
    assert Game.from_scene(sc).tables.data.attack.rear_bonus == 4
    g = Game.from_scene(sc, rules={"attack": {"rear_bonus": 3}, "turn": {"turn_limit": 9}})
    assert g.tables.data.attack.rear_bonus == 3 and g.tables.data.turn.turn_limit == 9

"""Scenarios set up on the core's board (issue 15: scenario.py with no Python engine).

``game.new_state(seed, scenario=...)`` builds the scenario's board on plain records and the
turn's frames as the core's ints (``scenario.scenario_board``), and the core takes them
over (``state.scenario_fight``). These tests read the board back through the public
API: every field lands on the core's board, ``phase`` opens that fighter's phase (else the
turn's phase choice comes first, aom312), bad fields are one clear line, a scene's distance
range rolls the fight's dice first, and nothing on the way needs the Python engine.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from hexdojo.envs.rules import Game, Hold, LoadedDice, RulesError
from hexdojo.envs.rules import hexgrid as hx
from hexdojo.envs.rules.dice import Dice
from hexdojo.envs.rules.scenario import scenario_board
from hexdojo.envs.rules.to_core import AT_STEPS

ROOT = Path(__file__).resolve().parents[2]
GAME = Game.create(["chu", "boris"])
#: a grapple at one hex: fighter 1 holds fighter 0's right arm (§1.18)
CLINCH = {
    "turn": 3,
    "fighters": [
        {"pos": [0, 0], "facing": 1, "ap": 7, "initiative": 5, "status": "staggered",
         "wounds": [["Chest", "Light"], ["L Leg", "Serious"]], "hands": ["sword", None],
         "sheathed": ["dagger"]},
        {"pos": [0, 0], "facing": 4, "ap": 4, "initiative": 5.5, "prone": True, "phased": False,
         "stuck": [["spear", "Abdomen"]], "height": 1},
    ],
    "holds": [{"holder": 1, "held": 0, "kind": "arm", "location": "R Arm"}],
    "dropped": [{"pos": [2, -1], "weapon": "axe"}],
    "approach": [{"from": 0, "to": 1, "direction": 5}],
}


def test_every_field_lands_on_the_cores_board():
    """Each fighter field, the hold, the weapon on the floor, turn, the initiative order and
    the approaches (§5.4: same-hex fighters default to "in front", g's facing) as written."""
    s = GAME.new_state(0, scenario=CLINCH)
    a, b = s.fighters
    levels = GAME.tables.wound_levels
    pen = round(GAME.tables.data.pain.stagger_penalty * 2)  # §1.12, half points
    assert (a.pos, a.facing, a.ap, a.init, a.status, a.pen) == ((0, 0), 1, 7, 10, "staggered", pen)
    assert a.wounds == (("Chest", levels.index("Light")), ("L Leg", levels.index("Serious")))
    assert a.worst == levels.index("Serious")
    assert (a.hands, a.sheathed, a.stuck, a.prone) == (("sword", None), ("dagger",), (), False)
    assert (b.pos, b.facing, b.ap, b.init, b.prone, b.phased, b.height) == ((0, 0), 4, 4, 11, True,
                                                                             False, 1)
    assert b.stuck == (("spear", "Abdomen"),) and b.status == "" and b.pen == 0
    assert b.hands == GAME.profiles[1].hands  # fields not mentioned keep the sheet's
    assert s.holds == [Hold(1, 0, "arm", "R Arm", 3)]  # a hold's turn defaults to the scenario's
    assert s.dropped == (((2, -1), "axe"),)
    assert s.turn == 3 and s.order == (1, 0)  # initiative 5.5 before 5
    assert s.approach == {(0, 1): 5, (1, 0): 1}  # (0, 1) as written, (1, 0) b's default
    assert s.events == []  # nothing happened before the first decision


@pytest.mark.parametrize(("phase", "decision"), [(None, (1, "phase")), (0, (0, "action")),
                                                 (1, (1, "action"))])
def test_phase_opens_that_fighters_phase_else_the_phase_choice(phase, decision):
    """aom312: without ``phase`` the highest initiative is asked whether to take his phase
    now (the turn frame at its phase step); with it, that fighter acts at once."""
    sc = dict(CLINCH, **({} if phase is None else {"phase": phase}))
    s = GAME.new_state(0, scenario=sc)
    assert (s.decision.fighter, s.decision.kind) == decision
    assert s.phasing == phase
    kinds = {c.kind for c in s.legal_choices()}
    if phase is None:
        assert kinds == {"phase"} and sorted(c.option for c in s.legal_choices()) == [0, 1]
    else:
        assert {"end", "maneuver"} <= kinds


def test_the_frames_are_the_cores_ints():
    """A turn at its phase step ([type 0, at, asked 0, no candidate]) and, with ``phase``,
    that fighter's phase at its act step ([type 1, fighter, at]); At in fight.hpp's order."""
    assert AT_STEPS[:3] == ("start", "phase", "act") and len(AT_STEPS) == 16
    b = scenario_board(GAME, {"phase": 1}, Dice(0))
    assert b.frames == [[0, 1, 0, -1], [1, 1, 2]]
    assert scenario_board(GAME, {}, Dice(0)).frames == [[0, 1, 0, -1]]


def test_a_scenes_distance_range_rolls_the_fights_dice_first():
    """A scene's start distance range is drawn from the fight's dice before the scenario's
    fields (rejection sampling on one die: faces above 4 are redrawn for a range of four),
    and the core takes the dice where the draw left them."""
    g = Game.from_scene({"name": "range", "start": {"distance": [1, 4]},
                         "fighters": [{"fighter": "chu"}, {"fighter": "boris"}]})
    dice = LoadedDice([6, 5, 3, 2, 2])
    s = g.new_state(dice, scenario={"fighters": [{"ap": 5}], "phase": 0})
    assert hx.distance(s.fighters[0].pos, s.fighters[1].pos) == 3  # 6, 5 redrawn; 3 -> 1 + 2
    assert dice.used == 3 and s.fighters[0].ap == 5
    for seed in range(4):  # seeded: the start the Python dice give, then the same next faces
        ref = Dice(seed)
        starts = g.start_positions(ref)
        s = g.new_state(seed, scenario={"fighters": [{"ap": 5}, {"ap": 5}], "phase": 1})
        assert [(f.pos, f.facing) for f in s.fighters] == [(tuple(h), f) for h, f in starts]
        assert s.decision == (1, "action", "")  # no roll yet: the AP are the scenario's
        assert s.dice.faces(20) == [ref.die() for _ in range(20)]


def test_groups_and_mounted_fighters():
    """A scene's sides and a rider's mount and height stay; the scenario may unhorse him."""
    g = Game.from_scene("rider_vs_foot")
    s = g.new_state(2, scenario={"fighters": [{"ap": 6}, {"ap": 6}], "phase": 1})
    rider = next(f for f in s.fighters if f.p.mounted)
    assert rider.mounted and rider.height == rider.p.height and s.decision == (1, "action", "")
    s = g.new_state(2, scenario={"fighters": [{"mounted": False, "height": 0},
                                              {"mounted": False, "height": 0}]})
    assert [(f.mounted, f.height) for f in s.fighters] == [(False, 0), (False, 0)]
    g = Game.from_scene("two_vs_one")
    s = g.new_state(1, scenario={"fighters": [{}, {"pos": [1, 0], "ap": 3}, {"ap": 4}],
                                 "phase": 2})
    assert s.fighters[1].pos == (1, 0) and s.fighters[2].pos == (-2, 0)
    assert s.decision == (2, "action", "") and g.sides[1] == g.sides[2] != g.sides[0]


@pytest.mark.parametrize(("sc", "text"), [
    ({"bogus": 1}, "scenario: field 'bogus': value 1: unknown field; allowed: ['approach', "
                   "'dropped', 'fighters', 'holds', 'phase', 'turn']"),
    ({"fighters": [{}, {}, {}]}, "scenario: field 'fighters': value 3: at most 2 fighters in "
                                 "this game"),
    ({"fighters": [{"pos": [9, 0]}]}, "scenario: field 'fighters[0].pos': value [9, 0]: outside "
                                      "the arena of radius 4"),
    ({"fighters": [{}, {"facing": 6}]}, "scenario: field 'fighters[1].facing': value 6: allowed "
                                        "0..5 (0 = E, counter-clockwise)"),
    ({"fighters": [{"status": "dazed"}]}, "scenario: field 'fighters[0].status': value 'dazed': "
                                          "allowed '', 'staggered', 'stunned'"),
    ({"fighters": [{"wounds": [["Chest", "Fatal"]]}]},
     "scenario: field 'fighters[0].wounds[0]': value 'Fatal': allowed: ['Scratch', 'Light', "
     "'Medium', 'Serious', 'Critical']"),
    ({"fighters": [{"hands": ["staff", None]}]},
     "scenario: field 'fighters[0].hands': value ['staff', None]: the two-handed staff fills "
     "both hands: ['staff', 'staff']"),
    ({"holds": [{"holder": 0, "held": 1, "kind": "arm"}]},
     "scenario: field 'holds[0]': value {'holder': 0, 'held': 1, 'kind': 'arm'}: holder and "
     "held must share a hex (§1.18)"),
    ({"dropped": [{"pos": [0, 0], "weapon": "club"}]},
     "scenario: field 'dropped[0].weapon': value 'club': unknown weapon; allowed: ['dagger', "
     "'short_sword', 'sword', 'bastard_sword', 'axe', 'spear', 'staff', 'shield']"),
    ({"phase": 2}, "scenario: field 'phase': value 2: allowed 0..1"),
])
def test_a_bad_field_is_one_clear_error(sc, text):
    with pytest.raises(RulesError) as e:
        GAME.new_state(0, scenario=sc)
    assert str(e.value) == text


def _imported(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (relative ones by their last name)."""
    out = set()
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, ast.ImportFrom):
            out |= {(n.module or "").rsplit(".", 1)[-1]} | {a.name for a in n.names}
        elif isinstance(n, ast.Import):
            out |= {a.name.rsplit(".", 1)[-1] for a in n.names}
    return out


def test_scenario_py_imports_no_python_engine():
    """scenario.py needs neither the Python engine's frames, its legality, nor its State."""
    got = _imported(ROOT / "envs" / "rules" / "scenario.py")
    assert not got & {"resolution", "legality", "memo", "state", "State"}, got


def test_the_scenario_path_loads_no_python_engine():
    """A scenario starts on the core with none of the Python engine's modules loaded (its
    frames, legality and memo were deleted with it, issue 15), and plays on there."""
    code = ("import sys\nfrom hexdojo.envs.rules import Game\n"
            "s = Game.create(['chu', 'boris']).new_state(0, scenario={'phase': 0, 'fighters': "
            "[{'ap': 6}, {'ap': 6}]})\n"
            "print(type(s).__name__, sorted(m for m in sys.modules if m.rsplit('.', 1)[-1] in "
            "('resolution', 'legality', 'memo')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["State", "[]"]
    s = GAME.new_state(3, scenario=dict(CLINCH, phase=0))
    s.apply(next(c for c in s.legal_choices() if c.kind == "end"))  # aom312: the next phase
    assert s.decision == (1, "action", "") and [e["type"] for e in s.events] == ["phase_ends",
                                                                                 "phase"]

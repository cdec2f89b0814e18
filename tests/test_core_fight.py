"""The native fight (layer 5: resolution and events) against the Python engine, the reference
(issue 15): the same fight played through both engines with the same dice and the same
choices gives, at every decision, the same decision (fighter, kind, about), the same legal
list, the same new events (keys in the same order, values and their types: 9 or 9.5 as
state.half writes them, hexes as lists, rolls as records) and the same result. Random play
and the scripted styles drive the fights over the preset pairings and the scenes, and under
rule variants that switch on the rarer branches (maintained holds §5.17, kept AP §5.25, AP
rounded up, lock damage with margin and knock-back §5.16, dodges that move on a hit, ties
that hit §5.2, a rider landing in his hex aom347). The situations met are counted and
required, so that a pass is not vacuous. The 10,000-fight gate is scripts/diff_engines.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.agents.registry import make_agent
from hexdojo.envs.rules import Game, _core
from hexdojo.envs.rules.dice import LoadedDice
from hexdojo.envs.rules.model import Choice
from hexdojo.envs.rules.native import _profile, compile_tables, core_dice_of, core_state
from hexdojo.envs.rules.native_fight import (
    STYLES,
    NativeFight,
    Tally,
    _first_difference,
    agent_chooser,
    compare,
    differential,
    make_game,
    pairings,
    random_chooser,
)
from hexdojo.envs.rules.state import IllegalChoice

VARIANT = {
    "holds": {"maintain_ap": 1},
    "turn": {"unused_ap_lost": False, "ap_rounding": "up", "turn_limit": 6},
    "lock_damage": {"uses_margin": True, "knockback": True},
    "movement": {"dodge_moves_only_on_success": False, "dodge_triggers_attacker": True},
    "attack": {"hit_requires_higher": False},
    "mounted": {"pull_down_lands": "same"},
}
TALLY = Tally()


def run(game: Game, seeds: range, agents: bool = False) -> Tally:
    out = Tally()
    for seed in seeds:
        if agents:
            who = [make_agent(STYLES[(seed + k) % len(STYLES)]) for k in range(len(game.profiles))]
            for k, a in enumerate(who):
                a.reset(seed * 16 + k)
            tally, div = differential(game, seed, agent_chooser(who))
        else:
            tally, div = differential(game, seed, random_chooser(seed))
        assert div is None, f"seed {seed}: {div}"
        out.add(tally)
    TALLY.add(out)
    return out


@pytest.mark.parametrize("pairing", pairings())
def test_random_fights_agree(pairing):
    """Every pairing and scene: seeded random play through both engines, identical logs."""
    t = run(make_game(pairing), range(4))
    assert t.fights == 4 and t.decisions > 20 and t.events > t.decisions / 2


@pytest.mark.parametrize("pairing", ["chu-urlik", "boris-cogan", "guard-spearman",
                                     "chu-knife_fighter", "two_vs_two", "rider_vs_foot",
                                     "monk_vs_guard", "monk_vs_two_guards", "ambush"])
def test_scripted_fights_agree(pairing):
    """The scripted styles decide on the Python state; the core takes the same choices."""
    t = run(make_game(pairing), range(6), agents=True)
    assert t.situations["event:attack"] > 0


@pytest.mark.parametrize("fighters", [["chu", "boris"], ["urlik", "cogan"], ["guard", "chu"],
                                      ["knife_fighter", "spearman"]])
def test_rule_variants_agree(fighters):
    """Rule overrides reach the core through the compiled tables, branch by branch."""
    g = Game.create(fighters, rules=VARIANT)
    run(g, range(6))
    run(g, range(6, 10), agents=True)


def test_mounted_variant_agrees():
    g = Game.from_scene("rider_vs_foot", rules=VARIANT)
    run(g, range(10))
    run(g, range(10, 16), agents=True)


def test_the_situations_were_met():
    """The fights above met every frame's branches (runs after them, in file order)."""
    if TALLY.fights < 100:
        pytest.skip("run with the differential tests above")
    s = TALLY.situations
    need = ["phase", "action", "reaction", "follow_on", "soak", "hold", "risk:attack",
            "risk:defence", "risk:counter-attack", "risk:soak", "risk:break hold",
            "risk:resist break hold", "event:wait", "event:move", "event:turn",
            "event:stand_up", "event:declare", "event:reaction", "event:attack",
            "event:damage", "event:soak", "event:pain", "event:wound", "event:knockback",
            "event:prone", "event:dodge_move", "event:hold", "event:hold_ends",
            "event:break_hold", "event:moves_along", "event:drops", "event:ready",
            "event:stuck", "event:falls_off", "event:hold_kept", "event:fight_ends"]
    missing = [k for k in need if s[k] == 0]
    assert not missing, f"never met: {missing}"


def test_a_type_difference_is_a_divergence():
    """9 and 9.0 compare equal in Python; the check still tells them apart."""
    a = [{"type": "x", "v": 9, "roll": {"terms": [["ST", 1]]}}]
    b = [{"type": "x", "v": 9.0, "roll": {"terms": [["ST", 1]]}}]
    c = [{"type": "x", "v": 9, "roll": {"terms": [["ST", 1.0]]}}]
    assert _first_difference(a, b, 0) == 0
    assert _first_difference(a, c, 0) == 0
    assert _first_difference(a, list(a), 0) is None
    assert _first_difference(a, [*a, a[0]], 0) == 1


def test_bad_choices_are_value_errors():
    """An illegal choice is the Python engine's IllegalChoice, with its reason; a bad id at
    the core's boundary is a ValueError naming the field."""
    g = make_game("chu-boris")
    f, py = NativeFight(g, 3), g.new_state(seed=3, engine="python")
    for bad in (Choice("risk", risk=99), Choice("maneuver", "Punch", 1, "Head"),
                Choice("maneuver", "No such move")):
        with pytest.raises(IllegalChoice) as python:
            py.apply(bad)
        with pytest.raises(IllegalChoice) as native:
            f.apply(bad)
        assert native.value.reason == python.value.reason == f.why_illegal(bad)
    with pytest.raises(ValueError, match="choice.maneuver: 100000"):
        f.core.apply((3, 100_000, -1, -1, 0, 0, 0))
    with pytest.raises(ValueError, match="choice.kind"):
        f.core.apply((17, -1, -1, -1, 0, 0, 0))
    with pytest.raises(ValueError, match="choice.target"):
        f.core.apply((3, 0, 9, -1, 0, 0, 0))
    while not f.is_over:
        f.apply(f.legal_choices()[-1])
    with pytest.raises(ValueError, match="the fight is over"):
        f.apply(Choice("end"))
    assert f.decision is None and f.legal_choices() == []


def test_clone_is_independent_and_rolls_the_same_future():
    g = make_game("guard-spearman")
    f = NativeFight(g, 11)
    for _ in range(15):
        f.apply(f.legal_choices()[0])
    c = f.clone()
    n = len(f.events)
    for x in (f, c):  # the same choices from here: the same dice, the same events
        for _ in range(10):
            if not x.is_over:
                x.apply(x.legal_choices()[0])
    assert f.events == c.events
    before = list(f.events)
    d = f.clone()
    while not d.is_over and len(d.events) < n + 40:
        d.apply(d.legal_choices()[-1])
    assert len(d.events) > len(before)  # the clone moved on ...
    assert f.events == before and f.core.n_events == len(before)  # ... the original did not
    assert f.decision == c.decision and f.legal_choices() == c.legal_choices()


@pytest.mark.parametrize("pairing", ["chu-urlik", "boris-guard", "spearman-knife_fighter",
                                     "two_vs_two", "rider_vs_foot", "monk_vs_two_guards"])
def test_the_core_takes_over_a_fight_at_any_decision(pairing):
    """NativeFight.from_state: the board, dice, frames and events of a Python State part-way
    through a fight (frames of every kind on the stack); both engines then play on alike."""
    g = make_game(pairing)
    kinds: set[str] = set()
    for seed in range(8):
        py, rng = g.new_state(seed=seed, engine="python"), np.random.default_rng(seed + 100)
        for _ in range(int(rng.integers(1, 80))):
            if py.is_over:
                break
            ch = py.legal_choices()
            py.apply(ch[int(rng.integers(len(ch)))])
        if py.is_over:
            continue
        kinds.update(type(fr).__name__ for fr in py.stack)
        nat = NativeFight.from_state(py)
        assert nat.events == py.events and nat.decision == py.decision
        tally, div = compare(py, nat, random_chooser(seed))
        assert div is None, f"seed {seed}: {div}"
        TALLY.add(tally)
    assert {"TurnFrame", "PhaseFrame"} <= kinds


SCENARIOS = [
    {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 8}, {"pos": [1, 0], "facing": 3, "ap": 8}],
     "phase": 0},
    {"turn": 2, "fighters": [{"pos": [0, 0], "facing": 0, "ap": 9},
                             {"pos": [0, 0], "facing": 3, "ap": 6, "prone": True,
                              "wounds": [["Chest", "Light"]]}],
     "holds": [{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}], "phase": 0},
    {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 7, "hands": ["sword", None]},
                  {"pos": [1, 0], "facing": 3, "ap": 7, "stuck": [["spear", "Chest"]]}],
     "dropped": [{"pos": [1, 0], "weapon": "dagger"}], "phase": 1},
    {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 10}, {"pos": [0, 0], "facing": 2, "ap": 4}],
     "holds": [{"holder": 1, "held": 0, "kind": "both_arms"}]},
]


@pytest.mark.parametrize("k", range(len(SCENARIOS)))
def test_scenarios_agree(k):
    """A fight set up by scenario.py (holds, prone, wounds, weapons in hand, stuck and on the
    floor, a phase or the turn's phase choice) starts alike in both engines, and plays on alike."""
    g = Game.create(["chu", "boris"])
    for seed in range(6):
        nat, _ = NativeFight.from_scenario(g, SCENARIOS[k], seed)
        py = g.new_state(seed=seed, scenario=SCENARIOS[k], engine="python")
        tally, div = compare(py, nat, random_chooser(seed))
        assert div is None, f"seed {seed}: {div}"
        TALLY.add(tally)


def test_loaded_dice_reach_the_core():
    """LoadedDice (the rules tests' scripted faces) are taken over where Python left them."""
    g = Game.create(["chu", "boris"])
    faces = [int(x) for x in np.random.default_rng(5).integers(1, 7, size=3000)]
    nat, _ = NativeFight.from_scenario(g, SCENARIOS[1], LoadedDice(list(faces)))
    py = g.new_state(LoadedDice(list(faces)), scenario=SCENARIOS[1], engine="python")
    tally, div = compare(py, nat, random_chooser(1), limit=60)
    assert div is None, str(div)
    assert tally.situations["risk:attack"] + tally.situations["event:turn_start"] > 0
    # too few faces: both engines fail alike, with the same message
    nat, _ = NativeFight.from_scenario(g, SCENARIOS[0], LoadedDice([6, 6]))
    py = g.new_state(LoadedDice([6, 6]), scenario=SCENARIOS[0], engine="python")
    attack = next(c for c in py.legal_choices() if c.maneuver == "Punch")

    def pick(x):  # the Punch, else the most dice risked, else the first choice
        legal = x.legal_choices()
        return attack if attack in legal else legal[-1] if x.decision.kind == "risk" else legal[0]

    with pytest.raises(RuntimeError, match="ran out after 2 faces") as python:
        for _ in range(50):
            py.apply(pick(py))
    with pytest.raises(RuntimeError) as native:
        for _ in range(50):
            nat.apply(pick(nat))
    assert str(native.value) == str(python.value)


def test_a_bad_frame_is_a_value_error():
    g = make_game("chu-boris")
    py = g.new_state(seed=2, engine="python")
    nat = NativeFight.from_state(py)
    ct, b = nat.core, nat.boundary
    t = compile_tables(g.tables)
    args = (t, [_profile(t, p) for p in g.profiles], [], 20, core_state(py, b.ids),
            core_dice_of(py.dice))
    for frames, field in (([[9]], "frame type"), ([[1, 5, 0]], "i"), ([[0, 1]], "too short"),
                          ([[3, 0, 3, 9999, 1, -1, 0, 0, 0]], "frame.choice.maneuver"),
                          ([[6, 0, 3, 0, -1, -1, 2**30, 0, 0]], "frame.choice.turn")):
        with pytest.raises(ValueError, match=field):
            _core.Fight.from_state(*args, frames, False)
    assert ct.decision == tuple(py.decision)


_INTS = st.integers(min_value=-(2**31), max_value=2**31 - 1)
_SMALL = st.integers(min_value=-3, max_value=40)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(*[st.one_of(_SMALL, _INTS)] * 7), min_size=1, max_size=6))
def test_any_choice_tuples_are_handled(tuples):
    """Whatever ints Python sends as choices: applied when legal, else a ValueError."""
    f = NativeFight(make_game("guard-knife_fighter"), 4).core
    for x in tuples:
        try:
            f.apply(x)
        except ValueError:
            pass
    assert f.is_over or f.n_legal > 0


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.one_of(_SMALL, _INTS), max_size=40), max_size=4))
def test_any_frames_are_handled(frames):
    """Whatever ints Python sends as frames: a fight or a ValueError, never a crash."""
    g = make_game("chu-spearman")
    py = g.new_state(seed=3, engine="python")
    t = compile_tables(g.tables)
    ids = NativeFight(g, 3).boundary.ids
    args = (t, [_profile(t, p) for p in g.profiles], [], 20, core_state(py, ids),
            core_dice_of(py.dice))
    try:
        f = _core.Fight.from_state(*args, frames, False)
    except ValueError:
        return
    for _ in range(30):
        if f.is_over or f.n_legal == 0:
            break
        f.apply_index(f.n_legal - 1)

"""The native fight (layer 5: resolution and events) at its Python boundary (issue 15).

Until the Python engine was deleted this file held the engines' differential test: the same
fight through both engines with the same dice and choices gave the same decisions, legal
lists, events and results over every pairing, scene and rule variant (the last 10,000-fight
sweep's figures are in the README and docs/history/native-core-port.md). Its place is taken by the
regression locks (``tests/core/test_engine_lock.py``, ``tests/core/test_engine_fingerprint.py``) and
the rules tests. What stays here is what the core must do at its boundary: reasons for bad
choices, value errors for bad ids and frames (never a crash, hypothesis over random ints),
independent clones that roll the same future, and loaded dice that run out with one message.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import Game, _core
from hexdojo.envs.rules.dice import LoadedDice
from hexdojo.envs.rules.model import Choice
from hexdojo.envs.rules.pairings import make_game
from hexdojo.envs.rules.state import IllegalChoice
from hexdojo.envs.rules.to_core import _profile, compile_tables, core_state

#: reasons pinned from the Python engine's texts (legality.py's, which the core renders)
REASONS = {
    Choice("risk", risk=99): "it is Boris's action decision now; allowed kinds: end, maneuver",
    Choice("maneuver", "Punch", 1, "Head"): "Punch: needs an opponent as target",
    Choice("maneuver", "No such move"): "unknown maneuver 'No such move'",
    Choice("maneuver", "Martial Throw", 1): "Martial Throw: not an action (tags F)",
}


def test_bad_choices_are_illegal_choices_with_their_reason():
    """An illegal choice is an IllegalChoice with the reason why_illegal gives; a bad id at
    the core's boundary is a ValueError naming the field; a finished fight takes nothing."""
    s = make_game("chu-boris").new_state(3)
    assert s.why_illegal(Choice("risk", risk=99)) == (
        "it is Chu's phase decision now; allowed kinds: phase")
    while s.decision.kind != "action":
        s.apply(s.legal_choices()[-1])
    for bad, why in REASONS.items():
        assert s.why_illegal(bad) == why
        with pytest.raises(IllegalChoice) as err:
            s.apply(bad)
        assert err.value.reason == why
    f = s._core
    with pytest.raises(ValueError, match="choice.maneuver: 100000"):
        f.apply((3, 100_000, -1, -1, 0, 0, 0))
    with pytest.raises(ValueError, match="choice.kind"):
        f.apply((17, -1, -1, -1, 0, 0, 0))
    with pytest.raises(ValueError, match="choice.target"):
        f.apply((3, 0, 9, -1, 0, 0, 0))
    while not s.is_over:
        s.apply(s.legal_choices()[-1])
    with pytest.raises(IllegalChoice, match="the fight is over"):
        s.apply(Choice("end"))
    assert s.decision is None and s.legal_choices() == []
    with pytest.raises(ValueError, match="the fight is over"):
        f.apply((1, -1, -1, -1, 0, 0, 0))


def test_clone_is_independent_and_rolls_the_same_future():
    g = make_game("guard-spearman")
    f = g.new_state(11)
    for _ in range(15):
        f.apply(f.legal_choices()[0])
    c = f.clone()
    n = len(f.events)
    for x in (f, c):  # the same choices from here: the same dice, the same events
        for _ in range(10):
            if not x.is_over:
                x.apply(x.legal_choices()[0])
    assert f.events == c.events and len(f.events) > n
    before = list(f.events)
    d = f.clone()
    while not d.is_over and len(d.events) < n + 40:
        d.apply(d.legal_choices()[-1])
    assert len(d.events) > len(before)  # the clone moved on ...
    assert f.events == before and f._core.n_events == len(before)  # ... the original did not
    assert f.decision == c.decision and f.legal_choices() == c.legal_choices()


SCENARIO = {"fighters": [{"pos": [0, 0], "facing": 0, "ap": 8},
                         {"pos": [1, 0], "facing": 3, "ap": 8}], "phase": 0}


def test_loaded_dice_run_out_with_one_message():
    """LoadedDice (the rules tests' scripted faces) reach the core; too few faces is one
    RuntimeError saying how many there were."""
    g = Game.create(["chu", "boris"])
    s = g.new_state(LoadedDice([6, 6]), scenario=SCENARIO)
    attack = next(c for c in s.legal_choices() if c.maneuver == "Punch")

    def pick(x):  # the Punch, else the most dice risked, else the first choice
        legal = x.legal_choices()
        return attack if attack in legal else legal[-1] if x.decision.kind == "risk" else legal[0]

    with pytest.raises(RuntimeError, match="LoadedDice ran out after 2 faces"):
        for _ in range(50):
            s.apply(pick(s))


def _from_state_args(g: Game, seed: int) -> tuple:
    s = g.new_state(seed)
    t = compile_tables(g.tables)
    return (t, [_profile(t, p) for p in g.profiles], [], 20, core_state(s, s._b.ids),
            s._core.dice)


def test_a_bad_frame_is_a_value_error():
    args = _from_state_args(make_game("chu-boris"), 2)
    for frames, field in (([[9]], "frame type"), ([[1, 5, 0]], "i"), ([[0, 1]], "too short"),
                          ([[3, 0, 3, 9999, 1, -1, 0, 0, 0]], "frame.choice.maneuver"),
                          ([[6, 0, 3, 0, -1, -1, 2**30, 0, 0]], "frame.choice.turn")):
        with pytest.raises(ValueError, match=field):
            _core.Fight.from_state(*args, frames, False)
    f = _core.Fight.from_state(*args, [[0, 1, 0, -1]], False)  # a turn frame at its phase step
    assert f.decision == (0, "phase", "")


_INTS = st.integers(min_value=-(2**31), max_value=2**31 - 1)
_SMALL = st.integers(min_value=-3, max_value=40)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(*[st.one_of(_SMALL, _INTS)] * 7), min_size=1, max_size=6))
def test_any_choice_tuples_are_handled(tuples):
    """Whatever ints Python sends as choices: applied when legal, else a ValueError."""
    f = make_game("guard-knife_fighter").new_state(4)._core
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
    args = _from_state_args(make_game("chu-spearman"), 3)
    try:
        f = _core.Fight.from_state(*args, frames, False)
    except ValueError:
        return
    rng = np.random.default_rng(len(frames))
    for _ in range(30):
        if f.is_over or f.n_legal == 0:
            break
        f.apply_index(int(rng.integers(f.n_legal)))

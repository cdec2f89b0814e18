"""No input from Python crashes the native core (issue 15): any id, any number, any shape
gives a result or a Python exception with the reason. A crash here would take the test
process down; ``scripts/sanitize.sh`` runs these under ASan and UBSan, where reading out of
bounds is caught even when it happens not to crash."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hexdojo.envs.rules import Game, _core
from hexdojo.envs.rules.to_core import core_state

ints = st.integers(-(2**40), 2**40)
ERRORS = (IndexError, ValueError, TypeError, OverflowError)
STATE = core_state(Game.from_scene("two_vs_two").new_state(seed=3))


def attempt(fn, *args) -> None:
    try:
        fn(*args)
    except ERRORS:
        pass


@settings(max_examples=300, deadline=None)
@given(a=ints, b=ints, c=ints)
def test_any_ids_into_the_board_state(a: int, b: int, c: int) -> None:
    s = STATE.clone()
    for fn, args in ((s.arc, (a, b, c)), (s.arc, (a, b)), (s.attack_direction, (a, b)),
                     (s.hold_on, (a,)), (s.hold_by, (a,)), (s.others, (a,)),
                     (s.approach, (a, b)), (s.set_approach, (a, b, c)),
                     (s.place, (a, (b, c))), (s.set_facing, (a, b)), (s.on_board, ((a, b),))):
        attempt(fn, *args)
    assert len(s.fighters) == 4  # nothing the calls could do broke the state's shape


@settings(max_examples=200, deadline=None)
@given(state=st.tuples(ints, ints), inc=st.tuples(ints, ints), has=st.booleans(),
       uint=ints, sides=ints, n=st.integers(-5, 2000))
def test_any_dice_arguments(state, inc, has, uint, sides, n) -> None:
    try:
        d = _core.Dice(state, inc, has, uint, sides)
    except ERRORS:
        return
    try:
        faces = d.faces(n)
    except ERRORS:
        return
    assert all(1 <= f <= d.sides for f in faces)


@settings(max_examples=100, deadline=None)
@given(facings=st.lists(ints, min_size=0, max_size=12), idx=st.lists(ints, min_size=0, max_size=12))
def test_any_fighter_list(facings: list[int], idx: list[int]) -> None:
    s = STATE.clone()
    fs = []
    for k, f in enumerate(facings):
        x = _core.FighterState()
        x.idx = idx[k] if k < len(idx) and abs(idx[k]) < 2**31 else k
        if abs(f) < 2**31:
            x.facing = f
        fs.append(x)
    try:
        s.fighters = fs
    except ERRORS:
        assert len(s.fighters) == 4  # a rejected list leaves the old one
        return
    assert 2 <= len(s.fighters) <= 8
    assert all(0 <= f.facing <= 5 for f in s.fighters)


def test_a_rejected_fighter_list_names_the_problem() -> None:
    s = STATE.clone()
    bad = s.fighters
    bad[1].idx = 7
    with pytest.raises(ValueError, match="idx must be the place"):
        s.fighters = bad


@settings(max_examples=300, deadline=None)
@given(a=st.tuples(ints, ints), b=st.tuples(ints, ints), d=ints)
def test_any_hexes_into_the_geometry(a, b, d) -> None:
    hx = _core.hexgrid
    for fn, args in ((hx.distance, (a, b)), (hx.neighbour, (a, d)), (hx.direction_to, (a, b)),
                     (hx.nearest_direction, (a, b)), (hx.in_arena, (a, d)), (hx.turn, (d, d)),
                     (hx.relative, (d, d)), (hx.opposite, (d,))):
        attempt(fn, *args)


def test_a_hex_far_off_is_refused_with_the_range() -> None:
    with pytest.raises(ValueError, match=r"hex \(2000000, 0\): coordinates allowed"):
        _core.hexgrid.distance((2_000_000, 0), (0, 0))


def test_a_huge_direction_is_refused_not_overflowed() -> None:
    """turn(facing, steps) sums its arguments: near 2^31 that overflowed (UBSan's finding)."""
    with pytest.raises(ValueError, match="direction 2147483647: allowed"):
        _core.hexgrid.turn(2**31 - 1, 5)
    assert _core.hexgrid.turn(5, 2**20) == (5 + 2**20) % 6

"""The native core's hex geometry (RULES §1.7, aom311) equals envs/rules/hexgrid.py."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hexdojo.envs.rules import _core
from hexdojo.envs.rules import hexgrid as hx

hexes = st.tuples(st.integers(-30, 30), st.integers(-30, 30))
native = _core.hexgrid


@given(a=hexes, b=hexes, d=st.integers(-20, 20), radius=st.integers(0, 20))
def test_geometry_matches_the_python_board(a, b, d, radius) -> None:
    assert native.neighbour(a, d) == hx.neighbour(a, d)
    assert native.distance(a, b) == hx.distance(a, b)
    assert native.nearest_direction(a, b) == hx.nearest_direction(a, b)
    assert native.in_arena(a, radius) == hx.in_arena(a, radius)
    nb = hx.neighbour(a, d)
    assert native.direction_to(a, nb) == hx.direction_to(a, nb)
    got = native.direction_to(a, b)
    assert got == (-1 if hx.direction_to(a, b) is None else hx.direction_to(a, b))


@given(facing=st.integers(0, 5), steps=st.integers(-12, 12), direction=st.integers(-12, 12))
def test_turns_and_arcs_match(facing, steps, direction) -> None:
    """§1.7: turning left adds 1 (mod 6); the relative direction 0 is the front."""
    assert native.turn(facing, steps) == hx.turn(facing, steps)
    assert native.relative(direction, facing) == hx.relative(direction, facing)
    assert native.opposite(direction) == hx.opposite(direction)

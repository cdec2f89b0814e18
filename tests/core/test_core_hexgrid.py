"""The core's hex geometry (RULES §1.7, aom311), which envs/rules/hexgrid.py hands on (one
copy since issue 32), checked against the rules' definitions: axial coordinates, directions
0..5 counter-clockwise from east (turning left adds 1), the distance as the number of steps,
a hexagonal arena around the origin."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hexdojo.envs.rules import hexgrid as hx

hexes = st.tuples(st.integers(-30, 30), st.integers(-30, 30))


def test_directions_and_neighbours_by_hand() -> None:
    """E, NE, NW, W, SW, SE in axial steps; a direction is taken mod 6."""
    assert [hx.neighbour((0, 0), d) for d in range(6)] == list(hx.DIRECTIONS)
    assert hx.DIRECTIONS == ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
    assert hx.neighbour((2, -1), 7) == (3, -2) and hx.neighbour((2, -1), -1) == (2, 0)
    assert [hx.direction_to((0, 0), h) for h in hx.DIRECTIONS] == list(range(6))
    assert hx.direction_to((0, 0), (2, 0)) is None and hx.direction_to((0, 0), (0, 0)) is None


@given(a=hexes, b=hexes, c=hexes)
def test_distance_is_the_number_of_steps(a, b, c) -> None:
    """A metric (zero only on itself, symmetric, triangle), one step to each neighbour."""
    assert hx.distance(a, b) == hx.distance(b, a) >= 0
    assert (hx.distance(a, b) == 0) == (a == b)
    assert hx.distance(a, c) <= hx.distance(a, b) + hx.distance(b, c)
    assert all(hx.distance(a, hx.neighbour(a, d)) == 1 for d in range(6))
    dq, dr = b[0] - a[0], b[1] - a[1]
    assert hx.distance(a, b) == max(abs(dq), abs(dr), abs(dq + dr))


@given(a=hexes, radius=st.integers(0, 20))
def test_the_arena_is_a_hexagon_around_the_origin(a, radius) -> None:
    assert hx.in_arena(a, radius) == (hx.distance(a, (0, 0)) <= radius)


@given(facing=st.integers(0, 5), steps=st.integers(-12, 12), direction=st.integers(-12, 12))
def test_turns_and_arcs(facing, steps, direction) -> None:
    """§1.7: turning left adds 1 (mod 6); the relative direction 0 is the front, 3 the rear;
    the front arc is the three hexes ahead (aom311)."""
    assert hx.turn(facing, steps) == (facing + steps) % 6
    assert hx.relative(direction, facing) == (direction - facing) % 6
    assert hx.opposite(direction) == (direction + 3) % 6
    assert hx.in_front_arc(direction, facing) == ((direction - facing) % 6 in {0, 1, 5})

"""Hex board geometry (RULES §1.7, aom311).

Axial coordinates ``(q, r)``; a hex is one square metre. Directions are numbered 0..5
counter-clockwise starting east, so turning left by 60 degrees adds 1 and turning right
subtracts 1 (mod 6). A fighter's *facing* is one of these directions: the hex it faces.

The arena is a hexagon of configurable radius around ``(0, 0)``; nobody may leave it.

The arithmetic is the core's (``hexgrid.hpp``, bound as ``_core.hexgrid``: the one copy the
rules use); this module names the directions and arcs and hands the rendering, scenes,
the table and the agents the same functions (issue 32: one owner).
"""

from __future__ import annotations

from ._core import hexgrid as _h

Hex = tuple[int, int]

#: Unit steps for directions 0..5 (E, NE, NW, W, SW, SE).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
DIRECTION_NAMES: tuple[str, ...] = ("E", "NE", "NW", "W", "SW", "SE")

#: Relative directions (direction - facing) mod 6 that form the front three hexes.
FRONT_ARC: frozenset[int] = frozenset({0, 1, 5})
#: Relative directions outside the front arc: the rear (RULES §5 item 4, PROPOSED).
REAR_ARC: frozenset[int] = frozenset({2, 3, 4})
RELATIVE_NAMES: tuple[str, ...] = (
    "front", "front-left", "rear-left", "rear", "rear-right", "front-right",
)


def neighbour(h: Hex, direction: int) -> Hex:
    """The hex next to ``h`` in ``direction``."""
    return _h.neighbour(h, direction)


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes."""
    return _h.distance(a, b)


def direction_to(a: Hex, b: Hex) -> int | None:
    """Direction from ``a`` to an adjacent hex ``b`` (None if not adjacent)."""
    d = _h.direction_to(a, b)
    return None if d < 0 else d


def nearest_direction(a: Hex, b: Hex) -> int:
    """The direction from ``a`` whose neighbour is nearest to ``b`` (lowest on ties)."""
    return _h.nearest_direction(a, b)


def turn(facing: int, steps: int) -> int:
    """Facing after turning ``steps`` x 60 degrees (positive = left)."""
    return _h.turn(facing, steps)


def relative(direction: int, facing: int) -> int:
    """Direction seen from a fighter with ``facing``: 0 front .. 3 rear."""
    return _h.relative(direction, facing)


def in_front_arc(direction: int, facing: int) -> bool:
    """True if something arriving from ``direction`` comes through the front three hexes."""
    return _h.relative(direction, facing) in FRONT_ARC


def opposite(direction: int) -> int:
    return _h.opposite(direction)


def in_arena(h: Hex, radius: int) -> bool:
    """True if ``h`` lies on a hexagonal arena of ``radius`` around the origin."""
    return _h.in_arena(h, radius)

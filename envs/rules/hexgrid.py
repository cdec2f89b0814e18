"""Hex board geometry (RULES §1.7, aom311).

Axial coordinates ``(q, r)``; a hex is one square metre. Directions are numbered 0..5
counter-clockwise starting east, so turning left by 60 degrees adds 1 and turning right
subtracts 1 (mod 6). A fighter's *facing* is one of these directions: the hex it faces.

The arena is a hexagon of configurable radius around ``(0, 0)``; nobody may leave it.
"""

from __future__ import annotations

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
    dq, dr = DIRECTIONS[direction % 6]
    return (h[0] + dq, h[1] + dr)


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two hexes."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_to(a: Hex, b: Hex) -> int | None:
    """Direction from ``a`` to an adjacent hex ``b`` (None if not adjacent)."""
    d = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(d)
    except ValueError:
        return None


def nearest_direction(a: Hex, b: Hex) -> int:
    """The direction from ``a`` whose neighbour is nearest to ``b`` (lowest on ties)."""
    best, best_d = 0, 1 << 30
    for k, (dq, dr) in enumerate(DIRECTIONS):
        x = a[0] + dq - b[0]
        y = a[1] + dr - b[1]
        d = abs(x) + abs(y) + abs(x + y)
        if d < best_d:
            best, best_d = k, d
    return best


def turn(facing: int, steps: int) -> int:
    """Facing after turning ``steps`` x 60 degrees (positive = left)."""
    return (facing + steps) % 6


def relative(direction: int, facing: int) -> int:
    """Direction seen from a fighter with ``facing``: 0 front .. 3 rear."""
    return (direction - facing) % 6


def in_front_arc(direction: int, facing: int) -> bool:
    """True if something arriving from ``direction`` comes through the front three hexes."""
    return (direction - facing) % 6 in FRONT_ARC


def opposite(direction: int) -> int:
    return (direction + 3) % 6


def in_arena(h: Hex, radius: int) -> bool:
    """True if ``h`` lies on a hexagonal arena of ``radius`` around the origin."""
    return distance(h, (0, 0)) <= radius

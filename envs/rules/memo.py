"""The legality memo: what ``legality.maneuver_choices`` remembers between decisions.

The legal list is put together from memoised *blocks* (the legal choices of one maneuver,
against one target, in one situation); see ``legality.py`` for the keys. The memo belongs
to one compiled rule set but does not live on it: ``Tables`` are immutable once built
(their data can be shared, pickled to workers and compared), and a memo is only a cache,
rebuilt on demand. It holds nothing that depends on the order of the fights played: a key
names everything its value was computed from, so results never depend on what came before.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from . import hexgrid as hx

if TYPE_CHECKING:
    from .model import Choice
    from .tables import Tables

#: blocks kept before the memo is emptied (bounded memory in long training runs)
MAX_BLOCKS = 50_000


class LegalityMemo:
    """The caches of one rule set's enumeration (keys: see ``legality.py``)."""

    __slots__ = ("blocks", "plain", "reactions", "rows", "usable", "__weakref__")

    def __init__(self) -> None:
        #: (window, fighter_status) -> usable maneuvers
        self.usable: dict[tuple[Any, ...], tuple[tuple[str, Any, str], ...]] = {}
        #: target key or situation -> {maneuver: its legal choices}
        self.blocks: dict[tuple[Any, ...], dict[str, tuple[Choice, ...]]] = {}
        #: {maneuver: its legal choices} for maneuvers that read no geometry (Turn, Soak...)
        self.plain: dict[str, tuple[Choice, ...]] = {}
        #: (maneuver, target, turn, option, locations) -> one row of choices, shared by blocks
        self.rows: dict[tuple[Any, ...], tuple[Choice, ...]] = {}
        #: (triggers, attack) -> the reaction maneuvers those triggers can start
        self.reactions: dict[tuple[Any, ...], tuple[str, ...]] = {}

    def bound(self) -> None:
        """Empty the per-situation caches once they hold ``MAX_BLOCKS`` keys."""
        if len(self.blocks) > MAX_BLOCKS:
            self.blocks.clear()
            self.usable.clear()


_MEMOS: weakref.WeakKeyDictionary[Tables, LegalityMemo] = weakref.WeakKeyDictionary()


def memo_for(t: Tables) -> LegalityMemo:
    """The memo of rule set ``t`` (made on first use, dropped with ``t``)."""
    m = _MEMOS.get(t)
    if m is None:
        m = _MEMOS[t] = LegalityMemo()
    return m


_EDGES: dict[tuple[int, int], dict[hx.Hex, tuple[bool, ...]]] = {}


def edge_flags(pos: hx.Hex, radius: int, reach: int) -> tuple[bool, ...]:
    """Which hexes 1..``reach`` steps from ``pos`` in each of the six directions lie on the
    arena: every on-board test of a maneuver's enumeration, as a memo key."""
    table = _EDGES.get((radius, reach))
    if table is None:
        table = _EDGES[(radius, reach)] = {}
    flags = table.get(pos)
    if flags is None:
        flags = table[pos] = tuple(
            hx.in_arena((pos[0] + k * dq, pos[1] + k * dr), radius)
            for dq, dr in hx.DIRECTIONS for k in range(1, reach + 1))
    return flags

"""A pending decision's menu in Python's terms: ``model.Choice`` <-> the core's int tuples.

Choices cross into the core as int tuples (kind, maneuver id, target, location id, turn,
option, risk; -1 for None). The core interns each (decision, legal list) as one id
(``_core.Fight.menu``); ``Boundary.menu`` keeps, per id, the ``Decision`` and the legal
``Choice`` objects built once (Choices are immutable, so every equal decision shares them),
and each Choice's index by ``id()``, so that ``State.apply`` sends only an index.
"""

from __future__ import annotations

from typing import Any

from . import _core
from .model import Choice, Decision
from .to_core import Ids

_KINDS = tuple(_core.CHOICE_KINDS)  # model.Choice kinds, in the core's order
#: menus (a decision and its legal Choices) kept per rule set (Boundary.menu); cleared when full
_CACHE_MENUS = 16_384

#: A pending decision as ``State`` hands it out (Boundary.menu): the Decision, the legal
#: Choices (built once, shared: Choices are immutable) and each Choice's index by id().
Menu = tuple[Decision, tuple[Choice, ...], dict[int, int]]


class Boundary:
    """The core's choice rows -> model.Choice, and the menus of one rule set."""

    def __init__(self, t: Any) -> None:
        self.ids = Ids(t)
        self.maneuvers = list(t.maneuvers)
        self.locations = list(t.locations)
        self._one: dict[tuple[int, ...], Choice] = {}  # bounded: a rule set's choice rows
        self._menus: dict[int, Menu] = {}
        self._decisions: dict[tuple[int, str, str], Decision] = {}

    def to_python(self, x: tuple[int, ...]) -> Choice:
        kind, m, target, loc, turn, option, risk = x
        return Choice(_KINDS[kind], None if m < 0 else self.maneuvers[m],
                      None if target < 0 else target, None if loc < 0 else self.locations[loc],
                      turn, option, risk)

    def menu(self, core: Any) -> Menu | None:
        """The pending decision of native fight ``core`` and its legal Choices, or None once
        over. Why: a decision through the public API was mostly Python building and hashing
        tuples (the rows, ~20 Choices, the Decision, a list.index per apply); the core interns
        each (decision, legal list) as one id (``Fight.menu``), so a decision is one call and
        one dict lookup, and ``apply`` finds the choice's index by its id()."""
        k = core.menu
        if k < 0:
            return None
        got = self._menus.get(k)
        if got is None:
            got = self._new_menu(core, k)
        return got

    def _new_menu(self, core: Any, k: int) -> Menu:
        if len(self._menus) >= _CACHE_MENUS:
            self._menus.clear()
        d = core.decision
        dec = self._decisions.get(d)
        if dec is None:
            dec = self._decisions[d] = Decision(*d)
        one, new = self._one, self.to_python
        choices = tuple(one.get(x) or one.setdefault(x, new(x)) for x in core.legal())
        index: dict[int, int] = {}
        for j, c in enumerate(choices):
            index.setdefault(id(c), j)
        got = self._menus[k] = (dec, choices, index)
        return got


def boundary_of(t: Any) -> Boundary:
    """The Boundary of rule set ``t``, built once (its ids and the Choice cache are per
    rule set; a fresh one per fight cost ~15 us of a ~2 ms fight)."""
    got = _BOUNDARIES.get(id(t))
    if got is None or got[0] is not t:
        got = _BOUNDARIES[id(t)] = (t, Boundary(t))
    return got[1]


_BOUNDARIES: dict[int, tuple[Any, Boundary]] = {}

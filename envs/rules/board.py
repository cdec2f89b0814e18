"""The board a ``State`` hands its readers: a read-only snapshot of the core's.

Why a snapshot: the board lives in the core (``_core.Board``, envs/rules/core/state.hpp);
Python readers (agents, the observation's Python side, the rules tests, the text views)
want plain records with names (``model.FighterState``, ``Hold``), so the core's board is
read into them once per decision, when first asked, and shared by every read until the
next decision. Why read-only: a board is written in one place, the scenario set-up
(``Game.new_state(seed, scenario={...})``, see ``scenario.py``), which checks every field;
writing a snapshot would change nothing in the fight, so it raises ``BoardReadOnly``
instead of being silently lost. A detached, writable copy of a fighter is ``f.copy()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from .model import FighterState, Hold, Window
from .to_core import _LIMBS, _TRIGGERS

if TYPE_CHECKING:
    from .state import Game

#: a fighter's ``out`` by the core's ``_core.Out`` value
OUT_NAMES = (None, "unconscious", "dead")
_STATUS_NAMES = ("", "staggered", "stunned")  # _core.Status by value
_WINDOW_KINDS = ("action", "reaction", "follow_on")  # _core.WindowKind by value
#: a fighter's fields read from the core's board (``model.FighterState``'s names)
FIELDS = ("pos", "facing", "ap", "init", "phased", "prone", "mounted", "height", "out",
          "wounds", "worst", "pen", "status", "hands", "sheathed", "stuck")


class BoardReadOnly(AttributeError):
    """A write to the board a ``State`` hands out (a snapshot): the board is set up by a
    scenario, never written afterwards."""


def refuse(what: str) -> NoReturn:
    """Raise the one error every write to a snapshot gets, naming what was written."""
    raise BoardReadOnly(
        f"State.{what}: the board a State hands out is a read-only snapshot of the core's; set a "
        "board up with Game.new_state(seed, scenario={...}) (envs/rules/scenario.py)")


class BoardFighter(FighterState):
    """One fighter of a snapshot: ``model.FighterState``'s fields, read-only."""

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        refuse(f"fighters[{self.idx}].{name}")

    def __delattr__(self, name: str) -> None:
        refuse(f"fighters[{self.idx}].{name}")

    def __repr__(self) -> str:
        return f"BoardFighter({self.idx}, {self.name!r}, pos={self.pos}, ap={self.ap})"


class _ReadOnly:
    """What a snapshot's container shares: the name it refuses writes under."""

    __slots__ = ()

    def __init__(self, items: Any, what: str) -> None:
        super().__init__(items)  # type: ignore[call-arg]
        self._what = what

    def _refuse(self, *_: Any) -> NoReturn:
        refuse(self._what)  # type: ignore[attr-defined]


class ReadOnlyList(_ReadOnly, list):
    """A snapshot's list (the fighters, the holds): equal to a list, but not to be changed."""

    __slots__ = ("_what",)


class ReadOnlyDict(_ReadOnly, dict):
    """A snapshot's mapping (the §5.4 approaches): equal to a dict, but not to be changed."""

    __slots__ = ("_what",)


for _cls, _names in ((ReadOnlyList, ("append", "extend", "insert", "remove", "pop", "clear",
                                     "__setitem__", "__delitem__", "sort", "reverse",
                                     "__iadd__", "__imul__")),
                     (ReadOnlyDict, ("__setitem__", "__delitem__", "clear", "update", "pop",
                                     "popitem", "setdefault", "__ior__"))):
    for _n in _names:
        setattr(_cls, _n, _cls._refuse)


class Board:
    """A snapshot of a fight's board as plain, read-only records (what ``native.core_state``
    reads back): built from the core's board ``cs`` once per decision."""

    __slots__ = ("game", "t", "turn", "fighters", "holds", "dropped", "approach", "order", "cs")

    def __init__(self, game: Game, cs: Any, names: tuple[list[str], ...]) -> None:
        locs, weapons, kinds = names
        self.cs = cs  # the core's board it was read from (its geometry answers)
        self.game, self.t, self.turn = game, game.tables, cs.turn
        self.fighters = ReadOnlyList([_fighter(game.profiles[k], cf, locs, weapons)
                                      for k, cf in enumerate(cs.fighters)], "fighters")
        self.holds = ReadOnlyList([
            Hold(h.holder, h.held, kinds[h.kind], None if h.location < 0 else locs[h.location],
                 h.turn, h.attempts, h.from_behind, None if h.hand < 0 else h.hand)
            for h in cs.holds], "holds")
        self.dropped = tuple((tuple(h), weapons[w]) for h, w in cs.dropped)
        n = len(self.fighters)
        self.approach = ReadOnlyDict({(a, b): d for a in range(n) for b in range(n)
                                      if a != b and (d := cs.approach(a, b)) >= 0}, "approach")
        self.order = tuple(cs.order)


def names_of(t: Any) -> tuple[list[str], ...]:
    """The location, weapon and hold-kind names by the core's ids (once per rule set)."""
    got = _NAMES.get(id(t))
    if got is None or got[0] is not t:
        got = _NAMES[id(t)] = (t, (list(t.locations), list(t.weapon_ids), list(t.hold_kinds)))
    return got[1]


_NAMES: dict[int, tuple[Any, tuple[list[str], ...]]] = {}


def _fighter(p: Any, cf: Any, locs: Any, weapons: Any) -> BoardFighter:
    """Fighter ``cf`` of the core's board as a record, made read-only once filled (its
    class swapped: no per-field check while it is built)."""
    f = FighterState(cf.idx, p, tuple(cf.pos), cf.facing)
    f.ap, f.init, f.phased, f.prone = cf.ap, cf.init, cf.phased, cf.prone
    f.mounted, f.height, f.worst, f.pen = cf.mounted, cf.height, cf.worst, cf.pen
    f.out, f.status = OUT_NAMES[cf.out.value], _STATUS_NAMES[cf.status.value]
    f.wounds = tuple((locs[w.location], w.level) for w in cf.wounds)
    f.hands = tuple(None if h < 0 else weapons[h] for h in cf.hands)
    f.sheathed = tuple(weapons[w] for w in cf.sheathed)
    f.stuck = tuple((weapons[x.weapon], locs[x.location]) for x in cf.stuck)
    f.__class__ = BoardFighter
    return f  # type: ignore[return-value]


def window_of(t: Any, w: Any) -> Window:
    """The ``model.Window`` of the core's window ``w``."""
    m, locs = list(t.maneuvers), names_of(t)[0]
    restrict = (_LIMBS[w.restrict_limb] if w.restrict_limb >= 0
                else locs[w.restrict_location] if w.restrict_location >= 0 else None)
    return Window(
        _WINDOW_KINDS[w.kind.value], w.fighter,
        frozenset(x for k, x in enumerate(_TRIGGERS) if w.triggers >> k & 1),
        None if w.attacker < 0 else w.attacker, None if w.attack < 0 else m[w.attack],
        None if w.after < 0 else m[w.after], w.no_defence, restrict,
        tuple(m[k] for k in w.reactions_only) if w.has_reactions_only else None,
        (w.follow_direction, w.follow_hexes) if w.has_follow else None,
        None if w.own_hand < 0 else w.own_hand,
        None if w.locked_fighter < 0 else w.locked_fighter,
        None if w.phasing < 0 else w.phasing)

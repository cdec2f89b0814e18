"""A fight run by the native core (``_core.Fight``, envs/rules/core/fight.hpp) in the
Python API's terms (issue 15).

Python keeps the start of a fight: the ``Game`` (rules, sheets, scene), the seeding and the
start hexes (a scene's distance range rolls the fight's dice, ``Game.start_positions``);
the core gets the positions, the facings and the dice where Python left them
(``native.core_dice_of``), pushes the first turn and advances. A scenario's board and its
turn's frames (``scenario.py``) go to the core the same way. Choices cross the boundary as
int tuples (kind, maneuver id, target, location id, turn, option, risk; -1 for None); the
events come back as dicts, built only when read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _core
from .dice import Dice
from .model import Choice, Decision, IllegalChoice
from .native import Ids, _profile, compile_tables, core_dice_of, core_state
from .native_reasons import choice_ids, render
from .scenario import scenario_board

if TYPE_CHECKING:
    from .state import Game

_KINDS = tuple(_core.CHOICE_KINDS)  # model.Choice kinds, in the core's order
#: menus (a decision and its legal Choices) kept per rule set (Boundary.menu); cleared when full
_CACHE_MENUS = 16_384

#: A pending decision as the facade hands it out (Boundary.menu): the Decision, the legal
#: Choices (built once, shared: Choices are immutable) and each Choice's index by id().
Menu = tuple[Decision, tuple[Choice, ...], dict[int, int]]


class Boundary:
    """model.Choice <-> the core's int tuples, for one rule set."""

    def __init__(self, t: Any) -> None:
        self.ids = Ids(t)
        self.maneuvers = list(t.maneuvers)
        self.locations = list(t.locations)
        self._one: dict[tuple[int, ...], Choice] = {}  # bounded: a rule set's choice rows
        self._menus: dict[int, Menu] = {}
        self._decisions: dict[tuple[int, str, str], Decision] = {}

    def to_core(self, c: Choice) -> tuple[int, ...]:
        ids = self.ids
        return (_KINDS.index(c.kind), ids.opt(ids.maneuver, c.maneuver),
                -1 if c.target is None else c.target, ids.opt(ids.location, c.location),
                c.turn, c.option, c.risk)

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


def core_fight(game: Any, starts: Any, dice: Any) -> Any:
    """A new ``_core.Fight`` of ``game`` from its fighters' start (hex, facing) and the core's
    dice (a ``_core.Dice``), at its first decision."""
    ct = compile_tables(game.tables)
    return _core.Fight(ct, [_profile(ct, p) for p in game.profiles], list(game.sides),
                       list(game.side_names), game.radius, game.turn_limit,
                       [(tuple(h), f) for h, f in starts], dice)


class NativeFight:
    """One fight run by the core, read and driven in the Python API's terms."""

    def __init__(self, game: Any, seed: int | Dice | None = None,
                 _core_fight: Any = None, _boundary: Boundary | None = None) -> None:
        self.game = game
        self.boundary = _boundary or boundary_of(game.tables)
        self._events: list[dict[str, Any]] = []
        if _core_fight is not None:
            self.core = _core_fight
            return
        t = game.tables
        dice = seed if isinstance(seed, Dice) else Dice(seed, t.data.dice.die_sides)
        starts = game.start_positions(dice)  # a scene's distance range rolls these dice
        self.core = core_fight(game, starts, core_dice_of(dice))

    @classmethod
    def from_scenario(cls, game: Game, scenario: Any, seed: int | Dice | None = None
                      ) -> NativeFight:
        """A native fight set up by ``scenario.py`` (as ``game.new_state(seed, scenario)``):
        the scenario's board and its turn's frames go straight onto the core's board, with
        the dice where the start left them, and the core advances to the first decision."""
        dice = seed if isinstance(seed, Dice) else Dice(seed, game.tables.data.dice.die_sides)
        sb = scenario_board(game, scenario, dice)  # a scene's distance range rolls the dice
        b, ct = boundary_of(game.tables), compile_tables(game.tables)
        core = _core.Fight.from_state(ct, [_profile(ct, p) for p in game.profiles],
                                      list(game.side_names), game.turn_limit,
                                      core_state(sb, b.ids), core_dice_of(dice), sb.frames, False)
        return cls(game, _core_fight=core, _boundary=b)

    @property
    def is_over(self) -> bool:
        return self.core.is_over

    @property
    def result(self) -> dict[str, Any] | None:
        return self.core.result

    @property
    def decision(self) -> Decision | None:
        m = self.boundary.menu(self.core)
        return None if m is None else m[0]

    def legal_choices(self) -> list[Choice]:
        m = self.boundary.menu(self.core)
        return [] if m is None else list(m[1])

    def context(self) -> dict[str, Any]:
        """``State.context()``: what the pending decision is about."""
        return self.core.context()

    def why_illegal(self, c: Choice) -> str | None:
        """None if ``c`` is legal now, else the reason (the decision's checks here, the
        maneuver's by the core: ``_core.explain``)."""
        d = self.decision
        if d is None:
            return "the fight is over"
        legal = self.legal_choices()
        if c in legal:
            return None
        t = self.game.tables
        kinds = sorted({ch.kind for ch in legal})
        if c.kind not in kinds:
            who = self.game.profiles[d.fighter].name
            return f"it is {who}'s {d.kind} decision now; allowed kinds: {', '.join(kinds)}"
        if c.kind == "risk":
            return f"risk must be 0..{t.max_risk} dice"
        if c.kind != "maneuver":
            return f"{c.kind}: not possible now"
        w = self.core.window
        if w is None:
            return f"{c.maneuver}: not possible now"
        ids = self.boundary.ids
        if (c.maneuver or "") not in ids.maneuver:
            return f"unknown maneuver {c.maneuver!r}"
        names = [p.name for p in self.game.profiles]
        reason = _core.explain(compile_tables(t), self.core.state, w,
                               choice_ids(ids, len(names), c))
        return render(t, names, w, reason) or f"{c.maneuver}: not possible now"

    def apply(self, c: Choice) -> None:
        """Take ``c`` for the pending decision; an illegal one raises IllegalChoice with
        its reason."""
        try:
            x = self.boundary.to_core(c)
        except (KeyError, ValueError):
            raise IllegalChoice(c, self.why_illegal(c) or "not legal now") from None
        try:
            self.core.apply(x)
        except ValueError as e:
            if str(e).startswith("LoadedDice ran out"):  # as the Python LoadedDice fails
                raise RuntimeError(str(e)) from None
            if str(e) not in ("not legal now", "the fight is over"):
                raise
            raise IllegalChoice(c, self.why_illegal(c) or "not legal now") from None

    @property
    def events(self) -> list[dict[str, Any]]:
        """The event log as dicts (built once, when first read)."""
        n = self.core.n_events
        if len(self._events) < n:
            self._events.extend(self.core.events(len(self._events)))
        return self._events

    def clone(self) -> NativeFight:
        # no __init__: a search clones thousands of times a decision (issue 15: >= 2M/s)
        c = NativeFight.__new__(NativeFight)
        c.game, c.boundary, c.core = self.game, self.boundary, self.core.clone()
        c._events = self._events[:]
        return c

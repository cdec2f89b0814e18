"""The scripted agents' Knowledge in C++ (``agents/native/knowledge.hpp``), for Python.

Why: the scripted agents' estimates (hit odds, margin, wound after soak, pain, knock-back,
holds, follow-on threats, aims) exist once, in a C++ ``Knowledge`` that reads the core's
own fight and formulas (the Python copy, ``heuristics.Knowledge``, went with the Python
engine, issue 15). This module builds it once per rule set from the compiled tables
(:func:`hexdojo.envs.rules.to_core.compile_tables`) and the dice odds of :mod:`.odds`
(handed over as Python floats, so every probability is the same double), and offers
:class:`NativeKnowledge`: the estimates with names in and out (the old
``heuristics.Knowledge``'s names and arguments), on a
:class:`~hexdojo.envs.rules.state.State`, for ``hexdojo advise`` and tests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexdojo.envs.rules.to_core import TableIds, _profile, compile_tables

from . import _bots
from .odds import Odds, odds_for

if TYPE_CHECKING:
    from hexdojo.envs.rules import Tables
    from hexdojo.envs.rules.fighter import Profile
    from hexdojo.envs.rules.state import State

_LIMBS = ("arm", "leg", "head")  # tables.hpp kLimbNames
_NATIVE: dict[int, NativeKnowledge] = {}  # by id(Tables), checked against its own


def odds_tables(o: Odds) -> dict[str, Any]:
    """The arguments of ``_bots.Knowledge`` that carry :class:`Odds`' tables (flattened as
    odds.hpp reads them: ``[ra][rd][c + SPAN]``)."""
    return {
        "sides": o.sides, "max_risk": o.max_risk, "per_die_h": o.per_die_h,
        "single_vals": [[int(v) for v in vals.tolist()] for vals, _ in o.single],
        "single_probs": [probs.tolist() for _, probs in o.single],
        "p_gt": [p for row in o.p_gt for col in row for p in col],
        "m_gt": [m for row in o.m_gt for col in row for m in col],
        "best_first": list(o.best_first),
        "best_answer": [r for row in o.best_answer for r in row],
    }


def native_knowledge(t: Tables) -> NativeKnowledge:
    """The (cached) native Knowledge of rule set ``t``."""
    k = _NATIVE.get(id(t))
    if k is None or k.t is not t:
        k = _NATIVE[id(t)] = NativeKnowledge(t)
    return k


class NativeKnowledge:
    """The C++ Knowledge's estimates: names in, names out, ``None`` for none; ``s`` a
    State (its core fight is what C++ reads)."""

    def __init__(self, t: Tables) -> None:
        self.t = t
        self.ct = compile_tables(t)
        d = t.data
        self.odds = odds_for(d.dice.die_sides, t.max_risk, t.per_die_h)
        self.core = _bots.Knowledge(self.ct, **odds_tables(self.odds))
        self.ids = TableIds(t)
        self._man = self.ids.maneuver
        self._loc = self.ids.location
        self._dtype_names = list(self.ct.damage_type_names)
        self._loc_names = list(self.ct.location_names)
        self.R = self.core.R

    # ------------------------------------------------------------ names <-> ids
    def _m(self, name: str | None) -> int:
        return -1 if name is None else self._man[name]

    def _l(self, loc: str | None) -> int:
        return -1 if loc is None else self._loc[loc]

    def _restrict(self, restrict: str | None) -> tuple[int, int]:
        """A restrict (the core's locked_limb: a limb, or an arm location) as (limb, location)."""
        if restrict is None:
            return -1, -1
        if restrict in _LIMBS:
            return _LIMBS.index(restrict), -1
        return -1, self._loc[restrict]

    def _p(self, p: Profile) -> Any:
        return _profile(self.ct, p)

    def _dt(self, dtype: str | None) -> int:
        return -1 if dtype is None else self._dtype_names.index(dtype)

    # ------------------------------------------------------------ the estimates
    def option_index(self, name: str, option: int) -> int:
        """The part of a choice's option an attack's value depends on (knowledge.hpp)."""
        return self.core.option_index(self._m(name), option)

    def attack_basic(self, s: State, x: int, y: int, name: str, loc: str | None,
                     option: int = 0) -> int:
        return self.core.attack_basic(s._core, x, y, self._m(name), self._l(loc), option)

    def default_defence(self, s: State, y: int, x: int) -> int:
        return self.core.default_defence(s._core, y, x)

    def defence_with(self, s: State, y: int, x: int, rname: str, attack: str | None,
                     loc: str | None, option: int = 0) -> int:
        return self.core.defence_with(s._core, y, x, self._m(rname), self._m(attack),
                                      self._l(loc), option)

    def best_defence(self, s: State, y: int, x: int, attack: str, loc: str | None,
                     restrict: str | None = None, ap: int | None = None
                     ) -> tuple[int, str | None]:
        lim, rloc = self._restrict(restrict)
        b, r = self.core.best_defence(s._core, y, x, self._m(attack), self._l(loc), lim, rloc, ap)
        return b, (None if r < 0 else self.ct.maneuvers[r].name)

    def attack_value(self, s: State, x: int, y: int, name: str, loc: str | None,
                     option: int = 0, restrict: str | None = None, punish: bool = True,
                     y_ap: int | None = None) -> tuple[float, float]:
        lim, rloc = self._restrict(restrict)
        return self.core.attack_value(s._core, x, y, self._m(name), self._l(loc), option, lim,
                                      rloc, punish, y_ap)

    def hit_value(self, s: State, x: int, y: int, name: str, loc: str | None,
                  dtype_index: int, margin_h: float) -> float:
        return self.core.hit_value(s._core, x, y, self._m(name), self._l(loc), dtype_index,
                                   margin_h)

    def follow_threat(self, s: State, x: int, y: int, after: str,
                      y_ap: int | None = None, ap_spent: int = 0,
                      blocked: str | None = None) -> float:
        return self.core.follow_threat(s._core, x, y, self._m(after), y_ap, ap_spent,
                                       self._m(blocked))

    def aims(self, s: State, x: int, y: int, name: str, dtype_index: int,
             locs: tuple[str, ...]) -> frozenset[str]:
        got = self.core.aims(s._core, x, y, self._m(name), dtype_index,
                             [self._loc[n] for n in locs])
        return frozenset(self._loc_names[i] for i in got)

    def weapon_hit(self, s: State, x: int, name: str, option: int
                   ) -> tuple[int | None, str | None]:
        rating, dt = self.core.weapon_hit(s._core, x, self._m(name), option)
        return rating, (None if dt < 0 else self._dtype_names[dt])

    def attack_options(self, s: State, x: int, name: str) -> tuple[int, ...]:
        return tuple(self.core.attack_options(s._core, x, self._m(name)))

    def wound_value(self, yp: Profile, y_worst: int, y_pen: int, y_ap: int, dmg_basic: int,
                    n: int, dr: int, loc: str, dtype: str, x_left: int = 0) -> float:
        return self.core.wound_value(self._p(yp), y_worst, y_pen, y_ap, dmg_basic, n, dr,
                                     self._loc[loc], self._dt(dtype), x_left)

    def knockback_value(self, yp: Profile, y_worst: int, y_pen: int, y_ap: int,
                        y_prone: bool, y_mounted: bool, dmg_basic: int, n: int, loc: str,
                        dtype: str, x_left: int = 0, x_mounted: bool = False) -> float:
        return self.core.knockback_value(self._p(yp), y_worst, y_pen, y_ap, y_prone, y_mounted,
                                         dmg_basic, n, self._loc[loc], self._dt(dtype), x_left,
                                         x_mounted)

    def pain_bands(self, basic: int, n: int) -> tuple[float, float, float]:
        return tuple(self.core.pain_bands(basic, n))  # type: ignore[return-value]

    def p_hit(self, ba: int, bd: int, reaction: str | None = None) -> float:
        return self.core.p_hit(ba, bd, self._m(reaction))

    def margin(self, ba: int, bd: int) -> float:
        return self.core.margin(ba, bd)

    def p_counter(self, mine: int, theirs: int) -> float:
        return self.core.p_counter(mine, theirs)

    def p_break(self, esc: int, hold: int) -> float:
        return self.core.p_break(esc, hold)

    def penalties(self, s: State, i: int) -> int:
        return self.core.penalties(s._core, i)

    def defence_hands(self, s: State, y: int, rname: str) -> tuple[int, ...]:
        return tuple(self.core.defence_hands(s._core, y, self._m(rname)))

    def hit_core(self, xp: Profile, yp: Profile, name: str, loc: str | None,
                 dtype_index: int, margin: int, x_pen: int, y_worst: int, y_pen: int,
                 y_ap: int, y_prone: bool, new_hold: bool, x_left: int,
                 y_mounted: bool = False, x_mounted: bool = False,
                 rating: int | None = None, wtype: str | None = None) -> float:
        return self.core.hit_core(self._p(xp), self._p(yp), self._m(name), self._l(loc),
                                  dtype_index, margin, x_pen, y_worst, y_pen, y_ap, y_prone,
                                  new_hold, x_left, y_mounted, x_mounted, rating, self._dt(wtype))

"""The Python side of the native rules core's boundary (``_core``, C++20, envs/rules/core).

The core is being ported from the Python engine layer by layer (docs/native-core.md); the
Python engine stays the reference until the differential test passes, and each native layer is
checked against it. This module turns the engine's Python objects into what the core takes.

Seeding: a fight's dice come from numpy's PCG64. Python keeps the seeding (numpy's
``SeedSequence`` turns ``seed`` into a 128-bit state) and hands the core that state; from there
the core draws the same faces as :class:`~.dice.Dice`, bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import _core
from .dice import Dice, LoadedDice

_M64 = (1 << 64) - 1


def _halves(v: int) -> tuple[int, int]:
    return v >> 64, v & _M64


def core_dice(rng: np.random.Generator | int | None = None, sides: int = 6) -> _core.Dice:
    """The core's dice in the state of ``rng`` (a Generator, whose PCG64 state is copied, or a
    seed, as ``Dice(seed)`` takes it): they roll what ``Dice(rng, sides)`` would roll."""
    if not isinstance(rng, np.random.Generator):
        rng = np.random.default_rng(rng)
    st = rng.bit_generator.state
    if st["bit_generator"] != "PCG64":
        raise ValueError(f"rng: bit generator {st['bit_generator']!r}: the core draws PCG64 only")
    return _core.Dice(_halves(st["state"]["state"]), _halves(st["state"]["inc"]),
                      bool(st["has_uint32"]), int(st["uinteger"]), sides)


def core_dice_of(d: Dice) -> _core.Dice:
    """The core's dice in the exact state of Python dice ``d`` (part-way through a drawn
    block, a clone with its captured generator, or LoadedDice with its script): they roll
    what ``d`` would roll from here."""
    if isinstance(d, LoadedDice):
        return _core.Dice.loaded_faces(d.script, d.sides, d.used)
    if d._rng is not None:
        st = d._rng.bit_generator.state
    else:
        cls, st = d._rng_state
        if cls is not np.random.PCG64:
            raise ValueError(f"dice: bit generator {cls.__name__}: the core draws PCG64 only")
    if st["bit_generator"] != "PCG64":
        raise ValueError(f"dice: bit generator {st['bit_generator']!r}: the core draws PCG64 only")
    return _core.Dice.from_block(_halves(st["state"]["state"]), _halves(st["state"]["inc"]),
                                 bool(st["has_uint32"]), int(st["uinteger"]), d.sides,
                                 list(d._buf), d._pos)


def generator_state(d: _core.Dice) -> dict:
    """The core dice's generator as numpy writes a PCG64 ``bit_generator.state``."""
    (sh, sl), (ih, il), has, uint = d.bit_state()
    return {"bit_generator": "PCG64", "state": {"state": (sh << 64) | sl, "inc": (ih << 64) | il},
            "has_uint32": int(has), "uinteger": uint}


# ---------------------------------------------------------------- the board state (layer 3)
_TRIGGERS = ("closing", "attack", "movement", "adjacent_entry", "held", "hit", "follow",
             "zone_entry", "ready")  # state.hpp kTriggers
_LIMBS = ("arm", "leg", "head")  # state.hpp kLimbs
_OUT = {None: _core.Out.IN, "unconscious": _core.Out.UNCONSCIOUS, "dead": _core.Out.DEAD}
_STATUS = {"": _core.Status.NONE, "staggered": _core.Status.STAGGERED,
           "stunned": _core.Status.STUNNED}


class Ids:
    """Names of one rule set as the core's dense ids, in the Python data's order."""

    def __init__(self, t: Any) -> None:
        self.maneuver = {n: k for k, n in enumerate(t.maneuvers)}
        self.location = {n: k for k, n in enumerate(t.locations)}
        self.weapon = {n: k for k, n in enumerate(t.weapon_ids)}
        self.hold_kind = {n: k for k, n in enumerate(t.hold_kinds)}

    def opt(self, table: dict[str, int], name: str | None) -> int:
        return -1 if name is None else table[name]


def _core_fighter(ids: Ids, f: Any) -> _core.FighterState:
    c = _core.FighterState()
    c.idx, c.pos, c.facing, c.ap, c.init = f.idx, f.pos, f.facing, f.ap, f.init
    c.phased, c.prone, c.mounted, c.height = f.phased, f.prone, f.mounted, f.height
    c.out, c.status, c.worst, c.pen = _OUT[f.out], _STATUS[f.status], f.worst, f.pen
    wounds = []
    for loc, level in f.wounds:
        w = _core.Wound()
        w.location, w.level = ids.location[loc], level
        wounds.append(w)
    c.wounds = wounds
    c.hands = [ids.opt(ids.weapon, h) for h in f.hands]
    c.sheathed = [ids.weapon[w] for w in f.sheathed]
    stuck = []
    for wid, loc in f.stuck:
        x = _core.Stuck()
        x.weapon, x.location = ids.weapon[wid], ids.location[loc]
        stuck.append(x)
    c.stuck = stuck
    return c


def core_hold(ids: Ids, h: Any) -> _core.Hold:
    c = _core.Hold()
    c.holder, c.held, c.kind = h.holder, h.held, ids.hold_kind[h.kind]
    c.location = ids.opt(ids.location, h.location)
    c.turn, c.attempts, c.from_behind = h.turn, h.attempts, h.from_behind
    return c


def core_state(st: Any, ids: Ids | None = None) -> _core.State:
    """The core's board state of Python State ``st`` (fighters, holds, weapons on the
    board, the §5.4 approaches, turn and order): what legality reads."""
    ids = ids or Ids(st.t)
    c = _core.State()
    c.radius, c.turn, c.sides = st.game.radius, st.turn, list(st.game.sides)
    c.fighters = [_core_fighter(ids, f) for f in st.fighters]
    c.holds = [core_hold(ids, h) for h in st.holds]
    c.dropped = [(h, ids.weapon[w]) for h, w in st.dropped]
    c.order = list(st.order)
    for (a, t), d in st.approach.items():
        c.set_approach(a, t, d)
    return c


def core_window(ids: Ids, w: Any) -> _core.Window:
    """The core's form of legality ``Window`` ``w``."""
    c = _core.Window()
    c.kind = {"action": _core.WindowKind.ACTION, "reaction": _core.WindowKind.REACTION,
              "follow_on": _core.WindowKind.FOLLOW_ON}[w.kind]
    c.fighter = w.fighter
    c.triggers = sum(1 << _TRIGGERS.index(tr) for tr in w.triggers)
    c.attacker = -1 if w.attacker is None else w.attacker
    c.attack = ids.opt(ids.maneuver, w.attack)
    c.after = ids.opt(ids.maneuver, w.after)
    c.no_defence = w.no_defence
    if w.restrict in _LIMBS:
        c.restrict_limb = _LIMBS.index(w.restrict)
    elif w.restrict is not None:
        c.restrict_location = ids.location[w.restrict]
    if w.reactions_only is not None:
        c.has_reactions_only = True
        c.reactions_only = [ids.maneuver[n] for n in w.reactions_only]
    if w.follow is not None:
        c.has_follow = True
        c.follow_direction, c.follow_hexes = w.follow
    c.own_hand = -1 if w.own_hand is None else w.own_hand
    c.locked_fighter = -1 if w.locked_fighter is None else w.locked_fighter
    return c

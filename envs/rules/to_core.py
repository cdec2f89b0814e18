"""The Python side of the native rules core's boundary (``_core``, C++20, envs/rules/core).

The core was ported from the Python engine layer by layer and checked against it until that
engine was deleted (issue 15, docs/history/native-core-port.md). This module turns the Python side's
objects (the validated rules, the sheets, a board's records) into what the core takes.

Seeding: a fight's dice come from numpy's PCG64. Python keeps the seeding (numpy's
``SeedSequence`` turns ``seed`` into a 128-bit state) and hands the core that state; from there
the core draws the same faces as :class:`~.dice.Dice`, bit for bit.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import cache
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import numpy as np
from pydantic import BaseModel

from . import _core
from .dice import Dice, LoadedDice
from .ruleset import Category, Maneuver, Names, Trigger, Weapon
from .tables import h2

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
#: the steps a frame stands at (fight.hpp ``At``), in the core's order: a frame's ``at``
#: crosses the boundary as its index here (bind_fight.cpp frame_from)
AT_STEPS = ("start", "phase", "act", "move", "react", "declare", "att_risk", "def_risk", "roll",
            "damage", "soak", "soak_risk", "apply", "hold", "esc_risk", "hold_risk")
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
    c.hand = -1 if h.hand is None else h.hand
    return c


def core_state(st: Any, ids: Ids | None = None) -> _core.Board:
    """The core's board state of Python State ``st`` (fighters, holds, weapons on the
    board, the §5.4 approaches, turn and order): what the core's legality reads."""
    ids = ids or Ids(st.t)
    c = _core.Board()
    c.radius, c.turn, c.sides = st.game.radius, st.turn, list(st.game.sides)
    c.fighters = [_core_fighter(ids, f) for f in st.fighters]
    c.holds = [core_hold(ids, h) for h in st.holds]
    c.dropped = [(h, ids.weapon[w]) for h, w in st.dropped]
    c.order = list(st.order)
    for (a, t), d in st.approach.items():
        c.set_approach(a, t, d)
    return c


def core_window(ids: Ids, w: Any) -> _core.Window:
    """The core's form of window ``w`` (``model.Window``)."""
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
    c.phasing = -1 if w.phasing is None else w.phasing
    return c


# ---------------------------------------------------------------- compiled tables (layer 2)
# Python hands the core its rules once per rule set: it fills the core's plain structs from
# the validated data by field name (fill_from, below: names as ids of TableIds, numbers in
# half points), and Tables.seal() checks every id and derives the lookups (docs/native-core.md,
# "Tables, profiles, formulas").
_COMPILED: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_IDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_PROFILES: dict[tuple[int, int], tuple[weakref.ref, weakref.ref, _core.Profile]] = {}


class TableIds(Ids):
    """Every name table of a rule set as the core's ids (``Ids`` and the rest)."""

    def __init__(self, t: Any) -> None:
        super().__init__(t)
        d = t.data
        self.characteristic = {n: k for k, n in enumerate(d.characteristics)}
        self.skill = {n: k for k, n in enumerate(d.skills)}
        self.specialism = {n: k for k, n in enumerate(_specialism_names(d))}
        self.aim = {n: k for k, n in enumerate(d.aim)}
        self.damage_type = {n: k for k, n in enumerate(d.damage_types)}
        self.level = {n: k for k, n in enumerate(t.wound_levels)}
        self.method = {n: k for k, n in enumerate(d.break_hold.methods)}
        self.hand = {n: k for k, n in enumerate(d.armed.hand_locations)}

    def get(self, table: dict[str, int], name: str | None, what: str) -> int:
        """The id of ``name`` (-1 for None); an unknown name is one clear ValueError."""
        if name is None:
            return -1
        if name not in table:
            raise ValueError(f"{what} {name!r}: unknown; allowed: {list(table)}")
        return table[name]


def _specialism_names(d: Any) -> list[str]:
    """The data's specialisms, then any a roll names that the list lacks (in data order). A
    sheet's other specialisms are never rolled, so the profile compiler drops them."""
    names = list(d.specialisms)
    rolls = [d.turn.ap, d.turn.initiative, d.soak.roll, d.pain.roll, d.knockback.roll,
             d.attack.default_defence, d.mounted.stay_mounted, *d.maneuvers.values()]
    for r in rolls:
        names += [s for s in r.specialisms if s not in names]
    return names


# ---------------------------------------------------------------- rules model -> core struct
# A rules model (ruleset.py, the source) fills the core struct (tables.hpp) of the same field
# names; a field's type says how it crosses (issue 32): a float is half points (h2: rules
# numbers are whole or half), a str Literal its position (the core's vocabularies, checked by
# _check_vocabularies), a name of a rules table (ruleset.Names) that table's id, None the id
# -1 (a ``float | None`` sets the core's ``has_<field>`` too), a nested model the core struct
# of its class name, a list element-wise, a ``dict[str, str]`` its items. What differs (a
# renamed, split or derived core field) is passed by hand, by the core field's name.
_Conv = Callable[[Any, Any], Any]


def bound_fields(core_cls: type) -> list[str]:
    """The fields of core struct ``core_cls`` that its binding exposes (bind_tables.cpp)."""
    return [n for n, v in vars(core_cls).items() if isinstance(v, property)]


def _same(v: Any, ids: Any) -> Any:
    return v


def _conv(ann: Any, meta: tuple = ()) -> _Conv | None:
    """How a rules value of type ``ann`` (with field metadata ``meta``) crosses to the core;
    None: by no rule (its core field is filled by hand)."""
    names = [x for x in meta if isinstance(x, Names)]
    if names:
        table = names[0].table
        return lambda v, ids: getattr(ids, table)[v]
    origin, args = get_origin(ann), get_args(ann)
    if origin is Annotated:
        return _conv(args[0], args[1:])
    if origin in (Union, UnionType):
        rest = [a for a in args if a is not type(None)]
        inner = _conv(rest[0]) if len(rest) == 1 else None
        return inner and (lambda v, ids: -1 if v is None else inner(v, ids))
    if origin is Literal:
        return (lambda v, ids: args.index(v)) if all(isinstance(a, str) for a in args) else _same
    if origin is list:
        item = _conv(args[0])
        return item and (lambda v, ids: [item(x, ids) for x in v])
    if origin is dict and args == (str, str):
        return lambda v, ids: list(v.items())
    if ann is float:
        return lambda v, ids: h2(v)
    if ann in (bool, int, str):
        return _same
    if isinstance(ann, type) and issubclass(ann, BaseModel) and hasattr(_core, ann.__name__):
        core_cls = getattr(_core, ann.__name__)
        return lambda v, ids: fill_from(core_cls, v, ids)
    return None


@cache
def _plan(model: type[BaseModel], core_cls: type,
          by_hand: frozenset[str]) -> tuple[tuple[str, _Conv, bool], ...]:
    """The (field, conversion, sets has_<field>) that fill ``core_cls`` from ``model``; a core
    field neither shared nor filled by hand is a RuntimeError naming both sides."""
    bound = bound_fields(core_cls)
    plan, filled = [], set(by_hand)
    for name, info in model.model_fields.items():
        if name not in bound or name in by_hand:
            continue  # read by hand, by Python only, or by another core field
        optional = type(None) in get_args(info.annotation)
        has = optional and f"has_{name}" in bound
        ann = next(a for a in get_args(info.annotation) if a is not type(None)) if has \
            else info.annotation
        conv = _conv(ann, tuple(info.metadata))
        if conv is None:
            raise RuntimeError(f"ruleset.{model.__name__}.{name}: its type {info.annotation} "
                               f"has no core form; fill _core.{core_cls.__name__}.{name} by hand")
        plan.append((name, conv, has))
        filled |= {name, f"has_{name}"} if has else {name}
    missing = [f for f in bound if f not in filled]
    if missing:
        raise RuntimeError(
            f"_core.{core_cls.__name__}: fields {missing} (tables.hpp) have no field of that "
            f"name in ruleset.{model.__name__} and are not filled by hand: rename one side "
            "or fill them by hand (to_core.py)")
    return tuple(plan)


def fill_from(core_cls: type, m: BaseModel, ids: Any, **by_hand: Any) -> Any:
    """A new ``core_cls`` (a core struct) filled from rules model ``m``: every field the two
    share by name, converted by its declared type (``ids``: the names' ids, a TableIds); the
    core fields in ``by_hand`` take the value given (renamed, split or derived fields)."""
    obj = core_cls()
    for name, conv, has in _plan(type(m), core_cls, frozenset(by_hand)):
        v = getattr(m, name)
        if has:
            setattr(obj, f"has_{name}", v is not None)
            v = 0 if v is None else v
        setattr(obj, name, conv(v, ids))
    for k, v in by_hand.items():
        setattr(obj, k, v)
    return obj


def fill_flat(ct: _core.Tables, section: str, m: BaseModel, ids: Any) -> None:
    """Rules section ``m`` (``[section]``) that the core keeps as members of ``Tables`` itself:
    field ``f`` lands in the member ``<section>_f`` or else ``f``, converted as in fill_from."""
    bound = bound_fields(_core.Tables)
    for name, info in type(m).model_fields.items():
        member = f"{section}_{name}" if f"{section}_{name}" in bound else name
        conv = _conv(info.annotation, tuple(info.metadata))
        if member not in bound or conv is None:
            raise RuntimeError(f"ruleset.{type(m).__name__}.{name}: no member {section}_{name} "
                               f"or {name} of _core.Tables (tables.hpp) of a known form")
        setattr(ct, member, conv(getattr(m, name), ids))


def _maneuver(ids: TableIds, name: str, m: Maneuver) -> _core.Maneuver:
    """One maneuver: every field of ``ruleset.Maneuver``; its aim and tags by hand."""
    aim_kind = _core.AIM_LIST if isinstance(m.aim, list) else (
        _core.AIM_ANY if m.aim == "any" else _core.AIM_WHOLE)
    return fill_from(
        _core.Maneuver, m, ids, name=name, tag_a="A" in m.tags, tag_r="R" in m.tags,
        aim_kind=aim_kind, aim=[ids.aim[a] for a in m.aim] if aim_kind == _core.AIM_LIST else [])


def _names_and_rows(ct: _core.Tables, t: Any, ids: TableIds) -> None:
    """The name tables and the per-name rows: maneuvers, aim rows, locations, damage types,
    weapons, hold kinds, follow-ons."""
    d = t.data
    ct.characteristics, ct.skills = list(d.characteristics), list(d.skills)
    ct.specialisms, ct.aim_rows = list(ids.specialism), list(d.aim)
    ct.location_names, ct.damage_type_names = list(t.locations), list(d.damage_types)
    ct.hold_kind_names, ct.weapon_ids = list(d.holds.kinds), list(t.weapon_ids)
    ct.maneuvers = [_maneuver(ids, n, m) for n, m in t.maneuvers.items()]
    ct.aim = [fill_from(_core.AimRow, r, ids) for r in d.aim.values()]
    ct.locations = [fill_from(_core.Location, s, ids) for s in d.locations.values()]
    ct.damage_types = [fill_from(_core.DamageTypeRow, x, ids) for x in d.damage_types.values()]
    ct.weapons = [fill_from(_core.Weapon, w, ids, shield_side_arc=w.block_arc == "shield_side")
                  for w in d.weapons.values()]
    ct.hold_kinds = [fill_from(_core.HoldKind, k, ids) for k in d.holds.kinds.values()]
    ct.follow_ons = [[ids.maneuver[x] for x in t.follow_ons.get(n, ())] for n in t.maneuvers]
    ct.follow_on_defence = [0 if n in d.follow_on_defence else -1 for n in t.maneuvers]


def _turn_attack_body(ct: _core.Tables, d: Any, ids: TableIds) -> None:
    """[dice], [turn], [attack], [encumbrance], [helmets], [damage], [wounds], [soak]."""
    ct.dice = fill_from(_core.DiceRules, d.dice, ids, per_die=h2(d.dice.points_per_die),
                        max_risk=d.dice.max_risk_dice)
    ct.turn = fill_from(_core.TurnRules, d.turn, ids)
    ct.attack = fill_from(_core.AttackRules, d.attack, ids)
    e = d.encumbrance
    ct.encumbrance = fill_from(_core.Encumbrance, e, ids, band_names=list(e.bands),
                               bands=[h2(v) for v in e.bands.values()])
    hm = d.helmets
    ct.helmets = fill_from(_core.Helmets, hm, ids, material_names=list(hm.materials),
                           material_pv=[h2(x.pv) for x in hm.materials.values()],
                           material_modifier=[h2(x.modifier) for x in hm.materials.values()])
    fill_flat(ct, "damage", d.damage, ids)
    ct.wounds = fill_from(_core.Wounds, d.wounds, ids)
    ct.soak = fill_from(_core.SoakRules, d.soak, ids)


def _pain_holds(ct: _core.Tables, d: Any, ids: TableIds) -> None:
    """[pain], [knockback], [holds], [break_hold], [prone], [sides], [mounted]."""
    ct.pain = fill_from(_core.PainRules, d.pain, ids)
    ct.knockback = fill_from(_core.KnockbackRules, d.knockback, ids)
    ct.holds = fill_from(_core.HoldRules, d.holds, ids)
    b = d.break_hold
    ct.break_hold = fill_from(
        _core.BreakHoldRules, b, ids, method_names=list(b.methods),
        methods=[fill_from(_core.RollSpec, x, ids, specialisms=[], bonus=0)
                 for x in b.methods.values()],
        holder_method_choice=ids.get(ids.method, None if b.holder_method_choice == "best"
                                     else b.holder_method_choice, "break_hold.holder_method_choice"))
    ct.prone = fill_from(_core.ProneRules, d.prone, ids)
    fill_flat(ct, "sides", d.sides, ids)
    ct.mounted = fill_from(_core.MountedRules, d.mounted, ids,
                           pull_down_lands_same=d.mounted.pull_down_lands == "same")


def _weapons_movement(ct: _core.Tables, d: Any, ids: TableIds) -> None:
    """[self_injury], [lock_damage], [drop_dodge], [forearm_block], [armed], [movement]."""
    si = d.self_injury
    ct.self_injury = fill_from(
        _core.SelfInjuryRules, si, ids,
        locations=[ids.opt(ids.location, si.locations.get(p)) for p in _core.BODY_PARTS])
    fill_flat(ct, "lock_damage", d.lock_damage, ids)
    dd = d.drop_dodge
    ct.drop_dodge = fill_from(_core.DropDodgeRules, dd, ids,
                              by_aim=[h2(dd.by_aim.get(a, 0)) for a in d.aim],
                              by_maneuver=[h2(dd.by_maneuver.get(n, 0)) for n in ids.maneuver],
                              has_by_maneuver=[int(n in dd.by_maneuver) for n in ids.maneuver])
    fb = d.forearm_block
    ct.forearm_block = fill_from(_core.ForearmBlockRules, fb, ids,
                                 vs_unarmed=h2(fb.bonus_vs_unarmed),
                                 vs_close=h2(fb.bonus_vs_close_weapons),
                                 vs_melee=h2(fb.bonus_vs_melee_weapons),
                                 grab_after_kick_either_arm=fb.grab_after_kick == "either_arm")
    a = d.armed
    ct.armed = fill_from(_core.ArmedRules, a, ids,
                         shield_side_hands=[ids.location[x] for x in a.shield_side],
                         shield_side_arcs=[list(v) for v in a.shield_side.values()])
    ct.movement = fill_from(_core.MovementRules, d.movement, ids)


def _check_vocabularies() -> None:
    """The core's fixed vocabularies (tables.hpp) still read as ruleset.py's Literals."""
    f = Maneuver.model_fields
    pairs = [(_core.CATEGORIES, get_args(Category)), (_core.TRIGGERS, get_args(Trigger)),
             (_core.MOVES, get_args(get_args(f["moves"].annotation)[0])),
             (_core.BODY_PARTS, get_args(get_args(f["self_injury"].annotation)[0])),
             (_core.LIMBS, get_args(get_args(f["limb"].annotation)[0])),
             (_core.MOUNTED_USES, get_args(f["mounted"].annotation)),
             (_core.WEAPON_NEEDS, get_args(get_args(f["weapon"].annotation)[0])),
             (_core.WEAPON_KINDS, get_args(Weapon.model_fields["kind"].annotation))]
    for core, py in pairs:
        if list(core) != list(py):
            raise RuntimeError(f"native core vocabulary {list(core)} differs from the Python "
                               f"schema's {list(py)}: rebuild the core (pip install -e .)")


def compile_tables(t: Any) -> _core.Tables:
    """The core's sealed ``Tables`` of the Python ``Tables`` ``t``, built once per rule set
    (cached while ``t`` lives; ``Tables`` is immutable, so the copy cannot go stale)."""
    ct = _COMPILED.get(t)
    if ct is None:
        _check_vocabularies()
        ids = TableIds(t)
        ct = _core.Tables()
        ct.id = t.id
        _names_and_rows(ct, t, ids)
        _turn_attack_body(ct, t.data, ids)
        _pain_holds(ct, t.data, ids)
        _weapons_movement(ct, t.data, ids)
        ct.seal()
        _COMPILED[t] = ct
    return ct


def param_domain(t: Any, name: str) -> tuple[tuple[int, ...], tuple[str | None, ...], tuple[int, ...]]:
    """All (turns, locations, options) maneuver ``name`` can ever take (the action
    catalogue's blocks, a reason's "turns"/"opts"), as the core derives them (``Tables::seal``,
    ``param_domain`` in tables.cpp: the one derivation, issue 32), in Python's names."""
    t_ids = list(t.maneuvers)
    if name not in t.maneuvers:
        raise ValueError(f"maneuver {name!r}: unknown; allowed: {t_ids}")
    dom = compile_tables(t).domain[t_ids.index(name)]
    locs = tuple(None if k < 0 else t.locations[k] for k in dom.locations)
    return tuple(dom.turns), locs, tuple(dom.options)


def compile_profile(ct: _core.Tables, p: Any) -> _core.Profile:
    """The core's ``Profile`` of fighter sheet ``p`` for compiled tables ``ct`` (chars,
    skills and PV by id; the specialisms the rules roll, 0 where the sheet has none)."""
    cp = _core.Profile()
    cp.name, cp.rules_id = p.name, ct.id
    cp.chars = [p.chars.get(n, 0) for n in ct.characteristics]
    cp.skills = [p.skills.get(n, 0) for n in ct.skills]
    cp.specs = [p.specs.get(n, 0) for n in ct.specialisms]
    cp.pv = [p.pv[n] for n in ct.location_names]
    cp.enc_mod, cp.helmet_mod, cp.mounted, cp.height = p.enc_mod, p.helmet_mod, p.mounted, p.height
    cp.risk = fill_from(_core.Risk, p.risk, None)  # counts of dice, as the sheet's RiskSpec
    cp.hands = [-1 if w is None else ct.weapon_ids.index(w) for w in p.hands]
    cp.sheathed = [ct.weapon_ids.index(w) for w in p.sheathed]
    cp.check(ct)
    return cp


# ---------------------------------------------------------------- names and sheets, cached
# What formulas.py (the rules' formulas by name, run by the core) and the native envs and
# agents hand the core: a rule set's ids and compiled sheets, built once.
def _ids(t: Any) -> TableIds:
    """The core's ids of rule set ``t``'s names, cached while ``t`` lives."""
    ids = _IDS.get(t)
    if ids is None:
        ids = _IDS[t] = TableIds(t)
    return ids


def _profile(ct: _core.Tables, p: Any) -> _core.Profile:
    """``p`` compiled for ``ct``, cached while both live (a Profile is frozen)."""
    key = (id(ct), id(p))
    hit = _PROFILES.get(key)
    if hit is None or hit[0]() is not p or hit[1]() is not ct:
        if len(_PROFILES) > 256:  # forget the sheets gone since
            for k in [k for k, v in _PROFILES.items() if v[0]() is None or v[1]() is None]:
                del _PROFILES[k]
        hit = (weakref.ref(p), weakref.ref(ct), compile_profile(ct, p))
        _PROFILES[key] = hit
    return hit[2]


def knockback_rules(k: Any) -> _core.KnockbackRules:
    """The core's [knockback] bands of the rules' section ``k`` alone (its fail limits, half
    points, and AP losses; ``formulas.knockback_band`` takes the section, not the tables, so
    its roll and skill, names, stay unset)."""
    return fill_from(_core.KnockbackRules, k, None, roll=_core.RollSpec(), mounted_skill=-1)

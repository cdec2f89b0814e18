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
from typing import Any, get_args

import numpy as np

from . import _core
from .dice import Dice, LoadedDice
from .ruleset import Category, Maneuver, Trigger, Weapon
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


def core_state(st: Any, ids: Ids | None = None) -> _core.State:
    """The core's board state of Python State ``st`` (fighters, holds, weapons on the
    board, the §5.4 approaches, turn and order): what the core's legality reads."""
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
# Python hands the core its rules once per rule set: it fills the core's plain structs field
# by field from the validated data (names as ids of TableIds, numbers in half points), and
# Tables.seal() checks every id and derives the lookups (docs/native-core.md, "Tables, profiles, formulas").
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


def _fill(obj: Any, **fields: Any) -> Any:
    for k, v in fields.items():
        setattr(obj, k, v)
    return obj


def _roll(ids: TableIds, r: Any) -> _core.RollSpec:
    return _fill(_core.RollSpec(), skill=ids.skill[r.skill],
                 characteristic=ids.characteristic[r.characteristic],
                 specialisms=[ids.specialism[s] for s in getattr(r, "specialisms", ())],
                 bonus=h2(getattr(r, "bonus", 0)))


def _opt(names: list[str], v: str | None) -> int:
    return -1 if v is None else names.index(v)


def _maneuver(ids: TableIds, name: str, m: Any) -> _core.Maneuver:
    """One maneuver, every field of ``ruleset.Maneuver`` (ids, half points)."""
    aim_kind = _core.AIM_LIST if isinstance(m.aim, list) else (
        _core.AIM_ANY if m.aim == "any" else _core.AIM_WHOLE)
    return _fill(
        _core.Maneuver(), name=name, pages=list(m.pages), proposed=list(m.proposed.items()),
        tag_a="A" in m.tags, tag_r="R" in m.tags, ap=m.ap,
        category=_core.CATEGORIES.index(m.category), skill=ids.opt(ids.skill, m.skill),
        characteristic=ids.opt(ids.characteristic, m.characteristic),
        specialisms=[ids.specialism[s] for s in m.specialisms], attack_mod=h2(m.attack_mod),
        aim_kind=aim_kind, aim=[ids.aim[a] for a in m.aim] if aim_kind == _core.AIM_LIST else [],
        has_damage=m.damage is not None, damage=h2(m.damage or 0),
        damage_types=[ids.damage_type[x] for x in m.damage_types], range=m.range,
        may_close=m.may_close, may_advance=m.may_advance, any_direction=m.any_direction,
        may_turn=m.may_turn, reacts_to=[_core.TRIGGERS.index(x) for x in m.reacts_to],
        against=[ids.maneuver[x] for x in m.against], counter=m.counter,
        defence_bonus=h2(m.defence_bonus), bonus_by_attack=m.bonus_by_attack,
        front_arc_only=m.front_arc_only, moves=_opt(_core.MOVES, m.moves),
        self_injury=_opt(_core.BODY_PARTS, m.self_injury),
        self_injury_skill=ids.opt(ids.skill, m.self_injury_skill),
        self_injury_extra=h2(m.self_injury_extra), limb=_opt(_core.LIMBS, m.limb), kick=m.kick,
        usable_when_held=m.usable_when_held, knocks_prone=m.knocks_prone,
        no_defence=m.no_defence, no_knockback=m.no_knockback, ends_hold=m.ends_hold,
        unhorses=m.unhorses, hold=ids.opt(ids.hold_kind, m.hold),
        needs_hold=ids.opt(ids.hold_kind, m.needs_hold),
        mounted=_core.MOUNTED_USES.index(m.mounted),
        has_mounted_attack_mod=m.mounted_attack_mod is not None,
        mounted_attack_mod=h2(m.mounted_attack_mod or 0), available=m.available,
        weapon=_opt(_core.WEAPON_NEEDS, m.weapon), advances=m.advances,
        armed_only=m.armed_only)


def _weapon(ids: TableIds, w: Any) -> _core.Weapon:
    modes = [_fill(_core.WeaponMode(), name=md.name, ap=md.ap, damage=h2(md.damage),
                   damage_type=ids.damage_type[md.damage_type]) for md in w.modes]
    return _fill(_core.Weapon(), name=w.name, kind=_core.WEAPON_KINDS.index(w.kind),
                 skill=ids.skill[w.skill], hands=w.hands, reach=w.reach,
                 attack_mod=h2(w.attack_mod), closing_attack_mod=h2(w.closing_attack_mod),
                 parry_bonus=h2(w.parry_bonus), stuck_penalty=h2(w.stuck_penalty),
                 can_parry=w.can_parry, shield_side_arc=w.block_arc == "shield_side",
                 modes=modes)


def _hold_kind(ids: TableIds, k: Any) -> _core.HoldKind:
    return _fill(_core.HoldKind(), source=k.source, held_attack_mod=h2(k.held_attack_mod),
                 holder_attack_bonus=h2(k.holder_attack_bonus),
                 holder_other_mod=h2(k.holder_other_mod),
                 break_holder_bonus=h2(k.break_holder_bonus), free_arms=k.free_arms,
                 holder_arms=k.holder_arms,
                 held_may=[ids.maneuver[n] for n in k.held_may],
                 held_attacks_barred_from_behind=k.held_attacks_barred_from_behind,
                 painful=k.painful, drops_weapon=k.drops_weapon,
                 lock_location=ids.opt(ids.location, k.lock_location))


def _aim_row(r: Any) -> _core.AimRow:
    return _fill(_core.AimRow(), attack=h2(r.attack), damage=h2(r.damage), pain=h2(r.pain),
                 knockback=h2(r.knockback),
                 has_knockback_mounted=r.knockback_mounted is not None,
                 knockback_mounted=h2(r.knockback_mounted or 0))


def _names_and_rows(ct: _core.Tables, t: Any, ids: TableIds) -> None:
    """The name tables and the per-name rows: maneuvers, aim rows, locations, damage types,
    weapons, hold kinds, follow-ons."""
    d = t.data
    ct.characteristics, ct.skills = list(d.characteristics), list(d.skills)
    ct.specialisms, ct.aim_rows = list(ids.specialism), list(d.aim)
    ct.location_names, ct.damage_type_names = list(t.locations), list(d.damage_types)
    ct.hold_kind_names, ct.weapon_ids = list(d.holds.kinds), list(t.weapon_ids)
    ct.maneuvers = [_maneuver(ids, n, m) for n, m in t.maneuvers.items()]
    ct.aim = [_aim_row(r) for r in d.aim.values()]
    ct.locations = [_fill(_core.Location(), aim=ids.aim[s.aim])
                    for s in d.locations.values()]
    ct.damage_types = [_fill(_core.DamageTypeRow(), pain=h2(x.pain), knockback=h2(x.knockback))
                       for x in d.damage_types.values()]
    ct.weapons = [_weapon(ids, w) for w in d.weapons.values()]
    ct.hold_kinds = [_hold_kind(ids, k) for k in d.holds.kinds.values()]
    ct.follow_ons = [[ids.maneuver[x] for x in t.follow_ons.get(n, ())] for n in t.maneuvers]
    ct.follow_on_defence = [0 if n in d.follow_on_defence else -1 for n in t.maneuvers]


def _turn_attack_body(ct: _core.Tables, d: Any, ids: TableIds) -> None:
    """[dice], [turn], [attack], [encumbrance], [helmets], [damage], [wounds], [soak]."""
    ct.dice = _fill(_core.DiceRules(), die_sides=d.dice.die_sides,
                    per_die=h2(d.dice.points_per_die), max_risk=d.dice.max_risk_dice)
    tr = d.turn
    ct.turn = _fill(_core.TurnRules(), minimum_ap=tr.minimum_ap, turn_limit=tr.turn_limit,
                    ap_rounding=("down", "up", "nearest").index(tr.ap_rounding),
                    unused_ap_lost=tr.unused_ap_lost, ap=_roll(ids, tr.ap),
                    initiative=_roll(ids, tr.initiative))
    a = d.attack
    ct.attack = _fill(
        _core.AttackRules(), hit_requires_higher=a.hit_requires_higher,
        margin_damage_per_point=h2(a.margin_damage_per_point), rear_bonus=h2(a.rear_bonus),
        rear_arc=list(a.rear_arc), closing_requires_front_arc=a.closing_requires_front_arc,
        range1_reaches_same_hex=a.range1_reaches_same_hex,
        leg_grab_pulls_kicker_in=a.leg_grab_pulls_kicker_in, default_aim=ids.aim[a.default_aim],
        whole_body_location=ids.location[a.whole_body_location],
        default_defence=_roll(ids, a.default_defence),
        striking_hand=d.armed.hand_locations.index(a.striking_hand),
        counter_needs_non_phasing=[ids.maneuver[n] for n in a.counter_needs_non_phasing])
    e = d.encumbrance
    ct.encumbrance = _fill(_core.Encumbrance(), band_names=list(e.bands),
                           bands=[h2(v) for v in e.bands.values()],
                           characteristic=ids.characteristic[e.characteristic],
                           martial_arts_multiplier=h2(e.martial_arts_multiplier),
                           multiplied_with=[ids.skill[s] for s in e.multiplied_with])
    hm = d.helmets
    ct.helmets = _fill(_core.Helmets(), characteristic=ids.characteristic[hm.characteristic],
                       material_names=list(hm.materials),
                       material_pv=[h2(x.pv) for x in hm.materials.values()],
                       material_modifier=[h2(x.modifier) for x in hm.materials.values()])
    ct.damage_characteristic = ids.characteristic[d.damage.characteristic]
    ct.damage_resistance = ids.characteristic[d.damage.resistance]
    w = d.wounds
    ct.wounds = _fill(_core.Wounds(), levels=list(w.levels),
                      upper_bounds=[h2(x) for x in w.upper_bounds],
                      impairment=[h2(x) for x in w.impairment], pain=[h2(x) for x in w.pain])
    ct.soak = _fill(_core.SoakRules(), roll=_roll(ids, d.soak.roll),
                    upper_bounds=[h2(x) for x in d.soak.upper_bounds])


def _pain_holds(ct: _core.Tables, d: Any, ids: TableIds) -> None:
    """[pain], [knockback], [holds], [break_hold], [prone], [sides], [mounted]."""
    p = d.pain
    ct.pain = _fill(_core.PainRules(), roll=_roll(ids, p.roll),
                    unconscious_at_most=h2(p.unconscious_at_most),
                    stunned_below=h2(p.stunned_below), staggered_below=h2(p.staggered_below),
                    stun_penalty=h2(p.stun_penalty), stagger_penalty=h2(p.stagger_penalty),
                    stagger_ap_loss=p.stagger_ap_loss,
                    self_injury_pain_roll=p.self_injury_pain_roll)
    k = d.knockback
    ct.knockback = _fill(
        knockback_rules(k), roll=_roll(ids, k.roll), mounted_skill=ids.skill[k.mounted_skill],
        distance=k.distance, holder_knocked_back_releases=k.holder_knocked_back_releases)
    h = d.holds
    ct.holds = _fill(_core.HoldRules(), maintain_ap=h.maintain_ap, release_ap=h.release_ap,
                     break_attempt_bonus=h2(h.break_attempt_bonus), arms=h.arms,
                     one_hold_per_holder=h.one_hold_per_holder,
                     lock_damage_in_holder_phase=h.lock_damage_in_holder_phase,
                     hold_maneuvers_need_the_hold=h.hold_maneuvers_need_the_hold,
                     follow_ups_end_hold=[ids.maneuver[n] for n in h.follow_ups_end_hold])
    b = d.break_hold
    ct.break_hold = _fill(
        _core.BreakHoldRules(), method_names=list(b.methods),
        methods=[_roll(ids, x) for x in b.methods.values()],
        escaper_methods=[ids.method[x] for x in b.escaper_methods],
        holder_methods=[ids.method[x] for x in b.holder_methods],
        holder_method_choice=-1 if b.holder_method_choice == "best"
        else ids.method[b.holder_method_choice])
    ct.prone = _fill(_core.ProneRules(),
                     allowed=[ids.maneuver[n] for n in d.prone.allowed],
                     kick_any_location=d.prone.kick_any_location)
    ct.friendly_attacks = d.sides.friendly_attacks
    mo = d.mounted
    ct.mounted = _fill(
        _core.MountedRules(), close_needs_same_height=mo.close_needs_same_height,
        close_from_other_hex=mo.close_from_other_hex,
        range1_kicks_allowed=mo.range1_kicks_allowed, attack_mod=h2(mo.attack_mod),
        stay_mounted_difficulty=h2(mo.stay_mounted_difficulty),
        stay_mounted=_roll(ids, mo.stay_mounted), pull_down_lands_same=mo.pull_down_lands == "same",
        pull_down_directions=list(mo.pull_down_directions))


def _weapons_movement(ct: _core.Tables, d: Any, ids: TableIds) -> None:
    """[self_injury], [lock_damage], [drop_dodge], [forearm_block], [armed], [movement]."""
    si = d.self_injury
    ct.self_injury = _fill(
        _core.SelfInjuryRules(),
        locations=[ids.opt(ids.location, si.locations.get(p)) for p in _core.BODY_PARTS],
        damage_type=ids.damage_type[si.damage_type], requires_armour=si.requires_armour)
    ct.lock_damage_uses_margin = d.lock_damage.uses_margin
    ct.lock_damage_knockback = d.lock_damage.knockback
    dd = d.drop_dodge
    ct.drop_dodge = _fill(_core.DropDodgeRules(),
                          by_aim=[h2(dd.by_aim.get(a, 0)) for a in d.aim],
                          by_maneuver=[h2(dd.by_maneuver.get(n, 0)) for n in ids.maneuver],
                          has_by_maneuver=[int(n in dd.by_maneuver) for n in ids.maneuver])
    fb = d.forearm_block
    ct.forearm_block = _fill(_core.ForearmBlockRules(), vs_unarmed=h2(fb.bonus_vs_unarmed),
                             vs_close=h2(fb.bonus_vs_close_weapons),
                             vs_melee=h2(fb.bonus_vs_melee_weapons),
                             grab_after_kick_either_arm=fb.grab_after_kick == "either_arm")
    a = d.armed
    ct.armed = _fill(
        _core.ArmedRules(), hand_locations=[ids.location[x] for x in a.hand_locations],
        arm_locations=[ids.location[x] for x in a.arm_locations], reach_beyond=list(a.reach_beyond),
        melee_in_own_hex=a.melee_in_own_hex, advance_into_occupied=a.advance_into_occupied,
        stuck_min_wound=ids.level[a.stuck_min_wound],
        stuck_damage_type=ids.damage_type[a.stuck_damage_type],
        stuck_characteristic=ids.characteristic[a.stuck_characteristic],
        pull_out_worsens=a.pull_out_worsens, stun_drops=[ids.aim[x] for x in a.stun_drops],
        stagger_drops=[ids.aim[x] for x in a.stagger_drops],
        block_follow_ups_other_weapon=[ids.maneuver[x] for x in a.block_follow_ups_other_weapon],
        two_handed_block_bars=[ids.maneuver[x] for x in a.two_handed_block_bars],
        shield_side_hands=[ids.location[x] for x in a.shield_side],
        shield_side_arcs=[list(v) for v in a.shield_side.values()])
    mv = d.movement
    ct.movement = _fill(
        _core.MovementRules(), side_step_offsets_adjacent=list(mv.side_step_offsets_adjacent),
        side_step_offsets_same_hex=list(mv.side_step_offsets_same_hex),
        throw_landing=list(mv.throw_landing), move_forward_max=mv.move_forward_max,
        move_back_max=mv.move_back_max, move_through_occupied=mv.move_through_occupied,
        dodge_moves_only_on_success=mv.dodge_moves_only_on_success,
        dodge_triggers_attacker=mv.dodge_triggers_attacker,
        follow_no_farther=mv.follow_no_farther)


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
    r = p.risk
    cp.risk = _fill(_core.Risk(), ap=r.ap, initiative=r.initiative, damage=r.damage, pain=r.pain,
                    knockback=r.knockback, lock_damage=r.lock_damage)
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
    points, and AP losses; ``formulas.knockback_band`` takes the section, not the tables)."""
    return _fill(_core.KnockbackRules(), off_balance_max_fail=h2(k.off_balance_max_fail),
                 off_balance_ap_loss=k.off_balance_ap_loss,
                 knocked_back_ap_loss=k.knocked_back_ap_loss,
                 knocked_over_min_fail=h2(k.knocked_over_min_fail))

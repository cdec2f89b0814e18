"""The rules' arithmetic by name: basic values, hit, margin, damage, wounds, soak, pain,
knock-back, self-injury and Break Hold (RULES §1.3, §1.8-§1.17, aom315, aom316, aom1d31,
aom1d34, aom322d), computed by the native core.

Each rule is written once, in C++ (``envs/rules/core/formulas.hpp`` and
``state_formulas.hpp``), and the engine resolves with it; this module is its Python face
(issue 15, "Each rule once"): the same names, arguments and results as the Python formulas
it replaces, taking the rules' names, ``Tables`` and ``Profile`` sheets, handing the core their
ids (``_core.formulas``, ``bind_formulas.cpp``; bad names are one ValueError). Two shapes
of a formula exist where callers need one:

* functions of a ``State`` (``attack_basic``, ``defence_basic``, ``attack_modifiers``,
  ``break_hold_basics``, ``fighter_basic``, ``fighter_spec_basic``): the value the engine
  will roll on, with its terms for the event log, read from the state's core fight;
* pure functions of a fighter's sheet (``Profile``) and his current ``penalty`` (wound
  impairment + stagger/stun, :func:`penalty`) named ``*_basic_of``: a hypothetical
  situation (a hit that has not happened yet). They equal the ``State`` form's total, as
  ``tests/rules/test_formulas.py`` checks.

Values are integers in half points (``tables.h2``); a *basic value* is what a roll of risk
``n`` starts from (§1.3: result = basic + 2 x dice - per_die x n).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from .tables import Tables
from .to_core import _ids, _profile, compile_tables, knockback_rules

if TYPE_CHECKING:
    from .fighter import Profile
    from .model import Hold
    from .ruleset import Knockback
    from .to_core import TableIds

__all__ = [
    "aim_attack", "attack_basic", "attack_modifiers", "basic", "break_hold_basics",
    "break_succeeds", "can_soak", "counter_hits", "damage_basic_of", "damage_extra",
    "damage_resistance", "damage_type", "defence_basic", "defence_bonus", "fighter_basic",
    "fighter_spec_basic", "hit_threshold", "hits",
    "knockback_band", "knockback_basic_of", "knockback_extra", "knockback_skill", "pain_basic_of",
    "pain_effect", "pain_extra", "penalty", "roll_result", "self_injury_basic", "soak_basic_of",
    "soak_levels", "spec_basic_of", "wound_level",
]

Terms = list[tuple[str, int]]
_F = _core.formulas


# ---------------------------------------------------------------- names as the core's ids
def _man(ids: TableIds, name: str | None) -> int:
    return ids.get(ids.maneuver, name, "maneuver")


def _loc(ids: TableIds, name: str | None) -> int:
    return ids.get(ids.location, name, "location")


def _dt(ids: TableIds, name: str) -> int:
    return ids.get(ids.damage_type, name, "damage type")


def _roll_id(t: Tables, spec: Any) -> int:
    """The core's id (``_core.ROLLS``) of a roll the rules data describes, by identity."""
    d = t.data
    rolls = {"ap": d.turn.ap, "initiative": d.turn.initiative, "soak": d.soak.roll,
             "pain": d.pain.roll, "knockback": d.knockback.roll,
             "default_defence": d.attack.default_defence, "stay_mounted": d.mounted.stay_mounted}
    for k, name in enumerate(_core.ROLLS):
        if rolls[name] is spec:
            return k
    raise ValueError(f"spec {spec!r}: not one of the rolls the rules data describes "
                     f"({', '.join(_core.ROLLS)})")


def _terms(extra: Sequence[tuple[str, int]]) -> Terms:
    return [(str(k), int(v)) for k, v in extra]


# ---------------------------------------------------------------- rolls (§1.3)
def roll_result(basic_h: int, n: int, dice_sum: Any, per_die_h: int) -> Any:
    """§1.3: a roll risking ``n`` dice scores basic + 2 x the dice's sum (half points) -
    ``per_die_h`` per die risked. ``dice_sum`` may be a number or a numpy array of sums
    (the agents' exact odds tables, ``agents/odds.py``: one core call per sum)."""
    if isinstance(dice_sum, np.ndarray):
        return np.array([_F.roll_result(int(basic_h), int(n), int(v), int(per_die_h))
                         for v in dice_sum.tolist()], dtype=np.int64).reshape(dice_sum.shape)
    return _F.roll_result(int(basic_h), int(n), int(dice_sum), int(per_die_h))


# ---------------------------------------------------------------- basic values (§1.3, §1.8)
def basic(t: Tables, p: Profile, skill: str | None, char: str | None,
          specs: Sequence[str] = (), extra: Sequence[tuple[str, int]] = (),
          worst: int = 0, pen: int = 0, status: str = "") -> tuple[int, Terms]:
    """Basic value (half points) and its terms: skill + specialisms + characteristic +
    modifiers (encumbrance on CO rolls, doubled with Martial Arts, §1.16; a helmet on PE
    rolls, §1.4 aom312) + ``extra`` + the impairment of the ``worst`` wound (§1.14) and the
    stagger/stun penalty ``pen`` named by ``status`` (§1.12). Terms that are 0 are left out
    (skill and characteristic excepted), in this order: the event log shows them."""
    ct, ids = compile_tables(t), _ids(t)
    return _F.basic(ct, _profile(ct, p), ids.get(ids.skill, skill or None, "skill"),
                    ids.get(ids.characteristic, char or None, "characteristic"),
                    [ids.get(ids.specialism, s, "specialism") for s in specs],
                    _terms(extra), worst, pen, status, terms=True)


def penalty(t: Tables, worst: int, pen: int) -> int:
    """What a fighter's condition takes off every roll: the impairment of his worst wound
    (§1.14) plus this turn's stagger/stun penalty (§1.12), half points."""
    return _F.penalty(compile_tables(t), worst, pen)


def spec_basic_of(t: Tables, p: Profile, spec: Any, pen: int = 0,
                  extra: Sequence[tuple[str, int]] = ()) -> int:
    """The basic value of a data-described roll (soak, pain... ``spec`` is the data's own
    section, e.g. ``t.data.soak.roll``) for sheet ``p`` whose condition costs ``pen``
    (:func:`penalty`): its skill, characteristic, specialisms, ``extra`` and bonus."""
    ct = compile_tables(t)
    return _F.spec_basic_of(ct, _profile(ct, p), _roll_id(t, spec), pen, _terms(extra))


# ---------------------------------------------------------------- the State forms (§1.8, aom322d)
# They read the state's core fight (a ``State``'s ``_core``): the board as it stands.
def _fight(s: Any) -> Any:
    """The core fight (``_core.Fight``) of state ``s``."""
    core = getattr(s, "_core", None)
    if core is None:
        raise TypeError(f"formulas: a fight's State (Game.new_state) is needed, not {type(s).__name__}")
    return core


def fighter_basic(s: Any, i: int, skill: str | None, char: str | None,
                  specs: Sequence[str] = (), extra: Sequence[tuple[str, int]] = (),
                  worst: int | None = None) -> tuple[int, Terms]:
    """Basic value (half points) and terms of fighter ``i``'s roll as he stands (what
    ``State.basic`` gave): :func:`basic` of his sheet with his worst wound (``worst``
    overrides it: the rolls a hit forces are made before its own wound impairs, aom1d31,
    aom1d32), his stagger/stun (§1.12) and, on CO rolls, his stuck weapons (§1.15 aom1d35)."""
    ids = _ids(s.t)
    return _F.fighter_basic(_fight(s), i, ids.get(ids.skill, skill or None, "skill"),
                            ids.get(ids.characteristic, char or None, "characteristic"),
                            [ids.get(ids.specialism, x, "specialism") for x in specs],
                            _terms(extra), -1 if worst is None else worst)


def fighter_spec_basic(s: Any, i: int, spec: Any, extra: Sequence[tuple[str, int]] = ()
                       ) -> tuple[int, Terms]:
    """:func:`fighter_basic` of a roll the rules data describes (``spec``, e.g.
    ``t.data.soak.roll``): its skill, characteristic, specialisms, ``extra`` and bonus."""
    return _F.fighter_roll_basic(_fight(s), i, _roll_id(s.t, spec), _terms(extra))


def attack_modifiers(s: Any, x: int, y: int, maneuver: str, location: str | None) -> Terms:
    """The §1.8 modifiers of ``x``'s ``maneuver`` on ``y`` aimed at ``location`` (None:
    unaimed) in the current state: the maneuver's own, aim, rear, holds, mounted (zero ones
    included)."""
    ids = _ids(s.t)
    return _F.attack_modifiers(_fight(s), x, y, _man(ids, maneuver), _loc(ids, location))


def attack_basic(s: Any, x: int, y: int, maneuver: str, location: str | None,
                 option: int = 0) -> tuple[int, Terms]:
    """§1.8 basic attack value (half points) and its terms: skill (+ specialism) + CO (+
    encumbrance, doubled for Martial Arts) + modifiers + wounds and stagger/stun. A weapon
    attack (``option``: its hand and mode) rolls the weapon's skill and adds its attack
    modifier, the closing one when it advances (aom3142, aom3143, aom315)."""
    ids = _ids(s.t)
    return _F.attack_basic(_fight(s), x, y, _man(ids, maneuver), _loc(ids, location), option)


def defence_basic(s: Any, y: int, x: int, rname: str | None, attack: str | None,
                  location: str | None, option: int = 0) -> tuple[int, Terms]:
    """§1.8 defence table (aom315): basic defence (half points) and terms of ``y`` against
    ``x``'s ``attack`` aimed at ``location``, by ``y``'s defensive reaction ``rname`` or,
    for None, the default defence. A Block or Parry (``option``: the hand) rolls the
    weapon's skill and adds its parry bonus (aom315)."""
    ids = _ids(s.t)
    return _F.defence_basic(_fight(s), y, x, _man(ids, rname), _man(ids, attack),
                            _loc(ids, location), option)


def break_hold_basics(s: Any, i: int, h: Hold, method_index: int
                      ) -> tuple[tuple[int, Terms, str], tuple[int, Terms, str]]:
    """(basic, terms, method) of escaper ``i`` breaking hold ``h`` by his method
    ``method_index`` (+ ``holds.break_attempt_bonus`` per earlier attempt) and of the
    holder, who resists with its best method (``break_hold.holder_method_choice`` "best",
    hexdojo) or the one it names (+ the hold kind's ``break_holder_bonus``)."""
    ids = _ids(s.t)
    kind = ids.get(ids.hold_kind, h.kind, "hold kind")
    return _F.break_hold_basics(_fight(s), i, h.holder, kind, h.attempts, method_index)


# ---------------------------------------------------------------- attack and defence (§1.8)
def aim_attack(t: Tables, location: str) -> int:
    """The attack modifier of aiming at ``location`` (aom317: by its aim row)."""
    return _F.aim_attack(compile_tables(t), _loc(_ids(t), location))


def defence_bonus(t: Tables, rname: str, attack: str | None, location: str | None) -> int:
    """The defensive reaction's own bonus (half points, aom315 table): the only part of a
    defence that depends on the attack (Drop Dodge by maneuver or aim, §5.11 PROPOSED;
    Forearm Block reduced against weapons, §5.12 PROPOSED)."""
    ids = _ids(t)
    return _F.defence_bonus(compile_tables(t), _man(ids, rname), _man(ids, attack),
                            _loc(ids, location))


def hit_threshold(t: Tables, reaction: str | None) -> int:
    """How much the attack result must exceed the defence result to hit (aom315): 0 when
    ties hit, 1 (half point) when they do not: against a Leg Grab the grabber wins ties
    (aom3226), and every tie misses with ``attack.hit_requires_higher`` (§5.2 PROPOSED)."""
    return _F.hit_threshold(compile_tables(t), _man(_ids(t), reaction))


def hits(t: Tables, attack_result: int, defence_result: int, reaction: str | None) -> bool:
    """Does an attack hit against the defence ``reaction`` (None: the default defence)?"""
    return _F.hits(compile_tables(t), attack_result, defence_result, _man(_ids(t), reaction))


def counter_hits(attack_result: int, other_result: int) -> bool:
    """§1.6: of two simultaneous attacks, each lands that is at least the other (both on a tie)."""
    return _F.counter_hits(attack_result, other_result)


def break_succeeds(escaper_result: int, holder_result: int) -> bool:
    """aom322d: the escaper must score higher than the holder."""
    return _F.break_succeeds(escaper_result, holder_result)


# ---------------------------------------------------------------- damage and wounds (§1.10)
def damage_type(t: Tables, maneuver: str, option: int) -> str:
    """The damage type of a hit: the striker's choice among the maneuver's types (aom3221)."""
    ct = compile_tables(t)
    return ct.damage_type_names[_F.damage_type(ct, _man(_ids(t), maneuver), option)]


def damage_extra(t: Tables, maneuver: str, margin: int, loc: str, use_margin: bool = True,
                 rating: int | None = None) -> Terms:
    """aom316: the damage roll's modifiers: the maneuver's rating (a weapon attack's:
    ``rating``, its mode's, half points), the attack's margin
    (``attack.margin_damage_per_point`` of it, floored to half points) and the location."""
    ids = _ids(t)
    return _F.damage_extra(compile_tables(t), _man(ids, maneuver), margin, _loc(ids, loc),
                           use_margin, rating)


def damage_basic_of(t: Tables, p: Profile, pen: int, maneuver: str, margin: int, loc: str,
                    use_margin: bool = True, rating: int | None = None) -> int:
    """The basic damage of striker ``p`` (condition ``pen``) hitting ``loc`` by ``margin``
    (a weapon hit: its mode's ``rating``, half points, as the engine's ``HitFrame``)."""
    ct, ids = compile_tables(t), _ids(t)
    return _F.damage_basic_of(ct, _profile(ct, p), pen, _man(ids, maneuver), margin,
                              _loc(ids, loc), use_margin, rating)


def damage_resistance(t: Tables, p: Profile, loc: str) -> int:
    """aom316: what a damage roll must beat: the resistance characteristic + the PV at ``loc``."""
    ct = compile_tables(t)
    return _F.damage_resistance(ct, _profile(ct, p), _loc(_ids(t), loc))


def wound_level(t: Tables, diff: int) -> int:
    """§1.10 wound table: the level (0 None .. fatal) of damage exceeding DR by ``diff``."""
    return _F.wound_level(compile_tables(t), diff)


def can_soak(t: Tables, level: int, ap: int, kind: str = "attack") -> bool:
    """§1.11: a wound from an attack or a lock may be soaked by a victim with the AP."""
    return _F.can_soak(compile_tables(t), level, ap, kind == "self")


def soak_basic_of(t: Tables, p: Profile, pen: int = 0) -> int:
    """The soak roll's basic value for victim ``p`` (condition ``pen``), §1.11."""
    ct = compile_tables(t)
    return _F.soak_basic_of(ct, _profile(ct, p), pen)


def soak_levels(t: Tables, result: int) -> int:
    """§1.11 (aom314c): wound levels removed by a soak roll's result."""
    return _F.soak_levels(compile_tables(t), result)


# ---------------------------------------------------------------- pain (§1.12, aom1d31)
def pain_extra(t: Tables, dtype: str, loc: str, level: int) -> Terms:
    """The pain roll's modifiers: damage type, location and the new wound's level."""
    ids = _ids(t)
    return _F.pain_extra(compile_tables(t), _dt(ids, dtype), _loc(ids, loc), level)


def pain_basic_of(t: Tables, p: Profile, pen: int, dtype: str, loc: str, level: int) -> int:
    """The pain roll's basic value for victim ``p`` (condition ``pen``) of a ``level`` wound."""
    ct, ids = compile_tables(t), _ids(t)
    return _F.pain_basic_of(ct, _profile(ct, p), pen, _dt(ids, dtype), _loc(ids, loc), level)


def pain_effect(t: Tables, result: int) -> str:
    """§1.12 bands of the pain roll: "unconscious", "stunned", "staggered" or "none"."""
    return _F.pain_effect(compile_tables(t), result)


# ---------------------------------------------------------------- knock-back (§1.13, aom1d34)
def knockback_extra(t: Tables, dtype: str, loc: str, mounted: bool) -> Terms:
    """The knock-back roll's modifiers: damage type and location (a rider's own column)."""
    ids = _ids(t)
    return _F.knockback_extra(compile_tables(t), _dt(ids, dtype), _loc(ids, loc), mounted)


def knockback_skill(t: Tables, mounted: bool) -> str:
    """The knock-back roll's skill: Athletics on foot, the data's mounted skill in the saddle."""
    names = list(_ids(t).skill)  # in id order
    return names[_F.knockback_skill(compile_tables(t), mounted)]


def knockback_basic_of(t: Tables, p: Profile, pen: int, dtype: str, loc: str,
                       mounted: bool = False) -> int:
    """The knock-back roll's basic value for victim ``p`` (condition ``pen``)."""
    ct, ids = compile_tables(t), _ids(t)
    return _F.knockback_basic_of(ct, _profile(ct, p), pen, _dt(ids, dtype), _loc(ids, loc),
                                 mounted)


def knockback_band(kb: Knockback, fail: int) -> tuple[str, int, bool]:
    """§1.13 (aom1d34, §5.20): what failing the knock-back roll by ``fail`` half points
    does: (effect, AP lost, knocked over). Knocked back and knocked over also move the
    victim; a victim with fewer AP than it loses falls as well (the caller knows its AP).
    ``kb`` is the rules' [knockback] section (``t.data.knockback``)."""
    return _F.knockback_band(knockback_rules(kb), fail)


# ---------------------------------------------------------------- self-injury (§1.17)
def self_injury_basic(t: Tables, xp: Profile, yp: Profile, maneuver: str, loc: str) -> int | None:
    """§1.17: striking armour hurts: basic damage = the target's DR at ``loc`` - the
    striker's skill (+ the maneuver's extra, e.g. Head Butt); None when the location is
    unarmoured and ``self_injury.requires_armour``."""
    ct, ids = compile_tables(t), _ids(t)
    return _F.self_injury_basic(ct, _profile(ct, xp), _profile(ct, yp), _man(ids, maneuver),
                                _loc(ids, loc))

"""The rules' arithmetic, written once: basic values, hit, margin, damage, wounds, soak,
pain, knock-back, self-injury and Break Hold (RULES §1.3, §1.8-§1.17, aom315, aom316,
aom1d31, aom1d34, aom322d).

Every number comes from the rules data (``Tables``, half points); this module only says how
they combine. The engine resolves with these functions and the scripted agents estimate
with the same ones (``hexdojo.agents.heuristics``), so an estimate can never drift from the
rule it estimates. Two shapes of each formula exist where the agents need one:

* functions of a ``State`` (``attack_basic``, ``defence_basic``, ``break_hold_basics``):
  the value the engine will roll on, with its terms for the event log;
* pure functions of a fighter's sheet (``Profile``) and his current ``penalty`` (wound
  impairment + stagger/stun, :func:`penalty`) named ``*_basic_of``: what the agents memoise
  over hypothetical situations (a hit that has not happened yet). They equal the
  ``State`` form's total, as ``tests/test_formulas.py`` checks.

Values are integers in half points (``tables.h2``); a *basic value* is what a roll of risk
``n`` starts from (§1.3: result = basic + 2 x dice - per_die x n).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .tables import Tables, band, h2
from .weapons import used_weapon

if TYPE_CHECKING:
    from .fighter import Profile
    from .model import Hold
    from .ruleset import Knockback
    from .state import State

Terms = list[tuple[str, int]]


# ---------------------------------------------------------------- rolls (§1.3)
def roll_result(basic_h: int, n: int, dice_sum: Any, per_die_h: int) -> Any:
    """§1.3: a roll risking ``n`` dice scores basic + 2 x the dice's sum (half points) -
    ``per_die_h`` per die risked. ``dice_sum`` may be a number or a numpy array of sums
    (the agents' exact odds tables, ``agents/odds.py``)."""
    return 2 * dice_sum + basic_h - per_die_h * n


# ---------------------------------------------------------------- basic values (§1.3, §1.8)
def basic(t: Tables, p: Profile, skill: str | None, char: str | None,
          specs: Sequence[str] = (), extra: Sequence[tuple[str, int]] = (),
          worst: int = 0, pen: int = 0, status: str = "") -> tuple[int, Terms]:
    """Basic value (half points) and its terms: skill + specialisms + characteristic +
    modifiers (encumbrance on CO rolls, doubled with Martial Arts, §1.16; a helmet on PE
    rolls, §1.4 aom312) + ``extra`` + the impairment of the ``worst`` wound (§1.14) and the
    stagger/stun penalty ``pen`` named by ``status`` (§1.12). Terms that are 0 are left out
    (skill and characteristic excepted), in this order: the event log shows them."""
    data = t.data
    terms: Terms = []
    if skill:
        terms.append((skill, p.skills.get(skill, 0)))
        if specs:
            sp = 0  # p.spec_total(specs), inlined: every roll comes here
            for name in specs:
                sp += p.specs.get(name, 0)
            if sp:
                terms.append(("specialism", sp))
    if char:
        terms.append((char, p.chars.get(char, 0)))
        enc = data.encumbrance
        if char == enc.characteristic and p.enc_mod:
            mult = enc.martial_arts_multiplier if skill in enc.multiplied_with else 1
            terms.append(("encumbrance", int(p.enc_mod * mult)))
        if p.helmet_mod and char == data.helmets.characteristic:
            terms.append(("helmet", p.helmet_mod))
    for e in extra:
        if e[1]:
            terms.append(e)
    imp = t.impairment[worst]
    if imp:
        terms.append(("wounds", imp))
    if pen:
        terms.append((status or "penalty", pen))
    total = 0
    for _, v in terms:
        total += v
    return total, terms


def penalty(t: Tables, worst: int, pen: int) -> int:
    """What a fighter's condition takes off every roll: the impairment of his worst wound
    (§1.14) plus this turn's stagger/stun penalty (§1.12), half points."""
    return t.impairment[worst] + pen


def spec_extra(spec: Any, extra: Sequence[tuple[str, int]] = ()) -> Terms:
    """The modifiers of a roll described in the rules data: ``extra`` and its ``bonus``."""
    return list(extra) + [("bonus", h2(getattr(spec, "bonus", 0)))]


def spec_basic_of(t: Tables, p: Profile, spec: Any, pen: int = 0,
                  extra: Sequence[tuple[str, int]] = ()) -> int:
    """The basic value of a data-described roll (soak, pain...) for sheet ``p`` whose
    condition costs ``pen`` (:func:`penalty`)."""
    return basic(t, p, spec.skill, spec.characteristic, spec.specialisms,
                 spec_extra(spec, extra))[0] + pen


# ---------------------------------------------------------------- attack and defence (§1.8)
def attack_modifiers(s: State, x: int, y: int, maneuver: str, location: str | None) -> Terms:
    """The §1.8 modifiers of ``x``'s ``maneuver`` on ``y`` aimed at ``location`` (None:
    unaimed) in the current state: the maneuver's own, aim, rear, holds, mounted."""
    t = s.t
    m = t.maneuvers[maneuver]
    extra: Terms = [(maneuver, h2(m.attack_mod))]
    if location is not None:
        extra.append((f"aim {location}", aim_attack(t, location)))
    if s.arc(x, y) in t.rear_arc:
        extra.append(("rear", h2(t.data.attack.rear_bonus)))  # aom315
    h_on = s.hold_on(x)
    if h_on is not None and h_on.holder == y:
        extra.append((f"held ({h_on.kind})", h2(t.hold_kinds[h_on.kind].held_attack_mod)))
    h_by = s.hold_by(x)
    if h_by is not None:
        kind = t.hold_kinds[h_by.kind]
        if h_by.held == y:
            extra.append(("holding", h2(kind.holder_attack_bonus)))  # aom3225
        else:
            extra.append((f"holding ({h_by.kind})", h2(kind.holder_other_mod)))  # aom322a
    f = s.fighters[x]
    if f.mounted and m.mounted == "same_height":
        mod = t.data.mounted.attack_mod if m.mounted_attack_mod is None else m.mounted_attack_mod
        extra.append(("mounted", h2(mod)))  # aom3221, aom3225 (-2); aom3216 Grapple 0
    return extra


def aim_attack(t: Tables, location: str) -> int:
    """The attack modifier of aiming at ``location`` (aom317: by its aim row)."""
    return t.aim[t.loc_aim[location]].attack


def attack_basic(s: State, x: int, y: int, maneuver: str, location: str | None,
                 option: int = 0) -> tuple[int, Terms]:
    """§1.8 basic attack value (half points) and its terms: skill (+ specialism) + CO (+
    encumbrance, doubled for Martial Arts) + modifiers + wounds and stagger/stun. A weapon
    attack (``option``: its hand and mode) rolls the weapon's skill and adds its attack
    modifier, the closing one when it advances (aom3142, aom3143, aom315)."""
    m = s.t.maneuvers[maneuver]
    extra = attack_modifiers(s, x, y, maneuver, location)
    skill = m.skill
    if m.weapon is not None:
        wid = used_weapon(s, x, maneuver, option)
        if wid is not None:
            w = s.t.weapons[wid]
            skill = w.skill
            extra.append((w.name, h2(w.closing_attack_mod if m.advances else w.attack_mod)))
    return s.basic(x, skill, m.characteristic, m.specialisms, extra)


def defence_basic(s: State, y: int, x: int, rname: str | None, attack: str | None,
                  location: str | None, option: int = 0) -> tuple[int, Terms]:
    """§1.8 defence table (aom315): basic defence (half points) and terms of ``y`` against
    ``x``'s ``attack`` aimed at ``location``, by ``y``'s defensive reaction ``rname`` or,
    for None, the default defence. A Block or Parry (``option``: the hand) rolls the
    weapon's skill and adds its parry bonus (aom315)."""
    t = s.t
    extra: Terms = []
    h_by = s.hold_by(y)
    if h_by is not None and h_by.held != x:
        extra.append((f"holding ({h_by.kind})", h2(t.hold_kinds[h_by.kind].holder_other_mod)))
    if rname is None:
        d = t.data.attack.default_defence
        extra.append(("bonus", h2(d.bonus)))
        return s.basic(y, d.skill, d.characteristic, d.specialisms, extra)
    m = t.maneuvers[rname]
    extra.append((rname, defence_bonus(t, rname, attack, location)))
    skill = m.skill
    if m.weapon is not None:
        wid = used_weapon(s, y, rname, option)
        if wid is not None:
            w = t.weapons[wid]
            skill = w.skill
            extra.append((f"{w.name} parry bonus", h2(w.parry_bonus)))
    return s.basic(y, skill, m.characteristic, m.specialisms, extra)


def defence_bonus(t: Tables, rname: str, attack: str | None, location: str | None) -> int:
    """The defensive reaction's own bonus (half points, aom315 table): the only part of a
    defence that depends on the attack (Drop Dodge by maneuver or aim, §5.11 PROPOSED)."""
    m = t.maneuvers[rname]
    if m.bonus_by_attack:
        dd = t.data.drop_dodge
        if attack in dd.by_maneuver:
            return h2(dd.by_maneuver[attack or ""])
        aim = t.loc_aim[location] if location is not None else t.data.attack.default_aim
        return h2(dd.by_aim.get(aim, 0))
    if m.category == "block":
        fb = t.data.forearm_block
        need = t.maneuvers[attack].weapon if attack in t.maneuvers else None
        if need == "close":  # §5.12 PROPOSED: reduced against weapons
            return h2(fb.bonus_vs_close_weapons)
        if need == "melee":
            return h2(fb.bonus_vs_melee_weapons)
        return h2(fb.bonus_vs_unarmed)
    return h2(m.defence_bonus)


def hit_threshold(t: Tables, reaction: str | None) -> int:
    """How much the attack result must exceed the defence result to hit (aom315): 0 when
    ties hit, 1 (half point) when they do not: against a Leg Grab the grabber wins ties
    (aom3226), and every tie misses with ``attack.hit_requires_higher`` (§5.2 PROPOSED)."""
    if reaction is not None and t.maneuvers[reaction].category == "leg_grab":
        return 1
    return 1 if t.data.attack.hit_requires_higher else 0


def hits(t: Tables, attack_result: int, defence_result: int, reaction: str | None) -> bool:
    """Does an attack hit against the defence ``reaction`` (None: the default defence)?"""
    return attack_result - defence_result >= hit_threshold(t, reaction)


def counter_hits(attack_result: int, other_result: int) -> bool:
    """§1.6: of two simultaneous attacks, each lands that is at least the other (both on a tie)."""
    return attack_result >= other_result


def break_succeeds(escaper_result: int, holder_result: int) -> bool:
    """aom322d: the escaper must score higher than the holder."""
    return escaper_result > holder_result


# ---------------------------------------------------------------- damage and wounds (§1.10)
def damage_type(t: Tables, maneuver: str, option: int) -> str:
    """The damage type of a hit: the striker's choice among the maneuver's types (aom3221)."""
    types = t.maneuvers[maneuver].damage_types
    return types[min(option, len(types) - 1)]


def damage_extra(t: Tables, maneuver: str, margin: int, loc: str, use_margin: bool = True,
                 rating: int | None = None) -> Terms:
    """aom316: the damage roll's modifiers: the maneuver's rating (a weapon attack's:
    ``rating``, its mode's, half points), the attack's margin
    (``attack.margin_damage_per_point`` of it, floored to half points) and the location."""
    m = t.maneuvers[maneuver]
    per_point = t.data.attack.margin_damage_per_point
    return [("rating", h2(m.damage or 0) if rating is None else rating),
            ("margin", int(margin * per_point) if use_margin else 0),
            (f"location {loc}", t.aim[t.loc_aim[loc]].damage)]


def damage_basic_of(t: Tables, p: Profile, pen: int, maneuver: str, margin: int, loc: str,
                    use_margin: bool = True, rating: int | None = None) -> int:
    """The basic damage of striker ``p`` (condition ``pen``) hitting ``loc`` by ``margin``
    (a weapon hit: its mode's ``rating``, half points, as the engine's ``HitFrame``)."""
    return basic(t, p, None, t.data.damage.characteristic, (),
                 damage_extra(t, maneuver, margin, loc, use_margin, rating))[0] + pen


def damage_resistance(t: Tables, p: Profile, loc: str) -> int:
    """aom316: what a damage roll must beat: the resistance characteristic + the PV at ``loc``."""
    return p.char(t.data.damage.resistance) + p.pv[loc]


def wound_level(t: Tables, diff: int) -> int:
    """§1.10 wound table: the level (0 None .. fatal) of damage exceeding DR by ``diff``."""
    return band(diff, t.wound_bounds)


def can_soak(t: Tables, level: int, ap: int, kind: str = "attack") -> bool:
    """§1.11: a wound from an attack or a lock may be soaked by a victim with the AP."""
    return level > 0 and kind != "self" and ap >= t.maneuvers[t.soak].ap


def soak_basic_of(t: Tables, p: Profile, pen: int = 0) -> int:
    """The soak roll's basic value for victim ``p`` (condition ``pen``), §1.11."""
    return spec_basic_of(t, p, t.data.soak.roll, pen)


def soak_levels(t: Tables, result: int) -> int:
    """§1.11 (aom314c): wound levels removed by a soak roll's result."""
    return band(result, t.soak_bounds)


# ---------------------------------------------------------------- pain (§1.12, aom1d31)
def pain_extra(t: Tables, dtype: str, loc: str, level: int) -> Terms:
    """The pain roll's modifiers: damage type, location and the new wound's level."""
    return [(dtype, h2(t.data.damage_types[dtype].pain)),
            (f"location {loc}", t.aim[t.loc_aim[loc]].pain),
            (t.wound_levels[level], t.wound_pain[level])]


def pain_basic_of(t: Tables, p: Profile, pen: int, dtype: str, loc: str, level: int) -> int:
    """The pain roll's basic value for victim ``p`` (condition ``pen``) of a ``level`` wound."""
    return spec_basic_of(t, p, t.data.pain.roll, pen, pain_extra(t, dtype, loc, level))


def pain_effect(t: Tables, result: int) -> str:
    """§1.12 bands of the pain roll: "unconscious", "stunned", "staggered" or "none"."""
    p = t.data.pain
    if result <= h2(p.unconscious_at_most):
        return "unconscious"
    if result < h2(p.stunned_below):
        return "stunned"
    if result < h2(p.staggered_below):
        return "staggered"
    return "none"


# ---------------------------------------------------------------- knock-back (§1.13, aom1d34)
def knockback_extra(t: Tables, dtype: str, loc: str, mounted: bool) -> Terms:
    """The knock-back roll's modifiers: damage type and location (a rider's own column)."""
    row = t.data.aim[t.loc_aim[loc]]
    loc_mod = h2(row.knockback_mounted if mounted and row.knockback_mounted is not None
                 else row.knockback)
    return [(dtype, h2(t.data.damage_types[dtype].knockback)), (f"location {loc}", loc_mod)]


def knockback_skill(t: Tables, mounted: bool) -> str | None:
    """The knock-back roll's skill: Athletics on foot, the data's mounted skill in the saddle."""
    kb = t.data.knockback
    return kb.mounted_skill if mounted else kb.roll.skill


def knockback_basic_of(t: Tables, p: Profile, pen: int, dtype: str, loc: str,
                       mounted: bool = False) -> int:
    """The knock-back roll's basic value for victim ``p`` (condition ``pen``)."""
    kb = t.data.knockback
    return basic(t, p, knockback_skill(t, mounted), kb.roll.characteristic, kb.roll.specialisms,
                 knockback_extra(t, dtype, loc, mounted))[0] + pen


def knockback_band(kb: Knockback, fail: int) -> tuple[str, int, bool]:
    """§1.13 (aom1d34, §5.20): what failing the knock-back roll by ``fail`` half points
    does: (effect, AP lost, knocked over). Knocked back and knocked over also move the
    victim; a victim with fewer AP than it loses falls as well (the caller knows its AP)."""
    if fail <= 0:
        return "none", 0, False
    if fail <= h2(kb.off_balance_max_fail):
        return "off balance", kb.off_balance_ap_loss, False
    if fail < h2(kb.knocked_over_min_fail):
        return "knocked back", kb.knocked_back_ap_loss, False
    return "knocked over", kb.knocked_back_ap_loss, True


# ---------------------------------------------------------------- self-injury (§1.17)
def self_injury_basic(t: Tables, xp: Profile, yp: Profile, maneuver: str, loc: str) -> int | None:
    """§1.17: striking armour hurts: basic damage = the target's DR at ``loc`` - the
    striker's skill (+ the maneuver's extra, e.g. Head Butt); None when the location is
    unarmoured and ``self_injury.requires_armour``."""
    m = t.maneuvers[maneuver]
    skill = xp.skill(m.self_injury_skill) + xp.spec_total(m.specialisms)
    value = damage_resistance(t, yp, loc) - skill + h2(m.self_injury_extra)
    armoured = yp.pv[loc] > 0
    return value if (armoured or not t.data.self_injury.requires_armour) else None


# ---------------------------------------------------------------- Break Hold (aom322d)
def break_hold_basics(s: State, i: int, h: Hold, method_index: int
                      ) -> tuple[tuple[int, Terms, str], tuple[int, Terms, str]]:
    """(basic, terms, method) of escaper ``i`` breaking hold ``h`` by his method
    ``method_index`` (+ ``holds.break_attempt_bonus`` per earlier attempt) and of the
    holder, who resists with its best method (``break_hold.holder_method_choice`` "best",
    hexdojo) or the one it names (+ the hold kind's ``break_holder_bonus``)."""
    t = s.t
    bh = t.data.break_hold
    kind = t.hold_kinds[h.kind]
    method = bh.escaper_methods[method_index]
    spec = bh.methods[method]
    eb, eterms = s.basic(i, spec.skill, spec.characteristic, (),
                         [("earlier attempts", h2(t.data.holds.break_attempt_bonus) * h.attempts)])
    best = None
    choice = bh.holder_method_choice
    for hm in bh.holder_methods if choice == "best" else [choice]:
        hs = bh.methods[hm]
        hb, hterms = s.basic(h.holder, hs.skill, hs.characteristic, (),
                             [(f"{h.kind} hold", h2(kind.break_holder_bonus))])
        if best is None or hb > best[0]:
            best = (hb, hterms, hm)
    assert best is not None
    return (eb, eterms, method), best

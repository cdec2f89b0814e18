"""Loading and validating the rules data (issue: rules as data).

The shipped ``data/rules.toml`` holds every number, table and graph edge of the rules. A
designer overrides any value from a TOML file of the same layout; the merged result is
validated field by field, and errors name the file, the field, the bad value and what is
allowed. The rule set's id is a content hash, so results can be stamped with it.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .creation import creation_problems
from .messages import format_validation_error

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib

DATA_DIR = Path(__file__).parent / "data"
RULES_FILE = DATA_DIR / "rules.toml"


class RulesError(ValueError):
    """A rules or fighter file is invalid; the message names file, field, value, allowed."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


@dataclass(frozen=True)
class Names:
    """Field metadata: the field holds a name (or names) of the rules table ``table``.

    Declared here once, it tells the bridge to the core (``native.fill_from``) which id table
    turns the name into the core's int id (``native.TableIds.<table>``): a field's type is its
    whole crossing (a name by this, a float as half points, a Literal by its position), so a
    new rules key needs no line in the bridge (issue 32). Validation ignores it.
    """

    table: str


Skill = Annotated[str, Names("skill")]
Characteristic = Annotated[str, Names("characteristic")]
Specialism = Annotated[str, Names("specialism")]
ManeuverName = Annotated[str, Names("maneuver")]
LocationName = Annotated[str, Names("location")]
AimName = Annotated[str, Names("aim")]
DamageTypeName = Annotated[str, Names("damage_type")]
HoldKindName = Annotated[str, Names("hold_kind")]
WoundLevel = Annotated[str, Names("level")]
MethodName = Annotated[str, Names("method")]
Hand = Annotated[str, Names("hand")]  # one of armed.hand_locations: 0 right, 1 left


class RollSpec(_Model):
    skill: Skill
    characteristic: Characteristic
    specialisms: list[Specialism] = Field(default_factory=list)
    bonus: float = 0


class AimRow(_Model):
    attack: float
    damage: float
    pain: float
    knockback: float
    knockback_mounted: float | None = None  # None: as on foot (aom1d34: "Leg (on foot)")


class LocationSpec(_Model):
    aim: AimName
    armour: Literal["helmet", "body"]


class DamageType(_Model):
    pain: float
    knockback: float


class Dice(_Model):
    die_sides: int = Field(ge=2, le=20)
    points_per_die: float = Field(ge=0)
    max_risk_dice: int = Field(ge=0, le=12)


class TurnRules(_Model):
    minimum_ap: int = Field(ge=0)
    ap_rounding: Literal["down", "up", "nearest"]
    unused_ap_lost: bool
    turn_limit: int = Field(ge=1, le=10_000)
    ap: RollSpec
    initiative: RollSpec


class AttackRules(_Model):
    hit_requires_higher: bool
    margin_damage_per_point: float
    rear_bonus: float
    rear_arc: list[int]
    closing_requires_front_arc: bool
    range1_reaches_same_hex: bool
    leg_grab_pulls_kicker_in: bool
    default_aim: AimName
    whole_body_location: LocationName
    default_defence: RollSpec
    striking_hand: Hand
    counter_needs_non_phasing: list[ManeuverName]

    @field_validator("rear_arc")
    @classmethod
    def _arc(cls, v: list[int]) -> list[int]:
        bad = [d for d in v if d not in range(6)]
        if bad:
            raise ValueError(f"relative directions must be 0..5 (0 = front), got {bad}")
        return v


class Creation(_Model):
    """§1.2 character-creation limits (aom192, aom195), checked on every fighter sheet."""

    enforce: bool
    base_limit: float
    talent_bonus: float
    limitation_penalty: float
    broad_worth: float = Field(gt=0)
    narrow_worth: float = Field(gt=0)
    governing: dict[str, list[str]]


class SpecialismSpec(_Model):
    """The skill a specialism belongs to and whether its area is broad or narrow (aom195)."""

    skill: str
    area: Literal["broad", "narrow"]


class Encumbrance(_Model):
    bands: dict[str, float]
    characteristic: Characteristic
    martial_arts_multiplier: float
    multiplied_with: list[Skill]


class HelmetMaterial(_Model):
    pv: float = Field(ge=0, le=20)
    modifier: float


class Helmets(_Model):
    characteristic: Characteristic
    materials: dict[str, HelmetMaterial]


class DamageRules(_Model):
    characteristic: Characteristic
    resistance: Characteristic


class Wounds(_Model):
    levels: list[str]
    upper_bounds: list[float]
    impairment: list[float]
    pain: list[float]


class Soak(_Model):
    roll: RollSpec
    upper_bounds: list[float]


class Pain(_Model):
    roll: RollSpec
    unconscious_at_most: float
    stunned_below: float
    staggered_below: float
    stun_penalty: float
    stagger_penalty: float
    stagger_ap_loss: int = Field(ge=0)
    self_injury_pain_roll: bool


class Knockback(_Model):
    roll: RollSpec
    mounted_skill: Skill
    off_balance_max_fail: float
    off_balance_ap_loss: int = Field(ge=0)
    knocked_back_ap_loss: int = Field(ge=0)
    knocked_over_min_fail: float
    distance: int = Field(ge=0, le=3)
    holder_knocked_back_releases: bool


class HoldKind(_Model):
    source: str
    held_attack_mod: float
    held_may: list[ManeuverName]
    held_attacks_barred_from_behind: bool = False
    free_arms: int = Field(ge=0, le=2)
    holder_attack_bonus: float
    holder_arms: int = Field(default=0, ge=0, le=2)
    holder_other_mod: float
    break_holder_bonus: float
    painful: bool
    drops_weapon: bool = False  # the held arm drops what its hand holds (aom3227)
    #: where a painful lock's repeat damage lands (None: the held part)
    lock_location: LocationName | None = None


class Holds(_Model):
    maintain_ap: int = Field(ge=0)
    release_ap: int = Field(ge=0)
    one_hold_per_holder: bool
    break_attempt_bonus: float
    lock_damage_in_holder_phase: bool
    follow_ups_end_hold: list[ManeuverName]
    hold_maneuvers_need_the_hold: bool
    arms: int = Field(ge=0, le=2)
    kinds: dict[str, HoldKind]


class Method(_Model):
    skill: Skill
    characteristic: Characteristic


class BreakHold(_Model):
    escaper_methods: list[MethodName]
    holder_methods: list[MethodName]
    holder_method_choice: str
    methods: dict[str, Method]


class Prone(_Model):
    stand_up_ap: int = Field(ge=0)
    allowed: list[ManeuverName]
    kick_any_location: bool


class Sides(_Model):
    friendly_attacks: bool


class Mounted(_Model):
    close_needs_same_height: bool
    close_from_other_hex: bool
    attack_mod: float
    range1_kicks_allowed: bool
    stay_mounted_difficulty: float
    stay_mounted: RollSpec
    pull_down_lands: Literal["adjacent", "same"]
    pull_down_directions: list[int]


class SelfInjury(_Model):
    locations: dict[Literal["foot", "head"], LocationName]  # a hand: the striking one (attack.striking_hand)
    damage_type: DamageTypeName
    requires_armour: bool


class LockDamage(_Model):
    uses_margin: bool
    knockback: bool


class DropDodge(_Model):
    by_aim: dict[str, float]
    by_maneuver: dict[str, float]


class ForearmBlock(_Model):
    bonus_vs_unarmed: float
    bonus_vs_close_weapons: float = 0  # §5.12 PROPOSED
    bonus_vs_melee_weapons: float = -2  # §5.12 PROPOSED
    grab_after_kick: Literal["none", "either_arm"] = "none"  # aom3225 reading (issue 28)


class WeaponMode(_Model):
    """One way of attacking with a weapon (aom3142: AP 2-4 by mode): its AP, damage
    rating and damage type."""

    name: str
    ap: int = Field(ge=0, le=20)
    damage: float
    damage_type: DamageTypeName


class Weapon(_Model):
    """A weapon as data (§1.10, §1.15, §2.1, aom3142, aom3145, aom314a). ``kind``: "close"
    (a close-combat weapon: Close Combat Weapon Attack, range 0), "melee" (Stand and attack,
    Advance and attack into the front hexes) or "shield" (blocks only)."""

    name: str
    pages: list[str] = Field(default_factory=list)
    kind: Literal["close", "melee", "shield"]
    skill: Skill
    hands: Literal[1, 2] = 1
    reach: Literal[1, 2] = 1  # 2: also the three hexes beyond the front three (polearm)
    attack_mod: float = 0  # stationary: Stand and attack, Close Combat Weapon Attack
    closing_attack_mod: float = 0  # Advance and attack (aom315: +1/2 closing)
    modes: list[WeaponMode] = Field(default_factory=list)
    parry_bonus: float = 0
    can_parry: bool = True
    block_arc: Literal["front", "shield_side"] = "front"
    stuck_penalty: float = 0  # §1.15: CO penalty while stuck in a victim (Impaling)
    proposed: dict[str, str] = Field(default_factory=dict)


class Armed(_Model):
    """How weapons work in a fight (§1.7, §1.12, §1.15, §2.1, §3): see rules.toml [armed]."""

    hand_locations: list[LocationName]
    arm_locations: list[LocationName]
    melee_in_own_hex: bool
    reach_beyond: list[int]
    advance_into_occupied: bool
    stuck_min_wound: WoundLevel
    stuck_damage_type: DamageTypeName
    stuck_characteristic: Characteristic
    pull_out_worsens: int = Field(ge=0, le=6)
    stun_drops: list[AimName]
    stagger_drops: list[AimName]
    block_follow_ups_other_weapon: list[ManeuverName]
    two_handed_block_bars: list[ManeuverName]
    shield_side: dict[Hand, list[int]]


class Movement(_Model):
    side_step_offsets_adjacent: list[int]
    side_step_offsets_same_hex: list[int]
    move_forward_max: int = Field(ge=0, le=6)
    move_back_max: int = Field(ge=0, le=6)
    move_through_occupied: bool
    dodge_moves_only_on_success: bool
    dodge_triggers_attacker: bool
    follow_no_farther: bool
    throw_landing: list[int]


Category = Literal[
    "move", "turn", "soak", "stand", "strike", "grab", "leg_grab", "lock", "throw",
    "pull_down", "dodge", "block", "break", "weapon", "speak",
    "weapon_block", "parry", "ready", "drop", "pull_out",
]
Trigger = Literal["closing", "attack", "movement", "adjacent_entry", "held", "hit", "follow",
                  "zone_entry", "ready"]


class Maneuver(_Model):
    pages: list[str]
    tags: list[Literal["A", "R", "F"]]
    ap: int | None = Field(None, ge=0, le=20)  # None only for Stand up (prone.stand_up_ap)
    category: Category
    skill: Skill | None = None
    characteristic: Characteristic | None = None
    specialisms: list[Specialism] = Field(default_factory=list)
    attack_mod: float = 0
    aim: Literal["any", "whole"] | list[str] = "whole"
    damage: float | None = None
    damage_types: list[DamageTypeName] = Field(default_factory=list)
    range: Literal[0, 1] = 0
    may_close: bool = False
    may_advance: bool = False
    any_direction: bool = False
    may_turn: bool = False
    reacts_to: list[Trigger] = Field(default_factory=list)
    against: list[ManeuverName] = Field(default_factory=list)
    counter: bool = False
    defence_bonus: float = 0
    bonus_by_attack: bool = False  # the defence bonus comes from [drop_dodge] by the attack
    front_arc_only: bool = False
    moves: Literal["away", "side", "toward"] | None = None
    self_injury: Literal["hand", "foot", "head"] | None = None
    self_injury_skill: Skill | None = None
    self_injury_extra: float = 0
    limb: Literal["arm", "leg", "head"] | None = None
    kick: bool = False
    usable_when_held: bool = False
    knocks_prone: bool = False
    no_defence: bool = False
    no_knockback: bool = False
    ends_hold: bool = False
    unhorses: bool = False
    hold: HoldKindName | None = None
    needs_hold: HoldKindName | None = None
    mounted: Literal["allowed", "same_height", "no"] = "allowed"
    mounted_attack_mod: float | None = None  # None: the [mounted] attack_mod
    available: bool = True  # false: out of this simulator's scope (Speak)
    #: the weapon in hand it needs: "melee", "close", "block" (any weapon or shield) or
    #: "parry" (a weapon that can parry); its option then names the hand (and the mode)
    weapon: Literal["melee", "close", "block", "parry"] | None = None
    advances: bool = False  # always steps one hex forward first (Advance and attack, aom3143)
    armed_only: bool = False  # only of use with weapons (not in the unarmed action catalogue)
    proposed: dict[str, str] = Field(default_factory=dict)


class RulesData(_Model):
    version: str
    name: str
    characteristics: list[str]
    skills: list[str]
    dice: Dice
    turn: TurnRules
    attack: AttackRules
    encumbrance: Encumbrance
    armour_materials: dict[str, float]
    creation: Creation
    specialisms: dict[str, SpecialismSpec]
    helmets: Helmets
    aim: dict[str, AimRow]
    locations: dict[str, LocationSpec]
    damage_types: dict[str, DamageType]
    damage: DamageRules
    wounds: Wounds
    soak: Soak
    pain: Pain
    knockback: Knockback
    holds: Holds
    break_hold: BreakHold
    prone: Prone
    sides: Sides
    mounted: Mounted
    self_injury: SelfInjury
    lock_damage: LockDamage
    drop_dodge: DropDodge
    forearm_block: ForearmBlock
    movement: Movement
    follow_ons: dict[str, list[str]]
    follow_on_defence: dict[str, Literal["blocked_limb"]]
    maneuvers: dict[str, Maneuver]
    armed: Armed
    weapons: dict[str, Weapon]


def read_toml(path: str | Path) -> dict[str, Any]:
    """Read a TOML file; a missing, unreadable, non-UTF-8 or non-TOML file is a RulesError
    naming the file (tomllib decodes UTF-8 itself, so a latin-1 or binary file raises
    UnicodeDecodeError, not TOMLDecodeError)."""
    p = Path(path)
    try:
        with p.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise RulesError(f"{p}: file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{p}: not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise RulesError(f"{p}: not a UTF-8 text file (byte {exc.object[exc.start]:#04x} at "
                         f"offset {exc.start}); TOML files must be UTF-8") from None
    except OSError as exc:
        raise RulesError(f"{p}: cannot read: {exc.strerror or exc}") from None


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """Tables merge key by key; any other value (lists included) is replaced."""
    out = copy.deepcopy(dict(base))
    for key, value in override.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


class _Problems(list[str]):
    """The problems found in the rules data, one line each."""

    def need(self, field: str, value: str, allowed: Any) -> None:
        """``value`` (of ``field``) must be one of ``allowed``."""
        if value not in allowed:
            self.append(f"  field '{field}': value {value!r}: unknown; allowed: {sorted(allowed)}")


def _check_names(data: RulesData, source: str) -> None:
    """Cross-references between tables: every name used must be defined."""
    problems = _Problems()
    _maneuver_names(data, problems)
    _table_names(data, problems)
    _other_checks(data, problems)
    if problems:
        raise RulesError(f"{source}: invalid rules data\n" + "\n".join(problems))


def _maneuver_names(data: RulesData, problems: _Problems) -> None:
    """Follow-ons, the one soak maneuver, each maneuver's names and AP cost."""
    maneuvers = set(data.maneuvers)
    need = problems.need
    for after, nexts in data.follow_ons.items():
        need(f"follow_ons.{after}", after, maneuvers)
        for n in nexts:
            need(f"follow_ons.{after}", n, maneuvers)
    for after in data.follow_on_defence:
        need("follow_on_defence", after, maneuvers)
    soakers = [n for n, m in data.maneuvers.items() if m.category == "soak"]
    if len(soakers) != 1:
        problems.append(f"  field 'maneuvers': value {soakers!r}: exactly one maneuver of category 'soak'")
    for name, m in data.maneuvers.items():
        if m.ap is None and m.category != "stand":
            problems.append(f"  field 'maneuvers.{name}.ap': missing; every maneuver needs an AP cost")
        if isinstance(m.aim, list):
            for a in m.aim:
                need(f"maneuvers.{name}.aim", a, data.aim)
        for t in m.damage_types:
            need(f"maneuvers.{name}.damage_types", t, data.damage_types)
        for a in m.against:
            need(f"maneuvers.{name}.against", a, maneuvers)
        if m.hold is not None:
            need(f"maneuvers.{name}.hold", m.hold, data.holds.kinds)
        if m.needs_hold is not None:
            need(f"maneuvers.{name}.needs_hold", m.needs_hold, data.holds.kinds)
        if m.skill is not None:
            need(f"maneuvers.{name}.skill", m.skill, data.skills)
        if m.characteristic is not None:
            need(f"maneuvers.{name}.characteristic", m.characteristic, data.characteristics)
        if m.category in ("strike", "grab", "lock", "throw", "pull_down") and m.skill is None \
                and m.weapon is None:
            problems.append(f"  field 'maneuvers.{name}.skill': an attack needs a skill")


def _table_names(data: RulesData, problems: _Problems) -> None:
    """Locations, aims, self-injury, holds, prone and Break Hold names."""
    maneuvers = set(data.maneuvers)
    need = problems.need
    for loc, spec in data.locations.items():
        need(f"locations.{loc}.aim", spec.aim, data.aim)
    need("attack.default_aim", data.attack.default_aim, data.aim)
    need("attack.whole_body_location", data.attack.whole_body_location, data.locations)
    for part, loc in data.self_injury.locations.items():
        need(f"self_injury.locations.{part}", loc, data.locations)
    for kind, hk in data.holds.kinds.items():
        if hk.lock_location is not None:
            need(f"holds.kinds.{kind}.lock_location", hk.lock_location, data.locations)
        for n in hk.held_may:
            need(f"holds.kinds.{kind}.held_may", n, maneuvers)
    for n in data.prone.allowed:
        need("prone.allowed", n, maneuvers)
    for n in data.attack.counter_needs_non_phasing:
        need("attack.counter_needs_non_phasing", n, maneuvers)
    for meth in data.break_hold.escaper_methods + data.break_hold.holder_methods:
        need("break_hold.methods", meth, data.break_hold.methods)
    need("break_hold.holder_method_choice", data.break_hold.holder_method_choice,
         ["best", *data.break_hold.holder_methods])
    _weapon_names(data, problems)


def _weapon_names(data: RulesData, problems: _Problems) -> None:
    """Weapons: skills, damage types, the [armed] locations, wound level and lists."""
    need = problems.need
    for wid, w in data.weapons.items():
        need(f"weapons.{wid}.skill", w.skill, data.skills)
        for k, mode in enumerate(w.modes):
            need(f"weapons.{wid}.modes[{k}].damage_type", mode.damage_type, data.damage_types)
        if w.kind != "shield" and not w.modes:
            problems.append(f"  field 'weapons.{wid}.modes': value []: a {w.kind} weapon needs "
                            "at least one attack mode")
    a = data.armed
    for loc in a.hand_locations + a.arm_locations:
        need("armed.hand_locations/arm_locations", loc, data.locations)
    if len(a.hand_locations) != 2 or len(a.arm_locations) != 2:
        problems.append("  field 'armed.hand_locations/arm_locations': two each (right, left)")
    need("attack.striking_hand", data.attack.striking_hand, a.hand_locations)
    need("armed.stuck_min_wound", a.stuck_min_wound, data.wounds.levels)
    need("armed.stuck_damage_type", a.stuck_damage_type, data.damage_types)
    need("armed.stuck_characteristic", a.stuck_characteristic, data.characteristics)
    for aim in a.stun_drops + a.stagger_drops:
        need("armed.stun_drops/stagger_drops", aim, data.aim)
    for n in a.block_follow_ups_other_weapon + a.two_handed_block_bars:
        need("armed.block_follow_ups_other_weapon/two_handed_block_bars", n, data.maneuvers)
    for hand, arc in a.shield_side.items():
        need("armed.shield_side", hand, a.hand_locations)
        if any(d not in range(6) for d in arc):
            problems.append(f"  field 'armed.shield_side.{hand}': value {arc!r}: relative "
                            "directions 0..5 (0 = front)")


def _other_checks(data: RulesData, problems: _Problems) -> None:
    """Characteristics and skills named by rolls, pull-down directions, creation and wounds."""
    need = problems.need
    chars = data.characteristics
    for fld, ch in (("encumbrance.characteristic", data.encumbrance.characteristic),
                    ("helmets.characteristic", data.helmets.characteristic),
                    ("damage.characteristic", data.damage.characteristic),
                    ("damage.resistance", data.damage.resistance)):
        need(fld, ch, chars)
    for sk in data.encumbrance.multiplied_with:
        need("encumbrance.multiplied_with", sk, data.skills)
    bad_dirs = [d for d in data.mounted.pull_down_directions if d not in range(6)]
    if bad_dirs or not data.mounted.pull_down_directions:
        problems.append(f"  field 'mounted.pull_down_directions': value {bad_dirs or []!r}: "
                        "relative directions 0..5 (0 = front), at least one")
    problems += [f"  {p}" for p in creation_problems(data)]
    w = data.wounds
    if not (len(w.upper_bounds) == len(w.levels) - 1 == len(w.impairment) - 1 == len(w.pain) - 1):
        problems.append(
            f"  field 'wounds': {len(w.levels)} levels need {len(w.levels) - 1} upper_bounds "
            f"and {len(w.levels)} impairment and pain values"
        )


def _check_halves(raw: Any, path: str, source: str) -> None:
    """Every number in the rules must be whole or half (the rules keep half points)."""
    if isinstance(raw, Mapping):
        for k, v in raw.items():
            _check_halves(v, f"{path}.{k}" if path else str(k), source)
    elif isinstance(raw, list):
        for i, v in enumerate(raw):
            _check_halves(v, f"{path}[{i}]", source)
    elif isinstance(raw, float) and round(raw * 2) != raw * 2:
        raise RulesError(
            f"{source}: field '{path}': value {raw!r}: numbers must be whole or half (e.g. 1.5)"
        )


def load_rules_data(
    overrides: str | Path | Mapping[str, Any] | None = None,
) -> tuple[RulesData, str]:
    """The shipped rules merged with ``overrides`` (a TOML path or a dict), validated.

    Returns the validated data and the rule set id (a hash of the merged content).
    """
    raw = read_toml(RULES_FILE)
    source = str(RULES_FILE)
    if overrides is not None:
        if isinstance(overrides, Mapping):
            extra, source = dict(overrides), "rule overrides"
        else:
            extra, source = read_toml(overrides), str(overrides)
        raw = deep_merge(raw, extra)
    _check_halves(raw, "", source)
    try:
        data = RulesData.model_validate(raw)
    except ValidationError as exc:
        raise RulesError(format_validation_error(source, exc, RulesData)) from None
    _check_names(data, source)
    digest = hashlib.sha256(json.dumps(raw, sort_keys=True).encode()).hexdigest()[:12]
    return data, f"aom-{data.version}-{digest}"

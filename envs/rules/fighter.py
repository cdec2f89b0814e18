"""Fighter profiles: the character sheet a fight needs (RULES §1.1, §1.2, §1.10, §1.16, §1.20).

A profile is read from TOML (see ``fighters/*.toml`` for the shipped presets) and is
immutable during a fight; what changes in a fight (position, AP, wounds) lives in the
state. Numbers are kept in *half points* (x2 integers) so half-points stay exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .creation import sheet_problems
from .messages import suggestion
from .ruleset import RulesData, RulesError, format_validation_error, read_toml

FIGHTERS_DIR = Path(__file__).parent / "fighters"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ArmourSpec(_Model):
    body: str | float = 0
    helmet: str | float = 0
    locations: dict[str, float] = Field(default_factory=dict)


class Loadout(_Model):
    """Weapons a fighter carries (§2.1, aom314a): in the right and left hand (a two-handed
    weapon in ``right``, ``left`` empty) and sheathed (drawn with Ready weapon)."""

    right: str | None = None
    left: str | None = None
    sheathed: list[str] = Field(default_factory=list)


class RiskSpec(_Model):
    ap: int = Field(default=1, ge=0, le=12)
    initiative: int = Field(default=1, ge=0, le=12)
    damage: int = Field(default=1, ge=0, le=12)
    pain: int = Field(default=0, ge=0, le=12)
    knockback: int = Field(default=0, ge=0, le=12)
    lock_damage: int = Field(default=1, ge=0, le=12)


class FighterFile(_Model):
    name: str = Field(min_length=1, max_length=40)
    style: str = ""
    description: str = ""
    characteristics: dict[str, float]
    skills: dict[str, float]
    specialisms: dict[str, float] = Field(default_factory=dict)
    armour: ArmourSpec = Field(default_factory=ArmourSpec)
    encumbrance: str = "average"
    mounted: bool = False
    height: int = Field(default=0, ge=0, le=3)
    risk: RiskSpec = Field(default_factory=RiskSpec)
    talents: list[str] = Field(default_factory=list)  # skills with a talent: limit +2 (aom192)
    limitations: list[str] = Field(default_factory=list)  # skills with a limitation: -2
    creation_limits: bool = True  # false: a monster or legend, past the §1.2 limits
    weapons: Loadout = Field(default_factory=Loadout)


CHAR_RANGE = (-10.0, 10.0)  # aomchar: normal -5..+5; exceptional beings beyond
SKILL_RANGE = (0.0, 12.0)  # aom194: 0..10 normal, 10 super-human
SPEC_RANGE = (0.0, 10.0)


def h2(x: float) -> int:
    """Half-point integer for a whole-or-half number."""
    return int(round(x * 2))


@dataclass(frozen=True)
class Profile:
    """A validated fighter, numbers in half points."""

    name: str
    style: str
    description: str
    chars: Mapping[str, int]
    skills: Mapping[str, int]
    specs: Mapping[str, int]
    pv: Mapping[str, int]  # protection value per location (half points)
    encumbrance: str
    enc_mod: int  # half points, not yet doubled for Martial Arts
    mounted: bool
    height: int
    risk: RiskSpec
    source: str = ""
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    helmet_mod: int = 0  # half points on rolls of helmets.characteristic (PE, §1.4 aom312)
    #: weapons in the right and left hand at the start (a two-handed one in both), sheathed
    hands: tuple[str | None, str | None] = (None, None)
    sheathed: tuple[str, ...] = ()

    @property
    def armed(self) -> bool:
        """Carries any weapon (in hand or sheathed)."""
        return self.hands != (None, None) or bool(self.sheathed)

    def char(self, name: str) -> int:
        return self.chars.get(name, 0)

    def skill(self, name: str | None) -> int:
        return self.skills.get(name, 0) if name else 0

    def spec_total(self, names: tuple[str, ...] | list[str]) -> int:
        return sum(self.specs.get(n, 0) for n in names)


def preset_names() -> list[str]:
    """Names (file stems) of the shipped fighter presets, sorted."""
    return sorted(p.stem for p in FIGHTERS_DIR.glob("*.toml"))


def _resolve_pv(value: str | float, rules: RulesData, field_name: str, source: str) -> float:
    if isinstance(value, str):
        if value not in rules.armour_materials:
            raise RulesError(
                f"{source}: field '{field_name}': value {value!r}: unknown armour; allowed: "
                f"{sorted(rules.armour_materials)} or a protection value 0..20"
            )
        return rules.armour_materials[value]
    if not 0 <= value <= 20:
        raise RulesError(f"{source}: field '{field_name}': value {value!r}: allowed 0..20")
    return value


def _resolve_helmet(value: str | float, rules: RulesData, source: str) -> tuple[float, float]:
    """A helmet's (PV, PE modifier) from a helmet material, a body-armour material (no
    modifier) or a bare PV (the modifier of the heaviest helmet material it reaches)."""
    mats = rules.helmets.materials
    if isinstance(value, str) and value in mats:
        return mats[value].pv, mats[value].modifier
    if isinstance(value, str) and value not in rules.armour_materials:
        raise RulesError(
            f"{source}: field 'armour.helmet': value {value!r}: unknown helmet; allowed: "
            f"{sorted(mats)}, a body-armour material {sorted(rules.armour_materials)} "
            "or a protection value 0..20"
        )
    pv = _resolve_pv(value, rules, "armour.helmet", source)
    if isinstance(value, str):
        return pv, 0.0
    reached = [m for m in mats.values() if m.pv <= pv]
    return pv, max(reached, key=lambda m: m.pv).modifier if reached else 0.0


def _check_risk(risk: RiskSpec, rules: RulesData, source: str) -> None:
    """No default roll may risk more dice than the rules allow (§1.3, dice.max_risk_dice)."""
    top = rules.dice.max_risk_dice
    for fld, n in risk.model_dump().items():
        if n > top:
            raise RulesError(
                f"{source}: field 'risk.{fld}': value {n}: allowed 0..{top} dice "
                f"(dice.max_risk_dice, §1.3 §5.1)")


def _bad(source: str, fld: str, value: Any, allowed: str) -> RulesError:
    return RulesError(f"{source}: field '{fld}': value {value!r}: {allowed}")


def _check_num(source: str, fld: str, v: float, lo: float, hi: float) -> None:
    """A sheet number lies in ``lo..hi`` and is a whole or half number."""
    if not lo <= v <= hi:
        raise _bad(source, fld, v, f"allowed {lo:g}..{hi:g}")
    if round(v * 2) != v * 2:
        raise _bad(source, fld, v, "must be a whole or half number")


def _check_sheet(ff: FighterFile, rules: RulesData, source: str) -> None:
    """Names and ranges of the characteristics, skills, specialisms, encumbrance and risk,
    then the §1.2 creation limits (every problem, one line each)."""
    for k, v in ff.characteristics.items():
        if k not in rules.characteristics:
            raise _bad(source, f"characteristics.{k}", k,
                       f"unknown characteristic; {suggestion(k, rules.characteristics)}")
        _check_num(source, f"characteristics.{k}", v, *CHAR_RANGE)
    for k, v in ff.skills.items():
        if k not in rules.skills:
            raise _bad(source, f"skills.{k}", k, f"unknown skill; {suggestion(k, rules.skills)}")
        _check_num(source, f"skills.{k}", v, *SKILL_RANGE)
    for k, v in ff.specialisms.items():
        _check_num(source, f"specialisms.{k}", v, *SPEC_RANGE)
    if ff.encumbrance not in rules.encumbrance.bands:
        raise _bad(source, "encumbrance", ff.encumbrance,
                   f"unknown band; {suggestion(ff.encumbrance, rules.encumbrance.bands)}")
    _check_risk(ff.risk, rules, source)
    problems = sheet_problems(ff.characteristics, ff.skills, ff.specialisms, ff.talents,
                              ff.limitations, ff.creation_limits, rules)
    if problems:
        raise RulesError("\n".join(f"{source}: {p}" for p in problems))


def _armour(ff: FighterFile, rules: RulesData, source: str) -> tuple[dict[str, int], float]:
    """PV by location (half points: body armour, the helmet, per-location overrides) and
    the helmet's PE modifier."""
    body = _resolve_pv(ff.armour.body, rules, "armour.body", source)
    helmet, helmet_mod = _resolve_helmet(ff.armour.helmet, rules, source)
    pv: dict[str, int] = {}
    for loc, spec in rules.locations.items():
        pv[loc] = h2(helmet if spec.armour == "helmet" else body)
    for loc, v in ff.armour.locations.items():
        if loc not in rules.locations:
            raise _bad(source, f"armour.locations.{loc}", loc,
                       f"unknown location; allowed: {list(rules.locations)}")
        _check_num(source, f"armour.locations.{loc}", v, 0, 20)
        pv[loc] = h2(v)
    return pv, helmet_mod


def _loadout(ff: FighterFile, rules: RulesData, source: str
             ) -> tuple[tuple[str | None, str | None], tuple[str, ...]]:
    """The weapons in hand (a two-handed weapon fills both hands) and sheathed, each a
    weapon of the rules data ([weapons.*])."""
    w = ff.weapons
    allowed = f"a weapon of the rules data: {list(rules.weapons)}"
    for fld, wid in (("weapons.right", w.right), ("weapons.left", w.left)):
        if wid is not None and wid not in rules.weapons:
            raise _bad(source, fld, wid, f"unknown weapon; {suggestion(wid, rules.weapons)}")
    for wid in w.sheathed:
        if wid not in rules.weapons:
            raise _bad(source, "weapons.sheathed", wid, f"unknown weapon; {allowed}")
    if w.left is not None and rules.weapons[w.left].hands == 2:
        raise _bad(source, "weapons.left", w.left, "a two-handed weapon goes in 'right'")
    if w.right is not None and rules.weapons[w.right].hands == 2:
        if w.left is not None:
            raise _bad(source, "weapons.left", w.left,
                       f"both hands hold the two-handed {w.right}: leave 'left' empty")
        return (w.right, w.right), tuple(w.sheathed)
    return (w.right, w.left), tuple(w.sheathed)


def profile_from_dict(raw: Mapping[str, Any], rules: RulesData, source: str) -> Profile:
    """Validate a fighter description against the rules (names of skills, locations...)."""
    try:
        ff = FighterFile.model_validate(dict(raw))
    except ValidationError as exc:
        raise RulesError(format_validation_error(source, exc, FighterFile)) from None
    _check_sheet(ff, rules, source)
    pv, helmet_mod = _armour(ff, rules, source)
    hands, sheathed = _loadout(ff, rules, source)
    return Profile(
        name=ff.name,
        style=ff.style,
        description=ff.description,
        chars={k: h2(ff.characteristics.get(k, 0)) for k in rules.characteristics},
        skills={k: h2(ff.skills.get(k, 0)) for k in rules.skills},
        specs={k: h2(v) for k, v in ff.specialisms.items()},
        pv=pv,
        encumbrance=ff.encumbrance,
        enc_mod=h2(rules.encumbrance.bands[ff.encumbrance]),
        mounted=ff.mounted,
        height=ff.height if ff.mounted or ff.height else 0,
        risk=ff.risk,
        source=source,
        raw=dict(raw),
        helmet_mod=h2(helmet_mod),
        hands=hands,
        sheathed=sheathed,
    )


def load_profile(spec: str | Path | Profile | Mapping[str, Any], rules: RulesData) -> Profile:
    """A profile from a preset name, a TOML path, a dict, or an existing Profile."""
    if isinstance(spec, Profile):
        return spec
    if isinstance(spec, Mapping):
        return profile_from_dict(spec, rules, "fighter description")
    text = str(spec)
    preset = FIGHTERS_DIR / f"{text.lower()}.toml"
    if preset.exists():
        return profile_from_dict(read_toml(preset), rules, str(preset))
    path = Path(text)
    if path.suffix == ".toml" or path.exists():
        return profile_from_dict(read_toml(path), rules, str(path))
    raise RulesError(
        f"fighter {text!r}: not a preset and not a TOML file; presets: {preset_names()}"
    )

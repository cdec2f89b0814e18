"""Character-creation limits on a fighter sheet (RULES §1.2, aom192, aom195).

A fighter file is a character sheet; a sheet the rules would not let a player build is
refused with the limit it breaks, so that a tournament between "legal" characters means
something. The numbers (base limit, talent bonus, specialism worths) and the PROPOSED
choices (which characteristics govern Martial Arts, Tactics, Athletics, Riding; which
specialisms are broad) live in ``rules.toml`` under ``[creation]`` and ``[specialisms]``.
A designer switches the check off for monsters and legends with ``creation_limits =
false`` in the fighter file or ``[creation] enforce = false`` in the rules data.

Functions here return problem lines (strings) instead of raising, so that the rules-data
loader and the fighter loader can both use them without importing each other.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, get_args

from pydantic import BaseModel

from .messages import suggestion

if TYPE_CHECKING:  # pragma: no cover - types only (ruleset imports this module)
    from .ruleset import Creation, RulesData

SWITCH_OFF = "creation_limits = false in the fighter file exempts monsters and legends"


def _num(x: float) -> str:
    """3 -> '3', 2.5 -> '2.5', -0.5 -> '-0.5'."""
    return f"{x:g}"


def skill_limit(skill: str, chars: Mapping[str, float], talents: Sequence[str],
                limitations: Sequence[str], creation: Creation) -> tuple[float, str]:
    """The §1.2 limit on ``skill`` and how it was reached (for the error message).

    aom192: 6 + the governing characteristic; with two, both positive -> the lower, both
    negative -> the less negative, mixed signs or any zero -> none. A talent +2, a
    limitation -2. One rule covers one and two characteristics: all positive -> the
    lowest, all negative -> the highest, otherwise 0.
    """
    names = creation.governing[skill]
    scores = [chars.get(c, 0) for c in names]
    if all(s > 0 for s in scores):
        add, why = min(scores), "lower" if len(scores) > 1 else ""
    elif all(s < 0 for s in scores):
        add, why = max(scores), "less negative" if len(scores) > 1 else ""
    else:
        add, why = 0, "mixed signs or a zero" if len(scores) > 1 else "zero"
    shown = ", ".join(f"{c} {_num(s)}" for c, s in zip(names, scores, strict=True))
    parts = [f"{_num(creation.base_limit)} + {'/'.join(names)} ({shown}{': ' + why if why else ''})"]
    limit = creation.base_limit + add
    talent, limitation = creation.talent_bonus, creation.limitation_penalty
    if skill in talents:
        limit += talent
        parts.append(f"talent {talent:+g}")
    if skill in limitations:
        limit += limitation
        parts.append(f"limitation {limitation:+g}")
    return limit, ", ".join(parts)


def skill_problems(skills: Mapping[str, float], chars: Mapping[str, float],
                   talents: Sequence[str], limitations: Sequence[str],
                   creation: Creation) -> list[str]:
    """``field 'skills.X': ...`` for every skill above its §1.2 limit (aom192)."""
    out = []
    for skill, score in skills.items():
        limit, how = skill_limit(skill, chars, talents, limitations, creation)
        if score > limit and score > 0:  # a limit below 0: the skill stays at 0
            out.append(
                f"field 'skills.{skill}': value {_num(score)}: above the character-creation "
                f"limit {_num(limit)} (§1.2 aom192: {how}); {SWITCH_OFF}")
    return out


def specialism_problems(specs: Mapping[str, float], skills: Mapping[str, float],
                        rules: RulesData) -> list[str]:
    """Lines for skills whose specialism bonuses need more points than the skill gives.

    aom195: one point per skill point; a point in a broad area is worth broad_worth
    (+1/2), in a narrow area narrow_worth (+1); a half point only goes to a narrow area,
    so the points a broad bonus costs must be whole.
    """
    c = rules.creation
    worth = {"broad": Fraction(c.broad_worth), "narrow": Fraction(c.narrow_worth)}
    used: dict[str, Fraction] = {}
    detail: dict[str, list[str]] = {}
    out = []
    for name, bonus in specs.items():
        if not bonus:
            continue
        spec = rules.specialisms[name]
        points = Fraction(bonus) / worth[spec.area]
        if spec.area == "broad" and points.denominator != 1:
            out.append(
                f"field 'specialisms.{name}': value {_num(bonus)}: a broad specialism "
                f"takes whole points, each worth +{_num(c.broad_worth)}; a half point can "
                f"only go to a narrow area (§1.2 aom195)")
        used[spec.skill] = used.get(spec.skill, Fraction(0)) + points
        detail.setdefault(spec.skill, []).append(
            f"{spec.area} {name} +{_num(bonus)} = {_num(float(points))}")
    for skill, pts in used.items():
        have = Fraction(skills.get(skill, 0))
        if pts > have:
            out.append(
                f"field 'specialisms': {skill} specialisms need {_num(float(pts))} points "
                f"({'; '.join(detail[skill])}), {skill} {_num(float(have))} gives "
                f"{_num(float(have))} (§1.2 aom195: one point per skill point, broad "
                f"+{_num(c.broad_worth)} a point, narrow +{_num(c.narrow_worth)}, a half "
                f"point only narrow); {SWITCH_OFF}")
    return out


def name_problems(talents: Sequence[str], limitations: Sequence[str],
                  specs: Mapping[str, float], rules: RulesData) -> list[str]:
    """Unknown skills in talents/limitations and unknown specialisms, with the nearest name."""
    out = []
    for fld, names in (("talents", talents), ("limitations", limitations)):
        for n in names:
            if n not in rules.skills:
                out.append(f"field '{fld}': value {n!r}: unknown skill; "
                           f"{suggestion(n, rules.skills)}")
    for n in sorted(set(talents) & set(limitations)):
        out.append(f"field 'talents': value {n!r}: also a limitation; a skill is one or "
                   "the other (§1.2 aom192)")
    for n in specs:
        if n not in rules.specialisms:
            out.append(f"field 'specialisms.{n}': value {n!r}: unknown specialism; "
                       f"{suggestion(n, rules.specialisms)}")
    return out


def sheet_problems(raw_chars: Mapping[str, float], raw_skills: Mapping[str, float],
                   specs: Mapping[str, float], talents: Sequence[str],
                   limitations: Sequence[str], enforce: bool, rules: RulesData) -> list[str]:
    """Every §1.2 problem of a sheet whose names and ranges are already valid."""
    problems = name_problems(talents, limitations, specs, rules)
    if problems or not (enforce and rules.creation.enforce):
        return problems
    return (skill_problems(raw_skills, raw_chars, talents, limitations, rules.creation)
            + specialism_problems(specs, raw_skills, rules))


# --------------------------------------------------------------------------- rules data
def _spec_fields(model: type[BaseModel]) -> Iterator[tuple[str, Any, bool]]:
    """(field, annotation, is a list of specialism names) of a model class."""
    for name, f in model.model_fields.items():
        ann = f.annotation
        yield name, ann, name == "specialisms" and getattr(ann, "__origin__", None) is list


def _carries_specs(tp: Any, seen: frozenset[Any] = frozenset()) -> bool:
    """Whether a model type holds lists of specialism names anywhere below it."""
    if tp in seen:
        return False
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return any(is_list or _carries_specs(ann, seen | {tp})
                   for _, ann, is_list in _spec_fields(tp))
    return any(_carries_specs(a, seen) for a in get_args(tp))


def used_specialisms(obj: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """(field, name) of every specialism a roll in the rules data adds.

    Walks only the parts of the model whose type can hold specialism lists, so that it
    reads nothing else (the dead-key test records which keys are read).
    """
    if isinstance(obj, BaseModel):
        for name, ann, is_list in _spec_fields(type(obj)):
            here = f"{path}.{name}" if path else name
            if is_list:
                yield from ((here, n) for n in getattr(obj, name))
            elif _carries_specs(ann):
                yield from used_specialisms(getattr(obj, name), here)
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            yield from used_specialisms(v, f"{path}.{k}")
    elif isinstance(obj, list | tuple):
        for i, v in enumerate(obj):
            yield from used_specialisms(v, f"{path}[{i}]")


def creation_problems(data: RulesData) -> list[str]:
    """Cross-references of [creation] and [specialisms] in the rules data."""
    out = []
    c = data.creation
    for skill in data.skills:
        if not c.governing.get(skill):
            out.append(f"field 'creation.governing': skill {skill!r} has no governing "
                       "characteristic (§1.2 aom192)")
    for skill, chars in c.governing.items():
        if skill not in data.skills:
            out.append(f"field 'creation.governing.{skill}': value {skill!r}: unknown skill; "
                       f"{suggestion(skill, data.skills)}")
        for ch in chars:
            if ch not in data.characteristics:
                out.append(f"field 'creation.governing.{skill}': value {ch!r}: unknown "
                           f"characteristic; {suggestion(ch, data.characteristics)}")
    for name, spec in data.specialisms.items():
        if spec.skill not in data.skills:
            out.append(f"field 'specialisms.{name}.skill': value {spec.skill!r}: unknown "
                       f"skill; {suggestion(spec.skill, data.skills)}")
    for fld, name in used_specialisms(data):
        if name not in data.specialisms:
            out.append(f"field '{fld}': value {name!r}: not in [specialisms] (aom195 needs "
                       f"its skill and area); {suggestion(name, data.specialisms)}")
    return out

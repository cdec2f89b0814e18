"""The structure of the input files hexdojo reads, as pydantic models, and one line per
bad value.

A scenario (``scenario.py``: advise positions, tests, designers' set-ups) is checked here
for its shape (types, ranges, required keys, unknown keys) before anything is built;
``scenario.py`` then checks what needs the game (weapon, location and hold names, fighter
numbers). Every failure is one :class:`RulesError` line naming the file, the field, the
value and what is allowed, never a Python message without a field ("could not convert
string to float", a ``KeyError``).
"""

from __future__ import annotations

import math
import typing
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, Strict, ValidationError, field_validator, model_validator

from .ruleset import RulesError

Int = Annotated[int, Strict()]
Bool = Annotated[bool, Strict()]
Str = Annotated[str, Strict()]
Index = Annotated[int, Strict(), Field(ge=0, le=63)]
Coord = Annotated[int, Strict(), Field(ge=-100, le=100)]
Hex = tuple[Coord, Coord]


class _Strict(BaseModel):
    """Unknown keys refused; scalars strict (no "3" for 3, no 1 for true); lists and
    tuples as TOML and JSON give them. An optional field's default is None (absent) but
    an explicit null is refused: the engine reads a given key as a value."""

    model_config = ConfigDict(extra="forbid")


class FighterDesc(_Strict):
    """One fighter of a scenario (the fields a scenario may set)."""

    pos: Hex = None
    facing: Int = None  # its range: scenario.py, which says what 0..5 mean
    ap: Int = None  # its range: scenario.py
    initiative: Annotated[float, Strict()] | Int = None
    prone: Bool = None
    mounted: Bool = None
    phased: Bool = None
    height: Annotated[int, Strict(), Field(ge=0, le=3)] = None
    status: Str = None  # its values: scenario.py
    wounds: list[tuple[Str, Str]] = None
    hands: tuple[Str | None, Str | None] = None
    sheathed: list[Str] = None
    stuck: list[tuple[Str, Str]] = None

    @field_validator("initiative")
    @classmethod
    def _finite(cls, v: float | None) -> float | None:
        if v is not None and not (math.isfinite(v) and -100 <= v <= 100):
            raise ValueError("a number -100..100")
        return v


class HoldDesc(_Strict):
    """A hold between two fighters (holder and held share a hex)."""

    holder: Index
    held: Index
    kind: Str
    location: Str | None = None  # null: no location (the engine takes it)
    turn: Annotated[int, Strict(), Field(ge=0, le=10_000)] = None

    @model_validator(mode="after")
    def _two_fighters(self) -> HoldDesc:
        if self.holder == self.held:
            raise ValueError("a fighter cannot hold himself: holder and held must differ")
        return self


class ApproachDesc(_Strict):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    from_: Index = Field(alias="from")
    to: Index
    direction: Annotated[int, Strict(), Field(ge=0, le=5)]


class DroppedDesc(_Strict):
    pos: Hex
    weapon: Str


class ScenarioDesc(_Strict):
    """A scenario's top-level fields (see ``scenario.py``'s docstring)."""

    turn: Annotated[int, Strict(), Field(ge=1, le=10_000)] = 1
    fighters: list[FighterDesc] = []
    holds: list[HoldDesc] = []
    phase: Index = None
    approach: list[ApproachDesc] = []
    dropped: list[DroppedDesc] = []


class GameTable(_Strict):
    """A scenario file's ``[game]`` table: who fights, under which rules, from which seed."""

    fighters: Annotated[list[Str], Field(min_length=2, max_length=2)] = None
    scene: Str = None
    rules: Str = None
    radius: Annotated[int, Strict(), Field(ge=1, le=20)] = 4
    turn_limit: Annotated[int, Strict(), Field(ge=1, le=10_000)] = None
    seed: Annotated[int, Strict(), Field(ge=0, le=2**32 - 1)] = 0


def check_model(model: type[BaseModel], data: Any, label: str,
                error: type[Exception] = RulesError) -> Any:
    """``data`` validated by ``model``, or one ``error`` line naming ``label`` (the file)."""
    if not isinstance(data, Mapping):
        raise error(f"{label}: a table of fields, not {_shown(data)}")
    try:
        return model.model_validate(dict(data))
    except ValidationError as exc:
        raise error(one_line(exc, label, model)) from None


def check_scenario(sc: Mapping[str, Any], label: str = "scenario") -> ScenarioDesc:
    """The scenario's structure, or one ``RulesError`` line (``label``: the file)."""
    if not isinstance(sc, Mapping):
        raise RulesError(f"{label}: a scenario is a table of fields, not {type(sc).__name__}")
    try:
        return ScenarioDesc.model_validate(dict(sc))
    except ValidationError as exc:
        raise RulesError(one_line(exc, label, ScenarioDesc)) from None


def one_line(exc: ValidationError, label: str, model: type[BaseModel] | None = None) -> str:
    """A pydantic error as one line: the file, the field, the value, what is allowed
    (``model``: the validated model, to list the fields allowed beside an unknown one)."""
    err = exc.errors(include_url=False)[0]
    raw = tuple(err.get("loc", ()))
    loc = _field(raw)
    value = err.get("input")
    if err.get("type") == "missing":
        return f"{label}: field '{loc}' is missing (required)"
    if err.get("type") == "extra_forbidden":
        inner = _model_at(model, raw[:-1]) if model is not None else None
        allowed = (f"; allowed: {sorted(f.alias or n for n, f in inner.model_fields.items())}"
                   if inner is not None else "")
        return f"{label}: field '{loc}': value {_shown(value)}: unknown field{allowed}"
    msg = " ".join(str(err.get("msg", "")).split()).removeprefix("Value error, ")
    msg = msg.replace("Input should be", "should be")
    return f"{label}: field '{loc}': value {_shown(value)}: {msg}"


def _field(loc: tuple) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _branch(str(part)):
            continue  # a union's branch or a constrained type's name, not a field
        else:
            out += ("." if out else "") + str(part)
    return out or "(top)"


def _branch(part: str) -> bool:
    return (part in ("int", "float", "str", "bool", "none", "tuple", "list", "dict")
            or "[" in part or part.startswith(("constrained-", "literal")))


def _model_at(model: type[BaseModel], path: tuple) -> type[BaseModel] | None:
    """The model class found at ``path`` (field names and list indices) under ``model``."""
    cur: Any = model
    for part in path:
        if isinstance(part, int) or _branch(str(part)):
            continue
        fields = getattr(cur, "model_fields", {})
        f = fields.get(part) or next((x for x in fields.values() if x.alias == part), None)
        if f is None:
            return None
        cur = _inner_model(f.annotation)
    return cur if isinstance(cur, type) and issubclass(cur, BaseModel) else None


def _inner_model(tp: Any) -> Any:
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp
    for arg in typing.get_args(tp):
        got = _inner_model(arg)
        if got is not None:
            return got
    return None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."

"""One clear line per bad value in a rules or fighter file (issue 12).

Pydantic's own report prints the offending input, which for an unknown or missing table
is the whole table (or the whole file). Designers need instead: the file, the field, what
is wrong and, for a typo, the closest allowed name. This module turns a ``ValidationError``
into such lines by walking the model the data was validated against.
"""

from __future__ import annotations

import difflib
import types
from collections.abc import Iterable, Mapping
from typing import Any, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError

_MAX_VALUE = 60  # characters of a bad value worth showing; longer values are described


def closest(name: str, allowed: Iterable[str]) -> str | None:
    """The allowed name nearest to ``name`` (difflib, case-insensitive), or None."""
    names = list(allowed)
    by_lower = {n.lower(): n for n in names}
    hit = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=0.6)
    return by_lower[hit[0]] if hit else None


def suggestion(name: str, allowed: Iterable[str]) -> str:
    """``did you mean 'x'?`` for a near miss, else the list of allowed names."""
    names = list(allowed)
    near = closest(name, names)
    if near is not None:
        return f"did you mean {near!r}?"
    return "allowed: " + ", ".join(names)


def show_value(value: Any) -> str:
    """A bad value for a message: short ones verbatim, tables and long lists described."""
    if isinstance(value, Mapping):
        return f"a table of {len(value)} keys"
    text = repr(value)
    if len(text) <= _MAX_VALUE:
        return text
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    return text[: _MAX_VALUE - 3] + "..."


def _is_model(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, BaseModel)


def _is_union(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType)


def _non_none(tp: Any) -> list[Any]:
    return [a for a in get_args(tp) if a is not type(None)]


def _resolve(model: type[BaseModel] | None, loc: tuple[Any, ...]) -> tuple[list[Any], Any]:
    """The field path of ``loc`` without pydantic's union-member tags, and its type.

    A union of several types (``str | float``) makes pydantic add the member's name to the
    location; those tags are not fields the designer wrote, so they are dropped.
    """
    tp: Any = model
    path: list[Any] = []
    skip_tag = False
    for part in loc:
        if skip_tag:
            skip_tag = False
            continue
        path.append(part)
        tp = _step(tp, part)
        if _is_union(tp):
            members = _non_none(tp)
            if len(members) == 1:
                tp = members[0]
            else:
                skip_tag, tp = True, None
    return path, tp


def _step(tp: Any, part: Any) -> Any:
    """The type one level below ``tp`` for the location part ``part`` (None: unknown)."""
    if tp is None:
        return None
    if _is_union(tp):
        members = _non_none(tp)
        tp = members[0] if len(members) == 1 else None
    if _is_model(tp):
        field = tp.model_fields.get(str(part))
        return field.annotation if field is not None else None
    origin = get_origin(tp)
    if origin in (dict, Mapping):
        return get_args(tp)[1]
    if origin in (list, tuple):
        return get_args(tp)[0]
    return None


def _fields_of(model: type[BaseModel] | None, parent: tuple[Any, ...]) -> list[str]:
    """Field names allowed in the table at ``parent`` (empty when not a model)."""
    _, tp = _resolve(model, parent)
    if _is_union(tp):
        models = [m for m in _non_none(tp) if _is_model(m)]
        tp = models[0] if models else None
    return list(tp.model_fields) if _is_model(tp) else []


def _dotted(path: list[Any]) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _message(msg: str) -> str:
    return msg.replace("Input should be ", "should be ")


def format_validation_error(
    source: str, exc: ValidationError, model: type[BaseModel] | None = None
) -> str:
    """One line per problem: ``source: field 'x': ...``; typos get the closest name.

    ``model`` (the class validated against) lets unknown names be matched to the allowed
    ones; a missing table whose typo'd twin is present is reported once, as the typo.
    """
    errors = exc.errors()
    lines: list[str] = []
    typo_fixes: set[tuple[tuple[Any, ...], str]] = set()
    for err in errors:
        if err["type"] == "extra_forbidden":
            loc = tuple(err["loc"])
            parent, name = loc[:-1], str(loc[-1])
            allowed = _fields_of(model, parent)
            near = closest(name, allowed) if allowed else None
            if near is not None:
                typo_fixes.add((parent, near))
            kind = "table" if isinstance(err.get("input"), Mapping) else "field"
            field = _dotted(_resolve(model, loc)[0])
            hint = suggestion(name, allowed) if allowed else "not allowed here"
            lines.append(f"{source}: unknown {kind} {field!r}; {hint}")
    missing: dict[tuple[Any, ...], list[str]] = {}
    for err in errors:
        loc = tuple(err["loc"])
        if err["type"] == "missing":
            if (loc[:-1], str(loc[-1])) not in typo_fixes:
                missing.setdefault(loc[:-1], []).append(str(loc[-1]))
        elif err["type"] != "extra_forbidden":
            lines.append(_value_line(source, model, err))
    for parent, names in missing.items():
        where = f"field {_dotted(_resolve(model, parent)[0])!r}: " if parent else ""
        what = "field" if len(names) == 1 else "fields"
        lines.append(f"{source}: {where}missing required {what} " + ", ".join(map(repr, names)))
    return "\n".join(_merge_unions(lines))


def _value_line(source: str, model: type[BaseModel] | None, err: Mapping[str, Any]) -> str:
    field = _dotted(_resolve(model, tuple(err["loc"]))[0])
    return f"{source}: field {field!r}: value {show_value(err.get('input'))}: {_message(err['msg'])}"


def _merge_unions(lines: list[str]) -> list[str]:
    """Alternatives of one union field (``str | float``) become a single ``a or b`` line."""
    out: list[str] = []
    heads: dict[str, int] = {}
    for line in lines:
        head, sep, tail = line.rpartition(": ")
        if sep and head in heads and "': value " in head:
            out[heads[head]] += f" or {tail.removeprefix('should be ')}"
            continue
        if sep:
            heads[head] = len(out)
        out.append(line)
    return out

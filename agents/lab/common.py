"""What the lab commands share: rule-set specs, fighter pairings, the game options.

A rule set is named on the command line as ``default``, a TOML file of overrides, or
inline overrides ``section.key=value;...`` (values in TOML syntax), e.g.
``attack.rear_bonus=10`` or ``knockback.off_balance_max_fail=5;knockback.knocked_over_min_fail=9``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexdojo.envs.rules import Game, RulesError, load_tables

from ..extras import require

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib


@dataclass(frozen=True)
class RuleSet:
    """A named rule set: ``spec`` is what ``Game.create(rules=...)`` takes."""

    label: str
    spec: Any
    id: str = ""


def _merge(into: dict[str, Any], extra: dict[str, Any], part: str) -> None:
    for k, v in extra.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            _merge(into[k], v, part)
        elif k in into:
            raise RulesError(f"rules: {part!r}: {k!r} set twice")
        else:
            into[k] = v


def _inline(text: str) -> dict[str, Any]:
    """``a.b=1;c."d e".f=true`` as nested dicts (TOML dotted keys and values; a bare word
    is taken as a string)."""
    out: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        key, eq, raw = part.partition("=")
        if not eq or not key.strip():
            raise RulesError(f"rules: {part!r}: expected section.key=value")
        try:
            extra = tomllib.loads(f"{key.strip()} = {raw.strip()}")
        except tomllib.TOMLDecodeError:
            try:
                extra = tomllib.loads(f"{key.strip()} = {json.dumps(raw.strip())}")
            except tomllib.TOMLDecodeError as exc:
                raise RulesError(f"rules: {part!r}: not a section.key=value ({exc})") from None
        _merge(out, extra, part)
    return out


def rules_spec(text: str | None) -> Any:
    """What ``Game.create(rules=...)`` takes for ``default``, a TOML path or inline
    overrides (``section.key=value;...``): None, the path, or the overrides as a dict."""
    t = (text or "default").strip()
    if t in ("", "default", "defaults", "shipped", "shipped rules"):
        return None
    if "=" in t and not Path(t).is_file():
        return _inline(t)
    if not Path(t).is_file():
        raise RulesError(f"rules: file {t!r} not found (or give section.key=value overrides)")
    return t


def parse_rules(text: str | None) -> RuleSet:
    """A rule set from ``default``, a TOML path or inline overrides; checked (id filled)."""
    spec = rules_spec(text)
    label = "shipped rules" if spec is None else (text or "").strip()

    return RuleSet(label, spec, load_tables(spec).id)


def require_lab(what: str = "the lab's statistics") -> None:
    """Fail in one line, before any fight, when a package of the ``lab`` extra (scipy,
    nashpy) is missing: the statistics would otherwise fail after every fight was played.
    OpenSpiel is optional: alpha-rank falls back to the same formulas (``metagame.py``)."""
    require("lab", what)


SCENE = "scene:"  #: a "pairing" that is a scene: its two sides fight (issue 18)


def game_for(fp: tuple[str, str], rules: Any, radius: int, turn_limit: int | None) -> Game:
    """The game of a fighter pairing, or of a scene (``("scene:NAME", ...)``: its fighters,
    sides, start and arena; the first agent of a pairing plays side 0)."""
    if fp[0].startswith(SCENE):
        g = Game.from_scene(fp[0][len(SCENE):], rules=rules)
        if len(set(g.sides)) != 2:
            raise ValueError(f"scene: value {fp[0][len(SCENE):]!r}: the lab pits two agents, "
                             f"one per side; this scene has {len(set(g.sides))} sides")
        return g
    return Game.create(list(fp), rules=rules, radius=radius, turn_limit=turn_limit)


def parse_fighters(texts: list[str] | tuple[str, ...], scene: str | None = None) -> list[tuple[str, str]]:
    """Fighter pairings from ``chu,urlik`` strings (one name = a mirror); a ``scene``
    is one more pairing (its two sides)."""
    if scene is not None:
        return (parse_fighters(texts) if texts else []) + [(SCENE + scene, SCENE + scene)]
    out = []
    for text in texts:
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if len(parts) == 1:
            parts = parts * 2
        if len(parts) != 2:
            raise ValueError(f"fighters: value {text!r}: give two presets or files, e.g. chu,urlik")
        out.append((parts[0], parts[1]))
    if not out:
        raise ValueError("fighters: give at least one pairing, e.g. chu,chu")
    return out


def pairing_label(fp: tuple[str, str]) -> str:
    if fp[0].startswith(SCENE):
        return f"scene {fp[0][len(SCENE):]} (side 0 vs side 1)"
    return f"{fp[0]} (A) vs {fp[1]} (B)"


@functools.lru_cache(maxsize=64)
def side_names(fp: tuple[str, str]) -> tuple[str, str]:
    """Who side A and side B are: a duel's two fighters, or a scene's two sides with their
    fighters (``guards (Boris, Novice)``), so that no report says ``scene:x is side A``."""
    if not fp[0].startswith(SCENE):
        return fp[0], fp[1]
    g = Game.from_scene(fp[0][len(SCENE):])
    names = []
    for side in sorted(set(g.sides))[:2]:
        members = [p.name for p, sd in zip(g.profiles, g.sides, strict=True) if sd == side]
        names.append(f"{g.side_name(side)} ({', '.join(members)})")
    return names[0], names[1]


def sides_text(fps: Sequence[tuple[str, str]]) -> str:
    """``scene two_vs_one: side A = heroes (Chu), side B = ...`` for every pairing."""
    out = []
    for fp in fps:
        a, b = side_names(tuple(fp))
        where = f"scene {fp[0][len(SCENE):]}: " if fp[0].startswith(SCENE) else ""
        out.append(f"{where}side A = {a}, side B = {b}")
    return "; ".join(out)


def asymmetric(fp: Sequence[str]) -> bool:
    """Whether the two sides of a pairing differ (other fighters, or a scene's two roles):
    then every answer is given per side first, a pooled figure only beside it."""
    return fp[0] != fp[1] or fp[0].startswith(SCENE)


def check_game(rules: RuleSet, fighters: list[tuple[str, str]], radius: int,
               turn_limit: int | None) -> None:
    """Fail before any work on a bad fighter, radius or turn limit."""
    for fp in fighters:
        game_for(fp, rules.spec, radius, turn_limit)


def unarmed_maneuvers(rules: RuleSet) -> list[str]:
    """The maneuvers an unarmed fighter can use under these rules (the ablation default)."""
    return list(load_tables(rules.spec).unarmed_maneuvers)


def usable_maneuvers(rules: RuleSet, games: list[Game]) -> list[str]:
    """The ablation's maneuvers: the unarmed ones, and when a fighter of these games carries
    a weapon (``Profile.armed``, issue 19) the weapon maneuvers too (``armed_only``)."""
    known = unarmed_maneuvers(rules)
    if any(p.armed for g in games for p in g.profiles):
        t = games[0].tables
        known += [n for n, m in t.maneuvers.items() if m.armed_only and n not in known]
    return known

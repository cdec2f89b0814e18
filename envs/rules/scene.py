"""Scenes: how a fight is set up (issue 18): who fights, on which side, where they start.

A GM sets up fights as scenes: two guards against the hero, an ambush from behind, a duel
that starts at a distance. A scene file (TOML) names the fighters with their side, start
hex and facing (or a start rule for two fighters: a distance, facing each other or one
behind the other), mounted riders, the arena radius, the turn limit and rule overrides::

    name = "two against one"
    radius = 4
    [[fighters]]
    fighter = "chu"          # a preset or a fighter file (relative to the scene file)
    side = "hero"
    hex = [0, 0]
    facing = "E"             # E, NE, NW, W, SW, SE or 0..5
    [[fighters]]
    fighter = "boris"
    side = "guards"
    hex = [1, 0]
    facing = "W"

Shipped scenes live in ``scenes/`` (``scene_names()``). The duel is the two-fighter scene
``duel`` (two hexes apart, facing each other), which is also the default set-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import hexgrid as hx
from .messages import format_validation_error
from .ruleset import RulesError, read_toml

SCENES_DIR = Path(__file__).parent / "scenes"


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SceneFighter(_Model):
    fighter: str | dict[str, Any]
    side: str | int | None = None  # None: a side of his own
    hex: tuple[int, int] | None = None
    facing: int | str | None = None
    mounted: bool | None = None  # None: as the fighter file says
    height: int | None = Field(None, ge=0, le=3)


class StartRule(_Model):
    """Where two fighters without a ``hex`` start: ``distance`` hexes apart (a range
    ``[lo, hi]`` is drawn from the fight's dice), ``facing`` each other, or the second
    ``behind`` the first (who faces away: an ambush from the rear arc)."""

    distance: int | tuple[int, int] = 2
    arrangement: Literal["facing", "behind"] = "facing"


class SceneFile(_Model):
    name: str = Field(min_length=1, max_length=60)
    description: str = ""
    radius: int = Field(4, ge=1, le=20)
    turn_limit: int | None = Field(None, ge=1, le=10_000)
    rules: str | dict[str, Any] | None = None
    fighters: list[SceneFighter] = Field(min_length=2, max_length=8)
    start: StartRule = Field(default_factory=StartRule)


def scene_names() -> list[str]:
    """Names (file stems) of the shipped scenes, sorted."""
    return sorted(p.stem for p in SCENES_DIR.glob("*.toml"))


def _facing(value: int | str | None, field: str, source: str) -> int | None:
    if value is None or isinstance(value, int) and value in range(6):
        return value
    if isinstance(value, str) and value.upper() in hx.DIRECTION_NAMES:
        return hx.DIRECTION_NAMES.index(value.upper())
    raise RulesError(f"{source}: field '{field}': value {value!r}: allowed 0..5 or "
                     f"{', '.join(hx.DIRECTION_NAMES)}")


def load_scene(spec: str | Path | Mapping[str, Any] | SceneFile) -> tuple[SceneFile, Path | None]:
    """A validated scene from a shipped name, a TOML path or a dict, with the folder its
    relative paths (fighter files, rules) are read from."""
    if isinstance(spec, SceneFile):
        return spec, None
    if isinstance(spec, Mapping):
        raw, source, base = dict(spec), "scene", None
    else:
        text = str(spec)
        shipped = SCENES_DIR / f"{text.lower()}.toml"
        path = shipped if shipped.exists() else Path(text)
        if not path.exists() and path.suffix != ".toml":
            raise RulesError(f"scene {text!r}: not a shipped scene and not a TOML file; "
                             f"shipped: {', '.join(scene_names())}")
        raw, source, base = read_toml(path), str(path), path.parent
    try:
        scene = SceneFile.model_validate(raw)
    except ValidationError as exc:
        raise RulesError(format_validation_error(source, exc, SceneFile)) from None
    for i, f in enumerate(scene.fighters):
        _facing(f.facing, f"fighters[{i}].facing", source)
    hexes = [f.hex for f in scene.fighters]
    if any(h is not None for h in hexes) and any(h is None for h in hexes):
        raise RulesError(f"{source}: field 'fighters': give every fighter a hex, or none "
                         "(then the start rule places them)")
    d = scene.start.distance
    lo, hi = (d, d) if isinstance(d, int) else d
    if not 1 <= lo <= hi <= scene.radius or hi - lo >= 6:
        raise RulesError(f"{source}: field 'start.distance': value {d!r}: allowed 1..{scene.radius} "
                         "(the arena radius), or a range [low, high] of at most six distances")
    return scene, base


def resolve_path(value: str, base: Path | None) -> str:
    """A fighter or rules file named relative to the scene file (a preset name stays)."""
    if base is not None and value.endswith(".toml") and not Path(value).is_absolute():
        return str(base / value)
    return value


def sides_of(scene: SceneFile, fighter_names: list[str]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Each fighter's side index and the sides' names, in order of appearance; a fighter
    without a side is a side of his own, named after him. A scene that names no side at
    all (a plain duel) gives no names: its fights log exactly as ``Game.create``'s."""
    if all(f.side is None for f in scene.fighters):
        return tuple(range(len(scene.fighters))), ()
    names: list[str] = []
    out = []
    for f, own in zip(scene.fighters, fighter_names, strict=True):
        name = str(f.side) if f.side is not None else own
        if name not in names:
            names.append(name)
        out.append(names.index(name))
    return tuple(out), tuple(names)


def start_hexes(scene: SceneFile, distance: int) -> list[tuple[hx.Hex, int]] | None:
    """Start (hex, facing) of every fighter: the scene's own, or the start rule's for two
    fighters (None: more fighters and no hexes, the ring of ``Game.start_positions``)."""
    fs = scene.fighters
    if fs[0].hex is not None:
        return [(tuple(f.hex), _facing(f.facing, "", "") if f.facing is not None else 0)  # type: ignore[misc]
                for f in fs]
    if len(fs) != 2:
        return None
    a, b = (-(distance // 2), 0), (distance - distance // 2, 0)
    if scene.start.arrangement == "behind":
        return [(a, 3), (b, 3)]  # A faces away from B, B faces A's back
    return [(a, 0), (b, 3)]

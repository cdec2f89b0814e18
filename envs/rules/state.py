"""The fight's fixed part: a ``Game`` (rules, fighters, arena, sides, scene; shared by all
its fights), and ``Game.new_state``, which starts a fight on the native rules core.

The fight itself, the ``State`` (``native_state.NativeState``: decisions, exact legal
choices, reasons, ``apply``, ``clone``, events), is run by the core (envs/rules/core/, issue
15): exactly one fighter decides at a time, from an exact list of legal choices; dice are
rolled between decisions; a decision with a single legal choice is taken automatically.
The Python engine that came first (a stack machine of resolution frames) was the core's
reference until the engines' differential test passed, and was then deleted: one engine.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from numbers import Integral
from pathlib import Path
from typing import Any

import numpy as np

from . import hexgrid as hx
from .dice import Dice
from .fighter import Profile, load_profile
from .model import IllegalChoice
from .native_state import NativeState
from .ruleset import RulesError, deep_merge, read_toml
from .scene import SceneFile, load_scene, resolve_path, sides_of, start_hexes
from .tables import Tables, load_tables

#: the engines ``Game.new_state`` can run a fight on (``engine=`` or ``HEXDOJO_ENGINE``):
#: the native core alone since the Python engine was deleted (issue 15)
ENGINES = ("native",)


def distinct_names(profiles: tuple[Profile, ...]) -> tuple[Profile, ...]:
    """Fighters that share a name (a mirror match: chu vs chu) get the letter of their
    place in the fight ("Chu A", "Chu B"), so that event logs, boards and replays tell
    them apart (a number would read like AP or a roll). Unique names are kept."""
    names = [p.name for p in profiles]
    return tuple(
        replace(p, name=f"{p.name} {chr(ord('A') + i)}") if names.count(p.name) > 1 else p
        for i, p in enumerate(profiles)
    )


@dataclass(frozen=True)
class Game:
    """Everything fixed for a fight: compiled rules, fighter profiles, arena size, each
    fighter's side (by default a side of his own: fighter i is side i) and the scene that
    sets the fight up (start hexes, see ``scene.py``)."""

    tables: Tables
    profiles: tuple[Profile, ...]
    radius: int = 4
    turn_limit: int = 20
    sides: tuple[int, ...] = ()
    side_names: tuple[str, ...] = ()
    scene: SceneFile | None = None

    def __post_init__(self) -> None:
        if not self.sides:
            object.__setattr__(self, "sides", tuple(range(len(self.profiles))))

    def side_of(self, i: int) -> int:
        """The side fighter ``i`` fights on."""
        return self.sides[i]

    def side_name(self, side: int) -> str:
        return self.side_names[side] if self.side_names else self.profiles[side].name

    @classmethod
    def create(
        cls,
        fighters: Sequence[str | Path | Profile | Mapping[str, Any]] = ("chu", "boris"),
        rules: str | Path | Mapping[str, Any] | None = None,
        radius: int = 4,
        turn_limit: int | None = None,
    ) -> Game:
        """A game from preset names / fighter files, optional rule overrides."""
        tables = load_tables(rules)
        if len(fighters) < 2:
            raise RulesError(f"fighters: value {list(fighters)!r}: a fight needs at least two")
        if isinstance(radius, bool) or not isinstance(radius, Integral) or not 1 <= radius <= 20:
            raise RulesError(f"radius: value {radius!r}: allowed 1..20")
        limit = tables.data.turn.turn_limit if turn_limit is None else turn_limit
        if isinstance(limit, bool) or not isinstance(limit, Integral) or not 1 <= limit <= 10_000:
            raise RulesError(f"turn_limit: value {limit!r}: allowed 1..10000")
        profiles = distinct_names(tuple(load_profile(f, tables.data) for f in fighters))
        return cls(tables, profiles, radius, limit)

    @classmethod
    def from_scene(
        cls,
        scene: str | Path | Mapping[str, Any] | SceneFile,
        rules: str | Path | Mapping[str, Any] | None = None,
        fighters: Sequence[str | Path | Profile | Mapping[str, Any]] | None = None,
    ) -> Game:
        """A game set up by a scene (a shipped name, a TOML file or a dict): its fighters
        (or ``fighters`` in their places), sides, start, arena, turn limit and rules, with
        ``rules`` merged over the scene's own overrides."""
        sc, base = load_scene(scene)
        specs = list(fighters) if fighters is not None else [
            resolve_path(f.fighter, base) if isinstance(f.fighter, str) else f.fighter
            for f in sc.fighters]
        if len(specs) != len(sc.fighters):
            raise RulesError(f"fighters: value {len(specs)}: the scene {sc.name!r} has "
                             f"{len(sc.fighters)} places")
        merged = scene_rules(sc, base, rules)
        game = cls.create(specs, rules=merged, radius=sc.radius, turn_limit=sc.turn_limit)
        profiles = tuple(
            replace(p, mounted=p.mounted if f.mounted is None else f.mounted,
                    height=p.height if f.height is None else f.height)
            for p, f in zip(game.profiles, sc.fighters, strict=True))
        sides, names = sides_of(sc, [p.name for p in profiles])
        out = cls(game.tables, profiles, game.radius, game.turn_limit, sides, names, sc)
        d = sc.start.distance
        far = [] if isinstance(d, int) or sc.fighters[0].hex is not None else start_hexes(sc, d[1]) or []
        for h, _ in (out.start_positions(None) or []) + far:
            if not hx.in_arena(h, out.radius):
                raise RulesError(f"scene {sc.name!r}: start hex {list(h)} outside the arena "
                                 f"of radius {out.radius}")
        return out

    def start_positions(self, dice: Dice | None = None) -> list[tuple[hx.Hex, int]]:
        """Start (hex, facing) of each fighter: the scene's (a distance range drawn from
        ``dice``), else two fighters two hexes apart facing each other (more: in a ring)."""
        if self.scene is not None:
            got = start_hexes(self.scene, draw_distance(self.scene, dice))
            if got is not None:
                return got
        n = len(self.profiles)
        if n == 2:
            return [((-1, 0), 0), ((1, 0), 3)]
        out = []
        for i in range(n):
            d = (i * 6 // n) % 6
            h = hx.neighbour(hx.neighbour((0, 0), d), d)
            out.append((h, hx.opposite(d)))
        return out

    def new_state(
        self,
        seed: int | np.random.Generator | Dice | None = None,
        scenario: Mapping[str, Any] | None = None,
        engine: str | None = None,
    ) -> NativeState:
        """A fresh fight (or a described situation, see ``scenario.py``) on the native core.
        ``engine`` (or the environment's ``HEXDOJO_ENGINE``) may only name it, ``"native"``:
        the Python engine was deleted (issue 15), and asking for it is one clear error."""
        for where, value in (("engine", engine), ("HEXDOJO_ENGINE", os.environ.get("HEXDOJO_ENGINE"))):
            if value is not None and value not in ENGINES:
                raise RulesError(f"{where}: value {value!r}: allowed {list(ENGINES)} (the Python "
                                 "engine was deleted in issue 15; the native core runs every fight)")
        return NativeState.new(self, seed, scenario)


def scene_rules(sc: SceneFile, base: Path | None,
                rules: str | Path | Mapping[str, Any] | None) -> str | Path | Mapping[str, Any] | None:
    """The scene's rule overrides with ``rules`` merged over them (either may be absent)."""
    if sc.rules is None:
        return rules
    own = read_toml(resolve_path(sc.rules, base)) if isinstance(sc.rules, str) else sc.rules
    if rules is None:
        return own
    extra = read_toml(rules) if isinstance(rules, (str, Path)) else rules
    return deep_merge(own, extra)


def draw_distance(sc: SceneFile, dice: Dice | None) -> int:
    """The start distance of a two-fighter scene: fixed, or drawn uniformly from its range
    with the fight's dice (rejection sampling on one die: ranges of at most six)."""
    d = sc.start.distance
    if isinstance(d, int):
        return d
    lo, hi = d
    if dice is None or lo == hi:
        return lo
    k = hi - lo + 1
    limit = dice.sides - dice.sides % k
    face = dice.die()
    while face > limit:
        face = dice.die()
    return lo + (face - 1) % k


#: the fight's class under its API name (``hexdojo.envs.rules.State``): the core's
State = NativeState
__all__ = ["ENGINES", "Game", "IllegalChoice", "State", "distinct_names", "draw_distance",
           "scene_rules"]

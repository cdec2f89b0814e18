"""The rules data compiled for fast lookups, numbers in half points (x2 integers).

One instance per rule set, shared by every state of every fight that uses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .ruleset import Maneuver, RulesData, load_rules_data


def h2(x: float) -> int:
    return int(round(x * 2))


@dataclass(frozen=True)
class AimH:
    attack: int
    damage: int
    pain: int
    knockback: int


class Tables:
    """Compiled rules: the engine's only view of the rules data."""

    def __init__(self, data: RulesData, rules_id: str) -> None:
        self.data = data
        self.id = rules_id
        self.maneuvers: dict[str, Maneuver] = {
            # §5.18: standing up costs prone.stand_up_ap (its one place in the data)
            n: m.model_copy(update={"ap": data.prone.stand_up_ap}) if m.category == "stand" else m
            for n, m in data.maneuvers.items()
        }
        self._compile_weapons(data)
        self.per_die_h = h2(data.dice.points_per_die)
        self.max_risk = data.dice.max_risk_dice
        self.aim = {k: AimH(h2(v.attack), h2(v.damage), h2(v.pain), h2(v.knockback))
                    for k, v in data.aim.items()}
        self.locations: tuple[str, ...] = tuple(data.locations)
        self.loc_aim = {k: v.aim for k, v in data.locations.items()}
        self.wound_levels: tuple[str, ...] = tuple(data.wounds.levels)
        self.fatal = len(self.wound_levels) - 1
        self.wound_bounds = tuple(h2(x) for x in data.wounds.upper_bounds)
        self.impairment = tuple(h2(x) for x in data.wounds.impairment)
        self.wound_pain = tuple(h2(x) for x in data.wounds.pain)
        self.soak_bounds = tuple(h2(x) for x in data.soak.upper_bounds)
        self.rear_arc = frozenset(data.attack.rear_arc)
        self.follow_ons: dict[str, tuple[str, ...]] = {
            k: tuple(v) for k, v in data.follow_ons.items()
        }
        self.hold_kinds = data.holds.kinds
        # What the Python side reads by name (the catalogue's attack flags, the unarmed list);
        # the core derives these and the rest (candidate lists, the soak maneuver, the hold
        # each maneuver makes, the costliest AP, the reaches) in Tables::seal(), where the rules
        # use them; tests/core/test_core_tables.py checks the two flags against the core's.
        attack_categories = frozenset({"strike", "grab", "lock", "throw", "pull_down"})
        self.attack = {n: m.category in attack_categories for n, m in self.maneuvers.items()}
        #: the maneuvers of a fight without weapons (the unarmed action catalogue)
        self.unarmed_maneuvers: tuple[str, ...] = tuple(
            n for n, m in data.maneuvers.items() if m.available and not m.armed_only)
        self._frozen = True

    def _compile_weapons(self, data: RulesData) -> None:
        """Weapons (§2.1): ids in the data's order (Ready weapon's option), the most attack
        modes of any weapon (a weapon attack's option = hand x max_modes + mode), the
        farthest reach and the maneuvers of a fight without weapons."""
        self.weapons = data.weapons
        self.weapon_ids: tuple[str, ...] = tuple(data.weapons)
        self.max_modes = max([len(w.modes) for w in data.weapons.values()] or [1]) or 1
        #: how far an attack can reach: range 1 (a polearm 2) after a one-hex advance
        self.attack_reach = 1 + max([1] + [w.reach for w in data.weapons.values()])

    def __setattr__(self, name: str, value: Any) -> None:
        """Compiled rules are immutable once built (the core keeps its own memo)."""
        if getattr(self, "_frozen", False):
            raise AttributeError(f"Tables are immutable: cannot set {name!r}")
        object.__setattr__(self, name, value)

    def is_attack(self, name: str) -> bool:
        return self.attack[name]


@lru_cache(maxsize=32)
def _cached(key: str | None) -> Tables:
    data, rid = load_rules_data(key)
    return Tables(data, rid)


def load_tables(overrides: str | Path | Mapping[str, Any] | None = None) -> Tables:
    """Compiled rules (the shipped data merged with ``overrides``), cached per file."""
    if overrides is None or isinstance(overrides, (str, Path)):
        return _cached(None if overrides is None else str(overrides))
    data, rid = load_rules_data(overrides)
    return Tables(data, rid)

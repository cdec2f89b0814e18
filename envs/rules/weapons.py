"""Weapons in a fight: what is in whose hand, what it reaches and costs, and where it goes
when it is dropped (RULES §1.7, §1.12, §1.15, §2.1, §3; aom3142-aom314a, aom3211).

A fighter holds a weapon in each hand (``FighterState.hands``: right, left; a two-handed
weapon fills both), carries others sheathed, and may have impaling weapons stuck in him
(``FighterState.stuck``). Dropped weapons lie on the board (``State.dropped``). A weapon
maneuver's option names the hand, and for an attack also the mode:
``option = hand x Tables.max_modes + mode``. Everything here reads the rules data
(``[weapons.*]``, ``[armed]``). The rules about weapons are the core's (weapons.hpp: legality,
resolution and the observation ask those); this module only reads them for people (the
notation and menus: which weapon, which mode, its AP) through ``_core.fight_weapon_use``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _core

if TYPE_CHECKING:
    from .state import State

HAND_NAMES = ("right", "left")


def _use(s: State, i: int, name: str, option: int) -> tuple[int, int, int]:
    """(weapon id, mode index, AP) of fighter ``i``'s maneuver ``name`` with ``option``, as
    the core reads it (``_core.fight_weapon_use``: weapons.hpp, the rules' one copy)."""
    return _core.fight_weapon_use(s._core, i, list(s.t.maneuvers).index(name), option)


def used_weapon(s: State, i: int, name: str, option: int) -> str | None:
    """The id of the weapon fighter ``i``'s maneuver ``name`` with ``option`` is made with."""
    wid = _use(s, i, name, option)[0]
    return None if wid < 0 else s.t.weapon_ids[wid]


def attack_mode(s: State, i: int, name: str, option: int) -> Any:
    """The weapon mode (AP, damage, type) of a weapon attack, or None."""
    wid, mode, _ = _use(s, i, name, option)
    return None if mode < 0 else s.t.weapons[s.t.weapon_ids[wid]].modes[mode]


def cost(s: State, i: int, name: str, option: int) -> int:
    """AP of a maneuver: a weapon attack's mode's (aom3142: 2-4 by mode), else its own."""
    return _use(s, i, name, option)[2]

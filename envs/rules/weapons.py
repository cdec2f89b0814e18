"""Weapons in a fight: what is in whose hand, what it reaches and costs, and where it goes
when it is dropped (RULES §1.7, §1.12, §1.15, §2.1, §3; aom3142-aom314a, aom3211).

A fighter holds a weapon in each hand (``FighterState.hands``: right, left; a two-handed
weapon fills both), carries others sheathed, and may have impaling weapons stuck in him
(``FighterState.stuck``). Dropped weapons lie on the board (``State.dropped``). A weapon
maneuver's option names the hand, and for an attack also the mode:
``option = hand x Tables.max_modes + mode``. Everything here reads the rules data
(``[weapons.*]``, ``[armed]``). The core has the rules' own copies (weapons.hpp: legality
and resolution ask those); what is left here reads a choice for people (notation, menus:
which weapon, which mode, its AP) and the observation's hands, over the same data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .ruleset import Weapon
    from .state import State
    from .tables import Tables

HAND_NAMES = ("right", "left")


def is_weapon_attack(m: Any) -> bool:
    """A maneuver whose skill, AP, damage and reach come from a weapon in hand."""
    return m.weapon in ("melee", "close")


def split(t: Tables, m: Any, option: int) -> tuple[int, int]:
    """(hand, mode) a weapon maneuver's ``option`` names (a Block's or Parry's: the hand)."""
    if is_weapon_attack(m):
        return divmod(option, t.max_modes)
    return option, 0


def weapon_in(s: State, i: int, hand: int) -> Weapon | None:
    """The weapon in fighter ``i``'s ``hand`` (0 right, 1 left), if any."""
    wid = s.fighters[i].hands[hand]
    return None if wid is None else s.t.weapons[wid]


def used_weapon(s: State, i: int, name: str, option: int) -> str | None:
    """The id of the weapon fighter ``i``'s maneuver ``name`` with ``option`` is made with."""
    m = s.t.maneuvers[name]
    if m.weapon is None:
        return None
    hand, _ = split(s.t, m, option)
    return s.fighters[i].hands[hand] if 0 <= hand < 2 else None


def attack_mode(s: State, i: int, name: str, option: int) -> Any:
    """The weapon mode (AP, damage, type) of a weapon attack, or None."""
    m = s.t.maneuvers[name]
    wid = used_weapon(s, i, name, option) if is_weapon_attack(m) else None
    if wid is None:
        return None
    modes = s.t.weapons[wid].modes
    _, mode = split(s.t, m, option)
    return modes[mode] if mode < len(modes) else None


def cost(s: State, i: int, name: str, option: int) -> int:
    """AP of a maneuver: a weapon attack's mode's (aom3142: 2-4 by mode), else its own."""
    mode = attack_mode(s, i, name, option)
    return mode.ap if mode is not None else s.t.maneuvers[name].ap


def held_hands(s: State, hold_on: Any) -> frozenset[int]:
    """The hands whose arm a hold on the fighter immobilises (aom3225: the grabbed arm;
    aom3216: both in a grapple)."""
    if hold_on is None:
        return frozenset()
    free = s.t.hold_kinds[hold_on.kind].free_arms
    if free >= 2:
        return frozenset()
    if free == 0:
        return frozenset({0, 1})
    arms = s.t.data.armed.arm_locations
    return frozenset({arms.index(hold_on.location)}) if hold_on.location in arms else frozenset({0})


def locked_hand(t: Tables, restrict: str | None) -> int | None:
    """The hand whose arm a block locked (``restrict`` an arm location, aom3145, aom322e)."""
    arms = t.data.armed.arm_locations
    return arms.index(restrict) if restrict in arms else None

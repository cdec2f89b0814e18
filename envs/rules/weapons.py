"""Weapons in a fight: what is in whose hand, what it reaches and costs, and where it goes
when it is dropped (RULES §1.7, §1.12, §1.15, §2.1, §3; aom3142-aom314a, aom3211).

A fighter holds a weapon in each hand (``FighterState.hands``: right, left; a two-handed
weapon fills both), carries others sheathed, and may have impaling weapons stuck in him
(``FighterState.stuck``). Dropped weapons lie on the board (``State.dropped``). A weapon
maneuver's option names the hand, and for an attack also the mode:
``option = hand x Tables.max_modes + mode``. Everything here reads the rules data
(``[weapons.*]``, ``[armed]``); legality and resolution ask these functions, so each rule
is written once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import hexgrid as hx

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


def busy_arms(s: State, i: int, hold_on: Any, restrict: str | None) -> int:
    """Arms of fighter ``i`` that a weapon in hand or a locked weapon arm takes from those
    a hold leaves free: an arm maneuver (Punch, Martial Strike, Forearm Block...) needs an
    empty hand (aom3221: a Martial Strike follows a one-handed, not a two-handed, block)."""
    held = held_hands(s, hold_on)
    hands = s.fighters[i].hands
    busy = {h for h in (0, 1) if hands[h] is not None} - held
    lk = locked_hand(s.t, restrict)
    if lk is not None and lk not in held:
        busy.add(lk)
    return len(busy)


def fits(m: Any, w: Weapon) -> bool:
    """Can weapon ``w`` make maneuver ``m`` (its ``weapon`` need)?"""
    need = m.weapon
    if need == "block":
        return True
    if need == "parry":
        return w.can_parry and w.kind != "shield"
    return w.kind == need


def has_weapon_for(s: State, i: int, m: Any) -> bool:
    """Does fighter ``i`` hold any weapon that can make ``m`` (locks aside)?"""
    return any(wid is not None and fits(m, s.t.weapons[wid]) for wid in s.fighters[i].hands)


def hand_reason(s: State, i: int, name: str, m: Any, option: int, hold_on: Any,
                restrict: str | None, own_hand: int | None) -> str | None:
    """Can fighter ``i`` make weapon maneuver ``name`` with the hand (and mode) ``option``
    names? The weapon must be there, fit, not be held (aom3225) or locked by a block
    (``restrict``, aom3145), and after a Block not be the blocking one (``own_hand``:
    aom3145, a second weapon); an attack mode's AP must be paid (aom3142)."""
    t = s.t
    hand, mode = split(t, m, option)
    f = s.fighters[i]
    w = weapon_in(s, i, hand)
    where = HAND_NAMES[hand]
    if w is None:
        return f"{name}: nothing in the {where} hand"
    if hand == 1 and w.hands == 2:
        return f"{name}: the two-handed {w.name} is held as the right hand's"
    if not fits(m, w):
        return f"{name}: needs a {m.weapon} weapon, the {where} hand holds a {w.name}"
    if is_weapon_attack(m):
        if mode >= len(w.modes):
            return f"{name}: the {w.name} has {len(w.modes)} attack mode(s)"
        if w.modes[mode].ap > f.ap:
            return f"{name}: a {w.name} {w.modes[mode].name} needs {w.modes[mode].ap} AP, {f.name} has {f.ap}"
    if hand in held_hands(s, hold_on):
        return f"{name}: the {where} arm is held (aom3225)"
    if locked_hand(t, restrict) == hand:
        return f"{name}: the {w.name} is locked by the block (aom3145)"
    if own_hand == hand and name in t.data.armed.block_follow_ups_other_weapon:
        return f"{name}: the {w.name} made the block; a second weapon is needed (aom3145)"
    return None


def ground_here(s: State, i: int) -> tuple[str, ...]:
    """The weapons lying in fighter ``i``'s hex (aom314a: Ready weapon picks them up)."""
    pos = s.fighters[i].pos
    return tuple(wid for h, wid in s.dropped if h == pos)


def ready_reason(s: State, i: int, name: str, option: int) -> str | None:
    """Ready weapon (aom314a): the weapon ``option`` names is sheathed or lies in the hex,
    and enough hands are empty for it."""
    t = s.t
    if not 0 <= option < len(t.weapon_ids):
        return f"{name}: option must name a weapon 0..{len(t.weapon_ids) - 1}"
    wid = t.weapon_ids[option]
    f = s.fighters[i]
    if wid not in f.sheathed and wid not in ground_here(s, i):
        return f"{name}: no {t.weapons[wid].name} sheathed or lying in the hex"
    empty = sum(1 for h in f.hands if h is None)
    if empty < t.weapons[wid].hands:
        return f"{name}: the {t.weapons[wid].name} needs {t.weapons[wid].hands} empty hand(s)"
    return None


def gear_key(s: State, i: int) -> tuple[Any, ...] | None:
    """Everything the weapon reasons read about fighter ``i`` beyond his status (a memo
    key; None for a fighter with nothing in hand, sheathed, stuck in him or at his feet)."""
    f = s.fighters[i]
    ground = ground_here(s, i) if s.dropped else ()
    if f.hands == (None, None) and not f.sheathed and not f.stuck and not ground:
        return None
    return (f.hands, f.sheathed, bool(f.stuck), ground, f.ap)


# ---------------------------------------------------------------- reach (§1.7, aom3142)
def strike_zone(s: State, pos: hx.Hex, facing: int, w: Weapon) -> tuple[hx.Hex, ...]:
    """The hexes a melee weapon strikes from ``pos``: the front three (aom3142), a
    polearm's also the three beyond (``armed.reach_beyond``)."""
    zone = [hx.neighbour(pos, facing + d) for d in (0, 1, -1)]
    if w.reach >= 2:
        ahead = hx.neighbour(pos, facing)
        zone += [hx.neighbour(ahead, facing + d) for d in s.t.data.armed.reach_beyond]
    return tuple(zone)


def reaches(s: State, i: int, pos: hx.Hex) -> bool:
    """Does one of fighter ``i``'s melee weapons in hand strike hex ``pos`` as he stands?"""
    f = s.fighters[i]
    for wid in set(h for h in f.hands if h is not None):
        w = s.t.weapons[wid]
        if w.kind == "melee" and pos in strike_zone(s, f.pos, f.facing, w):
            return True
    return False


def entered_zone(s: State, g: int, start: hx.Hex, pos: hx.Hex) -> bool:
    """aom3142: a fighter moving from ``start`` to ``pos`` came into a hex ``g``'s melee
    weapon strikes and was not in one at the start of that move (Stand and attack)."""
    return reaches(s, g, pos) and not reaches(s, g, start)


# ---------------------------------------------------------------- losing weapons
def let_go(s: State, i: int, hand: int) -> str | None:
    """Empty fighter ``i``'s ``hand`` (both hands for a two-handed weapon); returns the
    weapon it held, if any. Where the weapon goes is the caller's (the floor, a wound)."""
    f = s.fighters[i]
    wid = f.hands[hand]
    if wid is not None:
        both = s.t.weapons[wid].hands == 2
        f.hands = tuple(None if h == wid and (k == hand or both) else h
                        for k, h in enumerate(f.hands))  # type: ignore[assignment]
    return wid


def drop(s: State, i: int, hand: int, why: str, rule: str) -> str | None:
    """Fighter ``i`` lets go of what ``hand`` holds (a two-handed weapon from both hands);
    it lies in his hex (aom314a). Returns the weapon dropped, if any."""
    f = s.fighters[i]
    wid = let_go(s, i, hand)
    if wid is None:
        return None
    s.dropped = s.dropped + ((f.pos, wid),)
    s.log("drops", rule, a=i, actor=f.name, weapon=wid, hand=HAND_NAMES[hand], why=why,
          to=list(f.pos))
    return wid


def drop_struck(s: State, i: int, loc: str, effect: str) -> None:
    """§1.12 (aom1d31): stunned drops what a struck arm or hand holds, staggered what a
    struck hand holds."""
    a = s.t.data.armed
    aim = s.t.loc_aim[loc]
    drops = a.stun_drops if effect == "stunned" else a.stagger_drops if effect == "staggered" else ()
    if aim not in drops:
        return
    side = [k for k, (hl, al) in enumerate(zip(a.hand_locations, a.arm_locations, strict=True))
            if loc in (hl, al)]
    for hand in side:
        drop(s, i, hand, f"{effect}, {loc} struck", "aom1d31")


def pick_up(s: State, i: int, wid: str) -> str:
    """Ready weapon (aom314a): draw ``wid`` from its sheath, else pick it up from the hex,
    into the first empty hand (both for a two-handed weapon). Returns "drawn" or "picked up"."""
    f = s.fighters[i]
    if wid in f.sheathed:
        k = f.sheathed.index(wid)
        f.sheathed = f.sheathed[:k] + f.sheathed[k + 1:]
        how = "drawn"
    else:
        k = s.dropped.index((f.pos, wid))
        s.dropped = s.dropped[:k] + s.dropped[k + 1:]
        how = "picked up"
    if s.t.weapons[wid].hands == 2:
        f.hands = (wid, wid)
    else:
        hand = 0 if f.hands[0] is None else 1
        f.hands = (wid, f.hands[1]) if hand == 0 else (f.hands[0], wid)
    return how


def stuck_penalty(s: State, i: int) -> list[tuple[str, int]]:
    """§1.15 (aom1d35): each weapon stuck in fighter ``i`` takes its penalty off his CO
    rolls until it is pulled out (half points)."""
    return [(f"stuck {wid}", int(round(s.t.weapons[wid].stuck_penalty * 2)))
            for wid, _ in s.fighters[i].stuck]

"""The native legality layer's Python side: reason codes rendered to texts, and the core's
legal lists and reasons asked with the Python API's objects (a board's records, a window).

The core (``_core.maneuver_choices``, ``_core.explain``; envs/rules/core/legality.cpp) says
why a choice is illegal as a code, the maneuver and up to five int arguments. The texts
are those the Python engine's ``legality.py`` wrote (the specification until it was
deleted, issue 15; ``tests/core/test_core_legality.py`` pins them): one template per code,
below, keyed by the code's name in the core (``_core.reason_names()``). A template's fields are either
an argument (``{F0}``: the name of fighter ``a[0]``; the letters say what kind of id it is,
see ``_ARG``) or something the maneuver, the window or the rules say (``_NAMED``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import hexgrid as hx
from ._core import defence_options as _core_defence_options
from ._core import explain as _core_explain
from ._core import maneuver_choices as _core_choices
from ._core import reason_names
from .model import Choice
from .to_core import Ids, compile_tables, core_state, core_window, param_domain
from .weapons import HAND_NAMES

TEMPLATES: dict[str, str] = {
    "NotAvailable": "{m}: not available in this simulator (out of scope)",
    "NotAction": "{m}: not an action (tags {tags})",
    "NotFollow": "{m}: does not follow {after} (follow-ups: {follows})",
    "TwoHandedBlockBar": "{m}: not after a block with the two-handed {W0} (aom3221)",
    "OnlyReactions": "{m}: not possible now (only {only})",
    "NotReaction": "{m}: not a reaction (tags {tags})",
    "NoTrigger": "{m}: does not react to this (reacts to: {reacts})",
    "OnlyAnswers": "{m}: only answers {against}",
    "NoDefence": "{m}: no defensive reaction is allowed against {attack}",
    "ArmLocked": "{m}: the blocked arm is locked (aom322e){held}",
    "NoFreeArm": "{m}: no free arm (a hand holding a weapon is not free){held}",
    "LimbLocked": "{m}: the blocked {LIMB0} is locked (aom322e)",
    "NeedsAp": "{m}: needs {N0} AP, {F1} has {N2}",
    "ProneBars": "{m}: not allowed while prone (allowed: {prone_allowed})",
    "NotProne": "{m}: not prone",
    "NotHeld": "{m}: nobody holds {F0}",
    "HeldBars": "{m}: not allowed while held ({K0} hold, §1.18/§5.14)",
    "HeldFromBehind": "{m}: grappled from behind, cannot attack the holder (aom3216)",
    "HoldingStays": "{m}: holding someone; release first (a holder cannot leave the hex)",
    "NotMounted": "{m}: not allowed mounted (§1.20)",
    "NoSaddleKick": "{m}: no kicks at range 1 from the saddle (§5.26)",
    "NeedsWeapon": "{m}: needs a {need} weapon in hand",
    "NothingToReady": "{m}: no weapon sheathed or lying in the hex",
    "NoEmptyHand": "{m}: no empty hand",
    "NothingInHands": "{m}: nothing in hand",
    "NothingStuck": "{m}: no weapon is stuck in {F0}",
    "TakesNoTarget": "{m}: takes no target",
    "NeedsOpponent": "{m}: needs an opponent as target",
    "TargetOut": "{m}: {F0} is {OUT1}",
    "SameSide": "{m}: {F0} is on your side",
    "HeldOnlyHolder": "{m}: while held, only the holder can be attacked",
    "OneHold": "{m}: already holding {F0} (one hold at a time)",
    "NeedsHoldKind": "{m}: needs a {needhold} hold on {F0} ({page})",
    "PullDownNeedsHold": "{m}: needs a hold on {F0} (follows Arm Grab)",
    "ThrowNeedsHold": "{m}: needs a hold on {F0} (aom3228)",
    "SameHeight": "{m}: mounted, only against someone at the same height (§1.20)",
    "ChooseTurn": "{m}: choose how far to turn",
    "FollowWay": "{m}: following moves the way the leader went ({D0})",
    "FollowFarther": "{m}: no farther than the leader ({N0} hex)",
    "LeavesArena": "{m}: would leave the arena",
    "OccupiedPath": "{m}: cannot move through an occupied hex",
    "ShieldSide": "{m}: the attack comes from the {R0}; the {W1} covers {side}",
    "FrontArcOnly": ("{m}: the attack comes from the {R0}; only attacks through the front "
                     "three hexes can be defended"),
    "NoRoomToDodge": "{m}: no room to dodge (would leave the arena)",
    "NotClose": "{m}: {F0} is not in or next to your hex",
    "CloseHolding": "{m}: cannot close into another hex while holding or held",
    "CloseFront": "{m}: {F0}'s hex is not in your front three hexes (turn first)",
    "FlyHolding": "{m}: cannot fly while holding or held",
    "NotAdjacent": "{m}: {F0} is not in an adjacent hex",
    "NotInFront": "{m}: {F0} is not in your front three hexes",
    "AdvanceHolding": "{m}: cannot advance while holding or held",
    "AdvanceOccupied": "{m}: the hex to advance into is occupied",
    "OwnHexWeapon": ("{m}: {F0} is in your hex; a {W1} strikes into the front hexes (close "
                     "combat needs a close-combat weapon)"),
    "OutOfReach": "{m}: {F0} is out of the {W1}'s reach (front three hexes)",
    "OutOfPoleReach": "{m}: {F0} is out of the {W1}'s reach (front three hexes and the three beyond)",
    "WholeBody": "{m}: whole-body maneuver, cannot aim",
    "NeedsAim": "{m}: needs an aimed location, one of {locations}",
    "CannotAim": "{m}: cannot aim at the {L0} (only {aim})",
    "LockHeldArm": "{m}: must lock the held arm ({L0})",
    "LandingOff": "{m}: the landing hex is off the arena",
    "NothingInHand": "{m}: nothing in the {H0} hand",
    "TwoHandedDrop": "{m}: the two-handed weapon is dropped as the right hand's",
    "TwoHandedRight": "{m}: the two-handed {W0} is held as the right hand's",
    "WrongWeapon": "{m}: needs a {need} weapon, the {H0} hand holds a {W1}",
    "NoSuchMode": "{m}: the {W0} has {N1} attack mode(s)",
    "ModeAp": "{m}: a {W0} {mode} needs {N2} AP, {F3} has {N4}",
    "ArmHeld": "{m}: the {H0} arm is held (aom3225)",
    "WeaponLocked": "{m}: the {W0} is locked by the block (aom3145)",
    "BlockingWeapon": "{m}: the {W0} made the block; a second weapon is needed (aom3145)",
    "ReadyBadOption": "{m}: option must name a weapon 0..{N0}",
    "ReadyNotThere": "{m}: no {W0} sheathed or lying in the hex",
    "ReadyHands": "{m}: the {W0} needs {N1} empty hand(s)",
    "GrabBlockedArm": "{m}: grabs the blocked arm ({L0}, aom3225)",
    "BadTurn": "{m}: turn must be one of {turns}",
    "BadOption": "{m}: option must be one of {opts}",
    "CounterTarget": "{m}: a counter-attack must target the attacker",
    "NotPossible": "{m}: not possible now",
    "PhasingCounter": "{m}: a counter-attack reaction is a non-phasing fighter's (aom3221, aom3225)",
    "MountedSameHex": "{m}: mounted, only against someone already in the same hex (aom3221, aom3225)",
    "GrabNoArm": "{m}: the blocked {LIMB0} was no arm to grab (aom3225)",
}

CODE_NAMES: tuple[str, ...] = tuple(reason_names())
_OUT = ("in", "unconscious", "dead")  # state.hpp Out
_LIMBS = ("arm", "leg", "head")  # tables.hpp kLimbNames


class _Context:
    """What a template may name: the rules, the fighters' names, the window, the reason."""

    def __init__(self, t: Any, names: Sequence[str], w: Any, reason: tuple[int, ...]) -> None:
        self.t, self.names, self.w = t, names, w
        self.mnames: tuple[str, ...] = tuple(t.maneuvers)
        self.name = self.mnames[reason[1]]
        self.m = t.maneuvers[self.name]
        self.a = reason[2:]

    def man(self, k: int) -> str | None:
        return None if k < 0 else self.mnames[k]


#: argument kinds: ``{F0}`` renders argument 0 as a fighter's name, and so on
_ARG: dict[str, Callable[[_Context, int], Any]] = {
    "F": lambda c, v: c.names[v],
    "W": lambda c, v: c.t.weapons[c.t.weapon_ids[v]].name,
    "K": lambda c, v: list(c.t.hold_kinds)[v],
    "L": lambda c, v: c.t.locations[v],
    "H": lambda c, v: HAND_NAMES[v],
    "D": lambda c, v: hx.DIRECTION_NAMES[v],
    "R": lambda c, v: hx.RELATIVE_NAMES[v],
    "N": lambda c, v: v,
    "OUT": lambda c, v: _OUT[v],
    "LIMB": lambda c, v: _LIMBS[v],
}


def _held(c: _Context) -> str:
    if c.a[0] < 0:
        return ""
    kind = list(c.t.hold_kinds)[c.a[0]]
    return f" ({kind} hold leaves {c.t.hold_kinds[kind].free_arms})"


def _side(c: _Context) -> str:
    a = c.t.data.armed
    side = a.shield_side.get(a.hand_locations[c.a[2]], ())
    return ", ".join(hx.RELATIVE_NAMES[d] for d in side)


#: fields the maneuver, the window or the rules fill
_NAMED: dict[str, Callable[[_Context], Any]] = {
    "m": lambda c: c.name,
    "tags": lambda c: "/".join(c.m.tags),
    "reacts": lambda c: ", ".join(c.m.reacts_to) or "nothing",
    "against": lambda c: ", ".join(c.m.against),
    "need": lambda c: c.m.weapon,
    "needhold": lambda c: c.m.needs_hold,
    "page": lambda c: c.m.pages[0],
    "aim": lambda c: ", ".join(c.m.aim),
    "prone_allowed": lambda c: ", ".join(c.t.data.prone.allowed),
    "locations": lambda c: ", ".join(c.t.locations),
    "turns": lambda c: param_domain(c.t, c.name)[0],
    "opts": lambda c: param_domain(c.t, c.name)[2],
    "only": lambda c: ", ".join(c.mnames[k] for k in c.w.reactions_only),
    "after": lambda c: c.man(c.w.after),
    "follows": lambda c: ", ".join(c.t.follow_ons.get(c.man(c.w.after) or "", ())) or "none",
    "attack": lambda c: c.man(c.w.attack),
    "held": _held,
    "side": _side,
    "mode": lambda c: c.t.weapons[c.t.weapon_ids[c.a[0]]].modes[c.a[1]].name,
}


class _Fields(dict):
    def __init__(self, c: _Context) -> None:
        super().__init__()
        self.c = c

    def __missing__(self, key: str) -> Any:
        if key in _NAMED:
            return _NAMED[key](self.c)
        kind, k = key.rstrip("0123456789"), int(key.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        return _ARG[kind](self.c, self.c.a[k])


def render(t: Any, names: Sequence[str], w: Any, reason: tuple[int, ...] | None) -> str | None:
    """The text for the core's ``reason`` (code, maneuver, a0..a4) in core
    window ``w``; None for none (legal)."""
    if reason is None:
        return None
    return TEMPLATES[CODE_NAMES[reason[0]]].format_map(_Fields(_Context(t, names, w, reason)))


# ---------------------------------------------------------------- the Python side's objects
_I32 = (1 << 31) - 1


def _clamp(v: int) -> int:
    return max(-_I32, min(_I32, int(v)))


def choice_ids(ids: Ids, n: int, c: Choice) -> tuple[int, int, int, int, int]:
    """A maneuver choice as the core's ids: None -1; a target naming no fighter and an
    unknown location -2 (the core's kUnknown), so the reasons stay Python's."""
    target = -1 if c.target is None else c.target if 0 <= c.target < n else -2
    loc = -1 if c.location is None else ids.location.get(c.location, -2)
    return ids.maneuver[c.maneuver], target, loc, _clamp(c.turn), _clamp(c.option)


def to_choices(t: Any, rows: Any) -> list[Choice]:
    """The core's rows (maneuver, target, location, turn, option) as Python Choices."""
    mn, locs = tuple(t.maneuvers), t.locations
    return [Choice("maneuver", mn[m], None if tg < 0 else tg, None if loc < 0 else locs[loc], tu, op, 0)
            for m, tg, loc, tu, op in rows.tolist()]


class NativeView:
    """One decision of a Python State as the core sees it (tables, board, window): the
    legal list and the reasons, asked of the core without converting the state again."""

    def __init__(self, s: Any, w: Any, ids: Ids | None = None) -> None:
        self.s, self.ids = s, ids or Ids(s.t)
        self.ct, self.cs, self.cw = compile_tables(s.t), core_state(s, self.ids), core_window(self.ids, w)
        self.names = [f.name for f in s.fighters]

    def choices(self) -> list[Choice]:
        return to_choices(self.s.t, _core_choices(self.ct, self.cs, self.cw))

    def reason(self, c: Choice) -> tuple[int, ...] | None:
        """The core's reason (code, maneuver, a0..a4) for maneuver choice ``c`` of a known
        maneuver."""
        return _core_explain(self.ct, self.cs, self.cw, choice_ids(self.ids, len(self.names), c))

    def maneuver_reason(self, c: Choice) -> str:
        """Why maneuver choice ``c`` is not legal in the window (the text ``why_illegal``
        gives once the decision's own checks pass)."""
        name = c.maneuver or ""
        if name not in self.ids.maneuver:
            return f"unknown maneuver {name!r}"
        return render(self.s.t, self.names, self.cw, self.reason(c)) or f"{name}: not possible now"


def maneuver_choices(s: Any, w: Any, ids: Ids | None = None) -> list[Choice]:
    """The legal maneuver choices of board ``s`` in window ``w``, by the core."""
    return NativeView(s, w, ids).choices()


def defence_options(s: Any, y: int, x: int, attack: str, restrict: str | None = None,
                    ap: int | None = None, ids: Ids | None = None) -> tuple[str, ...]:
    """The defensive reactions ``y`` could make against ``x``'s ``attack``, by the core."""
    ids = ids or Ids(s.t)
    limb = _LIMBS.index(restrict) if restrict in _LIMBS else -1
    loc = ids.location[restrict] if restrict is not None and limb < 0 else -1
    got = _core_defence_options(compile_tables(s.t), core_state(s, ids), y, x,
                                ids.maneuver[attack], limb, loc, ap)
    names = tuple(s.t.maneuvers)
    return tuple(names[m] for m in got)

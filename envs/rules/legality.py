"""What a fighter may do now, and why not (RULES §1.5-1.7, §1.18-1.20, §2, §3, §4, §5.3).

One function per question, in the order a referee would ask them; the same functions both
list the legal choices and explain an illegal one, so the mask and the reasons never
disagree. A *window* says which decision is open: an action in one's phase, a reaction
to a trigger, or a follow-on after a success.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import hexgrid as hx
from . import weapons as wp
from .memo import edge_flags, memo_for
from .model import Choice, Window
from .tables import Tables, param_domain

if TYPE_CHECKING:
    from .state import State

DEFENSIVE = frozenset({"dodge", "block", "leg_grab", "weapon_block", "parry"})
#: maneuvers about one's own weapons: their blocks are keyed by the fighter's gear
GEAR = frozenset({"ready", "drop", "pull_out"})
_new = tuple.__new__  # fast Choice construction in the hot loop


# ---------------------------------------------------------------- maneuver level
def _candidates(s: State, w: Window) -> tuple[str, ...]:
    t = s.t
    if w.reactions_only is not None:
        return w.reactions_only
    if w.kind == "action":
        return t.held_action_maneuvers if s.hold_on(w.fighter) is not None else t.action_maneuvers
    if w.kind == "follow_on":
        return t.follow_ons.get(w.after or "", ())
    key = (w.triggers, w.attack)
    memo = memo_for(t).reactions
    hit = memo.get(key)
    if hit is None:  # depends only on the triggers and the attack (see _trigger_reason)
        hit = memo[key] = tuple(
            n for n in t.reaction_maneuvers if _trigger_reason(s, n, w) is None)
    return hit


def _trigger_reason(s: State, name: str, w: Window) -> str | None:
    m = s.t.maneuvers[name]
    hit = [tr for tr in m.reacts_to if tr in w.triggers]
    if not hit:
        return f"{name}: does not react to this (reacts to: {', '.join(m.reacts_to) or 'nothing'})"
    if hit == ["attack"] and m.against and w.attack not in m.against:
        return f"{name}: only answers {', '.join(m.against)}"
    return None


def maneuver_reason(s: State, i: int, name: str, w: Window) -> str | None:
    """Why fighter ``i`` may not use maneuver ``name`` in window ``w`` at all (or None)."""
    t = s.t
    m = t.maneuvers.get(name)
    if m is None:
        return f"unknown maneuver {name!r}"
    if not m.available:
        return f"{name}: not available in this simulator (out of scope)"
    hold_on = s.hold_on(i)
    return _window_reason(s, name, m, w, hold_on) or _fighter_reason(s, i, name, m, hold_on)


def _window_reason(s: State, name: str, m: Any, w: Window, hold_on: Any) -> str | None:
    """Does the maneuver belong in this window at all (tags, triggers, the §3 graph)?"""
    t = s.t
    if w.kind == "action":
        if "A" not in m.tags and not (m.usable_when_held and hold_on is not None):
            return f"{name}: not an action (tags {'/'.join(m.tags)})"
    elif w.kind == "follow_on":
        if name not in t.follow_ons.get(w.after or "", ()):
            nexts = ", ".join(t.follow_ons.get(w.after or "", ())) or "none"
            return f"{name}: does not follow {w.after} (follow-ups: {nexts})"
        if w.own_hand is not None and name in t.data.armed.two_handed_block_bars:
            blocker = wp.weapon_in(s, w.fighter, w.own_hand)
            if blocker is not None and blocker.hands == 2:
                return f"{name}: not after a block with the two-handed {blocker.name} (aom3221)"
    elif w.reactions_only is not None:
        if name not in w.reactions_only:
            return f"{name}: not possible now (only {', '.join(w.reactions_only)})"
    else:
        if "R" not in m.tags:
            return f"{name}: not a reaction (tags {'/'.join(m.tags)})"
        r = _trigger_reason(s, name, w)
        if r:
            return r
        if m.category in DEFENSIVE and w.no_defence:
            return f"{name}: no defensive reaction is allowed against {w.attack}"
        if w.restrict is not None:
            return limb_reason(s, w.fighter, name, m, hold_on, w.restrict)
    return None


def locked_limb(t: Tables, after: str, blocked: str | None,
                blocked_arm: str | None = None) -> str | None:
    """The limb of the target that stays locked while ``after`` is followed up (§3,
    aom322e, aom3145: after a Forearm Block or a Block, the limb whose attack ``blocked``
    was blocked; a weapon attack's: the arm that holds the weapon, ``blocked_arm``)."""
    if blocked is not None and t.data.follow_on_defence.get(after) == "blocked_limb":
        if t.maneuvers[blocked].weapon is not None and blocked_arm is not None:
            return blocked_arm
        return t.maneuvers[blocked].limb
    return None


def limb_reason(s: State, i: int, name: str, m: Any, hold_on: Any,
                locked: str | None = None) -> str | None:
    """Is the limb the maneuver is made with free? An arm maneuver needs a free arm: a hold
    leaves the held fighter its kind's ``free_arms`` (aom3225: not the grabbed arm), and a
    ``locked`` limb (a block locked it, aom322e) takes one more; so a blocked punch leaves
    the other arm free, a blocked kick both arms. A hand holding a weapon is not free
    (``weapons.busy_arms``). A locked leg or head makes no maneuver."""
    if m.limb is None:
        return None
    t = s.t
    if m.limb == "arm":
        arms = t.hold_kinds[hold_on.kind].free_arms if hold_on is not None else t.data.holds.arms
        if locked == "arm":
            arms -= 1
        if s.fighters[i].hands != (None, None) or locked in t.data.armed.arm_locations:
            arms -= wp.busy_arms(s, i, hold_on, locked)
        if arms < 1:
            why = "the blocked arm is locked (aom322e)" if locked == "arm" else \
                "no free arm (a hand holding a weapon is not free)"
            held = f" ({hold_on.kind} hold leaves {t.hold_kinds[hold_on.kind].free_arms})" if hold_on else ""
            return f"{name}: {why}{held}"
    elif m.limb == locked:
        return f"{name}: the blocked {locked} is locked (aom322e)"
    return None


def _fighter_reason(s: State, i: int, name: str, m: Any, hold_on: Any,
                    ap: int | None = None) -> str | None:
    """Can this fighter, as he stands (AP, prone, held, holding, mounted), use it? ``ap``:
    with that many AP instead of his own (an agent asking ahead, :func:`defence_options`).

    Reads only ``fighter_status``'s fields, so the enumeration may memoise it."""
    t = s.t
    f = s.fighters[i]
    cost = m.ap
    have = f.ap if ap is None else ap
    if cost > have:
        return f"{name}: needs {cost} AP, {f.name} has {have}"
    if f.prone and name not in t.data.prone.allowed:
        return f"{name}: not allowed while prone (allowed: {', '.join(t.data.prone.allowed)})"
    if m.category == "stand" and not f.prone:
        return f"{name}: not prone"
    if m.category == "break" and hold_on is None:
        return f"{name}: nobody holds {f.name}"
    if hold_on is not None:
        kind = t.hold_kinds[hold_on.kind]
        if name not in kind.held_may:
            return f"{name}: not allowed while held ({hold_on.kind} hold, §1.18/§5.14)"
        if kind.held_attacks_barred_from_behind and hold_on.from_behind and t.is_attack(name):
            return f"{name}: grappled from behind, cannot attack the holder (aom3216)"
    limb = limb_reason(s, i, name, m, hold_on)
    if limb:
        return limb
    gear = _gear_reason(s, i, name, m)
    if gear:
        return gear
    if s.hold_by(i) is not None and (m.category == "move" or m.moves is not None):  # holding
        return f"{name}: holding someone; release first (a holder cannot leave the hex)"
    if f.mounted and m.mounted == "no":
        return f"{name}: not allowed mounted (§1.20)"
    if f.mounted and m.kick and m.range == 1 and not t.data.mounted.range1_kicks_allowed:
        return f"{name}: no kicks at range 1 from the saddle (§5.26)"
    return None


def _gear_reason(s: State, i: int, name: str, m: Any) -> str | None:
    """Weapon maneuvers need the weapon (aom3142, aom3145, aom3211), Ready weapon something
    to ready and a hand for it (aom314a), Pull out weapon a weapon stuck in one (aom1d35)."""
    f = s.fighters[i]
    if m.weapon is not None and not wp.has_weapon_for(s, i, m):
        return f"{name}: needs a {m.weapon} weapon in hand"
    if m.category == "ready":
        if not f.sheathed and not (s.dropped and wp.ground_here(s, i)):
            return f"{name}: no weapon sheathed or lying in the hex"
        if f.hands[0] is not None and f.hands[1] is not None:
            return f"{name}: no empty hand"
    if m.category == "drop" and f.hands == (None, None):
        return f"{name}: nothing in hand"
    if m.category == "pull_out" and not f.stuck:
        return f"{name}: no weapon is stuck in {f.name}"
    return None


# ---------------------------------------------------------------- target level
def target_reason(s: State, i: int, name: str, target: int | None) -> str | None:
    t = s.t
    m = t.maneuvers[name]
    if not t.is_attack(name):
        return None if target is None else f"{name}: takes no target"
    if target is None or not 0 <= target < len(s.fighters) or target == i:
        return f"{name}: needs an opponent as target"
    f, g = s.fighters[i], s.fighters[target]
    if not g.active:
        return f"{name}: {g.name} is {g.out}"
    if s.game.sides[i] == s.game.sides[target] and not t.data.sides.friendly_attacks:
        return f"{name}: {g.name} is on your side"
    hold_on = s.hold_on(i)
    if hold_on is not None and hold_on.holder != target:
        return f"{name}: while held, only the holder can be attacked"
    holding = s.hold_by(i)
    if m.hold and holding is not None and holding.held != target and t.data.holds.one_hold_per_holder:
        return f"{name}: already holding {s.fighters[holding.held].name} (one hold at a time)"
    if m.needs_hold:
        if holding is None or holding.held != target or holding.kind != m.needs_hold:
            return f"{name}: needs a {m.needs_hold} hold on {g.name} ({m.pages[0]})"
    if m.category == "pull_down" and (holding is None or holding.held != target):
        return f"{name}: needs a hold on {g.name} (follows Arm Grab)"
    if m.category == "throw" and (holding is None or holding.held != target):
        return f"{name}: needs a hold on {g.name} (aom3228)"
    if f.mounted and m.mounted == "same_height" and t.data.mounted.close_needs_same_height:
        if g.height != f.height:
            return f"{name}: mounted, only against someone at the same height (§1.20)"
    return None


def geometry_reason(
    s: State, i: int, name: str, target: int | None, turn: int, option: int, w: Window
) -> str | None:
    """Range, arc and destination checks, which depend on the optional turn and option."""
    t = s.t
    m = t.maneuvers[name]
    facing = hx.turn(s.fighters[i].facing, turn)
    if m.category == "turn":
        return None if turn else f"{name}: choose how far to turn"
    if m.category == "move":
        return _move_reason(s, i, name, turn, option, facing, w)
    if w.kind == "reaction" and w.attacker is not None and m.category in DEFENSIVE:
        return _defence_geometry(s, i, name, m, option, facing, w.attacker)
    if not t.is_attack(name) or target is None:
        return None
    if m.range == 0:
        return _close_reason(s, i, name, m, target, facing)
    if m.weapon is not None:
        return _weapon_reach_reason(s, i, name, m, target, option, facing)
    return _reach_reason(s, i, name, m, target, option, facing)


def _move_reason(s: State, i: int, name: str, turn: int, option: int, facing: int,
                 w: Window) -> str | None:
    """A Move (aom3141): a follower goes the leader's way, no farther (§2.1); the path
    stays on the arena and passes no occupied hex."""
    t = s.t
    if w.kind == "reaction" and w.follow is not None:
        way = facing if option > 0 else hx.opposite(facing)
        if way != w.follow[0]:
            return f"{name}: following moves the way the leader went ({hx.DIRECTION_NAMES[w.follow[0]]})"
        if t.data.movement.follow_no_farther and abs(option) > w.follow[1]:
            return f"{name}: no farther than the leader ({w.follow[1]} hex)"
    path = move_path(s, i, turn, option)
    for k, pos in enumerate(path):
        if not s.on_board(pos):
            return f"{name}: would leave the arena"
        if k < len(path) - 1 and not t.data.movement.move_through_occupied and any(
            g.pos == pos and g.idx != i and g.active for g in s.fighters
        ):
            return f"{name}: cannot move through an occupied hex"
    return None


def _defence_geometry(s: State, i: int, name: str, m: Any, option: int, facing: int,
                      attacker: int) -> str | None:
    """A defensive reaction: the attack through the front arc (aom315), room to dodge."""
    arc = s.arc(attacker, i, facing)
    blocker = wp.weapon_in(s, i, option) if m.weapon == "block" and option in (0, 1) else None
    if blocker is not None and blocker.block_arc == "shield_side":
        side = s.t.data.armed.shield_side[s.t.data.armed.hand_locations[option]]
        if arc not in side:  # aom3145: a shield covers the three hexes of its side
            return (f"{name}: the attack comes from the {hx.RELATIVE_NAMES[arc]}; the "
                    f"{blocker.name} covers {', '.join(hx.RELATIVE_NAMES[d] for d in side)}")
    elif m.front_arc_only and arc not in hx.FRONT_ARC:
        return (f"{name}: the attack comes from the {hx.RELATIVE_NAMES[arc]}; only attacks "
                "through the front three hexes can be defended")
    if m.moves is not None:
        dest = dodge_destination(s, i, attacker, m.moves, option)
        if dest is None or not s.on_board(dest):
            return f"{name}: no room to dodge (would leave the arena)"
    return None


def _close_reason(s: State, i: int, name: str, m: Any, target: int, facing: int) -> str | None:
    """A range-0 attack: in the target's hex, or closing into it from the next (aom321)."""
    f, g = s.fighters[i], s.fighters[target]
    dist = hx.distance(f.pos, g.pos)
    if dist == 0:
        return None
    if not m.may_close or dist != 1:
        return f"{name}: {g.name} is not in or next to your hex"
    if s.hold_on(i) is not None or s.hold_by(i) is not None:
        return f"{name}: cannot close into another hex while holding or held"
    if s.t.data.attack.closing_requires_front_arc:
        d = hx.direction_to(f.pos, g.pos)
        if d is None or not hx.in_front_arc(d, facing):
            return f"{name}: {g.name}'s hex is not in your front three hexes (turn first)"
    return None


def _reach_reason(s: State, i: int, name: str, m: Any, target: int, option: int,
                  facing: int) -> str | None:
    """A range-1 attack: an adjacent target in the front arc (a flying kick first steps
    one hex forward, aom3222)."""
    f, g = s.fighters[i], s.fighters[target]
    pos = f.pos
    dist = hx.distance(f.pos, g.pos)
    if option == 1 and m.may_advance:
        if s.hold_on(i) is not None or s.hold_by(i) is not None:
            return f"{name}: cannot fly while holding or held"
        pos = hx.neighbour(f.pos, facing)
        if not s.on_board(pos):
            return f"{name}: would leave the arena"
        dist = hx.distance(pos, g.pos)
    if dist == 0 and s.t.data.attack.range1_reaches_same_hex:
        return None
    if dist != 1:
        return f"{name}: {g.name} is not in an adjacent hex"
    if not m.any_direction:
        d = hx.direction_to(pos, g.pos)
        if d is None or not hx.in_front_arc(d, facing):
            return f"{name}: {g.name} is not in your front three hexes"
    return None


def _weapon_reach_reason(s: State, i: int, name: str, m: Any, target: int, option: int,
                         facing: int) -> str | None:
    """A melee weapon attack: the target in the weapon's strike zone (aom3142: the front
    three hexes, a polearm's also the three beyond), not in one's own hex
    (``armed.melee_in_own_hex``); Advance and attack first steps one hex forward into an
    empty hex (aom3143)."""
    f, g = s.fighters[i], s.fighters[target]
    hand, _ = wp.split(s.t, m, option)
    w = wp.weapon_in(s, i, hand) if hand in (0, 1) else None
    if w is None or w.kind != "melee":
        return None  # option_reason says why (hand_reason)
    pos = f.pos
    if m.advances:
        if s.hold_on(i) is not None or s.hold_by(i) is not None:
            return f"{name}: cannot advance while holding or held"
        pos = hx.neighbour(f.pos, facing)
        if not s.on_board(pos):
            return f"{name}: would leave the arena"
        if not s.t.data.armed.advance_into_occupied and any(
                h.pos == pos and h.idx != i and h.out is None for h in s.fighters):
            return f"{name}: the hex to advance into is occupied"
    if g.pos == pos:
        if s.t.data.armed.melee_in_own_hex:
            return None
        return (f"{name}: {g.name} is in your hex; a {w.name} strikes into the front hexes "
                "(close combat needs a close-combat weapon)")
    if g.pos not in wp.strike_zone(s, pos, facing, w):
        return f"{name}: {g.name} is out of the {w.name}'s reach (front three hexes" + (
            " and the three beyond)" if w.reach >= 2 else ")")
    return None


def move_path(s: State, i: int, turn: int, option: int) -> list[hx.Hex]:
    """The hexes a Move of fighter ``i`` (optional ``turn`` first, ``option`` hexes forward
    or -1 back, aom3141) passes through, the last one where it ends."""
    f = s.fighters[i]
    facing = hx.turn(f.facing, turn)
    if option <= 0:
        return [hx.neighbour(f.pos, hx.opposite(facing))]
    path, pos = [], f.pos
    for _ in range(option):
        pos = hx.neighbour(pos, facing)
        path.append(pos)
    return path


def throw_destination(s: State, i: int, turn: int, option: int) -> hx.Hex:
    f = s.fighters[i]
    return hx.neighbour(f.pos, hx.turn(f.facing, turn) + option)


def dodge_destination(s: State, i: int, attacker: int, moves: str, option: int) -> hx.Hex | None:
    """Where a moving dodge takes the dodger (aom3146, aom3147, aom322b)."""
    f, a = s.fighters[i], s.fighters[attacker]
    d = s.attack_direction(attacker, i)
    same = f.pos == a.pos
    if moves == "away":
        return hx.neighbour(f.pos, hx.opposite(d))
    if moves == "side":
        mv = s.t.data.movement
        offs = mv.side_step_offsets_same_hex if same else mv.side_step_offsets_adjacent
        if option >= len(offs):
            return None
        return hx.neighbour(f.pos, d + offs[option])
    # toward: into the attacker's hex, or through it when already there
    return hx.neighbour(f.pos, d) if same else a.pos


def defence_options(s: State, y: int, x: int, attack: str, restrict: str | None = None,
                    ap: int | None = None) -> tuple[str, ...]:
    """The defensive reactions ``y`` could answer ``x``'s ``attack`` with if it came now
    (with ``ap`` AP instead of his own; ``restrict``: a limb a block locked, aom322e): the
    reaction window's own reasons (§1.7, §4, aom315, aom3226), asked ahead of the attack,
    so that an agent weighing an attack never re-derives who may defend how."""
    t = s.t
    w = Window("reaction", y, frozenset({"attack"}), attacker=x, attack=attack,
               no_defence=t.maneuvers[attack].no_defence, restrict=restrict)
    hold_on = s.hold_on(y)
    out = []
    for name in t.reaction_maneuvers:
        m = t.maneuvers[name]
        if m.category not in DEFENSIVE or _window_reason(s, name, m, w, hold_on) \
                or _fighter_reason(s, y, name, m, hold_on, ap):
            continue
        turns, _, opts = t.domain[name]
        if any(geometry_reason(s, y, name, None, tu, op, w) is None for tu in turns for op in opts):
            out.append(name)
    return tuple(out)


def location_reason(s: State, i: int, name: str, target: int | None, loc: str | None) -> str | None:
    t = s.t
    m = t.maneuvers[name]
    if not t.is_attack(name) or m.aim == "whole":
        return None if loc is None else f"{name}: whole-body maneuver, cannot aim"
    if loc is None or loc not in t.loc_aim:
        return f"{name}: needs an aimed location, one of {', '.join(t.locations)}"
    prone = target is not None and s.fighters[target].prone
    if loc not in t.allowed_locs[name][prone]:
        return f"{name}: cannot aim at the {loc} (only {', '.join(m.aim)})"
    if m.needs_hold:
        h = s.hold_by(i)
        if h is not None and h.location is not None and h.location != loc:
            return f"{name}: must lock the held arm ({h.location})"
    return None


def option_reason(s: State, i: int, name: str, turn: int, option: int,
                  w: Window | None = None) -> str | None:
    """The option's own checks: a throw's landing hex; the hand and mode of a weapon
    maneuver (``weapons.hand_reason``); the weapon Ready weapon readies; the hand a weapon
    is dropped from."""
    m = s.t.maneuvers[name]
    if m.category == "throw":
        dest = throw_destination(s, i, turn, option)
        if not s.on_board(dest):
            return f"{name}: the landing hex is off the arena"
    elif m.weapon is not None:
        restrict = w.restrict if w is not None and w.kind == "reaction" else None
        return wp.hand_reason(s, i, name, m, option, s.hold_on(i), restrict,
                              w.own_hand if w is not None else None)
    elif m.category == "ready":
        return wp.ready_reason(s, i, name, option)
    elif m.category == "drop" and s.fighters[i].hands[option] is None:
        return f"{name}: nothing in the {wp.HAND_NAMES[option]} hand"
    elif m.category == "drop" and option == 1 and s.fighters[i].hands[0] == s.fighters[i].hands[1] \
            and s.t.weapons[s.fighters[i].hands[1]].hands == 2:
        return f"{name}: the two-handed weapon is dropped as the right hand's"
    return None


def grab_location_reason(s: State, name: str, m: Any, loc: str | None, w: Window,
                         target: int | None = None) -> str | None:
    """aom3225: an Arm Grab after a Forearm Block grabs the blocked arm: the weapon arm
    when the blocked attack was made with a weapon (the follow-on window's ``restrict``),
    of the fighter who was blocked (``locked_fighter``; a third fighter's arms are free)."""
    if w.locked_fighter is not None and target is not None and target != w.locked_fighter:
        return None
    if (w.kind == "follow_on" and m.category == "grab" and w.restrict is not None
            and w.restrict in s.t.data.armed.arm_locations and loc != w.restrict):
        return f"{name}: grabs the blocked arm ({w.restrict}, aom3225)"
    return None


# ---------------------------------------------------------------- enumeration
# The legal list is put together from memoised *blocks*: the legal choices of one maneuver
# (against one target), computed by the reason functions above and kept under a key that
# holds everything those functions read. Keys are relative to the deciding fighter (other
# fighters as hex offsets, the arena's edge as on-board flags of the few hexes a maneuver
# can reach), so that one block serves every hex of the arena alike; a key that named
# absolute hexes was rarely met twice in a fight.

#: attacks reach at most this far: range 1 after an optional one-hex advance (flying
#: kick); from farther away geometry_reason rejects every attack, whatever the offset. A
#: polearm reaches one hex more (``Tables.attack_reach``).
ATTACK_REACH = 2


def _situation(s: State, i: int, kind: str, w: Window) -> tuple[Any, ...]:
    """Everything ``geometry_reason``/``option_reason`` read for a maneuver that is not an
    attack. A Move: the mover's facing, the arena's edge along its paths and the other
    fighters within reach (hexes it cannot move through); a defensive reaction: the
    defender's facing, the attack's direction, whether attacker and defender share a hex,
    the edge next to the defender and whether the attacker's hex is on the arena (a dodge
    toward him ends there). The rest (Turn, Soak, Stand up, Break Hold...) read nothing:
    their blocks are kept by name alone (``LegalityMemo.plain``)."""
    f = s.fighters[i]
    radius = s.game.radius
    if kind == "move":
        reach = s.t.move_reach
        fp = f.pos
        near = []
        for g in s.fighters:
            if g.idx != i and g.out is None:
                dq = g.pos[0] - fp[0]
                dr = g.pos[1] - fp[1]
                if abs(dq) + abs(dr) + abs(dq + dr) <= 2 * reach:
                    near.append((dq, dr))
        return ("move", f.facing, edge_flags(fp, radius, reach), tuple(near), w.follow)
    if kind == "defence":
        a = s.fighters[w.attacker]  # type: ignore[index]
        gear = wp.gear_key(s, i)
        return ("defence", f.facing, s.attack_direction(w.attacker, i),  # type: ignore[arg-type]
                a.pos == f.pos, edge_flags(f.pos, radius, 1), s.on_board(a.pos),
                None if gear is None else (gear, w.restrict, _hold_loc(s.hold_on(i))))
    if kind == "gear":
        return ("gear", wp.gear_key(s, i))
    raise ValueError(f"no situation for {kind!r}")


def _hold_loc(h: Any) -> Any:
    return None if h is None else (h.kind, h.location)


def _target_key(s: State, i: int, tg: int, hold_on: Any, holding: Any, w: Window) -> tuple[Any, ...]:
    """Everything ``target_reason``, ``location_reason``, ``geometry_reason`` and
    ``option_reason`` read for an attack by ``i`` on ``tg``: the target's state, the holds
    between them, heights when mounted, the target's offset (None beyond ATTACK_REACH), the
    attacker's facing and the on-board flags of his neighbours (flying kick, throws)."""
    f = s.fighters[i]
    g = s.fighters[tg]
    fp = f.pos
    dq = g.pos[0] - fp[0]
    dr = g.pos[1] - fp[1]
    gear = wp.gear_key(s, i)
    reach = ATTACK_REACH if gear is None else s.t.attack_reach
    offset = (dq, dr) if abs(dq) + abs(dr) + abs(dq + dr) <= 2 * reach else None
    key = (tg, s.game.sides[i] == s.game.sides[tg], g.out is None, g.prone, g.height, offset, f.facing,
           edge_flags(fp, s.game.radius, 1), f.mounted, f.height,
           None if hold_on is None else hold_on.holder,
           None if holding is None else (holding.held, holding.kind, holding.location))
    if gear is None:
        if w.restrict is not None and w.restrict in s.t.data.armed.arm_locations:
            return key + (w.restrict, w.locked_fighter)  # a follow-on's grab: the blocked arm
        return key
    # an armed fighter's attacks also read the hands, AP (mode costs), the hold's arm, what
    # a block locked (a reaction's hands; a follow-on grab's arm, in every kind of window)
    # or engaged, and who stands where it would advance to
    near = tuple((h.pos[0] - fp[0], h.pos[1] - fp[1]) for h in s.fighters
                 if h.idx not in (i, tg) and h.out is None and hx.distance(h.pos, fp) <= 1)
    return key + (gear, _hold_loc(hold_on), w.restrict, w.locked_fighter, w.own_hand, near)


def fighter_status(f: Any, hold_on: Any, holding: Any, max_ap: int,
                   gear: Any = None) -> tuple[Any, ...]:
    """Everything ``_fighter_reason`` reads about fighter ``f`` (its memo key), given the
    hold on him and his own hold; AP only as far as a maneuver's cost can tell them apart
    (``max_ap``: the costliest maneuver's AP); the held arm (a weapon hand or a blocked
    arm may be the one held: ``weapons.busy_arms``); ``gear``: his weapons
    (``weapons.gear_key``)."""
    status = (min(f.ap, max_ap), f.prone, f.mounted,
              None if hold_on is None else (hold_on.kind, hold_on.from_behind, hold_on.location),
              holding is not None)
    return status if gear is None else status + (gear[:4],)


def _usable(s: State, i: int, w: Window) -> tuple[tuple[str, Any, str], ...]:
    """The maneuvers fighter ``i`` may use in ``w`` (``maneuver_reason`` is None), each
    with what its block depends on: "attack" (a target), "move", "defence" (the attack's
    geometry) or "none". Depends on ``w`` and ``fighter_status`` only."""
    t = s.t
    hold_on = s.hold_on(i)
    # other windows' candidates already fit the window, but for a follow-on after a Block
    # (its two-handed bar, aom3221)
    check_window = w.kind == "reaction" or w.own_hand is not None
    defence_window = check_window and w.attacker is not None
    out = []
    for name in _candidates(s, w):
        m = t.maneuvers[name]
        if _fighter_reason(s, i, name, m, hold_on) or (
                check_window and _window_reason(s, name, m, w, hold_on)):
            continue
        if t.attack[name]:
            kind = "attack"
        elif m.category == "move":
            kind = "move"
        elif m.category in GEAR:
            kind = "gear"
        elif m.category in DEFENSIVE and defence_window:
            kind = "defence"
        else:
            kind = "none"
        out.append((name, m, kind))
    return tuple(out)


def _block(s: State, w: Window, i: int, name: str, m: Any, tg: int | None) -> tuple[Choice, ...]:
    """The legal choices of maneuver ``name`` (usable by ``i``) against ``tg``, straight
    from the reason functions, in the catalogue's order (turn, option, location)."""
    t = s.t
    if target_reason(s, i, name, tg):
        return ()
    turns, locs, opts = t.domain[name]
    if m.needs_hold:
        ok_locs = tuple(loc for loc in locs if location_reason(s, i, name, tg, loc) is None)
    else:
        ok_locs = t.allowed_locs[name][tg is not None and s.fighters[tg].prone]
    if w.restrict is not None and w.kind == "follow_on" and m.category == "grab":
        ok_locs = tuple(loc for loc in ok_locs
                        if grab_location_reason(s, name, m, loc, w, tg) is None)
    rows = memo_for(t).rows  # shared rows of choices: blocks hold no copies
    out: list[Choice] = []
    for tu in turns:
        for op in opts:
            if geometry_reason(s, i, name, tg, tu, op, w) or option_reason(s, i, name, tu, op, w):
                continue
            rkey = (name, tg, tu, op, ok_locs)
            row = rows.get(rkey)
            if row is None:
                row = rows[rkey] = tuple(
                    _new(Choice, ("maneuver", name, tg, loc, tu, op, 0)) for loc in ok_locs)
            out.extend(row)
    return tuple(out)


def maneuver_choices(s: State, w: Window) -> list[Choice]:
    """Every legal maneuver choice in window ``w``.

    The same reason functions as ``explain`` decide; their results are memoised per rule
    set in blocks (see ``_usable``, ``_target_key``, ``_situation``), which keeps this
    fast: on a hit a maneuver costs one dict lookup.
    """
    t = s.t
    i = w.fighter
    f = s.fighters[i]
    if s.holds:
        hold_on = s.hold_on(i)
        holding = s.hold_by(i)
    else:
        hold_on = holding = None
    memo = memo_for(t)
    memo.bound()
    usable_memo = memo.usable
    blocks_memo = memo.blocks
    ukey = (w, fighter_status(f, hold_on, holding, t.max_ap_cost, wp.gear_key(s, i)))
    usable = usable_memo.get(ukey)
    if usable is None:
        usable = usable_memo[ukey] = _usable(s, i, w)
    out: list[Choice] = []
    by_target: list[tuple[int, dict[str, tuple[Choice, ...]]]] | None = None
    situations: dict[str, dict[str, tuple[Choice, ...]]] = {}  # move, defence, gear
    plain = memo.plain
    for name, m, kind in usable:
        if kind == "attack":
            if by_target is None:
                targets = ([w.attacker] if w.kind == "reaction" and w.attacker is not None
                           else s.others(i))
                by_target = []
                for tg in targets:
                    tk = _target_key(s, i, tg, hold_on, holding, w)
                    blocks = blocks_memo.get(tk)
                    if blocks is None:
                        blocks = blocks_memo[tk] = {}
                    by_target.append((tg, blocks))
            for tg, blocks in by_target:
                block = blocks.get(name)
                if block is None:
                    block = blocks[name] = _block(s, w, i, name, m, tg)
                out.extend(block)
            continue
        if kind == "none":
            blocks = plain
        else:
            blocks = situations.get(kind)  # type: ignore[assignment]
            if blocks is None:
                blocks = situations[kind] = _situation_blocks(s, i, kind, w)
        block = blocks.get(name)
        if block is None:
            block = blocks[name] = _block(s, w, i, name, m, None)
        out.extend(block)
    return out


def _situation_blocks(s: State, i: int, kind: str, w: Window) -> dict[str, tuple[Choice, ...]]:
    """The memo of blocks (maneuver -> choices) for ``i``'s current ``kind`` situation."""
    sk = _situation(s, i, kind, w)
    memo = memo_for(s.t).blocks
    blocks = memo.get(sk)
    if blocks is None:
        blocks = memo[sk] = {}
    return blocks


def decision_reason(s: State, c: Choice) -> str | None:
    """What the pending decision itself says against ``c`` (the fight is over, another kind
    of choice, a risk out of range, no maneuver window), or None: then the maneuver's reasons
    decide. The core's ``explain`` (``native_reasons.explain``) asks the same."""
    pend = s._pending
    if pend is None:
        return "the fight is over"
    decision, choices = pend
    who = s.fighters[decision.fighter].name
    kinds = sorted({ch.kind for ch in choices})
    if c.kind not in kinds:
        return f"it is {who}'s {decision.kind} decision now; allowed kinds: {', '.join(kinds)}"
    if c.kind == "risk":
        return f"risk must be 0..{s.t.max_risk} dice"
    if c.kind != "maneuver":
        return f"{c.kind}: not possible now"
    if getattr(s.stack[-1], "window", None) is None:
        return f"{c.maneuver}: not possible now"
    return None


def explain(s: State, c: Choice) -> str:
    """A short reason why ``c`` is not legal in the current decision."""
    why = decision_reason(s, c)
    if why is not None:
        return why
    decision = s._pending[0]
    w: Any = s.stack[-1].window
    i = decision.fighter
    name = c.maneuver or ""
    r = maneuver_reason(s, i, name, w)
    if r:
        return r
    turns, locs, opts = param_domain(s.t, name)
    if c.turn not in turns:
        return f"{name}: turn must be one of {turns}"
    if c.option not in opts:
        return f"{name}: option must be one of {opts}"
    if w.kind == "reaction" and w.attacker is not None and s.t.is_attack(name) and c.target != w.attacker:
        return f"{name}: a counter-attack must target the attacker"
    return (
        target_reason(s, i, name, c.target)
        or location_reason(s, i, name, c.target, c.location)
        or grab_location_reason(s, name, s.t.maneuvers[name], c.location, w, c.target)
        or geometry_reason(s, i, name, c.target, c.turn, c.option, w)
        or option_reason(s, i, name, c.turn, c.option, w)
        or f"{name}: not possible now"
    )

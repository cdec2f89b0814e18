"""What a fighter may do now, and why not (RULES §1.5-1.7, §1.18-1.20, §2, §3, §4, §5.3).

One function per question, in the order a referee would ask them; the same functions both
list the legal choices and explain an illegal one, so the mask and the reasons never
disagree. A *window* says which decision is open: an action in one's phase, a reaction
to a trigger, or a follow-on after a success.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from . import hexgrid as hx
from .memo import edge_flags, memo_for
from .model import Choice
from .tables import Tables, param_domain

if TYPE_CHECKING:
    from .state import State

DEFENSIVE = frozenset({"dodge", "block", "leg_grab"})
_new = tuple.__new__  # fast Choice construction in the hot loop


class Window(NamedTuple):
    """An open decision window for maneuvers."""

    kind: str  # "action", "reaction" or "follow_on"
    fighter: int
    triggers: frozenset[str] = frozenset()
    attacker: int | None = None  # who triggered the reaction
    attack: str | None = None  # the attacking maneuver reacted to
    after: str | None = None  # the maneuver a follow-on follows
    no_defence: bool = False  # the attack allows no defensive reaction (aom3227, aom3228)
    restrict: str | None = None  # follow_on_defence restriction for the defender
    reactions_only: tuple[str, ...] | None = None  # explicit list (e.g. soak window)
    follow: tuple[int, int] | None = None  # a phasing ally's move: (direction, hexes)


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
    if not m.unarmed:
        if m.category == "speak":
            return f"{name}: not available in this simulator (out of scope)"
        return f"{name}: needs a weapon, not available unarmed"
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
            return limb_reason(s, name, m, hold_on, w.restrict)
    return None


def locked_limb(t: Tables, after: str, blocked: str | None) -> str | None:
    """The limb of the target that stays locked while ``after`` is followed up (§3,
    aom322e: after a Forearm Block, the limb whose attack ``blocked`` was blocked)."""
    if blocked is not None and t.data.follow_on_defence.get(after) == "blocked_limb":
        return t.maneuvers[blocked].limb
    return None


def limb_reason(s: State, name: str, m: Any, hold_on: Any, locked: str | None = None) -> str | None:
    """Is the limb the maneuver is made with free? An arm maneuver needs a free arm: a hold
    leaves the held fighter its kind's ``free_arms`` (aom3225: not the grabbed arm), and a
    ``locked`` limb (a block locked it, aom322e) takes one more; so a blocked punch leaves
    the other arm free, a blocked kick both arms. A locked leg or head makes no maneuver."""
    if m.limb is None:
        return None
    t = s.t
    if m.limb == "arm":
        arms = t.hold_kinds[hold_on.kind].free_arms if hold_on is not None else t.data.holds.arms
        if locked == "arm":
            arms -= 1
        if arms < 1:
            why = "the blocked arm is locked (aom322e)" if locked == "arm" else "no free arm"
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
    limb = limb_reason(s, name, m, hold_on)
    if limb:
        return limb
    if s.hold_by(i) is not None and (m.category == "move" or m.moves is not None):  # holding
        return f"{name}: holding someone; release first (a holder cannot leave the hex)"
    if f.mounted and m.mounted == "no":
        return f"{name}: not allowed mounted (§1.20)"
    if f.mounted and m.kick and m.range == 1 and not t.data.mounted.range1_kicks_allowed:
        return f"{name}: no kicks at range 1 from the saddle (§5.26)"
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
    if m.front_arc_only and arc not in hx.FRONT_ARC:
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


def option_reason(s: State, i: int, name: str, turn: int, option: int) -> str | None:
    m = s.t.maneuvers[name]
    if m.category == "throw":
        dest = throw_destination(s, i, turn, option)
        if not s.on_board(dest):
            return f"{name}: the landing hex is off the arena"
    return None


# ---------------------------------------------------------------- enumeration
# The legal list is put together from memoised *blocks*: the legal choices of one maneuver
# (against one target), computed by the reason functions above and kept under a key that
# holds everything those functions read. Keys are relative to the deciding fighter (other
# fighters as hex offsets, the arena's edge as on-board flags of the few hexes a maneuver
# can reach), so that one block serves every hex of the arena alike; a key that named
# absolute hexes was rarely met twice in a fight.

#: attacks reach at most this far: range 1 after an optional one-hex advance (flying
#: kick); from farther away geometry_reason rejects every attack, whatever the offset
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
        return ("defence", f.facing, s.attack_direction(w.attacker, i),  # type: ignore[arg-type]
                a.pos == f.pos, edge_flags(f.pos, radius, 1), s.on_board(a.pos))
    raise ValueError(f"no situation for {kind!r}")


def _target_key(s: State, i: int, tg: int, hold_on: Any, holding: Any) -> tuple[Any, ...]:
    """Everything ``target_reason``, ``location_reason``, ``geometry_reason`` and
    ``option_reason`` read for an attack by ``i`` on ``tg``: the target's state, the holds
    between them, heights when mounted, the target's offset (None beyond ATTACK_REACH), the
    attacker's facing and the on-board flags of his neighbours (flying kick, throws)."""
    f = s.fighters[i]
    g = s.fighters[tg]
    fp = f.pos
    dq = g.pos[0] - fp[0]
    dr = g.pos[1] - fp[1]
    offset = (dq, dr) if abs(dq) + abs(dr) + abs(dq + dr) <= 2 * ATTACK_REACH else None
    return (tg, s.game.sides[i] == s.game.sides[tg], g.out is None, g.prone, g.height, offset, f.facing,
            edge_flags(fp, s.game.radius, 1), f.mounted, f.height,
            None if hold_on is None else hold_on.holder,
            None if holding is None else (holding.held, holding.kind, holding.location))


def fighter_status(f: Any, hold_on: Any, holding: Any, max_ap: int) -> tuple[Any, ...]:
    """Everything ``_fighter_reason`` reads about fighter ``f`` (its memo key), given the
    hold on him and his own hold; AP only as far as a maneuver's cost can tell them apart
    (``max_ap``: the costliest maneuver's AP)."""
    return (min(f.ap, max_ap), f.prone, f.mounted,
            None if hold_on is None else (hold_on.kind, hold_on.from_behind), holding is not None)


def _usable(s: State, i: int, w: Window) -> tuple[tuple[str, Any, str], ...]:
    """The maneuvers fighter ``i`` may use in ``w`` (``maneuver_reason`` is None), each
    with what its block depends on: "attack" (a target), "move", "defence" (the attack's
    geometry) or "none". Depends on ``w`` and ``fighter_status`` only."""
    t = s.t
    hold_on = s.hold_on(i)
    check_window = w.kind == "reaction"  # other windows' candidates already fit the window
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
    rows = memo_for(t).rows  # shared rows of choices: blocks hold no copies
    out: list[Choice] = []
    for tu in turns:
        for op in opts:
            if geometry_reason(s, i, name, tg, tu, op, w) or option_reason(s, i, name, tu, op):
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
    ukey = (w, fighter_status(f, hold_on, holding, t.max_ap_cost))
    usable = usable_memo.get(ukey)
    if usable is None:
        usable = usable_memo[ukey] = _usable(s, i, w)
    out: list[Choice] = []
    by_target: list[tuple[int, dict[str, tuple[Choice, ...]]]] | None = None
    moves = defences = None
    plain = memo.plain
    for name, m, kind in usable:
        if kind == "attack":
            if by_target is None:
                targets = ([w.attacker] if w.kind == "reaction" and w.attacker is not None
                           else s.others(i))
                by_target = []
                for tg in targets:
                    tk = _target_key(s, i, tg, hold_on, holding)
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
        elif kind == "move":
            if moves is None:
                moves = _situation_blocks(s, i, kind, w)
            blocks = moves
        else:
            if defences is None:
                defences = _situation_blocks(s, i, kind, w)
            blocks = defences
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


def explain(s: State, c: Choice) -> str:
    """A short reason why ``c`` is not legal in the current decision."""
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
    w: Any = getattr(s.stack[-1], "window", None)
    if w is None:
        return f"{c.maneuver}: not possible now"
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
        or geometry_reason(s, i, name, c.target, c.turn, c.option, w)
        or option_reason(s, i, name, c.turn, c.option)
        or f"{name}: not possible now"
    )

"""Resolution frames: the turn, a phase, a move, an attack, a hit, a hold break.

Each frame is one step of the rules that may need decisions on the way (RULES §1.4-1.19).
``step(state)`` does the automatic work and returns ``(Decision, choices)`` when someone
must decide (or None after changing the stack); ``answer(state, choice)`` records the
decision. Frames hold only plain values, so ``copy()`` is a dict copy.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

from . import hexgrid as hx
from . import weapons as wp
from .formulas import (
    attack_basic,
    break_hold_basics,
    break_succeeds,
    can_soak,
    counter_hits,
    damage_extra,
    damage_resistance,
    damage_type,
    defence_basic,
    hits,
    knockback_band,
    knockback_extra,
    knockback_skill,
    pain_effect,
    pain_extra,
    self_injury_basic,
    soak_levels,
    wound_level,
)
from .legality import (
    Window,
    dodge_destination,
    locked_limb,
    maneuver_choices,
    move_path,
    throw_destination,
)
from .model import END, PASS, RELEASE, Choice, Decision, Hold
from .tables import h2

if TYPE_CHECKING:
    from .state import State

Step = tuple[Decision, list[Choice]] | None


class At(StrEnum):
    """Where a frame stands in its steps (``Frame.at``): each frame's own sequence below.

    TurnFrame START -> PHASE; PhaseFrame START -> ACT; MoveFrame MOVE -> REACT; AttackFrame
    DECLARE -> REACT -> ATT_RISK -> DEF_RISK -> ROLL; HitFrame DAMAGE -> (SOAK -> SOAK_RISK)
    -> APPLY (-> HOLD: a held victim knocked back); BreakHoldFrame DECLARE -> ESC_RISK ->
    HOLD_RISK -> ROLL."""

    START = "start"
    PHASE = "phase"
    ACT = "act"
    MOVE = "move"
    REACT = "react"
    DECLARE = "declare"
    ATT_RISK = "att_risk"
    DEF_RISK = "def_risk"
    ROLL = "roll"
    DAMAGE = "damage"
    SOAK = "soak"
    SOAK_RISK = "soak_risk"
    APPLY = "apply"
    HOLD = "hold"
    ESC_RISK = "esc_risk"
    HOLD_RISK = "hold_risk"


def risk_choices(s: State) -> list[Choice]:
    return list(s.t.risk_choices)


class Frame:
    window: Window | None = None
    #: an attack frame: its reaction windows are about an aimed attack (``State.context``)
    aimed = False

    def copy(self) -> Frame:
        c = object.__new__(type(self))
        c.__dict__ = self.__dict__.copy()
        return c

    def step(self, s: State) -> Step:  # pragma: no cover - interface
        raise NotImplementedError

    def answer(self, s: State, c: Choice) -> None:  # pragma: no cover - interface
        raise NotImplementedError

    def roll_context(self, s: State) -> dict[str, Any]:
        """What a player knows when choosing the risk of a pending roll (or whether to
        soak): the maneuvers involved and the basic values (half points) both sides will
        roll on, keyed by fighter. Empty where the frame is not asking about a roll."""
        return {}


def schedule(s: State, frames: list[Frame]) -> None:
    """Push frames so that the first in the list runs first."""
    s.stack.extend(reversed(frames))


def pop(s: State, fr: Frame) -> None:
    if s.stack and s.stack[-1] is fr:
        s.stack.pop()


def dispatch(s: State, i: int, c: Choice, via: str, restrict: str | None = None) -> None:
    """Start the maneuver ``c`` of fighter ``i`` (an action, reaction or follow-on)."""
    m = s.t.maneuvers[c.maneuver or ""]
    f = s.fighters[i]
    if m.category == "move":
        s.stack.append(MoveFrame(i, c, via))
    elif m.category == "turn":
        s.pay(i, m.ap)
        s.set_facing(i, hx.turn(f.facing, c.turn))
        s.log("turn", m.pages[0], a=i, actor=f.name, maneuver=c.maneuver, via=via,
              facing=hx.DIRECTION_NAMES[f.facing])
    elif m.category == "stand":
        s.pay(i, m.ap)
        f.prone = False
        s.log("stand_up", "§5.18", a=i, actor=f.name, maneuver=c.maneuver, via=via)
    elif m.category == "break":
        s.stack.append(BreakHoldFrame(i, c, via))
    elif m.category in ("ready", "drop", "pull_out"):
        handle_gear(s, i, c, m, via)
    else:
        s.stack.append(AttackFrame(i, c, via, restrict))


def handle_gear(s: State, i: int, c: Choice, m: Any, via: str) -> None:
    """Ready weapon (aom314a: draw or pick up, 3 AP; the others may answer it, aom3121,
    unless it cost nothing), Drop weapon (free) and Pull out weapon (§1.15 aom1d35: 2 AP,
    the wound worsens by ``armed.pull_out_worsens`` levels; the weapon falls in the hex)."""
    f = s.fighters[i]
    s.pay(i, m.ap)
    if m.category == "drop":
        wp.drop(s, i, c.option, "dropped", m.pages[0])
        return
    if m.category == "ready":
        wid = s.t.weapon_ids[c.option]
        how = wp.pick_up(s, i, wid)
        s.log("ready", m.pages[0], a=i, actor=f.name, maneuver=c.maneuver, via=via, weapon=wid,
              how=how)
        queue = tuple((g, frozenset({"ready"})) for g in s.order or range(len(s.fighters))
                      if g != i and s.fighters[g].out is None)
        if m.ap > 0 and queue:  # aom314a: at 0 AP nobody may react
            s.stack.append(ReactionsFrame(i, c.maneuver or "", queue))
        return
    pull_out(s, i, m)


def pull_out(s: State, i: int, m: Any) -> None:
    """§1.15 (aom1d35, aom1d39): pull the first stuck weapon out; its wound worsens."""
    t = s.t
    f = s.fighters[i]
    (wid, loc), f.stuck = f.stuck[0], f.stuck[1:]
    k = max(j for j, (wl, _) in enumerate(f.wounds) if wl == loc) if any(
        wl == loc for wl, _ in f.wounds) else None
    worse = None
    if k is not None:
        level = min(t.fatal, f.wounds[k][1] + t.data.armed.pull_out_worsens)
        f.wounds = f.wounds[:k] + ((loc, level),) + f.wounds[k + 1:]
        f.worst = max(f.worst, level)
        worse = t.wound_levels[level]
    s.dropped = s.dropped + ((f.pos, wid),)
    s.log("pull_out", m.pages[0], a=i, actor=f.name, weapon=wid, location=loc, wound=worse)
    if worse is not None and f.worst >= t.fatal:
        s.knock_out(i, "dead")
        s.check_over()


# ======================================================================= turn (§1.4, §1.5)
class TurnFrame(Frame):
    """A combat turn: AP and initiative rolls, then phases in initiative order."""

    def __init__(self) -> None:
        self.at = At.START
        self.asked = 0

    def step(self, s: State) -> Step:
        if self.at == At.START:
            self.start_turn(s)
            return None
        fighters = s.fighters
        cands = [i for i in s.order if fighters[i].out is None and not fighters[i].phased]
        if not cands:
            self.end_turn(s)
            return None
        if self.asked >= len(cands) - 1:  # the lowest has no choice (aom312)
            self.asked = 0
            s.stack.append(PhaseFrame(cands[-1]))
            return None
        i = cands[self.asked]
        self._cand = i
        return Decision(i, "phase"), [Choice("phase", option=1), Choice("phase", option=0)]

    def answer(self, s: State, c: Choice) -> None:
        if c.option == 1:
            s.stack.append(PhaseFrame(self._cand))
            self.asked = 0
        else:
            s.log("wait", "aom312", a=self._cand, actor=s.fighters[self._cand].name)
            self.asked += 1

    def start_turn(self, s: State) -> None:
        s.turn += 1
        if s.turn > s.game.turn_limit:
            s.turn -= 1
            s.result = {"winner": None, "reason": "turn limit", "turn": s.turn}
            s.log("fight_ends", "hexdojo", winner=None, reason="turn limit")
            s.stack.clear()
            return
        data = s.t.data.turn
        inits: list[tuple[int, int, int]] = []
        for f in s.fighters:
            f.phased = False
            f.pen = 0
            f.status = ""
            if not f.active:
                f.ap = 0
                continue
            res, rec = s.roll_spec(f.idx, "AP", data.ap, f.p.risk.ap)
            ap = res // 2 if data.ap_rounding == "down" else (res + 1) // 2
            # §5.25: unused AP were zeroed at the end of the turn unless kept
            f.ap = max(data.minimum_ap, ap) + (0 if data.unused_ap_lost else f.ap)
            ires, irec = s.roll_spec(f.idx, "initiative", data.initiative, f.p.risk.initiative)
            f.init = ires
            tie = s.dice.die()  # ties: a die roll (aom312)
            inits.append((-ires, -tie, f.idx))
            s.log("turn_start", "aom313", a=f.idx, actor=f.name, ap=f.ap, ap_roll=rec,
                  initiative_roll=irec)
        self.maintain_holds(s)
        s.order = tuple(i for _, _, i in sorted(inits))
        s.log("initiative", "aom312", order=[s.fighters[i].name for i in s.order])
        self.at = At.PHASE
        self.asked = 0

    def maintain_holds(self, s: State) -> None:
        """§5.17 PROPOSED: keeping a hold into a new turn costs holds.maintain_ap (0 by
        default); a holder who cannot pay lets go."""
        cost = s.t.data.holds.maintain_ap
        if not cost:
            return
        for h in list(s.holds):
            f = s.fighters[h.holder]
            if f.ap >= cost:
                s.pay(h.holder, cost)
                s.log("hold_kept", "§5.17", a=h.holder, actor=f.name, hold=h.kind, ap=cost)
            else:
                s.end_hold(h, "cannot pay to keep it", "§5.17")

    def end_turn(self, s: State) -> None:
        if s.t.data.turn.unused_ap_lost:  # §5.25 PROPOSED
            for f in s.fighters:
                f.ap = 0
        self.at = At.START


class PhaseFrame(Frame):
    """One fighter's phase: actions until the fighter ends it (aom312)."""

    def __init__(self, i: int) -> None:
        self.i = i
        self.at = At.START

    def step(self, s: State) -> Step:
        f = s.fighters[self.i]
        if self.at == At.START:
            self.at = At.ACT
            s.log("phase", "aom312", a=self.i, actor=f.name, ap=f.ap)
            if s.t.data.holds.lock_damage_in_holder_phase:
                locks = [h for h in s.holds if h.holder == self.i
                         and s.t.hold_kinds[h.kind].painful and h.turn < s.turn]
                schedule(s, [lock_damage(s, h) for h in locks])
            return None
        if f.out is not None:
            f.phased = True
            pop(s, self)
            return None
        w = self.window
        if w is None:  # one window and one decision for the whole phase (immutable)
            w = self.window = Window("action", self.i)
            self.decision = Decision(self.i, "action")
        choices = maneuver_choices(s, w)
        if s.hold_by(self.i) is not None and f.ap >= s.t.data.holds.release_ap:  # §5.17
            choices.append(RELEASE)
        choices.append(END)
        return self.decision, choices

    def answer(self, s: State, c: Choice) -> None:
        f = s.fighters[self.i]
        if c.kind == "end":
            f.phased = True
            s.log("phase_ends", "aom312", a=self.i, actor=f.name, ap=f.ap)
            pop(s, self)
        elif c.kind == "release":
            h = s.hold_by(self.i)
            if h is not None:
                s.pay(self.i, s.t.data.holds.release_ap)  # §5.17 PROPOSED: 0 AP by default
                s.end_hold(h, "released", "§1.18")
        else:
            dispatch(s, self.i, c, "action")


# ======================================================================= movement (aom3141)
Queue = tuple[tuple[int, frozenset[str]], ...]


def movement_reactions(s: State, i: int, start: hx.Hex, near_before: list[int],
                       skip: tuple[int, ...] = ()) -> Queue:
    """Who may react to fighter ``i`` having moved from ``start`` (aom3121, §4, §5.7), in
    initiative order, each with the triggers the move gave him: movement; closing (``i``
    entered his hex); adjacent_entry (``i`` came next to him, not adjacent before: the
    ``near_before`` fighters); held (he may break a hold). ``skip``: fighters not asked."""
    pos = s.fighters[i].pos
    q = []
    for g in s.order or tuple(range(len(s.fighters))):
        if g == i or g in skip or not s.fighters[g].active:
            continue
        gp = s.fighters[g].pos
        trig = {"movement"}
        if gp == pos and start != gp:
            trig.add("closing")
        if hx.distance(gp, pos) <= 1 and g not in near_before:
            trig.add("adjacent_entry")
        if s.fighters[g].hands != (None, None) and wp.entered_zone(s, g, start, pos):
            trig.add("zone_entry")  # aom3142: into a hex his melee weapon strikes
        if s.hold_on(g) is not None:
            trig.add("held")
        q.append((g, frozenset(trig)))
    return tuple(q)


def near(s: State, i: int) -> list[int]:
    """The fighters in or next to fighter ``i``'s hex (before a move: ``movement_reactions``)."""
    pos = s.fighters[i].pos
    return [g.idx for g in s.fighters if g.idx != i and hx.distance(g.pos, pos) <= 1]


class ReactionsFrame(Frame):
    """The reactions that fighter ``i``'s movement (``what``: the maneuver that moved him)
    triggers in others, one window each, in the order of ``queue``."""

    def __init__(self, i: int, what: str, queue: Queue,
                 follow: tuple[int, int] | None = None) -> None:
        self.i = i
        self.what = what
        self.queue = queue
        self.follow = follow  # the mover's (direction, hexes) when allies may follow

    def step(self, s: State) -> Step:
        while self.queue:
            g, triggers = self.queue[0]
            if not (s.fighters[g].out is None and s.fighters[self.i].out is None):
                self.queue = self.queue[1:]
                continue
            self.window = Window("reaction", g, triggers, attacker=self.i, attack=self.what,
                                 follow=self.follow if "follow" in triggers else None)
            choices = maneuver_choices(s, self.window) + [PASS]
            return Decision(g, "reaction"), choices
        pop(s, self)
        return None

    def answer(self, s: State, c: Choice) -> None:
        g, _ = self.queue[0]
        self.queue = self.queue[1:]
        if c.kind == "maneuver":
            dispatch(s, g, c, "reaction")


class MoveFrame(ReactionsFrame):
    """A Move, then the reactions it triggers (aom3121, §4, §5.7)."""

    def __init__(self, i: int, c: Choice, via: str = "action") -> None:
        super().__init__(i, c.maneuver or "", ())
        self.c = c
        self.via = via
        self.at = At.MOVE

    def step(self, s: State) -> Step:
        if self.at == At.MOVE:
            self.move(s)
            self.at = At.REACT
        return super().step(s)

    def move(self, s: State) -> None:
        f = s.fighters[self.i]
        m = s.t.maneuvers[self.what]
        s.pay(self.i, m.ap)
        start = f.pos
        near_before = near(s, self.i)
        s.set_facing(self.i, hx.turn(f.facing, self.c.turn))
        for pos in move_path(s, self.i, 0, self.c.option):  # hex by hex (approach, §5.4)
            s.place(self.i, pos)
        s.log("move", m.pages[0], a=self.i, actor=f.name, maneuver=self.what, via=self.via,
              to=list(f.pos),
              facing=hx.DIRECTION_NAMES[f.facing])
        self.queue = movement_reactions(s, self.i, start, near_before)
        if self.via == "action":  # a phasing fighter's group may follow him (aom3141, §2.1)
            way = f.facing if self.c.option > 0 else hx.opposite(f.facing)
            self.follow = (way, abs(self.c.option))
            sides = s.game.sides
            self.queue = tuple((g, trig | {"follow"} if sides[g] == sides[self.i] else trig)
                               for g, trig in self.queue)


# ======================================================================= attack (§1.6-1.9)
class AttackFrame(Frame):
    """One attack: declaration (turn, closing), the target's reaction, rolls, outcome."""

    aimed = True

    def __init__(self, a: int, c: Choice, via: str, restrict: str | None = None) -> None:
        self.a = a
        self.c = c
        self.t: int = c.target  # type: ignore[assignment]  # the target (fixed with c)
        self.via = via
        self.restrict = restrict
        self.at = At.DECLARE
        self.closed = False
        self.zone = False
        self.react: Choice | None = None
        self.ra = 0
        self.rd = 0

    def step(self, s: State) -> Step:
        if self.at == At.DECLARE:
            self.declare(s)
            self.at = At.REACT
        a, t = s.fighters[self.a], s.fighters[self.t]
        if not (a.out is None and t.out is None):
            pop(s, self)
            return None
        if self.at == At.REACT:
            m = s.t.maneuvers[self.c.maneuver or ""]
            trig = {"attack"}
            if self.closed:
                trig.add("closing")
            if self.zone:
                trig.add("zone_entry")
            if s.hold_on(self.t) is not None:
                trig.add("held")
            self.window = Window("reaction", self.t, frozenset(trig), attacker=self.a,
                                 attack=self.c.maneuver, no_defence=m.no_defence,
                                 restrict=self.restrict)
            return Decision(self.t, "reaction"), maneuver_choices(s, self.window) + [PASS]
        self.window = None
        if self.at in (At.ATT_RISK, At.DEF_RISK) and self.foiled(s):
            self.at = At.ROLL  # nothing left to roll for
        if self.at == At.ATT_RISK:
            return Decision(self.a, "risk", "attack"), risk_choices(s)
        if self.at == At.DEF_RISK:
            about = "counter-attack" if self.counter(s) else "defence"
            return Decision(self.t, "risk", about), risk_choices(s)
        self.resolve(s)
        return None

    def answer(self, s: State, c: Choice) -> None:
        if self.at == At.REACT:
            self.at = At.ATT_RISK
            if c.kind != "maneuver":
                return
            self.react = c
            m = s.t.maneuvers[c.maneuver or ""]
            if m.category in ("turn", "stand", "break"):
                self.react = None  # not a defence: the default defence still applies
                dispatch(s, self.t, c, "reaction")
                return
            f = s.fighters[self.t]
            s.pay(self.t, wp.cost(s, self.t, c.maneuver or "", c.option))
            s.set_facing(self.t, hx.turn(f.facing, c.turn))
            weapon = {} if m.weapon is None else {
                "weapon": wp.used_weapon(s, self.t, c.maneuver or "", c.option)}
            s.log("reaction", m.pages[0], a=self.t, actor=f.name, maneuver=c.maneuver,
                  against=self.c.maneuver, **weapon)
        elif self.at == At.ATT_RISK:
            self.ra = c.risk
            self.at = At.DEF_RISK
        elif self.at == At.DEF_RISK:
            self.rd = c.risk
            self.at = At.ROLL

    def counter(self, s: State) -> bool:
        """An attacking reaction resolved simultaneously (§1.6)."""
        return self.react is not None and s.t.maneuvers[self.react.maneuver or ""].counter

    def basics(self, s: State) -> tuple[tuple[int, list[tuple[str, int]]],
                                        tuple[int, list[tuple[str, int]]]]:
        """§1.8 basic values (half points) and terms of the attack and of the target's
        answer: a counter-attack's own attack (§1.6), else its defence (aom315; the
        default defence without a defensive reaction)."""
        c, r = self.c, self.react
        att = attack_basic(s, self.a, self.t, c.maneuver or "", c.location, c.option)
        if r is not None and self.counter(s):
            return att, attack_basic(s, self.t, self.a, r.maneuver or "", r.location, r.option)
        return att, defence_basic(s, self.t, self.a, r.maneuver if r else None, c.maneuver,
                                  c.location, r.option if r else 0)

    def roll_context(self, s: State) -> dict[str, Any]:
        """Risk decisions of an attack: the attack, its aim, the target's reaction and the
        basic values :meth:`resolve` will roll on."""
        if self.at not in (At.ATT_RISK, At.DEF_RISK):
            return {}
        (ba, _), (bd, _) = self.basics(s)
        r = self.react
        return {"attacker": self.a, "attack": self.c.maneuver, "location": self.c.location,
                "reaction": r.maneuver if r else None, "basics": {self.a: ba, self.t: bd}}

    def declare(self, s: State) -> None:
        name = self.c.maneuver or ""
        m = s.t.maneuvers[name]
        f = s.fighters[self.a]
        g = s.fighters[self.t]
        s.pay(self.a, wp.cost(s, self.a, name, self.c.option))  # a weapon mode's AP (aom3142)
        s.set_facing(self.a, hx.turn(f.facing, self.c.turn))
        start = f.pos
        if m.range == 0 and f.pos != g.pos:
            s.place(self.a, g.pos)  # closing (aom321, aom322)
            self.closed = True
        elif m.range == 1 and ((m.may_advance and self.c.option == 1) or m.advances):
            s.place(self.a, hx.neighbour(f.pos, f.facing))  # flying kick (aom3222), advance (aom3143)
        # aom3121: an advance into the target's strike zone may be met by Stand and attack
        self.zone = g.hands != (None, None) and wp.entered_zone(s, self.t, start, f.pos)
        weapon = {} if m.weapon is None else {"weapon": wp.used_weapon(s, self.a, name, self.c.option),
                                              "mode": wp.attack_mode(s, self.a, name, self.c.option).name}
        s.log("declare", m.pages[0], a=self.a, t=self.t, actor=f.name, target=g.name,
              maneuver=self.c.maneuver, location=self.c.location, via=self.via,
              closing=self.closed, **weapon)

    def foiled(self, s: State) -> bool:
        """A maneuver made from a hold (Arm/wrist Lock, Martial Throw, Pull Down) is foiled
        when the target broke free (a Break Hold reaction) before it landed (§1.18,
        aom322d; ``holds.hold_maneuvers_need_the_hold``): no rolls, its AP stay spent."""
        m = s.t.maneuvers[self.c.maneuver or ""]
        if not (m.needs_hold or m.ends_hold) or not s.t.data.holds.hold_maneuvers_need_the_hold:
            return False
        h = s.hold_by(self.a)
        return h is None or h.held != self.t

    # ------------------------------------------------------------ rolls
    def resolve(self, s: State) -> None:
        pop(s, self)
        c = self.c
        if self.foiled(s):
            s.log("foiled", "aom322d", a=self.a, t=self.t, actor=s.fighters[self.a].name,
                  target=s.fighters[self.t].name, maneuver=c.maneuver,
                  why="the hold was broken")
            return
        (ba, aterms), (bd, dterms) = self.basics(s)
        att, arec = s.roll("attack", ba, aterms, self.ra)
        frames: list[Frame] = []
        ev: dict[str, Any] = {"a": self.a, "t": self.t, "actor": s.fighters[self.a].name,
                              "target": s.fighters[self.t].name, "maneuver": c.maneuver,
                              "location": c.location, "attack": arec}
        react = self.react
        if react is not None and self.counter(s):
            cres, crec = s.roll("attack", bd, dterms, self.rd)
            ev.update(counter=react.maneuver, counter_location=react.location, defence=crec)
            landed = []
            if counter_hits(att, cres):
                landed.append((self.a, self.t, c, att - cres))
            if counter_hits(cres, att):
                landed.append((self.t, self.a, react, cres - att))
            ev["outcome"] = "both hit" if len(landed) == 2 else (
                "hit" if landed[0][0] == self.a else "countered")
            s.log("attack", "§1.6", **ev)
            for x, y, ch, margin in landed:
                frames += success(s, x, y, ch, margin)
            # both blows land at once (§1.6): follow-on windows only after both hits
            frames.sort(key=lambda fr: isinstance(fr, FollowOnFrame))
            schedule(s, frames)
            return
        rname = react.maneuver if react is not None else None
        dres, drec = s.roll("defence", bd, dterms, self.rd)
        ev.update(defence_maneuver=rname or "none", defence=drec)
        rm = s.t.maneuvers[rname] if rname else None
        hit = hits(s.t, att, dres, rname)  # ties: aom315, aom3226, §5.2
        margin = att - dres
        ev["outcome"] = "hit" if hit else "miss"
        ev["margin"] = margin / 2
        s.log("attack", "aom315", **ev)
        moves = not hit or not s.t.data.movement.dodge_moves_only_on_success
        if rm is not None and rm.moves is not None and react is not None and moves:
            frames += self.dodge_move(s, rm, react)
        if hit:
            frames += success(s, self.a, self.t, c, margin)
        elif rm is not None and rname is not None:
            if rm.category == "leg_grab":
                make_hold(s, self.t, self.a, rm.hold or "", None)
                if s.t.data.attack.leg_grab_pulls_kicker_in:
                    s.place(self.a, s.fighters[self.t].pos)
            if rname in s.t.follow_ons:
                frames.append(self.follow_on_after_defence(s, rname, react))
        schedule(s, frames)

    def follow_on_after_defence(self, s: State, rname: str, react: Choice) -> FollowOnFrame:
        """The defender's follow-on window after a successful defence (§3): it knows the
        arm of a blocked weapon attack (locked, aom3145, aom322e) and the hand a Block was
        made with (a second weapon follows, aom3145; not a strike after a two-handed
        block, aom3221)."""
        m = s.t.maneuvers[self.c.maneuver or ""]
        arm = None
        if m.weapon is not None:
            hand, _ = wp.split(s.t, m, self.c.option)
            arm = s.t.data.armed.arm_locations[hand]
        own = react.option if s.t.maneuvers[rname].category == "weapon_block" else None
        return FollowOnFrame(self.t, rname, self.c.maneuver, arm, own, self.a)

    def dodge_move(self, s: State, rm: Any, react: Choice) -> list[Frame]:
        """The dodger moves (aom3146, aom3147, aom322b); a dodge into or next to another
        fighter is a movement like any other (§4 row 1, aom3212, aom3221): it triggers his
        reactions, before the dodger's follow-on. The attacker is asked only with
        ``movement.dodge_triggers_attacker`` (hexdojo)."""
        dest = dodge_destination(s, self.t, self.a, rm.moves, react.option)
        if dest is None or not s.on_board(dest):
            return []
        start, near_before = s.fighters[self.t].pos, near(s, self.t)
        s.place(self.t, dest)
        s.log("dodge_move", rm.pages[0], a=self.t, actor=s.fighters[self.t].name,
              to=list(dest))
        skip = () if s.t.data.movement.dodge_triggers_attacker else (self.a,)
        queue = movement_reactions(s, self.t, start, near_before, skip)
        return [ReactionsFrame(self.t, react.maneuver or "", queue)] if queue else []


# ======================================================================= success (§2 effects)
def make_hold(s: State, holder: int, held: int, kind: str, location: str | None) -> None:
    """Create (or upgrade, e.g. Arm Grab -> Arm/wrist Lock) a hold (§1.18)."""
    old = s.hold_by(holder)
    from_behind = s.arc(holder, held) in s.t.rear_arc
    new = Hold(holder, held, kind, location, s.turn, 0, from_behind)
    if old is not None and old.held == held:
        s.replace_hold(old, new._replace(attempts=old.attempts))
    else:
        if old is not None:
            s.end_hold(old, "new hold", "§5.17")
        s.holds.append(new)
    s.log("hold", s.t.hold_kinds[kind].source, holder=holder, held=held,
          actor=s.fighters[holder].name, target=s.fighters[held].name, hold=kind,
          location=location)
    arms = s.t.data.armed.arm_locations
    if s.t.hold_kinds[kind].drops_weapon and location in arms:  # aom3227
        wp.drop(s, held, arms.index(location), "arm locked", "aom3227")


def success(s: State, x: int, y: int, c: Choice, margin: int) -> list[Frame]:
    """The effects of ``x``'s successful maneuver ``c`` on ``y``; returns frames to run."""
    t = s.t
    m = t.maneuvers[c.maneuver or ""]
    frames: list[Frame] = []
    fy = s.fighters[y]
    loc = c.location or t.data.attack.whole_body_location
    if m.ends_hold:
        h = s.hold_by(x)
        if h is not None and h.held == y:
            s.end_hold(h, c.maneuver or "", m.pages[0])
    if m.hold:
        make_hold(s, x, y, m.hold, c.location)
    if m.category == "throw":
        dest = throw_destination(s, x, 0, c.option)
        if s.on_board(dest):
            s.place(y, dest)
    if m.knocks_prone:
        fy.prone = True
        s.log("prone", m.pages[0], a=y, actor=fy.name, why=c.maneuver)
    if m.unhorses and fy.mounted:
        fall_off(s, y, c.maneuver or "")
        if s.t.data.mounted.pull_down_lands == "adjacent":
            land_beside(s, x, y)
    mode = wp.attack_mode(s, x, c.maneuver or "", c.option) if m.weapon is not None else None
    if mode is not None:  # a weapon's rating and type (aom3142, aom3211)
        frames.append(HitFrame(x, y, c.maneuver or "", loc, mode.damage_type, margin, "attack",
                               rating=h2(mode.damage),
                               weapon=wp.used_weapon(s, x, c.maneuver or "", c.option)))
    elif m.damage is not None:
        dtype = damage_type(t, c.maneuver or "", c.option)
        frames.append(HitFrame(x, y, c.maneuver or "", loc, dtype, margin, "attack"))
        if m.self_injury is not None:
            frames.append(self_injury(s, x, y, c.maneuver or "", loc))
    if c.maneuver in t.follow_ons:
        frames.append(FollowOnFrame(x, c.maneuver or ""))
    return frames


def land_beside(s: State, x: int, y: int) -> None:
    """A rider pulled down by ``x`` lands in an adjacent hex (§2.3, aom347): the first of
    ``mounted.pull_down_directions`` (relative to ``x``'s facing) on the arena."""
    fx = s.fighters[x]
    for d in s.t.data.mounted.pull_down_directions:
        dest = hx.neighbour(s.fighters[y].pos, hx.turn(fx.facing, d))
        if s.on_board(dest):
            s.place(y, dest)
            s.log("lands", "aom347", a=y, actor=s.fighters[y].name, to=list(dest))
            return


def fall_off(s: State, i: int, why: str) -> None:
    """A rider falls off the mount and lands prone (aom347)."""
    f = s.fighters[i]
    f.mounted = False
    f.height = 0
    f.prone = True
    s.log("falls_off", "aom347", a=i, actor=f.name, why=why)


def self_injury(s: State, x: int, y: int, maneuver: str, loc: str) -> Frame:
    """§1.17: striking armour hurts: basic damage = target DR - striker's skill (+2 Head Butt)."""
    t = s.t
    m = t.maneuvers[maneuver]
    part_loc = t.data.self_injury.locations[m.self_injury or "hand"]
    return HitFrame(y, x, maneuver, part_loc, t.data.self_injury.damage_type, 0, "self",
                    fixed=self_injury_basic(t, s.fighters[x].p, s.fighters[y].p, maneuver, loc))


def lock_damage(s: State, h: Hold) -> Frame:
    """§5.16 PROPOSED: a painful lock hurts again in each later turn, no attack roll."""
    name = s.t.hold_by_maneuver[h.kind]
    loc = (s.t.hold_kinds[h.kind].lock_location or h.location
           or s.t.data.attack.whole_body_location)
    return HitFrame(h.holder, h.held, name, loc, s.t.maneuvers[name].damage_types[0], 0, "lock")


# ======================================================================= hit (§1.10-1.13)
class HitFrame(Frame):
    """Damage, soak, wound, immediate reaction and knock-back of one hit."""

    def __init__(self, src: int, victim: int, maneuver: str, loc: str, dtype: str,
                 margin: int, kind: str, fixed: int | None = None, rating: int | None = None,
                 weapon: str | None = None) -> None:
        self.src = src
        self.victim = victim
        self.maneuver = maneuver
        self.loc = loc
        self.dtype = dtype
        self.margin = margin
        self.kind = kind  # "attack", "lock" or "self"
        self.fixed = fixed
        self.rating = rating  # a weapon mode's damage rating (half points)
        self.weapon = weapon  # the weapon that struck, if any
        self.at = At.DAMAGE
        self.level = 0
        self.damage = 0
        self.dest: hx.Hex | None = None

    def step(self, s: State) -> Step:
        v = s.fighters[self.victim]
        if self.at == At.DAMAGE:
            if not v.active or (self.kind == "self" and self.fixed is None):
                pop(s, self)
                return None
            self.roll_damage(s)
            if can_soak(s.t, self.level, v.ap, self.kind):
                self.at = At.SOAK
            else:
                self.at = At.APPLY
        if self.at == At.SOAK:
            self.window = Window("reaction", self.victim, frozenset({"hit"}),
                                 reactions_only=(s.t.soak,))
            return Decision(self.victim, "soak"), maneuver_choices(s, self.window) + [PASS]
        self.window = None
        if self.at == At.SOAK_RISK:
            return Decision(self.victim, "risk", "soak"), risk_choices(s)
        if self.at == At.APPLY:
            self.apply(s)
            return None
        # at == "hold": a held victim knocked back: the holder moves along or lets go
        h = s.hold_on(self.victim)
        if h is None or not s.fighters[h.holder].active:
            self.finish_knockback(s, None)
            return None
        self._holder = h.holder
        return Decision(h.holder, "hold"), [Choice("hold", option=1), Choice("hold", option=0)]

    def answer(self, s: State, c: Choice) -> None:
        if self.at == At.SOAK:
            if c.kind == "maneuver":
                s.pay(self.victim, s.t.maneuvers[s.t.soak].ap)
                self.at = At.SOAK_RISK
            else:
                self.at = At.APPLY
        elif self.at == At.SOAK_RISK:
            self.soak(s, c.risk)
            self.at = At.APPLY
        elif self.at == At.HOLD:
            self.finish_knockback(s, self._holder if c.option == 1 else None)

    def roll_damage(self, s: State) -> None:
        t = s.t
        v = s.fighters[self.victim]
        if self.kind == "self":
            self.damage = self.fixed or 0
            rec: dict[str, Any] = {"what": "self-injury", "result": self.damage / 2}
        else:
            use_margin = self.kind == "attack" or t.data.lock_damage.uses_margin
            extra = damage_extra(t, self.maneuver, self.margin, self.loc, use_margin, self.rating)
            risk = s.fighters[self.src].p.risk.damage if self.kind == "attack" else \
                s.fighters[self.src].p.risk.lock_damage
            b, terms = s.basic(self.src, None, t.data.damage.characteristic, (), extra)
            self.damage, rec = s.roll("damage", b, terms, risk)
        dr = damage_resistance(t, v.p, self.loc)
        self.level = wound_level(t, self.damage - dr)
        weapon = {} if self.weapon is None else {"weapon": self.weapon}
        s.log("damage", "aom316", a=self.src, t=self.victim, actor=s.fighters[self.src].name,
              target=v.name, maneuver=self.maneuver, kind=self.kind, location=self.loc,
              damage_type=self.dtype, roll=rec, dr=dr / 2, wound=t.wound_levels[self.level],
              **weapon)

    def roll_context(self, s: State) -> dict[str, Any]:
        """Soak decisions: the wound level a soak would reduce and the soak basic value."""
        if self.at not in (At.SOAK, At.SOAK_RISK):
            return {}
        b, _ = s.spec_basic(self.victim, s.t.data.soak.roll)
        return {"wound": self.level, "basics": {self.victim: b}}

    def soak(self, s: State, risk: int) -> None:
        t = s.t
        res, rec = s.roll_spec(self.victim, "soak", t.data.soak.roll, risk)
        levels = soak_levels(t, res)
        before = self.level
        self.level = max(0, self.level - levels)
        s.log("soak", "aom314c", a=self.victim, actor=s.fighters[self.victim].name, roll=rec,
              levels=levels, before=t.wound_levels[before], after=t.wound_levels[self.level])

    def apply(self, s: State) -> None:
        t = s.t
        v = s.fighters[self.victim]
        pop(s, self)
        worst_before = v.worst  # the rolls this hit forces come before its impairment (aom1d31)
        if self.level > 0:
            if self.level >= t.fatal:
                v.wounds = v.wounds + ((self.loc, self.level),)
                s.knock_out(self.victim, "dead")
                s.log("wound", "aom316", a=self.victim, actor=v.name, location=self.loc,
                      wound=t.wound_levels[self.level], effect="killed")
                s.check_over()
                return
            if self.kind != "self" or t.data.pain.self_injury_pain_roll:
                self.pain(s)  # before the new wound's impairment applies (aom1d31)
            v.wounds = v.wounds + ((self.loc, self.level),)
            v.worst = max(v.worst, self.level)
            s.log("wound", "aom316", a=self.victim, actor=v.name, location=self.loc,
                  wound=t.wound_levels[self.level], worst=t.wound_levels[v.worst])
            if s.check_over():
                return
            self.stick(s)
        m = t.maneuvers[self.maneuver]
        kb = (self.kind == "attack" and not m.no_knockback) or (
            self.kind == "lock" and t.data.lock_damage.knockback)  # §5.16
        if kb and v.active:
            self.knockback(s, worst_before)

    def stick(self, s: State) -> None:
        """§1.15 (aom1d35): a Medium-or-worse wound from an impaling weapon leaves it stuck
        in the victim (its CO penalty until pulled out); the striker's hand lets go of it."""
        t = s.t
        a = t.data.armed
        if self.weapon is None or self.dtype != a.stuck_damage_type:
            return
        w = t.weapons[self.weapon]
        if not w.stuck_penalty or self.level < t.wound_levels.index(a.stuck_min_wound):
            return
        src, v = s.fighters[self.src], s.fighters[self.victim]
        if self.weapon not in src.hands:
            return
        wp.let_go(s, self.src, src.hands.index(self.weapon))
        v.stuck = v.stuck + ((self.weapon, self.loc),)
        s.log("stuck", "aom1d35", a=self.victim, actor=v.name, weapon=self.weapon,
              location=self.loc, penalty=w.stuck_penalty, holder=src.name)

    def pain(self, s: State) -> None:
        """§1.12 immediate reaction: unconscious, stunned or staggered."""
        t = s.t
        p = t.data.pain
        v = s.fighters[self.victim]
        extra = pain_extra(t, self.dtype, self.loc, self.level)
        res, rec = s.roll_spec(self.victim, "pain", p.roll, v.p.risk.pain, extra)
        effect = pain_effect(t, res)
        if effect == "unconscious":
            s.knock_out(self.victim, "unconscious")
            if v.mounted:
                fall_off(s, self.victim, "unconscious")
        elif effect == "stunned":
            v.ap = 0
            v.status = "stunned"
            v.pen = min(v.pen, h2(p.stun_penalty))
        elif effect == "staggered":
            s.lose_ap(self.victim, p.stagger_ap_loss)
            if v.status != "stunned":
                v.status = "staggered"
            v.pen = min(v.pen, h2(p.stagger_penalty))
        s.log("pain", "aom1d31", a=self.victim, actor=v.name, roll=rec, effect=effect)
        if effect in ("stunned", "staggered") and v.hands != (None, None):
            wp.drop_struck(s, self.victim, self.loc, effect)  # §1.12: drops what it holds
        if effect in ("stunned", "staggered") and self.kind == "attack":
            h = s.hold_by(self.victim)
            if h is not None and h.held == self.src:  # aom3225, aom3216, aom3226
                s.end_hold(h, f"holder {effect}", "§1.12")
        if effect == "stunned" and v.mounted:
            md = t.data.mounted
            r, rrec = s.roll_spec(self.victim, "stay mounted", md.stay_mounted, 0)
            stays = r >= h2(md.stay_mounted_difficulty)
            s.log("stay_mounted", "aom347", a=self.victim, actor=v.name, roll=rrec,
                  difficulty=md.stay_mounted_difficulty, outcome="stays on" if stays else "falls")
            if not stays:
                fall_off(s, self.victim, "stunned")

    def knockback(self, s: State, worst: int) -> None:
        """§1.13 (aom1d34): ST + Athletics against the basic damage before armour, impaired
        by the ``worst`` wound carried before this hit (aom1d31, aom1d32, aom1d39: the
        hit's own wound impairs from the next roll on)."""
        t = s.t
        kb = t.data.knockback
        v = s.fighters[self.victim]
        extra = knockback_extra(t, self.dtype, self.loc, v.mounted)
        skill = knockback_skill(t, v.mounted)
        b, terms = s.basic(self.victim, skill, kb.roll.characteristic, kb.roll.specialisms, extra,
                           worst=worst)
        res, rec = s.roll("knock-back", b, terms, v.p.risk.knockback)
        effect, loss, over = knockback_band(kb, self.damage - res)
        if effect == "none":
            s.log("knockback", "aom1d34", a=self.victim, actor=v.name, roll=rec,
                  difficulty=self.damage / 2, effect="none")
            return
        move = effect != "off balance"
        short = v.ap < loss
        s.lose_ap(self.victim, loss)
        falls = over or short
        s.log("knockback", "aom1d34", a=self.victim, actor=v.name, roll=rec,
              difficulty=self.damage / 2, effect=effect, falls=falls)
        if falls:
            if v.mounted:
                fall_off(s, self.victim, effect)
            else:
                v.prone = True
        if not move or kb.distance == 0:
            return
        src = s.fighters[self.src]
        d = hx.direction_to(src.pos, v.pos)
        if d is None:
            d = src.facing  # §5.20 PROPOSED: same hex, along the attacker's facing
        dest = v.pos
        for _ in range(kb.distance):
            nxt = hx.neighbour(dest, d)
            if not s.on_board(nxt):
                break
            dest = nxt
        if dest == v.pos:
            return
        self.dest = dest
        mine = s.hold_by(self.victim)
        if mine is not None and kb.holder_knocked_back_releases:
            s.end_hold(mine, "holder knocked back", "hexdojo")
        if s.hold_on(self.victim) is not None:
            self.at = At.HOLD
            s.stack.append(self)  # back on the stack for the holder's choice
            return
        self.knocked_into(s, dest, ())

    def finish_knockback(self, s: State, follower: int | None) -> None:
        pop(s, self)
        h = s.hold_on(self.victim)
        if h is not None and follower is None:
            s.end_hold(h, "let go", "aom3225")
        if self.dest is not None:
            self.knocked_into(s, self.dest, () if follower is None else (follower,))
            if follower is not None:
                s.place(follower, self.dest)
                s.log("moves_along", "aom3225", a=follower, actor=s.fighters[follower].name)

    def knocked_into(self, s: State, dest: hx.Hex, skip: tuple[int, ...]) -> None:
        """The victim is knocked into ``dest``; whoever stands there sees him close into
        his hex (§4 row 1: a closing by any move, issue 18) and may react, the striker and
        a holder moving along excepted."""
        s.place(self.victim, dest)
        there = tuple((g.idx, frozenset({"closing"})) for g in s.fighters
                      if g.pos == dest and g.idx not in (self.victim, self.src, *skip) and g.out is None)
        if there:
            s.stack.append(ReactionsFrame(self.victim, self.maneuver, there))


# ======================================================================= follow-on (§3)
class FollowOnFrame(Frame):
    """After a success: the fighter may follow with what the §3 graph allows."""

    def __init__(self, i: int, after: str, blocked: str | None = None,
                 blocked_arm: str | None = None, own_hand: int | None = None,
                 attacker: int | None = None) -> None:
        self.i = i
        self.after = after
        self.blocked = blocked  # the target's attack that ``after`` answered, if any
        self.blocked_arm = blocked_arm  # the arm holding the weapon of a blocked weapon attack
        self.own_hand = own_hand  # the hand a Block was made with (aom3145)
        self.attacker = attacker  # who made the ``blocked`` attack (his limb is the locked one)

    def locked(self, s: State, target: int | None = None) -> str | None:
        """The limb of the blocked attacker a block locked (§3, aom3145, aom322e); for a
        follow-on against someone else (a group fight) nothing is locked."""
        if target is not None and self.attacker is not None and target != self.attacker:
            return None
        return locked_limb(s.t, self.after, self.blocked, self.blocked_arm)

    def step(self, s: State) -> Step:
        if not s.fighters[self.i].active:
            pop(s, self)
            return None
        restrict = self.locked(s)
        self.window = Window("follow_on", self.i, after=self.after, restrict=restrict,
                             own_hand=self.own_hand,
                             locked_fighter=self.attacker if restrict is not None else None)
        return Decision(self.i, "follow_on"), maneuver_choices(s, self.window) + [PASS]

    def answer(self, s: State, c: Choice) -> None:
        pop(s, self)
        if c.kind != "maneuver":
            return
        m = s.t.maneuvers[c.maneuver or ""]
        if self.after in s.t.data.holds.follow_ups_end_hold:
            h = s.hold_by(self.i)
            if h is not None and not (m.needs_hold or m.ends_hold):  # a throw ends it when it lands
                s.end_hold(h, f"{c.maneuver} follows {self.after}", "aom3226")
        dispatch(s, self.i, c, "follow_on", self.locked(s, c.target))


# ======================================================================= break hold (aom322d)
class BreakHoldFrame(Frame):
    """Opposed rolls; the escaper must score higher; +1 per earlier attempt."""

    def __init__(self, i: int, c: Choice, via: str) -> None:
        self.i = i
        self.c = c
        self.via = via
        self.at = At.DECLARE
        self.re = 0
        self.rh = 0

    def step(self, s: State) -> Step:
        f = s.fighters[self.i]
        h = s.hold_on(self.i)
        if self.at == At.DECLARE:
            s.pay(self.i, s.t.maneuvers[self.c.maneuver or ""].ap)
            s.set_facing(self.i, hx.turn(f.facing, self.c.turn))
            self.at = At.ESC_RISK
        if h is None or not s.fighters[h.holder].active:
            pop(s, self)
            return None
        if self.at == At.ESC_RISK:
            return Decision(self.i, "risk", "break hold"), risk_choices(s)
        if self.at == At.HOLD_RISK:
            return Decision(h.holder, "risk", "resist break hold"), risk_choices(s)
        self.resolve(s, h)
        return None

    def answer(self, s: State, c: Choice) -> None:
        if self.at == At.ESC_RISK:
            self.re = c.risk
            self.at = At.HOLD_RISK
        else:
            self.rh = c.risk
            self.at = At.ROLL

    def basics(self, s: State, h: Hold) -> tuple[tuple[int, list[tuple[str, int]], str],
                                                   tuple[int, list[tuple[str, int]], str]]:
        """(basic, terms, method) of the escaper and of the holder (aom322d)."""
        return break_hold_basics(s, self.i, h, self.c.option)

    def roll_context(self, s: State) -> dict[str, Any]:
        """Risk decisions of a Break Hold: both sides' basic values."""
        h = s.hold_on(self.i)
        if self.at not in (At.ESC_RISK, At.HOLD_RISK) or h is None:
            return {}
        (eb, _, _), (hb, _, _) = self.basics(s, h)
        return {"basics": {self.i: eb, h.holder: hb}}

    def resolve(self, s: State, h: Hold) -> None:
        pop(s, self)
        (eb, eterms, method), best = self.basics(s, h)
        eres, erec = s.roll(f"break hold ({method})", eb, eterms, self.re)
        hres, hrec = s.roll(f"hold ({best[2]})", best[0], best[1], self.rh)
        ok = break_succeeds(eres, hres)
        s.log("break_hold", "aom322d", a=self.i, t=h.holder, actor=s.fighters[self.i].name,
              maneuver=self.c.maneuver, via=self.via,
              target=s.fighters[h.holder].name, escaper=erec, holder=hrec,
              outcome="broken" if ok else "held")
        if ok:
            s.end_hold(h, self.c.maneuver or "", "aom322d")
        else:
            s.replace_hold(h, h._replace(attempts=h.attempts + 1))

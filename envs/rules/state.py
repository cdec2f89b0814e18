"""The fight: a ``Game`` (rules, fighters, arena; shared) and its ``State`` (what changes).

The state is a stack machine of resolution frames (see ``resolution.py``): exactly one
fighter decides at a time, from an exact list of legal choices; dice are rolled by the
engine between decisions. ``apply(choice)`` advances to the next decision; ``clone()``
copies the state cheaply for search. Decisions with a single legal choice are taken
automatically (e.g. the last fighter to phase, a reaction window with nothing possible).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from . import formulas
from . import hexgrid as hx
from .dice import Dice
from .events import render_event
from .fighter import Profile, load_profile
from .legality import explain
from .model import Choice, Decision, FighterState, Hold
from .native import AT_STEPS
from .resolution import At, PhaseFrame, TurnFrame
from .ruleset import RulesError, deep_merge, read_toml
from .scenario import TURN_FRAME, apply_scenario
from .scene import SceneFile, load_scene, resolve_path, sides_of, start_hexes
from .tables import Tables, load_tables
from .weapons import attack_mode, split, stuck_penalty, used_weapon

#: engines other than this one that ``Game.new_state`` hands a fight to (native_state.py
#: registers "native", the native core: the default, issue 15); ``HEXDOJO_ENGINE=python`` or
#: ``engine="python"``: this Python engine, the differential tests' reference
ENGINES: dict[str, Callable[..., Any]] = {}
#: the engine of ``Game.new_state`` when neither ``engine`` nor ``HEXDOJO_ENGINE`` names one
DEFAULT_ENGINE = "native"


class IllegalChoice(ValueError):
    """Raised by ``State.apply`` for a choice that is not legal now; carries the reason."""

    def __init__(self, choice: Choice, reason: str) -> None:
        super().__init__(f"illegal choice {choice}: {reason}")
        self.choice = choice
        self.reason = reason


def half(v: int) -> float | int:
    """Half-point integer to a plain number for the event log (9 or 9.5)."""
    return v // 2 if v % 2 == 0 else v / 2


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
        if not 1 <= radius <= 20:
            raise RulesError(f"radius: value {radius!r}: allowed 1..20")
        limit = tables.data.turn.turn_limit if turn_limit is None else turn_limit
        if not 1 <= limit <= 10_000:
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
    ) -> State:
        """A fresh fight (or a described situation, see ``scenario.py``), run by ``engine``
        (default: the environment's ``HEXDOJO_ENGINE``, else the native core, ``"native"``;
        ``"python"`` is this Python engine, the differential checks' reference)."""
        engine = engine or os.environ.get("HEXDOJO_ENGINE", DEFAULT_ENGINE)
        if engine != "python":
            if engine not in ENGINES:
                raise RulesError(f"HEXDOJO_ENGINE: value {engine!r}: allowed "
                                 f"{['python', *sorted(ENGINES)]}")
            return ENGINES[engine](self, seed, scenario)
        dice = seed if isinstance(seed, Dice) else Dice(seed, self.tables.data.dice.die_sides)
        st = State(self, dice)
        if scenario is not None:
            st.stack += [_scenario_frame(fr) for fr in apply_scenario(st, scenario)]
        else:
            st.stack.append(TurnFrame())
        st._advance()
        return st


def _scenario_frame(ints: list[int]) -> Any:
    """A scenario's frame (scenario.py writes the core's ints) as this engine's."""
    fr = TurnFrame() if ints[0] == TURN_FRAME else PhaseFrame(ints[1])
    fr.at = At(AT_STEPS[ints[1] if ints[0] == TURN_FRAME else ints[2]])
    return fr


class State:
    """One fight in progress. See the module docstring."""

    def __init__(self, game: Game, dice: Dice) -> None:
        self.game = game
        self.t = game.tables
        self.dice = dice
        self.fighters = [
            FighterState(i, p, pos, facing)
            for i, (p, (pos, facing)) in enumerate(zip(game.profiles, game.start_positions(dice),
                                                       strict=True))
        ]
        self.holds: list[Hold] = []
        #: weapons lying on the board: (hex, weapon id), first dropped first (aom314a)
        self.dropped: tuple[tuple[hx.Hex, str], ...] = ()
        self.approach: dict[tuple[int, int], int] = {}
        self.turn = 0
        self.order: tuple[int, ...] = ()
        self.stack: list[Any] = []
        self.events: list[dict[str, Any]] = []
        self.result: dict[str, Any] | None = None
        self._pending: tuple[Decision, list[Choice]] | None = None

    # ------------------------------------------------------------------ interface
    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> int | None:
        """The winning side (in a duel without a scene's sides, the winning fighter)."""
        return None if self.result is None else self.result["winner"]

    @property
    def phasing(self) -> int | None:
        """The fighter whose phase is running, if any (aom312)."""
        for fr in reversed(self.stack):
            if isinstance(fr, PhaseFrame):
                return fr.i
        return None

    @property
    def decision(self) -> Decision | None:
        """Who must decide now and what kind of decision (None once the fight is over)."""
        return None if self._pending is None else self._pending[0]

    def context(self) -> dict[str, Any]:
        """What the current decision is about, for observations and user interfaces.

        Keys: ``fighter``, ``kind``, ``about`` (which roll a risk decision is for),
        ``attacker``/``attack``/``location``/``arc`` (a reaction: who does what to me, aimed
        where, from which relative direction 0 front .. 3 rear), ``after`` (a follow-on: the
        maneuver it follows; ``locked``: the limb a block locked, which may not act against
        the follow-on, of ``locked_fighter``, the blocked attacker), ``closing`` (the
        attacker stepped into my hex). Risk and soak decisions add what the roll is about
        (``Frame.roll_context``): ``basics``
        (fighter -> basic value in half points, both sides of an opposed roll), and for an
        attack's rolls ``attacker``/``attack``/``location``/``reaction`` (the target's
        declared reaction, or None), for a soak ``wound`` (the level it would reduce).
        A weapon attack adds ``weapon`` (its id), ``mode`` (index into its modes) and
        ``option`` (the attacking choice's option: hand x max_modes + mode).
        """
        if self._pending is None:
            return {}
        d = self._pending[0]
        out: dict[str, Any] = {"fighter": d.fighter, "kind": d.kind, "about": d.about}
        fr = self.stack[-1]
        w = getattr(fr, "window", None)
        if w is not None and w.attacker is not None:
            out["attacker"] = w.attacker
            out["attack"] = w.attack
            out["arc"] = self.arc(w.attacker, d.fighter)
            if fr.aimed:
                out["location"] = fr.c.location
                out["closing"] = fr.closed
        if w is not None and w.after is not None:
            out["after"] = w.after
            if w.restrict is not None:
                out["locked"] = w.restrict
                if w.locked_fighter is not None:
                    out["locked_fighter"] = w.locked_fighter
        if d.kind in ("risk", "soak"):
            out.update(fr.roll_context(self))
        c = getattr(fr, "c", None)  # ``weapon``/``mode``: the attack's, if made with one
        if "attack" in out and c is not None and c.maneuver == out["attack"] and "attacker" in out:
            mode = attack_mode(self, out["attacker"], c.maneuver, c.option or 0)
            if mode is not None:
                out["weapon"] = used_weapon(self, out["attacker"], c.maneuver, c.option or 0)
                out["mode"] = split(self.t, self.t.maneuvers[c.maneuver], c.option or 0)[1]
                out["option"] = int(c.option)
        return out

    def legal_choices(self) -> list[Choice]:
        """The exact list of legal choices for the current decision."""
        return [] if self._pending is None else list(self._pending[1])

    def why_illegal(self, choice: Choice) -> str | None:
        """None if ``choice`` is legal now, else a short reason."""
        if self._pending is None:
            return "the fight is over"
        if choice in self._pending[1]:
            return None
        return explain(self, choice)

    def apply(self, choice: Choice) -> None:
        """Take ``choice`` for the current decision and advance to the next decision."""
        if self._pending is None:
            raise IllegalChoice(choice, "the fight is over")
        if choice not in self._pending[1]:
            raise IllegalChoice(choice, self.why_illegal(choice) or "not legal now")
        self._pending = None
        self.stack[-1].answer(self, choice)
        self._advance()

    def clone(self) -> State:
        """A cheap independent copy (same future dice) for search."""
        c = State.__new__(State)
        c.game = self.game
        c.t = self.t
        c.dice = self.dice.clone()
        c.fighters = [f.copy() for f in self.fighters]
        c.holds = list(self.holds)
        c.dropped = self.dropped
        c.approach = dict(self.approach)
        c.turn = self.turn
        c.order = self.order
        c.stack = [fr.copy() for fr in self.stack]
        c.events = list(self.events)
        c.result = self.result
        c._pending = self._pending
        return c

    def render_log(self, start: int = 0) -> list[str]:
        """Readable one-line renderings of the events from ``start``."""
        return [render_event(e, self) for e in self.events[start:]]

    # ------------------------------------------------------------------ driver
    def _advance(self) -> None:
        while self.result is None and self.stack:
            fr = self.stack[-1]
            d = fr.step(self)
            if d is None:
                continue
            decision, choices = d
            if len(choices) == 1:
                fr.answer(self, choices[0])
                continue
            if not choices:  # defensive: should never happen
                raise RuntimeError(f"no legal choice for {decision}")
            self._pending = (decision, choices)
            return
        self._pending = None

    # ------------------------------------------------------------------ helpers
    def log(self, etype: str, rule: str, **fields: Any) -> dict[str, Any]:
        ev = {"type": etype, "turn": self.turn, "rule": rule, **fields}
        self.events.append(ev)
        return ev

    def others(self, i: int) -> list[int]:
        return [f.idx for f in self.fighters if f.idx != i and f.out is None]

    def hold_on(self, i: int) -> Hold | None:
        """The hold someone has on fighter ``i`` (first one), if any."""
        if not self.holds:
            return None
        for h in self.holds:
            if h.held == i:
                return h
        return None

    def hold_by(self, i: int) -> Hold | None:
        """The hold fighter ``i`` has on someone, if any."""
        if not self.holds:
            return None
        for h in self.holds:
            if h.holder == i:
                return h
        return None

    def knock_out(self, i: int, how: str) -> None:
        """Fighter ``i`` is out of the fight (§5.30: unconscious or dead): no AP left, and
        a holder who is out keeps no hold (§1.18, §1.12)."""
        f = self.fighters[i]
        f.out = how
        f.ap = 0
        h = self.hold_by(i)
        if h is not None:
            self.end_hold(h, f"holder {how}", "§1.18")

    def end_hold(self, h: Hold, why: str, rule: str) -> None:
        if h in self.holds:
            self.holds.remove(h)
            self.log("hold_ends", rule, holder=h.holder, held=h.held, hold=h.kind, why=why)

    def replace_hold(self, old: Hold, new: Hold) -> None:
        self.holds[self.holds.index(old)] = new

    def check_over(self) -> bool:
        """§5.30 PROPOSED: unconscious or dead ends a fighter's part; the fight ends when
        one side is left standing, which wins (in a duel, the fighter left)."""
        if self.result is not None:
            return True
        g = self.game
        standing = {g.sides[f.idx] for f in self.fighters if f.out is None}
        if len(standing) <= 1:
            winner = standing.pop() if standing else None
            self.result = {"winner": winner, "reason": "last standing", "turn": self.turn}
            named = {"side": g.side_name(winner)} if g.side_names and winner is not None else {}
            self.log("fight_ends", "§5.30", winner=winner, reason="last standing", **named)
            self.stack.clear()
            return True
        return False

    # ------------------------------------------------------------------ geometry
    def attack_direction(self, a: int, t: int) -> int:
        """Absolute direction from which ``a`` acts on ``t`` (§5.4 PROPOSED for same hex)."""
        fa, ft = self.fighters[a], self.fighters[t]
        if fa.pos == ft.pos:
            return self.approach.get((a, t), ft.facing)
        d = hx.direction_to(ft.pos, fa.pos)
        if d is None:  # not adjacent: the direction whose neighbour is nearest (first on ties)
            return hx.nearest_direction(ft.pos, fa.pos)
        return d

    def arc(self, a: int, t: int, facing: int | None = None) -> int:
        """Relative direction (0 front .. 3 rear) of ``a`` as seen by ``t``."""
        f = self.fighters[t].facing if facing is None else facing
        return hx.relative(self.attack_direction(a, t), f)

    def place(self, i: int, new: hx.Hex) -> None:
        """Move fighter ``i`` to ``new``, recording the approach for same-hex fighters."""
        f = self.fighters[i]
        old = f.pos
        if new == old:
            return
        f.pos = new
        came = hx.direction_to(new, old)
        if came is None:
            came = hx.nearest_direction(new, old)
        for g in self.fighters:
            if g.idx != i and g.pos == new:
                self.approach[(i, g.idx)] = came
                self.approach[(g.idx, i)] = hx.opposite(came)

    def set_facing(self, i: int, facing: int) -> None:
        """Turn fighter ``i``; same-hex opponents now count as in front (§5.4 reset)."""
        f = self.fighters[i]
        if f.facing == facing:
            return
        f.facing = facing
        for g in self.fighters:
            if g.idx != i and g.pos == f.pos:
                self.approach[(g.idx, i)] = facing

    def on_board(self, h: hx.Hex) -> bool:
        return hx.in_arena(h, self.game.radius)

    # ------------------------------------------------------------------ rolls (§1.3)
    def basic(
        self,
        i: int,
        skill: str | None,
        char: str | None,
        specs: Sequence[str] = (),
        extra: Sequence[tuple[str, int]] = (),
        wound_penalties: bool = True,
        worst: int | None = None,
    ) -> tuple[int, list[tuple[str, int]]]:
        """Basic value (half points) and its terms of fighter ``i``'s roll as he stands
        (:func:`formulas.basic`: sheet, modifiers, wounds, stagger/stun). ``worst``
        overrides the worst wound the impairment comes from: the rolls a hit forces are
        made before its own wound impairs (aom1d31, aom1d32)."""
        f = self.fighters[i]
        if f.stuck and char == self.t.data.armed.stuck_characteristic:  # §1.15 aom1d35
            extra = list(extra) + stuck_penalty(self, i)
        if not wound_penalties:
            return formulas.basic(self.t, f.p, skill, char, specs, extra)
        return formulas.basic(self.t, f.p, skill, char, specs, extra,
                              f.worst if worst is None else worst, f.pen, f.status)

    def roll(
        self, what: str, basic_h: int, terms: list[tuple[str, int]], risk: int
    ) -> tuple[int, dict[str, Any]]:
        """Roll ``risk`` dice on a basic value: result and its record for the event log
        (numbers as ``half`` writes them, inlined here: this runs for every roll)."""
        faces = self.dice.faces(risk) if risk else []
        res = formulas.roll_result(basic_h, risk, sum(faces), self.t.per_die_h)
        rec = {
            "what": what,
            "basic": half(basic_h),
            "terms": [[n, v // 2 if v % 2 == 0 else v / 2] for n, v in terms],
            "risk": risk,
            "dice": faces,
            **({"sides": self.dice.sides} if risk else {}),
            "result": half(res),
        }
        return res, rec

    def spec_basic(self, i: int, spec: Any, extra: Sequence[tuple[str, int]] = ()
                   ) -> tuple[int, list[tuple[str, int]]]:
        """Basic value and terms of a roll described in the rules data (skill,
        characteristic, specialisms, bonus), e.g. soak."""
        return self.basic(i, spec.skill, spec.characteristic, spec.specialisms,
                          formulas.spec_extra(spec, extra))

    def roll_spec(self, i: int, what: str, spec: Any, risk: int,
                  extra: Sequence[tuple[str, int]] = ()) -> tuple[int, dict[str, Any]]:
        b, terms = self.spec_basic(i, spec, extra)
        return self.roll(what, b, terms, risk)

    def pay(self, i: int, ap: int) -> None:
        """Fighter ``i`` pays ``ap`` action points (a maneuver's cost, keeping or letting
        go of a hold, §1.5, §5.17): the one place AP are spent. Legality made sure he has
        them; AP *lost* to stagger or knock-back go through :meth:`lose_ap`."""
        self.fighters[i].ap -= ap

    def lose_ap(self, i: int, n: int) -> int:
        f = self.fighters[i]
        lost = min(f.ap, n)
        f.ap -= lost
        return lost


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

"""A fight run by the native core (``_core.Fight``, envs/rules/core/fight.hpp), and the
engines' differential check (issue 15): the same fight played through the Python engine and
the core with the same dice must give the same decisions, legal lists, events and result.

Python keeps the start of a fight: the ``Game`` (rules, sheets, scene), the seeding and the
start hexes (a scene's distance range rolls the fight's dice, ``Game.start_positions``);
the core gets the positions, the facings and the dice where Python left them
(``native.core_dice_of``), pushes the first turn and advances, as ``Game.new_state`` does.
Choices cross the boundary as int tuples (kind, maneuver id, target, location id, turn,
option, risk; -1 for None); the events come back as the Python engine's dicts, built only
when read.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _core
from .dice import Dice
from .model import Choice, Decision
from .native import Ids, _profile, compile_tables, core_dice_of, core_state
from .native_reasons import choice_ids, render
from .resolution import (
    At,
    AttackFrame,
    BreakHoldFrame,
    FollowOnFrame,
    HitFrame,
    MoveFrame,
    PhaseFrame,
    ReactionsFrame,
    TurnFrame,
)
from .scenario import scenario_board
from .state import Game, IllegalChoice, State

_KINDS = tuple(_core.CHOICE_KINDS)  # model.Choice kinds, in the core's order
_AT = tuple(At)  # resolution.At, in fight.hpp's order
_VIA = ("action", "reaction", "follow_on")
_HIT_KINDS = ("attack", "lock", "self")
_LIMBS = ("arm", "leg", "head")
_TRIGGERS = tuple(_core.TRIGGERS)
#: legal lists kept as Choices per rule set (Boundary.choices); cleared when full
_CACHE_LISTS = 65_536
#: menus (a decision and its legal Choices) kept per rule set (Boundary.menu); cleared when full
_CACHE_MENUS = 16_384

#: A pending decision as the facade hands it out (Boundary.menu): the Decision, the legal
#: Choices (built once, shared: Choices are immutable) and each Choice's index by id().
Menu = tuple[Decision, tuple[Choice, ...], dict[int, int]]


def _trigger_bits(triggers: Any) -> int:
    return sum(1 << _TRIGGERS.index(x) for x in triggers)


class Boundary:
    """model.Choice <-> the core's int tuples, for one rule set."""

    def __init__(self, t: Any) -> None:
        self.ids = Ids(t)
        self.maneuvers = list(t.maneuvers)
        self.locations = list(t.locations)
        self.damage_types = list(t.data.damage_types)
        self._lists: dict[tuple[tuple[int, ...], ...], tuple[Choice, ...]] = {}
        self._one: dict[tuple[int, ...], Choice] = {}  # bounded: a rule set's choice rows
        self._menus: dict[int, Menu] = {}
        self._decisions: dict[tuple[int, str, str], Decision] = {}

    def to_core(self, c: Choice) -> tuple[int, ...]:
        ids = self.ids
        return (_KINDS.index(c.kind), ids.opt(ids.maneuver, c.maneuver),
                -1 if c.target is None else c.target, ids.opt(ids.location, c.location),
                c.turn, c.option, c.risk)

    def frame_ints(self, fr: Any) -> list[int]:
        """A Python frame as the core takes it over (bind_fight.cpp frame_from): its type,
        then its fields in fight.hpp's order (a choice as 7 ints, a bool 0/1, At by index)."""
        ids, at = self.ids, _AT.index(fr.at) if hasattr(fr, "at") else 0
        man, loc = (lambda n: ids.opt(ids.maneuver, n)), (lambda n: ids.opt(ids.location, n))
        if isinstance(fr, TurnFrame):
            return [0, at, fr.asked, getattr(fr, "_cand", -1)]
        if isinstance(fr, PhaseFrame):
            return [1, fr.i, at]
        if isinstance(fr, ReactionsFrame):  # a MoveFrame too
            move = isinstance(fr, MoveFrame)
            q = [x for g, trig in fr.queue for x in (g, _trigger_bits(trig))]
            fd, fh = fr.follow or (0, 0)
            c = self.to_core(fr.c) if move else (4, -1, -1, -1, 0, 0, 0)
            return [2, fr.i, man(fr.what), len(fr.queue), *q, int(fr.follow is not None), fd, fh,
                    int(move), *c, _VIA.index(fr.via) if move else 0, at if move else _AT.index(At.REACT)]
        if isinstance(fr, AttackFrame):
            limb = _LIMBS.index(fr.restrict) if fr.restrict in _LIMBS else -1
            rloc = loc(fr.restrict) if fr.restrict is not None and limb < 0 else -1
            react = self.to_core(fr.react) if fr.react is not None else (4, -1, -1, -1, 0, 0, 0)
            return [3, fr.a, *self.to_core(fr.c), fr.t, _VIA.index(fr.via), limb, rloc, at,
                    int(fr.closed), int(fr.zone), int(fr.react is not None), *react, fr.ra, fr.rd]
        if isinstance(fr, HitFrame):
            dest = fr.dest or (0, 0)
            return [4, fr.src, fr.victim, man(fr.maneuver), loc(fr.loc),
                    self.damage_types.index(fr.dtype), fr.margin, _HIT_KINDS.index(fr.kind),
                    int(fr.fixed is not None), fr.fixed or 0, int(fr.rating is not None),
                    fr.rating or 0, ids.opt(ids.weapon, fr.weapon), at, fr.level, fr.damage,
                    int(fr.dest is not None), dest[0], dest[1], getattr(fr, "_holder", -1)]
        if isinstance(fr, FollowOnFrame):
            return [5, fr.i, man(fr.after), man(fr.blocked), loc(fr.blocked_arm),
                    -1 if fr.own_hand is None else fr.own_hand,
                    -1 if fr.attacker is None else fr.attacker]
        if isinstance(fr, BreakHoldFrame):
            return [6, fr.i, *self.to_core(fr.c), _VIA.index(fr.via), at, fr.re, fr.rh]
        raise ValueError(f"frame {type(fr).__name__}: the core takes no such frame")

    def to_python(self, x: tuple[int, ...]) -> Choice:
        kind, m, target, loc, turn, option, risk = x
        return Choice(_KINDS[kind], None if m < 0 else self.maneuvers[m],
                      None if target < 0 else target, None if loc < 0 else self.locations[loc],
                      turn, option, risk)

    def choices(self, rows: list[tuple[int, ...]]) -> list[Choice]:
        """The core's legal rows as Choices. Why a cache: the same lists come up again and
        again (a phase decision, a reaction's menu), and building ~20 NamedTuples per
        decision was the native engine's largest cost through the public API (~40 %).
        Choices are immutable, so a list's Choices are shared; the list itself is new."""
        key = tuple(rows)
        got = self._lists.get(key)
        if got is None:
            if len(self._lists) >= _CACHE_LISTS:
                self._lists.clear()
            one, new = self._one, self.to_python
            got = self._lists[key] = tuple(one.get(x) or one.setdefault(x, new(x)) for x in rows)
        return list(got)


    def menu(self, core: Any) -> Menu | None:
        """The pending decision of native fight ``core`` and its legal Choices, or None once
        over. Why: a decision through the public API was mostly Python building and hashing
        tuples (the rows, ~20 Choices, the Decision, a list.index per apply); the core interns
        each (decision, legal list) as one id (``Fight.menu``), so a decision is one call and
        one dict lookup, and ``apply`` finds the choice's index by its id()."""
        k = core.menu
        if k < 0:
            return None
        got = self._menus.get(k)
        if got is None:
            got = self._new_menu(core, k)
        return got

    def _new_menu(self, core: Any, k: int) -> Menu:
        if len(self._menus) >= _CACHE_MENUS:
            self._menus.clear()
        d = core.decision
        dec = self._decisions.get(d)
        if dec is None:
            dec = self._decisions[d] = Decision(*d)
        one, new = self._one, self.to_python
        choices = tuple(one.get(x) or one.setdefault(x, new(x)) for x in core.legal())
        index: dict[int, int] = {}
        for j, c in enumerate(choices):
            index.setdefault(id(c), j)
        got = self._menus[k] = (dec, choices, index)
        return got


def boundary_of(t: Any) -> Boundary:
    """The Boundary of rule set ``t``, built once (its ids and the Choice cache are per
    rule set; a fresh one per fight cost ~15 us of a ~2 ms fight)."""
    got = _BOUNDARIES.get(id(t))
    if got is None or got[0] is not t:
        got = _BOUNDARIES[id(t)] = (t, Boundary(t))
    return got[1]


_BOUNDARIES: dict[int, tuple[Any, Boundary]] = {}


def core_fight(game: Any, starts: Any, dice: Any) -> Any:
    """A new ``_core.Fight`` of ``game`` from its fighters' start (hex, facing) and the core's
    dice (a ``_core.Dice``), at its first decision."""
    ct = compile_tables(game.tables)
    return _core.Fight(ct, [_profile(ct, p) for p in game.profiles], list(game.sides),
                       list(game.side_names), game.radius, game.turn_limit,
                       [(tuple(h), f) for h, f in starts], dice)


class NativeFight:
    """One fight run by the core, read and driven in the Python engine's terms."""

    def __init__(self, game: Any, seed: int | Dice | None = None,
                 _core_fight: Any = None, _boundary: Boundary | None = None) -> None:
        self.game = game
        self.boundary = _boundary or boundary_of(game.tables)
        self._events: list[dict[str, Any]] = []
        self._prefix = 0  # events taken over from a Python State (from_state)
        if _core_fight is not None:
            self.core = _core_fight
            return
        t = game.tables
        dice = seed if isinstance(seed, Dice) else Dice(seed, t.data.dice.die_sides)
        starts = game.start_positions(dice)  # a scene's distance range rolls these dice
        self.core = core_fight(game, starts, core_dice_of(dice))

    @classmethod
    def from_state(cls, st: State) -> NativeFight:
        """The core takes over Python State ``st`` between decisions (a scenario, a search
        node): its board, dice, frames and events so far; then it advances to the pending
        decision, as ``Game.new_state`` does after ``apply_scenario``."""
        if st.is_over:
            raise ValueError("state: the fight is over (nothing to take over)")
        g, b = st.game, boundary_of(st.t)
        ct = compile_tables(st.t)
        frames = [b.frame_ints(fr) for fr in st.stack]
        core = _core.Fight.from_state(ct, [_profile(ct, f.p) for f in st.fighters],
                                      list(g.side_names), g.turn_limit, core_state(st, b.ids),
                                      core_dice_of(st.dice), frames, False)
        out = cls(g, _core_fight=core, _boundary=b)
        out._events = list(st.events)
        out._prefix = len(st.events)
        return out

    @classmethod
    def from_scenario(cls, game: Game, scenario: Any, seed: int | Dice | None = None
                      ) -> NativeFight:
        """A native fight set up by ``scenario.py`` (as ``game.new_state(seed, scenario)``):
        the scenario's board and its turn's frames go straight onto the core's board, with
        the dice where the start left them, and the core advances to the first decision."""
        dice = seed if isinstance(seed, Dice) else Dice(seed, game.tables.data.dice.die_sides)
        sb = scenario_board(game, scenario, dice)  # a scene's distance range rolls the dice
        b, ct = boundary_of(game.tables), compile_tables(game.tables)
        core = _core.Fight.from_state(ct, [_profile(ct, p) for p in game.profiles],
                                      list(game.side_names), game.turn_limit,
                                      core_state(sb, b.ids), core_dice_of(dice), sb.frames, False)
        return cls(game, _core_fight=core, _boundary=b)

    @property
    def is_over(self) -> bool:
        return self.core.is_over

    @property
    def result(self) -> dict[str, Any] | None:
        return self.core.result

    @property
    def decision(self) -> Decision | None:
        m = self.boundary.menu(self.core)
        return None if m is None else m[0]

    def legal_choices(self) -> list[Choice]:
        m = self.boundary.menu(self.core)
        return [] if m is None else list(m[1])

    def context(self) -> dict[str, Any]:
        """``State.context()``: what the pending decision is about."""
        return self.core.context()

    def why_illegal(self, c: Choice) -> str | None:
        """None if ``c`` is legal now, else the Python engine's reason (legality.explain:
        the decision's checks here, the maneuver's by the core)."""
        d = self.decision
        if d is None:
            return "the fight is over"
        legal = self.legal_choices()
        if c in legal:
            return None
        t = self.game.tables
        kinds = sorted({ch.kind for ch in legal})
        if c.kind not in kinds:
            who = self.game.profiles[d.fighter].name
            return f"it is {who}'s {d.kind} decision now; allowed kinds: {', '.join(kinds)}"
        if c.kind == "risk":
            return f"risk must be 0..{t.max_risk} dice"
        if c.kind != "maneuver":
            return f"{c.kind}: not possible now"
        w = self.core.window
        if w is None:
            return f"{c.maneuver}: not possible now"
        ids = self.boundary.ids
        if (c.maneuver or "") not in ids.maneuver:
            return f"unknown maneuver {c.maneuver!r}"
        names = [p.name for p in self.game.profiles]
        reason = _core.explain(compile_tables(t), self.core.state, w,
                               choice_ids(ids, len(names), c))
        return render(t, names, w, reason) or f"{c.maneuver}: not possible now"

    def apply(self, c: Choice) -> None:
        """Take ``c`` for the pending decision; an illegal one raises IllegalChoice with
        the Python engine's reason."""
        try:
            x = self.boundary.to_core(c)
        except (KeyError, ValueError):
            raise IllegalChoice(c, self.why_illegal(c) or "not legal now") from None
        try:
            self.core.apply(x)
        except ValueError as e:
            if str(e).startswith("LoadedDice ran out"):  # as the Python LoadedDice fails
                raise RuntimeError(str(e)) from None
            if str(e) not in ("not legal now", "the fight is over"):
                raise
            raise IllegalChoice(c, self.why_illegal(c) or "not legal now") from None

    @property
    def events(self) -> list[dict[str, Any]]:
        """The event log as the Python engine's dicts (built once, when first read)."""
        n = self._prefix + self.core.n_events
        if len(self._events) < n:
            self._events.extend(self.core.events(len(self._events) - self._prefix))
        return self._events

    def clone(self) -> NativeFight:
        # no __init__: a search clones thousands of times a decision (issue 15: >= 2M/s)
        c = NativeFight.__new__(NativeFight)
        c.game, c.boundary, c.core = self.game, self.boundary, self.core.clone()
        c._events, c._prefix = self._events[:], self._prefix
        return c


# ---------------------------------------------------------------- the differential check
@dataclass
class Divergence:
    """Where the engines first disagree: what, the decision index, both sides."""

    what: str
    index: int
    python: Any
    native: Any

    def __str__(self) -> str:
        return (f"{self.what} at decision {self.index}:\n  python: {self.python!r}\n"
                f"  native: {self.native!r}")


@dataclass
class Tally:
    """What a sweep compared, and the situations it met (so that a pass is not vacuous)."""

    fights: int = 0
    decisions: int = 0
    events: int = 0
    situations: Counter = field(default_factory=Counter)

    def add(self, other: Tally) -> None:
        self.fights += other.fights
        self.decisions += other.decisions
        self.events += other.events
        self.situations.update(other.situations)


def _first_difference(py: list[dict], nat: list[dict], start: int) -> int | None:
    """The index of the first event from ``start`` that differs (keys, order, values or
    types), or None when both logs agree from there."""
    for k in range(start, max(len(py), len(nat))):
        if k >= len(py) or k >= len(nat):
            return k
        a, b = py[k], nat[k]
        if list(a.items()) != list(b.items()) or _types(a) != _types(b):
            return k
    return None


def _types(x: Any) -> Any:
    """The value types of an event, nested (9 and 9.0 compare equal; the log's types must too)."""
    if isinstance(x, dict):
        return [(k, _types(v)) for k, v in x.items()]
    if isinstance(x, list):
        return [_types(v) for v in x]
    return type(x).__name__


def _probes(legal: list[Choice], d: Decision) -> list[Choice]:
    """A few choices that are illegal now (why_illegal must give Python's reasons): a risk
    out of range, the wrong kind, and legal maneuvers moved off by one field."""
    out = [Choice("risk", risk=99), Choice("end") if d.kind != "action" else Choice("pass")]
    for c in legal[:: max(1, len(legal) // 3)]:
        if c.kind == "maneuver":
            out += [c._replace(option=c.option + 1), c._replace(turn=c.turn + 1),
                    c._replace(target=None if c.target is not None else 0)]
    return [c for c in out if c not in legal]


Chooser = Callable[[Any, list[Choice]], Choice]


def random_chooser(seed: int) -> Chooser:
    rng = np.random.default_rng(seed)
    return lambda _s, choices: choices[int(rng.integers(len(choices)))]


def agent_chooser(agents: list[Any]) -> Chooser:
    """Each fighter's agent decides on the Python state (the same choice goes to the core)."""
    return lambda s, _choices: agents[s.decision.fighter].act(s)


def differential(game: Any, seed: int, choose: Chooser, limit: int = 2000
                 ) -> tuple[Tally, Divergence | None]:
    """Play one fight through both engines with the same dice and choices; compare the
    decision, the legal list, the context, the reasons for illegal probes, the new events
    and the result at every step."""
    return compare(game.new_state(seed=seed, engine="python"), NativeFight(game, seed), choose, limit)


def compare(py: State, nat: NativeFight, choose: Chooser, limit: int = 2000
            ) -> tuple[Tally, Divergence | None]:
    """Play on from ``py`` and ``nat`` (the same fight, each engine's) with the same choices
    (``choose`` decides on the Python state), comparing them at every decision."""
    to_core = nat.boundary.to_core
    tally = Tally(fights=1)
    seen = 0
    for k in range(limit):
        bad = _first_difference(py.events, nat.events, seen)
        if bad is not None:
            return tally, Divergence("events", k, py.events[bad:bad + 3], nat.events[bad:bad + 3])
        seen = len(py.events)
        if py.is_over or nat.is_over:
            break
        d = py.decision
        if d != nat.decision:
            return tally, Divergence("decision", k, d, nat.decision)
        legal = py.legal_choices()
        if [to_core(c) for c in legal] != nat.core.legal():
            return tally, Divergence("legal choices", k, legal, nat.legal_choices())
        if list(py.context().items()) != list(nat.context().items()):
            return tally, Divergence("context", k, py.context(), nat.context())
        for probe in _probes(legal, d):
            if py.why_illegal(probe) != nat.why_illegal(probe):
                return tally, Divergence(f"why_illegal({probe})", k, py.why_illegal(probe),
                                         nat.why_illegal(probe))
        c = choose(py, legal)
        tally.decisions += 1
        tally.situations[f"{d.kind}:{d.about}" if d.about else d.kind] += 1
        py.apply(c)
        nat.apply(c)
    for e in py.events:
        tally.situations[f"event:{e['type']}"] += 1
    tally.events = len(py.events)
    if py.result != nat.result:
        return tally, Divergence("result", tally.decisions, py.result, nat.result)
    return tally, None


# ---------------------------------------------------------------- the sweep's pairings
#: the preset fighters (unarmed, then armed) and the scenes the differential check plays
PRESETS = ("chu", "urlik", "boris", "cogan", "novice", "rider", "guard", "spearman", "knife_fighter")
SCENES = ("rider_vs_foot", "two_vs_one", "two_vs_two", "ambush", "monk_vs_guard",
          "monk_vs_two_guards")
#: the scripted agents that drive some fights, so that holds, locks, throws, follow-ons and
#: weapons come up more often than random play makes them
STYLES = ("grappler", "striker", "counter", "greedy", "swordsman")


def pairings() -> list[str]:
    """Every preset pairing ("chu-boris", mirrors included) and every scene."""
    out = [f"{a}-{b}" for k, a in enumerate(PRESETS) for b in PRESETS[k:]]
    return out + list(SCENES)


def make_game(pairing: str, rules: Any = None) -> Any:
    """The Game of a pairing name (``pairings()``), with optional rule overrides."""
    if pairing in SCENES:
        return Game.from_scene(pairing, rules=rules)
    a, b = pairing.split("-")
    return Game.create([a, b], rules=rules)


"""A fight: its fixed part, the ``Game`` (rules, fighters, arena, sides, scene; shared by all
its fights), and the fight itself, the ``State``, which ``Game.new_state`` starts.

The ``State`` is the Python face of one bound core fight (``_core.Fight``, C++ ``Combat``
in envs/rules/core/fight.hpp; issue 15 made the core the only engine, issue 32 made this
the only Python class over it): exactly one fighter decides at a time, from an exact list
of legal choices (``decision``, ``legal_choices``, ``why_illegal``, ``apply``); dice are
rolled between decisions; a decision with a single legal choice is taken automatically;
``events``, ``clone`` (optionally with other dice) and pickling (as a replay) follow.

Readers get the board as a read-only snapshot (``board.Board``: ``fighters``, ``holds``,
``approach``...), read from the core once per decision. A board is written in one place,
the scenario set-up (``Game.new_state(seed, scenario={...})``, ``scenario.py``); writing a
snapshot raises ``board.BoardReadOnly`` saying so. Choices cross as int tuples and menus
(``menus.Boundary``); the board's geometry (``arc``, ``attack_direction``, ``others``) is
the core's own.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from numbers import Integral
from pathlib import Path
from typing import Any

import numpy as np

from . import _core
from . import hexgrid as hx
from .board import OUT_NAMES, Board, BoardFighter, names_of, refuse, window_of
from .dice import Dice, LoadedDice
from .events import render_event
from .fighter import Profile, load_profile
from .menus import Boundary, Menu, boundary_of
from .model import Choice, Decision, Hold, IllegalChoice, Window
from .reason_texts import choice_ids, render
from .ruleset import RulesError, deep_merge, read_toml
from .scenario import scenario_board
from .scene import SceneFile, load_scene, resolve_path, sides_of, start_hexes
from .tables import Tables, load_tables
from .to_core import _profile, compile_tables, core_dice_of, core_state

#: the engines ``Game.new_state`` can run a fight on (``engine=`` or ``HEXDOJO_ENGINE``):
#: the native core alone since the Python engine was deleted (issue 15)
ENGINES = ("native",)


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
        if isinstance(radius, bool) or not isinstance(radius, Integral) or not 1 <= radius <= 20:
            raise RulesError(f"radius: value {radius!r}: allowed 1..20")
        limit = tables.data.turn.turn_limit if turn_limit is None else turn_limit
        if isinstance(limit, bool) or not isinstance(limit, Integral) or not 1 <= limit <= 10_000:
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
        """A fresh fight (or a described situation, see ``scenario.py``) on the native core.
        ``engine`` (or the environment's ``HEXDOJO_ENGINE``) may only name it, ``"native"``:
        the Python engine was deleted (issue 15), and asking for it is one clear error."""
        for where, value in (("engine", engine), ("HEXDOJO_ENGINE", os.environ.get("HEXDOJO_ENGINE"))):
            if value is not None and value not in ENGINES:
                raise RulesError(f"{where}: value {value!r}: allowed {list(ENGINES)} (the Python "
                                 "engine was deleted in issue 15; the native core runs every fight)")
        return State.new(self, seed, scenario)


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


def core_fight(game: Game, starts: Any, dice: Any) -> Any:
    """A new ``_core.Fight`` of ``game`` from its fighters' start (hex, facing) and the core's
    dice (a ``_core.Dice``), at its first decision."""
    ct = compile_tables(game.tables)
    return _core.Fight(ct, [_profile(ct, p) for p in game.profiles], list(game.sides),
                       list(game.side_names), game.radius, game.turn_limit,
                       [(tuple(h), f) for h, f in starts], dice)


def scenario_fight(game: Game, scenario: Mapping[str, Any], dice: Dice) -> Any:
    """A new ``_core.Fight`` set up by ``scenario.py``: the scenario's board and its turn's
    frames go onto the core's board, with ``dice`` where the start left them (a scene's
    distance range rolls them), and the core advances to the first decision."""
    sb = scenario_board(game, scenario, dice)
    ct = compile_tables(game.tables)
    return _core.Fight.from_state(ct, [_profile(ct, p) for p in game.profiles],
                                  list(game.side_names), game.turn_limit,
                                  core_state(sb, boundary_of(game.tables).ids),
                                  core_dice_of(dice), sb.frames, False)


def _read_only(name: str, doc: str) -> property:
    """A board field of the snapshot: read from it; a write is ``board.refuse``'s error."""
    def get(self: State) -> Any:
        return getattr(self._board(), name)

    def put(self: State, _: Any) -> None:
        refuse(name)

    return property(get, put, doc=doc)


class State:
    """One fight run by the core (see the module docstring). ``Game.new_state`` makes one;
    ``State.from_core`` wraps a fight the core made elsewhere (a vector env's slot)."""

    def __init__(self, game: Game, core: Any, loaded: LoadedDice | None = None) -> None:
        self.game, self.t, self._core = game, game.tables, core
        self._b: Boundary = boundary_of(game.tables)  # the hot paths' second read
        self._events: list[dict[str, Any]] = []
        self._taken = 0  # core events already in _events
        #: a test's loaded dice: kept in step with the core's (``dice.used``, faces pushed later)
        self._loaded, self._handed = loaded, -1 if loaded is None else len(loaded.script)
        self._recipe: tuple[Any, ...] | None = None  # see __reduce__
        #: what was done since the recipe, newest first as (op, earlier ops): clones share it
        self._ops: tuple[Any, ...] = ()
        self._forget()
        self._sync_dice()

    @classmethod
    def new(cls, game: Game, seed: Any = None, scenario: Mapping[str, Any] | None = None
            ) -> State:
        """``Game.new_state``: a fresh fight (the start hexes from ``game.start_positions``,
        which may roll the dice), or a scenario's, with the dice where the start left them."""
        dice = seed if isinstance(seed, Dice) else Dice(seed, game.tables.data.dice.die_sides)
        recipe = (game, dice.clone(), scenario)
        loaded = dice if isinstance(dice, LoadedDice) else None
        with _dice_errors(loaded):
            if scenario is None:
                core = core_fight(game, game.start_positions(dice), core_dice_of(dice))
            else:
                core = scenario_fight(game, scenario, dice)
        out = cls(game, core, loaded)
        out._recipe = recipe
        return out

    @classmethod
    def from_core(cls, game: Game, core: Any) -> State:
        """The State of core fight ``core`` of ``game`` (a vector env's slot, copied by the
        caller): no recipe, so it cannot be pickled."""
        return cls(game, core)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its recipe (the game, the dice at the start, the scenario) and what
        was done since (choices, dice handed over), replayed on loading: the core's fight
        is no Python object (OpenSpiel serialises states this way)."""
        if self._recipe is None:
            raise TypeError("State: a fight taken from the core (State.from_core) has no "
                            "recipe and cannot be pickled; pickle a Game.new_state fight")
        return _replay, (self._recipe, _unchained(self._ops))

    def _sync_dice(self) -> None:
        """The loaded dice's position where the core's dice stand (tests read ``used``)."""
        if self._loaded is not None:
            self._loaded._pos = self._core.dice.pos

    def _hand_dice(self) -> None:
        """Faces a test pushed onto its loaded dice since the core took them: hand over again."""
        d = self._loaded
        if d is not None and len(d.script) != self._handed:
            _core.fight_set_dice(self._core, core_dice_of(d))
            self._handed = len(d.script)

    # ------------------------------------------------------------------ caches
    def _forget(self) -> None:
        """Drop what was read of the core (after a decision is taken)."""
        self._snap: Board | None = None
        self._menu: Menu | None | bool = False  # the pending decision (False: not read yet)
        #: the Decision handed out for it: a new object per decision (a Python agent may
        #: key per-decision memos on its identity); the menu's own Decision is shared by
        #: every equal decision
        self._dec: Decision | None | bool = False
        self._result: dict[str, Any] | None = None

    def _board(self) -> Board:
        if self._snap is None:
            self._snap = Board(self.game, self._core.state, names_of(self.t))
        return self._snap

    def _listed(self) -> Menu | None:
        m = self._menu
        if m is False:
            m = self._menu = self._b.menu(self._core)
        return m  # type: ignore[return-value]

    # ------------------------------------------------------------------ decisions
    @property
    def is_over(self) -> bool:
        return self._core.is_over

    @property
    def result(self) -> dict[str, Any] | None:
        if self._result is None:
            self._result = self._core.result
        return self._result

    @property
    def winner(self) -> int | None:
        r = self.result
        return None if r is None else r["winner"]

    @property
    def phasing(self) -> int | None:
        i = _core.fight_phasing(self._core)
        return None if i < 0 else i

    @property
    def decision(self) -> Decision | None:
        d = self._dec
        if d is False:
            m = self._listed()
            d = self._dec = None if m is None else _tuple_new(Decision, m[0])
        return d  # type: ignore[return-value]

    def context(self) -> dict[str, Any]:
        """What the pending decision is about (the core's answer)."""
        return self._core.context()

    def legal_choices(self) -> list[Choice]:
        m = self._menu
        if m is False:
            m = self._menu = self._b.menu(self._core)
        return [] if m is None else list(m[1])  # type: ignore[index]

    def why_illegal(self, choice: Choice) -> str | None:
        """None if ``choice`` is legal now, else the reason (the decision's checks here, the
        maneuver's by the core: ``_core.explain``)."""
        m = self._listed()
        if m is None:
            return "the fight is over"
        if id(choice) in m[2] or choice in m[1]:
            return None
        return _reason(self, m, choice)

    def apply(self, choice: Choice) -> None:
        """Why so terse: this is the hot call of every fight through the public API; the
        choice's index comes from the menu by id() (the legal list's own Choice objects),
        else by equality, and only the index crosses into the core."""
        m = self._menu
        if m is False:
            m = self._b.menu(self._core)
        if m is None:
            raise IllegalChoice(choice, "the fight is over")
        k = m[2].get(id(choice))  # type: ignore[index]
        if k is None:
            k = self._index(m, choice)  # type: ignore[arg-type]
        loaded = self._loaded
        if loaded is not None:
            self._hand_dice()
        self._snap, self._menu, self._dec, self._result = None, False, False, None
        self._ops = (("apply", choice), self._ops)
        try:
            self._core.apply_index(k)
        except (ValueError, RuntimeError) as e:
            _dice_error(loaded, e)
            raise
        finally:
            if loaded is not None:
                loaded._pos = self._core.dice.pos

    def _index(self, m: Menu, choice: Choice) -> int:
        """The index of a choice equal to a legal one (not the legal list's own object)."""
        try:
            return m[1].index(choice)
        except ValueError:
            raise IllegalChoice(choice, _reason(self, m, choice) or "not legal now") from None

    def check_over(self) -> bool:
        """Whether one side alone is left standing (§5.30), by the core; ends the fight then."""
        self._forget()
        self._ops = (("check_over",), self._ops)
        return _core.fight_check_over(self._core)

    def knock_out(self, i: int, how: str) -> None:
        """Fighter ``i`` goes out ("unconscious" or "dead", §5.30), by the core's rules: his
        hold ends (§1.18). A rules operation, not a board write."""
        if how not in OUT_NAMES[1:]:
            raise ValueError(f"knock_out: how {how!r}: allowed {list(OUT_NAMES[1:])}")
        self._forget()
        self._ops = (("knock_out", i, how), self._ops)
        _core.fight_knock_out(self._core, i, OUT_NAMES.index(how))

    def clone(self, dice: Dice | None = None) -> State:
        """A copy: the core's fight copied; what is immutable (the recipe and its ops, the
        menu, the result, the board snapshot) shared (a search clones thousands of times a
        decision; issue 15: >= 2M/s).

        ``dice``: the clone rolls from these from now on, and the original keeps its own (a
        search's determinised clone must not see the fight's future rolls; OpenSpiel's
        chance nodes replay a move on the faces drawn so far). None: the clone rolls the
        same future faces as the original (a copy of its dice)."""
        c = _new(State)
        d = self.__dict__.copy()
        d["_core"] = self._core.clone()
        d["_events"] = self._events[:]
        c.__dict__ = d
        if dice is not None:
            c._use_dice(dice)
        elif self._loaded is not None:  # the test's loaded dice: a copy in step with the core's
            c._loaded = self._loaded.clone()
            c._handed = len(c._loaded.script)
        return c

    @property
    def events(self) -> list[dict[str, Any]]:
        """The event log as dicts (built from the core's when read)."""
        n = self._core.n_events
        if n > self._taken:
            self._events.extend(self._core.events(self._taken))
            self._taken = n
        return self._events

    def render_log(self, start: int = 0) -> list[str]:
        return [render_event(e, self) for e in self.events[start:]]

    # ------------------------------------------------------------------ the board (read-only)
    @property
    def fighters(self) -> list[BoardFighter]:
        """The fighters as read-only records with ``model.FighterState``'s names."""
        return self._board().fighters

    @fighters.setter
    def fighters(self, _: Any) -> None:
        refuse("fighters")

    @property
    def turn(self) -> int:
        return self._core.turn

    @turn.setter
    def turn(self, _: Any) -> None:
        refuse("turn")

    order = _read_only("order", "The turn's initiative order (fighter indices).")
    holds = _read_only("holds", "The holds (``model.Hold``, §1.18), a read-only list.")
    dropped = _read_only("dropped", "Weapons lying on the board: (hex, weapon id), aom314a.")
    approach = _read_only("approach", "The §5.4 approaches: (from, to) -> direction.")

    @property
    def dice(self) -> Any:
        """A test's loaded dice (kept in step with the core's), else a copy of the core's
        dice (``_core.Dice``). Read-only: a fight with other dice is ``clone(dice=)``, which
        leaves the original alone (a search's determinised clone, OpenSpiel's chance replay)."""
        return self._core.dice if self._loaded is None else self._loaded

    @dice.setter
    def dice(self, _: Any) -> None:
        raise AttributeError("State.dice is read-only: a fight that rolls other dice is "
                             "state.clone(dice=...), which leaves the original alone")

    def _use_dice(self, d: Dice) -> None:
        """Hand dice ``d`` to the core (rolled from now on) and remember them for a pickle's
        replay; loaded dice stay this state's, so a test can push faces later. Private: only
        ``clone(dice=)`` (on its fresh clone) and the pickle's replay call it."""
        _core.fight_set_dice(self._core, core_dice_of(d))
        self._ops = (("dice", d.clone()), self._ops)
        self._loaded = d if isinstance(d, LoadedDice) else None
        self._handed = -1 if self._loaded is None else len(self._loaded.script)

    @property
    def window(self) -> Window | None:
        """The pending decision's window (``model.Window``), or None."""
        w = self._core.window
        return None if w is None else window_of(self.t, w)

    # ------------------------------------------------------------------ the board's geometry
    # The core answers (§5.4 approaches, aom315 arcs, §1.18 holds, §5.30 who is still in).
    def others(self, i: int) -> list[int]:
        """The fighters other than ``i`` still in the fight (§5.30)."""
        return list(self._board().cs.others(i))

    def hold_on(self, i: int) -> Hold | None:
        """The hold someone has on fighter ``i`` (the first one), if any (§1.18)."""
        return next((h for h in self._board().holds if h.held == i), None)

    def hold_by(self, i: int) -> Hold | None:
        """The hold fighter ``i`` has on someone, if any (§1.18)."""
        return next((h for h in self._board().holds if h.holder == i), None)

    def attack_direction(self, a: int, t: int) -> int:
        """The absolute direction from which ``a`` acts on ``t`` (§5.4 PROPOSED in one hex)."""
        return self._board().cs.attack_direction(a, t)

    def arc(self, a: int, t: int, facing: int | None = None) -> int:
        """The relative direction (0 front .. 3 rear) of ``a`` as ``t`` sees him (aom315)."""
        cs = self._board().cs
        return cs.arc(a, t) if facing is None else cs.arc(a, t, facing)

    def on_board(self, h: hx.Hex) -> bool:
        return hx.in_arena(h, self.game.radius)


_new = object.__new__
_tuple_new = tuple.__new__


def _reason(s: State, m: Menu, c: Choice) -> str | None:
    """Why ``c`` is not legal in ``s``'s pending decision ``m`` (the decision's checks
    here, the maneuver's by the core: ``_core.explain``); None if it is."""
    d, legal = m[0], m[1]
    if c in legal:
        return None
    t = s.t
    kinds = sorted({ch.kind for ch in legal})
    if c.kind not in kinds:
        who = s.game.profiles[d.fighter].name
        return f"it is {who}'s {d.kind} decision now; allowed kinds: {', '.join(kinds)}"
    if c.kind == "risk":
        return f"risk must be 0..{t.max_risk} dice"
    if c.kind != "maneuver":
        return f"{c.kind}: not possible now"
    w = s._core.window
    if w is None:
        return f"{c.maneuver}: not possible now"
    ids = s._b.ids
    if (c.maneuver or "") not in ids.maneuver:
        return f"unknown maneuver {c.maneuver!r}"
    names = [p.name for p in s.game.profiles]
    reason = _core.explain(compile_tables(t), s._core.state, w, choice_ids(ids, len(names), c))
    return render(t, names, w, reason) or f"{c.maneuver}: not possible now"


def _unchained(ops: tuple[Any, ...]) -> tuple[tuple[Any, ...], ...]:
    """The ops chain (newest first, as (op, earlier)) as a tuple, oldest first."""
    out = []
    while ops:
        op, ops = ops
        out.append(op)
    return tuple(reversed(out))


def _replay(recipe: tuple[Any, ...], ops: tuple[tuple[Any, ...], ...]) -> State:
    """A pickled State (``__reduce__``): its recipe, then its ops again."""
    game, dice, scenario = recipe
    s = State.new(game, dice.clone(), scenario)
    for op in ops:
        if op[0] == "apply":
            s.apply(op[1])
        elif op[0] == "dice":
            s._use_dice(op[1].clone())
        elif op[0] == "check_over":
            s.check_over()
        else:
            s.knock_out(op[1], op[2])
    return s


def _dice_error(loaded: LoadedDice | None, e: BaseException) -> None:
    """The core's "LoadedDice ran out" as the Python dice raise it (see _dice_errors);
    any other error: nothing (the caller re-raises it)."""
    _dice_errors(loaded).__exit__(type(e), e, None)


class _dice_errors:  # noqa: N801 (a context manager, named for what it does)
    """The core's "LoadedDice ran out" as the Python dice raise it: a test's LoadedDice its
    RuntimeError, OpenSpiel's chance dice (envs/spiel.py) their NeedDie."""

    def __init__(self, loaded: LoadedDice | None) -> None:
        self.loaded = loaded

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, e: Any, tb: Any) -> bool:
        if kind not in (ValueError, RuntimeError) or not str(e).startswith("LoadedDice ran out"):
            return False
        if self.loaded is not None:
            self.loaded._pos = len(self.loaded.script)
            self.loaded.die()  # raises the dice's own error
        raise RuntimeError(str(e)) from None


__all__ = ["ENGINES", "Game", "IllegalChoice", "State", "core_fight", "distinct_names",
           "draw_distance", "scenario_fight", "scene_rules"]

"""``State``: a fight the native core runs, behind the Python API (issue 15).

``Game.new_state`` returns one (the core is the only engine: the Python engine it was ported
from was its reference until the engines' differential test passed, and was then deleted).

How it works: the fight is a ``native_fight.NativeFight`` (decisions, legal choices,
reasons, events, clones: the core's). The board is read as a snapshot of plain records
(``model.FighterState``, ``Hold``, ...) built from the core's board once per decision; a
write (``s.fighters[0].ap = 5``, ``s.holds = [...]``, ``s.turn = 2``, ``s.place(...)``)
changes the snapshot and sends the whole board back to the core (``_core.fight_set_board``,
checked id by id). A write between decisions does not re-list the pending decision's
choices. The board's geometry (``arc``, ``attack_direction``, ``others``, ``place``,
``set_facing``) is the core's own, and so are the formulas' State forms
(``formulas.attack_basic(s, ...)``, read from the core's fight).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from . import _core
from . import hexgrid as hx
from .dice import Dice, LoadedDice
from .events import render_event
from .model import Choice, Decision, FighterState, Hold, IllegalChoice, Window
from .native import _LIMBS, _TRIGGERS, core_dice_of, core_state
from .native_fight import Menu, NativeFight

if TYPE_CHECKING:
    from .state import Game

_OUT_NAMES = (None, "unconscious", "dead")  # _core.Out by value
_STATUS_NAMES = ("", "staggered", "stunned")  # _core.Status by value
_WINDOW_KINDS = ("action", "reaction", "follow_on")  # _core.WindowKind by value
#: the fighter fields a view reads from the core's board and writes through
FIELDS = ("pos", "facing", "ap", "init", "phased", "prone", "mounted", "height", "out",
          "wounds", "worst", "pen", "status", "hands", "sheathed", "stuck")


class Board:
    """Plain records of a native fight's board (what ``native.core_state``
    reads back): a snapshot, rebuilt from the core after each decision."""

    __slots__ = ("game", "t", "turn", "fighters", "holds", "dropped", "approach", "order", "cs")

    def __init__(self, game: Game, cs: Any, names: tuple[list[str], ...]) -> None:
        t = game.tables
        locs, weapons, kinds = names
        self.cs = cs  # the core's board it was read from (None once a write went back)
        self.game, self.t, self.turn = game, t, cs.turn
        self.fighters = [_fighter(game.profiles[k], cf, locs, weapons)
                         for k, cf in enumerate(cs.fighters)]
        self.holds = [Hold(h.holder, h.held, kinds[h.kind],
                           None if h.location < 0 else locs[h.location], h.turn, h.attempts,
                           h.from_behind, None if h.hand < 0 else h.hand) for h in cs.holds]
        self.dropped = tuple((tuple(h), weapons[w]) for h, w in cs.dropped)
        n = len(self.fighters)
        self.approach = {(a, b): d for a in range(n) for b in range(n)
                         if a != b and (d := cs.approach(a, b)) >= 0}
        self.order = tuple(cs.order)


def _names(t: Any) -> tuple[list[str], ...]:
    """The location, weapon and hold-kind names by the core's ids (once per rule set)."""
    got = _NAMES.get(id(t))
    if got is None or got[0] is not t:
        got = _NAMES[id(t)] = (t, (list(t.locations), list(t.weapon_ids), list(t.hold_kinds)))
    return got[1]


_NAMES: dict[int, tuple[Any, tuple[list[str], ...]]] = {}


def _fighter(p: Any, cf: Any, locs: Any, weapons: Any) -> FighterState:
    f = FighterState(cf.idx, p, tuple(cf.pos), cf.facing)
    f.ap, f.init, f.phased, f.prone = cf.ap, cf.init, cf.phased, cf.prone
    f.mounted, f.height, f.worst, f.pen = cf.mounted, cf.height, cf.worst, cf.pen
    f.out, f.status = _OUT_NAMES[cf.out.value], _STATUS_NAMES[cf.status.value]
    f.wounds = tuple((locs[w.location], w.level) for w in cf.wounds)
    f.hands = tuple(None if h < 0 else weapons[h] for h in cf.hands)
    f.sheathed = tuple(weapons[w] for w in cf.sheathed)
    f.stuck = tuple((weapons[x.weapon], locs[x.location]) for x in cf.stuck)
    return f


def _view_field(name: str) -> property:
    def get(self: NativeFighter) -> Any:
        return getattr(self._s._board().fighters[self.idx], name)

    def put(self: NativeFighter, v: Any) -> None:
        setattr(self._s._board().fighters[self.idx], name, v)
        self._s._push()

    return property(get, put, doc=f"model.FighterState.{name}, read from and written to the core")


class NativeFighter:
    """One fighter of a ``NativeState`` with ``model.FighterState``'s names: reads come
    from the core's board, writes go through into it."""

    __slots__ = ("_s", "idx", "p", "name")

    def __init__(self, s: NativeState, idx: int, p: Any) -> None:
        self._s, self.idx, self.p, self.name = s, idx, p, p.name

    @property
    def active(self) -> bool:
        return self.out is None

    def copy(self) -> FighterState:
        """A detached copy (a plain record), as ``FighterState.copy``."""
        return self._s._board().fighters[self.idx].copy()

    def __repr__(self) -> str:
        return f"NativeFighter({self.idx}, {self.name!r}, pos={self.pos}, ap={self.ap})"


for _n in FIELDS:
    setattr(NativeFighter, _n, _view_field(_n))


def _renamed(f: NativeFighter, name: str) -> NativeFighter:
    f.name = name
    return f


class _Synced(list):
    """A board list (the holds) whose in-place changes go through into the core."""

    def __init__(self, s: NativeState, items: Iterable[Any]) -> None:
        super().__init__(items)
        self._s = s

    def _done(self, out: Any = None) -> Any:
        self._s._board().holds = list(self)
        self._s._push()
        return out


def _synced(name: str) -> Any:
    base = getattr(list, name)
    return lambda self, *a: self._done(base(self, *a))


for _n in ("append", "extend", "insert", "remove", "pop", "clear", "__setitem__",
           "__delitem__", "sort", "reverse", "__iadd__"):
    setattr(_Synced, _n, _synced(_n))


class _Approach(dict):
    """The §5.4 approaches, a dict whose changes go through into the core."""

    def __init__(self, s: NativeState, items: Mapping[Any, int]) -> None:
        super().__init__(items)
        self._s = s

    def _done(self, out: Any = None) -> Any:
        self._s._board().approach = dict(self)
        self._s._push()
        return out


for _n in ("__setitem__", "__delitem__", "clear", "update", "pop", "setdefault"):
    setattr(_Approach, _n, (lambda base: lambda self, *a: self._done(base(self, *a)))(
        getattr(dict, _n)))


class NativeState:
    """A fight run by the core with ``state.State``'s public API (see the module docstring)."""

    def __init__(self, game: Game, fight: NativeFight, loaded: LoadedDice | None = None) -> None:
        self.game, self.t, self._fight = game, game.tables, fight
        self._core, self._b = fight.core, fight.boundary  # the hot paths' two reads
        self._views: list[NativeFighter] | None = None  # built when first read (clones are cheap)
        self._events: list[dict[str, Any]] = []
        self._taken = 0  # core events already in _events (or dropped by a write)
        #: a test's loaded dice: kept in step with the core's (``dice.used``, faces pushed later)
        self._loaded, self._handed = loaded, -1 if loaded is None else len(loaded.script)
        self._recipe: tuple[Any, ...] | None = None  # see __reduce__
        #: what was done since the recipe, newest first as (op, earlier ops): clones share it
        self._ops: tuple[Any, ...] = ()
        self._forget()
        self._sync_dice()

    @classmethod
    def new(cls, game: Game, seed: Any = None, scenario: Mapping[str, Any] | None = None
            ) -> NativeState:
        """``Game.new_state`` on the core: a fresh fight, or a scenario's (set up by
        ``scenario.py`` on the core's board, with the dice where the start left them)."""
        dice = seed if isinstance(seed, Dice) else Dice(seed, game.tables.data.dice.die_sides)
        recipe = (game, dice.clone(), scenario)
        loaded = dice if isinstance(dice, LoadedDice) else None
        with _dice_errors(loaded):
            if scenario is None:
                out = cls(game, NativeFight(game, dice), loaded)
            else:
                out = cls(game, NativeFight.from_scenario(game, scenario, dice), loaded)
        out._recipe, out._ops = recipe, ()
        return out

    @property
    def _nf(self) -> NativeFight:
        """The NativeFight around the core's fight (a clone builds its own when first asked)."""
        nf = self._fight
        if nf is None:
            nf = self._fight = NativeFight(self.game, _core_fight=self._core, _boundary=self._b)
        return nf

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its recipe (the game, the dice at the start, the scenario) and what
        was done since (choices, dice handed over), replayed on loading: the core's fight
        is no Python object (OpenSpiel serialises states this way)."""
        if self._recipe is None:
            raise TypeError("NativeState: a state whose board was written cannot be pickled")
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

    @property
    def fighters(self) -> list[NativeFighter]:
        """The fighters as views with model.FighterState's names (reads and writes go to
        the core's board)."""
        if self._views is None:
            self._views = [NativeFighter(self, k, p) for k, p in enumerate(self.game.profiles)]
        return self._views

    # ------------------------------------------------------------------ caches
    def _forget(self) -> None:
        """Drop what was read of the core (after a decision is taken)."""
        self._snap: Board | None = None
        self._menu: Menu | None | bool = False  # the pending decision (False: not read yet)
        #: the Decision handed out for it: a new object per decision
        #: (a Python agent may key per-decision memos on its identity); the
        #: menu's own Decision is shared by every equal decision
        self._dec: Decision | None | bool = False
        self._result: dict[str, Any] | None = None

    def _board(self) -> Board:
        if self._snap is None:
            self._snap = Board(self.game, self._core.state, _names(self.t))
        return self._snap

    def _push(self) -> None:
        """Send the snapshot (just written) to the core's board."""
        b = self._board()
        self._send(core_state(b, self._b.ids))
        b.cs = None

    def _listed(self) -> Menu | None:
        m = self._menu
        if m is False:
            m = self._menu = self._b.menu(self._core)
        return m  # type: ignore[return-value]

    # ------------------------------------------------------------------ interface
    @property
    def is_over(self) -> bool:
        return self._core.is_over

    @property
    def result(self) -> dict[str, Any] | None:
        if self._result is None:
            self._result = self._nf.result
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
            m = self._menu
            if m is False:
                m = self._menu = self._b.menu(self._core)
            d = self._dec = None if m is None else _tuple_new(Decision, m[0])  # type: ignore[index]
        return d  # type: ignore[return-value]

    def context(self) -> dict[str, Any]:
        return self._nf.context()

    def legal_choices(self) -> list[Choice]:
        m = self._menu
        if m is False:
            m = self._menu = self._b.menu(self._core)
        return [] if m is None else list(m[1])  # type: ignore[index]

    def why_illegal(self, choice: Choice) -> str | None:
        m = self._listed()
        if m is not None and (id(choice) in m[2] or choice in m[1]):
            return None
        return self._nf.why_illegal(choice)

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
            raise IllegalChoice(choice, self._nf.why_illegal(choice) or "not legal now") from None

    def check_over(self) -> bool:
        """State.check_over (§5.30), by the core."""
        self._forget()
        self._ops = (("check_over",), self._ops)
        return _core.fight_check_over(self._core)

    def knock_out(self, i: int, how: str) -> None:
        """State.knock_out (§5.30), by the core (his hold ends, §1.18)."""
        self._forget()
        self._ops = (("knock_out", i, how), self._ops)
        _core.fight_knock_out(self._core, i, _OUT_NAMES.index(how))

    def clone(self, dice: Dice | None = None) -> NativeState:
        """A copy: the core's fight copied; what is immutable (the recipe and its ops, the
        menu, the result) shared; the NativeFight wrapper and the board snapshot built again
        only when read (a search clones thousands of times a decision; issue 15: >= 2M/s).

        ``dice``: the clone rolls from these from now on, and the original keeps its own (a
        search's determinised clone must not see the fight's future rolls; OpenSpiel's
        chance nodes replay a move on the faces drawn so far). None: the clone rolls the
        same future faces as the original (a copy of its dice)."""
        c = _new(NativeState)
        d = self.__dict__.copy()
        d["_core"] = self._core.clone()
        d["_fight"] = d["_snap"] = None
        d["_events"] = self._events[:]
        c.__dict__ = d
        if dice is not None:
            c._use_dice(dice)
        elif self._loaded is not None:  # the test's loaded dice: a copy in step with the core's
            c._loaded = self._loaded.clone()
            c._handed = len(c._loaded.script)
        if self._views is not None:
            c._views = [_renamed(NativeFighter(c, k, f.p), f.name)
                        for k, f in enumerate(self._views)]
        return c

    @property
    def events(self) -> list[dict[str, Any]]:
        n = self._core.n_events
        if n > self._taken:
            self._events.extend(self._core.events(self._taken))
            self._taken = n
        return self._events

    @events.setter
    def events(self, v: list[dict[str, Any]]) -> None:
        self._events, self._taken = list(v), self._core.n_events
        self._ops = (("events", list(v)), self._ops)

    def render_log(self, start: int = 0) -> list[str]:
        return [render_event(e, self) for e in self.events[start:]]

    # ------------------------------------------------------------------ the board
    @property
    def turn(self) -> int:
        return self._core.turn

    @turn.setter
    def turn(self, v: int) -> None:
        self._board().turn = int(v)
        self._push()

    @property
    def order(self) -> tuple[int, ...]:
        return self._board().order

    @order.setter
    def order(self, v: Iterable[int]) -> None:
        self._board().order = tuple(v)
        self._push()

    @property
    def holds(self) -> list[Hold]:
        return _Synced(self, self._board().holds)

    @holds.setter
    def holds(self, v: Iterable[Hold]) -> None:
        self._board().holds = list(v)
        self._push()

    @property
    def dropped(self) -> tuple[tuple[Any, str], ...]:
        return self._board().dropped

    @dropped.setter
    def dropped(self, v: Iterable[tuple[Any, str]]) -> None:
        self._board().dropped = tuple(v)
        self._push()

    @property
    def approach(self) -> dict[tuple[int, int], int]:
        return _Approach(self, self._board().approach)

    @approach.setter
    def approach(self, v: Mapping[tuple[int, int], int]) -> None:
        self._board().approach = dict(v)
        self._push()

    @property
    def dice(self) -> Any:
        """A test's loaded dice (kept in step with the core's), else a copy of the core's
        dice (``_core.Dice``); setting Python dice (a test's loaded dice) hands them to the
        core from now on (a clone with other dice: ``clone(dice=)``)."""
        return self._core.dice if self._loaded is None else self._loaded

    @dice.setter
    def dice(self, d: Any) -> None:
        self._use_dice(d)

    def _use_dice(self, d: Dice) -> None:
        """Hand dice ``d`` to the core (rolled from now on) and remember them for a pickle's
        replay; loaded dice stay this state's, so a test can push faces later."""
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
    # Reads and writes of the rules tests and the observation: the core answers (§5.4
    # approaches, aom315 arcs, §1.18 holds, §5.30 who is still in), no Python copy of them.
    def _cs(self) -> Any:
        """The core's board as last read (read again after a write went back)."""
        b = self._board()
        if b.cs is None:
            b.cs = self._core.state
        return b.cs

    def others(self, i: int) -> list[int]:
        """The fighters other than ``i`` still in the fight (§5.30)."""
        return list(self._cs().others(i))

    def hold_on(self, i: int) -> Hold | None:
        """The hold someone has on fighter ``i`` (the first one), if any (§1.18)."""
        return next((h for h in self._board().holds if h.held == i), None)

    def hold_by(self, i: int) -> Hold | None:
        """The hold fighter ``i`` has on someone, if any (§1.18)."""
        return next((h for h in self._board().holds if h.holder == i), None)

    def attack_direction(self, a: int, t: int) -> int:
        """The absolute direction from which ``a`` acts on ``t`` (§5.4 PROPOSED in one hex)."""
        return self._cs().attack_direction(a, t)

    def arc(self, a: int, t: int, facing: int | None = None) -> int:
        """The relative direction (0 front .. 3 rear) of ``a`` as ``t`` sees him (aom315)."""
        cs = self._cs()
        return cs.arc(a, t) if facing is None else cs.arc(a, t, facing)

    def on_board(self, h: hx.Hex) -> bool:
        return hx.in_arena(h, self.game.radius)

    def place(self, i: int, new: hx.Hex) -> None:
        """Move fighter ``i`` to ``new`` (a test's set-up), recording the approach for the
        fighters in that hex (§5.4), on the core's board."""
        self._write(lambda cs: cs.place(i, tuple(new)))

    def set_facing(self, i: int, facing: int) -> None:
        """Turn fighter ``i``; those sharing his hex now count as in front (§5.4 reset)."""
        self._write(lambda cs: cs.set_facing(i, facing))

    def _write(self, change: Any) -> None:
        """``change`` the core's board itself (its own §5.4 rules), then read it again."""
        cs = self._core.state
        change(cs)
        self._send(cs)
        self._snap = None

    def _send(self, cs: Any) -> None:
        """Board ``cs`` becomes the fight's (checked id by id by the core)."""
        self._recipe = None  # a written board is no longer replayable
        _core.fight_set_board(self._core, cs)


_new = object.__new__
_tuple_new = tuple.__new__


def _unchained(ops: tuple[Any, ...]) -> tuple[tuple[Any, ...], ...]:
    """The ops chain (newest first, as (op, earlier)) as a tuple, oldest first."""
    out = []
    while ops:
        op, ops = ops
        out.append(op)
    return tuple(reversed(out))


def _dice_error(loaded: LoadedDice | None, e: BaseException) -> None:
    """The core's "LoadedDice ran out" as the Python dice raise it (see _dice_errors);
    any other error: nothing (the caller re-raises it)."""
    _dice_errors(loaded).__exit__(type(e), e, None)


def _replay(recipe: tuple[Any, ...], ops: tuple[tuple[Any, ...], ...]) -> NativeState:
    """A pickled NativeState (``__reduce__``): its recipe, then its ops again."""
    game, dice, scenario = recipe
    s = NativeState.new(game, dice.clone(), scenario)
    for op in ops:
        if op[0] == "apply":
            s.apply(op[1])
        elif op[0] == "dice":
            s.dice = op[1].clone()
        elif op[0] == "events":
            s.events = op[1]
        elif op[0] == "check_over":
            s.check_over()
        else:
            s.knock_out(op[1], op[2])
    return s


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


def window_of(t: Any, w: Any) -> Window:
    """The ``model.Window`` of the core's window ``w``."""
    m, locs = list(t.maneuvers), _names(t)[0]
    restrict = (_LIMBS[w.restrict_limb] if w.restrict_limb >= 0
                else locs[w.restrict_location] if w.restrict_location >= 0 else None)
    return Window(
        _WINDOW_KINDS[w.kind.value], w.fighter,
        frozenset(x for k, x in enumerate(_TRIGGERS) if w.triggers >> k & 1),
        None if w.attacker < 0 else w.attacker, None if w.attack < 0 else m[w.attack],
        None if w.after < 0 else m[w.after], w.no_defence, restrict,
        tuple(m[k] for k in w.reactions_only) if w.has_reactions_only else None,
        (w.follow_direction, w.follow_hexes) if w.has_follow else None,
        None if w.own_hand < 0 else w.own_hand,
        None if w.locked_fighter < 0 else w.locked_fighter,
        None if w.phasing < 0 else w.phasing)

"""Build a fight from a description (issue: scenarios), for tests and designers.

A scenario is a dict (or TOML table) such as::

    {"turn": 1,
     "fighters": [{"pos": [0, 0], "facing": 0, "ap": 6, "initiative": 5},
                  {"pos": [1, 0], "facing": 3, "ap": 5, "prone": false,
                   "wounds": [["Chest", "Light"]]}],
     "holds": [{"holder": 0, "held": 1, "kind": "arm", "location": "R Arm"}],
     "dropped": [{"pos": [1, 0], "weapon": "sword"}],
     "phase": 0}

A fighter's weapons (§2.1): ``"hands": ["sword", "shield"]`` (right, left; null for an
empty hand, a two-handed weapon in both), ``"sheathed": ["dagger"]`` and ``"stuck":
[["spear", "Chest"]]`` (impaling weapons stuck in him, §1.15).

``phase`` names the fighter whose phase it is (that fighter is asked for an action);
without it the turn's phase choice comes next. Fighters not mentioned keep the defaults.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import hexgrid as hx
from .input_models import check_scenario
from .model import FighterState, Hold
from .ruleset import RulesError
from .tables import h2
from .to_core import AT_STEPS

if TYPE_CHECKING:
    from .dice import Dice

FIGHTER_FIELDS = {"pos", "facing", "ap", "initiative", "prone", "wounds", "mounted", "height",
                  "phased", "status", "hands", "sheathed", "stuck"}
TOP_FIELDS = {"turn", "fighters", "holds", "phase", "approach", "dropped"}


#: the core's frame types (bind_fight.cpp frame_from): a turn's, a fighter's phase
TURN_FRAME, PHASE_FRAME = 0, 1


def _err(field: str, value: Any, allowed: str) -> RulesError:
    return RulesError(f"scenario: field '{field}': value {value!r}: {allowed}")


class ScenarioBoard:
    """A scenario's board on plain records (``model.FighterState``, ``Hold``), with the names
    ``native.core_state`` reads, and the turn's frames as the core takes them over
    (``_core.Fight.from_state``). Fresh, it is a fight's start (turn 0, no frame: the
    vector env's prototype, ``duel_core.unstarted_fight``)."""

    __slots__ = ("game", "t", "fighters", "holds", "dropped", "approach", "turn", "order",
                 "frames")

    def __init__(self, game: Any, starts: Sequence[tuple[hx.Hex, int]]) -> None:
        self.game, self.t = game, game.tables
        self.fighters = [FighterState(i, p, pos, facing) for i, (p, (pos, facing))
                         in enumerate(zip(game.profiles, starts, strict=True))]
        self.holds: list[Hold] = []
        #: weapons lying on the board: (hex, weapon id), first dropped first (aom314a)
        self.dropped: tuple[tuple[hx.Hex, str], ...] = ()
        self.approach: dict[tuple[int, int], int] = {}
        self.turn = 0
        self.order: tuple[int, ...] = ()
        #: the frames under way, each as ints (bind_fight.cpp ``frame_from``'s form)
        self.frames: list[list[int]] = []

    def on_board(self, h: hx.Hex) -> bool:
        return hx.in_arena(h, self.game.radius)


def scenario_board(game: Any, sc: Mapping[str, Any], dice: Dice) -> ScenarioBoard:
    """The board of scenario ``sc`` in ``game``: the fighters start where
    ``game.start_positions`` puts them (a scene's distance range rolls ``dice``, which the
    core then takes where this left them), then the scenario's fields are set (see the
    module docstring); a bad field raises one ``RulesError`` naming it, its value and what
    is allowed."""
    b = ScenarioBoard(game, game.start_positions(dice))
    _apply(b, sc)
    return b


def _apply(s: ScenarioBoard, sc: Mapping[str, Any]) -> None:
    """Scenario ``sc``'s fields onto board ``s``: its structure checked first
    (``input_models.ScenarioDesc``), then field by field against the game."""
    check_scenario(sc)
    s.turn = int(sc.get("turn", 1))
    fighters = sc.get("fighters", [])
    n = len(s.fighters)
    if len(fighters) > n:
        raise _err("fighters", len(fighters), f"at most {n} fighters in this game")
    for field, entries, keys in (("holds", sc.get("holds", []), ("holder", "held")),
                                 ("approach", sc.get("approach", []), ("from", "to"))):
        for j, entry in enumerate(entries):
            for key in keys:
                if entry[key] >= n:
                    raise _err(f"{field}[{j}].{key}", entry[key], f"allowed 0..{n - 1} "
                               f"(the fighters of this game)")
    for i, fd in enumerate(fighters):
        for k, v in fd.items():
            _set_field(s, s.fighters[i], f"fighters[{i}].{k}", k, v)
    # same-hex approach directions: default to "in front" of each other
    for f in s.fighters:
        for g in s.fighters:
            if f.idx != g.idx and f.pos == g.pos:
                s.approach[(f.idx, g.idx)] = g.facing
    for a in sc.get("approach", []):
        s.approach[(int(a["from"]), int(a["to"]))] = int(a["direction"])
    _add_holds(s, sc.get("holds", []))
    _add_dropped(s, sc.get("dropped", []))
    _start_frames(s, sc)


def _set_field(s: ScenarioBoard, f: Any, name: str, k: str, v: Any) -> None:
    """One field ``k`` of a fighter's description (``name`` says where, for errors)."""
    t = s.t
    if k not in FIGHTER_FIELDS:
        raise _err(name, k, f"unknown field; allowed: {sorted(FIGHTER_FIELDS)}")
    if k == "pos":
        h = (int(v[0]), int(v[1]))
        if not s.on_board(h):
            raise _err(name, v, f"outside the arena of radius {s.game.radius}")
        f.pos = h
    elif k == "facing":
        if v not in range(6):
            raise _err(name, v, "allowed 0..5 (0 = E, counter-clockwise)")
        f.facing = int(v)
    elif k == "ap":
        if not 0 <= int(v) <= 100:
            raise _err(name, v, "allowed 0..100")
        f.ap = int(v)
    elif k == "initiative":
        f.init = int(round(float(v) * 2))
    elif k in ("prone", "mounted", "phased"):
        setattr(f, k, bool(v))
    elif k == "height":
        f.height = int(v)
    elif k == "status":
        if v not in ("", "staggered", "stunned"):
            raise _err(name, v, "allowed '', 'staggered', 'stunned'")
        f.status = v
        pain = t.data.pain  # §1.12: the penalty for the rest of the turn
        f.pen = {"": 0, "staggered": h2(pain.stagger_penalty), "stunned": h2(pain.stun_penalty)}[v]
    elif k == "wounds":
        _set_wounds(s, f, name, v)
    else:
        _set_weapons(s, f, name, k, v)


def _weapon(s: ScenarioBoard, name: str, wid: Any) -> str:
    if wid not in s.t.weapons:
        raise _err(name, wid, f"unknown weapon; allowed: {list(s.t.weapons)}")
    return str(wid)


def _set_weapons(s: ScenarioBoard, f: Any, name: str, k: str, v: Any) -> None:
    """``hands`` (right, left), ``sheathed`` or ``stuck`` ((weapon, location) pairs)."""
    if k == "hands":
        if len(v) != 2:
            raise _err(name, v, "two entries: [right, left] (null for an empty hand)")
        hands = tuple(None if w is None else _weapon(s, f"{name}[{j}]", w) for j, w in enumerate(v))
        two = [w for w in hands if w is not None and s.t.weapons[w].hands == 2]
        if two and hands[0] != hands[1]:
            raise _err(name, v, f"the two-handed {two[0]} fills both hands: [{two[0]!r}, {two[0]!r}]")
        f.hands = hands
    elif k == "sheathed":
        f.sheathed = tuple(_weapon(s, f"{name}[{j}]", w) for j, w in enumerate(v))
    else:
        stuck = []
        impaling = [w for w, wd in s.t.weapons.items()
                    if any(m.damage_type == "Impaling" for m in wd.modes)]
        for j, pair in enumerate(v):
            wid, loc = pair
            if loc not in s.t.locations:
                raise _err(f"{name}[{j}]", loc, f"unknown location; allowed: {list(s.t.locations)}")
            if _weapon(s, f"{name}[{j}]", wid) not in impaling:
                raise _err(f"{name}[{j}]", wid, f"only an impaling weapon sticks in a wound "
                           f"(§1.15); allowed: {impaling}")
            stuck.append((wid, loc))
        f.stuck = tuple(stuck)


def _add_dropped(s: ScenarioBoard, dropped: Any) -> None:
    """Weapons lying on the board (aom314a)."""
    out = []
    for j, d in enumerate(dropped):
        h = (int(d["pos"][0]), int(d["pos"][1]))
        if not s.on_board(h):
            raise _err(f"dropped[{j}].pos", d["pos"], f"outside the arena of radius {s.game.radius}")
        out.append((h, _weapon(s, f"dropped[{j}].weapon", d.get("weapon"))))
    s.dropped = tuple(out)


def _set_wounds(s: ScenarioBoard, f: Any, name: str, v: Any) -> None:
    t = s.t
    ws = []
    for j, (loc, level) in enumerate(v):
        if loc not in t.locations:
            raise _err(f"{name}[{j}]", loc, f"unknown location; allowed: {list(t.locations)}")
        if level not in t.wound_levels[1:-1]:
            raise _err(f"{name}[{j}]", level, f"allowed: {list(t.wound_levels[1:-1])}")
        ws.append((loc, t.wound_levels.index(level)))
    f.wounds = tuple(ws)
    f.worst = max((lv for _, lv in ws), default=0)


def _add_holds(s: ScenarioBoard, holds: Any) -> None:
    t = s.t
    for j, hd in enumerate(holds):
        kind = hd.get("kind")
        if kind not in t.hold_kinds:
            raise _err(f"holds[{j}].kind", kind, f"allowed: {list(t.hold_kinds)}")
        holder, held = int(hd["holder"]), int(hd["held"])
        loc = hd.get("location")
        if loc is not None and loc not in t.locations:
            raise _err(f"holds[{j}].location", loc, f"unknown location; allowed: "
                       f"{list(t.locations)}")
        if s.fighters[holder].pos != s.fighters[held].pos:
            raise _err(f"holds[{j}]", hd, "holder and held must share a hex (§1.18)")
        s.holds.append(Hold(holder, held, kind, hd.get("location"), int(hd.get("turn", s.turn))))


def _start_frames(s: ScenarioBoard, sc: Mapping[str, Any]) -> None:
    """The turn is under way (initiative order from the fighters' initiative); with
    ``phase``, that fighter's phase is open for an action."""
    s.order = tuple(sorted(range(len(s.fighters)), key=lambda i: (-s.fighters[i].init, i)))
    # a turn at its phase step, nobody asked yet: [type, at, asked, candidate]
    s.frames = [[TURN_FRAME, AT_STEPS.index("phase"), 0, -1]]
    if "phase" in sc:
        p = int(sc["phase"])
        if p not in range(len(s.fighters)):
            raise _err("phase", p, f"allowed 0..{len(s.fighters) - 1}")
        s.frames.append([PHASE_FRAME, p, AT_STEPS.index("act")])  # [type, fighter, at]

"""``hexdojo sweep KEY=a..b[:step]``: every agent's score (per side) against one number.

Why a sweep rather than a compare per value: a designer asks "how does the balance move
as I turn this knob", not "is 3 different from 2". Every value plays the same round robin
on the same dice seeds (common random numbers), so the curve's steps are paired: fight
*k* of a pairing meets the same dice at every value, and most of the luck cancels out of
the change from the first value. The knob is a rules key (``attack.rear_bonus``, a
maneuver's or weapon's number such as ``maneuvers."Martial Strike".damage``) or a field of
a fighter's sheet (``boris.skills.Martial Arts``: every fighter of that preset in the
pairing). Each value's score carries its 95 % interval over seeds (clustered by seed), and
each change from the first value its paired interval, Holm-corrected.
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from hexdojo.envs.rules import Game, RulesError
from hexdojo.envs.rules.fighter import FIGHTERS_DIR, preset_names
from hexdojo.envs.rules.ruleset import read_toml

from ..base import Agent
from .common import SCENE, RuleSet, _inline, game_for, side_names
from .paired import Key, SeedTable, flag, quantity
from .runner import Fight, Plan, Unit, run_units
from .stats import mean_ci, planned_units, resolvable

MAX_VALUES = 101


@dataclass(frozen=True)
class SweepKey:
    """What is swept: a rules key (``path`` = the dotted key as typed) or a fighter field
    (``fighter`` = the preset, ``path`` = the keys inside its sheet), over ``values``."""

    text: str
    kind: str  # "rules" or "fighter"
    path: tuple[str, ...]
    values: tuple[float, ...]
    fighter: str = ""

    @property
    def name(self) -> str:
        return self.text.partition("=")[0].strip()


def _number(text: str, what: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise ValueError(f"sweep: value {what!r}: {text!r} is not a number") from None
    return int(v) if v == int(v) and "." not in text else v


def parse_values(text: str) -> tuple[float, ...]:
    """``a..b`` (step 1), ``a..b:step`` or ``v1,v2,...``; whole numbers stay integers."""
    t = text.strip()
    if ".." not in t:
        vals = [_number(x.strip(), t) for x in t.split(",") if x.strip()]
    else:
        lo_t, _, rest = t.partition("..")
        hi_t, _, step_t = rest.partition(":")
        lo, hi = _number(lo_t, t), _number(hi_t, t)
        step = _number(step_t, t) if step_t else 1
        if step <= 0 or hi < lo:
            raise ValueError(f"sweep: value {t!r}: allowed a..b[:step] with a <= b, step > 0")
        k = int(math.floor((hi - lo) / step + 1e-9)) + 1
        vals = [lo + s * step for s in range(k)]
        if all(isinstance(x, int) for x in (lo, hi, step)):
            vals = [int(v) for v in vals]
        else:
            vals = [round(v, 10) for v in vals]
    if not 2 <= len(vals) <= MAX_VALUES:
        raise ValueError(f"sweep: value {t!r}: allowed 2..{MAX_VALUES} values")
    return tuple(vals)


def _split_path(text: str) -> tuple[str, ...]:
    """``skills.Martial Arts`` or ``skills."Martial Arts"`` as keys (a bare key may hold
    spaces: a fighter's skill names do)."""
    out, cur, quoted = [], "", False
    for ch in text:
        if ch == '"':
            quoted = not quoted
        elif ch == "." and not quoted:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    if not all(out):
        raise ValueError(f"sweep: key {text!r}: an empty part")
    return tuple(out)


def parse_sweep(text: str) -> SweepKey:
    """``KEY=a..b[:step]``: a fighter field when KEY starts with a fighter preset's name
    (``boris.skills.Martial Arts``), else a rules key."""
    key, eq, rng = text.rpartition("=")
    if not eq or not key.strip():
        raise ValueError(f"sweep: value {text!r}: expected KEY=a..b[:step], e.g. "
                         "attack.rear_bonus=0..4 or boris.skills.Martial Arts=0..3")
    values = parse_values(rng)
    head, _, rest = key.strip().partition(".")
    if head.lower() in preset_names() and rest:
        return SweepKey(text, "fighter", _split_path(rest), values, head.lower())
    return SweepKey(text, "rules", (key.strip(),), values)


def _toml_value(v: float) -> str:
    return str(v) if isinstance(v, int) else repr(float(v))


def _overlay(into: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    for k, v in extra.items():
        if isinstance(v, dict) and isinstance(into.get(k), dict):
            _overlay(into[k], v)
        else:
            into[k] = v
    return into


def rules_at(base: RuleSet, key: SweepKey, value: float) -> Any:
    """The rules spec with the swept key at ``value`` over the base rule set."""
    if key.kind != "rules":
        return base.spec
    spec = {} if base.spec is None else (
        read_toml(base.spec) if isinstance(base.spec, str) else copy.deepcopy(base.spec))
    return _overlay(spec, _inline(f"{key.path[0]}={_toml_value(value)}"))


def sheet_at(key: SweepKey, value: float) -> dict[str, Any]:
    """The fighter's sheet (its preset TOML) with the swept field at ``value``."""
    sheet = read_toml(FIGHTERS_DIR / f"{key.fighter}.toml")
    node = sheet
    for part in key.path[:-1]:
        if not isinstance(node.get(part), dict):
            raise RulesError(f"sweep: key {key.name!r}: {key.fighter}'s sheet has no section "
                             f"{part!r}")
        node = node[part]
    node[key.path[-1]] = value
    return sheet


@dataclass
class SweepPlan(Plan):
    """A plan whose fighter pairing ``fp`` is the sweep's value ``fp`` for a fighter field:
    every fighter of that preset gets the swept sheet."""

    key: SweepKey | None = None

    def game(self, rules: int, fp: int) -> Game:
        if self.key is None or self.key.kind != "fighter":
            return super().game(rules, fp)
        if (rules, fp) not in self._games:
            sheet = sheet_at(self.key, self.key.values[fp])
            pair = [sheet if f.lower() == self.key.fighter else f for f in self.fighters[fp]]
            self._games[(rules, fp)] = Game.create(pair, rules=self.rules[rules],
                                                   radius=self.radius, turn_limit=self.turn_limit)
        return self._games[(rules, fp)]


@dataclass(frozen=True)
class SweepConfig:
    key: SweepKey
    agents: tuple[str, ...]
    rules: RuleSet
    fighters: tuple[str, str] = ("chu", "chu")
    seed: int = 0
    n: int | None = None
    precision: float = 0.05
    radius: int = 4
    turn_limit: int | None = None
    workers: int = 1
    correction: str = "holm"

    def per_side(self) -> int:
        """Fights per seed behind one agent's score on one side at one value."""
        return len(self.agents) - 1

    def seeds(self) -> int:
        return self.n if self.n is not None else planned_units(self.precision, self.per_side())


def check_sweep(cfg: SweepConfig) -> None:
    """Every value makes a game (a bad key, value or fighter: one line, before any fight)."""
    if cfg.key.kind == "fighter":
        if cfg.fighters[0].startswith(SCENE):
            raise ValueError(f"sweep: key {cfg.key.name!r}: a fighter field needs --fighters "
                             "(a scene's fighters are set in its file)")
        if cfg.key.fighter not in (f.lower() for f in cfg.fighters):
            raise ValueError(f"sweep: key {cfg.key.name!r}: {cfg.key.fighter} is not in the "
                             f"pairing {','.join(cfg.fighters)}")
    plan = make_plan(cfg, [])
    for v in range(len(cfg.key.values)):
        r, fp = _where(cfg, v)
        plan.game(r, fp)


def _where(cfg: SweepConfig, v: int) -> tuple[int, int]:
    """(rules index, fighter pairing index) of value ``v`` in the plan."""
    return (v, 0) if cfg.key.kind == "rules" else (0, v)


def make_plan(cfg: SweepConfig, agents: list[Agent]) -> SweepPlan:
    vals = cfg.key.values
    if cfg.key.kind == "rules":
        return SweepPlan(agents, [rules_at(cfg.rules, cfg.key, v) for v in vals],
                         [cfg.fighters], cfg.radius, cfg.turn_limit, key=cfg.key)
    return SweepPlan(agents, [cfg.rules.spec], [cfg.fighters] * len(vals), cfg.radius,
                     cfg.turn_limit, key=cfg.key)


def units(cfg: SweepConfig, values: Iterable[int] | None = None) -> list[Unit]:
    k, n = len(cfg.agents), cfg.seeds()
    idx = range(len(cfg.key.values)) if values is None else values
    return [Unit(v, *_where(cfg, v), i, j, (), (), cfg.seed, cfg.seed + n)
            for v in idx for i in range(k) for j in range(k) if i != j]


def score_keys(names: list[str]) -> Callable[[Fight], Iterable[tuple[Key, float]]]:
    def fn(f: Fight) -> Iterable[tuple[Key, float]]:
        v, _, i, j, _ = f.key
        for s, a in ((0, i), (1, j)):
            yield (v, names[a], "AB"[s]), f.score(s)
            yield (v, names[a], "both"), f.score(s)
    return fn


def analyse(cfg: SweepConfig, names: list[str], fights: list[Fight]
            ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each value's score per agent and side (95 % over seeds), and each change from the
    first value (paired by seed, Holm-corrected)."""
    tab = SeedTable().fill(fights, score_keys(names))
    seeds = list(range(cfg.seed, cfg.seed + cfg.seeds()))
    sides = side_names(cfg.fighters)
    points, changes = [], []
    for v, value in enumerate(cfg.key.values):
        for nm in names:
            for side in ("A", "B", "both"):
                est, lo, hi = mean_ci(tab.means((v, nm, side), seeds))
                who = {"agent": nm, "side": side, "fighter": sides[side == "B"]
                       if side != "both" else "pooled over both sides"}
                points.append({"value": value, **who, "estimate": est, "low": max(0.0, lo),
                               "high": min(1.0, hi),  # a score: the t interval within [0, 1]
                               "n_fights": tab.fights((v, nm, side))})
                if v:
                    changes.append(quantity(tab, (0, nm, side), (v, nm, side), seeds, True,
                                            family="change", value=value, **who))
    flag(changes, cfg.correction)
    return points, changes


def run_sweep(cfg: SweepConfig, agents: list[Agent], progress: bool = True,
              say: Callable[[str], None] | None = None) -> tuple[dict[str, Any], list[Fight]]:
    """Play every value's round robin on the same seeds; returns (results, fights)."""
    names = [a.name for a in agents]
    t0 = time.perf_counter()
    fights, played = run_units(make_plan(cfg, agents), units(cfg), cfg.workers, progress, say)
    points, changes = analyse(cfg, names, fights)
    n = cfg.seeds()
    conf = {k: v for k, v in asdict(cfg).items() if k not in ("rules", "key")}
    conf.update(agents=names, seeds_per_pairing=n, key=cfg.key.name, kind=cfg.key.kind,
                values=list(cfg.key.values), sides=list(side_names(cfg.fighters)),
                rules={"label": cfg.rules.label, "id": cfg.rules.id})
    res = {"command": "sweep", "config": conf, "fights": len(fights),
           "elapsed_s": round(time.perf_counter() - t0, 2), "play_s": round(played, 2),
           "resolvable_points": round(100 * resolvable(n, cfg.per_side()), 2),
           "points": points, "changes": changes,
           "statistics": "score per value: mean of per-seed scores with its 95% t interval "
                         "(clustered by seed); change from the first value: paired t interval "
                         f"over seeds (common random numbers), {cfg.correction} correction"}
    return res, fights


def game_at(cfg: SweepConfig, v: int) -> Game:
    """The game at value index ``v`` (for the report's example fights)."""
    if cfg.key.kind == "rules":
        return game_for(cfg.fighters, rules_at(cfg.rules, cfg.key, cfg.key.values[v]),
                        cfg.radius, cfg.turn_limit)
    return make_plan(cfg, []).game(0, v)

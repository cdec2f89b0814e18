"""``hexdojo balance``: the solver of ``balance.py`` on real fights.

The target is one agent's score against another (both sides averaged, or on one side), or,
with one agent on both sides, side A's score (e.g. "Chu vs Boris at 50 % for greedy on both
sides"). Each evaluation plays the target's pairings at the asked values on the same seeds
(the sweep's plan: a rules key, a maneuver's or weapon's number, a fighter-sheet field).
"""

from __future__ import annotations

import dataclasses
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..base import Agent
from .balance import solve
from .common import RuleSet, game_for, side_names
from .runner import Fight, Unit, run_units
from .sweep import SweepConfig, SweepKey, make_plan, rules_at, sheet_at


@dataclass(frozen=True)
class BalanceConfig:
    key: SweepKey  # its values give the bracket [min, max]
    agents: tuple[str, str]  # the target agent, its opponent (the same name: a mirror)
    side: str = "both"  # the target's side: both (averaged), A or B
    goal: float = 0.5
    rules: RuleSet | None = None
    fighters: tuple[str, str] = ("chu", "chu")
    seed: int = 0
    n: int = 200
    steps: int = 4
    radius: int = 4
    turn_limit: int | None = None
    workers: int = 1

    @property
    def mirror(self) -> bool:
        return self.agents[0] == self.agents[1]

    @property
    def integer(self) -> bool:
        return all(isinstance(v, int) for v in self.key.values)

    def pairings(self) -> list[tuple[int, int]]:
        """The ordered pairings the target needs (agent 0 on side A: (0, 1))."""
        if self.mirror or self.side == "A":
            return [(0, 1)]
        return [(1, 0)] if self.side == "B" else [(0, 1), (1, 0)]

    def target(self) -> str:
        names = side_names(self.fighters)
        if self.mirror:
            return f"side A ({names[0]}) against side B ({names[1]}), {self.agents[0]} on both sides"
        where = "" if self.side == "both" else f" as side {self.side} ({names[self.side == 'B']})"
        return f"{self.agents[0]} against {self.agents[1]}{where}"


def _sweep_cfg(cfg: BalanceConfig, values: Sequence[float]) -> SweepConfig:
    vals = tuple(int(v) if cfg.integer else float(v) for v in values)
    key = dataclasses.replace(cfg.key, values=vals)
    return SweepConfig(key, cfg.agents, cfg.rules, cfg.fighters, cfg.seed, cfg.n, 0.05,
                       cfg.radius, cfg.turn_limit, cfg.workers)


def responses(cfg: BalanceConfig, fights: Sequence[Fight], values: Sequence[float]
              ) -> dict[float, np.ndarray]:
    """Per value, the target's per-seed score (agent 0's side of each of its fights)."""
    tot: dict[tuple[int, int], float] = defaultdict(float)
    cnt: dict[tuple[int, int], int] = defaultdict(int)
    for f in fights:
        v, _, i, _, seed = f.key
        s = 0 if i == 0 else 1
        tot[(v, seed)] += f.score(s)
        cnt[(v, seed)] += 1
    seeds = range(cfg.seed, cfg.seed + cfg.n)
    return {float(x): np.array([tot[(v, s)] / cnt[(v, s)] for s in seeds])
            for v, x in enumerate(values)}


def evaluator(cfg: BalanceConfig, agents: list[Agent], progress: bool,
              say: Callable[[str], None] | None, log: dict[str, Any]
              ) -> Callable[[Sequence[float]], dict[float, np.ndarray]]:
    """``evaluate(values)``: play the target's pairings at ``values`` on the same seeds."""
    def evaluate(values: Sequence[float]) -> dict[float, np.ndarray]:
        scfg = _sweep_cfg(cfg, values)
        units = [Unit(v, *((v, 0) if cfg.key.kind == "rules" else (0, v)), i, j, (), (),
                      cfg.seed, cfg.seed + cfg.n)
                 for v in range(len(values)) for i, j in cfg.pairings()]
        fights, played = run_units(make_plan(scfg, agents), units, cfg.workers, progress, say)
        log["fights"] += len(fights)
        log["play_s"] += played
        log["evaluations"].append([float(x) for x in values])
        if say:
            say(f"balance: evaluated {', '.join(f'{x:g}' for x in values)} "
                f"({log['fights']:,} fights so far)")
        return responses(cfg, fights, values)
    return evaluate


def check_balance(cfg: BalanceConfig) -> None:
    """The bracket's ends make games (a bad key or value: one line before any fight)."""
    for v in (cfg.key.values[0], cfg.key.values[-1]):
        if cfg.key.kind == "rules":
            game_for(cfg.fighters, rules_at(cfg.rules, cfg.key, v), cfg.radius, cfg.turn_limit)
        else:
            sheet_at(cfg.key, v)
            make_plan(_sweep_cfg(cfg, [v]), []).game(0, 0)
    if not 0 < cfg.goal < 1:
        raise ValueError(f"goal: value {100 * cfg.goal:g}: allowed 0 < goal < 100 (%)")


def run_balance(cfg: BalanceConfig, agents: list[Agent], progress: bool = True,
                say: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Solve for the goal on fights; the results (config, solution, every point)."""
    log: dict[str, Any] = {"fights": 0, "play_s": 0.0, "evaluations": []}
    t0 = time.perf_counter()
    lo, hi = min(cfg.key.values), max(cfg.key.values)
    sol = solve(evaluator(cfg, agents, progress, say, log), lo, hi, cfg.goal, cfg.integer,
                cfg.steps, cfg.seed)
    conf = {k: v for k, v in dataclasses.asdict(cfg).items() if k not in ("rules", "key")}
    conf.update(key=cfg.key.name, kind=cfg.key.kind, bracket=[lo, hi], integer=cfg.integer,
                target=cfg.target(), sides=list(side_names(cfg.fighters)),
                rules={"label": cfg.rules.label, "id": cfg.rules.id} if cfg.rules else None)
    return {"command": "balance", "config": conf, "solution": sol, "fights": log["fights"],
            "evaluations": log["evaluations"], "play_s": round(log["play_s"], 2),
            "elapsed_s": round(time.perf_counter() - t0, 2),
            "statistics": "the target per seed at each value, the same seeds at every value; "
                          "crossings of the goal on the estimates; non-monotone when it crosses "
                          "more than once or rises and falls significantly (paired t intervals "
                          "between neighbouring values); the solution: a linear fit over the "
                          "values nearest the crossing, 95% bootstrap over seeds"}

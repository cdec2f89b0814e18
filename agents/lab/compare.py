"""``hexdojo compare``: the same agents and fights under two rule sets, paired by seed.

Every ordered agent pairing plays the same seeds under rule set A and rule set B (common
random numbers), so a shift is measured on *pairs* of fights that share their dice. Per
fighter pairing, per agent (pooled, and on each side) and per ordered pairing the report
gives the score under A and B and the paired difference B - A with its 95 % interval;
the game's shape (fight length, draw rate, side A's score, maneuver use per fight, chains
per fight) is a second family. Significance is Holm-corrected within each family, and a
proportion is never flagged where n·p·(1-p) < 9. Identical rule sets play identical fights,
so every difference is exactly 0: the null comparison comes out "no significant shift".
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from ..base import Agent
from .common import RuleSet, pairing_label
from .paired import Key, SeedTable, flag, quantity
from .runner import Fight, Plan, Unit, run_units
from .stats import planned_units, resolvable

TOP_CHAINS = 6


@dataclass(frozen=True)
class CompareConfig:
    agents: tuple[str, ...]
    rules_a: RuleSet
    rules_b: RuleSet
    fighters: tuple[tuple[str, str], ...] = (("chu", "chu"),)
    seed: int = 0
    n: int | None = None  # seeds per ordered pairing (None: from precision)
    precision: float = 0.03
    radius: int = 4
    turn_limit: int | None = None
    workers: int = 1
    correction: str = "holm"

    def seeds(self) -> int:
        """Seeds per ordered pairing: -n, or planned for ``precision`` on the widest agent
        score reported: one side's (half the fights of the pooled score)."""
        return self.n if self.n is not None else planned_units(self.precision, self.per_side())

    def per_side(self) -> int:
        """Fights per seed behind one agent's score on one side: one per opponent."""
        return len(self.agents) - 1


def units(cfg: CompareConfig) -> list[Unit]:
    k, n = len(cfg.agents), cfg.seeds()
    return [Unit(c, r, fp, i, j, (), (), cfg.seed, cfg.seed + n)
            for r, c in enumerate("AB") for fp in range(len(cfg.fighters))
            for i in range(k) for j in range(k) if i != j]


def _score_keys(names: list[str]) -> Callable[[Fight], Iterable[tuple[Key, float]]]:
    def fn(f: Fight) -> Iterable[tuple[Key, float]]:
        c, fp, i, j, _ = f.key
        for s, a in ((0, i), (1, j)):
            yield (c, fp, "agent", names[a], "both"), f.score(s)
            yield (c, fp, "agent", names[a], "AB"[s]), f.score(s)
        yield (c, fp, "pair", f"{names[i]} (A) vs {names[j]} (B)", ""), f.score(0)
        yield (c, fp, "shape", "fight length (turns)", ""), float(f.turns)
        yield (c, fp, "shape", "draw rate", ""), float(f.winner is None)
        yield (c, fp, "shape", "side A score", ""), f.score(0)
        uses = f.sides[0].uses + f.sides[1].uses
        for m, v in uses.items():
            yield (c, fp, "use", m, ""), float(v)
        for ch, _ in f.sides[0].chains + f.sides[1].chains:
            yield (c, fp, "chain", ch, ""), 1.0
        yield (c, fp, "fights", "", ""), 1.0
    return fn


def _per_fight(tab: SeedTable, key: Key, fights_key: Key) -> None:
    """Turn per-seed sums of a count into per-fight rates (absent seeds count 0)."""
    for seed, n in tab.sum[fights_key].items():
        tab.sum[key][seed] += 0.0
        tab.cnt[key][seed] = int(n)


def analyse(cfg: CompareConfig, names: list[str], fights: list[Fight]) -> list[dict[str, Any]]:
    """Every compared quantity (B - A), flagged after the correction."""
    tab = SeedTable().fill(fights, _score_keys(names))
    seeds = list(range(cfg.seed, cfg.seed + cfg.seeds()))
    qs: list[dict[str, Any]] = []
    for fp, pairing in enumerate(cfg.fighters):
        lab = pairing_label(pairing)
        keys = sorted({k[1:] for k in tab.sum if k[0] == "A" and k[1] == fp}
                      | {k[1:] for k in tab.sum if k[0] == "B" and k[1] == fp})
        chains = _top(tab, fp, "chain")
        for k in keys:
            _, what, name, side = k
            if what == "fights" or (what == "chain" and name not in chains):
                continue
            if what in ("use", "chain"):
                for c in "AB":
                    _per_fight(tab, (c, *k), (c, fp, "fights", "", ""))
            fam = "score" if what in ("agent", "pair") else "shape"
            prop = what in ("agent", "pair") or name in ("draw rate", "side A score")
            qs.append(quantity(tab, ("A", *k), ("B", *k), seeds, prop, family=fam,
                               fighters=lab, what=what, name=name, side=side or "both"))
    flag(qs, cfg.correction)
    return qs


def _top(tab: SeedTable, fp: int, what: str) -> set[str]:
    tot: dict[str, float] = {}
    for k in tab.sum:
        if k[1] == fp and k[2] == what:
            tot[k[3]] = max(tot.get(k[3], 0.0), tab.total(k))
    return set(sorted(tot, key=lambda x: (-tot[x], x))[:TOP_CHAINS])


def run_compare(cfg: CompareConfig, agents: list[Agent], progress: bool = True,
                say: Callable[[str], None] | None = None) -> tuple[dict[str, Any], list[Fight]]:
    """Play both rule sets and return (results, fights)."""
    names = [a.name for a in agents]
    plan = Plan(agents, [cfg.rules_a.spec, cfg.rules_b.spec], list(cfg.fighters), cfg.radius,
                cfg.turn_limit)
    t0 = time.perf_counter()
    fights, played = run_units(plan, units(cfg), cfg.workers, progress, say)
    qs = analyse(cfg, names, fights)
    n = cfg.seeds()
    conf = {k: v for k, v in asdict(cfg).items() if k not in ("rules_a", "rules_b")}
    conf.update(agents=names, seeds_per_pairing=n,
                rules_a={"label": cfg.rules_a.label, "id": cfg.rules_a.id},
                rules_b={"label": cfg.rules_b.label, "id": cfg.rules_b.id})
    res = {"command": "compare", "config": conf,
           "change": f"{cfg.rules_a.label} -> {cfg.rules_b.label}",
           "identical_rules": cfg.rules_a.id == cfg.rules_b.id,
           "fights": len(fights), "elapsed_s": round(time.perf_counter() - t0, 2),
           "play_s": round(played, 2),
           "resolvable_points": round(100 * resolvable(n, cfg.per_side()), 2),
           "resolvable_pair_points": round(100 * resolvable(n, 1), 2),
           "quantities": qs,
           "statistics": "paired t interval of per-seed differences (B - A), 95%; "
                         f"{cfg.correction} correction per family (score, shape); proportions "
                         "not flagged where n*p*(1-p) < 9"}
    return res, fights

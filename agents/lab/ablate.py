"""``hexdojo ablate``: what each maneuver is worth to an agent (restricted play).

After Jaffe et al., *Evaluating competitive game balance with restricted play* (AIIDE
2012): the agent plays with one maneuver forbidden against the unrestricted field (every
field agent, its own unrestricted self included, on both sides), on the same seeds as the
unrestricted baseline. The maneuver's value to the agent is the score drop (baseline -
restricted), with a paired 95 % interval over seeds and a Holm-corrected flag. The ban is
enforced by the agent wrapper (the agent is asked again among the other legal choices;
``pass``/``end`` are always there), never by changing the rules, so a maneuver the agent
never wants leaves every fight unchanged and its value is exactly 0.

Verdicts: ``essential`` when the drop is significant and at least ``essential`` points,
``better without`` when banning it helps significantly, ``worth at most X points`` only when
the interval's upper bound X is below the designer's ``negligible`` threshold (default 2
points; a maneuver never wanted is worth exactly 0), and otherwise ``unresolved at this n``
with the number of seeds that would resolve it: an interval that contains 0 but reaches
large values (Move +17.7 [-0.5, +36.0]) says nothing about worthlessness.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Any

from ..base import Agent
from .common import RuleSet, pairing_label, side_names
from .paired import Key, SeedTable, flag, quantity
from .runner import Fight, Plan, Unit, run_units
from .stats import planned_units, resolvable

ESSENTIAL = 0.10
NEGLIGIBLE = 0.02


@dataclass(frozen=True)
class AblateConfig:
    agents: tuple[str, ...]  # the agents whose maneuvers are banned (indices 0..)
    field: tuple[str, ...]  # the unrestricted opponents
    maneuvers: tuple[str, ...]
    rules: RuleSet
    fighters: tuple[tuple[str, str], ...] = (("chu", "chu"),)
    seed: int = 0
    n: int | None = None
    precision: float = 0.05
    radius: int = 4
    turn_limit: int | None = None
    workers: int = 1
    correction: str = "holm"
    essential: float = ESSENTIAL
    negligible: float = NEGLIGIBLE

    def seeds(self) -> int:
        """Seeds per ordered pairing: -n, or planned so that the widest value reported (one
        side's: half the fights of the pooled value) meets ``precision``."""
        return self.n if self.n is not None else planned_units(self.precision, self.per_side())

    def per_side(self) -> int:
        """Fights per seed behind one side's value: one against each field agent."""
        return len(self.field)


def units(cfg: AblateConfig, index: dict[str, int]) -> list[Unit]:
    """Baseline and one condition per maneuver, for each ablated agent and opponent."""
    n = cfg.seeds()
    out = []
    for x in cfg.agents:
        xi = index[x]
        for m in ("", *cfg.maneuvers):
            ban = (m,) if m else ()
            for fp in range(len(cfg.fighters)):
                for o in cfg.field:
                    oi = index[o]
                    out.append(Unit((m, xi, 0), 0, fp, xi, oi, ban, (), cfg.seed, cfg.seed + n))
                    out.append(Unit((m, xi, 1), 0, fp, oi, xi, (), ban, cfg.seed, cfg.seed + n))
    return out


def _keys(f: Fight) -> Iterable[tuple[Key, float]]:
    (m, x, s), fp = f.key[0], f.key[1]
    sc = f.score(s)
    yield (m, x, fp, "AB"[s]), sc
    yield (m, x, fp, "both"), sc
    yield ("veto", m, x, fp), float(f.sides[s].vetoes)
    yield ("use", m, x, fp), float(f.sides[s].uses.get(m, 0)) if m else 0.0


def analyse(cfg: AblateConfig, names: list[str], index: dict[str, int], fights: list[Fight]
            ) -> list[dict[str, Any]]:
    """The value (score drop) of every maneuver to every ablated agent, flagged."""
    tab = SeedTable().fill(fights, _keys)
    seeds = list(range(cfg.seed, cfg.seed + cfg.seeds()))
    qs = []
    for x in cfg.agents:
        xi = index[x]
        for fp, pairing in enumerate(cfg.fighters):
            for m in cfg.maneuvers:
                for side in ("both", "A", "B"):
                    # value = baseline - restricted: the drop when m is banned
                    q = quantity(tab, (m, xi, fp, side), ("", xi, fp, side), seeds, True,
                                 family="value" if side == "both" else "value by side",
                                 agent=names[xi], maneuver=m, side=side,
                                 fighters=pairing_label(pairing),
                                 fighter=side_names(pairing)[side == "B"] if side != "both"
                                 else "pooled over both sides")
                    q["score_with"], q["score_without"] = q.pop("b"), q.pop("a")
                    q["vetoes_per_fight"] = tab.total(("veto", m, xi, fp)) / max(
                        1, tab.fights(("veto", m, xi, fp)))
                    qs.append(q)
    flag(qs, cfg.correction)
    for q in qs:
        verdict(q, cfg.essential, cfg.negligible)
    return qs


def seeds_to_resolve(q: dict[str, Any], negligible: float) -> int | None:
    """Seeds per ordered pairing that would resolve an unresolved value, if its estimate and
    spread hold (the interval's half-width shrinks as 1/sqrt(n)): below ``negligible`` when
    the estimate is, else above 0. None where the estimate sits on the line."""
    half = q["high"] - q["estimate"]
    gap = negligible - q["estimate"] if q["estimate"] < negligible else q["estimate"]
    if half <= 0 or gap <= 0:
        return None
    return max(q["n_seeds"] + 1, math.ceil(q["n_seeds"] * (half / gap) ** 2))


def verdict(q: dict[str, Any], essential: float, negligible: float) -> None:
    """Set the flags of one value: essential, worth something, better without, worth at
    most X (upper bound below ``negligible``), or unresolved at this n."""
    q["never_wanted"] = q["vetoes_per_fight"] == 0.0
    q["essential"] = q["significant"] and q["estimate"] >= essential
    q["better_without"] = q["significant"] and q["estimate"] < 0
    q["worth_at_most"] = max(0.0, q["high"]) if q["high"] < negligible else None
    q["unresolved"] = q["low"] <= 0.0 <= q["high"] and q["worth_at_most"] is None
    q["seeds_to_resolve"] = seeds_to_resolve(q, negligible) if q["unresolved"] else None


def run_ablate(cfg: AblateConfig, agents: list[Agent], progress: bool = True,
               say: Callable[[str], None] | None = None) -> tuple[dict[str, Any], list[Fight]]:
    """Play the baseline and every ban; returns (results, all fights)."""
    names = [a.name for a in agents]
    index = {nm: k for k, nm in enumerate(names)}
    plan = Plan(agents, [cfg.rules.spec], list(cfg.fighters), cfg.radius, cfg.turn_limit)
    t0 = time.perf_counter()
    fights, played = run_units(plan, units(cfg, index), cfg.workers, progress, say)
    qs = analyse(cfg, names, index, fights)
    n = cfg.seeds()
    conf = {k: v for k, v in asdict(cfg).items() if k != "rules"}
    conf.update(seeds_per_pairing=n, rules={"label": cfg.rules.label, "id": cfg.rules.id})
    res = {"command": "ablate", "config": conf, "fights": len(fights),
           "elapsed_s": round(time.perf_counter() - t0, 2), "play_s": round(played, 2),
           "resolvable_points": round(100 * resolvable(n, cfg.per_side()), 2),
           "negligible_points": round(100 * cfg.negligible, 2),
           "quantities": qs,
           "statistics": "value = baseline score - score with the maneuver banned; paired t "
                         f"interval over seeds, 95%; {cfg.correction} correction; not flagged "
                         "where n*p*(1-p) < 9"}
    return res, fights

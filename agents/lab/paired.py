"""Per-seed tables of fight outcomes, and paired quantities built from them.

Why per seed: two conditions played on the same seeds give one *pair* per seed (every
fight an agent played at that seed, under each condition); the paired t interval of the
per-seed differences is the honest interval under common random numbers, and clustering
by seed keeps the fights that share a seed's dice from being counted as independent.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

import numpy as np

from .runner import Fight
from .stats import correct, npq_ok, paired_diff

Key = Hashable


class SeedTable:
    """Sums and counts per (key, seed); a key's per-seed means as an array."""

    def __init__(self) -> None:
        self.sum: dict[Key, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        self.cnt: dict[Key, dict[int, int]] = defaultdict(lambda: defaultdict(int))

    def add(self, key: Key, seed: int, value: float) -> None:
        self.sum[key][seed] += value
        self.cnt[key][seed] += 1

    def fill(self, fights: Iterable[Fight], fn: Callable[[Fight], Iterable[tuple[Key, float]]]
             ) -> SeedTable:
        for f in fights:
            for key, v in fn(f):
                self.add(key, f.seed, v)
        return self

    def means(self, key: Key, seeds: Sequence[int]) -> np.ndarray:
        s, c = self.sum.get(key, {}), self.cnt.get(key, {})
        return np.array([s.get(x, 0.0) / c[x] if c.get(x) else 0.0 for x in seeds])

    def fights(self, key: Key) -> int:
        return sum(self.cnt.get(key, {}).values())

    def total(self, key: Key) -> float:
        return sum(self.sum.get(key, {}).values())


def quantity(tab: SeedTable, key_a: Key, key_b: Key, seeds: Sequence[int],
             proportion: bool, **labels: Any) -> dict[str, Any]:
    """B - A for one quantity: both values, the paired interval, and whether it may be
    flagged (proportions need n·p·(1-p) >= 9 under the pooled p)."""
    a, b = tab.means(key_a, seeds), tab.means(key_b, seeds)
    r = paired_diff(a, b)
    n = tab.fights(key_a) + tab.fights(key_b)
    va, vb = float(a.mean()) if a.size else 0.0, float(b.mean()) if b.size else 0.0
    flaggable = True
    if proportion:
        p = (tab.total(key_a) + tab.total(key_b)) / n if n else 0.0
        flaggable = npq_ok(n / 2, p)
    return {**labels, "a": va, "b": vb, "estimate": r.estimate, "low": r.low, "high": r.high,
            "p": r.p, "n_seeds": r.n, "n_fights": n // 2, "flaggable": flaggable}


def flag(quantities: list[dict[str, Any]], correction: str) -> None:
    """Set ``significant`` per family after the correction; unflaggable ones never are.

    A difference that is exactly 0 in every pair (every fight identical under both
    conditions, e.g. a ban the agent never triggers) is known without error: it is not a
    test, so it does not enlarge the family.
    """
    fams: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for q in quantities:
        q["significant"] = False
        if q["low"] == q["high"] == q["estimate"] == 0.0:
            q["identical"] = True
            continue
        fams[q["family"]].append(q)
    for qs in fams.values():
        rej = correct([q["p"] for q in qs], correction)
        for q, r in zip(qs, rej, strict=True):
            q["significant"] = bool(r and q["flaggable"])
            if r and not q["flaggable"]:
                q["note"] = "too few decisive fights to flag (n·p·(1-p) < 9)"

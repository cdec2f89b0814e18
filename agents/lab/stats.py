"""The lab's statistics: paired intervals, multiple-comparison corrections, proportions.

Why these: the lab compares the *same* fights (same dice seeds) under two conditions, so the
honest interval is on the per-seed paired differences (a paired t interval), not two
independent intervals; it reports many quantities at once, so significance is corrected
(Holm's step-down, which controls the family-wise error for any dependence; Benjamini-
Hochberg is offered for a false-discovery view); and it refuses to call a proportion
significant when n·p·(1-p) < 9, where the normal approximation behind the interval is poor.
scipy gives the t quantiles when installed; a normal approximation is used otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..ratings import Z95, wilson

#: the smallest n·p·(1-p) for which a proportion's shift may be flagged significant
MIN_NPQ = 9.0


def t_quantile(df: int, level: float = 0.95) -> float:
    """Two-sided Student t quantile (normal for large df or without scipy)."""
    if df <= 0:
        return math.inf
    try:
        from scipy import stats as st

        return float(st.t.ppf(0.5 + level / 2, df))
    except ImportError:  # pragma: no cover - scipy is in the lab extra
        return Z95 if df > 30 else Z95 * (1 + 2.5 / df)


def t_pvalue(t: float, df: int) -> float:
    """Two-sided p-value of a t statistic."""
    if math.isinf(t):
        return 0.0
    try:
        from scipy import stats as st

        return float(2 * st.t.sf(abs(t), df))
    except ImportError:  # pragma: no cover
        return math.erfc(abs(t) / math.sqrt(2))


@dataclass(frozen=True)
class Paired:
    """A paired difference: mean of per-unit differences B - A with its 95 % t interval."""

    estimate: float
    low: float
    high: float
    p: float
    n: int
    sd: float

    def as_dict(self) -> dict[str, float | int]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high,
                "p": self.p, "n_units": self.n}


def paired_diff(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> Paired:
    """Paired t interval of mean(b - a); units (seeds) are the pairs.

    All-equal differences give a zero-width interval: p = 1 when they are all 0 (the null
    comparison of identical rules is exactly that), p = 0 otherwise.
    """
    d = np.asarray(b, dtype=float) - np.asarray(a, dtype=float)
    n = int(d.size)
    if n == 0:
        return Paired(0.0, 0.0, 0.0, 1.0, 0, 0.0)
    m = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    if sd < 1e-12:
        same = abs(m) < 1e-12
        return Paired(m, m, m, 1.0 if same else 0.0, n, 0.0)
    se = sd / math.sqrt(n)
    q = t_quantile(n - 1)
    return Paired(m, m - q * se, m + q * se, t_pvalue(m / se, n - 1), n, sd)


def mean_ci(x: Sequence[float] | np.ndarray) -> tuple[float, float, float]:
    """Mean with its 95 % t interval."""
    r = paired_diff(np.zeros(len(x)), x)
    return r.estimate, r.low, r.high


def holm(pvalues: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Holm's step-down: which hypotheses are rejected at family-wise level ``alpha``."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda k: (pvalues[k], k))
    reject = [False] * m
    for rank, k in enumerate(order):
        if pvalues[k] <= alpha / (m - rank):
            reject[k] = True
        else:
            break
    return reject


def benjamini_hochberg(pvalues: Sequence[float], alpha: float = 0.05) -> list[bool]:
    """Benjamini-Hochberg step-up: which are discoveries at false-discovery rate ``alpha``."""
    m = len(pvalues)
    order = sorted(range(m), key=lambda k: (pvalues[k], k))
    last = -1
    for rank, k in enumerate(order):
        if pvalues[k] <= alpha * (rank + 1) / m:
            last = rank
    reject = [False] * m
    for rank in range(last + 1):
        reject[order[rank]] = True
    return reject


def correct(pvalues: Sequence[float], method: str = "holm", alpha: float = 0.05) -> list[bool]:
    """The multiple-comparison correction by name (``holm`` or ``bh``)."""
    if method == "holm":
        return holm(pvalues, alpha)
    if method == "bh":
        return benjamini_hochberg(pvalues, alpha)
    raise ValueError(f"correction: value {method!r}: allowed holm, bh")


def npq_ok(n: float, p: float) -> bool:
    """Whether a proportion p measured on n fights is large enough to flag (n·p·(1-p) >= 9)."""
    return n * p * (1 - p) >= MIN_NPQ


def proportion(k: float, n: float) -> dict[str, float]:
    """A proportion with its Wilson 95 % interval."""
    lo, hi = wilson(k, n)
    return {"estimate": k / n if n else 0.0, "low": lo, "high": hi, "n": n}


def diff_proportions(k1: float, n1: float, k2: float, n2: float) -> dict[str, float]:
    """p1 - p2 for independent samples, Newcombe's hybrid Wilson 95 % interval (method 10)."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1)
    l2, u2 = wilson(k2, n2)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return {"estimate": d, "low": max(-1.0, low), "high": min(1.0, high)}


def planned_units(precision: float, fights_per_unit: int, level_z: float = Z95) -> int:
    """Seeds needed so a score difference's 95 % half-width is at most ``precision``.

    Planned for the worst case: fights independent at p = 0.5 under both conditions, i.e.
    a per-fight difference variance of 0.5; common random numbers only make it smaller.
    """
    if not 0 < precision < 1:
        raise ValueError(f"precision: value {precision * 100:g}: allowed 0 < points < 100")
    fights = 0.5 * (level_z / precision) ** 2
    return max(2, math.ceil(fights / max(1, fights_per_unit)))


def resolvable(units: int, fights_per_unit: int, level_z: float = Z95) -> float:
    """The worst-case 95 % half-width of a score difference for ``units`` seeds."""
    return level_z * math.sqrt(0.5 / max(1, units * fights_per_unit))

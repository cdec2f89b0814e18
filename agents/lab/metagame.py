"""The meta-game of an agent population: Nash mixture, alpha-rank, cycles.

Why: a round robin says who beats whom; a designer asks which agents (styles) survive when
players adapt. The zero-sum payoff matrix (row score - 1/2) has a Nash equilibrium mixture
(``nashpy``'s linear program; the support = the non-dominated agents) and an alpha-rank
(Omidshafiei et al. 2019: the stationary distribution of a Moran process with rare
mutations; OpenSpiel's ``open_spiel.python.egt.alpharank`` when installed, otherwise the
same single-population formulas below). Intervals come from a bootstrap over seeds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .stats import mean_ci

ALPHA = 10.0
POP = 50
BOOT = 200


def nash_mixture(scores: np.ndarray) -> np.ndarray:
    """The row player's equilibrium mixture of the zero-sum game ``scores - 1/2``."""
    a = np.asarray(scores, dtype=float) - 0.5
    np.fill_diagonal(a, 0.0)
    try:
        import nashpy

        with np.errstate(all="ignore"):
            x, _ = nashpy.Game(a).linear_program()
        x = np.clip(np.asarray(x, dtype=float), 0.0, None)
    except ImportError:  # pragma: no cover - nashpy is in the lab extra
        x = _maxmin(a)
    return x / x.sum()


def _maxmin(a: np.ndarray) -> np.ndarray:  # pragma: no cover - fallback without nashpy
    from scipy.optimize import linprog

    k = a.shape[0]
    shift = a - a.min() + 1.0
    res = linprog(np.ones(k), A_ub=-shift.T, b_ub=-np.ones(k), bounds=[(0, None)] * k)
    return res.x / res.x.sum()


def _rho(delta: float, alpha: float, m: int) -> float:
    """Fixation probability of a mutant whose fitness exceeds the resident's by ``delta``."""
    if abs(delta) < 1e-12:
        return 1.0 / m
    x = -alpha * delta
    if m * x > 700:  # the mutant is much worse: the probability underflows to 0
        return 0.0
    return math.expm1(x) / math.expm1(m * x)


def alpharank_own(scores: np.ndarray, alpha: float = ALPHA, m: int = POP) -> np.ndarray:
    """Single-population alpha-rank (local selection model, as OpenSpiel's default)."""
    p = np.asarray(scores, dtype=float)
    k = p.shape[0]
    c = np.zeros((k, k))
    for s in range(k):
        for r in range(k):
            if r != s:
                c[s, r] = _rho(p[r, s] - p[s, r], alpha, m) / (k - 1)
        c[s, s] = 1.0 - c[s].sum()
    vals, vecs = np.linalg.eig(c.T)
    v = np.real(vecs[:, int(np.argmin(np.abs(vals - 1.0)))])
    v = np.abs(v)
    return v / v.sum()


def alpharank(scores: np.ndarray, alpha: float = ALPHA, m: int = POP) -> tuple[np.ndarray, str]:
    """The alpha-rank masses and which implementation computed them."""
    try:
        import io
        from contextlib import redirect_stdout

        from open_spiel.python.egt import alpharank as osr

        with redirect_stdout(io.StringIO()), np.errstate(all="ignore"):
            pi = osr.compute([np.asarray(scores, dtype=float)], m=m, alpha=alpha)[2]
        return np.asarray(pi, dtype=float), "open_spiel.python.egt.alpharank"
    except ImportError:
        return alpharank_own(scores, alpha, m), "hexdojo (OpenSpiel formulas)"


def cycles(scores: np.ndarray, beats: np.ndarray) -> list[tuple[int, int, int]]:
    """Rock-paper-scissors triples i > j > k > i where every ``beats`` edge is significant."""
    k = scores.shape[0]
    out = []
    for i in range(k):
        for j in range(k):
            for h in range(k):
                if i < j and i < h and len({i, j, h}) == 3 and beats[i, j] and beats[j, h] \
                        and beats[h, i]:
                    out.append((i, j, h))
    return out


def metagame(names: Sequence[str], per_seed: np.ndarray, beats: np.ndarray,
             seed: int = 0) -> dict[str, Any]:
    """Nash and alpha-rank of the mean payoff, with bootstrap intervals over seeds.

    ``per_seed[s, i, j]`` is agent i's score against j at seed s (both sides averaged);
    ``beats[i, j]`` whether i beats j significantly.
    """
    mean = per_seed.mean(axis=0)
    x = nash_mixture(mean)
    pi, impl = alpharank(mean)
    rng = np.random.default_rng([seed, 4242])
    n = per_seed.shape[0]
    bx, bp = [], []
    for _ in range(BOOT):
        m = per_seed[rng.integers(0, n, n)].mean(axis=0)
        bx.append(nash_mixture(m))
        bp.append(alpharank(m)[0])
    bx_a, bp_a = np.array(bx), np.array(bp)
    rows = []
    for k, nm in enumerate(names):
        rows.append({"agent": nm,
                     "nash": {"estimate": float(x[k]), "low": float(np.quantile(bx_a[:, k], .025)),
                              "high": float(np.quantile(bx_a[:, k], .975))},
                     "alpharank": {"estimate": float(pi[k]),
                                   "low": float(np.quantile(bp_a[:, k], .025)),
                                   "high": float(np.quantile(bp_a[:, k], .975))},
                     "non_dominated": bool(x[k] > 1e-3)})
    order = sorted(range(len(names)), key=lambda k: (-pi[k], -x[k], k))
    return {"agents": rows, "payoff": mean.tolist(),
            "leaders": leaders(names, per_seed, order) if len(names) > 1 else None,
            "cycles": [[names[a] for a in c] for c in cycles(mean, beats)],
            "alpharank_impl": impl, "alpha": ALPHA, "population": POP, "bootstrap": BOOT,
            "method": "Nash: zero-sum game of score - 1/2 (nashpy linear program); alpha-rank: "
                      f"single population, alpha={ALPHA:g}, m={POP}; 95% bootstrap over seeds"}


def _marginals(pi: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    joint = np.asarray(pi, dtype=float).reshape(k, k)
    return joint.sum(axis=1), joint.sum(axis=0)


def role_solution(m: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The asymmetric game of two roles: ``m[i, j]`` = side A's score with agent i against
    agent j on side B (zero-sum: side B scores 1 - m). Returns each side's Nash mixture
    (nashpy's linear program) and alpha-rank marginal (OpenSpiel's two-population
    alpha-rank; without OpenSpiel, NaN)."""
    import nashpy

    k = m.shape[0]
    with np.errstate(all="ignore"):
        x, y = nashpy.Game(np.asarray(m, dtype=float) - 0.5).linear_program()
    x, y = (np.clip(np.asarray(v, dtype=float), 0, None) for v in (x, y))
    try:
        import io
        from contextlib import redirect_stdout

        from open_spiel.python.egt import alpharank as osr

        with redirect_stdout(io.StringIO()), np.errstate(all="ignore"):
            pi = osr.compute([np.asarray(m, dtype=float), 1 - np.asarray(m, dtype=float)],
                             m=POP, alpha=ALPHA)[2]
        pa, pb = _marginals(pi, k)
    except ImportError:  # pragma: no cover - open_spiel is in the lab extra
        pa = pb = np.full(k, np.nan)
    return x / x.sum(), y / y.sum(), pa, pb


def _interval(est: float, boot: np.ndarray) -> dict[str, float]:
    return {"estimate": float(est), "low": float(np.nanquantile(boot, .025)),
            "high": float(np.nanquantile(boot, .975))}


def role_metagame(names: Sequence[str], per_seed: np.ndarray, seed: int = 0) -> dict[str, Any]:
    """Each side's meta-game in an asymmetric pairing, with bootstrap intervals over seeds.

    ``per_seed[s, i, j]`` is side A's score with agent i against agent j on side B at seed
    s; an agent never meets itself in the lab's round robin, so the diagonal is side A's
    mean over the played cells of its seed (said in the method)."""
    def solve(p: np.ndarray) -> list[np.ndarray]:
        m = p.mean(axis=0)
        return list(role_solution(m))

    est = solve(per_seed)
    rng = np.random.default_rng([seed, 4243])
    n = per_seed.shape[0]
    boot = [np.array(b) for b in zip(*(solve(per_seed[rng.integers(0, n, n)])
                                       for _ in range(BOOT // 2)), strict=True)]
    sides = {}
    for s, (nash, ar) in (("A", (0, 2)), ("B", (1, 3))):
        sides[s] = [{"agent": nm, "nash": _interval(est[nash][k], boot[nash][:, k]),
                     "alpharank": _interval(est[ar][k], boot[ar][:, k]),
                     "non_dominated": bool(est[nash][k] > 1e-3)} for k, nm in enumerate(names)]
    return {"sides": sides, "payoff_side_a": per_seed.mean(axis=0).tolist(),
            "method": "each side's game: side A's score with the row agent against the column "
                      "agent on side B (zero-sum); Nash by nashpy's linear program, alpha-rank "
                      f"by OpenSpiel's two-population alpha-rank (alpha={ALPHA:g}, m={POP}); an "
                      "agent never meets itself, so the diagonal is side A's mean score; 95% "
                      f"bootstrap over seeds ({BOOT // 2} resamples)"}


def leaders(names: Sequence[str], per_seed: np.ndarray, order: Sequence[int]) -> dict[str, Any]:
    """The two leaders' head-to-head (row score of the first, both sides averaged, t
    interval over seeds): too close to call when the interval holds 50 %, with the seeds
    per ordered pairing that would separate them if the gap holds."""
    a, b = order[0], order[1]
    est, lo, hi = mean_ci(per_seed[:, a, b])
    n = per_seed.shape[0]
    gap, half = abs(est - 0.5), (hi - lo) / 2
    lo, hi = max(0.0, lo), min(1.0, hi)  # a score: the t interval clipped to [0, 1]
    close = lo <= 0.5 <= hi
    need = None if not close or gap <= 0 else max(n + 1, math.ceil(n * (half / gap) ** 2))
    return {"first": names[a], "second": names[b], "score": {"estimate": est, "low": lo,
                                                             "high": hi},
            "too_close": bool(close), "seeds_to_separate": need, "seeds": n}

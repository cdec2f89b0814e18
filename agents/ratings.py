"""Ratings and confidence intervals for tournaments (numpy only).

Why Bradley-Terry with standard errors rather than a running Elo: round robins give every
pairing's full win/draw/loss counts, so the maximum-likelihood strengths are exact and do
not depend on the order fights were played; the curvature of the likelihood gives each
rating a standard error, so the report can show 95 % intervals instead of bare numbers
(ANCHORS pitfall 5). Ratings are shown on the Elo scale (400 / ln 10 per unit of log-odds)
around a mean of 1500.

Draws count as half a win for each side. A pairing one agent wins every time would push
its strength to infinity; ``prior`` adds that many virtual drawn games to every pairing
(default 1), which keeps every rating finite and barely moves well-measured ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054
ELO = 400.0 / math.log(10.0)
ELO_MEAN = 1500.0


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``k / n`` (sensible at 0 and 1 too)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    den = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def odds(p: float) -> float:
    """p / (1 - p), infinite at p = 1."""
    return math.inf if p >= 1.0 else p / (1.0 - p)


@dataclass(frozen=True)
class Strength:
    """Win rate against one opponent with its 95 % interval, also as odds (poke-env style)."""

    wins: int
    draws: int
    losses: int
    rate: float
    rate_lo: float
    rate_hi: float
    odds: float
    odds_lo: float
    odds_hi: float

    @property
    def n(self) -> int:
        return self.wins + self.draws + self.losses


def strength(wins: int, draws: int, losses: int) -> Strength:
    """Win rate (draws count as not won) with a Wilson interval, and the odds p/(1-p)."""
    n = wins + draws + losses
    p = wins / n if n else 0.0
    lo, hi = wilson(wins, n)
    return Strength(wins, draws, losses, p, lo, hi, odds(p), odds(lo), odds(hi))


@dataclass(frozen=True)
class Ratings:
    """Bradley-Terry strengths on the Elo scale, with standard errors and 95 % intervals."""

    names: tuple[str, ...]
    elo: tuple[float, ...]
    se: tuple[float, ...]
    converged: bool

    def ci(self, i: int) -> tuple[float, float]:
        return self.elo[i] - Z95 * self.se[i], self.elo[i] + Z95 * self.se[i]

    def as_rows(self) -> list[dict[str, float | str | int]]:
        order = sorted(range(len(self.names)), key=lambda i: -self.elo[i])
        rows = []
        for rank, i in enumerate(order, 1):
            lo, hi = self.ci(i)
            rows.append({"rank": rank, "agent": self.names[i], "elo": round(self.elo[i], 1),
                         "se": round(self.se[i], 1), "ci_lo": round(lo, 1),
                         "ci_hi": round(hi, 1)})
        return rows


def bradley_terry(
    names: Sequence[str],
    score: np.ndarray,
    games: np.ndarray,
    prior: float = 1.0,
    iters: int = 100,
) -> Ratings:
    """Maximum-likelihood Bradley-Terry ratings.

    ``score[i, j]``: points of ``i`` against ``j`` (wins + draws / 2); ``games[i, j]``:
    games between them (symmetric). ``prior`` virtual drawn games are added per pairing.
    Standard errors come from the inverse observed information under the sum-zero
    constraint (the pseudo-inverse of the Hessian).
    """
    n = len(names)
    s = np.array(score, dtype=float)
    g = np.array(games, dtype=float)
    if s.shape != (n, n) or g.shape != (n, n):
        raise ValueError(f"score and games must be {n}x{n} matrices")
    if prior > 0:
        pairs = 1.0 - np.eye(n)
        s = s + pairs * prior / 2.0
        g = g + pairs * prior
    theta = np.zeros(n)
    converged = False
    for _ in range(iters):
        diff = theta[:, None] - theta[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))
        grad = (s - g * p).sum(axis=1)
        w = g * p * (1.0 - p)
        info = np.diag(w.sum(axis=1)) - w  # negative Hessian
        step = np.linalg.pinv(info) @ grad
        theta = theta + step
        theta -= theta.mean()
        if np.max(np.abs(step)) < 1e-10:
            converged = True
            break
    diff = theta[:, None] - theta[None, :]
    p = 1.0 / (1.0 + np.exp(-diff))
    w = g * p * (1.0 - p)
    info = np.diag(w.sum(axis=1)) - w
    cov = np.linalg.pinv(info)
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    elo = ELO_MEAN + ELO * theta
    return Ratings(tuple(names), tuple(float(x) for x in elo),
                   tuple(float(x) for x in ELO * se), converged)

"""The balance solver: which value of one number brings a target (a win rate) to a goal.

Why this way (stochastic root finding on paired seeds): the target is measured by fights,
so every evaluation is noisy; evaluating every value on the *same* seeds (common random
numbers) makes the differences between values far less noisy than the values themselves,
which is what locating a crossing needs. The solver

1. evaluates a coarse grid over the bracket [a, b] (every integer when there are few);
2. finds where the estimate crosses the goal; a response that crosses more than once, or
   that rises significantly somewhere and falls significantly elsewhere (paired
   differences between neighbouring values), is reported **non-monotone** with every
   crossing, not forced to one answer;
3. narrows the first crossing's bracket by bisection (integers: until neighbours);
4. fits a local linear regression of the per-seed response on the value over the points
   around the crossing, solves it for the goal, and gives the solution's 95 % interval by a
   bootstrap over seeds (a seed keeps all its values: the pairing is kept).

Integer keys report the best integer and its neighbours' figures, each with its interval.
The solver only sees ``evaluate(values) -> {value: per-seed responses}``, so it is tested
on synthetic responses with known roots.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .stats import mean_ci, paired_diff

Evaluate = Callable[[Sequence[float]], dict[float, np.ndarray]]
BOOT = 400
GRID = 5


def grid(lo: float, hi: float, integer: bool, points: int = GRID) -> list[float]:
    """The first values: every integer when there are at most ``2 * points`` of them, else
    ``points`` evenly spaced (rounded for integer keys)."""
    if integer and hi - lo + 1 <= 2 * points:
        return [float(v) for v in range(int(lo), int(hi) + 1)]
    xs = np.linspace(lo, hi, points)
    return sorted({float(round(x)) for x in xs}) if integer else [float(x) for x in xs]


def crossings(xs: Sequence[float], means: Sequence[float], goal: float) -> list[tuple[float, float]]:
    """Neighbouring values between which the estimate crosses (or touches) the goal."""
    out = []
    for k in range(len(xs) - 1):
        a, b = means[k] - goal, means[k + 1] - goal
        if a == 0 or a * b < 0:
            out.append((xs[k], xs[k + 1]))
    if means and means[-1] - goal == 0:
        out.append((xs[-1], xs[-1]))
    return out


def monotone(xs: Sequence[float], data: dict[float, np.ndarray]) -> dict[str, Any]:
    """Significant rises and falls between neighbouring values (paired t intervals)."""
    ups, downs = [], []
    for a, b in zip(xs, xs[1:], strict=False):
        d = paired_diff(data[a], data[b])
        if d.low > 0:
            ups.append([a, b])
        elif d.high < 0:
            downs.append([a, b])
    return {"rises": ups, "falls": downs, "monotone": not (ups and downs)}


def _fit_root(xs: np.ndarray, ys: np.ndarray, goal: float) -> float | None:
    """x where the least-squares line through (xs, ys) meets the goal (None: flat)."""
    slope, icept = np.polyfit(xs, ys, 1)
    return None if abs(slope) < 1e-12 else float((goal - icept) / slope)


def local_root(data: dict[float, np.ndarray], near: Sequence[float], goal: float,
               seed: int = 0) -> dict[str, Any]:
    """The root of a linear fit over the values ``near`` the crossing, with a 95 %
    bootstrap interval over seeds (each resample keeps a seed's responses at every value)."""
    xs = sorted(near)
    mat = np.array([data[x] for x in xs])  # values x seeds
    n = mat.shape[1]
    flat_x = np.repeat(xs, n)
    est = _fit_root(flat_x, mat.ravel(), goal)
    rng = np.random.default_rng([seed, 2034])
    boots = []
    for _ in range(BOOT):
        pick = rng.integers(0, n, n)
        r = _fit_root(flat_x, mat[:, pick].ravel(), goal)
        if r is not None:
            boots.append(r)
    if est is None or len(boots) < BOOT // 2:
        return {"estimate": est, "low": None, "high": None, "values": xs}
    return {"estimate": est, "low": float(np.quantile(boots, .025)),
            "high": float(np.quantile(boots, .975)), "values": xs}


def _bisect(evaluate: Evaluate, data: dict[float, np.ndarray], bracket: tuple[float, float],
            goal: float, integer: bool, steps: int) -> tuple[float, float]:
    """Narrow a crossing's bracket by evaluating its midpoint ``steps`` times (integer keys:
    until the two ends are neighbours)."""
    lo, hi = bracket
    for _ in range(steps):
        mid = math.floor((lo + hi) / 2) if integer else (lo + hi) / 2
        if (integer and hi - lo <= 1) or mid in data:
            break
        data.update(evaluate([mid]))
        if (data[lo].mean() - goal) * (data[mid].mean() - goal) <= 0:
            hi = mid
        else:
            lo = mid
    return lo, hi


def _point(x: float, data: dict[float, np.ndarray]) -> dict[str, float]:
    """The target's mean at ``x`` with its 95 % t interval, within [0, 1] (a score)."""
    est, lo, hi = mean_ci(data[x])
    return {"value": x, "estimate": est, "low": max(0.0, lo), "high": min(1.0, hi)}


def _best_integer(evaluate: Evaluate, data: dict[float, np.ndarray], bracket: tuple[float, float],
                  goal: float, limits: tuple[float, float]) -> dict[str, Any]:
    """The integer whose estimate is nearest the goal, and its two neighbours' figures
    (evaluated on the same seeds where the search had not)."""
    a, b = bracket
    best = min((x for x in data if a - 1 <= x <= b + 1),
               key=lambda x: (abs(data[x].mean() - goal), x))
    missing = [x for x in (best - 1, best + 1) if limits[0] <= x <= limits[1] and x not in data]
    if missing:
        data.update(evaluate(missing))
    return {"best": _point(best, data),
            "neighbours": [_point(x, data) for x in (best - 1, best + 1) if x in data]}


def solve(evaluate: Evaluate, lo: float, hi: float, goal: float, integer: bool,
          steps: int = 4, seed: int = 0) -> dict[str, Any]:
    """Where the target reaches ``goal`` in [lo, hi]; see the module's docstring."""
    data = dict(evaluate(grid(lo, hi, integer)))
    xs = sorted(data)
    means = [float(data[x].mean()) for x in xs]
    cross = crossings(xs, means, goal)
    shape = monotone(xs, data)
    out: dict[str, Any] = {"goal": goal, "bracket": [lo, hi], "integer": integer,
                           "crossings": [list(c) for c in cross], **shape,
                           "non_monotone": not shape["monotone"]}
    if not cross:
        best = min(xs, key=lambda x: abs(data[x].mean() - goal))
        out.update(root=None, best=_point(best, data),
                   side="above" if min(means) > goal else "below" if max(means) < goal else "")
    else:
        out.update(_solution(evaluate, data, cross, goal, integer, steps, seed, (lo, hi),
                             first_only=out["non_monotone"]))
    out["points"] = [_point(x, data) for x in sorted(data)]
    return out


def _solution(evaluate: Evaluate, data: dict[float, np.ndarray], cross: list[tuple[float, float]],
              goal: float, integer: bool, steps: int, seed: int, limits: tuple[float, float],
              first_only: bool) -> dict[str, Any]:
    """The root: one crossing is narrowed by bisection; several crossings of a response that
    is monotone within its noise are one flat stretch, fitted over all of it. The root is
    resolved when its interval lies within the bracket."""
    if first_only or len(cross) == 1:
        a, b = _bisect(evaluate, data, cross[0], goal, integer, steps)
        near = sorted(data, key=lambda x: abs(x - (a + b) / 2))[:4]
    else:
        a, b = cross[0][0], cross[-1][1]
        near = [x for x in data if a <= x <= b]
    root = local_root(data, near, goal, seed) if a != b else \
        {"estimate": a, "low": a, "high": a, "values": [a]}
    root["resolved"] = root["low"] is not None and limits[0] <= root["low"] and \
        root["high"] <= limits[1]
    out: dict[str, Any] = {"root": root, "flat": len(cross) > 1 and not first_only}
    if integer:
        out.update(_best_integer(evaluate, data, (a, b), goal, limits))
    return out

"""Exact dice odds for the rules' risk rolls, precomputed once per rule set.

A roll risking ``n`` dice gives ``2*S + basic - per_die*n`` half points, where ``S`` is
the sum of ``n`` dice (RULES §1.3, the engine's :func:`formulas.roll_result`). Scripted
agents need, many times per fight, the chance that one roll beats another and the
expected margin; tabulating the exact distributions once makes each question a list
lookup instead of a simulation, which keeps the scripted ladder cheap enough for
1,000-fight round robins.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from hexdojo.envs.rules import formulas as fm

#: Differences of half-point basic values covered by the tables (beyond: clamped).
SPAN = 120


def sum_pmf(n: int, sides: int) -> np.ndarray:
    """Probabilities of the sum of ``n`` dice; index k is the sum ``n + k``."""
    d = np.array([1.0])
    face = np.full(sides, 1.0 / sides)
    for _ in range(n):
        d = np.convolve(d, face)
    return d


class Odds:
    """Opposed and single-roll tables for one die size, risk range and cost per die."""

    def __init__(self, sides: int, max_risk: int, per_die_h: int) -> None:
        self.sides = sides
        self.max_risk = max_risk
        self.per_die_h = per_die_h
        pmfs = [sum_pmf(n, sides) for n in range(max_risk + 1)]
        # values (half points) of 2*S - per_die*n for each n, with their probabilities
        self.single: list[tuple[np.ndarray, np.ndarray]] = []
        for n, pm in enumerate(pmfs):
            vals = fm.roll_result(0, n, np.arange(len(pm)) + n, per_die_h)
            self.single.append((vals, pm))
        cs = np.arange(-SPAN, SPAN + 1)
        r1 = max_risk + 1
        # p_gt[ra][rd][c + SPAN] = P(att - def > 0) where c = basic_a - basic_d
        self.p_gt: list[list[list[float]]] = [[[] for _ in range(r1)] for _ in range(r1)]
        self.m_gt: list[list[list[float]]] = [[[] for _ in range(r1)] for _ in range(r1)]
        for ra in range(r1):
            va, pa = self.single[ra]
            for rd in range(r1):
                vd, pd = self.single[rd]
                diff = (va[:, None] - vd[None, :]).ravel()
                prob = (pa[:, None] * pd[None, :]).ravel()
                tot = diff[None, :] + cs[:, None]
                win = tot > 0
                self.p_gt[ra][rd] = (win * prob).sum(axis=1).tolist()
                self.m_gt[ra][rd] = (np.where(win, tot, 0) * prob).sum(axis=1).tolist()
        # best risks when both sides choose (attacker first, defender answers)
        self.best_first: list[int] = []
        self.best_answer: list[list[int]] = [[] for _ in range(r1)]
        for c in range(-SPAN, SPAN + 1):
            k = c + SPAN
            worst = [min(self.p_gt[ra][rd][k] for rd in range(r1)) for ra in range(r1)]
            self.best_first.append(int(np.argmax(worst)))
        for ra in range(r1):
            for c in range(-SPAN, SPAN + 1):
                k = c + SPAN
                self.best_answer[ra].append(
                    int(np.argmin([self.p_gt[ra][rd][k] for rd in range(r1)]))
                )

    @staticmethod
    def _k(c: int) -> int:
        return min(2 * SPAN, max(0, c + SPAN))

    def p_beat(self, basic_a: int, ra: int, basic_d: int, rd: int, strict: bool = True) -> float:
        """P(attack result > defence result) (``>=`` when not strict)."""
        return self.p_gt[ra][rd][self._k(basic_a - basic_d + (0 if strict else 1))]

    def margin(self, basic_a: int, ra: int, basic_d: int, rd: int) -> float:
        """E[margin | attack wins] in half points (0 when it cannot win)."""
        k = self._k(basic_a - basic_d)
        p = self.p_gt[ra][rd][k]
        return self.m_gt[ra][rd][k] / p if p > 1e-12 else 0.0

    def first_risk(self, basic_mine: int, basic_theirs: int) -> int:
        """Dice to risk when I choose first and the other side answers as well as it can."""
        return self.best_first[self._k(basic_mine - basic_theirs)]

    def answer_risk(self, basic_mine: int, basic_theirs: int, their_risk: int) -> int:
        """Dice to risk, knowing theirs, to beat (strictly) or hold off the other roll."""
        # I want to minimise P(their roll > mine): their basic is the "attack" side
        return self.best_answer[their_risk][self._k(basic_theirs - basic_mine)]

    def dist(self, basic: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Result values (half points) and probabilities of one roll."""
        vals, pm = self.single[n]
        return vals + basic, pm


@lru_cache(maxsize=8)
def odds_for(sides: int, max_risk: int, per_die_h: int) -> Odds:
    return Odds(sides, max_risk, per_die_h)

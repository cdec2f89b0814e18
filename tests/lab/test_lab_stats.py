"""The lab's statistics on small hand-computed cases (paired t, Holm, BH, Newcombe, Nash,
alpha-rank)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexdojo.agents.lab import metagame as mg
from hexdojo.agents.lab import stats


def test_paired_interval_hand_computed():
    # d = b - a = [1, 0, 1, -1, 0]: mean 0.2, sd sqrt(2.8 / 4), se sd / sqrt 5,
    # t(0.975, 4) = 2.776445 -> half-width 1.038843
    r = stats.paired_diff([0, 1, 0, 1, 1], [1, 1, 1, 0, 1])
    assert r.estimate == pytest.approx(0.2)
    assert r.sd == pytest.approx(math.sqrt(0.7))
    assert r.low == pytest.approx(0.2 - 1.038843, abs=1e-5)
    assert r.high == pytest.approx(0.2 + 1.038843, abs=1e-5)
    # t = 0.2 / 0.374166 = 0.534522 on 4 df: two-sided p = 0.6213
    assert r.p == pytest.approx(0.6213, abs=1e-3)


def test_paired_is_not_two_independent_intervals():
    # the same shift in every pair: independent intervals would overlap, the pairs say it is sure
    a = np.array([0.1, 0.5, 0.9, 0.3, 0.7])
    r = stats.paired_diff(a, a + 0.1)
    assert r.low == pytest.approx(0.1) and r.high == pytest.approx(0.1) and r.p == 0.0


def test_identical_conditions_give_a_zero_interval_and_p_one():
    r = stats.paired_diff([1, 0, 0.5], [1, 0, 0.5])
    assert (r.estimate, r.low, r.high, r.p) == (0.0, 0.0, 0.0, 1.0)


def test_holm_on_given_pvalues():
    # sorted 0.005 <= .05/4, 0.01 <= .05/3, 0.03 > .05/2: stop
    assert stats.holm([0.01, 0.04, 0.03, 0.005]) == [True, False, False, True]
    assert stats.holm([0.2, 0.001]) == [False, True]


def test_benjamini_hochberg_on_given_pvalues():
    # 0.005 <= .0125, 0.01 <= .025, 0.03 <= .0375, 0.04 <= .05: all discoveries
    assert stats.benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == [True] * 4
    # 0.02 > 0.05 * 1/3 ... but 0.03 <= 0.05 * 2/3: the step-up keeps both smaller ones
    assert stats.benjamini_hochberg([0.02, 0.03, 0.5]) == [True, True, False]


def test_npq_rule():
    assert stats.npq_ok(40, 0.5)  # 10
    assert not stats.npq_ok(30, 0.5)  # 7.5
    assert not stats.npq_ok(1000, 0.005)  # 4.975


def test_newcombe_difference_of_proportions():
    # Newcombe (1998), Stat. Med. 17, table II example (56/70 - 48/80), method 10
    d = stats.diff_proportions(56, 70, 48, 80)
    assert d["estimate"] == pytest.approx(0.2)
    assert d["low"] == pytest.approx(0.0524, abs=1e-4)
    assert d["high"] == pytest.approx(0.3339, abs=1e-4)


def test_planned_seeds_and_resolvable_difference():
    # 0.5 * (1.96 / 0.03)^2 = 2134.1 fights per agent; 8 fights per seed -> 267 seeds
    assert stats.planned_units(0.03, 8) == 267
    assert stats.resolvable(267, 8) == pytest.approx(0.02999, abs=1e-4)
    with pytest.raises(ValueError, match="precision"):
        stats.planned_units(0.0, 8)


RPS = np.array([[0.5, 0.0, 1.0], [1.0, 0.5, 0.0], [0.0, 1.0, 0.5]])


def test_nash_of_rock_paper_scissors_is_uniform():
    assert mg.nash_mixture(RPS) == pytest.approx([1 / 3] * 3, abs=1e-6)


def test_nash_of_a_dominant_agent_is_pure():
    assert mg.nash_mixture(np.array([[0.5, 0.9], [0.1, 0.5]])) == pytest.approx([1.0, 0.0])


def test_alpharank_hand_computed_two_strategies():
    # m = 2, alpha = 1: rho(0 -> 1) = (1 - e^0.8) / (1 - e^1.6), rho(1 -> 0) = (1 - e^-0.8) /
    # (1 - e^-1.6); pi is proportional to (rho(1 -> 0), rho(0 -> 1))
    r01 = (1 - math.exp(0.8)) / (1 - math.exp(1.6))
    r10 = (1 - math.exp(-0.8)) / (1 - math.exp(-1.6))
    pi = mg.alpharank_own(np.array([[0.5, 0.9], [0.1, 0.5]]), alpha=1.0, m=2)
    assert pi == pytest.approx([r10 / (r01 + r10), r01 / (r01 + r10)], abs=1e-9)


def test_alpharank_of_rock_paper_scissors_is_uniform():
    assert mg.alpharank_own(RPS) == pytest.approx([1 / 3] * 3, abs=1e-9)


def test_own_alpharank_matches_openspiel():
    pytest.importorskip("open_spiel")
    rng = np.random.default_rng(3)
    m = rng.random((5, 5))
    m = (m + 1 - m.T) / 2
    pi, impl = mg.alpharank(m, alpha=2.0, m=10)
    assert impl.startswith("open_spiel")
    assert mg.alpharank_own(m, alpha=2.0, m=10) == pytest.approx(pi, abs=1e-8)


def test_rock_paper_scissors_cycle_is_found():
    beats = RPS > 0.5
    assert mg.cycles(RPS, beats) == [(0, 2, 1)]
    assert mg.cycles(RPS, np.zeros((3, 3), dtype=bool)) == []

PVALUES = st.lists(st.floats(0.0, 1.0), min_size=1, max_size=30)


@given(PVALUES)
def test_holm_rejects_a_subset_of_bh_and_of_the_uncorrected(ps):
    h, b = stats.holm(ps), stats.benjamini_hochberg(ps)
    assert all(b[k] for k in range(len(ps)) if h[k])
    assert all(ps[k] <= 0.05 for k in range(len(ps)) if b[k])
    # rejections are monotone in p: a smaller p is never kept while a larger one is rejected
    for k in range(len(ps)):
        for j in range(len(ps)):
            if h[j] and ps[k] < ps[j]:
                assert h[k]


@given(st.lists(st.floats(-1, 1), min_size=2, max_size=40), st.floats(-0.5, 0.5))
def test_paired_interval_moves_with_a_constant_shift(d, shift):
    a = np.zeros(len(d))
    r0, r1 = stats.paired_diff(a, d), stats.paired_diff(a, np.asarray(d) + shift)
    assert r0.low <= r0.estimate <= r0.high
    assert r1.estimate == pytest.approx(r0.estimate + shift, abs=1e-9)
    assert r1.high - r1.low == pytest.approx(r0.high - r0.low, abs=1e-6)

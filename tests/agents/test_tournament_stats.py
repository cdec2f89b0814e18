"""Tournament statistics against hand-computed small cases."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from hexdojo.agents.ratings import ELO, bradley_terry, odds, strength, wilson
from hexdojo.agents.report import ratings_of, summary, write_report
from hexdojo.agents.tournament import PairStats, TournamentConfig, TournamentResult


def test_wilson_known_values() -> None:
    # textbook values for 95 % (z = 1.96)
    lo, hi = wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert lo == pytest.approx(0.7225, abs=1e-4) and hi == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_strength_as_odds() -> None:
    s = strength(990, 0, 10)
    assert s.rate == pytest.approx(0.99)
    assert s.odds == pytest.approx(99.0)
    lo, hi = wilson(990, 1000)
    assert s.odds_lo == pytest.approx(lo / (1 - lo)) and s.odds_hi == pytest.approx(hi / (1 - hi))
    # draws count as not won
    assert strength(8, 2, 0).rate == pytest.approx(0.8)
    assert odds(1.0) == math.inf


def test_bradley_terry_two_agents_by_hand() -> None:
    """A wins 75 of 100: log-odds ln 3, i.e. 400*log10(3) = 190.85 Elo apart; the standard
    error of the difference is 1/sqrt(n p (1-p)), half of it for each rating."""
    r = bradley_terry(["a", "b"], np.array([[0, 75], [25, 0]]), np.array([[0, 100], [100, 0]]),
                      prior=0)
    assert r.converged
    assert r.elo[0] - r.elo[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert (r.elo[0] + r.elo[1]) / 2 == pytest.approx(1500)
    se_diff = ELO / math.sqrt(100 * 0.75 * 0.25)
    assert r.se[0] == pytest.approx(se_diff / 2, rel=1e-6)
    lo, hi = r.ci(0)
    assert hi - lo == pytest.approx(2 * 1.959964 * se_diff / 2, rel=1e-5)


def test_bradley_terry_three_agents_consistent_data() -> None:
    """Counts that exactly fit strengths 2:1:1/2 give ratings 120.4 Elo apart."""
    score = np.array([[0, 200, 240], [100, 0, 200], [60, 100, 0]])
    games = np.array([[0, 300, 300], [300, 0, 300], [300, 300, 0]])
    r = bradley_terry(list("abc"), score, games, prior=0)
    step = 400 * math.log10(2)
    assert r.elo == pytest.approx((1500 + step, 1500, 1500 - step), abs=1e-6)


def test_draws_count_half_and_prior_keeps_sweeps_finite() -> None:
    # 50 wins, 50 draws of 100 = score 75 -> same as 75 wins
    r1 = bradley_terry(["a", "b"], np.array([[0, 75], [25, 0]]), np.array([[0, 100], [100, 0]]),
                       prior=0)
    assert r1.elo[0] - r1.elo[1] == pytest.approx(400 * math.log10(3))
    # a clean sweep: finite with the default prior (one virtual draw = 100.5 : 0.5)
    r2 = bradley_terry(["a", "b"], np.array([[0, 100], [0, 0]]), np.array([[0, 100], [100, 0]]))
    assert r2.elo[0] - r2.elo[1] == pytest.approx(400 * math.log10(100.5 / 0.5), abs=1e-6)


def _result() -> TournamentResult:
    """Two agents, 10 fights per ordered pair: A (as fighter 0) 7 wins 1 draw 2 losses vs B;
    B (as fighter 0) 3 wins 0 draws 7 losses vs A."""
    cfg = TournamentConfig(("A", "B"), fights=10)
    pairs = {(0, 1): PairStats(7, 1, 2, turns=30, decisions=200),
             (1, 0): PairStats(3, 0, 7, turns=50, decisions=400)}
    usage = {"A": Counter({"Martial Strike": 30, "Soak": 10}), "B": Counter({"Punch": 5})}
    chains = {"A": Counter({"Martial Strike > Martial Strike": 4, "Arm Grab > Martial Throw": 6}),
              "B": Counter()}
    fights = [("A", "B", k, 0, "last standing", 3, 20) for k in range(10)] + \
             [("B", "A", k, 1, "last standing", 5, 40) for k in range(10)]
    return TournamentResult(cfg, ["A", "B"], pairs, usage, chains, fights, 2.0, "rid")


def test_summary_by_hand() -> None:
    s = summary(_result())
    ab = s["matrix"][0][1]
    # A vs B pooled over both sides: wins 7 + 7, draws 1, losses 2 + 3
    assert (ab["wins"], ab["draws"], ab["losses"], ab["n"]) == (14, 1, 5, 20)
    assert ab["score"] == pytest.approx(14.5 / 20)
    assert ab["win_rate"] == pytest.approx(14 / 20)
    lo, hi = wilson(14.5, 20)
    assert (ab["score_lo"], ab["score_hi"]) == (pytest.approx(lo), pytest.approx(hi))
    ba = s["matrix"][1][0]
    assert (ba["wins"], ba["draws"], ba["losses"]) == (5, 1, 14)
    assert s["matrix"][0][0] is None
    a = s["agents"]["A"]
    assert a["fights"] == 20 and a["score"] == pytest.approx(0.725)
    assert a["avg_turns"] == pytest.approx((30 + 50) / 20)
    assert a["avg_decisions"] == pytest.approx((200 + 400) / 20)
    assert a["maneuvers"]["Martial Strike"] == {"count": 30, "per_fight": 1.5, "share": 0.75}
    assert a["top_chains"][0] == ["Arm Grab > Martial Throw", 6]
    assert s["fights"] == 20 and s["fights_per_s"] == 10.0
    assert s["side0_win_rate"] == pytest.approx(0.5)
    # ratings: score 14.5 : 5.5 plus one virtual draw
    r = ratings_of(_result())
    assert r.elo[0] - r.elo[1] == pytest.approx(400 * math.log10(15 / 6), abs=1e-6)
    top = s["ratings"]["table"][0]
    assert top["agent"] == "A" and top["rank"] == 1


def test_matrix_by_side_and_the_side_win_rate_interval_by_hand(tmp_path) -> None:
    """Issue 34: per-side results in the report, matrix.csv and results.json."""
    s = summary(_result())
    ab = s["matrix_by_side"][0][1]
    # A on side 0 vs B: pairs[(0, 1)] = 7 wins, 1 draw, 2 losses; A on side 1: B's (0, 1)
    # record read from A: B won 3, drew 0, lost 7 there, so A 7 wins, 0 draws, 3 losses
    assert (ab["side0"]["wins"], ab["side0"]["draws"], ab["side0"]["losses"]) == (7, 1, 2)
    assert (ab["side1"]["wins"], ab["side1"]["draws"], ab["side1"]["losses"]) == (7, 0, 3)
    assert ab["side0"]["score"] == pytest.approx(7.5 / 10)
    assert s["side0_win_ci"] == pytest.approx(list(wilson(10, 20)))
    paths = write_report(_result(), tmp_path / "r")
    rows = paths["matrix"].read_text().splitlines()
    assert rows[0].endswith(",side") and sum(r.endswith(",both") for r in rows) == 2
    assert "A,B,7,1,2,10,0.7500" in "\n".join(rows)
    html = paths["html"].read_text()
    assert "Score by side" in html and "side 0 (chu) won 50.0%" in html

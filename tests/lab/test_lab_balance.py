"""The balance solver on synthetic responses with known roots, on a non-monotone one, on one
that never reaches the goal, and the `hexdojo balance` command on real fights."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.agents.lab.balance import crossings, solve

SEEDS = 300


def _response(f, sd: float = 0.1):
    """evaluate(values): f(x) plus per-seed noise that is the same at every value (common
    random numbers), and a log of what was asked."""
    noise = np.random.default_rng(7).normal(0.0, sd, SEEDS)
    noise -= noise.mean()  # the mean response is f itself: the root is known exactly
    asked: list[list[float]] = []

    def evaluate(xs):
        asked.append(list(xs))
        return {float(x): f(x) + noise for x in xs}
    return evaluate, asked


def test_crossings_by_hand():
    assert crossings([0, 1, 2, 3], [0.2, 0.4, 0.6, 0.8], 0.5) == [(1, 2)]
    assert crossings([0, 1, 2], [0.6, 0.4, 0.6], 0.5) == [(0, 1), (1, 2)]
    assert crossings([0, 1], [0.6, 0.7], 0.5) == []


def test_known_root_of_a_linear_response():
    """0.1 x reaches 0.5 at x = 5 exactly (the noise is the same at every x, so the fit's
    slope is exact and the bootstrap interval narrow)."""
    evaluate, asked = _response(lambda x: 0.1 * x)
    sol = solve(evaluate, 0, 10, 0.5, integer=False)
    root = sol["root"]
    assert root["estimate"] == pytest.approx(5.0, abs=0.05)
    assert root["low"] <= 5.0 <= root["high"] and root["high"] - root["low"] < 0.5
    assert root["resolved"] and not sol["non_monotone"]
    assert asked[0] == [0.0, 2.5, 5.0, 7.5, 10.0] and len(asked) > 1  # the grid, then bisection


def test_known_root_with_independent_noise():
    """Noise independent across values too: the interval is wider but still holds 4."""
    rng = np.random.default_rng(3)

    def evaluate(xs):
        return {float(x): 0.3 + 0.05 * x + rng.normal(0, 0.2, SEEDS) for x in xs}
    root = solve(evaluate, 0, 10, 0.5, integer=False)["root"]
    assert root["low"] <= 4.0 <= root["high"] and root["resolved"]


def test_integer_key_gives_the_best_integer_and_its_neighbours():
    evaluate, _ = _response(lambda x: 0.3 + 0.045 * x)  # 0.5 at x = 4.44
    sol = solve(evaluate, 0, 12, 0.5, integer=True)
    assert sol["best"]["value"] == 4.0
    assert [p["value"] for p in sol["neighbours"]] == [3.0, 5.0]
    assert sol["best"]["estimate"] == pytest.approx(0.48, abs=0.02)


def test_a_non_monotone_response_is_detected_and_reported():
    """The designer's Martial Strike damage: 4 -> 47.6 %, 5 -> 42.9 %, 8 -> 50.0 %: down
    then up; here a tight version of that shape."""
    table = {3: 0.52, 4: 0.476, 5: 0.429, 6: 0.45, 7: 0.48, 8: 0.50, 9: 0.53}
    evaluate, _ = _response(lambda x: table[int(x)], sd=0.02)
    sol = solve(evaluate, 3, 9, 0.5, integer=True)
    assert sol["non_monotone"] and sol["rises"] and sol["falls"]
    assert [c[0] for c in sol["crossings"]] == [3.0, 8.0]  # down through 50 %, back at 8


def test_a_response_that_never_reaches_the_goal():
    evaluate, _ = _response(lambda x: 0.7 + 0.01 * x)
    sol = solve(evaluate, 0, 10, 0.5, integer=False)
    assert sol["root"] is None and sol["side"] == "above" and sol["best"]["value"] == 0.0


def test_balance_cli_on_fights(tmp_path):
    out = tmp_path / "b"
    r = CliRunner().invoke(app, ["balance", 'maneuvers."Martial Strike".damage=0..4', "counter",
                                 "greedy", "-n", "6", "--steps", "1", "-j", "1", "-o", str(out),
                                 "--no-progress"])
    assert r.exit_code == 0, r.output
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["integer"] and data["fights"] == 6 * 2 * sum(map(len, data["evaluations"]))
    assert (out / "report.html").is_file() and (out / "balance.csv").is_file()
    bad = CliRunner().invoke(app, ["balance", "attack.rear_bonus=0..4", "greedy", "--goal", "120",
                                   "-o", str(tmp_path / "x")])
    assert bad.exit_code == 2 and bad.output.startswith("error: goal: value 120")

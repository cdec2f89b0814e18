"""hexdojo ablate: a ban that must cost an agent, one that must not, how bans are enforced."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.agents.lab.ablate import AblateConfig, run_ablate, verdict
from hexdojo.agents.lab.common import parse_rules, unarmed_maneuvers
from hexdojo.agents.lab.runner import observe_fight
from hexdojo.agents.lab.stats import resolvable
from hexdojo.agents.registry import make_agent
from hexdojo.envs.rules import Game


@pytest.fixture(scope="module")
def striker_values() -> dict:
    cfg = AblateConfig(("striker",), ("striker", "greedy"), ("Martial Kick", "Grapple"),
                       parse_rules(None), n=40, workers=1)
    res, _ = run_ablate(cfg, [make_agent("striker"), make_agent("greedy")], progress=False)
    return {(q["maneuver"], q["side"]): q for q in res["quantities"]}


def test_banning_martial_kick_costs_the_striker(striker_values):
    # the striker opens with Martial Kicks (its decisive blow in most wins)
    q = striker_values[("Martial Kick", "both")]
    assert q["significant"] and q["low"] > 0
    assert q["essential"] and q["worth_at_most"] is None and not q["unresolved"]
    assert q["vetoes_per_fight"] > 0


def test_banning_a_maneuver_the_striker_never_wants_changes_nothing(striker_values):
    # Grapple is never the striker's choice: every restricted fight is the baseline fight
    q = striker_values[("Grapple", "both")]
    assert (q["estimate"], q["low"], q["high"]) == (0.0, 0.0, 0.0)
    assert q["worth_at_most"] == 0.0 and q["never_wanted"] and not q["significant"]


def test_value_is_reported_per_side(striker_values):
    a, b = striker_values[("Martial Kick", "A")], striker_values[("Martial Kick", "B")]
    both = striker_values[("Martial Kick", "both")]
    assert both["estimate"] == pytest.approx((a["estimate"] + b["estimate"]) / 2)
    assert a["fighter"] == b["fighter"] == "chu" and both["fighter"] == "pooled over both sides"


def test_a_banned_maneuver_is_never_played():
    game = Game.create(["chu", "chu"])
    pair = (make_agent("striker"), make_agent("greedy"))
    vetoed = 0
    for seed in range(15):
        f, _ = observe_fight(game, pair, ("x", 0, 0, 1, seed), (("Martial Kick",), ()))
        assert f.sides[0].uses["Martial Kick"] == 0
        vetoed += f.sides[0].vetoes
    assert vetoed > 0  # the ban did step in


def test_default_maneuvers_are_the_24_unarmed_ones():
    ms = unarmed_maneuvers(parse_rules(None))
    assert len(ms) == 24 and "Martial Strike" in ms and "Parry" not in ms


def test_ablate_cli_writes_the_ranked_table(tmp_path):
    out = tmp_path / "abl"
    r = CliRunner().invoke(app, ["ablate", "striker", "--field", "greedy", "--maneuvers",
                                 "Martial Kick,Turn", "-n", "8", "-j", "1", "-o", str(out),
                                 "--no-progress"])
    assert r.exit_code == 0, r.output
    data = json.loads((out / "results.json").read_text())
    assert {q["maneuver"] for q in data["quantities"]} == {"Martial Kick", "Turn"}
    for q in data["quantities"]:
        assert {"estimate", "low", "high", "significant", "worth_at_most", "unresolved",
                "essential"} <= set(q)
    text = (out / "report.html").read_text()
    assert "never worth it" not in text and "worth at most 2 points (95 %)" in text
    assert "score unrestricted / banned %" in text
    assert (out / "ablate.csv").is_file() and (out / "replay.html").is_file()


def test_unknown_maneuver_is_one_line(tmp_path):
    r = CliRunner().invoke(app, ["ablate", "striker", "--maneuvers", "Fireball", "-o",
                                 str(tmp_path / "x"), "--no-progress"])
    assert r.exit_code == 2
    assert r.output.strip().startswith("error: maneuvers: value 'Fireball'") and \
        len(r.output.strip().splitlines()) == 1


def _value(est: float, low: float, high: float, n: int = 40) -> dict:
    q = {"estimate": est, "low": low, "high": high, "n_seeds": n, "significant": False,
         "vetoes_per_fight": 0.5}
    verdict(q, essential=0.10, negligible=0.02)
    return q


def test_worth_at_most_only_below_the_threshold_else_unresolved():
    """Move +17.7 [-0.5, +36.0] is not "never worth it": it is unresolved at this n."""
    small = _value(0.004, -0.008, 0.016)
    assert small["worth_at_most"] == pytest.approx(0.016) and not small["unresolved"]
    wide = _value(0.177, -0.005, 0.360)
    assert wide["worth_at_most"] is None and wide["unresolved"]
    # the estimate is above 2 points: seeds to show it above 0, 40 * (18.3 / 17.7)^2
    assert wide["seeds_to_resolve"] == 43
    # estimate 0 +- 3 points: seeds to bring the upper bound under 2, 40 * (3 / 2)^2
    assert _value(0.0, -0.03, 0.03)["seeds_to_resolve"] == 90
    below = _value(-0.01, -0.05, -0.002)  # helps when banned, not significant: no verdict
    assert below["worth_at_most"] == 0.0 and not below["unresolved"]


def test_the_threshold_is_the_designers(tmp_path):
    q = {"estimate": 0.01, "low": -0.01, "high": 0.03, "n_seeds": 10, "significant": False,
         "vetoes_per_fight": 1.0}
    verdict(q, 0.10, 0.05)
    assert q["worth_at_most"] == pytest.approx(0.03)
    verdict(q, 0.10, 0.02)
    assert q["worth_at_most"] is None and q["unresolved"]
    out = tmp_path / "abl"
    r = CliRunner().invoke(app, ["ablate", "striker", "--field", "greedy", "--maneuvers", "Turn",
                                 "--negligible", "60", "-n", "3", "-j", "1", "-o", str(out),
                                 "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "worth at most 60 points (95 %)" in r.output
    r = CliRunner().invoke(app, ["ablate", "striker", "--negligible", "-1", "-o", str(out)])
    assert r.exit_code == 2 and r.output.startswith("error: negligible: value -1")


def test_planned_precision_holds_for_each_side():
    """-n from --precision is sized for one side's value (the widest reported)."""
    cfg = AblateConfig(("striker",), ("greedy", "counter"), ("Turn",), parse_rules(None),
                       precision=0.05)
    assert resolvable(cfg.seeds(), cfg.per_side()) <= 0.05
    assert resolvable(cfg.seeds(), 2 * cfg.per_side()) < 0.05 / 1.4  # the pooled is narrower

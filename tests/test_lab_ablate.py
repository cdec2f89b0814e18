"""hexdojo ablate: a ban that must cost an agent, one that must not, how bans are enforced."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.agents.lab.ablate import AblateConfig, run_ablate
from hexdojo.agents.lab.common import parse_rules, unarmed_maneuvers
from hexdojo.agents.lab.runner import observe_fight
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
    assert q["essential"] and not q["never_worth_it"]
    assert q["vetoes_per_fight"] > 0


def test_banning_a_maneuver_the_striker_never_wants_changes_nothing(striker_values):
    # Grapple is never the striker's choice: every restricted fight is the baseline fight
    q = striker_values[("Grapple", "both")]
    assert (q["estimate"], q["low"], q["high"]) == (0.0, 0.0, 0.0)
    assert q["never_worth_it"] and q["never_wanted"] and not q["significant"]


def test_value_is_reported_per_side(striker_values):
    a, b = striker_values[("Martial Kick", "A")], striker_values[("Martial Kick", "B")]
    both = striker_values[("Martial Kick", "both")]
    assert both["estimate"] == pytest.approx((a["estimate"] + b["estimate"]) / 2)
    assert a["fighter"] == b["fighter"] == "chu"


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
        assert {"estimate", "low", "high", "significant", "never_worth_it", "essential"} <= set(q)
    assert "never worth it" in (out / "report.html").read_text()
    assert (out / "ablate.csv").is_file() and (out / "replay.html").is_file()


def test_unknown_maneuver_is_one_line(tmp_path):
    r = CliRunner().invoke(app, ["ablate", "striker", "--maneuvers", "Fireball", "-o",
                                 str(tmp_path / "x"), "--no-progress"])
    assert r.exit_code == 2
    assert r.output.strip().startswith("error: maneuvers: value 'Fireball'") and \
        len(r.output.strip().splitlines()) == 1

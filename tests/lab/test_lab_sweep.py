"""hexdojo sweep: the values, the keys, common random numbers, a knob that must matter,
a group scene, and the files."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.agents.lab.common import parse_rules
from hexdojo.agents.lab.sweep import SweepConfig, make_plan, parse_sweep, parse_values, run_sweep
from hexdojo.agents.registry import make_agent

STRIKE = 'maneuvers."Martial Strike".damage'


def test_values_by_hand():
    assert parse_values("0..4:2") == (0, 2, 4)
    assert parse_values("1..3") == (1, 2, 3)
    assert parse_values("1,2,5") == (1, 2, 5)
    assert parse_values("0.5..1.5:0.5") == (0.5, 1.0, 1.5)
    for bad in ("3..1", "1", "a..b", "0..1:0", "0..500"):
        with pytest.raises(ValueError, match="sweep: value"):
            parse_values(bad)


def test_keys_are_rules_or_a_fighter_field():
    k = parse_sweep("boris.skills.Martial Arts=0..3")
    assert (k.kind, k.fighter, k.path, k.values) == ("fighter", "boris", ("skills", "Martial Arts"),
                                                     (0, 1, 2, 3))
    k = parse_sweep(f"{STRIKE}=2..6:2")
    assert (k.kind, k.path, k.values) == ("rules", (STRIKE,), (2, 4, 6))
    with pytest.raises(ValueError, match="expected KEY=a..b"):
        parse_sweep("attack.rear_bonus")


def test_a_fighter_field_changes_that_fighter_only():
    cfg = SweepConfig(parse_sweep("boris.skills.Martial Arts=0..2"), ("greedy", "striker"),
                      parse_rules(None), ("chu", "boris"))
    plan = make_plan(cfg, [])
    for v in range(3):
        chu, boris = plan.game(0, v).profiles
        assert boris.skills["Martial Arts"] == 2 * v  # profiles keep half-points (h2)
        assert chu.skills["Martial Arts"] == plan.game(0, 0).profiles[0].skills["Martial Arts"]


def _sweep(key: str, names: tuple[str, ...], n: int) -> dict:
    cfg = SweepConfig(parse_sweep(key), names, parse_rules(None), n=n)
    res, _ = run_sweep(cfg, [make_agent(a) for a in names], progress=False)
    return res


def test_the_same_value_twice_is_the_same_fights():
    """Common random numbers: every value plays the same seeds, so a repeated value's change
    is exactly 0 on every side."""
    res = _sweep("attack.rear_bonus=2,2", ("greedy", "counter"), 6)
    assert all((q["estimate"], q["low"], q["high"]) == (0, 0, 0) for q in res["changes"])


def test_harmless_martial_strike_costs_the_counter_fighter():
    res = _sweep(f"{STRIKE}=0,5", ("greedy", "counter", "striker"), 30)
    q = next(q for q in res["changes"] if (q["agent"], q["side"]) == ("counter", "both"))
    assert q["value"] == 5 and q["significant"] and q["low"] > 0  # the shipped 5: counter gains
    pts = [p for p in res["points"] if p["agent"] == "counter" and p["side"] == "A"]
    assert [p["value"] for p in pts] == [0, 5] and all(p["low"] <= p["estimate"] <= p["high"]
                                                       for p in pts)


def test_sweep_cli_on_a_three_fighter_scene(tmp_path):
    out = tmp_path / "s"
    r = CliRunner().invoke(app, ["sweep", "attack.rear_bonus=0..2:2", "greedy", "striker",
                                 "--scene", "two_vs_one", "-n", "2", "-j", "1", "-o", str(out),
                                 "--no-progress"])
    assert r.exit_code == 0, r.output
    data = json.loads((out / "results.json").read_text())
    assert data["fights"] == 2 * 2 * 2 and data["config"]["values"] == [0, 2]
    assert {p["side"] for p in data["points"]} == {"A", "B", "both"}
    html = (out / "report.html").read_text()
    assert "side A (hero (Chu))" in html and 'alt="score against value"' in html
    assert (out / "sweep.csv").is_file() and (out / "replay.html").is_file()


@pytest.mark.parametrize("args, needle", [
    (["attack.nope=0..2", "greedy", "striker"], "attack.nope"),
    (["boris.skills.Combat=0..2", "greedy", "striker"], "boris is not in the pairing"),
    (["boris.skills.Combat=0..2", "greedy", "striker", "--scene", "two_vs_one"], "a fighter field"),
    (["attack.rear_bonus=0..2", "greedy"], "at least two"),
])
def test_bad_input_is_one_line(tmp_path, args, needle):
    r = CliRunner().invoke(app, ["sweep", *args, "-o", str(tmp_path / "x")])
    assert r.exit_code == 2 and r.output.startswith("error: ") and needle in r.output
    assert r.output.count("\n") == 1

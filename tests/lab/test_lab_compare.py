"""hexdojo compare: a rule change that must matter, one that must not, determinism, files."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.agents.lab.common import parse_rules
from hexdojo.agents.lab.compare import CompareConfig, run_compare
from hexdojo.agents.registry import make_agent

NAMES = ("greedy", "striker", "counter")
NO_STRIKE_DAMAGE = 'maneuvers."Martial Strike".damage=0'


def _run(rules_b: str, n: int = 40, workers: int = 1) -> dict:
    cfg = CompareConfig(NAMES, parse_rules("default"), parse_rules(rules_b), n=n, workers=workers)
    res, _ = run_compare(cfg, [make_agent(a) for a in NAMES], progress=False)
    return res


def _q(res: dict, what: str, name: str, side: str = "both") -> dict:
    return next(q for q in res["quantities"] if (q["what"], q["name"], q["side"]) == (what, name, side))


@pytest.fixture(scope="module")
def strike_harmless() -> dict:
    return _run(NO_STRIKE_DAMAGE)


def test_null_comparison_moves_nothing():
    res = _run("attack.rear_bonus=2", n=20)  # the shipped value: the same rule set
    assert res["identical_rules"]
    assert res["quantities"], "quantities must be reported even when nothing moves"
    for q in res["quantities"]:
        assert (q["estimate"], q["low"], q["high"]) == (0.0, 0.0, 0.0), q
        assert q["significant"] is False


def test_harmless_martial_strike_costs_the_counter_fighter(strike_harmless):
    # counter punishes with Martial Strike follow-ons (§3); a strike that deals no damage
    # must cost it score, and the field must strike less
    q = _q(strike_harmless, "agent", "counter")
    assert q["significant"] and q["high"] < 0
    use = _q(strike_harmless, "use", "Martial Strike")
    assert use["significant"] and use["estimate"] < 0
    assert strike_harmless["config"]["rules_b"]["id"] != strike_harmless["config"]["rules_a"]["id"]


def test_every_quantity_has_the_fields_other_tools_read(strike_harmless):
    for q in strike_harmless["quantities"]:
        for k in ("estimate", "low", "high", "significant", "p", "n_fights", "side", "fighters"):
            assert k in q, k
        assert q["low"] <= q["estimate"] <= q["high"]
    sides = {q["side"] for q in strike_harmless["quantities"] if q["what"] == "agent"}
    assert sides == {"A", "B", "both"}


def test_sides_are_reported_apart_and_pooled(strike_harmless):
    both, a, b = (_q(strike_harmless, "agent", "counter", s) for s in ("both", "A", "B"))
    assert both["estimate"] == pytest.approx((a["estimate"] + b["estimate"]) / 2)


def test_same_report_for_any_worker_count():
    one = _run(NO_STRIKE_DAMAGE, n=12, workers=1)
    two = _run(NO_STRIKE_DAMAGE, n=12, workers=2)
    assert one["quantities"] == two["quantities"]


def test_precision_sets_the_number_of_seeds():
    cfg = CompareConfig(NAMES, parse_rules(None), parse_rules(None), precision=0.05)
    # 0.5 * (1.96 / 0.05)^2 = 768.3 fights per agent and side, 2 per seed (one per opponent):
    # planned for one side's score, the widest reported (issue 34)
    assert cfg.seeds() == 385


@pytest.mark.slow
def test_compare_cli_writes_json_csv_html_and_replays(tmp_path):
    out = tmp_path / "cmp"
    r = CliRunner().invoke(app, ["compare", "greedy", "striker", "--rules-b", NO_STRIKE_DAMAGE,
                                 "-n", "10", "-j", "1", "-o", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "fights in" in r.output and "report:" in r.output
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["rules_b"]["label"] == NO_STRIKE_DAMAGE
    assert data["headlines"][0].startswith("shipped rules -> " + NO_STRIKE_DAMAGE)
    assert (out / "compare.csv").read_text().startswith("fighters,family,what,name,side,a,b,")
    html = (out / "report.html").read_text()
    assert 'href="replay.html#0"' in html and "data:image/png;base64," in html
    assert '<script id="fights"' in (out / "replay.html").read_text()


@pytest.mark.parametrize("args, needle", [
    (["--rules-b", "attack.rear_bonus=banana"], "rear_bonus"),
    (["--rules-b", "no_such_file.toml"], "no_such_file.toml"),
    (["--precision", "0"], "precision"),
    (["--correction", "bonferroni"], "correction"),
    (["--fighters", "chu,nobody"], "nobody"),
])
def test_bad_input_is_one_line(tmp_path, args, needle):
    r = CliRunner().invoke(app, ["compare", "greedy", "striker", "-o", str(tmp_path / "x"),
                                 "--no-progress", *args])
    assert r.exit_code == 2
    lines = [x for x in r.output.strip().splitlines() if x]
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], r.output


@pytest.mark.slow
def test_each_fighter_pairing_gets_its_own_quantities_and_headline(tmp_path):
    out = tmp_path / "two"
    r = CliRunner().invoke(app, ["compare", "greedy", "counter", "--fighters", "chu,chu",
                                 "--fighters", "chu,urlik", "-n", "6", "-j", "1", "-o", str(out),
                                 "--no-progress"])
    assert r.exit_code == 0, r.output
    data = json.loads((out / "results.json").read_text())
    assert {q["fighters"] for q in data["quantities"]} == {"chu (A) vs chu (B)",
                                                           "chu (A) vs urlik (B)"}
    # the asymmetric pairing answers per side (A, B), then what else moves; the mirror pooled
    assert sum("[chu (A) vs urlik (B)]" in h for h in data["headlines"]) == 3


@pytest.mark.slow
def test_same_report_whatever_the_hash_seed(tmp_path):
    import os
    import subprocess
    import sys

    out = {}
    for h in ("1", "2"):
        d = tmp_path / h
        subprocess.run([sys.executable, "-m", "hexdojo.agents.cli", "compare", "greedy", "counter",
                        "--rules-b", NO_STRIKE_DAMAGE, "-n", "6", "-j", "2", "-o", str(d),
                        "--no-progress"], check=True, capture_output=True,
                       env={**os.environ, "PYTHONHASHSEED": h})
        data = json.loads((d / "results.json").read_text())
        out[h] = {k: data[k] for k in ("quantities", "tactics", "metagame", "headlines")}
    assert out["1"] == out["2"]

"""Group scenes (three and four fighters) through every lab command (issue 34, defect 1).

A scene's side may hold several fighters, all played by the side's agent; the report's
example fights and the replay viewer must ask that agent for each of them (the crash was an
``IndexError`` after every fight was played)."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.agents.lab.common import parse_rules
from hexdojo.agents.lab.replay_html import record
from hexdojo.agents.registry import make_agent
from hexdojo.envs.rules import Game

SCENES = ("two_vs_one", "two_vs_two")


def _ok(args: list[str]) -> str:
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.slow
@pytest.mark.parametrize("scene", SCENES)
def test_compare_on_a_group_scene(tmp_path, scene):
    out = tmp_path / "c"
    _ok(["compare", "greedy", "striker", "--scene", scene, "-n", "2", "-j", "1", "-o", str(out),
         "--no-progress"])
    data = json.loads((out / "results.json").read_text())
    assert data["fights"] == 2 * 2 * 2  # two rule sets, two ordered pairings, two seeds
    assert (out / "report.html").is_file() and (out / "replay.html").is_file()


@pytest.mark.parametrize("scene", SCENES)
def test_ablate_on_a_group_scene(tmp_path, scene):
    out = tmp_path / "a"
    _ok(["ablate", "greedy", "--field", "counter", "--maneuvers", "Martial Kick", "--scene",
         scene, "-n", "2", "-j", "1", "-o", str(out), "--no-progress"])
    data = json.loads((out / "results.json").read_text())
    assert {q["maneuver"] for q in data["quantities"]} == {"Martial Kick"}
    html = (out / "report.html").read_text()
    assert "side A = " in html and "scene:" not in html  # the sides by name, not "scene:x"


@pytest.mark.slow
@pytest.mark.parametrize("scene", SCENES)
def test_tactics_of_a_group_scene_tournament(tmp_path, scene):
    out = tmp_path / "t"
    _ok(["tournament", "greedy", "striker", "--scene", scene, "-n", "2", "-j", "1", "-o",
         str(out), "--no-progress"])
    data = json.loads((out / "tactics" / "results.json").read_text())
    assert data["fights"] == 4
    assert data["config"]["fighters"] == [[f"scene:{scene}", f"scene:{scene}"]]


def test_replay_viewer_shows_every_fighter_of_a_scene():
    game = Game.from_scene("two_vs_one")
    rec = record(game, (make_agent("greedy"), make_agent("striker")), 3, title="2v1")
    assert all(len(fr["fighters"]) == 3 for fr in rec["frames"])
    movers = {fr["what"].split(" (")[0] for fr in rec["frames"][1:]}
    assert len(movers) == 3  # every fighter chose something, each by its side's agent


@pytest.mark.slow
def test_scene_tournament_tactics_analyse_its_own_fights(tmp_path):
    """Defect 2: a scene tournament's tactics re-play the scene's fights, not a Chu mirror,
    and the header names the sides; `hexdojo tactics` again gives the same tactics."""
    out = tmp_path / "t"
    _ok(["tournament", "greedy", "counter", "--scene", "monk_vs_guard", "-n", "3", "-j", "1",
         "-o", str(out), "--no-progress"])
    tac = json.loads((out / "tactics" / "results.json").read_text())
    html = (out / "tactics" / "report.html").read_text()
    assert "chu is side A" not in html and "side A = " in html and "monk_vs_guard" in html
    labels = {g["fighter"] for g in tac["tactics"]["groups"]} - {"all"}
    assert labels and not any("chu" == lab.split(" as ")[0] for lab in labels)
    _ok(["tactics", str(out), "-o", str(tmp_path / "again"), "-j", "1", "--no-progress"])
    again = json.loads((tmp_path / "again" / "results.json").read_text())
    assert again["tactics"] == tac["tactics"]


@pytest.mark.slow
def test_tactics_rebuilds_a_plugin_agent_from_the_results(tmp_path):
    """Defect 6: the docs' Kicker is re-built from the spec the tournament recorded."""
    out = tmp_path / "t"
    _ok(["tournament", "docs/examples/my_agent.py:Kicker", "greedy", "-n", "3", "-j", "1",
         "-o", str(out), "--no-progress", "--no-tactics"])
    conf = json.loads((out / "results.json").read_text())["config"]
    assert conf["agent_specs"][0].endswith("docs/examples/my_agent.py:Kicker")
    _ok(["tactics", str(out), "-j", "1", "--no-progress"])
    data = json.loads((out / "tactics" / "results.json").read_text())
    assert data["fights"] == 6 and data["config"]["agents"] == conf["agents"]


@pytest.mark.slow
def test_tournament_takes_inline_rules_and_tactics_replays_them(tmp_path):
    out = tmp_path / "t"
    _ok(["tournament", "greedy", "striker", "--rules", "attack.rear_bonus=8", "-n", "2", "-j",
         "1", "-o", str(out), "--no-progress"])
    conf = json.loads((out / "results.json").read_text())["config"]
    assert conf["rules"] == "attack.rear_bonus=8"
    assert conf["rules_id"] == parse_rules("attack.rear_bonus=8").id != parse_rules(None).id
    tac = json.loads((out / "tactics" / "results.json").read_text())
    assert tac["config"]["rules_id"] == conf["rules_id"]
    bad = CliRunner().invoke(app, ["tournament", "greedy", "striker", "--rules", "attack.nope=1",
                                   "-o", str(tmp_path / "x")])
    assert bad.exit_code == 2 and bad.output.startswith("error: ") and "attack.nope" in bad.output


@pytest.mark.parametrize("args", [["compare", "greedy", "striker"], ["ablate", "greedy"],
                                  ["tactics", "nowhere"], ["tournament", "greedy", "striker"]])
def test_a_missing_lab_extra_is_one_line_before_any_fight(tmp_path, monkeypatch, args):
    monkeypatch.setitem(sys.modules, "nashpy", None)  # as Python's imports read a missing one
    r = CliRunner().invoke(app, [*args, "-o", str(tmp_path / "x")])
    assert r.exit_code == 2, r.output
    assert r.output.count("\n") == 1 and r.output.startswith("error: lab: ")
    assert "nashpy" in r.output and '.[lab]' in r.output
    assert not (tmp_path / "x").exists()

"""Tactics mined from fights (hand-made fights), decisive blows, the tactics command."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.agents.lab.replay_html import record
from hexdojo.agents.lab.runner import Fight, Side, observe_fight
from hexdojo.agents.lab.tactics import mine
from hexdojo.agents.registry import make_agent
from hexdojo.envs.rules import Game

CHAIN = "Martial Strike > Arm Grab"


def _fight(seed: int, winner: int | None, chain_side0: bool) -> Fight:
    s0 = Side(uses=Counter({"Martial Strike": 2, "Arm Grab": 1}),
              chains=[(CHAIN, 1), (CHAIN, 0)] if chain_side0 else [])
    s1 = Side(uses=Counter({"Punch": 1}))
    return Fight(("T", 0, 0, 1, seed), winner, "", 3, (s0, s1),
                 (0, "Martial Strike") if winner == 0 else (1, "Punch"),
                 "Martial Strike" if winner == 0 else ("Punch" if winner == 1 else None))


def test_chain_frequency_among_winners_and_losers_and_lift():
    # agent x (side 0): 60 fights with the chain, 48 won; 60 without, 18 won
    # (n·p·(1-p) = 9.6 and 12.6: enough to be flagged)
    fights = [_fight(k, 0 if k < 48 else 1, True) for k in range(60)]
    fights += [_fight(60 + k, 0 if k < 18 else 1, False) for k in range(60)]
    tac = mine(fights, ["x", "y"], [("chu", "chu")], alert_lift=0.2)
    g = next(g for g in tac["groups"] if (g["agent"], g["fighter"]) == ("x", "all"))
    row = next(r for r in g["tactics"] if r["name"] == CHAIN)
    assert row["fights"] == 60 and row["uses"] == 120
    assert row["among_winners"]["estimate"] == pytest.approx(48 / 66)
    assert row["among_losers"]["estimate"] == pytest.approx(12 / 54)
    assert row["lift"]["estimate"] == pytest.approx(48 / 60 - 18 / 60)
    assert row["lift"]["low"] > 0 and row["lift"]["significant"]
    assert row["success"]["estimate"] == pytest.approx(0.5)  # one of its two uses wounded
    assert row["wounds_per_use"]["estimate"] == pytest.approx(0.5)
    assert g["decisive_blow"][0]["maneuver"] == "Martial Strike"
    assert g["decisive_blow"][0]["count"] == 66
    # across the field (only x uses it) the stratified lift is x's own
    alert = [a for a in tac["alerts"] if a["name"] == CHAIN and a["agent"] == "*"]
    assert alert and alert[0]["estimate"] == pytest.approx(0.5)


def test_no_alert_when_the_chain_does_not_matter():
    fights = [_fight(k, k % 2, k < 60) for k in range(120)]  # wins alternate either way
    tac = mine(fights, ["x", "y"], [("chu", "chu")])
    assert not [a for a in tac["alerts"] if a["what"] == "chain"]


def test_decisive_blow_is_the_winners_last_wound():
    game = Game.create(["chu", "chu"])
    pair = (make_agent("striker"), make_agent("counter"))
    checked = 0
    for seed in range(12):
        f, state = observe_fight(game, pair, ("T", 0, 0, 1, seed))
        wounds = [e for e in state.events if e["type"] == "damage" and e.get("kind") == "attack"
                  and e.get("wound") not in ("None", None) and e.get("a") == f.winner]
        if f.winner is not None and wounds:
            assert f.decisive == wounds[-1]["maneuver"]
            checked += 1
        firsts = [e for e in state.events if e["type"] == "damage" and e.get("kind") == "attack"
                  and e.get("wound") not in ("None", None)]
        if firsts:
            assert f.first_wound == (firsts[0]["a"], firsts[0]["maneuver"])
    assert checked >= 5


def test_replay_viewer_replays_the_measured_fight():
    game = Game.create(["chu", "urlik"])
    pair = (make_agent("greedy"), make_agent("striker"))
    f, state = observe_fight(game, pair, ("T", 0, 0, 1, 5), ((), ("Martial Kick",)))
    rec = record(game, pair, 5, ((), ("Martial Kick",)), "t")
    assert rec["winner"] == f.winner
    events = [e for fr in rec["frames"] for e in fr["events"]]
    assert events == state.render_log()
    assert all(len(fr["fighters"]) == 2 for fr in rec["frames"])


@pytest.mark.slow
def test_tactics_command_on_a_tournament(tmp_path):
    out = tmp_path / "t"
    run = CliRunner().invoke
    r = run(app, ["tournament", "greedy", "striker", "counter", "-n", "6", "-j", "1", "-o", str(out),
                  "--no-progress"])
    assert r.exit_code == 0, r.output
    assert (out / "tactics" / "report.html").is_file()  # every tournament mines its tactics
    r = run(app, ["tactics", str(out), "-o", str(tmp_path / "tac"), "-j", "1", "--no-progress"])
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "tac" / "results.json").read_text())
    assert data["fights"] == 36
    assert {g["agent"] for g in data["tactics"]["groups"]} == {"greedy", "striker", "counter", "*"}
    assert len(data["metagame"]["agents"]) == 3
    same = json.loads((out / "tactics" / "results.json").read_text())
    assert same["tactics"] == data["tactics"]  # re-played fights are the same fights


def test_tactics_of_a_missing_folder_is_one_line(tmp_path):
    r = CliRunner().invoke(app, ["tactics", str(tmp_path / "nope")])
    assert r.exit_code == 2 and r.output.startswith("error: results:")

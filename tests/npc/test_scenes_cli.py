"""Scenes from the command line and in tournaments (issue 18): every command that sets up
a fight takes --scene; tournaments pit one agent per side; the report says who played
which side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hexdojo.agents.registry import make_agent
from hexdojo.agents.tournament import TournamentConfig, play_fight, run_tournament
from hexdojo.envs.rules import Game

RUN = CliRunner()


def test_a_side_with_two_fighters_is_played_by_one_agent():
    """In two_vs_one the second agent plays both guards: every decision of fighters 1 and
    2 goes to it, and the winner is a side."""
    game = Game.from_scene("two_vs_one")

    class Spy:
        def __init__(self, inner):
            self.inner, self.fighters, self.name = inner, set(), inner.name

        def reset(self, seed):
            self.inner.reset(seed)

        def act(self, state):
            self.fighters.add(state.decision.fighter)
            return self.inner.act(state)

    a, b = Spy(make_agent("greedy")), Spy(make_agent("striker"))
    rec = play_fight(game, (a, b), 3)
    assert a.fighters == {0} and b.fighters <= {1, 2} and len(b.fighters) == 2
    assert rec.winner in (None, 0, 1)


def test_tournament_over_a_scene_names_the_sides(tmp_path: Path):
    cfg = TournamentConfig(("greedy", "striker"), fights=6, scene="two_vs_one", workers=1)
    res = run_tournament(cfg)
    assert res.sides == [("hero", ["Chu"]), ("guards", ["Boris", "Novice"])]
    assert sum(p.n for p in res.pairs.values()) == 12
    r = RUN.invoke(_app(), ["tournament", "greedy", "striker", "-n", "4", "--scene", "two_vs_one",
                            "-o", str(tmp_path / "t"), "--no-tactics", "--workers", "1"])
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "t" / "results.json").read_text())
    assert data["config"]["scene"] == "two_vs_one"
    assert data["config"]["sides"][1] == {"side": 1, "name": "guards", "fighters": ["Boris", "Novice"]}
    html = (tmp_path / "t" / "report.html").read_text()
    assert "side 0 hero: Chu; side 1 guards: Boris, Novice" in html


def test_a_tournament_needs_a_two_side_scene():
    sc = {"name": "ffa", "fighters": [{"fighter": "chu"}, {"fighter": "boris"}, {"fighter": "novice"}]}
    r = RUN.invoke(_app(), ["demo", "--scene", "x.toml"])
    assert r.exit_code == 2 and r.output.count("\n") == 1
    try:
        TournamentConfig(("greedy", "striker"), scene=sc).game()  # type: ignore[arg-type]
    except ValueError as exc:
        assert "this scene has 3 sides" in str(exc)
    else:
        raise AssertionError("a three-side scene was accepted")


def test_demo_and_replay_of_a_scene(tmp_path: Path):
    out = tmp_path / "f.json"
    r = RUN.invoke(_app(), ["demo", "--scene", "ambush", "--agents", "greedy,striker", "--seed", "4",
                            "--save", str(out)])
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == "greedy plays ambushed (Boris); striker plays ambusher (Chu)"
    assert json.loads(out.read_text())["scene"] == "ambush"
    rep = RUN.invoke(_app(), ["replay", str(out), "--no-pause"])
    assert rep.exit_code == 0 and ("wins" in rep.output or "Draw" in rep.output)


@pytest.mark.slow
def test_compare_over_a_scene(tmp_path: Path):
    r = RUN.invoke(_app(), ["compare", "greedy", "striker", "--scene", "ambush", "-n", "6",
                            "--workers", "1", "-o", str(tmp_path / "c"), "--no-progress"])
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "c" / "results.json").read_text())
    assert "scene ambush (side 0 vs side 1)" in json.dumps(data)


def _app():
    from hexdojo.agents.cli import app

    return app

"""Training an NPC for a scene (issue 18): `hexdojo train --scene` learns one place on
hexdojo/Skirmish-v0 with the pool playing the others; the checkpoint then plays that
scene's sides in tournaments, and is refused in one line where its spaces do not fit."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from typer.testing import CliRunner  # noqa: E402

from hexdojo.agents.cli import app  # noqa: E402
from hexdojo.agents.policy import LearnedAgent  # noqa: E402
from hexdojo.agents.registry import make_agent  # noqa: E402
from hexdojo.agents.tournament import play_fight  # noqa: E402
from hexdojo.envs.rules import Game  # noqa: E402

pytestmark = pytest.mark.slow  # docs/development.md, the fast subset


@pytest.fixture(scope="module")
def npc(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("scene") / "run"
    cfg = out.parent / "cfg.toml"
    cfg.write_text('[eval]\nevery = 1024\nepisodes = 2\nopponents = ["random"]\n'
                   '[pool]\nscripted = ["random", "greedy"]\n')
    r = CliRunner().invoke(app, ["train", "--scene", "two_vs_one", "--steps", "2048", "--n-envs", "2",
                                 "-c", str(cfg), "-o", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    return out


def test_a_scene_npc_plays_its_scene_with_no_illegal_choice(npc: Path):
    rows = (npc / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("steps") and len(rows) >= 2  # evaluated on the scene's sides
    agent = LearnedAgent.load(npc / "npc.zip")
    game = Game.from_scene("two_vs_one")
    for seed in range(3):
        for pair in ((agent, make_agent("greedy")), (make_agent("greedy"), agent)):
            play_fight(game, pair, seed)  # raises on an illegal choice
    assert agent.illegal == 0


def test_a_scene_npc_is_refused_in_a_duel(npc: Path):
    agent = LearnedAgent.load(npc / "npc.zip")
    state = Game.create(["chu", "boris"]).new_state(0)
    with pytest.raises(Exception) as err:
        agent.act(state)
    assert "another scene or group size" in str(err.value)


def test_a_place_outside_the_scene_is_one_clear_line(tmp_path: Path):
    cfg = tmp_path / "c.toml"
    cfg.write_text("place = 5\n")
    r = CliRunner().invoke(app, ["train", "--scene", "two_vs_one", "--steps", "64", "-c", str(cfg),
                                 "-o", str(tmp_path / "r"), "--no-progress"])
    assert r.exit_code == 2
    assert r.output.strip().splitlines() == [
        "error: place: value 5: the scene 'two_vs_one' has places 0..2"]
    assert not (tmp_path / "r").exists()  # nothing written: the corrected command just runs

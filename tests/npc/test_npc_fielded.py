"""Issue 33, part 0: a trained NPC fielded as a GM would (an own fighter file, an armed
opponent, a house rule, one side only, levels by name): a level carries its run's
fighters, side and rules in every command, the NPC's rules are applied (an explicit
``--rules`` keeps its fighters), training evaluates the trained side only, and a training
TOML's relative paths resolve from its own folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("sb3_contrib")

from hexdojo.agents.cli import app  # noqa: E402
from hexdojo.agents.policy import LearnedAgent  # noqa: E402
from hexdojo.agents.registry import make_agent  # noqa: E402
from hexdojo.agents.tournament import play_fight  # noqa: E402
from hexdojo.agents.training.callbacks import EVAL_SEED  # noqa: E402
from hexdojo.agents.training.config import load_config  # noqa: E402
from hexdojo.agents.training.evaluate import evaluate, evaluate_sides  # noqa: E402
from hexdojo.agents.training.ppo import train  # noqa: E402
from hexdojo.agents.training.rundir import mean_rate, read_eval  # noqa: E402
from hexdojo.envs.rules import Game  # noqa: E402

PRESETS = Path(__file__).resolve().parents[2] / "envs" / "rules" / "fighters"
#: a tiny one-sided run: Chu against the GM's armed bandit (a copy of the guard), house rule
CONFIG = """\
total_steps = 512
n_envs = 1
turn_limit = 6
checkpoint_every = 512
fighters = ["chu", "bandit.toml"]
side = "1"
rules = "house.toml"
[ppo]
n_steps = 256
batch_size = 128
n_epochs = 1
net_arch = [16]
[imitation]
fights = 0
[pool]
scripted = ["random"]
self_play = false
[eval]
every = 256
episodes = 4
opponents = ["random"]
"""
HOUSE = "[knockback]\nknocked_over_min_fail = 9\n"


def run(*args: str):
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def npc(tmp_path_factory) -> Path:
    """The run, trained from its TOML while the working directory is elsewhere, with
    levels written by hand: a policy inside a search (no ``path`` of its own), a scripted
    candidate and the policy at a temperature."""
    base = tmp_path_factory.mktemp("fielded")
    gm = base / "gm"
    gm.mkdir()
    (gm / "train.toml").write_text(CONFIG)
    (gm / "house.toml").write_text(HOUSE)
    shutil.copy(PRESETS / "guard.toml", gm / "bandit.toml")
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(elsewhere)  # the TOML's relative paths must not depend on this
        train(load_config(Path("../gm/train.toml")), base / "npc", progress=False)
    levels = [{"name": "easy", "agent": "npc.zip", "options": {"temperature": 1.0}},
              {"name": "fair", "agent": "random", "options": {}},
              {"name": "master", "agent": "npc.zip", "options": {"search": 4}}]
    (base / "npc" / "levels.json").write_text(json.dumps(
        {"format": "hexdojo-levels", "version": 1, "levels": levels}))
    return base / "npc"


def test_relative_paths_in_the_toml_resolve_from_its_folder(npc: Path) -> None:
    meta = json.loads((npc / "npc.json").read_text())
    gm = (npc.parent / "gm").resolve()
    assert meta["rules"] == str(gm / "house.toml")
    assert meta["fighters"] == ["chu", str(gm / "bandit.toml")]
    assert meta["profiles"] == ["Chu", "Guard"] and meta["side"] == "1"
    assert meta["rules_id"] != Game.create(["chu", "guard"]).tables.id  # the house rule


@pytest.mark.parametrize("level", ["master", "fair", "easy"])
def test_a_level_plays_its_runs_fighters_rules_and_side(npc: Path, level: str,
                                                        tmp_path: Path) -> None:
    """Before: a search level (no checkpoint path) played Chu vs Chu on the shipped rules
    and the policy refused the position ("retrain it")."""
    res = run("tournament", f"{npc}:{level}", "random", "-n", "1", "--workers", "1",
              "--no-tactics", "--no-progress", "-o", str(tmp_path / "t"))
    assert res.exit_code == 0, res.output
    assert "playing the NPC's own fighters: chu vs " in res.output
    assert "bandit.toml" in res.output
    assert f"rules: {npc.parent / 'gm' / 'house.toml'} (the NPC's own" in res.output
    assert "warning" not in res.output  # the fight is the one it trained on


def test_play_a_level_gives_the_human_the_other_side(npc: Path) -> None:
    res = CliRunner().invoke(app, ["play", "--opponent", f"{npc}:master"], input="q\n")
    assert res.exit_code == 0, res.output
    assert "You are fighter A (Chu) against npc:master (Guard)" in res.output
    assert "(the NPC's own" in res.output and "warning" not in res.output


def test_explicit_rules_keep_the_npcs_fighters(npc: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.toml"
    other.write_text("[knockback]\nknocked_over_min_fail = 8\n")
    res = run("tournament", f"{npc}:master", "random", "-n", "1", "--workers", "1",
              "--no-tactics", "--no-progress", "-o", str(tmp_path / "t"), "--rules", str(other))
    assert res.exit_code == 0, res.output
    assert "playing the NPC's own fighters: chu vs " in res.output
    assert "\nrules: " not in res.output  # the NPC's own rules not taken over --rules
    assert "was trained on rule set" in res.output  # said, and played with its fighters


def test_a_missing_rules_file_is_one_line_naming_the_sidecar(npc: Path, tmp_path: Path) -> None:
    moved = tmp_path / "moved"
    moved.mkdir()
    shutil.copy(npc / "npc.zip", moved / "npc.zip")
    meta = json.loads((npc / "npc.json").read_text())
    (moved / "npc.json").write_text(json.dumps(dict(meta, rules=str(tmp_path / "gone.toml"))))
    res = run("tournament", str(moved / "npc.zip"), "random", "-n", "1", "--workers", "1",
              "--no-tactics", "--no-progress", "-o", str(tmp_path / "t"))
    assert res.exit_code != 0
    assert "npc.json: field 'rules'" in res.output and "Traceback" not in res.output


def test_eval_is_on_the_trained_side_only(npc: Path) -> None:
    """``eval.csv``'s last row is the final policy's score as side B (its only side), the
    figure ``best.zip`` is chosen on; both sides would mix in the side it never plays."""
    rows = read_eval(npc / "eval.csv")
    assert list(rows[-1]) == ["steps", "random"]  # one side: no per-side columns
    meta = json.loads((npc / "npc.json").read_text())
    game = Game.create(meta["fighters"], rules=meta["rules"], turn_limit=6)
    agent = LearnedAgent.load(npc / "npc.zip")
    opp = make_agent("random")
    by_hand = 0.0
    for k in range(4):
        s = play_fight(game, (opp, agent), EVAL_SEED + k)
        by_hand += 1.0 if s.winner == 1 else 0.5 if s.winner is None else 0.0
    assert rows[-1]["random"] == by_hand / 4
    assert mean_rate(rows[-1]) == by_hand / 4


def test_both_sides_are_evaluated_each_on_its_own(npc: Path) -> None:
    meta = json.loads((npc / "npc.json").read_text())
    game = Game.create(meta["fighters"], rules=meta["rules"], turn_limit=6)
    agent = LearnedAgent.load(npc / "npc.zip")
    got = evaluate_sides(agent, game, ["random"], 6, seed=3)
    assert set(got) == {"random", "random@A", "random@B"}
    assert got["random"] == pytest.approx((got["random@A"] + got["random@B"]) / 2)
    assert evaluate(agent, game, ["random"], 6, seed=3) == {"random": got["random"]}
    one = evaluate_sides(agent, game, ["random"], 3, seed=3, sides=(1,))
    assert set(one) == {"random"}
    assert mean_rate({"steps": 1, **got}) == got["random"]


def test_demo_plays_a_levels_own_fight_and_warns_of_the_wrong_side(npc: Path) -> None:
    res = run("demo", "--agents", f"random,{npc}:master", "--turn-limit", "2")
    assert res.exit_code == 0, res.output
    assert "playing the NPC's own fighters: chu vs " in res.output
    assert "(the NPC's own, from" in res.output and "warning" not in res.output
    res = run("demo", "--agents", f"{npc}:easy,random", "--turn-limit", "2")
    assert res.exit_code == 0, res.output
    assert "warning: npc:easy was trained on side B only" in res.output


def test_demo_without_an_npc_keeps_chu_vs_urlik() -> None:
    res = run("demo", "--turn-limit", "1")
    assert res.exit_code == 0, res.output
    assert "Chu" in res.output and "Urlik" in res.output and "NPC's own" not in res.output

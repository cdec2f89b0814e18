"""NPC training (issue 4): a short MaskablePPO run writes its files, a run killed midway
resumes from its last checkpoint into a loadable, continuing model, the trained model
plays as an Agent with only legal choices, and bad config values get clear errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

pytest.importorskip("sb3_contrib")

from hexdojo.agents.policy import LearnedAgent  # noqa: E402
from hexdojo.agents.training.config import load_config  # noqa: E402
from hexdojo.agents.training.evaluate import evaluate  # noqa: E402
from hexdojo.agents.training.ppo import train  # noqa: E402
from hexdojo.agents.training.rundir import RunDir, read_eval  # noqa: E402
from hexdojo.envs.rules import Game, RulesError  # noqa: E402

TINY = {
    "total_steps": 256, "n_envs": 2, "checkpoint_every": 128, "turn_limit": 6,
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [32]},
    "imitation": {"fights": 0},
    # greedy: a bot whose thinking the time profile can see (random play costs microseconds)
    "pool": {"scripted": ["random", "greedy"], "snapshot_every": 128, "max_snapshots": 2},
    "eval": {"every": 128, "episodes": 2, "opponents": ["random"]},
}


def test_short_run_writes_model_checkpoints_snapshots_and_eval(tmp_path):
    cfg = load_config(overrides=TINY)
    final = train(cfg, tmp_path / "run", progress=False)
    run = RunDir(tmp_path / "run")
    assert final == run.final and final.is_file() and run.latest.is_file()
    assert run.best.is_file(), "the best evaluated checkpoint is kept"
    LearnedAgent.load(run.best)
    assert 1 <= len(run.snapshot_paths()) <= 2
    rows = read_eval(run.eval_csv)
    assert [r["steps"] for r in rows] == sorted(r["steps"] for r in rows) and rows
    assert 0.0 <= rows[-1]["random"] <= 1.0
    progress = json.loads(run.progress.read_text())
    assert progress["done"] is True
    # the time profile splits the environments' time into opponents' thinking and the rest
    assert 0 < progress["opponent_seconds"] <= progress["env_seconds"] <= progress["wall_seconds"]
    assert progress["rules_env_seconds"] == pytest.approx(
        progress["env_seconds"] - progress["opponent_seconds"], abs=0.02)
    assert progress["env_fraction"] == pytest.approx(
        progress["opponent_fraction"] + progress["rules_env_fraction"], abs=2e-4)
    assert list(run.tb.iterdir()), "TensorBoard logs written"
    # the trained NPC plays as an Agent, only legal choices (mask exact: 0 illegal)
    agent = LearnedAgent.load(final)
    game = Game.create(["chu", "boris"], turn_limit=6)
    rates = evaluate(agent, game, ["random"], episodes=4, seed=1)
    assert 0.0 <= rates["random"] <= 1.0 and agent.illegal == 0
    with pytest.raises(FileExistsError, match="--resume"):
        train(cfg, tmp_path / "run", progress=False)


@pytest.mark.slow
def test_killed_run_resumes_from_its_checkpoint(tmp_path):
    out = tmp_path / "killed"
    cfg = dict(TINY, total_steps=100_000, checkpoint_every=64)
    code = (
        "import sys, json; from hexdojo.agents.training.ppo import train; "
        "from hexdojo.agents.training.config import load_config; "
        f"train(load_config(overrides=json.loads(sys.argv[1])), {str(out)!r}, progress=False)"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, json.dumps(cfg)])
    run = RunDir(out)
    deadline = time.time() + 240
    while time.time() < deadline and not (run.latest.is_file() and run.progress.is_file()):
        time.sleep(0.2)
    time.sleep(1.0)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert run.latest.is_file(), "a checkpoint was written before the kill"
    LearnedAgent.load(run.latest)  # whole, loadable (temporary files may remain beside it)
    done_before = json.loads(run.progress.read_text())["steps"]
    assert done_before >= 64
    resumed = load_config(overrides=dict(cfg, total_steps=done_before + 128))
    final = train(resumed, out, resume=True, progress=False)
    agent = LearnedAgent.load(final)
    assert agent.model.num_timesteps >= done_before + 128, "training continued from the checkpoint"


@pytest.mark.parametrize(
    ("overrides", "field"),
    [({"n_envs": 0}, "n_envs"), ({"ppo": {"learning_rate": -1}}, "ppo.learning_rate"),
     ({"side": "left"}, "side"), ({"fighters": ["chu"]}, "fighters"), ({"colour": 1}, "colour")],
)
def test_bad_config_values_are_named(overrides, field):
    with pytest.raises(RulesError) as e:
        load_config(overrides=overrides)
    assert f"'{field}'" in str(e.value)


def test_bad_config_file_names_the_file(tmp_path):
    p = tmp_path / "train.toml"
    p.write_text("total_steps = -5\n")
    with pytest.raises(RulesError) as e:
        load_config(p)
    assert str(p) in str(e.value) and "'total_steps'" in str(e.value) and "-5" in str(e.value)


def test_resume_refuses_other_settings(tmp_path):
    cfg = load_config(overrides=TINY)
    train(cfg, tmp_path / "run", progress=False)
    other = load_config(overrides=dict(TINY, fighters=["boris", "boris"], total_steps=512))
    with pytest.raises(ValueError, match="fighters"):
        train(other, tmp_path / "run", resume=True, progress=False)
    fewer = load_config(overrides=dict(TINY, total_steps=128))
    before = RunDir(tmp_path / "run").final.read_bytes()
    with pytest.raises(ValueError, match="--steps 128 is fewer than the") as e:
        train(fewer, tmp_path / "run", resume=True, progress=False)
    assert "\n" not in str(e.value)
    assert RunDir(tmp_path / "run").final.read_bytes() == before  # npc.zip not rewritten

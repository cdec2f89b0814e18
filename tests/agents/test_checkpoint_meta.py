"""Checkpoints that remember (issue 14): ``hexdojo train`` writes ``npc.json`` beside
``npc.zip``; ``play`` and ``tournament`` use the NPC's own fighters when given none and say
so; another fighter pairing or rule set is one warning line; a checkpoint without a sidecar
plays as before; ``run --steps`` extends or refuses; checkpoints come on time too."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

pytest.importorskip("sb3_contrib")

from hexdojo.agents.checkpoint_meta import extends_run, read_meta  # noqa: E402
from hexdojo.agents.cli import app  # noqa: E402
from hexdojo.agents.training.config import load_config  # noqa: E402
from hexdojo.agents.training.ppo import train  # noqa: E402
from hexdojo.agents.training.rundir import RunDir  # noqa: E402
from hexdojo.envs.rules import Game  # noqa: E402

TINY = {
    "total_steps": 128, "n_envs": 1, "turn_limit": 4, "checkpoint_every": 128,
    "fighters": ["chu", "boris"], "side": "0",
    "ppo": {"n_steps": 64, "batch_size": 64, "n_epochs": 1, "net_arch": [16]},
    "imitation": {"fights": 0},
    "pool": {"scripted": ["random"], "self_play": False},
    "eval": {"every": 128, "episodes": 2, "opponents": ["random"]},
}
TINY_TOML = """
total_steps = 128
n_envs = 1
turn_limit = 4
checkpoint_every = 128
fighters = ["chu", "boris"]
side = "0"
[ppo]
n_steps = 64
batch_size = 64
n_epochs = 1
net_arch = [16]
[imitation]
fights = 0
[pool]
scripted = ["random"]
self_play = false
[eval]
every = 128
episodes = 2
opponents = ["random"]
"""


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


@pytest.fixture(scope="module")
def npc(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("npc") / "run"
    train(load_config(overrides=TINY), out, progress=False)
    return out


def test_sidecar_records_what_the_npc_was_trained_on(npc: Path) -> None:
    meta = json.loads((npc / "npc.json").read_text())
    assert meta["fighters"] == ["chu", "boris"] and meta["profiles"] == ["Chu", "Boris"]
    assert meta["rules_id"] == Game.create(["chu", "boris"]).tables.id
    assert meta["env"] == "hexdojo/Duel-v1" and meta["observation_scale"] == "unit"
    assert meta["side"] == "0" and meta["scene"] is None and meta["steps"] == 128
    assert read_meta(npc / "checkpoints" / "latest.zip")["steps"] == 128
    assert (npc / "best.json").is_file()
    assert not list(npc.rglob("*.tmp"))  # written atomically


def test_play_uses_the_npcs_own_fighters_and_side_and_says_so(npc: Path) -> None:
    res = run("play", "--opponent", str(npc / "npc.zip"), input="q\n")
    assert res.exit_code == 0, res.output
    assert f"playing the NPC's own fighters: chu vs boris (from {npc / 'npc.json'})" in res.output
    # the NPC learnt side A only (side = "0"): the player takes B, the NPC its own Chu
    assert "You are fighter B (Boris) against npc (Chu)" in res.output


def test_play_with_other_fighters_warns_in_one_line(npc: Path) -> None:
    res = run("play", "--opponent", str(npc / "npc.zip"), "--fighter", "urlik", "--side", "1",
              "--opponent-fighter", "chu", input="q\n")
    assert res.exit_code == 0, res.output
    warn = [ln for ln in res.output.splitlines() if ln.startswith("warning:")]
    assert warn == [f"warning: npc was trained as Chu vs Boris ({npc / 'npc.json'}); this "
                    "fight is Chu vs Urlik: it plays outside its training"]


def test_tournament_defaults_to_the_npcs_fighters(npc: Path, tmp_path: Path) -> None:
    res = run("tournament", str(npc / "npc.zip"), "random", "-n", "2", "-j", "1",
              "-o", str(tmp_path / "t"), "--no-progress", "--no-tactics")
    assert res.exit_code == 0, res.output
    assert "playing the NPC's own fighters: chu vs boris" in res.output
    cfg = json.loads((tmp_path / "t" / "results.json").read_text())["config"]
    assert list(cfg["fighters"]) == ["chu", "boris"]
    assert cfg["turn_limit"] == 4 and "turn limit: 4 (the NPC's own" in res.output
    assert "warning" not in res.output


def test_other_rules_are_warned_about(npc: Path, tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text("[attack]\nrear_bonus = 3\n")
    res = run("tournament", str(npc / "npc.zip"), "random", "-n", "2", "-j", "1",
              "--rules", str(rules), "-o", str(tmp_path / "t"), "--no-progress", "--no-tactics")
    assert res.exit_code == 0, res.output
    assert "warning: npc was trained on rule set aom-" in res.output
    assert "it plays outside its training" in res.output


def test_checkpoint_without_sidecar_plays_as_before(npc: Path, tmp_path: Path) -> None:
    bare = tmp_path / "old.zip"
    shutil.copy(npc / "npc.zip", bare)
    res = run("play", "--opponent", str(bare), input="q\n")
    assert res.exit_code == 0, res.output
    assert "NPC's own" not in res.output and "You are fighter A (Chu A)" in res.output


def test_broken_sidecar_is_one_line(npc: Path, tmp_path: Path) -> None:
    z = tmp_path / "x.zip"
    shutil.copy(npc / "npc.zip", z)
    (tmp_path / "x.json").write_text("{broken")
    res = run("play", "--opponent", str(z), input="q\n")
    assert res.exit_code == 2 and res.output.startswith(f"error: {tmp_path / 'x.json'}: not valid JSON")


def test_run_steps_extends_or_refuses(npc: Path, tmp_path: Path) -> None:
    rd = RunDir(npc)
    assert extends_run(rd.progress, rd.final, None, npc) is False  # reuse
    assert extends_run(rd.progress, rd.final, 128, npc) is False  # already there
    assert extends_run(rd.progress, rd.final, 256, npc) is True  # train on to 256
    with pytest.raises(ValueError, match="already trained for 128 env steps; --steps 64 is fewer"):
        extends_run(rd.progress, rd.final, 64, npc)
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY_TOML)
    res = run("run", "-c", str(cfg), "-o", str(npc), "--steps", "64", "--no-progress")
    assert res.exit_code == 2 and "--steps 64 is fewer" in res.output
    assert "Traceback" not in res.output


def test_run_steps_more_trains_on(npc: Path, tmp_path: Path) -> None:
    out = tmp_path / "ext"
    shutil.copytree(npc, out)
    cfg = load_config(overrides=dict(TINY, total_steps=256))
    assert extends_run(RunDir(out).progress, RunDir(out).final, 256, out)
    train(cfg, out, resume=True, progress=False)
    assert json.loads((out / "run.json").read_text())["steps"] >= 256
    assert read_meta(out / "npc.zip")["steps"] >= 256


@pytest.mark.slow
@pytest.mark.parametrize("seconds, more", [(1e-6, True), (1e4, False)])
def test_checkpoints_on_wall_time(tmp_path: Path, monkeypatch, seconds: float, more: bool) -> None:
    import hexdojo.agents.training.rundir as tr

    saved: list[str] = []
    real = tr.atomic_save_model
    monkeypatch.setattr(tr, "atomic_save_model",
                        lambda model, path: (saved.append(Path(path).name), real(model, path)))
    cfg = load_config(overrides=dict(TINY, checkpoint_every=10**9, checkpoint_seconds=seconds))
    train(cfg, tmp_path / "run", progress=False)
    # the end of a run always writes latest.zip once; on time there are more, mid-run
    assert (saved.count("latest.zip") > 1) is more


def test_train_into_a_trained_run_says_what_to_do(npc: Path, tmp_path: Path) -> None:
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY_TOML)
    res = run("train", "-c", str(cfg), "-o", str(npc), "--no-progress")
    assert res.exit_code == 2
    assert res.output.strip() == (f"error: {npc}: a run is already there; use --resume to "
                                  "continue it or another --out")


def test_a_run_that_never_checkpointed_does_not_block_the_corrected_command(tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "config.json").write_text(load_config(overrides=dict(TINY, seed=99)).model_dump_json())
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(TINY_TOML)
    res = run("run", "-c", str(cfg), "-o", str(out), "-n", "1", "--no-progress")
    assert res.exit_code == 0, res.output
    assert "[1/3] training the NPC" in res.output and (out / "npc.json").is_file()

"""The hexdojo command line: happy paths and one-line errors with non-zero exit codes."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def assert_clean_error(res, *words: str) -> None:
    assert res.exit_code != 0
    text = res.output
    assert "Traceback" not in text
    for w in words:
        assert w in text, text


def test_demo_runs_with_no_arguments() -> None:
    res = run("demo")
    assert res.exit_code == 0, res.output
    assert "Fight ends" in res.output
    assert "A Chu" in res.output and "B Urlik" in res.output  # the board's status lines
    assert "Martial" in res.output  # the readable event log


def test_demo_save_and_replay(tmp_path) -> None:
    f = tmp_path / "fight.json"
    res = run("demo", "--fighters", "boris,cogan", "--agents", "grappler,random",
              "--seed", "3", "--save", str(f))
    assert res.exit_code == 0, res.output
    data = json.loads(f.read_text())
    assert data["format"] == "hexdojo-fight" and data["fighters"] == ["boris", "cogan"]
    rep = run("replay", str(f), "--no-pause")
    assert rep.exit_code == 0, rep.output
    last = res.output.strip().splitlines()[-2]  # the result line before "saved to"
    assert last in rep.output
    assert "warning" not in rep.output


@pytest.mark.slow
def test_tournament_writes_its_report(tmp_path) -> None:
    out = tmp_path / "t"
    res = run("tournament", "random", "greedy", "--fights", "3", "--workers", "1",
              "--out", str(out), "--no-progress")
    assert res.exit_code == 0, res.output
    assert "6 fights" in res.output  # 2 ordered pairings x 3 fights
    for name in ("results.json", "matrix.csv", "ratings.csv", "maneuvers.csv", "chains.csv",
                 "fights.csv", "heatmap.png", "ratings.png", "report.html"):
        assert (out / name).is_file(), name


@pytest.mark.parametrize("args,words", [
    (("tournament", "random", "nobody", "--fights", "1"), ["error:", "unknown agent 'nobody'",
                                                          "random, greedy"]),
    (("tournament", "random", "missing.zip"), ["error:", "checkpoint 'missing.zip' not found"]),
    (("tournament", "random", "striker:aggression=3"), ["error:", "aggression=3",
                                                        "allowed 0..1"]),
    (("tournament", "random", "greedy", "--fights", "0"), ["--fights"]),
    (("tournament", "random", "greedy", "--fighters", "chu,nobody", "--fights", "1"),
     ["error:", "nobody"]),
    (("tournament", "random", "greedy", "--fighters", "a,b,c"), ["error:", "fighters"]),
    (("tournament", "random", "greedy", "--rules", "no_such_rules.toml"),
     ["error:", "no_such_rules.toml", "not found"]),
    (("tournament", "random"), ["error:", "at least two"]),
    (("play", "--opponent", "nobody"), ["error:", "unknown agent 'nobody'"]),
    (("play", "--opponent", "ghost.zip"), ["error:", "not found"]),
    (("play", "--side", "2"), ["--side"]),
    (("demo", "--agents", "greedy"), ["error:", "give one per side"]),
    (("demo", "--seed", "-1"), ["--seed"]),
    (("replay", "no_such_fight.json"), ["error:", "not found"]),
])
def test_bad_input_exits_non_zero_with_a_message(args, words) -> None:
    assert_clean_error(run(*args), *words)


def test_bad_rules_file(tmp_path) -> None:
    bad = tmp_path / "rules.toml"
    bad.write_text("[dice]\nmax_risk_dice = 99\n")
    assert_clean_error(run("demo", "--rules", str(bad)), "error:", "max_risk_dice")


def test_replay_rejects_a_broken_file(tmp_path) -> None:
    f = tmp_path / "x.json"
    f.write_text("{not json")
    assert_clean_error(run("replay", str(f)), "error:", "not valid JSON")
    f.write_text(json.dumps({"format": "something else"}))
    assert_clean_error(run("replay", str(f)), "error:", "not a hexdojo fight")


def test_agents_lists_names() -> None:
    res = run("agents")
    assert res.exit_code == 0
    for name in ("random", "greedy", "striker", "grappler", "counter", "search", ".zip"):
        assert name in res.output


def test_replay_flags_a_changed_log_and_rejects_illegal_choices(tmp_path) -> None:
    f = tmp_path / "fight.json"
    assert run("demo", "--seed", "5", "--save", str(f)).exit_code == 0
    data = json.loads(f.read_text())
    data["events"][3]["rule"] = "edited"
    f.write_text(json.dumps(data))
    res = run("replay", str(f), "--no-pause")
    assert res.exit_code == 0 and "warning" in res.output
    data["choices"][0] = ["maneuver", "Martial Throw", 1, None, 0, 2, 0]
    f.write_text(json.dumps(data))
    assert_clean_error(run("replay", str(f), "--no-pause"), "error:", "step 1", "not legal")


@pytest.mark.parametrize("toml,words", [
    ("total_steps = -5\n", ["error:", "'total_steps'", "-5"]),
    ("[ppo]\nlearning_rate = 7\n", ["error:", "'ppo.learning_rate'"]),
    ("[pool]\nscripted = ['nobody']\n", ["error:", "unknown agent 'nobody'"]),
])
def test_train_and_run_reject_invalid_config_values(tmp_path, toml, words) -> None:
    """issue 4: invalid config values give a one-line error and a non-zero exit."""
    pytest.importorskip("sb3_contrib")
    cfg = tmp_path / "train.toml"
    cfg.write_text(toml)
    for cmd in ("train", "run"):
        assert_clean_error(run(cmd, "--config", str(cfg), "--out", str(tmp_path / cmd)), *words)
    # nothing was written for a config that failed validation
    assert not (tmp_path / "train").exists() and not (tmp_path / "run").exists()


def test_train_resume_without_a_run_is_an_error(tmp_path) -> None:
    pytest.importorskip("sb3_contrib")
    assert_clean_error(run("train", "--resume", "--out", str(tmp_path / "none")),
                       "error:", "no checkpoint to resume")


@pytest.mark.slow
def test_run_main_job_end_to_end(tmp_path) -> None:
    """issue 4, the main job: train (tiny budget), tournament against the ladder, report."""
    pytest.importorskip("sb3_contrib")
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(
        "total_steps = 256\nn_envs = 2\nturn_limit = 6\ncheckpoint_every = 128\n"
        "[ppo]\nn_steps = 64\nbatch_size = 64\nn_epochs = 1\nnet_arch = [32]\n"
        "[imitation]\nfights = 0\n[pool]\nscripted = ['random', 'striker']\nsnapshot_every = 128\n"
        "[eval]\nevery = 128\nepisodes = 2\nopponents = ['random']\n")
    out = tmp_path / "npc"
    res = run("run", "--config", str(cfg), "--out", str(out), "--fights", "2")
    assert res.exit_code == 0, res.output
    for f in ("npc.zip", "best.zip", "learning_curve.png", "tournament/report.html",
              "tournament/results.json", "tournament/heatmap.png"):
        assert (out / f).is_file(), f
    ranked = json.loads((out / "tournament" / "results.json").read_text())["ratings"]["table"]
    assert sorted(r["agent"] for r in ranked) == sorted(
        ["npc", "random", "greedy", "striker", "grappler", "counter"])
    assert "report:" in res.output
    again = run("run", "--config", str(cfg), "--out", str(out), "--fights", "2")
    assert again.exit_code == 0 and "reusing" in again.output

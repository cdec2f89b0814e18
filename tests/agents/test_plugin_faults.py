"""Issue 29, plug-ins are guests: an agent file that raises, returns None, a string or an
illegal choice, raises in reset(), or calls sys.exit() (in act or at import) is one line
naming the file, the class, the decision and what it returned, in every command that takes
agents: the command stops with exit 2, or with --forfeit-on-error the fight is a loss of
the plug-in's side and the run goes on."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from hexdojo.agents.cli import app
from hexdojo.agents.plugins import FORFEIT_ENV

BAD = textwrap.dedent('''
    import sys

    class Raises:
        def act(self, state):
            raise RuntimeError("my bug")

    class ReturnsNone:
        def act(self, state):
            return None

    class ReturnsText:
        def act(self, state):
            return "punch"

    class Illegal:
        """The first legal choice it ever saw, played again at every decision."""
        def __init__(self):
            self.first = None

        def act(self, state):
            if self.first is None:
                self.first = state.legal_choices()[0]
            if state.decision.kind != "phase":
                return self.first
            return state.legal_choices()[0]

    class ResetRaises:
        def reset(self, seed=None):
            raise KeyError("seed")

        def act(self, state):
            return state.legal_choices()[0]

    class Exits:
        def act(self, state):
            sys.exit(3)
''')

CASES = {"Raises": "act() raised RuntimeError: my bug",
         "ReturnsNone": "act() returned None (NoneType), not a Choice",
         "ReturnsText": "act() returned 'punch' (str), not a Choice",
         "Illegal": "act() returned an illegal choice",
         "ResetRaises": "reset(",
         "Exits": "act() raised SystemExit: 3"}


@pytest.fixture(autouse=True)
def _no_forfeit(monkeypatch):
    monkeypatch.delenv(FORFEIT_ENV, raising=False)


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    f = tmp_path / "bad_bots.py"
    f.write_text(BAD)
    return f


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(app, list(args), input=input)


def one_line(res, *words: str) -> str:
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output, res.output
    errors = [ln for ln in res.output.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1, res.output
    for w in words:
        assert w in errors[0], errors[0]
    return errors[0]


@pytest.mark.parametrize("cls", sorted(CASES))
def test_a_failing_plugin_stops_a_tournament_in_one_line(bad: Path, tmp_path: Path, cls: str):
    out = tmp_path / "t"
    res = run("tournament", f"{bad}:{cls}", "random", "-n", "2", "-j", "1", "-o", str(out),
              "--no-progress", "--no-tactics")
    line = one_line(res, f"plug-in agent {bad}:{cls}", CASES[cls])
    assert ("at turn" in line) != (cls == "ResetRaises")  # the decision, where there is one
    assert not out.exists()  # nothing half-written


@pytest.mark.parametrize(("scene", "fighters"), [(None, "chu,chu"), (None, "chu,urlik"),
                                                 ("monk_vs_guard", None), ("two_vs_one", None)])
def test_forfeit_on_error_scores_a_loss_and_goes_on(bad: Path, tmp_path: Path, scene, fighters):
    out = tmp_path / "t"
    where = ("--scene", scene) if scene else ("--fighters", fighters)
    res = run("tournament", f"{bad}:ReturnsNone", "random", "greedy", "-n", "2", "-j", "2",
              "-o", str(out), "--no-progress", "--no-tactics", "--forfeit-on-error", *where)
    assert res.exit_code == 0, res.output
    data = json.loads((out / "results.json").read_text())
    me = data["agents"]["ReturnsNone"]
    assert me["wins"] == 0 and me["draws"] == 0 and me["losses"] == 8  # 2 opponents x 2 x 2
    rows = (out / "fights.csv").read_text().splitlines()
    assert sum("forfeit" in r for r in rows) == 8


def test_a_plugin_exiting_at_import_is_one_line(tmp_path: Path):
    f = tmp_path / "quits.py"
    f.write_text("import sys\nsys.exit(0)\n")
    one_line(run("tournament", f"{f}:Bot", "random", "-n", "1", "--no-progress",
                 "-o", str(tmp_path / "t")), str(f), "importing it failed: SystemExit")


def test_two_workers_stop_in_one_line_too(bad: Path, tmp_path: Path):
    res = run("tournament", f"{bad}:Raises", "random", "greedy", "-n", "4", "-j", "2",
              "-o", str(tmp_path / "t"), "--no-progress", "--no-tactics")
    one_line(res, f"{bad}:Raises", "my bug")


@pytest.mark.parametrize("cls", ["Raises", "ReturnsText", "ResetRaises"])
def test_demo_play_compare_and_advise_stop_in_one_line(bad: Path, tmp_path: Path, cls: str):
    spec = f"{bad}:{cls}"
    one_line(run("demo", "--agents", f"{spec},greedy"), spec, CASES[cls])
    one_line(run("play", "--opponent", spec, "--side", "1", input="q\n"), spec)
    one_line(run("compare", spec, "random", "-n", "2", "-j", "1", "-o", str(tmp_path / "c"),
                 "--no-progress"), spec, CASES[cls])
    if cls != "ResetRaises":  # advise asks for one decision, no fight is reset
        pos = Path(__file__).resolve().parents[2] / "docs" / "examples" / "advise_position.toml"
        one_line(run("advise", str(pos), "--agent", spec), spec)


@pytest.mark.slow
def test_ablate_and_tactics_stop_in_one_line_or_forfeit(bad: Path, tmp_path: Path):
    spec = f"{bad}:Raises"
    args = ("ablate", spec, "--field", "random", "-n", "2", "--maneuvers", "Punch",
            "-j", "1", "--no-progress")
    one_line(run(*args, "-o", str(tmp_path / "a")), spec, "my bug")
    res = run(*args, "-o", str(tmp_path / "b"), "--forfeit-on-error")
    assert res.exit_code == 0, res.output
    res = run("tournament", spec, "random", "-n", "2", "-j", "1", "-o", str(tmp_path / "t"),
              "--no-progress", "--no-tactics", "--forfeit-on-error")
    assert res.exit_code == 0, res.output
    assert FORFEIT_ENV not in os.environ  # the setting ends with its command
    one_line(run("tactics", str(tmp_path / "t"), "-j", "1", "--no-progress"), spec, "my bug")
    res = run("tactics", str(tmp_path / "t"), "-j", "1", "--no-progress", "--forfeit-on-error")
    assert res.exit_code == 0, res.output


@pytest.mark.slow
def test_compare_with_forfeit_goes_on(bad: Path, tmp_path: Path):
    res = run("compare", f"{bad}:Raises", "random", "-n", "2", "-j", "1",
              "-o", str(tmp_path / "c"), "--no-progress", "--forfeit-on-error")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "c" / "results.json").is_file()


@pytest.mark.slow
@pytest.mark.parametrize("vec", ["n_envs = 1", "n_envs = 2\nvec_env = 'subproc'"])
def test_a_failing_plugin_in_the_training_pool_is_one_line(bad: Path, tmp_path: Path, vec: str):
    pytest.importorskip("sb3_contrib")
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(
        f"total_steps = 128\n{vec}\nturn_limit = 4\ncheckpoint_every = 128\n"
        "[ppo]\nn_steps = 64\nbatch_size = 64\nn_epochs = 1\nnet_arch = [16]\n"
        "[imitation]\nfights = 0\n"
        f"[pool]\nscripted = ['{bad}:ReturnsNone']\nself_play = false\n"
        "[eval]\nevery = 128\nepisodes = 2\nopponents = ['random']\n")
    res = run("train", "-c", str(cfg), "-o", str(tmp_path / "run"), "--no-progress")
    one_line(res, f"{bad}:ReturnsNone", "not a Choice")

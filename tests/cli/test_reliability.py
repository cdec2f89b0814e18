"""Issue 29 through the commands: a report folder is the old one or the new one after a
fault, a folder in use is refused, bad output folders are refused before any fight."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap

import pytest
from typer.testing import CliRunner

from hexdojo.agents import folders, report, tournament
from hexdojo.agents.cli import app
from hexdojo.agents.cli import tournament as tournament_cmd
from hexdojo.agents.lab import ablate, compare
from tests.folders_kit import folder_held_elsewhere

runner = CliRunner()
TOURNEY = ("tournament", "random", "greedy", "--fights", "2", "--workers", "1",
           "--no-progress", "--no-tactics")


def run(*args: str):
    return runner.invoke(app, list(args))


def one_error_line(res, *words: str) -> str:
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in res.output, res.output
    for w in words:
        assert w in errors[0], errors[0]
    return errors[0]


def _old_report(out):
    out.mkdir()
    for name in ("results.json", "report.html", "fights.csv"):
        (out / name).write_text("old")


def _no_play(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a fight was played before the input was checked")
    monkeypatch.setattr(tournament, "run_tournament", refuse)
    monkeypatch.setattr(tournament_cmd, "run_tournament", refuse)  # the command's own name
    monkeypatch.setattr(compare, "run_units", refuse)
    monkeypatch.setattr(ablate, "run_units", refuse)


def test_disk_full_mid_report_keeps_the_old_report_whole(tmp_path, monkeypatch):
    out = tmp_path / "t"
    _old_report(out)
    real = report.atomic_write_bytes

    def full(path, data):
        if str(path).endswith("heatmap.png"):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, data)
    monkeypatch.setattr(report, "atomic_write_bytes", full)
    line = one_error_line(run(*TOURNEY, "--out", str(out)), "heatmap.png", "No space left",
                          "left as it was")
    assert str(out) in line
    assert {p.name: p.read_text() for p in out.iterdir()} == {
        "results.json": "old", "report.html": "old", "fights.csv": "old"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t"]


def test_a_finished_tournament_replaces_the_old_report(tmp_path):
    out = tmp_path / "t"
    _old_report(out)
    (out / "tactics").mkdir()  # an earlier report's tactics: not mixed with the new one
    res = run(*TOURNEY, "--out", str(out))
    assert res.exit_code == 0, res.output
    assert (out / "results.json").read_text() != "old" and (out / "heatmap.png").is_file()
    assert not (out / "tactics").exists()
    assert f"report: {out / 'report.html'}" in res.output


def test_a_folder_in_use_is_refused_in_one_line_naming_the_other(tmp_path, monkeypatch):
    out = tmp_path / "t"
    with folder_held_elsewhere(out, "tournament") as other:
        _no_play(monkeypatch)
        one_error_line(run(*TOURNEY, "--out", str(out)), f"pid {other.pid}",
                       "hexdojo tournament", "in use")


@pytest.mark.parametrize("command", [
    TOURNEY,
    ("compare", "random", "greedy", "-n", "2", "--workers", "1", "--no-progress"),
    ("ablate", "greedy", "--field", "random", "-n", "2", "--maneuvers", "Punch",
     "--workers", "1", "--no-progress"),
])
def test_a_read_only_or_file_output_is_refused_before_any_fight(tmp_path, monkeypatch, command):
    _no_play(monkeypatch)
    (tmp_path / "file").write_text("x")
    one_error_line(run(*command, "--out", str(tmp_path / "file")), "is a file")
    real = os.access
    monkeypatch.setattr(folders.os, "access", lambda p, mode: False if str(p) == str(
        tmp_path / "ro") else real(p, mode))
    (tmp_path / "ro").mkdir()
    one_error_line(run(*command, "--out", str(tmp_path / "ro" / "out")), "permission denied",
                   str(tmp_path / "ro"))


@pytest.mark.slow
def test_a_broken_pipe_is_silent_only_when_the_reader_left():
    """`hexdojo demo | head` ends quietly (exit 0); a broken pipe of a worker while the
    terminal still reads is an error line, not a silent exit 0."""
    quiet = subprocess.run(["bash", "-o", "pipefail", "-c", f"{sys.executable} -c "
                            "'from hexdojo.agents.cli import main; main()' demo | head -1"],
                           capture_output=True, text=True, timeout=120)
    assert quiet.returncode == 0 and quiet.stderr == ""
    code = textwrap.dedent("""
        import sys, typer
        from hexdojo.agents.cli.common import clean_errors
        @clean_errors
        def work():
            raise BrokenPipeError(32, "Broken pipe")
        try:
            work()
        except typer.Exit as exc:  # as the typer app would
            sys.exit(exc.exit_code)
    """)
    loud = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert loud.returncode == 1
    assert loud.stderr.strip() == "error: a worker process ended unexpectedly (Broken pipe)"


@pytest.mark.parametrize("command", ["train", "run"])
def test_train_and_run_on_a_folder_in_use_are_refused_before_any_step(tmp_path, command):
    pytest.importorskip("sb3_contrib")
    from hexdojo.agents.folders import folder_lock

    out = tmp_path / "npc"
    with folder_lock(out, "train"):  # as if another training held it
        res = run(command, "--out", str(out), "--steps", "64", "--no-progress")
    one_error_line(res, "in use by `hexdojo train`", f"pid {os.getpid()}")
    assert not out.exists()  # nothing written


@pytest.mark.parametrize(("code", "words"), [
    (errno.ENOSPC, ["No space left", "left as it was"]),
    (errno.EACCES, ["Permission denied", "nothing of it was changed"]),
])
def test_a_write_error_names_the_file_and_what_was_kept(tmp_path, monkeypatch, code, words):
    """A single file (a saved fight) that cannot be written: one line, its name."""
    from hexdojo.agents import files

    def refuse(path, data):
        raise OSError(code, os.strerror(code), str(path))
    monkeypatch.setattr(files, "atomic_write_bytes", refuse)
    f = tmp_path / "fight.json"
    one_error_line(run("demo", "--save", str(f)), str(f), *words)
    assert not f.exists()

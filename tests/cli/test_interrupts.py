"""Issue 29, interrupts: Ctrl-C (SIGINT to the process group, as a terminal sends it) and
SIGTERM end a multi-process command in one line (exit 130 / 143), no worker prints a
traceback or outlives the parent, and kill -9 of the parent takes its workers with it.
The report folder is the old one afterwards. The timeouts below only catch a hang."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

MAIN = "from hexdojo.agents.cli import main; main()"
LONG_TOURNEY = ("tournament", "random", "greedy", "-n", "200000", "-j", "2", "--no-progress")


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as fh:
            return [int(x) for x in fh.read().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _start(args: tuple[str, ...], cwd: Path) -> tuple[subprocess.Popen, list[int]]:
    """The command, once its worker processes run."""
    proc = subprocess.Popen([sys.executable, "-c", MAIN, *args], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while len(_children(proc.pid)) < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    kids = _children(proc.pid)
    assert len(kids) >= 2, proc.communicate()
    time.sleep(0.3)  # mid-play
    return proc, kids


def _wait_gone(pids: list[int], seconds: float = 10.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while any(_alive(k) for k in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    return [k for k in pids if _alive(k)]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(("command", "sig", "code", "line"), [
    (LONG_TOURNEY, "SIGINT", 130, "error: interrupted"),
    (LONG_TOURNEY, "SIGTERM", 143, "error: terminated (SIGTERM)"),
    (("compare", "random", "greedy", "-n", "20000", "-j", "2", "--no-progress"), "SIGINT", 130,
     "error: interrupted"),
])
def test_an_interrupt_ends_the_command_in_one_line_and_keeps_the_old_report(
        tmp_path, command, sig, code, line):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "results.json").write_text("old")
    proc, kids = _start((*command, "-o", str(out)), tmp_path)
    if sig == "SIGINT":
        os.killpg(proc.pid, signal.SIGINT)  # the whole group, as Ctrl-C in a terminal
    else:
        os.kill(proc.pid, getattr(signal, sig))
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code
    assert err.strip() == line  # one line: no worker's traceback
    assert _wait_gone(kids) == []
    assert [p.name for p in out.iterdir()] == ["results.json"]
    assert (out / "results.json").read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]  # no temp folder, no lock


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG")
def test_kill_9_of_the_parent_takes_its_workers(tmp_path):
    proc, kids = _start((*LONG_TOURNEY, "-o", str(tmp_path / "rep")), tmp_path)
    proc.kill()
    proc.wait(timeout=60)
    assert _wait_gone(kids) == []
    # the next run cleans the dead run's temp folder and takes its lock over, with a warning
    res = subprocess.run([sys.executable, "-c", MAIN, "tournament", "random", "greedy", "-n",
                          "2", "-j", "1", "--no-progress", "--no-tactics", "-o", "rep"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "taking over the lock" in res.stderr and str(proc.pid) in res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


@pytest.mark.slow
def test_sigterm_during_training_checkpoints_and_exits_143(tmp_path):
    pytest.importorskip("sb3_contrib")
    cfg = tmp_path / "tiny.toml"
    cfg.write_text(
        "total_steps = 10000000\nn_envs = 1\nturn_limit = 6\n"
        "checkpoint_every = 100000000\n"
        "[ppo]\nn_steps = 64\nbatch_size = 64\nn_epochs = 1\nnet_arch = [16]\n"
        "[imitation]\nfights = 0\n[pool]\nscripted = ['random']\nself_play = false\n"
        "[eval]\nevery = 100000000\nepisodes = 2\nopponents = ['random']\n")
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-c", MAIN, "train", "-c", str(cfg), "-o", str(out),
                             "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    deadline = time.monotonic() + 120
    while not (out / "tb").exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # learning
    proc.terminate()
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1] == "error: terminated (SIGTERM)"
    assert "Traceback" not in err
    steps = json.loads((out / "checkpoints" / "latest.json").read_text())["steps"]
    assert steps > 0 and json.loads((out / "run.json").read_text())["steps"] == steps
    assert not (out.parent / ".run.lock").exists()

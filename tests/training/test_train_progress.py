"""Long work shows progress: training prints a line every ~30 s when no bar is shown
(output not a terminal, e.g. CI or a log file)."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

from hexdojo.agents.training import callbacks  # noqa: E402
from hexdojo.agents.training.config import load_config  # noqa: E402
from hexdojo.agents.training.ppo import train  # noqa: E402


def test_training_prints_progress_lines_without_a_bar(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(callbacks, "PROGRESS_EVERY", 0.0)  # a line at every step
    cfg = load_config(None, {"total_steps": 256, "n_envs": 1, "eval": {"every": 10_000},
                             "imitation": {"fights": 0},
                             "ppo": {"n_steps": 128, "batch_size": 64}})
    train(cfg, tmp_path / "run", progress=False)
    lines = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("training: ")]
    assert lines and lines[-1].startswith("training: 256/256 env steps (100%)")

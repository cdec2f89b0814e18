"""``examples/ppo_masked.py`` (issue 35), the CleanRL-style single file: a few thousand
steps from the command line must write a TensorBoard run whose episodes are logged, whose
policy never takes an illegal action (the mask broken, the env would count rejections),
whose updates move the policy, and which the same seed reproduces exactly."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("tensorboard")
from tensorboard.backend.event_processing.event_accumulator import EventAccumulator  # noqa: E402

pytestmark = pytest.mark.slow  # docs/development.md, the fast subset

SCRIPT = Path(__file__).parents[2] / "examples" / "ppo_masked.py"
SMALL = ["--total-timesteps", "3072", "--num-envs", "8", "--num-steps", "128", "--hidden", "64"]


def run(log_dir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *SMALL, "--log-dir", str(log_dir), *extra],
                          capture_output=True, text=True, timeout=600)


def scalars(log_dir: Path) -> dict[str, list[tuple[int, float]]]:
    """Every scalar of the one run under ``log_dir``, as (step, value) lists."""
    (run_dir,) = list(log_dir.iterdir())
    acc = EventAccumulator(str(run_dir), size_guidance={"scalars": 0})
    acc.Reload()
    return {tag: [(e.step, e.value) for e in acc.Scalars(tag)] for tag in acc.Tags()["scalars"]}


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict]:
    a, b = tmp_path_factory.mktemp("a"), tmp_path_factory.mktemp("b")
    for d in (a, b):
        out = run(d, "--seed", "3")
        assert out.returncode == 0, out.stderr[-3000:]
    return scalars(a), scalars(b)


def test_the_run_logs_episodes_with_no_illegal_action_and_updates(two_runs) -> None:
    s, _ = two_runs
    returns = [v for _, v in s["charts/episodic_return"]]
    assert len(returns) >= 40 and set(returns) <= {-1.0, 0.0, 1.0}  # +1 win, -1 loss, 0 draw
    assert len(s["charts/illegal_actions"]) == 3  # one per iteration
    assert all(v == 0 for _, v in s["charts/illegal_actions"])  # the mask holds
    assert all(v > 0 for _, v in s["losses/approx_kl"])  # every update moved the policy
    for tag in ("losses/policy_loss", "losses/value_loss", "losses/entropy"):
        assert all(math.isfinite(v) for _, v in s[tag]), tag
    lr = [v for _, v in s["charts/learning_rate"]]
    assert lr == sorted(lr, reverse=True) and lr[-1] < lr[0]  # annealed


def test_the_same_seed_is_the_same_run(two_runs) -> None:
    a, b = two_runs
    assert set(a) == set(b)
    for tag in a:
        if tag != "charts/SPS":  # wall-clock speed
            assert a[tag] == b[tag], tag


def test_a_bad_option_is_one_clear_line(tmp_path: Path) -> None:
    out = run(tmp_path, "--anneal-lr", "maybe")
    assert out.returncode == 2 and "'maybe': allowed true or false" in out.stderr
    assert not any(tmp_path.iterdir())

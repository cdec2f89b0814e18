"""The rllib backend's run without Ray (issue 35): the batch grows with the env runners and
is split among the learners, the address comes from ``RAY_ADDRESS`` when no flag gives
one, loopback addresses are recognised, and the run folder's refusals and checkpoint
commit keep a killed run's last checkpoint (the Ray run itself: tests/training/test_rllib_cluster.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from hexdojo.agents.rllib_backend import batch_per_runner, train_batch
from hexdojo.agents.training import rllib_run as rr
from hexdojo.agents.training.config import load_config


def cfg(**rllib):
    return load_config(None, {"n_envs": 4, "rllib": rllib})


def test_the_train_batch_grows_with_the_env_runners():
    assert batch_per_runner(cfg()) == 64 * 4  # ppo.n_steps x n_envs: an SB3 rollout
    assert [train_batch(cfg(num_env_runners=n, train_batch_per_runner=500)) for n in (0, 1, 2, 32)] \
        == [500, 500, 1000, 16_000]


def test_the_batch_is_split_among_the_learners():
    pytest.importorskip("ray.rllib")
    from hexdojo.agents.rllib_backend import build_config

    c = build_config(cfg(num_env_runners=4, train_batch_per_runner=300, num_learners=3))
    assert (c.num_learners, c.num_env_runners, c.num_envs_per_env_runner) == (3, 4, 4)
    assert c.train_batch_size_per_learner == 400 and c.total_train_batch_size == 1200


def test_the_address_comes_from_the_flag_then_ray_address(monkeypatch):
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.5:6379")
    assert rr.cluster_address(None) == "10.0.0.5:6379"
    assert rr.cluster_address("127.0.0.1:7000") == "127.0.0.1:7000"
    monkeypatch.delenv("RAY_ADDRESS")
    assert rr.cluster_address(None) is None and rr.cluster_address("local") is None


@pytest.mark.parametrize(("address", "loop"), [("127.0.0.1:6379", True), ("localhost:1", True),
                                               ("[::1]:6379", True), ("10.1.2.3:6379", False),
                                               ("head.lab:6379", False)])
def test_loopback_addresses(address, loop):
    assert rr.is_loopback(address) is loop


class FakeAlgo:
    """``save_to_path`` as RLlib's writes a folder; ``fail`` interrupts it half-way."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail

    def save_to_path(self, path: str) -> None:
        os.makedirs(os.path.join(path, "learner_group"))
        if self.fail:
            raise KeyboardInterrupt


def _row(i: int) -> dict:
    return {"iteration": i, "env_steps_lifetime": 100 * i}


def test_a_checkpoint_is_committed_only_once_whole(tmp_path):
    run, c = rr.RLlibRun(tmp_path), cfg(keep_checkpoints=2)
    for i in (1, 2, 3):
        rr.save_checkpoint(FakeAlgo(), run, c, _row(i))
    meta = json.loads(run.marker.read_text())
    assert (meta["checkpoint"], meta["iteration"], meta["env_steps"]) == ("checkpoints/iter_000003", 3, 300)
    assert sorted(p.name for p in run.checkpoints.iterdir()) == ["iter_000002", "iter_000003"]
    with pytest.raises(KeyboardInterrupt):  # killed while RLlib writes iteration 4
        rr.save_checkpoint(FakeAlgo(fail=True), run, c, _row(4))
    assert json.loads(run.marker.read_text()) == meta  # still the last whole one
    assert sorted(p.name for p in run.checkpoints.iterdir()) == ["iter_000002", "iter_000003"]


def test_a_new_run_over_an_old_one_is_refused_and_resume_is_checked(tmp_path):
    run, c = rr.RLlibRun(tmp_path), cfg(iterations=5)
    assert rr.prepare(run, c, resume=False) is None
    with pytest.raises(ValueError, match="no rllib checkpoint to resume"):
        rr.prepare(run, c, resume=True)
    rr.save_checkpoint(FakeAlgo(), run, c, _row(3))
    with pytest.raises(ValueError, match="--resume or give another --out"):
        rr.prepare(run, c, resume=False)
    assert rr.prepare(run, cfg(iterations=9, num_env_runners=8), resume=True)["iteration"] == 3
    with pytest.raises(ValueError, match="fewer than the 3"):
        rr.prepare(run, cfg(iterations=2), resume=True)
    other = load_config(None, {"n_envs": 4, "turn_limit": 9})
    with pytest.raises(ValueError, match=r"another duel \(fighters"):
        rr.prepare(run, other, resume=True)


def test_a_checkpoint_left_by_a_killed_run_is_replaced_not_trusted(tmp_path: Path):
    run, c = rr.RLlibRun(tmp_path), cfg()
    rr.save_checkpoint(FakeAlgo(), run, c, _row(2))
    (run.checkpoints / "iter_000003" / "stale").mkdir(parents=True)  # renamed, never committed
    (run.checkpoints / ".iter_000004.tmp1").mkdir()  # a killed process's temp folder
    rr.save_checkpoint(FakeAlgo(), run, c, _row(3))
    assert not (run.checkpoints / "iter_000003" / "stale").exists()
    assert not (run.checkpoints / ".iter_000004.tmp1").exists()


def test_a_damaged_marker_is_one_line_not_a_traceback(tmp_path):
    run = rr.RLlibRun(tmp_path)
    run.marker.write_text("{not json")
    with pytest.raises(ValueError, match=r"cannot read hexdojo_rllib.json"):
        rr.prepare(run, cfg(), resume=True)


def test_a_loopback_address_after_ray_was_imported_is_one_line():
    """Ray decides at import whether to rewrite 127.0.0.1; too late here, so say so."""
    pytest.importorskip("ray")
    from ray._private import ray_constants

    if not ray_constants.ENABLE_RAY_CLUSTER:
        pytest.skip("ray was imported kept on loopback in this process")
    with pytest.raises(ValueError, match="RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0"):
        rr.import_ray("127.0.0.1:6379")
    assert rr.import_ray("10.0.0.5:6379") is sys.modules["ray"]  # another machine: as is


PROBE = """
import sys
import hexdojo.agents.training.rllib_run as rr

def probe(cfg, folder, resume, address, log):
    from ray._private import ray_constants
    print("PROBE", address, ray_constants.ENABLE_RAY_CLUSTER)
    raise SystemExit(0)

rr.train_rllib = probe
from hexdojo.agents.cli import main
main(["train", "--backend", "rllib", "-o", sys.argv[1]])
"""


@pytest.mark.slow
@pytest.mark.parametrize("address", ["127.0.0.1:6379", None])
def test_the_cli_keeps_ray_on_loopback_before_importing_it(tmp_path, address):
    """``hexdojo train --backend rllib`` with a loopback ``RAY_ADDRESS`` (or none: a local
    Ray) imports ray with the rewrite of 127.0.0.1 off, though the user did not set it;
    nothing is started or dialled (the run itself is replaced by a probe)."""
    pytest.importorskip("ray.rllib")
    import subprocess

    env = {k: v for k, v in os.environ.items()
           if k not in ("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "RAY_ADDRESS")}
    if address:
        env["RAY_ADDRESS"] = address
    run = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "run")], env=env,
                         capture_output=True, text=True, timeout=120)
    assert f"PROBE {address} False" in run.stdout, run.stdout + run.stderr[-2000:]


class RefusingRay:
    """``ray.init`` as Ray's when a token-authenticated cluster refuses the driver."""

    def init(self, **kwargs):
        raise ConnectionError("Failed to connect to Ray cluster at 127.0.0.1:6379")


def test_a_refused_driver_is_told_about_token_authentication():
    with pytest.raises(ValueError) as exc:
        rr.connect(RefusingRay(), "127.0.0.1:6379", cfg())
    line = str(exc.value)
    assert "\n" not in line and "127.0.0.1:6379" in line and "RAY_AUTH_MODE=token" in line
    with pytest.raises(ValueError, match="cannot start a local Ray"):
        rr.connect(RefusingRay(), None, cfg())

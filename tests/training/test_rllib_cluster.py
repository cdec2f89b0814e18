"""``hexdojo train --backend rllib`` on a Ray cluster started with ``ray start`` (issue 35):
the CLI joins it through ``RAY_ADDRESS`` alone, trains with two env runners, is killed
(SIGKILL) after its second committed checkpoint and resumed, and the resumed run continues
the iteration and env-step counts from an intact checkpoint, with TensorBoard scalars; a
new run over it is refused in one line. (A driver without ``RAY_AUTH_MODE=token`` is refused
by such a cluster only after ~25 s of Ray's retries: its one line is tested without Ray, in
tests/training/test_rllib_run.py.)

The cluster binds and talks to 127.0.0.1 only: ``--node-ip-address=127.0.0.1`` with
``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0`` (without it Ray 2.60 rewrites 127.0.0.1 to the
machine's network address), every port chosen free on loopback, token authentication with
a token of its own (``RAY_AUTH_MODE=token``, ``RAY_AUTH_TOKEN``). One node: Ray refuses a
second ``ray start --address`` while it is kept on loopback that way. The cluster is the
``ray start --block`` process of this test, stopped by SIGTERM (its own processes only)."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("tensorboard")

pytestmark = [pytest.mark.rllib, pytest.mark.slow]

CLI = [sys.executable, "-c", "from hexdojo.agents.cli import main; main()"]
PORTS = ("port", "ray-client-server-port", "dashboard-agent-listen-port",
         "dashboard-agent-grpc-port", "metrics-export-port", "runtime-env-agent-port",
         "node-manager-port", "object-manager-port")
SMALL = """\
n_envs = 2
turn_limit = 8
[ppo]
batch_size = 64
n_epochs = 1
net_arch = [32, 32]
[rllib]
num_env_runners = 2
train_batch_per_runner = 128
"""


def free_ports(n: int) -> list[int]:
    """``n`` distinct ports free on 127.0.0.1 now."""
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


@pytest.fixture(scope="module")
def cluster() -> Iterator[dict[str, str]]:
    """A one-node Ray cluster on 127.0.0.1; yields the environment to reach it."""
    temp = tempfile.mkdtemp(prefix="hxray", dir="/tmp")  # short: Ray's socket paths are
    ports = dict(zip(PORTS, free_ports(len(PORTS)), strict=True))
    env = {**os.environ, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_AUTH_MODE": "token",
           "RAY_AUTH_TOKEN": secrets.token_hex(32), "RAY_USAGE_STATS_ENABLED": "0",
           "OMP_NUM_THREADS": "1"}
    env.pop("RAY_ADDRESS", None)
    log = open(Path(temp) / "head.log", "w")  # noqa: SIM115 - closed in the teardown
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block",
         "--node-ip-address=127.0.0.1", "--num-cpus=3", "--include-dashboard=false",
         "--disable-usage-stats", f"--temp-dir={temp}/t",
         *(f"--{k}={v}" for k, v in ports.items())],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        _wait_for(lambda: "Ray runtime started" in (Path(temp) / "head.log").read_text(), 90,
                  head, Path(temp) / "head.log")
        yield {**env, "RAY_ADDRESS": f"127.0.0.1:{ports['port']}", "HEAD_LOG": log.name}
    finally:
        _stop(head)
        log.close()
        shutil.rmtree(temp, ignore_errors=True)


def _wait_for(ready, seconds: float, proc: subprocess.Popen, log: Path) -> None:
    end = time.monotonic() + seconds
    while not ready():
        if proc.poll() is not None or time.monotonic() > end:
            pytest.fail(f"not ready (exit {proc.poll()}):\n{log.read_text()[-3000:]}")
        time.sleep(0.1)


def _stop(head: subprocess.Popen) -> None:
    """SIGTERM to ``ray start --block`` stops the processes it started; its own process
    group (a new session) is killed if it lingers."""
    head.send_signal(signal.SIGTERM)
    try:
        head.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(head.pid, signal.SIGKILL)
        head.wait(timeout=10)


def _marker(out: Path) -> dict:
    path = out / "hexdojo_rllib.json"
    return json.loads(path.read_text()) if path.is_file() else {}


def _train(env: dict[str, str], toml: Path, out: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([*CLI, "train", "--backend", "rllib", "--config", str(toml),
                             "-o", str(out), *extra], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def _killed_after_two(env: dict[str, str], toml: Path, out: Path) -> dict:
    """A run asked for 50 iterations, killed -9 once its second checkpoint is committed."""
    proc = _train(env, toml, out, "--iterations", "50")
    end = time.monotonic() + 120
    while _marker(out).get("iteration", 0) < 2:
        if proc.poll() is not None or time.monotonic() > end:
            proc.kill()
            pytest.fail(f"no second checkpoint (exit {proc.poll()}):\n{proc.communicate()[0][-3000:]}")
        time.sleep(0.05)
    proc.kill()
    proc.communicate(timeout=30)
    return _marker(out)


def test_a_killed_run_on_a_loopback_cluster_resumes_where_it_was(cluster, tmp_path) -> None:
    toml, out = tmp_path / "small.toml", tmp_path / "run"
    toml.write_text(SMALL)
    before = _killed_after_two(cluster, toml, out)
    k = before["iteration"]
    assert k >= 2 and before["checkpoint"] == f"checkpoints/iter_{k:06d}"
    assert (out / before["checkpoint"] / "learner_group").is_dir()
    assert "Local node IP: 127.0.0.1" in Path(cluster["HEAD_LOG"]).read_text()
    # a new run over it is refused before any work, nothing overwritten
    again = subprocess.run([*CLI, "train", "--backend", "rllib", "--config", str(toml), "-o",
                            str(out)], env=cluster, capture_output=True, text=True, timeout=60)
    assert again.returncode == 2 and "--resume" in again.stderr and _marker(out) == before

    resumed = _train(cluster, toml, out, "--resume", "--iterations", str(k + 1))
    text = resumed.communicate(timeout=180)[0]
    assert resumed.returncode == 0, text[-3000:]
    assert f"resumed {out} at iteration {k} ({before['env_steps']} env steps)" in text
    after = _marker(out)
    assert after["iteration"] == k + 1 and after["checkpoint"] == f"checkpoints/iter_{k + 1:06d}"
    # one more iteration of two runners x 128 steps (an episode may end a step past it)
    assert 2 * 128 <= after["env_steps"] - before["env_steps"] < 2 * 128 + 2 * 16
    assert f"iteration {k + 1}/{k + 1}:" in text and f"{after['env_steps']} in all" in text
    assert not list((out / "checkpoints").glob(".iter_*"))  # the killed run's temp swept
    _check_checkpoint_plays(out)
    _check_tensorboard(out, after["env_steps"])


def _check_checkpoint_plays(out: Path) -> None:
    from hexdojo.agents.registry import make_agent
    from hexdojo.envs.duel import make_game

    agent = make_agent(str(out))
    st = make_game(("chu", "boris"), None, 4, 8).new_state(1)
    assert agent.act(st) in st.legal_choices()


def _check_tensorboard(out: Path, last_step: int) -> None:
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(out / "tb" / "rllib"))
    acc.Reload()
    tags = set(acc.Tags()["scalars"])
    assert {"rllib/steps_per_s", "rllib/policy_loss", "rllib/vf_loss", "rllib/entropy",
            "rllib/iteration"} <= tags
    its = acc.Scalars("rllib/iteration")
    assert its[-1].step == last_step and its[-1].value == max(e.value for e in its)

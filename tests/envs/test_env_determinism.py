"""Determinism (issue 3, ANCHORS pitfall 2): same seed and same actions give identical
observations, rewards and event logs, in one process and across processes with
different ``PYTHONHASHSEED``."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys

import numpy as np

from hexdojo.envs import duel_v0
from hexdojo.envs.duel import DuelEnv


def gym_digest(seed: int, episodes: int = 3) -> str:
    """Hash of everything a seeded run of random legal actions produces."""
    h = hashlib.sha256()
    env = DuelEnv(shaping=0.01)
    act_rng = np.random.default_rng(seed)
    for ep in range(episodes):
        obs, info = env.reset(seed=seed + ep)
        while True:
            for k in sorted(obs):
                h.update(obs[k].tobytes())
            h.update(info["action_mask"].tobytes())
            ids = np.flatnonzero(info["action_mask"])
            obs, r, term, trunc, info = env.step(int(ids[act_rng.integers(len(ids))]))
            h.update(repr(float(r)).encode())
            if term or trunc:
                break
        h.update(json.dumps(env.fight.events, sort_keys=True).encode())
    return h.hexdigest()


def aec_digest(seed: int) -> str:
    h = hashlib.sha256()
    env = duel_v0.env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter(5000):
        obs, r, term, trunc, _ = env.last()
        h.update(agent.encode() + obs["action_mask"].tobytes() + repr(float(r)).encode())
        for k in sorted(obs["observation"]):
            h.update(obs["observation"][k].tobytes())
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    h.update(json.dumps(env.unwrapped.fight.events, sort_keys=True).encode())
    return h.hexdigest()


def test_same_seed_same_actions_same_everything() -> None:
    assert gym_digest(11) == gym_digest(11)
    assert gym_digest(11) != gym_digest(12)
    assert aec_digest(5) == aec_digest(5)
    assert aec_digest(5) != aec_digest(6)


def test_identical_across_processes_with_different_hash_seeds() -> None:
    code = (
        "from tests.envs.test_env_determinism import gym_digest, aec_digest;"
        "print(gym_digest(21), aec_digest(21))"
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    outs = set()
    for hs in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hs}
        res = subprocess.run([sys.executable, "-c", code], cwd=root, env=env,
                             capture_output=True, text=True, check=True)
        outs.add(res.stdout.strip())
    assert outs == {f"{gym_digest(21)} {aec_digest(21)}"}

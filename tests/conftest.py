"""Shared test helpers."""

from __future__ import annotations

import os

import numpy as np

# One torch thread per test process: small policies gain nothing from more, and on a busy
# 2-core machine thread oversubscription made a 3k-step PPO smoke test take minutes.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

from hexdojo.envs.rules import State


def play_random(state: State, seed: int, max_decisions: int = 100_000) -> list:
    """Play uniformly random legal choices to the end; returns the choices made."""
    rng = np.random.default_rng(seed)
    made = []
    while not state.is_over and len(made) < max_decisions:
        ch = state.legal_choices()
        c = ch[int(rng.integers(len(ch)))]
        state.apply(c)
        made.append(c)
    return made

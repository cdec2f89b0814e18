"""Shared test helpers."""

from __future__ import annotations

import numpy as np

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

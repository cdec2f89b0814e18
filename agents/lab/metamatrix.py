"""The round-robin payoff matrix per seed, from lab fights, for the meta-game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..ratings import wilson
from .metagame import metagame
from .runner import Fight


def per_seed_matrix(fights: Sequence[Fight], k: int, seeds: Sequence[int]
                    ) -> tuple[np.ndarray, np.ndarray]:
    """(per_seed[s, i, j] = i's score vs j at seed s, both sides averaged; beats[i, j])."""
    index = {s: n for n, s in enumerate(seeds)}
    tot = np.zeros((len(seeds), k, k))
    cnt = np.zeros((len(seeds), k, k))
    for f in fights:
        _, _, i, j, seed = f.key
        if i == j or seed not in index:
            continue
        s = index[seed]
        tot[s, i, j] += f.score(0)
        cnt[s, i, j] += 1
        tot[s, j, i] += f.score(1)
        cnt[s, j, i] += 1
    per = np.where(cnt > 0, tot / np.maximum(cnt, 1), 0.5)
    beats = np.zeros((k, k), dtype=bool)
    for i in range(k):
        for j in range(k):
            n = cnt[:, i, j].sum()
            if i != j and n:
                beats[i, j] = wilson(tot[:, i, j].sum(), n)[0] > 0.5
    return per, beats


def meta_of(fights: Sequence[Fight], names: Sequence[str], seeds: Sequence[int],
            seed: int = 0) -> dict[str, Any]:
    per, beats = per_seed_matrix(fights, len(names), seeds)
    return metagame(names, per, beats, seed)
